//! Restoring the capacity where bisection could not meet it exactly (loads
//! are whole numbers: 5 + 5 does not split into 4 + 6): vertices leave an
//! overfull host node for the nearby node with room that costs the least
//! hop-bytes. When that finds no room, first-fit decreasing packs every
//! vertex from scratch; when even that fails, the loads do not fit.

use crate::error::{Error, Result};
use crate::mapper::distance::HostDistance;
use crate::mapper::graph::WGraph;

/// Nodes with room tried per overfull node (nearest first).
const NEAREST: usize = 8;
/// Vertices of an overfull node tried per step.
const TRIED: usize = 64;

/// Moves vertices until no host node holds more than `cap`; an error when
/// even first-fit decreasing cannot pack the loads.
pub fn restore(
    g: &WGraph,
    dist: &HostDistance,
    place: &mut [u64],
    hosts: u64,
    cap: u64,
) -> Result<()> {
    let mut load = vec![0u64; hosts as usize];
    for v in 0..g.n() {
        load[place[v] as usize] += g.vw[v];
    }
    let over: Vec<u64> = (0..hosts).filter(|&h| load[h as usize] > cap).collect();
    if over.is_empty() {
        return Ok(());
    }
    let mut on: Vec<Vec<u32>> = vec![Vec::new(); hosts as usize];
    for v in 0..g.n() {
        on[place[v] as usize].push(v as u32);
    }
    for h in over {
        // Nodes with room, nearest first, listed once per overfull node (a
        // node that fills up is skipped by the load test below).
        let mut roomy: Vec<u64> = (0..hosts).filter(|&t| load[t as usize] < cap).collect();
        roomy.sort_by_key(|&t| (dist.d(h, t), t));
        while load[h as usize] > cap {
            let mut best: Option<(i128, usize, u64)> = None;
            for (k, &v) in on[h as usize].iter().enumerate().take(TRIED) {
                let v = v as usize;
                for &t in roomy
                    .iter()
                    .filter(|&&t| load[t as usize] + g.vw[v] <= cap)
                    .take(NEAREST)
                {
                    let delta: i128 = g
                        .edges(v)
                        .map(|(u, w)| {
                            i128::from(w)
                                * (i128::from(dist.d(t, place[u]))
                                    - i128::from(dist.d(h, place[u])))
                        })
                        .sum();
                    if best.map_or(true, |(b, _, _)| delta < b) {
                        best = Some((delta, k, t));
                    }
                }
            }
            let Some((_, k, t)) = best else {
                return pack(g, place, hosts, cap);
            };
            let v = on[h as usize].swap_remove(k) as usize;
            load[h as usize] -= g.vw[v];
            load[t as usize] += g.vw[v];
            on[t as usize].push(v as u32);
            place[v] = t;
        }
    }
    Ok(())
}

/// First-fit decreasing over the host nodes in order.
fn pack(g: &WGraph, place: &mut [u64], hosts: u64, cap: u64) -> Result<()> {
    let mut order: Vec<usize> = (0..g.n()).collect();
    order.sort_by_key(|&v| (std::cmp::Reverse(g.vw[v]), v));
    let mut load = vec![0u64; hosts as usize];
    for v in order {
        let Some(t) = (0..hosts as usize).find(|&t| load[t] + g.vw[v] <= cap) else {
            return Err(Error::Mismatch(format!(
                "the guest's loads do not fit {hosts} host nodes of capacity {cap} (first-fit \
                 decreasing finds no room for a vertex of load {}); raise --imbalance",
                g.vw[v]
            )));
        };
        load[t] += g.vw[v];
        place[v] = t as u64;
    }
    Ok(())
}
