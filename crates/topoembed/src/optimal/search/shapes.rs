//! Sub-cube embeddings up to symmetry, so that the branch and bound on one
//! distance vector ([`crate::optimal::search::constant::decide_by_search`]) does not search
//! twice for the extensions of two placements that are the same shape.
//!
//! Where dimension k opens, the nodes below 2^k hold an embedding A of the
//! k-cube of distances D_0..D_{k−1}; whether it extends to the whole cube
//! depends on A only up to
//! * the torus's isometries: a translation and an automorphism fixing node
//!   0 (a reflection per axis, permutations of equal sides), which keep
//!   every distance;
//! * the cube's automorphisms that keep the vector, acting on the labels
//!   below 2^k (and on the rest as the identity): x ↦ π(x) ⊕ c, for c any
//!   k-bit label (the cube is vertex-transitive) and π a permutation of
//!   dimensions of equal distance. Both keep every edge and its distance,
//!   so an extension of A becomes one of the transformed A.
//!
//! A's *shape* is the least, label by label, of its transforms with node 0
//! at node 0 (π chosen dimension by dimension, a choice dropped as soon as
//! its labels so far exceed the least): two placements of one shape are
//! one class, and once one of them is found
//! not to extend, the others are not searched. That holds because the
//! search from A is complete for A's extensions: where it picks one node
//! per orbit for f(2^k), it uses the torus's automorphisms that fix every
//! node of A (see `Search::settle`).

use std::cmp::Ordering;
use std::collections::HashSet;

use crate::optimal::host::SearchHost;

/// Levels past this are not kept (a shape holds 2^k labels).
pub const MAX_LEVEL: usize = 8;

/// Bytes of shapes kept at most; past them no more are added (the search
/// stays exact, only slower).
pub const MAX_BYTES: usize = 256 << 20;

/// The shapes of sub-cube placements found not to extend, level by level.
pub(in crate::optimal) struct Shapes {
    /// `failed[k]`: shapes of k-cube placements (node 0's entry left out).
    failed: Vec<HashSet<Box<[u16]>>>,
    /// D_0.. (ascending): π maps a dimension to one of equal distance.
    dims: Vec<u32>,
    bytes: usize,
    /// Scratch: the labels π(x), the shape being built, the least.
    labels: Vec<u16>,
    candidate: Vec<u16>,
    least: Vec<u16>,
}

impl Shapes {
    /// The shapes of the sub-cubes of the ascending vector `dims`, from
    /// level 2 to [`MAX_LEVEL`] and below the whole cube.
    pub(in crate::optimal) fn new(dims: &[u32]) -> Shapes {
        let top = MAX_LEVEL.min(dims.len().saturating_sub(1));
        Shapes {
            failed: vec![HashSet::new(); top + 1],
            dims: dims.to_vec(),
            bytes: 0,
            labels: Vec::new(),
            candidate: Vec::new(),
            least: Vec::new(),
        }
    }

    /// Bytes the shapes kept hold.
    pub(in crate::optimal) fn bytes(&self) -> usize {
        self.bytes
    }

    /// Whether level k keeps shapes.
    pub(in crate::optimal) fn kept(&self, k: usize) -> bool {
        (2..self.failed.len()).contains(&k)
    }

    /// The shape of the k-cube placement `place` (2^k host nodes, label
    /// by label).
    pub(in crate::optimal) fn shape(
        &mut self,
        h: &SearchHost,
        k: usize,
        place: &[u16],
    ) -> Box<[u16]> {
        let n = 1usize << k;
        self.candidate.resize(n, 0);
        self.least.clear();
        self.least.resize(n, u16::MAX);
        self.labels.clear();
        self.labels.resize(n, 0);
        for (c, g) in transforms(h, n) {
            let mut walk = Walk {
                at: Transform {
                    dims: &self.dims[..k],
                    h,
                    place,
                    g,
                    c,
                    labels: &mut self.labels,
                },
                candidate: &mut self.candidate,
                least: &mut self.least,
            };
            walk.choose(0, 0, true);
        }
        self.least[1..].into()
    }

    /// Whether the k-cube placement `place` has a shape below `bound` (a
    /// shape of the same level): whether some transform of it comes
    /// before `bound`, label by label. Stops at the first that does, and
    /// drops a transform at its first label past `bound`'s, so it costs
    /// far less than [`Shapes::shape`], which must find the least.
    pub(in crate::optimal) fn below(
        &mut self,
        h: &SearchHost,
        k: usize,
        place: &[u16],
        bound: &[u16],
    ) -> bool {
        let n = 1usize << k;
        self.labels.clear();
        self.labels.resize(n, 0);
        let labels = &mut self.labels;
        transforms(h, n).any(|(c, g)| {
            let mut walk = Before {
                at: Transform {
                    dims: &self.dims[..k],
                    h,
                    place,
                    g,
                    c,
                    labels,
                },
                bound,
            };
            walk.choose(0, 0)
        })
    }

