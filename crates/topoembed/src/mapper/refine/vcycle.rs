//! A V-cycle on a finished placement (Walshaw & Cross's multilevel
//! refinement, as KaHIP and Mt-KaHyPar refine a mapping level by level):
//! the guest is coarsened again with every match inside one host node, so
//! the placement holds at every level, and the move/swap local search
//! ([`super::local`]) runs from the coarsest level down. A coarse vertex is
//! a cluster: moving or swapping it shifts a whole piece of a part's
//! border toward the neighbours it talks to, which single-vertex moves at
//! the finest level cannot reach one step at a time.

use crate::mapper::coarsen::coarsen_graph;
use crate::mapper::distance::HostDistance;
use crate::mapper::graph::WGraph;
use crate::mapper::rng::Rng;
use crate::mapper::Preset;

use super::{kway, local, Capacity, Known};

/// Passes of local search per coarse level.
const PASSES: usize = 4;
/// A cluster holds at most this share of a host node's capacity.
const CLUSTER_SHARE: u64 = 8;

/// Refines `place` (its hop-bytes `known` where the caller has them)
/// through a V-cycle, its k-way FM searches run as `preset` says
/// ([`kway::Rules::coarse`]); returns the hop-bytes gained at the coarse
/// levels (the finest level is left to the caller's local search).
pub fn refine(
    g: &WGraph,
    dist: &HostDistance,
    place: &mut [u64],
    (cap, preset): (Capacity, Preset),
    known: Known,
    rng: &mut Rng,
) -> u128 {
    let max_load = (cap.hi / CLUSTER_SHARE).max(g.vw.iter().copied().max().unwrap_or(1));
    // Coarse graphs and, per level, each finer vertex's coarse vertex.
    let mut levels: Vec<(WGraph, Vec<u32>)> = Vec::new();
    let mut hosts = place.to_vec();
    loop {
        let finer = levels.last().map_or(g, |(c, _)| c);
        let (next, map) = coarsen_graph(finer, None, max_load, Some(&hosts), rng);
        if next.g.n() * 10 > finer.n() * 9 {
            break;
        }
        let mut coarse_hosts = vec![0u64; next.g.n()];
        for (v, &c) in map.iter().enumerate() {
            coarse_hosts[c as usize] = hosts[v];
        }
        hosts = coarse_hosts;
        levels.push((next.g, map));
    }
    // Every level has the hop-bytes of `place`: its matches join vertices
    // on one host node.
    let (hosts, gained) = uncoarsen(levels, g.n(), dist, (hosts, known), (cap, preset), rng);
    place.copy_from_slice(&hosts);
    gained
}

/// The way up of a multilevel scheme: `hosts` places the coarsest of
/// `levels` (coarse graph, each finer vertex's coarse vertex; finest
/// first) at hop-bytes `known` where the caller has them; each level,
/// coarsest first, is refined by k-way FM and local search ([`PASSES`]
/// each, batched as for a guest of `guest` vertices, k-way FM's searches
/// run as [`kway::Rules::coarse`] says for it at `preset`) and its placement
/// projected onto the finer one, which keeps its hop-bytes (a coarse
/// vertex's own edges are inside one host node): they are summed once, at
/// the coarsest level. Returns the finest graph's placement (not refined
/// here) and the hop-bytes gained.
pub fn uncoarsen(
    mut levels: Vec<(WGraph, Vec<u32>)>,
    guest: usize,
    dist: &HostDistance,
    (mut hosts, mut known): (Vec<u64>, Known),
    (cap, preset): (Capacity, Preset),
    rng: &mut Rng,
) -> (Vec<u64>, u128) {
    let mut gained = 0u128;
    while let Some((graph, map)) = levels.pop() {
        let batch = super::batch_size(guest, graph.n());
        let current = super::start_hop_bytes(&graph, dist, &hosts, known);
        let plan = (PASSES, batch, kway::Rules::coarse(preset, guest));
        let by_fm =
            kway::refine_in_batches(&graph, dist, &mut hosts, cap, plan, Some(current), rng);
        let after_fm = Some(current - by_fm);
        let passes = (PASSES, batch);
        let by_moves =
            local::improve_in_batches(&graph, dist, &mut hosts, cap, passes, after_fm, rng);
        gained += by_fm + by_moves;
        known = Some(current - by_fm - by_moves);
        hosts = map.iter().map(|&c| hosts[c as usize]).collect();
    }
    (hosts, gained)
}
