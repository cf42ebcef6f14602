#!/usr/bin/env bash
# The client's own tail (issue 35): every figure of docs/accuracy.md's table, measured for the
# checkout in DIR (default: this one), one table row a figure: figure, value, target, command.
# It needs only DIR's own classes and scripts (bench-streams.sh, bench-python-client.py, the bench
# classes, the simulator, examples.TraceReplaySimulation), so the same script measures an older
# checkout ("before") and a newer one ("after"): scripts/bench-client-tail.sh /path/to/old-checkout
#
#   1. client-added TTFT p99 and the CPU a stream, zero-delay streams at 1,000/s, gatling-llm and
#      stock Gatling SSE side by side (DIR's scripts/bench-streams.sh 1000)
#   2. client-added TTFT p99 and ITL error p99, 64 and 256 realistic streams (1 ms a token),
#      gatling-llm and the Python asyncio client (BENCH_DECODE_MS=1 ... bench-streams.sh c64 c256)
#   3. TTFO - TTFT against the server's own gap from its first reasoning chunk to its first answer
#      chunk, 4 users, replies of 32 reasoning + 32 answer tokens at 5 ms a token
#   4. schedule lag p99, a Mooncake-shaped trace of 150 rows at 4x: bursts of 10-20 rows due at
#      once (the first of 10), prompts of 1 to 87,000 tokens (512-token blocks), against a
#      zero-delay simulator in its own JVM on the other core
#   5. schedule lag of the first users of an open loop, JVM cold: 10 users/s for 6 s
# The server runs on core 0, the client on core 1 (taskset), as in bench-streams.sh. Shorter than
# bench-streams.sh's defaults so that everything takes about 8 minutes: the stream runs warm up
# 40 s (1,000/s: the JIT needs about 40 s on one core) or 30 s (closed loops) and measure 20 s
# (BENCH_TAIL_WARMUP_SECONDS / BENCH_TAIL_SECONDS override). BENCH_TAIL_PARTS (default "1 2 3 4 5")
# runs only some parts. BENCH_JAVA_OPTS (@TAG@: the run's name), BENCH_EVENT_LOOPS (1) and
# BENCH_CLIENT_CPUS (1) reach every Gatling run, as in bench-streams.sh (scripts/bench-tail-causes.sh
# records each run with JFR this way). Absolute tails need a quiet machine:
# the load average is printed before and after. Raw outputs: DIR/target/bench-client-tail/.
set -euo pipefail
# BENCH_JAVA_OPTS may be unset (set -u): each Gatling run gets its options with @TAG@ replaced.
java_opts=${BENCH_JAVA_OPTS:-}
here=$(cd "$(dirname "$0")" && pwd)
dir=$(cd "${1:-$here/..}" && pwd)
cd "$dir"
warmup=${BENCH_TAIL_WARMUP_SECONDS:-}
seconds=${BENCH_TAIL_SECONDS:-20}
results=target/bench-client-tail
mkdir -p "$results"
rows="$results/rows.tsv"
: > "$rows"
start=$(date +%s)
echo "== checkout $dir at $(git rev-parse --short HEAD 2>/dev/null || echo '?'); machine $(uname -srm), nproc $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg)"
./mvnw -q -B -o test-compile
classpath="target/test-classes:target/classes:$(cat target/test-classpath.txt)"
pin=()
command -v taskset >/dev/null && pin=(taskset -c)
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
py=${BENCH_PYTHON:-/usr/bin/python3}

parts=" ${BENCH_TAIL_PARTS:-1 2 3 4 5} "
part() { [[ "$parts" == *" $1 "* ]]; }
row() { printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >> "$rows"; }

# ---- 1, 2: the stream benchmarks of DIR itself -------------------------------------------------
if part 1; then
streams="$results/streams-1000.log"
BENCH_WARMUP_SECONDS=${warmup:-40} BENCH_SECONDS=$seconds \
  BENCH_SIMULATIONS="StreamLoadSimulation StockSseSimulation" scripts/bench-streams.sh 1000 \
  > "$streams" 2>&1 || echo "bench-streams.sh 1000 failed, see $streams"
