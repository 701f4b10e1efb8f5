//! Any text: the Scotch graph reader returns a graph or an error, never panics,
//! and a graph it returns is written and read back unchanged.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::Path;
use topoembed::io;
use topoembed::topology::Topology;

fuzz_target!(|text: &str| {
    let Ok(g) = io::parse_graph(Path::new("fuzz.grf"), text) else { return };
    let mut out = Vec::new();
    io::write_graph(&g.graph, g.base, &mut out).unwrap();
    let back = io::parse_graph(Path::new("back.grf"), std::str::from_utf8(&out).unwrap()).unwrap();
    assert_eq!(back.graph.edge_count(), g.graph.edge_count());
});
