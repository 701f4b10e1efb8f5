//! A team of the pool's threads for a loop that alternates many short
//! parallel batches with short serial steps (k-way FM's searches and
//! commits): the threads that join stay for the whole loop, take a batch's
//! items one at a time from a shared counter, and spin between batches, so
//! that no batch is forked, joined or woken for.
//!
//! A parallel loop per batch (`par_iter` over its items) costs a fork, a
//! join and, where the caller finishes first, a sleep and a wake-up; and
//! the items it splits into pieces up front leave a thread idle while the
//! other finishes its piece. Measured on mdual onto torus:8x8x8 (2 cores,
//! 2026-12-07, k-way FM at the uncoarsening's levels): the batches' wall
//! time on two threads was 0.94 s where their searches summed to 1.58 s,
//! 0.15 s beyond half of it, of which 0.15–0.19 s went to a thread idle
//! at a batch's end and 25–30 µs a batch to the join after the last item
//! (finer pieces, 64 a thread against 2, took only a third of that off).
//! Here an item is claimed by whichever thread is free, the caller waits
//! at most for the items other threads are running, and the threads spin
//! (yielding) in between. (Before, the other threads were kept awake only
//! through each serial step, by a job that yielded until it returned: an
//! idle rayon worker looks for work a few dozen rounds and then sleeps,
//! and a serial step of 10–50 µs outlasted that, so every batch began by
//! waking it — 26–31 µs a round beyond the ideal on this project's 2-core
//! VM, 10 µs kept awake.)
//!
//! Results come back in item order whatever thread ran which item, so a
//! loop that runs its items by their index alone takes the same steps on
//! any number of threads.

use std::any::Any;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// A batch as the threads see it: its item function and how many items.
struct Job<'a, S> {
    item: &'a (dyn Fn(&mut S, usize) + Sync),
    len: usize,
    /// Items claimed at once.
    grain: usize,
}

/// What the caller and the threads that joined share.
struct Shared {
    /// The batch being run (a `Job<'_, S>`), null between batches.
    job: AtomicPtr<()>,
    /// Batches published so far: a thread looks at `job` again only
    /// when this has moved.
    published: AtomicU64,
    /// The next item of the batch to claim, and the items finished.
    next: AtomicUsize,
    done: AtomicUsize,
    /// Threads that may be reading the batch: the caller frees it only
    /// when none is.
    inside: AtomicUsize,
    /// Set when the loop is over (or panicked): the threads leave.
    stop: AtomicBool,
    /// The first panic of an item run by another thread, resumed on the
    /// caller's.
    panic: Mutex<Option<Box<dyn Any + Send>>>,
}

/// The caller's handle on its team: [`Team::run`] runs a batch on every
/// thread that joined and on the caller's own, each with a state of its own
/// (`S`, made by `Default` where a thread joins — cheaply: the callers' is
/// an `Option` filled at the first item — and kept for the team's life).
pub struct Team<'a, S> {
    shared: &'a Shared,
    /// The caller's own state.
    own: S,
    /// Whether threads may join (a pool of two or more, called from it).
    helped: bool,
}

