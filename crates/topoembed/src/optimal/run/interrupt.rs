//! Stopping a SAT solve in progress: on Ctrl-C during `optimal --sat`, and
//! when it has spent its budget.
//!
//! varisat 0.2 has no interrupt call, but it ends a solve at the first
//! proof write that fails (`SolverError::ProofIoError`), and it writes the
//! proof step of every learned clause as it learns it, through an 8 KiB
//! buffer. A proof target that fails once a flag is set therefore ends the
//! solve within a few hundred conflicts of the flag: [`Stoppable`] is that
//! target, around the certificate's proof file or, when no proof is kept,
//! discarding what it is given. It also fails once the proof passes a
//! number of bytes: a measure of the solver's work that, unlike time, is
//! the same on every run.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// A proof target that fails with [`StopRequested`] once `stop` is set or
/// once the proof would pass `budget` bytes.
pub struct Stoppable<'w, 's> {
    /// Where the proof goes; `None`: it is discarded.
    inner: Option<&'w mut dyn Write>,
    stop: Option<&'s AtomicBool>,
    /// Bytes the proof may still take.
    budget: u64,
}

impl<'w, 's> Stoppable<'w, 's> {
    /// Passes the proof on to `inner` (discards it if `None`) until `stop`
    /// is set or `budget` bytes have passed (`None`: no limit).
    pub fn new(
        inner: Option<&'w mut dyn Write>,
        stop: Option<&'s AtomicBool>,
        budget: Option<u64>,
    ) -> Self {
        Stoppable {
            inner,
            stop,
            budget: budget.unwrap_or(u64::MAX),
        }
    }

    fn check(&self, bytes: usize) -> io::Result<()> {
        let stopped = self.stop.is_some_and(|s| s.load(Ordering::Relaxed));
        if stopped || bytes as u64 > self.budget {
            Err(io::Error::other(StopRequested))
        } else {
            Ok(())
        }
    }
}

impl Write for Stoppable<'_, '_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.check(buf.len())?;
        self.budget -= buf.len() as u64;
        match &mut self.inner {
            Some(out) => out.write(buf),
            None => Ok(buf.len()),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.check(0)?;
        match &mut self.inner {
            Some(out) => out.flush(),
            None => Ok(()),
        }
    }
}

/// The error a [`Stoppable`] fails with: the search was asked to stop, or
/// the solve spent its budget.
#[derive(Debug, thiserror::Error)]
#[error("the solve was stopped (asked to, or its budget spent)")]
pub struct StopRequested;

/// Whether `error` is a [`Stoppable`]'s stop rather than a failed write.
pub fn is_stop(error: &io::Error) -> bool {
    error
        .get_ref()
        .is_some_and(|inner| inner.is::<StopRequested>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_passes_the_proof_on_until_the_flag_is_set() {
        let stop = AtomicBool::new(false);
        let mut kept = Vec::new();
        let mut out = Stoppable::new(Some(&mut kept), Some(&stop), None);
        out.write_all(b"abc").unwrap();
        out.flush().unwrap();
        stop.store(true, Ordering::Relaxed);
        let error = out.write_all(b"d").unwrap_err();
        assert!(is_stop(&error));
        assert!(is_stop(&out.flush().unwrap_err()));
        assert_eq!(kept, b"abc");
        assert!(!is_stop(&io::Error::other("disk full")));
    }

    #[test]
    fn it_stops_at_its_budget_of_bytes() {
        let mut out = Stoppable::new(None, None, Some(5));
        out.write_all(b"abc").unwrap();
        out.write_all(b"de").unwrap();
        assert!(is_stop(&out.write_all(b"f").unwrap_err()));
        // A write that would pass the budget fails whole.
        let mut kept = Vec::new();
        let mut out = Stoppable::new(Some(&mut kept), None, Some(4));
        out.write_all(b"ab").unwrap();
        assert!(is_stop(&out.write_all(b"cde").unwrap_err()));
        assert_eq!(kept, b"ab");
    }
}
