//! Every vertex's cost on every host node, for the annealing of a small
//! quotient ([`super::anneal`]): C\[v\]\[h\] = Σ volume × d(h, node of c) over
//! v's edges (v, c), the hop-bytes v's edges would weigh were v on h. An
//! exchange of a (on x) and b (on y) then costs four entries of C and the
//! volume between a and b — O(1) where reading the distances of both ends'
//! edges costs O(degree) — and a taken exchange adds volume × (d(h, y) −
//! d(h, x)) to the rows of a's neighbours and subtracts it from b's, one
//! vector loop over the host nodes per neighbour. This is the Δ matrix of
//! QAP local search (Taillard 1991, robust tabu search) kept per vertex and
//! node rather than per pair. Only taken exchanges pay for the rows (one in
//! 5 to 25), so it pays on small hosts: the 64 blocks of torus:16x16 halved
//! (8x8) and of torus:8x8x8 (4x4x4), and quotients of up to [`MAX_NODES`]
//! parts ([`MAX_SPARSE_NODES`] where they are sparse: torus:8x8x8's 512).
//!
//! The entries are the same integers the sparse sums give (the same scaled
//! volumes, the same distances), so every exchange is priced exactly as
//! before and a chain takes the same exchanges on the same stream. They
//! are 16 bits wide where every entry of C fits ([`Entry`]): twice the
//! host nodes per vector, half the table to keep in cache. Benchmark
//! (2026-12-05, the 38 pairs of `bench/mapper.sh`, one thread, seed 1,
//! each pair by both builds in turn, two rounds, summed): the same
//! placement on all 38, 52.47 → 50.10 s (−4.5 %): butterfly_12 onto
//! torus:16x16 1.16 → 0.94 s, mdual 3.02 → 2.75 s, rgg_n_2_15_s0 0.75 →
//! 0.68 s, delaunay_n15's 256 parts 0.38 → 0.34 s (the least of the two
//! rounds). Not kept: the 16-bit table on a dense quotient up to 512 nodes
//! (butterfly_12 onto torus:8x8x8 0.75–0.81 s against 0.77–0.83 s over two
//! seeds) and on a sparse one up to 1024 (delaunay_n15's 1024 parts onto
//! torus:32x32 0.87 → 1.21 s).
//!
//! Benchmark (2026-12-04, the 38 pairs of `bench/mapper.sh`, one thread,
//! seed 1, each pair run by both builds in turn, CPU seconds, the least of
//! two rounds; 2 cores, Intel Xeon VM with AVX2): the same placement on all
//! 38, 33.35 → 30.41 s (−8.8 %): delaunay_n15 onto torus:16x16 0.98 →
//! 0.77 s, 4elt 0.74 → 0.58 s, copter2 2.44 → 2.16 s, delaunay_n15's
//! 64-part quotient onto cube:6 0.24 → 0.09 s. One annealing of the 64
//! blocks of torus:16x16: 4elt 0.18 → 0.13 s, butterfly_12 (a dense
//! quotient, 37 neighbours a block) 0.33 → 0.22 s. With SSE2's multiply
//! by halves butterfly_12's was slower than the sums (0.40 s). Not
//! kept: tables up to 1024 nodes (delaunay_n15 onto torus:32x32: 0.65 →
//! 2.1 s, a 4 MiB table per chain); up to 512 on every quotient (torus:8x8x8's
//! 512 parts: 4elt and copter2 0.14 → 0.10 s, butterfly_12 0.16 → 0.17 s), so
//! up to 512 only where the quotient is sparse ([`MAX_SPARSE_NODES`]).

use std::ops::{AddAssign, Mul, Sub};

/// Most host nodes (and vertices) priced by a table: C is vertices × nodes
/// 32-bit entries, 256 KiB at 256, and a taken exchange passes over the
/// rows of both ends' neighbours.
pub const MAX_NODES: u64 = 256;

/// [`MAX_NODES`] for a sparse quotient, of at most [`SPARSE_DEGREE`]
/// neighbours a vertex on average: a taken exchange passes over few rows,
/// and there the table paid at 512 nodes as well (a dense one, an FFT
/// butterfly's, lost there). Benchmark (2026-12-04, one thread, the map's
/// wall time, medians of 3 runs interleaved with the build before, the
/// same placements): onto torus:8x8x8, whose 512 parts the search lays
/// out by one annealing chain after the 4x4x4 blocks, delaunay_n15 0.68 →
/// 0.63 s, rgg_n_2_15_s0 0.70 → 0.63 s, 4elt 0.43 → 0.39 s, copter2 2.08 →
/// 1.99 s, mdual 2.78 → 2.69 s (butterfly_12, 35 neighbours a part, keeps
/// the sums: 0.94 and 0.92 s).
pub const MAX_SPARSE_NODES: u64 = 512;

