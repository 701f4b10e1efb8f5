//! Swapping whole parts: the placement's quotient graph (one node per host
//! node, edge volumes summed) laid out again by pairwise exchange, as in
//! Brandfass, Alrutz & Gerhold's rank reordering and Schulz & Träff's
//! sparse-QAP swap neighbourhood. The contents of two host nodes trade
//! places when that lowers Σ volume × distance over the quotient's edges;
//! every host node keeps its load, so the capacity still holds. Dual
//! recursive bipartitioning fixes where parts go one split at a time; this
//! undoes its worst guesses afterwards at the cost of the quotient graph.

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::mapper::distance::HostDistance;
use crate::mapper::graph::WGraph;
use crate::mapper::rng::Rng;

use super::cost_table::{add_scaled, difference};
use super::Known;

mod order;
pub use order::reorder;

/// Host nodes of more neighbours than this contribute only themselves as
/// candidates.
const MAX_HOST_DEGREE: u64 = 64;

/// A pass that gains at most 1/STOP_BELOW of the hop-bytes is the last.
const STOP_BELOW: u128 = 1000;

/// Swaps whole host nodes' contents of `place` while that gains, at most
/// `passes` passes over the parts, stopping once a pass gains at most
/// 0.1 % of the quotient's hop-bytes (as local search does, [`super::local`];
/// the hop-bytes `known` where the caller has them); returns the hop-bytes
/// gained.
///
/// The rule matters on large quotients only. delaunay_n15's 32 768
/// vertices one per node of torus:32x32x32 (2026-12-04, one thread): the
/// passes after the annealing gained 1 327, 210, 68, 7 and 0 of 193 107
/// hop-bytes at about 0.2 s each; the rule stops after the third. The
/// quotients of 256–4 096 parts of `bench/mapper.sh` gain 0–1 after their
/// first pass.
///
/// A part is the contents a host node started with, named by that node; the
/// parts with a cut edge are numbered (their quotient rows and positions
/// are arrays: a gain reads no hash map per edge), the others — empty or
/// cut off — are moved too but cost nothing where they go.
pub fn swap(
    g: &WGraph,
    dist: &HostDistance,
    place: &mut [u64],
    passes: usize,
    known: Known,
    rng: &mut Rng,
) -> u128 {
    swap_with(g, dist, place, (passes, known), rng, Pricing::Cheaper)
}

/// How [`swap_with`] prices an exchange: from the parts' rows, from every
/// part's cost on every node ([`CostTable`]), or by whichever costs less
/// ([`CostTable::pays`]). Every way gives the same gains, so the same swaps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(not(test), allow(dead_code))] // (`Rows` and `Table`: the tests compare the two.)
enum Pricing {
    Rows,
    Table,
    Cheaper,
}

