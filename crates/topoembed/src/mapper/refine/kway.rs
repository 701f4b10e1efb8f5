//! Localized k-way FM on a placement (Sanders & Schulz's KaFFPa, and
//! Mt-KaHyPar's localized FM with the mapping objective of Heuer et al.,
//! 2023): from each border vertex a search grows, moving the vertex of
//! highest gain to the host node of one of its neighbours, *also when the
//! gain is negative* — a full host node must first give a vertex away before
//! it can take one, and a part's border moves only as a chain of such
//! steps, which the greedy search of [`super::local`] never starts — and
//! then rolls back to the best point of the chain. Gains cost O(degree ×
//! targets) and use exact host distances (wrap-around and tleaf costs in
//! every gain). Every move keeps the capacity, so every prefix of a chain
//! is a feasible placement.

use std::collections::BinaryHeap;

use crate::mapper::distance::HostDistance;
use crate::mapper::graph::WGraph;
use crate::mapper::rng::Rng;

use super::Capacity;

/// A search stops after this many moves without a new best.
const FRUITLESS: usize = 16;
/// Most moves of one search.
const MAX_CHAIN: usize = 512;

/// Improves `place` (host node per vertex, every host node's load within
/// `cap`) in up to `passes` passes, stopping when a pass gains under 0.1 %.
/// Returns the hop-bytes gained (exact: the objective before less after).
pub fn refine(
    g: &WGraph,
    dist: &HostDistance,
    place: &mut [u64],
    cap: Capacity,
    passes: usize,
    rng: &mut Rng,
) -> u128 {
    let n = g.n();
    let p = place.iter().copied().max().map_or(0, |m| m as usize + 1);
    let mut load = vec![0u64; p];
    for (v, &h) in place.iter().enumerate() {
        load[h as usize] += g.vw[v];
    }
    let mut search = Search {
        g,
        dist,
        cap,
        load,
        locked: vec![0u32; n],
        version: vec![0u32; n],
        pass: 0,
        log: Vec::new(),
        heap: BinaryHeap::new(),
        around: Vec::new(),
    };
    let current: u128 = crate::mapper::hop_bytes(g, dist, place);
    let mut total = 0u128;
    for pass in 1..=passes as u32 {
        search.pass = pass;
        let mut gained = 0u128;
        for s in rng.permutation(n) {
            let s = s as usize;
            if search.locked[s] == pass || !g.edges(s).any(|(u, _)| place[u] != place[s]) {
                continue;
            }
            gained += search.grow(place, s) as u128;
        }
        total += gained;
        if gained * 1000 <= current - total.min(current) {
            break;
        }
    }
    total
}

/// State of the searches of one pass.
struct Search<'a> {
    g: &'a WGraph,
    dist: &'a HostDistance<'a>,
    cap: Capacity,
    load: Vec<u64>,
    /// Pass in which a vertex last moved (it moves at most once a pass).
    locked: Vec<u32>,
    /// Bumped when a vertex's gains change: older heap entries are stale.
    version: Vec<u32>,
    pass: u32,
    /// Moves of the current search: (vertex, host node it left).
    log: Vec<(u32, u64)>,
    /// (gain, vertex, target, version).
    heap: BinaryHeap<(i128, u32, u64, u32)>,
    /// (host node, volume) around the vertex being rated.
    around: Vec<(u64, u64)>,
}

impl Search<'_> {
    /// One search from seed `s`; returns its gain (≥ 0, after roll-back).
    fn grow(&mut self, place: &mut [u64], s: usize) -> i128 {
        self.heap.clear();
        self.log.clear();
        self.push_best(place, s);
        let (mut sum, mut best, mut best_len, mut since) = (0i128, 0i128, 0usize, 0usize);
        while let Some((gain, v, t, ver)) = self.heap.pop() {
            let v = v as usize;
            if self.locked[v] == self.pass || ver != self.version[v] {
                continue;
            }
            if !self.fits(place[v], t, self.g.vw[v]) {
                // The target filled up since: look again.
                self.version[v] += 1;
                self.push_best(place, v);
                continue;
            }
            let from = place[v];
            self.apply(place, v, t);
            self.locked[v] = self.pass;
            self.log.push((v as u32, from));
            sum += gain;
            if sum > best {
                (best, best_len, since) = (sum, self.log.len(), 0);
            } else {
                since += 1;
            }
            if since >= FRUITLESS || self.log.len() >= MAX_CHAIN {
                break;
            }
            for k in self.g.xadj[v]..self.g.xadj[v + 1] {
                let u = self.g.adj[k] as usize;
                if self.locked[u] != self.pass {
                    self.version[u] += 1;
                    self.push_best(place, u);
                }
            }
        }
        // Roll back past the best point; the vertices stay locked this pass.
        while self.log.len() > best_len {
            let (v, from) = self.log.pop().expect("log longer than best_len");
            self.apply(place, v as usize, from);
        }
        best
    }

    /// Whether load `w` may leave host node `from` for `to`.
    fn fits(&self, from: u64, to: u64, w: u64) -> bool {
        self.cap.allows(self.load[from as usize], w, 0)
            && self.cap.allows(self.load[to as usize], 0, w)
    }

    /// Moves v to host node t, keeping the loads.
    fn apply(&mut self, place: &mut [u64], v: usize, t: u64) {
        self.load[place[v] as usize] -= self.g.vw[v];
        self.load[t as usize] += self.g.vw[v];
        place[v] = t;
    }

    /// Pushes v's best move that the capacity allows (to a host node of one
    /// of its neighbours), whatever its sign.
    fn push_best(&mut self, place: &[u64], v: usize) {
        let hv = place[v];
        // v's volume per host node of its neighbours (few distinct nodes:
        // the gains below cost targets × nodes, not targets × degree).
        self.around.clear();
        for (u, w) in self.g.edges(v) {
            let h = place[u];
            match self.around.iter_mut().find(|(x, _)| *x == h) {
                Some((_, sum)) => *sum += w,
                None => self.around.push((h, w)),
            }
        }
        let here: i128 = self
            .around
            .iter()
            .map(|&(h, w)| w as i128 * i128::from(self.dist.d(hv, h)))
            .sum();
        let mut best: Option<(i128, u64)> = None;
        for &(t, _) in &self.around {
            if t == hv || !self.fits(hv, t, self.g.vw[v]) {
                continue;
            }
            let there: i128 = self
                .around
                .iter()
                .map(|&(h, w)| w as i128 * i128::from(self.dist.d(t, h)))
                .sum();
            let gain = here - there;
            if best.map_or(true, |(b, bt)| gain > b || (gain == b && t < bt)) {
                best = Some((gain, t));
            }
        }
        if let Some((gain, t)) = best {
            self.heap.push((gain, v as u32, t, self.version[v]));
        }
    }
}
