//! `TOPOEMBED_RECORD=FILE`: where rank 0 writes the recording (relative to
//! its working directory); unset or empty, nothing is recorded.

use std::path::PathBuf;

/// The recording's path, when recording.
pub fn record_path() -> Option<PathBuf> {
    std::env::var_os("TOPOEMBED_RECORD")
        .filter(|v| !v.to_string_lossy().trim().is_empty())
        .map(PathBuf::from)
}
