"""The Python package against the CLI's JSON, brute force and bad input."""

import doctest
import json

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import shortest_path

import topoembed


def same(a, b):
    """Documents equal but for the guest's name (a file's path on the CLI,
    the in-memory graph's name here) and the time taken."""

    def strip(x):
        if isinstance(x, list):
            return [strip(v) for v in x]
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k not in ("guest", "seconds")}
        return x

    return strip(a) == strip(b)


# --- topologies -------------------------------------------------------------


@pytest.mark.parametrize("spec", ["torus:4x6", "mesh:3x4x2", "cube:5", "ring:9", "bintree:8", "line:7"])
def test_distances_equal_bfs(spec):
    t = topoembed.topology(spec)
    indptr, indices, volumes = t.csr()
    assert indptr.dtype == indices.dtype == volumes.dtype == np.uint64
    assert len(indptr) == t.nodes + 1 and len(indices) == 2 * t.edges
    matrix = sp.csr_matrix((np.ones(len(indices)), indices.astype(np.int64), indptr.astype(np.int64)))
    bfs = shortest_path(matrix, unweighted=True).astype(np.uint64)
    a, b = np.meshgrid(np.arange(t.nodes), np.arange(t.nodes), indexing="ij")
    got = t.distance(a, b)
    assert got.shape == (t.nodes, t.nodes) and got.dtype == np.uint64
    assert np.array_equal(got, bfs)
    assert t.diameter == bfs.max()
    assert isinstance(t.distance(0, t.nodes - 1), int)


def test_topology_queries():
    t = topoembed.topology("torus:8x4")
    assert (t.spec, t.nodes, t.edges, len(t), t.is_weighted) == ("torus:8x4", 32, 64, 32, False)
    assert np.array_equal(t.coords(9), [1, 1])
    assert t.coords([[0, 9], [31, 8]]).shape == (2, 2, 2)
    assert np.array_equal(t.neighbors(0), [1, 7, 8, 24])
    assert np.array_equal(t.loads(), np.ones(32, dtype=np.uint64))
    assert repr(t) == "topoembed.topology('torus:8x4')"


# --- embeddings and metrics against the CLI ---------------------------------


def test_methods_equal_cli(cli):
    assert topoembed.methods() == cli("methods")


@pytest.mark.parametrize(
    "guest,host,method",
    [("cube:6", "torus:8x8", "xor"), ("cube:10", "ring:1024", "standard"), ("cube:4", "line:16", "byweight"),
     ("mesh:8x8", "cube:6", "gray")],
)
def test_embed_and_metrics_equal_cli(cli, guest, host, method):
    e = topoembed.embed(guest, host, method)
    expected = cli("embed", guest, host, "--method", method)
    assert e.map.dtype == np.uint64 and e.inverse.dtype == np.int64
    assert e.map.tolist() == expected["map"]
    assert e.method == expected["method"]
    assert np.array_equal(e.inverse[e.map], np.arange(len(e.map)))
    assert topoembed.metrics(guest, host, method=method) == cli("metrics", guest, host, "--method", method)
    assert topoembed.metrics(guest, host, method=method, ta=2, tc=3, traffic=False) == cli(
        "metrics", guest, host, "--method", method, "--ta", "2", "--tc", "3", "--no-traffic"
    )


@pytest.mark.parametrize(
    "guest,host",
    [("ring:16", "fattree:2;4,4;1,2;1,2"), ("cube:6", "dragonfly:4,1;2,1;4,1;2"),
     ("torus:4x6", "torus:8x8x8@0-15,100-107"), ("mesh:4x4", "fattree:2;2,2;1,2;1,1*tleaf:2x2:10,1")],
)
def test_new_hosts_measure_as_the_cli(cli, guest, host):
    """Fat trees, dragonflies, allocations and networks of nodes: the same
    library parser and routes as the CLI (congestion over the network's links)."""
    h = topoembed.topology(host)
    assert h.nodes == topoembed.topology(guest).nodes
    assert topoembed.metrics(guest, host, method="identity") == cli("metrics", guest, host, "--method", "identity")
    n = h.nodes
    a, b = np.arange(n), np.arange(n)[::-1].copy()
    assert np.array_equal(h.distance(a, b), h.distance(b, a))