/// [`swap`], its exchanges priced as `pricing` asks.
fn swap_with(
    g: &WGraph,
    dist: &HostDistance,
    place: &mut [u64],
    (passes, known): (usize, Known),
    rng: &mut Rng,
    pricing: Pricing,
) -> u128 {
    let q = Quotient::new(g, place);
    let mut current = super::start_hop_bytes(g, dist, place, known);
    // Part a (by number) sits on host node pos[a]; node x holds the part
    // named at[x], and a part not in `at` sits on the node of its name.
    let mut pos: Vec<u64> = q.parts.clone();
    let mut table = match pricing {
        Pricing::Rows => None,
        Pricing::Table => CostTable::new(&q, dist, &pos),
        Pricing::Cheaper => CostTable::pays(&q, dist)
            .then(|| CostTable::new(&q, dist, &pos))
            .flatten(),
    };
    let mut at: FxHashMap<u64, u64> = FxHashMap::default();
    // Each host node's neighbours as candidates (none listed for a node of
    // more than MAX_HOST_DEGREE: it is a candidate alone).
    let mut near: FxHashMap<u64, Vec<u64>> = FxHashMap::default();
    let mut gained = 0u128;
    let mut candidates: Vec<u64> = Vec::new();
    for _ in 0..passes {
        let mut pass_gain = 0u128;
        for a in rng.permutation(q.parts.len()) {
            let a = a as usize;
            let x = pos[a];
            // Where a's neighbours are, and next to there.
            candidates.clear();
            for &(c, _) in q.row(a) {
                let y = pos[c as usize];
                candidates.push(y);
                // (A hierarchy's leaves all neighbour each other: its
                // neighbours' nodes are candidates enough.)
                let list = near.entry(y).or_insert_with(|| {
                    match dist.host().degree(y) <= MAX_HOST_DEGREE {
                        true => dist.host().neighbors(y),
                        false => Vec::new(),
                    }
                });
                candidates.extend_from_slice(list);
            }
            candidates.sort_unstable();
            candidates.dedup();
            // Σ volume × (distance from `from` − distance from `to`) over
            // part k's edges, the one to part `other` left out (a swap keeps
            // the distance between the two it exchanges).
            let cost = |k: Option<usize>, from: u64, to: u64, other: Option<usize>| -> i128 {
                let Some(k) = k else {
                    return 0;
                };
                // (Rows: a dense quotient, an FFT butterfly's, reads
                // hundreds of distances per candidate.)
                let (from, to) = (dist.row(from), dist.row(to));
                q.row(k)
                    .iter()
                    .filter(|&&(c, _)| Some(c as usize) != other)
                    .map(|&(c, w)| {
                        let hc = pos[c as usize];
                        i128::from(w) * (i128::from(from.d(hc)) - i128::from(to.d(hc)))
                    })
                    .sum()
            };
            let mut best: (i128, u64) = (0, x);
            if let Some(table) = table.as_mut() {
                table.weigh_from(&q, a);
            }
            for &y in candidates.iter().filter(|&&y| y != x) {
                let b = q.number(at.get(&y).copied().unwrap_or(y));
                let gain = match &table {
                    Some(table) => table.gain(a, b, (x, y)),
                    None => cost(Some(a), x, y, b) + cost(b, y, x, Some(a)),
                };
                if gain > best.0 {
                    best = (gain, y);
                }
            }
            if let Some(table) = table.as_mut() {
                table.unweigh_from(&q, a);
            }
            let (gain, y) = best;
            if gain > 0 {
                let b_name = at.get(&y).copied().unwrap_or(y);
                let b = q.number(b_name);
                if let Some(table) = table.as_mut() {
                    table.moved(&q, a, (x, y));
                    if let Some(b) = b {
                        table.moved(&q, b, (y, x));
                    }
                }
                if let Some(b) = b {
                    pos[b] = x;
                }
                pos[a] = y;
                at.insert(y, q.parts[a]);
                at.insert(x, b_name);
                pass_gain += gain as u128;
            }
        }
        gained += pass_gain;
        current -= pass_gain.min(current);
        if pass_gain * STOP_BELOW <= current {
            break;
        }
    }
    // Where each node's starting contents went.
    let mut to: FxHashMap<u64, u64> = FxHashMap::default();
    for (&node, &name) in &at {
        to.insert(name, node);
    }
    if !to.is_empty() {
        place
            .par_iter_mut()
            .with_min_len(1 << 12)
            .for_each(|h| *h = to.get(h).copied().unwrap_or(*h));
    }
    gained
}

/// Most entries of a [`CostTable`] (parts × host nodes, and host nodes
/// squared): 16 MiB of costs.
const MAX_TABLE: usize = 1 << 21;

