//! Routed congestion as the objective (`map --objective congestion`): local
//! search on the placement that lowers the most volume routed over one host
//! link, under the routes the traffic metrics count (the host's own model,
//! ties toward increasing coordinates, each guest edge routed from its
//! lower-numbered end; [`crate::traffic`]).
//!
//! The objective is lexicographic: the congestion M, then the number of
//! links carrying M, then Σ load² over the links (a smooth stand-in that
//! spreads load before it piles up, as congestion-aware mappers such as
//! Hoefler & Snir's LibTopoMap refine). A move or swap is taken only when no
//! link rises above M and the triple falls, so M never rises; when the last
//! link at M is relieved, M is recounted. Once that stalls, a second phase
//! wins back hop-bytes: moves and swaps that lower them without raising M
//! or the number of links at M. The neighbourhood is the
//! hop-bytes search's ([`super::local`]): each vertex to the host nodes of
//! its neighbours and of its own node's neighbours, by move when capacity
//! allows, else by swap. A candidate costs O(degree × route length): the
//! vertex's routes (and its partner's) are taken off and laid again.

use crate::error::{Error, Result};
use crate::mapper::distance::HostDistance;
use crate::mapper::graph::WGraph;
use crate::mapper::rng::Rng;
use crate::progress::{self, Progress};

use super::Capacity;

/// Most host links the refinement counts loads on (8 bytes each).
const MAX_LINK_SLOTS: u64 = 1 << 28;
/// Most partners tried on one target node for a swap.
const SWAP_PARTNERS: usize = 8;
/// Host nodes of higher degree are not offered as neighbourhoods (a tleaf
/// level or a complete graph would offer every node).
const MAX_HOST_DEGREE: u64 = 16;

/// What the refinement did: congestion and Σ load² before and after.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Congestion (most volume on one link) before.
    pub before: u64,
    /// Congestion after.
    pub after: u64,
}

/// Link loads of a placement, with the change a candidate would make.
struct Loads<'d, 'h> {
    dist: &'d HostDistance<'h>,
    load: Vec<u64>,
    /// Change of each touched slot under the candidate being weighed.
    delta: Vec<i64>,
    /// Whether a slot is in `touched`.
    seen: Vec<bool>,
    touched: Vec<usize>,
    path: Vec<u64>,
    max: u64,
    at_max: u64,
    /// Hop-bytes change of the candidate.
    hop: i128,
}

impl<'d, 'h> Loads<'d, 'h> {
    fn new(dist: &'d HostDistance<'h>, g: &WGraph, place: &[u64]) -> Result<Self> {
        let host = dist.host();
        // A switched host's or an allocation's links are its network's.
        let slots = host
            .network()
            .map_or_else(|| host.link_slots(), |n| n.link_count());
        if slots > MAX_LINK_SLOTS {
            return Err(Error::Parameter(format!(
                "{} has {slots} link slots; the congestion objective counts loads on at most {MAX_LINK_SLOTS}",
                host.spec()
            )));
        }
        let mut loads = Loads {
            dist,
            load: vec![0; slots as usize],
            delta: vec![0; slots as usize],
            seen: vec![false; slots as usize],
            touched: Vec::new(),
            path: Vec::new(),
            max: 0,
            at_max: 0,
            hop: 0,
        };
        for v in 0..g.n() {
            for (u, w) in g.edges(v) {
                if u > v {
                    loads.lay(place[v], place[u], w as i64);
                }
            }
        }
        for &s in &loads.touched {
            loads.load[s] = loads.delta[s] as u64;
        }
        loads.clear();
        loads.recount();
        Ok(loads)
    }

    /// Adds `w` (negative: takes it off) along the route from `a` to `b`
    /// into the candidate's change.
    fn lay(&mut self, a: u64, b: u64, w: i64) {
        if a == b {
            return;
        }
        self.path.clear();
        let host = self.dist.host();
        if let Some(network) = host.network() {
            network.route_links(a, b, &mut self.path);
            for k in 0..self.path.len() {
                let slot = self.path[k];
                self.add(slot, w);
            }
            return;
        }
        self.dist.route(a, b, &mut self.path);
        let mut here = a;
        for k in 0..self.path.len() {
            let next = self.path[k];
            if let Some(slot) = host.link_slot(here, next) {
                self.add(slot, w);
            }
            here = next;
        }
    }

