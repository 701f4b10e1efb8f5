//! Any text: the hwloc XML reader returns a node or an error, never
//! panics; a node it returns has symmetric distances, 0 only on the
//! diagonal.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::Path;
use topoembed::io::parse_hwloc;
use topoembed::spec::{HwlocLeaves, Spec};
use topoembed::topology::{Hwloc, Topology};

fuzz_target!(|text: &str| {
    for leaves in [HwlocLeaves::Pus, HwlocLeaves::Cores] {
        let Ok(tree) = parse_hwloc(Path::new("fuzz.xml"), text, leaves) else { continue };
        let host = Hwloc::new(Spec::Hwloc(None, leaves), tree);
        let n = host.node_count().min(64);
        for a in 0..n {
            for b in 0..n {
                let d = host.distance(a, b);
                assert_eq!(d, host.distance(b, a));
                assert_eq!(d == 0, a == b);
            }
        }
    }
});
