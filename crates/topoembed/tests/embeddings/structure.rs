//! Structure finding: a grid or a cube given as a plain graph with its
//! vertices shuffled is recognised (exactly: the found numbering maps every
//! edge onto a grid edge) and comes back optimal on a host of its shape;
//! graphs that only look like grids locally are refused.

use proptest::prelude::*;
use topoembed::closed_form;
use topoembed::embed::mapped;
use topoembed::mapper::{self, recognize, rng::Rng, HostDistance, MapOptions, Placement, WGraph};
use topoembed::spec::Spec;
use topoembed::topology::{self, Graph, Topology};

/// The edges of a grid (a side-2 axis never wraps: that would be a double edge).
fn grid_edges(sides: &[u64], wraps: &[bool]) -> (u64, Vec<(u64, u64)>) {
    let n: u64 = sides.iter().product();
    let mut edges = Vec::new();
    for v in 0..n {
        let mut stride = 1;
        for (a, &side) in sides.iter().enumerate() {
            let c = v / stride % side;
            if c + 1 < side {
                edges.push((v, v + stride));
            } else if wraps[a] && side >= 3 {
                edges.push((v, v + stride - side * stride));
            }
            stride *= side;
        }
    }
    (n, edges)
}

/// The same graph with its vertices renumbered at random.
fn shuffled(n: u64, edges: &[(u64, u64)], seed: u64) -> Graph {
    let perm = Rng::new(seed, 0).permutation(n as usize);
    let edges: Vec<(u64, u64)> = edges
        .iter()
        .map(|&(u, v)| (u64::from(perm[u as usize]), u64::from(perm[v as usize])))
        .collect();
    Graph::from_edges(Spec::Graph("shuffled.txt".into()), n, &edges).unwrap()
}

/// The grid of `sides` (wrapping where `wraps`) shuffled by `seed`, mapped
/// onto `host` at the default options: (guest, host, placement).
fn shuffled_grid_onto(
    (sides, wraps): (&[u64], &[bool]),
    seed: u64,
    host: &str,
) -> (Graph, Box<dyn Topology>, Placement) {
    let (n, edges) = grid_edges(sides, wraps);
    let guest = shuffled(n, &edges, seed);
    let host = topology::parse(host).unwrap();
    let placed = mapped::map(&guest, host.as_ref(), &MapOptions::default()).unwrap();
    (guest, host, placed)
}

fn recognised(g: &Graph) -> Option<recognize::Grid> {
    recognize::grid(&WGraph::from_topology(g).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]
    /// Any grid of up to 3 axes, shuffled, is recognised with its shape (a
    /// cycle of 4 reads as two axes of 2: C4 = P2 x P2), and the numbering
    /// found is an isomorphism: every edge lands on a grid edge.
    #[test]
    fn shuffled_grids_are_recognised(
        axes in prop::collection::vec((2u64..9, any::<bool>()), 1..4),
        seed in any::<u64>(),
    ) {
        let sides: Vec<u64> = axes.iter().map(|a| a.0).collect();
        let wraps: Vec<bool> = axes.iter().map(|a| a.1).collect();
        let (n, edges) = grid_edges(&sides, &wraps);
        let g = shuffled(n, &edges, seed);
        let found = recognised(&g).expect("a grid is recognised");
        let mut expected: Vec<(u64, bool)> = Vec::new();
        for (&s, &w) in sides.iter().zip(&wraps) {
            match (s, w && s >= 3) {
                (4, true) => expected.extend([(2, false), (2, false)]),
                (s, w) => expected.push((s, w)),
            }
        }
        expected.sort_unstable();
        let mut got: Vec<(u64, bool)> = found.sides.iter().copied().zip(found.wraps.iter().copied()).collect();
        got.sort_unstable();
        prop_assert_eq!(got, expected);
        let shape = topology::build(&found.spec()).unwrap();
        prop_assert_eq!(shape.node_count(), n);
        let mut ids = found.node.clone();
        ids.sort_unstable();
        prop_assert!(ids.iter().copied().eq(0..n), "a bijection");
        for v in 0..n {
            for &u in g.adjacency(v) {
                prop_assert_eq!(shape.distance(found.node[v as usize], found.node[u as usize]), 1);
            }
        }
    }
}

