//! The vectors a search by vectors ([`super::vectors`]) has refuted so far,
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

use super::refuted::Refuted;
use crate::error::{Error, Result};

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

/// The record of one search: where it lies, what it is of, and the
/// refutations of the level being decided that it does not hold yet.
pub(super) struct Record {
    path: PathBuf,
    guest: String,
    host: String,
    interval: Duration,
    /// Refutations noted since the last write, and when that was.
    pending: Mutex<(Vec<Refuted>, Instant)>,
}

impl Record {
    /// The record at `path` of the search of `guest` on `host`, written at
    /// most every `interval` while a level is decided.
    pub(super) fn new(path: PathBuf, guest: String, host: String, interval: Duration) -> Record {
        Record {
            path,
            guest,
            host,
            interval,
            pending: Mutex::new((Vec::new(), Instant::now())),
        }
    }

    /// The refutations recorded, none when there is no record yet; a file
    /// that is not a record, or one of another guest or host, is an error.
    pub(super) fn read(&self) -> Result<Vec<Refuted>> {
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

    /// Records `refuted` — every refutation so far, the level just decided
    /// included — replacing the file whole; what was noted is in it now.
    pub(super) fn write(&self, refuted: &[Refuted]) -> Result<()> {
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        self.write_file(refuted.iter())?;
        *pending = (Vec::new(), Instant::now());
        Ok(())
    }

    /// Notes `refutation`, decided in the level under way (`earlier`: the
    /// levels before it), and writes all of them once `interval` has passed
    /// since the last write.
    pub(super) fn note(&self, earlier: &[Refuted], refutation: Refuted) -> Result<()> {
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        pending.0.push(refutation);
        if pending.1.elapsed() >= self.interval {
            self.write_file(earlier.iter().chain(&pending.0))?;
            pending.1 = Instant::now();
        }
        Ok(())
    }

    /// Removes the record (the search completed).
    pub(super) fn remove(&self) {
        let _ = std::fs::remove_file(&self.path);
    }

    /// Replaces the file through a temporary one, so that a process killed
    /// while writing leaves the previous record whole.
    fn write_file<'r>(&self, refuted: impl Iterator<Item = &'r Refuted>) -> Result<()> {
        let partial = Partial {
            guest: self.guest.clone(),
            host: self.host.clone(),
            refuted: refuted.cloned().collect(),
        };
        let text = serde_json::to_string(&partial).map_err(|e| Error::File(e.to_string()))?;
        let temporary = temporary_beside(&self.path);
        std::fs::write(&temporary, text)
            .and_then(|()| std::fs::rename(&temporary, &self.path))
            .map_err(|e| Error::File(format!("{}: cannot write: {e}", self.path.display())))
    }
}

/// `path` with `.tmp` added to its name (not replacing an extension, so
/// that `q.json` and `q.txt` do not share one).
fn temporary_beside(path: &Path) -> PathBuf {
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

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("topoembed-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn a_record_holds_what_was_written_and_what_was_noted_after_the_interval() {
        let path = scratch("interval.json");
        let record =
            |interval| Record::new(path.clone(), "cube:4".into(), "torus:4x4".into(), interval);
        let never = record(Duration::from_secs(3600));
        assert!(never.read().unwrap().is_empty());
        let earlier = vec![refuted(&[1, 1, 1, 1])];
        never.write(&earlier).unwrap();
        // Noted within the interval: not written yet.
        never.note(&earlier, refuted(&[1, 1, 1, 2])).unwrap();
        assert_eq!(never.read().unwrap(), earlier);
        // At the end of the level the caller writes the whole list.
        let mut all = earlier.clone();
        all.push(refuted(&[1, 1, 1, 2]));
        never.write(&all).unwrap();
        assert_eq!(never.read().unwrap(), all);
        // With no interval every note is written at once, after `earlier`.
        let always = record(Duration::ZERO);
        always.note(&all, refuted(&[1, 1, 2, 2])).unwrap();
        let read = always.read().unwrap();
        assert_eq!(read.len(), 3);
        assert_eq!(read[..2], all[..]);
        assert_eq!(read[2].distances, [1, 1, 2, 2]);
        // A write replaces what was noted (the caller's list holds it).
        always.write(&all).unwrap();
        assert_eq!(always.read().unwrap(), all);
        always.note(&[], refuted(&[1, 2, 2, 2])).unwrap();
        assert_eq!(always.read().unwrap().len(), 1);
        assert!(!temporary_beside(&path).exists());
        always.remove();
        assert!(always.read().unwrap().is_empty());
    }

    #[test]
    fn a_record_of_another_search_or_no_record_at_all_is_refused() {
        let path = scratch("other.json");
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