    /// Whether a placement of this shape at level k was found not to extend.
    pub(in crate::optimal) fn failed(&self, k: usize, shape: &[u16]) -> bool {
        self.failed[k].contains(shape)
    }

    /// Records that a placement of `shape` at level k does not extend.
    pub(in crate::optimal) fn fail(&mut self, k: usize, shape: Box<[u16]>) {
        let size = 2 * shape.len() + 48;
        if self.bytes + size <= MAX_BYTES && self.failed[k].insert(shape) {
            self.bytes += size;
        }
    }
}

/// Every translation c of a k-cube of `n` labels (c to node 0) with every
/// symmetry g of the torus fixing node 0.
fn transforms(h: &SearchHost, n: usize) -> impl Iterator<Item = (usize, &[u16])> {
    (0..n).flat_map(move |c| h.symmetries().iter().map(move |g| (c, &g[..])))
}

/// One translation c (to node 0) and one torus symmetry g of a k-cube
/// placement, with π chosen dimension by dimension: once π(0..j) is
/// chosen, the labels below 2^j have their images.
struct Transform<'a> {
    dims: &'a [u32],
    h: &'a SearchHost,
    place: &'a [u16],
    g: &'a [u16],
    c: usize,
    /// `labels[x]` = π(x) for the labels placed so far.
    labels: &'a mut [u16],
}

impl Transform<'_> {
    /// The images π(j) may take, a bit each, the dimensions in `taken`
    /// being images already: those of D_j's distance.
    fn images(&self, j: usize, taken: u32) -> u32 {
        let dims = self.dims;
        (0..dims.len())
            .filter(|&i| taken >> i & 1 == 0 && dims[i] == dims[j])
            .fold(0, |mask, i| mask | 1 << i)
    }

    /// Label x (2^j ≤ x < 2^(j+1)) with π(j) = `image`: records π(x) and
    /// returns the node the transform puts there.
    fn label(&mut self, x: usize, low: usize, image: usize) -> u16 {
        let label = self.labels[x - low] | 1 << image;
        self.labels[x] = label;
        let moved = self
            .h
            .sub(self.place[label as usize ^ self.c], self.place[self.c]);
        self.g[moved as usize]
    }
}

/// The least transform of a placement ([`Shapes::shape`]): a choice whose
/// labels so far exceed the least shape is dropped there.
struct Walk<'a> {
    at: Transform<'a>,
    candidate: &'a mut [u16],
    least: &'a mut [u16],
}

impl Walk<'_> {
    /// Chooses π(j), the dimensions in `taken` being images already;
    /// `tight`: the labels below 2^j equal the least's (else they are
    /// below it, and the least is replaced once a choice completes).
    fn choose(&mut self, j: usize, taken: u32, mut tight: bool) {
        if j == self.at.dims.len() {
            if !tight {
                self.least.copy_from_slice(self.candidate);
            }
            return;
        }
        let low = 1usize << j;
        let mut images = self.at.images(j, taken);
        while images != 0 {
            let image = images.trailing_zeros() as usize;
            images &= images - 1;
            // The labels with bit j: those below 2^j with dimension j
            // added, compared with the least's while they are equal.
            let mut order = if tight {
                Ordering::Equal
            } else {
                Ordering::Less
            };
            for x in low..2 * low {
                self.candidate[x] = self.at.label(x, low, image);
                if order.is_eq() {
                    order = self.candidate[x].cmp(&self.least[x]);
                    if order.is_gt() {
                        break;
                    }
                }
            }
            if order.is_le() {
                self.choose(j + 1, taken | 1 << image, order.is_eq());
                // A choice below the least became the least: the labels
                // below 2^j now equal its.
                tight = true;
            }
        }
    }
}

/// Whether a transform comes before a bound ([`Shapes::below`]): a choice
/// is dropped at its first label past the bound.
struct Before<'a> {
    at: Transform<'a>,
    /// The shape to come before: entry x − 1 for label x.
    bound: &'a [u16],
}

