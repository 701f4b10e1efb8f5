#!/usr/bin/env bash
# What recording costs (TOPOEMBED_RECORD with the preload library): each
# app run RUNS times (default 7) three ways, interleaved — plain, with the
# library preloaded but not recording (its pass-through cost), and
# recording — and the median of each quoted with the overhead over plain.
# Times are the app's own (MPI_Wtime between barriers, slowest rank), so
# MPI_Init and the gather at MPI_Finalize are not in them; the whole run's
# wall time (mpirun start to end) is quoted too.
#
#   bench/record_overhead.sh        # needs mpicc, mpirun and the library built with MPI:
#   cargo build --release -p topoembed-reorder --features mpi
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
source "$here/bench/common.sh"
lib=${TOPOEMBED_REORDER:-$here/target/release/libtopoembed_reorder.so}
[ -e "$lib" ] || { echo "record_overhead.sh: $lib not built (see the header)" >&2; exit 2; }
RUNS=${RUNS:-7}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc -O2 -o "$work/pingpong" "$here/bench/apps/pingpong.c"
mpicc -O2 -o "$work/halo" "$here/bench/apps/halo.c"
# The cost of counting one message, without MPI or its noise.
cc -O2 -o "$work/count_cost" "$here/bench/apps/count_cost.c" -L"$(dirname "$lib")" \
  -ltopoembed_reorder -Wl,-rpath,"$(dirname "$lib")"

# name|processes|program and arguments
cases=(
  "ping-pong, 8 B messages, 2 ranks|2|pingpong 8 200000"
  "ping-pong, 64 KiB messages, 2 ranks|2|pingpong 65536 20000"
  "halo, 2 ranks, 64 KiB to each side, 2000 iterations|2|halo 2 65536 2000"
  "2-D halo 2x2 (4 ranks on 2 cores), 256 KiB x 4, 300 iterations|4|halo 2x2 262144 300"
)
machine
mpirun --version | sed -n 1p
echo
costs=$(for _ in 1 2 3 4 5; do "$work/count_cost"; done)
echo "counting one message: $(echo "$costs" | awk '/one thread/{print $4}' | median_of_lines) ns with one thread calling MPI, \
$(echo "$costs" | awk '/locked/{print $3}' | median_of_lines) ns with a lock (median of 5 x 10^7)"
echo
echo "| app | plain | preloaded, not recording | recording | overhead (recording vs plain) | wall time plain / recording |"
echo "|---|---|---|---|---|---|"
for entry in "${cases[@]}"; do
  IFS='|' read -r name np program <<< "$entry"
  for mode in plain preload record; do : > "$work/$mode.times"; : > "$work/$mode.wall"; done
  for _ in $(seq "$RUNS"); do
    for mode in plain preload record; do
      env=()
      [ "$mode" != plain ] && env+=(-x LD_PRELOAD="$lib")
      [ "$mode" = record ] && env+=(-x TOPOEMBED_RECORD="$work/run.txt")
      start=$(date +%s.%N)
      # shellcheck disable=SC2086
      mpirun --allow-run-as-root --oversubscribe -np "$np" "${env[@]}" "$work/"$program 2>/dev/null |
        awk '/ time /{print $3}' >> "$work/$mode.times"
      echo "$(date +%s.%N) - $start" | bc >> "$work/$mode.wall"
    done
  done
  plain=$(median_of_lines < "$work/plain.times")
  preload=$(median_of_lines < "$work/preload.times")
  record=$(median_of_lines < "$work/record.times")
  wp=$(median_of_lines < "$work/plain.wall")
  wr=$(median_of_lines < "$work/record.wall")
  python3 - "$name" "$plain" "$preload" "$record" "$wp" "$wr" <<'PY'
import sys
name, p, l, r, wp, wr = sys.argv[1], *map(float, sys.argv[2:])
unit = lambda t: f"{t*1e6:.2f} µs" if t < 1e-3 else f"{t*1e3:.1f} ms"
print(f"| {name} | {unit(p)} | {unit(l)} ({(l/p-1)*100:+.1f} %) | {unit(r)} | {(r/p-1)*100:+.1f} % | {wp:.2f} s / {wr:.2f} s |")
PY
done
