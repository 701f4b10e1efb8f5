//! Slurm topologies as hosts (`slurm:topology.conf`, `slurm:topology.yaml`):
//! the tree, block and ring examples of Slurm's own manual pages
//! (`topology.conf(5)`, `topology.yaml(5)`, in tests/data/slurm) read with
//! the distances the module docs of `io::slurm` state; hostlists expand as
//! Slurm's documentation says; allocations list nodes by name; bad files
//! are one clear line.

use crate::common;
use std::path::PathBuf;

use topoembed::io::expand_hostlist;
use topoembed::topology;

fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/slurm")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn the_manuals_tree_is_two_links_to_the_leaf_switch_and_two_more_per_level() {
    // s0: dev[0-5], s1: dev[6-11], s2: dev[12-17], s3 above them.
    let host = topology::parse(&format!("slurm:{}", data("tree.conf"))).unwrap();
    assert_eq!(host.node_count(), 18);
    assert_eq!(host.distance(0, 5), 2, "dev0, dev5 under s0");
    assert_eq!(
        host.distance(0, 6),
        4,
        "dev0 under s0, dev6 under s1: through s3"
    );
    assert_eq!(host.distance(17, 12), 2);
    assert_eq!(host.diameter(), 4);
    // The yaml manual's tree: sw_root over s1 (node[01-02]) and s2 (node[03-04]).
    let yaml = topology::parse(&format!("slurm:{}", data("topology.yaml"))).unwrap();
    assert_eq!(yaml.node_count(), 4, "the cluster default, topo1");
    assert_eq!((yaml.distance(0, 1), yaml.distance(1, 2)), (2, 4));
}

#[test]
fn blocks_are_levels_of_contiguous_blocks() {
    // Four blocks of 32, BlockSizes=30,120: one level above the blocks
    // holds all four.
    let host = topology::parse(&format!("slurm:{}", data("block.conf"))).unwrap();
    assert_eq!(host.node_count(), 128);
    assert_eq!(host.distance(0, 31), 2, "node1, node32: block1");
    assert_eq!(host.distance(0, 32), 4, "block1, block2: one level-1 block");
    assert_eq!(host.distance(0, 127), 4);
    assert_eq!(host.diameter(), 4);
    // The yaml manual's blocks: block_sizes 4, 16 over four blocks of 4.
    let yaml = topology::parse(&format!("slurm:{}#topo2", data("topology.yaml"))).unwrap();
    assert_eq!(yaml.node_count(), 16);
    assert_eq!(
        (
            yaml.distance(0, 3),
            yaml.distance(0, 4),
            yaml.distance(0, 15)
        ),
        (2, 4, 4)
    );
    // Without BlockSizes: aggregates of 2, then the whole cluster.
    let dir = common::temp_dir("slurm");
    let file = dir.join("blocks.conf");
    let text = std::fs::read_to_string(data("block.conf")).unwrap();
    std::fs::write(&file, text.replace("BlockSizes=30,120", "")).unwrap();
    let plain = topology::parse(&format!("slurm:{}", file.display())).unwrap();
    assert_eq!((plain.distance(0, 32), plain.distance(0, 64)), (4, 6));
}

#[test]
fn rings_are_the_shorter_way_round() {
    let host = topology::parse(&format!("slurm:{}", data("ring.conf"))).unwrap();
    assert_eq!(host.node_count(), 16);
    assert_eq!(
        host.distance(0, 4),
        4,
        "node01, node05: half way round ring0"
    );
    assert_eq!(
        host.distance(0, 7),
        1,
        "node01, node08: neighbours round the wrap"
    );
    assert_eq!(
        host.distance(0, 8),
        5,
        "another ring: one more than half the longest"
    );
    assert_eq!(host.diameter(), 5);
}

#[test]
fn yaml_rings_read_as_the_conf_rings() {
    let conf = topology::parse(&format!("slurm:{}", data("ring.conf"))).unwrap();
    let yaml = topology::parse(&format!("slurm:{}#rings", data("ring-torus.yaml"))).unwrap();
    assert_eq!(yaml.node_count(), 16);
    assert_eq!(yaml.node_names(), conf.node_names());
    for a in 0..16 {
        for b in 0..16 {
            assert_eq!(yaml.distance(a, b), conf.distance(a, b), "{a} {b}");
        }
    }
    // No name: the cluster default is the rings.
    let default = topology::parse(&format!("slurm:{}", data("ring-torus.yaml"))).unwrap();
    assert_eq!(default.node_count(), 16);
}

