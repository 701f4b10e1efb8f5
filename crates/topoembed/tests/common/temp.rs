//! Temporary directories and files for the tests, removed when dropped
//! (passed or failed), so that runs leave nothing in the system's
//! temporary directory. The library's tests reach it through `common`;
//! the command's tests include this file by path.
#![allow(dead_code)]

/// A directory of one test's own, removed with everything in it when the
/// value is dropped (at the end of the test, passed or failed); reads as a
/// `Path` (`dir.join(..)`, `&dir`).
pub struct TempDir(tempfile::TempDir);

impl std::ops::Deref for TempDir {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        self.0.path()
    }
}

impl AsRef<std::path::Path> for TempDir {
    fn as_ref(&self) -> &std::path::Path {
        self.0.path()
    }
}

/// [`TempDir`] named `topoembed-NAME-…` in the system's temporary directory.
pub fn temp_dir(name: &str) -> TempDir {
    TempDir(
        tempfile::Builder::new()
            .prefix(&format!("topoembed-{name}-"))
            .tempdir()
            .expect("a directory in the temporary directory"),
    )
}

/// A file `name` holding `text`, in a [`TempDir`] of its own that goes
/// with it when dropped; reads as the file's `Path`.
pub struct TempFile {
    _dir: TempDir,
    path: std::path::PathBuf,
}

impl std::ops::Deref for TempFile {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.path
    }
}

impl AsRef<std::path::Path> for TempFile {
    fn as_ref(&self) -> &std::path::Path {
        &self.path
    }
}

/// Writes `text` to a fresh file `name` in a `topoembed-DIR-…` directory.
pub fn temp_file(dir: &str, name: &str, text: &str) -> TempFile {
    let dir = temp_dir(dir);
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    TempFile { _dir: dir, path }
}
