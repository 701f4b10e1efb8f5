//! Allocations (`HOST@NODES`): a job's nodes of a machine keep the whole
//! machine's distances (checked against BFS on the explicit host) and its
//! routes (congestion on the allocation = congestion of the same placement
//! on the whole host), maps onto them are bijections onto their nodes, and
//! bad lists are refused with the id that is wrong.

use crate::common;

use common::Table;

use proptest::prelude::*;
use topoembed::metrics::{self, Options};
use topoembed::routing::{HostRoute, TieRule};
use topoembed::spec::Spec;
use topoembed::topology;
use topoembed::traffic;

/// 24 scattered nodes of torus:8x8x8 (a job's allocation).
fn scattered() -> Vec<u64> {
    (0..24u64).map(|k| (k * 167 + 11) % 512).collect()
}

#[test]
fn an_allocation_keeps_the_whole_hosts_distances() {
    let nodes = scattered();
    let list: Vec<String> = nodes.iter().map(u64::to_string).collect();
    let spec = format!("torus:8x8x8@{}", list.join(","));
    let host = topology::parse(&spec).unwrap();
    assert_eq!(host.node_count(), 24);
    let whole: Spec = "torus:8x8x8".parse().unwrap();
    let (n, edges) = common::explicit_edges(&whole);
    let adj = common::adjacency(n, &edges);
    let mut longest = 0;
    for i in 0..24u64 {
        let bfs = common::bfs(&adj, nodes[i as usize]);
        for j in 0..24u64 {
            let d = u64::from(bfs[nodes[j as usize] as usize]);
            assert_eq!(host.distance(i, j), d, "{i} {j}");
            longest = longest.max(d);
        }
        assert_eq!(
            host.coords(i),
            topology::parse("torus:8x8x8")
                .unwrap()
                .coords(nodes[i as usize])
        );
    }
    assert_eq!(host.diameter(), longest);
    // Printed back in its shortest form.
    assert_eq!(
        "torus:8x8x8@0-3,7,5".parse::<Spec>().unwrap().to_string(),
        "torus:8x8x8@0-3,7,5"
    );
}

#[test]
fn allocation_files_are_read_with_comments() {
    let dir = common::temp_dir("alloc");
    let file = dir.join("nodes.txt");
    std::fs::write(&file, "# my job\n7 3\n12   # last\n").unwrap();
    let host = topology::parse(&format!("ring:16@{}", file.display())).unwrap();
    assert_eq!(host.node_count(), 3);
    assert_eq!(host.distance(0, 1), 4);
    assert_eq!(host.distance(0, 2), 5);
    std::fs::write(&file, "7 x\n").unwrap();
    let e = topology::parse(&format!("ring:16@{}", file.display()))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("nodes.txt:1: 'x' is not a host node id"), "{e}");
    std::fs::write(&file, "# nothing\n").unwrap();
    let e = topology::parse(&format!("ring:16@{}", file.display()))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("names no host nodes"), "{e}");
}

#[test]
fn bad_allocations_name_the_bad_id() {
    let err = |s: &str| topology::parse(s).err().unwrap().to_string();
    assert!(err("torus:8x8x8@0-15,512").contains("node 512 is outside the host"));
    assert!(err("torus:8x8x8@0-15,3").contains("host node 3 is listed twice"));
    assert!(err("ring:8@3").contains("at least 2 nodes"));
    assert!(err("ring:8@").contains("names no nodes"));
    assert!(err("ring:8@5-2").contains("backwards"));
    assert!(err("ring:8@0-3@1").contains("allocation of an allocation"));
    assert!(err("ring:8@/no/such/file").contains("cannot read"));
    assert!(err("ring:q@0-3").contains("'q' is not a size"));
}

#[test]
fn a_map_onto_an_allocation_is_a_bijection_onto_its_nodes() {
    use topoembed::mapper::{map, MapOptions};
    let guest = topology::parse("torus:4x6").unwrap();
    let list: Vec<String> = scattered().iter().map(u64::to_string).collect();
    let host = topology::parse(&format!("torus:8x8x8@{}", list.join(","))).unwrap();
    let result = map(guest.as_ref(), host.as_ref(), &MapOptions::default()).unwrap();
    let mut used: Vec<u64> = result.hosts().to_vec();
    used.sort_unstable();
    assert_eq!(used, (0..24).collect::<Vec<_>>());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Congestion and link loads on an allocation are those of the same
    /// placement on the whole host: routes leave the allocation freely.
    #[test]
    fn congestion_on_an_allocation_is_the_whole_hosts(
        host in prop::sample::select(vec!["torus:4x4x4", "mesh:6x5", "cube:6", "fattree:2;4,4;1,2;1,2", "dragonfly:3,1;2,1;3,1;2"]),
        guest in prop::sample::select(vec!["ring:10", "torus:3x4", "mesh:2x6", "bintree:8"]),
        seed in any::<u64>(),
    ) {
        let whole = topology::parse(host).unwrap();
        let g = topology::parse(guest).unwrap();
        let n = whole.node_count();
        // A random allocation of as many nodes as the guest has.
        let mut state = seed | 1;
        let mut next = || { state ^= state << 13; state ^= state >> 7; state ^= state << 17; state };
        let mut pool: Vec<u64> = (0..n).collect();
        for i in (1..pool.len()).rev() {
            pool.swap(i, (next() % (i as u64 + 1)) as usize);
        }
        let k = g.node_count().min(n) as usize;
        let nodes = &pool[..k];
        let list: Vec<String> = nodes.iter().map(u64::to_string).collect();
        let alloc = topology::parse(&format!("{host}@{}", list.join(","))).unwrap();
        let place: Vec<u64> = (0..g.node_count()).map(|_| next() % k as u64).collect();
        let on_whole: Vec<u64> = place.iter().map(|&a| nodes[a as usize]).collect();
        let route_a = HostRoute::new(alloc.as_ref(), TieRule::Increasing);
        let route_w = HostRoute::new(whole.as_ref(), TieRule::Increasing);
        let a = traffic::measure(g.as_ref(), alloc.as_ref(), &Table(place.clone()), &route_a, None).unwrap();
        let w = traffic::measure(g.as_ref(), whole.as_ref(), &Table(on_whole.clone()), &route_w, None).unwrap();
        prop_assert_eq!(a.congestion.max, w.congestion.max);
        let busy = |t: &traffic::Traffic| t.congestion.histogram.iter().filter(|(&l, _)| l > 0).map(|(&l, &c)| (l, c)).collect::<Vec<_>>();
        prop_assert_eq!(busy(&a), busy(&w));
        // Hop-bytes too, through the metrics.
        let opts = Options::default();
        let ma = metrics::measure(g.as_ref(), alloc.as_ref(), &Table(place), &opts).unwrap();
        let mw = metrics::measure(g.as_ref(), whole.as_ref(), &Table(on_whole), &opts).unwrap();
        prop_assert_eq!(ma.dilation.total, mw.dilation.total);
    }
}
