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

use super::{kway, local, Capacity};

/// Passes of local search per coarse level.
const PASSES: usize = 4;
/// A cluster holds at most this share of a host node's capacity.
const CLUSTER_SHARE: u64 = 8;

/// Refines `place` through a V-cycle; returns the hop-bytes gained at the
/// coarse levels (the finest level is left to the caller's local search).
pub fn refine(
    g: &WGraph,
    dist: &HostDistance,
    place: &mut [u64],
    cap: Capacity,
    rng: &mut Rng,
) -> u128 {
    let max_load = (cap.hi / CLUSTER_SHARE).max(g.vw.iter().copied().max().unwrap_or(1));
    // Coarse graphs and, per level, each finer vertex's coarse vertex.
    let mut coarse: Vec<WGraph> = Vec::new();
    let mut maps: Vec<Vec<u32>> = Vec::new();
    let mut hosts = place.to_vec();
    loop {
        let finer = coarse.last().unwrap_or(g);
        let (next, map) = coarsen_graph(finer, None, max_load, Some(&hosts), rng);
        if next.g.n() * 10 > finer.n() * 9 {
            break;
        }
        let mut coarse_hosts = vec![0u64; next.g.n()];
        for (v, &c) in map.iter().enumerate() {
            coarse_hosts[c as usize] = hosts[v];
        }
        hosts = coarse_hosts;
        coarse.push(next.g);
        maps.push(map);
    }
    let mut gained = 0u128;
    // Coarsest first; each level's placement projects onto the finer one.
    while let (Some(graph), Some(map)) = (coarse.pop(), maps.pop()) {
        let batch = super::batch_size(g.n(), graph.n());
        gained += kway::refine_in_batches(&graph, dist, &mut hosts, cap, PASSES, batch, rng);
        gained += local::improve_in_batches(&graph, dist, &mut hosts, cap, PASSES, batch, rng);
        hosts = map.iter().map(|&c| hosts[c as usize]).collect();
    }
    place.copy_from_slice(&hosts);
    gained
}