def test_metrics_of_a_mapping_equal_the_methods(cli, tmp_path):
    e = topoembed.embed("cube:6", "torus:8x8", "xor")
    by_array = topoembed.metrics("cube:6", "torus:8x8", mapping=e.map)
    by_method = topoembed.metrics("cube:6", "torus:8x8", method="xor")
    assert by_array["hop_bytes"] == by_method["hop_bytes"]
    assert by_array["dilation"] == by_method["dilation"]
    assert by_array["congestion"] == by_method["congestion"]
    path = tmp_path / "xor.map"
    topoembed.write_mapping(path, e.map)
    assert np.array_equal(topoembed.read_mapping(path, "cube:6", "torus:8x8"), e.map)
    guest = tmp_path / "cube6.grf"
    topoembed.write_graph("cube:6", guest, "grf")
    from_file = cli("metrics", f"graph:{guest}", "torus:8x8", "--mapping", str(path))
    assert from_file["hop_bytes"] == by_array["hop_bytes"]
    assert from_file["congestion"] == by_array["congestion"]


def test_launch_files_and_simgrid_platforms_equal_the_clis(cli, cli_text, tmp_path):
    guest, host = "torus:4x4", "tleaf:8x2:10,1"
    placed = topoembed.map_graph(guest, host)
    hosts = placed["map"]
    assert list(hosts) == cli("map", guest, host)["map"]
    nodes = ["--nodes", "n[01-08]", "--slots-per-node", "2"]
    for format in ["rankfile", "seq", "machinefile", "cray-rank-order"]:
        path = tmp_path / f"{format}.txt"
        topoembed.write_launch(path, hosts, format, nodes="n[01-08]", slots_per_node=2)
        assert path.read_text() == cli_text("map", guest, host, "--format", format, *nodes)
    path = tmp_path / "smpi.hosts"
    topoembed.write_launch(path, hosts, "smpi-hostfile", prefix="h")
    assert path.read_text().split() == [f"h{h}" for h in hosts]
    with pytest.raises(ValueError, match="needs the machine's slots"):
        topoembed.write_launch(tmp_path / "x", hosts, "rankfile")
    with pytest.raises(ValueError, match="format 'slurm'"):
        topoembed.write_launch(tmp_path / "x", hosts, "slurm", nodes="n[01-08]")
    for spec, explicit in [("torus:4x4", False), ("torus:4x4", True), ("mesh:3x2", False)]:
        path = tmp_path / "platform.xml"
        topoembed.write_simgrid(spec, path, explicit_routes=explicit)
        args = ["export", spec, "--format", "simgrid"] + (["--explicit-routes"] if explicit else [])
        assert path.read_text() == cli_text(*args)
    with pytest.raises(ValueError, match="no SimGrid platform"):
        topoembed.write_simgrid("tleaf:2x2:10,1", tmp_path / "t.xml")


def test_compare_equals_cli(cli):
    got = topoembed.compare("cube:8", "torus:16x16")
    assert got == cli("compare", "cube:8", "torus:16x16")
    assert any(row["best_cc_time"] for row in got)


def test_method_options():
    e = topoembed.embed("mesh:8x8", "cube:4", "split", partition="cyclic")
    assert e.map.shape == (64,) and e.map.max() < 16
    assert np.bincount(e.map.astype(np.int64)).tolist() == [4] * 16
    with pytest.raises(ValueError, match="unknown option"):
        topoembed.embed("cube:6", "torus:8x8", "xor", colour="red")


# --- device meshes and JAX ---------------------------------------------------


