//! Multilevel k-way search for large guests (KaHIP's and Mt-KaHyPar's
//! scheme, with the mapping objective of Heuer et al. 2023): the guest is
//! coarsened once, the coarsest graph is partitioned and its parts mapped
//! ([`super::partmap`]), and on the way back up every level is refined by
//! k-way FM and move/swap local search with exact host distances, as the
//! V-cycle's levels are ([`vcycle::uncoarsen`]).
//!
//! Partitioning the whole guest by recursive bisection coarsens every
//! sub-problem again at every split: log₂ p hierarchies, each over all
//! vertices, and above 10^5 vertices flows could refine only the first
//! splits. Here one hierarchy serves, the splits run on a graph of a few
//! dozen vertices per host node (flows at every split), and the levels'
//! k-way refinement sees the host's distances from the start. Benchmark
//! (mdual, 2.6·10^5 vertices; 2 cores): onto torus:16x16 70 408 hop-bytes
//! in 1.3 s against 80 957 in 2.0 s, onto torus:8x8x8 85 361 in 1.8 s
//! against 94 644 in 1.9 s. Below 10^5 vertices the gains are mixed (a
//! 128x128 9-point stencil onto torus:16x16 +33 %, its bisections cut the
//! grid cleanly where coarse clusters are ragged), and onto hierarchies
//! worse (mdual onto tleaf:4x8x8 +5.5 %): there the search is unchanged.

use super::coarsen::coarsen_graph;
use super::defaults::Preset;
use super::distance::HostDistance;
use super::graph::WGraph;
use super::partmap;
use super::refine::{self, vcycle, Capacity};
use super::rng::Rng;
use crate::error::Result;
use crate::progress::Progress;

/// The coarsest level has at most this many vertices per host node.
const PER_NODE: u64 = 24;
/// A coarse vertex holds at most this share of a host node's capacity.
const CLUSTER_SHARE: u64 = 8;
/// Layouts of the parts' quotient graph tried, in parallel
/// ([`partmap::place`]), the one of least hop-bytes kept: annealing it is
/// the one step of the search that does not parallelise (0.27 s on mdual's
/// 512 parts), and the lone search of a large guest left the second core
/// idle meanwhile. mdual, seeds 1–3, the mean over the seeds: onto
/// torus:8x8x8 −1.9 % (86 524 → 82 982 on seed 2), torus:16x16 −3.9 %
/// (72 853 → 66 410 on seed 3), torus:32x16 −1.4 %, torus:8x8x4 +0.5 %
/// (the better quotient is not always the better placement once refined);
/// the same time on two threads, 0.27 s more on one. Two chains of half
/// the steps each lost 1–3 %. (The strong preset tries more:
/// [`partmap::layouts`].)
const CHAINS: u64 = 2;

