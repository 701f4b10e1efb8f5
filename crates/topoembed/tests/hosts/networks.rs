//! Fat trees and dragonflies route as SimGrid routes them: the platform
//! `export --format simgrid` writes is loaded by SimGrid itself
//! (`tests/data/simgrid/routes.cpp`, built against libsimgrid), which
//! prints its route between every two hosts; each route must have as many
//! links as topoembed's distance, and topoembed's links must be SimGrid's
//! up to a renaming — one topoembed link for each SimGrid cable (its `_UP`
//! and `_DOWN` halves are one cable) and back. Skipped where SimGrid is
//! not installed (CI installs it and sets TOPOEMBED_REQUIRE_SIMGRID).
//! Brute-force checks of the same hosts without SimGrid follow.

use crate::common;

use common::Table;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use proptest::prelude::*;
use topoembed::routing::{HostRoute, TieRule};
use topoembed::topology::{self, Topology};
use topoembed::traffic;

/// Link loads counted the obvious way: every guest edge {u, v}, u < v,
/// walked over the network route from f(u) to f(v), one count per link.
fn count_by_walking(guest: &dyn Topology, host: &dyn Topology, place: &[u64]) -> Vec<u64> {
    let network = host.network().unwrap();
    let mut loads = vec![0u64; network.link_count() as usize];
    for u in 0..guest.node_count() {
        for v in guest.neighbors(u) {
            if u < v {
                let mut links = Vec::new();
                network.route_links(place[u as usize], place[v as usize], &mut links);
                for l in links {
                    loads[l as usize] += 1;
                }
            }
        }
    }
    loads
}

const FAT_TREES: [&str; 5] = [
    // SimGrid's manual example: 2 levels, 16 hosts.
    "fattree:2;4,4;1,2;1,2",
    "fattree:2;3,4;2,2;2,1",
    "fattree:3;2,2,3;2,1,2;1,2,1",
    "fattree:3;2,3,2;1,2,2;1,1,1",
    "fattree:1;6;2;2",
];

const DRAGONFLIES: [&str; 5] = [
    "dragonfly:3,1;4,1;3,1;2",
    "dragonfly:2,1;2,1;2,1;2",
    "dragonfly:4,2;3,1;4,1;1",
    "dragonfly:1,1;3,1;2,1;2",
    "dragonfly:3,1;1,1;3,2;1",
];

/// Builds the route printer once per test process; `None` without SimGrid.
fn route_printer(dir: &Path) -> Option<PathBuf> {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/simgrid/routes.cpp");
    let binary = dir.join("routes");
    let built = Command::new("c++")
        .arg("-O1")
        .arg(&source)
        .arg("-o")
        .arg(&binary)
        .arg("-lsimgrid")
        .output();
    if built.as_ref().is_ok_and(|o| o.status.success()) {
        return Some(binary);
    }
    assert!(
        std::env::var_os("TOPOEMBED_REQUIRE_SIMGRID").is_none(),
        "SimGrid's headers or library are missing (libsimgrid-dev): {built:?}"
    );
    None
}

