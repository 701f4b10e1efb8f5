//! `reshape`: Ho & Johnsson's Theorem 3. The mesh is reshaped into a
//! one-dimensional array, the shortest axis varying fastest and the longest
//! slowest, cut into segments of β = ⌈Π ℓ_i / 2^n⌉ elements (the optimal
//! load factor), and segment s goes to cube node G(s), the binary-reflected
//! Gray code of s. The paper states dilation ≤ ⌈log2(3/2 · 2^n / max ℓ_i)⌉,
//! from Yuen's bound on the Hamming distance of Gray codes of integers d
//! apart (Lemma 3). Its proof takes two elements w = Π_{j≥1} ℓ_j apart in
//! the reshaped order (w ≤ β 2^n / ℓ_0) to segments at most 2^n / ℓ_0 apart,
//! but floors can add one: their segments are up to ⌈w / β⌉ ≤ ⌈2^n / ℓ_0⌉
//! apart. So the bound that holds is ⌈log2(3/2 · ⌈2^n / max ℓ_i⌉)⌉, and the
//! printed one fails, e.g. for 4x6 in a 3-cube (β = 3, w = 4: elements 2
//! and 6 land in segments 0 and 2, G(0) = 000, G(2) = 011: dilation 2, where
//! the printed bound is 1). Both are here; the tests check the corrected one
//! on every 2-D mesh up to 64x64 and cube up to n = 10.

use super::super::{DilationBound, Embedding, Method, NotApplicable, Params};
use super::mesh_and_cube;
use crate::bits::{btog, gtob};
use crate::topology::Topology;

pub(in crate::embed) const METHOD: Method = Method {
    name: "reshape",
    guest: "mesh:L0xL1x.. (any lengths), line:N",
    host: "cube:n",
    preconditions: "many-to-one; any sizes (unused nodes when the mesh has fewer elements)",
    summary:
        "reshape to one axis, segments of the optimal load factor by BRGC (Ho & Johnsson Thm 3)",
    options: &[],
    build,
};

fn build(
    guest: &dyn Topology,
    host: &dyn Topology,
    _params: &Params,
) -> Result<Box<dyn Embedding>, NotApplicable> {
    let (lengths, n) = mesh_and_cube(guest.spec(), host.spec())?;
    Ok(Box::new(Reshape::new(&lengths, n)))
}

/// Theorem 3's embedding of a mesh with axis lengths `lengths` (axis 1
/// first, as in the spec) into an n-cube.
#[derive(Debug, Clone)]
pub struct Reshape {
    /// Per spec axis: its length, and its weight in the reshaped index.
    axes: Vec<(u64, u64)>,
    /// Spec axes from the heaviest weight (the longest axis) down.
    by_weight: Vec<usize>,
    /// Number of mesh elements.
    elements: u64,
    /// Elements per segment: the optimal load factor.
    beta: u64,
    /// Theorem 3's bound, corrected and as printed.
    bound: DilationBound,
}

impl Reshape {
    /// The embedding of mesh `lengths` into the n-cube.
    pub fn new(lengths: &[u64], n: u32) -> Reshape {
        // Longest axis slowest: sort by length, longest first (ties: the
        // earlier axis first), and give each the product of the ones after it.
        let mut order: Vec<usize> = (0..lengths.len()).collect();
        order.sort_by(|&a, &b| lengths[b].cmp(&lengths[a]).then(a.cmp(&b)));
        let mut weight = vec![0; lengths.len()];
        let mut product = 1;
        for &axis in order.iter().rev() {
            weight[axis] = product;
            product *= lengths[axis];
        }
        let longest = lengths.iter().copied().max().unwrap_or(1);
        Reshape {
            axes: lengths.iter().copied().zip(weight).collect(),
            by_weight: order,
            elements: product,
            beta: product.div_ceil(1 << n).max(1),
            bound: DilationBound {
                holds: reshape_dilation_bound(longest, n),
                printed: theorem3_dilation_bound(longest, n),
                source: "Ho & Johnsson Theorem 3",
            },
        }
    }

    /// The load factor β.
    pub fn beta(&self) -> u64 {
        self.beta
    }

    /// Theorem 3's bound for this mesh and cube, corrected and as printed.
    pub fn bound(&self) -> DilationBound {
        self.bound
    }
}

impl Embedding for Reshape {
    fn method(&self) -> &'static str {
        "reshape"
    }
    /// Guest node g has mesh coordinates (axis 1 fastest); its reshaped
    /// index y = Σ x_i · weight_i goes to G(⌊y / β⌋).
    fn map(&self, guest: u64) -> u64 {
        let mut rest = guest;
        let mut y = 0;
        for &(length, weight) in &self.axes {
            y += (rest % length) * weight;
            rest /= length;
        }
        btog(y / self.beta)
    }
    /// One-to-one only when β = 1: then host node h holds the element of
    /// reshaped index G^-1(h), if there is one.
    fn inverse(&self, host: u64) -> Option<u64> {
        if self.beta != 1 {
            return None;
        }
        let mut y = gtob(host);
        if y >= self.elements {
            return None;
        }
        // Peel the axes off from the heaviest weight down, then renumber
        // the coordinates in spec order (axis 1 fastest).
        let mut coords = vec![0; self.axes.len()];
        for &k in &self.by_weight {
            coords[k] = y / self.axes[k].1;
            y %= self.axes[k].1;
        }
        let mut guest = 0;
        for (k, &(length, _)) in self.axes.iter().enumerate().rev() {
            guest = guest * length + coords[k];
        }
        Some(guest)
    }
    fn dilation_bound(&self) -> Option<DilationBound> {
        Some(self.bound)
    }
}

/// Theorem 3's bound as printed, for a mesh with longest axis `longest` in
/// an n-cube: the least m ≥ 1 with 2^m ≥ 3/2 · 2^n / longest, i.e.
/// ⌈log2(3/2 · 2^n / longest)⌉ but at least 1 (the form goes to 0 and below
/// when longest ≥ 2^n; the corollary says dilation one then). It does not
/// always hold: see the module doc and [`reshape_dilation_bound`].
pub fn theorem3_dilation_bound(longest: u64, n: u32) -> u64 {
    // 2^m ≥ 3 · 2^n / (2 · longest)  <=>  2^(m+1) · longest ≥ 3 · 2^n.
    least_m(|m| (1u128 << (m + 1)) * u128::from(longest) >= 3u128 << n)
}

/// The bound `reshape` meets: ⌈log2(3/2 · ⌈2^n / longest⌉)⌉, at least 1
/// (Theorem 3 with the segment distance rounded up, module doc).
pub fn reshape_dilation_bound(longest: u64, n: u32) -> u64 {
    let apart = (1u128 << n).div_ceil(u128::from(longest.max(1)));
    // 2^m ≥ 3/2 · apart  <=>  2^(m+1) ≥ 3 · apart.
    least_m(|m| 1u128 << (m + 1) >= 3 * apart)
}

/// The least m ≥ 1 with `holds(m)` (m stays below 128 for n ≤ 40).
fn least_m(holds: impl Fn(u32) -> bool) -> u64 {
    let mut m = 1;
    while !holds(m) {
        m += 1;
    }
    u64::from(m)
}
