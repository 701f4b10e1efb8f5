//! The winding lemma: which dimensions of a distance vector must move along
//! one axis only. The SAT formula of a vector ([`super::sat`]) then offers
//! those edges only the two nodes on that axis, not the whole sphere of
//! their distance — the same embeddings, a much smaller search.
//!
//! *On a torus with an axis of side k, let the distances add up to less than
//! k − 1, and let exactly one pair of dimensions {p, q} have D_p + D_q ≥ k/2.
//! If D_p + D_q = k/2, then every edge of dimension p or q moves along that
//! axis only (by D_p, resp. D_q, and not at all along the others).*
//!
//! Proof, in the terms of the axis lemma ([`super::cuts`]). Every distance
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
//! Two axes of the same side meet the conditions together, and then p and q
//! cannot move along both: a vector whose dimension is bound to two axes
//! has no embedding (its formula holds an empty clause). Composing an
//! embedding with a symmetry of the torus keeps its distances, so the
//! lemma holds for the composed one too: the formula's symmetry breaking
//! stays sound.

/// For each dimension of `dims` (a distance vector on a torus of `sides`),
/// the axes its edges must move along only, by the winding lemma (module
/// docs); most dimensions have none.
pub fn winding_axes(sides: &[u32], dims: &[u32]) -> Vec<Vec<usize>> {
    let mut along = vec![Vec::new(); dims.len()];
    let total: u32 = dims.iter().sum();
    for (axis, &k) in sides.iter().enumerate() {
        if total + 1 >= k {
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
            if 2 * (dims[p] + dims[q]) == k {
                along[p].push(axis);
                along[q].push(axis);
            }
        }
    }
    along
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lemma_binds_the_tight_pair_only() {
        // torus:64x8, Σ = 51 < 63, only 16 + 16 reaches 32: both bound to
        // the long axis; the short one (k = 8) has Σ above 7.
        let dims = [1, 1, 2, 2, 2, 3, 8, 16, 16];
        let along = winding_axes(&[64, 8], &dims);
        assert_eq!(along[7], vec![0]);
        assert_eq!(along[8], vec![0]);
        assert!(along[..7].iter().all(Vec::is_empty));
        // Not tight (17 + 16 > 32), or three pairs reaching k/2 (16 + 16
        // thrice): nothing.
        assert!(winding_axes(&[64, 8], &[1, 1, 2, 2, 2, 3, 7, 16, 17])
            .iter()
            .all(Vec::is_empty));
        assert!(winding_axes(&[64, 8], &[1, 1, 2, 2, 2, 3, 16, 16, 16])
            .iter()
            .all(Vec::is_empty));
        // Σ at k − 1 or more: nothing.
        assert!(winding_axes(&[32], &[4, 4, 4, 4, 7, 8, 8])
            .iter()
            .all(Vec::is_empty));
        // Two equal sides both bind the pair: no embedding.
        let along = winding_axes(
            &[64, 64],
            &[1; 10].into_iter().chain([16, 16]).collect::<Vec<_>>(),
        );
        assert_eq!(along[10], vec![0, 1]);
    }
}
