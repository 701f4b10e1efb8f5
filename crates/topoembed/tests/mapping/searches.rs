//! How many searches the mapper runs by default, and of which kind: one
//! partitioning first, a bipartitioning beside it, several onto rings,
//! lines, hierarchies and tiny hosts — each choice read from the notes.

use topoembed::mapper::{self, HostDistance, MapOptions, WGraph};
use topoembed::topology::{self, Topology};

use super::mapper::example_weighted;

/// A mapper entry point: the bare [`mapper::map`], or `topoembed map`'s
/// [`topoembed::embed::mapped::map`], which finds a grid in the guest and
/// weighs its closed forms.
type MapFn = fn(&dyn Topology, &dyn Topology, &MapOptions) -> topoembed::Result<mapper::Placement>;

/// The first note (the search kept) and the placement of mapping `guest`
/// onto `host` by `map` with `restarts` searches (0: the default).
fn first_note_by(map: MapFn, guest: &str, host: &str, restarts: usize) -> (String, Vec<u64>) {
    let guest = topology::parse(guest).unwrap();
    let host = topology::parse(host).unwrap();
    let options = MapOptions {
        restarts,
        ..MapOptions::default()
    };
    let placement = map(guest.as_ref(), host.as_ref(), &options).unwrap();
    (placement.notes()[0].clone(), placement.hosts().to_vec())
}

/// [`first_note_by`] the bare mapper.
fn first_note(guest: &str, host: &str, restarts: usize) -> (String, Vec<u64>) {
    first_note_by(mapper::map, guest, host, restarts)
}

/// [`first_note_by`] `topoembed map`'s entry point: the note alone.
fn first_note_structured(guest: &str, host: &str, restarts: usize) -> String {
    first_note_by(topoembed::embed::mapped::map, guest, host, restarts).0
}

/// One guest node of load 1 per host node (ranks onto their slots, a
/// quotient graph) gets one search by default onto a machine that is not
/// a hierarchy — partitioning first, which won every such run measured —
/// and, being small, eight onto a hierarchy, where bipartitioning wins
/// some; the same guest onto a host of more nodes keeps eight (two above
/// 2048 vertices).
#[test]
fn one_to_one_guests_get_one_search_off_hierarchies() {
    assert_eq!(mapper::auto_restarts(255, (false, false), true, false), 1);
    assert_eq!(mapper::auto_restarts(3000, (false, false), true, false), 1);
    assert_eq!(mapper::auto_restarts(255, (true, false), true, false), 8);
    assert_eq!(mapper::auto_restarts(3000, (true, false), true, false), 2);
    assert_eq!(mapper::auto_restarts(255, (false, false), false, false), 8);
    let (note, hosts) = first_note("bintree:128", "mesh:15x17", 0);
    assert!(
        note.starts_with("partitioning and mapping the parts") && note.contains("one search"),
        "{note}"
    );
    assert_eq!(hosts, first_note("bintree:128", "mesh:15x17", 1).1);
    let (note, _) = first_note("bintree:128", "tleaf:5x51:10,1", 0);
    assert!(note.contains("best of 8 searches"), "{note}");
    let (note, _) = first_note("bintree:128", "mesh:16x17", 0);
    assert!(note.contains("best of 8 searches"), "{note}");
}

