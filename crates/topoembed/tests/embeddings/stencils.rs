//! Box stencils of one volume — 9-point in 2-D, 27-point in 3-D (every
//! diagonal of every square and cube: the strong product of the grid's
//! paths and cycles) — with their vertices shuffled: the grid under them is
//! found as their Cartesian skeleton (`recognize::stencil_backbone`), never
//! a wrong one, and the mapper places them by it.

use super::structure::{hop_bytes, noted};
use proptest::prelude::*;
use topoembed::embed::mapped;
use topoembed::mapper::{recognize, rng::Rng, MapOptions, WGraph};
use topoembed::spec::Spec;
use topoembed::topology::{self, Graph};

/// The box stencil on a grid of `sides` (axis a wrapping where `wraps[a]`;
/// a wrapping side is at least 5): every pair of distinct nodes at most one
/// step apart on every axis, once each, with the number of axes it steps
/// along (1: a face; 2 and 3: diagonals). Node ids number the first axis
/// fastest.
fn box_stencil(sides: &[u64], wraps: &[bool]) -> (u64, Vec<(u64, u64, usize)>) {
    let n: u64 = sides.iter().product();
    let dims = sides.len();
    let coords = |v: u64| -> Vec<i64> {
        let mut stride = 1;
        sides
            .iter()
            .map(|&s| {
                let c = (v / stride % s) as i64;
                stride *= s;
                c
            })
            .collect()
    };
    let id = |c: &[i64]| -> Option<u64> {
        let mut stride = 1;
        let mut v = 0;
        for (a, (&x, &s)) in c.iter().zip(sides).enumerate() {
            let x = match (0..s as i64).contains(&x) {
                true => x,
                false if wraps[a] => x.rem_euclid(s as i64),
                false => return None,
            };
            v += x as u64 * stride;
            stride *= s;
        }
        Some(v)
    };
    let mut edges = Vec::new();
    for v in 0..n {
        let c = coords(v);
        for step in 0..3usize.pow(dims as u32) {
            // Offsets in {-1, 0, 1} per axis (step's base-3 digits less 1).
            let offset: Vec<i64> = (0..dims)
                .map(|a| (step / 3usize.pow(a as u32) % 3) as i64 - 1)
                .collect();
            if offset.iter().all(|&d| d == 0) {
                continue;
            }
            let to: Vec<i64> = c.iter().zip(&offset).map(|(x, d)| x + d).collect();
            if let Some(u) = id(&to) {
                if u > v {
                    edges.push((v, u, offset.iter().filter(|&&d| d != 0).count()));
                }
            }
        }
    }
    (n, edges)
}

/// The 7-point stencil of a 3-D mesh of `sides`: the box stencil's faces.
fn seven_point(sides: &[u64]) -> (u64, Vec<(u64, u64, usize)>) {
    let (n, edges) = box_stencil(sides, &vec![false; sides.len()]);
    (n, edges.into_iter().filter(|e| e.2 == 1).collect())
}

/// The stencil with its vertices renumbered by `perm`.
fn shuffled(n: u64, edges: &[(u64, u64, usize)], perm: &[u32]) -> Graph {
    let at = |v: u64| u64::from(perm[v as usize]);
    let edges: Vec<(u64, u64)> = edges.iter().map(|&(u, v, _)| (at(u), at(v))).collect();
    Graph::from_edges(Spec::Graph("stencil.txt".into()), n, &edges).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// A shuffled 27-point stencil is no grid, and the grid under it is
    /// found: its shape, and a numbering that puts every face one hop
    /// apart and every diagonal as many hops as axes it steps along.
    #[test]
    fn shuffled_27_point_stencils_are_found_by_their_skeleton(
        sides in proptest::collection::vec(3u64..7, 3),
        wrap in proptest::collection::vec(any::<bool>(), 3),
        seed in any::<u64>(),
    ) {
        let wraps: Vec<bool> = sides.iter().zip(&wrap).map(|(&s, &w)| w && s >= 5).collect();
        let (n, edges) = box_stencil(&sides, &wraps);
        let perm = Rng::new(seed, 0).permutation(n as usize);
        let g = WGraph::from_topology(&shuffled(n, &edges, &perm)).unwrap();
        prop_assert_eq!(recognize::grid(&g), None);
        prop_assert_eq!(recognize::backbone_grid(&g), None);
        let found = recognize::stencil_backbone(&g).expect("the grid under the stencil");
        let mut got: Vec<(u64, bool)> = found.sides.iter().copied().zip(found.wraps.iter().copied()).collect();
        got.sort_unstable();
        let mut expected: Vec<(u64, bool)> = sides.iter().copied().zip(wraps.iter().copied()).collect();
        expected.sort_unstable();
        prop_assert_eq!(got, expected);
        let shape = topology::build(&found.spec()).unwrap();
        for &(u, v, axes) in &edges {
            let (a, b) = (found.node[perm[u as usize] as usize], found.node[perm[v as usize] as usize]);
            prop_assert_eq!(shape.distance(a, b), axes as u64);
        }
    }
}