def test_device_mesh_equals_cli(cli):
    mesh, figures = topoembed.device_mesh("torus:4x4x4", {"data": 4, "model": 16}, weights=[1, 4])
    expected = cli("device-mesh", "torus:4x4x4", "data=4,model=16", "--weights", "1,4")
    assert figures == expected
    assert mesh.shape == (4, 16) and mesh.dtype == np.uint64
    assert sorted(mesh.ravel().tolist()) == list(range(64))
    by_name, _ = topoembed.device_mesh("torus:4x4x4", "data=4,model=16", weights={"model": 4, "data": 1})
    assert np.array_equal(by_name, mesh)
    shaped, _ = topoembed.device_mesh("torus:4x4", (4, 4), lines=["axis1"])
    assert shaped.shape == (4, 4)


# --- the general mapper ------------------------------------------------------


def _grid_matrix(side):
    """A side x side 5-point stencil with volumes 1..3."""
    n = side * side
    rows, cols, vals = [], [], []
    for v in range(n):
        x, y = v % side, v // side
        for u, w in ((v + 1, 1 + x % 3), (v + side, 2)):
            if (u == v + 1 and x + 1 < side) or (u == v + side and y + 1 < side):
                rows += [v, u]
                cols += [u, v]
                vals += [w, w]
    return sp.coo_matrix((vals, (rows, cols)), shape=(n, n)).tocsr()


def test_map_graph_from_scipy_equals_cli_on_the_same_file(cli, tmp_path):
    matrix = _grid_matrix(16)
    g = topoembed.graph(matrix)
    assert g.nodes == 256 and g.edges == 480 and g.is_weighted
    path = tmp_path / "grid.mtx"
    topoembed.write_graph(g, path, "mtx")
    result = topoembed.map_graph(matrix, "torus:4x4", seed=3)
    expected = cli("map", f"graph:{path}", "torus:4x4", "--seed", "3")
    assert result["map"].dtype == np.uint64 and result["map"].shape == (256,)
    assert result["map"].tolist() == expected["map"]
    assert result["metrics"]["hop_bytes"] == expected["metrics"]["hop_bytes"]
    assert same(result["baselines"], expected["baselines"])
    assert same(result["metrics"], expected["metrics"])
    assert result["capacity"] == expected["capacity"] == 17
    assert np.bincount(result["map"].astype(np.int64)).max() <= result["capacity"]
    for key in ("imbalance", "seed"):
        assert result[key] == expected[key]


def test_map_graph_fast_preset_equals_cli(cli, tmp_path):
    matrix = _grid_matrix(24)
    path = tmp_path / "grid.mtx"
    topoembed.write_graph(topoembed.graph(matrix), path, "mtx")
    fast = topoembed.map_graph(matrix, "torus:4x4", seed=2, preset="fast")
    expected = cli("map", f"graph:{path}", "torus:4x4", "--seed", "2", "--preset", "fast")
    assert fast["map"].tolist() == expected["map"]
    assert fast["preset"] == expected["preset"] == "fast"
    assert np.bincount(fast["map"].astype(np.int64)).max() <= fast["capacity"]
    strong = topoembed.map_graph(matrix, "torus:4x4", seed=2, preset="strong")
    expected = cli("map", f"graph:{path}", "torus:4x4", "--seed", "2", "--preset", "strong")
    assert strong["map"].tolist() == expected["map"]
    assert strong["preset"] == "strong"
    with pytest.raises(ValueError, match="default, fast or strong"):
        topoembed.map_graph(matrix, "torus:4x4", preset="quick")


def test_map_graph_from_edges_equals_cli(cli, tmp_path):
    rng = np.random.default_rng(5)
    edges = np.array([(u, u + 1) for u in range(63)] + [(u, (u * 7 + 3) % 64) for u in range(0, 64, 3)])
    edges = np.unique(np.sort(edges, axis=1), axis=0)
    edges = edges[edges[:, 0] != edges[:, 1]]
    weights = rng.integers(1, 9, len(edges))
    path = tmp_path / "edges.txt"
    path.write_text("".join(f"{u} {v} {w}\n" for (u, v), w in zip(edges, weights)))
    result = topoembed.map_graph(edges, "cube:6", weights=weights)
    expected = cli("map", f"graph:{path}", "cube:6")
    assert result["map"].tolist() == expected["map"]
    as_pair = topoembed.map_graph((edges, weights), "cube:6")
    assert np.array_equal(as_pair["map"], result["map"])
    assert same(result["metrics"], expected["metrics"])


