#!/usr/bin/env bash
# The general mapper beside the peers that ship on PyPI, on the same files:
# 1. hierarchies: KaHIP's `global_multisection` (PyPI `kahip` wheel, its
#    bin/) and SharedMap (PyPI `chszlablib`, bench/peers.py) with the
#    hierarchy and distances of each tleaf host, scotch_gmap -Cd, and
#    `topoembed map`;
# 2. any target graph: Mt-KaHyPar's map_onto_graph (PyPI `mtkahypar`,
#    bench/peers.py; the host exported as a METIS graph) beside
#    scotch_gmap -Cd and `topoembed map` on tori ($TORI, graphs $MT_GRAPHS);
# 3. one-to-one quotient graphs onto hosts of as many nodes (below).
# Every mapping is scored by Scotch's gmtst on the same target (KaHIP
# prints its objective doubled; gmtst does not). Median wall time of RUNS
# runs (MT_RUNS for Mt-KaHyPar, default 1: it takes about a minute a run).
#
#   bench/peers.sh                      # shared graphs + libmetis-doc's
#   PRESETS="eco strong" RUNS=1 bench/peers.sh
#   PARTS=hierarchies bench/peers.sh    # or PARTS=graphs, PARTS=quotients
#   SEEDS="1 2 3 4 5" PARTS=hierarchies bench/peers.sh   # every tool on these seeds
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
PARTS=${PARTS:-"hierarchies graphs quotients"}
kbin=$("$venv/bin/python" -c 'import kahip, os; print(os.path.join(os.path.dirname(os.path.dirname(kahip.__file__)), "bin"))' 2>/dev/null || true)
[ -x "$kbin/global_multisection" ] || kbin=$(dirname "$(find "$venv" -name global_multisection -type f | head -1)")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "${GRAPHS:-}" ]; then
  GRAPHS=$(stored_graphs "$shared")