/// A guest of at most 2048 vertices gets eight searches by default, the
/// first two those a larger guest gets (the same streams): the default is
/// never above `--restarts 2` and, on KaHIP's small weighted graph, whose
/// heavy vertices leave one bisection's draw to decide, it is well below
/// it somewhere (onto cube:4, seed 1: 8 880 with two searches, 4 086 with
/// eight, measured). Searches asked for are run as asked.
#[test]
fn tiny_guests_get_eight_searches_never_worse_than_two() {
    assert_eq!(
        mapper::auto_restarts(mapper::TINY_GUEST, (false, false), false, false),
        mapper::TINY_SEARCHES
    );
    assert_eq!(
        mapper::auto_restarts(mapper::TINY_GUEST + 1, (false, false), false, false),
        2
    );
    assert_eq!(
        mapper::auto_restarts(mapper::TINY_GUEST + 1, (true, false), false, false),
        2
    );
    let guest = example_weighted();
    let g = WGraph::from_topology(guest.as_ref()).unwrap();
    let mut gained = 0;
    for host in ["cube:4", "mesh:4x4", "ring:8", "tleaf:2x2x4:20,5,1"] {
        let host = topology::parse(host).unwrap();
        let dist = HostDistance::new(host.as_ref()).unwrap();
        for seed in 1..=3 {
            let run = |restarts: usize| {
                let options = MapOptions {
                    seed,
                    restarts,
                    ..MapOptions::default()
                };
                let placed = mapper::map(guest.as_ref(), host.as_ref(), &options).unwrap();
                let searches = match restarts {
                    0 => format!("best of {} searches", mapper::TINY_SEARCHES),
                    r => format!("best of {r} searches"),
                };
                assert!(
                    placed.notes()[0].contains(&searches),
                    "{:?}",
                    placed.notes()
                );
                mapper::hop_bytes(&g, &dist, placed.hosts())
            };
            let (eight, two) = (run(0), run(2));
            assert!(eight <= two, "{} seed {seed}: {eight} > {two}", host.spec());
            gained += usize::from(eight < two);
        }
    }
    assert!(
        gained >= 3,
        "eight searches beat two on only {gained} of 12"
    );
}

/// Which searches run by default: two onto a torus (partitioning first and
/// bipartitioning guest and host together) for a guest with a grid found
/// in it, and onto a hierarchy for a guest of at most 4096 vertices;
/// above, one onto a hierarchy — the bipartitioning, as `--restarts 1`
/// gives it there — and the kinds alternate when searches are asked for.
#[test]
fn hierarchies_get_one_bipartitioning_search_by_default() {
    assert_eq!(
        mapper::auto_restarts(mapper::SMALL_GUEST, (true, false), false, false),
        2
    );
    let notes = |host: &str, restarts: usize| first_note("mesh:70x60", host, restarts);
    for host in [
        "tleaf:4x4x4:100,10,1",
        "fattree:2;8,8;1,8;1,1",
        "dragonfly:4,1;4,1;4,1;4",
    ] {
        assert_eq!(mapper::auto_restarts(4200, (true, false), false, true), 1);
        let (note, hosts) = notes(host, 0);
        assert!(
            note.starts_with("dual recursive bipartitioning") && note.contains("one search"),
            "{host}: {note}"
        );
        assert_eq!(
            hosts,
            notes(host, 1).1,
            "{host}: the default is --restarts 1"
        );
        let (asked, _) = notes(host, 2);
        assert!(asked.contains("best of 2 searches"), "{host}: {asked}");
    }
    assert_eq!(mapper::auto_restarts(4200, (false, false), false, true), 2);
    let note = first_note_structured("mesh:70x60", "torus:8x8", 0);
    assert!(note.contains("best of 2 searches"), "{note}");
    let (note, _) = notes("torus:8x8", 1);
    assert!(
        note.starts_with("partitioning and mapping the parts"),
        "{note}"
    );
}