/// A graph's edges as (u, v) pairs.
type Edges = Vec<(u64, u64)>;

/// A 2-D 9-point stencil of one volume on an `a` x `b` grid (axis 1
/// wrapping where `wraps.0`, axis 2 where `wraps.1`; a wrapping side is at
/// least 5): vertex x + a·y, its faces (4 neighbours) and its diagonals.
fn nine_point_edges(a: u64, b: u64, wraps: (bool, bool)) -> (u64, Edges, Edges) {
    let step = |c: u64, side: u64, wrap: bool, d: i64| -> Option<u64> {
        let t = c as i64 + d;
        match (0..side as i64).contains(&t) {
            true => Some(t as u64),
            false if wrap => Some(t.rem_euclid(side as i64) as u64),
            false => None,
        }
    };
    let (mut faces, mut diagonals) = (Vec::new(), Vec::new());
    for y in 0..b {
        for x in 0..a {
            let v = x + a * y;
            // Each edge once: towards +x, +y, and both diagonals towards +y.
            for (dx, dy) in [(1i64, 0i64), (0, 1), (1, 1), (-1, 1)] {
                if let (Some(u), Some(w)) = (step(x, a, wraps.0, dx), step(y, b, wraps.1, dy)) {
                    let edge = (v, u + a * w);
                    match dx != 0 && dy != 0 {
                        true => diagonals.push(edge),
                        false => faces.push(edge),
                    }
                }
            }
        }
    }
    (a * b, faces, diagonals)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]
    /// A 9-point stencil of one volume, shuffled, is no grid, and the grid
    /// under it is found as its skeleton (`recognize::stencil_backbone`):
    /// its shape, and a numbering that puts every face one hop apart and
    /// every diagonal two.
    #[test]
    fn shuffled_nine_point_stencils_are_found_by_their_skeleton(
        a in 3u64..10,
        b in 3u64..10,
        wrap_a in any::<bool>(),
        wrap_b in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let wraps = (wrap_a && a >= 5, wrap_b && b >= 5);
        let (n, faces, diagonals) = nine_point_edges(a, b, wraps);
        let edges: Vec<(u64, u64)> = faces.iter().chain(&diagonals).copied().collect();
        let perm = Rng::new(seed, 0).permutation(n as usize);
        let at = |v: u64| u64::from(perm[v as usize]);
        let shuffled: Vec<(u64, u64)> = edges.iter().map(|&(u, v)| (at(u), at(v))).collect();
        let g = Graph::from_edges(Spec::Graph("stencil9.txt".into()), n, &shuffled).unwrap();
        let w = WGraph::from_topology(&g).unwrap();
        prop_assert_eq!(recognize::grid(&w), None);
        let found = recognize::stencil_backbone(&w).expect("the mesh under the stencil");
        let mut got: Vec<(u64, bool)> = found.sides.iter().copied().zip(found.wraps.iter().copied()).collect();
        got.sort_unstable();
        let mut expected = vec![(a, wraps.0), (b, wraps.1)];
        expected.sort_unstable();
        prop_assert_eq!(got, expected);
        let shape = topology::build(&found.spec()).unwrap();
        let hops = |&(u, v): &(u64, u64)| shape.distance(found.node[at(u) as usize], found.node[at(v) as usize]);
        prop_assert!(faces.iter().all(|e| hops(e) == 1), "every face one hop");
        prop_assert!(diagonals.iter().all(|e| hops(e) == 2), "every diagonal two");
    }
}

