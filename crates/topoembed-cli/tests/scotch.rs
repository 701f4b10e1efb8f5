//! Scotch interop through the binary: on the same .grf/.tgt/.map files,
//! topoembed's average dilation equals Scotch gmtst's CommDilat, for mappings
//! made by Scotch's gmap, by topoembed and at random. Needs Debian's `scotch`
//! package (installed by .ci/run).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::common;

fn topoembed(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_topoembed"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "topoembed {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn scotch(program: &str, args: &[&Path]) -> String {
    let out = Command::new(program).args(args).output().unwrap_or_else(|e| {
        panic!("cannot run {program} ({e}); install Debian's scotch package: apt-get install scotch")
    });
    assert!(
        out.status.success(),
        "{program}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap()
}

/// gmtst's "CommDilat=<average>\t(<total>)".
fn gmtst_dilation(grf: &Path, tgt: &Path, map: &Path) -> (f64, u128) {
    let text = scotch("gmtst", &[grf, tgt, map]);
    let line = text
        .lines()
        .find(|l| l.contains("CommDilat="))
        .expect("gmtst prints CommDilat");
    let rest = line.split("CommDilat=").nth(1).unwrap();
    let mut parts = rest.split_whitespace();
    let average = parts.next().unwrap().parse().unwrap();
    let total = parts
        .next()
        .unwrap()
        .trim_matches(['(', ')'])
        .parse()
        .unwrap();
    (average, total)
}

fn ours(grf: &Path, tgt: &Path, map: &Path) -> Value {
    let out = topoembed(&[
        "metrics",
        &format!("graph:{}", grf.display()),
        tgt.to_str().unwrap(),
        "--mapping",
        map.to_str().unwrap(),
        "--format",
        "json",
    ]);
    serde_json::from_str(&out).unwrap()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// A pseudo-random mapping of `n >= hosts` vertices onto all `hosts` nodes
/// (a permutation of the hosts for the first vertices, then random), vertex
/// labels from `base`. It uses every target because gmtst renumbers the
/// targets a mapping uses to 0, 1, .. in order before measuring (Scotch
/// 7.0.3: vertices on targets 0, 8, 16 of torus2D 8 8 in a path 0-16-8 get
/// dilation 3, not 2 + 1... of targets 0, 1, 2), so on a mapping that leaves
/// targets idle its CommDilat is that of another mapping.
fn random_map(n: u64, hosts: u64, base: u64, mut seed: u64) -> String {
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        seed >> 33
    };
    let mut targets: Vec<u64> = (0..hosts).collect();
    for i in (1..targets.len()).rev() {
        targets.swap(i, (next() % (i as u64 + 1)) as usize);
    }
    let mut text = format!("{n}\n");
    for v in 0..n {
        let target = if v < hosts {
            targets[v as usize]
        } else {
            next() % hosts
        };
        text += &format!("{}\t{target}\n", v + base);
    }
    text
}

#[test]
fn average_dilation_equals_gmtst_comm_dilat() {
    let dir = common::temp_dir("scotch");
    let cases = [
        ("cube:6", "torus:8x8", 0, vec!["xor", "standard", "gray"]),
        ("cube:6", "ring:64", 1, vec!["xor", "byweight"]),
        ("cube:5", "cube:5", 0, vec!["identity"]),
        ("mesh:4x6", "ring:24", 1, vec![]),
        ("torus:4x4", "mesh:2x8", 0, vec![]),
        ("bintree:8", "line:15", 0, vec!["identity"]),
        ("cube:6", "torus:4x4", 1, vec![]),
        ("cube:8", "cube:4", 0, vec![]),
    ];
    let mut compared = 0;
    for (k, (guest, host, base, methods)) in cases.iter().enumerate() {
        let base_arg = base.to_string();
        let grf = write(
            &dir,
            &format!("g{k}.grf"),
            &topoembed(&["export", guest, "--format", "grf", "--base", &base_arg]),
        );
        let tgt = write(
            &dir,
            &format!("t{k}.tgt"),
            &topoembed(&["export", host, "--format", "tgt"]),
        );
        let n = topoembed(&["export", guest, "--format", "grf"])
            .lines()
            .nth(1)
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap()
            .parse::<u64>()
            .unwrap();
        let hosts: u64 = serde_json::from_str::<Value>(&topoembed(&[
            "metrics",
            host,
            host,
            "-m",
            "identity",
            "--format",
            "json",
            "--no-traffic",
        ]))
        .unwrap()["host_nodes"]
            .as_u64()
            .unwrap();
        let mut maps = Vec::new();
        // Scotch's own mapper.
        let gmap = dir.join(format!("gmap{k}.map"));
        scotch("scotch_gmap", &[&grf, &tgt, &gmap]);
        maps.push(gmap);
        // Ours (base-0 labels only: our maps number guest nodes from 0).
        if *base == 0 {
            for m in methods {
                let text = topoembed(&["embed", guest, host, "-m", m, "--format", "scotch-map"]);
                maps.push(write(&dir, &format!("{m}{k}.map"), &text));
            }
        }
        for seed in 1..=3u64 {
            maps.push(write(
                &dir,
                &format!("r{k}_{seed}.map"),
                &random_map(n, hosts, *base, seed * 977 + k as u64),
            ));
        }
        for map in maps {
            let (average, total) = gmtst_dilation(&grf, &tgt, &map);
            let m = ours(&grf, &tgt, &map);
            let what = format!("{guest} -> {host}, {}", map.display());
            assert_eq!(
                m["dilation"]["total"].as_u64().unwrap() as u128,
                total,
                "{what}: total dilation"
            );
            let ours_average = m["dilation"]["average"].as_f64().unwrap();
            assert!(
                (ours_average - average).abs() < 1e-6,
                "{what}: {ours_average} vs gmtst {average}"
            );
            compared += 1;
        }
    }
    assert!(compared >= 25, "only {compared} mappings compared");
}

/// gmtst's "CommExpan=<average>\t(<total>)": Σ weight × distance.
fn gmtst_expansion(grf: &Path, tgt: &Path, map: &Path) -> u128 {
    let text = scotch("gmtst", &[grf, tgt, map]);
    let line = text
        .lines()
        .find(|l| l.contains("CommExpan="))
        .expect("gmtst prints CommExpan");
    let total = line.rsplit('(').next().unwrap().trim_end_matches(')');
    total.trim().parse().unwrap()
}

/// tleaf targets read from Scotch's own syntax measure as gmtst does
/// (distances summed level by level: `tleaf 3 8 100 8 10 4 1` gives 1, 11,
/// 111), and hop-bytes of a weighted graph equals gmtst's CommExpan total.
#[test]
fn tleaf_distances_and_hop_bytes_equal_gmtst() {
    let dir = common::temp_dir("tleaf");
    // Vertex v on leaf v of all 256 (gmtst renumbers unused targets); edges
    // part at the socket, node and machine levels.
    let tgt = write(&dir, "h.tgt", "tleaf 3 8 100 8 10 4 1\n");
    let mut grf = String::from("0\n256 6\n0 000\n");
    for v in 0..256 {
        grf += match v {
            0 => "3 1 4 32\n",
            1 | 4 | 32 => "1 0\n",
            _ => "0\n",
        };
    }
    let grf = write(&dir, "three.grf", &grf);
    let identity: String = (0..256).map(|v| format!("{v} {v}\n")).collect();
    let map = write(&dir, "id.map", &format!("256\n{identity}"));
    let (_, total) = gmtst_dilation(&grf, &tgt, &map);
    assert_eq!(total, 123);
    let m = ours(&grf, &tgt, &map);
    assert_eq!(m["host"], "tleaf:8x8x4:100,10,1");
    assert_eq!(m["dilation"]["total"].as_u64(), Some(123));
    assert_eq!(m["dilation"]["spectrum"]["111"].as_u64(), Some(1));

    // KaHIP's weighted example through gcv, on a two-level hierarchy, at random.
    let metis = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../topoembed/tests/data/example_weighted.graph");
    let weighted = dir.join("w.grf");
    scotch("gcv", &[Path::new("-ic"), &metis, &weighted]);
    let tgt = write(&dir, "h2.tgt", "tleaf 2 16 10 8 1\n");
    for seed in 1..=3 {
        let map = write(&dir, "w.map", &random_map(132, 128, 1, seed));
        let m = ours(&weighted, &tgt, &map);
        assert_eq!(
            m["hop_bytes"].as_u64().map(u128::from),
            Some(gmtst_expansion(&weighted, &tgt, &map)),
            "seed {seed}"
        );
    }
}

/// Exports `guest` as a graph and `host` as a target (its text must start
/// with `starts`), maps with scotch_gmap and at random, and holds gmtst's
/// total dilation of each mapping to topoembed's on every spec of `ours`
/// (the target file's path stands for itself).
fn assert_gmtst_agrees(dir: &Path, k: usize, guest: &str, host: &str, starts: &str, ours: &[&str]) {
    let grf = write(
        dir,
        &format!("g{k}.grf"),
        &topoembed(&["export", guest, "--format", "grf"]),
    );
    let text = topoembed(&["export", host, "--format", "tgt"]);
    assert!(text.starts_with(starts), "{host}: {text}");
    let tgt = write(dir, &format!("t{k}.tgt"), &text);
    let count = |s: &str| {
        s.parse::<topoembed::spec::Spec>()
            .unwrap()
            .node_count()
            .unwrap()
    };
    let (n, hosts) = (count(guest), count(host));
    let gmap = dir.join(format!("gmap{k}.map"));
    scotch("scotch_gmap", &[&grf, &tgt, &gmap]);
    let mut maps = vec![gmap];
    for seed in 1..=2u64 {
        maps.push(write(
            dir,
            &format!("r{k}_{seed}.map"),
            &random_map(n, hosts, 0, seed * 31 + k as u64),
        ));
    }
    for map in maps {
        let (_, total) = gmtst_dilation(&grf, &tgt, &map);
        for &on in ours {
            let on = if on == "TGT" {
                tgt.to_str().unwrap()
            } else {
                on
            };
            let m: Value = serde_json::from_str(&topoembed(&[
                "metrics",
                &format!("graph:{}", grf.display()),
                on,
                "--mapping",
                map.to_str().unwrap(),
                "--format",
                "json",
            ]))
            .unwrap();
            assert_eq!(
                m["dilation"]["total"].as_u64().map(u128::from),
                Some(total),
                "{guest} -> {on}, {}",
                map.display()
            );
        }
    }
}

/// Fat trees exported as Scotch targets (a tleaf of the children counts,
/// 2 links a level) measure in gmtst as the hosts themselves do in
/// topoembed: total dilation of Scotch's mapping and of random ones.
/// (Dragonflies are `deco` targets, which Debian's Scotch 7.0.3 misreads:
/// `archDecoDomTerm` resolves terminal number k to domain k − 1, so gmtst
/// measures two terminals 5 apart as 3 — `tests/hosts/scotch_io.rs` checks
/// those files entry by entry instead.)
#[test]
fn fat_tree_targets_measure_as_the_hosts() {
    let dir = common::temp_dir("networks");
    let cases = [
        ("mesh:6x6", "fattree:2;4,4;1,2;1,2"),
        ("torus:4x6", "fattree:3;2,3,4;1,2,2;1,1,2"),
        ("mesh:8x9", "fattree:3;3,4,6;2,2,1;1,2,1"),
    ];
    for (k, (guest, host)) in cases.iter().enumerate() {
        assert_gmtst_agrees(&dir, k, guest, host, "tleaf", &[host]);
    }
}

/// Allocations are written as Scotch `sub` targets (the kept terminals,
/// then the whole host), read back as the same allocation, and gmtst
/// measures a mapping onto them as topoembed measures the allocation.
#[test]
fn allocations_round_trip_as_sub_targets_and_measure_as_gmtst() {
    let dir = common::temp_dir("sub");
    let cases = [
        ("mesh:2x3", "torus:4x4@0,5,10,15,3,12"),
        ("torus:4x6", "torus:8x8x8@0-7,64-71,300-307"),
        ("ring:12", "tleaf:4x8x8:100,10,1@0-3,64-67,200-203"),
        (
            "cube:4",
            "mesh:8x8@63,0,7,56,9,14,49,54,18,21,42,45,27,28,35,36",
        ),
    ];
    for (k, (guest, host)) in cases.iter().enumerate() {
        assert_gmtst_agrees(&dir, k, guest, host, "sub\t", &[host, "TGT"]);
        let read: Value = serde_json::from_str(&topoembed(&[
            "metrics",
            guest,
            dir.join(format!("t{k}.tgt")).to_str().unwrap(),
            "-m",
            "identity",
            "--format",
            "json",
            "--no-traffic",
        ]))
        .unwrap();
        assert_eq!(
            read["host"]
                .as_str()
                .unwrap()
                .parse::<topoembed::spec::Spec>()
                .unwrap(),
            host.parse::<topoembed::spec::Spec>().unwrap(),
            "{host} read back"
        );
    }
}
