#!/usr/bin/env bash
# A/A and A/B pairs of runs, and how often `report --compare` calls them better or worse.
#
#   scripts/compare-pairs.sh run OUT PAIRS [-Dllm.*=...]
#       runs the quickstart (./mvnw -B -o gatling:test) 2 x PAIRS times with the same settings, one
#       after the other, and moves each run folder to OUT/01, OUT/02, ...; with B_FLAGS set (e.g.
#       B_FLAGS=-Dllm.simulator.decodeMsPerToken=24) the second run of each pair gets those too
#       (an A/B pair). SIMULATION=... runs another simulation (-Dgatling.simulationClass).
#   scripts/compare-pairs.sh count OUT [report --compare options]
#       compares OUT/01 with OUT/02, OUT/03 with OUT/04, ... (bin/gatling-llm report --compare
#       --json) and prints, for each pair, its overall verdict and every metric (overall and per
#       level) called better or worse; then the share of pairs with none, and how often each
#       metric read better, worse, same and unclear.
#   scripts/compare-pairs.sh replicates OUT K [report --compare options]
#       the runs of OUT taken K pairs at a time as replicates (issue 42): 01,03,05 against
#       02,04,06, then 07,09,11 against 08,10,12, ... (bin/gatling-llm report --compare
#       A1,A2,A3 B1,B2,B3 --json); prints each group's verdict line and the metrics called better
#       or worse, then the share of groups with none and the verdicts by metric.
#
# Runs are interleaved (A, B, A, B...) so that what changes on the machine over time (a neighbour's
# build, the server's caches) falls on both sides. A run is the quickstart or SIMULATION by default;
# A_CMD and B_CMD (shell commands run from the repository, each leaving one new run folder under
# target/gatling) replace it for A and for B, e.g.
#   A_CMD='./mvnw -B -o -q gatling:test -Dllm.concurrency=1' B_CMD='... -Dllm.concurrency=4'
# NEIGHBOUR=N runs a busy loop (a noisy neighbour, 60 s) beside run N (e.g. NEIGHBOUR=04).
#
# Needs a built tree (./mvnw -q -B compile), jq, and for `run` the Maven plugins in ~/.m2.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode=${1:?usage: compare-pairs.sh run OUT PAIRS [-D...] | count OUT [options] | replicates OUT K [options]}
out=${2:?OUT folder}
shift 2

if [ "$mode" = run ]; then
  pairs=${1:?PAIRS}
  shift
  mkdir -p "$out"
  simulation=()
  if [ -n "${SIMULATION:-}" ]; then
    simulation=("-Dgatling.simulationClass=$SIMULATION")
  fi
  for ((i = 1; i <= 2 * pairs; i++)); do
    name=$(printf '%02d' "$i")
    extra=()
    if [ $((i % 2)) -eq 0 ] && [ -n "${B_FLAGS:-}" ]; then
      read -r -a extra <<< "$B_FLAGS"
    fi
    before=$(ls -d "$root"/target/gatling/*/ 2>/dev/null | sort || true)
    neighbour=
    if [ "${NEIGHBOUR:-}" = "$name" ]; then
      timeout 60 sh -c 'while :; do :; done' &
      neighbour=$!
    fi
    command=${A_CMD:-}
    if [ $((i % 2)) -eq 0 ]; then
      command=${B_CMD:-}
    fi
    if [ -n "$command" ]; then
      (cd "$root" && bash -c "$command") > "$out/$name.log" 2>&1 \
        || echo "run $name: exit $? (see $out/$name.log)"
    else
      (cd "$root" && ./mvnw -B -o -q gatling:test "${simulation[@]}" "$@" "${extra[@]}") \
        > "$out/$name.log" 2>&1 || echo "run $name: exit $? (see $out/$name.log)"
    fi
    if [ -n "$neighbour" ]; then
      kill "$neighbour" 2>/dev/null || true
      wait "$neighbour" 2>/dev/null || true
    fi
    after=$(ls -d "$root"/target/gatling/*/ 2>/dev/null | sort || true)
    folder=$(comm -13 <(echo "$before") <(echo "$after") | head -1)
    if [ -z "$folder" ]; then
      echo "run $name: no run folder (see $out/$name.log)" >&2
      exit 1
    fi
    mv "${folder%/}" "$out/$name"
    echo "run $name: $(date -u +%H:%M:%S) load average $(cut -d' ' -f1 /proc/loadavg 2>/dev/null)" \
      "${extra[*]:-}${neighbour:+ (busy neighbour)}"
  done
  exit 0
fi

