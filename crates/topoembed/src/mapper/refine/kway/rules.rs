//! The rules a pass of k-way FM's searches run by ([`super`]): which
//! seeds start a search ([`SEED_FLOOR`], scaled by the host's
//! [`least_distance`]), what a committed search locks ([`Lock`]), and which
//! of those each preset and level takes ([`Rules`]).

use crate::mapper::distance::HostDistance;
use crate::mapper::{Preset, LARGE_GUEST};

use super::Chain;

/// A search does not start from a seed whose best move loses more than
/// this share of the seed's volume at the host's least distance (a vertex
/// with most of its volume at home: moving it lengthens more edges than it
/// shortens): most border vertices of a part are, their searches rarely
/// commit, and a rolled-back chain still fences off the vertices it moved
/// ([`Lock::Chains`]) from the searches after it. Benchmark (two threads,
/// seeds 1–2): 4elt, delaunay_n15, rgg_n_2_15_s0, butterfly_12 and copter2
/// onto torus:16x16, 8x8x4, 8x8x8, 4x4x4, mesh:16x16, cube:8 and
/// tleaf:4x8x8:100,10,1 0.8766x →
/// 0.8747x Scotch's hop-bytes (copter2 −0.6 %), onto five rings and lines
/// 0.9048x → 0.9045x, in about the same time; mdual, butterfly_14 and a
/// random geometric graph of 2^17 vertices onto six hosts the same
/// hop-bytes (0.8507x → 0.8513x) in 18 % less time, most of the searches
/// of their batches skipped.
pub(super) const SEED_FLOOR: f64 = 0.3;

/// Which vertices a committed search leaves locked for the rest of its
/// pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lock {
    /// Every vertex the search moved, kept or rolled back: a pass's
    /// searches then cover its border once, each in a region of its own.
    Chains,
    /// Only the moves kept: a search that rolls back leaves its vertices
    /// to the searches after it, so every border vertex seeds one. More
    /// searches run and more of them gain: at mdual's coarse levels onto
    /// torus:8x8x8 a pass took 3–6x the hop-bytes off that one locking
    /// whole chains did (its level of 21 487 vertices: 7 381 in the first
    /// pass where whole chains took 1 218), for about twice the time
    /// (the coarse levels of large guests: [`super::super::vcycle`]).
    KeptMoves,
}

/// How a pass's searches run: what a committed search locks, and whether
/// a seed below [`SEED_FLOOR`] is skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    pub lock: Lock,
    pub seed_floor: bool,
}

impl Rules {
    /// The finest level's searches at `preset`: whole chains locked and
    /// the seed floor, or at [`Preset::Strong`] only the moves kept and
    /// every border vertex a seed.
    pub fn finest(preset: Preset) -> Rules {
        match preset {
            Preset::Strong => Rules::EVERY_SEED,
            Preset::Default | Preset::Fast => Rules {
                lock: Lock::Chains,
                seed_floor: true,
            },
        }
    }

    /// A coarse level's searches (the V-cycle's, a multilevel search's
    /// way up) for a guest of `guest` vertices at `preset`: above
    /// [`LARGE_GUEST`] only the moves kept, so that every border vertex of
    /// a level seeds a search (the searches a rolled-back chain fenced off
    /// were where the gains were), below it whole chains; the seed floor
    /// at both; at [`Preset::Strong`] the moves kept and every seed.
    /// Benchmark (two threads, seed 1; mdual, butterfly_14 and a shuffled
    /// random geometric graph of 2^17 vertices onto torus:16x16,
    /// torus:8x8x8, ring:128, tleaf:4x8x8:100,10,1, mesh:32x16 and
    /// cube:8): 0.8513x Scotch's hop-bytes in 25.0 s with whole chains
    /// locked, 0.8420x in 29.7 s with the moves kept (before the seed
    /// floor: 0.8507x in 30.5 s) — mdual onto torus:8x8x8 80 546 → 77 586,
    /// onto cube:8 56 060 → 53 917. Below it the moves kept took 0.2 % more
    /// off 4elt, delaunay_n15, rgg_n_2_15_s0, butterfly_12 and copter2 onto
    /// seven tori, meshes, cubes and a tleaf (seeds 1–2), none onto rings
    /// and lines, for 10–18 % more time.
    pub fn coarse(preset: Preset, guest: usize) -> Rules {
        match (preset, guest) {
            (Preset::Strong, _) => Rules::EVERY_SEED,
            (_, 0..=LARGE_GUEST) => Rules {
                lock: Lock::Chains,
                seed_floor: true,
            },
            _ => Rules {
                lock: Lock::KeptMoves,
                seed_floor: true,
            },
        }
    }

