#!/usr/bin/env bash
# Agent sessions at scale (issue 32's targets), figures printed, nothing asserted:
#  heap  AgentSessionHeapBench opens N sessions of L tool loops in a JVM of -Xmx1g and prints the
#        heap they retain beyond the history text their next turn must send (target <= 64 KB).
#  turn  AgentTurnCpu: thread CPU of one streamed reply through the chat parser into a RequestTimer,
#        read as an agent turn (every event's text kept) against a prompt request (text dropped),
#        the same simulator stream, interleaved rounds, median (target <= 1.2x).
#  e2e   Gatling runs of bench/AgentLoadSimulation against the simulator in another process (zero
#        delay, pinned to core 0; the client on core 1 with one Netty event loop): a closed loop of
#        BENCH_USERS (64) users, agent sessions (4 tools, 128-token task, 192-token tool results,
#        tool_choice auto: the simulator calls tools twice, then answers; no tool latency), then
#        prompts() requests of the agent turns' mean prompt and reply tokens, in pairs, BENCH_REPEAT
#        (3) times: the client process's CPU a request (over the steady window, CpuSampler) of each,
#        their ratio, and the sessions per second the client sustained (its core saturated).
# Usage: scripts/bench-agent-sessions.sh [heap|turn|e2e|all (all)] [sessions (1000)] [loops (9)]
# BENCH_CLASSES=DIR measures another build's main classes (e.g. a copy of target/classes made at
# an older commit) with this commit's benchmarks; BENCH_WARMUP_SECONDS (30), BENCH_SECONDS (30);
# BENCH_AGENT_OPTS reach the agent runs (e.g. "-Dbench.toolChoice=required -Dbench.toolCalls=9
# -Dbench.toolResultTokens=384": 10 tool-call turns a session, contexts growing to ~4.4k tokens).
#
# Measured on 2 shared cores (other builds running; load average beside each figure), before and
# after the chat parser's text-keeping fast path (commit 725b1eb, 03b6e3c); docs/agents.md "What it
# costs the client" has the tables:
#   heap  1,259 bytes of heap a session (1,000 open, 9 loops), against 34,099 bytes of history text
#   turn  agent turn 40.10 -> 25.42 us a 64-token stream, 1.66x -> 1.04x a prompt request (load ~6)
#   e2e   agent turn 185.5 -> 148.4 us CPU, prompt request 130.5 -> 126.6 us: 1.488x -> 1.174x
#         (median of 3 pairs, load 10-17); 526 -> 770 sessions/s sustained on one client core
#   e2e at the issue's scale (BENCH_USERS=1000, the BENCH_AGENT_OPTS above: 10 tool-call turns of
#         ~11 reply tokens): 1.35x/1.95x before, 1.33x/1.36x after (2 pairs, load 7-10), 88-139
#         sessions/s; there the history body and the regenerated tool results are the rest.
#   after tool results are made once a turn (quiet machine, load 2-3, one pair each): 1.179x ->
#         1.090x, 258 -> 313 sessions/s; heap 3,347 bytes a session
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
java=java
if [ -n "${JAVA_HOME:-}" ]; then
  java="$JAVA_HOME/bin/java"
fi
what=${1:-all}
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo none); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
./mvnw -q -B -o test-compile
classes=${BENCH_CLASSES:-target/classes}
classpath="target/test-classes:$classes:$(cat target/test-classpath.txt)"

if [ "$what" = heap ] || [ "$what" = all ]; then
  echo "== heap: ${2:-1000} sessions of ${3:-9} loops, -Xmx1g"
  "$java" -Xmx1g -XX:+UseSerialGC -cp "$classpath" \
    io.github.gatlingllm.feeder.AgentSessionHeapBench "${2:-1000}" "${3:-9}"
fi

if [ "$what" = turn ] || [ "$what" = all ]; then
  echo "== turn: CPU a streamed reply, agent turn against prompt request"
  "$java" -cp "$classpath" io.github.gatlingllm.bench.AgentTurnCpu 15 64 2>&1 | grep -v DEBUG
fi

