#!/usr/bin/env bash
# Times in-process runs end to end (`topoembed run`): median wall time of RUNS
# runs (default 5), peak memory, and the run's own wall time (ranks only,
# without the sequential reference). Every rank is an async task on one
# thread per core, not an OS thread. Usage: bench/runtime.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
cargo build --release -q -p topoembed-cli
bin=target/release/topoembed
source bench/common.sh
machine

report() {
  local n=$1; shift
  local wall=() inner=() rss=0
  for _ in $(seq "$n"); do
    local out line
    out=$(mktemp)
    line=$( { /usr/bin/time -f '%e %M' "$bin" "$@" --format json >"$out"; } 2>&1 | tail -1)
    wall+=("${line% *}")
    inner+=("$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["wall_seconds"])' "$out")")
    local r=${line#* }; (( r > rss )) && rss=$r
    rm -f "$out"
  done
  printf '%-58s median %6.2f s (ranks %6.3f s) of %d  peak %5d MiB\n' "$*" \
    "$(printf '%s\n' "${wall[@]}" | median_of_lines)" "$(printf '%s\n' "${inner[@]}" | median_of_lines)" "$n" "$((rss / 1024))"
}

report "$runs" run fft cube:10 ring:1024 --method xor
report "$runs" run fft cube:10 ring:1024 --method standard
report "$runs" run bitonic cube:10 torus:32x32 --method xor --n 2^16
report "$runs" run allreduce cube:10 line:1024 --method byweight --n 64
report "$runs" run cannon torus:32x32 cube:10 --method gray --n 512
report "$runs" run fft cube:16 torus:256x256 --method xor
report "$runs" run allreduce cube:16 ring:2^16 --method xor
