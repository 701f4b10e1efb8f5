//! What the `mpirun` tests share.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

mod session;
pub use session::mpirun_command;

/// The library cargo built for this test run: `cargo test` leaves the
/// cdylib beside the test binary in target/<profile>/deps (built with this
/// run's features; target/<profile>/ may hold another build's copy).
pub fn library() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let lib = exe.with_file_name("libtopoembed_reorder.so");
    assert!(lib.exists(), "{} not built", lib.display());
    lib
}

/// tests/programs/FILE compiled with `compiler` (mpicc, mpifort) into
/// `dir/out`; returns the binary's path.
pub fn compile(compiler: &str, file: &str, dir: &Path, out: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let bin = dir.join(out);
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs")
        .join(file);
    let status = Command::new(compiler)
        .args(["-O2", "-o"])
        .arg(&bin)
        .arg(src)
        .status()
        .unwrap_or_else(|e| panic!("{compiler}: {e} (install libopenmpi-dev, gfortran)"));
    assert!(status.success(), "{compiler} {file} failed");
    bin
}
