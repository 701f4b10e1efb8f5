//! Per-thread counter arrays: each rayon worker adds into its own copy
//! without atomics, and the copies are summed once at the end.

use std::sync::{Mutex, PoisonError};

use rayon::prelude::*;

use super::COUNTER_MEMORY;
use crate::error::{Error, Result};

/// A counter the copies can be summed in: `u32` (wrapping, for difference
/// arrays) or `f64` (fractional loads).
pub(super) trait Counter: Copy + Default + Send + Sync {
    fn merge(self, other: Self) -> Self;
}

impl Counter for u32 {
    fn merge(self, other: u32) -> u32 {
        self.wrapping_add(other)
    }
}

impl Counter for f64 {
    fn merge(self, other: f64) -> f64 {
        self + other
    }
}

/// One counter array per worker thread (fewer when memory is short; threads
/// then share a copy behind its lock). `u32` additions wrap, so difference
/// arrays may dip "below zero" in between: the prefix sums come out exact as
/// long as every true count fits in a `u32`, which the caller ensures.
pub(super) struct Replicas<T = u32> {
    parts: Vec<Mutex<Vec<T>>>,
}

impl<T: Counter> Replicas<T> {
    /// Copies of `len` zeroed counters; `what` names them in the error when
    /// even one copy does not fit in the memory limit.
    pub fn new(len: u64, what: &str) -> Result<Replicas<T>> {
        let bytes = len.saturating_mul(std::mem::size_of::<T>() as u64);
        if bytes > COUNTER_MEMORY {
            return Err(Error::Parameter(format!(
                "{what} need {} MiB of counters, more than the {} MiB limit",
                bytes >> 20,
                COUNTER_MEMORY >> 20
            )));
        }
        let copies = (COUNTER_MEMORY / bytes.max(1))
            .min(rayon::current_num_threads() as u64)
            .max(1);
        Ok(Replicas {
            parts: (0..copies)
                .map(|_| Mutex::new(vec![T::default(); len as usize]))
                .collect(),
        })
    }

    /// Runs `f` on this thread's copy.
    pub fn with<R>(&self, f: impl FnOnce(&mut [T]) -> R) -> R {
        let i = rayon::current_thread_index().unwrap_or(0) % self.parts.len();
        let mut part = self.parts[i].lock().unwrap_or_else(PoisonError::into_inner);
        f(&mut part)
    }

    /// The element-wise sum of all copies.
    pub fn sum(self) -> Vec<T> {
        let mut parts = self
            .parts
            .into_iter()
            .map(|m| m.into_inner().unwrap_or_else(PoisonError::into_inner));
        let mut total = parts.next().unwrap_or_default();
        for part in parts {
            total
                .par_chunks_mut(1 << 16)
                .zip(part.par_chunks(1 << 16))
                .for_each(|(t, p)| {
                    for (x, y) in t.iter_mut().zip(p) {
                        *x = x.merge(*y);
                    }
                });
        }
        total
    }
}
