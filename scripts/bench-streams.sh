#!/usr/bin/env bash
# Client load benchmark: what an LLM stream costs the client (CPU per stream, the streams/s one core
# sustains) and what the client adds to TTFT and inter-token latencies, against the server's own
# send times. The server (BenchServer: the embedded simulator, TTFT 0, BENCH_DECODE_MS per token,
# default 0 = every token at once, 64 tokens a stream, no queueing) runs on core 0 and records when
# it sent each token chunk of each request (X-Request-Id); the client runs on core 1.
#
# Usage: scripts/bench-streams.sh [LOAD ...]   (default 1000 2000 2500 3000)
#   LOAD: streams/s of an open loop (e.g. 1000), or cN for a closed loop of N concurrent streams
#   (e.g. c256). Each load runs each client of BENCH_SIMULATIONS in turn:
#     StreamLoadSimulation  gatling-llm, every LLM metric on (records, TTFT/TPOT rows)
#     StockSseSimulation    stock Gatling SSE on the same stream, measuring nothing
#     python                the Python asyncio client of ../shared/bench (vLLM's benchmark client's
#                           shape; closed loads only; BENCH_PY_CLIENT is its path)
#     StreamLoadSimulation+live  StreamLoadSimulation with the live /metrics endpoint on
#                           (-Dllm.prometheusPort on a free port, docs/live-metrics.md) and scraped
#                           every second by curl on the server's core, as Prometheus would: its CPU
#                           against StreamLoadSimulation's is the endpoint's cost (the summary gives
#                           the median ratio of the pairs)
#   default: StreamLoadSimulation StockSseSimulation.
# Gatling runs BENCH_WARMUP_SECONDS (60; an open loop's rate ramps up over the first three
# quarters, a closed loop's users over the first quarter: the JIT compiles on the client's one core)
# then BENCH_SECONDS (30) measured, with one Netty event loop (BENCH_EVENT_LOOPS, 1: its one core).
# The Python client runs C warm-up requests then as many as it serves in about BENCH_SECONDS.
# BENCH_ENDPOINT (chat) is the API StreamLoadSimulation speaks: chat, completions, responses or
# messages (-Dllm.endpoint; the BenchServer is the simulator, which serves all four), so a run with
# BENCH_SIMULATIONS="StreamLoadSimulation" and each endpoint in turn puts their CPU side by side.
# BENCH_REPEAT=N runs each load's clients N times back to back (pairs side by side: CPU per stream
# of one setting varies by up to 30% between runs on a shared machine) and ends with the medians and
# the median of the pairs' ratios. BENCH_JAVA_OPTS reach the Gatling JVM, @TAG@ replaced by the run's
# name (e.g. -XX:StartFlightRecording=filename=target/jfr-@TAG@.jfr,settings=profile).
# BENCH_CLIENT_CPUS (1) are the cores the client is pinned to (taskset -c), e.g. 0,1 to give it both
# (with BENCH_EVENT_LOOPS=2: one event loop a core, as Gatling's default of two a core would not).
# Each Gatling run's folder and run id go to target/bench-streams/TAG.run (scripts/bench-tail-causes.sh).
set -euo pipefail
# BENCH_JAVA_OPTS may be unset (set -u): each Gatling run gets its options with @TAG@ replaced.
java_opts=${BENCH_JAVA_OPTS:-}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
loads=("$@")
[ ${#loads[@]} -gt 0 ] || loads=(1000 2000 2500 3000)
warmup=${BENCH_WARMUP_SECONDS:-60}
seconds=${BENCH_SECONDS:-30}
repeat=${BENCH_REPEAT:-1}
decode_ms=${BENCH_DECODE_MS:-0}
tokens=64
sims=(${BENCH_SIMULATIONS:-StreamLoadSimulation StockSseSimulation})
endpoint=${BENCH_ENDPOINT:-chat}
BENCH_JAVA_OPTS=${BENCH_JAVA_OPTS:-}
client_cpus=${BENCH_CLIENT_CPUS:-1}
python=${BENCH_PYTHON:-/usr/bin/python3}

# Gatling's SSE opens a socket per stream: give it room (a client that falls behind holds thousands).
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
echo "== open files limit: $(ulimit -n); server: TTFT 0, $decode_ms ms a token, $tokens tokens; endpoint $endpoint"
echo "== machine: $(uname -srm), nproc $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg)"
java -version 2>&1 | head -1
./mvnw -q -B -o test-compile
classpath="target/test-classes:target/classes:$(cat target/test-classpath.txt)"
pin=()
command -v taskset >/dev/null && pin=(taskset -c)

results=target/bench-streams
mkdir -p "$results"
control=$(mktemp -d "$results/control.XXXXXX")
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# taskset execs, so $! is the server's JVM itself. It keeps the send times of its newest 60,000
# requests (the measured window of a run).
${pin[@]:+"${pin[@]}" 0} java -Xmx1g -cp "$classpath" io.github.gatlingllm.bench.BenchServer \
  "$port" "$decode_ms" 1000000 60000 "$control" > "$results/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$control"' EXIT
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$port/health" >/dev/null && break
  sleep 0.1
done
url="http://127.0.0.1:$port/v1"

# The server's counters and, with an id prefix, its records of those requests, into $1.
dump() {
  echo "$PWD/$1 ${2:-}" > "$control/dump.tmp" && mv "$control/dump.tmp" "$control/dump"
  for _ in $(seq 600); do [ -e "$control/dump" ] || return 0; sleep 0.1; done
  echo "the benchmark server did not answer" >&2; return 1
}

summary="$results/summary.tsv"
: > "$summary"
printf '%-20s %6s %3s %9s %7s %4s %10s %9s %11s %17s %17s %17s %8s %6s %6s\n' client load run achieved/s ok ko "cpu us/strm" user/sys strm/s/core \
  "ttft p50/p99" "added p50/p99" "itl err mean/p99" conns POST/rq steady
for load in "${loads[@]}"; do
 for rep in $(seq "$repeat"); do
  for sim in "${sims[@]}"; do
    users=0; rate=0
    case "$load" in c*) users=${load#c} ;; *) rate=$load ;; esac
    tag="$sim-$load-$rep"
    cls=${sim%+live}
    live_opts=()
    scraper=
    if [ "$cls" != "$sim" ]; then
      live_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
      live_opts=(-Dllm.prometheusPort="$live_port" -Dllm.prometheusLinger=0s)
      # Prometheus' pace at its shortest usual interval, from the server's core.
      ${pin[@]:+"${pin[@]}" 0} bash -c "while sleep 1; do curl -sf -o /dev/null http://127.0.0.1:$live_port/metrics || true; done" &
      scraper=$!
    fi
    run_id="r$(date +%s%N | cut -c8-16)"
    log="$results/$tag.log"
    cpu="$results/$tag-cpu.json"
    stamps="$results/$tag-stamps.jsonl"
    rm -f "$cpu" "$stamps"
    if [ "$sim" = python ]; then
      if [ "$users" -eq 0 ]; then echo "python: closed loads only (cN), skipping $load"; continue; fi
    fi
    dump "$results/$tag-server-before.json"
    load_before=$(cut -d' ' -f1 /proc/loadavg)
    if [ "$sim" = python ]; then
      # As many requests as the C streams serve in about BENCH_SECONDS at the server's pace (one
      # core of Python saturates near 1,500/s: never more than that many a second).
      n=$("$python" -c "print(int($seconds * min($users / ($tokens * max($decode_ms, 0.02) / 1000), 1500)))")
      ${pin[@]:+"${pin[@]}" "$client_cpus"} timeout --kill-after=10 "$((seconds * 4 + 60))" "$python" scripts/bench-python-client.py \
        "$url/chat/completions" "$users" "$n" "$tokens" "$run_id" "$stamps" > "$log" 2>&1 || {
        echo "python at $load: failed or not sustained (exit $?), see $log"; continue; }
      requests_sent=$((users + n))
      run_folder=""
    else
      before=$(ls "$results" | sort)
      # One Netty event loop for the one core: Netty's default is two a core, and two loops on one
      # core hand work to each other through futex wake-ups and context switches.
      ${pin[@]:+"${pin[@]}" "$client_cpus"} timeout --kill-after=10 "$((warmup + seconds + 90))" java --add-opens=java.base/java.lang=ALL-UNNAMED -Xmx2G -Dai.djl.offline=true \
        -Dio.netty.eventLoopThreads="${BENCH_EVENT_LOOPS:-1}" ${java_opts//@TAG@/$tag} \
        -Dllm.baseUrl="$url" -Dllm.endpoint="$endpoint" -Dllm.resultsFolder="$results" -Dbench.cpuFile="$cpu" -Dbench.runId="$run_id" \
        -Dbench.rate="$rate" -Dbench.users="$users" -Dbench.warmupSeconds="$warmup" -Dbench.seconds="$seconds" \
        -Dbench.outputTokens="$tokens" ${live_opts[@]+"${live_opts[@]}"} \
        -cp "$classpath" io.gatling.app.Gatling -s "io.github.gatlingllm.bench.$cls" \
        -rf "$results" -nr > "$log" 2>&1 || {
        code=$?
        if [ "$code" -ge 124 ]; then
          echo "$sim at $load: not sustained (the run did not end within $((warmup + seconds + 90)) s: the client fell behind)"
        else
          echo "$sim at $load: Gatling failed (exit $code), see $log"
        fi
        if [ -n "$scraper" ]; then kill "$scraper" 2>/dev/null || true; fi
        continue
      }
      run_folder=$(comm -13 <(echo "$before") <(ls "$results" | sort) | grep -i "^$cls-[0-9]*$" | head -1 || true)
      echo "$run_folder $run_id" > "$results/$tag.run"
      requests_sent=""
    fi
    if [ -n "$scraper" ]; then kill "$scraper" 2>/dev/null || true; wait "$scraper" 2>/dev/null || true; fi
    dump "$results/$tag-server-after.json" "$run_id-"
    "$python" scripts/bench-streams-figures.py "$sim" "$load" "$rep" "$log" "$cpu" "${run_folder:+$results/$run_folder}" \
      "$stamps" "$results/$tag-server-before.json" "$results/$tag-server-after.json" "$run_id" \
      "$users" "$rate" "${requests_sent:-0}" "$load_before $(cut -d' ' -f1 /proc/loadavg)" "$summary"
  done
 done
done
"$python" scripts/bench-streams-figures.py --summary "$summary"
cat <<'EOF'
cpu us/strm: the client process's CPU time per measured stream over the steady window (Gatling:
  from 2 s after the first measured stream ended to the end of the injection; Python: its N
  measured requests); strm/s/core = 1e6 / that (robust to other load on the machine); user/sys:
  user and kernel (loopback TCP, epoll, wake-ups) parts. target/bench-streams/*-cpu.json splits
  Gatling's by thread (event loop, stats writer, JIT, GC).
ttft: the client's own TTFT of the measured streams (ms). added: that minus the server's own time
  to its first token chunk (from reading the request to writing the chunk; it includes the
  request's way over loopback). itl err: |client's inter-token gap - server's gap between writing
  the two chunks| over every gap, mean and p99 (ms). Stock Gatling SSE measures nothing.
conns: TCP connections the server accepted during the run; POST/rq: requests the server answered
  / requests the client sent (1.00 = each sent exactly once).
steady: the offered rate kept (open loop, within 2%), nothing failed, TTFT p50 under 100 ms.
EOF
