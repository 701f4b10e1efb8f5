//! Any text: the Scotch target reader returns a spec or an error, never
//! panics, and a spec it returns builds and round-trips.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::Path;
use topoembed::{io, topology};

fuzz_target!(|text: &str| {
    let Ok(spec) = io::parse_target(Path::new("fuzz.tgt"), text) else { return };
    let _ = topology::build(&spec).unwrap();
    let mut out = Vec::new();
    io::write_target(&spec, &mut out).unwrap();
    let back = io::parse_target(Path::new("back.tgt"), std::str::from_utf8(&out).unwrap()).unwrap();
    assert_eq!(back, spec);
});
