#!/usr/bin/env bash
# Times `bin/gatling-llm report --compare` on two synthetic runs of N requests each (default
# 1,000,000; 16 inter-token gaps a request) under a heap of HEAP (default 512m), and prints the wall
# time, the JVM's peak RSS and the first lines of the verdict. Needs python3 and a built tree
# (./mvnw -q -B compile). Usage: scripts/bench-compare.sh [N] [HEAP]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
n=${1:-1000000}
heap=${2:-512m}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" "$n" <<'PY'
import json, os, random, sys
work, n = sys.argv[1], int(sys.argv[2])
for name, slower in (("a", 1.0), ("b", 1.05)):
    rnd = random.Random(name)
    os.makedirs(os.path.join(work, name))
    with open(os.path.join(work, name, "llm-requests.jsonl"), "w") as f:
        for i in range(n):
            ttft = round(80 * rnd.lognormvariate(0, 0.3) * slower, 3)
            speed = 20 * rnd.lognormvariate(0, 0.15) * slower
            itl = [round(speed * rnd.lognormvariate(0, 0.1), 3) for _ in range(16)]
            e2e = round(ttft + sum(itl), 3)
            f.write(json.dumps({"request": "chat", "phase": "measured", "index": i,
                "start_ms": 1_800_000_000_000 + i * 2, "status": "ok", "prompt_tokens": 512,
                "cached_tokens": 0, "completion_tokens": 17, "ttft_ms": ttft, "itl_ms": itl,
                "tpot_ms": round(sum(itl) / 16, 3), "e2e_ms": e2e}) + "\n")
PY
echo "requests per run: $n; files: $(du -sh "$work/a" | cut -f1) each; heap: $heap"
start=$(date +%s.%N)
GATLING_LLM_JAVA_OPTS="-Xmx$heap" /usr/bin/time -f "peak RSS: %M KB" \
  "$root/bin/gatling-llm" report --compare "$work/a" "$work/b" > "$work/out.txt"
end=$(date +%s.%N)
echo "wall time: $(python3 -c "print(round($end - $start, 1))") s"
head -12 "$work/out.txt"
