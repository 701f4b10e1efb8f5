//! Any text as a recording's summary (`map --summary FILE.json`): an error
//! naming the file, or a summary whose pairs and communicators fit its
//! ranks and that weighs onto a graph of those ranks — never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::Path;
use topoembed::recorded::{parse_summary, weigh, Latencies};
use topoembed::spec::Spec;
use topoembed::topology::Graph;

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else { return };
    match parse_summary(Path::new("fuzz.json"), text) {
        Err(e) => assert!(e.to_string().starts_with("fuzz.json")),
        Ok(s) => {
            for &[u, v, _] in s.pair_messages.iter().flatten() {
                assert!(u != v && u < s.ranks && v < s.ranks);
            }
            if (2..=4096).contains(&s.ranks) {
                let ring: Vec<(u64, u64)> = (0..s.ranks).map(|i| (i, (i + 1) % s.ranks)).collect();
                let ring: Vec<(u64, u64)> = if s.ranks == 2 { vec![(0, 1)] } else { ring };
                let g = Graph::from_edges(Spec::Graph("ring".into()), s.ranks, &ring).unwrap();
                let _ = weigh(&g, &s, 10_000, Latencies::All);
            }
        }
    }
});
