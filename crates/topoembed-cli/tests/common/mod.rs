//! Running the `topoembed` binary from the integration tests.
#![allow(dead_code)]

use std::process::Command;

use serde_json::Value;

/// Exit code, stdout and stderr of `topoembed ARGS`.
pub fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_topoembed"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Stdout of a command that must succeed.
pub fn ok(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?} failed: {err}");
    out
}

/// Stdout of a command that must succeed, as JSON.
pub fn json(args: &[&str]) -> Value {
    serde_json::from_str(&ok(args)).unwrap()
}

/// Bad input: exit code 2, nothing on stdout, a message and no panic on stderr.
pub fn assert_bad_input(args: &[&str]) {
    let (code, out, err) = run(args);
    assert_eq!(code, 2, "{args:?}: {err}");
    assert!(out.is_empty(), "{args:?}: {out}");
    assert!(
        !err.trim().is_empty() && !err.contains("panicked"),
        "{args:?}: {err}"
    );
}

// Temporary directories removed when dropped: the library tests' helper.
#[path = "../../../topoembed/tests/common/temp.rs"]
mod temp;
pub use temp::{temp_dir, TempDir};
