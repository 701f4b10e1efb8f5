//! Cores: sub-cubes that embed nowhere in the host ([`Refuted::core`]).
//! One refutes every distance vector holding its distances (those
//! dimensions span that sub-cube), so the search by vectors
//! ([`crate::optimal::search::vectors`]) keeps each one the branch and bound finds, and
//! *probes* for more: a vector with a long run of equal distances is hard
//! for the branch and bound (torus:32x32's 1,2,4,4,4,4,4,4,4,12 was not
//! decided in 20 minutes), yet the run alone or with one other distance is
//! often a small sub-cube that embeds nowhere (4,4,4,4,4,4 on torus:32x32:
//! refuted in 0.1 s), found by deciding that sub-cube alone. Every core
//! found is shrunk (distances left out while it still embeds nowhere),
//! and probes and shrinking take a share of each turn's budget
//! ([`crate::optimal::search::turns`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, RwLock};

use rayon::prelude::*;

use crate::optimal::certificate::refuted::Refuted;
use crate::optimal::host::SearchHost;
use crate::optimal::search::constant::{decide_by_search, SearchAnswer};

/// The share of a turn's search budget each probe of that turn may take:
/// a sixteenth (2^14 nodes on the first turn's 2^18).
pub const PROBE_SHARE: u64 = 16;

/// The sub-cubes known to embed nowhere, shared by the threads deciding a
/// level, and the sub-cubes tried for one.
pub(in crate::optimal) struct Cores {
    /// Cores are kept and probed (off when the solver decides every vector,
    /// as a certificate's does by default; a certificate by the branch and
    /// bound cites each core's DRAT proof: [`crate::optimal::proof::core_proofs`]).
    on: bool,
    known: RwLock<Vec<Vec<u32>>>,
    /// Every sub-cube decided for a core (a probe, or a core less one
    /// distance), with the largest budget it was given: it is tried again
    /// only with a larger one (`u64::MAX`: refuted, or embeds).
    tried: Mutex<HashMap<Vec<u32>, u64>>,
}

/// Where sub-cubes are decided: the host, its prefix bounds, the stop flag.
#[derive(Clone, Copy)]
pub(in crate::optimal) struct Probing<'a> {
    pub h: &'a SearchHost,
    pub prefix_bound: &'a [u32],
    pub stop: Option<&'a AtomicBool>,
}

impl Cores {
    /// The cores of `refuted` (a resumed run's), or none at all when `on`
    /// is false.
    pub(in crate::optimal) fn new(on: bool, refuted: &[Refuted]) -> Cores {
        let cores = Cores {
            on,
            known: Default::default(),
            tried: Default::default(),
        };
        refuted.iter().for_each(|r| cores.learn(r));
        cores
    }

    /// A known core the ascending `dims` hold.
    pub(in crate::optimal) fn refuting(&self, dims: &[u32]) -> Option<Vec<u32>> {
        let known = self.known.read().unwrap_or_else(|e| e.into_inner());
        known.iter().find(|c| holds(dims, c)).cloned()
    }

    /// The known cores.
    pub(in crate::optimal) fn known(&self) -> Vec<Vec<u32>> {
        self.known.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Keeps `r`'s core, unless a known one is part of it already.
    pub(in crate::optimal) fn learn(&self, r: &Refuted) {
        if !r.core.is_empty() {
            self.keep(&r.core);
        }
    }

    /// Keeps `core` unless a known core is part of it, and forgets the
    /// known cores it is part of (they refute nothing it does not).
    fn keep(&self, core: &[u32]) {
        if !self.on || self.refuting(core).is_some() {
            return;
        }
        let mut known = self.known.write().unwrap_or_else(|e| e.into_inner());
        known.retain(|c| !holds(c, core));
        known.push(core.to_vec());
    }

    /// Decides the [`probes`] of the ascending `dims` not tried with
    /// `budget` nodes or more before, each within `budget` nodes, until one
    /// is refuted: its core, [`shrunk`](Cores::shrink) and kept, refutes
    /// `dims`. None when none is, when a probe is stopped, or when cores
    /// are off.
    pub(in crate::optimal) fn probe(
        &self,
        at: Probing,
        dims: &[u32],
        budget: u64,
    ) -> Option<Vec<u32>> {
        if !self.on {
            return None;
        }
        for part in probes(dims) {
            if let Some(core) = self.try_part(at, &part, budget) {
                return Some(self.shrink(at, core, budget));
            }
            if at.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return None;
            }
        }
        None
    }

