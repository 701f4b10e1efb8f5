//! Cores: sub-cubes that embed nowhere in the host ([`Refuted::core`]).
//! One refutes every distance vector holding its distances (those
//! dimensions span that sub-cube), so the search by vectors
//! ([`super::vectors`]) keeps each one the branch and bound finds, and
//! *probes* for more: a vector with a long run of equal distances is hard
//! for the branch and bound (torus:32x32's 1,2,4,4,4,4,4,4,4,12 was not
//! decided in 20 minutes), yet the run alone or with one other distance is
//! often a small sub-cube that embeds nowhere (4,4,4,4,4,4 on torus:32x32:
//! refuted in 0.1 s), found by deciding that sub-cube alone.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, RwLock};

use super::constant::{decide_by_search, SearchAnswer};
use super::host::SearchHost;
use super::vectors::Refuted;

/// Search nodes a probe may take at most.
pub const PROBE_NODES: u64 = 1 << 18;

/// The sub-cubes known to embed nowhere, shared by the threads deciding a
/// level, and the sub-cubes probed.
pub(super) struct Cores {
    /// Search nodes a probe may take: 0, cores are off.
    probe_nodes: u64,
    known: RwLock<Vec<Vec<u32>>>,
    probed: Mutex<HashSet<Vec<u32>>>,
}

impl Cores {
    /// The cores of `refuted` (a resumed run's); probes take up to
    /// `probe_nodes` search nodes each, [`PROBE_NODES`] at most (0: no
    /// cores, no probes).
    pub(super) fn new(probe_nodes: u64, refuted: &[Refuted]) -> Cores {
        let cores = Cores {
            probe_nodes: probe_nodes.min(PROBE_NODES),
            known: Default::default(),
            probed: Default::default(),
        };
        refuted.iter().for_each(|r| cores.learn(r));
        cores
    }

    /// A known core the ascending `dims` hold.
    pub(super) fn refuting(&self, dims: &[u32]) -> Option<Vec<u32>> {
        let known = self.known.read().unwrap_or_else(|e| e.into_inner());
        known.iter().find(|c| holds(dims, c)).cloned()
    }

    /// Keeps `r`'s core, unless a known one is part of it already.
    pub(super) fn learn(&self, r: &Refuted) {
        if self.probe_nodes > 0 && !r.core.is_empty() {
            self.keep(&r.core);
        }
    }

    fn keep(&self, core: &[u32]) {
        if self.refuting(core).is_none() {
            let mut known = self.known.write().unwrap_or_else(|e| e.into_inner());
            known.push(core.to_vec());
        }
    }

    /// Decides the [`probes`] of the ascending `dims` not probed before,
    /// each within the probe budget, until one is refuted: its core (kept)
    /// refutes `dims`. None when none is, when a probe is stopped, or when
    /// cores are off.
    pub(super) fn probe(
        &self,
        h: &SearchHost,
        prefix_bound: &[u32],
        dims: &[u32],
        stop: Option<&AtomicBool>,
    ) -> Option<Vec<u32>> {
        if self.probe_nodes == 0 {
            return None;
        }
        for part in probes(dims) {
            let fresh = {
                let mut probed = self.probed.lock().unwrap_or_else(|e| e.into_inner());
                probed.insert(part.clone())
            };
            if !fresh {
                continue;
            }
            // Any (k+1)-cube needs Σ ≥ prefix_bound[k], whichever cube holds it.
            let bound = &prefix_bound[..part.len()];
            match decide_by_search(h, bound, &part, self.probe_nodes, stop) {
                SearchAnswer::Refuted { core, .. } => {
                    let core = part[..core].to_vec();
                    self.keep(&core);
                    return Some(core);
                }
                SearchAnswer::Undecided { .. }
                    if stop.is_some_and(|s| s.load(Ordering::Relaxed)) =>
                {
                    // Not probed after all: a resumed run probes it again.
                    let mut probed = self.probed.lock().unwrap_or_else(|e| e.into_inner());
                    probed.remove(&part);
                    return None;
                }
                _ => {}
            }
        }
        None
    }
}

/// The sub-cubes of the ascending `dims` worth probing, ascending each:
/// for every distance D repeated m ≥ 3 times (and not the whole vector),
/// the run D^m alone, then with each other distance of the vector.
pub(super) fn probes(dims: &[u32]) -> Vec<Vec<u32>> {
    let mut distinct = dims.to_vec();
    distinct.dedup();
    let mut out = Vec::new();
    for &run in &distinct {
        let m = dims.iter().filter(|&&x| x == run).count();
        if m < 3 || m + 1 > dims.len() {
            continue;
        }
        out.push(vec![run; m]);
        for &other in distinct.iter().filter(|&&x| x != run) {
            if m + 1 < dims.len() {
                let mut part = vec![run; m];
                part.push(other);
                part.sort_unstable();
                out.push(part);
            }
        }
    }
    out
}

/// Whether the ascending `dims` hold every entry of the ascending `part`
/// (as a multiset).
pub(super) fn holds(dims: &[u32], part: &[u32]) -> bool {
    let mut rest = dims.iter();
    part.iter().all(|p| rest.any(|x| x == p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vector_holds_a_part_as_a_multiset() {
        assert!(holds(&[1, 2, 2, 3], &[2, 2]));
        assert!(holds(&[1, 2, 2, 3], &[1, 3]));
        assert!(holds(&[1, 2, 2, 3], &[]));
        assert!(!holds(&[1, 2, 2, 3], &[2, 2, 2]));
        assert!(!holds(&[1, 2, 2, 3], &[4]));
        assert!(!holds(&[1, 2, 3], &[1, 1]));
    }

    #[test]
    fn runs_of_three_or_more_are_probed() {
        assert_eq!(
            probes(&[1, 2, 4, 4, 4, 4, 12]),
            vec![
                vec![4, 4, 4, 4],
                vec![1, 4, 4, 4, 4],
                vec![2, 4, 4, 4, 4],
                vec![4, 4, 4, 4, 12]
            ]
        );
        // No run of three; a run that is the whole vector but one.
        assert!(probes(&[1, 1, 2, 2, 3]).is_empty());
        assert_eq!(probes(&[2, 3, 3, 3]), vec![vec![3, 3, 3]]);
    }
}
