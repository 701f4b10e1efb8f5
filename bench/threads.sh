#!/usr/bin/env bash
# Thread scaling of `topoembed map`: each GRAPH:HOST pair mapped on 1, 2,
# 4, .. threads up to every core of this machine (RAYON_NUM_THREADS; RUNS
# rounds, each running every thread count once; median wall time of each),
# the placement checked to be the same on every thread count (a seed gives
# one placement), as a Markdown table.
# Needs only bash, awk, python3, bench/common.sh and the binary: it runs
# where Scotch is not installed (a lent 16-core machine, say). bench/mapper.sh calls it for its
# scaling table.
#
#   bench/threads.sh GRAPH.graph:torus:8x8x8 [GRAPH:HOST ..]
#   THREADS="1 4 16" RUNS=5 BIN=path/to/topoembed bench/threads.sh g.graph:torus:16x16
#   PRESET=fast bench/threads.sh g.graph:torus:16x16   # `map --preset fast`
#
# Columns: vertices, hop-bytes (the same at every thread count), one
# column of seconds per thread count (medians), the speedup of the most
# threads over one (the median of each round's ratio), and the CPU time
# the hypervisor took from the kept rounds (steal, /proc/stat).
#
# Steal is much of this 2-core VM's noise: on 2026-12-03 two threads ran
# mdual onto torus:8x8x8 in 2.35 s with none and in 3.79 s with 1.78 s of
# CPU stolen, minutes apart. A round in which any run lost more than
# STEAL_LIMIT seconds of CPU (default 0.05) is run again, up to RUNS times
# more in all; STEAL_LIMIT=1e9 keeps every round. (Not all of it: one
# thread took 3.2 s in one spell and 4.2 s in another, neither with steal.)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
source "$here/bench/common.sh"
RUNS=${RUNS:-3}
PRESET=${PRESET:-default}
bin=${BIN:-$here/target/release/topoembed}
if [ -z "${BIN:-}" ]; then
  (cd "$here" && cargo build --release -q -p topoembed-cli)
fi
[ $# -gt 0 ] || { echo "usage: bench/threads.sh GRAPH:HOST [GRAPH:HOST ..]" >&2; exit 2; }
cores=$(nproc)
if [ -z "${THREADS:-}" ]; then
  THREADS=""; t=1
  while [ "$t" -le "$cores" ]; do THREADS="$THREADS $t"; t=$((t * 2)); done
  [ $((cores & (cores - 1))) -ne 0 ] && THREADS="$THREADS $cores"
fi
THREADS=${THREADS#"${THREADS%%[! ]*}"} # no leading space: the first count names the reference
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
now() { date +%s.%N; }
STEAL_LIMIT=${STEAL_LIMIT:-0.05}
label() { [ "$1" = 1 ] && echo "1 thread" || echo "$1 threads"; }
echo "machine: $cores cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | sed -n 1p)"
echo
header="| graph | host | vertices | hop-bytes |"
rule="|---|---|---|---|"
for t in $THREADS; do header="$header $(label "$t") s |"; rule="$rule---|"; done
echo "$header speedup | stolen s (rounds rerun) |"
echo "$rule---|---|"
for pair in "$@"; do
  graph=${pair%%:*}
  host=${pair#*:}
  name=$(basename "$graph" .graph)
  vertices=$(awk '!/^%/ {print $1; exit}' "$graph")
  line="| $name | $host | $vertices |"
  reference=""
  # Rounds, each running every thread count once: a slow spell of this
  # shared machine then falls on all of them alike, and the speedup is
  # the median of each round's own ratio (paired), not a ratio of medians
  # taken minutes apart.
  declare -A took=()
  round=1 rerun=0 kept_steal=0
  while [ "$round" -le "$RUNS" ]; do
    worst=0 round_steal=0
    for t in $THREADS; do
      a=$(stolen)
      s=$(now)
      RAYON_NUM_THREADS=$t "$bin" map "graph:$graph" "$host" --preset "$PRESET" --format scotch-map > "$work/out.map"
      e=$(now)
      b=$(stolen)
      took[$t,$round]=$(awk -v s="$s" -v e="$e" 'BEGIN {printf "%.3f", e - s}')
      worst=$(awk -v w="$worst" -v a="$a" -v b="$b" 'BEGIN {d = b - a; print (d > w ? d : w)}')
      round_steal=$(awk -v r="$round_steal" -v a="$a" -v b="$b" 'BEGIN {print r + b - a}')
      # The placement must not depend on the thread count.
      placement=$(cksum < "$work/out.map")
      if [ -z "$reference" ]; then
        reference=$placement
      elif [ "$placement" != "$reference" ]; then
        echo "$name -> $host: $t threads placed differently from $(label "${THREADS%% *}")" >&2
        exit 1
      fi
    done
    # A round the hypervisor took CPU from is run again (RUNS more at most).
    if [ "$rerun" -lt "$RUNS" ] && awk -v w="$worst" -v l="$STEAL_LIMIT" 'BEGIN {exit !(w > l)}'; then
      rerun=$((rerun + 1))
      continue
    fi
    kept_steal=$(awk -v k="$kept_steal" -v r="$round_steal" 'BEGIN {print k + r}')
    round=$((round + 1))
  done
  hop=$("$bin" map "graph:$graph" "$host" --preset "$PRESET" --no-traffic --format json \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["metrics"]["hop_bytes"])')
  cells=""
  for t in $THREADS; do
    m=$(for round in $(seq "$RUNS"); do echo "${took[$t,$round]}"; done | median)
    cells="$cells $(printf '%.2f' "$m") |"
  done
  first=${THREADS%% *}; last=${THREADS##* }
  speedup=$(for round in $(seq "$RUNS"); do
    awk -v a="${took[$first,$round]}" -v b="${took[$last,$round]}" 'BEGIN {print a / b}'
  done | median)
  unset took
  echo "$line $hop |$cells $(printf '%.2f' "$speedup")x | $(printf '%.2f' "$kept_steal") ($rerun) |"
done
