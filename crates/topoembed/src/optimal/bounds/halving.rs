//! The halving lemma: a tight winding pair halves the formula (or
//! quarters it).
//!
//! *Let the winding lemma ([`crate::optimal::bounds::windings`]) bind the pair {p, q} to the
//! axis a of side k with slack 0 (D_p + D_q = k/2, every p and q edge moves
//! along that axis only). Then an embedding f with these distances exists
//! if and only if the sub-cube of the nodes with bit q = 0 has a map h with
//! the same distances in every dimension but q, p moving along the axis
//! only, whose images are distinct modulo k/2 along the axis.*
//!
//! Proof. Only if: round a {p, q} face n00, n10 = n00 ⊕ e_p, n11, n01 the
//! axis steps add up to ±k (the face winds ±1, step 3 of the winding
//! lemma), and their sizes are at most D_p, D_q, D_p, D_q, adding up to k:
//! so, walked round the face, each is σ times its edge's length for one
//! σ = ±1, that is n10 = n00 + σD_p, n11 = n00 + σk/2 and
//! n01 = n00 − σD_q = n10 + k/2 along the axis. So f(c ⊕ e_q) =
//! f(c ⊕ e_p) + (k/2)·e_a for every c with bit q = 0. If two nodes c ≠ c'
//! of the half had images equal modulo k/2, either f(c) = f(c') or
//! f(c) = f(c') + (k/2)·e_a = f(c' ⊕ e_p ⊕ e_q): both contradict f being a
//! bijection. If: given h, set f(c) = h(c) and f(c ⊕ e_q) =
//! h(c ⊕ e_p) + (k/2)·e_a on the half. The half's edges keep their
//! lengths in both copies; a q edge moves h(c ⊕ e_p) − h(c) ± k/2 = ±D_p +
//! k/2 along the axis only, which is k/2 − D_p = D_q round it; and the two
//! copies are disjoint and each injective, as h is injective modulo k/2.
//! So the halved formula ([`crate::optimal::proof::sat`]) has a model exactly when the
//! whole one does, on half the cube nodes, with host nodes taken once per
//! class modulo k/2 along the axis.
//!
//! **Quartered**: if moreover D_p = D_q = k/4, the half's p edges move by
//! ±k/4 along the axis, so a node and its p neighbour differ by k/4 modulo
//! k/2, and the quarter with bits p = q = 0 has images distinct modulo k/4
//! (two equal modulo k/4 would be equal modulo k/2, or one would equal the
//! other's p neighbour modulo k/2). Conversely such a map of the quarter,
//! completed by f(c ⊕ e_p) = f(c) + (k/4)·e_a, is a half as above. So the
//! formula shrinks to a quarter of the cube, with host nodes taken once per
//! class modulo k/4, and no clauses for p and q at all.
//!
//! Composing f with a symmetry of the torus fixing node 0 keeps its
//! distances, so the winding lemma binds the same pair to the same axis
//! for it too: the formula's choice of f(1) up to those symmetries stays
//! sound.

use crate::optimal::bounds::windings::{winding_axes, Winding};
use crate::optimal::host::SearchHost;

/// How a formula is halved: the nodes with bit `drop` = 0 only, images
/// distinct modulo half the axis's side; quartered, bit `keep` = 0 as
/// well, images distinct modulo a quarter of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fold {
    /// The axis the pair winds round.
    pub axis: usize,
    /// The dimension kept when halved (moves along the axis only).
    pub keep: usize,
    /// The dimension dropped: its half is the translate of the kept one.
    pub drop: usize,
    /// k/2 for the axis's side k.
    pub half: u32,
    /// D_keep = D_drop = k/4: the kept dimension folds away too.
    pub quarter: bool,
}

impl Fold {
    /// The modulus along the axis the kept part's images are distinct in.
    pub fn modulus(&self) -> u32 {
        if self.quarter {
            self.half / 2
        } else {
            self.half
        }
    }

    /// Whether cube node c is in the part the formula keeps.
    pub fn kept(&self, c: usize) -> bool {
        c >> self.drop & 1 == 0 && (!self.quarter || c >> self.keep & 1 == 0)
    }

