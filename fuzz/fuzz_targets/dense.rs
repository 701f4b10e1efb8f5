//! Any text: the dense matrix reader returns a graph or an error, never
//! panics, and a graph it returns has one node per row.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::Path;
use topoembed::io;
use topoembed::topology::Topology;

fuzz_target!(|text: &str| {
    let Ok(m) = io::parse_dense_matrix(Path::new("fuzz.mat"), text) else { return };
    assert_eq!(m.graph.node_count(), m.ranks as u64);
});
