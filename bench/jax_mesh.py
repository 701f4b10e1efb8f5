"""JAX's mesh_utils.create_device_mesh against topoembed device-mesh.

For every case (a TPU-like torus or mesh, a logical mesh shape) this builds
JAX's device mesh from fake TPU v4 devices whose `coords` are the host
coordinates, first without splitting physical axes and, when JAX refuses,
with allow_split_physical_axes=True; converts it to topoembed host node ids
(x + X*(y + Y*z)); scores it with `topoembed device-mesh --assignment` and
puts topoembed's own placement beside it. JAX never models wrap-around, so a
host without wrap-around gets the same JAX mesh, scored on that host.

Prints a Markdown table (docs/src/device-meshes.md's) and writes the JAX meshes to a
fixture file that the Rust tests score without JAX.

Usage: python bench/jax_mesh.py TOPOEMBED_BINARY FIXTURE_OUT
"""

import json
import math
import subprocess
import sys
import tempfile

import jax
import numpy as np
from jax.experimental import mesh_utils

# (host spec, its JAX physical shape (3 coordinates), logical shapes)
CASES = [
    ("torus:4x4x4", (4, 4, 4), [(64,), (16, 4), (4, 16), (8, 8), (2, 32), (4, 4, 4), (2, 8, 4)]),
    ("torus:8x8x8", (8, 8, 8), [(512,), (64, 8), (8, 64), (32, 16), (16, 32), (8, 8, 8), (2, 16, 16)]),
    ("torus:4x4x12", (4, 4, 12), [(192,), (16, 12), (12, 16), (48, 4), (24, 8), (8, 24), (4, 4, 12)]),
    ("torus:6x6x4", (6, 6, 4), [(144,), (36, 4), (24, 6), (12, 12), (9, 16), (6, 6, 4)]),
    ("torus:8x4x2", (8, 4, 2), [(64,), (32, 2), (16, 4), (8, 8), (4, 4, 4), (2, 4, 8)]),
    ("torus:16x16", (16, 16, 1), [(256,), (16, 16), (32, 8), (8, 32), (64, 4), (4, 4, 16)]),
    ("mesh:16x16", (16, 16, 1), [(256,), (16, 16), (32, 8), (8, 32), (64, 4), (4, 4, 16)]),
    # Slices without wrap-around: the same JAX meshes, scored on meshes.
    ("mesh:4x4x4", (4, 4, 4), [(64,), (16, 4), (4, 16), (8, 8), (2, 32), (4, 4, 4), (2, 8, 4)]),
    ("mesh:8x8x8", (8, 8, 8), [(512,), (64, 8), (8, 64), (32, 16), (16, 32), (8, 8, 8), (2, 16, 16)]),
    ("mesh:4x4x12", (4, 4, 12), [(192,), (16, 12), (12, 16), (48, 4), (24, 8), (8, 24), (4, 4, 12)]),
    ("mesh:6x6x4", (6, 6, 4), [(144,), (36, 4), (24, 6), (12, 12), (9, 16), (6, 6, 4)]),
]


class FakeTpu:
    """What create_device_mesh reads of a device."""

    def __init__(self, id, coords):
        self.id = id
        self.coords = coords
        self.device_kind = "TPU v4"
        self.platform = "tpu"
        self.core_on_chip = 0
        self.process_index = 0

    def __repr__(self):
        return f"FakeTpu({self.id}, {self.coords})"


def fake_devices(shape):
    x_size, y_size, z_size = shape
    devices = []
    for z in range(z_size):
        for y in range(y_size):
            for x in range(x_size):
                devices.append(FakeTpu(x + x_size * (y + y_size * z), (x, y, z)))
    return devices


def jax_mesh(physical, logical):
    """JAX's mesh as host node ids, and how JAX got it: 'ok', or 'split'
    when it refused without allow_split_physical_axes."""
    devices = fake_devices(physical)
    try:
        mesh = mesh_utils.create_device_mesh(logical, devices=devices)
        how = "ok"
    except (NotImplementedError, ValueError, AssertionError):
        mesh = mesh_utils.create_device_mesh(logical, devices=devices, allow_split_physical_axes=True)
        how = "split"
    ids = np.vectorize(lambda d: d.id)(mesh)
    assert ids.shape == tuple(logical)
    return [int(i) for i in ids.reshape(-1)], how


def topoembed(binary, host, logical, assignment=None):
    cmd = [binary, "device-mesh", host, "x".join(map(str, logical)), "--format", "json"]
    if assignment is not None:
        cmd += ["--assignment", assignment]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def summary(report):
    axes = report["axes"]
    return {
        "max": [a["max_hops"] for a in axes],
        "avg": [a["average_hops"] for a in axes],
        "cong": [a["congestion"] for a in axes],
    }


def cell(s):
    parts = [f"{m}/{a:.3g}/{c}" for m, a, c in zip(s["max"], s["avg"], s["cong"])]
    return " · ".join(parts)


def verdict(ours, theirs):
    """Never worse in the largest max hops, in Σ max hops, in Σ congestion;
    not worse in Σ average hops where the max hops tie."""
    keys_ours = (max(ours["max"]), sum(ours["max"]), sum(ours["cong"]))
    keys_theirs = (max(theirs["max"]), sum(theirs["max"]), sum(theirs["cong"]))
    if any(o > t for o, t in zip(keys_ours, keys_theirs)):
        return "worse"
    tie = ours["max"] == theirs["max"]
    if tie and sum(ours["avg"]) > sum(theirs["avg"]) + 1e-9:
        return "worse"
    better = any(o < t for o, t in zip(keys_ours, keys_theirs)) or sum(ours["avg"]) < sum(theirs["avg"]) - 1e-9
    return "better" if better else "equal"


def main():
    binary, fixture = sys.argv[1], sys.argv[2]
    print(f"jax {jax.__version__}, fake TPU v4 devices with coords; each cell per logical axis: max hops/average hops/congestion")
    print()
    print("| host | logical | JAX | JAX: max/avg/congestion per axis | topoembed | verdict |")
    print("|---|---|---|---|---|---|")
    lines = ["# host logical jax_status host-node-ids-row-major (written by bench/jax_mesh.py)"]
    tally = {"better": 0, "equal": 0, "worse": 0}
    for host, physical, shapes in CASES:
        for logical in shapes:
            assert math.prod(logical) == math.prod(physical)
            ids, how = jax_mesh(physical, logical)
            with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
                f.write(" ".join(map(str, ids)))
                path = f.name
            theirs = summary(topoembed(binary, host, logical, path))
            ours = summary(topoembed(binary, host, logical))
            v = verdict(ours, theirs)
            tally[v] += 1
            shape = "x".join(map(str, logical))
            status = "refuses; split" if how == "split" else "ok"
            print(f"| {host} | {shape} | {status} | {cell(theirs)} | {cell(ours)} | {v} |")
            lines.append(f"{host} {shape} {how} " + " ".join(map(str, ids)))
    with open(fixture, "w") as f:
        f.write("\n".join(lines) + "\n")
    print()
    print(f"{tally['better']} better, {tally['equal']} equal, {tally['worse']} worse")


if __name__ == "__main__":
    main()
