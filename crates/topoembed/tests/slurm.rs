//! Slurm topologies as hosts (`slurm:topology.conf`, `slurm:topology.yaml`):
//! the tree, block and ring examples of Slurm's own manual pages
//! (`topology.conf(5)`, `topology.yaml(5)`, in tests/data/slurm) read with
//! the distances the module docs of `io::slurm` state; hostlists expand as
//! Slurm's documentation says; allocations list nodes by name; bad files
//! are one clear line.

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
    let dir = std::env::temp_dir().join(format!("topoembed-slurm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("blocks.conf");
    let text = std::fs::read_to_string(data("block.conf")).unwrap();
    std::fs::write(&file, text.replace("BlockSizes=30,120", "")).unwrap();
    let plain = topology::parse(&format!("slurm:{}", file.display())).unwrap();
    assert_eq!((plain.distance(0, 32), plain.distance(0, 64)), (4, 6));
    std::fs::remove_dir_all(&dir).ok();
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
    let dir = std::env::temp_dir().join(format!("topoembed-slurm-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
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
    std::fs::remove_dir_all(&dir).ok();
}