    /// Only the moves kept locked, every border vertex a seed: the most a
    /// pass searches ([`Preset::Strong`]).
    const EVERY_SEED: Rules = Rules {
        lock: Lock::KeptMoves,
        seed_floor: false,
    };
}

impl Lock {
    /// Logs into `changed` the vertices a commit of `chain` that kept the
    /// moves `kept` (vertex, host node it left) locked: what a copy of the
    /// placement catches up on.
    pub(super) fn log(self, changed: &mut Vec<u32>, chain: &Chain, kept: &[(usize, u64)]) {
        match self {
            Lock::Chains => changed.extend(chain.moves.iter().map(|&(v, _)| v)),
            Lock::KeptMoves => changed.extend(kept.iter().map(|&(v, _)| v as u32)),
        }
    }
}

/// The distance from host node 0 to the nearest other node (1 where the
/// host has one node), which is one of its neighbours where distances are
/// shortest paths: the least distance between two host nodes on a host
/// that looks alike from every node (grids, tleafs), and on any host the
/// scale of [`SEED_FLOOR`].
pub(super) fn least_distance(dist: &HostDistance) -> u64 {
    let host = dist.host();
    host.neighbors(0)
        .into_iter()
        .filter(|&b| b != 0)
        .map(|b| dist.d(0, b))
        .min()
        .unwrap_or(1)
        .max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology;

    /// Which searches each preset runs: the default and fast lock whole
    /// chains at the finest level and below 10^5 guest vertices, only the
    /// moves kept at the coarse levels above, with the seed floor
    /// everywhere; strong locks only the moves kept and seeds every border
    /// vertex, at every level.
    #[test]
    fn presets_choose_their_searches() {
        let (chains, kept) = (Lock::Chains, Lock::KeptMoves);
        for preset in [Preset::Default, Preset::Fast] {
            assert_eq!(
                Rules::finest(preset),
                Rules {
                    lock: chains,
                    seed_floor: true
                }
            );
            let small = Rules::coarse(preset, LARGE_GUEST);
            assert_eq!(
                small,
                Rules {
                    lock: chains,
                    seed_floor: true
                }
            );
            let large = Rules::coarse(preset, LARGE_GUEST + 1);
            assert_eq!(
                large,
                Rules {
                    lock: kept,
                    seed_floor: true
                }
            );
        }
        let every = Rules {
            lock: kept,
            seed_floor: false,
        };
        assert_eq!(Rules::finest(Preset::Strong), every);
        assert_eq!(Rules::coarse(Preset::Strong, 10), every);
        assert_eq!(Rules::coarse(Preset::Strong, LARGE_GUEST + 1), every);
    }

    /// The least distance is the least between any two distinct host
    /// nodes on hosts that look alike from every node.
    #[test]
    fn the_least_distance_is_the_nearest_pair() {
        for spec in [
            "torus:4x4",
            "line:5",
            "tleaf:4x4:10,5",
            "tleaf:2x3x2:7,3,2",
            "cube:3",
        ] {
            let host = topology::parse(spec).unwrap();
            let dist = HostDistance::new(host.as_ref()).unwrap();
            let p = host.node_count();
            let brute = (0..p)
                .flat_map(|a| (0..p).filter(move |&b| b != a).map(move |b| (a, b)))
                .map(|(a, b)| dist.d(a, b))
                .min()
                .unwrap();
            assert_eq!(least_distance(&dist), brute, "{spec}");
        }
    }
}