/// Every part's cost on every host node, C[k][h] = Σ volume × d(h, node of
/// c) over part k's quotient edges (k, c) — the annealing's table
/// ([`super::cost_table`]) for whole-part swaps. An exchange of part a (on
/// x) with b (on y) then costs C[a][x] − C[a][y] + C[b][y] − C[b][x], less
/// twice the volume between them times d(x, y) (an exchange keeps that
/// edge's length): O(1) where summing the two parts' rows reads a distance
/// per edge. A taken exchange adds volume × (d(h, y) − d(h, x)) to the
/// rows of a's neighbours and subtracts it from b's, one loop over the host
/// nodes per neighbour. The gains are the same integers the rows give, so
/// the same swaps are taken.
///
/// It pays on a dense quotient: an FFT butterfly's parts have dozens of
/// neighbours, each with a few candidate nodes, and every candidate read
/// both parts' rows. Benchmark (2026-12-04, one thread, 2 cores):
/// butterfly_14 (245 760 vertices) onto torus:8x8x8, its 512 parts (75
/// neighbours each) laid out: the layout's five passes 0.28 → 0.07 s, its
/// other chain's one pass 51 → 22 ms, the search's part swaps 41 → 32 ms
/// (the quotient's listing 13 ms of it); the whole map 3.36 → 3.12 s, the
/// same placement (and on 32 pairs of graphs and hosts).
struct CostTable {
    /// Host nodes: the width of every row.
    p: usize,
    /// C, parts × host nodes.
    c: Vec<i64>,
    /// `to[v * p + h]` = d(h, v): row v is every node's distance to v.
    to: Vec<i64>,
    /// The volume from the part being weighed to every part (zero elsewhere).
    volume: Vec<i64>,
    /// A taken exchange's change in distance per host node.
    change: Vec<i64>,
}

impl CostTable {
    /// Whether a table costs less than summing rows on `q`'s quotient: its
    /// rows cost an entry per host node per quotient edge, where one pass
    /// by rows reads both parts' edges for every candidate (a neighbour's
    /// node and those next to it).
    fn pays(q: &Quotient, dist: &HostDistance) -> bool {
        let (m, p) = (q.parts.len() as u128, dist.host().node_count() as u128);
        if m == 0 || !Self::fits(m, p) {
            return false;
        }
        let spread = match dist.host().degree(0) {
            d if d <= MAX_HOST_DEGREE => 1 + u128::from(d),
            _ => 1,
        };
        let edges = q.adj.len() as u128;
        let by_rows = edges * spread * 2 * edges / m;
        edges * p < by_rows
    }

    /// Whether `m` parts on `p` host nodes fit [`MAX_TABLE`] (costs and
    /// distances both).
    fn fits(m: u128, p: u128) -> bool {
        m * p <= MAX_TABLE as u128 && p * p <= MAX_TABLE as u128
    }

    /// The table of `q`'s parts at nodes `pos`; `None` where it does not
    /// fit [`MAX_TABLE`] or a cost could leave 61 bits (a gain sums six).
    fn new(q: &Quotient, dist: &HostDistance, pos: &[u64]) -> Option<CostTable> {
        let (m, p) = (q.parts.len(), dist.host().node_count());
        if !Self::fits(m as u128, u128::from(p)) {
            return None;
        }
        let p = p as usize;
        let mut to = vec![0i64; p * p];
        to.par_chunks_mut(p.max(1))
            .enumerate()
            .for_each(|(v, row)| {
                for (h, d) in row.iter_mut().enumerate() {
                    *d = i64::try_from(dist.d(h as u64, v as u64)).unwrap_or(i64::MAX);
                }
            });
        let farthest = to.iter().copied().max().unwrap_or(0) as u128;
        let heaviest = (0..m)
            .map(|k| q.row(k).iter().map(|&(_, w)| u128::from(w)).sum::<u128>())
            .max()
            .unwrap_or(0);
        // (At least one hop: every volume then fits too.)
        if heaviest.checked_mul(farthest.max(1))? > (i64::MAX / 8) as u128 {
            return None;
        }
        let mut c = vec![0i64; m * p];
        c.par_chunks_mut(p.max(1)).enumerate().for_each(|(k, row)| {
            for &(n, w) in q.row(k) {
                let d = &to[pos[n as usize] as usize * p..][..p];
                add_scaled(row, w as i64, d);
            }
        });
        Some(CostTable {
            p,
            c,
            to,
            volume: vec![0; m],
            change: vec![0; p],
        })
    }

    /// C[k][h].
    fn at(&self, k: usize, h: u64) -> i64 {
        self.c[k * self.p + h as usize]
    }

    /// d(a, b).
    fn d(&self, a: u64, b: u64) -> i64 {
        self.to[b as usize * self.p + a as usize]
    }

