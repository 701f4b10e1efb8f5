//! Any text: the METIS reader returns a graph or an error, never panics; a
//! graph it returns has symmetric lists and as many volumes as entries.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::Path;
use topoembed::io;
use topoembed::topology::Topology;

fuzz_target!(|text: &str| {
    let Ok(g) = io::parse_metis(Path::new("fuzz.graph"), text) else { return };
    let graph = &g.graph;
    for v in 0..graph.node_count() {
        for &u in graph.adjacency(v) {
            assert!(graph.adjacency(u64::from(u)).contains(&(v as u32)));
        }
    }
    if let Some(volumes) = graph.volumes() {
        assert_eq!(volumes.len() as u64, 2 * graph.edge_count());
    }
});
