#!/usr/bin/env bash
# Record, map, run: unchanged MPI mini-apps (bench/apps/) placed from their
# own traffic, timed by an independent simulator.
#
# For each app and host: (1) run it under Open MPI with the preload
# library recording (TOPOEMBED_RECORD=app.grf); (2) place the recorded
# graph three ways: the launcher's order (rank r on host node r),
# Scotch's `scotch_gmap` on the same .grf and the host's target, and
# `topoembed map`; (3) run the same app, compiled with SimGrid's smpicc,
# under `smpirun` on the platform `topoembed export HOST --format simgrid`
# writes, with each placement's hostfile (topoembed's from `map --format
# smpi-hostfile`). SimGrid's flow model shares each link among the
# messages crossing it; collectives run SMPI's default algorithms
# (COLLECTIVES=ompi: Open MPI's decision rules, mpich: MPICH's); computation
# is not simulated
# (smpi/simulate-computation:no), so the times are communication alone and
# the same on every run (deterministic). Also prints topoembed's own
# predicted cost of each placement (hop-bytes, most loaded link under the
# host's routing) and whether each ranks the three placements as SimGrid
# times them.
#
#   bench/simgrid_apps.sh                      # 64 ranks on torus:4x4x4, torus:8x8, mesh:8x8
#   HOSTS="torus:4x4x4" bench/simgrid_apps.sh
#
# Needs: Open MPI (mpicc, mpirun), SimGrid (smpicc, smpirun), Scotch
# (scotch_gmap), and the library built with MPI:
#   cargo build --release -p topoembed-cli && cargo build --release -p topoembed-reorder --features mpi
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
source "$here/bench/common.sh"
bin=${TOPOEMBED:-$here/target/release/topoembed}
lib=${TOPOEMBED_REORDER:-$here/target/release/libtopoembed_reorder.so}
for tool in mpicc mpirun smpicc smpirun scotch_gmap "$bin" "$lib"; do
  if ! command -v "$tool" >/dev/null && [ ! -e "$tool" ]; then
    echo "simgrid_apps.sh: $tool not found (see the header)" >&2
    exit 2
  fi
done
HOSTS=${HOSTS:-"torus:4x4x4 torus:8x8 mesh:8x8"}
# ROUTES=topoembed: tori as explicit links with topoembed's routes
# (`export --explicit-routes`) instead of SimGrid's TORUS clusters.
ROUTES=${ROUTES:-simgrid}
COLLECTIVES=${COLLECTIVES:-default}
# What one hop's latency is worth in bytes for `map --summary`: an
# 8-byte message takes 3.03 µs a hop on these platforms (1 µs links, which
# SMPI's factors for small messages scale up; measured by an 8-byte
# ping-pong between two hosts 1 to 6 hops apart: 6.06 µs a hop round
# trip) at 10 GB/s. WEIGH=no maps the point-to-point graph alone.
LATENCY_BYTES=${LATENCY_BYTES:-30000}
WEIGH=${WEIGH:-yes}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# name|source|arguments (64 processes)
apps=(
  "halo2d|halo.c|8x8 262144 10"
  "halo3d|halo.c|4x4x4 131072 10"
  "spmv|spmv.c|8 8 32768 10"
  "cg|spmv.c|8 8 32768 10 2"
  "transpose|transpose.c|8 65536 10"
  "pipeline|pipeline.c|1048576 16"
)
np=64

for src in halo.c spmv.c transpose.c pipeline.c; do
  mpicc -O2 -o "$work/mpi_${src%.c}" "$here/bench/apps/$src"
  smpicc -O2 -o "$work/smpi_${src%.c}" "$here/bench/apps/$src" 2>/dev/null
done

# simulated HOST_XML HOSTFILE APP ARGS...: the app's simulated time.
simulated() {
  local xml=$1 hosts=$2 app=$3
  shift 3
  smpirun -np $np -platform "$xml" -hostfile "$hosts" --cfg=smpi/simulate-computation:no \
    --cfg=smpi/coll-selector:"$COLLECTIVES" \
    --log=root.thres:critical "$work/smpi_$app" "$@" | awk '/ time /{print $3}'
}

# predicted GRF HOST MAP: "hop-bytes most-loaded-link predicted-cost" as
# topoembed measures them (the cost with the recording's summary, as
# `map --summary` weighs its candidates).
predicted() {
  "$bin" metrics "graph:$1" "$2" --mapping "$3" --summary "$1.json" --latency-bytes "$LATENCY_BYTES" --format json |
    python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["hop_bytes"], d["congestion"]["max"], d["predicted"]["total"])'
}

