#!/usr/bin/env bash
# Issue 18: how long the search by vectors takes to settle a torus from
# nothing (`--sat --decide-by search`, no record), run after run, with the
# median and the machine.
#   bash bench/optimal_runs.sh [RUNS] [GUEST HOST]   # default: 3 runs of cube:10 torus:32x32
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
runs="${1:-3}" guest="${2:-cube:10}" host="${3:-torus:32x32}"
cargo build --release -q -p topoembed-cli
bin="$PWD/target/release/topoembed"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
machine
for i in $(seq 1 "$runs"); do
  # A fresh checkpoint file each run: a record left over would skip vectors.
  "$bin" optimal "$guest" "$host" --sat --decide-by search --force \
    --checkpoint "$work/run$i.json" > "$work/out$i.txt"
  line="$(grep -E 'vectors decided' "$work/out$i.txt")"
  grep -q '^  proved:' "$work/out$i.txt" || { cat "$work/out$i.txt"; echo "run $i did not prove its answer" >&2; exit 1; }
  seconds="$(sed -n 's/.*, \([0-9.]*\) s$/\1/p' <<< "$line")"
  echo "run $i: $seconds s — $(grep -E '^  optimum' "$work/out$i.txt" | xargs)"
  echo "$seconds" >> "$work/seconds"
done
printf '%s %s: median %s s of %d runs\n' "$guest" "$host" "$(median_of_lines < "$work/seconds")" "$runs"
