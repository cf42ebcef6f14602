#!/usr/bin/env bash
# Many open streams in one client: a closed loop of USERS virtual users (default 10,000), each
# sending one streamed chat completion after another (64 tokens at MS_PER_TOKEN, default 200 ms:
# a stream lasts about 12.8 s, about USERS / 12.8 streams/s) against the benchmark server (the
# embedded simulator in its own JVM on core 0, keep-alive, no queueing), gatling-llm with every LLM
# metric on in a client JVM with -Xmx1g (BENCH_XMX) on core 1. The users ramp up over the first
# BENCH_WARMUP_SECONDS / 4 (default 60 / 4), then the load holds for the rest of the warmup and
# BENCH_SECONDS (default 90). Every 10 s the client runs a full GC and samples the used heap, the
# streams in flight and its open file descriptors.
# Prints: failures (none expected), heap after GC per open stream at steady state, the open files
# the client needed (its limit must be above that: this script raises it to the hard limit), TCP
# connections the server accepted and POSTs it answered per request sent.
# Usage: scripts/bench-open-streams.sh [USERS] [MS_PER_TOKEN]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
users=${1:-10000}
ms=${2:-200}
warmup=${BENCH_WARMUP_SECONDS:-60}
seconds=${BENCH_SECONDS:-90}
xmx=${BENCH_XMX:-1g}

# A socket per open stream in the client, and as many in the server.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
echo "== open files limit: $(ulimit -n) (hard $(ulimit -Hn)); $users users, $ms ms a token, 64 tokens, client -Xmx$xmx"
echo "== machine: $(uname -srm), nproc $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg)"
./mvnw -q -B -o test-compile
classpath="target/test-classes:target/classes:$(cat target/test-classpath.txt)"
pin=()
command -v taskset >/dev/null && pin=(taskset -c)
results=target/bench-open-streams
mkdir -p "$results"
control=$(mktemp -d "$results/control.XXXXXX")
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
${pin[@]:+"${pin[@]}" 0} java -Xmx1g -cp "$classpath" io.github.gatlingllm.bench.BenchServer \
  "$port" "$ms" 1000000 0 "$control" > "$results/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$control"' EXIT
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$port/health" >/dev/null && break
  sleep 0.1
done
dump() {
  echo "$PWD/$1" > "$control/dump.tmp" && mv "$control/dump.tmp" "$control/dump"
  for _ in $(seq 600); do [ -e "$control/dump" ] || return 0; sleep 0.1; done
  echo "the benchmark server did not answer" >&2; return 1
}

dump "$results/server-before.json"
before=$(ls "$results" | sort)
cpu="$results/cpu.json"
rm -f "$cpu"
limit=$((warmup + seconds + 64 * ms / 1000 + 90))
${pin[@]:+"${pin[@]}" 1} timeout --kill-after=10 "$limit" java --add-opens=java.base/java.lang=ALL-UNNAMED \
  -Xmx"$xmx" -Dai.djl.offline=true -Dio.netty.eventLoopThreads=1 ${BENCH_JAVA_OPTS:-} \
  -Dllm.baseUrl="http://127.0.0.1:$port/v1" -Dllm.resultsFolder="$results" -Dbench.cpuFile="$cpu" \
  -Dbench.users="$users" -Dbench.warmupSeconds="$warmup" -Dbench.seconds="$seconds" \
  -Dbench.heapSampleSeconds=10 -Dbench.timeoutSeconds=120 \
  -cp "$classpath" io.gatling.app.Gatling -s io.github.gatlingllm.bench.StreamLoadSimulation \
  -rf "$results" -nr > "$results/client.log" 2>&1 || echo "Gatling exited $? (see $results/client.log)"
dump "$results/server-after.json"
run=$(comm -13 <(echo "$before") <(ls "$results" | sort) | grep -i '^streamloadsimulation-[0-9]*$' | head -1)
python3 - "$cpu" "$results/$run" "$results/server-before.json" "$results/server-after.json" "$warmup" "$users" <<'PY'
import collections, json, statistics, sys
cpu = json.load(open(sys.argv[1]))
lines = [json.loads(l) for l in open(sys.argv[2] + "/llm-requests.jsonl")]
before, after = json.load(open(sys.argv[3])), json.load(open(sys.argv[4]))
warmup, users = int(sys.argv[5]), int(sys.argv[6])
statuses = collections.Counter(l["status"] for l in lines)
heap = cpu["heap"]
base = heap[0]
steady = [h for h in heap[1:] if h["t_s"] >= warmup]
print("requests           %d recorded, statuses %s" % (len(lines), dict(statuses)))
for (status, error), n in collections.Counter((l["status"], l["error"]) for l in lines if l["status"] != "ok").most_common(5):
    print("  %6d %s: %s" % (n, status, error))
print("heap after GC      baseline (before the first stream) %.1f MB" % (base["heap_used_bytes"] / 2**20))
for h in heap[1:]:
    print("  t=%5.0f s  %7.1f MB  %6d streams in flight  %6d open fds" % (
        h["t_s"], h["heap_used_bytes"] / 2**20, h["in_flight"], h["open_fds"]))
if steady:
    used = statistics.median(h["heap_used_bytes"] for h in steady)
    open_streams = statistics.median(h["in_flight"] for h in steady)
    print("steady state (t >= %d s, median of %d samples): %.1f MB heap after GC, %d open streams" % (
        warmup, len(steady), used / 2**20, open_streams))
    print("heap per open stream: %.1f KB all in (heap / streams), %.1f KB above the baseline" % (
        used / open_streams / 1024, (used - base["heap_used_bytes"]) / open_streams / 1024))
print("open files         at most %d descriptors in the client (limit %s)" % (
    max(h["open_fds"] for h in heap), open(f"/proc/self/limits").read().split("Max open files")[1].split()[0]))
conns = after["connections_accepted"] - before["connections_accepted"]
posts = sum(after["requests_by_status"].values()) - sum(before["requests_by_status"].values())
print("connections        %d accepted by the server for %d users (3 of them the server probe's)" % (conns, users))
print("POSTs              %d answered for %d requests recorded (%.4f a request)" % (posts, len(lines), posts / len(lines)))
if "cpu_us_per_stream" in cpu:
    print("cpu                %.0f us a stream at %.0f streams/s" % (cpu["cpu_us_per_stream"], cpu["achieved_per_s"]))
PY