if [ "$what" = e2e ] || [ "$what" = all ]; then
  results=target/bench-agents
  mkdir -p "$results"
  warmup=${BENCH_WARMUP_SECONDS:-30}
  seconds=${BENCH_SECONDS:-30}
  users=${BENCH_USERS:-64}
  pin=()
  command -v taskset >/dev/null && pin=(taskset -c)
  control=$(mktemp -d "$results/control.XXXXXX")
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  ${pin[@]:+"${pin[@]}" 0} "$java" -Xmx1g -cp "$classpath" io.github.gatlingllm.bench.BenchServer \
    "$port" 0 1000000 1000 "$control" > "$results/server.log" 2>&1 &
  server=$!
  trap 'kill $server 2>/dev/null || true; rm -rf "$control"' EXIT
  for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$port/health" >/dev/null && break
    sleep 0.1
  done
  # One Gatling run: $1 tag, then -D options; prints the run's folder.
  run() {
    local tag=$1
    shift
    local before
    before=$(ls "$results" | sort)
    ${pin[@]:+"${pin[@]}" 1} "$java" --add-opens=java.base/java.lang=ALL-UNNAMED -Xmx1g -Dai.djl.offline=true \
      -Dio.netty.eventLoopThreads=1 -Dllm.baseUrl="http://127.0.0.1:$port/v1" \
      -Dllm.resultsFolder="$results" -Dbench.cpuFile="$results/$tag-cpu.json" \
      -Dbench.users="$users" -Dbench.warmupSeconds="$warmup" -Dbench.seconds="$seconds" "$@" \
      -cp "$classpath" io.gatling.app.Gatling -s io.github.gatlingllm.bench.AgentLoadSimulation \
      -rf "$results" -nr > "$results/$tag.log" 2>&1 || { echo "$tag: Gatling failed, see $results/$tag.log" >&2; return 1; }
    comm -13 <(echo "$before") <(ls "$results" | sort) | grep -i '^agentloadsimulation-' | head -1
  }
  summary="$results/summary.tsv"
  : > "$summary"
  for rep in $(seq "${BENCH_REPEAT:-3}"); do
    load_a=$(cut -d' ' -f1 /proc/loadavg)
    # shellcheck disable=SC2086
    folder=$(run "agent-$rep" -Dbench.workload=agent ${BENCH_AGENT_OPTS:-})
    # The agent turns' mean prompt and reply tokens, its requests a session.
    read -r prompt reply turns < <(python3 - "$results/$folder/llm-run.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["sessions"][0]["measured"]
t = s["tokens_per_session"]; n = s["requests_per_session"]["mean"]
print(round(t["prompt_mean"] / n), max(1, round(t["completion_mean"] / n)), n)
PY
)
    load_p=$(cut -d' ' -f1 /proc/loadavg)
    run "prompts-$rep" -Dbench.workload=prompts -Dbench.inputTokens="$prompt" -Dbench.outputTokens="$reply" >/dev/null
    python3 - "$results/agent-$rep-cpu.json" "$results/prompts-$rep-cpu.json" "$turns" "$prompt" "$reply" \
      "$load_a" "$load_p" "$rep" >> "$summary" <<'PY'
import json, sys
a, p = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
turns = float(sys.argv[3])
per_turn = a["cpu_us_per_stream"] / turns
print("\t".join(str(x) for x in [sys.argv[8], round(per_turn, 1), round(p["cpu_us_per_stream"], 1),
      round(per_turn / p["cpu_us_per_stream"], 3), round(a["achieved_per_s"], 1), turns,
      sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7]]))
PY
    tail -1 "$summary"
  done
  python3 - "$summary" <<'PY'
import statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
print("round  agent us/turn  prompt us/req  ratio  sessions/s  turns/session  prompt/reply tokens  load (agent, prompts)")
for r in rows:
    print(f"{r[0]:>5}  {r[1]:>13}  {r[2]:>13}  {r[3]:>5}  {r[4]:>10}  {r[5]:>13}  {r[6] + '/' + r[7]:>19}  {r[8]}, {r[9]}")
med = lambda k: statistics.median(float(r[k]) for r in rows)
print(f"median: agent {med(1):.1f} us a turn, prompt {med(2):.1f} us a request, ratio of the pairs {med(3):.3f}, "
      f"{med(4):.1f} sessions/s on one client core")
PY
fi
