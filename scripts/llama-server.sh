#!/usr/bin/env bash
# A real llama.cpp server on this machine, for integration tests and local trials: llama-server
# from Debian sid (unpacked into a private folder, never installed), serving a llama-architecture
# model with random weights and the real Qwen3 vocabulary. The engine, tokenizer, chat template,
# KV cache, prefix cache and streaming are real; the generated text is meaningless.
#
# Usage: scripts/llama-server.sh [install|model|start|stop|status|env]   (default: start)
#        scripts/llama-server.sh [model-tools|start-tools|stop-tools|status-tools|env-tools]
#        scripts/llama-server.sh [mmproj|start-vision|stop-vision|status-vision|env-vision]
#   install  download llama.cpp-tools and what it needs from Debian sid with a private apt state
#            (own sources.list naming this machine's Debian mirror, own lists and cache), unpack
#            each package with dpkg-deb -x; the system's apt setup is not touched
#   model    write the GGUF model (scripts/llama-model.py, numpy + sid's python3-gguf)
#   start    install and model when needed, start the server on 127.0.0.1 on a free port, wait for
#            /health, print LLAMA_BASE_URL=http://127.0.0.1:PORT/v1 and write the state file
#   stop     stop the server named in the state file, by its pid
#   status   say whether that server is up (exit 0) or not (exit 1)
#   env      print the state file (LLAMA_BASE_URL, LLAMA_PID, ...) when the server is up
#   *-tools  the same for a second, independent server of the tool-call model: the same engine,
#            vocabulary and chat template, crafted weights (llama-model.py --tool-call) that answer
#            every chat turn with one fixed tool call (fetch_orders_0 {"unit": 7}), for tests of
#            agent sessions; its own port, one slot, state file $LLAMA_CACHE/tools-server.env
#            (LLAMA_TOOLS_BASE_URL, LLAMA_TOOLS_PORT, LLAMA_TOOLS_PID, ...)
#   mmproj   write the multimodal projector for the model (llama-model.py --mmproj): LLaVA-1.5
#            style (clip "mlp"), random weights, a tiny CLIP vision tower; every image, whatever
#            its size, becomes 256 tokens (224 px, 14 px patches); print its path
#   *-vision the same for a third server that accepts images: the random model (the main one's
#            shape) with that projector (--mmproj), for tests of image prompts; its own port, one
#            slot, state file $LLAMA_CACHE/vision-server.env (LLAMA_VISION_BASE_URL,
#            LLAMA_VISION_PORT, LLAMA_VISION_PID, ..., LLAMA_VISION_IMAGE_TOKENS)
#
# Everything is cached under $LLAMA_CACHE (default .cache/llama): a second start takes seconds.
# The install is keyed by the package versions, the model by its parameters, the tokenizer's
# SHA-256 and this script's model writer. `install --refresh` (or LLAMA_REFRESH=1) asks sid again.
#
# Environment (all optional):
#   LLAMA_CACHE       cache folder                       (.cache/llama)
#   LLAMA_STATE       state file                         ($LLAMA_CACHE/server.env)
#   LLAMA_TOKENIZER   folder with tokenizer.json + tokenizer_config.json (.cache/tokenizers/qwen3)
#   LLAMA_DIM LLAMA_LAYERS LLAMA_HEADS LLAMA_FF LLAMA_TYPE   model shape (256 4 4 768 q8_0)
#   LLAMA_CTX         context size, divided among slots  (8192)
#   LLAMA_SLOTS       parallel slots (-np)               (1)
#   LLAMA_THREADS     CPU threads                        (2)
#   LLAMA_ALIAS       model name served                  (qwen3-vocab-random)
#   LLAMA_PORT        port                               (a free one)
#   LLAMA_MIRROR      Debian mirror URL                  (the first one in /etc/apt/sources*)
#   LLAMA_EXTRA_ARGS  more llama-server arguments
#   LLAMA_TOOLS_STATE LLAMA_TOOLS_CTX LLAMA_TOOLS_PORT LLAMA_TOOLS_ALIAS   the tool-call server's
#                     state file, context (4096), port (a free one), name (qwen3-tool-call); it
#                     runs 1 slot on 1 thread, without the host-memory prompt cache
#   LLAMA_VISION_STATE LLAMA_VISION_CTX LLAMA_VISION_THREADS LLAMA_VISION_PORT LLAMA_VISION_ALIAS
#                     the image server's state file, context (8192), threads (2), port (a free
#                     one), name (qwen3-vocab-random-vision); 1 slot
#   LLAMA_MMPROJ      a projector file the image server loads instead of the one written here
#                     (its output size must be the model's LLAMA_DIM)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cache=${LLAMA_CACHE:-"$root/.cache/llama"}
state=${LLAMA_STATE:-"$cache/server.env"}
tools_state=${LLAMA_TOOLS_STATE:-"$cache/tools-server.env"}
vision_state=${LLAMA_VISION_STATE:-"$cache/vision-server.env"}
tokenizer=${LLAMA_TOKENIZER:-"$root/.cache/tokenizers/qwen3"}
packages=(llama.cpp-tools libllama0 libggml0 libc6 libstdc++6 libgcc-s1 libgomp1 libssl3t64 python3-gguf)

