#!/usr/bin/env bash
# The general mapper beside the peers that ship on PyPI, on the same files:
# 1. hierarchies: KaHIP's `global_multisection` (PyPI `kahip` wheel, its
#    bin/) and SharedMap (PyPI `chszlablib`, bench/peers.py) with the
#    hierarchy and distances of each tleaf host, scotch_gmap -Cd, and
#    `topoembed map`;
# 2. any target graph: Mt-KaHyPar's map_onto_graph (PyPI `mtkahypar`,
#    bench/peers.py; the host exported as a METIS graph) beside
#    scotch_gmap -Cd and `topoembed map` on tori ($TORI, graphs $MT_GRAPHS).
# Every mapping is scored by Scotch's gmtst on the same target (KaHIP
# prints its objective doubled; gmtst does not). Median wall time of RUNS
# runs (MT_RUNS for Mt-KaHyPar, default 1: it takes about a minute a run).
#
#   bench/peers.sh                      # shared graphs + libmetis-doc's
#   PRESETS="eco strong" RUNS=1 bench/peers.sh
#   PARTS=hierarchies bench/peers.sh    # or PARTS=graphs
#
# The venv with the peers is made once in $PEERS_VENV (default /tmp/topoembed-peers).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$here/../shared/graphs}
source "$here/bench/common.sh"
venv=${PEERS_VENV:-/tmp/topoembed-peers}
if ! "$venv/bin/python" -c 'import kahip, mtkahypar, chszlablib' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q kahip mtkahypar chszlablib numpy
fi
peer() { "$venv/bin/python" "$here/bench/peers.py" "$@"; }
# A one-block-per-line partition as a Scotch map of gcv's 1-based graph.
part_to_map() { { wc -l <"$1"; awk '{print NR "\t" $1}' "$1"; } >"$2"; }
PARTS=${PARTS:-"hierarchies graphs"}
kbin=$("$venv/bin/python" -c 'import kahip, os; print(os.path.join(os.path.dirname(os.path.dirname(kahip.__file__)), "bin"))' 2>/dev/null || true)
[ -x "$kbin/global_multisection" ] || kbin=$(dirname "$(find "$venv" -name global_multisection -type f | head -1)")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "${GRAPHS:-}" ]; then
  GRAPHS=$(stored_graphs "$shared")
