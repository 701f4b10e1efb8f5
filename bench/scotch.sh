#!/usr/bin/env bash
# topoembed against Scotch's gmtst-int64 on the same .grf/.tgt/.map files:
# cube:16 -> torus:256x256 and cube:18 -> torus:512x512, identity mapping
# (guest node i on host node i). Both read the three files; topoembed also
# routes every edge (congestion, link and node loads). Prints each tool's
# median wall time over RUNS runs (default 3; gmtst on cube:18 takes minutes,
# so GMTST_RUNS defaults to 1) and the ratio. Needs Debian's scotch package.
# Usage: bench/scotch.sh [RUNS] [GMTST_RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
gmtst_runs=${2:-1}
cargo build --release -q -p topoembed-cli
bin=$PWD/target/release/topoembed
# The 32-bit gmtst overflows its dilation sums on these sizes.
lib=$(dirname "$(find /usr/lib -path '*scotch-int64/libscotch.so*' | head -1)")
gmtst_int64() { LD_LIBRARY_PATH="$lib" gmtst-int64 "$@"; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source bench/common.sh
machine
echo "gmtst: $(gmtst-int64 -V 2>&1 | head -1)"

# median RUNS CMD...: median wall seconds of RUNS runs of CMD (output discarded).
median() {
  local n=$1; shift
  local times=()
  for _ in $(seq "$n"); do
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc)")
  done
  printf '%s\n' "${times[@]}" | median_of_lines
}

for case in "16 256x256" "18 512x512"; do
  read -r d sides <<<"$case"
  grf=$work/cube$d.grf tgt=$work/torus$d.tgt map=$work/id$d.map
  "$bin" export "cube:$d" --format grf >"$grf"
  "$bin" export "torus:$sides" --format tgt >"$tgt"
  "$bin" embed "cube:$d" "torus:$sides" --method standard --format scotch-map >"$map"
  ours=$("$bin" metrics "graph:$grf" "$tgt" --mapping "$map" --format json |
    python3 -c 'import json,sys; m=json.load(sys.stdin); print(m["dilation"]["average"], m["congestion"]["max"])')
  theirs=$(gmtst_int64 "$grf" "$tgt" "$map" | awk -F'[=\t]' '/CommDilat/{print $3}')
  t_ours=$(median "$runs" "$bin" metrics "graph:$grf" "$tgt" --mapping "$map" --format json)
  t_theirs=$(median "$gmtst_runs" gmtst_int64 "$grf" "$tgt" "$map")
  printf 'cube:%s -> torus:%s  average dilation: topoembed %s (congestion %s), gmtst %s\n' \
    "$d" "$sides" "${ours% *}" "${ours#* }" "$theirs"
  printf '  topoembed %8.2f s (median of %d)   gmtst-int64 %8.2f s (median of %d)   ratio %.0fx\n' \
    "$t_ours" "$runs" "$t_theirs" "$gmtst_runs" "$(echo "$t_theirs / $t_ours" | bc -l)"
done
