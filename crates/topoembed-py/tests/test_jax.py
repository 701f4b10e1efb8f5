"""A real jax.sharding.Mesh from jax_mesh on 8 CPU devices (conftest.py
asks XLA for them), and a psum over each of its axes."""

import numpy as np
import pytest

import topoembed

jax = pytest.importorskip("jax")


def test_jax_mesh_places_devices_and_psums_over_each_axis():
    devices = jax.devices("cpu")
    assert len(devices) == 8
    # The CPU devices play the chips of a 2x4 torus: device k at (k % 2, k // 2).
    coords = [(k % 2, k // 2) for k in range(8)]
    mesh = topoembed.jax_mesh(devices, "torus:2x4", {"data": 2, "model": 4}, ("data", "model"), coords=coords)
    assert isinstance(mesh, jax.sharding.Mesh)
    assert mesh.axis_names == ("data", "model") and mesh.devices.shape == (2, 4)
    # Each device sits on the host node topoembed chose for its logical place.
    placed, _ = topoembed.device_mesh("torus:2x4", {"data": 2, "model": 4})
    node_of = {d.id: x + 2 * y for d, (x, y) in zip(devices, coords)}
    assert [[node_of[d.id] for d in row] for row in mesh.devices] == placed.tolist()

    from jax.sharding import NamedSharding, PartitionSpec as P

    values = np.arange(8, dtype=np.float32).reshape(2, 4)
    x = jax.device_put(values, NamedSharding(mesh, P("data", "model")))
    for axis, along in (("data", 0), ("model", 1)):
        summed = jax.shard_map(
            lambda block, axis=axis: jax.lax.psum(block, axis),
            mesh=mesh,
            in_specs=P("data", "model"),
            out_specs=P("data", "model"),
        )(x)
        expected = np.broadcast_to(values.sum(axis=along, keepdims=True), values.shape)
        assert np.array_equal(np.asarray(summed), expected)


def test_jax_mesh_refuses_devices_without_coords_or_sharing_one():
    devices = jax.devices("cpu")
    with pytest.raises(ValueError, match="no coords"):
        topoembed.jax_mesh(devices, "torus:2x4", "2x4", ("a", "b"))
    with pytest.raises(ValueError, match="share coords"):
        topoembed.jax_mesh(devices, "torus:2x4", "2x4", ("a", "b"), coords=[(0, 0)] * 8)
    with pytest.raises(ValueError, match="outside the host"):
        topoembed.jax_mesh(devices, "torus:2x4", "2x4", ("a", "b"), coords=[(k, 0) for k in range(8)])
