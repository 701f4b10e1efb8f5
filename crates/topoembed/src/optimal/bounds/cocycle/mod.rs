//! The winding cocycle: the winding lemma for any number of pairs.
//!
//! The winding lemma ([`crate::optimal::bounds::windings`]) speaks when exactly one pair of
//! dimensions reaches half an axis. With several such pairs its argument
//! still says which faces of the cube may wind, and how: this module turns
//! that into a cut, decided by a small exhaustive search.
//!
//! *Let A be the axes a of the torus (side k_a) on which every distance is
//! below k_a/2 and Σ D_i is below the lift lemma's bound
//! ([`crate::optimal::bounds::lift::lift_bound`]), H_a the dimensions that pair with
//! another to reach k_a/2 (D_i + D_j ≥ k_a/2), H the union of the H_a, and
//! X = Σ_{b ∉ A} ⌊k_b/2⌋ the diameter of the other axes. If an embedding
//! exists, the |H|-cube Q_H has a map p into the torus T_A of the axes in A
//! with p(0) = 0, every edge of dimension i between D_i − X and D_i long,
//! and, for every axis a in A, a face whose four steps along a (each the
//! shorter way round, unique as D_i < k_a/2) do not add up to 0.*
//!
//! Proof. Let f be the embedding and p the projection onto T_A of f on the
//! copy of Q_H through node 0 (every dimension outside H zero), translated
//! so that p(0) = 0: an edge of dimension i is D_i long in the torus, the
//! sum of its lengths along the axes, of which at most X lie outside A.
//! Fix a in A. Round a face of dimensions i, j, f's four steps along a add
//! up to w·k_a for an integer w, the face's winding, with
//! |w|·k_a ≤ 2(D_i + D_j): a face of a pair below k_a/2 winds 0. Round a
//! 3-cube the six faces' windings, oriented as its boundary, add up to 0
//! (every edge's step is counted once each way); if m is outside H_a, the
//! four faces with m wind 0, so the two faces of {i, j} wind alike: a
//! face's winding does not change along a dimension outside H_a. If every
//! face wound 0, the coordinate would lift to the integers (steps 1–3 of
//! the axis lemma, [`crate::optimal::bounds::cuts`]) and the lift lemma would give Σ D_i at
//! least its bound: so some face winds, its two dimensions in H_a, and
//! moved along the dimensions outside H (outside H_a) to the copy of Q_H
//! through node 0 it still winds. There p's steps are f's. ∎
//!
//! The search then looks for p, and where none exists the vector has no
//! embedding. Translating the cube by a node of Q_H (and the torus by its
//! image) keeps every distance and turns a winding face into one through
//! node 0, so the first axis of A winds on a face through node 0: the
//! search tries each pair of H that reaches its half (one face per pair of
//! distances: swapping dimensions of equal distances keeps every distance;
//! the faces through node 0 of the pairs tried before are barred from
//! winding), first placing that face (the torus's reflections fix node 1's
//! image up to sign), and then every other node of Q_H next to those
//! already placed. A face's four steps along a add up to w·k_a, so while
//! some of its edges are not placed it can still wind only if they, at
//! most their distances long, make up k_a − |the steps so far|, and stay
//! at 0 only if they make up |the steps so far|. What the search finds out
//! is how the faces share edges: a winding face needs its four edges to
//! move k_a along a between them, a pair adding up to k_a/2 leaves no room
//! to move elsewhere, and every axis needs such a face. On torus:16x16x2,
//! (1, 1, 1, 1, 2, 2, 4, 4, 4) — three pairs of 4 + 4 = 8 — is cut so: two
//! faces of its 3-cube wind round each of the two long axes (the windings
//! round a 3-cube add up to 0), moving their edges along that axis only,
//! and two such faces of different axes always share an edge.
//!
//! It searches twice. The *open* search places the other nodes in
//! ascending order while every other axis has some face that can still
//! wind round it: it refutes fast. Where it runs out of its budget, the
//! *planned* search also branches on the face that winds round each later
//! axis (the faces tried before barred from winding round it) and places
//! the winding faces first, each reached by a path from node 0: it finds
//! maps where the open one wanders (xor's own on torus:32x32 and
//! 16x16x2), at the cost of refuting every branch. Each is exhaustive
//! within its budget of placements ([`SEARCH_BUDGET`]); past both, the
//! vector is not cut (so the answer never depends on the machine).