/// A 48x48 9-point stencil of one volume, shuffled, onto torus:8x8: the
/// mapper starts from the mesh under it (refined instead of a search:
/// `defaults::stencil_refined`) and ends at or below the 6x6
/// blocks in grid order (computed here from the stencil's own
/// coordinates), where the search alone stopped at 2 122 hop-bytes against
/// their 1 988; onto ring:16 the search still runs, and beats the strips.
#[test]
fn a_nine_point_stencil_of_one_volume_maps_by_its_mesh() {
    let (n, faces, diagonals) = nine_point_edges(48, 48, (false, false));
    let edges: Vec<(u64, u64)> = faces.iter().chain(&diagonals).copied().collect();
    let perm = Rng::new(5, 0).permutation(n as usize);
    let shuffled: Vec<(u64, u64)> = edges
        .iter()
        .map(|&(u, v)| (u64::from(perm[u as usize]), u64::from(perm[v as usize])))
        .collect();
    let g = Graph::from_edges(Spec::Graph("stencil9.txt".into()), n, &shuffled).unwrap();
    let host = topology::parse("torus:8x8").unwrap();
    let placed = mapped::map(&g, host.as_ref(), &MapOptions::default()).unwrap();
    // Vertex x + 48·y of the stencil sits at perm[..] in the shuffled graph.
    let mut blocks = vec![0u64; n as usize];
    for v in 0..n {
        let (x, y) = (v % 48, v / 48);
        blocks[perm[v as usize] as usize] = x / 6 + 8 * (y / 6);
    }
    let blocked = hop_bytes(&g, host.as_ref(), &blocks);
    assert_eq!(blocked, 1988);
    assert!(
        hop_bytes(&g, host.as_ref(), placed.hosts()) <= blocked,
        "the mesh's blocks are weighed"
    );
    // Onto a ring the closed form (strips of 3 rows) is only weighed: the
    // search cuts fewer diagonals than the strips do.
    let ring = topology::parse("ring:16").unwrap();
    let placed = mapped::map(&g, ring.as_ref(), &MapOptions::default()).unwrap();
    let mut strips = vec![0u64; n as usize];
    for v in 0..n {
        strips[perm[v as usize] as usize] = v / 48 / 3;
    }
    let stripped = hop_bytes(&g, ring.as_ref(), &strips);
    assert!(
        hop_bytes(&g, ring.as_ref(), placed.hosts()) < stripped,
        "the search beats the strips on a ring"
    );
}

/// A shuffled 100x100 5-point stencil onto torus:8x4x4 (128 nodes, three
/// axes): the grid's closed form, folded onto the host's third axis, is
/// refined instead of a search (`defaults::folded_onto_more_axes`) and
/// comes out as low as the search's placement (2 382 against 2 398 hop-bytes
/// when measured, 2 380 once the search refines a start that beats it); onto torus:4x4x4 (64 nodes) and for a 3-D grid onto a
/// host of two axes the search still runs.
#[test]
fn a_grid_of_fewer_axes_is_folded_onto_a_larger_host() {
    let (n, edges) = grid_edges(&[100, 100], &[false; 2]);
    let guest = shuffled(n, &edges, 4);
    let folded = |host: &str, restarts: usize| {
        let host = topology::parse(host).unwrap();
        let options = MapOptions {
            restarts,
            ..MapOptions::default()
        };
        let placed = mapped::map(&guest, host.as_ref(), &options).unwrap();
        let by_fold = noted(&placed, "onto a host of more axes");
        (hop_bytes(&guest, host.as_ref(), placed.hosts()), by_fold)
    };
    let (refined, by_fold) = folded("torus:8x4x4", 0);
    assert!(by_fold, "the closed form is refined instead of a search");
    // Asked for a search (--restarts 1), the mapper searches.
    let (searched, searched_by_fold) = folded("torus:8x4x4", 1);
    assert!(!searched_by_fold);
    // (The search refines a start that beats it as the closed form is
    // refined instead, after a move/swap pass: the two meet within a
    // draw, 2 382 against 2 380.)
    assert!(
        refined as f64 <= searched as f64 * 1.002,
        "{refined} refined against {searched} searched"
    );
    let (_, small) = folded("torus:4x4x4", 0);
    assert!(!small, "onto 64 nodes the search runs");
    let (n3, edges3) = grid_edges(&[16, 16, 16], &[false; 3]);
    let cube_guest = shuffled(n3, &edges3, 4);
    let host = topology::parse("torus:16x16").unwrap();
    let placed = mapped::map(&cube_guest, host.as_ref(), &MapOptions::default()).unwrap();
    assert!(
        !noted(&placed, "onto a host of more axes"),
        "a 3-D grid onto two axes is searched"
    );
}