if [ "$mode" = replicates ]; then
  k=${1:?K: pairs a group}
  shift
  tally=$(mktemp)
  trap 'rm -f "$tally"' EXIT
  runs=("$out"/[0-9][0-9])
  groups=0
  clean=0
  for ((g = 0; (g + 1) * 2 * k <= ${#runs[@]}; g++)); do
    as=()
    bs=()
    for ((j = 0; j < k; j++)); do
      as+=("${runs[$((g * 2 * k + 2 * j))]}")
      bs+=("${runs[$((g * 2 * k + 2 * j + 1))]}")
    done
    sa=$(IFS=,; echo "${as[*]}")
    sb=$(IFS=,; echo "${bs[*]}")
    code=0
    json=$("$root/bin/gatling-llm" report --compare "$sa" "$sb" --json "$@") || code=$?
    if [ "$code" -ne 0 ] && [ "$code" -ne 3 ]; then
      echo "group $((g + 1)): report --compare failed (exit $code)" >&2
      exit 1
    fi
    groups=$((groups + 1))
    flagged=$(jq -r '
      [(.metrics | to_entries[] | select(.value.verdict == "better" or .value.verdict == "worse")
         | "\(.key) \(.value.verdict) \(.value.delta_pct)%"),
       (.levels // [] | .[] | .index as $l | .metrics | to_entries[]
         | select(.value.verdict == "better" or .value.verdict == "worse")
         | "level \($l) \(.key) \(.value.verdict) \(.value.delta_pct)%")] | join(", ")' <<< "$json")
    jq -r '(.metrics | to_entries[] | "overall \(.key) \(.value.verdict)"),
           (.levels // [] | .[] | .metrics | to_entries[] | "level \(.key) \(.value.verdict)")' \
      <<< "$json" >> "$tally"
    if [ -z "$flagged" ]; then
      clean=$((clean + 1))
    fi
    echo "group $((g + 1)) ($(basename "${as[0]}")..$(basename "${bs[$((k - 1))]}")):" \
      "$(jq -r '.verdict.line // "-"' <<< "$json")${flagged:+ | better/worse: $flagged}"
  done
  echo "groups: $groups of $k pairs; with no metric better or worse: $clean"
  echo "verdicts by metric (better worse same unclear):"
  awk '{ k = $1 " " $2; n[k]; c[k, $3]++ }
       END { for (k in n) printf "  %-36s %3d %3d %3d %3d\n", k, c[k, "better"], c[k, "worse"],
             c[k, "same"], c[k, "unclear"] }' "$tally" | sort
  exit 0
fi

if [ "$mode" != count ]; then
  echo "compare-pairs.sh: unknown mode $mode (run, count or replicates)" >&2
  exit 2
fi
tally=$(mktemp)
trap 'rm -f "$tally"' EXIT
pairs=0
clean=0
for a in "$out"/[0-9][0-9]; do
  n=$((10#$(basename "$a")))
  [ $((n % 2)) -eq 1 ] || continue
  b=$(printf '%s/%02d' "$out" $((n + 1)))
  [ -d "$b" ] || continue
  code=0
  json=$("$root/bin/gatling-llm" report --compare "$a" "$b" --json "$@") || code=$?
  if [ "$code" -ne 0 ] && [ "$code" -ne 3 ]; then
    echo "$(basename "$a")/$(basename "$b"): report --compare failed (exit $code)" >&2
    exit 1
  fi
  pairs=$((pairs + 1))
  flagged=$(jq -r '
    [(.metrics | to_entries[] | select(.value.verdict == "better" or .value.verdict == "worse")
       | "\(.key) \(.value.verdict) \(.value.delta_pct)%"),
     (.levels // [] | .[] | .index as $l | .metrics | to_entries[]
       | select(.value.verdict == "better" or .value.verdict == "worse")
       | "level \($l) \(.key) \(.value.verdict) \(.value.delta_pct)%")] | join(", ")' <<< "$json")
  jq -r '(.metrics | to_entries[] | "overall \(.key) \(.value.verdict)"),
         (.levels // [] | .[] | .metrics | to_entries[] | "level \(.key) \(.value.verdict)")' \
    <<< "$json" >> "$tally"
  verdict=$(jq -r '.verdict.line // "-"' <<< "$json")
  if [ -z "$flagged" ]; then
    clean=$((clean + 1))
  fi
  echo "$(basename "$a")/$(basename "$b"): $verdict${flagged:+ | better/worse: $flagged}"
done
echo "pairs: $pairs; with no metric better or worse (overall and per level): $clean" \
  "($(awk -v c=$clean -v p=$pairs 'BEGIN { printf "%.0f", p ? 100 * c / p : 0 }')%)"
echo "verdicts by metric (better worse same unclear):"
awk '{ k = $1 " " $2; n[k]; c[k, $3]++ }
     END { for (k in n) printf "  %-36s %3d %3d %3d %3d\n", k, c[k, "better"], c[k, "worse"],
           c[k, "same"], c[k, "unclear"] }' "$tally" | sort
