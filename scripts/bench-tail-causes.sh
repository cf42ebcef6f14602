#!/usr/bin/env bash
# The causes of the client's tails (issue 43): runs scripts/bench-client-tail.sh for the checkout in
# DIR (default: this one) with every Gatling run recorded by JFR (scripts/tail.jfc's settings, made
# from the JDK's profile.jfc: execution and native samples every 1 ms, every GC pause, safepoint,
# compilation and class load) and a GC log, then, for each figure, what the client JVM did in the
# windows of its slow items (scripts/TailCauses.java): a GC pause, another safepoint, cold code,
# another client thread, a JIT compilation, the event loop busy, or none of these seen.
#
#   scripts/bench-tail-causes.sh [DIR]
#
# BENCH_TAIL_PARTS picks the parts as for bench-client-tail.sh (default "1 2 4 5": part 3's
# TTFO - TTFT error is an ITL error at 4 users, whose cause part 2 gives). BENCH_JAVA_OPTS adds to
# the JFR options (e.g. -XX:+UseZGC to see a collector's effect). Sampling every millisecond costs
# the client some CPU: the figures of this run are a little worse than bench-client-tail.sh's own;
# read its shares of causes, and measure the figures without it. Raw: DIR/target/bench-client-tail/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(cd "${1:-$here/..}" && pwd)
results=$dir/target/bench-client-tail
mkdir -p "$results"
jfc=$results/tail.jfc
java_home=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
python3 - "$java_home/lib/jfr/profile.jfc" "$jfc" <<'PY'
import re, sys
src, dst = sys.argv[1:]
x = open(src).read()
def set_(event, setting, value):
    global x
    pat = re.compile(r'(<event name="%s">.*?<setting name="%s"[^>]*>)([^<]*)(</setting>)' % (re.escape(event), setting), re.S)
    x, n = pat.subn(lambda m: m.group(1) + value + m.group(3), x, count=1)
    if n != 1:
        sys.exit("profile.jfc has no %s %s" % (event, setting))
set_("jdk.ExecutionSample", "period", "1 ms")
set_("jdk.NativeMethodSample", "period", "1 ms")
set_("jdk.Compilation", "threshold", "0 ms")
for event in ("jdk.ExecuteVMOperation", "jdk.GCPhasePause", "jdk.ClassLoad"):
    set_(event, "enabled", "true")
    set_(event, "threshold", "0 ms")
open(dst, "w").write(x)
PY
rm -f "$results"/jfr-*.jfr "$dir"/target/bench-streams/jfr-*.jfr
export BENCH_TAIL_PARTS=${BENCH_TAIL_PARTS:-1 2 4 5}
export BENCH_JAVA_OPTS="-XX:StartFlightRecording=filename=$results/jfr-@TAG@.jfr,settings=$jfc -Xlog:gc*,safepoint:file=$results/gc-@TAG@.log ${BENCH_JAVA_OPTS:-}"
"$here/bench-client-tail.sh" "$dir"

classpath="$dir/target/test-classes:$dir/target/classes:$(cat "$dir/target/test-classpath.txt")"
causes() { java -cp "$classpath" "$here/TailCauses.java" "$@" 2>&1 || echo "TailCauses $* failed"; }
streams=$dir/target/bench-streams
parts=" $BENCH_TAIL_PARTS "
echo
echo "== causes (scripts/TailCauses.java; a slow item is one above the figure's target)"
if [[ "$parts" == *" 1 "* ]] && [ -f "$streams/StreamLoadSimulation-1000-1.run" ]; then
  read -r folder run_id < "$streams/StreamLoadSimulation-1000-1.run"
  echo "-- zero-delay streams at 1,000/s: client-added TTFT"
  causes ttft "$results/jfr-StreamLoadSimulation-1000-1.jfr" "$streams/$folder/llm-requests.jsonl" 2 \
    "$streams/StreamLoadSimulation-1000-1-server-after.json" "$run_id"
fi
if [[ "$parts" == *" 2 "* ]]; then
  for c in c64 c256; do
    [ -f "$streams/StreamLoadSimulation-$c-1.run" ] || continue
    read -r folder run_id < "$streams/StreamLoadSimulation-$c-1.run"
    target_ttft=$([ $c = c64 ] && echo 2 || echo 5)
    target_itl=$([ $c = c64 ] && echo 0.5 || echo 1)
    echo "-- $c realistic streams: client-added TTFT"
    causes ttft "$results/jfr-StreamLoadSimulation-$c-1.jfr" "$streams/$folder/llm-requests.jsonl" "$target_ttft" \
      "$streams/StreamLoadSimulation-$c-1-server-after.json" "$run_id"
    echo "-- $c realistic streams: ITL error"
    causes itl "$results/jfr-StreamLoadSimulation-$c-1.jfr" "$streams/$folder/llm-requests.jsonl" "$target_itl" \
      "$streams/StreamLoadSimulation-$c-1-server-after.json" "$run_id"
  done
fi
if [[ "$parts" == *" 4 "* ]] && [ -f "$results/trace.run" ]; then
  echo "-- Mooncake-shaped trace at 4x: schedule lag"
  causes lag "$results/jfr-trace.jfr" "$results/$(cat "$results/trace.run")/llm-requests.jsonl" 20
fi
if [[ "$parts" == *" 5 "* ]] && [ -f "$results/cold.run" ]; then
  run=$results/$(cat "$results/cold.run")
  max=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["client"]["schedule_lag_ms"]["max"])' "$run/llm-run.json")
  echo "-- first users of a cold open loop: the first user's lag ($max ms)"
  causes first "$results/jfr-cold.jfr" "$run/llm-requests.jsonl" "$max"
fi
