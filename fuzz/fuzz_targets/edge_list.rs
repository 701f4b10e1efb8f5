//! Any text: the edge-list reader returns a graph or an error, never panics;
//! with volumes, every edge has one.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::Path;
use topoembed::topology::{Graph, Topology};

fuzz_target!(|text: &str| {
    let Ok(g) = Graph::parse_edge_list(Path::new("fuzz.txt"), text) else { return };
    if let Some(volumes) = g.volumes() {
        assert_eq!(volumes.len() as u64, 2 * g.edge_count());
    }
});
