//! One node as hwloc describes it ([`crate::io::hwloc`]): the leaves (PUs
//! or cores) of its tree, two of them as far apart as the tree path between
//! them — 2 for two threads of a core, 2 more for each level further up
//! their nearest common object (core, shared cache, NUMA group, die,
//! package, machine), single-child levels merged. Where the file has NUMA
//! latencies, a pair in different NUMA nodes a and b is that path scaled
//! by (latency(a, b) + latency(b, a)) / (latency(a, a) + latency(b, b)),
//! rounded: a remote node twice as far in latency doubles the distance. As for a tleaf, every two leaves are
//! one "edge" and there are no links to route over (no congestion).

use std::ops::Range;

use super::network::PairGraph;
use super::{EdgeBuffer, Topology};
use crate::io::HwlocTree;
use crate::spec::Spec;

/// A node read from hwloc (module docs).
#[derive(Debug, Clone)]
pub struct Hwloc {
    spec: Spec,
    tree: HwlocTree,
    diameter: u64,
}

impl Hwloc {
    /// The node of `tree`, named `spec`.
    pub fn new(spec: Spec, tree: HwlocTree) -> Hwloc {
        let mut hwloc = Hwloc {
            spec,
            tree,
            diameter: 0,
        };
        let n = hwloc.node_count();
        // Leaves that part highest are first and last in tree order only
        // on regular trees; try every pair on small nodes, the first leaf
        // against all on large ones (scaled NUMA pairs included).
        hwloc.diameter = if n <= 2048 {
            (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .map(|(a, b)| hwloc.distance(a, b))
                .max()
                .unwrap_or(0)
        } else {
            (0..n)
                .map(|b| hwloc.distance(0, b).max(hwloc.distance(n - 1, b)))
                .max()
                .unwrap_or(0)
        };
        hwloc
    }

    /// The tree read.
    pub fn tree(&self) -> &HwlocTree {
        &self.tree
    }

    /// Edges of the tree path between leaves `a` and `b`.
    fn tree_distance(&self, a: u64, b: u64) -> u64 {
        if a == b {
            return 0;
        }
        let (x, y) = (&self.tree.paths[a as usize], &self.tree.paths[b as usize]);
        let common = x.iter().zip(y).take_while(|(p, q)| p == q).count();
        (x.len() + y.len() + 2 - 2 * common) as u64
    }

    /// Depth of the nearest common object of `a` and `b` (0: the root).
    fn common_depth(&self, a: u64, b: u64) -> u32 {
        let (x, y) = (&self.tree.paths[a as usize], &self.tree.paths[b as usize]);
        x.iter()
            .zip(y)
            .take_while(|(p, q)| p == q)
            .count()
            .saturating_sub(1) as u32
    }

    fn pairs(&self) -> PairGraph {
        PairGraph {
            leaves: self.node_count(),
        }
    }
}

impl Topology for Hwloc {
    super::network::pair_graph_methods!();
    fn spec(&self) -> &Spec {
        &self.spec
    }
    fn node_count(&self) -> u64 {
        self.tree.paths.len() as u64
    }
    fn diameter(&self) -> u64 {
        self.diameter
    }
    fn distance(&self, a: u64, b: u64) -> u64 {
        let d = self.tree_distance(a, b);
        let (Some((n, latency)), Some(x), Some(y)) = (
            &self.tree.latency,
            self.tree.numa[a as usize],
            self.tree.numa[b as usize],
        ) else {
            return d;
        };
        if x == y {
            return d;
        }
        let own = latency[x * n + x] + latency[y * n + y];
        let there = latency[x * n + y] + latency[y * n + x];
        // At least 1: two leaves are never at one place.
        ((d * there + own / 2) / own).max(1)
    }
    /// The index under each merged level, top first (padded with 0).
    fn coords(&self, v: u64) -> Vec<u64> {
        self.tree.positions[v as usize]
            .iter()
            .map(|&p| u64::from(p))
            .collect()
    }
    /// One class per depth of the nearest common object.
    fn edge_classes(&self) -> u32 {
        self.tree
            .paths
            .iter()
            .map(Vec::len)
            .max()
            .unwrap_or(1)
            .max(1) as u32
    }
    fn push_edges(&self, nodes: Range<u64>, edges: &mut EdgeBuffer) {
        self.pairs()
            .push_edges(nodes, edges, |u, v| self.common_depth(u, v));
    }
}
