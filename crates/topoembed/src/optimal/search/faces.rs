//! One (k+1)-cube placement built once, not once per face: where dimension
//! k opens with the same distance as dimensions below it, the branch and
//! bound on one vector ([`crate::optimal::search::constant`]) keeps a copy
//! only while no face of the (k+1)-cube it makes has a smaller shape than
//! the k-cube A it was built from.
//!
//! Let R be the dimensions b ≤ k with D_b = D_k (a run, the distances being
//! ascending). The (k+1)-cube P = A ∪ copy has, for every b in R and v in
//! {0, 1}, the face of its nodes with bit b = v: a k-cube of the same
//! distances D_0..D_{k−1} once bit k takes bit b's place (D_b = D_k). A is
//! the face (k, 0), the copy the face (k, 1). The multiset of these faces'
//! [`Shapes`] is a property of P's shape: the cube's automorphisms that keep
//! the vector permute R's dimensions and flip bits, so they permute the
//! faces, and the torus's isometries keep every shape.
//!
//! *The rule*: P is kept only if no face's shape is below A's. It keeps
//! every answer. Take any embedding E and, level by level from the top,
//! relabel it by x ↦ τ(x) ⊕ v·e_b (τ swapping bits b and j) so that the
//! (j+1)-cube's least face comes to bit j = 0: a relabelling at level j is
//! an automorphism of the (j+1)-cube that keeps the vector, so it changes
//! neither the shape of any larger sub-cube E holds nor its faces' shapes —
//! the levels above keep the rule. The E so found meets the rule at every
//! level, and the search's other choices (the least point of an orbit under
//! the torus's symmetries fixing A, a shape that failed standing for its
//! class) move E by symmetries that keep every shape as well. The same
//! holds of any sub-cube of the first k dimensions, so the core a
//! refutation names ([`crate::optimal::search::constant::SearchAnswer`])
//! embeds nowhere still.
//!
//! Each face is compared as soon as its copy nodes are all placed, so a
//! copy is cut halfway where a face of the smaller half already beats A.
//! torus:32x32's core (1, 2, 2, 4, 4, 5, 5) built each 5-cube of (1, 2, 2,
//! 4, 4) 4.4 times on average (170 699 placements, 38 686 shapes).

use crate::optimal::host::SearchHost;
use crate::optimal::search::shapes::Shapes;

/// The longest run of equal distances the rule is used on. A face costs a
/// walk over its transforms, and where the run is long and the placements
/// symmetric most faces tie with A, the walk going through each of the
/// run's permutations: torus:16x16x2's sub-cube (2, 3, 3, 3, 3) compared
/// 18 422 faces at level 4 (74 ms, most of its search) and cut 5.
/// torus:32x32's hard cores have runs of 2 and 3.
pub(in crate::optimal) const MAX_RUN: usize = 3;

/// The faces of the (k+1)-cube being placed at level k, and A's shape.
pub(in crate::optimal) struct Faces {
    k: usize,
    /// A's shape: the least a face may be.
    least: Box<[u16]>,
    /// The dimensions b < k with D_b = D_k.
    equal: Vec<usize>,
    /// Copy nodes placed with bit b = v, at `placed[2 · i + v]` for
    /// b = `equal[i]`, and in all.
    placed: Vec<usize>,
    total: usize,
    /// Scratch: a face's placement, label by label.
    face: Vec<u16>,
}

impl Faces {
    /// The faces of level k of the ascending `dims`, the nodes below 2^k
    /// being of shape `least`; None where no dimension below k has
    /// distance D_k (A is then the one face of its kind) or the run of
    /// D_k is longer than [`MAX_RUN`].
    pub(in crate::optimal) fn new(dims: &[u32], k: usize, least: &[u16]) -> Option<Faces> {
        let equal: Vec<usize> = (0..k).filter(|&b| dims[b] == dims[k]).collect();
        (1..=MAX_RUN - 1).contains(&equal.len()).then(|| Faces {
            k,
            least: least.into(),
            placed: vec![0; 2 * equal.len()],
            total: 0,
            equal,
            face: vec![0; 1 << k],
        })
    }

