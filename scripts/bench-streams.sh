#!/usr/bin/env bash
# Client load benchmark: how many LLM streams/s one core of Gatling with gatling-llm sustains, and the
# TTFT the client adds. A zero-delay simulator (every token at once, TTFT 0 at the server) runs on
# core 0, the Gatling JVM on core 1; each rate gets 40 s of warmup (JIT) then 30 s measured.
# Usage: scripts/bench-streams.sh [RATE ...]   (default 1000 2000 2500 3000)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
rates=("$@")
[ ${#rates[@]} -gt 0 ] || rates=(1000 2000 2500 3000)
warmup=${BENCH_WARMUP_SECONDS:-40}
seconds=${BENCH_SECONDS:-30}

echo "== machine: $(uname -srm), nproc $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg)"
java -version 2>&1 | head -1
./mvnw -q -B test-compile
classpath="target/test-classes:target/classes:$(cat target/test-classpath.txt)"
pin=()
command -v taskset >/dev/null && pin=(taskset -c)

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# taskset and bin/gatling-llm exec, so $! is the simulator's JVM itself.
${pin[@]:+"${pin[@]}" 0} bin/gatling-llm simulator --port "$port" --zero-delay > target/bench-streams-simulator.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$port/health" >/dev/null && break
  sleep 0.1
done

results=target/bench-streams
mkdir -p "$results"
printf '%8s %12s %10s %8s %12s %12s %12s\n' rate achieved/s ok ko "ttft p50 ms" "ttft p99 ms" "e2e p99 ms"
for rate in "${rates[@]}"; do
  before=$(ls "$results" 2>/dev/null | sort)
  ${pin[@]:+"${pin[@]}" 1} java --add-opens=java.base/java.lang=ALL-UNNAMED -Xmx2G -Dai.djl.offline=true \
    -Dllm.baseUrl="http://127.0.0.1:$port/v1" -Dllm.resultsFolder="$results" \
    -Dbench.rate="$rate" -Dbench.warmupSeconds="$warmup" -Dbench.seconds="$seconds" \
    -cp "$classpath" io.gatling.app.Gatling -s io.github.gatlingllm.bench.StreamLoadSimulation \
    -rf "$results" -nr > "target/bench-streams-$rate.log" 2>&1 || { echo "rate $rate: Gatling failed, see target/bench-streams-$rate.log"; continue; }
  run=$(comm -13 <(echo "$before") <(ls "$results" | sort) | grep '^streamloadsimulation-' | head -1)
  python3 - "$results/$run/llm-run.json" "$rate" <<'PY'
import json, sys
record = json.load(open(sys.argv[1]))
g = next(g for g in record["metrics"]["groups"] if g["request"] == "chat")
s = g["status"]
ok = s.get("ok", 0)
ko = sum(v for k, v in s.items() if k != "ok")
window = (g["window_end_ms"] - g["window_start_ms"]) / 1000
print("%8s %12.0f %10d %8d %12.1f %12.1f %12.1f" % (sys.argv[2], g["requests"] / window, ok, ko,
      g["ttft_ms"]["p50"], g["ttft_ms"]["p99"], g["e2e_ms"]["p99"]))
PY
done
echo "(the server sends every token at once: TTFT here is what the client and loopback add; Gatling stamps events in whole ms)"
