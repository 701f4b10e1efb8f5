//! The least CC time of a d-cube algorithm over *all* bijections onto a ring
//! or torus, waiting included (xor paper §2.1), for small d: does giving up
//! constant distances ever pay? (On the line of figure 4 it does not.)
//!
//! The communication time, in units of T_c, is I = max_n I_{d−1}(n) with
//! I_i(n) = D_i(n) + max(I_{i−1}(n), I_{i−1}(n ⊕ e_i)) (the compute phases
//! add d·T_a to every bijection alike). Branch and bound: cube node 0 on
//! host node 0 (the torus is vertex-transitive and the recurrence is the
//! same from every cube node), cube node 1 on one node per orbit of the
//! symmetries fixing 0, the others in binary order onto every unused node.
//! A placement is cut when a bound reaches the best known (the constant
//! distance optimum's Σ D_i first): every node n ends with I(n) ≥ Σ_i D_i(n)
//! (each stage adds its own distance), an edge not placed yet counting 1;
//! and once the sub-cube of dimensions 0..=k is placed its stages are exact
//! and every later stage adds at least 1.

use std::time::Instant;

use super::constant::{optimal_constant, torus_sides, SearchOptions};
use super::host::SearchHost;
use crate::error::{Error, Result};
use crate::spec::Spec;

/// Largest cube searched over all bijections (2^d! placements before cuts).
pub const MAX_BIJECTION_DIMENSION: u32 = 5;

/// What the search over all bijections found.
#[derive(Debug, Clone, serde::Serialize)]
pub struct BestBijection {
    /// The guest, `cube:D`.
    pub guest: String,
    /// The host.
    pub host: String,
    /// The least communication time over all bijections, in units of T_c
    /// (the CC time is d·T_a + T_c times this).
    pub min_communication: u64,
    /// Host node of every cube node in a bijection reaching it.
    pub map: Vec<u64>,
    /// The least Σ D_i over constant-distance embeddings (their
    /// communication time: no one waits).
    pub constant_min: u64,
    /// Whether some bijection beats every constant-distance embedding.
    pub beats_constant: bool,
    /// True when the search ran to completion.
    pub proved: bool,
    /// Placements tried.
    pub nodes_searched: u64,
    /// Wall time.
    pub seconds: f64,
}

/// The least communication time of a CC d-cube algorithm over all
/// bijections of cube:`d` onto `host` (see the module docs).
pub fn optimal_bijection(d: u32, host: &Spec, options: &SearchOptions) -> Result<BestBijection> {
    if d == 0 || d > MAX_BIJECTION_DIMENSION {
        return Err(Error::Parameter(format!(
            "cube:{d}: the search over all bijections takes d from 1 to {MAX_BIJECTION_DIMENSION} \
             (it may try (2^d)! placements)"
        )));
    }
    let started = Instant::now();
    let constant = optimal_constant(d, host, &SearchOptions::default())?;
    let h = SearchHost::new(&torus_sides(d, host)?);
    let n = h.nodes();
    let best = u64::from(constant.min_sum);
    let mut search = Search {
        h: &h,
        d: d as usize,
        place: vec![u16::MAX; n],
        used: vec![false; n],
        best,
        found: None,
        nodes: 0,
        node_limit: options.node_limit,
        aborted: false,
        stages: vec![0u64; n],
    };
    search.place[0] = 0;
    search.used[0] = true;
    search.descend(1);
    let (min_communication, map) = match search.found {
        Some((value, place)) => (value, place.iter().map(|&v| u64::from(v)).collect()),
        None => (best, constant.map.clone()),
    };
    Ok(BestBijection {
        guest: Spec::Cube(d).to_string(),
        host: host.to_string(),
        min_communication,
        map,
        constant_min: best,
        beats_constant: min_communication < best,
        proved: !search.aborted,
        nodes_searched: search.nodes,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The communication time of a complete placement: the recurrence run on
/// the sub-cube of dimensions 0..`dims` (nodes 0..2^dims), its maximum.
fn recurrence(h: &SearchHost, place: &[u16], dims: usize, scratch: &mut [u64]) -> u64 {
    let m = 1usize << dims;
    scratch[..m].fill(0);
    for i in 0..dims {
        for v in 0..m {
            let w = v ^ (1 << i);
            if v < w {
                let t = scratch[v].max(scratch[w]) + u64::from(h.d(place[v], place[w]));
                scratch[v] = t;
                scratch[w] = t;
            }
        }
    }
    scratch[..m].iter().copied().max().unwrap_or(0)
}

/// The branch and bound's state.
struct Search<'a> {
    h: &'a SearchHost,
    d: usize,
    place: Vec<u16>,
    used: Vec<bool>,
    /// Only times below this are searched for.
    best: u64,
    found: Option<(u64, Vec<u16>)>,
    nodes: u64,
    node_limit: u64,
    aborted: bool,
    /// Scratch for the recurrence.
    stages: Vec<u64>,
}

impl Search<'_> {
    fn descend(&mut self, v: usize) {
        if self.aborted {
            return;
        }
        let n = self.place.len();
        if v == n {
            let value = recurrence(self.h, &self.place, self.d, &mut self.stages);
            if value < self.best {
                self.best = value;
                self.found = Some((value, self.place.clone()));
            }
            return;
        }
        self.nodes += 1;
        if self.node_limit > 0 && self.nodes >= self.node_limit {
            self.aborted = true;
            return;
        }
        for u in 0..n as u16 {
            if self.used[u as usize] {
                continue;
            }
            // Cube node 1: the least node of its orbit under the symmetries fixing 0.
            if v == 1 && self.h.symmetries().iter().any(|g| g[u as usize] < u) {
                continue;
            }
            self.place[v] = u;
            self.used[u as usize] = true;
            if self.bound(v) < self.best {
                self.descend(v + 1);
            }
            self.used[u as usize] = false;
            self.place[v] = u16::MAX;
            if self.aborted {
                return;
            }
        }
    }

    /// A lower bound on the communication time of any completion once
    /// nodes 0..=v are placed.
    fn bound(&mut self, v: usize) -> u64 {
        let mut bound = 0u64;
        // Σ_i D_i(m) for every placed m, unplaced edges counting 1.
        for m in 0..=v {
            let mut sum = 0u64;
            for i in 0..self.d {
                let w = m ^ (1 << i);
                sum += match self.place[w] {
                    u16::MAX => 1,
                    at => u64::from(self.h.d(self.place[m], at)),
                };
            }
            bound = bound.max(sum);
        }
        // A complete sub-cube of dimensions 0..=k: exact stages, then ≥ 1 each.
        let placed = v + 1;
        if placed.is_power_of_two() && placed >= 2 {
            let dims = placed.trailing_zeros() as usize;
            let exact = recurrence(self.h, &self.place, dims, &mut self.stages);
            bound = bound.max(exact + (self.d - dims) as u64);
        }
        bound
    }
}
