//! Coarsening: heavy-edge matching (Karypis & Kumar, METIS; rated as in
//! KaHIP), carrying each
//! vertex's external costs along. A bipartition's external cost of putting
//! a vertex on side s is a sum over its edges to already-placed vertices, so
//! a coarse vertex's cost is the sum of its members' — the coarse problem is
//! the fine one restricted to keeping matched pairs together.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use rayon::prelude::*;

use super::graph::WGraph;
use super::rng::Rng;
use crate::prefetch::prefetch;

/// Coarse vertices per chunk of the parallel contraction.
const CONTRACT_CHUNK: usize = 4096;

/// A graph being bipartitioned, with the cost of each side for each vertex
/// from its edges to vertices outside (Scotch's dual recursive
/// bipartitioning: those vertices sit in other host domains already).
#[derive(Debug, Clone, Default)]
pub struct Bip {
    /// The vertices and their internal edges.
    pub g: WGraph,
    /// `ext[v][s]`: Σ volume × distance to outside neighbours if v goes to side s.
    pub ext: Vec<[u64; 2]>,
}

impl Bip {
    /// No vertices yet, room for `n` (rows are pushed one by one: a
    /// vertex's edges, then `xadj`, `vw` and `ext`).
    pub fn with_capacity(n: usize) -> Bip {
        let mut xadj = Vec::with_capacity(n + 1);
        xadj.push(0);
        Bip {
            g: WGraph {
                xadj,
                adj: Vec::new(),
                ew: Vec::new(),
                vw: Vec::with_capacity(n),
            },
            ext: Vec::with_capacity(n),
        }
    }

    /// The graph `g` induces on `verts` (its vertex k is `verts[k]`), each
    /// vertex with its external costs: `inside(u)` is a neighbour's number
    /// among `verts` (none: outside), and an edge of volume w to an outside
    /// neighbour u adds w × `toward(u)` to them (saturating).
    pub fn induced(
        g: &WGraph,
        verts: &[u32],
        inside: impl Fn(usize) -> Option<u32>,
        mut toward: impl FnMut(usize) -> [u64; 2],
    ) -> Bip {
        let mut b = Bip::with_capacity(verts.len());
        for (i, &v) in verts.iter().enumerate() {
            // `verts` are scattered over the graph (a host node's share).
            g.prefetch_ahead(verts, i, |_| ());
            let mut ext = [0u64; 2];
            for (u, w) in g.edges(v as usize) {
                match inside(u) {
                    Some(k) => {
                        b.g.adj.push(k);
                        b.g.ew.push(w);
                    }
                    None => {
                        let d = toward(u);
                        ext[0] = ext[0].saturating_add(w.saturating_mul(d[0]));
                        ext[1] = ext[1].saturating_add(w.saturating_mul(d[1]));
                    }
                }
            }
            b.g.xadj.push(b.g.adj.len());
            b.g.vw.push(g.vw[v as usize]);
            b.ext.push(ext);
        }
        b
    }

    /// The load on side 0 of a bipartition.
    pub fn load0(&self, side: &[u8]) -> u64 {
        side.iter()
            .zip(&self.g.vw)
            .filter(|&(&s, _)| s == 0)
            .map(|(_, &w)| w)
            .sum()
    }
}

/// Matches each vertex with its unmatched neighbour of heaviest edge (visiting
/// in random order), keeping merged loads at most `max_load` and, when
/// `group` is given, pairs within one group (the V-cycle keeps each host
/// node's vertices together); returns the coarse graph and each fine
/// vertex's coarse vertex.
pub fn coarsen(fine: &Bip, max_load: u64, group: Option<&[u64]>, rng: &mut Rng) -> (Bip, Vec<u32>) {
    coarsen_graph(&fine.g, Some(&fine.ext), max_load, group, rng)
}

