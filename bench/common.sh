# Shared by the benchmark scripts (sourced): the machine line every result
# is quoted with, and the median of numbers read one per line.
machine() {
  echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
}

# CPU seconds the hypervisor has taken from this machine since it booted
# (the steal column of /proc/stat's cpu line; 0 where there is none): on a
# shared virtual machine much of the timings' noise (bench/threads.sh).
stolen() {
  awk -v hz="$(getconf CLK_TCK 2>/dev/null || echo 100)" \
    '$1 == "cpu" { printf "%.2f", ($9 == "" ? 0 : $9) / hz; exit }' /proc/stat 2>/dev/null || echo 0
}

median_of_lines() {
  sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'
}

# Hop-bytes of a Scotch mapping as Scotch's gmtst scores it (CommExpan total):
# expan GRAPH.grf TARGET.tgt MAPPING.map
expan() {
  gmtst "$1" "$2" "$3" | commexpan
}

# The CommExpan total of gmtst's report on standard input.
commexpan() {
  sed -n 's/.*CommExpan=[^(]*(\([0-9]*\)).*/\1/p'
}

# Hop-bytes of a Scotch mapping onto HOST (its TARGET.tgt export): gmtst's
# CommExpan where the mapping uses every target node; where it leaves some
# empty (a guest smaller than the host) gmtst's figure is not the
# hop-bytes (a two-node guest on nodes 0 and t of torus:8x8 scores 1 for
# every t), and `topoembed metrics --mapping` scores it instead.
# score BIN GRAPH.grf TARGET.tgt HOST MAPPING.map
score() {
  local view used
  view=$(gmtst "$2" "$3" "$5")
  used=$(sed -n 's/^M\tProcessors \([0-9]*\)\/\([0-9]*\).*/\1 \2/p' <<< "$view")
  if [ -n "$used" ] && [ "${used% *}" = "${used#* }" ]; then
    commexpan <<< "$view"
  else
    "$1" metrics "graph:$2" "$4" --mapping "$5" | awk '/hop-bytes/ { print $2; exit }'
  fi
}

# The stored benchmark graphs: ../shared/graphs' two and libmetis-doc's 4elt
# and copter2 where installed. stored_graphs SHARED_DIR
stored_graphs() {
  local metis=/usr/share/doc/libmetis-dev/examples/graphs list="$1/delaunay_n15.graph $1/rgg_n_2_15_s0.graph"
  for g in 4elt copter2; do [ -f "$metis/$g.graph" ] && list="$list $metis/$g.graph"; done
  echo "$list"
}

# The one-to-one quotient graph of a METIS graph cut into K parts by
# `scotch_gpart -Cd K` (bench/graphs.py: edge weights = edges cut), written
# as OUT.graph (METIS) and OUT.grf (Scotch). Both mapper.sh and peers.sh
# map these onto a host of K nodes.
# quotient_graph GRAPH.graph GRAPH.grf K OUT
quotient_graph() {
  local here
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  scotch_gpart -Cd "$3" "$2" "$4.parts.map" 2>/dev/null
  python3 "$here/bench/graphs.py" quotient "$1" "$4.parts.map" "$4.graph"
  gcv -ic "$4.graph" "$4.grf"
}

# Scotch 7 runs as many threads as cores unless SCOTCH_PTHREAD_NUMBER says
# otherwise, and on a small virtual machine they cost it more than they
# bring (2026-12-02, 2 cores: 58.8 s over bench/mapper.sh's set against
# 15.2 s on one thread, the same mappings, most of the difference system
# time). The peer tables time it on this many threads (default one: its
# quickest here); bench/mapper.sh times both.
scotch_threads=${SCOTCH_PTHREAD_NUMBER:-1}

# The load imbalance Scotch is allowed: the same as `topoembed map`'s
# default --imbalance (and KaHIP's, SharedMap's and Mt-KaHyPar's in
# bench/peers.py). Without -b, scotch_gmap holds every part to 1 % — its
# strategy string (`scotch_gmap -vs`) reads bal=0.01, though `-h` says 0.05
# — and lands higher there: over bench/mapper.sh's 38 pairs its hop-bytes
# at 1 % were 1.075x those at 3 % (geometric mean, 2026-12-03), and the
# benchmarks until that day compared topoembed at 3 % with Scotch at 1 %.
scotch_balance=${SCOTCH_BALANCE:-0.03}

# scotch_gmap -Cd -b$scotch_balance on THREADS threads ("": Scotch's
# default, every core):
# gmap THREADS GRAPH.grf TARGET.tgt OUT.map
gmap() {
  local threads=$1
  shift
  if [ -n "$threads" ]; then
    SCOTCH_PTHREAD_NUMBER=$threads scotch_gmap -Cd -b"$scotch_balance" "$@"
  else
    env -u SCOTCH_PTHREAD_NUMBER scotch_gmap -Cd -b"$scotch_balance" "$@"
  fi
}

# Wall seconds of a command (a function too), its output dropped.
seconds() {
  local s e
  s=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  e=$(date +%s.%N)
  echo "$e - $s" | bc
}
