//! hwloc nodes (`hwloc:FILE.xml`): files written by hwloc's `lstopo`
//! (synthetic shapes: one and two packages, with and without NUMA and L3
//! levels, SMT on and off; this build machine's own file; an hwloc 1.x
//! file) read as the tleaf of their levels — the tree path between two
//! leaves, single-child levels merged — and NUMA latency matrices scale the
//! pairs that cross NUMA nodes. Malformed files name file, line and column.

use crate::common;
use std::path::PathBuf;

use topoembed::spec::Spec;
use topoembed::topology;

fn data(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/hwloc")
        .join(name);
    path.display().to_string()
}

/// `hwloc:FILE` (or `hwloc:cores:FILE`) against the tleaf it must equal.
#[test]
fn synthetic_nodes_are_the_tleaf_of_their_levels() {
    let cases = [
        ("", "one-pack-4-cores.xml", "tleaf:4:2"),
        ("", "two-pack-6-cores.xml", "tleaf:2x6:2,2"),
        ("", "two-pack-numa-smt.xml", "tleaf:2x2x4x2:2,2,2,2"),
        ("cores:", "two-pack-numa-smt.xml", "tleaf:2x2x4:2,2,2"),
        ("", "two-pack-l3-smt.xml", "tleaf:2x2x2x2:2,2,2,2"),
        ("cores:", "two-pack-l3-smt.xml", "tleaf:2x2x2:2,2,2"),
        ("", "one-numa-l3-8-cores.xml", "tleaf:8:2"),
    ];
    for (leaves, file, tleaf) in cases {
        let spec = format!("hwloc:{leaves}{}", data(file));
        let host = topology::parse(&spec).unwrap();
        let want = topology::parse(tleaf).unwrap();
        assert_eq!(host.node_count(), want.node_count(), "{spec}");
        assert_eq!(host.diameter(), want.diameter(), "{spec}");
        for a in 0..host.node_count() {
            for b in 0..host.node_count() {
                assert_eq!(host.distance(a, b), want.distance(a, b), "{spec}: {a} {b}");
            }
            assert_eq!(host.coords(a), want.coords(a), "{spec}: coordinates of {a}");
        }
        // Exported for Scotch as that tleaf.
        let mut tgt = Vec::new();
        topoembed::io::write_target(&spec.parse().unwrap(), &mut tgt).unwrap();
        let mut expected = Vec::new();
        let Spec::Tleaf(sizes, _) = tleaf.parse::<Spec>().unwrap() else {
            unreachable!()
        };
        let costs = vec![2; sizes.len()];
        topoembed::io::write_target(&Spec::Tleaf(sizes, costs), &mut expected).unwrap();
        assert_eq!(
            String::from_utf8(tgt).unwrap(),
            String::from_utf8(expected).unwrap()
        );
    }
}

/// NUMA latencies (hwloc 2.x `distances2`, 1.x `distances`) scale the
/// pairs in different NUMA nodes by the ratio of remote to local latency.
#[test]
fn numa_latencies_scale_the_pairs_across_numa_nodes() {
    // 2 packages x 2 NUMA groups x 4 cores x 2 PUs; latency 10 local, 16 to
    // the other group of the package, 32 to the other package.
    let host =
        topology::parse(&format!("hwloc:{}", data("two-pack-numa-smt-latency.xml"))).unwrap();
    assert_eq!(host.node_count(), 32);
    assert_eq!(host.distance(0, 1), 2, "same core");
    assert_eq!(host.distance(0, 2), 4, "same NUMA group");
    assert_eq!(host.distance(0, 8), 10, "other group: 6 x 16/10, rounded");
    assert_eq!(
        host.distance(0, 16),
        26,
        "other package: 8 x 32/10, rounded"
    );
    assert_eq!(host.distance(16, 0), 26);
    assert_eq!(host.diameter(), 26);
    // Not a tleaf any more: a decomposition-defined target.
    let mut tgt = Vec::new();
    topoembed::io::write_target(&host.spec().clone(), &mut tgt).unwrap();
    assert!(String::from_utf8(tgt).unwrap().starts_with("deco"));

    // hwloc 1.x: NUMANode objects inside the tree, latency_base x value.
    let old = topology::parse(&format!("hwloc:{}", data("hwloc1-two-numa.xml"))).unwrap();
    assert_eq!(old.node_count(), 8);
    assert_eq!(old.distance(0, 1), 2, "same core");
    assert_eq!(old.distance(0, 2), 4, "same L2");
    assert_eq!(
        old.distance(0, 4),
        13,
        "other NUMA node: 6 x 21/10, rounded"
    );
}

/// This build machine's file (I/O devices, L1i caches, a NUMA node
/// attached to the machine) and the machine itself through lstopo.
#[test]
fn real_machines_read() {
    let host = topology::parse(&format!("hwloc:{}", data("this-machine.xml"))).unwrap();
    assert_eq!(host.node_count(), 2);
    assert_eq!(host.distance(0, 1), 2);
    match topology::parse("hwloc:") {
        Ok(here) => {
            let xml = std::process::Command::new("lstopo-no-graphics")
                .args(["--of", "xml", "-"])
                .output()
                .or_else(|_| {
                    std::process::Command::new("lstopo")
                        .args(["--of", "xml", "-"])
                        .output()
                })
                .unwrap();
            let pus = String::from_utf8(xml.stdout)
                .unwrap()
                .matches("type=\"PU\"")
                .count();
            assert_eq!(here.node_count(), pus as u64);
        }
        Err(e) => assert!(e.to_string().contains("apt-get install hwloc"), "{e}"),
    }
}

#[test]
fn malformed_files_name_file_line_and_column() {
    let dir = common::temp_dir("hwloc");
    let good = std::fs::read_to_string(data("two-pack-6-cores.xml")).unwrap();
    let cases = [
        (good[..good.len() / 2].to_string(), ":"),
        ("<?xml version=\"1.0\"?>\n<platform/>\n".to_string(), ":2:1: the root element is <platform>"),
        ("<topology version=\"2.0\">\n</topology>\n".to_string(), ":1:1: the topology has no <object>"),
        (good.replace("type=\"PU\"", "type=\"Misc\""), "the topology has no PU objects"),
        (
            good.replace("</topology>", "<distances2 type=\"NUMANode\" nbobjs=\"2\" kind=\"5\" indexing=\"os\">\n<indexes length=\"2\">0 </indexes>\n<u64values length=\"4\">1 2</u64values></distances2></topology>"),
            "has 1 indexes and 2 values (want 2 and 4)",
        ),
    ];
    for (k, (text, words)) in cases.iter().enumerate() {
        let file = dir.join(format!("bad{k}.xml"));
        std::fs::write(&file, text).unwrap();
        let e = topology::parse(&format!("hwloc:{}", file.display()))
            .err()
            .unwrap()
            .to_string();
        assert!(e.starts_with(&format!("{}:", file.display())), "{e}");
        assert!(e.contains(words), "case {k}: {e}");
    }
    let e = topology::parse("hwloc:/no/such.xml")
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("/no/such.xml: cannot read"), "{e}");
}

#[test]
fn specs_print_back() {
    for text in ["hwloc:a.xml", "hwloc:cores:a.xml", "hwloc:", "hwloc:cores:"] {
        assert_eq!(text.parse::<Spec>().unwrap().to_string(), text);
    }
    assert_eq!(
        "hwloc:pus:a.xml".parse::<Spec>().unwrap().to_string(),
        "hwloc:a.xml"
    );
}