fi
HOSTS=${HOSTS:-"tleaf:4x8x8:100,10,1 tleaf:4x6x8:100,10,1"}
PRESETS=${PRESETS:-"eco"}
RUNS=${RUNS:-3}
bin=$here/target/release/topoembed
(cd "$here" && cargo build --release -q -p topoembed-cli)
median() { sort -g | awk '{a[NR]=$1} END {printf "%.2f\n", a[int((NR+1)/2)]}'; }
run_map() { "$bin" map "graph:$1" "$2" --format scotch-map >"$work/t.map"; }
seconds() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc; }
version() { "$venv/bin/pip" show "$1" | sed -n 's/^Version: //p'; }
echo "machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | sed -n 1p); KaHIP $(version kahip), chszlablib $(version chszlablib), Mt-KaHyPar $(version mtkahypar)"
echo
if [[ " $PARTS " == *" hierarchies "* ]]; then
echo "| graph | host | scotch_gmap -Cd | $(for p in $PRESETS; do printf 'KaHIP %s | ' "$p"; done)SharedMap eco | topoembed map | map / best peer | times (gmap, $(for p in $PRESETS; do printf 'KaHIP %s, ' "$p"; done)SharedMap, map) s |"
echo "|---|---|---|$(for _ in $PRESETS; do printf -- '---|'; done)---|---|---|---|"
for graph in $GRAPHS; do
  name=$(basename "$graph" .graph)
  grf=$work/$name.grf
  gcv -ic "$graph" "$grf"
  for host in $HOSTS; do
    # tleaf:AxBxC:c1,c2,c3 -> KaHIP's bottom-up sizes C:B:A and distances
    # between leaves parting at each level: c3, c2+c3, c1+c2+c3.
    IFS=: read -r _ sizes costs <<<"$host"
    IFS=x read -r -a s <<<"$sizes"
    IFS=, read -r -a c <<<"$costs"
    hier=""; dists=""; sum=0
    for ((i = ${#s[@]} - 1; i >= 0; i--)); do
      sum=$((sum + c[i]))
      hier="$hier${hier:+:}${s[i]}"; dists="$dists${dists:+:}$sum"
    done
    tgt=$work/host.tgt
    "$bin" export "$host" --format tgt >"$tgt"
    row="| $name | $host |"
    times=""
    ts=(); for _ in $(seq "$RUNS"); do ts+=("$(seconds scotch_gmap -Cd "$grf" "$tgt" "$work/s.map")"); done
    row="$row $(expan "$grf" "$tgt" "$work/s.map") |"
    times="$(printf '%s\n' "${ts[@]}" | median)"
    best=""
    for preset in $PRESETS; do
      tk=()
      for _ in $(seq "$RUNS"); do
        tk+=("$(seconds "$kbin/global_multisection" "$graph" --preconfiguration="$preset" \
          --hierarchy_parameter_string="$hier" --distance_parameter_string="$dists" \
          --seed=1 --output_filename="$work/k.part")")
      done
      # Block b of vertex i (KaHIP numbers leaves as tleaf does); gcv's
      # graph counts labels from 1.
      part_to_map "$work/k.part" "$work/k.map"
      hk=$(expan "$grf" "$tgt" "$work/k.map")
      row="$row $hk |"
      times="$times, $(printf '%s\n' "${tk[@]}" | median)"
      if [ -z "$best" ] || [ "$hk" -lt "$best" ]; then best=$hk; fi
    done
    tsm=(); for _ in $(seq "$RUNS"); do tsm+=("$(peer sharedmap "$graph" "${sizes//x/:}" "$costs" "$work/sm.part")"); done
    part_to_map "$work/sm.part" "$work/sm.map"
    hsm=$(expan "$grf" "$tgt" "$work/sm.map")
    row="$row $hsm |"
    times="$times, $(printf '%s\n' "${tsm[@]}" | median)"
    if [ "$hsm" -lt "$best" ]; then best=$hsm; fi
    tm=(); for _ in $(seq "$RUNS"); do tm+=("$(seconds run_map "$grf" "$host")"); done
    ht=$(expan "$grf" "$tgt" "$work/t.map")
    times="$times, $(printf '%s\n' "${tm[@]}" | median)"
    printf '%s %s | %s | %s |\n' "$row" "$ht" "$(echo "scale=3; $ht / $best" | bc)" "$times"
  done
done
fi

if [[ " $PARTS " == *" graphs "* ]]; then
TORI=${TORI:-"torus:16x16"}
MT_GRAPHS=${MT_GRAPHS:-"$shared/delaunay_n15.graph /usr/share/doc/libmetis-dev/examples/graphs/4elt.graph"}
MT_RUNS=${MT_RUNS:-1}
echo
echo "| graph | host | scotch_gmap -Cd | Mt-KaHyPar default | topoembed map | map / Mt-KaHyPar | times (gmap, Mt-KaHyPar, map) s |"
echo "|---|---|---|---|---|---|---|"
for graph in $MT_GRAPHS; do
  name=$(basename "$graph" .graph)
  grf=$work/$name.grf
  gcv -ic "$graph" "$grf"
  for host in $TORI; do
    tgt=$work/host.tgt
    "$bin" export "$host" --format tgt >"$tgt"
    "$bin" export "$host" --format grf >"$work/host.grf"
    gcv -is -oc "$work/host.grf" "$work/host.graph"
    ts=(); for _ in $(seq "$RUNS"); do ts+=("$(seconds scotch_gmap -Cd "$grf" "$tgt" "$work/s.map")"); done
    hs=$(expan "$grf" "$tgt" "$work/s.map")
    tk=(); for _ in $(seq "$MT_RUNS"); do tk+=("$(peer mtkahypar "$graph" "$work/host.graph" "$work/mt.part")"); done
    part_to_map "$work/mt.part" "$work/mt.map"
    hk=$(expan "$grf" "$tgt" "$work/mt.map")
    tm=(); for _ in $(seq "$RUNS"); do tm+=("$(seconds run_map "$grf" "$host")"); done
    ht=$(expan "$grf" "$tgt" "$work/t.map")
    printf '| %s | %s | %s | %s | %s | %s | %s, %s, %s |\n' "$name" "$host" "$hs" "$hk" "$ht" \
      "$(echo "scale=3; $ht / $hk" | bc)" "$(printf '%s\n' "${ts[@]}" | median)" \
      "$(printf '%s\n' "${tk[@]}" | median)" "$(printf '%s\n' "${tm[@]}" | median)"
  done
done
fi