/// Graphs of a box stencil's degrees that are not one: a 27-point stencil
/// missing a face or a diagonal, and one with a side of 2 (whose two
/// layers are twins: no skeleton tells its axes apart). Where a grid is
/// still found, every face is one hop: never a wrong grid.
#[test]
fn broken_27_point_stencils_give_no_wrong_grid() {
    let (n, edges) = box_stencil(&[5, 4, 6], &[false; 3]);
    let identity: Vec<u32> = (0..n as u32).collect();
    let faces: Vec<usize> = (0..edges.len()).filter(|&k| edges[k].2 == 1).collect();
    let diagonals: Vec<usize> = (0..edges.len()).filter(|&k| edges[k].2 > 1).collect();
    let mut refused = 0;
    for missing in [
        faces[0],
        faces[faces.len() / 2],
        diagonals[0],
        diagonals[7],
        diagonals[diagonals.len() - 1],
    ] {
        let kept: Vec<(u64, u64, usize)> = edges
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != missing)
            .map(|(_, &e)| e)
            .collect();
        let g = WGraph::from_topology(&shuffled(n, &kept, &identity)).unwrap();
        match recognize::stencil_backbone(&g) {
            None => refused += 1,
            Some(found) => {
                let shape = topology::build(&found.spec()).unwrap();
                for &(u, v, axes) in &kept {
                    let hops = shape.distance(found.node[u as usize], found.node[v as usize]);
                    assert_eq!(hops, axes as u64, "edge {missing} missing");
                }
            }
        }
    }
    assert!(
        refused >= 2,
        "a missing face leaves no grid: {refused} refused"
    );
    let (n, edges) = box_stencil(&[5, 2, 6], &[false; 3]);
    let g = WGraph::from_topology(&shuffled(n, &edges, &identity)).unwrap();
    assert_eq!(recognize::stencil_backbone(&g), None, "a side of 2");
    // Neither a 7-point stencil (a grid, found as one) nor a random graph
    // of a 27-point stencil's size is looked at.
    let (n, edges) = box_stencil(&[4, 4, 4], &[false; 3]);
    let faces: Vec<(u64, u64, usize)> = edges.iter().copied().filter(|e| e.2 == 1).collect();
    let g = WGraph::from_topology(&shuffled(n, &faces, &identity)).unwrap();
    assert_eq!(recognize::stencil_backbone(&g), None, "a 7-point stencil");
    let mut rng = Rng::new(3, 0);
    let mut random: Vec<(u64, u64, usize)> = (0..edges.len())
        .map(|_| (rng.below(n as usize) as u64, rng.below(n as usize) as u64))
        .filter(|&(u, v)| u != v)
        .map(|(u, v)| (u.min(v), u.max(v), 0))
        .collect();
    random.sort_unstable();
    random.dedup();
    let g = WGraph::from_topology(&shuffled(n, &random, &identity)).unwrap();
    assert_eq!(recognize::stencil_backbone(&g), None, "a random graph");
}

/// A shuffled 16^3 27-point stencil onto torus:8x8x8: the mapper starts
/// from the grid under it, cut into 2x2x2 boxes (refined instead of a
/// search: every edge as many hops apart as on the grid, at most), and
/// ends at or below those boxes in grid order (computed here from the
/// stencil's own coordinates: 44 436 hop-bytes, where the search alone
/// stopped at 49 586). Onto ring:16 the search runs, and beats the slabs
/// of one plane each.
#[test]
fn a_27_point_stencil_maps_by_its_grid() {
    let (n, edges) = box_stencil(&[16, 16, 16], &[false; 3]);
    let perm = Rng::new(9, 0).permutation(n as usize);
    let g = shuffled(n, &edges, &perm);
    let host = topology::parse("torus:8x8x8").unwrap();
    let placed = mapped::map(&g, host.as_ref(), &MapOptions::default()).unwrap();
    let mut boxes = vec![0u64; n as usize];
    let mut slabs = vec![0u64; n as usize];
    for v in 0..n {
        let (x, y, z) = (v % 16, v / 16 % 16, v / 256);
        boxes[perm[v as usize] as usize] = x / 2 + 8 * (y / 2) + 64 * (z / 2);
        slabs[perm[v as usize] as usize] = z;
    }
    let boxed = hop_bytes(&g, host.as_ref(), &boxes);
    assert_eq!(boxed, 44_436);
    assert!(hop_bytes(&g, host.as_ref(), placed.hosts()) <= boxed);
    assert!(noted(&placed, "refined instead"), "{:?}", placed.notes());
    let ring = topology::parse("ring:16").unwrap();
    let placed = mapped::map(&g, ring.as_ref(), &MapOptions::default()).unwrap();
    assert!(hop_bytes(&g, ring.as_ref(), placed.hosts()) < hop_bytes(&g, ring.as_ref(), &slabs));
}

