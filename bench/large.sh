#!/usr/bin/env bash
# Times the CLI end to end on the issues' large cases: median wall time of
# RUNS runs (default 5) and peak memory. `metrics` routes every guest edge
# (congestion, node loads) unless --no-traffic is given. Usage: bench/large.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
cargo build --release -q -p topoembed-cli
bin=target/release/topoembed
source bench/common.sh
machine

# median_time RUNS ARGS...: prints "median_s max_rss_MiB"
median_time() {
  local n=$1; shift
  local times=() rss=0
  for _ in $(seq "$n"); do
    local line
    line=$( { /usr/bin/time -f '%e %M' "$bin" "$@" --format csv >/dev/null; } 2>&1 | tail -1)
    times+=("${line% *}")
    local r=${line#* }; (( r > rss )) && rss=$r
  done
  local median
  median=$(printf '%s\n' "${times[@]}" | median_of_lines)
  echo "$median $((rss / 1024))"
}

report() {
  local n=$1; shift
  read -r t m < <(median_time "$n" "$@")
  printf '%-62s median %7.2f s of %d  peak %5d MiB\n' "$*" "$t" "$n" "$m"
}

# xor and standard are axis products: routed line by line (traffic/product.rs);
# gray is routed edge by edge (traffic/lines.rs).
report "$runs" metrics cube:26 torus:8192x8192 --method xor
report "$runs" metrics cube:26 torus:8192x8192 --method xor --no-traffic
report "$runs" metrics cube:26 torus:8192x8192 --method gray
report "$runs" metrics cube:24 torus:4096x4096 --method xor
report "$runs" metrics cube:26 ring:2^26 --method xor
report 1 metrics cube:26 ring:2^26 --method byweight
report 1 metrics cube:30 torus:32768x32768 --method xor

# Ho & Johnsson: a 10^9-element mesh in a 10-cube. split/recursive/auto
# measure axis by axis (metrics/separable.rs); reshape is streamed edge by edge.
report "$runs" metrics mesh:1000x1000x1000 cube:10 --method split
report "$runs" metrics mesh:1000x1000x1000 cube:10 --method auto --objective dilation
report "$runs" metrics mesh:31623x31623 cube:10 --method recursive
report 1 metrics mesh:1000x1000x1000 cube:10 --method reshape --no-traffic