/// A shuffled 24^3 stencil onto torus:16x16 (54 of its nodes a host
/// node): its closed forms (balanced slabs folded onto two axes) are
/// weighed alone, as after a search, which is left out
/// (`defaults::unsearched`) — the same placement as when searches are
/// asked for and the closed form beats them (15 552 hop-bytes, the search
/// 15 935). With fewer nodes a host node (16x16x24, 24), onto 1 024 nodes
/// (torus:32x32) and onto 64 (torus:8x8) the search runs.
#[test]
fn a_grid_of_more_axes_is_weighed_alone_onto_two() {
    let noted_unsearched = |sides: &[u64], host: &str, restarts: usize| {
        let (n, edges) = grid_edges(sides, &vec![false; sides.len()]);
        let guest = shuffled(n, &edges, 4);
        let host = topology::parse(host).unwrap();
        let options = MapOptions {
            restarts,
            ..MapOptions::default()
        };
        let placed = mapped::map(&guest, host.as_ref(), &options).unwrap();
        let cost = hop_bytes(&guest, host.as_ref(), placed.hosts());
        (cost, noted(&placed, "no search"), placed.hosts().to_vec())
    };
    let (alone, unsearched, hosts) = noted_unsearched(&[24, 24, 24], "torus:16x16", 0);
    assert!(unsearched, "the closed forms are weighed alone");
    assert_eq!(alone, 15552);
    // Searches asked for (--restarts 2) run, and the closed form, weighed
    // after them as before, is kept: the same placement.
    let (searched, with_search, searched_hosts) = noted_unsearched(&[24, 24, 24], "torus:16x16", 2);
    assert!(!with_search);
    assert_eq!((searched, &searched_hosts), (alone, &hosts));
    for (sides, host) in [
        (&[16u64, 16, 24][..], "torus:16x16"),
        (&[24, 24, 24], "torus:32x32"),
        (&[24, 24, 24], "torus:8x8"),
    ] {
        let (_, unsearched, _) = noted_unsearched(sides, host, 0);
        assert!(!unsearched, "{sides:?} onto {host} is searched");
    }
}

/// A shuffled 64x64 mesh onto tleaf:16x16:10,1 (leaves parting at the top
/// 11 apart, in a group 1): cut by the host's levels into 4x4 boxes of
/// 16x16 (6 planes of 64 edges at 11) and each of those into 4x4 of 4x4
/// (16 × 6 planes of 16 at 1), 4 224 + 1 536 = 5 760 hop-bytes — the
/// mapper refines that start instead of a search (which alone reached
/// 5 803: `defaults::cut_by_levels`). A 90x90 mesh, whose sides 4 does
/// not divide, is searched and the start only weighed.
#[test]
fn a_grid_on_a_hierarchy_is_cut_by_its_levels() {
    let (guest, host, placed) = shuffled_grid_onto((&[64, 64], &[false; 2]), 2, "tleaf:16x16:10,1");
    let nested = 6 * 64 * 11 + 16 * 6 * 16;
    assert_eq!(nested, 5760);
    assert!(hop_bytes(&guest, host.as_ref(), placed.hosts()) <= nested);
    assert!(
        placed
            .start()
            .is_some_and(|s| s.contains("cut by the host's levels (4x4, then 4x4)")),
        "{:?}",
        placed.notes()
    );
    let refined = |placed: &Placement| noted(placed, "cut by a tleaf's levels into equal boxes");
    assert!(refined(&placed), "{:?}", placed.notes());
    let (n, edges) = grid_edges(&[90, 90], &[false; 2]);
    let uneven = shuffled(n, &edges, 2);
    let placed = mapped::map(&uneven, host.as_ref(), &MapOptions::default()).unwrap();
    assert!(!refined(&placed), "{:?}", placed.notes());
}

