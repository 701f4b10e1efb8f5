//! The order in which a search by vectors ([`crate::optimal::search::vectors`]) gives its
//! vectors their turns ([`crate::optimal::search::turns`]), across sums.
//!
//! Every vector takes turns until one decides it, each with four times the
//! last's budgets; a vector's next turn waits behind every turn of a lower
//! *rank*: its turn count, plus [`LOOKAHEAD`] for each sum above the
//! least one searched. So a sum's vectors all take their first turn before
//! any takes its second (a hard one waits for the cores the easy ones
//! find), and the next sum's vectors take their first turn beside a sum's
//! fourth, rather than after its last: on torus:32x32 one vector of sum 44
//! was left after an hour while none of the 1 423 of sum 45 had been tried.
//!
//! The threads take turns from one queue as soon as they are free, so a
//! long turn holds one thread and never the other. An embedding found
//! ends every sum from its own on; the search ends when every sum below
//! it is decided (the least sum with an embedding is the optimum).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::{Condvar, Mutex};

use crate::error::{Error, Result};
use crate::optimal::certificate::refuted::Refuted;
use crate::optimal::search::turns::{Decision, Turns};

/// How many turns the vectors of one sum take before those of the next sum
/// take their first (beside their fourth).
pub const LOOKAHEAD: u32 = 3;

/// One vector's next turn.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    /// Turns taken, plus [`LOOKAHEAD`] for each sum above the least.
    rank: u32,
    /// Its sum's level (0: the least sum searched) and its place there.
    level: usize,
    index: usize,
    /// The turns it has taken.
    taken: u32,
}

/// What the threads share.
struct State {
    queue: BinaryHeap<Reverse<Entry>>,
    /// Turns being taken now.
    busy: usize,
    /// Vectors not yet decided, by level.
    open: Vec<usize>,
    /// The least level with a vector not yet decided (`open.len()`: none).
    least_open: usize,
    /// The least level with an embedding, and the embedding.
    found: Option<(usize, usize, Vec<u16>)>,
    refuted: Vec<Refuted>,
    /// Vectors decided here (not by a resumed run).
    decided: u64,
    /// Why the search ended early: Ctrl-C, the limit, or an error.
    stopped: bool,
    limited: bool,
    error: Option<Error>,
}

impl State {
    /// A vector is left to decide below the least sum with an embedding.
    fn left(&self) -> bool {
        self.least_open < self.open.len()
            && self.found.as_ref().map_or(true, |f| self.least_open < f.0)
    }
}

/// What [`take_turns`] ends with.
pub(in crate::optimal) struct Outcome {
    /// The least sum's level with an embedding, the vector's index there,
    /// and the embedding.
    pub found: Option<(usize, usize, Vec<u16>)>,
    /// Every refutation so far, the earlier run's first.
    pub refuted: Vec<Refuted>,
    pub decided: u64,
    /// The least level with a vector left undecided (`levels.len()`: none),
    /// when the search was stopped (Ctrl-C or the limit); `None` when it
    /// completed.
    pub stopped_at: Option<usize>,
}

/// What the turns call back to, per vector.
pub(in crate::optimal) struct Turn<'a> {
    /// One turn at a vector with these budgets.
    pub take: &'a (dyn Fn(&[u32], Turns) -> Result<Decision> + Sync),
    /// Called with every refutation (the cores learn it) and every vector
    /// decided (progress), outside the queue's lock.
    pub learned: &'a (dyn Fn(&Refuted) + Sync),
    pub decided: &'a (dyn Fn() + Sync),
    /// Called with all refutations so far, under the lock, after each one
    /// (the record writes them now and then) and when a level is decided
    /// (`true`: written at once).
    pub record: &'a (dyn Fn(&[Refuted], bool) -> Result<()> + Sync),
}

