"""topoembed: place the processes of a parallel program on a machine's
interconnect, and know exactly how good that placement is.

Everything here runs in the Rust library (the ``topoembed`` CLI's own
code): topologies from specs, embeddings, their metrics, device meshes for
JAX and the general mapper for any weighted graph. Arrays come back as
numpy arrays; documents (metrics, comparisons, device meshes) as the dicts
the CLI prints with ``--format json``, under the same keys. Errors raise
``ValueError`` with the CLI's messages. Long calls release the GIL.

>>> import topoembed
>>> torus = topoembed.topology("torus:8x8")
>>> e = topoembed.embed("cube:6", torus, "xor")
>>> topoembed.metrics("cube:6", torus, method="xor")["dilation"]["max"]
2
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _topoembed

__version__ = _topoembed.__version__

__all__ = [
    "Topology",
    "Embedding",
    "topology",
    "graph",
    "methods",
    "embed",
    "metrics",
    "compare",
    "device_mesh",
    "jax_mesh",
    "torch_mesh",
    "map_graph",
    "optimal",
    "verify_certificate",
    "simulate",
    "read_graph",
    "write_graph",
    "read_mapping",
    "write_mapping",
    "write_launch",
    "write_simgrid",
]

TopologyLike = Union[str, "Topology"]


class Topology:
    """A guest or host: ``spec``, ``nodes``, ``edges``, ``diameter``,
    ``is_weighted``, and batch queries that take node ids or numpy arrays
    (``distance``, ``coords``, ``neighbors``, ``csr``, ``loads``). Made by
    :func:`topology`, :func:`graph` or :func:`read_graph`."""

    __slots__ = ("_native",)

    def __init__(self, native: Any):
        self._native = native

    @property
    def spec(self) -> str:
        """The spec, as the CLI writes it (``torus:8x8``, ``graph:mesh.graph``)."""
        return self._native.spec

    @property
    def nodes(self) -> int:
        """Number of nodes."""
        return self._native.nodes

    @property
    def edges(self) -> int:
        """Number of undirected edges."""
        return self._native.edges

    @property
    def diameter(self) -> int:
        """The longest shortest path (hops, or link costs on a weighted graph)."""
        return self._native.diameter

    @property
    def is_weighted(self) -> bool:
        """Whether nodes carry loads or edges volumes."""
        return self._native.is_weighted

    def distance(self, a: Any, b: Any) -> Union[int, np.ndarray]:
        """Distance (hops, or link costs on a weighted graph) between ``a``
        and ``b``: two node ids give an int, arrays (broadcast together) a
        uint64 array of their shape."""
        a_ids, b_ids = np.broadcast_arrays(_node_ids(a, "a"), _node_ids(b, "b"))
        out = self._native.distances(
            np.ascontiguousarray(a_ids.ravel()), np.ascontiguousarray(b_ids.ravel())
        )
        if a_ids.ndim == 0:
            return int(out[0])
        return out.reshape(a_ids.shape)

    def coords(self, nodes: Any) -> np.ndarray:
        """Coordinates of a node (1-D) or of an array of nodes (one row each):
        grid coordinates with the first axis fastest, a cube node's bits."""
        ids = _node_ids(nodes, "nodes")
        rows = self._native.coords(np.ascontiguousarray(ids.ravel()))
        if ids.ndim == 0:
            return rows[0]
        return rows.reshape(ids.shape + (rows.shape[1],))

    def neighbors(self, node: int) -> np.ndarray:
        """The neighbours of ``node``, ascending (uint64)."""
        return self._native.neighbors(int(_node_ids(node, "node")))

    def loads(self) -> np.ndarray:
        """Every node's load (1 each when the topology has none)."""
        return self._native.loads()

    def csr(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(indptr, indices, volumes)``: the graph in CSR form, every edge
        in both directions, volumes 1 when it has none. With scipy:
        ``scipy.sparse.csr_matrix((volumes, indices, indptr))``."""
        return self._native.csr()

    def __len__(self) -> int:
        return self.nodes

    def __repr__(self) -> str:
        return f"topoembed.topology({self.spec!r})"


def topology(spec: TopologyLike) -> Topology:
    """The topology a spec names: ``cube:10``, ``ring:64``, ``torus:16x16``,
    ``mesh:8x8x4``, ``bintree:32``, ``tleaf:4x8x8:100,10,1``, a Scotch
    target (``FILE.tgt``) or a graph file (``graph:FILE``)."""
    if isinstance(spec, Topology):
        return spec
    if not isinstance(spec, str):
        raise ValueError(
            f"a topology is a spec string such as 'torus:8x8' or a topoembed.Topology, not {type(spec).__name__}"
        )
    return Topology(_topoembed.topology(spec))


def _node_ids(values: Any, what: str) -> np.ndarray:
    """Node ids as a uint64 array (negative or fractional ids refused)."""
    array = np.asarray(values)
    if array.dtype == np.uint64:
        return array
    if array.dtype.kind == "b" or (array.dtype.kind not in "iu" and array.size > 0):
        raise ValueError(f"{what}: node ids are whole numbers, not {array.dtype}")
    if array.size and array.min() < 0:
        raise ValueError(f"{what}: node ids are 0 or more (found {array.min()})")
    return array.astype(np.uint64)


def graph(
    data: Any,
    weights: Optional[Any] = None,
    loads: Optional[Any] = None,
    nodes: Optional[int] = None,
    name: str = "python",
) -> Topology:
    """A guest graph held in memory, for :func:`map_graph` and :func:`metrics`.

    ``data`` is a square scipy.sparse matrix (the graph of its symmetrised
    pattern, values as volumes: what ``graph:FILE.mtx`` reads), an ``m x 2``
    array of edges (node ids from 0) with ``weights`` one volume per edge (or
    the pair ``(edges, weights)``), or an existing :class:`Topology`. ``loads`` gives every node a load.
    """
    if isinstance(data, Topology):
        return data
    if isinstance(data, tuple) and len(data) == 2 and weights is None:
        data, weights = data  # (edges, weights)
    load_array = None
    if loads is not None:
        load_array = _whole(loads, "loads")
    if hasattr(data, "tocoo") and hasattr(data, "shape"):
        matrix = data.tocoo()
        if matrix.shape[0] != matrix.shape[1]:
            raise ValueError(f"the matrix is {matrix.shape[0]} x {matrix.shape[1]}; a graph needs a square matrix")
        values = None
        if matrix.dtype != bool:
            values = np.ascontiguousarray(np.abs(np.asarray(matrix.data, dtype=np.float64)))
        return Topology(_topoembed.graph_from_matrix(
            int(matrix.shape[0]),
            np.ascontiguousarray(matrix.row, dtype=np.uint64),
            np.ascontiguousarray(matrix.col, dtype=np.uint64),
            values,
            load_array,
            name,
        ))
    edges = _node_ids(data, "edges")
    if edges.ndim != 2 or edges.shape[1] != 2:
        raise ValueError(f"edges has shape {edges.shape}; give an m x 2 array of node ids or a scipy.sparse matrix")
    if nodes is None:
        nodes = int(edges.max()) + 1 if edges.size else 0
        if load_array is not None:
            nodes = max(nodes, len(load_array))
    volume_array = None
    if weights is not None:
        volume_array = _whole(weights, "weights")
    return Topology(
        _topoembed.graph_from_edges(np.ascontiguousarray(edges), int(nodes), volume_array, load_array, name)
    )


def _whole(values: Any, what: str) -> np.ndarray:
    """Volumes or loads as a uint64 array: whole numbers, 0 or more."""
    array = np.asarray(values)
    if array.dtype.kind == "f":
        if not np.all(np.isfinite(array)) or np.any(array != np.round(array)):
            raise ValueError(f"{what}: whole numbers of bytes or messages, not fractions")
    elif array.dtype.kind not in "iu":
        raise ValueError(f"{what}: whole numbers, not {array.dtype}")
    if array.size and array.min() < 0:
        raise ValueError(f"{what}: 0 or more (found {array.min()})")
    return np.ascontiguousarray(array.astype(np.uint64).ravel())


def methods() -> List[Dict[str, str]]:
    """Every embedding method: ``name``, ``guest``, ``host``,
    ``preconditions``, ``summary`` (as ``topoembed methods --format json``)."""
    return json.loads(_topoembed.methods_json())


class Embedding:
    """An embedding of a guest onto a host.

    ``map[v]`` is the host node of guest node v (uint64); ``inverse[h]`` the
    (first) guest node on host node h, -1 where none (int64); ``notes`` what
    the method says of itself; ``method`` its name.
    """

    def __init__(self, guest: Topology, host: Topology, map: np.ndarray, inverse: np.ndarray, notes: List[str], method: str):
        self.guest = guest
        self.host = host
        self.map = map
        self.inverse = inverse
        self.notes = notes
        self.method = method

    def __repr__(self) -> str:
        return f"<Embedding {self.method}: {self.guest.spec} -> {self.host.spec}>"


def embed(guest: TopologyLike, host: TopologyLike, method: str, **options: Any) -> Embedding:
    """Builds an embedding by ``method`` (see :func:`methods`). Options as on
    the CLI: ``partition="consecutive"|"cyclic"`` and ``hamiltonian=True``
    (``split``), ``objective="load"|"dilation"|"congestion"`` (``auto``)."""
    g, h = topology(guest), topology(host)
    mapping, inverse, notes, name = _topoembed.embed(g._native, h._native, method, **_method_options(options))
    return Embedding(g, h, mapping, inverse, notes, name)


def _method_options(options: Dict[str, Any]) -> Dict[str, Any]:
    allowed = {"partition", "hamiltonian", "objective"}
    unknown = set(options) - allowed
    if unknown:
        raise ValueError(f"unknown option(s) {sorted(unknown)}; methods take {sorted(allowed)}")
    return options


def metrics(
    guest: TopologyLike,
    host: TopologyLike,
    method: Optional[str] = None,
    mapping: Optional[Any] = None,
    ta: float = 0.0,
    tc: float = 1.0,
    traffic: bool = True,
    **options: Any,
) -> Dict[str, Any]:
    """Every metric of an embedding (``method=``) or of any placement
    (``mapping=``, the host node of every guest node): the dict of
    ``topoembed metrics --format json`` (``dilation``, ``hop_bytes``,
    ``congestion``, ``cc_time``, ...). ``ta``/``tc``: the CC-time model's
    compute and per-link costs; ``traffic=False`` skips routing."""
    g = graph(guest) if not isinstance(guest, str) else topology(guest)
    h = topology(host)
    array = None if mapping is None else np.ascontiguousarray(_node_ids(mapping, "mapping").ravel())
    text = _topoembed.metrics_json(
        g._native, h._native, method=method, mapping=array, ta=float(ta), tc=float(tc), traffic=bool(traffic), **_method_options(options)
    )
    return json.loads(text)


def compare(guest: TopologyLike, host: TopologyLike, ta: float = 0.0, tc: float = 1.0, traffic: bool = True) -> List[Dict[str, Any]]:
    """Every applicable method measured, one dict each (``best_cc_time``
    marks the least CC time), as ``topoembed compare --format json``:
    ``pandas.DataFrame(topoembed.compare(...))`` is a table."""
    return json.loads(_topoembed.compare_json(topology(guest)._native, topology(host)._native, float(ta), float(tc), bool(traffic)))


def _logical_text(logical: Union[str, Dict[str, int], Sequence[Tuple[str, int]], Sequence[int]]) -> str:
    if isinstance(logical, str):
        return logical
    if isinstance(logical, dict):
        items = list(logical.items())
    else:
        items = list(logical)
        if items and all(isinstance(x, (int, np.integer)) for x in items):
            return "x".join(str(int(x)) for x in items)
    return ",".join(f"{name}={int(size)}" for name, size in items)


def device_mesh(
    host: str,
    logical: Union[str, Dict[str, int], Sequence[Tuple[str, int]], Sequence[int]],
    weights: Optional[Union[str, Dict[str, float], Sequence[float]]] = None,
    lines: Union[str, Sequence[str]] = (),
    objective: Optional[str] = None,
) -> Tuple[np.ndarray, Dict[str, Any]]:
    """Lays a logical device mesh onto a physical torus or mesh, or onto a
    GPU cluster (``"fattree:2;4,4;1,2;1,1*tleaf:8:1"``: nodes of GPUs under
    a fat tree; see :func:`torch_mesh`).

    ``logical``: ``{"data": 4, "model": 8}``, ``"data=4,model=8"`` or a
    shape such as ``(4, 8)``; ``weights``: the share of traffic per axis;
    ``lines``: axes whose devices must form lines, not rings; ``objective``:
    ``"bandwidth"`` (the default: least congestion first), ``"latency"``
    (fewest hops first) or ``"balanced"``, what matters among the placements
    no other beats in both Σ max hops and Σ congestion. Returns the
    host node of every device as an array shaped like the logical mesh, and
    the figures of ``topoembed device-mesh --format json`` (per axis: hops,
    congestion, the lower bound, the row-major assignment's figures)."""
    logical_text = _logical_text(logical)
    weight_text = None
    if weights is not None:
        if isinstance(weights, str):
            weight_text = weights
        else:
            if isinstance(weights, dict):
                names = [part.split("=")[0] for part in logical_text.split(",")]
                unknown = set(weights) - set(names)
                if unknown or len(weights) != len(names):
                    raise ValueError(f"weights name the axes {sorted(weights)}; give one for each of {names}")
                weights = [weights[name] for name in names]
            weight_text = ",".join(repr(float(w)) for w in weights)
    line_text = lines if isinstance(lines, str) else ",".join(lines)
    figures = json.loads(
        _topoembed.device_mesh_json(host, logical_text, weight_text, line_text or None, objective)
    )
    return np.asarray(figures["mesh"], dtype=np.uint64), figures


def jax_mesh(
    devices: Sequence[Any],
    host: str,
    logical: Any,
    axis_names: Sequence[str],
    coords: Optional[Sequence[Sequence[int]]] = None,
) -> Any:
    """A ``jax.sharding.Mesh`` whose devices sit where :func:`device_mesh`
    places them: ``devices`` (e.g. ``jax.devices()``) are matched to host
    nodes by their ``coords`` (host axes, first fastest as in topoembed's
    numbering; two devices on one host node are refused), the device array
    is shaped like ``logical`` and named by ``axis_names``. ``coords``, one
    tuple per device, stands in for devices without them (CPU devices) or
    overrides theirs. jax is imported here only."""
    from jax.sharding import Mesh  # lazily: topoembed does not need jax

    mesh, figures = device_mesh(host, logical)
    sides = [int(s) for s in figures["host_sides"]]
    by_node: Dict[int, Any] = {}
    devices = list(devices)
    if coords is not None and len(coords) != len(devices):
        raise ValueError(f"{len(coords)} coords for {len(devices)} devices; give one tuple per device")
    for k, d in enumerate(devices):
        given = coords[k] if coords is not None else getattr(d, "coords", None)
        if given is None:
            raise ValueError(f"device {d} has no coords; pass coords=[(x, y, ...), ...] with one tuple per device")
        here = [int(c) for c in given]
        # A device on a lower-dimensional host (a 2-D slice of a 3-D torus)
        # gives trailing zeros.
        while len(here) > len(sides) and here[-1] == 0:
            here.pop()
        if len(here) != len(sides) or any(not 0 <= c < s for c, s in zip(here, sides)):
            raise ValueError(f"device {d} has coords {tuple(here)}, outside the host's sides {tuple(sides)}")
        node, stride = 0, 1
        for c, s in zip(here, sides):
            node += c * stride
            stride *= s
        if node in by_node:
            raise ValueError(
                f"devices {by_node[node]} and {d} share coords {tuple(here)}; one device per host node "
                "(several cores per chip: give one device per chip)"
            )
        by_node[node] = d
    if len(by_node) != mesh.size:
        raise ValueError(f"{len(by_node)} devices for a host of {mesh.size} nodes; give one device per node of {host}")
    if len(axis_names) != mesh.ndim:
        raise ValueError(f"{len(axis_names)} axis names for a {mesh.ndim}-axis logical mesh")
    array = np.empty(mesh.shape, dtype=object)
    for index, node in np.ndenumerate(mesh):
        array[index] = by_node[int(node)]
    return Mesh(array, tuple(axis_names))


def torch_mesh(
    host: str,
    logical: Union[str, Dict[str, int], Sequence[Tuple[str, int]], Sequence[int]],
    device_type: str = "cuda",
    mesh_dim_names: Optional[Sequence[str]] = None,
    rank_of_node: Optional[Union[Sequence[int], Dict[int, int]]] = None,
    **options: Any,
) -> Any:
    """A ``torch.distributed.device_mesh.DeviceMesh`` whose ranks sit where
    :func:`device_mesh` places them on ``host`` (a cluster such as
    ``"fattree:2;4,4;1,2;1,1*tleaf:8:1"``, 16 nodes of 8 GPUs, or a torus).

    PyTorch's ``init_device_mesh`` reshapes the ranks row-major; this builds
    ``DeviceMesh(device_type, ranks, mesh_dim_names=...)`` from the placement
    instead. ``ranks`` is the placement's host node ids, through
    ``rank_of_node`` (a list or dict: host node -> global rank) when given.
    Without it, host node n*G + g (GPU g of network node n) is rank n*G + g:
    torchrun's ranks (node_rank*nproc_per_node + local_rank) when each
    node's ``--node-rank`` follows the network's order. The names are
    ``mesh_dim_names``, else the logical axes' names. ``options`` go to
    :func:`device_mesh` (``weights``, ``lines``, ``objective``). Call it in
    every rank after ``torch.distributed.init_process_group``; torch is
    imported here only."""
    from torch import as_tensor, int64  # lazily: topoembed does not need torch
    from torch.distributed.device_mesh import DeviceMesh

    mesh, figures = device_mesh(host, logical, **options)
    names = list(mesh_dim_names) if mesh_dim_names is not None else [a["name"] for a in figures["logical"]]
    if len(names) != mesh.ndim:
        raise ValueError(f"{len(names)} mesh_dim_names for a {mesh.ndim}-axis logical mesh")
    ranks = mesh.astype(np.int64)
    if rank_of_node is not None:
        table = dict(rank_of_node) if isinstance(rank_of_node, dict) else dict(enumerate(rank_of_node))
        missing = sorted({int(n) for n in mesh.flat} - set(table))
        if missing:
            raise ValueError(f"rank_of_node gives no rank for host node(s) {missing[:8]}; give one for each of the {mesh.size} host nodes")
        ranks = np.vectorize(lambda n: int(table[int(n)]), otypes=[np.int64])(mesh)
        if len(set(ranks.flat)) != ranks.size:
            raise ValueError("rank_of_node gives two host nodes the same rank; give each its own")
    return DeviceMesh(device_type, as_tensor(ranks, dtype=int64), mesh_dim_names=tuple(names))


def map_graph(
    graph_or_matrix: Any,
    host: TopologyLike,
    weights: Optional[Any] = None,
    loads: Optional[Any] = None,
    imbalance: float = 0.03,
    seed: int = 1,
    passes: int = 0,
    restarts: int = 0,
    objective: str = "hop-bytes",
    traffic: bool = True,
    summary: Optional[str] = None,
    latency_bytes: int = 10000,
    preset: str = "default",
) -> Dict[str, Any]:
    """The general mapper: any weighted graph onto any host (``topoembed map``).

    ``graph_or_matrix``: a scipy.sparse matrix, an ``m x 2`` edge array (with
    ``weights``) or the pair ``(edges, weights)``, a :class:`Topology` or a
    spec/``graph:FILE`` string. Returns
    the dict of ``topoembed map --format json``: ``map`` (numpy, the host node
    of every guest node), ``metrics``, ``baselines`` (identity or blocks, and
    round-robin), ``capacity``, ``seconds``, ``guest``, ``host``, ``imbalance``,
    ``seed``. With ``summary`` (the ``FILE.json`` a recording writes beside
    its graph, which must then be the guest: ``"graph:FILE"``), the placement
    of least predicted cost as ``topoembed map --summary`` chooses it, and
    ``summary``: its candidates and their predicted costs (``latency_bytes``:
    what one hop's latency is worth in bytes). ``passes`` and ``restarts``:
    0 (the default) chooses by guest size, structure and host, as
    ``topoembed map`` does. ``preset``: ``"default"``, ``"fast"`` for
    about 40 % less time at about 3 % more hop-bytes, or ``"strong"``: every
    border vertex a k-way FM seed at every level and the parts laid out four
    times, for 2-4x the time (``map --preset``)."""
    if isinstance(graph_or_matrix, str):
        g = topology(graph_or_matrix)
    else:
        g = graph(graph_or_matrix, weights=weights, loads=loads)
    h = topology(host)
    hosts, measured, others, capacity, seconds, chosen = _topoembed.map_graph(
        g._native,
        h._native,
        float(imbalance),
        int(seed),
        int(passes),
        int(restarts),
        objective,
        bool(traffic),
        None if summary is None else str(summary),
        int(latency_bytes),
        str(preset),
    )
    result = {
        "guest": g.spec,
        "host": h.spec,
        "imbalance": float(imbalance),
        "capacity": capacity,
        "seed": int(seed),
        "preset": str(preset),
        "seconds": seconds,
        "map": hosts,
        "metrics": json.loads(measured),
        "baselines": json.loads(others),
    }
    if chosen is not None:
        result["summary"] = json.loads(chosen)
    return result


def optimal(
    guest: str,
    host: str,
    *,
    distances: Optional[Sequence[int]] = None,
    whole_tree: bool = False,
    all_bijections: bool = False,
    node_limit: int = 0,
    certificate: Optional[str] = None,
    checkpoint: Optional[str] = None,
    bounds: str = "energy",
    decide_by: Optional[str] = None,
    force: bool = False,
) -> Dict[str, Any]:
    """The least Σ D_i over all constant-distance embeddings of
    ``cube:D`` onto a ring or torus, beside xor's and standard's: what
    ``topoembed optimal`` answers, from the same library call.

    The default searches vector by vector after the bounds; ``distances``
    decides one distance vector, ``whole_tree`` runs one branch and bound
    over everything, ``all_bijections`` the least CC time over all
    bijections (d ≤ 5). ``certificate`` writes a certificate into that
    folder (check it with :func:`verify_certificate`); ``decide_by`` is
    ``"turns"``, ``"search"`` or ``"solver"``. A search estimated beyond
    the work limit (``TOPOEMBED_WORK_LIMIT`` seconds, 10 minutes by
    default) raises ``ValueError`` unless ``force``.

    Returns a dict with ``method`` (``vectors``, ``whole-tree``,
    ``all-bijections``, ``one-vector``) and the answer: for ``vectors``,
    ``search`` (``optimum`` with ``min_sum``, ``distances``, ``xor_sum``,
    ``proved``, ..; every vector ``refuted``) and ``tally`` (how they
    fell); ``optimum``, ``best`` or ``decision`` for the others."""
    if whole_tree and all_bijections:
        raise ValueError("give whole_tree or all_bijections, not both")
    if distances is not None and (whole_tree or all_bijections):
        raise ValueError("distances decides one vector: leave whole_tree and all_bijections off")
    method = "whole-tree" if whole_tree else "all-bijections" if all_bijections else "vectors"
    if distances is not None:
        distances = [int(x) for x in distances]
        if any(x < 1 for x in distances):
            raise ValueError(f"distances {distances}: each is at least 1")
    if node_limit < 0:
        raise ValueError(f"node_limit {node_limit}: give 0 (no limit) or more")
    return json.loads(
        _topoembed.optimal_json(
            guest,
            host,
            method,
            distances,
            int(node_limit),
            None if certificate is None else str(certificate),
            None if checkpoint is None else str(checkpoint),
            bounds,
            decide_by,
            bool(force),
        )
    )


def verify_certificate(path: str, dimacs: bool = False, checker: Optional[Sequence[str]] = None) -> Dict[str, Any]:
    """Checks the certificate in folder ``path`` as ``topoembed
    verify-certificate`` does (the embedding, the bounds recomputed, every
    DRAT proof; with ``checker``, e.g. ``["drat-trim"]``, by that program)
    and returns what it found (``lower_bound``, ``complete``, ``by_proofs``,
    ..); a certificate that does not hold raises ``ValueError``."""
    return json.loads(
        _topoembed.verify_certificate_json(
            str(path), bool(dimacs), None if checker is None else [str(c) for c in checker]
        )
    )


def simulate(
    algorithm: str,
    guest: TopologyLike,
    host: TopologyLike,
    method: str,
    *,
    n: Optional[Union[int, str]] = None,
    iterations: int = 4,
    trace: Optional[str] = None,
    mode: str = "saf",
    duplex: str = "full",
    contention: bool = True,
    ta: float = 0.0,
    tc: float = 1.0,
    tb: float = 0.0,
    th: float = 0.0,
    links: int = 5,
    force: bool = False,
) -> Dict[str, Any]:
    """An algorithm's messages (``cannon``, ``fft``, ``bitonic``,
    ``allreduce``, or ``halo`` over the guest's edges) placed by ``method``
    and simulated on the host network, link by link with contention: the
    dict of ``topoembed simulate --format json`` (``makespan``,
    ``makespan_without_contention``, ``cc_recurrence``, ``delayed_messages``,
    ``busiest_links``, ...), from the same library call
    (``topoembed::workload::run``). ``n``: the problem size as ``run``
    takes it; ``trace``: ``"run"`` or ``"cc"``; ``mode``: ``"saf"`` or
    ``"cut-through"`` (with ``th``); ``duplex``: ``"full"`` or ``"half"``.
    A simulation estimated beyond the work limit raises ``ValueError``
    unless ``force``."""
    if iterations < 0 or links < 0:
        raise ValueError("iterations and links are 0 or more")
    return json.loads(
        _topoembed.simulate_json(
            str(algorithm),
            topology(guest)._native,
            topology(host)._native,
            str(method),
            None if n is None else str(n),
            int(iterations),
            trace,
            mode,
            duplex,
            bool(contention),
            float(ta),
            float(tc),
            float(tb),
            float(th),
            int(links),
            bool(force),
        )
    )


def read_graph(path: str) -> Topology:
    """Reads a graph file as ``graph:FILE`` does: Scotch ``.grf``, METIS
    ``.graph``, Matrix Market ``.mtx`` or an edge list."""
    return Topology(_topoembed.read_graph(str(path)))


def write_graph(topology_: TopologyLike, path: str, format: str = "grf") -> None:
    """Writes a topology as a Scotch ``.grf`` (``format="grf"``), METIS
    (``"metis"``) or Matrix Market (``"mtx"``) file, loads and volumes kept;
    or a host as a Scotch target (``"tgt"``)."""
    _topoembed.write_graph(topology(topology_)._native, str(path), format)


def read_mapping(path: str, guest: TopologyLike, host: TopologyLike) -> np.ndarray:
    """Reads a Scotch ``.map`` of ``guest`` onto ``host``: the host node of
    every guest node."""
    return _topoembed.read_mapping(str(path), topology(guest)._native, topology(host)._native)


def write_mapping(path: str, mapping: Any) -> None:
    """Writes a Scotch ``.map``: guest node v (its label) on ``mapping[v]``."""
    _topoembed.write_mapping(str(path), np.ascontiguousarray(_node_ids(mapping, "mapping").ravel()))


def write_launch(
    path: str,
    mapping: Any,
    format: str,
    hostfile: Optional[str] = None,
    nodes: Optional[str] = None,
    slots_per_node: int = 1,
    prefix: str = "node-",
) -> None:
    """Writes what a launcher reads to run rank r on host node ``mapping[r]``,
    as ``topoembed map --format FORMAT``: ``"rankfile"`` (Open MPI ``-rf``),
    ``"seq"`` (one host per rank: ``--map-by seq``, Slurm's arbitrary
    distribution), ``"machinefile"`` (MPICH/Hydra, Intel), ``"cray-rank-order"``
    (``MPICH_RANK_ORDER``) — the slots from an Open MPI ``hostfile`` or a Slurm
    hostlist ``nodes="node[01-16]"`` with ``slots_per_node`` — or
    ``"smpi-hostfile"`` (line r = ``prefix`` + host node, for the SimGrid
    platform :func:`write_simgrid` writes)."""
    _topoembed.write_launch(
        str(path),
        np.ascontiguousarray(_node_ids(mapping, "mapping").ravel()),
        format,
        None if hostfile is None else str(hostfile),
        nodes,
        int(slots_per_node),
        prefix,
    )


def write_simgrid(
    host: TopologyLike,
    path: str,
    prefix: str = "node-",
    bandwidth: str = "10GBps",
    latency: str = "1us",
    speed: str = "1Gf",
    explicit_routes: bool = False,
) -> None:
    """Writes the SimGrid platform of ``host`` (``topoembed export HOST
    --format simgrid``): rings, tori and hypercubes as TORUS clusters (or, with
    ``explicit_routes``, links and topoembed's routes), every other host as
    its links with topoembed's routes (up to 256 nodes; SimGrid's shortest
    paths above); host node i is ``prefix`` + i."""
    _topoembed.write_simgrid(
        topology(host)._native, str(path), prefix, bandwidth, latency, speed, bool(explicit_routes)
    )
