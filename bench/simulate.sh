#!/usr/bin/env bash
# Times `topoembed simulate` end to end: median wall time of RUNS runs
# (default 3) and peak memory. Every line with contention runs two
# simulations (with contention, and the contention-free makespan beside it).
# Cost: O(messages + link hops x log(messages in flight)). The cube:16 lines
# are the issue's target (65 536 processes in under a minute).
# Usage: bench/simulate.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
cargo build --release -q -p topoembed-cli
bin=target/release/topoembed
source bench/common.sh
machine

report() {
  local n=$1; shift
  local wall=() rss=0 out events=""
  for _ in $(seq "$n"); do
    out=$(mktemp)
    line=$( { /usr/bin/time -f '%e %M' "$bin" "$@" --format json >"$out"; } 2>&1 | tail -1)
    wall+=("${line% *}")
    events=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["events"], r["hops"], r["makespan"])' "$out")
    local r=${line#* }; (( r > rss )) && rss=$r
    rm -f "$out"
  done
  read -r ev hops makespan <<<"$events"
  printf '%-66s median %6.2f s of %d  peak %5d MiB  events %9d  hops %10d  makespan %s\n' "$*" \
    "$(printf '%s\n' "${wall[@]}" | median_of_lines)" "$n" "$((rss / 1024))" "$ev" "$hops" "$makespan"
}

report "$runs" simulate fft cube:10 ring:1024 --method xor
report "$runs" simulate fft cube:10 line:1024 --method byweight
report "$runs" simulate allreduce cube:16 torus:256x256 --method xor --trace cc
report "$runs" simulate allreduce cube:16 torus:256x256 --method standard --trace cc
report "$runs" simulate fft cube:16 torus:256x256 --method xor
report "$runs" simulate fft cube:16 cube:16 --method identity
report "$runs" simulate allreduce cube:16 torus:16x16x16x16 --method xor --trace cc