/// Decides the vectors of `levels` (one per sum, increasing) in turns from
/// `first` (module docs) on `threads` threads, after the refutations
/// `earlier` of a resumed run. `limit` (vectors; 0: none) stops the search
/// once that many are decided here, while a vector is left (the turns
/// under way finish, so two threads may decide one more).
pub(in crate::optimal) fn take_turns(
    levels: &[Vec<Vec<u32>>],
    first: Turns,
    threads: usize,
    limit: u64,
    earlier: Vec<Refuted>,
    turn: &Turn,
) -> Result<Outcome> {
    let open: Vec<usize> = levels.iter().map(Vec::len).collect();
    let least_open = open.iter().position(|&n| n > 0).unwrap_or(open.len());
    let mut queue = BinaryHeap::new();
    for (level, vectors) in levels.iter().enumerate().skip(least_open) {
        for index in 0..vectors.len() {
            queue.push(Reverse(Entry {
                rank: LOOKAHEAD * (level - least_open) as u32,
                level,
                index,
                taken: 0,
            }));
        }
    }
    let state = Mutex::new(State {
        queue,
        busy: 0,
        open,
        least_open,
        found: None,
        refuted: earlier,
        decided: 0,
        stopped: false,
        limited: false,
        error: None,
    });
    let wake = Condvar::new();
    // Plain threads, not rayon's: a rayon thread waiting on a join could
    // take up another worker's loop and wait on the queue forever.
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| work(levels, first, limit, turn, &state, &wake));
        }
    });
    let state = state.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = state.error {
        return Err(e);
    }
    let left = state.left();
    Ok(Outcome {
        found: state.found,
        refuted: state.refuted,
        decided: state.decided,
        stopped_at: (left && (state.stopped || state.limited)).then_some(state.least_open),
    })
}

/// One thread's loop: the next turn in rank, until none is left (or the
/// search ends early).
fn work(
    levels: &[Vec<Vec<u32>>],
    first: Turns,
    limit: u64,
    turn: &Turn,
    state: &Mutex<State>,
    wake: &Condvar,
) {
    let lock = || state.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        let entry = {
            let mut s = lock();
            loop {
                if s.stopped || s.limited || s.error.is_some() {
                    wake.notify_all();
                    return;
                }
                match s.queue.pop() {
                    // Sums from the least with an embedding on are settled.
                    Some(Reverse(e)) if s.found.as_ref().is_some_and(|f| e.level >= f.0) => {}
                    Some(Reverse(e)) => {
                        s.busy += 1;
                        break e;
                    }
                    None if s.busy == 0 => {
                        wake.notify_all();
                        return;
                    }
                    None => s = wake.wait(s).unwrap_or_else(|e| e.into_inner()),
                }
            }
        };
        let dims = &levels[entry.level][entry.index];
        let budgets = (0..entry.taken).fold(first, |t, _| t.next());
        let answer = (turn.take)(dims, budgets);
        match &answer {
            Ok(Decision::Refuted(r)) => {
                (turn.learned)(r);
                (turn.decided)();
            }
            Ok(Decision::Embedding(_)) => (turn.decided)(),
            _ => {}
        }
        let mut s = lock();
        s.busy -= 1;
        let decided = match answer {
            Err(e) => {
                s.error.get_or_insert(e);
                false
            }
            Ok(Decision::Stopped) => {
                s.stopped = true;
                false
            }
            Ok(Decision::Undecided) => {
                s.queue.push(Reverse(Entry {
                    rank: entry.rank + 1,
                    taken: entry.taken + 1,
                    ..entry
                }));
                false
            }
            Ok(Decision::Embedding(place)) => {
                if s.found.as_ref().map_or(true, |f| entry.level < f.0) {
                    s.found = Some((entry.level, entry.index, place));
                }
                true
            }
            Ok(Decision::Refuted(r)) => {
                s.refuted.push(r);
                if let Err(e) = (turn.record)(&s.refuted, false) {
                    s.error.get_or_insert(e);
                }
                true
            }
        };
        if decided {
            s.decided += 1;
            s.open[entry.level] -= 1;
            settle(&mut s, turn);
            // The limit stops the search only while a vector is left.
            if limit > 0 && s.decided >= limit && s.left() {
                s.limited = true;
            }
        }
        wake.notify_all();
    }
}

