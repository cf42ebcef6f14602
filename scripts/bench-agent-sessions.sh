#!/usr/bin/env bash
# Heap an open agent session holds between turns (issue 32's scale target: at most 64 KB beyond the
# history text its next turn must send): AgentSessionHeapBench opens N sessions of L tool loops in
# a JVM of -Xmx1g and prints the heap they retain and their history text.
# Usage: scripts/bench-agent-sessions.sh [sessions (1000)] [loops (9)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
java=java
if [ -n "${JAVA_HOME:-}" ]; then
  java="$JAVA_HOME/bin/java"
fi
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo none); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
./mvnw -q -B -o test-compile
"$java" -Xmx1g -XX:+UseSerialGC \
  -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" \
  io.github.gatlingllm.feeder.AgentSessionHeapBench "${1:-1000}" "${2:-9}"
