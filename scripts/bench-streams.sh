#!/usr/bin/env bash
# Client load benchmark: how many LLM streams/s one core of Gatling with gatling-llm sustains, and the
# TTFT the client adds. A zero-delay simulator (every token at once, TTFT 0 at the server) runs on
# core 0, the Gatling JVM on core 1; each rate gets 40 s of warmup (JIT; the rate ramps up over its
# first half) then 30 s measured. The client runs one Netty event loop (BENCH_EVENT_LOOPS, default 1:
# its one core).
# Each rate runs StreamLoadSimulation (all LLM metrics on) and StockSseSimulation (stock Gatling SSE
# measuring nothing) unless BENCH_SIMULATIONS names one.
# Usage: scripts/bench-streams.sh [RATE ...]   (default 1000 2000 2500 3000)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
rates=("$@")
[ ${#rates[@]} -gt 0 ] || rates=(1000 2000 2500 3000)
warmup=${BENCH_WARMUP_SECONDS:-40}
seconds=${BENCH_SECONDS:-30}

# Gatling opens a socket per stream: give it room (a client that falls behind holds thousands).
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
echo "== open files limit: $(ulimit -n)"
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
sims=(${BENCH_SIMULATIONS:-StreamLoadSimulation StockSseSimulation})
printf '%-22s %6s %10s %8s %6s %12s %9s %14s %9s %9s\n' simulation rate achieved/s ok ko "cpu us/strm" "user/sys" "strm/s/core" "ttft p50" "ttft p99"
for rate in "${rates[@]}"; do
  for sim in "${sims[@]}"; do
    before=$(ls "$results" 2>/dev/null | sort)
    cpu="target/bench-cpu-$sim-$rate.json"
    rm -f "$cpu"
    # One Netty event loop for the one core: Netty's default is two a core, and two loops on one core
    # hand work to each other through futex wake-ups and context switches (measured: 720-840 ->
    # 583 us a stream for gatling-llm, client-added TTFT p99 23-192 -> 6 ms at 1,000/s).
    # A client that falls behind holds thousands of sockets; at the open-files limit Gatling 3.16
    # leaves a virtual user waiting forever (see LlmRun's file-limit warning): bound the run.
    ${pin[@]:+"${pin[@]}" 1} timeout --kill-after=10 "$((warmup + seconds + 60))" java --add-opens=java.base/java.lang=ALL-UNNAMED -Xmx2G -Dai.djl.offline=true \
      -Dio.netty.eventLoopThreads="${BENCH_EVENT_LOOPS:-1}" ${BENCH_JAVA_OPTS:-} \
      -Dllm.baseUrl="http://127.0.0.1:$port/v1" -Dllm.resultsFolder="$results" -Dbench.cpuFile="$cpu" \
      -Dbench.rate="$rate" -Dbench.warmupSeconds="$warmup" -Dbench.seconds="$seconds" \
      -cp "$classpath" io.gatling.app.Gatling -s "io.github.gatlingllm.bench.$sim" \
      -rf "$results" -nr > "target/bench-streams-$sim-$rate.log" 2>&1 || {
      code=$?
      if [ "$code" -ge 124 ]; then
        echo "$sim at $rate/s: not sustained (the run did not end within $((warmup + seconds + 60)) s: the client fell behind)"
      else
        echo "$sim at $rate/s: Gatling failed (exit $code), see target/bench-streams-$sim-$rate.log"
      fi
      continue
    }
    run=$(comm -13 <(echo "$before") <(ls "$results" | sort) | grep -i "^$sim-" | head -1)
    python3 - "$cpu" "$results/$run/llm-run.json" "$sim" "$rate" <<'PY'
import json, os, sys
cpu = json.load(open(sys.argv[1]))
ttft50 = ttft99 = float("nan")
if os.path.exists(sys.argv[2]):
    record = json.load(open(sys.argv[2]))
    g = next(g for g in record["metrics"]["groups"] if g["request"] == "chat" and g.get("phase") == "measured")
    ttft50, ttft99 = g["ttft_ms"]["p50"], g["ttft_ms"]["p99"]
print("%-22s %6s %10.0f %8d %6d %12.1f %9s %14.0f %9.1f %9.1f" % (sys.argv[3], sys.argv[4],
      cpu["achieved_per_s"], cpu["ok"], cpu["streams"] - cpu["ok"], cpu["cpu_us_per_stream"],
      "%d/%d" % (cpu.get("user_us_per_stream", -1), cpu.get("system_us_per_stream", -1)),
      cpu["streams_per_core_s"], ttft50, ttft99))
PY
  done
done
echo "cpu us/strm: the client JVM's CPU time per finished stream over the steady measured window;"
echo "strm/s/core = 1e6 / that: the rate one core sustains (robust to other load on the machine);"
echo "user/sys: that CPU time split into user and kernel (loopback TCP, epoll, wake-ups) microseconds;"
echo "target/bench-cpu-SIM-RATE.json splits it further by thread (event loop, stats writer, JIT, GC)."
echo "(the server sends every token at once: TTFT here is what the client and loopback add; Gatling stamps events in whole ms)"
