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
//! distance optimum's Σ D_i first):
//! * every node n ends with I(n) ≥ Σ_i D_i(n) (each stage adds its own
//!   distance): a placed node's unplaced neighbours take distinct free host
//!   nodes, so they add at least its distances to the nearest free ones,
//!   and an unplaced node goes to the free node best for its placed
//!   neighbours (checked first for the node just placed and its
//!   neighbours, the part that placing it changes most);
//! * the recurrence itself only grows with the edges' lengths, so it run
//!   on a lower bound of every length (exact where both ends are placed,
//!   the nearest free node's distance where one is, 1 where none is)
//!   bounds every completion — every chain of stages, the sub-cubes already
//!   complete among them.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::error::{Error, Result};
use crate::optimal::bounds::wirelength::{literature, Literature};
use crate::optimal::host::torus_sides;
use crate::optimal::host::SearchHost;
use crate::optimal::search::constant::{optimal_constant, SearchOptions};
use crate::progress::Progress;
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
    /// What the published least wirelength implies: every bijection takes
    /// at least `literature.min_sum` (module docs of [`crate::optimal::bounds::wirelength`];
    /// cited, not used by the search).
    pub literature: Literature,
}

/// A stopped search over all bijections, to go on from
/// (`options.checkpoint`): the last branch on cube nodes 1 and 2 it
/// finished — the branches are taken in one order, so every one before it
/// is done too — and what it had found.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct Checkpoint {
    /// `all-bijections`: not a checkpoint of the constant-distance search.
    search: String,
    guest: String,
    host: String,
    /// (host of cube node 1, host of cube node 2); node 2 = u16::MAX: every
    /// branch under that node 1.
    done: (u16, u16),
    best: u64,
    found: Option<(u64, Vec<u16>)>,
    nodes: u64,
}

/// What [`Checkpoint::search`] says.
const CHECKPOINT_KIND: &str = "all-bijections";

/// Reads a checkpoint of the same search, guest and host.
fn read_checkpoint(path: &Path, guest: &str, host: &str) -> Result<Checkpoint> {
    let text = crate::optimal::run::record::checkpoint_text(path)?;
    let c: Checkpoint = serde_json::from_str(&text)
        .ok()
        .filter(|c: &Checkpoint| c.search == CHECKPOINT_KIND)
        .ok_or_else(|| {
            Error::File(format!(
                "{}: not a checkpoint of `topoembed optimal --all-bijections`; remove it to \
                 start afresh",
                path.display()
            ))
        })?;
    crate::optimal::run::record::same_problem(path, (&c.guest, &c.host), (guest, host))?;
    Ok(c)
}

/// The least communication time of a CC d-cube algorithm over all
/// bijections of cube:`d` onto `host` (see the module docs). With
/// `options.checkpoint`, a stopped search writes where it got to after
/// every branch on cube nodes 1 and 2, and goes on from there when run
/// again; a finished one removes the file.
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
    let names = (Spec::Cube(d).to_string(), host.to_string());
    let resume = match options.checkpoint {
        Some(path) if path.exists() => Some(read_checkpoint(path, &names.0, &names.1)?),
        _ => None,
    };
    let mut search = Search {
        h: &h,
        d: d as usize,
        place: vec![u16::MAX; n],
        used: vec![false; n],
        best,
        found: None,
        nodes: 0,
        node_limit: options.node_limit,
        stop: options.stop,
        progress: options.progress,
        second_branches: 0,
        checkpoint: options.checkpoint.map(|path| (path, names.clone())),
        resume: None,
        failure: None,
        aborted: false,
        stages: vec![0u64; n],
        lengths: vec![0u64; n * d as usize],
    };
    search.place[0] = 0;
    search.used[0] = true;
    // Progress: the branches on cube nodes 1 and 2 (node 1 one per orbit,
    // node 2 on any other free node).
    let firsts = (0..n as u16)
        .filter(|&u| u != 0 && !h.symmetries().iter().any(|g| g[u as usize] < u))
        .count();
    if let Some(p) = options.progress {
        p.add_total((firsts * n.saturating_sub(2)) as u64);
    }
    if let Some(c) = resume {
        search.resume = Some(c.done);
        search.best = c.best;
        search.found = c.found;
        search.nodes = c.nodes;
    }
    search.descend(1);
    if let Some(e) = search.failure.take() {
        return Err(e);
    }
    if let (Some(path), false) = (options.checkpoint, search.aborted) {
        // Done: a checkpoint left behind would resume a finished search.
        let _ = std::fs::remove_file(path);
    }
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
        literature: literature(d, host)?,
    })
}

