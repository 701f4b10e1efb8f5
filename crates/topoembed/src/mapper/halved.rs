//! A grid-shaped host halved: the coarser machine on which a one-to-one
//! layout is first decided block by block ([`super::partmap`]). Every side
//! of a ring, line, torus or mesh that is even and at least 4 is halved, so
//! a block is 2, 4, 8, .. neighbouring nodes (a 2x2 square of torus:32x32,
//! a 2x2x2 cube of torus:16x16x16) and the halved grid keeps the host's
//! shape and wrap-around: where every side is halved, two blocks k hops
//! apart hold nodes 2k hops apart give or take one per axis, the distance
//! the coarse layout weighs (a side left whole — odd, or 2 — counts a hop
//! as one there and as two on the halved axes). A hypercube of 2^d nodes is
//! halved over its two lowest dimensions (blocks of 4, cube:(d−2)), where
//! blocks k hops apart hold nodes k to k + 2 apart.

use crate::spec::Spec;
use crate::topology::{self, Topology};

/// The coarser host and how its blocks sit in the host.
pub struct Halved {
    /// The halved machine: node c is block c.
    pub host: Box<dyn Topology>,
    /// Host nodes per block.
    pub block: u64,
    shape: Shape,
}

enum Shape {
    /// The host's sides and, per axis, whether it was halved.
    Grid { sides: Vec<u64>, halved: Vec<bool> },
    /// A hypercube: a block is the 4 nodes that differ in the two lowest bits.
    Cube,
}

impl Halved {
    /// The halved `host`, where it is a grid with a side to halve or a cube
    /// of at least 3 dimensions; `None` otherwise (hierarchies, graphs,
    /// grids of odd or 2-node sides only).
    pub fn of(host: &dyn Topology) -> Option<Halved> {
        let spec = host.spec();
        if let Spec::Cube(d) = *spec {
            return (d >= 3).then(|| Halved {
                host: Box::new(topology::Cube::new(d - 2)),
                block: 4,
                shape: Shape::Cube,
            });
        }
        let (sides, wraps) = spec.grid()?;
        let halved: Vec<bool> = sides.iter().map(|&s| s % 2 == 0 && s >= 4).collect();
        if !halved.contains(&true) {
            return None;
        }
        let coarse: Vec<u64> = sides
            .iter()
            .zip(&halved)
            .map(|(&s, &h)| if h { s / 2 } else { s })
            .collect();
        let host = topology::build(&Spec::grid_of(coarse, wraps)).ok()?;
        Some(Halved {
            host,
            block: 1 << halved.iter().filter(|&&h| h).count(),
            shape: Shape::Grid {
                sides: sides.to_vec(),
                halved,
            },
        })
    }

    /// Whether the host is a hypercube (halved over two dimensions).
    pub fn is_cube(&self) -> bool {
        matches!(self.shape, Shape::Cube)
    }

    /// The `k`-th host node (k < [`Halved::block`]) of block `c`.
    pub fn node(&self, c: u64, k: u64) -> u64 {
        debug_assert!(k < self.block);
        match &self.shape {
            Shape::Cube => (c << 2) | k,
            Shape::Grid { sides, halved } => {
                // Node (i1, i2, ..) is i1 + K1·(i2 + K2·(..)) on both grids.
                let (mut rest, mut bits, mut node, mut stride) = (c, k, 0, 1);
                for (&side, &halved) in sides.iter().zip(halved) {
                    let coarse_side = if halved { side / 2 } else { side };
                    let x = rest % coarse_side;
                    rest /= coarse_side;
                    let fine = match halved {
                        true => {
                            let bit = bits & 1;
                            bits >>= 1;
                            2 * x + bit
                        }
                        false => x,
                    };
                    node += fine * stride;
                    stride *= side;
                }
                node
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The blocks tile the host (every node once), a block's nodes are at
    /// most one hop apart per halved axis, and — where every side is halved
    /// — nodes of two blocks are within a hop per axis of twice the blocks'
    /// distance (a cube's: of the blocks' distance, give or take 2).
    #[test]
    fn blocks_tile_the_host_and_keep_its_distances() {
        for spec in [
            "torus:32x32",
            "torus:16x16x16",
            "torus:8x8x4",
            "mesh:6x4",
            "torus:6x5",
            "ring:8",
            "line:12",
            "cube:3",
            "cube:8",
        ] {
            let host = topology::parse(spec).unwrap();
            let halved = Halved::of(host.as_ref()).unwrap_or_else(|| panic!("{spec}"));
            let blocks = halved.host.node_count();
            assert_eq!(blocks * halved.block, host.node_count(), "{spec}");
            let mut seen = vec![false; host.node_count() as usize];
            for c in 0..blocks {
                for k in 0..halved.block {
                    let v = halved.node(c, k) as usize;
                    assert!(!seen[v], "{spec}: node {v} twice");
                    seen[v] = true;
                }
            }
            let axes = halved.block.trailing_zeros() as u64;
            let every_side = match host.spec().grid() {
                Some((sides, _)) => sides.len() as u64 == axes,
                None => true,
            };
            for c in 0..blocks {
                for e in 0..blocks {
                    let coarse = halved.host.distance(c, e);
                    for k in 0..halved.block {
                        for l in 0..halved.block {
                            let d = host.distance(halved.node(c, k), halved.node(e, l));
                            if c == e {
                                assert!(d <= axes, "{spec}: block {c} spans {d}");
                            }
                            if !every_side {
                                continue;
                            }
                            // A cube's coarse hop is one fine hop, not two.
                            let scale = if spec.starts_with("cube") { 1 } else { 2 };
                            assert!(
                                d + axes >= scale * coarse && d <= scale * coarse + axes,
                                "{spec}: blocks {c}, {e} {coarse} apart, nodes {d}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// Nothing to halve: odd or 2-node sides, hierarchies, small cubes.
    #[test]
    fn hosts_without_an_even_side_are_not_halved() {
        for spec in [
            "torus:5x3",
            "mesh:2x2x2",
            "ring:7",
            "tleaf:4x8:10,1",
            "cube:2",
        ] {
            let host = topology::parse(spec).unwrap();
            assert!(Halved::of(host.as_ref()).is_none(), "{spec}");
        }
    }
}