    /// The smallest core found inside the core `core` by leaving one
    /// distance out at a time, each sub-cube decided within `budget` nodes
    /// (greedily: the first refuted is shrunk in turn). A smaller core
    /// refutes more vectors: on torus:32x32 (2, 2, 4, 4, 4, 4) came out of
    /// one and refuted (2, 2, 3, 4, 4, 4, 4, 4, 5, 12), which minutes of
    /// search had not. Kept.
    pub(in crate::optimal) fn shrink(
        &self,
        at: Probing,
        mut core: Vec<u32>,
        budget: u64,
    ) -> Vec<u32> {
        if !self.on {
            return core;
        }
        // (A sub-cube of one dimension always embeds.)
        'smaller: while core.len() > 2 {
            let mut distinct = core.clone();
            distinct.dedup();
            for &left_out in &distinct {
                let mut part = core.clone();
                let i = part.iter().position(|&x| x == left_out).unwrap_or(0);
                part.remove(i);
                let smaller = self
                    .refuting(&part)
                    .or_else(|| self.try_part(at, &part, budget));
                if let Some(smaller) = smaller {
                    core = smaller;
                    continue 'smaller;
                }
                if at.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                    break 'smaller;
                }
            }
            break;
        }
        self.keep(&core);
        core
    }

    /// [`Cores::shrink`]s every known core, on both threads.
    pub(in crate::optimal) fn shrink_all(&self, at: Probing, budget: u64) {
        self.known().into_par_iter().for_each(|core| {
            self.shrink(at, core, budget);
        });
    }

    /// Decides the sub-cube of the ascending distances `part` within
    /// `budget` nodes, unless it was tried with as many before: its core
    /// (the first distances its search could not extend) when it embeds
    /// nowhere, kept.
    fn try_part(&self, at: Probing, part: &[u32], budget: u64) -> Option<Vec<u32>> {
        {
            let mut tried = self.tried.lock().unwrap_or_else(|e| e.into_inner());
            let before = tried.entry(part.to_vec()).or_insert(0);
            if *before >= budget {
                return None;
            }
            *before = budget;
        }
        // Any (k+1)-cube needs Σ ≥ prefix_bound[k], whichever cube holds it.
        let bound = &at.prefix_bound[..part.len()];
        let settled = match decide_by_search(at.h, bound, part, budget, at.stop) {
            SearchAnswer::Refuted { core, .. } => {
                let core = part[..core].to_vec();
                self.keep(&core);
                Some(Some(core))
            }
            SearchAnswer::Embedding(_) => Some(None),
            SearchAnswer::Undecided { .. } => {
                if at.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                    // Not tried after all: a resumed run tries it again.
                    let mut tried = self.tried.lock().unwrap_or_else(|e| e.into_inner());
                    tried.remove(part);
                }
                None
            }
        };
        if let Some(core) = settled {
            let mut tried = self.tried.lock().unwrap_or_else(|e| e.into_inner());
            tried.insert(part.to_vec(), u64::MAX);
            return core;
        }
        None
    }
}