/// Between 4096 and 10^5 vertices onto a torus, mesh or cube of two axes
/// or more, a guest with no grid found in it (a binary tree of 16 383
/// nodes; any guest given to the mapper without starts) gets partitioning
/// first alone — the placement `--restarts 1` gives — and a grid found by
/// `topoembed map`'s entry point (mesh:70x60, whose closed forms are
/// weighed) both searches, as does any guest onto a ring, a line or a host
/// graph; below 4096 vertices both run whatever the guest.
#[test]
fn mid_sized_guests_without_a_grid_get_one_search_onto_tori() {
    assert_eq!(mapper::auto_restarts(4200, (false, false), false, false), 1);
    assert_eq!(mapper::auto_restarts(4200, (false, false), false, true), 2);
    assert_eq!(
        mapper::auto_restarts(mapper::LARGE_GUEST, (false, false), false, true),
        2
    );
    assert_eq!(
        mapper::auto_restarts(mapper::LARGE_GUEST + 1, (false, false), false, true),
        1
    );
    assert_eq!(
        mapper::auto_restarts(mapper::SMALL_GUEST, (false, false), false, false),
        2
    );
    let pays = |host: &str, grid: bool| {
        let host = topology::parse(host).unwrap();
        mapper::bipartitioning_pays(host.spec(), host.node_count(), grid)
    };
    for host in [
        "torus:16x16",
        "mesh:8x8x4",
        "cube:8",
        "torus:64x4",
        "grid:8wx8",
    ] {
        assert!(!pays(host, false), "{host}");
        assert!(pays(host, true), "{host}");
    }
    for host in ["ring:64", "line:32", "cube:1"] {
        assert!(pays(host, false), "{host}");
    }
    // Onto a host of at most TINY_HOST nodes whether the parts meet as its
    // nodes do is each search's draw: both run.
    for host in ["mesh:2x2", "mesh:3x3", "torus:3x3", "cube:3", "torus:2x4"] {
        assert!(pays(host, false), "{host}");
    }
    for host in ["mesh:2x5", "mesh:3x4", "cube:4"] {
        assert!(!pays(host, false), "{host}");
    }
    let (tiny, _) = first_note("bintree:8192", "mesh:3x3", 0);
    assert!(tiny.contains("best of 2 searches"), "{tiny}");
    let (twelve, _) = first_note("bintree:8192", "mesh:3x4", 0);
    assert!(twelve.contains("one search"), "{twelve}");
    assert!(pays("graph:tests/data/two_nodes.txt", false));
    for host in ["torus:16x16", "mesh:8x8x4"] {
        let (note, hosts) = first_note("bintree:8192", host, 0);
        assert!(
            note.starts_with("partitioning and mapping the parts") && note.contains("one search"),
            "{host}: {note}"
        );
        assert_eq!(hosts, first_note("bintree:8192", host, 1).1, "{host}");
        let (asked, _) = first_note("bintree:8192", host, 2);
        assert!(asked.contains("best of 2 searches"), "{host}: {asked}");
        // A grid found gets both searches — but a 2-D one onto the three
        // axes of mesh:8x8x4 is folded by its closed form instead.
        let grid = first_note_structured("mesh:70x60", host, 0);
        match host {
            "torus:16x16" => assert!(grid.contains("best of 2 searches"), "{host}: {grid}"),
            _ => assert!(grid.contains("onto a host of more axes"), "{host}: {grid}"),
        }
        let (raw, _) = first_note("mesh:70x60", host, 0);
        assert!(raw.contains("one search"), "{host}: {raw}");
    }
    let (note, _) = first_note("bintree:8192", "ring:256", 0);
    let searches = format!("best of {} searches", mapper::ONE_AXIS_SEARCHES);
    assert!(note.contains(&searches), "{note}");
}

/// Onto a ring or a line a guest above 2048 vertices and up to 10^5 gets
/// two searches, both bipartitioning guest and host together (one alone
/// folds a ring badly now and then, and partitioning first leaves the
/// parts' order along the axis to chance: `ONE_AXIS_SEARCHES`); a tiny
/// guest keeps its eight searches of both kinds, a one-to-one guest its one
/// search, a large one up to 5·10^5 vertices one of each kind
/// (`LARGE_ONE_AXIS_SEARCHES`) and a larger one a single search; a grid
/// with an axis of 2 beside its long one is not one axis.
#[test]
fn rings_and_lines_get_two_bipartitionings() {
    let one_axis = |host: &str| mapper::one_axis(topology::parse(host).unwrap().spec());
    for host in ["ring:64", "line:7", "ring:3"] {
        assert!(one_axis(host), "{host}");
    }
    for host in ["torus:16x16", "mesh:64x2", "cube:1", "tleaf:8:1"] {
        assert!(!one_axis(host), "{host}");
    }
    let restarts = |n, one_to_one| mapper::auto_restarts(n, (false, true), one_to_one, true);
    // (guest vertices, searches onto a ring)
    let sizes = [
        (mapper::TINY_GUEST, mapper::TINY_SEARCHES),
        (mapper::TINY_GUEST + 1, mapper::ONE_AXIS_SEARCHES),
        (mapper::LARGE_GUEST, mapper::ONE_AXIS_SEARCHES),
        (mapper::LARGE_GUEST + 1, mapper::LARGE_ONE_AXIS_SEARCHES),
        (mapper::HUGE_GUEST, mapper::LARGE_ONE_AXIS_SEARCHES),
        (mapper::HUGE_GUEST + 1, 1),
    ];
    for (vertices, searches) in sizes {
        assert_eq!(restarts(vertices, false), searches, "{vertices} vertices");
    }
    assert_eq!(
        (mapper::ONE_AXIS_SEARCHES, mapper::LARGE_ONE_AXIS_SEARCHES),
        (2, 2)
    );
    // Elsewhere a large guest gets one search.
    assert_eq!(
        mapper::auto_restarts(mapper::LARGE_GUEST + 1, (false, false), false, true),
        1
    );
    assert_eq!(restarts(4200, true), 1);
    for host in ["ring:256", "line:64"] {
        let (note, _) = first_note("bintree:8192", host, 0);
        assert!(
            note.starts_with("dual recursive bipartitioning")
                && note.contains(&format!("best of {} searches", mapper::ONE_AXIS_SEARCHES)),
            "{host}: {note}"
        );
        // Searches asked for are of both kinds as elsewhere: one alone
        // partitions first.
        let (one, _) = first_note("bintree:8192", host, 1);
        assert!(
            one.starts_with("partitioning and mapping the parts"),
            "{host}: {one}"
        );
    }
}

