//! Where a map's time went (`topoembed map --phases`): every phase of
//! every search — the first placement, each refinement — with its wall
//! time and the hop-bytes it took off, so that a slow pair shows which
//! phase to look at (issue 56 began with a profiler for want of this).
//! Timing costs two clock reads a phase; with no log given, nothing.

use std::sync::Mutex;
use std::time::Instant;

/// One phase of one search.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Phase {
    /// The search it belongs to (restart number, from 0); the closed form
    /// refined instead of a search, and the starts weighed after, are
    /// search 0.
    pub search: u64,
    /// What ran.
    pub name: &'static str,
    /// Wall seconds it took.
    pub seconds: f64,
    /// Hop-bytes it took off, for a refinement (none for a first placement).
    pub gained: Option<u128>,
}

/// The phases of one map, as its searches record them (in parallel).
#[derive(Debug, Default)]
pub struct PhaseLog {
    phases: Mutex<Vec<Phase>>,
}

impl PhaseLog {
    /// An empty log.
    pub fn new() -> PhaseLog {
        PhaseLog::default()
    }

    /// The phases recorded, search by search, each search's in the order
    /// they ran.
    pub fn phases(&self) -> Vec<Phase> {
        let mut phases = self
            .phases
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        // Stable: a search runs its phases one after another on one thread.
        phases.sort_by_key(|p| p.search);
        phases
    }

    fn push(&self, phase: Phase) {
        self.phases
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(phase);
    }
}

/// Runs `f`, a first placement, and records it as `name` of `search` where
/// a log is given.
pub(crate) fn placement<R>(
    log: Option<&PhaseLog>,
    search: u64,
    name: &'static str,
    f: impl FnOnce() -> R,
) -> R {
    timed(log, (search, name), f, |_| None)
}

/// Runs `f`, a refinement returning the hop-bytes it took off, and records
/// it as `name` of `search` where a log is given.
pub(crate) fn refinement(
    log: Option<&PhaseLog>,
    search: u64,
    name: &'static str,
    f: impl FnOnce() -> u128,
) -> u128 {
    timed(log, (search, name), f, |&gained| Some(gained))
}

/// Runs `f` and records its wall time, and what `gained` reads off its
/// result, as `name` of `search`.
fn timed<R>(
    log: Option<&PhaseLog>,
    (search, name): (u64, &'static str),
    f: impl FnOnce() -> R,
    gained: impl FnOnce(&R) -> Option<u128>,
) -> R {
    let started = Instant::now();
    let result = f();
    if let Some(log) = log {
        log.push(Phase {
            search,
            name,
            seconds: started.elapsed().as_secs_f64(),
            gained: gained(&result),
        });
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Phases come back search by search, each search's in its own order,
    /// whatever order the searches logged them in; without a log nothing
    /// is kept and the result passes through.
    #[test]
    fn phases_come_back_by_search_in_order() {
        let log = PhaseLog::new();
        assert_eq!(refinement(Some(&log), 1, "b", || 5), 5);
        assert_eq!(placement(Some(&log), 0, "a", || 7), 7);
        refinement(Some(&log), 1, "c", || 0);
        refinement(Some(&log), 0, "d", || 3);
        let got: Vec<(u64, &str, Option<u128>)> = log
            .phases()
            .iter()
            .map(|p| (p.search, p.name, p.gained))
            .collect();
        assert_eq!(
            got,
            [
                (0, "a", None),
                (0, "d", Some(3)),
                (1, "b", Some(5)),
                (1, "c", Some(0))
            ]
        );
        assert!(log.phases().iter().all(|p| p.seconds >= 0.0));
        assert_eq!(refinement(None, 0, "e", || 9), 9);
    }
}