#[test]
fn a_whole_torus3d_is_the_torus_of_its_dims() {
    let host = topology::parse(&format!("slurm:{}#cube", data("ring-torus.yaml"))).unwrap();
    let torus = topology::parse("torus:4x2x2").unwrap();
    assert_eq!(host.node_count(), 16);
    assert_eq!(host.diameter(), torus.diameter());
    // Slurm's node k is at x = k mod 4, y = k / 4 mod 2, z = k / 8: the
    // numbering of topoembed's grids (first axis fastest), so node k is
    // torus node k.
    for a in 0..16 {
        for b in 0..16 {
            assert_eq!(host.distance(a, b), torus.distance(a, b), "{a} {b}");
        }
    }
    assert_eq!(host.distance(0, 2), 2, "node01, node03: two steps along x");
    assert_eq!(host.distance(0, 3), 1, "node01, node04: round the x wrap");
    assert_eq!(host.distance(0, 15), 1 + 1 + 1, "node16 at (3,1,1)");
}

#[test]
fn torus3d_regions_keep_the_whole_torus_distances() {
    let host = topology::parse(&format!("slurm:{}#regions", data("ring-torus.yaml"))).unwrap();
    let names = host.node_names().unwrap();
    assert_eq!(host.node_count(), 12);
    assert_eq!((names[0].as_str(), names[8].as_str()), ("a0", "b0"));
    // a7 at (1,1,1); b0 at (4,7,7), b3 at (7,7,7).
    assert_eq!(host.distance(7, 8), 3 + 2 + 2);
    assert_eq!(host.distance(0, 11), 1 + 1 + 1, "a0 to b3 round every wrap");
    // The farthest present pair, by brute force over the 8x8x8 torus.
    let torus = topology::parse("torus:8x8x8").unwrap();
    let place = |p: [u64; 3]| p[0] + p[1] * 8 + p[2] * 64;
    let mut places: Vec<u64> = (0..8).map(|k| place([k % 2, k / 2 % 2, k / 4])).collect();
    places.extend((4..8).map(|x| place([x, 7, 7])));
    let far = (0..12)
        .flat_map(|a| (0..12).map(move |b| (a, b)))
        .map(|(a, b)| torus.distance(places[a], places[b]))
        .max()
        .unwrap();
    assert_eq!(host.diameter(), far);
    for a in 0..12 {
        for b in 0..12 {
            assert_eq!(
                host.distance(a as u64, b as u64),
                torus.distance(places[a], places[b])
            );
        }
    }
}

#[test]
fn separate_toruses_are_one_past_the_widest() {
    let host = topology::parse(&format!("slurm:{}#two", data("ring-torus.yaml"))).unwrap();
    assert_eq!(host.node_count(), 11);
    assert_eq!(host.distance(0, 2), 1, "l0, l2 round a 3-ring");
    assert_eq!(host.distance(3, 10), 3, "r0, r7 corners of a 2x2x2");
    assert_eq!(
        host.distance(0, 3),
        4,
        "one more than the 2x2x2's diameter 3"
    );
    assert_eq!(host.diameter(), 4);
}

#[test]
fn hostlists_expand_as_slurms_documentation_says() {
    let names = expand_hostlist("tux[0-3,12,18-20]").unwrap();
    assert_eq!(
        names,
        ["tux0", "tux1", "tux2", "tux3", "tux12", "tux18", "tux19", "tux20"]
    );
    let switches = expand_hostlist("s[0-2,4-8,12]").unwrap();
    assert_eq!(switches.len(), 9);
    assert_eq!(switches.last().map(String::as_str), Some("s12"));
    let padded = expand_hostlist("node[01-08]").unwrap();
    assert_eq!(
        (padded[0].as_str(), padded[7].as_str()),
        ("node01", "node08")
    );
    let mixed = expand_hostlist("linux[1-2],tux[3-5]").unwrap();
    assert_eq!(mixed, ["linux1", "linux2", "tux3", "tux4", "tux5"]);
    let racks = expand_hostlist("r[1-2]n[1-2]").unwrap();
    assert_eq!(racks, ["r1n1", "r1n2", "r2n1", "r2n2"]);
}

#[test]
fn allocations_list_slurm_nodes_by_name() {
    let spec = format!("slurm:{}@dev[4-7]", data("tree.conf"));
    let host = topology::parse(&spec).unwrap();
    assert_eq!(host.node_count(), 4);
    assert_eq!(
        (host.distance(0, 1), host.distance(1, 2)),
        (2, 4),
        "dev4-dev5 under s0, dev5-dev6 not"
    );
    let e = topology::parse(&format!("slurm:{}@dev[17-18]", data("tree.conf")))
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("node dev18 of the allocation is not in the topology"),
        "{e}"
    );
}