/// Runs `body` with a team of the current rayon pool's threads: the
/// other threads join where they are idle (one busy elsewhere joins when it
/// is done, or never) and leave when `body` returns or panics. Outside a
/// pool, in a pool of one thread, or where `helped` is false (batches of
/// one item, whose loop would only keep threads from other work),
/// [`Team::run`] runs every item on the caller's thread.
pub fn with_team<S: Default + Send, R>(
    helped: bool,
    body: impl FnOnce(&mut Team<'_, S>) -> R,
) -> R {
    let shared = Shared {
        job: AtomicPtr::new(std::ptr::null_mut()),
        published: AtomicU64::new(0),
        next: AtomicUsize::new(0),
        done: AtomicUsize::new(0),
        inside: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        panic: Mutex::new(None),
    };
    let threads = rayon::current_num_threads();
    if !helped || rayon::current_thread_index().is_none() || threads < 2 {
        let mut team = Team {
            shared: &shared,
            own: S::default(),
            helped: false,
        };
        return body(&mut team);
    }
    rayon::in_place_scope(|scope| {
        for _ in 1..threads {
            let shared = &shared;
            scope.spawn(move |_| help::<S>(shared));
        }
        // Set however `body` ends: a panic must not leave the threads
        // spinning (the scope waits for them).
        let _stop = Stop(&shared.stop);
        let mut team = Team {
            shared: &shared,
            own: S::default(),
            helped: true,
        };
        body(&mut team)
    })
}

impl<S: Send> Team<'_, S> {
    /// Runs `item(state, i)` for every i below `len`, on this thread and
    /// every thread of the team that is free, each item once, a thread
    /// claiming `grain` consecutive items at a time (1 for items of
    /// microseconds; more where an item takes less than the claim, a
    /// shared counter's cache line passed between cores); returns the
    /// results in item order.
    pub fn run<T: Send>(
        &mut self,
        (len, grain): (usize, usize),
        item: impl Fn(&mut S, usize) -> T + Sync,
    ) -> Vec<T> {
        if !self.helped || len < 2 {
            return (0..len).map(|i| item(&mut self.own, i)).collect();
        }
        let slots: Vec<Mutex<Option<T>>> = (0..len).map(|_| Mutex::new(None)).collect();
        let fill = |state: &mut S, i: usize| {
            let result = item(state, i);
            *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
        };
        let job = Job {
            item: &fill,
            len,
            grain: grain.max(1),
        };
        let shared = self.shared;
        shared.next.store(0, Ordering::Relaxed);
        shared.done.store(0, Ordering::Relaxed);
        shared
            .job
            .store(&job as *const Job<'_, S> as *mut (), Ordering::SeqCst);
        shared.published.fetch_add(1, Ordering::Release);
        let mine = catch_unwind(AssertUnwindSafe(|| work(shared, &job, &mut self.own)));
        // Every item claimed is finished (or panicked) before this returns,
        // and no thread reads the batch once `inside` is 0 after it was
        // taken away: `job` and `slots` outlive every use.
        while shared.done.load(Ordering::Acquire) < len {
            spin();
        }
        shared.job.store(std::ptr::null_mut(), Ordering::SeqCst);
        while shared.inside.load(Ordering::SeqCst) != 0 {
            spin();
        }
        if let Err(payload) = mine {
            resume_unwind(payload);
        }
        if let Some(payload) = shared
            .panic
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        {
            resume_unwind(payload);
        }
        slots
            .into_iter()
            .map(|slot| {
                slot.into_inner()
                    .unwrap_or_else(|e| e.into_inner())
                    .expect("every item ran once")
            })
            .collect()
    }
}

/// Claims and runs `job`'s items, `job.grain` at a time, until none is
/// left; each counts as done even where it panics (on the caller's thread
/// the panic is resumed after the batch, so the first item that panics
/// ends this thread's share).
fn work<S>(shared: &Shared, job: &Job<'_, S>, state: &mut S) {
    loop {
        let first = shared.next.fetch_add(job.grain, Ordering::Relaxed);
        if first >= job.len {
            return;
        }
        let end = (first + job.grain).min(job.len);
        let ran = catch_unwind(AssertUnwindSafe(|| {
            for i in first..end {
                (job.item)(state, i);
            }
        }));
        shared.done.fetch_add(end - first, Ordering::Release);
        if let Err(payload) = ran {
            // Every item not yet claimed counts as done too, so that the
            // caller does not wait for them; the first panic is kept.
            let claimed = shared.next.swap(job.len, Ordering::Relaxed);
            shared
                .done
                .fetch_add(job.len.saturating_sub(claimed), Ordering::Release);
            resume_unwind(payload);
        }
    }
}

/// A thread of the team: runs the items of every batch published while it
/// is free, until the loop is over.
fn help<S: Default>(shared: &Shared) {
    let mut state = S::default();
    let mut seen = 0;
    while !shared.stop.load(Ordering::Acquire) {
        let published = shared.published.load(Ordering::Acquire);
        if published == seen {
            spin();
            continue;
        }
        seen = published;
        shared.inside.fetch_add(1, Ordering::SeqCst);
        let job = shared.job.load(Ordering::SeqCst) as *const Job<'_, S>;
        if !job.is_null() {
            // SAFETY: the caller of `run` clears `job` and then waits for
            // `inside` to be 0 before the batch goes out of scope; this
            // thread raised `inside` before reading `job`, so the batch it
            // read is alive until `inside` is lowered below.
            let job = unsafe { &*job };
            if let Err(payload) = catch_unwind(AssertUnwindSafe(|| work(shared, job, &mut state))) {
                let mut first = shared.panic.lock().unwrap_or_else(|e| e.into_inner());
                first.get_or_insert(payload);
            }
        }
        shared.inside.fetch_sub(1, Ordering::SeqCst);
    }
}

/// One round of waiting: yield, as rayon's own idle loop does, so that
/// where the pool has more threads than the machine has cores the thread
/// with work gets the core.
fn spin() {
    std::thread::yield_now();
}

/// Sets its flag when dropped.
struct Stop<'a>(&'a AtomicBool);

