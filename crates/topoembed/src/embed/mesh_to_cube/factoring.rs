//! Choosing how `split` and `recursive` cut the axes of an
//! ℓ_0 x ℓ_1 x .. mesh for an n-cube, and what each choice costs.
//!
//! **Per-axis cuts** (Theorem 1, Lemma 2): axis i gets n_i cube dimensions
//! (Σ n_i ≤ n) and min(2^(n_i), ℓ_i) segments, placed by the BRGC of the
//! segment index (or along Hamiltonian cycles, below): dilation 1. Per node
//! an axis holds at most ⌈ℓ_i / segments⌉ elements; the load factor is the
//! product. Each cube link along axis i carries, per mesh line of axis i
//! through the node, one edge (consecutive segments meet once) or, cyclic,
//! ⌈(ℓ_i − 1) / 2^(n_i)⌉ (every round of 2^(n_i) elements crosses every
//! link of the Gray cycle; ℓ_i − 1 with two segments, where both directions
//! are the same link); times the lines through a node, the product of the
//! other axes' extents (Lemma 2).
//!
//! **Hamiltonian cycles** (Theorem 4): an axis with n_i ≥ 4 has h = ⌊n_i/2⌋
//! edge-disjoint Hamiltonian cycles of its subcube. Its units (consecutive:
//! h·2^(n_i) segments, h blocks; cyclic: the elements, rounds of 2^(n_i))
//! go round cycle (unit / 2^(n_i)) mod h; every cycle starts at node 0 and
//! its last node is a neighbour of 0, so a block or round ends next to
//! where the next begins (dilation 1). Cyclic rounds then share h cycles
//! instead of one: ⌈(ℓ_i − 1) / (h·2^(n_i))⌉ edges per link, h times fewer.
//! Consecutive blocks each cross their own cycle's links once, as one run
//! crossed the Gray path's: the same one edge per link, so Theorem 4's
//! factor appears only for cyclic cuts (see docs/src/methods.md).
//!
//! **Theorem 2 cuts** (consecutive only): any segment counts p_i with
//! Π p_i ≤ 2^n, leaving 2^n − Π p_i nodes unused. The segment grid, too
//! many segments for per-axis Gray codes, goes one segment per node by
//! `reshape` (Theorem 3 with β = 1), so the dilation is that bound rather
//! than the paper's 2 (which needs Chan's grid embeddings). E.g. 35x27 in a
//! 6-cube: 7x9 segments of 5x3, load 15, where per-axis cuts give 18.
//!
//! The search ranks candidates by [`Rank`]; by default least load factor,
//! then least dilation, then least congestion, then fewest unused nodes.

use super::super::Partition;
use super::reshape::Reshape;
use crate::bits::ceil_log2;

/// Most candidates a search looks at (many axes in a large cube).
pub const MAX_CANDIDATES: u64 = 1 << 22;

/// How the axes are cut: the partition and whether axes with four or more
/// dimensions go along edge-disjoint Hamiltonian cycles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Cut {
    /// Consecutive or cyclic segments.
    pub partition: Partition,
    /// Theorem 4: spread an axis over ⌊n_i/2⌋ Hamiltonian cycles.
    pub hamiltonian: bool,
}

/// What the search minimises first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Rank {
    /// Load factor, then dilation, congestion, unused nodes (Theorem 2 cuts allowed).
    #[default]
    Load,
    /// Load factor under dilation 1 (per-axis cuts only), then congestion.
    UnitDilation,
    /// Congestion with every node used (as far as the lengths allow), then load.
    Congestion,
}

/// A way to cut the axes, with what it costs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Factoring {
    /// Cube dimensions per axis (axis 1 first); for a Theorem 2 cut, the
    /// dimensions of the whole segment grid are in `grid_bits`.
    pub bits: Vec<u32>,
    /// Segments (consecutive) per axis.
    pub parts: Vec<u64>,
    /// Hamiltonian cycles each axis goes round (1: the Gray code's).
    pub cycles: Vec<u32>,
    /// Theorem 2: the segment grid placed by `reshape` in this many dimensions.
    pub grid_bits: Option<u32>,
    /// The cut it was evaluated for.
    pub cut: Cut,
    /// Most elements on one node.
    pub load_factor: u64,
    /// Dilation (per-axis cuts), or Theorem 3's bound on it (Theorem 2 cuts).
    pub dilation: u64,
    /// Most mesh edges on one cube link under e-cube routing (per-axis cuts).
    pub congestion: Option<u64>,
    /// Cube nodes holding no element.
    pub unused: u64,
}

impl Factoring {
    /// "1", or "<= 4" for a Theorem 2 cut (a bound, not a measurement).
    pub fn dilation_text(&self) -> String {
        match self.grid_bits {
            Some(_) => format!("<= {}", self.dilation),
            None => self.dilation.to_string(),
        }
    }

