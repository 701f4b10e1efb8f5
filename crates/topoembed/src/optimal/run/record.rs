//! The vectors a search by vectors ([`crate::optimal::search::vectors`]) has refuted so far,
//! kept in a file so that a run stopped — by Ctrl-C, `--node-limit`, or a
//! killed process — goes on from them: a certificate's `partial.json`
//! (its refutations have their DRAT proofs beside it) or the file given
//! as `--checkpoint` to `optimal --sat`.
//!
//! A refutation is an exact decision of one vector, whatever bounds the
//! run used, so a record only has to name the guest and the host.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::error::{Error, Result};
use crate::optimal::certificate::refuted::Refuted;

/// The record's name in a certificate's directory.
pub const PARTIAL: &str = "partial.json";

/// How often the refutations of a level still being decided are written
/// (a level of a 32x32 search takes hours; a killed process loses at
/// most this much of it).
pub const RECORD_INTERVAL: Duration = Duration::from_secs(60);

#[derive(serde::Serialize, serde::Deserialize)]
struct Partial {
    guest: String,
    host: String,
    refuted: Vec<Refuted>,
}

/// The record of one search: where it lies, what it is of, and when it
/// was last written.
pub(in crate::optimal) struct Record {
    path: PathBuf,
    guest: String,
    host: String,
    interval: Duration,
    last: Mutex<Instant>,
}

impl Record {
    /// The record at `path` of the search of `guest` on `host`, written at
    /// most every `interval` while a level is decided.
    pub(in crate::optimal) fn new(
        path: PathBuf,
        guest: String,
        host: String,
        interval: Duration,
    ) -> Record {
        Record {
            path,
            guest,
            host,
            interval,
            last: Mutex::new(Instant::now()),
        }
    }

    /// The refutations recorded, none when there is no record yet; a file
    /// that is not a record, or one of another guest or host, is an error.
    pub(in crate::optimal) fn read(&self) -> Result<Vec<Refuted>> {
        let Ok(text) = std::fs::read_to_string(&self.path) else {
            return Ok(Vec::new());
        };
        let partial: Partial = serde_json::from_str(&text).map_err(|e| {
            Error::File(format!(
                "{}: not a record of refuted vectors ({e}); remove it",
                self.path.display()
            ))
        })?;
        if (&partial.guest, &partial.host) != (&self.guest, &self.host) {
            return Err(Error::File(format!(
                "{}: records a search of {} -> {}, not {} -> {}; give another path",
                self.path.display(),
                partial.guest,
                partial.host,
                self.guest,
                self.host
            )));
        }
        Ok(partial.refuted)
    }

    /// Records `refuted` — every refutation so far — replacing the file
    /// whole.
    pub(in crate::optimal) fn write(&self, refuted: &[Refuted]) -> Result<()> {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        self.write_file(refuted)?;
        *last = Instant::now();
        Ok(())
    }

    /// Records `refuted` once `interval` has passed since the last write
    /// (called after every refutation).
    pub(in crate::optimal) fn now_and_then(&self, refuted: &[Refuted]) -> Result<()> {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if last.elapsed() >= self.interval {
            self.write_file(refuted)?;
            *last = Instant::now();
        }
        Ok(())
    }

    /// Removes the record (the search completed).
    pub(in crate::optimal) fn remove(&self) {
        let _ = std::fs::remove_file(&self.path);
    }

    /// Replaces the file through a temporary one, so that a process killed
    /// while writing leaves the previous record whole.
    fn write_file(&self, refuted: &[Refuted]) -> Result<()> {
        let partial = Partial {
            guest: self.guest.clone(),
            host: self.host.clone(),
            refuted: refuted.to_vec(),
        };
        let text = serde_json::to_string(&partial).map_err(|e| Error::File(e.to_string()))?;
        let temporary = temporary_beside(&self.path);
        std::fs::write(&temporary, text)
            .and_then(|()| std::fs::rename(&temporary, &self.path))
            .map_err(|e| Error::File(format!("{}: cannot write: {e}", self.path.display())))
    }
}

/// A checkpoint's text (any search's), with the error a user reads when it
/// cannot be read.
pub(in crate::optimal) fn checkpoint_text(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| {
        Error::File(format!(
            "{}: cannot read the checkpoint: {e}",
            path.display()
        ))
    })
}

/// Refuses a checkpoint of guest -> host `found` for the search of `wanted`.
pub(in crate::optimal) fn same_problem(
    path: &Path,
    found: (&str, &str),
    wanted: (&str, &str),
) -> Result<()> {
    if found == wanted {
        return Ok(());
    }
    Err(Error::File(format!(
        "{}: a checkpoint of {} -> {}, not {} -> {}; remove it or give another file",
        path.display(),
        found.0,
        found.1,
        wanted.0,
        wanted.1
    )))
}

/// `path` with `.tmp` added to its name (not replacing an extension, so
/// that `q.json` and `q.txt` do not share one).
pub(in crate::optimal) fn temporary_beside(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    path.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refuted(distances: &[u32]) -> Refuted {
        Refuted::by_search(distances, 1, distances.len())
    }

    /// A path `name` in a fresh directory, removed when the directory
    /// (the first value) is dropped.
    fn scratch(name: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        (dir, path)
    }

    #[test]
    fn a_record_holds_what_was_written_and_what_came_after_the_interval() {
        let (_dir, path) = scratch("interval.json");
        let record =
            |interval| Record::new(path.clone(), "cube:4".into(), "torus:4x4".into(), interval);
        let never = record(Duration::from_secs(3600));
        assert!(never.read().unwrap().is_empty());
        let earlier = vec![refuted(&[1, 1, 1, 1])];
        never.write(&earlier).unwrap();
        // Within the interval: not written yet.
        let mut all = earlier.clone();
        all.push(refuted(&[1, 1, 1, 2]));
        never.now_and_then(&all).unwrap();
        assert_eq!(never.read().unwrap(), earlier);
        // When a level is decided the caller writes the whole list.
        never.write(&all).unwrap();
        assert_eq!(never.read().unwrap(), all);
        // With no interval every refutation is written at once.
        let always = record(Duration::ZERO);
        all.push(refuted(&[1, 1, 2, 2]));
        always.now_and_then(&all).unwrap();
        assert_eq!(always.read().unwrap(), all);
        assert!(!temporary_beside(&path).exists());
        always.remove();
        assert!(always.read().unwrap().is_empty());
    }

    #[test]
    fn a_record_of_another_search_or_no_record_at_all_is_refused() {
        let (_dir, path) = scratch("other.json");
        let mine = Record::new(
            path.clone(),
            "cube:4".into(),
            "ring:16".into(),
            Duration::ZERO,
        );
        let other = Record::new(
            path.clone(),
            "cube:4".into(),
            "torus:4x4".into(),
            Duration::ZERO,
        );
        other.write(&[refuted(&[1, 1, 1, 1])]).unwrap();
        let e = mine.read().unwrap_err().to_string();
        assert!(e.contains("torus:4x4") && e.contains("ring:16"), "{e}");
        std::fs::write(&path, "{\"nodes\": 3}").unwrap();
        let e = mine.read().unwrap_err().to_string();
        assert!(e.contains("not a record"), "{e}");
        mine.remove();
    }

    #[test]
    fn the_temporary_file_keeps_the_whole_name() {
        assert_eq!(
            temporary_beside(Path::new("/x/q.json")),
            Path::new("/x/q.json.tmp")
        );
        assert_eq!(temporary_beside(Path::new("q")), Path::new("q.tmp"));
    }
}