/// Above 10^5 vertices a grid cut by a tleaf's levels is refined instead
/// of a search though its boxes differ (`defaults::large_cut_by_levels`):
/// a shuffled 400x300 torus onto tleaf:6x6x6:100,10,1 (300 is not a
/// multiple of 36), cut into 3x2 boxes at the top (1 700 edges: a ring is
/// cut in as many places as parts, so six strips would cut 1 800), comes
/// out as low as the search's placement (which refines that cut too once
/// it beats the search's own).
#[test]
fn a_large_grid_on_a_hierarchy_is_cut_by_its_levels_unevenly() {
    let (guest, host, placed) =
        shuffled_grid_onto((&[400, 300], &[true; 2]), 3, "tleaf:6x6x6:100,10,1");
    assert!(
        noted(&placed, "above 100000 vertices cut by a tleaf's levels"),
        "{:?}",
        placed.notes()
    );
    assert!(
        placed.start().is_some_and(|s| s.contains("(3x2, then")),
        "{:?}",
        placed.start()
    );
    let searched = MapOptions {
        restarts: 1,
        ..MapOptions::default()
    };
    let search = mapped::map(&guest, host.as_ref(), &searched).unwrap();
    assert!(search
        .notes()
        .iter()
        .all(|n| !n.contains("instead of a search")));
    let (cut, found) = (
        hop_bytes(&guest, host.as_ref(), placed.hosts()),
        hop_bytes(&guest, host.as_ref(), search.hosts()),
    );
    // (Within a draw: the search refines the cut too once it beats the
    // search's own placement, 224 589 against 224 398.)
    assert!(
        cut as f64 <= found as f64 * 1.002,
        "{cut} against the search's {found}"
    );
}

/// A grid whose breadth-first levels span many tasks of the parallel sweep
/// (hundreds of vertices each) is recognised with the same numbering on
/// one thread and three, its edges all grid edges; with one edge moved it
/// is refused on both.
#[test]
fn a_large_grid_is_recognised_alike_on_any_thread_count() {
    let (sides, wraps) = ([60, 50, 7], [true, false, true]);
    let (n, mut edges) = grid_edges(&sides, &wraps);
    let on = |threads: usize, g: &Graph| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| recognised(g))
    };
    let g = shuffled(n, &edges, 11);
    let one = on(1, &g).expect("a grid is recognised");
    assert_eq!(on(3, &g).as_ref(), Some(&one));
    let shape = topology::build(&one.spec()).unwrap();
    assert_eq!(one.spec().to_string(), "grid:60wx50x7w");
    for v in 0..n {
        for &u in g.adjacency(v) {
            assert_eq!(
                shape.distance(one.node[v as usize], one.node[u as usize]),
                1
            );
        }
    }
    // One edge of the far side moved onto a diagonal: no grid.
    let last = edges.len() - 1;
    edges[last].1 = (edges[last].1 + 61) % n;
    let bent = shuffled(n, &edges, 11);
    assert_eq!((on(1, &bent), on(3, &bent)), (None, None));
}

