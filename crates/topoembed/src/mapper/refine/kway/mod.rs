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
//! is a feasible placement. A seed whose best move loses most of its
//! volume starts no search ([`SEED_FLOOR`]), and a committed search locks
//! its vertices for the rest of the pass, all it moved or only the moves
//! it kept ([`Lock`]).
//!
//! Searches run in batches, in parallel, as Mt-KaHyPar's do: every search
//! of a batch starts from the placement as the batch found it (moves live
//! in the search's own copy, [`Scratch`]), and the chains are then
//! committed one by one in seed order, each move's gain recomputed on the
//! placement as it now stands and the chain cut at its best point again
//! (a vertex an earlier chain of the batch moved ends it). A batch's seeds
//! are fixed by the seed order and the graph's size alone
//! ([`super::batch_size`]: one at a time up to 100 000 vertices, the
//! sequential FM exactly), so the same seed gives the same placement on
//! any number of threads. The batches run on a team of the pool's threads
//! ([`crate::team`]) that stays for the whole refinement, each thread with
//! one copy that catches up on the log of committed moves before its next
//! search.

use crate::mapper::distance::HostDistance;
use crate::mapper::graph::{WGraph, BOUNDS_AHEAD};
use crate::mapper::rng::Rng;
use crate::prefetch::prefetch;
use crate::team::{with_team, Team};

mod key;
mod rules;

use key::{gains_fit_i64, MoveKey, Packed, Wide};
use rules::{least_distance, SEED_FLOOR};
pub use rules::{Lock, Rules};

use super::queue::VertexHeap;
use super::{border_flags, node_loads, refresh_border, Capacity, Known, Tally};

/// A search stops after this many moves without a new best.
const FRUITLESS: usize = 16;
/// Most moves of one search.
const MAX_CHAIN: usize = 512;
/// Claims a thread of the team makes per batch at most
/// ([`crate::team::Team::run`]): a batch's searches are claimed in runs of
/// 1/(64 × threads) of the batch. A seed that starts no search (below the
/// seed floor) takes a fraction of a microsecond, about what a claim costs
/// when the counter's cache line is on the other core; one search a claim
/// made k-way FM on the 10^6-vertex stencil onto torus:16x16x16 (batches
/// of 1024, two threads) 0.96–1.00 s where runs of 8 took 0.77–0.81 s
/// (mdual, batches of 167–1010: 0.24 and 0.22–0.23 s at its finest level).
/// (Claims take no copy: a thread keeps one for the whole refinement.
/// When each piece of a parallel loop took a copy and caught it up,
/// rayon's adaptive splitting cut a batch of 1024 searches into hundreds
/// of pieces on 16 threads: 682 009 copies taken over the stencil's k-way
/// FM, 6.1 s of catching up against 3.4 s of searching — 16-core Xeon,
/// 2026-12-04.)
const CLAIMS_PER_THREAD: usize = 64;
/// Improves `place` (host node per vertex, every host node's load within
/// `cap`; its hop-bytes `known` where the caller has them) in up to
/// `passes` passes, stopping when a pass gains under 0.1 %. Returns the
/// hop-bytes gained (exact: the objective before less after).
pub fn refine(
    g: &WGraph,
    dist: &HostDistance,
    place: &mut [u64],
    cap: Capacity,
    (passes, rules): (usize, Rules),
    known: Known,
    rng: &mut Rng,
) -> u128 {
    let batch = super::batch_size(g.n(), g.n());
    refine_in_batches(g, dist, place, cap, (passes, batch, rules), known, rng)
}

/// [`refine`] with `batch` searches per batch (at least 1) whatever the
/// graph's size, its searches run by `rules`.
pub fn refine_in_batches(
    g: &WGraph,
    dist: &HostDistance,
    place: &mut [u64],
    cap: Capacity,
    plan: (usize, usize, Rules),
    known: Known,
    rng: &mut Rng,
) -> u128 {
    match gains_fit_i64(g, dist) {
        true => batches::<Packed>(g, dist, place, cap, plan, known, rng),
        false => batches::<Wide>(g, dist, place, cap, plan, known, rng),
    }
}