use std::collections::HashMap;

use crate::optimal::bounds::lift::lift_bound;
use search::Search;

mod search;

/// The most placements each of the two searches for p makes before it
/// gives up; past both, the vector is left to the branch and bound (and
/// the solver).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// The open search's.
    pub open: u64,
    /// The planned search's.
    pub planned: u64,
}

impl Budget {
    /// Whether every search is at least as long as `other`'s: then every
    /// key `other` decides this one decides alike (each search is
    /// exhaustive within its budget; a cut is a search that ends without
    /// a map, and where the planned search refutes, no map exists for the
    /// open one to find).
    pub fn covers(self, other: Budget) -> bool {
        self.open >= other.open && self.planned >= other.planned
    }
}

/// The searches' budget. Where a budget runs out its placements are spent
/// for nothing, and on the tori settled here most keys that are not cut
/// run out of both; where it binds, a key cut is a vector the branch and
/// bound need not decide. `bench/optimal_default.sh`, 2 cores AMD EPYC,
/// medians of 3, before (2^18, 2^18) → after: torus:32x32 58.5 s → 50.7 s,
/// 2 731 vectors left → 2 954 (the branch and bound refutes the 223 more
/// in less time than the searches took, most by a sub-cube refuted
/// before; the searches before the first vector 1.6 s where they took
/// 11.5), torus:16x16 0.18 → 0.04 s, torus:16x16x2 0.46 → 0.10 s,
/// torus:8x8x8 0.25 → 0.04 s, the same vectors left on every other
/// torus. The open search decides nothing on these tori past 2^10
/// placements that the planned one does not (from 2^4 to 2^17 it left
/// torus:32x32 the same 2 954 vectors); the planned one binds: 2^16
/// leaves 3 273, 55 s.
pub const SEARCH_BUDGET: Budget = Budget {
    open: 1 << 10,
    planned: 1 << 17,
};

/// The budget of the searches [`Verdicts::checking`] runs, for the
/// certificate's checker: it covers ([`Budget::covers`]) every budget a
/// certificate was written with — [`SEARCH_BUDGET`], and (2^18, 2^18)
/// before 2026-11-30 — so that every vector a writer's searches cut the
/// checker's cut too.
pub const CHECK_BUDGET: Budget = Budget {
    open: 1 << 18,
    planned: 1 << 18,
};

/// The most dimensions in H the search takes on.
pub const MAX_HEAVY: usize = 6;

/// The most axes in A the search takes on.
pub const MAX_AXES: usize = 4;

/// What the lemma needs of a vector (module docs): the axes A, the
/// distances of H, and X. Vectors with the same key are cut alike.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Key {
    /// The sides of the axes in A.
    sides: Vec<u16>,
    /// The distances of the dimensions in H, ascending.
    heavy: Vec<u32>,
    /// The diameter of the axes outside A.
    rest: u32,
    /// Whether H is empty for some axis of A (the lift lemma cuts then).
    lifts: bool,
}