def test_map_graph_with_a_summary_equals_cli(cli, tmp_path):
    # A ring exchanged in scrambled rank order under 40 small all-reduces:
    # the recording's graph and summary, as TOPOEMBED_RECORD writes them.
    order = np.random.default_rng(7).permutation(16)
    pairs = sorted({tuple(sorted((int(order[i]), int(order[(i + 1) % 16])))) for i in range(16)})
    path = tmp_path / "ring.txt"
    path.write_text("# nodes 16\n" + "".join(f"{u} {v} 4096\n" for u, v in pairs))
    summary = tmp_path / "ring.txt.json"
    summary.write_text(
        json.dumps(
            {
                "ranks": 16,
                "collectives": [
                    {
                        "communicator": {"name": "MPI_COMM_WORLD", "first_world_rank": 0, "size": 16},
                        "operations": [{"operation": "MPI_Allreduce", "calls": 40, "bytes": 40 * 8 * 16}],
                    }
                ],
                "pair_messages": [[u, v, 20] for u, v in pairs],
            }
        )
    )
    result = topoembed.map_graph(f"graph:{path}", "torus:4x4", summary=summary, latency_bytes=10000)
    expected = cli("map", f"graph:{path}", "torus:4x4", "--summary", str(summary), "--latency-bytes", "10000")
    assert result["map"].tolist() == expected["map"]
    assert result["summary"]["kept"] == expected["summary"]["kept"]
    assert result["summary"]["candidates"] == expected["summary"]["candidates"]
    kept = result["summary"]["candidates"][result["summary"]["kept"]]["predicted_total"]
    assert all(kept <= c["predicted_total"] for c in result["summary"]["candidates"])
    assert "summary" not in topoembed.map_graph(f"graph:{path}", "torus:4x4")
    with pytest.raises(ValueError, match="not a graph"):
        topoembed.map_graph("torus:4x4", "torus:4x4", summary=summary)


def test_weighted_metrics_equal_brute_force():
    matrix = _grid_matrix(8)
    host = topoembed.topology("torus:4x4")
    result = topoembed.map_graph(matrix, host)
    coo = sp.triu(matrix).tocoo()
    brute = sum(int(w) * host.distance(int(result["map"][i]), int(result["map"][j])) for i, j, w in zip(coo.row, coo.col, coo.data))
    assert result["metrics"]["hop_bytes"] == brute


# --- files -------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["grf", "metis", "mtx"])
def test_graph_files_round_trip(tmp_path, fmt):
    g = topoembed.graph(_grid_matrix(6))
    path = tmp_path / {"grf": "g.grf", "metis": "g.graph", "mtx": "g.mtx"}[fmt]
    topoembed.write_graph(g, path, fmt)
    back = topoembed.read_graph(path)
    for a, b in zip(g.csr(), back.csr()):
        assert np.array_equal(a, b)


def test_loads_round_trip_and_mtx_refuses_them(tmp_path):
    edges = np.array([[0, 1], [1, 2], [2, 3]])
    g = topoembed.graph(edges, weights=[5, 6, 7], loads=[1, 2, 3, 4])
    topoembed.write_graph(g, tmp_path / "g.graph", "metis")
    back = topoembed.read_graph(tmp_path / "g.graph")
    assert back.loads().tolist() == [1, 2, 3, 4]
    assert back.csr()[2].tolist() == [5, 5, 6, 6, 7, 7]
    with pytest.raises(ValueError, match="node loads"):
        topoembed.write_graph(g, tmp_path / "g.mtx", "mtx")


def test_target_file_is_a_host(tmp_path):
    path = tmp_path / "host.tgt"
    topoembed.write_graph("torus:4x4", path, "tgt")
    assert topoembed.topology(str(path)).nodes == 16


