#!/usr/bin/env bash
# Puts Debian's Prometheus server into .cache/prometheus/ (unpacked, not installed: no service is
# started, nothing scrapes localhost:9090 or 9100), for the live-metrics test
# (LivePrometheusRunTest), which runs the binary with its own config, a temporary storage folder and
# a free port. Idempotent: does nothing when the binary is there and runs. Needs apt-get and
# dpkg-deb (Debian or Ubuntu); downloads the package with the machine's own apt sources (about
# 19 MB). Prints the binary's path on its last line.
# Usage: scripts/fetch-prometheus.sh [DEST]   (default .cache/prometheus)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-$root/.cache/prometheus}
bin=$dest/usr/bin/prometheus

if [ -x "$bin" ] && "$bin" --version >/dev/null 2>&1; then
  echo "$bin"
  exit 0
fi
for tool in apt-get dpkg-deb; do
  if ! command -v "$tool" >/dev/null; then
    echo "fetch-prometheus: step 'find $tool' failed: Debian's prometheus package needs it" >&2
    exit 1
  fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# apt-get download writes into the current folder; as root, apt's _apt user cannot, hence the
# warning it prints there, which is harmless.
if ! (cd "$work" && apt-get download -q prometheus >/dev/null 2>"$work/apt.err"); then
  echo "fetch-prometheus: step 'apt-get download prometheus' failed, trying after apt-get update" >&2
  if ! (apt-get update -qq && cd "$work" && apt-get download -q prometheus >/dev/null); then
    cat "$work/apt.err" >&2
    echo "fetch-prometheus: step 'apt-get download prometheus' failed (see above)" >&2
    exit 1
  fi
fi
mkdir -p "$dest"
if ! dpkg-deb -x "$work"/prometheus_*.deb "$dest"; then
  echo "fetch-prometheus: step 'dpkg-deb -x' failed" >&2
  exit 1
fi
if ! "$bin" --version >/dev/null 2>&1; then
  echo "fetch-prometheus: step 'run $bin --version' failed" >&2
  exit 1
fi
echo "$bin"
