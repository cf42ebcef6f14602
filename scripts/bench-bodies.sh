#!/usr/bin/env bash
# The send-time cost of a prompt's request body, escaped at send time (text) or written around its
# JSON string prepared ahead by the prompt lookahead (prepared), issue 43: an 87,000-token prompt
# (the Mooncake-shaped trace's largest) and a 1,000-token one, cold (the first body of a fresh JVM),
# warmed up (the first long body after the client warm-up's 300 short ones) and warm (median of 200
# after 500). Each cold line is its own JVM. Usage: scripts/bench-bodies.sh [api] (chat by default).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
java=java
if [ -n "${JAVA_HOME:-}" ]; then
  java="$JAVA_HOME/bin/java"
fi
api=${1:-chat}
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo none); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
./mvnw -q -B -o test-compile
classpath="target/test-classes:target/classes:$(cat target/test-classpath.txt)"
for tokens in 87000 1000; do
  for mode in cold warmedup warm; do
    for form in text prepared; do
      "$java" -Xmx1g -cp "$classpath" io.github.gatlingllm.bench.BodyCost "$mode" "$form" "$tokens" "$api" 2>&1 | grep -v DEBUG
    done
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
