//! A hint to the processor to bring a cache line in before it is read.
//!
//! Heavy-edge matching visits the vertices in a random order (and the
//! renumbering of a scattered guest reads rows in an order of its own), and each
//! visit begins with reads (its mate, its row's bounds, its row) that miss
//! every cache on a graph of 10^5 vertices or more: the loop waited on
//! memory one vertex at a time. Asking for the lines a few visits ahead
//! lets those waits overlap (Intel's optimization manual, "software
//! prefetch"). It changes no result, only when the lines arrive.

/// Asks for the cache line holding `*p` (nothing where the target has no
/// prefetch instruction). `p` may point anywhere: a prefetch of an
/// address never faults, and nothing is read through `p` here.
#[inline(always)]
pub fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` needs SSE, part of every x86-64 processor, and
    // is a hint: it dereferences nothing and cannot fault, whatever `p`.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p.cast::<i8>())
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
