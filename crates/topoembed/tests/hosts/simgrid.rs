//! The SimGrid platforms `export --format simgrid` writes, checked by
//! SimGrid itself: `tests/data/simgrid/ping.c`, compiled with `smpicc` and
//! run by `smpirun` on the platform with the hostfile `map --format seq`
//! writes, times a round trip from rank 0 to every rank; on a platform
//! whose host i is topoembed's node i, each round trip is the distance
//! from node 0 times the round trip to a neighbour. Again with ranks
//! scattered by a permutation through the hostfile `map --format
//! smpi-hostfile` writes: the round trip from rank 0 to rank p is then the
//! distance between their host nodes. Skipped where SimGrid
//! is not installed (CI installs it and sets TOPOEMBED_REQUIRE_SIMGRID).

use std::path::Path;

use crate::common;
use std::process::Command;

use topoembed::io::{write_launch, write_smpi_hostfile, LaunchFormat, Slots};
use topoembed::topology;

#[test]
fn simgrid_routes_the_exported_hosts_as_topoembed_measures_them() {
    let dir = common::temp_dir("simgrid");
    let ping = dir.join("ping");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/simgrid/ping.c");
    let built = Command::new("smpicc")
        .arg(&source)
        .arg("-o")
        .arg(&ping)
        .output();
    if !built.as_ref().is_ok_and(|o| o.status.success()) {
        assert!(
            std::env::var_os("TOPOEMBED_REQUIRE_SIMGRID").is_none(),
            "smpicc is not installed or failed: {built:?}"
        );
        return;
    }
    for spec in [
        "torus:4x4",
        "cube:3",
        "ring:8",
        "torus:2x2x4",
        "mesh:4x4",
        "line:6",
        "grid:4wx3",
        // Over 256 hosts: links only, SimGrid's own shortest paths.
        "mesh:17x16",
    ] {
        let host = topology::parse(spec).unwrap();
        let n = host.node_count();
        let platform = common::simgrid_platform(&dir, spec);
        // Rank r on host node r, the hostfile as `map --format seq` writes
        // it; then rank r on host node (5r + 3) mod n, as `map --format
        // smpi-hostfile` writes it.
        let identity: Vec<u64> = (0..n).collect();
        let scattered: Vec<u64> = (0..n).map(|r| (5 * r + 3) % n).collect();
        for placement in [&identity, &scattered] {
            let hostfile = dir.join("hosts");
            let mut lines = Vec::new();
            if placement == &identity {
                let slots = Slots::from_hostlist(&format!("node-[0-{}]", n - 1), 1).unwrap();
                write_launch(LaunchFormat::Seq, placement, &slots, &mut lines).unwrap();
            } else {
                write_smpi_hostfile(placement, "node-", &mut lines).unwrap();
            }
            std::fs::write(&hostfile, lines).unwrap();
            let times = round_trips(&ping, &platform, &hostfile, n, spec);
            let at = |rank: u64| placement[rank as usize];
            let hop = times
                .iter()
                .filter(|&&(peer, _)| host.distance(at(0), at(peer)) == 1)
                .map(|&(_, t)| t)
                .fold(f64::INFINITY, f64::min);
            for (peer, t) in times {
                let hops = (t / hop).round() as u64;
                assert_eq!(
                    hops,
                    host.distance(at(0), at(peer)),
                    "{spec}: rank {peer}, {t} s"
                );
            }
        }
    }
}

/// SimGrid's round trip from rank 0 to each other rank: (rank, seconds).
fn round_trips(
    ping: &Path,
    platform: &Path,
    hostfile: &Path,
    n: u64,
    spec: &str,
) -> Vec<(u64, f64)> {
    let output = Command::new("smpirun")
        .arg("-np")
        .arg(n.to_string())
        .arg("-platform")
        .arg(platform)
        .arg("-hostfile")
        .arg(hostfile)
        .arg("--log=root.thres:critical")
        .arg(ping)
        .output()
        .unwrap();
    assert!(output.status.success(), "{spec}: {output:?}");
    let times: Vec<(u64, f64)> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let (peer, t) = l.split_once(' ').unwrap();
            (peer.parse().unwrap(), t.parse().unwrap())
        })
        .collect();
    assert_eq!(times.len() as u64, n - 1, "{spec}");
    times
}
