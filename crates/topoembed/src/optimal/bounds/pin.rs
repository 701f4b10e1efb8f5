//! The slack window: a winding pair with slack pins the half of the cube
//! without its longer member to a window along its axis, node 0 at the
//! window's edge.
//!
//! *Let the lifted winding lemma ([`crate::optimal::bounds::windings`]) bind exactly the
//! pair {p, q} (D_p ≤ D_q) to the axis a of side k, with slack s > 0 (with
//! s = 0 the halving lemma folds the formula instead), let K be the half
//! of the cube with bit q = 0, and let
//! W = Σ_{i ≠ q} D_i − max(0, diam T' − s), T' the torus of the other
//! sides. Then if an embedding exists, one exists with node 0 on node 0 in
//! which every node of K sits at most W steps from node 0 in the axis's
//! positive direction (its coordinate on the axis in [0, W]), and cube
//! node 1 on one node per orbit of the symmetries fixing node 0 that keep
//! the axis's direction.*
//!
//! Proof. Every distance is below k/2 and no pair inside K reaches k/2
//! (the pair is the only one, and K lost q), so the axis lemma's argument
//! ([`crate::optimal::bounds::cuts`], steps 1–3) lifts the axis coordinate on K to an
//! integer F, each edge's step t with |t| ≤ D_i and the edge moving
//! D_i − |t| over the other axes. Let m be a node of K where F is least.
//! Every host node is the image of some c, and clearing c's bit q gives a
//! node of K whose image is within s of it over the other axes (a q edge
//! moves at most s there): so some node x of K has its image at least
//! diam T' − s from m's over the other axes. The lift lemma's path
//! argument ([`crate::optimal::bounds::cuts`]) inside K then gives
//! max F − min F ≤ Σ_{i ≠ q} D_i − max(0, diam T' − s) = W. Translate the
//! cube by m (K is a sub-cube through 0, so the translate keeps K and every
//! edge's dimension) and the torus so that m's image is node 0: every node
//! of K has F in [0, W], and its axis coordinate is F modulo k. The
//! symmetries of the torus that fix node 0 and keep the axis's direction
//! (the other axes' reflections, permutations of equal other sides) keep
//! F, the bindings and the distances: cube node 1 takes one node per orbit
//! of those.
//!
//! On torus:64x16, (1, 1, 2, 2, 2, 3, 4, 8, 16, 17) binds 16 + 17 with
//! slack 2, and W = 39 − (8 − 2) = 33: half the cube in 34 of the 64
//! columns. Its formula, not finished in 240 s before, is refuted in 7 s
//! (in 63 s with the quarter of bits p = q = 0 pinned instead, W = 19).

use crate::optimal::bounds::windings::{winding_axes, Winding};
use crate::optimal::host::SearchHost;

/// The slack window of a distance vector (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pin {
    /// The axis the pair winds round.
    pub axis: usize,
    /// The pair's longer dimension q: K is the half with bit q = 0.
    pub drop: usize,
    /// W: the nodes of K sit in [0, W] along the axis.
    pub width: u32,
}

impl Pin {
    /// Whether cube node c is in K (bit q clear).
    pub fn pins(&self, c: usize) -> bool {
        c >> self.drop & 1 == 0
    }

    /// Whether host node v is in the window: its axis coordinate in [0, W].
    pub fn admits(&self, h: &SearchHost, v: u16) -> bool {
        let x = (u32::from(v) / h.stride(self.axis)) % h.sides()[self.axis];
        x <= self.width
    }

    /// Whether the symmetry `g` (images of every node) keeps the axis's
    /// direction: it maps the unit step along the axis to itself.
    pub fn keeps(&self, h: &SearchHost, g: &[u16]) -> bool {
        let unit = h.stride(self.axis) as usize;
        usize::from(g[unit]) == unit
    }
}

/// The slack window of `dims` on a torus of `sides`, if the lemma applies
/// and says something (W below k − 1).
pub fn pin(sides: &[u32], dims: &[u32]) -> Option<Pin> {
    let along = winding_axes(sides, dims, Winding::Lifted);
    let mut bound = (0..dims.len()).filter(|&i| !along[i].is_empty());
    let (p, q) = (bound.next()?, bound.next()?);
    if bound.next().is_some() {
        return None;
    }
    let ([a], [b]) = (&along[p][..], &along[q][..]) else {
        return None;
    };
    if a != b || a.slack == 0 {
        return None;
    }
    let k = sides[a.axis];
    let diameter: u32 = (0..sides.len())
        .filter(|&b| b != a.axis)
        .map(|b| sides[b] / 2)
        .sum();
    let drop = if dims[q] >= dims[p] { q } else { p };
    let rest: u32 = (0..dims.len())
        .filter(|&i| i != drop)
        .map(|i| dims[i])
        .sum();
    let width = rest.checked_sub(diameter.saturating_sub(a.slack))?;
    (width + 1 < k).then_some(Pin {
        axis: a.axis,
        drop,
        width,
    })
}