/// [`coarsen`] of a bare graph (`ext` `None`: no external costs, the
/// coarse ones zero), so a caller holding a [`WGraph`] need not copy it.
pub fn coarsen_graph(
    g: &WGraph,
    ext: Option<&[[u64; 2]]>,
    max_load: u64,
    group: Option<&[u64]>,
    rng: &mut Rng,
) -> (Bip, Vec<u32>) {
    let n = g.n();
    let order = rng.permutation(n);
    let mate: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(NONE)).collect();
    match group {
        None if n >= HANDSHAKES_FROM => {
            // (The tie-break's key: the order's first vertex, a draw of the
            // seed.)
            match_by_handshakes(g, max_load, order[0], &mate);
            match_in_order(g, &order, max_load, None, &mate)
        }
        None => match_in_order(g, &order, max_load, None, &mate),
        Some(group) => match_by_group(g, &order, max_load, group, &mate),
    }
    let mate: Vec<u32> = mate.into_iter().map(AtomicU32::into_inner).collect();
    let mut cmap = vec![NONE; n];
    let mut coarse_n = 0u32;
    for (v, &m) in mate.iter().enumerate() {
        if cmap[v] == NONE {
            cmap[v] = coarse_n;
            cmap[m as usize] = coarse_n;
            coarse_n += 1;
        }
    }
    let cn = coarse_n as usize;
    let mut c = Bip {
        g: WGraph {
            xadj: Vec::with_capacity(cn + 1),
            adj: Vec::with_capacity(g.adj.len()),
            ew: Vec::with_capacity(g.adj.len()),
            vw: vec![0; cn],
        },
        ext: vec![[0, 0]; cn],
    };
    let mut members = vec![[NONE; 2]; cn];
    for (v, &k) in cmap.iter().enumerate() {
        let k = k as usize;
        if members[k][0] == NONE {
            members[k][0] = v as u32;
        } else {
            members[k][1] = v as u32;
        }
    }
    for (k, pair) in members.iter().enumerate() {
        for &v in pair.iter().filter(|&&v| v != NONE) {
            c.g.vw[k] += g.vw[v as usize];
            if let Some(ext) = ext {
                c.ext[k][0] += ext[v as usize][0];
                c.ext[k][1] += ext[v as usize][1];
            }
        }
    }
    // The coarse rows, chunk by chunk in parallel, then joined in order:
    // each lists its neighbours in the order its members' edges meet them,
    // as one pass over the rows would (the same coarse graph on any
    // number of threads). One chunk (most of a bisection's many small
    // graphs) is written straight into the coarse graph.
    c.g.xadj.push(0);
    if cn <= CONTRACT_CHUNK {
        let mut at = vec![(NONE, 0u32); cn];
        let Bip { g: coarse, .. } = &mut c;
        contract_rows(g, &cmap, &members, 0, &mut at, coarse);
        return (c, cmap);
    }
    let chunks: Vec<WGraph> = members
        .par_chunks(CONTRACT_CHUNK)
        .enumerate()
        .map_init(
            || vec![(NONE, 0u32); cn],
            |at, (chunk, rows)| {
                let edges: usize = rows
                    .iter()
                    .flatten()
                    .filter(|&&v| v != NONE)
                    .map(|&v| g.xadj[v as usize + 1] - g.xadj[v as usize])
                    .sum();
                let mut part = WGraph {
                    xadj: Vec::with_capacity(rows.len() + 1),
                    adj: Vec::with_capacity(edges),
                    ew: Vec::with_capacity(edges),
                    vw: Vec::new(),
                };
                part.xadj.push(0);
                contract_rows(g, &cmap, rows, chunk * CONTRACT_CHUNK, at, &mut part);
                part
            },
        )
        .collect();
    for part in chunks {
        let base = *c.g.xadj.last().expect("xadj starts at 0");
        c.g.xadj
            .extend(part.xadj[1..].iter().map(|&end| base + end));
        c.g.adj.extend(part.adj);
        c.g.ew.extend(part.ew);
    }
    (c, cmap)
}

