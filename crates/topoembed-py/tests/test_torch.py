"""torch_mesh: the PyTorch DeviceMesh of a placement on a GPU cluster.

Without torch (it is not a dependency), a stand-in torch module records the
DeviceMesh call; with torch installed, 8 gloo processes on this machine
build the real mesh and all-reduce over each of its dimensions."""

import sys
import types

import numpy as np
import pytest

import topoembed

CLUSTER = "fattree:2;2,2;1,2;1,1*tleaf:2:1"  # 4 nodes of 2 GPUs: 8 ranks


@pytest.fixture
def fake_torch(monkeypatch):
    """A torch with as_tensor, int64 and a DeviceMesh that keeps its arguments."""
    calls = []

    class DeviceMesh:
        def __init__(self, device_type, mesh, *, mesh_dim_names=None):
            calls.append((device_type, mesh, mesh_dim_names))

    torch = types.ModuleType("torch")
    torch.int64 = np.int64
    torch.as_tensor = lambda values, dtype=None: np.asarray(values, dtype=dtype)
    distributed = types.ModuleType("torch.distributed")
    device_mesh = types.ModuleType("torch.distributed.device_mesh")
    device_mesh.DeviceMesh = DeviceMesh
    torch.distributed = distributed
    distributed.device_mesh = device_mesh
    for name, module in (
        ("torch", torch),
        ("torch.distributed", distributed),
        ("torch.distributed.device_mesh", device_mesh),
    ):
        monkeypatch.setitem(sys.modules, name, module)
    return calls


def test_torch_mesh_passes_the_placement_as_ranks(fake_torch):
    topoembed.torch_mesh(CLUSTER, {"dp": 4, "tp": 2})
    (device_type, ranks, names), = fake_torch
    placed, figures = topoembed.device_mesh(CLUSTER, {"dp": 4, "tp": 2})
    assert device_type == "cuda" and names == ("dp", "tp")
    assert ranks.dtype == np.int64 and ranks.tolist() == placed.astype(np.int64).tolist()
    # tp (the heavier axis by default) stays inside each node of 2 GPUs.
    assert all(row[0] // 2 == row[1] // 2 for row in ranks.tolist())
    assert figures["axes"][1]["congestion"] == 0


def test_torch_mesh_maps_host_nodes_to_ranks_and_names(fake_torch):
    order = [7, 6, 5, 4, 3, 2, 1, 0]
    topoembed.torch_mesh(CLUSTER, "4x2", "cpu", mesh_dim_names=("a", "b"), rank_of_node=order)
    (device_type, ranks, names), = fake_torch
    placed, _ = topoembed.device_mesh(CLUSTER, "4x2")
    assert (device_type, names) == ("cpu", ("a", "b"))
    assert ranks.tolist() == [[order[int(n)] for n in row] for row in placed]
    with pytest.raises(ValueError, match="no rank for host node"):
        topoembed.torch_mesh(CLUSTER, "4x2", rank_of_node={0: 0})
    with pytest.raises(ValueError, match="the same rank"):
        topoembed.torch_mesh(CLUSTER, "4x2", rank_of_node=[0] * 8)
    with pytest.raises(ValueError, match="3 mesh_dim_names"):
        topoembed.torch_mesh(CLUSTER, "4x2", mesh_dim_names=("a", "b", "c"))


def _rank_main(rank, world, port, results):
    import torch
    import torch.distributed as dist

    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world)
    mesh = topoembed.torch_mesh(CLUSTER, {"dp": 4, "tp": 2}, device_type="cpu")
    sums = []
    for dim in ("dp", "tp"):
        value = torch.tensor([float(rank)])
        dist.all_reduce(value, group=mesh.get_group(dim))
        sums.append(float(value[0]))
    results.put((rank, mesh.mesh.tolist(), sums))
    dist.destroy_process_group()


def test_a_real_device_mesh_all_reduces_over_each_dimension():
    pytest.importorskip("torch")
    import multiprocessing
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    processes = [context.Process(target=_rank_main, args=(r, 8, port, results)) for r in range(8)]
    for p in processes:
        p.start()
    got = dict((rank, (mesh, sums)) for rank, mesh, sums in (results.get(timeout=120) for _ in processes))
    for p in processes:
        p.join(timeout=60)
    placed, _ = topoembed.device_mesh(CLUSTER, {"dp": 4, "tp": 2})
    for rank, (mesh, sums) in got.items():
        assert mesh == placed.tolist()
        (i, j), = zip(*np.nonzero(placed == rank))
        assert sums == [float(placed[:, j].sum()), float(placed[i, :].sum())]