    /// Spreads part a's volumes for [`Self::gain`].
    fn weigh_from(&mut self, q: &Quotient, a: usize) {
        for &(c, w) in q.row(a) {
            self.volume[c as usize] += w as i64;
        }
    }

    /// Clears what [`Self::weigh_from`] spread.
    fn unweigh_from(&mut self, q: &Quotient, a: usize) {
        for &(c, _) in q.row(a) {
            self.volume[c as usize] = 0;
        }
    }

    /// The hop-bytes taken off by sending part a (weighed) from x to y and
    /// part b (if any, on y) to x.
    fn gain(&self, a: usize, b: Option<usize>, (x, y): (u64, u64)) -> i128 {
        let mut gain = self.at(a, x) - self.at(a, y);
        if let Some(b) = b {
            let between = self.volume[b];
            gain -= between * (self.d(x, y) - self.d(y, y));
            gain += self.at(b, y) - self.at(b, x) - between * (self.d(y, x) - self.d(x, x));
        }
        i128::from(gain)
    }

    /// Follows part k's move from x to y: every neighbour's row gains
    /// volume × (d(h, y) − d(h, x)).
    fn moved(&mut self, q: &Quotient, k: usize, (x, y): (u64, u64)) {
        let p = self.p;
        let (from, to) = (
            &self.to[x as usize * p..][..p],
            &self.to[y as usize * p..][..p],
        );
        difference(&mut self.change, to, from);
        for &(n, w) in q.row(k) {
            add_scaled(&mut self.c[n as usize * p..][..p], w as i64, &self.change);
        }
    }
}

/// The placement's quotient graph: one vertex per host node with a cut
/// edge (its *part*), numbered in the order of the nodes, and the volume
/// cut between every two.
struct Quotient {
    /// The host node naming each part, ascending.
    parts: Vec<u64>,
    /// Part of each naming host node.
    numbers: FxHashMap<u64, u32>,
    /// Part k's neighbours and volumes: `adj[xadj[k]..xadj[k + 1]]`.
    xadj: Vec<usize>,
    adj: Vec<(u32, u64)>,
}

/// Vertices per chunk of [`Quotient::new`]'s parallel listing.
const QUOTIENT_CHUNK: usize = 1 << 14;

/// `cut` (host node, host node, volume) sorted by its two nodes, the
/// volumes of each pair summed into one entry.
fn summed(cut: &mut Vec<(u64, u64, u64)>) {
    cut.par_sort_unstable_by_key(|&(a, b, _)| (a, b));
    cut.dedup_by(|later, kept| {
        let same = (later.0, later.1) == (kept.0, kept.1);
        if same {
            kept.2 += later.2;
        }
        same
    });
}

impl Quotient {
    /// The cut edges are listed in parallel, chunk by chunk, each chunk's
    /// list sorted by the two host nodes and summed run by run (so it holds
    /// at most one entry per pair of nodes, whatever the cut), then the
    /// lists joined and summed again. One hash map entry per cut edge, on
    /// one thread, was 55 ms of the shuffled 10^6-vertex stencil's map
    /// with the other thread idle.
    fn new(g: &WGraph, place: &[u64]) -> Quotient {
        let mut cut: Vec<(u64, u64, u64)> = (0..g.n().div_ceil(QUOTIENT_CHUNK))
            .into_par_iter()
            .flat_map_iter(|chunk| {
                let first = chunk * QUOTIENT_CHUNK;
                let mut cut = Vec::new();
                for v in first..(first + QUOTIENT_CHUNK).min(g.n()) {
                    let a = place[v];
                    cut.extend(
                        g.edges(v)
                            .filter(|&(u, _)| place[u] != a)
                            .map(|(u, w)| (a, place[u], w)),
                    );
                }
                summed(&mut cut);
                cut
            })
            .collect();
        summed(&mut cut);
        let mut parts: Vec<u64> = cut.iter().map(|&(a, _, _)| a).collect();
        parts.dedup();
        let numbers: FxHashMap<u64, u32> = parts
            .iter()
            .enumerate()
            .map(|(k, &a)| (a, k as u32))
            .collect();
        let mut xadj = vec![0];
        let adj: Vec<(u32, u64)> = cut.iter().map(|&(_, b, w)| (numbers[&b], w)).collect();
        for (i, pair) in cut.windows(2).enumerate() {
            if pair[0].0 != pair[1].0 {
                xadj.push(i + 1);
            }
        }
        if !cut.is_empty() {
            xadj.push(cut.len());
        }
        Quotient {
            parts,
            numbers,
            xadj,
            adj,
        }
    }

