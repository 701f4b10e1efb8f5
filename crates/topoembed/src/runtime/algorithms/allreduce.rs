//! Recursive-doubling allreduce (sum): in stage i every rank swaps its
//! partial sum vector with the rank across cube dimension i and adds — the
//! CC d-cube algorithm in its plainest form, d exchanges along 0, 1, .., d-1,
//! one compute phase (the addition) each.

use super::data::{below, REDUCE_VALUES};
use super::{guest_of, peer, Check};
use crate::error::Result;
use crate::runtime::{Process, Transport};
use crate::virtual_topology::{Direction, VirtualTopology};

/// Value k of guest node g's vector of `len`: an integer in -1000..=1000, so
/// every sum is exact in f64 and the check can demand equality.
pub fn value(g: u64, k: u64, len: u64) -> f64 {
    below(REDUCE_VALUES, g * len + k, 2001) as f64 - 1000.0
}

/// The sum over all `ranks` guest nodes: the reference.
pub fn reference(ranks: u64, len: u64) -> Vec<f64> {
    (0..len)
        .map(|k| (0..ranks).map(|g| value(g, k, len)).sum())
        .collect()
}

/// The program of one rank: vectors of `len` on a `dim`-cube guest.
pub async fn run<T: Transport>(
    p: &mut Process<T>,
    vt: &VirtualTopology,
    dim: u32,
    len: u64,
    reference: &[f64],
) -> Result<Check> {
    let rank = p.rank();
    let g = guest_of(vt, rank)?;
    let mut sum: Vec<f64> = (0..len).map(|k| value(g, k, len)).collect();
    for i in 0..dim {
        let partner = peer(vt, rank, Direction::Dimension(i))?;
        let theirs = p.exchange(partner, i, sum.clone()).await?;
        for (s, t) in sum.iter_mut().zip(&theirs) {
            *s += t;
        }
        p.compute(1);
    }
    let wrong = sum.iter().zip(reference).filter(|(a, b)| a != b).count();
    Ok(Check::new(wrong as f64, 0.0))
}
