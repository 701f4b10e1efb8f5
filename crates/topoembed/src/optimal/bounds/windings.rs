//! The winding lemma: which dimensions of a distance vector must move along
//! one axis only, or nearly. The SAT formula of a vector ([`crate::optimal::proof::sat`])
//! then offers those edges only the nodes on (or near) that axis, not the
//! whole sphere of their distance — the same embeddings, a much smaller
//! search.
//!
//! *On a torus with an axis of side k, let the distances add up to less than
//! k − 1, and let exactly one pair of dimensions {p, q} have D_p + D_q ≥ k/2.
//! If D_p + D_q = k/2, then every edge of dimension p or q moves along that
//! axis only (by D_p, resp. D_q, and not at all along the others).*
//!
//! Proof, in the terms of the axis lemma ([`crate::optimal::bounds::cuts`]). Every distance
//! is below k/2 (a third one would otherwise pair with p or q), so an edge
//! of dimension i moves the axis coordinate by a unique step t, |t| ≤ D_i.
//! Round a 4-cycle (a face) of dimensions i and j the four steps add up to
//! w·k for an integer w, the face's *winding*, and |w|·k ≤ 2D_i + 2D_j.
//! 1. A face of any pair but {p, q} has 2D_i + 2D_j < k: winding 0.
//! 2. The six faces of a 3-cube of dimensions p, q and m, oriented as its
//!    boundary, have windings adding up to 0 (each edge is walked once each
//!    way). Its four faces with m wind 0, so its two {p, q} faces wind
//!    alike: across the cube every {p, q} face has the same winding w.
//! 3. If w = 0, every face winds 0, the coordinate lifts to the integers
//!    and the axis lemma gives Σ D_i ≥ k − 1, against the assumption. So
//!    |w| = 1 (|w|·k ≤ 2D_p + 2D_q = k).
//! 4. A {p, q} face's four steps then add up to ±k with sizes at most D_p,
//!    D_q, D_p, D_q, which add up to k: each step is a whole ±D_p or ±D_q
//!    along the axis, and as the edge is D_p (D_q) long in all, it moves
//!    along no other axis. Every edge of dimension p or q lies on such a
//!    face.
//!
//! **The lifted form** (`--bounds lift`): *let the distances add up to
//! less than the lift lemma's bound for the axis, k − 1 + the diameter of
//! the other sides ([`crate::optimal::bounds::cuts`]), let each be below k/2, and let
//! exactly one pair {p, q} have D_p + D_q ≥ k/2, with slack
//! s = 2(D_p + D_q) − k. Then every edge of dimension p or q moves at most
//! s over the other axes.* Steps 1 and 2 are as above (each step is unique
//! as each distance is below k/2). Step 3: if w = 0 the coordinate lifts
//! and the lift lemma gives Σ D_i at least its bound, against the
//! assumption; and |w| ≤ 1, as 2D_p + 2D_q < 2k. Step 4: a {p, q} face's
//! four steps add up to ±k, so the step t of one of its p edges has
//! |t| ≥ k − (D_q + D_p + D_q) = D_p − s; that edge is D_p long in all, of
//! which |t| along the axis, so at most s over the others (likewise for q).
//! With s = 0 it is the first form, under a weaker condition on Σ D_i.
//!
//! Two axes of the same side meet the conditions together, and then p and q
//! cannot move along both: a vector whose dimension is bound to two axes
//! has no embedding (no placement of a node then has a neighbour of that
//! dimension, and unit propagation refutes the formula); in the lifted
//! form, an edge bound to two axes with slacks s_a and s_b moves at least
//! D − s_a along one and D − s_b along the other, so none exists when
//! D > s_a + s_b. Composing an
//! embedding with a symmetry of the torus keeps its distances, so the
//! lemma holds for the composed one too: the formula's symmetry breaking
//! stays sound.

use crate::optimal::bounds::cuts::lift_bound;

/// Which form of the winding lemma a formula uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Winding {
    /// None: every dimension may move anywhere on its sphere.
    Off,
    /// As first published (`--bounds all`): Σ D_i < k − 1 and the pair adds
    /// up to exactly k/2; the pair moves along the axis only.
    Tight,
    /// With the lift lemma (`--bounds lift`): Σ D_i below its bound and the
    /// pair adds up to k/2 + s/2 for some slack s ≥ 0; the pair moves at
    /// most s off the axis (module docs).
    Lifted,
}