    /// Whether dimension i is one the fold accounts for (no edge clauses).
    pub fn folds(&self, i: usize) -> bool {
        i == self.drop || (self.quarter && i == self.keep)
    }

    /// Completes a placement of the kept part to the whole cube, as the
    /// lemma's "if" does: f(c ⊕ e_p) = f(c) + (k/4)·e_a when quartered,
    /// then f(c ⊕ e_q) = f(c ⊕ e_p) + (k/2)·e_a.
    pub fn unfold(&self, h: &SearchHost, place: &mut [u16]) {
        let stride = h.stride(self.axis);
        if self.quarter {
            let shift = (self.half / 2 * stride) as u16;
            for c in
                (0..place.len()).filter(|&c| c >> self.drop & 1 == 0 && c >> self.keep & 1 == 1)
            {
                place[c] = h.add(place[c ^ (1 << self.keep)], shift);
            }
        }
        let shift = (self.half * stride) as u16;
        for c in (0..place.len()).filter(|&c| c >> self.drop & 1 == 1) {
            place[c] = h.add(place[c ^ (1 << self.drop) ^ (1 << self.keep)], shift);
        }
    }
}

/// The fold of the halving lemma for `dims` on a torus of `sides` under
/// the winding lemma in `form`, if it applies: a pair bound with slack 0 to
/// one axis and to nothing else; quartered when both are k/4.
pub fn fold(sides: &[u32], dims: &[u32], form: Winding) -> Option<Fold> {
    let along = winding_axes(sides, dims, form);
    let mut bound = (0..dims.len()).filter(|&i| !along[i].is_empty());
    let (keep, drop) = (bound.next()?, bound.next()?);
    if bound.next().is_some() {
        return None;
    }
    match (&along[keep][..], &along[drop][..]) {
        ([a], [b]) if a == b && a.slack == 0 => {
            let k = sides[a.axis];
            Some(Fold {
                axis: a.axis,
                keep,
                drop,
                half: k / 2,
                quarter: k % 4 == 0 && 4 * dims[keep] == k && 4 * dims[drop] == k,
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tight_pair_on_one_axis_folds() {
        // torus:128x8, the pair 32 + 32 = 128/2 binds to the long axis.
        let dims = [1, 1, 2, 2, 2, 3, 8, 16, 32, 32];
        let f = fold(&[128, 8], &dims, Winding::Lifted).unwrap();
        assert_eq!(
            f,
            Fold {
                axis: 0,
                keep: 8,
                drop: 9,
                half: 64,
                quarter: true
            }
        );
        assert_eq!(f.modulus(), 32);
        assert!(f.kept(0b00_1111_1111) && !f.kept(1 << 8) && !f.kept(1 << 9));
        // 15 + 17 = 32 on torus:64x16: halved only.
        let dims = [1, 1, 2, 2, 2, 3, 4, 8, 15, 17];
        let f = fold(&[64, 16], &dims, Winding::Lifted).unwrap();
        assert_eq!((f.keep, f.drop, f.modulus(), f.quarter), (8, 9, 32, false));
        assert!(f.kept(1 << 8) && !f.kept(1 << 9) && f.folds(9) && !f.folds(8));
        // Slack 2 (8 + 9 on torus:32x16): bound, but not folded.
        let dims = [1, 1, 2, 2, 3, 3, 3, 8, 9];
        assert!(fold(&[32, 16], &dims, Winding::Lifted).is_none());
        // Bound to both axes of torus:16x16: no embedding, nothing to fold.
        let dims = [1, 1, 2, 2, 2, 3, 4, 4];
        assert!(fold(&[16, 16], &dims, Winding::Lifted).is_none());
        // Nothing bound.
        assert!(fold(&[16, 16], &[1, 1, 2, 2, 2, 3, 4, 5], Winding::Lifted).is_none());
        assert!(fold(&[128, 8], &[1, 1, 2, 2, 2, 3, 8, 16, 32, 32], Winding::Off).is_none());
    }
}
