#!/usr/bin/env bash
# topoembed device-mesh against JAX's mesh_utils.create_device_mesh on the
# same hosts and logical shapes (bench/jax_mesh.py): makes a venv with jax
# from PyPI (CPU wheel; fake TPU v4 devices carry the coordinates), prints
# the table that goes into docs/src/device-meshes.md and rewrites the fixture the Rust
# tests score without JAX. Then times `device-mesh torus:32x32x32 64x512`
# (median of RUNS runs, default 5).
# Usage: bench/jax_mesh.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
venv=${JAX_VENV:-target/jax-venv}
cargo build --release -q -p topoembed-cli
bin=$PWD/target/release/topoembed
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q jax
fi
source bench/common.sh
machine
"$venv/bin/python" bench/jax_mesh.py "$bin" crates/topoembed/tests/data/jax_meshes.txt

echo
times=()
for _ in $(seq "$runs"); do
    start=$(date +%s.%N)
    "$bin" device-mesh torus:32x32x32 64x512 --format json > /dev/null
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc -l)")
done
printf 'device-mesh torus:32x32x32 64x512: median %.3f s of %d runs\n' \
    "$(printf '%s\n' "${times[@]}" | median_of_lines)" "$runs"
