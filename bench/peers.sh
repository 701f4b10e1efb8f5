#!/usr/bin/env bash
# The general mapper beside KaHIP's process mapping on hierarchies, on the
# same files: KaHIP's `global_multisection` (PyPI `kahip` wheel, its bin/)
# with the hierarchy and distances of each tleaf host, scotch_gmap -Cd, and
# `topoembed map`, every mapping scored by Scotch's gmtst on the same
# target (KaHIP prints its objective doubled; gmtst does not). Median wall
# time of RUNS runs.
#
#   bench/peers.sh                      # shared graphs + libmetis-doc's
#   PRESETS="eco strong" RUNS=1 bench/peers.sh
#
# The venv with kahip is made once in $PEERS_VENV (default /tmp/topoembed-peers).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$here/../shared/graphs}
source "$here/bench/common.sh"
venv=${PEERS_VENV:-/tmp/topoembed-peers}
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q kahip
fi
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
echo "machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | sed -n 1p); KaHIP $("$venv/bin/pip" show kahip | sed -n 's/^Version: //p')"
echo
echo "| graph | host | scotch_gmap -Cd | $(for p in $PRESETS; do printf 'KaHIP %s | ' "$p"; done)topoembed map | map / best KaHIP | times (gmap, $(for p in $PRESETS; do printf 'KaHIP %s, ' "$p"; done)map) s |"
echo "|---|---|---|$(for _ in $PRESETS; do printf -- '---|'; done)---|---|---|"
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
      { wc -l <"$work/k.part"; awk '{print NR "\t" $1}' "$work/k.part"; } >"$work/k.map"
      hk=$(expan "$grf" "$tgt" "$work/k.map")
      row="$row $hk |"
      times="$times, $(printf '%s\n' "${tk[@]}" | median)"
      if [ -z "$best" ] || [ "$hk" -lt "$best" ]; then best=$hk; fi
    done
    tm=(); for _ in $(seq "$RUNS"); do tm+=("$(seconds run_map "$grf" "$host")"); done
    ht=$(expan "$grf" "$tgt" "$work/t.map")
    times="$times, $(printf '%s\n' "${tm[@]}" | median)"
    printf '%s %s | %s | %s |\n' "$row" "$ht" "$(echo "scale=3; $ht / $best" | bc)" "$times"
  done
done