/// [`refine_in_batches`] with the searches' queues keyed by `K`.
fn batches<K: MoveKey>(
    g: &WGraph,
    dist: &HostDistance,
    place: &mut [u64],
    cap: Capacity,
    (passes, batch, rules): (usize, usize, Rules),
    known: Known,
    rng: &mut Rng,
) -> u128 {
    let n = g.n();
    let mut load = node_loads(g, place);
    let mut locked = vec![0u32; n];
    // Whether each vertex has a neighbour on another host node (a search
    // starts only there), kept up to date as chains are committed: the
    // scan for a batch's seeds then reads one flag per vertex, where reading
    // its neighbours' placements missed the cache (a tenth of k-way FM's
    // time on the 10^6-vertex stencil, and none of it parallel).
    let mut border = border_flags(g, place);
    let batch = batch.max(1);
    let current = super::start_hop_bytes(g, dist, place, known);
    let mut total = 0u128;
    let mut seeds: Vec<u32> = Vec::with_capacity(batch);
    // Vertices the batches moved or locked, in order, pass after pass
    // (each pass's first at `log.starts`), for the scratch copies: a copy
    // catches up when it next runs a search ([`Scratch::catch_up`]), on
    // its own thread.
    let mut log = Log::default();
    let mut undo: Vec<(usize, u64)> = Vec::new();
    let unit = least_distance(dist);
    // Every thread's scratch copy ([`Scratch`]), made where it first runs
    // a search and kept for every pass.
    with_team(batch > 1, |team: &mut Team<'_, Option<Scratch<K>>>| {
        for pass in 1..=passes as u32 {
            let mut gained = 0u128;
            let order = rng.permutation(n);
            let mut scan = Scan {
                order: &order,
                next: 0,
                batch,
            };
            log.starts.push(log.changed.len());
            scan.seeds(&mut seeds, &locked, &border, g, pass);
            while !seeds.is_empty() {
                let frozen = Frozen {
                    g,
                    dist,
                    cap,
                    pass,
                    floor: rules.seed_floor.then_some(unit),
                };
                let chains: Vec<Chain> = {
                    let (place, load, locked, log) = (&*place, &load, &locked, &log);
                    let grain = seeds
                        .len()
                        .div_ceil(CLAIMS_PER_THREAD * rayon::current_num_threads());
                    team.run((seeds.len(), grain), |scratch, i| {
                        let scratch =
                            scratch.get_or_insert_with(|| Scratch::new(place, load, locked, log));
                        scratch.catch_up(g, log, place);
                        scratch.grow(&frozen, seeds[i] as usize)
                    })
                };
                // The commits and the next batch's seeds: serial, the
                // team's other threads spinning meanwhile.
                let mut live = Live {
                    g,
                    dist,
                    cap,
                    place: &mut *place,
                    load: &mut load,
                    locked: &mut locked,
                    pass,
                    undo: &mut undo,
                };
                for chain in &chains {
                    gained += live.commit(chain, rules.lock) as u128;
                    rules.lock.log(&mut log.changed, chain, live.undo);
                    // The moves kept: their vertices and neighbours may have
                    // crossed onto or off the border.
                    for &(v, _) in live.undo.iter() {
                        refresh_border(g, live.place, &mut border, v);
                    }
                }
                scan.seeds(&mut seeds, &locked, &border, g, pass);
            }
            total += gained;
            if gained * 1000 <= current - total.min(current) {
                break;
            }
        }
    });
    total
}

/// Where a pass is in its order of vertices.
struct Scan<'a> {
    order: &'a [u32],
    /// The order's next vertex to scan.
    next: usize,
    /// Most seeds a batch.
    batch: usize,
}

impl Scan<'_> {
    /// The next batch's seeds into `seeds`: up to `batch` vertices of the
    /// order, each on the border and not yet locked in pass `pass`.
    fn seeds(
        &mut self,
        seeds: &mut Vec<u32>,
        locked: &[u32],
        border: &[bool],
        g: &WGraph,
        pass: u32,
    ) {
        let (order, n) = (self.order, self.order.len());
        seeds.clear();
        while self.next < n && seeds.len() < self.batch {
            // The flags the scan reads next; one search at a time, the
            // row its seed's search reads too (in a batch the searches
            // read theirs on their own threads, and asking for every
            // scanned row held up the scan: most vertices are inside a
            // part).
            let flags = |v: usize| {
                prefetch(locked.as_ptr().wrapping_add(v));
                prefetch(border.as_ptr().wrapping_add(v));
            };
            match self.batch {
                1 => g.prefetch_ahead(order, self.next, flags),
                _ => order
                    .get(self.next + BOUNDS_AHEAD)
                    .map_or((), |&v| flags(v as usize)),
            }
            let s = order[self.next] as usize;
            self.next += 1;
            if locked[s] != pass && border[s] {
                seeds.push(s as u32);
            }
        }
    }
}

