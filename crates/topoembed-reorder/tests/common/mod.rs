//! What the `mpirun` tests share.
#![allow(dead_code)]

use std::path::PathBuf;

/// The library cargo built for this test run: `cargo test` leaves the
/// cdylib beside the test binary in target/<profile>/deps (built with this
/// run's features; target/<profile>/ may hold another build's copy).
pub fn library() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let lib = exe.with_file_name("libtopoembed_reorder.so");
    assert!(lib.exists(), "{} not built", lib.display());
    lib
}
