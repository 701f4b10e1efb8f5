//! Topologies: guests and hosts, all behind one trait.
//!
//! Every family is *implicit* (a hypercube of 2^30 nodes is one integer) except
//! [`Graph`], the stored CSR graph used for `graph:` files and as the BFS oracle
//! of the tests. One file per family, as Scotch has one `arch_*.c` per target.

mod allocation;
mod bintree;
mod cube;
mod describe;
mod graph;
mod grid;
mod hwloc;
mod network;
mod nodes;
mod paths;
mod slurm;
mod ties;
mod tleaf;

use std::ops::Range;

pub use allocation::Allocation;
pub use bintree::{heap_node, level_and_position, BinTree};
pub use cube::Cube;
pub use describe::describe_model;
pub use graph::Graph;
pub use grid::Grid;
pub(crate) use grid::Leg;
pub use hwloc::Hwloc;
pub use network::dragonfly::Dragonfly;
pub use network::fattree::FatTree;
pub use network::{HostLinks, Network};
pub use nodes::Nodes;
pub use paths::Paths;
pub use slurm::Slurm;
pub use ties::TieRule;
pub use tleaf::{Tleaf, MAX_TLEAF_LEAVES};

use crate::error::{Error, Result};

use crate::spec::Spec;

/// A graph with numbered nodes `0..node_count()`.
///
/// Node ids are `u64`; grid nodes are numbered with the first axis fastest
/// (DESIGN.md): `(i1, i2, ..)` has index `i1 + K1*(i2 + K2*(..))`.
pub trait Topology: Send + Sync {
    /// The spec this topology was built from.
    fn spec(&self) -> &Spec;
    /// Number of nodes.
    fn node_count(&self) -> u64;
    /// Number of (undirected, simple) edges.
    fn edge_count(&self) -> u64;
    /// Largest distance between two nodes.
    fn diameter(&self) -> u64;
    /// An upper bound on every distance, cheap to compute (sizes counters).
    /// Implicit topologies return their diameter.
    fn distance_bound(&self) -> u64 {
        self.diameter()
    }
    /// Length of a shortest path between `a` and `b`.
    fn distance(&self, a: u64, b: u64) -> u64;
    /// `out[k] = distance(a[k], b[k])`. Implementations get a monomorphised
    /// loop from this default, so one virtual call serves a whole batch.
    fn distances(&self, a: &[u64], b: &[u64], out: &mut [u64]) {
        for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
            *o = self.distance(x, y);
        }
    }
    /// Coordinates of a node: grid axes (axis 1 first), cube bits (bit 0 first),
    /// tree (level, position in level), graph (node id).
    fn coords(&self, v: u64) -> Vec<u64>;
    /// The neighbours of `v`, each once.
    fn neighbors(&self, v: u64) -> Vec<u64>;
    /// Number of neighbours of `v`.
    fn degree(&self, v: u64) -> u64 {
        self.neighbors(v).len() as u64
    }
    /// Number of edge classes: cube dimensions, grid axes, tree levels; 1 for graphs.
    fn edge_classes(&self) -> u32;
    /// Appends every edge whose owner `u` lies in `nodes` to `edges`. Every edge
    /// has exactly one owner, its lower-numbered end, so `u < v`; disjoint node
    /// ranges give disjoint edge sets, which is how metrics split the work
    /// between threads without materialising the graph.
    fn push_edges(&self, nodes: Range<u64>, edges: &mut EdgeBuffer);
    /// Appends to `path` the nodes after `a` on the route of the family's
    /// routing model from `a` to `b`, ending with `b` (nothing when `a == b`).
    /// Routes are shortest paths and visit no node twice:
    /// grids route dimension-order (axis 1 first), the shorter way round each
    /// ring, `ties` deciding between two equal ways; hypercubes route e-cube
    /// (lowest differing bit first); trees take the unique path; stored graphs
    /// step to the lowest-numbered neighbour that is one hop closer.
    fn route(&self, a: u64, b: u64, ties: TieRule, path: &mut Vec<u64>);
    /// Size of the link numbering of [`Topology::link_slot`] (at least the edge count).
    fn link_slots(&self) -> u64;
    /// A number in `0..link_slots()` for the link between adjacent `u` and `v`,
    /// the same for both orders; `None` when they are not adjacent.
    fn link_slot(&self, u: u64, v: u64) -> Option<u64>;
    /// True when edges carry volumes or nodes carry loads other than 1
    /// (stored graphs read from weighted files).
    fn is_weighted(&self) -> bool {
        false
    }
    /// Load of node `v` (1 unless the graph gives loads).
    fn load(&self, _v: u64) -> u64 {
        1
    }
    /// Σ load over all nodes.
    fn total_load(&self) -> u128 {
        u128::from(self.node_count())
    }
    /// Σ volume over all edges (the edge count when edges carry no volumes).
    fn total_volume(&self) -> u128 {
        u128::from(self.edge_count())
    }
    /// The stored graph behind this topology, for `graph:` files.
    fn as_graph(&self) -> Option<&Graph> {
        None
    }
    /// The network of switches or routers that joins the host nodes, for
    /// hosts whose links are not between host nodes (fat trees,
    /// dragonflies): the traffic metrics route over its links, and the
    /// host's own edges are then only the pairs of host nodes.
    fn network(&self) -> Option<&dyn Network> {
        None
    }
    /// Node names, for hosts whose nodes have them (Slurm topologies):
    /// allocations may list nodes by name.
    fn node_names(&self) -> Option<&[String]> {
        None
    }
    /// Calls `f(u, v, class)` for every edge owned by a node of `nodes`.
    fn for_each_edge(&self, nodes: Range<u64>, f: &mut dyn FnMut(u64, u64, u32)) {
        let mut edges = EdgeBuffer::default();
        let mut start = nodes.start;
        while start < nodes.end {
            let end = nodes.end.min(start + 1024);
            edges.clear();
            self.push_edges(start..end, &mut edges);
            for k in 0..edges.len() {
                f(edges.u[k], edges.v[k], edges.class[k]);
            }
            start = end;
        }
    }
}

