#!/usr/bin/env bash
# Benchmarks the prompt generator: PromptSourceBenchmark (JMH) through PromptBenchmarks, pinned to
# one core, then a table of prompts/s, MB/s and the repeat prompt's build time.
# Usage: scripts/bench-prompts.sh [JMH args]   e.g. 'PromptSourceBenchmark.phase' -p counter=estimate
# Env: BENCH_CPU  the core to pin to (default 1); JAVA_HOME as for mvnw.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tokenizers="$root/.cache/tokenizers"

if [ ! -f "$tokenizers/qwen3/tokenizer.json" ]; then
  echo "bench-prompts: $tokenizers/qwen3/tokenizer.json is missing: run scripts/fetch-tokenizers.sh" >&2
  exit 1
fi

java=java
if [ -n "${JAVA_HOME:-}" ]; then
  java="$JAVA_HOME/bin/java"
fi

echo "== machine"
echo "host: $(uname -srm), nproc: $(nproc)"
if [ -r /proc/cpuinfo ]; then
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
fi
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine skews the figures)"
echo "== jvm"
"$java" -version 2>&1

echo "== source"
if git rev-parse --git-dir >/dev/null 2>&1; then
  echo "commit: $(git rev-parse --short HEAD)"
  changed=$(git --no-optional-locks status --porcelain -- src/main | wc -l)
  echo "uncommitted changes under src/main: $changed file(s)"
  git --no-optional-locks status --porcelain -- src/main | sed 's/^/  /'
fi

echo "== build: ./mvnw -q -B test-compile"
./mvnw -q -B test-compile

# Run from a private copy of the classes, so that a build or clean in this tree while the
# benchmark runs (it takes minutes) cannot pull classes from under it.
snapshot=$(mktemp -d "${TMPDIR:-/tmp}/bench-prompts.XXXXXX")
trap 'rm -rf "$snapshot"' EXIT
cp -R target/classes "$snapshot/classes"
cp -R target/test-classes "$snapshot/test-classes"
cp target/test-classpath.txt "$snapshot/test-classpath.txt"
echo "classes: sha256 of the compiled prompt and token packages:" \
  "$(cd "$snapshot/classes" && find io/github/gatlingllm/prompt io/github/gatlingllm/token -name '*.class' \
    | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16)"

pin=()
if command -v taskset >/dev/null; then
  cpu=${BENCH_CPU:-1}
  pin=(taskset -c "$cpu")
  echo "== pinned to core $cpu with taskset (the JVM and JMH's fork see one CPU)"
else
  echo "== taskset not found: not pinned, the JVM sees all $(nproc) CPUs"
fi

classpath="$snapshot/test-classes:$snapshot/classes:$(cat "$snapshot/test-classpath.txt")"
echo "== running io.github.gatlingllm.bench.PromptBenchmarks $*"
rc=0
${pin[@]+"${pin[@]}"} "$java" -Dai.djl.offline=true -Dtest.tokenizers="$tokenizers" \
  -cp "$classpath" io.github.gatlingllm.bench.PromptBenchmarks "$@" || rc=$?
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$rc"