#[test]
fn bad_files_are_one_clear_line() {
    let dir = common::temp_dir("slurm-bad");
    let cases = [
        (
            "a.conf",
            "SwitchName=s0 Nodes=n[0-1]\nSwitchName=s1 Switches=s[0,9]\n",
            ":2: switch s1 names switch s9, which no line defines",
        ),
        (
            "b.conf",
            "SwitchName=s0 Nodes=n[0-1]\nBlockName=b Nodes=m[0-1]\n",
            ":2: mixes the tree and block plugins' lines",
        ),
        (
            "c.conf",
            "SwitchName=s0 Nodes=n[0-1]\nSwitchName=s0 Nodes=n[2-3]\n",
            ":2: 's0' is defined twice (first on line 1)",
        ),
        (
            "d.conf",
            "BlockName=a Nodes=n[0-3]\nBlockName=b Nodes=n[3-5]\n",
            ":2: node n3 is in two blocks",
        ),
        (
            "e.conf",
            "BlockName=a Nodes=n[0-3]\nBlockSizes=4,12\n",
            ":2: block size 12 is not the base size 4 times a power of two",
        ),
        (
            "f.conf",
            "SwitchName=s0 Nodes=n[0-1]\nSwitchName=s1 Nodes=n[2-3]\n",
            "switches s0 and s1 are in separate fabrics",
        ),
        (
            "g.conf",
            "SwitchName=s0 Nodes=n[0-1] Speed=1\n",
            ":1: unknown key 'Speed'",
        ),
        (
            "h.conf",
            "SwitchName=s0 Nodes=n[0-1\n",
            ":1: 'n[0-1': '[' without ']'",
        ),
        (
            "i.yaml",
            "- topology: t\n  tree:\n    switches: [a\n",
            "not YAML",
        ),
        ("j.yaml", "- topology: t\n  flat: true\n", "t is flat"),
        ("k.conf", "# nothing\n", "defines no switch, block or ring"),
        (
            "l.yaml",
            "- topology: t\n  torus3d:\n    toruses:\n      - name: a\n        dims: {x: 2, y: 2, z: 2}\n        nodes: n[0-6]\n",
            "torus a is 2x2x2 = 8 places but lists 7 nodes",
        ),
        (
            "m.yaml",
            "- topology: t\n  torus3d:\n    toruses:\n      - name: a\n        dims: {x: 2, y: 0, z: 2}\n        nodes: n[0-6]\n",
            "torus a: 'dims' needs y: a whole number from 1 to 65535",
        ),
        (
            "n.yaml",
            "- topology: t\n  torus3d:\n    toruses:\n      - name: a\n        dims: {x: 4, y: 1, z: 1}\n        regions:\n          - anchor: {x: 0}\n            dims: {x: 2, y: 1, z: 1}\n            nodes: n[0-1]\n          - anchor: {x: 1}\n            dims: {x: 2, y: 1, z: 1}\n            nodes: m[0-1]\n",
            "torus a: regions overlap at [1, 0, 0]",
        ),
        (
            "o.yaml",
            "- topology: t\n  torus3d:\n    toruses:\n      - name: a\n        dims: {x: 4, y: 1, z: 1}\n        regions:\n          - anchor: {x: 3}\n            dims: {x: 2, y: 1, z: 1}\n            nodes: n[0-1]\n",
            "leaves the torus",
        ),
        (
            "p.yaml",
            "- topology: t\n  torus3d:\n    toruses:\n      - name: a\n        dims: {x: 2, y: 1, z: 1}\n        nodes: n[0-1]\n      - name: b\n        dims: {x: 2, y: 1, z: 1}\n        nodes: n[1-2]\n",
            "node n1 is in two places",
        ),
        (
            "q.yaml",
            "- topology: t\n  torus3d:\n    toruses:\n      - name: a\n        dims: {x: 2, y: 1, z: 1}\n",
            "torus a lists neither 'nodes' nor 'regions'",
        ),
        (
            "r.yaml",
            "- topology: t\n  ring:\n    rings:\n      - nodes: n[0-3]\n",
            "a ring without 'ring: NAME'",
        ),
    ];
    for (name, text, words) in cases {
        let file = dir.join(name);
        std::fs::write(&file, text).unwrap();
        let e = topology::parse(&format!("slurm:{}", file.display()))
            .err()
            .unwrap()
            .to_string();
        assert!(e.starts_with(&file.display().to_string()), "{e}");
        assert!(e.contains(words), "{name}: {e}");
        assert!(!e.contains('\n'), "{name}: one line: {e}");
    }
    let e = topology::parse(&format!("slurm:{}#topo9", data("topology.yaml")))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("no topology named 'topo9'"), "{e}");
}
