//! "Fat edges" (Ho & Johnsson §5, after Greenberg & Bhatt): on a cube host,
//! nodes a and b at distance d are joined by n edge-disjoint paths, d of
//! length d and n − d of length d + 2. Spreading each guest edge's traffic
//! evenly over several of them lowers the congestion without moving a
//! single element; the price is longer paths (with detours) and more
//! messages.
//!
//! With b_1 < .. < b_d the bits where a and b differ, shortest path j fixes
//! them in the rotated order b_j, .., b_d, b_1, .., b_(j−1): path j's k-th
//! hop flips b_(j+k) at a node whose bits b_j..b_(j+k−1) are already b's and
//! the rest a's, a different node set for every j, so no two paths share an
//! edge. Detour path c (a bit where a and b agree) flips c, fixes b_1..b_d
//! in order, and flips c back: its middle hops run in the half of the cube
//! with bit c flipped, away from the shortest paths and from the other
//! detours, and its first and last hops are the only edges along c at a
//! and at b. Each path then carries 1/d (shortest only) or 1/n (all) of the
//! edge; the link load is the sum, a fraction. [`paths`] builds them and the
//! tests check disjointness by brute force.

use rayon::prelude::*;
use serde::Serialize;

use super::counters::Replicas;
use super::for_mapped_edges;
use crate::embed::Embedding;
use crate::error::Result;
use crate::progress::Progress;
use crate::topology::Topology;

/// Which of the n edge-disjoint paths a guest edge is spread over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FatPaths {
    /// The d shortest paths, 1/d each.
    Shortest,
    /// All n paths (d shortest, n − d of length d + 2), 1/n each.
    All,
}

/// Link loads when every guest edge is spread over its fat edge.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FatCongestion {
    /// The paths used.
    pub paths: FatPaths,
    /// Largest fractional link load.
    pub max: f64,
    /// Average over the cube's n·2^(n−1) links.
    pub average: f64,
}

/// The host paths between `a` and `b` in an n-cube (`a != b`), each as the
/// bits flipped in order, per `which` (module doc).
pub fn paths(a: u64, b: u64, n: u32, which: FatPaths) -> Vec<Vec<u32>> {
    let differ: Vec<u32> = (0..n).filter(|&i| (a ^ b) >> i & 1 == 1).collect();
    let d = differ.len();
    let mut out: Vec<Vec<u32>> = (0..d)
        .map(|j| (0..d).map(|k| differ[(j + k) % d]).collect())
        .collect();
    if which == FatPaths::All {
        for c in (0..n).filter(|&i| (a ^ b) >> i & 1 == 0) {
            let mut path = vec![c];
            path.extend(&differ);
            path.push(c);
            out.push(path);
        }
    }
    out
}

/// Index of the link from `node` along dimension `dim` among the cube's
/// n·2^(n−1) links: the dimension, then the node with that bit squeezed out.
#[inline]
fn link(node: u64, dim: u32, n: u32) -> usize {
    let low = node & ((1 << dim) - 1);
    let high = node >> (dim + 1);
    ((u64::from(dim) << (n - 1)) | (high << dim) | low) as usize
}

/// Spreads every guest edge of `embedding` over its fat edge in the n-cube
/// `host` and measures the link loads.
pub fn measure(
    guest: &dyn Topology,
    n: u32,
    embedding: &dyn Embedding,
    which: FatPaths,
    progress: Option<&Progress>,
) -> Result<FatCongestion> {
    let links = u64::from(n) << n.saturating_sub(1);
    let replicas = Replicas::<f64>::new(links, "fat-edge link loads")?;
    crate::stream::chunks(guest.node_count())
        .into_par_iter()
        .for_each(|range| {
            replicas.with(|load| {
                for_mapped_edges(guest, embedding, range, progress, |from, to, volumes| {
                    for (k, (&a, &b)) in from.iter().zip(to).enumerate() {
                        if a != b {
                            let volume = volumes.get(k).map_or(1.0, |&w| w as f64);
                            spread(a, b, n, which, volume, load);
                        }
                    }
                })
            })
        });
    let load = replicas.sum();
    let max = load.par_iter().copied().reduce(|| 0.0, f64::max);
    let total: f64 = load.par_iter().sum();
    Ok(FatCongestion {
        paths: which,
        max,
        average: if links == 0 {
            0.0
        } else {
            total / links as f64
        },
    })
}