#[test]
fn fat_trees_and_dragonflies_take_simgrids_routes_link_for_link() {
    let dir = common::temp_dir("networks");
    let Some(printer) = route_printer(&dir) else {
        return;
    };
    for spec in FAT_TREES.iter().chain(&DRAGONFLIES) {
        let host = topology::parse(spec).unwrap();
        let network = host.network().expect("a switched host");
        let n = host.node_count();
        let platform = common::simgrid_platform(&dir, spec);
        let out = Command::new(&printer)
            .arg(&platform)
            .arg("node-")
            .arg(n.to_string())
            .arg("--log=root.thres:critical")
            .output()
            .unwrap();
        assert!(out.status.success(), "{spec}: {out:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        let mut ours_of: HashMap<String, u64> = HashMap::new();
        let mut theirs_of: HashMap<u64, String> = HashMap::new();
        let mut routes = 0;
        for line in text.lines() {
            let mut words = line.split_whitespace();
            let a: u64 = words.next().unwrap().parse().unwrap();
            let b: u64 = words.next().unwrap().parse().unwrap();
            let cables: Vec<&str> = words
                .map(|w| {
                    w.strip_suffix("_UP")
                        .or_else(|| w.strip_suffix("_DOWN"))
                        .unwrap_or(w)
                })
                .collect();
            let shortcut = u64::from(simgrid_shortcut(host.as_ref(), a, b));
            assert_eq!(
                host.distance(a, b),
                cables.len() as u64 + shortcut,
                "{spec}: {a} -> {b}: SimGrid's route is {line}"
            );
            let mut ours = Vec::new();
            network.route_links(a, b, &mut ours);
            assert_eq!(ours.len(), cables.len(), "{spec}: {a} -> {b}");
            for (&link, &cable) in ours.iter().zip(&cables) {
                assert!(link < network.link_count());
                let named = ours_of.entry(cable.to_string()).or_insert(link);
                assert_eq!(
                    *named, link,
                    "{spec}: {a} -> {b}: cable {cable} is two links here"
                );
                let linked = theirs_of.entry(link).or_insert_with(|| cable.to_string());
                assert_eq!(
                    linked, cable,
                    "{spec}: {a} -> {b}: link {link} is two cables"
                );
            }
            routes += 1;
        }
        assert_eq!(
            routes,
            n * (n - 1),
            "{spec}: a route for every ordered pair"
        );
    }
}

/// SimGrid's dragonfly route inside a group from a chassis other than 0 to
/// a router of another position in chassis 0 lacks its black link: one link
/// shorter than the route back, which is the distance.
fn simgrid_shortcut(host: &dyn Topology, a: u64, b: u64) -> bool {
    if !matches!(host.spec(), topoembed::spec::Spec::Dragonfly(_)) {
        return false;
    }
    let (x, y) = (host.coords(a), host.coords(b));
    x[0] == y[0] && x[1] != 0 && y[1] == 0 && x[2] != y[2]
}

/// Every link id of a route is in range, a route never uses a link twice,
/// and its length is the host distance (the dragonfly's shortcut one less),
/// which is symmetric and bounded by the diameter, reached by some pair.
fn check_routes(spec: &str) {
    let host = topology::parse(spec).unwrap();
    let network = host.network().unwrap();
    let n = host.node_count();
    let mut longest = 0;
    for a in 0..n {
        assert_eq!(host.distance(a, a), 0);
        for b in 0..n {
            if a == b {
                continue;
            }
            let mut links = Vec::new();
            network.route_links(a, b, &mut links);
            let mut sorted = links.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(
                sorted.len(),
                links.len(),
                "{spec}: {a} -> {b} repeats a link"
            );
            assert!(links.iter().all(|&l| l < network.link_count()));
            let shortcut = u64::from(simgrid_shortcut(host.as_ref(), a, b));
            assert_eq!(
                host.distance(a, b),
                links.len() as u64 + shortcut,
                "{spec}: {a} -> {b}"
            );
            assert_eq!(host.distance(a, b), host.distance(b, a));
            longest = longest.max(host.distance(a, b));
        }
    }
    assert_eq!(host.diameter(), longest, "{spec}: the diameter");
}

#[test]
fn routes_are_as_long_as_the_distances_and_the_diameter_is_reached() {
    for spec in FAT_TREES.iter().chain(&DRAGONFLIES) {
        check_routes(spec);
    }
}

#[test]
fn fat_tree_distances_are_a_tleaf_of_twos() {
    // Two host nodes meet at the level above their highest differing digit:
    // a tleaf of the children counts, top first, each level costing 2.
    let fat = topology::parse("fattree:3;2,3,4;1,2,2;1,1,2").unwrap();
    let tleaf = topology::parse("tleaf:4x3x2:2,2,2").unwrap();
    for a in 0..24 {
        for b in 0..24 {
            assert_eq!(fat.distance(a, b), tleaf.distance(a, b), "{a} {b}");
        }
        assert_eq!(fat.coords(a), tleaf.coords(a));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn random_fat_trees_route_within_their_links(
        down in prop::collection::vec(1u64..4, 1..4),
        up in prop::collection::vec(1u64..4, 3),
        ports in prop::collection::vec(1u64..3, 3),
    ) {
        let levels = down.len();
        prop_assume!(down.iter().product::<u64>() > 1);
        let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
        let spec = format!(
            "fattree:{levels};{};{};{}",
            list(&down),
            list(&up[..levels]),
            list(&ports[..levels])
        );
        check_routes(&spec);
    }

    #[test]
    fn random_dragonflies_route_within_their_links(
        groups in 1u64..4,
        chassis in 1u64..4,
        extra in 0u64..3,
        nodes in 1u64..3,
    ) {
        let routers = groups + extra;
        prop_assume!(groups * chassis * routers * nodes > 1);
        check_routes(&format!("dragonfly:{groups},1;{chassis},1;{routers},1;{nodes}"));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]
    /// Congestion, the link-load histogram and the per-class loads of the
    /// metrics equal a hop-by-hop count over the network's routes, for
    /// random placements (many-to-one included) of random guests.
    #[test]
    fn congestion_is_the_count_over_the_routes(
        host in prop::sample::select(FAT_TREES.iter().chain(&DRAGONFLIES).copied().collect::<Vec<_>>()),
        guest in prop::sample::select(vec!["ring:12", "torus:4x4", "cube:5", "mesh:3x7", "bintree:8"]),
        seed in any::<u64>(),
        crowd in 1u64..4,
    ) {
        let host = topology::parse(host).unwrap();
        let guest = topology::parse(guest).unwrap();
        let n = host.node_count();
        let mut state = seed | 1;
        let place: Vec<u64> = (0..guest.node_count())
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state % n.div_ceil(crowd).max(1)
            })
            .collect();
        let counted = count_by_walking(guest.as_ref(), host.as_ref(), &place);
        let route = HostRoute::new(host.as_ref(), TieRule::Increasing);
        let t = traffic::measure(guest.as_ref(), host.as_ref(), &Table(place), &route, None).unwrap();
        prop_assert_eq!(t.congestion.max, counted.iter().copied().max().unwrap());
        let mut histogram = std::collections::BTreeMap::new();
        for &load in &counted {
            *histogram.entry(load).or_insert(0u64) += 1;
        }
        prop_assert_eq!(&t.congestion.histogram, &histogram);
        let network = host.network().unwrap();
        for class in t.link_load.as_ref().unwrap() {
            let loads: Vec<u64> = (0..network.link_count())
                .filter(|&l| network.link_class(l) + 1 == class.axis)
                .map(|l| counted[l as usize])
                .collect();
            prop_assert_eq!(class.max, loads.iter().copied().max().unwrap());
            prop_assert_eq!(class.min, loads.iter().copied().min().unwrap());
        }
        prop_assert_eq!(t.node_load.max, 0, "host nodes forward nothing");
    }
}

