#!/usr/bin/env bash
# Client load benchmark: how many LLM streams/s one core of Gatling with gatling-llm sustains, and the
# TTFT the client adds. A zero-delay simulator (every token at once, TTFT 0 at the server) runs on
# core 0, the Gatling JVM on core 1; each rate gets 60 s of warmup (JIT; the rate ramps up over its
# first three quarters) then 30 s measured. The client runs one Netty event loop (BENCH_EVENT_LOOPS, default 1:
# its one core).
# Each rate runs StreamLoadSimulation (all LLM metrics on) and StockSseSimulation (stock Gatling SSE
# measuring nothing) unless BENCH_SIMULATIONS names one.
# BENCH_REPEAT=N runs each rate's pair N times back to back and ends with the medians and the median
# of the pairs' ratios (CPU per stream of one setting varies by up to 30% between runs here).
# Usage: scripts/bench-streams.sh [RATE ...]   (default 1000 2000 2500 3000)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
rates=("$@")
[ ${#rates[@]} -gt 0 ] || rates=(1000 2000 2500 3000)
warmup=${BENCH_WARMUP_SECONDS:-60}
seconds=${BENCH_SECONDS:-30}
repeat=${BENCH_REPEAT:-1}

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
summary=target/bench-streams-summary.tsv
: > "$summary"
printf '%-22s %6s %3s %10s %8s %6s %12s %9s %14s %9s %9s %6s\n' simulation rate run achieved/s ok ko "cpu us/strm" "user/sys" "strm/s/core" "ttft p50" "ttft p99" steady
for rate in "${rates[@]}"; do
 for rep in $(seq "$repeat"); do
  for sim in "${sims[@]}"; do
    before=$(ls "$results" 2>/dev/null | sort)
    cpu="target/bench-cpu-$sim-$rate-$rep.json"
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
    python3 - "$cpu" "$results/$run/llm-run.json" "$sim" "$rate" "$rep" "$summary" <<'PY'
import json, os, sys
cpu = json.load(open(sys.argv[1]))
rate = float(sys.argv[4])
ttft50 = ttft99 = float("nan")
if os.path.exists(sys.argv[2]):
    record = json.load(open(sys.argv[2]))
    g = next(g for g in record["metrics"]["groups"] if g["request"] == "chat" and g.get("phase") == "measured")
    ttft50, ttft99 = g["ttft_ms"]["p50"], g["ttft_ms"]["p99"]
# Steady: the offered rate was kept (a client that fell behind finishes above it while it catches
# up), nothing failed, and the median stream did not queue (TTFT p50 under 100 ms).
steady = (abs(cpu["achieved_per_s"] - rate) <= 0.02 * rate and cpu["streams"] == cpu["ok"]
          and not ttft50 > 100)
print("%-22s %6s %3s %10.0f %8d %6d %12.1f %9s %14.0f %9.1f %9.1f %6s" % (sys.argv[3], sys.argv[4],
      sys.argv[5], cpu["achieved_per_s"], cpu["ok"], cpu["streams"] - cpu["ok"],
      cpu["cpu_us_per_stream"],
      "%d/%d" % (cpu.get("user_us_per_stream", -1), cpu.get("system_us_per_stream", -1)),
      cpu["streams_per_core_s"], ttft50, ttft99, "yes" if steady else "NO"))
with open(sys.argv[6], "a") as out:
    out.write("%s\t%s\t%s\t%.1f\t%s\n" % (sys.argv[3], sys.argv[4], sys.argv[5],
              cpu["cpu_us_per_stream"], "yes" if steady else "no"))
PY
  done
 done
done
python3 - "$summary" <<'PY'
import statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
steady = {(s, r, k): float(c) for s, r, k, c, ok in rows if ok == "yes"}
for rate in sorted({r for _, r, _, _, _ in rows}, key=float):
    parts = []
    for sim in sorted({s for s, r, _, _, _ in rows if r == rate}):
        v = [c for (s, r, _), c in steady.items() if s == sim and r == rate]
        if v:
            parts.append("%s %.0f us (%d steady runs)" % (sim, statistics.median(v), len(v)))
    ratios = [steady[("StreamLoadSimulation", rate, k)] / steady[("StockSseSimulation", rate, k)]
              for (s, r, k) in steady if s == "StreamLoadSimulation" and r == rate
              and ("StockSseSimulation", rate, k) in steady]
    if ratios:
        parts.append("gatling-llm / stock: median %.2fx over %d pairs (%s)" % (
            statistics.median(ratios), len(ratios), ", ".join("%.2f" % x for x in ratios)))
    print("== %s/s: median cpu us a stream: %s" % (rate, "; ".join(parts) if parts else "no steady run"))
PY
echo "cpu us/strm: the client JVM's CPU time per finished stream over the steady measured window;"
echo "strm/s/core = 1e6 / that: the rate one core sustains (robust to other load on the machine);"
echo "user/sys: that CPU time split into user and kernel (loopback TCP, epoll, wake-ups) microseconds;"
echo "target/bench-cpu-SIM-RATE-RUN.json splits it further by thread (event loop, stats writer, JIT, GC)."
echo "steady: the offered rate was kept, nothing failed, TTFT p50 < 100 ms; medians count steady runs only."
echo "(the server sends every token at once: TTFT here is what the client and loopback add; Gatling stamps events in whole ms)"