/// Most neighbours a vertex of a sparse quotient has on average
/// ([`MAX_SPARSE_NODES`]): mdual's 512 parts have 14, copter2's 12,
/// butterfly_12's 35.
const SPARSE_DEGREE: usize = 16;

/// An entry of C and of the distance rows: `i16` or `i32`, whichever
/// [`Tables::new`] finds every entry fits. Each is an exact integer: no
/// sum of a row (nor any partial sum on the way to it) leaves the type.
pub trait Entry:
    Copy + Default + Send + Sync + Mul<Output = Self> + AddAssign + Sub<Output = Self> + Into<i64>
{
    /// The largest entry.
    const MAX: i64;
    /// `v` as an entry; `v` is within ±[`Entry::MAX`] (checked by
    /// [`Tables::new`] for every value it is given).
    fn of(v: i64) -> Self;
}

impl Entry for i16 {
    const MAX: i64 = i16::MAX as i64;
    #[inline(always)]
    fn of(v: i64) -> i16 {
        v as i16
    }
}

impl Entry for i32 {
    const MAX: i64 = i32::MAX as i64;
    #[inline(always)]
    fn of(v: i64) -> i32 {
        v as i32
    }
}

/// What every chain shares: the volumes between every two vertices and the
/// host's distances, both dense.
pub struct Tables<T> {
    /// Vertices: the width of `volume`'s rows.
    n: usize,
    /// Host nodes: the width of C's and the distances' rows.
    p: usize,
    /// Volume between every two vertices (summed over repeated entries),
    /// `n × n`.
    volume: Vec<i32>,
    /// `to[g * p + h]` = d(h, g): row g is every node's distance to g.
    to: Vec<T>,
    /// Whether the rows are added with AVX2's 32-bit multiply (checked at
    /// run time; x86-64's baseline SSE2 has none and multiplies by halves,
    /// which took the table's gain away).
    avx2: bool,
}

/// A chain's own cost table: C, vertices × host nodes, and the row of
/// distance changes a taken exchange adds.
#[derive(Clone)]
pub struct Costs<T> {
    c: Vec<T>,
    change: Vec<T>,
}

impl<T: Entry> Tables<T> {
    /// The shared tables of the quotient whose vertex v has the edges
    /// `entries[xadj[v]..xadj[v + 1]]` (neighbour, volume), onto host nodes
    /// `0..p` at distances `d`; `None` where a table does not pay or fit:
    /// more than [`MAX_NODES`] host nodes, an entry of C (a vertex's volume
    /// times the farthest distance) beyond `T`, or volumes that differ
    /// between an edge's two directions (the rows passed over on an
    /// exchange are the moved vertex's own).
    pub fn new(
        entries: &[(u32, i64)],
        xadj: &[usize],
        p: u64,
        d: &impl Fn(u64, u64) -> i64,
    ) -> Option<Tables<T>> {
        let n = xadj.len().checked_sub(1)?;
        let most = match entries.len() <= SPARSE_DEGREE * n {
            true => MAX_SPARSE_NODES,
            false => MAX_NODES,
        };
        if p > most || n as u64 > p {
            return None;
        }
        let p = p as usize;
        let mut to = vec![T::default(); p * p];
        let mut farthest = 0i64;
        for g in 0..p {
            for h in 0..p {
                let dist = d(h as u64, g as u64);
                if !(0..=T::MAX).contains(&dist) {
                    return None;
                }
                farthest = farthest.max(dist);
                to[g * p + h] = T::of(dist);
            }
        }
        let mut volume = vec![0i64; n * n];
        for v in 0..n {
            let mut weighed = 0i64;
            for &(c, wc) in &entries[xadj[v]..xadj[v + 1]] {
                volume[v * n + c as usize] += wc;
                weighed = weighed.checked_add(wc)?;
            }
            // C[v][h] ≤ Σ volume × the farthest distance, and so is every
            // partial sum on the way to it (and every volume × a change in
            // distance a taken exchange adds).
            if weighed.checked_mul(farthest.max(1))? > T::MAX {
                return None;
            }
        }
        let symmetric = (0..n).all(|a| (0..a).all(|b| volume[a * n + b] == volume[b * n + a]));
        let volume = volume
            .into_iter()
            .map(i32::try_from)
            .collect::<Result<Vec<i32>, _>>()
            .ok()?;
        symmetric.then_some(Tables {
            n,
            p,
            volume,
            to,
            avx2: has_avx2(),
        })
    }

