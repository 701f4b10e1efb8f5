//! `split`: Ho & Johnsson's Theorem 1 and Lemma 2. Axis i of an
//! ℓ_0 x ℓ_1 x .. mesh is cut into 2^(n_i) segments (Σ n_i ≤ n), and the
//! segment grid, a 2^(n_0) x 2^(n_1) x .. mesh, goes into the n-cube by the
//! binary-reflected Gray code of each axis (axis 1 in the low bits, as
//! `gray` does): neighbouring segments sit on neighbouring cube nodes, so the
//! dilation is 1. The load factor is Π ⌈ℓ_i / 2^(n_i)⌉, optimal when the
//! lengths carry enough powers of two (Theorem 1).
//!
//! Segments are **consecutive** (runs as equal as possible: the first
//! ℓ mod p of the p segments one longer) or **cyclic** (x in segment x mod p;
//! with e-cube routing the wrap from segment p-1 to 0 is one link too, as
//! G(p-1) and G(0) differ in one bit).
//!
//! The factoring (n_0, n_1, ..) is searched over every split with
//! 2^(n_i) ≤ ℓ_i and Σ n_i ≤ n (fewer than n dimensions leaves nodes unused
//! when that lowers the load factor): least load factor first, then least
//! congestion (each cube link along axis i carries the mesh edges between
//! two segments times the largest cross-section of the other axes, Lemma 2),
//! then fewer unused nodes. E.g. 100x320 in a 4-cube: a 2x8 configuration,
//! 50x40 partitions, load 2000, congestion 50.

use super::super::{Embedding, Method, NotApplicable, Params, Partition};
use super::mesh_and_cube;
use crate::bits::{btog, gtob};
use crate::topology::Topology;

pub(in crate::embed) const METHOD: Method = Method {
    name: "split",
    guest: "mesh:L0xL1x.. (any lengths), line:N",
    host: "cube:n",
    preconditions: "many-to-one; --partition consecutive|cyclic",
    summary: "axes cut into 2^n_i segments placed by BRGC, dilation 1 (Ho & Johnsson Thm 1)",
    build,
};

/// Most factorings the search looks at (many axes in a large cube).
const MAX_CANDIDATES: u64 = 1 << 22;

fn build(
    guest: &dyn Topology,
    host: &dyn Topology,
    params: &Params,
) -> Result<Box<dyn Embedding>, NotApplicable> {
    let (lengths, n) = mesh_and_cube(guest.spec(), host.spec())?;
    let factoring = Factoring::search(&lengths, n, params.partition)?;
    Ok(Box::new(Split::new(
        &lengths,
        &factoring.bits,
        params.partition,
    )))
}

/// A choice of segment counts 2^(n_i) per axis, with what it costs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Factoring {
    /// n_i per axis (axis 1 first).
    pub bits: Vec<u32>,
    /// Π ⌈ℓ_i / 2^(n_i)⌉.
    pub load_factor: u64,
    /// Most mesh edges on one cube link.
    pub congestion: u64,
    /// Cube nodes left without elements: 2^n - 2^(Σ n_i).
    pub unused: u64,
}

impl Factoring {
    /// Load factor and congestion of splitting `lengths` by `bits`.
    pub fn evaluate(lengths: &[u64], bits: &[u32], n: u32, partition: Partition) -> Factoring {
        let longest_segment: Vec<u64> = lengths
            .iter()
            .zip(bits)
            .map(|(&l, &b)| l.div_ceil(1 << b))
            .collect();
        let load_factor = longest_segment.iter().product();
        let mut congestion = 0;
        for (i, (&l, &b)) in lengths.iter().zip(bits).enumerate() {
            if b == 0 {
                continue;
            }
            let cross: u64 = longest_segment
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &s)| s)
                .product();
            congestion = congestion.max(cross * most_edges_per_link(l, 1 << b, partition));
        }
        Factoring {
            bits: bits.to_vec(),
            load_factor,
            congestion,
            unused: (1u64 << n) - (1u64 << bits.iter().sum::<u32>()),
        }
    }

    /// The best factoring of `lengths` into an n-cube (module doc).
    pub fn search(lengths: &[u64], n: u32, partition: Partition) -> Result<Factoring, String> {
        let caps: Vec<u32> = lengths.iter().map(|&l| 63 - l.leading_zeros()).collect();
        let mut best: Option<Factoring> = None;
        let mut bits = vec![0u32; lengths.len()];
        let mut visit = |bits: &[u32]| {
            let f = Factoring::evaluate(lengths, bits, n, partition);
            let key = |f: &Factoring| (f.load_factor, f.congestion, f.unused);
            if best.as_ref().map_or(true, |b| key(&f) < key(b)) {
                best = Some(f);
            }
        };
        enumerate(&caps, n, 0, &mut bits, &mut visit, &mut 0, MAX_CANDIDATES).ok_or_else(|| {
            format!(
                "more than {MAX_CANDIDATES} ways to split {} axes into a {n}-cube; \
                     use reshape",
                lengths.len()
            )
        })?;
        best.ok_or_else(|| "no way to split the mesh".to_string())
    }
}