    /// The per-axis cut of `lengths` with `bits[i]` dimensions for axis i.
    pub fn evaluate(lengths: &[u64], bits: &[u32], n: u32, cut: Cut) -> Factoring {
        let cycles: Vec<u32> = bits
            .iter()
            .map(|&b| if cut.hamiltonian && b >= 4 { b / 2 } else { 1 })
            .collect();
        let parts: Vec<u64> = lengths
            .iter()
            .zip(bits)
            .zip(&cycles)
            .map(|((&l, &b), &h)| (u64::from(h) << b).min(l))
            .collect();
        let extent: Vec<u64> = (0..lengths.len())
            .map(|i| axis_extent(lengths[i], bits[i], parts[i], cut.partition))
            .collect();
        let load_factor = extent.iter().product();
        let mut congestion = 0;
        for (i, (&l, &b)) in lengths.iter().zip(bits).enumerate() {
            if b == 0 {
                continue;
            }
            let cross: u64 = (0..extent.len())
                .filter(|&j| j != i)
                .map(|j| extent[j])
                .product();
            let per_line = edges_per_link(l, b, cycles[i], cut.partition);
            congestion = congestion.max(cross * per_line);
        }
        let used: u64 = bits
            .iter()
            .zip(&parts)
            .map(|(&b, &p)| nodes_used(b, p))
            .product();
        Factoring {
            bits: bits.to_vec(),
            parts,
            cycles,
            grid_bits: None,
            cut,
            load_factor,
            dilation: u64::from(bits.iter().any(|&b| b > 0)),
            congestion: Some(congestion),
            unused: (1u64 << n) - used,
        }
    }

    /// The Theorem 2 cut of `lengths` into `parts` consecutive segments per
    /// axis, the segment grid placed one per node by `reshape`.
    pub fn evaluate_grid(lengths: &[u64], parts: &[u64], n: u32) -> Factoring {
        let segments: u64 = parts.iter().product();
        let grid_bits = ceil_log2(segments);
        let bound = Reshape::new(parts, grid_bits).bound();
        Factoring {
            bits: vec![0; lengths.len()],
            parts: parts.to_vec(),
            cycles: vec![1; lengths.len()],
            grid_bits: Some(grid_bits),
            cut: Cut::default(),
            load_factor: lengths
                .iter()
                .zip(parts)
                .map(|(&l, &p)| l.div_ceil(p))
                .product(),
            dilation: if segments > 1 { bound.holds } else { 0 },
            congestion: None,
            unused: (1u64 << n) - segments,
        }
    }

    /// The best cut of `lengths` into an n-cube by `rank` (module doc).
    pub fn search(lengths: &[u64], n: u32, cut: Cut, rank: Rank) -> Result<Factoring, String> {
        let caps: Vec<u32> = lengths.iter().map(|&l| ceil_log2(l)).collect();
        let key = |f: &Factoring| -> (u64, u64, u64, u64) {
            let congestion = f.congestion.unwrap_or(u64::MAX);
            match rank {
                Rank::Load | Rank::UnitDilation => {
                    (f.load_factor, f.dilation, congestion, f.unused)
                }
                Rank::Congestion => (f.unused, congestion, f.load_factor, 0),
            }
        };
        let mut best: Option<Factoring> = None;
        let consider = |best: &mut Option<Factoring>, f: Factoring| {
            if best.as_ref().map_or(true, |b| key(&f) < key(b)) {
                *best = Some(f);
            }
        };
        let mut bits = vec![0u32; lengths.len()];
        let too_many = || {
            format!(
                "more than {MAX_CANDIDATES} ways to split {} axes into a {n}-cube; use reshape",
                lengths.len()
            )
        };
        enumerate_bits(&caps, n, 0, &mut bits, &mut 0, &mut |bits| {
            consider(&mut best, Factoring::evaluate(lengths, bits, n, cut))
        })
        .ok_or_else(too_many)?;
        let optimal = lengths.iter().product::<u64>().div_ceil(1 << n);
        let per_axis_load = best.as_ref().map_or(u64::MAX, |b| b.load_factor);
        // Theorem 2 can only help when per-axis cuts miss the optimum.
        if rank == Rank::Load && cut == Cut::default() && per_axis_load > optimal {
            let mut parts = vec![1u64; lengths.len()];
            // Too many grids: keep the per-axis answer (it is still correct).
            let _ = enumerate_parts(lengths, 1u64 << n, 0, &mut parts, &mut 0, &mut |parts| {
                // Grids whose axes fit Gray codes side by side are per-axis cuts.
                let dims: u32 = parts.iter().map(|&p| ceil_log2(p)).sum();
                if dims > n {
                    consider(&mut best, Factoring::evaluate_grid(lengths, parts, n));
                }
            });
        }
        best.ok_or_else(|| "no way to split the mesh".to_string())
    }