fail() { # fail STEP WHY...
  local step=$1
  shift
  echo "llama-server.sh: step '$step' failed: $*" >&2
  exit 1
}
say() { echo "llama-server.sh: $*" >&2; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

check_platform() {
  [ "$(uname -s)" = Linux ] || fail platform "needs Linux, this is $(uname -s)"
  [ "$(uname -m)" = x86_64 ] || fail platform "needs x86_64 (Debian amd64 packages), this is $(uname -m)"
  for tool in apt-get dpkg-deb sha256sum; do
    command -v "$tool" >/dev/null || fail platform "$tool is not installed (a Debian machine is needed)"
  done
}

# The machine's own Debian mirror, from its apt sources (one-line or deb822), security suites left out.
mirror() {
  if [ -n "${LLAMA_MIRROR:-}" ]; then
    echo "$LLAMA_MIRROR"
    return
  fi
  local url
  url=$(
    {
      cat /etc/apt/sources.list 2>/dev/null | awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; break } }'
      cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '/^URIs:/ { for (i = 2; i <= NF; i++) print $i }'
      cat /etc/apt/sources.list.d/*.list 2>/dev/null | awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; break } }'
    } | grep -E '/debian/?$' | grep -v -- '-security' | head -1
  ) || true
  [ -n "$url" ] || fail mirror "no Debian mirror (a URL ending in /debian) in /etc/apt/sources.list or /etc/apt/sources.list.d/; set LLAMA_MIRROR"
  echo "${url%/}"
}

apt_private() { # apt-get or apt-cache with the private state under $cache/apt
  local tool=$1
  shift
  local a="$cache/apt"
  "$tool" -q -o Dir::Etc::SourceList="$a/sources.list" -o Dir::Etc::SourceParts=/dev/null \
    -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null \
    -o Dir::State::Lists="$a/lists" -o Dir::State::Status="$a/status" -o Dir::Cache="$a/cache" \
    -o Debug::NoLocking=1 -o APT::Sandbox::User="$(id -un)" -o APT::Architecture=amd64 "$@"
}

# install: sets $sysroot to the unpacked root of the current package versions.
install() {
  check_platform
  local refresh=${LLAMA_REFRESH:-0}
  [ "${1:-}" = --refresh ] && refresh=1
  if [ "$refresh" != 1 ] && [ -f "$cache/root/.complete" ]; then
    sysroot=$(cd "$cache/root" && pwd -P)
    say "install: cached in $sysroot ($(cat "$sysroot/.complete"))"
    return
  fi
  local t0
  t0=$(now)
  local a="$cache/apt"
  mkdir -p "$a/lists/partial" "$a/cache/archives/partial" "$cache/debs"
  : >"$a/status"
  local url
  url=$(mirror)
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $url sid main" >"$a/sources.list"
  # apt-get update exits 0 when an index cannot be fetched: check that sid's package list came.
  apt_private apt-get update >"$cache/apt.log" 2>&1 && ls "$a/lists/"*_sid_main_binary-amd64_Packages* >/dev/null 2>&1 ||
    fail "install: apt-get update (sid from $url)" "$(grep -E '^(W|E):' "$cache/apt.log" | head -3)"
  local versions
  versions=$(apt_private apt-cache show --no-all-versions "${packages[@]}" 2>>"$cache/apt.log" |
    awk '/^Package:/ { p = $2 } /^Version:/ { print p "=" $2 }') ||
    fail "install: apt-cache show" "$(tail -3 "$cache/apt.log")"
  for p in "${packages[@]}"; do
    grep -q "^$p=" <<<"$versions" || fail "install: resolve $p" "sid from $url has no package $p"
  done
  local key
  key=$(sha256sum <<<"$versions" | cut -c1-12)
  local dest="$cache/root-$key"
  if [ ! -f "$dest/.complete" ]; then
    (cd "$cache/debs" && apt_private apt-get download "${packages[@]}" >>"$cache/apt.log" 2>&1) ||
      fail "install: apt-get download" "$(tail -3 "$cache/apt.log")"
    rm -rf "$dest.tmp"
    mkdir -p "$dest.tmp"
    local p v deb
    while IFS== read -r p v; do
      deb=$(ls "$cache/debs/${p}_"*"${v#*:}_"*.deb 2>/dev/null | head -1)
      [ -n "$deb" ] || fail "install: unpack $p" "no downloaded .deb for $p $v in $cache/debs"
      dpkg-deb -x "$deb" "$dest.tmp" || fail "install: unpack $p" "dpkg-deb -x $deb failed"
    done <<<"$versions"
    tr '\n' ' ' <<<"$versions" >"$dest.tmp/.complete"
    rm -rf "$dest"
    mv "$dest.tmp" "$dest"
  fi
  ln -sfn "root-$key" "$cache/root"
  sysroot=$(cd "$cache/root" && pwd -P)
  say "install: $(cat "$sysroot/.complete")in $sysroot ($(since "$t0") s)"
}

libdir() { echo "$sysroot/usr/lib/x86_64-linux-gnu"; }

# The CPU backend for this processor: the most capable of Debian's builds that the flags allow.
cpu_backend() {
  local dir
  dir="$(libdir)/ggml/backends0"
  local flags
  flags=$(grep -m1 '^flags' /proc/cpuinfo)
  local want=x64
  if grep -qw avx512f <<<"$flags" && [ -f "$dir/libggml-cpu-skylakex.so" ]; then
    want=skylakex
  elif grep -qw avx2 <<<"$flags" && grep -qw fma <<<"$flags"; then
    want=haswell
  elif grep -qw avx <<<"$flags"; then
    want=sandybridge
  elif grep -qw sse4_2 <<<"$flags"; then
    want=sse42
  fi
  [ -f "$dir/libggml-cpu-$want.so" ] || fail "start: CPU backend" "no $dir/libggml-cpu-$want.so"
  echo "$dir/libggml-cpu-$want.so"
}

# A Python that imports numpy: python3 on PATH, else /usr/bin/python3, else apt-get install python3-numpy.
python_with_numpy() {
  local py
  for py in python3 /usr/bin/python3; do
    if command -v "$py" >/dev/null && "$py" -c 'import numpy' 2>/dev/null; then
      echo "$py"
      return
    fi
  done
  if [ "$(id -u)" = 0 ]; then
    say "model: no Python with numpy; apt-get install python3-numpy"
    (apt-get update -qq && apt-get install -y -qq python3-numpy) >&2 ||
      fail "model: install numpy" "apt-get install python3-numpy failed"
    echo /usr/bin/python3
    return
  fi
  fail "model: find numpy" "no python3 here imports numpy; apt-get install python3-numpy"
}

# model [tools]: sets $model to the GGUF file for the current shape and tokenizer (tools: the
# crafted tool-call model, one layer of a fixed shape).
model() {
  install
  local dim=${LLAMA_DIM:-256} layers=${LLAMA_LAYERS:-4} heads=${LLAMA_HEADS:-4} ff=${LLAMA_FF:-768}
  local type=${LLAMA_TYPE:-q8_0}
  local kind=random-llama
  local extra=()
  if [ "${1:-}" = tools ]; then
    dim=256 layers=1 heads=4 ff=256 type=q8_0 kind=tool-call-llama
    extra=(--tool-call --context 4096)
  fi
  if [ -z "${LLAMA_TOKENIZER:-}" ] && [ ! -f "$tokenizer/tokenizer.json" ]; then
    "$root/scripts/fetch-tokenizers.sh" >&2 || fail "model: fetch the tokenizer" "scripts/fetch-tokenizers.sh failed"
  fi
  [ -f "$tokenizer/tokenizer.json" ] && [ -f "$tokenizer/tokenizer_config.json" ] ||
    fail "model: tokenizer" "no tokenizer.json + tokenizer_config.json in $tokenizer (run scripts/fetch-tokenizers.sh)"
  local gguf_version
  gguf_version=$(sed 's/.*python3-gguf=\([^ ]*\).*/\1/' "$sysroot/.complete")
  local key
  key=$({
    echo "dim=$dim layers=$layers heads=$heads ff=$ff type=$type gguf=$gguf_version ${extra[*]}"
    sha256sum <"$tokenizer/tokenizer.json"
    sha256sum <"$tokenizer/tokenizer_config.json"
    sha256sum <"$root/scripts/llama-model.py"
  } | sha256sum | cut -c1-12)
  model="$cache/models/$kind-d$dim-l$layers-h$heads-ff$ff-$type-$key.gguf"
  if [ -f "$model" ]; then
    say "model: cached $model"
    return
  fi
  local t0
  t0=$(now)
  mkdir -p "$cache/models"
  local py
  py=$(python_with_numpy)
  PYTHONPATH="$sysroot/usr/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH}" "$py" \
    "$root/scripts/llama-model.py" --tokenizer "$tokenizer" --out "$model" --dim "$dim" \
    --layers "$layers" --heads "$heads" --ff "$ff" --type "$type" "${extra[@]}" >&2 ||
    fail "model: write GGUF" "scripts/llama-model.py exited $? (see above)"
  say "model: written in $(since "$t0") s"
}

# mmproj: sets $mmproj to the projector file for the current model shape ($LLAMA_MMPROJ if set),
# and $image_tokens to the tokens an image costs with it (empty for a file of LLAMA_MMPROJ).
mmproj() {
  install
  if [ -n "${LLAMA_MMPROJ:-}" ]; then
    [ -f "$LLAMA_MMPROJ" ] || fail "mmproj: LLAMA_MMPROJ" "no file $LLAMA_MMPROJ"
    mmproj="$(cd "$(dirname "$LLAMA_MMPROJ")" && pwd)/$(basename "$LLAMA_MMPROJ")" image_tokens=
    say "mmproj: $mmproj (LLAMA_MMPROJ)"
    return
  fi
  local dim=${LLAMA_DIM:-256} vdim=128 vlayers=2 vheads=4 vff=512 size=224 patch=14
  image_tokens=$(((size / patch) * (size / patch)))
  local gguf_version
  gguf_version=$(sed 's/.*python3-gguf=\([^ ]*\).*/\1/' "$sysroot/.complete")
  local key
  key=$({
    echo "mmproj dim=$dim vision=$vdim/$vlayers/$vheads/$vff image=$size/$patch gguf=$gguf_version"
    sha256sum <"$root/scripts/llama-model.py"
  } | sha256sum | cut -c1-12)
  mmproj="$cache/models/mmproj-llava-mlp-d$dim-v$vdim-i$size-p$patch-$key.gguf"
  if [ -f "$mmproj" ]; then
    say "mmproj: cached $mmproj"
    return
  fi
  local t0
  t0=$(now)
  mkdir -p "$cache/models"
  local py
  py=$(python_with_numpy)
  PYTHONPATH="$sysroot/usr/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH}" "$py" \
    "$root/scripts/llama-model.py" --mmproj --out "$mmproj" --dim "$dim" --vision-dim "$vdim" \
    --vision-layers "$vlayers" --vision-heads "$vheads" --vision-ff "$vff" --image-size "$size" \
    --patch-size "$patch" >&2 ||
    fail "mmproj: write GGUF" "scripts/llama-model.py --mmproj exited $? (see above)"
  say "mmproj: written in $(since "$t0") s"
}

# Whether http://127.0.0.1:PORT/health answers 200 within 2 s (bash only: no curl needed).
healthy() {
  timeout 2 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" &&
    printf "GET /health HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n" >&3 &&
    head -1 <&3 | grep -q " 200 "' _ "$1" 2>/dev/null
}

# The server a command acts on: "main" (the random model), "tools" (the tool-call model) or
# "vision" (the random model with a projector). Sets $st (its state file), $pre (its variables'
# prefix), $what (its name in messages).
flavor() {
  if [ "$1" = tools ]; then
    st=$tools_state pre=LLAMA_TOOLS what="tool-call server"
  elif [ "$1" = vision ]; then
    st=$vision_state pre=LLAMA_VISION what="image server"
  else
    st=$state pre=LLAMA what=server
  fi
}

read_state() {
  [ -f "$st" ] || return 1
  # shellcheck disable=SC1090
  . "$st"
}

var() { # var NAME: the current flavor's ${pre}_NAME from its state file
  local name="${pre}_$1"
  echo "${!name:-}"
}

# Whether the pid still runs our llama-server (never kill a recycled pid).
ours() {
  local pid=$1
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q 'llama-server'
}

up() {
  read_state && ours "$(var PID)" && healthy "$(var PORT)"
}

free_port() {
  local port
  for _ in $(seq 1 50); do
    port=$((20000 + RANDOM % 30000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return
    fi
  done
  fail "start: free port" "no free port found in 50 tries"
}

start() { # start main|tools|vision
  flavor "$1"
  if up; then
    say "start: $what already up, pid $(var PID)"
    cat "$st"
    return
  fi
  local t_all
  t_all=$(now)
  local port alias ctx slots threads extra more=
  if [ "$1" = vision ]; then
    model
    mmproj
    port=${LLAMA_VISION_PORT:-$(free_port)}
    alias=${LLAMA_VISION_ALIAS:-qwen3-vocab-random-vision}
    ctx=${LLAMA_VISION_CTX:-8192} slots=1 threads=${LLAMA_VISION_THREADS:-2}
    extra="--mmproj $mmproj"
    more="${pre}_MMPROJ=$mmproj"
    # the tokens an image costs, when this script wrote the projector (not for LLAMA_MMPROJ's)
    [ -z "$image_tokens" ] || more="$more
${pre}_IMAGE_TOKENS=$image_tokens"
  elif [ "$1" = tools ]; then
    model tools
    port=${LLAMA_TOOLS_PORT:-$(free_port)}
    alias=${LLAMA_TOOLS_ALIAS:-qwen3-tool-call}
    # --cache-ram 0: no host-memory prompt cache, so what a turn finds cached is the one slot's
    # last prompt and reply, as a single user's session plan has it (not an earlier run's turn).
    ctx=${LLAMA_TOOLS_CTX:-4096} slots=1 threads=1 extra="--cache-ram 0"
  else
    model
    port=${LLAMA_PORT:-$(free_port)}
    alias=${LLAMA_ALIAS:-qwen3-vocab-random}
    ctx=${LLAMA_CTX:-8192} slots=${LLAMA_SLOTS:-1} threads=${LLAMA_THREADS:-2} extra=${LLAMA_EXTRA_ARGS:-}
  fi
  local lib
  lib=$(libdir)
  local backend
  backend=$(cpu_backend)
  local log="$cache/server-$port.log"
  local t0
  t0=$(now)
  # shellcheck disable=SC2086
  GGML_BACKEND_PATH="$backend" OMP_WAIT_POLICY=PASSIVE setsid \
    "$lib/ld-linux-x86-64.so.2" --library-path "$lib:$lib/llama" "$sysroot/usr/bin/llama-server" \
    --host 127.0.0.1 --port "$port" -m "$model" -c "$ctx" -np "$slots" \
    -t "$threads" --alias "$alias" --metrics --no-webui --reasoning-format none \
    $extra </dev/null >"$log" 2>&1 &
  local pid=$!
  local deadline=$((SECONDS + 60))
  until healthy "$port"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      fail "start: llama-server" "exited before /health answered; last lines of $log:
$(tail -5 "$log")"
    fi
    if [ $SECONDS -ge $deadline ]; then
      kill "$pid" 2>/dev/null || true
      fail "start: wait for /health" "no 200 from http://127.0.0.1:$port/health within 60 s; see $log"
    fi
    sleep 0.2
  done
  mkdir -p "$(dirname "$st")"
  cat >"$st" <<EOF
${pre}_BASE_URL=http://127.0.0.1:$port/v1
${pre}_PORT=$port
${pre}_PID=$pid
${pre}_MODEL=$alias
${pre}_LOG=$log
EOF
  [ -z "$more" ] || echo "$more" >>"$st"
  say "start: $what pid $pid healthy on port $port after $(since "$t0") s (whole start $(since "$t_all") s)"
  cat "$st"
}

stop() { # stop main|tools|vision
  flavor "$1"
  if ! read_state; then
    say "stop: no state file $st; nothing to stop"
    return
  fi
  local pid
  pid=$(var PID)
  if ours "$pid"; then
    kill "$pid"
    for _ in $(seq 1 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
    if kill -0 "$pid" 2>/dev/null; then
      kill -9 "$pid" || fail stop "cannot kill pid $pid"
    fi
    say "stop: stopped $what pid $pid"
  else
    say "stop: pid ${pid:-?} is not running llama-server; nothing to stop"
  fi
  rm -f "$st"
}

status() { # status main|tools|vision
  flavor "$1"
  if up; then
    say "status: $what up, pid $(var PID), $(var BASE_URL)"
  else
    say "status: $what not running"
    exit 1
  fi
}

show_env() { # show_env main|tools|vision
  flavor "$1"
  local suffix=
  [ "$1" = main ] || suffix=-$1
  up && cat "$st" || fail env "the $what is not running (scripts/llama-server.sh start$suffix)"
}

case "${1:-start}" in
  install) install "${2:-}" ;;
  model) model && echo "$model" ;;
  model-tools) model tools && echo "$model" ;;
  start | stop | status) "${1:-start}" main ;;
  env) show_env main ;;
  start-tools | stop-tools | status-tools) "${1%-tools}" tools ;;
  env-tools) show_env tools ;;
  mmproj) mmproj && echo "$mmproj" ;;
  start-vision | stop-vision | status-vision) "${1%-vision}" vision ;;
  env-vision) show_env vision ;;
  *)
    echo "usage: scripts/llama-server.sh [install [--refresh]|model|start|stop|status|env]" >&2
    echo "       scripts/llama-server.sh [model-tools|start-tools|stop-tools|status-tools|env-tools]" >&2
    echo "       scripts/llama-server.sh [mmproj|start-vision|stop-vision|status-vision|env-vision]" >&2
    exit 2
    ;;
esac