/// The settings every search of a pass reads.
struct Frozen<'a> {
    g: &'a WGraph,
    dist: &'a HostDistance<'a>,
    cap: Capacity,
    pass: u32,
    /// The host's least distance ([`least_distance`]) where seeds below
    /// [`SEED_FLOOR`] are skipped; `None`: every border vertex a seed.
    floor: Option<u64>,
}

/// One search's moves: (vertex, host node it went to), in order; the
/// first `best` of them gained the most.
struct Chain {
    moves: Vec<(u32, u64)>,
    best: usize,
}

/// A search's own copy of the placement as the batch found it (brought up
/// to date after every batch), reused search after search: a search moves
/// vertices in it and moves them all back before it returns.
struct Scratch<K> {
    /// Host node per vertex, in 32 bits (hosts have at most 2^24 nodes):
    /// half the cache lines of the caller's placement, read at every
    /// neighbour of every rated vertex.
    place: Vec<u32>,
    load: Vec<u64>,
    /// Pass in which a vertex last moved or was tried (once a pass each).
    locked: Vec<u32>,
    /// Moves of the current search: (vertex, host node it left).
    log: Vec<(u32, u32)>,
    /// Each queued vertex's best move ([`MoveKey`]: gain, vertex, target).
    heap: VertexHeap<K>,
    /// (host node, volume) around the vertex being rated.
    around: Vec<(u32, u64)>,
    /// What sums `around`.
    tally: Tally,
    /// How much of the log of changed vertices ([`Log`]) the copy has
    /// caught up on.
    seen: usize,
}

/// The vertices committed chains moved or locked, in order, over every
/// pass of one refinement: the scratch copies catch up on it.
#[derive(Default)]
struct Log {
    changed: Vec<u32>,
    /// Where each pass's entries begin (pass k's at `starts[k - 1]`).
    starts: Vec<usize>,
}

impl<K: MoveKey> Scratch<K> {
    /// A copy of the placement as it stands, every vertex of `log` in it.
    fn new(place: &[u64], load: &[u64], locked: &[u32], log: &Log) -> Scratch<K> {
        Scratch {
            place: place.iter().map(|&h| h as u32).collect(),
            load: load.to_vec(),
            locked: locked.to_vec(),
            log: Vec::new(),
            heap: VertexHeap::new(place.len()),
            around: Vec::new(),
            tally: Tally::new(load.len(), MAX_TALLIED_HOSTS),
            seen: log.changed.len(),
        }
    }

    /// Brings the copy up to date: the vertices of `log` it has not seen
    /// now sit on `place[v]` and are locked in the pass that logged them.
    /// A copy catches up when it runs a batch's search, on its own thread,
    /// not after every batch: a second parallel loop per batch woke the
    /// threads and waited for them twice as often (mdual onto torus:8x8x8,
    /// two threads: 1 173 batches). A copy that ran no search in a pass
    /// catches up on it in a later one.
    fn catch_up(&mut self, g: &WGraph, log: &Log, place: &[u64]) {
        let end = log.changed.len();
        while self.seen < end {
            // The pass of entry `seen`: the last to start at or before it.
            let pass = log.starts.partition_point(|&s| s <= self.seen);
            let until = log.starts.get(pass).copied().unwrap_or(end).min(end);
            for &v in &log.changed[self.seen..until] {
                let v = v as usize;
                self.apply(g, v, place[v] as u32);
                self.locked[v] = pass as u32;
            }
            self.seen = until;
        }
    }

