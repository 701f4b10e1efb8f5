//! Any text: the Slurm topology readers (topology.conf and topology.yaml)
//! return a cluster or an error, never panic; a cluster they return has
//! symmetric distances, 0 only on the diagonal.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::Path;
use topoembed::io::parse_slurm;
use topoembed::spec::Spec;
use topoembed::topology::{Slurm, Topology};

fuzz_target!(|text: &str| {
    for name in ["fuzz.conf", "fuzz.yaml"] {
        let Ok(cluster) = parse_slurm(Path::new(name), text, None) else { continue };
        let host = Slurm::new(Spec::Slurm(name.into(), None), cluster);
        let n = host.node_count().min(48);
        for a in 0..n {
            for b in 0..n {
                let d = host.distance(a, b);
                assert_eq!(d, host.distance(b, a));
                assert_eq!(d == 0, a == b);
                assert!(d <= host.diameter());
            }
        }
    }
});
