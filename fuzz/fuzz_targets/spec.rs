//! Any text: a topology spec (fat trees, dragonflies and allocations
//! included) parses or is refused, never panics; one that parses prints
//! back to itself, and one small enough builds (or is refused) without
//! panicking, its distances symmetric. Also the allocation-file reader.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::Path;
use topoembed::spec::{parse_allocation, AllocationNodes, Spec};
use topoembed::topology;

fuzz_target!(|text: &str| {
    let _ = parse_allocation(Path::new("fuzz.txt"), text);
    let Ok(spec) = text.parse::<Spec>() else { return };
    let back: Spec = spec.to_string().parse().expect("a printed spec parses");
    assert_eq!(back, spec);
    let reads_files = match &spec {
        Spec::Graph(_) => true,
        Spec::Allocation(host, nodes) => {
            matches!(nodes, AllocationNodes::File(_)) || matches!(**host, Spec::Graph(_))
        }
        _ => false,
    };
    let small = spec.node_count().is_some_and(|n| n <= 4096);
    if reads_files || !small {
        return;
    }
    let Ok(host) = topology::build(&spec) else { return };
    let n = host.node_count();
    for a in [0, n / 3, n - 1] {
        for b in [0, n / 2, n - 1] {
            assert_eq!(host.distance(a, b), host.distance(b, a));
        }
    }
});