/// The communication time of a complete placement: every edge's length
/// read off the placement, then the recurrence on those lengths.
fn recurrence(
    h: &SearchHost,
    place: &[u16],
    d: usize,
    lengths: &mut [u64],
    scratch: &mut [u64],
) -> u64 {
    for (m, &at) in place.iter().enumerate() {
        for i in 0..d {
            lengths[m * d + i] = u64::from(h.d(at, place[m ^ (1 << i)]));
        }
    }
    recurrence_of_lengths(lengths, d, scratch)
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
    /// Set to end the search early (Ctrl-C), looked at every 1024 nodes.
    stop: Option<&'a AtomicBool>,
    /// Advanced once per branch on cube nodes 1 and 2.
    progress: Option<&'a Progress>,
    /// Branches on node 2 counted under the current node 1.
    second_branches: u64,
    /// Where to write the checkpoint, and (guest, host) as it names them.
    checkpoint: Option<(&'a Path, (String, String))>,
    /// The last branch on nodes 1 and 2 a resumed checkpoint finished.
    resume: Option<(u16, u16)>,
    /// A checkpoint that could not be written.
    failure: Option<Error>,
    aborted: bool,
    /// Scratch for the recurrence.
    stages: Vec<u64>,
    /// Scratch for the bound: a lower bound on every edge's length, by
    /// node m and dimension i at m·d + i.
    lengths: Vec<u64>,
}

impl Search<'_> {
    fn descend(&mut self, v: usize) {
        if self.aborted {
            return;
        }
        let n = self.place.len();
        if v == n {
            let value = recurrence(
                self.h,
                &self.place,
                self.d,
                &mut self.lengths,
                &mut self.stages,
            );
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
        if self.nodes % 1024 == 0 && self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
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
            // Branches a resumed checkpoint finished.
            let finished = match (v, self.resume) {
                (1, Some((first, second))) => u < first || u == first && second == u16::MAX,
                (2, Some((first, second))) => (self.place[1], u) <= (first, second),
                _ => false,
            };
            if finished {
                if v == 1 {
                    crate::progress::advance(self.progress, n as u64 - 2);
                } else {
                    // Counted under its node 1, as a searched one is.
                    crate::progress::advance(self.progress, 1);
                    self.second_branches += 1;
                }
                continue;
            }
            self.place[v] = u;
            self.used[u as usize] = true;

            if self.least_of_its_level(v)
                && self.quick_bound(v) < self.best
                && self.bound(v) < self.best
            {
                self.descend(v + 1);
            }
            self.used[u as usize] = false;
            self.place[v] = u16::MAX;
            if self.aborted {
                return;
            }
            match v {
                2 => {
                    crate::progress::advance(self.progress, 1);
                    self.second_branches += 1;
                    self.save((self.place[1], u));
                }
                // Node 1's branches on node 2 that were cut with it count
                // as done too.
                1 => {
                    let left = (n as u64 - 2).saturating_sub(self.second_branches);
                    crate::progress::advance(self.progress, left);
                    self.second_branches = 0;
                    self.save((u, u16::MAX));
                }
                _ => {}
            }
        }
    }

    /// Writes the checkpoint, if asked for one: every branch on nodes 1
    /// and 2 up to `done` is finished. A failure ends the search.
    fn save(&mut self, done: (u16, u16)) {
        let Some((path, (guest, host))) = &self.checkpoint else {
            return;
        };
        let c = Checkpoint {
            search: CHECKPOINT_KIND.to_string(),
            guest: guest.clone(),
            host: host.clone(),
            done,
            best: self.best,
            found: self.found.clone(),
            nodes: self.nodes,
        };
        let temporary = crate::optimal::run::record::temporary_beside(path);
        let written = serde_json::to_string(&c)
            .map_err(|e| e.to_string())
            .and_then(|text| {
                std::fs::write(&temporary, text)
                    .and_then(|()| std::fs::rename(&temporary, path))
                    .map_err(|e| e.to_string())
            });
        if let Err(e) = written {
            self.failure = Some(Error::File(format!(
                "{}: cannot write the checkpoint: {e}",
                path.display()
            )));
            self.aborted = true;
        }
    }

    /// Whether, once nodes 0..=v are placed, every level they complete
    /// (the sub-cube of the labels below 2^l, l ≥ 2, complete when v =
    /// 2^l − 1) is the least of its transforms label by label: f ↦
    /// σ(f(· ⊕ t) − f(t)) for t below 2^l and σ a symmetry of the torus
    /// fixing node 0. Those transforms keep the communication time (the
    /// recurrence is the same from every cube node, so a translation of
    /// the cube permutes the I(n); σ keeps every distance), and the least
    /// transform of a bijection is least on each level's labels too (a
    /// transform with t below 2^l maps them onto themselves): the search
    /// need only look at least transforms (the lex-leader argument of
    /// [`crate::optimal::proof::shape_clauses`], without its permutations of dimensions,
    /// which change the recurrence). Node 1's orbit is the level-1 case.
    fn least_of_its_level(&self, v: usize) -> bool {
        let labels = v + 1;
        if labels < 4 || !labels.is_power_of_two() {
            return true;
        }
        let place = &self.place[..labels];
        (0..labels).all(|t| {
            self.h.symmetries().iter().all(|sigma| {
                let moved = |y: usize| sigma[self.h.sub(place[t ^ y], place[t]) as usize];
                (1..labels)
                    .find(|&y| moved(y) != place[y])
                    .map_or(true, |y| moved(y) > place[y])
            })
        })
    }

    /// A lower bound on the communication time of any completion once
    /// nodes 0..=v are placed. Every edge gets a lower bound on its length
    /// (exact when both ends are placed; with one end placed, the distance
    /// from it to the nearest free host node; else 1), and since the
    /// recurrence only grows with the lengths, running it on those bounds
    /// bounds every completion (this holds every chain of stages, the
    /// sub-cubes already complete among them). Beside it, every node n ends
    /// with I(n) ≥ Σ_i D_i(n): a placed node's unplaced neighbours take
    /// distinct free nodes (at least the nearest ones), and an unplaced
    /// node goes to some free node (the best of them for its placed
    /// neighbours, 1 for each other).
    fn bound(&mut self, v: usize) -> u64 {
        let n = self.place.len();
        let mut bound = 0u64;
        for m in 0..n {
            let (node_sum, nearest) = if m <= v {
                self.placed_node(m)
            } else {
                (self.unplaced_node(m), 1)
            };
            bound = bound.max(node_sum);
            for i in 0..self.d {
                let w = m ^ (1 << i);
                self.lengths[m * self.d + i] = match (m <= v, w <= v) {
                    (true, true) => u64::from(self.h.d(self.place[m], self.place[w])),
                    (true, false) => nearest,
                    (false, true) => 0, // set from w's side below
                    (false, false) => 1,
                };
            }
        }
        // Edges seen from their unplaced end take the placed end's value.
        for m in v + 1..n {
            for i in 0..self.d {
                let w = m ^ (1 << i);
                if w <= v {
                    self.lengths[m * self.d + i] = self.lengths[w * self.d + i];
                }
            }
        }
        bound.max(recurrence_of_lengths(
            &self.lengths,
            self.d,
            &mut self.stages,
        ))
    }

    /// The node sums of v, just placed, and of its placed neighbours (the
    /// part of [`Self::bound`] that placing v changes most): cheap, and it
    /// cuts most placements before the whole bound is computed.
    fn quick_bound(&self, v: usize) -> u64 {
        (0..=self.d)
            .map(|i| if i == self.d { v } else { v ^ (1 << i) })
            .filter(|&m| m <= v)
            .map(|m| self.placed_node(m).0)
            .max()
            .unwrap_or(0)
    }

    /// For placed cube node m: a lower bound on its final Σ_i D_i(m) (its
    /// placed neighbours' distances plus, for its k unplaced ones, the
    /// distances to the k nearest free host nodes, which they must take
    /// distinct ones of) and the nearest free node's distance (a bound on
    /// each of those k edges; 1 when k = 0, unused then).
    fn placed_node(&self, m: usize) -> (u64, u64) {
        let at = self.place[m];
        let (placed, unplaced) = self.distances_to_placed(m, at);
        let (free_sum, nearest) = self.nearest_free(at, unplaced);
        (placed + free_sum, nearest)
    }

    /// For unplaced cube node m (while some host node is free): a lower
    /// bound on its final Σ_i D_i(m). It goes to some free node, so its
    /// placed neighbours are at least as far as from the best free node
    /// for them, and each unplaced neighbour at least 1 away.
    fn unplaced_node(&self, m: usize) -> u64 {
        let mut spots = (0..self.place.len() as u16)
            .filter(|&at| !self.used[at as usize])
            .map(|at| self.distances_to_placed(m, at));
        // Every spot sees the same unplaced neighbours: count them once.
        let Some((first, unplaced)) = spots.next() else {
            return 0;
        };
        if unplaced == self.d {
            return self.d as u64;
        }
        let best_spot = spots.map(|(sum, _)| sum).fold(first, u64::min);
        best_spot + unplaced as u64
    }

    /// Cube node m's placed neighbours' distances from host node `at`,
    /// summed, and how many of its neighbours are unplaced.
    fn distances_to_placed(&self, m: usize, at: u16) -> (u64, usize) {
        let mut sum = 0u64;
        let mut unplaced = 0;
        for i in 0..self.d {
            match self.place[m ^ (1 << i)] {
                u16::MAX => unplaced += 1,
                w => sum += u64::from(self.h.d(at, w)),
            }
        }
        (sum, unplaced)
    }

    /// The distances from host node `at` to its `k` nearest free nodes,
    /// searched sphere by sphere: their sum and the least (1 when k = 0).
    /// No allocation: this runs for every candidate of the search.
    fn nearest_free(&self, at: u16, k: usize) -> (u64, u64) {
        let (mut sum, mut nearest, mut found) = (0u64, 1u64, 0usize);
        for r in 1..=self.h.diameter() {
            for &s in self.h.sphere(r) {
                if found == k {
                    return (sum, nearest);
                }
                if !self.used[self.h.add(at, s) as usize] {
                    if found == 0 {
                        nearest = u64::from(r);
                    }
                    sum += u64::from(r);
                    found += 1;
                }
            }
        }
        (sum, nearest)
    }
}

