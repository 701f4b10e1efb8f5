//! A serial step between two parallel loops, run while the pool's other
//! threads stay awake for the loop that follows.
//!
//! An idle rayon worker looks for work for a few dozen rounds and then
//! sleeps; the next parallel loop must wake it (a futex wake, and on a
//! virtual machine an interrupt between cores) before it helps. Local
//! search and k-way FM alternate short parallel batches with short serial
//! commits many thousand times a map, and each commit outlasted the
//! worker's patience: measured on this project's 2-core VM (a loop of a
//! 15 µs serial step and 327 items of 150 ns in parallel, 2 000 rounds),
//! 26–31 µs a round beyond the ideal, 10 µs with the other thread kept
//! looking for work through the serial step. It changes no result, only
//! when threads run.

use std::sync::atomic::{AtomicBool, Ordering};

/// Runs `step` on this thread; meanwhile, where this thread is one of a
/// pool of two or more, the pool's other threads that are idle spin until
/// `step` has returned (or panicked), so that they are awake for the
/// parallel loop that follows. A thread busy elsewhere is not taken from
/// its work: a spin is a job it finds only when it looks for one, and one
/// that no thread took by the step's end this thread runs, and it returns
/// at once. Keep `step` short and serial — the spinning threads do no work
/// for it.
pub fn keep_the_pool_awake<R: Send>(step: impl FnOnce() -> R + Send) -> R {
    let threads = rayon::current_num_threads();
    if rayon::current_thread_index().is_none() || threads < 2 {
        return step();
    }
    let done = AtomicBool::new(false);
    rayon::in_place_scope(|scope| {
        for _ in 1..threads {
            scope.spawn(|_| {
                // Yielding, as rayon's own idle loop does: where the pool
                // has more threads than the machine has cores, the step's
                // thread gets the core.
                while !done.load(Ordering::Acquire) {
                    std::thread::yield_now();
                }
            });
        }
        // Set however `step` ends: a panic in it must not leave the
        // spinners spinning (the scope waits for them).
        let _done = Flag(&done);
        step()
    })
}

/// Sets its flag when dropped.
struct Flag<'a>(&'a AtomicBool);

impl Drop for Flag<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool")
    }

    /// The step's result comes back on any pool, and outside one.
    #[test]
    fn returns_the_steps_result() {
        assert_eq!(keep_the_pool_awake(|| 6 * 7), 42);
        for threads in [1, 2, 3] {
            let got = pool(threads).install(|| {
                (0..200)
                    .map(|i| keep_the_pool_awake(move || i * 2))
                    .sum::<i32>()
            });
            assert_eq!(got, 199 * 200, "{threads} threads");
        }
    }

    /// A step that panics: the panic comes through, and the threads that
    /// spun are freed (a hang here would stall the test run).
    #[test]
    fn a_panic_frees_the_spinning_thread() {
        let pool = pool(3);
        for _ in 0..50 {
            let caught = pool.install(|| {
                std::panic::catch_unwind(|| keep_the_pool_awake(|| panic!("step failed")))
            });
            assert!(caught.is_err());
        }
        // The pool still runs work on both threads afterwards.
        let sum: u64 = pool.install(|| {
            use rayon::prelude::*;
            (0..10_000u64).into_par_iter().sum()
        });
        assert_eq!(sum, 49_995_000);
    }
}