/// One binding of a dimension by the winding lemma: its edges move at most
/// `slack` off the line of `axis` (0: along it only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Binding {
    /// The axis.
    pub axis: usize,
    /// The most an edge moves over the other axes.
    pub slack: u32,
}

/// For each dimension of `dims` (a distance vector on a torus of `sides`),
/// the axes its edges must keep close to, by the winding lemma in `form`
/// (module docs); most dimensions have none.
pub fn winding_axes(sides: &[u32], dims: &[u32], form: Winding) -> Vec<Vec<Binding>> {
    let mut along = vec![Vec::new(); dims.len()];
    let total: u32 = dims.iter().sum();
    for (axis, &k) in sides.iter().enumerate() {
        let applies = match form {
            Winding::Off => false,
            Winding::Tight => total + 1 < k,
            // Every step unique (each distance below k/2), and the
            // coordinate cannot lift: Σ below the lift lemma's bound.
            Winding::Lifted => total < lift_bound(sides, axis) && dims.iter().all(|&x| 2 * x < k),
        };
        if !applies {
            continue;
        }
        let mut winding = Vec::new();
        for p in 0..dims.len() {
            for q in p + 1..dims.len() {
                if 2 * (dims[p] + dims[q]) >= k {
                    winding.push((p, q));
                }
            }
        }
        if let [(p, q)] = winding[..] {
            let slack = 2 * (dims[p] + dims[q]) - k;
            if slack == 0 || form == Winding::Lifted {
                along[p].push(Binding { axis, slack });
                along[q].push(Binding { axis, slack });
            }
        }
    }
    along
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on(axis: usize, slack: u32) -> Vec<Binding> {
        vec![Binding { axis, slack }]
    }

    fn none(along: &[Vec<Binding>]) -> bool {
        along.iter().all(Vec::is_empty)
    }

    #[test]
    fn the_lemma_binds_the_tight_pair_only() {
        // torus:64x8, Σ = 51 < 63, only 16 + 16 reaches 32: both bound to
        // the long axis; the short one (k = 8) has Σ above 7 + 32.
        let dims = [1, 1, 2, 2, 2, 3, 8, 16, 16];
        for form in [Winding::Tight, Winding::Lifted] {
            let along = winding_axes(&[64, 8], &dims, form);
            assert_eq!(along[7], on(0, 0));
            assert_eq!(along[8], on(0, 0));
            assert!(none(&along[..7]));
        }
        assert!(none(&winding_axes(&[64, 8], &dims, Winding::Off)));
        // Not tight (17 + 16 > 32): the lifted form only, slack 2; three
        // pairs reaching k/2 (16 + 16 thrice): nothing.
        let loose = [1, 1, 2, 2, 2, 3, 7, 16, 17];
        assert!(none(&winding_axes(&[64, 8], &loose, Winding::Tight)));
        let along = winding_axes(&[64, 8], &loose, Winding::Lifted);
        assert_eq!((along[7].clone(), along[8].clone()), (on(0, 2), on(0, 2)));
        for form in [Winding::Tight, Winding::Lifted] {
            let three = [1, 1, 2, 2, 2, 3, 16, 16, 16];
            assert!(none(&winding_axes(&[64, 8], &three, form)));
        }
        // Σ = k − 1 on torus:32x16: beyond the first form, within the
        // lifted one (below 31 + 8).
        let dims = [1, 1, 2, 2, 2, 3, 4, 8, 8];
        assert!(none(&winding_axes(&[32, 16], &dims, Winding::Tight)));
        let along = winding_axes(&[32, 16], &dims, Winding::Lifted);
        assert_eq!(along[8], on(0, 0));
        // Σ at the lift lemma's bound: nothing.
        let dims = [1, 1, 2, 2, 2, 3, 4, 8, 16];
        assert_eq!(dims.iter().sum::<u32>(), 39);
        assert!(none(&winding_axes(&[32, 16], &dims, Winding::Lifted)));
        // A distance of k/2 or more makes steps ambiguous: nothing (d = 2).
        assert!(none(&winding_axes(&[8, 2], &[4, 1], Winding::Lifted)));
        // Two equal sides both bind the pair: no embedding.
        let dims: Vec<u32> = [1; 10].into_iter().chain([16, 16]).collect();
        for form in [Winding::Tight, Winding::Lifted] {
            let along = winding_axes(&[64, 64], &dims, form);
            assert_eq!(
                along[10],
                vec![Binding { axis: 0, slack: 0 }, Binding { axis: 1, slack: 0 }]
            );
        }
    }
}