#[test]
fn graphs_that_are_not_grids_are_refused() {
    let from = |n: u64, edges: &[(u64, u64)]| {
        Graph::from_edges(Spec::Graph("x.txt".into()), n, edges).unwrap()
    };
    let (n, mut mesh) = grid_edges(&[5, 5], &[false, false]);
    let missing = from(n, &mesh[1..]);
    assert_eq!(recognised(&missing), None, "a mesh missing an edge");
    mesh.push((0, 6));
    assert_eq!(recognised(&from(n, &mesh)), None, "a mesh with a diagonal");
    // A twisted torus: 6x6 whose wrap-around on axis 2 shifts axis 1 by
    // one. Every vertex sees what a torus vertex sees, but it is not one.
    let mut twisted = Vec::new();
    for y in 0..6u64 {
        for x in 0..6u64 {
            twisted.push((x + 6 * y, (x + 1) % 6 + 6 * y));
            let up = if y == 5 { (x + 1) % 6 } else { x + 6 * (y + 1) };
            twisted.push((x + 6 * y, up));
        }
    }
    assert_eq!(recognised(&from(36, &twisted)), None, "a twisted torus");
    let petersen = [
        (0, 1),
        (1, 2),
        (2, 3),
        (3, 4),
        (4, 0),
        (0, 5),
        (1, 6),
        (2, 7),
        (3, 8),
        (4, 9),
        (5, 7),
        (7, 9),
        (9, 6),
        (6, 8),
        (8, 5),
    ];
    assert_eq!(recognised(&from(10, &petersen)), None, "Petersen");
    let k5: Vec<(u64, u64)> = (0..5)
        .flat_map(|u| (u + 1..5).map(move |v| (u, v)))
        .collect();
    assert_eq!(recognised(&from(5, &k5)), None, "K5");
    let (_, ring) = grid_edges(&[6], &[true]);
    let two: Vec<(u64, u64)> = ring
        .iter()
        .flat_map(|&(u, v)| [(u, v), (u + 6, v + 6)])
        .collect();
    assert_eq!(recognised(&from(12, &two)), None, "two rings");
    let star: Vec<(u64, u64)> = (1..6).map(|v| (0, v)).collect();
    assert_eq!(recognised(&from(6, &star)), None, "a star");
    // Nor is a grid found under them as a skeleton, nor under a 9-point
    // stencil missing a face (a diagonal missing leaves its mesh whole).
    let by_skeleton = |g: &Graph| recognize::stencil_backbone(&WGraph::from_topology(g).unwrap());
    for (name, n, edges) in [
        ("Petersen", 10, petersen.to_vec()),
        ("K5", 5, k5),
        ("a star", 6, star),
    ] {
        assert_eq!(by_skeleton(&from(n, &edges)), None, "{name}");
    }
    let (n, faces, diagonals) = nine_point_edges(6, 5, (false, false));
    for missing in [0, 7, faces.len() - 1] {
        let edges: Vec<(u64, u64)> = faces
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != missing)
            .map(|(_, &e)| e)
            .chain(diagonals.iter().copied())
            .collect();
        assert_eq!(
            by_skeleton(&from(n, &edges)),
            None,
            "a stencil missing face {missing}"
        );
    }
    // One diagonal missing lowers its faces' scores (a corner's face then
    // shares one neighbour): the mesh may be refused, but where it is
    // found every face is one hop.
    for missing in [0, 9, diagonals.len() - 1] {
        let mut edges = faces.clone();
        edges.extend(
            diagonals
                .iter()
                .enumerate()
                .filter(|&(k, _)| k != missing)
                .map(|(_, &e)| e),
        );
        if let Some(found) = by_skeleton(&from(n, &edges)) {
            let shape = topology::build(&found.spec()).unwrap();
            for &(u, v) in &faces {
                let (a, b) = (found.node[u as usize], found.node[v as usize]);
                assert_eq!(shape.distance(a, b), 1, "diagonal {missing} missing");
            }
        }
    }
}

/// A 9-point stencil on a PX x PY mesh of blocks as a run records it:
/// faces heavy, corners light, vertices shuffled. Its faces are a mesh
/// (`recognize::backbone_grid`), so the mapper starts from the mesh
/// placement and, on a host of the mesh's shape, ends with every face one
/// hop and every corner two — the least hop-bytes there is (each face
/// edge needs at least one hop, each corner edge joins blocks that differ
/// on both axes) — where the search alone left faces three hops apart.
#[test]
fn a_recorded_nine_point_stencil_maps_by_its_faces() {
    for (px, py, host) in [
        (8u64, 8u64, "torus:8x8"),
        (6, 4, "mesh:6x4"),
        (4, 4, "torus:4x4"),
    ] {
        let n = px * py;
        let (mut edges, mut volumes) = (Vec::new(), Vec::new());
        let (face, corner) = (655_360u64, 160u64);
        for y in 0..py {
            for x in 0..px {
                let v = x + px * y;
                if x + 1 < px {
                    edges.push((v, v + 1));
                    volumes.push(face);
                }
                if y + 1 < py {
                    edges.push((v, v + px));
                    volumes.push(face);
                    if x + 1 < px {
                        edges.push((v, v + px + 1));
                        volumes.push(corner);
                    }
                    if x > 0 {
                        edges.push((v, v + px - 1));
                        volumes.push(corner);
                    }
                }
            }
        }
        let perm = Rng::new(7, 0).permutation(n as usize);
        let shuffled: Vec<(u64, u64)> = edges
            .iter()
            .map(|&(u, v)| (u64::from(perm[u as usize]), u64::from(perm[v as usize])))
            .collect();
        let g = Graph::from_weighted_edges(
            Spec::Graph("stencil9.txt".into()),
            n,
            &shuffled,
            Some(&volumes),
        )
        .unwrap();
        let w = WGraph::from_topology(&g).unwrap();
        assert_eq!(recognize::grid(&w), None, "the diagonals make it no grid");
        let backbone = recognize::backbone_grid(&w).expect("its faces are a mesh");
        assert_eq!(backbone.node.len() as u64, n);
        let h = topology::parse(host).unwrap();
        let placed = mapped::map(&g, h.as_ref(), &MapOptions::default()).unwrap();
        let faces = volumes.iter().filter(|&&v| v == face).count() as u128;
        let corners = volumes.len() as u128 - faces;
        let least = faces * u128::from(face) + corners * 2 * u128::from(corner);
        assert_eq!(hop_bytes(&g, h.as_ref(), placed.hosts()), least, "{host}");
    }
}

