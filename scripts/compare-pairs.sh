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
#
# Needs a built tree (./mvnw -q -B compile), jq, and for `run` the Maven plugins in ~/.m2.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode=${1:?usage: compare-pairs.sh run OUT PAIRS [-D...] | count OUT [options]}
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
    (cd "$root" && ./mvnw -B -o -q gatling:test "${simulation[@]}" "$@" "${extra[@]}") \
      > "$out/$name.log" 2>&1 || echo "run $name: exit $? (see $out/$name.log)"
    after=$(ls -d "$root"/target/gatling/*/ 2>/dev/null | sort || true)
    folder=$(comm -13 <(echo "$before") <(echo "$after") | head -1)
    if [ -z "$folder" ]; then
      echo "run $name: no run folder (see $out/$name.log)" >&2
      exit 1
    fi
    mv "${folder%/}" "$out/$name"
    echo "run $name: $(date -u +%H:%M:%S) ${extra[*]:-}"
  done
  exit 0
fi

if [ "$mode" != count ]; then
  echo "compare-pairs.sh: unknown mode $mode (run or count)" >&2
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