# hostfile_of MAP: a Scotch .map as a hostfile (line r = node-<target of r>).
hostfile_of() {
  sed 1d "$1" | sort -n -k1,1 | awk '{print "node-" $2}'
}

machine
echo "$(mpirun --version | sed -n 1p); $(smpirun -version 2>&1 | sed -n 1p); $(scotch_gmap -V 2>&1 | sed -n 1p)"
echo
echo "| app | host | launcher's order | Scotch | topoembed | topoembed vs launcher | vs Scotch | hop-bytes (launcher / Scotch / topoembed) | busiest link, bytes (same order) | predicted cost, bytes (same order) | predicted order = simulated? |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for host in $HOSTS; do
  explicit=()
  [ "$ROUTES" = topoembed ] && explicit=(--explicit-routes)
  "$bin" export "$host" --format simgrid "${explicit[@]}" > "$work/host.xml"
  "$bin" export "$host" --format tgt > "$work/host.tgt"
  for entry in "${apps[@]}"; do
    IFS='|' read -r name src args <<< "$entry"
    weigh=()
    [ "$WEIGH" = yes ] && weigh=(--summary "$work/$name.grf.json" --latency-bytes "$LATENCY_BYTES")
    app=${src%.c}
    grf=$work/$name.grf
    # shellcheck disable=SC2086
    (cd "$work" && mpirun --allow-run-as-root --oversubscribe -np $np \
      -x LD_PRELOAD="$lib" -x TOPOEMBED_RECORD="$grf" "$work/mpi_$app" $args) > "$work/record.log" 2>&1
    { echo $np; for r in $(seq 0 $((np - 1))); do printf '%d\t%d\n' "$r" "$r"; done; } > "$work/launcher.map"
    scotch_gmap "$grf" "$work/host.tgt" "$work/scotch.map" 2>/dev/null
    # topoembed also weighs the recording's summary ($grf.json): latencies, collectives.
    "$bin" map "graph:$grf" "$host" "${weigh[@]}" --format scotch-map > "$work/topoembed.map"
    "$bin" map "graph:$grf" "$host" "${weigh[@]}" --format smpi-hostfile > "$work/topoembed.hosts"
    hostfile_of "$work/launcher.map" > "$work/launcher.hosts"
    hostfile_of "$work/scotch.map" > "$work/scotch.hosts"
    # The hostfile and the .map of topoembed's placement agree.
    cmp -s <(hostfile_of "$work/topoembed.map") "$work/topoembed.hosts" ||
      { echo "smpi-hostfile and scotch-map disagree" >&2; exit 1; }
    times=() hops=() links=() costs=()
    for p in launcher scotch topoembed; do
      # shellcheck disable=SC2086
      times+=("$(simulated "$work/host.xml" "$work/$p.hosts" "$app" $args)")
      read -r hb link cost <<< "$(predicted "$grf" "$host" "$work/$p.map")"
      hops+=("$hb")
      links+=("$link")
      costs+=("$cost")
    done
    order() { # the placements' indices sorted by the given numbers
      printf '%s\n' "$@" | awk '{print NR-1, $1}' | sort -g -k2,2 -s | awk '{printf "%s", $1}'
    }
    by_time=$(order "${times[@]}")
    by_hops=$(order "${hops[@]}")
    by_link=$(order "${links[@]}")
    by_cost=$(order "${costs[@]}")
    yes_no() { [ "$1" = "$by_time" ] && echo yes || echo no; }
    agree="hop-bytes $(yes_no "$by_hops"), link $(yes_no "$by_link"), cost $(yes_no "$by_cost")"
    speedup=$(python3 -c "print(f'{${times[0]}/${times[2]}:.2f}x')")
    vs_scotch=$(python3 -c "print(f'{${times[1]}/${times[2]}:.2f}x')")
    printf '| %s | %s | %.3f ms | %.3f ms | %.3f ms | %s | %s | %s / %s / %s | %s / %s / %s | %s / %s / %s | %s |\n' \
      "$name" "$host" \
      "$(python3 -c "print(${times[0]}*1e3)")" "$(python3 -c "print(${times[1]}*1e3)")" \
      "$(python3 -c "print(${times[2]}*1e3)")" "$speedup" "$vs_scotch" \
      "${hops[0]}" "${hops[1]}" "${hops[2]}" "${links[0]}" "${links[1]}" "${links[2]}" \
      "${costs[0]}" "${costs[1]}" "${costs[2]}" "$agree"
  done
done
