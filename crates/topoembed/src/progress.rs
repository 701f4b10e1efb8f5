//! Progress of long computations, shared with whoever displays it.
//!
//! The library never prints; it counts work units here and a front end (the
//! CLI's progress bar) reads them from another thread.

use std::sync::atomic::{AtomicU64, Ordering};

/// Work done out of work to do, both in units the computation chooses.
#[derive(Debug, Default)]
pub struct Progress {
    done: AtomicU64,
    total: AtomicU64,
}

impl Progress {
    /// A fresh counter.
    pub fn new() -> Progress {
        Progress::default()
    }
    /// Adds `units` to the work to do.
    pub fn add_total(&self, units: u64) {
        self.total.fetch_add(units, Ordering::Relaxed);
    }
    /// Records `units` of work done.
    pub fn advance(&self, units: u64) {
        self.done.fetch_add(units, Ordering::Relaxed);
    }
    /// (done, total).
    pub fn get(&self) -> (u64, u64) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }
}

/// Records progress when a counter was given.
pub(crate) fn advance(progress: Option<&Progress>, units: u64) {
    if let Some(p) = progress {
        p.advance(units);
    }
}
