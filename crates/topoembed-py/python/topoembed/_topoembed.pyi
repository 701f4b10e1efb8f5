"""Type stubs of the native module (the Rust half of topoembed); the public
API is the package itself (``topoembed/__init__.py``), which wraps these."""

from os import PathLike
from typing import List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

U64 = npt.NDArray[np.uint64]

class Topology:
    @property
    def spec(self) -> str: ...
    @property
    def nodes(self) -> int: ...
    @property
    def edges(self) -> int: ...
    @property
    def diameter(self) -> int: ...
    @property
    def is_weighted(self) -> bool: ...
    def distances(self, a: U64, b: U64) -> U64: ...
    def coords(self, nodes: U64) -> U64: ...
    def neighbors(self, node: int) -> U64: ...
    def loads(self) -> U64: ...
    def csr(self) -> Tuple[U64, U64, U64]: ...
    def __len__(self) -> int: ...

def topology(spec: str) -> Topology: ...
def graph_from_edges(
    edges: npt.NDArray[np.uint64],
    nodes: int,
    volumes: Optional[U64] = None,
    loads: Optional[U64] = None,
    name: str = "edges",
) -> Topology: ...
def graph_from_matrix(
    size: int,
    rows: U64,
    cols: U64,
    values: Optional[npt.NDArray[np.float64]] = None,
    loads: Optional[U64] = None,
    name: str = "matrix",
) -> Topology: ...
def methods_json() -> str: ...
def embed(
    guest: Topology,
    host: Topology,
    method: str,
    partition: str = "consecutive",
    hamiltonian: bool = False,
    objective: Optional[str] = None,
) -> Tuple[U64, npt.NDArray[np.int64], List[str], str]: ...
def metrics_json(
    guest: Topology,
    host: Topology,
    method: Optional[str] = None,
    mapping: Optional[U64] = None,
    ta: float = 0.0,
    tc: float = 1.0,
    traffic: bool = True,
    partition: str = "consecutive",
    hamiltonian: bool = False,
    objective: Optional[str] = None,
) -> str: ...
def compare_json(guest: Topology, host: Topology, ta: float = 0.0, tc: float = 1.0, traffic: bool = True) -> str: ...
def device_mesh_json(host: str, logical: str, weights: Optional[str] = None, lines: Optional[str] = None) -> str: ...
def optimal_json(
    guest: str,
    host: str,
    method: str = "vectors",
    distances: Optional[Sequence[int]] = None,
    node_limit: int = 0,
    certificate: Optional[str] = None,
    checkpoint: Optional[str] = None,
    bounds: str = "energy",
    decide_by: Optional[str] = None,
    force: bool = False,
) -> str: ...
def verify_certificate_json(dir: str, dimacs: bool = False, checker: Optional[List[str]] = None) -> str: ...
def simulate_json(
    algorithm: str,
    guest: Topology,
    host: Topology,
    method: str,
    n: Optional[str] = None,
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
) -> str: ...
def map_graph(
    guest: Topology,
    host: Topology,
    imbalance: float = 0.03,
    seed: int = 1,
    passes: int = 0,
    restarts: int = 0,
    objective: str = "hop-bytes",
    traffic: bool = True,
    summary: Optional[Union[str, PathLike]] = None,
    latency_bytes: int = 10000,
    preset: str = "default",
) -> Tuple[U64, str, str, int, float, Optional[str]]: ...
def read_graph(path: Union[str, PathLike]) -> Topology: ...
def write_graph(topology: Topology, path: Union[str, PathLike], format: str) -> None: ...
def read_mapping(path: Union[str, PathLike], guest: Topology, host: Topology) -> U64: ...
def write_mapping(path: Union[str, PathLike], hosts: U64) -> None: ...
def write_launch(
    path: Union[str, PathLike],
    hosts: U64,
    format: str,
    hostfile: Optional[str] = None,
    nodes: Optional[str] = None,
    slots_per_node: int = 1,
    prefix: str = "node-",
) -> None: ...
def write_simgrid(
    host: Topology,
    path: Union[str, PathLike],
    prefix: str = "node-",
    bandwidth: str = "10GBps",
    latency: str = "1us",
    speed: str = "1Gf",
    explicit_routes: bool = False,
) -> None: ...