    /// Copy node x (cube node 2^k + x) is placed, `place` holding every
    /// node placed: false when a face it completes has a shape below A's
    /// (the copy goes no further). [`Faces::unplace`] x on the way back
    /// either way.
    pub(in crate::optimal) fn place(
        &mut self,
        shapes: &mut Shapes,
        h: &SearchHost,
        place: &[u16],
        x: usize,
    ) -> bool {
        let full = 1usize << (self.k - 1);
        self.total += 1;
        let mut keeps = true;
        for i in 0..self.equal.len() {
            let (b, v) = (self.equal[i], x >> self.equal[i] & 1);
            self.placed[2 * i + v] += 1;
            if keeps && self.placed[2 * i + v] == full {
                keeps = self.at_least_a(shapes, h, place, b, v);
            }
        }
        // The copy itself, the face (k, 1), once whole.
        if keeps && self.total == 2 * full {
            keeps = self.at_least_a(shapes, h, place, self.k, 1);
        }
        keeps
    }

    /// Undoes [`Faces::place`] of copy node x.
    pub(in crate::optimal) fn unplace(&mut self, x: usize) {
        self.total -= 1;
        for (i, &b) in self.equal.iter().enumerate() {
            self.placed[2 * i + (x >> b & 1)] -= 1;
        }
    }

    /// Whether the face of bit b = v, bit k taking bit b's place, has a
    /// shape no smaller than A's.
    fn at_least_a(
        &mut self,
        shapes: &mut Shapes,
        h: &SearchHost,
        place: &[u16],
        b: usize,
        v: usize,
    ) -> bool {
        let k = self.k;
        for (y, slot) in self.face.iter_mut().enumerate() {
            let x = (y & !(1 << b)) | v << b | (y >> b & 1) << k;
            *slot = place[x];
        }
        !shapes.below(h, k, &self.face, &self.least)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapper::rng::Rng;

    /// A copy is cut exactly where some face — the nodes with bit b = v,
    /// b any dimension of D_k's distance, listed in label order — has a
    /// shape below the half it was built from, whatever order the copy's
    /// nodes come in; and its counts return to nothing after.
    #[test]
    fn a_copy_is_cut_exactly_where_a_face_is_below_its_half() {
        let h = SearchHost::new(&[8, 8]);
        let mut rng = Rng::new(11, 2);
        let (mut cut, mut kept) = (0, 0);
        for dims in [&[2u32, 2, 2][..], &[1, 3, 3, 3], &[1, 1, 2, 2], &[2, 2]] {
            let k = dims.len() - 1;
            let mut shapes = Shapes::new(&[dims, &[9][..]].concat());
            for _ in 0..40 {
                let place: Vec<u16> = (0..2 << k).map(|_| rng.below(64) as u16).collect();
                let least = shapes.shape(&h, k, &place[..1 << k]);
                let mut faces = Faces::new(dims, k, &least).expect("D_k repeats");
                let below = (0..=k).filter(|&b| dims[b] == dims[k]).any(|b| {
                    (0..2).any(|v| {
                        let face: Vec<u16> = (0..2 << k)
                            .filter(|&x| x >> b & 1 == v)
                            .map(|x| place[x])
                            .collect();
                        shapes.shape(&h, k, &face) < least
                    })
                });
                let order = rng.permutation(1 << k);
                let mut keeps = true;
                for &x in &order {
                    keeps &= faces.place(&mut shapes, &h, &place, x as usize);
                }
                assert_eq!(keeps, !below, "{dims:?} {place:?}");
                for &x in &order {
                    faces.unplace(x as usize);
                }
                assert!(faces.total == 0 && faces.placed.iter().all(|&c| c == 0));
                (cut, kept) = (cut + usize::from(below), kept + usize::from(!below));
            }
        }
        assert!(cut > 0 && kept > 0, "{cut} cut, {kept} kept");
        // No face of its kind but A: nothing to compare; a run of four
        // equal distances: not compared either.
        assert!(Faces::new(&[1, 2, 3], 2, &[]).is_none());
        assert!(Faces::new(&[2, 2, 2, 2], 3, &[]).is_none());
        assert!(Faces::new(&[1, 2, 2, 2], 3, &[]).is_some());
    }
}