/// Edges in struct-of-arrays form: `(u[k], v[k])` of class `class[k]` and
/// volume `volume[k]` — the volumes only for weighted graphs, which push
/// every edge with [`EdgeBuffer::push_weighted`]; empty means volume 1 each.
#[derive(Debug, Default, Clone)]
pub struct EdgeBuffer {
    /// Owner ends (the lower-numbered end).
    pub u: Vec<u64>,
    /// Other ends.
    pub v: Vec<u64>,
    /// Edge classes: cube dimension, grid axis, tree level.
    pub class: Vec<u32>,
    /// Edge volumes (weighted graphs only).
    pub volume: Vec<u64>,
}

impl EdgeBuffer {
    /// Appends one edge.
    #[inline(always)]
    pub fn push(&mut self, u: u64, v: u64, class: u32) {
        self.u.push(u);
        self.v.push(v);
        self.class.push(class);
    }
    /// Appends one edge with its volume.
    #[inline(always)]
    pub fn push_weighted(&mut self, u: u64, v: u64, class: u32, volume: u64) {
        self.push(u, v, class);
        self.volume.push(volume);
    }
    /// Volume of edge k (1 when the buffer holds no volumes).
    #[inline(always)]
    pub fn volume(&self, k: usize) -> u64 {
        self.volume.get(k).copied().unwrap_or(1)
    }
    /// Number of edges held.
    pub fn len(&self) -> usize {
        self.u.len()
    }
    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.u.is_empty()
    }
    /// Forgets the edges, keeps the memory.
    pub fn clear(&mut self) {
        self.u.clear();
        self.v.clear();
        self.class.clear();
        self.volume.clear();
    }
}

/// Builds the topology a spec describes (reading the file for `graph:`).
pub fn build(spec: &Spec) -> Result<Box<dyn Topology>> {
    Ok(match spec {
        Spec::Cube(d) => Box::new(Cube::new(*d)),
        Spec::BinTree(p) => Box::new(BinTree::new(*p)),
        Spec::Tleaf(sizes, costs) => Box::new(Tleaf::new(sizes, costs)),
        Spec::FatTree(shape) => Box::new(FatTree::new(shape)),
        Spec::Dragonfly(shape) => Box::new(Dragonfly::new(shape)),
        Spec::Allocation(host, nodes) => Box::new(Allocation::new(build(host)?, nodes)?),
        Spec::Nodes(network, node) => {
            let (network, node) = (build(network)?, build(node)?);
            let leaves = network.node_count().checked_mul(node.node_count());
            if !matches!(leaves, Some(n) if n <= MAX_TLEAF_LEAVES) {
                return Err(Error::Spec(format!(
                    "{spec}: {} nodes of {} leaves each is more than 2^24 leaves; a network of \
                     nodes holds at most 2^24",
                    network.node_count(),
                    node.node_count()
                )));
            }
            Box::new(Nodes::new(spec.clone(), network, node))
        }
        Spec::Slurm(path, name) => Box::new(Slurm::new(
            spec.clone(),
            crate::io::read_slurm(path, name.as_deref())?,
        )),
        Spec::Hwloc(path, leaves) => Box::new(Hwloc::new(
            spec.clone(),
            crate::io::read_hwloc(path.as_deref(), *leaves)?,
        )),
        Spec::Graph(path) if crate::io::is_scotch_graph(path) => {
            Box::new(crate::io::read_graph(path)?.graph)
        }
        Spec::Graph(path) if crate::io::is_metis_graph(path) => {
            Box::new(crate::io::read_metis(path)?.graph)
        }
        Spec::Graph(path) if crate::io::is_matrix_market(path) => {
            Box::new(crate::io::read_matrix_market(path)?.graph)
        }
        Spec::Graph(path) if crate::io::is_monitoring_profile(path) => {
            Box::new(crate::io::read_monitoring(path)?.graph)
        }
        Spec::Graph(path) if crate::io::is_dense_matrix(path) => {
            Box::new(crate::io::read_dense_matrix(path)?.graph)
        }
        Spec::Graph(path) => {
            // An edge list has two or three numbers a line; a first row of
            // more is a dense matrix (EZTrace's `.dat`, TreeMatch's files).
            let text = std::fs::read_to_string(path)
                .map_err(|e| Error::File(format!("{}: cannot read: {e}", path.display())))?;
            if !crate::io::looks_dense(&text) {
                return Ok(Box::new(Graph::parse_edge_list(path, &text)?));
            }
            match crate::io::parse_dense_matrix(path, &text) {
                Ok(dense) => Box::new(dense.graph),
                // Neither: say what each reading found wrong.
                Err(dense) => {
                    let edges = Graph::parse_edge_list(path, &text)
                        .err()
                        .map_or_else(String::new, |e| e.to_string());
                    return Err(Error::File(format!(
                        "{edges}; nor is it a dense matrix (its first row has more than three \
                         numbers): {dense}"
                    )));
                }
            }
        }
        _ => Box::new(Grid::new(spec.clone())),
    })
}

/// Parses a spec and builds its topology.
pub fn parse(text: &str) -> Result<Box<dyn Topology>> {
    build(&text.parse()?)
}