/// `NETWORK*NODE`: leaves of one node are the node's distance apart, of
/// different nodes the network's distance plus the node's diameter; the
/// messages between nodes load the network's links, those within a node
/// none.
#[test]
fn networks_of_nodes_add_the_networks_distance_to_the_nodes() {
    let host = topology::parse("fattree:2;2,2;1,2;1,1*tleaf:2x2:10,1").unwrap();
    let (network, node) = (
        topology::parse("fattree:2;2,2;1,2;1,1").unwrap(),
        topology::parse("tleaf:2x2:10,1").unwrap(),
    );
    assert_eq!(host.node_count(), 16);
    for a in 0..16 {
        for b in 0..16 {
            let want = if a / 4 == b / 4 {
                node.distance(a % 4, b % 4)
            } else {
                network.distance(a / 4, b / 4) + 11
            };
            assert_eq!(host.distance(a, b), want, "{a} {b}");
        }
    }
    assert_eq!(host.diameter(), 4 + 11);
    assert_eq!(
        host.spec()
            .to_string()
            .parse::<topoembed::spec::Spec>()
            .unwrap(),
        *host.spec()
    );
    // A ring over the 16 leaves: 4 of its edges cross nodes, each over the
    // network's route between the two nodes.
    let guest = topology::parse("ring:16").unwrap();
    let place: Vec<u64> = (0..16).collect();
    let route = HostRoute::new(host.as_ref(), TieRule::Increasing);
    let t = traffic::measure(guest.as_ref(), host.as_ref(), &Table(place), &route, None).unwrap();
    let net = network.network().unwrap();
    let mut loads = vec![0u64; net.link_count() as usize];
    for (a, b) in [(0u64, 1u64), (1, 2), (2, 3), (0, 3)] {
        let mut links = Vec::new();
        net.route_links(a, b, &mut links);
        for l in links {
            loads[l as usize] += 1;
        }
    }
    assert_eq!(t.congestion.max, loads.iter().copied().max().unwrap());
    let busy: u64 = loads.iter().filter(|&&l| l > 0).count() as u64;
    let counted: u64 = t
        .congestion
        .histogram
        .iter()
        .filter(|(&l, _)| l > 0)
        .map(|(_, &c)| c)
        .sum();
    assert_eq!(busy, counted);
    // Bad forms.
    let err = |s: &str| topology::parse(s).err().unwrap().to_string();
    assert!(err("ring:4*ring:4*ring:4").contains("nodes of nodes"));
    assert!(err("cube:20*cube:10").contains("more than 2^24 leaves"));
}
