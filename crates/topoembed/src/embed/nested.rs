//! A grid cut level by level along a hierarchy (a `tleaf`): the grid's box
//! is cut into as many boxes as the top level has groups, each of those
//! into as many as the next level has, and so on down to the leaves —
//! Scotch's dual recursive bipartitioning with every cut a straight plane,
//! the guest's axes split where its cuts are cheapest. The top level's
//! links are the dearest, so its cut is chosen first and over the whole
//! box: at each level the factorization of the level's arity over the
//! axes whose planes cut the fewest edges (Σ (f_a − 1) × the box's cross
//! section across axis a; f_a on an axis that wraps and no level has cut
//! yet, a ring cut in f_a places). Leaf v of the tleaf numbering (top level
//! first, `Tleaf::coords`) gets the boxes' indices at every level.
//!
//! The 128x128 5-point stencil onto tleaf:4x8x8:100,10,1 so comes to
//! 2x2 boxes of 64x64, then 4x2 of 16x32, then 2x4 of 8x8: 256 × 111 +
//! 1 024 × 11 + 2 560 × 1 = 42 240 hop-bytes, where the search reached
//! 42 446 and Scotch 44 023.
//!
//! Over 132 pairs (5- and 9-point stencils of 64x64 to 200x50 and 7-point
//! ones of 16^3 to 20x20x30, shuffled, onto six tleafs of 2 to 6 levels;
//! 2026-12-05) the start beat the search on 54 (by up to 1.6 %: sides that
//! the levels' arities divide), and lost by up to 11.7 % where they do not
//! (a 90x90 stencil onto tleaf:16x16:10,1: 9 246 against the search's
//! 8 294, its staircases cutting more than the search's curves). So where
//! every box comes out alike ([`in_equal_boxes`]) the mapper refines it
//! instead of searching (`mapper::defaults`' `cut_by_levels`), and
//! elsewhere weighs it after the search.

/// Each level's cut (parts per axis, their product the level's arity),
/// top level first, for a grid of `sides` (axis a wrapping where
/// `wraps[a]`) onto a tleaf of `sizes`; `None` where some level's arity
/// cannot be factored within the boxes' sides. An axis that wraps and is
/// still whole is a ring: cut into f parts it is cut in f places, not
/// f − 1 (torus:500x400 onto tleaf:4x8x8 at the top: four strips across
/// the 500 cut 1 600 edges, 2x2 boxes 1 800, where counting f − 1 chose
/// the boxes, 6.7 % above the search once refined).
pub fn level_cuts(sides: &[u64], wraps: &[bool], sizes: &[u64]) -> Option<Vec<Vec<u64>>> {
    let mut boxed: Vec<f64> = sides.iter().map(|&s| s as f64).collect();
    // Axes still whole (no level has cut them yet).
    let mut whole_axes = vec![true; sides.len()];
    let mut cuts = Vec::with_capacity(sizes.len());
    for &arity in sizes {
        // Factors up to the smallest box's side on each axis (a balanced
        // cut of a side into more parts than it has nodes is none).
        let whole: Vec<u64> = boxed.iter().map(|&b| b.floor().max(1.0) as u64).collect();
        let section = |a: usize| -> f64 {
            boxed
                .iter()
                .enumerate()
                .filter(|&(b, _)| b != a)
                .map(|(_, &x)| x)
                .product()
        };
        let mut best: Option<(f64, Vec<u64>)> = None;
        let mut cut = Vec::with_capacity(sides.len());
        let mut budget = usize::MAX;
        factorizations(&whole, arity, &mut cut, &mut budget, &mut |cut| {
            let cost: f64 = cut
                .iter()
                .enumerate()
                .map(|(a, &f)| {
                    let ring = f > 1 && whole_axes[a] && wraps.get(a).copied().unwrap_or(false);
                    (f - 1 + u64::from(ring)) as f64 * section(a)
                })
                .sum();
            if best.as_ref().map_or(true, |(b, _)| cost < *b) {
                best = Some((cost, cut.to_vec()));
            }
        });
        let (_, cut) = best?;
        for ((b, whole), &f) in boxed.iter_mut().zip(&mut whole_axes).zip(&cut) {
            *b /= f as f64;
            *whole &= f == 1;
        }
        cuts.push(cut);
    }
    Some(cuts)
}

