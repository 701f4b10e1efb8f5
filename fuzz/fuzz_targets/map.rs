//! Any text: the Scotch mapping reader, against a small labelled graph,
//! returns a mapping onto the host's nodes or an error, never panics.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::Path;
use topoembed::io;

fuzz_target!(|text: &str| {
    let graph = io::parse_graph(
        Path::new("ring.grf"),
        "0\n4 8\n1 100\n10 2 20 40\n20 2 10 30\n30 2 20 40\n40 2 30 10\n",
    )
    .unwrap();
    if let Ok(m) = io::parse_mapping(Path::new("fuzz.map"), text, &graph, 6) {
        assert_eq!(m.hosts().len(), 4);
        assert!(m.hosts().iter().all(|&h| h < 6));
    }
});