/// The lemma's view of `dims` on a torus of `sides`; None where it says
/// nothing (no axis in A, or H too large to search).
pub fn key(sides: &[u32], dims: &[u32]) -> Option<Key> {
    let total: u32 = dims.iter().sum();
    let axes: Vec<usize> = (0..sides.len())
        .filter(|&a| total < lift_bound(sides, a) && dims.iter().all(|&x| 2 * x < sides[a]))
        .collect();
    if axes.is_empty() {
        return None;
    }
    let mut in_heavy = vec![false; dims.len()];
    let mut lifts = false;
    for &a in &axes {
        let mut any = false;
        for p in 0..dims.len() {
            for q in p + 1..dims.len() {
                if 2 * (dims[p] + dims[q]) >= sides[a] {
                    in_heavy[p] = true;
                    in_heavy[q] = true;
                    any = true;
                }
            }
        }
        lifts |= !any;
    }
    let mut heavy: Vec<u32> = (0..dims.len())
        .filter(|&i| in_heavy[i])
        .map(|i| dims[i])
        .collect();
    heavy.sort_unstable();
    if heavy.len() > MAX_HEAVY || axes.len() > MAX_AXES {
        return None;
    }
    let rest = (0..sides.len())
        .filter(|b| !axes.contains(b))
        .map(|b| sides[b] / 2)
        .sum();
    Some(Key {
        sides: axes.iter().map(|&a| sides[a] as u16).collect(),
        heavy,
        rest,
        lifts,
    })
}

/// Whether the lemma rules out every embedding of `dims` on a torus of
/// `sides` (module docs).
pub fn rules_out(sides: &[u32], dims: &[u32]) -> bool {
    key(sides, dims).is_some_and(|k| k.rules_out())
}

/// The lemma's verdicts so far, per key: vectors of one key are cut
/// alike, and the search runs once per key.
#[derive(Debug)]
pub struct Verdicts {
    cut: HashMap<Key, bool>,
    /// Each search's placements at most.
    budget: Budget,
}

impl Default for Verdicts {
    /// The searches' verdicts within [`SEARCH_BUDGET`].
    fn default() -> Verdicts {
        Verdicts::within(SEARCH_BUDGET)
    }
}

impl Verdicts {
    /// The checker's verdicts, within [`CHECK_BUDGET`].
    pub fn checking() -> Verdicts {
        Verdicts::within(CHECK_BUDGET)
    }

    /// None yet; each key searched within `budget`.
    fn within(budget: Budget) -> Verdicts {
        Verdicts {
            cut: HashMap::new(),
            budget,
        }
    }

    /// Whether the lemma rules out every embedding of `dims` on a torus of
    /// `sides`, as [`rules_out`], searching once per key.
    pub fn rules_out(&mut self, sides: &[u32], dims: &[u32]) -> bool {
        let Some(key) = key(sides, dims) else {
            return false;
        };
        if let Some(&cut) = self.cut.get(&key) {
            return cut;
        }
        let cut = key.rules_out_within(self.budget);
        self.cut.insert(key, cut);
        cut
    }

    /// Searches, on all cores, the keys of `vectors` not searched yet, so
    /// that [`Verdicts::rules_out`] answers them from memory (on
    /// torus:32x32 the searches of one sum's keys take most of the time
    /// before the first vector is decided).
    pub fn settle<'v>(&mut self, sides: &[u32], vectors: impl Iterator<Item = &'v Vec<u32>>) {
        use rayon::prelude::*;
        let keys: std::collections::HashSet<Key> = vectors
            .filter_map(|dims| key(sides, dims))
            .filter(|k| !self.cut.contains_key(k))
            .collect();
        let keys: Vec<Key> = keys.into_iter().collect();
        let budget = self.budget;
        let cuts: Vec<bool> = keys
            .par_iter()
            .map(|key| key.rules_out_within(budget))
            .collect();
        self.cut.extend(keys.into_iter().zip(cuts));
    }
}

/// What the search for p found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// No map p: the vector has no embedding.
    Cut,
    /// A map p (the position of every node of Q_H, one coordinate per
    /// axis of A): the lemma does not cut the vector.
    Maps(Vec<Vec<u32>>),
    /// Both searches passed their budget of placements.
    Unknown,
}

impl Key {
    /// Whether no map p exists (module docs): [`Verdict::Cut`] only when
    /// a search, exhaustive within [`SEARCH_BUDGET`], ends
    /// without one.
    pub fn rules_out(&self) -> bool {
        self.rules_out_within(SEARCH_BUDGET)
    }

    /// [`Key::rules_out`] within `budget`.
    pub fn rules_out_within(&self, budget: Budget) -> bool {
        self.search_within(budget) == Verdict::Cut
    }