/// Adds one guest edge a–b of `volume` to `load`, without building the paths.
fn spread(a: u64, b: u64, n: u32, which: FatPaths, volume: f64, load: &mut [f64]) {
    let diff = a ^ b;
    let d = diff.count_ones();
    let share = volume
        / match which {
            FatPaths::Shortest => f64::from(d),
            FatPaths::All => f64::from(n),
        };
    // Shortest path j: start at a, flip the differing bits from the j-th on.
    let mut bits = diff;
    while bits != 0 {
        let first = bits.trailing_zeros();
        let mut at = a;
        // Flip bits >= first in increasing order, then those below.
        let order = (diff & !((1u64 << first) - 1), diff & ((1u64 << first) - 1));
        for mut part in [order.0, order.1] {
            while part != 0 {
                let dim = part.trailing_zeros();
                load[link(at, dim, n)] += share;
                at ^= 1 << dim;
                part &= part - 1;
            }
        }
        bits &= bits - 1;
    }
    if which == FatPaths::All {
        for c in (0..n).filter(|&c| diff >> c & 1 == 0) {
            let mut at = a;
            load[link(at, c, n)] += share;
            at ^= 1 << c;
            let mut part = diff;
            while part != 0 {
                let dim = part.trailing_zeros();
                load[link(at, dim, n)] += share;
                at ^= 1 << dim;
                part &= part - 1;
            }
            load[link(at, c, n)] += share;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// The n paths between every pair of nodes of cubes up to 6 are
    /// edge-disjoint paths from a to b of the promised lengths, and
    /// `spread` puts the right share on exactly their links.
    #[test]
    fn fat_edge_paths_are_edge_disjoint() {
        for n in 1..=6u32 {
            for a in 0..1u64 << n {
                for b in 0..1u64 << n {
                    if a == b {
                        continue;
                    }
                    let d = (a ^ b).count_ones();
                    let all = paths(a, b, n, FatPaths::All);
                    assert_eq!(all.len(), n as usize);
                    let mut used = HashSet::new();
                    let mut expected = vec![0.0; (n as usize) << (n - 1)];
                    for path in &all {
                        let long = path.len() as u32 != d;
                        assert!(!long || path.len() as u32 == d + 2);
                        let mut at = a;
                        for &dim in path {
                            assert!(used.insert(link(at, dim, n)), "n={n} {a}->{b}");
                            expected[link(at, dim, n)] += 1.0 / f64::from(n);
                            at ^= 1 << dim;
                        }
                        assert_eq!(at, b);
                    }
                    let mut load = vec![0.0; expected.len()];
                    spread(a, b, n, FatPaths::All, 1.0, &mut load);
                    assert_eq!(load, expected, "n={n} {a}->{b}");
                    let shortest = paths(a, b, n, FatPaths::Shortest);
                    assert_eq!(shortest.len(), d as usize);
                    let mut load = vec![0.0; expected.len()];
                    spread(a, b, n, FatPaths::Shortest, 1.0, &mut load);
                    let total: f64 = load.iter().sum();
                    assert!((total - f64::from(d)).abs() < 1e-9);
                    assert!(load
                        .iter()
                        .all(|&x| x == 0.0 || (x - 1.0 / f64::from(d)).abs() < 1e-12));
                }
            }
        }
    }

    #[test]
    fn links_are_numbered_densely() {
        for n in 1..=6u32 {
            let mut seen = vec![false; (n as usize) << (n - 1)];
            for node in 0..1u64 << n {
                for dim in 0..n {
                    let i = link(node, dim, n);
                    assert_eq!(i, link(node ^ 1 << dim, dim, n));
                    seen[i] = true;
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }
}