    /// The distances to node g, one per host node.
    fn to(&self, g: u32) -> &[T] {
        &self.to[g as usize * self.p..][..self.p]
    }

    /// d(h, g).
    fn d(&self, h: u32, g: u32) -> i64 {
        self.to[g as usize * self.p + h as usize].into()
    }

    /// C for the placement `on` (host node per vertex).
    pub fn costs(&self, entries: &[(u32, i64)], xadj: &[usize], on: &[u32]) -> Costs<T> {
        let p = self.p;
        let mut c = vec![T::default(); on.len() * p];
        for (v, row) in c.chunks_exact_mut(p).enumerate() {
            for &(u, wu) in &entries[xadj[v]..xadj[v + 1]] {
                add_scaled(row, T::of(wu), self.to(on[u as usize]));
            }
        }
        Costs {
            c,
            change: vec![T::default(); p],
        }
    }

    /// The hop-bytes change of sending vertex `a` from node `x` to node `y`
    /// and `b` (the vertex on `y`, if any) to `x`: each end's cost on its
    /// new node less its cost where it is, the edge between them left out
    /// (an exchange keeps its length) — as `anneal`'s sparse sums count it.
    #[inline(always)]
    pub fn exchange_delta(&self, costs: &Costs<T>, a: usize, (x, y): (u32, u32), b: u32) -> i64 {
        let (p, c) = (self.p, &costs.c);
        let cost = |v: usize, h: u32| -> i64 { c[v * p + h as usize].into() };
        let mut sum = cost(a, y) - cost(a, x);
        if b != u32::MAX {
            let b = b as usize;
            let between = i64::from(self.volume[a * self.n + b]);
            sum -= between * (self.d(y, y) - self.d(x, y));
            sum += cost(b, x) - cost(b, y) - between * (self.d(x, x) - self.d(y, x));
        }
        sum
    }

    /// Follows an exchange taken: `a` went from `x` to `y` and `b` (if any)
    /// from `y` to `x`; every row of a's neighbours gains volume × (d(h, y)
    /// − d(h, x)), every row of b's loses it.
    pub fn commit(
        &self,
        costs: &mut Costs<T>,
        (entries, xadj): (&[(u32, i64)], &[usize]),
        (a, b): (usize, u32),
        (x, y): (u32, u32),
    ) {
        let Costs { c, change } = costs;
        difference(change, self.to(y), self.to(x));
        let rows = Rows {
            c,
            p: self.p,
            change,
            gaining: &entries[xadj[a]..xadj[a + 1]],
            losing: match b {
                u32::MAX => &[],
                b => &entries[xadj[b as usize]..xadj[b as usize + 1]],
            },
        };
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is set only where the processor has AVX2.
            return unsafe { rows.add_avx2() };
        }
        rows.add();
    }

    /// C[v][h], for checks.
    pub fn cost(&self, costs: &Costs<T>, v: usize, h: u32) -> i64 {
        costs.c[v * self.p + h as usize].into()
    }
}

/// The rows a taken exchange changes: C (`p` wide), the change in distance
/// per host node, and the entries of the two ends, whose neighbours' rows
/// gain and lose volume × change.
struct Rows<'a, T> {
    c: &'a mut [T],
    p: usize,
    change: &'a [T],
    gaining: &'a [(u32, i64)],
    losing: &'a [(u32, i64)],
}

impl<T: Entry> Rows<'_, T> {
    /// Adds the changes (one vector loop per row).
    #[inline(always)]
    fn add(self) {
        let Rows {
            c,
            p,
            change,
            gaining,
            losing,
        } = self;
        let sides = gaining.iter().map(|&(u, w)| (u, T::of(w)));
        let sides = sides.chain(losing.iter().map(|&(u, w)| (u, T::of(-w))));
        for (u, scale) in sides {
            add_scaled(&mut c[u as usize * p..][..p], scale, change);
        }
    }

    /// [`Rows::add`] compiled for AVX2.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn add_avx2(self) {
        self.add()
    }
}