impl Drop for Stop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool")
    }

    /// Every item runs once, results in item order, batch after batch
    /// with serial steps between them, on pools of 1 to 4 threads and
    /// outside any pool; a state stays with the thread that made it.
    #[test]
    fn every_item_once_in_order() {
        let check = || {
            with_team(true, |team: &mut Team<'_, Option<Option<usize>>>| {
                let mut total = 0;
                for batch in 0..300usize {
                    let len = batch % 37;
                    let got = team.run((len, 1 + batch % 3), |owner, i| {
                        let me = rayon::current_thread_index();
                        assert_eq!(*owner.get_or_insert(me), me, "a state changed threads");
                        (batch, i * i)
                    });
                    let want: Vec<(usize, usize)> = (0..len).map(|i| (batch, i * i)).collect();
                    assert_eq!(got, want);
                    total += got.len();
                }
                total
            })
        };
        let want: usize = (0..300).map(|b| b % 37).sum();
        assert_eq!(check(), want);
        for threads in 1..=4 {
            assert_eq!(pool(threads).install(check), want, "{threads} threads");
        }
    }

    /// With two threads and items long enough to be shared, both threads
    /// take items (the team is not the caller alone).
    #[test]
    fn the_other_threads_take_items() {
        let threads: HashSet<usize> = pool(2).install(|| {
            with_team(true, |team: &mut Team<'_, ()>| {
                let mut ran = HashSet::new();
                for _ in 0..50 {
                    let who = team.run((8, 1), |_, _| {
                        std::thread::sleep(std::time::Duration::from_millis(1));
                        rayon::current_thread_index()
                    });
                    ran.extend(who.into_iter().flatten());
                }
                ran
            })
        });
        assert_eq!(threads.len(), 2, "threads that ran items: {threads:?}");
    }

    /// Whether `body`, run with a team on `pool`, panicked (the panic
    /// caught on the caller's thread).
    fn panics_on(pool: &rayon::ThreadPool, body: impl FnOnce(&mut Team<'_, ()>) + Send) -> bool {
        pool.install(|| catch_unwind(AssertUnwindSafe(|| with_team(true, body))).is_err())
    }

    /// A panic in an item, on whatever thread, comes through on the
    /// caller's, and the team's threads are freed (a hang here would stall
    /// the test run); the pool still works afterwards.
    #[test]
    fn a_panic_comes_through_and_frees_the_team() {
        let pool = pool(3);
        for round in 0..40 {
            let caught = panics_on(&pool, |team| {
                team.run((16, 1), |_, i| {
                    if i == round % 16 {
                        panic!("item {i} failed");
                    }
                    i
                });
            });
            assert!(caught, "round {round}");
        }
        let sum: u64 = pool.install(|| {
            use rayon::prelude::*;
            (0..10_000u64).into_par_iter().sum()
        });
        assert_eq!(sum, 49_995_000);
    }

    /// A panic in the body between batches frees the team too.
    #[test]
    fn a_panic_between_batches_frees_the_team() {
        let pool = pool(2);
        for _ in 0..20 {
            assert!(panics_on(&pool, |team| {
                team.run((4, 1), |_, i| i);
                panic!("step failed");
            }));
        }
    }
}