impl Before<'_> {
    /// Whether a choice of π(j..) puts the transform before the bound, the
    /// labels below 2^j being equal to it.
    fn choose(&mut self, j: usize, taken: u32) -> bool {
        if j == self.at.dims.len() {
            return false;
        }
        let low = 1usize << j;
        let mut images = self.at.images(j, taken);
        while images != 0 {
            let image = images.trailing_zeros() as usize;
            images &= images - 1;
            let mut order = Ordering::Equal;
            for x in low..2 * low {
                order = self.at.label(x, low, image).cmp(&self.bound[x - 1]);
                if order.is_ne() {
                    break;
                }
            }
            match order {
                Ordering::Less => return true,
                Ordering::Equal if self.choose(j + 1, taken | 1 << image) => return true,
                _ => {}
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::optimal::host::equal_permutations;

    /// The least transform by brute force: every π, c and g.
    fn least_by_brute_force(h: &SearchHost, dims: &[u32], place: &[u16]) -> Vec<u16> {
        let k = dims.len();
        let n = 1usize << k;
        let mut least = vec![u16::MAX; n - 1];
        for p in equal_permutations(dims) {
            for c in 0..n {
                for g in h.symmetries() {
                    let seq: Vec<u16> = (1..n)
                        .map(|x| {
                            let label = (0..k)
                                .filter(|&j| x >> j & 1 == 1)
                                .fold(0usize, |y, j| y | 1 << p[j]);
                            g[h.sub(place[label ^ c], place[c]) as usize]
                        })
                        .collect();
                    least = least.min(seq);
                }
            }
        }
        least
    }

    /// The walk over π finds the least transform brute force finds, on
    /// random placements with many equal distances.
    #[test]
    fn the_walk_finds_the_least_transform() {
        let h = SearchHost::new(&[8, 8]);
        let mut rng = crate::mapper::rng::Rng::new(7, 1);
        for dims in [
            &[2u32, 2, 2][..],
            &[1, 3, 3, 3],
            &[2, 2, 4, 4],
            &[1, 1, 1, 1, 2],
        ] {
            let mut shapes = Shapes::new(&[dims, &[9][..]].concat());
            for _ in 0..20 {
                let place: Vec<u16> = (0..1 << dims.len()).map(|_| rng.below(64) as u16).collect();
                let walked = shapes.shape(&h, dims.len(), &place);
                assert_eq!(
                    walked[..],
                    least_by_brute_force(&h, dims, &place)[..],
                    "{dims:?}"
                );
            }
        }
    }

    /// `below` answers as comparing the least transform does: on random
    /// placements against the shapes of others, of themselves (never
    /// below) and of a placement one label apart.
    #[test]
    fn below_is_a_smaller_shape() {
        let h = SearchHost::new(&[8, 8]);
        let mut rng = crate::mapper::rng::Rng::new(3, 9);
        let (mut yes, mut no) = (0, 0);
        for dims in [&[2u32, 2, 2][..], &[1, 3, 3, 3], &[1, 1, 2, 2], &[2, 4]] {
            let k = dims.len();
            let mut shapes = Shapes::new(&[dims, &[9][..]].concat());
            for _ in 0..40 {
                let place: Vec<u16> = (0..1 << k).map(|_| rng.below(64) as u16).collect();
                let mut other = place.clone();
                other[rng.below(1 << k)] = rng.below(64) as u16;
                let least = shapes.shape(&h, k, &place);
                for bound in [shapes.shape(&h, k, &other), least.clone()] {
                    let below = shapes.below(&h, k, &place, &bound);
                    assert_eq!(below, least < bound, "{dims:?} {place:?}");
                    (yes, no) = (yes + usize::from(below), no + usize::from(!below));
                }
            }
        }
        assert!(yes > 10 && no > 10, "{yes} below, {no} not");
    }

    #[test]
    fn equal_distances_permute() {
        assert_eq!(equal_permutations(&[1, 2, 3]).len(), 1);
        assert_eq!(equal_permutations(&[1, 2, 2, 3, 3, 3]).len(), 12);
        assert_eq!(equal_permutations(&[]).len(), 1);
    }

    /// Placements related by a symmetry of the torus and one of the cube
    /// have one shape; placements that are not have two.
    #[test]
    fn one_shape_per_class() {
        let h = SearchHost::new(&[8, 8]);
        let at = |x: u32, y: u32| ((x % 8) + 8 * (y % 8)) as u16;
        // The 2-cube of distances (2, 2): a "diamond" around (1, 0).
        let diamond = [at(0, 0), at(1, 1), at(1, 7), at(2, 0)];
        let mut shapes = Shapes::new(&[2, 2, 5]);
        let s = shapes.shape(&h, 2, &diamond);
        // Translated, reflected, relabelled by x ⊕ 3 and by swapping the
        // two dimensions: the same shape.
        let moved: Vec<u16> = diamond.iter().map(|&v| h.add(v, at(3, 5))).collect();
        assert_eq!(shapes.shape(&h, 2, &moved), s);
        let xored: Vec<u16> = (0..4).map(|x| diamond[x ^ 3]).collect();
        assert_eq!(shapes.shape(&h, 2, &xored), s);
        let swapped = [diamond[0], diamond[2], diamond[1], diamond[3]];
        assert_eq!(shapes.shape(&h, 2, &swapped), s);
        // A straight (2, 2) square is another class.
        let straight = [at(0, 0), at(2, 0), at(0, 2), at(2, 2)];
        assert_ne!(shapes.shape(&h, 2, &straight), s);
        // The shape puts node 0 at node 0 and keeps every distance.
        assert!(s.iter().all(|&v| v != 0) && h.d(0, s[2]) == 2);
        // Failures are kept per level.
        assert!(shapes.kept(2) && !shapes.kept(3) && !shapes.kept(1));
        shapes.fail(2, s.clone());
        let other = shapes.shape(&h, 2, &straight);
        assert!(shapes.failed(2, &s) && !shapes.failed(2, &other));
    }
}
