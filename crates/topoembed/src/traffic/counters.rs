//! Per-thread counter arrays: each rayon worker adds into its own copy
//! without atomics, and the copies are summed once at the end.

use std::sync::{Mutex, PoisonError};

use rayon::prelude::*;

use super::COUNTER_MEMORY;
use crate::error::{Error, Result};

/// One `u32` array per worker thread (fewer when memory is short; threads
/// then share a copy behind its lock). Additions wrap, so difference arrays
/// may dip "below zero" in between: the prefix sums come out exact as long
/// as every true count fits in a `u32`, which the caller ensures.
pub(super) struct Replicas {
    parts: Vec<Mutex<Vec<u32>>>,
}

impl Replicas {
    /// Copies of `len` zeroed counters; `what` names them in the error when
    /// even one copy does not fit in the memory limit.
    pub fn new(len: u64, what: &str) -> Result<Replicas> {
        let bytes = len.saturating_mul(4);
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
                .map(|_| Mutex::new(vec![0u32; len as usize]))
                .collect(),
        })
    }

    /// Runs `f` on this thread's copy.
    pub fn with<T>(&self, f: impl FnOnce(&mut [u32]) -> T) -> T {
        let i = rayon::current_thread_index().unwrap_or(0) % self.parts.len();
        let mut part = self.parts[i].lock().unwrap_or_else(PoisonError::into_inner);
        f(&mut part)
    }

    /// The element-wise (wrapping) sum of all copies.
    pub fn sum(self) -> Vec<u32> {
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
                        *x = x.wrapping_add(*y);
                    }
                });
        }
        total
    }
}
