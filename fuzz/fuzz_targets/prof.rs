//! Any text: the Open MPI monitoring profile reader returns a rank's
//! profile or an error, never panics; what it returns combines into a
//! graph or an error (a peer without a file), never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::{Path, PathBuf};
use topoembed::io;
use topoembed::spec::Spec;

fuzz_target!(|text: &str| {
    let Ok(profile) = io::parse_rank_profile(Path::new("fuzz.1.prof"), text, 1) else { return };
    let files: Vec<PathBuf> = (0..3).map(|r| PathBuf::from(format!("fuzz.{r}.prof"))).collect();
    let profiles = vec![Default::default(), profile, Default::default()];
    let _ = io::combine_profiles(Spec::Graph("fuzz.prof".into()), &files, &profiles);
});
