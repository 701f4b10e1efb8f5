//! The last phase: local search on the placement itself, with exact host
//! distances (so every wrap-around, every tleaf cost is in every gain), after
//! Schulz & Träff's sparse-QAP local search (2017): for each vertex, the
//! host nodes of its neighbours are the candidate targets; a *move* takes
//! the vertex there when the target's capacity allows, a *swap* exchanges it
//! with a vertex placed there. Gains cost O(degree): the hop-bytes change is
//! Σ volume × (old distance − new distance) over the vertex's own edges
//! (and the partner's, for a swap, less the edge between them, whose
//! distance a swap keeps).

use rustc_hash::FxHashMap;

use crate::mapper::distance::HostDistance;
use crate::mapper::graph::WGraph;
use crate::mapper::rng::Rng;
use crate::progress::{self, Progress};

use super::Capacity;

/// Most partners tried on one target node for a swap.
const SWAP_PARTNERS: usize = 12;
/// Partners taken from the target's list beyond v's own neighbours there.
const FIRST_PARTNERS: usize = 3;

/// Improves `place` (host node per vertex) in passes until a pass gains less
/// than 0.1 % or `max_passes` pass; no host node ends outside `cap` unless
/// it started there. Returns the hop-bytes gained.
pub fn improve(
    g: &WGraph,
    dist: &HostDistance,
    place: &mut [u64],
    cap: Capacity,
    max_passes: usize,
    rng: &mut Rng,
    progress: Option<&Progress>,
) -> u128 {
    let n = g.n();
    let mut on: FxHashMap<u64, Vec<u32>> = FxHashMap::default();
    let mut load: FxHashMap<u64, u64> = FxHashMap::default();
    for (v, &h) in place.iter().enumerate() {
        on.entry(h).or_default().push(v as u32);
        *load.entry(h).or_default() += g.vw[v];
    }
    let cost_at = |place: &[u64], v: usize, h: u64| -> u128 {
        g.edges(v)
            .map(|(u, w)| u128::from(w) * u128::from(dist.d(h, place[u])))
            .sum()
    };
    let mut total_gain = 0u128;
    let mut current: u128 = (0..n).map(|v| cost_at(place, v, place[v])).sum::<u128>() / 2;
    let mut targets: Vec<u64> = Vec::new();
    let mut partners: Vec<u32> = Vec::new();
    for _ in 0..max_passes {
        let mut gained = 0u128;
        for v in rng.permutation(n) {
            let v = v as usize;
            let hv = place[v];
            targets.clear();
            targets.extend(g.edges(v).map(|(u, _)| place[u]).filter(|&h| h != hv));
            targets.sort_unstable();
            targets.dedup();
            if targets.is_empty() {
                continue;
            }
            let here = cost_at(place, v, hv) as i128;
            // (gain, target, partner)
            let mut best: (i128, u64, Option<u32>) = (0, hv, None);
            // Whether v may leave its node without a partner (the floor).
            let may_leave = cap.allows(load[&hv], g.vw[v], 0);
            for &t in &targets {
                let moved = here - cost_at(place, v, t) as i128;
                if may_leave && cap.allows(load.get(&t).copied().unwrap_or(0), 0, g.vw[v]) {
                    if moved > best.0 {
                        best = (moved, t, None);
                    }
                    continue;
                }
                let Some(list) = on.get(&t) else { continue };
                // Partners: v's own neighbours on t first (they border v's
                // node, so their other edges likely lead there too), then
                // the first few placed on t.
                partners.clear();
                partners.extend(
                    g.edges(v)
                        .filter(|&(u, _)| place[u] == t)
                        .map(|(u, _)| u as u32)
                        .take(SWAP_PARTNERS),
                );
                let own = partners.len();
                let wanted = own + SWAP_PARTNERS.saturating_sub(own).min(FIRST_PARTNERS);
                for &x in list {
                    if partners.len() >= wanted {
                        break;
                    }
                    if !partners[..own].contains(&x) {
                        partners.push(x);
                    }
                }
                for &x in &partners {
                    let x = x as usize;
                    let fits_t = cap.allows(load[&t], g.vw[x], g.vw[v]);
                    let fits_h = cap.allows(load[&hv], g.vw[v], g.vw[x]);
                    if !(fits_t && fits_h) {
                        continue;
                    }
                    let between: u128 = g
                        .edges(v)
                        .filter(|&(u, _)| u == x)
                        .map(|(_, w)| u128::from(w) * u128::from(dist.d(hv, t)))
                        .sum();
                    let partner = cost_at(place, x, t) as i128 - cost_at(place, x, hv) as i128;
                    let swap = moved + partner - 2 * between as i128;
                    if swap > best.0 {
                        best = (swap, t, Some(x as u32));
                    }
                }
            }
            let (gain, t, partner) = best;
            if gain <= 0 {
                continue;
            }
            relocate(&mut on, &mut load, place, g, v, t);
            if let Some(x) = partner {
                relocate(&mut on, &mut load, place, g, x as usize, hv);
            }
            gained += gain as u128;
        }
        progress::advance(progress, n as u64);
        total_gain += gained;
        current -= gained.min(current);
        if gained * 1000 <= current {
            break;
        }
    }
    total_gain
}

/// Moves vertex v to host node t, keeping the lists and loads.
fn relocate(
    on: &mut FxHashMap<u64, Vec<u32>>,
    load: &mut FxHashMap<u64, u64>,
    place: &mut [u64],
    g: &WGraph,
    v: usize,
    t: u64,
) {
    let from = place[v];
    if let Some(list) = on.get_mut(&from) {
        if let Some(k) = list.iter().position(|&x| x as usize == v) {
            list.swap_remove(k);
        }
    }
    *load.entry(from).or_default() -= g.vw[v];
    on.entry(t).or_default().push(v as u32);
    *load.entry(t).or_default() += g.vw[v];
    place[v] = t;
}