/// Places `g` on host nodes `0..p` under `cap` (the capacity) and `bounds`
/// (refinement's load bounds), the coarsest level at `preset`'s budget; returns the placement and whether the guest
/// was coarsened (a guest of at most [`PER_NODE`] vertices per host node is
/// partitioned as it is, and its placement is that of [`partmap::place`]).
pub fn place(
    g: &WGraph,
    dist: &HostDistance,
    p: u64,
    (cap, imbalance): (u64, f64),
    bounds: Capacity,
    (seed, preset): (u64, Preset),
    progress: Option<&Progress>,
) -> Result<(Vec<u64>, bool)> {
    let mut rng = Rng::new(seed, u64::MAX - 3);
    let heaviest = g.vw.iter().copied().max().unwrap_or(1);
    let max_load = (cap / CLUSTER_SHARE).max(heaviest);
    let stop = PER_NODE.saturating_mul(p);
    // Coarse graphs and, per level, each finer vertex's coarse vertex.
    let mut levels: Vec<(WGraph, Vec<u32>)> = Vec::new();
    loop {
        let finer = levels.last().map_or(g, |(c, _)| c);
        if finer.n() as u64 <= stop {
            break;
        }
        let (next, map) = coarsen_graph(finer, None, max_load, None, &mut rng);
        if next.g.n() * 10 > finer.n() * 9 {
            break;
        }
        levels.push((next.g, map));
    }
    let coarsened = !levels.is_empty();
    let coarsest = levels.last().map_or(g, |(c, _)| c);
    let mut hosts = partmap::place(
        coarsest,
        dist,
        p,
        (cap, imbalance),
        (seed, CHAINS.max(partmap::layouts(preset))),
        partmap::Budget::whole(preset),
        progress,
    );
    if coarsened {
        refine::balance::restore(coarsest, dist, &mut hosts, p, cap)?;
    }
    // Coarsest first; each level's placement projects onto the finer one
    // (the finest is left to the caller's refinement).
    let (hosts, _) = vcycle::uncoarsen(
        levels,
        g.n(),
        dist,
        (hosts, None),
        (bounds, preset),
        &mut rng,
    );
    Ok((hosts, coarsened))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapper::{capacity, floor, hop_bytes};
    use crate::topology;

    /// (guest, host distances' host, capacity, refinement bounds).
    fn problem(
        guest: &str,
        host: &str,
    ) -> (WGraph, Box<dyn crate::topology::Topology>, u64, Capacity) {
        let g = WGraph::from_topology(topology::parse(guest).unwrap().as_ref()).unwrap();
        let host = topology::parse(host).unwrap();
        let p = host.node_count();
        let cap = capacity(&g, p, 0.03);
        let bounds = Capacity {
            lo: floor(g.total_load(), p, 0.03),
            hi: cap,
        };
        (g, host, cap, bounds)
    }

    /// [`place`] onto 16 host nodes at 3 % and the default preset.
    fn onto_16(
        g: &WGraph,
        dist: &HostDistance,
        (cap, bounds): (u64, Capacity),
        seed: u64,
    ) -> (Vec<u64>, bool) {
        let preset = (seed, Preset::Default);
        place(g, dist, 16, (cap, 0.03), bounds, preset, None).unwrap()
    }

    /// At most PER_NODE vertices per host node: no level is built, and the
    /// placement is partitioning-first's own.
    #[test]
    fn a_small_guest_is_partitioned_as_it_is() {
        let (g, host, cap, bounds) = problem("mesh:16x16", "torus:4x4");
        let dist = HostDistance::new(host.as_ref()).unwrap();
        let (hosts, coarsened) = onto_16(&g, &dist, (cap, bounds), 5);
        assert!(!coarsened);
        assert_eq!(
            hosts,
            partmap::place(
                &g,
                &dist,
                16,
                (cap, 0.03),
                (5, CHAINS),
                partmap::Budget::whole(Preset::Default),
                None
            )
        );
    }

    /// A 60x60 mesh onto torus:4x4 (3600 vertices, 384 at the coarsest):
    /// levels are built, every host node stays within the capacity, and the
    /// placement, its finest level not yet refined, is within twice the
    /// 360 hop-bytes of 15x15 squares and a third below row-major blocks'
    /// 1092 (strips 3.75 rows high).
    #[test]
    fn coarse_levels_keep_the_capacity_and_cut_like_squares() {
        let (g, host, cap, bounds) = problem("mesh:60x60", "torus:4x4");
        let dist = HostDistance::new(host.as_ref()).unwrap();
        let (hosts, coarsened) = onto_16(&g, &dist, (cap, bounds), 1);
        assert!(coarsened);
        let mut load = [0u64; 16];
        for &h in &hosts {
            load[h as usize] += 1;
        }
        assert!(load.iter().all(|&l| l <= cap), "{load:?} above {cap}");
        let blocks: Vec<u64> = (0..3600u64).map(|v| v * 16 / 3600).collect();
        let (ours, rows) = (hop_bytes(&g, &dist, &hosts), hop_bytes(&g, &dist, &blocks));
        assert!(
            ours <= 2 * 360 && ours * 3 < rows * 2,
            "{ours} hop-bytes against squares' 360 and row-major blocks' {rows}"
        );
    }
}