    /// One search from seed `s`; the copy is as it was when it returns.
    fn grow(&mut self, f: &Frozen, s: usize) -> Chain {
        self.heap.clear();
        self.log.clear();
        self.push_best(f, s);
        // The seed floor: a vertex whose best move loses more than
        // SEED_FLOOR of its volume at one least distance starts nothing.
        if let (Some(unit), Some(key)) = (f.floor, self.heap.peek_key()) {
            let gain = key.gain();
            let volume: u64 = f.g.edges(s).map(|(_, w)| w).sum();
            if (gain as f64) < -(SEED_FLOOR * volume as f64 * unit as f64) {
                self.heap.clear();
                return Chain {
                    moves: Vec::new(),
                    best: 0,
                };
            }
        }
        let (mut sum, mut best, mut best_len, mut since) = (0i128, 0i128, 0usize, 0usize);
        // Locked vertices are never queued: every vertex popped is free.
        while let Some((key, v)) = self.heap.pop() {
            let (gain, t, v) = (key.gain(), key.target(), v as usize);
            if !self.fits(f, self.place[v], t, f.g.vw[v]) {
                // The target filled up since: look again.
                self.push_best(f, v);
                continue;
            }
            let from = self.place[v];
            self.apply(f.g, v, t);
            self.locked[v] = f.pass;
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
            let neighbours = &f.g.adj[f.g.xadj[v]..f.g.xadj[v + 1]];
            self.prefetch_rows(f.g, neighbours);
            for &u in neighbours {
                let u = u as usize;
                if self.locked[u] != f.pass {
                    self.push_best(f, u);
                }
            }
        }
        let moves = self
            .log
            .iter()
            .map(|&(v, _)| (v, u64::from(self.place[v as usize])))
            .collect();
        // Every vertex moved was free (not locked this pass): 0 frees it.
        while let Some((v, from)) = self.log.pop() {
            self.apply(f.g, v as usize, from);
            self.locked[v as usize] = 0;
        }
        Chain {
            moves,
            best: best_len,
        }
    }

    /// Asks for what rating `neighbours` will read: each one's lock,
    /// placement, load and place in the queue with its row
    /// ([`WGraph::prefetch_rows`]). On mdual onto torus:8x8x8 (one thread,
    /// 9 runs, medians) k-way FM took 1.29 s without, 0.94 s with; the
    /// same moves.
    fn prefetch_rows(&self, g: &WGraph, neighbours: &[u32]) {
        g.prefetch_rows(neighbours, |u| {
            prefetch(self.locked.as_ptr().wrapping_add(u));
            prefetch(self.place.as_ptr().wrapping_add(u));
            prefetch(g.vw.as_ptr().wrapping_add(u));
            self.heap.prefetch(u as u32);
        });
    }

    /// Whether load `w` may leave host node `from` for `to`.
    fn fits(&self, f: &Frozen, from: u32, to: u32, w: u64) -> bool {
        f.cap.allows(self.load[from as usize], w, 0) && f.cap.allows(self.load[to as usize], 0, w)
    }

    /// Moves v to host node t, keeping the loads.
    fn apply(&mut self, g: &WGraph, v: usize, t: u32) {
        self.load[self.place[v] as usize] -= g.vw[v];
        self.load[t as usize] += g.vw[v];
        self.place[v] = t;
    }

    /// Queues v with its best move that the capacity allows (to a host node
    /// of one of its neighbours), whatever its sign; v leaves the queue when
    /// it has none.
    fn push_best(&mut self, f: &Frozen, v: usize) {
        let hv = self.place[v];
        // A vertex on a host node at the load floor has no move whatever
        // its neighbours ([`Self::fits`] asks the floor first): its
        // neighbours' placements are not read. A fifth to two fifths of
        // the pushes (copter2 and mdual, 4elt and butterfly_12), each of
        // which read every neighbour's placement.
        if !f.cap.allows(self.load[hv as usize], f.g.vw[v], 0) {
            self.heap.remove(v as u32);
            return;
        }
        // v's volume per host node of its neighbours (few distinct nodes:
        // the gains below cost targets × nodes, not targets × degree).
        self.around.clear();
        let edges = f.g.edges(v).map(|(u, w)| (self.place[u] as usize, w));
        let around = &mut self.around;
        // (Volumes past 64 bits saturate, as the gains are i128 sums of
        // u64 volumes.)
        self.tally.sum(edges, |h, w| {
            around.push((h as u32, u64::try_from(w).unwrap_or(u64::MAX)))
        });
        let here = f.dist.row(u64::from(hv)).weighted(&self.around) as i128;
        let mut best: Option<(i128, u32)> = None;
        for &(t, _) in &self.around {
            if t == hv || !self.fits(f, hv, t, f.g.vw[v]) {
                continue;
            }
            let there = f.dist.row(u64::from(t)).weighted(&self.around) as i128;
            let gain = here - there;
            if best.map_or(true, |(b, bt)| gain > b || (gain == b && t < bt)) {
                best = Some((gain, t));
            }
        }
        match best {
            Some((gain, t)) => self.heap.set(v as u32, K::new(gain, v as u32, t)),
            None => self.heap.remove(v as u32),
        }
    }
}

