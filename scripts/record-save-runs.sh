#!/usr/bin/env bash
# Saves small runs of the example simulations for scripts/record-compare.sh: each run's
# llm-run.json and llm-requests.jsonl (the two files `bin/gatling-llm report` rebuilds every
# output from) under OUT/NAME/ (default src/test/resources/saved-runs).
#
#   scripts/record-save-runs.sh [OUT] [NAME...]
#
# Runs on the embedded simulator with small budgets (a few MB in all); `llama` needs
# LLAMA_BASE_URL (eval "$(scripts/llama-server.sh env)"), and is skipped without it. Needs a built
# tree (./mvnw -B -o -q -DskipTests test-compile) and the Maven plugins in ~/.m2.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-$root/src/test/resources/saved-runs}
shift || true
mkdir -p "$out"
ex=io.github.gatlingllm.examples
slo=(-Dllm.slo.ttftMs=200 -Dllm.slo.itlMs=50)

run() { # NAME CLASS [-D...]
  local name=$1 class=$2
  shift 2
  if [ ${#only[@]} -gt 0 ] && [[ ! " ${only[*]} " =~ " $name " ]]; then return 0; fi
  local before after folder
  before=$(ls -d "$root"/target/gatling/*/ 2>/dev/null | sort || true)
  echo "== $name: $class $*"
  (cd "$root" && ./mvnw -B -o -q gatling:test -Dgatling.simulationClass="$ex.$class" "$@") \
    > "$out/$name.log" 2>&1 || echo "$name: exit $? (see $out/$name.log)"
  after=$(ls -d "$root"/target/gatling/*/ 2>/dev/null | sort || true)
  folder=$(comm -13 <(echo "$before") <(echo "$after") | head -1)
  if [ -z "$folder" ] || [ ! -f "$folder/llm-run.json" ]; then
    echo "$name: no run folder with llm-run.json"
    return 0
  fi
  rm -rf "${out:?}/$name"
  mkdir -p "$out/$name"
  cp "$folder/llm-run.json" "$out/$name/"
  [ -f "$folder/llm-requests.jsonl" ] && cp "$folder/llm-requests.jsonl" "$out/$name/"
  rm -f "$out/$name.log"
  echo "$name: $(du -sh "$out/$name" | cut -f1)"
}

only=("$@")
run quick QuickstartSimulation -Dllm.requests=40 "${slo[@]}"
run quick-baseline QuickstartSimulation -Dllm.requests=40 "${slo[@]}" \
  -Dllm.baseline="$out/quick" -Dllm.noRegressionPct=50
run shard0 QuickstartSimulation -Dllm.requests=40 -Dllm.shard=0/2 "${slo[@]}"
run shard1 QuickstartSimulation -Dllm.requests=40 -Dllm.shard=1/2 "${slo[@]}"
run target-down QuickstartSimulation -Dllm.requests=40 -Dllm.baseUrl=http://127.0.0.1:9/v1 \
  -Dllm.model=none -Dllm.preflight=false -Dllm.targetDown.afterMs=500 -Dllm.targetDown.minErrors=5
run conversation ConversationSimulation -Dllm.conversations=8 "${slo[@]}"
run agent AgentSessionSimulation -Dllm.agent.sessions=6
run http-prompts HttpPromptsSimulation -Dllm.requests=20
run open-loop OpenLoopSimulation -Dllm.requests=60 "${slo[@]}"
run prompt-file PromptFileSimulation -Dllm.requests=12
run prompt-modes PromptModesSimulation -Dllm.requests=12
run ramped RampedConcurrencySimulation -Dllm.requests=80
run stepped SteppedOpenLoopSimulation "${slo[@]}"
run sweep SweepSimulation -Dllm.sweep.levelDuration=3s "${slo[@]}"
run trace TraceReplaySimulation
run working-set WorkingSetSweepSimulation -Dllm.requests=16
if [ -n "${LLAMA_BASE_URL:-}" ]; then
  run llama QuickstartSimulation -Dllm.baseUrl="$LLAMA_BASE_URL" -Dllm.requests=12 \
    -Dllm.inputTokens=128 -Dllm.outputTokens=16 -Dllm.concurrency=2 "${slo[@]}"
else
  echo "llama: skipped (no LLAMA_BASE_URL)"
fi
du -sh "$out"
