//! A cluster as Slurm's topology file describes it ([`crate::io::slurm`]):
//! its nodes in the order the file names them, as far apart as the links
//! between them (tree: switch hops; block: block levels; ring and torus3d: positions).
//! As for a tleaf, every two nodes are one "edge" and there are no links to
//! route over; the nodes keep their names, so allocations may list them.

use std::ops::Range;

use super::network::PairGraph;
use super::{EdgeBuffer, Topology};
use crate::io::{SlurmLayout, SlurmTopology};
use crate::spec::Spec;

/// Largest partly filled torus whose diameter is found pair by pair.
const EXACT_DIAMETER_NODES: usize = 1 << 13;

/// A Slurm topology (module docs).
#[derive(Debug, Clone)]
pub struct Slurm {
    spec: Spec,
    topology: SlurmTopology,
    diameter: u64,
}

impl Slurm {
    /// The cluster of `topology`, named `spec`.
    pub fn new(spec: Spec, topology: SlurmTopology) -> Slurm {
        let mut slurm = Slurm {
            spec,
            topology,
            diameter: 0,
        };
        slurm.diameter = match &slurm.topology.layout {
            SlurmLayout::Tree { hops, .. } => {
                2 + u64::from(hops.iter().copied().max().unwrap_or(0))
            }
            // The first node is in the first block; the blocks farthest
            // from it are the last ones.
            SlurmLayout::Block { block, .. } => {
                let last = block.iter().copied().max().unwrap_or(0);
                let far = block.iter().position(|&b| b == last).unwrap_or(0) as u64;
                slurm.distance(0, far).max(2)
            }
            SlurmLayout::Ring { sizes, .. } => {
                let longest = u64::from(sizes.iter().copied().max().unwrap_or(0));
                if sizes.len() > 1 {
                    longest / 2 + 1
                } else {
                    longest / 2
                }
            }
            // Regions may leave places empty: the farthest pair present,
            // tried pair by pair up to EXACT_DIAMETER_NODES (above, the
            // whole torus's diameter, an upper bound, as for allocations).
            SlurmLayout::Torus { at, dims } if dims.len() == 1 => {
                let full = dims[0].iter().map(|&n| u64::from(n)).product::<u64>();
                if at.len() as u64 == full || at.len() > EXACT_DIAMETER_NODES {
                    torus_between(dims) - 1
                } else {
                    (0..at.len() as u64)
                        .flat_map(|a| (a + 1..at.len() as u64).map(move |b| (a, b)))
                        .map(|(a, b)| slurm.distance(a, b))
                        .max()
                        .unwrap_or(0)
                }
            }
            SlurmLayout::Torus { dims, .. } => torus_between(dims),
        };
        slurm
    }

    /// Node names, host node i's first.
    pub fn names(&self) -> &[String] {
        &self.topology.names
    }

    fn pairs(&self) -> PairGraph {
        PairGraph {
            leaves: self.node_count(),
        }
    }
}

impl Topology for Slurm {
    super::network::pair_graph_methods!();
    fn spec(&self) -> &Spec {
        &self.spec
    }
    fn node_count(&self) -> u64 {
        self.topology.names.len() as u64
    }
    fn diameter(&self) -> u64 {
        self.diameter
    }
    fn distance(&self, a: u64, b: u64) -> u64 {
        if a == b {
            return 0;
        }
        let (a, b) = (a as usize, b as usize);
        match &self.topology.layout {
            SlurmLayout::Tree {
                leaves,
                hops,
                count,
            } => {
                let best = leaves[a]
                    .iter()
                    .flat_map(|&x| leaves[b].iter().map(move |&y| (x, y)))
                    .map(|(x, y)| hops[x as usize * count + y as usize])
                    .min()
                    .unwrap_or(0);
                2 + u64::from(best)
            }
            SlurmLayout::Block { block, levels } => {
                let (x, y) = (u64::from(block[a]), u64::from(block[b]));
                if x == y {
                    return 2;
                }
                let level = levels
                    .iter()
                    .position(|&m| x / m == y / m)
                    .unwrap_or(levels.len());
                2 * (level as u64 + 2)
            }
            SlurmLayout::Ring { at, sizes } => {
                let ((r, p), (s, q)) = (at[a], at[b]);
                let longest = u64::from(sizes.iter().copied().max().unwrap_or(0));
                if r != s {
                    return longest / 2 + 1;
                }
                let n = u64::from(sizes[r as usize]);
                let d = u64::from(p.abs_diff(q));
                d.min(n - d)
            }
            SlurmLayout::Torus { at, dims } => {
                let ((r, p), (s, q)) = (at[a], at[b]);
                if r != s {
                    return torus_between(dims);
                }
                (0..3)
                    .map(|k| {
                        let (n, d) = (dims[r as usize][k], p[k].abs_diff(q[k]));
                        u64::from(d.min(n - d))
                    })
                    .sum()
            }
        }
    }
    /// Tree: the first leaf switch and the node's place; block: the block
    /// and place; ring: the ring and position.
    fn coords(&self, v: u64) -> Vec<u64> {
        match &self.topology.layout {
            SlurmLayout::Tree { leaves, .. } => vec![u64::from(leaves[v as usize][0]), v],
            SlurmLayout::Block { block, .. } => vec![u64::from(block[v as usize]), v],
            SlurmLayout::Ring { at, .. } => {
                let (r, p) = at[v as usize];
                vec![u64::from(r), u64::from(p)]
            }
            SlurmLayout::Torus { at, .. } => {
                let (t, p) = at[v as usize];
                vec![
                    u64::from(t),
                    u64::from(p[0]),
                    u64::from(p[1]),
                    u64::from(p[2]),
                ]
            }
        }
    }
    fn edge_classes(&self) -> u32 {
        1
    }
    fn push_edges(&self, nodes: Range<u64>, edges: &mut EdgeBuffer) {
        self.pairs().push_edges(nodes, edges, |_, _| 0);
    }
    fn node_names(&self) -> Option<&[String]> {
        Some(&self.topology.names)
    }
}

/// Between toruses of one torus3d topology: one more than the largest
/// torus diameter (as between rings: Slurm places no job across them).
fn torus_between(dims: &[[u32; 3]]) -> u64 {
    let far = |d: &[u32; 3]| d.iter().map(|&n| u64::from(n / 2)).sum::<u64>();
    dims.iter().map(far).max().unwrap_or(0) + 1
}