/// The sub-cubes of the ascending `dims` worth probing, ascending each:
/// for every distance D repeated m ≥ 3 times (and not the whole vector),
/// the run D^m alone, then with each other distance of the vector.
pub(in crate::optimal) fn probes(dims: &[u32]) -> Vec<Vec<u32>> {
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
pub(in crate::optimal) fn holds(dims: &[u32], part: &[u32]) -> bool {
    let mut rest = dims.iter();
    part.iter().all(|p| rest.any(|x| x == p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::optimal::bounds::cuts::Bounds;
    use std::collections::HashSet;

    #[test]
    fn a_vector_holds_a_part_as_a_multiset() {
        assert!(holds(&[1, 2, 2, 3], &[2, 2]));
        assert!(holds(&[1, 2, 2, 3], &[1, 3]));
        assert!(holds(&[1, 2, 2, 3], &[]));
        assert!(!holds(&[1, 2, 2, 3], &[2, 2, 2]));
        assert!(!holds(&[1, 2, 2, 3], &[4]));
        assert!(!holds(&[1, 2, 3], &[1, 1]));
    }

    /// Whether the cube of `dims` embeds in `h` with dimension j at
    /// distance dims[j] (ascending): the plainest depth-first search (node
    /// 0 at host node 0, the torus being vertex-transitive).
    fn embeds(h: &SearchHost, dims: &[u32]) -> bool {
        fn go(v: usize, h: &SearchHost, dims: &[u32], place: &mut Vec<u16>) -> bool {
            if v == place.len() {
                return true;
            }
            for u in 0..h.nodes() as u16 {
                let fits = !place[..v].contains(&u)
                    && (0..dims.len())
                        .filter(|&j| v >> j & 1 == 1)
                        .all(|j| u32::from(h.d(u, place[v ^ (1 << j)])) == dims[j]);
                if fits {
                    place[v] = u;
                    if go(v + 1, h, dims, place) {
                        return true;
                    }
                }
            }
            false
        }
        // Largest distance first: far fewer nodes on these tori.
        let mut descending = dims.to_vec();
        descending.reverse();
        go(1, h, &descending, &mut vec![0; 1 << dims.len()])
    }

    #[test]
    fn a_core_shrinks_to_one_that_embeds_nowhere_and_no_less() {
        // Every core the branch and bound finds below xor + 2 on small
        // tori, shrunk without a budget: part of it, embedding nowhere (by
        // the plainest search), and every part of it one distance short
        // embeds.
        let mut smaller = 0;
        for sides in [&[8, 8][..], &[16, 4], &[4, 4, 4], &[16, 2, 2]] {
            let h = SearchHost::new(sides);
            let d = h.nodes().trailing_zeros();
            let spec = crate::spec::Spec::Torus(sides.iter().map(|&k| u64::from(k)).collect());
            let p = crate::optimal::search::constant::prepare(d, &spec).unwrap();
            let at = Probing {
                h: &h,
                prefix_bound: &p.prefix_bound,
                stop: None,
            };
            let limit = p.xor_sum + 2;
            let vectors =
                crate::optimal::search::vectors::tests::all_below(sides, limit, Bounds::Counting);
            let mut seen = HashSet::new();
            for dims in vectors {
                let SearchAnswer::Refuted { core, .. } =
                    decide_by_search(&h, &p.prefix_bound, &dims, 0, None)
                else {
                    continue;
                };
                let core = dims[..core].to_vec();
                if core.len() == dims.len() || !seen.insert(core.clone()) {
                    continue;
                }
                let cores = Cores::new(true, &[]);
                let shrunk = cores.shrink(at, core.clone(), u64::MAX);
                assert!(holds(&core, &shrunk), "{sides:?} {core:?} {shrunk:?}");
                assert!(!embeds(&h, &shrunk), "{sides:?} {shrunk:?}");
                for i in 0..shrunk.len() {
                    let mut part = shrunk.clone();
                    part.remove(i);
                    assert!(embeds(&h, &part), "{sides:?} {shrunk:?} less {i}");
                }
                assert_eq!(cores.refuting(&dims), Some(shrunk.clone()));
                smaller += usize::from(shrunk.len() < core.len());
            }
        }
        assert!(smaller > 0);
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