/// Moves the least open level past the levels decided whole, and writes
/// the record when one was.
fn settle(s: &mut State, turn: &Turn) {
    let before = s.least_open;
    while s.least_open < s.open.len() && s.open[s.least_open] == 0 {
        s.least_open += 1;
    }
    if s.least_open > before {
        if let Err(e) = (turn.record)(&s.refuted, true) {
            s.error.get_or_insert(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// What a made-up vector does: `turns` turns undecided, then embeds or
    /// is refuted (its distances: [level, index]).
    #[derive(Clone, Copy)]
    struct Fate {
        turns: u32,
        embeds: bool,
    }

    const REFUTED: Fate = Fate {
        turns: 0,
        embeds: false,
    };

    /// Runs the queue over `fates` (by level) on `threads` threads: the
    /// outcome, and the turns taken in order as (level, index, turn).
    fn run(fates: &[Vec<Fate>], threads: usize, limit: u64) -> (Outcome, Vec<(u32, u32, u32)>) {
        let levels: Vec<Vec<Vec<u32>>> = fates
            .iter()
            .enumerate()
            .map(|(l, f)| (0..f.len() as u32).map(|i| vec![l as u32, i]).collect())
            .collect();
        let log = Mutex::new(Vec::new());
        let take = |dims: &[u32], budgets: Turns| {
            // The first turn has budget 1; each later one four times more.
            let taken = budgets.search_nodes.trailing_zeros() / 2;
            log.lock().unwrap().push((dims[0], dims[1], taken));
            let fate = fates[dims[0] as usize][dims[1] as usize];
            Ok(match (taken >= fate.turns, fate.embeds) {
                (false, _) => Decision::Undecided,
                (true, true) => Decision::Embedding(vec![dims[1] as u16]),
                (true, false) => Decision::Refuted(Refuted::by_search(dims, 1, 2)),
            })
        };
        let first = Turns {
            search_nodes: 1,
            proof_bytes: 0,
            ..Turns::DEFAULT
        };
        let turn = Turn {
            take: &take,
            learned: &|_| {},
            decided: &|| {},
            record: &|_, _| Ok(()),
        };
        let outcome = take_turns(&levels, first, threads, limit, Vec::new(), &turn).unwrap();
        (outcome, log.into_inner().unwrap())
    }

    #[test]
    fn turns_go_in_rank_and_the_next_sum_joins_at_the_fourth() {
        let hard = |turns| Fate {
            turns,
            embeds: false,
        };
        let fates = vec![
            vec![hard(4), REFUTED],
            vec![
                REFUTED,
                Fate {
                    turns: 1,
                    embeds: true,
                },
            ],
        ];
        let (outcome, log) = run(&fates, 1, 0);
        assert_eq!(
            log,
            [
                (0, 0, 0),
                (0, 1, 0),
                (0, 0, 1),
                (0, 0, 2),
                // Rank 3: the hard vector's fourth turn, then the next sum's first.
                (0, 0, 3),
                (1, 0, 0),
                (1, 1, 0),
                (0, 0, 4),
                (1, 1, 1),
            ]
        );
        let (level, index, _) = outcome.found.unwrap();
        assert_eq!((level, index), (1, 1));
        assert_eq!(outcome.stopped_at, None);
        let refuted: Vec<_> = outcome
            .refuted
            .iter()
            .map(|r| r.distances.clone())
            .collect();
        assert_eq!(refuted, [vec![0, 1], vec![1, 0], vec![0, 0]]);
    }

    #[test]
    fn an_embedding_ends_its_sum_and_those_above_but_not_those_below() {
        // The embedding of the second sum comes first; the first sum's
        // embedding, found later, is the optimum; the third sum's vectors
        // (rank 6 on) are never taken.
        let fates = vec![
            vec![
                Fate {
                    turns: 5,
                    embeds: true,
                },
                REFUTED,
            ],
            vec![
                Fate {
                    turns: 0,
                    embeds: true,
                },
                REFUTED,
            ],
            vec![REFUTED; 3],
        ];
        let (outcome, log) = run(&fates, 1, 0);
        let (level, index, _) = outcome.found.unwrap();
        assert_eq!((level, index), (0, 0));
        assert!(log.iter().all(|&(l, _, _)| l < 2), "{log:?}");
        assert_eq!(outcome.stopped_at, None);
        let fates = vec![
            vec![hard_then_refuted(5)],
            vec![
                Fate {
                    turns: 0,
                    embeds: true,
                },
                hard_then_refuted(9),
            ],
        ];
        // The first sum refuted, the second's embedding is the optimum
        // whatever its other vector would take.
        let (outcome, log) = run(&fates, 1, 0);
        assert_eq!(outcome.found.map(|f| (f.0, f.1)), Some((1, 0)));
        assert!(log.iter().all(|&(l, i, _)| (l, i) != (1, 1)), "{log:?}");
    }

    fn hard_then_refuted(turns: u32) -> Fate {
        Fate {
            turns,
            embeds: false,
        }
    }

    #[test]
    fn the_limit_stops_after_that_many_vectors() {
        // Sums of 3, 2 and 2 vectors, a limit of 4: the first sum and one
        // vector of the second decided; on two threads, the turn under way
        // when the limit is reached finishes too.
        let fates = vec![vec![REFUTED; 3], vec![REFUTED; 2], vec![REFUTED; 2]];
        let (outcome, _) = run(&fates, 1, 4);
        assert!(outcome.found.is_none());
        assert_eq!((outcome.stopped_at, outcome.decided), (Some(1), 4));
        for _ in 0..20 {
            let (outcome, _) = run(&fates, 2, 4);
            match outcome.decided {
                4 => assert_eq!(outcome.stopped_at, Some(1)),
                5 => assert_eq!(outcome.stopped_at, Some(2)),
                other => panic!("{other} decided"),
            }
        }
        // No vector left: not stopped.
        let (outcome, _) = run(&fates[..1], 1, 3);
        assert_eq!(outcome.stopped_at, None);
    }

    #[test]
    fn two_threads_find_what_one_finds() {
        // Made-up searches (a small LCG): the least sum with an embedding,
        // and every vector below it refuted, on one thread and on two.
        let mut seed = 12345u64;
        let mut next = |m: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % m
        };
        for _ in 0..50 {
            let fates: Vec<Vec<Fate>> = (0..1 + next(5))
                .map(|_| {
                    (0..1 + next(6))
                        .map(|_| Fate {
                            turns: next(6) as u32,
                            embeds: next(8) == 0,
                        })
                        .collect()
                })
                .collect();
            let least = fates.iter().position(|l| l.iter().any(|f| f.embeds));
            for threads in [1, 2] {
                let (outcome, _) = run(&fates, threads, 0);
                assert_eq!(outcome.found.as_ref().map(|f| f.0), least);
                let decided_below: usize = outcome
                    .refuted
                    .iter()
                    .filter(|r| least.map_or(true, |l| (r.distances[0] as usize) < l))
                    .count();
                let below: usize = fates[..least.unwrap_or(fates.len())]
                    .iter()
                    .map(Vec::len)
                    .sum();
                assert_eq!(decided_below, below);
                assert_eq!(outcome.stopped_at, None);
            }
        }
    }

    #[test]
    fn a_stop_or_an_error_ends_the_search() {
        let levels = vec![vec![vec![1, 1]], vec![vec![1, 2], vec![2, 2]]];
        let first = Turns {
            search_nodes: 1,
            proof_bytes: 0,
            ..Turns::DEFAULT
        };
        let stopping = |dims: &[u32], _: Turns| {
            Ok(if dims == [1, 1] {
                Decision::Refuted(Refuted::by_search(dims, 1, 2))
            } else {
                Decision::Stopped
            })
        };
        let failing = |_: &[u32], _: Turns| Err(Error::File("the solver failed".into()));
        let quiet = |take: &(dyn Fn(&[u32], Turns) -> Result<Decision> + Sync)| {
            take_turns(
                &levels,
                first,
                2,
                0,
                Vec::new(),
                &Turn {
                    take,
                    learned: &|_| {},
                    decided: &|| {},
                    record: &|_, _| Ok(()),
                },
            )
        };
        let outcome = quiet(&stopping).unwrap();
        assert_eq!(outcome.stopped_at, Some(1));
        assert_eq!(outcome.refuted.len(), 1);
        let e = quiet(&failing).err().unwrap().to_string();
        assert!(e.contains("the solver failed"), "{e}");
    }
}