/// The bipartitioning search beside a partitioning-first one onto a torus
/// is refined by pairs and move/swap only (its placement weighs distance
/// split by split; the V-cycle and k-way FM pay on the other's); onto a
/// hierarchy, alone or beside the other, by every phase, as is
/// partitioning first — onto a tleaf of several levels the levels' pairs
/// of groups among them.
#[test]
fn bipartitioning_beside_partitioning_is_refined_lightly() {
    let first_note = |host: &str, restarts: usize| first_note("mesh:8x8x8", host, restarts).0;
    let every = "refinement (part swaps, V-cycle, k-way FM, pairs, move/swap)";
    // Onto torus:8x8 the bipartitioning wins (a 3-D grid onto a 2-D torus).
    let note = first_note("torus:8x8", 0);
    assert!(
        note.starts_with("dual recursive bipartitioning")
            && note.contains("refinement (pairs, move/swap)")
            && note.contains("best of 8 searches"),
        "{note}"
    );
    let note = first_note("torus:8x8", 1);
    assert!(
        note.starts_with("partitioning and mapping the parts") && note.contains(every),
        "{note}"
    );
    let every_on_levels = "refinement (part swaps, V-cycle, levels, k-way FM, pairs, move/swap)";
    for restarts in [1, 2] {
        let note = first_note("tleaf:4x4x4:100,10,1", restarts);
        assert!(
            note.starts_with("dual recursive bipartitioning") && note.contains(every_on_levels),
            "{restarts}: {note}"
        );
    }
}

/// One guest node per host node laid out by partitioning first is refined
/// by pairs and move/swap only: the layout's own whole-part swaps (single
/// vertices here) ran until they stalled, and at capacity 1 k-way FM and the
/// V-cycle can move nothing. The note's figures are the placement's: what
/// the layout gave, less what the two phases took off.
#[test]
fn one_to_one_layouts_are_refined_by_pairs_and_move_swap() {
    for (guest, host) in [
        ("bintree:128", "torus:15x17"),
        ("mesh:16x16", "torus:4x8x8"),
    ] {
        let (note, hosts) = first_note(guest, host, 0);
        assert!(
            note.starts_with("partitioning and mapping the parts")
                && note.contains("refinement (pairs, move/swap)"),
            "{guest} onto {host}: {note}"
        );
        let mut seen = hosts.clone();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(
            seen.len(),
            hosts.len(),
            "{guest} onto {host}: not one per node"
        );
        let figure = |after: &str, before: &str| -> u128 {
            let from = note.find(after).unwrap() + after.len();
            note[from..].split(before).next().unwrap().parse().unwrap()
        };
        let (gave, off) = (figure("gave hop-bytes ", ";"), figure("took ", " off"));
        let g = WGraph::from_topology(topology::parse(guest).unwrap().as_ref()).unwrap();
        let host = topology::parse(host).unwrap();
        let dist = HostDistance::new(host.as_ref()).unwrap();
        assert_eq!(mapper::hop_bytes(&g, &dist, &hosts), gave - off, "{note}");
    }
}