/// The coarse rows `first..first + rows.len()` (each row's members, a
/// lone vertex's second [`NONE`]) appended to `out` (its `xadj` already
/// started): a row lists its neighbours in the order its members' edges
/// meet them. A marker per coarse vertex — (row, position in `out.adj`) —
/// merges the volumes of two members' edges to one neighbour. (A position
/// counts entries of `out`: a chunk's at most its members' edges, a graph
/// of one chunk's under CONTRACT_CHUNK², 2^24.)
fn contract_rows(
    g: &WGraph,
    cmap: &[u32],
    rows: &[[u32; 2]],
    first: usize,
    at: &mut [(u32, u32)],
    out: &mut WGraph,
) {
    for (i, pair) in rows.iter().enumerate() {
        let k = (first + i) as u32;
        for &v in pair.iter().filter(|&&v| v != NONE) {
            for (u, w) in g.edges(v as usize) {
                let cu = cmap[u];
                if cu == k {
                    continue;
                }
                let (row, pos) = at[cu as usize];
                if row == k {
                    out.ew[pos as usize] += w;
                } else {
                    at[cu as usize] = (k, out.adj.len() as u32);
                    out.adj.push(cu);
                    out.ew.push(w);
                }
            }
        }
        out.xadj.push(out.adj.len());
    }
}

/// No mate yet.
const NONE: u32 = u32::MAX;

/// Groups matched apart in parallel at most (more: one after the other).
const MAX_GROUPS: u64 = 1 << 24;

/// Heavy-edge matching of the vertices in `order` (each unmatched one
/// with its unmatched neighbour of best rating, within its group when
/// `group` is given), recorded in `mate` (a vertex left alone is its own
/// mate). Atomics so that groups, which share no candidate pair, can be
/// matched on several threads at once ([`match_by_group`]); each group's
/// vertices are read and written by one thread only, so relaxed order is
/// all they need.
fn match_in_order(
    g: &WGraph,
    order: &[u32],
    max_load: u64,
    group: Option<&[u64]>,
    mate: &[AtomicU32],
) {
    let unmatched = |u: usize| mate[u].load(Relaxed) == NONE;
    // The visits to come have their lines asked for ahead, their mates
    // with their row bounds ([`WGraph::prefetch_ahead`]; the neighbours'
    // mates asked for too took 22–26 ms of mdual's top levels, not 18–22).
    // The same matching.
    for (i, &v) in order.iter().enumerate() {
        g.prefetch_ahead(order, i, |ahead| {
            prefetch(mate.as_ptr().wrapping_add(ahead))
        });
        let v = v as usize;
        if !unmatched(v) {
            continue;
        }
        // Rating w² / (load u · load v) (KaHIP's expansion*²): heavy edges
        // between light vertices first, so coarse vertices stay even. v's
        // load is common to all and drops out; w² / load u is compared by
        // cross-multiplying (no division per edge: a tenth of coarsening).
        let mut best: Option<(f64, f64, usize)> = None;
        for (u, w) in g.edges(v) {
            // The group first: another group's vertices are another
            // thread's.
            if group.is_some_and(|h| h[u] != h[v]) {
                continue;
            }
            if !unmatched(u) || u == v || g.vw[u] + g.vw[v] > max_load {
                continue;
            }
            let (square, load) = ((w as f64) * (w as f64), g.vw[u].max(1) as f64);
            if best.map_or(true, |(bs, bl, _)| square * bl > bs * load) {
                best = Some((square, load, u));
            }
        }
        match best {
            Some((_, _, u)) => {
                mate[v].store(u as u32, Relaxed);
                mate[u].store(v as u32, Relaxed);
            }
            None => mate[v].store(v as u32, Relaxed),
        }
    }
}

/// Fewest vertices of a graph matched by one round of handshakes
/// ([`match_by_handshakes`]) before the pass over the order matches the
/// rest: the pass is serial, and at the top levels of a large guest's
/// coarsening it left the second core idle (mdual onto torus:8x8x8, two
/// threads: about 0.06 s of 1.42 s). Benchmark (2026-12-05, two threads,
/// the graphs above 10^5 vertices: mdual onto torus:8x8x8, torus:16x16,
/// torus:8x8x4, torus:32x16 and tleaf:4x8x8:100,10,1, butterfly_14 onto
/// torus:8x8x8, torus:16x16 and the tleaf; 19 pair-seeds of seeds 1–3):
/// one round −1.8 % hop-bytes on the first 9 (geometric mean; mdual onto
/// torus:8x8x8 84 681 → 81 158 on seed 1, butterfly_14 222 650 → 207 682;
/// at most +3.4 %, mdual onto torus:16x16 on seed 3) and −1.0 % on the
/// other 10 (at most +0.35 %), two rounds −0.7 %, three −1.1 %; two
/// threads against one 1.68x → 1.69x (mdual onto torus:8x8x8), 1.70x →
/// 1.72x (butterfly_14), 1.73x → 1.79x (mdual onto torus:16x16), three
/// rounds of `bench/threads.sh`. Smaller graphs (every bisection's but a
/// large guest's first) keep the pass alone.
const HANDSHAKES_FROM: usize = 1 << 16;