/// Whether one of `placed`'s notes says `text`.
pub(super) fn noted(placed: &Placement, text: &str) -> bool {
    placed.notes().iter().any(|n| n.contains(text))
}

/// Hop-bytes of `hosts` (guest node v on `hosts[v]`), as the mapper counts them.
pub(super) fn hop_bytes(guest: &Graph, host: &dyn Topology, hosts: &[u64]) -> u128 {
    let g = WGraph::from_topology(guest).unwrap();
    mapper::hop_bytes(&g, &HostDistance::new(host).unwrap(), hosts)
}

/// torus:64x64 given as a shuffled edge list comes back with dilation 1.
#[test]
fn shuffled_torus_comes_back_with_dilation_one() {
    let (guest, host, p) = shuffled_grid_onto((&[64, 64], &[true, true]), 11, "torus:64x64");
    for v in 0..guest.node_count() {
        for &u in guest.adjacency(v) {
            assert_eq!(
                host.distance(p.hosts()[v as usize], p.hosts()[u as usize]),
                1
            );
        }
    }
    assert_eq!(hop_bytes(&guest, host.as_ref(), p.hosts()), 8192);
}

/// cube:10 shuffled: on ring:1024 the xor embedding's total (the journal's
/// closed form, optimal on rings); on line:1024 Harper's least sum
/// 2^(d-1) (2^d - 1).
#[test]
fn shuffled_cube_reaches_the_closed_forms() {
    let (n, edges) = grid_edges(&[2; 10], &[false; 10]);
    let guest = shuffled(n, &edges, 5);
    let ring = topology::parse("ring:1024").unwrap();
    let p = mapped::map(&guest, ring.as_ref(), &MapOptions::default()).unwrap();
    let xor = closed_form::journal(
        closed_form::Journal::Xor,
        &Spec::Cube(10),
        &Spec::Ring(1024),
    )
    .unwrap();
    assert_eq!(
        hop_bytes(&guest, ring.as_ref(), p.hosts()),
        xor.dilation_total
    );
    let line = topology::parse("line:1024").unwrap();
    let p = mapped::map(&guest, line.as_ref(), &MapOptions::default()).unwrap();
    assert_eq!(hop_bytes(&guest, line.as_ref(), p.hosts()), (1 << 9) * 1023);
}

/// A shuffled 24^3 7-point stencil onto torus:8x8x8: 3x3x3 blocks in grid
/// order, 3 axes x 7 cut planes x 576 edges (Scotch's gmap: 24 231).
#[test]
fn shuffled_stencil_goes_in_blocks() {
    let (guest, host, p) = shuffled_grid_onto((&[24, 24, 24], &[false; 3]), 3, "torus:8x8x8");
    assert_eq!(hop_bytes(&guest, host.as_ref(), p.hosts()), 3 * 7 * 576);
    let mut load = vec![0u32; 512];
    for &h in p.hosts() {
        load[h as usize] += 1;
    }
    assert!(load.iter().all(|&l| l == 27));
}
