#!/usr/bin/env bash
# Byte-for-byte check of every output rebuilt from saved runs, between this checkout and another
# commit: run it before and after any change to the run record (llm-run.json), the request lines,
# the report page, `report --compare` or the merge of run folders.
#
#   scripts/record-compare.sh [BASE] [RUNS]
#
# BASE: a commit (default: main) checked out and built in target/record-compare/base (a git
# worktree, reused and moved to BASE on the next call), or the path of another built checkout.
# RUNS: the saved runs (default src/test/resources/saved-runs, made by scripts/record-save-runs.sh:
# each folder holds a run's llm-run.json and llm-requests.jsonl).
#
# For each checkout, in the same scratch folder (so that the paths written into the outputs are
# the same), it rebuilds:
#   - each saved run: `bin/gatling-llm report --csv FOLDER` -> llm-run.json, llm-report.html,
#     llm-requests.csv, llm-requests.jsonl, and the command's output;
#   - merges: `report --csv --output M A B` of the two shards (one test's merge), of two runs of
#     one simulation that are not shards, and of a conversation run with an agent run;
#   - comparisons: `report --compare A B` as text and as JSON (--json) for several pairs, with the
#     exit code.
# Then `diff -r` between the two checkouts' outputs: nothing is normalised (no output of `report`
# holds the time it was made; the paths are the same scratch paths). Exit 0 when identical.
# Needs this checkout built (./mvnw -B -o -q compile) and Maven's ~/.m2 for BASE.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
base=${1:-main}
runs=$(cd "${2:-$root/src/test/resources/saved-runs}" && pwd)
work=$root/target/record-compare
mkdir -p "$work"

if [ -d "$base" ]; then
  base_root=$(cd "$base" && pwd)
else
  base_root=$work/base
  commit=$(git -C "$root" rev-parse --verify "$base^{commit}")
  if [ ! -d "$base_root" ]; then
    git -C "$root" worktree add --detach "$base_root" "$commit" > /dev/null
  else
    git -C "$base_root" checkout -q --detach "$commit"
  fi
  [ -e "$base_root/.cache" ] || [ ! -e "$root/.cache" ] || ln -s "$(readlink -f "$root/.cache")" "$base_root/.cache"
  echo "base: $base at $(git -C "$base_root" log --oneline -1)"
  (cd "$base_root" && ./mvnw -B -o -q -DskipTests compile) > "$work/base-build.log" 2>&1 \
    || { echo "cannot build $base (see $work/base-build.log)"; exit 2; }
fi

# outputs CHECKOUT OUT: every output of CHECKOUT's bin/gatling-llm from the saved runs, into OUT.
outputs() {
  local checkout=$1 out=$2 scratch=$work/scratch
  local cli=$checkout/bin/gatling-llm
  rm -rf "$out" "$scratch"
  mkdir -p "$out" "$scratch"
  for run in "$runs"/*/; do
    local name
    name=$(basename "$run")
    [ -f "$run/llm-requests.jsonl" ] || continue
    cp -r "$run" "$scratch/$name"
  done
  for folder in "$scratch"/*/; do
    local name
    name=$(basename "$folder")
    { "$cli" report --csv "$folder" 2>&1; echo "exit $?"; } > "$out/$name.report.txt" || true
    mkdir -p "$out/$name"
    cp "$folder"/llm-* "$out/$name/"
  done
  merge() { # NAME FOLDER...
    local name=$1
    shift
    local dirs=() d
    for d in "$@"; do
      [ -d "$runs/$d" ] && dirs+=("$scratch/$d")
    done
    [ ${#dirs[@]} -ge 2 ] || return 0
    { "$cli" report --csv --output "$scratch/merge-$name" "${dirs[@]}" 2>&1; echo "exit $?"; } \
      > "$out/merge-$name.report.txt" || true
    mkdir -p "$out/merge-$name"
    cp "$scratch/merge-$name"/llm-* "$out/merge-$name/" 2> /dev/null || true
  }
  merge shards shard0 shard1
  merge runs quick quick-baseline
  merge sessions conversation agent
  compare() { # A B
    [ -d "$runs/$1" ] && [ -d "$runs/$2" ] || return 0
    { "$cli" report --compare "$scratch/$1" "$scratch/$2" 2>&1; echo "exit $?"; } \
      > "$out/compare-$1-$2.txt" || true
    { "$cli" report --compare "$scratch/$1" "$scratch/$2" --json 2>&1; echo "exit $?"; } \
      > "$out/compare-$1-$2.json" || true
  }
  compare quick quick-baseline
  compare shard0 shard1
  compare open-loop stepped
  compare quick llama
  compare conversation conversation
  compare quick target-down
  compare sweep stepped
}

outputs "$base_root" "$work/out-base"
outputs "$root" "$work/out-head"
files=$(find "$work/out-head" -type f | wc -l)
if diff -r "$work/out-base" "$work/out-head" > "$work/diff.txt"; then
  echo "identical: $files files from $(ls -d "$runs"/*/ | wc -l) saved runs ($work/out-head)"
else
  echo "DIFFERENT: $(grep -c '^diff\|^Only' "$work/diff.txt") of $files files differ (see $work/diff.txt)"
  head -40 "$work/diff.txt"
  exit 1
fi