    /// Part k's (neighbour, volume) pairs.
    fn row(&self, k: usize) -> &[(u32, u64)] {
        &self.adj[self.xadj[k]..self.xadj[k + 1]]
    }

    /// The number of the part named `name` (none: it has no cut edge).
    fn number(&self, name: u64) -> Option<usize> {
        self.numbers.get(&name).map(|&k| k as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology;
    use proptest::prelude::*;

    /// A side x side mesh whose edges carry volumes of 1 to `most`, the
    /// same both ways.
    fn mesh_with_volumes(side: usize, most: usize, rng: &mut crate::mapper::rng::Rng) -> WGraph {
        let mesh = topology::parse(&format!("mesh:{side}x{side}")).unwrap();
        let mut g = WGraph::from_topology(mesh.as_ref()).unwrap();
        for v in 0..g.n() {
            for i in g.xadj[v]..g.xadj[v + 1] {
                let u = g.adj[i] as usize;
                if u > v {
                    let w = 1 + rng.below(most) as u64;
                    g.ew[i] = w;
                    let back = (g.xadj[u]..g.xadj[u + 1])
                        .find(|&j| g.adj[j] as usize == v)
                        .unwrap();
                    g.ew[back] = w;
                }
            }
        }
        g
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// The quotient is the cut counted edge by edge: its parts are the
        /// host nodes with a cut edge, ascending, and each row holds every
        /// other part it cuts to, once, with the volume summed over the
        /// edges between them — the same on one thread and on three.
        #[test]
        fn the_quotient_sums_the_cut_between_every_two_nodes(
            // (Above 128 the mesh spans two chunks of the listing.)
            side in prop_oneof![8usize..40, 130usize..160],
            nodes in 2u64..12,
            seed in 0u64..1000,
        ) {
            let mut rng = crate::mapper::rng::Rng::new(seed, 0);
            let g = mesh_with_volumes(side, 5, &mut rng);
            let place: Vec<u64> = (0..g.n()).map(|_| rng.below(nodes as usize) as u64).collect();
            let mut cut = std::collections::BTreeMap::<(u64, u64), u64>::new();
            for v in 0..g.n() {
                for (u, w) in g.edges(v) {
                    if place[u] != place[v] {
                        *cut.entry((place[v], place[u])).or_default() += w;
                    }
                }
            }
            for threads in [1, 3] {
                let q = crate::mapper::on_threads(threads, || Quotient::new(&g, &place));
                let mut parts: Vec<u64> = cut.keys().map(|&(a, _)| a).collect();
                parts.dedup();
                prop_assert_eq!(&q.parts, &parts);
                let mut counted = std::collections::BTreeMap::new();
                for (k, &a) in q.parts.iter().enumerate() {
                    prop_assert_eq!(q.number(a), Some(k));
                    for &(b, w) in q.row(k) {
                        let b = q.parts[b as usize];
                        prop_assert!(counted.insert((a, b), w).is_none(), "{a} -> {b} twice");
                    }
                }
                prop_assert_eq!(&counted, &cut);
            }
        }

        /// Priced from the cost table, the swaps are the ones the parts'
        /// rows give — the same placement and gain, which is the hop-bytes
        /// taken off — on tori, a hypercube, a ring and a two-level tree
        /// (whose leaves list no neighbours), from scattered placements of
        /// a mesh with long edges (a dense quotient).
        #[test]
        fn the_table_swaps_as_the_rows_do(
            side in 6usize..24,
            host in prop::sample::select(vec!["torus:4x4", "torus:3x5", "cube:4", "ring:9", "tleaf:4x4:10,1", "mesh:2x3x2"]),
            seed in 0u64..1000,
        ) {
            let mut rng = crate::mapper::rng::Rng::new(seed, 0);
            let g = mesh_with_volumes(side, 9, &mut rng);
            let host = topology::parse(host).unwrap();
            let dist = HostDistance::new(host.as_ref()).unwrap();
            let nodes = host.node_count() as usize;
            // Blocks of rows, a third of the vertices scattered (and the
            // last node left empty).
            let place: Vec<u64> = (0..g.n())
                .map(|v| match rng.below(3) {
                    0 => rng.below(nodes - 1) as u64,
                    _ => (v * (nodes - 1) / g.n()) as u64,
                })
                .collect();
            let q = Quotient::new(&g, &place);
            prop_assert!(CostTable::new(&q, &dist, &q.parts).is_some());
            let before = crate::mapper::hop_bytes(&g, &dist, &place);
            let mut by_rows = place.clone();
            let rows = swap_with(&g, &dist, &mut by_rows, (8, None), &mut crate::mapper::rng::Rng::new(seed, 1), Pricing::Rows);
            let mut by_table = place.clone();
            let table = swap_with(&g, &dist, &mut by_table, (8, None), &mut crate::mapper::rng::Rng::new(seed, 1), Pricing::Table);
            prop_assert_eq!(&by_table, &by_rows);
            prop_assert_eq!(table, rows);
            prop_assert_eq!(before - rows, crate::mapper::hop_bytes(&g, &dist, &by_rows));
            if rows == 0 {
                prop_assert_eq!(&by_rows, &place);
            }
        }
    }

    /// The table is built where it costs less than the rows: onto
    /// torus:4x4x4, a mesh scattered at random (every part neighbours most
    /// others), not the same mesh in blocks onto torus:16x16 (a sparse
    /// quotient); never past [`MAX_TABLE`] (32 768 parts onto torus:32x32x32).
    #[test]
    fn the_table_is_built_where_it_pays() {
        let mesh = topology::parse("mesh:256x256").unwrap();
        let g = WGraph::from_topology(mesh.as_ref()).unwrap();
        let mut rng = crate::mapper::rng::Rng::new(1, 0);
        let mut quotient_of = |host: &str, scattered: bool| {
            let host = topology::parse(host).unwrap();
            let p = host.node_count();
            let place: Vec<u64> = (0..g.n() as u64)
                .map(|v| match scattered {
                    true => rng.below(p as usize) as u64,
                    false => v * p / g.n() as u64,
                })
                .collect();
            (Quotient::new(&g, &place), host)
        };
        let (dense, torus) = quotient_of("torus:4x4x4", true);
        let dist = HostDistance::new(torus.as_ref()).unwrap();
        assert!(CostTable::pays(&dense, &dist));
        let (sparse, torus) = quotient_of("torus:16x16", false);
        let dist = HostDistance::new(torus.as_ref()).unwrap();
        assert!(!CostTable::pays(&sparse, &dist));
        let (dense, big) = quotient_of("torus:32x32x32", true);
        let dist = HostDistance::new(big.as_ref()).unwrap();
        assert!(!CostTable::pays(&dense, &dist));
        assert!(CostTable::new(&dense, &dist, &dense.parts).is_none());
        // A part's volume times the farthest distance past 60 bits: none.
        let mut heavy =
            WGraph::from_topology(topology::parse("mesh:4x4").unwrap().as_ref()).unwrap();
        heavy.ew.iter_mut().for_each(|w| *w = 1 << 58);
        let place: Vec<u64> = (0..16).collect();
        let ring = topology::parse("ring:16").unwrap();
        let dist = HostDistance::new(ring.as_ref()).unwrap();
        let q = Quotient::new(&heavy, &place);
        assert!(CostTable::new(&q, &dist, &q.parts).is_none());
        heavy.ew.iter_mut().for_each(|w| *w = 1 << 50);
        let q = Quotient::new(&heavy, &place);
        assert!(CostTable::new(&q, &dist, &q.parts).is_some());
    }
}