/// `out = a − b`, element by element: a taken move's change in distance
/// per host node, d(h, y) − d(h, x) (the part swaps' table takes it too,
/// [`super::parts`]).
pub(super) fn difference<T>(out: &mut [T], a: &[T], b: &[T])
where
    T: Copy + std::ops::Sub<Output = T>,
{
    for ((o, &a), &b) in out.iter_mut().zip(a).zip(b) {
        *o = a - b;
    }
}

/// `row += scale × by`, element by element (one vector loop; inlined, so
/// compiled for AVX2 inside [`Rows::add_avx2`]); the part swaps' table
/// adds its i64 rows by it too ([`super::parts`]).
#[inline(always)]
pub(super) fn add_scaled<T>(row: &mut [T], scale: T, by: &[T])
where
    T: Copy + std::ops::Mul<Output = T> + std::ops::AddAssign,
{
    for (r, &b) in row.iter_mut().zip(by) {
        *r += scale * b;
    }
}

/// Whether the processor has AVX2.
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::is_x86_feature_detected!("avx2");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapper::coarsen::tests::bip;
    use crate::mapper::distance::HostDistance;
    use crate::mapper::graph::WGraph;
    use crate::mapper::rng::Rng;
    use crate::topology;
    use proptest::prelude::*;

    /// Against brute force, in entries of `T`: 60 random exchanges of `q`'s
    /// vertices on `host`, each priced as the hop-bytes after it less the
    /// hop-bytes before (both summed over every edge), and after each one
    /// taken the table equal to one built afresh.
    fn exchanges_priced_exactly<T: Entry + PartialEq + std::fmt::Debug>(
        q: &WGraph,
        host: &str,
        seed: u64,
        avx2: bool,
    ) -> Result<(), TestCaseError> {
        let n = q.n();
        let host = topology::parse(host).unwrap();
        let dist = HostDistance::new(host.as_ref()).unwrap();
        let p = host.node_count();
        let d = |a: u64, b: u64| dist.d(a, b) as i64;
        let entries: Vec<(u32, i64)> = q
            .adj
            .iter()
            .zip(&q.ew)
            .map(|(&c, &w)| (c, w as i64))
            .collect();
        let mut tables = Tables::<T>::new(&entries, &q.xadj, p, &d).expect("a small host");
        tables.avx2 &= avx2;
        let mut rng = Rng::new(seed, 1);
        let mut on: Vec<u32> = rng.permutation(p as usize)[..n].to_vec();
        let mut at = vec![u32::MAX; p as usize];
        for (v, &h) in on.iter().enumerate() {
            at[h as usize] = v as u32;
        }
        let hop_bytes = |on: &[u32]| -> i64 {
            (0..n)
                .flat_map(|v| {
                    entries[q.xadj[v]..q.xadj[v + 1]]
                        .iter()
                        .map(move |e| (v, e))
                })
                .map(|(v, &(c, w))| w * d(u64::from(on[v]), u64::from(on[c as usize])))
                .sum::<i64>()
                / 2
        };
        let mut costs = tables.costs(&entries, &q.xadj, &on);
        for _ in 0..60 {
            let a = rng.below(n);
            let y = rng.below(p as usize) as u32;
            let x = on[a];
            if x == y {
                continue;
            }
            let b = at[y as usize];
            let priced = tables.exchange_delta(&costs, a, (x, y), b);
            let before = hop_bytes(&on);
            on[a] = y;
            at[y as usize] = a as u32;
            at[x as usize] = b;
            if b != u32::MAX {
                on[b as usize] = x;
            }
            prop_assert_eq!(priced, hop_bytes(&on) - before);
            tables.commit(&mut costs, (&entries, &q.xadj), (a, b), (x, y));
            prop_assert_eq!(&costs.c, &tables.costs(&entries, &q.xadj, &on).c);
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(60))]

        /// [`exchanges_priced_exactly`] on random graphs onto a torus, a
        /// mesh and a tleaf, with empty host nodes, on the AVX2 path and
        /// the plain one, in 32 bits and, where every row fits, in 16 — a
        /// heavy edge puts the rows on both sides of the 16-bit bound, and
        /// the 16-bit table is built exactly where they fit.
        #[test]
        fn exchanges_are_priced_as_the_hop_bytes_change(
            n in 3usize..40,
            extra in prop::collection::vec((0usize..40, 0usize..40, 1u64..9), 0..80),
            heavy in 1u64..3000,
            host in prop::sample::select(vec!["torus:8x8", "tleaf:2x4x8:50,5,1", "mesh:5x9"]),
            seed in 0u64..1000,
            avx2 in any::<bool>(),
        ) {
            // One heavy edge: rows from far below the 16-bit bound to past it.
            let mut extra = extra;
            extra.push((0, 1, heavy));
            let q = bip(n, &extra, &[1], &[[0, 0]]).g;
            exchanges_priced_exactly::<i32>(&q, host, seed, avx2)?;
            // The 16-bit table exactly where every row fits: the heaviest
            // vertex's volume times the farthest distance at most 32 767.
            let host_graph = topology::parse(host).unwrap();
            let dist = HostDistance::new(host_graph.as_ref()).unwrap();
            let p = host_graph.node_count();
            let d = |a: u64, b: u64| dist.d(a, b) as i64;
            let farthest = (0..p).flat_map(|a| (0..p).map(move |b| (a, b))).map(|(a, b)| d(a, b)).max().unwrap();
            let heaviest = (0..n).map(|v| q.ew[q.xadj[v]..q.xadj[v + 1]].iter().sum::<u64>()).max().unwrap();
            let entries: Vec<(u32, i64)> =
                q.adj.iter().zip(&q.ew).map(|(&c, &w)| (c, w as i64)).collect();
            let narrow = Tables::<i16>::new(&entries, &q.xadj, p, &d);
            prop_assert_eq!(narrow.is_some(), heaviest as i64 * farthest <= 32_767);
            if narrow.is_some() {
                exchanges_priced_exactly::<i16>(&q, host, seed, avx2)?;
            }
        }
    }

    /// Where a table would not fit or could mislead, there is none: more
    /// than [`MAX_SPARSE_NODES`] host nodes, more than [`MAX_NODES`] for a
    /// dense quotient, an entry of C beyond the entries' width (16 or 32
    /// bits), volumes that differ between an edge's two directions.
    #[test]
    fn no_table_where_it_would_not_fit() {
        let d = |a: u64, b: u64| a.abs_diff(b) as i64;
        let path = |w: [i64; 2]| (vec![(1u32, w[0]), (0u32, w[1])], vec![0usize, 1, 2]);
        let wide = |(entries, xadj): &(Vec<(u32, i64)>, Vec<usize>), p: u64| {
            Tables::<i32>::new(entries, xadj, p, &d).is_some()
        };
        let narrow = |(entries, xadj): &(Vec<(u32, i64)>, Vec<usize>), p: u64| {
            Tables::<i16>::new(entries, xadj, p, &d).is_some()
        };
        let light = path([5, 5]);
        assert!(wide(&light, 4) && narrow(&light, 4));
        assert!(wide(&light, MAX_SPARSE_NODES) && narrow(&light, MAX_SPARSE_NODES));
        assert!(!wide(&light, MAX_SPARSE_NODES + 1) && !narrow(&light, MAX_SPARSE_NODES + 1));
        // Every two of 20 vertices neighbours (19 a vertex): dense.
        let dense: Vec<(u32, i64)> = (0..20u32)
            .flat_map(|v| (0..20u32).filter(move |&u| u != v).map(|u| (u, 1)))
            .collect();
        let dense = (dense, (0..=20).map(|v| 19 * v).collect());
        assert!(wide(&dense, MAX_NODES) && narrow(&dense, MAX_NODES));
        assert!(!wide(&dense, MAX_NODES + 1) && !narrow(&dense, MAX_NODES + 1));
        let lopsided = path([5, 6]);
        assert!(!wide(&lopsided, 4) && !narrow(&lopsided, 4));
        // Σ volume × the farthest distance (3) above 2^31 − 1, and above
        // 2^15 − 1: no table, then only the 32-bit one.
        for (most, fits_wide) in [(i64::from(i32::MAX), false), (i64::from(i16::MAX), true)] {
            let big = most / 3 + 1;
            assert_eq!(wide(&path([big, big]), 4), fits_wide);
            assert!(!narrow(&path([big, big]), 4));
            assert!(wide(&path([big - 1, big - 1]), 4));
            assert_eq!(narrow(&path([big - 1, big - 1]), 4), fits_wide);
        }
        // A distance beyond 16 bits: the 32-bit table alone.
        let far = |a: u64, b: u64| 40_000 * a.abs_diff(b) as i64;
        let (entries, xadj) = path([1, 1]);
        assert!(Tables::<i16>::new(&entries, &xadj, 4, &far).is_none());
        assert!(Tables::<i32>::new(&entries, &xadj, 4, &far).is_some());
    }
}