fi
HOSTS=${HOSTS:-"tleaf:4x8x8:100,10,1 tleaf:4x6x8:100,10,1"}
PRESETS=${PRESETS:-"eco"}
SEEDS=${SEEDS:-"1 2 3"}
RUNS=${RUNS:-3}
bin=$here/target/release/topoembed
(cd "$here" && cargo build --release -q -p topoembed-cli)
median() { sort -g | awk '{a[NR]=$1} END {printf "%.2f\n", a[int((NR+1)/2)]}'; }
# "median best" of the hop-bytes on stdin, one per line.
med_best() { sort -g | awk '{a[NR]=$1} END {printf "%d %d\n", a[int((NR+1)/2)], a[1]}'; }
run_map() { "$bin" map "graph:$1" "$2" --format scotch-map "${@:3}" >"$work/t.map"; }
version() { "$venv/bin/pip" show "$1" | sed -n 's/^Version: //p'; }
echo "machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | sed -n 1p); KaHIP $(version kahip), chszlablib $(version chszlablib), Mt-KaHyPar $(version mtkahypar)"
echo "(scotch_gmap timed on $scotch_threads thread(s): SCOTCH_PTHREAD_NUMBER=$scotch_threads; bench/common.sh says why)"
echo
if [[ " $PARTS " == *" hierarchies "* ]]; then
# KaHIP, SharedMap and topoembed each run once per seed of $SEEDS (the same
# seeds for all three: each moves with its seed, and KaHIP's
# global_multisection moves between runs even with the same seed); a
# column gives the median over the seeds, then the best in brackets, and
# the ratio is medians against the best peer's median. Scotch (-Cd) is
# deterministic: one mapping, its time the median of RUNS.
echo "seeds: $SEEDS (median [best] per tool)"
echo
echo "| graph | host | scotch_gmap -Cd -b$scotch_balance | $(for p in $PRESETS; do printf 'KaHIP %s | ' "$p"; done)SharedMap eco | topoembed map | map / best peer (medians) | map / best peer (bests) | times (gmap, $(for p in $PRESETS; do printf 'KaHIP %s, ' "$p"; done)SharedMap, map) s, medians |"
echo "|---|---|---|$(for _ in $PRESETS; do printf -- '---|'; done)---|---|---|---|---|"
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
    ts=(); for _ in $(seq "$RUNS"); do ts+=("$(seconds gmap "$scotch_threads" "$grf" "$tgt" "$work/s.map")"); done
    row="$row $(expan "$grf" "$tgt" "$work/s.map") |"
    times="$(printf '%s\n' "${ts[@]}" | median)"
    best_med=""; best_min=""
    for preset in $PRESETS; do
      tk=(); hk=()
      for seed in $SEEDS; do
        tk+=("$(seconds "$kbin/global_multisection" "$graph" --preconfiguration="$preset" \
          --hierarchy_parameter_string="$hier" --distance_parameter_string="$dists" \
          --seed="$seed" --output_filename="$work/k.part")")
        # Block b of vertex i (KaHIP numbers leaves as tleaf does); gcv's
        # graph counts labels from 1.
        part_to_map "$work/k.part" "$work/k.map"
        hk+=("$(expan "$grf" "$tgt" "$work/k.map")")
      done
      read -r km kb < <(printf '%s\n' "${hk[@]}" | med_best)
      row="$row $km [$kb] |"
      times="$times, $(printf '%s\n' "${tk[@]}" | median)"
      if [ -z "$best_med" ] || [ "$km" -lt "$best_med" ]; then best_med=$km; fi
      if [ -z "$best_min" ] || [ "$kb" -lt "$best_min" ]; then best_min=$kb; fi
    done
    tsm=(); hsm=()
    for seed in $SEEDS; do
      tsm+=("$(peer sharedmap "$graph" "${sizes//x/:}" "$costs" "$work/sm.part" --seed "$seed")")
      part_to_map "$work/sm.part" "$work/sm.map"
      hsm+=("$(expan "$grf" "$tgt" "$work/sm.map")")
    done
    read -r sm sb < <(printf '%s\n' "${hsm[@]}" | med_best)
    row="$row $sm [$sb] |"
    times="$times, $(printf '%s\n' "${tsm[@]}" | median)"
    if [ "$sm" -lt "$best_med" ]; then best_med=$sm; fi
    if [ "$sb" -lt "$best_min" ]; then best_min=$sb; fi
    tm=(); hm=()
    for seed in $SEEDS; do
      tm+=("$(seconds run_map "$grf" "$host" --seed "$seed")")
      hm+=("$(expan "$grf" "$tgt" "$work/t.map")")
    done
    read -r mm mb < <(printf '%s\n' "${hm[@]}" | med_best)
    times="$times, $(printf '%s\n' "${tm[@]}" | median)"
    printf '%s %s [%s] | %s | %s | %s |\n' "$row" "$mm" "$mb" "$(echo "scale=3; $mm / $best_med" | bc)" \
      "$(echo "scale=3; $mb / $best_min" | bc)" "$times"
  done
done
fi

if [[ " $PARTS " == *" graphs "* ]]; then
TORI=${TORI:-"torus:16x16"}
MT_GRAPHS=${MT_GRAPHS:-"$shared/delaunay_n15.graph /usr/share/doc/libmetis-dev/examples/graphs/4elt.graph"}
MT_RUNS=${MT_RUNS:-1}
echo
echo "| graph | host | scotch_gmap -Cd -b$scotch_balance | Mt-KaHyPar default | topoembed map | map / Mt-KaHyPar | times (gmap, Mt-KaHyPar, map) s |"
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
    ts=(); for _ in $(seq "$RUNS"); do ts+=("$(seconds gmap "$scotch_threads" "$grf" "$tgt" "$work/s.map")"); done
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

# 3. one-to-one quotient graphs (delaunay_n15 cut into K parts by
#    `scotch_gpart -Cd K`, the parts' graph weighted by the edges cut, as in
#    bench/mapper.sh) onto hosts of K nodes: Mt-KaHyPar and topoembed on the
#    seeds of $SEEDS each (median [best]), Scotch once. Mt-KaHyPar takes
#    about 24 s a run onto torus:16x16 and was not done in 12 minutes onto
#    torus:32x32, so the default stops at 256 parts.
if [[ " $PARTS " == *" quotients "* ]]; then
QUOTIENTS=${QUOTIENTS:-"64:cube:6 256:torus:16x16"}
echo
echo "| quotient | host | scotch_gmap -Cd -b$scotch_balance | Mt-KaHyPar default | topoembed map | map / Mt-KaHyPar (medians) | map / Mt-KaHyPar (bests) | times (gmap, Mt-KaHyPar, map) s, medians |"
echo "|---|---|---|---|---|---|---|---|"
gcv -ic "$shared/delaunay_n15.graph" "$work/delaunay.grf"
for q in $QUOTIENTS; do
  k=${q%%:*}; host=${q#*:}
  quotient_graph "$shared/delaunay_n15.graph" "$work/delaunay.grf" "$k" "$work/q$k"
  tgt=$work/host.tgt
  "$bin" export "$host" --format tgt >"$tgt"
  "$bin" export "$host" --format grf >"$work/host.grf"
  gcv -is -oc "$work/host.grf" "$work/host.graph"
  ts=(); for _ in $(seq "$RUNS"); do ts+=("$(seconds gmap "$scotch_threads" "$work/q$k.grf" "$tgt" "$work/s.map")"); done
  hs=$(expan "$work/q$k.grf" "$tgt" "$work/s.map")
  tk=(); hk=(); tm=(); hm=()
  for seed in $SEEDS; do
    tk+=("$(peer mtkahypar "$work/q$k.graph" "$work/host.graph" "$work/mt.part" --seed "$seed")")
    part_to_map "$work/mt.part" "$work/mt.map"
    hk+=("$(expan "$work/q$k.grf" "$tgt" "$work/mt.map")")
    tm+=("$(seconds run_map "$work/q$k.grf" "$host" --seed "$seed")")
    hm+=("$(expan "$work/q$k.grf" "$tgt" "$work/t.map")")
  done
  read -r km kb < <(printf '%s\n' "${hk[@]}" | med_best)
  read -r mm mb < <(printf '%s\n' "${hm[@]}" | med_best)
  printf '| delaunay_n15/%s | %s | %s | %s [%s] | %s [%s] | %s | %s | %s, %s, %s |\n' "$k" "$host" "$hs" "$km" "$kb" "$mm" "$mb" \
    "$(echo "scale=3; $mm / $km" | bc)" "$(echo "scale=3; $mb / $kb" | bc)" "$(printf '%s\n' "${ts[@]}" | median)" \
    "$(printf '%s\n' "${tk[@]}" | median)" "$(printf '%s\n' "${tm[@]}" | median)"
done
fi