/// Calls `visit` for every `bits` with bits[k] ≤ caps[k] and Σ ≤ left;
/// `None` when more than `limit` candidates would be visited.
fn enumerate(
    caps: &[u32],
    left: u32,
    k: usize,
    bits: &mut Vec<u32>,
    visit: &mut dyn FnMut(&[u32]),
    seen: &mut u64,
    limit: u64,
) -> Option<()> {
    if k == caps.len() {
        *seen += 1;
        if *seen > limit {
            return None;
        }
        visit(bits);
        return Some(());
    }
    for b in 0..=caps[k].min(left) {
        bits[k] = b;
        enumerate(caps, left - b, k + 1, bits, visit, seen, limit)?;
    }
    bits[k] = 0;
    Some(())
}

/// Segment of element `x` of an axis of `length` cut into `parts` segments.
#[inline]
fn segment(x: u64, length: u64, parts: u64, partition: Partition) -> u64 {
    match partition {
        Partition::Cyclic => x % parts,
        Partition::Consecutive => {
            let (q, r) = (length / parts, length % parts);
            if x < r * (q + 1) {
                x / (q + 1)
            } else {
                r + (x - r * (q + 1)) / q
            }
        }
    }
}

/// Most mesh edges of one axis line between the same two segments (one
/// cube link, since the segments' Gray codes differ in one bit).
fn most_edges_per_link(length: u64, parts: u64, partition: Partition) -> u64 {
    match partition {
        // Consecutive runs meet once: one edge per neighbouring pair.
        Partition::Consecutive => 1,
        Partition::Cyclic => {
            // Edge x -> x+1 joins segments x mod p and (x+1) mod p; with p = 2
            // both directions are the same link.
            let edges = length - 1;
            if parts == 2 {
                edges
            } else {
                edges.div_ceil(parts)
            }
        }
    }
}

/// The split embedding for fixed segment counts.
#[derive(Debug, Clone)]
pub struct Split {
    /// Per axis: length, segment bits, bit offset in the cube label.
    axes: Vec<(u64, u32, u32)>,
    partition: Partition,
}

impl Split {
    /// Splits axis i of `lengths` into 2^bits[i] segments.
    pub fn new(lengths: &[u64], bits: &[u32], partition: Partition) -> Split {
        let mut offset = 0;
        let axes = lengths
            .iter()
            .zip(bits)
            .map(|(&l, &b)| {
                let axis = (l, b, offset);
                offset += b;
                axis
            })
            .collect();
        Split { axes, partition }
    }
}

impl Embedding for Split {
    fn method(&self) -> &'static str {
        "split"
    }
    fn map(&self, guest: u64) -> u64 {
        let mut rest = guest;
        let mut node = 0;
        for &(length, bits, offset) in &self.axes {
            let x = rest % length;
            rest /= length;
            node |= btog(segment(x, length, 1 << bits, self.partition)) << offset;
        }
        node
    }
    /// One-to-one only when every segment is one element (then it is `gray`).
    fn inverse(&self, host: u64) -> Option<u64> {
        if self.axes.iter().any(|&(l, b, _)| l != 1 << b) {
            return None;
        }
        let mut guest = 0;
        for &(length, bits, offset) in self.axes.iter().rev() {
            let x = gtob((host >> offset) & ((1 << bits) - 1));
            guest = guest * length + x;
        }
        (host >> self.axes.iter().map(|a| a.1).sum::<u32>() == 0).then_some(guest)
    }
}