# --- the exact searches -------------------------------------------------------


def _optimum(doc):
    """An optimum's answer, less what depends on the run (time, thread timing)."""
    return {k: doc[k] for k in ("guest", "host", "min_sum", "distances", "xor_sum", "standard_sum", "xor_optimal", "proved", "lower_bound")}


def test_optimal_by_vectors_equals_cli(cli):
    # The default bounds (`energy`) leave torus:16x16 no vector; `lift`
    # leaves seven, for the search to refute.
    found = topoembed.optimal("cube:8", "torus:16x16")
    assert found["method"] == "vectors"
    optimum = found["search"]["optimum"]
    assert _optimum(optimum) == _optimum(cli("optimal", "cube:8", "torus:16x16"))
    assert optimum["proved"] and optimum["min_sum"] == 22
    assert found["tally"]["refuted"] == len(found["search"]["refuted"]) == 0
    found = topoembed.optimal("cube:8", "torus:16x16", bounds="lift")
    optimum = found["search"]["optimum"]
    assert _optimum(optimum) == _optimum(cli("optimal", "cube:8", "torus:16x16", "--bounds", "lift"))
    assert optimum["proved"] and optimum["min_sum"] == 22
    tally = found["tally"]
    assert tally["refuted"] == len(found["search"]["refuted"]) == 7
    assert tally["by_propagation"] + tally["by_search"] + tally["by_solver"] == tally["refuted"]


def test_optimal_other_methods_equal_cli(cli):
    whole = topoembed.optimal("cube:6", "torus:8x8", whole_tree=True)
    assert whole["method"] == "whole-tree"
    assert _optimum(whole["optimum"]) == _optimum(cli("optimal", "cube:6", "torus:8x8", "--whole-tree"))
    best = topoembed.optimal("cube:3", "ring:8", all_bijections=True)["best"]
    expected = cli("optimal", "cube:3", "ring:8", "--all-bijections")
    assert {k: best[k] for k in ("min_communication", "constant_min", "proved")} == {
        k: expected[k] for k in ("min_communication", "constant_min", "proved")
    }
    one = topoembed.optimal("cube:6", "torus:8x8", distances=[1, 1, 2, 2, 4, 4])["decision"]
    assert one == {**cli("optimal", "cube:6", "torus:8x8", "--distances", "1,1,2,2,4,4"), "seconds": one["seconds"]}
    assert one["answer"] == "embedding"
    no = topoembed.optimal("cube:6", "torus:8x8", distances=[1, 1, 1, 1, 1, 1])["decision"]
    assert no["answer"] != "embedding"


def test_a_certificate_written_from_python_verifies_as_the_clis(cli, tmp_path):
    folder = tmp_path / "cert"
    found = topoembed.optimal("cube:6", "torus:8x8", certificate=str(folder))
    assert found["certificate"] == str(folder) and found["search"]["optimum"]["proved"]
    verified = topoembed.verify_certificate(str(folder))
    assert verified["complete"] and verified["lower_bound"] == found["search"]["optimum"]["min_sum"]
    expected = cli("verify-certificate", str(folder))
    assert {k: v for k, v in verified.items() if k != "seconds"} == {k: v for k, v in expected.items() if k != "seconds"}
    (folder / "certificate.json").write_text("{}")
    with pytest.raises(ValueError, match="certificate"):
        topoembed.verify_certificate(str(folder))


# --- the network simulator ----------------------------------------------------


def test_simulate_equals_cli(cli):
    for args, kwargs in [
        (("fft", "cube:6", "ring:64", "xor"), {}),
        (("halo", "torus:8x8", "ring:64", "snake"), {"iterations": 2, "mode": "cut-through", "th": 0.5}),
        (("allreduce", "cube:8", "ring:16", "map"), {"links": 2, "duplex": "half"}),
    ]:
        found = topoembed.simulate(*args, **kwargs)
        flags = ["--method", args[3]]
        for key, value in kwargs.items():
            flags += [f"--{key.replace('_', '-')}", str(value)]
        expected = cli("simulate", *args[:3], *flags)
        assert {k: v for k, v in found.items() if k != "wall_seconds"} == {
            k: v for k, v in expected.items() if k != "wall_seconds"
        }
    free = topoembed.simulate("fft", "cube:6", "ring:64", "xor", contention=False)
    # Without contention the simulation is the CC recurrence (xor paper).
    assert free["makespan"] == free["cc_recurrence"]