/// Whether `cuts` divide every box's side exactly at every level: every
/// leaf the same box, every cut a plane.
pub fn in_equal_boxes(sides: &[u64], cuts: &[Vec<u64>]) -> bool {
    let mut boxed = sides.to_vec();
    cuts.iter().all(|cut| {
        boxed.iter_mut().zip(cut).all(|(side, &f)| {
            let even = *side % f == 0;
            *side /= f;
            even
        })
    })
}

/// The leaf of every guest node, node v's grid coordinates at
/// `coords[v * dims..(v + 1) * dims]`, the grid cut by `cuts` ([`level_cuts`])
/// onto a tleaf of `sizes`. At each level a box's nodes are dealt axis by
/// axis into its cut's parts of as many nodes each as whole nodes allow
/// (sorted by the axis, then by node: a plane where the counts divide, a
/// one-step staircase where they do not), so every leaf holds its share
/// of the nodes within one, whatever the sides.
pub fn leaves(coords: &[u64], dims: usize, cuts: &[Vec<u64>], sizes: &[u64]) -> Vec<u64> {
    let n = coords.len() / dims.max(1);
    let mut nodes: Vec<u32> = (0..n as u32).collect();
    let mut leaf = vec![0u64; n];
    deal(&mut nodes, (coords, dims), (cuts, sizes), 0, &mut leaf);
    leaf
}

/// Deals `nodes` (all under the leaf prefix `prefix`) into the parts of
/// the remaining levels' cuts, writing each node's leaf into `leaf`.
fn deal(
    nodes: &mut [u32],
    (coords, dims): (&[u64], usize),
    (cuts, sizes): (&[Vec<u64>], &[u64]),
    prefix: u64,
    leaf: &mut [u64],
) {
    let Some((cut, rest)) = cuts.split_first() else {
        for &v in nodes.iter() {
            leaf[v as usize] = prefix;
        }
        return;
    };
    // Part index within this level per node range, axis by axis: the
    // first axis's parts are slabs, each cut along the second, and so on.
    let mut ranges: Vec<(usize, usize, u64)> = vec![(0, nodes.len(), 0)];
    let mut stride = 1u64;
    for (a, &f) in cut.iter().enumerate() {
        let mut next = Vec::with_capacity(ranges.len() * f as usize);
        for &(lo, hi, index) in &ranges {
            let part = &mut nodes[lo..hi];
            part.sort_unstable_by_key(|&v| (coords[v as usize * dims + a], v));
            let len = (hi - lo) as u64;
            for k in 0..f {
                let (s, e) = ((k * len / f) as usize, ((k + 1) * len / f) as usize);
                next.push((lo + s, lo + e, index + k * stride));
            }
        }
        ranges = next;
        stride *= f;
    }
    for (lo, hi, index) in ranges {
        deal(
            &mut nodes[lo..hi],
            (coords, dims),
            (rest, &sizes[1..]),
            prefix * sizes[0] + index,
            leaf,
        );
    }
}