# column 7: cpu us a stream, 11: client-added TTFT p50/p99, 12: ITL error mean/p99 (ms)
col() { awk -v s="$1" -v l="$2" -v c="$3" -v i="$4" '$1==s && $2==l {split($c,a,"/"); v=a[i]} END {print (v==""?"n/a":v)}' "$5"; }
cmd1="BENCH_WARMUP_SECONDS=${warmup:-40} BENCH_SECONDS=$seconds scripts/bench-streams.sh 1000"
row "client-added TTFT p99 ms, zero-delay streams 1,000/s" "$(col StreamLoadSimulation 1000 11 2 "$streams")" "<= 2" "$cmd1"
ours=$(col StreamLoadSimulation 1000 7 1 "$streams")
stock=$(col StockSseSimulation 1000 7 1 "$streams")
ratio=$(python3 -c "import sys; a,b=sys.argv[1:]; print('%.2fx' % (float(a)/float(b)) if a!='n/a' and b!='n/a' else 'n/a')" "$ours" "$stock")
row "zero-delay CPU us a stream: gatling-llm / stock Gatling SSE" "$ours / $stock = $ratio" "<= 0.8x" "$cmd1"

fi
if part 2; then
real="$results/streams-realistic.log"
BENCH_DECODE_MS=1 BENCH_WARMUP_SECONDS=${warmup:-30} BENCH_SECONDS=$seconds BENCH_PYTHON="$py" \
  BENCH_SIMULATIONS="StreamLoadSimulation python" scripts/bench-streams.sh c64 c256 \
  > "$real" 2>&1 || echo "bench-streams.sh c64 c256 failed, see $real"
cmd2="BENCH_DECODE_MS=1 BENCH_WARMUP_SECONDS=${warmup:-30} BENCH_SECONDS=$seconds BENCH_SIMULATIONS='StreamLoadSimulation python' scripts/bench-streams.sh c64 c256"
for c in c64 c256; do
  row "client-added TTFT p99 ms, $c realistic streams (python)" \
    "$(col StreamLoadSimulation $c 11 2 "$real") ($(col python $c 11 2 "$real"))" \
    "$([ $c = c64 ] && echo '<= 2' || echo '<= 5')" "$cmd2"
  row "ITL error p99 ms, $c realistic streams (python)" \
    "$(col StreamLoadSimulation $c 12 2 "$real") ($(col python $c 12 2 "$real"))" \
    "$([ $c = c64 ] && echo '<= 0.5' || echo '<= 1')" "$cmd2"
done
fi

# ---- a server for 3-5: the simulator in its own JVM on core 0 ----------------------------------
# TailServer PORT DECODE_MS REASONING_TOKENS CONTROL_DIR: zero TTFT, DECODE_MS a token (0: every
# token at once), a context of 131,072 tokens, the send time of every chunk kept; on CONTROL_DIR/dump
# (holding OUT PREFIX) it writes the requests whose X-Request-Id starts with PREFIX.
cat > "$results/TailServer.java" <<'JAVA'
import io.github.gatlingllm.simulator.ServedRequest;
import io.github.gatlingllm.simulator.Simulator;
import io.github.gatlingllm.simulator.SimulatorConfig;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