    /// §6 item 3: least load under dilation 1 by recursive halving. The
    /// powers of two are factored out first (they halve exactly, M1), then
    /// the longest axis is halved, ⌈ℓ/2⌉, again and again; when a half is
    /// even its powers of two are factored out before going on. Halving an
    /// axis k times leaves runs of at most ⌈ℓ/2^k⌉ placed by the reflected
    /// Gray code, the same as a per-axis cut with n_i = k, which is how the
    /// result is built. Greedy, so it can miss the best per-axis cut
    /// (35x27 in a 6-cube: 20, where `split` finds 18).
    pub fn recursive(lengths: &[u64], n: u32, cut: Cut) -> Factoring {
        let mut bits = vec![0u32; lengths.len()];
        let mut run = lengths.to_vec();
        let mut left = n;
        let factor_twos = |i: usize, run: &mut [u64], bits: &mut [u32], left: &mut u32| {
            while *left > 0 && run[i] > 1 && run[i] % 2 == 0 {
                run[i] /= 2;
                bits[i] += 1;
                *left -= 1;
            }
        };
        // M1 first, longest axes first when there are more twos than dimensions.
        let mut order: Vec<usize> = (0..lengths.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(lengths[i]));
        for &i in &order {
            factor_twos(i, &mut run, &mut bits, &mut left);
        }
        while left > 0 {
            let i = (0..run.len()).fold(0, |a, i| if run[i] > run[a] { i } else { a });
            if run[i] <= 1 {
                break;
            }
            run[i] = run[i].div_ceil(2);
            bits[i] += 1;
            left -= 1;
            factor_twos(i, &mut run, &mut bits, &mut left);
        }
        Factoring::evaluate(lengths, &bits, n, cut)
    }
}

/// Nodes an axis with `bits` dimensions and `parts` units occupies.
fn nodes_used(bits: u32, parts: u64) -> u64 {
    parts.min(1 << bits)
}

/// Most elements of an axis of `length` on one node: cyclic ⌈ℓ/2^b⌉;
/// consecutive with P segments of q or q+1 (the first r = ℓ mod P longer),
/// the node at position 0 of the T = ⌈P/2^b⌉ blocks holds the most,
/// T·q + min(T, ⌈r/2^b⌉).
fn axis_extent(length: u64, bits: u32, parts: u64, partition: Partition) -> u64 {
    match partition {
        Partition::Cyclic => length.div_ceil(1 << bits),
        Partition::Consecutive => {
            let (q, r) = (length / parts, length % parts);
            let blocks = parts.div_ceil(1 << bits);
            blocks * q + blocks.min(r.div_ceil(1 << bits))
        }
    }
}

/// Most edges of one axis line on one cube link (module doc).
fn edges_per_link(length: u64, bits: u32, cycles: u32, partition: Partition) -> u64 {
    match partition {
        Partition::Consecutive => 1,
        Partition::Cyclic if bits == 1 => length - 1,
        Partition::Cyclic => (length - 1).div_ceil(u64::from(cycles) << bits),
    }
}

/// Calls `visit` for every `bits` with bits[k] ≤ caps[k] and Σ ≤ left;
/// `None` when more than [`MAX_CANDIDATES`] would be visited.
fn enumerate_bits(
    caps: &[u32],
    left: u32,
    k: usize,
    bits: &mut Vec<u32>,
    seen: &mut u64,
    visit: &mut dyn FnMut(&[u32]),
) -> Option<()> {
    if k == caps.len() {
        *seen += 1;
        if *seen > MAX_CANDIDATES {
            return None;
        }
        visit(bits);
        return Some(());
    }
    for b in 0..=caps[k].min(left) {
        bits[k] = b;
        enumerate_bits(caps, left - b, k + 1, bits, seen, visit)?;
    }
    bits[k] = 0;
    Some(())
}

/// Calls `visit` for every `parts` with 1 ≤ parts[k] ≤ lengths[k] and
/// Π parts ≤ budget; `None` past [`MAX_CANDIDATES`].
fn enumerate_parts(
    lengths: &[u64],
    budget: u64,
    k: usize,
    parts: &mut Vec<u64>,
    seen: &mut u64,
    visit: &mut dyn FnMut(&[u64]),
) -> Option<()> {
    if k == lengths.len() {
        *seen += 1;
        if *seen > MAX_CANDIDATES {
            return None;
        }
        visit(parts);
        return Some(());
    }
    for p in 1..=lengths[k].min(budget) {
        parts[k] = p;
        enumerate_parts(lengths, budget / p, k + 1, parts, seen, visit)?;
    }
    parts[k] = 1;
    Some(())
}