/// The recurrence's maximum on a whole cube of `d` dimensions whose edge
/// from node m along dimension i is `lengths[m·d + i]` long.
fn recurrence_of_lengths(lengths: &[u64], d: usize, scratch: &mut [u64]) -> u64 {
    let m = 1usize << d;
    scratch[..m].fill(0);
    for i in 0..d {
        for v in 0..m {
            let w = v ^ (1 << i);
            if v < w {
                let t = scratch[v].max(scratch[w]) + lengths[v * d + i];
                scratch[v] = t;
                scratch[w] = t;
            }
        }
    }
    scratch[..m].iter().copied().max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A search state holding the first `placed` nodes of the bijection
    /// `map` (cube node → host node), nothing found yet.
    fn state<'a>(h: &'a SearchHost, d: usize, map: &[u16], placed: usize) -> Search<'a> {
        let n = map.len();
        let mut search = Search {
            h,
            d,
            place: vec![u16::MAX; n],
            used: vec![false; n],
            best: u64::MAX,
            found: None,
            nodes: 0,
            node_limit: 0,
            stop: None,
            progress: None,
            second_branches: 0,
            checkpoint: None,
            resume: None,
            failure: None,
            aborted: false,
            stages: vec![0u64; n],
            lengths: vec![0u64; n * d],
        };
        for (m, &at) in map.iter().enumerate().take(placed) {
            search.place[m] = at;
            search.used[at as usize] = true;
        }
        search
    }

    /// On ring:8, torus:4x2 and torus:2x2x2, every bijection of cube:3
    /// with node 0 on node 0: each transform the search compares it with
    /// keeps its communication time, its least transform passes at every
    /// level (so the optimum is never cut), and it is cut at the top level
    /// exactly when it is not that least one.
    #[test]
    fn the_least_transform_keeps_the_time_and_is_never_cut() {
        fn permutations(rest: &mut Vec<u16>, k: usize, out: &mut dyn FnMut(&[u16])) {
            if k == rest.len() {
                return out(rest);
            }
            for j in k..rest.len() {
                rest.swap(k, j);
                permutations(rest, k + 1, out);
                rest.swap(k, j);
            }
        }
        let d = 3;
        for sides in [vec![8], vec![4, 2], vec![2, 2, 2]] {
            let h = SearchHost::new(&sides);
            let (mut lengths, mut scratch) = (vec![0u64; 8 * d], vec![0u64; 8]);
            let mut time = |place: &[u16]| recurrence(&h, place, d, &mut lengths, &mut scratch);
            let mut cut = 0;
            permutations(&mut (0..8).collect(), 1, &mut |place| {
                let own = time(place);
                let mut transforms: Vec<Vec<u16>> = Vec::new();
                for t in 0..8 {
                    for sigma in h.symmetries() {
                        transforms.push(
                            (0..8)
                                .map(|y| sigma[h.sub(place[t ^ y], place[t]) as usize])
                                .collect(),
                        );
                    }
                }
                for g in &transforms {
                    assert_eq!(time(g), own, "{sides:?} {place:?} -> {g:?}");
                }
                let least = transforms.iter().min().unwrap();
                let search = state(&h, d, least, 8);
                assert!(search.least_of_its_level(3) && search.least_of_its_level(7));
                let kept = state(&h, d, place, 8).least_of_its_level(7);
                assert_eq!(kept, place == least.as_slice(), "{sides:?} {place:?}");
                cut += usize::from(!kept);
            });
            assert!(cut > 0, "{sides:?}");
        }
    }

    proptest! {
        /// Both bounds, at every prefix of a random bijection, stay at or
        /// below the communication time of that bijection (so no cut
        /// loses a completion), and with every node placed the bound is
        /// that time exactly.
        #[test]
        fn the_bounds_never_exceed_a_completion(
            host in prop::sample::select(vec!["ring:16", "torus:4x4", "torus:8x2", "ring:32", "torus:16x2"]),
            seed in any::<u64>(),
        ) {
            let spec: Spec = host.parse().unwrap();
            let n = spec.sides().unwrap().iter().product::<u64>() as usize;
            let d = n.trailing_zeros() as usize;
            let h = SearchHost::new(&torus_sides(d as u32, &spec).unwrap());
            // A shuffle of the host nodes by a small LCG from the seed.
            let mut map: Vec<u16> = (0..n as u16).collect();
            let mut x = seed | 1;
            for i in (1..n).rev() {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                map.swap(i, (x >> 33) as usize % (i + 1));
            }
            // The time by the library's own recurrence on the explicit host
            // (an oracle independent of the search's tables).
            let explicit = crate::topology::parse(host).unwrap();
            let mapping = crate::io::Mapping::new(map.iter().map(|&u| u64::from(u)).collect());
            let time = crate::model::cc_recurrence(d as u32, &mapping, explicit.as_ref(), None)
                .unwrap()
                .communication;
            let mut s = state(&h, d, &map, n);
            prop_assert_eq!(
                recurrence(&h, &map, d, &mut s.lengths, &mut s.stages),
                time
            );
            for placed in 1..=n {
                let mut s = state(&h, d, &map, placed);
                let v = placed - 1;
                prop_assert!(s.quick_bound(v) <= time, "quick, {placed} placed");
                let bound = s.bound(v);
                prop_assert!(bound <= time, "{bound} > {time} with {placed} placed");
                if placed == n {
                    prop_assert_eq!(bound, time);
                }
            }
        }
    }
}