/// One round of matching by handshakes (the locally dominant edges of
/// Preis's 1/2-approximation, found as Manne & Bisseling's parallel
/// matching finds them): every unmatched vertex names its
/// unmatched neighbour of best rating (as [`match_in_order`] rates them;
/// ties to the least of a hash of the pair and `key`, so every vertex
/// ranks its edges by one order), and every two that name each other are
/// matched — the locally heaviest edges, found on every thread at once,
/// the same pairs on any number of threads (each round reads only what the
/// rounds before wrote).
fn match_by_handshakes(g: &WGraph, max_load: u64, key: u32, mate: &[AtomicU32]) {
    let n = g.n();
    let unmatched = |u: usize| mate[u].load(Relaxed) == NONE;
    let tie = |a: usize, b: usize| -> u64 {
        let (lo, hi) = (a.min(b) as u64, a.max(b) as u64);
        let mut x = (lo << 32 | hi) ^ (u64::from(key) << 17);
        x = (x ^ (x >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^ (x >> 33)
    };
    let named: Vec<u32> = (0..n)
        .into_par_iter()
        .map(|v| {
            if !unmatched(v) {
                return NONE;
            }
            let mut best: Option<(f64, f64, u64, usize)> = None;
            for (u, w) in g.edges(v) {
                if !unmatched(u) || u == v || g.vw[u] + g.vw[v] > max_load {
                    continue;
                }
                // w² / load u, compared by cross-multiplying; v's load is
                // common to all.
                let (square, load, t) = ((w as f64) * (w as f64), g.vw[u].max(1) as f64, tie(u, v));
                let better = best.map_or(true, |(bs, bl, bt, _)| {
                    let (mine, theirs) = (square * bl, bs * load);
                    mine > theirs || (mine == theirs && t < bt)
                });
                if better {
                    best = Some((square, load, t, u));
                }
            }
            best.map_or(NONE, |(_, _, _, u)| u as u32)
        })
        .collect();
    (0..n).into_par_iter().for_each(|v| {
        let u = named[v];
        if u != NONE && named[u as usize] == v as u32 {
            mate[v].store(u, Relaxed);
        }
    });
}

/// [`match_in_order`] within groups (a V-cycle's host nodes): no pair
/// crosses two groups, so each group's vertices, taken in the order they
/// have in `order`, are matched on their own and the groups in parallel —
/// the same matching as one pass over `order` (on the 10^6-vertex
/// stencil's V-cycle the serial pass was its one step that did not
/// parallelise).
fn match_by_group(g: &WGraph, order: &[u32], max_load: u64, group: &[u64], mate: &[AtomicU32]) {
    let groups = group.iter().copied().max().map_or(0, |m| m + 1);
    if groups > MAX_GROUPS {
        return match_in_order(g, order, max_load, Some(group), mate);
    }
    // `order` dealt into its groups, each keeping the order (a counting
    // sort by group).
    let mut start = vec![0usize; groups as usize + 1];
    for &h in group {
        start[h as usize + 1] += 1;
    }
    for k in 0..groups as usize {
        start[k + 1] += start[k];
    }
    let mut at = start.clone();
    let mut dealt = vec![0u32; order.len()];
    for &v in order {
        let k = group[v as usize] as usize;
        dealt[at[k]] = v;
        at[k] += 1;
    }
    start
        .par_windows(2)
        .for_each(|w| match_in_order(g, &dealt[w[0]..w[1]], max_load, Some(group), mate));
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The extra edges of an n-vertex path: chords two apart (a matched
    /// pair has two edges to the next pair, to be merged) and 2n/5 random
    /// long ones, of volumes 1 to 5.
    fn chords(n: usize) -> Vec<(usize, usize, u64)> {
        (0..n)
            .map(|i| (i, i + 2, 1 + i as u64 % 3))
            .chain((0..2 * n / 5).map(|i| (i * 7919, i * 104_729 + 13, 1 + i as u64 % 5)))
            .collect()
    }

    /// The coarse graph is the fine one with matched pairs merged: every
    /// coarse edge carries the volume of the fine edges between its two
    /// clusters, loads and external costs add up, and it is the same on
    /// one thread or three: a coarse graph of two chunks of the parallel
    /// contraction, and one of a single chunk (written straight into the
    /// coarse graph).
    #[test]
    fn contraction_sums_volumes_on_any_thread_count() {
        // (70 000: matched by handshakes first.)
        for n in [10_000, 3_000, 70_000] {
            contraction_sums_volumes(n);
        }
    }

    /// [`contraction_sums_volumes_on_any_thread_count`] on an n-vertex path
    /// with chords.
    fn contraction_sums_volumes(n: usize) {
        let fine = bip(n, &chords(n), &[1, 2, 3], &[[1, 4], [2, 0]]);
        let run = |threads: usize| {
            crate::mapper::on_threads(threads, || coarsen(&fine, 4, None, &mut Rng::new(3, 0)))
        };
        let (coarse, cmap) = run(1);
        let (again, cmap_again) = run(3);
        assert_eq!(cmap, cmap_again);
        assert_eq!(
            (
                &coarse.g.xadj,
                &coarse.g.adj,
                &coarse.g.ew,
                &coarse.g.vw,
                &coarse.ext
            ),
            (
                &again.g.xadj,
                &again.g.adj,
                &again.g.ew,
                &again.g.vw,
                &again.ext
            )
        );
        let cn = coarse.g.n();
        assert_eq!(
            cn > CONTRACT_CHUNK,
            n > 2 * CONTRACT_CHUNK,
            "{cn} coarse vertices of {n}: as many chunks as meant"
        );
        let mut want = std::collections::BTreeMap::new();
        for v in 0..n {
            for (u, w) in fine.g.edges(v) {
                let (a, b) = (cmap[v], cmap[u]);
                if a != b {
                    *want.entry((a, b)).or_insert(0u64) += w;
                }
            }
        }
        let mut got = std::collections::BTreeMap::new();
        for k in 0..cn {
            for (u, w) in coarse.g.edges(k) {
                assert!(
                    got.insert((k as u32, u as u32), w).is_none(),
                    "edge {k}-{u} listed twice"
                );
            }
        }
        assert_eq!(got, want);
        let mut vw = vec![0u64; cn];
        let mut ext = vec![[0u64; 2]; cn];
        for (v, &k) in cmap.iter().enumerate() {
            vw[k as usize] += fine.g.vw[v];
            ext[k as usize][0] += fine.ext[v][0];
            ext[k as usize][1] += fine.ext[v][1];
        }
        assert_eq!(vw, coarse.g.vw);
        assert_eq!(ext, coarse.ext);
        assert!(coarse.g.vw.iter().all(|&w| w <= 4));
    }

    /// One round of handshakes matches every vertex to a neighbour it and
    /// that neighbour both rate best among those within the load limit
    /// (ties by the pair's hash), mates mutual, the same on one thread or
    /// three; and some pairs are matched.
    #[test]
    fn handshakes_match_the_locally_heaviest_edges() {
        let n = 5_000;
        let fine = bip(n, &chords(n), &[1, 2, 3], &[[0, 0]]);
        let g = &fine.g;
        let run = |threads: usize| {
            crate::mapper::on_threads(threads, || {
                let mate: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(NONE)).collect();
                match_by_handshakes(g, 4, 11, &mate);
                mate.into_iter()
                    .map(AtomicU32::into_inner)
                    .collect::<Vec<u32>>()
            })
        };
        let mate = run(1);
        assert_eq!(mate, run(3));
        // A neighbour's rating by v, v's load left out (as the matching
        // compares).
        let rating = |u: usize, w: u64| (w * w) as f64 / g.vw[u].max(1) as f64;
        let mut pairs = 0;
        for v in 0..n {
            let m = mate[v];
            if m == NONE {
                continue;
            }
            let m = m as usize;
            assert_eq!(mate[m] as usize, v, "mates are mutual");
            assert!(g.vw[v] + g.vw[m] <= 4);
            pairs += 1;
            let to_m: u64 = g.edges(v).filter(|&(u, _)| u == m).map(|(_, w)| w).sum();
            for (u, w) in g.edges(v) {
                if u != v && g.vw[u] + g.vw[v] <= 4 {
                    assert!(
                        rating(u, w) <= rating(m, to_m),
                        "{v}: {u} rated above its mate {m}"
                    );
                }
            }
        }
        assert!(pairs > n / 10, "{pairs} vertices matched of {n}");
    }

    /// Matching within groups (a V-cycle's host nodes) group by group, in
    /// parallel, is the one pass over the order that the serial matching
    /// makes: the same mates on one thread or three, with every pair inside
    /// one group and within the load limit.
    #[test]
    fn matching_by_group_is_the_serial_matching() {
        let n = 20_000;
        let fine = bip(n, &chords(n), &[1, 2, 3], &[[0, 0]]);
        let g = &fine.g;
        let mut rng = Rng::new(5, 1);
        // Groups of a few hundred vertices in runs, a tenth of the
        // vertices dealt to random groups.
        let group: Vec<u64> = (0..n as u64)
            .map(|v| match v % 10 {
                0 => rng.below(64) as u64,
                _ => v / 300,
            })
            .collect();
        let order = Rng::new(7, 2).permutation(n);
        let serial: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(NONE)).collect();
        match_in_order(g, &order, 4, Some(&group), &serial);
        let serial: Vec<u32> = serial.into_iter().map(AtomicU32::into_inner).collect();
        let mut pairs = 0;
        for (v, &m) in serial.iter().enumerate() {
            let m = m as usize;
            assert_eq!(serial[m] as usize, v, "mates are mutual");
            if m != v {
                pairs += 1;
                assert_eq!(group[m], group[v]);
                assert!(g.vw[m] + g.vw[v] <= 4);
            }
        }
        assert!(pairs > n / 2, "{pairs} of {n} vertices matched");
        assert!(pairs < n, "some vertices are left alone");
        for threads in [1, 3] {
            let grouped: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(NONE)).collect();
            crate::mapper::on_threads(threads, || match_by_group(g, &order, 4, &group, &grouped));
            let grouped: Vec<u32> = grouped.into_iter().map(AtomicU32::into_inner).collect();
            assert_eq!(grouped, serial, "{threads} threads");
        }
    }

    /// A connected graph on `n` vertices: a path plus `extra` edges
    /// (duplicates merged), with loads and external costs.
    pub fn bip(n: usize, extra: &[(usize, usize, u64)], loads: &[u64], ext: &[[u64; 2]]) -> Bip {
        let mut rows: Vec<std::collections::BTreeMap<u32, u64>> = vec![Default::default(); n];
        let mut add = |u: usize, v: usize, w: u64| {
            if u != v {
                *rows[u].entry(v as u32).or_default() += w;
                *rows[v].entry(u as u32).or_default() += w;
            }
        };
        for v in 1..n {
            add(v - 1, v, 1);
        }
        for &(u, v, w) in extra {
            add(u % n, v % n, w);
        }
        let mut g = WGraph {
            xadj: vec![0],
            ..Default::default()
        };
        for row in rows {
            for (u, w) in row {
                g.adj.push(u);
                g.ew.push(w);
            }
            g.xadj.push(g.adj.len());
        }
        g.vw = (0..n).map(|v| loads[v % loads.len()]).collect();
        Bip {
            ext: (0..n).map(|v| ext[v % ext.len()]).collect(),
            g,
        }
    }
}