/// A grid longer than wide strung along a ring or a line is cut across its
/// long axis: the shuffled 16x16x32 7-point stencil (the box stencil's
/// faces) onto ring:16 in slabs two planes thick, every cut edge one hop
/// (15 × 256 = 3 840 hop-bytes; the cube-like boxes weighed before, 8x8x8
/// laid as a 4x2x2 grid along the ring, 4 608, and the search 4 254 —
/// Scotch 3 991), and onto line:64 in half-planes, 16 384 (the search
/// 17 920, Scotch 19 191). The 27-point stencil of that grid keeps its
/// search onto ring:16.
#[test]
fn an_elongated_grid_strung_along_a_ring_is_cut_across_its_long_axis() {
    let (n, faces) = seven_point(&[16, 16, 32]);
    let g = shuffled(n, &faces, &Rng::new(5, 0).permutation(n as usize));
    for (host, most) in [("ring:16", 3_840), ("line:64", 16_384)] {
        let host = topology::parse(host).unwrap();
        let placed = mapped::map(&g, host.as_ref(), &MapOptions::default()).unwrap();
        let cost = hop_bytes(&g, host.as_ref(), placed.hosts());
        assert!(cost <= most, "{}: {cost} above {most}", host.spec());
    }
    // The 27-point stencil's slabs cut every edge one hop too, but every
    // diagonal of their faces: onto ring:16 the search runs (30 481
    // hop-bytes; Scotch 30 127) and is kept below the slabs, 15 × 46² =
    // 31 740, where refining the slabs instead stopped at 31 726.
    let (n, edges) = box_stencil(&[16, 16, 32], &[false; 3]);
    let g = shuffled(n, &edges, &Rng::new(7, 0).permutation(n as usize));
    let ring = topology::parse("ring:16").unwrap();
    let placed = mapped::map(&g, ring.as_ref(), &MapOptions::default()).unwrap();
    assert!(!noted(&placed, "refined instead"), "{:?}", placed.notes());
    let cost = hop_bytes(&g, ring.as_ref(), placed.hosts());
    assert!(cost < 31_700, "{cost}");
}

/// A 3-D grid onto a torus of two axes that its sides do not fold onto
/// evenly is cut into columns, every cut edge one hop: the shuffled 24^3
/// 7-point stencil onto torus:12x12 in 2x2x24 columns, 2 × 11 × 576 =
/// 12 672 hop-bytes (its cube-like 6x4x4 boxes folded, 13 248; Scotch
/// 12 680). The columns cut more edges than the search's parts, so they
/// are weighed after it, not refined instead of it.
#[test]
fn a_grid_onto_a_torus_of_fewer_axes_is_weighed_in_columns() {
    let (n, faces) = seven_point(&[24, 24, 24]);
    let g = shuffled(n, &faces, &Rng::new(3, 0).permutation(n as usize));
    let host = topology::parse("torus:12x12").unwrap();
    let placed = mapped::map(&g, host.as_ref(), &MapOptions::default()).unwrap();
    assert!(hop_bytes(&g, host.as_ref(), placed.hosts()) <= 12_672);
    assert!(!noted(&placed, "refined instead"), "{:?}", placed.notes());
}

/// A grid of three axes onto a torus of two folds in the boxes whose box
/// grid, placed with its axes weighed by the edges cut across them, costs
/// least: the shuffled 16^3 7-point stencil onto torus:16x16 in 1x2x8
/// planks, the 2 along one axis and the 8 along another sharing one host
/// axis as a cycle, 6 656 hop-bytes (before: 7 619, the search's; the
/// near-cube boxes folded, 7 680; Scotch 6 606), onto torus:8x8 in 4x4x4
/// boxes, 3 072 (before 3 455; Scotch 3 104); the 16x16x32 one onto
/// torus:8x16, 6 400 (before 7 424; Scotch 9 339), and onto torus:8x8x2,
/// whose axis of 2 is one link, as onto two axes, an axis split to take
/// the link: 5 376 (before 6 400; Scotch 6 020); 16^3 onto torus:16x8x2
/// 5 120 (before 6 144; Scotch 5 440). Onto torus:16x16 the product
/// placement does better since (`embed/product.rs`): two axes as a
/// mesh:16x16 onto one ring:16, the third onto the other, 6 576.
#[test]
fn a_grid_of_three_axes_folds_onto_a_torus_of_two_in_its_cheapest_boxes() {
    for (sides, host, most) in [
        ([16, 16, 16], "torus:16x16", 6_576),
        ([16, 16, 16], "torus:8x8", 3_072),
        ([16, 16, 32], "torus:8x16", 6_400),
        ([16, 16, 32], "torus:8x8x2", 5_376),
        ([16, 16, 16], "torus:16x8x2", 5_120),
    ] {
        let (n, faces) = seven_point(&sides);
        let g = shuffled(n, &faces, &Rng::new(3, 0).permutation(n as usize));
        let host = topology::parse(host).unwrap();
        let placed = mapped::map(&g, host.as_ref(), &MapOptions::default()).unwrap();
        let cost = hop_bytes(&g, host.as_ref(), placed.hosts());
        assert!(
            cost <= most,
            "{sides:?} onto {}: {cost} above {most}",
            host.spec()
        );
        assert!(
            noted(&placed, "weighed by the edges cut") || noted(&placed, "axes' product"),
            "{:?}",
            placed.notes()
        );
    }
}