/// Most host nodes a search's copy keeps a [`Tally`] slot for (1.25 MiB a
/// copy, kept for the whole refinement).
const MAX_TALLIED_HOSTS: usize = 1 << 16;

/// The placement as chains are committed to it.
struct Live<'a> {
    g: &'a WGraph,
    dist: &'a HostDistance<'a>,
    cap: Capacity,
    place: &'a mut [u64],
    load: &'a mut [u64],
    locked: &'a mut [u32],
    pass: u32,
    /// Moves committed by the last commit, (vertex, host node it left): a
    /// buffer kept across commits.
    undo: &'a mut Vec<(usize, u64)>,
}

impl Live<'_> {
    /// Commits the best prefix of `chain`'s gainful part as the placement
    /// now stands (gains recomputed; a vertex already moved this pass, or a
    /// move the capacity no longer allows, ends it); locks the vertices
    /// `lock` says. Returns the gain (≥ 0).
    fn commit(&mut self, chain: &Chain, lock: Lock) -> i128 {
        let mut undo = std::mem::take(self.undo);
        undo.clear();
        let (mut sum, mut best, mut best_len) = (0i128, 0i128, 0usize);
        for &(v, t) in &chain.moves[..chain.best] {
            let v = v as usize;
            let from = self.place[v];
            let w = self.g.vw[v];
            let fits = self.cap.allows(self.load[from as usize], w, 0)
                && self.cap.allows(self.load[t as usize], 0, w);
            if self.locked[v] == self.pass || from == t || !fits {
                break;
            }
            let (was, goes) = (self.dist.row(from), self.dist.row(t));
            sum += self
                .g
                .edges(v)
                .map(|(u, vol)| {
                    let h = self.place[u];
                    vol as i128 * (i128::from(was.d(h)) - i128::from(goes.d(h)))
                })
                .sum::<i128>();
            self.apply(v, t);
            self.locked[v] = self.pass;
            undo.push((v, from));
            if sum > best {
                (best, best_len) = (sum, undo.len());
            }
        }
        while undo.len() > best_len {
            let (v, from) = undo.pop().expect("undo longer than best_len");
            self.apply(v, from);
            // Free again (it was not locked this pass, or the chain would
            // have stopped before it).
            if lock == Lock::KeptMoves {
                self.locked[v] = 0;
            }
        }
        if lock == Lock::Chains {
            for &(v, _) in &chain.moves {
                self.locked[v as usize] = self.pass;
            }
        }
        *self.undo = undo;
        best
    }

    /// Moves v to host node t, keeping the loads.
    fn apply(&mut self, v: usize, t: u64) {
        self.load[self.place[v] as usize] -= self.g.vw[v];
        self.load[t as usize] += self.g.vw[v];
        self.place[v] = t;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapper::coarsen::tests::bip;
    use crate::topology;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// The packed keys and the wide ones pop the same order: the same
        /// placement and the same gain, one search at a time and in
        /// batches, on random graphs whose gains fit 64 bits, from random
        /// balanced placements onto torus:4x4.
        #[test]
        fn packed_and_wide_keys_refine_alike(
            n in 16usize..120,
            extra in proptest::collection::vec((0usize..120, 0usize..120, 1u64..9), 0..240),
            batch in 1usize..6,
            seed in 0u64..1000,
        ) {
            let g = bip(n, &extra, &[1], &[[0, 0]]).g;
            let host = topology::parse("torus:4x4").unwrap();
            let dist = HostDistance::new(host.as_ref()).unwrap();
            proptest::prop_assert!(gains_fit_i64(&g, &dist));
            let cap = Capacity { lo: 0, hi: n.div_ceil(16) as u64 + 2 };
            // A random order dealt round the 16 nodes: within the capacity.
            let start: Vec<u64> = Rng::new(seed, 1).permutation(n).iter().map(|&r| u64::from(r) % 16).collect();
            let plan = (3, batch, Rules { lock: Lock::KeptMoves, seed_floor: false });
            let (mut packed, mut wide) = (start.clone(), start);
            let by_packed = batches::<Packed>(&g, &dist, &mut packed, cap, plan, None, &mut Rng::new(seed, 0));
            let by_wide = batches::<Wide>(&g, &dist, &mut wide, cap, plan, None, &mut Rng::new(seed, 0));
            proptest::prop_assert_eq!(packed, wide);
            proptest::prop_assert_eq!(by_packed, by_wide);
        }
    }

    /// A vertex on a host node at the load floor is not queued, whatever
    /// its neighbours offer; one floor lower, the border vertices are,
    /// each toward its neighbour's node (a path of 32 vertices in blocks of
    /// 8 on torus:2x2).
    #[test]
    fn a_vertex_at_the_floor_has_no_move() {
        let g = bip(32, &[], &[1], &[[0, 0]]).g;
        let host = topology::parse("torus:2x2").unwrap();
        let dist = HostDistance::new(host.as_ref()).unwrap();
        let place: Vec<u64> = (0..32).map(|v| v / 8).collect();
        let load = vec![8u64; 4];
        let locked = vec![0u32; 32];
        let queued = |lo: u64| {
            let frozen = Frozen {
                g: &g,
                dist: &dist,
                cap: Capacity { lo, hi: 10 },
                pass: 1,
                floor: Some(1),
            };
            let mut scratch: Scratch<Packed> =
                Scratch::new(&place, &load, &locked, &Log::default());
            for v in 0..32 {
                scratch.push_best(&frozen, v);
            }
            let mut out = Vec::new();
            while let Some((key, v)) = scratch.heap.pop() {
                out.push((v, key.target()));
            }
            out.sort_unstable();
            out
        };
        assert_eq!(queued(8), vec![]);
        let border: Vec<(u32, u32)> = vec![(7, 1), (8, 0), (15, 2), (16, 1), (23, 3), (24, 2)];
        assert_eq!(queued(7), border);
    }

    /// The seed floor: a vertex whose best move loses more than
    /// [`SEED_FLOOR`] of its volume at the host's least distance starts no
    /// search; one whose best move loses less starts one; the floor
    /// scales with the least distance, and without it (`None`,
    /// [`Preset::Strong`]) every seed starts one (blocks of 4 of a path of 16 onto
    /// torus:2x2, vertex 3 holding 5 of its 6 volume at home: its best
    /// move loses 4).
    #[test]
    fn seeds_below_the_floor_start_nothing() {
        let g = bip(16, &[(3, 0, 2), (3, 1, 2)], &[1], &[[0, 0]]).g;
        let host = topology::parse("torus:2x2").unwrap();
        let dist = HostDistance::new(host.as_ref()).unwrap();
        let place: Vec<u64> = (0..16).map(|v| v / 4).collect();
        let load = vec![4u64; 4];
        let locked = vec![0u32; 16];
        let chain_from = |s: usize, floor: Option<u64>| {
            let frozen = Frozen {
                g: &g,
                dist: &dist,
                cap: Capacity { lo: 3, hi: 5 },
                pass: 1,
                floor,
            };
            Scratch::<Packed>::new(&place, &load, &locked, &Log::default())
                .grow(&frozen, s)
                .moves
        };
        assert!(
            chain_from(3, Some(1)).is_empty(),
            "4 lost of 6 volume: no search"
        );
        assert!(
            !chain_from(3, None).is_empty(),
            "without the floor every seed starts one"
        );
        assert!(
            !chain_from(4, Some(1)).is_empty(),
            "a move that loses nothing starts one"
        );
        assert!(
            !chain_from(3, Some(4)).is_empty(),
            "at 4 a hop the floor is 7.2: vertex 3 starts one"
        );
    }

    /// What makes the batches thread-independent: a search leaves its copy
    /// as it found it, and after a commit the copy caught up is the live
    /// placement again — however many batches it missed, in this pass or
    /// an earlier one — so any copy serves any search of the next batch;
    /// whichever [`Lock`], the copies lock in the pass what the live
    /// placement locked in it, and with [`Lock::KeptMoves`] that is only
    /// vertices that moved.
    #[test]
    fn copies_come_back_clean_and_catch_up() {
        for lock in [Lock::Chains, Lock::KeptMoves] {
            copies_catch_up_under(lock);
        }
    }

    fn copies_catch_up_under(lock: Lock) {
        let extra: Vec<(usize, usize, u64)> = (0..60)
            .map(|i| (i * 7, i * 13 + 5, 1 + i as u64 % 4))
            .collect();
        let g = bip(96, &extra, &[1], &[[0, 0]]).g;
        let host = topology::parse("torus:4x4").unwrap();
        let dist = HostDistance::new(host.as_ref()).unwrap();
        let start: Vec<u64> = (0..96).map(|v| (v * 5 % 16) as u64).collect();
        let mut place = start.clone();
        let mut load = vec![0u64; 16];
        for (v, &h) in place.iter().enumerate() {
            load[h as usize] += g.vw[v];
        }
        let mut locked = vec![0u32; 96];
        let cap = Capacity { lo: 4, hi: 8 };
        let mut log = Log::default();
        let mut scratch: Scratch<Wide> = Scratch::new(&place, &load, &locked, &log);
        // A copy that runs no search of the batches in between catches up
        // on all of them at once when it next runs one; the one made late
        // starts from the placement as it then stands.
        let mut late = Scratch::new(&place, &load, &locked, &log);
        let mut made_late: Option<Scratch<Wide>> = None;
        let mut undo: Vec<(usize, u64)> = Vec::new();
        let mut gained = 0;
        let mut moved_in_chains = 0;
        let mut ever_moved = [false; 96];
        let seeds = [
            (1, 3usize),
            (1, 40),
            (1, 77),
            (1, 12),
            (1, 55),
            (2, 20),
            (2, 3),
            (2, 90),
            (2, 61),
        ];
        for (i, (pass, s)) in seeds.into_iter().enumerate() {
            if log.starts.len() < pass as usize {
                log.starts.push(log.changed.len());
            }
            // A pass seeds no vertex locked in it.
            if locked[s] == pass {
                continue;
            }
            let frozen = Frozen {
                g: &g,
                dist: &dist,
                cap,
                pass,
                floor: Some(1),
            };
            let before = scratch.place.clone();
            let chain = scratch.grow(&frozen, s);
            assert_eq!(
                scratch.place, before,
                "search from {s} left its copy changed"
            );
            assert_eq!(scratch.load, load);
            moved_in_chains += chain.moves.len();
            let mut live = Live {
                g: &g,
                dist: &dist,
                cap,
                place: &mut place,
                load: &mut load,
                locked: &mut locked,
                pass,
                undo: &mut undo,
            };
            let old = crate::mapper::hop_bytes(&g, &dist, live.place);
            let gain = live.commit(&chain, lock);
            assert!(gain >= 0);
            lock.log(&mut log.changed, &chain, live.undo);
            for &(v, _) in live.undo.iter() {
                ever_moved[v] = true;
            }
            assert_eq!(
                old - gain as u128,
                crate::mapper::hop_bytes(&g, &dist, &place)
            );
            gained += gain;
            scratch.catch_up(&g, &log, &place);
            let mut copies = vec![&scratch];
            // The late copy sits out the last two of pass 1 and the first
            // of pass 2.
            if !(3..=5).contains(&i) {
                late.catch_up(&g, &log, &place);
                copies.push(&late);
            }
            if i == 2 {
                made_late = Some(Scratch::new(&place, &load, &locked, &log));
            }
            if let Some(made) = made_late.as_mut() {
                made.catch_up(&g, &log, &place);
                copies.push(made);
            }
            for copy in copies {
                assert_eq!(copy.seen, log.changed.len());
                let on: Vec<u64> = copy.place.iter().map(|&h| u64::from(h)).collect();
                assert_eq!(on, place);
                assert_eq!(copy.load, load);
                // Locked in this pass (a search frees what it rolls back to
                // 0, which is free in every later pass as an earlier
                // pass's lock is).
                let this_pass = |l: &[u32]| -> Vec<bool> { l.iter().map(|&l| l == pass).collect() };
                assert_eq!(this_pass(&copy.locked), this_pass(&locked), "{lock:?}");
            }
            if i == 5 {
                assert!(
                    (1..=2).all(|p| locked.contains(&p)),
                    "both passes locked vertices"
                );
            }
        }
        assert!(
            gained > 0,
            "a scrambled placement gives FM something to gain"
        );
        let locked_now = locked.iter().filter(|&&l| l >= 1).count();
        match lock {
            Lock::Chains => assert!(locked_now > 0),
            Lock::KeptMoves => {
                assert!(
                    (0..96).all(|v| locked[v] == 0 || ever_moved[v]),
                    "a vertex locked that did not move"
                );
                assert!(
                    locked_now < moved_in_chains,
                    "the rolled-back moves were freed ({locked_now} of {moved_in_chains} locked)"
                );
            }
        }
    }
}