public class TailServer {
  public static void main(String[] a) throws Exception {
    Simulator s = Simulator.start(SimulatorConfig.zeroDelay().withDecodeMsPerToken(Double.parseDouble(a[1]))
        .withReasoningTokens(Integer.parseInt(a[2])).withMaxConcurrent(1_000_000).withContextLength(131_072)
        .withCacheBlocks(2_000_000).withRecordCapacity(100_000).withRecordSendTimes(true), Integer.parseInt(a[0]));
    System.out.println("listening " + s.baseUrl());
    Path dump = Path.of(a[3]).resolve("dump");
    while (true) {
      if (Files.exists(dump)) {
        String[] r = Files.readString(dump).trim().split("\\s+");
        Path out = Path.of(r[0]), tmp = Path.of(r[0] + ".tmp");
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(tmp))) {
          for (ServedRequest q : s.requests()) {
            if (q.clientRequestId() != null && q.clientRequestId().startsWith(r[1])) {
              StringBuilder b = new StringBuilder("{\"id\":\"" + q.clientRequestId() + "\",\"sent_ns\":[");
              for (int i = 0; i < q.sentNanos().size(); i++) b.append(i == 0 ? "" : ",").append(q.sentNanos().get(i));
              w.println(b.append("]}"));
            }
          }
        }
        Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Files.delete(dump);
      }
      Thread.sleep(100);
    }
  }
}
JAVA
server_pid=
control=$(mktemp -d "$dir/$results/control.XXXXXX")
trap '[ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null || true; rm -rf "$control"' EXIT
serve() {  # DECODE_MS REASONING_TOKENS: starts the server, sets $url
  [ -z "$server_pid" ] || { kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; }
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  ${pin[@]:+"${pin[@]}" 0} java -Xmx2g -cp "$classpath" "$results/TailServer.java" "$port" "$1" "$2" "$control" \
    > "$results/server-$1-$2.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 300); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
  url="http://127.0.0.1:$port/v1"
}
dump() {  # OUT PREFIX
  echo "$dir/$1 $2" > "$control/dump.tmp" && mv "$control/dump.tmp" "$control/dump"
  for _ in $(seq 600); do [ -e "$control/dump" ] || return 0; sleep 0.1; done
  echo "the server did not answer" >&2; return 1
}
gatling() {  # TAG SIMULATION_CLASS JAVA_OPTS...: runs Gatling on core 1, sets $run (its folder)
  local tag=$1 cls=$2; shift 2
  local before
  before=$(ls "$results" | sort)
  ${pin[@]:+"${pin[@]}" "${BENCH_CLIENT_CPUS:-1}"} timeout --kill-after=10 300 java --add-opens=java.base/java.lang=ALL-UNNAMED -Xmx2G \
    -Dai.djl.offline=true -Dio.netty.eventLoopThreads="${BENCH_EVENT_LOOPS:-1}" ${java_opts//@TAG@/$tag} \
    -Dllm.baseUrl="$url" -Dllm.resultsFolder="$results" "$@" -cp "$classpath" io.gatling.app.Gatling -s "$cls" -rf "$results" -nr > "$results/$tag.log" 2>&1 \
    || echo "$tag: Gatling exited $? (see $results/$tag.log)"
  run=$(comm -13 <(echo "$before") <(ls "$results" | sort) | grep -i "^${cls##*.}-[0-9]*$" | head -1 || true)
  echo "$run" > "$results/$tag.run"
}

# ---- 3: TTFO - TTFT against the server's gap, reasoning replies at 4 users ---------------------
if part 3; then
serve 5 32
run_id="t$(date +%s%N | cut -c8-16)"
gatling reasoning io.github.gatlingllm.bench.StreamLoadSimulation -Dbench.users=4 -Dbench.warmupSeconds=8 \
  -Dbench.seconds="$seconds" -Dbench.runId="$run_id" -Dbench.cpuFile="$results/reasoning-cpu.json"
dump "$results/reasoning-server.jsonl" "$run_id-measured-"
reasoning=$(python3 - "$results/$run/llm-requests.jsonl" "$results/reasoning-server.jsonl" "$run_id" <<'PY'
import json, sys
server = {r["id"]: r["sent_ns"] for r in map(json.loads, open(sys.argv[2]))}
errs = []
for r in map(json.loads, open(sys.argv[1])):
    s = server.get("%s-%s-%d" % (sys.argv[3], r["phase"], r["index"]))
    if r["phase"] != "measured" or r["status"] != "ok" or r.get("ttfo_ms") is None or not s or len(s) < 33:
        continue
    errs.append(abs((r["ttfo_ms"] - r["ttft_ms"]) - (s[32] - s[0]) / 1e6))
errs.sort()
if errs:
    print("%d of %d within 1 ms (%.1f%%), error p99 %.3f ms, max %.3f ms" % (
        sum(e <= 1 for e in errs), len(errs), 100.0 * sum(e <= 1 for e in errs) / len(errs),
        errs[max(0, -(-99 * len(errs) // 100) - 1)], errs[-1]))
else:
    print("n/a")
PY
) || reasoning="n/a"
row "TTFO - TTFT vs the server's gap, reasoning replies at 4 users" "$reasoning" "99% within 1 ms" \
  "bench-client-tail.sh part 3: StreamLoadSimulation -Dbench.users=4, server 5 ms a token, 32 reasoning + 32 answer"

fi

# ---- 4: schedule lag, a Mooncake-shaped trace, 150 rows at 4x ----------------------------------
if part 4 || part 5; then serve 0 0; fi
if part 4; then
trace="$results/mooncake-shaped-150.jsonl"
python3 - "$trace" <<'PY'
import json, math, random, sys
# Mooncake's conversation_trace.jsonl shape: rows due in bursts at the same millisecond, prompts
# from a few tokens to 87k (512-token blocks, hash ids shared between a session's turns).
rng = random.Random(35)
rows, t, next_block, roots = [], 0, 0, []
while len(rows) < 150:
    burst = 10 if not rows else rng.randint(10, 20)
    for _ in range(min(burst, 150 - len(rows))):
        n = int(math.exp(rng.uniform(0, math.log(87000))))
        if len(rows) == 0:
            n = 87000
        blocks = max(1, -(-n // 512))
        if roots and rng.random() < 0.5:
            base = rng.choice(roots)[:blocks]
        else:
            base = []
        ids = base + list(range(next_block, next_block + blocks - len(base)))
        next_block += blocks - len(base)
        roots.append(ids)
        rows.append({"timestamp": t, "input_length": n, "output_length": rng.randint(1, 500), "hash_ids": ids})
    t += rng.randint(2000, 6000)
with open(sys.argv[1], "w") as f:
    for r in rows:
        f.write(json.dumps(r) + "\n")
PY
gatling trace io.github.gatlingllm.examples.TraceReplaySimulation -Dllm.trace="$trace" -Dllm.trace.timeScale=4
trace_lag=$(python3 - "$results/$run/llm-requests.jsonl" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
lags = sorted(l["schedule_lag_ms"] for l in lines if l.get("schedule_lag_ms") is not None)
first = sorted(lines, key=lambda l: l["scheduled_ms"])[:10]
q = lambda p: lags[max(0, -(-int(p * 1000) * len(lags) // 1000) - 1)]
print("p99 %.1f ms, p50 %.1f, max %.1f (first burst max %.1f) over %d rows" % (
    q(0.99), q(0.5), lags[-1], max(l["schedule_lag_ms"] for l in first), len(lags)))
PY
) || trace_lag="n/a"
row "schedule lag, Mooncake-shaped trace 150 rows at 4x" "$trace_lag" "p99 <= 20 ms" \
  "bench-client-tail.sh part 4: TraceReplaySimulation -Dllm.trace=$trace -Dllm.trace.timeScale=4"

fi

# ---- 5: schedule lag of the first users of an open loop, JVM cold ------------------------------
if part 5; then
gatling cold io.github.gatlingllm.bench.StreamLoadSimulation -Dbench.rate=10 -Dbench.warmupSeconds=4 \
  -Dbench.seconds=2 -Dbench.requestIds=false -Dbench.cpuFile="$results/cold-cpu.json"
cold=$(python3 - "$results/$run/llm-run.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["client"]["schedule_lag_ms"]
print("max %.1f ms, p99 %.1f, p50 %.1f over the first %d users" % (d["max"], d["p99"], d["p50"], d["count"]))
PY
) || cold="n/a"
row "schedule lag, first users of an open loop (JVM cold)" "$cold" "<= 10 ms" \
  "bench-client-tail.sh part 5: StreamLoadSimulation -Dbench.rate=10 -Dbench.warmupSeconds=4 -Dbench.seconds=2"

fi

echo "== done in $(( $(date +%s) - start )) s; load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '| %s | %s | %s | %s |\n' figure value target command
printf '|---|---|---|---|\n'
while IFS=$'\t' read -r f v t c; do printf '| %s | %s | %s | `%s` |\n' "$f" "$v" "$t" "$c"; done < "$rows"
