#!/usr/bin/env bash
# The mapper and metrics on the hosts of issue 55 beside Scotch: fat trees,
# dragonflies, hwloc nodes, allocations, networks of nodes, Slurm
# topologies. Scotch maps onto the host's Scotch form (`export --format
# tgt`: a fat tree's, an hwloc node's or a network of nodes' tleaf whose
# level costs, added down from where two nodes part, are the host's
# distances (2 a level on a fat tree), an allocation's `sub`; a
# dragonfly's or Slurm topology's `deco`, which Debian's Scotch 7.0.3
# misreads — see docs/src/specs.md), both mappings are measured by
# `topoembed metrics` on the host itself (hop-bytes; congestion over the
# network's links where the host has links). Median wall time of RUNS runs.
#
#   bench/networks.sh                # shared graphs onto the hosts below
#   RUNS=1 HOSTS="fattree:2;16,16;1,16;1,1" bench/networks.sh
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$here/../shared/graphs}
source "$here/bench/common.sh"
RUNS=${RUNS:-3}
GRAPHS=${GRAPHS:-"$shared/delaunay_n15.graph $shared/rgg_n_2_15_s0.graph"}
hwloc=$here/crates/topoembed/tests/data/hwloc/two-pack-numa-smt.xml
slurm=$here/crates/topoembed/tests/data/slurm
HOSTS=${HOSTS:-"fattree:2;16,16;1,16;1,1 fattree:3;8,8,4;1,4,4;1,1,1 dragonfly:4,1;4,1;4,1;4 dragonfly:8,1;2,1;8,1;2 hwloc:$hwloc torus:8x8x8@0-63,128-191 fattree:3;8,8,8;1,8,8;1,1,1@0-127,384-511 fattree:2;8,8;1,8;1,1*tleaf:2x4:10,1 slurm:$slurm/block.conf"}
bin=$here/target/release/topoembed
(cd "$here" && cargo build --release -q -p topoembed-cli)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
metric() { "$bin" metrics "graph:$1" "$2" --mapping "$3" --format json | python3 -c "import json,sys; m=json.load(sys.stdin); c=m.get('congestion'); print(m['hop_bytes'], c['max'] if c else '-')"; }
machine
echo "Scotch $(gmtst -V 2>&1 | sed -n 's/.*version \([0-9.]*\).*/\1/p'); RUNS=$RUNS"
echo "(scotch_gmap timed on $scotch_threads thread(s): SCOTCH_PTHREAD_NUMBER=$scotch_threads; bench/common.sh says why)"
echo
echo "| graph | host | scotch_gmap -Cd -b$scotch_balance hop-bytes / congestion | topoembed map hop-bytes / congestion | map / Scotch | times (gmap, map) s |"
echo "|---|---|---|---|---|---|"
for graph in $GRAPHS; do
  name=$(basename "$graph" .graph)
  grf=$work/$name.grf
  gcv -ic "$graph" "$grf"
  # gcv's graph is 1-based; topoembed reads the .grf with its own labels.
  for host in $HOSTS; do
    "$bin" export "$host" --format tgt >"$work/h.tgt"
    gmap_times=() map_times=()
    for _ in $(seq "$RUNS"); do
      gmap_times+=("$(seconds gmap "$scotch_threads" "$grf" "$work/h.tgt" "$work/s.map")")
      map_times+=("$(seconds sh -c "\"$bin\" map \"graph:$grf\" \"$host\" --format scotch-map >\"$work/t.map\"")")
    done
    # (The timed runs left both mappings: each tool gives one for its seed.)
    read -r s_hb s_c < <(metric "$grf" "$host" "$work/s.map")
    read -r t_hb t_c < <(metric "$grf" "$host" "$work/t.map")
    ratio=$(echo "scale=3; $t_hb / $s_hb" | bc)
    shown=${host//$here\//}
    echo "| $name | \`$shown\` | $s_hb / $s_c | $t_hb / $t_c | ${ratio}x | $(printf '%s\n' "${gmap_times[@]}" | median_of_lines | xargs printf '%.2f'), $(printf '%s\n' "${map_times[@]}" | median_of_lines | xargs printf '%.2f') |"
  done
done