    /// Adds `w` to link `slot` in the candidate's change.
    fn add(&mut self, slot: u64, w: i64) {
        let s = slot as usize;
        if !self.seen[s] {
            self.seen[s] = true;
            self.touched.push(s);
        }
        self.delta[s] += w;
    }

    /// The guest edge {v, u} (volume w) moving from host ends (a, b) to
    /// (c, d), v on the first of each pair: routed from the lower id's end.
    fn reroute(&mut self, v: usize, u: usize, w: u64, old: (u64, u64), new: (u64, u64)) {
        let d = |(a, b): (u64, u64)| i128::from(self.dist.d(a, b));
        self.hop += i128::from(w) * (d(new) - d(old));
        let w = w as i64;
        if v < u {
            self.lay(old.0, old.1, -w);
            self.lay(new.0, new.1, w);
        } else {
            self.lay(old.1, old.0, -w);
            self.lay(new.1, new.0, w);
        }
    }

    /// Lays the change of moving v to host node t, swapping it with x
    /// (placed on t) when given.
    fn lay_candidate(&mut self, g: &WGraph, place: &[u64], v: usize, t: u64, x: Option<usize>) {
        let hv = place[v];
        for (u, w) in g.edges(v) {
            match Some(u) == x {
                true => self.reroute(v, u, w, (hv, t), (t, hv)),
                false => self.reroute(v, u, w, (hv, place[u]), (t, place[u])),
            }
        }
        if let Some(x) = x {
            for (u, w) in g.edges(x).filter(|&(u, _)| u != v) {
                self.reroute(x, u, w, (t, place[u]), (hv, place[u]));
            }
        }
    }

    /// (Δ links at the congestion, Δ Σ load², Δ hop-bytes) of the
    /// candidate, or `None` when a link would rise above the congestion.
    fn weigh(&self) -> Option<(i64, i128, i128)> {
        let (mut at, mut squares) = (0i64, 0i128);
        for &s in &self.touched {
            let (old, d) = (self.load[s] as i64, self.delta[s]);
            let new = old + d;
            if new > self.max as i64 {
                return None;
            }
            at += i64::from(new == self.max as i64) - i64::from(old == self.max as i64);
            squares += i128::from(new) * i128::from(new) - i128::from(old) * i128::from(old);
        }
        Some((at, squares, self.hop))
    }

    /// Forgets the candidate.
    fn clear(&mut self) {
        for &s in &self.touched {
            self.delta[s] = 0;
            self.seen[s] = false;
        }
        self.touched.clear();
        self.hop = 0;
    }

    /// Takes the candidate (one that [`Loads::weigh`] allowed).
    fn apply(&mut self, at: i64) {
        for &s in &self.touched {
            self.load[s] = (self.load[s] as i64 + self.delta[s]) as u64;
        }
        self.clear();
        self.at_max = (self.at_max as i64 + at) as u64;
        if self.at_max == 0 {
            self.recount();
        }
    }

    fn recount(&mut self) {
        self.max = self.load.iter().copied().max().unwrap_or(0);
        self.at_max = self.load.iter().filter(|&&l| l == self.max).count() as u64;
    }
}

/// The most volume `place` routes over one host link (the congestion the
/// refinement lowers), or `None` on a host without links (a tleaf).
pub fn busiest_link(g: &WGraph, dist: &HostDistance, place: &[u64]) -> Result<Option<u64>> {
    if routable(dist.host()).is_err() {
        return Ok(None);
    }
    Ok(Some(Loads::new(dist, g, place)?.max))
}

/// Refuses hosts without links to route over: a tleaf hierarchy gives
/// costs between cores, so it has no congestion.
pub fn routable(host: &dyn crate::topology::Topology) -> Result<()> {
    match host.spec() {
        spec if spec.has_no_links() => Err(Error::Parameter(format!(
            "{}: a tleaf hierarchy gives costs between cores, not links to route over, so it has \
             no congestion; use --objective hop-bytes (its measure) or a host with links",
            host.spec()
        ))),
        _ => Ok(()),
    }
}