    /// The search for p (module docs), within [`SEARCH_BUDGET`].
    pub fn search(&self) -> Verdict {
        self.search_within(SEARCH_BUDGET)
    }

    /// [`Key::search`] within `budget`.
    pub fn search_within(&self, budget: Budget) -> Verdict {
        if self.lifts {
            return Verdict::Cut;
        }
        let mut search = Search::new(self, budget);
        // The open search refutes fast; the planned one finds maps where
        // the open one runs out of its budget.
        let mut found = search.run(false);
        if found.is_none() {
            found = search.run(true);
        }
        match found {
            Some(true) => {
                let axes = self.sides.len();
                Verdict::Maps(
                    search
                        .at
                        .iter()
                        .map(|p| p[..axes].iter().map(|&c| u32::from(c)).collect())
                        .collect(),
                )
            }
            Some(false) => Verdict::Cut,
            None => Verdict::Unknown,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The step from `from` to `to` round a cycle of k points, the shorter
    /// way (in (−k/2, k/2]). Written here, apart from the search's own, so
    /// that the oracles below do not lean on the code they check.
    fn signed_step(k: i64, from: i64, to: i64) -> i64 {
        let t = (to - from).rem_euclid(k);
        if 2 * t > k {
            t - k
        } else {
            t
        }
    }

    /// Whether `map` is a map p of the key (module docs), checked from
    /// scratch: node 0 at 0, every edge of dimension i between D_i − X
    /// and D_i long over A, and a face winding round every axis.
    fn holds(key: &Key, map: &[Vec<u32>]) -> bool {
        let sides: Vec<i64> = key.sides.iter().map(|&k| i64::from(k)).collect();
        let h = key.heavy.len();
        let step = |a: usize, x: usize, y: usize| {
            signed_step(sides[a], i64::from(map[x][a]), i64::from(map[y][a]))
        };
        let edges_fit = (0..1usize << h).all(|x| {
            (0..h).all(|i| {
                let length: i64 = (0..sides.len()).map(|a| step(a, x, x ^ 1 << i).abs()).sum();
                let d = i64::from(key.heavy[i]);
                length <= d && length + i64::from(key.rest) >= d
            })
        });
        let winds = |a: usize| {
            (0..h).any(|i| {
                (i + 1..h).any(|j| {
                    (0..1usize << h).any(|x| {
                        let c = [x, x ^ 1 << i, x ^ 1 << i ^ 1 << j, x ^ 1 << j, x];
                        c.windows(2).map(|w| step(a, w[0], w[1])).sum::<i64>() != 0
                    })
                })
            })
        };
        map.len() == 1 << h
            && map[0].iter().all(|&c| c == 0)
            && edges_fit
            && (0..sides.len()).all(winds)
    }

    /// Every map p of the key's cube by brute force (node 0 at 0, then
    /// every node on every point of T_A within its edges' lengths of its
    /// placed neighbours), without the search's symmetries or pruning:
    /// whether one winds along every axis.
    fn some_map_by_brute_force(key: &Key) -> bool {
        let sides: Vec<u32> = key.sides.iter().map(|&k| u32::from(k)).collect();
        let points: Vec<Vec<u32>> = (0..sides.iter().product::<u32>())
            .map(|mut x| {
                sides
                    .iter()
                    .map(|&k| {
                        let c = x % k;
                        x /= k;
                        c
                    })
                    .collect()
            })
            .collect();
        let lee = |x: &[u32], y: &[u32]| -> u32 {
            sides
                .iter()
                .zip(x.iter().zip(y))
                .map(|(&k, (&a, &b))| a.abs_diff(b).min(k - a.abs_diff(b)))
                .sum()
        };
        let step = |k: u32, a: u32, b: u32| signed_step(k.into(), a.into(), b.into());
        fn go(
            v: usize,
            at: &mut Vec<usize>,
            key: &Key,
            points: &[Vec<u32>],
            lee: &dyn Fn(&[u32], &[u32]) -> u32,
            done: &dyn Fn(&[usize]) -> bool,
        ) -> bool {
            let h = key.heavy.len();
            if v == 1 << h {
                return done(at);
            }
            for x in 0..points.len() {
                let fits = (0..h).filter(|&l| v >> l & 1 == 1).all(|l| {
                    let r = lee(&points[x], &points[at[v ^ 1 << l]]);
                    r <= key.heavy[l] && r + key.rest >= key.heavy[l]
                });
                if fits {
                    at.push(x);
                    if go(v + 1, at, key, points, lee, done) {
                        return true;
                    }
                    at.pop();
                }
            }
            false
        }
        let h = key.heavy.len();
        let done = |at: &[usize]| -> bool {
            (0..sides.len()).all(|a| {
                (0..h).any(|i| {
                    (i + 1..h).any(|j| {
                        (0..1usize << h)
                            .filter(|x| x >> i & 1 == 0 && x >> j & 1 == 0)
                            .any(|x| {
                                let c = [x, x | 1 << i, x | 1 << i | 1 << j, x | 1 << j, x];
                                c.windows(2)
                                    .map(|w| {
                                        step(sides[a], points[at[w[0]]][a], points[at[w[1]]][a])
                                    })
                                    .sum::<i64>()
                                    != 0
                            })
                    })
                })
            })
        };
        go(1, &mut vec![0], key, &points, &lee, &done)
    }

    /// Every key of `h` ascending distances from 1 to `top` on a torus of
    /// `sides` (A) with `rest` the diameter beyond, in turn.
    fn each_key(sides: &[u16], rest: u32, h: usize, top: u32, mut visit: impl FnMut(Key)) {
        let mut heavy = vec![1u32; h];
        loop {
            visit(Key {
                sides: sides.to_vec(),
                heavy: heavy.clone(),
                rest,
                lifts: false,
            });
            // The next ascending vector of h entries up to top.
            let Some(i) = (0..h).rev().find(|&i| heavy[i] < top) else {
                return;
            };
            let x = heavy[i] + 1;
            heavy[i..].iter_mut().for_each(|e| *e = x);
        }
    }

    #[test]
    fn the_search_answers_as_brute_force() {
        // Every key of two or three distances below k/2 on 8x8, 8x4 and
        // 8x4x4 (and with X = 1 on 8x8): the search finds a map exactly
        // when brute force does, and the map it gives holds.
        let mut seen = [0usize; 2]; // cut, maps
        let (mut unknown, mut decided_on_three_axes) = (0, 0);
        for (sides, rest) in [
            (vec![8u16, 8], 0),
            (vec![8, 8], 1),
            (vec![8, 4], 0),
            (vec![8, 4, 4], 0),
        ] {
            let top = u32::from(*sides.iter().min().unwrap() / 2) - 1;
            let top = top.max(u32::from(sides[0] / 2) - 1);
            for h in 2..=3usize {
                each_key(&sides, rest, h, top, |key| {
                    let heavy = &key.heavy;
                    let heavy_enough = (0..h).any(|i| {
                        (i + 1..h).any(|j| 2 * (heavy[i] + heavy[j]) >= u32::from(sides[0]))
                    });
                    if !heavy_enough {
                        return;
                    }
                    let verdict = key.search();
                    if verdict == Verdict::Unknown {
                        // Only on three axes (each needs two winding
                        // faces of the cube: a harder search).
                        assert_eq!(sides.len(), 3, "{key:?}");
                        unknown += 1;
                    } else {
                        let maps = some_map_by_brute_force(&key);
                        assert_eq!(matches!(verdict, Verdict::Maps(_)), maps, "{key:?}");
                        if let Verdict::Maps(map) = verdict {
                            assert!(holds(&key, &map), "{key:?}: {map:?}");
                        }
                        seen[usize::from(maps)] += 1;
                        if sides.len() == 3 {
                            decided_on_three_axes += 1;
                        }
                    }
                });
            }
        }
        assert!(seen[0] > 0 && seen[1] > 0, "{seen:?}");
        assert!(
            decided_on_three_axes > unknown,
            "{decided_on_three_axes} {unknown}"
        );
    }

    #[test]
    fn a_larger_budget_keeps_every_verdict() {
        // What the certificate checker relies on ([`CHECK_BUDGET`]): a cut
        // or a map found within a budget is found within any larger one
        // (each search is exhaustive within its budget); only an unknown
        // may turn into either.
        assert!(CHECK_BUDGET.covers(SEARCH_BUDGET));
        let kind = |v: &Verdict| match v {
            Verdict::Cut => 0,
            Verdict::Maps(_) => 1,
            Verdict::Unknown => 2,
        };
        let mut settled_later = 0;
        for (sides, rest) in [
            (vec![8u16, 8], 0),
            (vec![8, 8], 1),
            (vec![8, 4, 4], 0),
            (vec![16, 16], 0),
        ] {
            let top = u32::from(sides[0] / 2) - 1;
            each_key(&sides, rest, 3, top, |key| {
                let mut before = 2;
                // Longer open searches, then longer planned ones.
                let budgets = [(4, 4), (6, 4), (6, 6), (8, 6), (8, 8), (8, 10), (12, 12)];
                for (k, (open, planned)) in budgets.into_iter().enumerate() {
                    let budget = Budget {
                        open: 1 << open,
                        planned: 1 << planned,
                    };
                    let now = kind(&key.search_within(budget));
                    assert!(before == 2 || now == before, "{key:?} at {budget:?}");
                    settled_later += usize::from(before == 2 && now != 2 && k > 0);
                    before = now;
                }
            });
        }
        // The budgets bind somewhere, so the test compares something.
        assert!(settled_later > 0);
    }

    #[test]
    fn three_pairs_of_half_an_axis_on_two_axes_are_cut() {
        // The module docs' example: torus:16x16x2, three pairs 4 + 4 = 8.
        let dims = [1, 1, 1, 1, 2, 2, 4, 4, 4];
        let key = key(&[16, 16, 2], &dims).unwrap();
        assert_eq!(
            key,
            Key {
                sides: vec![16, 16],
                heavy: vec![4, 4, 4],
                rest: 1,
                lifts: false
            }
        );
        assert_eq!(key.search(), Verdict::Cut);
        // With one long axis only (16x8x4: the 8 has Σ = 20 above its
        // lift bound 7 + 8 + 2), one axis must wind: a map exists.
        assert!(!rules_out(&[16, 8, 4], &dims));
    }

    #[test]
    fn xor_is_never_cut() {
        // xor's own vectors, below the lift bound on these tori: each has
        // a map (on 16x16x2 an edge may be 3 or 4 long over A), and the
        // search finds one that holds.
        for (sides, dims) in [
            (vec![16, 16], vec![1, 1, 2, 2, 4, 4, 4, 4]),
            (vec![16, 16, 2], vec![1, 1, 1, 2, 2, 4, 4, 4, 4]),
            (vec![32, 32], vec![1, 1, 2, 2, 4, 4, 8, 8, 8, 8]),
            (vec![8, 8], vec![1, 1, 2, 2, 2, 2]),
        ] {
            let key = key(&sides, &dims).unwrap();
            let Verdict::Maps(map) = key.search() else {
                panic!("{sides:?}: no map");
            };
            assert!(holds(&key, &map), "{sides:?}: {map:?}");
        }
    }

    #[test]
    fn no_axis_or_too_many_dimensions_says_nothing() {
        // Σ at the lift bound on every axis: no A.
        assert_eq!(key(&[16, 16], &[1, 1, 2, 2, 4, 4, 4, 8]), None);
        // A distance of k/2 on the only long axis: no A.
        assert_eq!(key(&[16, 4], &[1, 1, 2, 8, 1, 1]), None);
        // Every pair below k/2 on an axis of A: the lift lemma's case.
        let k = key(&[64, 4], &[1, 1, 1, 1, 1, 1, 1, 2]).unwrap();
        assert!(k.lifts && k.rules_out());
    }
}
