#!/usr/bin/env bash
# Trace replay speed: synthesizes a ROWS-row Mooncake-format trace (default 10,000) arriving at
# RATE rows/s (default 100, Poisson, seeded: `bin/gatling-llm trace synthesize`), replays it with
# examples.TraceReplaySimulation against the embedded simulator with zero delays (so the client is
# what is measured), and prints: rows sent and their statuses, the sustained replay rate (rows sent
# over the span from the first send to the last), and the schedule lag (send time minus the row's
# due time) p50 / p99 / p99.9 / max, with the rows more than 10 ms late, over the whole run and
# after its first 30 s (a cold JVM on a shared machine falls behind at first), and the rows whose
# cached tokens are more than one simulator block off their plan (the simulator's cache holds 2M
# blocks of 16 tokens: the whole trace).
# Usage: scripts/bench-trace-replay.sh [ROWS] [RATE]
#   BENCH_TOKENIZER=path  size the blocks with a Hugging Face tokenizer (default estimate)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
rows=${1:-10000}
rate=${2:-100}
echo "== machine: $(uname -srm), nproc $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg)"
./mvnw -q -B -o test-compile
classpath="target/test-classes:target/classes:$(cat target/test-classpath.txt)"
results=target/bench-trace-replay
mkdir -p "$results"
trace="$results/synthetic-$rows-$rate.jsonl"
java -cp "$classpath" io.github.gatlingllm.cli.GatlingLlm trace synthesize --rows "$rows" \
  --rate "$rate" --sessions 64 --turns 8 --roots 8 --root-tokens 1024 --user-tokens 32-256 \
  --output-tokens 4-16 --max-input-tokens 4096 --seed 19 -o "$trace"
java -cp "$classpath" io.github.gatlingllm.cli.GatlingLlm trace stats "$trace" --windows 1 \
  | python3 -c 'import json,sys; s=json.load(sys.stdin); print("== trace: %d rows over %.1f s (%.1f rows/s), input p50 %d p99 %d tokens, infinite-cache hit ratio %.3f" % (s["rows"], s["duration_ms"]/1000, s["rows_per_s"], s["input_tokens"]["p50"], s["input_tokens"]["p99"], s["infinite_cache_hit_ratio"]))'
before=$(ls "$results" | sort)
java --add-opens=java.base/java.lang=ALL-UNNAMED -Xmx1g -Dai.djl.offline=true ${BENCH_JAVA_OPTS:-} \
  -Dllm.trace="$trace" -Dllm.simulator.zeroDelay=true -Dllm.simulator.cacheBlocks=2000000 \
  -Dllm.resultsFolder="$results" \
  ${BENCH_TOKENIZER:+-Dllm.tokenizer="$BENCH_TOKENIZER"} \
  -cp "$classpath" io.gatling.app.Gatling -s io.github.gatlingllm.examples.TraceReplaySimulation \
  -rf "$results" -nr > "$results/client.log" 2>&1 || echo "Gatling exited $? (see $results/client.log)"
run=$(comm -13 <(echo "$before") <(ls "$results" | sort) | grep -i '^tracereplaysimulation-[0-9]*$' | head -1)
python3 - "$results/$run" <<'PY'
import collections, json, math, sys
lines = [json.loads(l) for l in open(sys.argv[1] + "/llm-requests.jsonl")]
run = json.load(open(sys.argv[1] + "/llm-run.json"))
statuses = collections.Counter(l["status"] for l in lines)
sent = sorted(l["sent_ms"] for l in lines if l.get("sent_ms") is not None)
lags = sorted(l["schedule_lag_ms"] for l in lines if l.get("schedule_lag_ms") is not None)
def q(p):
    return lags[max(0, math.ceil(p * len(lags)) - 1)]
span = (sent[-1] - sent[0]) / 1000.0
t = run["prompts"]["trace"] if isinstance(run.get("prompts"), dict) else None
print("rows sent          %d of %d, statuses %s" % (len(lines), t["rows"] if t else -1, dict(statuses)))
print("replay rate        %.1f rows/s sustained over %.1f s (first send to last)" % ((len(sent) - 1) / span, span))
print("schedule lag       p50 %.3f ms, p99 %.3f ms, p99.9 %.3f ms, max %.3f ms; %d rows > 10 ms late" % (
    q(0.5), q(0.99), q(0.999), lags[-1], sum(1 for x in lags if x > 10)))
first = min(l["scheduled_ms"] for l in lines if l.get("scheduled_ms") is not None)
lags = sorted(l["schedule_lag_ms"] for l in lines if l.get("schedule_lag_ms") is not None and l["scheduled_ms"] - first >= 30000)
if lags:
    print("  after 30 s       p50 %.3f ms, p99 %.3f ms, p99.9 %.3f ms, max %.3f ms; %d of %d rows > 10 ms late" % (
        q(0.5), q(0.99), q(0.999), lags[-1], sum(1 for x in lags if x > 10), len(lags)))
print("client CPU         mean share %s, max %s (of %s processors)" % (
    run["client"]["cpu_share"]["mean"], run["client"]["cpu_share"]["max"], run["client"]["cpu_share"]["processors"]))
cached = [l for l in lines if l.get("planned_cached_tokens") is not None and l.get("cached_tokens") is not None]
off = sum(1 for l in cached if abs(l["cached_tokens"] - l["planned_cached_tokens"]) > 16)
print("cache plan         %d rows with cached tokens more than one simulator block off their plan" % off)
if t:
    print("trace record       rows_sent %d, rows_skipped %d, infinite_cache_hit_ratio %s, digest %s" % (
        t["rows_sent"], t["rows_skipped"], t["infinite_cache_hit_ratio"], t["digest"]))
PY
