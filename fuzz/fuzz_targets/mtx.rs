//! Any text: the Matrix Market reader returns a graph or an error, never panics.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::Path;
use topoembed::io;
use topoembed::topology::Topology;

fuzz_target!(|text: &str| {
    let Ok(m) = io::parse_matrix_market(Path::new("fuzz.mtx"), text) else { return };
    assert_eq!(m.volumes.len() as u64, m.graph.edge_count());
});