# --- bad input ---------------------------------------------------------------


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda: topoembed.topology("torus:8y8"), "is not a size"),
        (lambda: topoembed.topology(42), "spec string"),
        (lambda: topoembed.embed("cube:6", "torus:8x4", "xor"), "64 nodes"),
        (lambda: topoembed.embed("cube:6", "torus:8x8", "nonsense"), "nonsense"),
        (lambda: topoembed.metrics("cube:3", "ring:8"), "method=NAME or mapping=ARRAY"),
        (lambda: topoembed.metrics("cube:3", "ring:8", mapping=[0, 1, 2]), "3 entries"),
        (lambda: topoembed.metrics("cube:3", "ring:8", mapping=[0, 1, 2, 3, 4, 5, 6, 9]), "mapped to 9"),
        (lambda: topoembed.metrics("cube:3", "ring:8", mapping=[0, -1, 2, 3, 4, 5, 6, 7]), "0 or more"),
        (lambda: topoembed.metrics("cube:3", "ring:8", method="xor", tc=-1), "tc"),
        (lambda: topoembed.topology("ring:8").distance(0, 8), "not a node"),
        (lambda: topoembed.topology("ring:8").distance(0.5, 1), "whole numbers"),
        (lambda: topoembed.graph(np.array([[0, 1], [1, 1]])), "self-loop"),
        (lambda: topoembed.graph(np.array([[0, 1], [1, 2]]), weights=[1, -2]), "0 or more"),
        (lambda: topoembed.graph(np.array([[0, 1], [1, 2]]), weights=[1]), "1 volumes for 2 edges"),
        (lambda: topoembed.graph(sp.csr_matrix(np.ones((2, 3)))), "square"),
        (lambda: topoembed.map_graph(np.array([[0, 1]]), "ring:4", loads=[9, 1]), "raise --imbalance"),
        (lambda: topoembed.map_graph(np.array([[0, 1]]), "ring:2", objective="speed"), "hop-bytes or congestion"),
        (lambda: topoembed.device_mesh("torus:4x4", {"data": 4, "model": 8}), "16"),
        (lambda: topoembed.read_graph("/nonexistent/file.graph"), "nonexistent"),
        (lambda: topoembed.optimal("ring:8", "ring:8"), "hypercubes"),
        (lambda: topoembed.optimal("cube:3", "ring:16"), "16"),
        (lambda: topoembed.optimal("cube:3", "ring:8", decide_by="luck"), "turns, search or solver"),
        (lambda: topoembed.optimal("cube:3", "ring:8", bounds="best"), "best"),
        (lambda: topoembed.optimal("cube:3", "ring:8", whole_tree=True, all_bijections=True), "not both"),
        (lambda: topoembed.optimal("cube:3", "ring:8", distances=[1, 0, 2]), "at least 1"),
        (lambda: topoembed.verify_certificate("/nonexistent/cert"), "nonexistent"),
        (lambda: topoembed.simulate("gossip", "cube:4", "ring:16", "xor"), "cannon, fft"),
        (lambda: topoembed.simulate("fft", "cube:4", "ring:16", "xor", mode="wormhole"), "saf"),
        (lambda: topoembed.simulate("halo", "cube:4", "ring:16", "xor", trace="run"), "--trace run"),
        (lambda: topoembed.simulate("fft", "cube:4", "ring:16", "xor", tc=-1), "--tc must be"),
    ],
)
def test_bad_input_raises_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_docstrings_run():
    failures, tried = doctest.testmod(topoembed)
    assert tried > 0 and failures == 0