/// Lowers the congestion of `place` in passes until a pass takes nothing
/// or `max_passes` pass, then its hop-bytes likewise; host loads stay within `cap` (see
/// [`Capacity::allows`]).
pub fn refine(
    g: &WGraph,
    dist: &HostDistance,
    place: &mut [u64],
    cap: Capacity,
    max_passes: usize,
    rng: &mut Rng,
    progress: Option<&Progress>,
) -> Result<Outcome> {
    let host = dist.host();
    routable(host)?;
    let p = host.node_count() as usize;
    let mut loads = Loads::new(dist, g, place)?;
    let before = loads.max;
    let mut on: Vec<Vec<u32>> = vec![Vec::new(); p];
    let mut weight = vec![0u64; p];
    for (v, &h) in place.iter().enumerate() {
        on[h as usize].push(v as u32);
        weight[h as usize] += g.vw[v];
    }
    let mut targets: Vec<u64> = Vec::new();
    let mut partners: Vec<u32> = Vec::new();
    // Phase 1 weighs (Δ at M, Δ Σ load²), phase 2 (Δ at M, Δ hop-bytes).
    // Each phase has up to `max_passes` passes.
    let (mut spreading, mut passes) = (true, 0);
    for _ in 0..2 * max_passes {
        if loads.max == 0 {
            break;
        }
        let mut taken = 0usize;
        for v in rng.permutation(g.n()) {
            let v = v as usize;
            let hv = place[v];
            targets.clear();
            targets.extend(g.edges(v).map(|(u, _)| place[u]));
            if host.degree(hv) <= MAX_HOST_DEGREE {
                targets.extend(host.neighbors(hv));
            }
            targets.retain(|&t| t != hv);
            targets.sort_unstable();
            targets.dedup();
            // (Δ at max, Δ squares, target, partner)
            let mut best: Option<(i64, i128, u64, Option<u32>)> = None;
            let mut better = |(at, sq, hop): (i64, i128, i128), t: u64, x: Option<u32>| {
                let key = (at, if spreading { sq } else { hop });
                if key < (0, 0) && best.map_or(true, |b| key < (b.0, b.1)) {
                    best = Some((key.0, key.1, t, x));
                }
            };
            let may_leave = cap.allows(weight[hv as usize], g.vw[v], 0);
            for &t in &targets {
                if may_leave && cap.allows(weight[t as usize], 0, g.vw[v]) {
                    loads.lay_candidate(g, place, v, t, None);
                    if let Some(key) = loads.weigh() {
                        better(key, t, None);
                    }
                    loads.clear();
                    continue;
                }
                partners.clear();
                partners.extend(
                    g.edges(v)
                        .filter(|&(u, _)| place[u] == t)
                        .map(|(u, _)| u as u32),
                );
                partners.extend(on[t as usize].iter().take(SWAP_PARTNERS));
                partners.sort_unstable();
                partners.dedup();
                partners.truncate(SWAP_PARTNERS);
                for &x in &partners {
                    let x = x as usize;
                    let fits_t = cap.allows(weight[t as usize], g.vw[x], g.vw[v]);
                    let fits_h = cap.allows(weight[hv as usize], g.vw[v], g.vw[x]);
                    if !(fits_t && fits_h) {
                        continue;
                    }
                    loads.lay_candidate(g, place, v, t, Some(x));
                    if let Some(key) = loads.weigh() {
                        better(key, t, Some(x as u32));
                    }
                    loads.clear();
                }
            }
            let Some((at, _, t, partner)) = best else {
                continue;
            };
            // Lay the chosen candidate again and take it.
            loads.lay_candidate(g, place, v, t, partner.map(|x| x as usize));
            loads.apply(at);
            relocate(&mut on, &mut weight, place, g, v, t);
            if let Some(x) = partner {
                relocate(&mut on, &mut weight, place, g, x as usize, hv);
            }
            taken += 1;
        }
        progress::advance(progress, g.n() as u64);
        passes += 1;
        if taken == 0 || (spreading && passes == max_passes) {
            match spreading {
                true => spreading = false,
                false => break,
            }
        }
    }
    Ok(Outcome {
        before,
        after: loads.max,
    })
}

/// Moves vertex v to host node t, keeping the lists and loads.
fn relocate(
    on: &mut [Vec<u32>],
    weight: &mut [u64],
    place: &mut [u64],
    g: &WGraph,
    v: usize,
    t: u64,
) {
    let from = place[v] as usize;
    if let Some(k) = on[from].iter().position(|&x| x as usize == v) {
        on[from].swap_remove(k);
    }
    weight[from] -= g.vw[v];
    on[t as usize].push(v as u32);
    weight[t as usize] += g.vw[v];
    place[v] = t;
}