/// Calls `each` with every way of writing `rest` as a product of one factor
/// per remaining axis, each at most that axis's side.
pub(super) fn factorizations(
    sides: &[u64],
    rest: u64,
    cut: &mut Vec<u64>,
    budget: &mut usize,
    each: &mut dyn FnMut(&[u64]),
) {
    if *budget == 0 {
        return;
    }
    let a = cut.len();
    if a == sides.len() {
        if rest == 1 {
            *budget -= 1;
            each(cut);
        }
        return;
    }
    for b in 1..=sides[a].min(rest) {
        if rest % b == 0 {
            cut.push(b);
            factorizations(sides, rest / b, cut, budget, each);
            cut.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every node's coordinates on a grid of `sides`, first axis fastest.
    fn grid(sides: &[u64]) -> Vec<u64> {
        let n: u64 = sides.iter().product();
        (0..n)
            .flat_map(|mut v| {
                sides.iter().map(move |&k| {
                    let x = v % k;
                    v /= k;
                    x
                })
            })
            .collect::<Vec<u64>>()
    }

    /// The 128x128 grid onto tleaf:4x8x8: 2x2, then 4x2 (or 2x4), then
    /// the other way round; every leaf holds an 8x8 box of 64 nodes.
    #[test]
    fn a_square_grid_is_cut_into_square_boxes() {
        let cuts = level_cuts(&[128, 128], &[false; 2], &[4, 8, 8]).unwrap();
        assert!(in_equal_boxes(&[128, 128], &cuts));
        assert_eq!(cuts[0], vec![2, 2]);
        assert_eq!(cuts[1].iter().product::<u64>(), 8);
        assert_eq!(cuts[2].iter().product::<u64>(), 8);
        let coords = grid(&[128, 128]);
        let leaf = leaves(&coords, 2, &cuts, &[4, 8, 8]);
        let mut boxes = vec![(u64::MAX, 0, u64::MAX, 0, 0u32); 256];
        for (v, &l) in leaf.iter().enumerate() {
            let (x, y) = (coords[2 * v], coords[2 * v + 1]);
            let b = &mut boxes[l as usize];
            *b = (b.0.min(x), b.1.max(x), b.2.min(y), b.3.max(y), b.4 + 1);
        }
        // Each leaf an 8x8 box (64 nodes spanning 8 by 8), and the leaves
        // of one top-level group one 64x64 quarter.
        assert!(boxes
            .iter()
            .all(|b| b.1 - b.0 == 7 && b.3 - b.2 == 7 && b.4 == 64));
        for group in 0..4 {
            let quarter = &boxes[group * 64..(group + 1) * 64];
            let (x0, y0) = (
                quarter.iter().map(|b| b.0).min().unwrap(),
                quarter.iter().map(|b| b.2).min().unwrap(),
            );
            assert!(quarter.iter().all(|b| b.1 < x0 + 64 && b.3 < y0 + 64));
        }
    }

    /// Uneven sides: 100x30 onto tleaf:4x4 — every leaf holds 187 or 188
    /// of the 3 000 nodes.
    #[test]
    fn uneven_sides_are_split_evenly() {
        let (sides, sizes) = ([100u64, 30], [4u64, 4]);
        let cuts = level_cuts(&sides, &[false; 2], &sizes).unwrap();
        assert!(!in_equal_boxes(&sides, &cuts));
        let mut load = vec![0u32; 16];
        for l in leaves(&grid(&sides), 2, &cuts, &sizes) {
            load[l as usize] += 1;
        }
        assert!(load.iter().all(|&l| l == 187 || l == 188), "{load:?}");
    }

    /// A ring is cut in as many places as parts: torus:500x400 onto
    /// tleaf:4x8x8 is cut into four strips across its longer axis at the
    /// top (1 600 edges cut, where 2x2 boxes cut 1 800), mesh:500x400 into
    /// 2x2 boxes (900 against 1 200).
    #[test]
    fn a_ring_is_cut_in_as_many_places_as_parts() {
        let torus = level_cuts(&[500, 400], &[true; 2], &[4, 8, 8]).unwrap();
        assert_eq!(torus[0], vec![4, 1]);
        let mesh = level_cuts(&[500, 400], &[false; 2], &[4, 8, 8]).unwrap();
        assert_eq!(mesh[0], vec![2, 2]);
    }

    /// No factorization within the sides: a 3x3 grid onto 16 leaves.
    #[test]
    fn too_small_a_grid_has_no_cut() {
        assert!(level_cuts(&[3, 3], &[false; 2], &[16]).is_none());
        assert!(level_cuts(&[4, 4], &[false; 2], &[16]).is_some());
    }
}
