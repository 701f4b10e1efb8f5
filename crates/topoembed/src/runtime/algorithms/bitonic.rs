//! Bitonic sort of n keys on P = 2^d ranks, m = n/P keys each (Batcher's
//! network with compare-split of sorted blocks: Baudet & Stevenson).
//!
//! Every rank sorts its block (one compute phase); then, for s = 0 .. d-1
//! and j = s, s-1, .., 0, it exchanges its block with the rank across cube
//! dimension j and keeps the lower or the upper m keys of the two (one
//! compute phase each): d(d+1)/2 exchanges along dimensions
//! 0; 1, 0; 2, 1, 0; .. — a compute-and-communicate cube algorithm whose
//! stages follow that sequence instead of 0, 1, .., d-1.

use super::data::{below, SORT_KEYS};
use super::{guest_of, peer, Check};
use crate::error::Result;
use crate::runtime::{Process, Transport};
use crate::virtual_topology::{Direction, VirtualTopology};

/// Cube dimensions of the exchanges, in order.
pub fn stages(dim: u32) -> Vec<u32> {
    (0..dim).flat_map(|s| (0..=s).rev()).collect()
}

/// Key j of n: integers below n, so some repeat.
pub fn key(j: u64, n: u64) -> f64 {
    below(SORT_KEYS, j, n) as f64
}

/// All n keys, sorted: the reference.
pub fn reference(n: u64) -> Vec<f64> {
    let mut keys: Vec<f64> = (0..n).map(|j| key(j, n)).collect();
    keys.sort_by(f64::total_cmp);
    keys
}

/// The lower (`keep_low`) or upper half of two sorted blocks of equal length.
fn split(mine: &[f64], theirs: &[f64], keep_low: bool) -> Vec<f64> {
    let m = mine.len();
    let mut out = Vec::with_capacity(m);
    if keep_low {
        let (mut a, mut b) = (0, 0);
        while out.len() < m {
            if b == theirs.len() || (a < m && mine[a] <= theirs[b]) {
                out.push(mine[a]);
                a += 1;
            } else {
                out.push(theirs[b]);
                b += 1;
            }
        }
    } else {
        let (mut a, mut b) = (m, theirs.len());
        while out.len() < m {
            if b == 0 || (a > 0 && mine[a - 1] >= theirs[b - 1]) {
                out.push(mine[a - 1]);
                a -= 1;
            } else {
                out.push(theirs[b - 1]);
                b -= 1;
            }
        }
        out.reverse();
    }
    out
}

/// The program of one rank: `n` keys on a `dim`-cube guest.
pub async fn run<T: Transport>(
    p: &mut Process<T>,
    vt: &VirtualTopology,
    dim: u32,
    n: u64,
    reference: &[f64],
) -> Result<Check> {
    let rank = p.rank();
    let g = guest_of(vt, rank)?;
    let m = n >> dim;
    let base = g * m;
    let mut block: Vec<f64> = (base..base + m).map(|j| key(j, n)).collect();
    block.sort_by(f64::total_cmp);
    p.compute(1);
    for (tag, (s, j)) in (0..dim)
        .flat_map(|s| (0..=s).rev().map(move |j| (s, j)))
        .enumerate()
    {
        let partner = peer(vt, rank, Direction::Dimension(j))?;
        let theirs = p.exchange(partner, tag as u32, block.clone()).await?;
        // Blocks 2^(s+1) ranks long are sorted up where bit s+1 is 0, down where 1.
        let ascending = (g >> (s + 1)) & 1 == 0;
        let keep_low = ((g >> j) & 1 == 0) == ascending;
        block = split(&block, &theirs, keep_low);
        p.compute(1);
    }
    let want = &reference[base as usize..(base + m) as usize];
    let wrong = block.iter().zip(want).filter(|(a, b)| a != b).count();
    Ok(Check::new(wrong as f64, 0.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_keeps_the_right_half() {
        let (a, b) = ([1.0, 4.0, 6.0], [2.0, 3.0, 9.0]);
        assert_eq!(split(&a, &b, true), vec![1.0, 2.0, 3.0]);
        assert_eq!(split(&a, &b, false), vec![4.0, 6.0, 9.0]);
    }

    #[test]
    fn stage_sequence() {
        assert_eq!(stages(3), vec![0, 1, 0, 2, 1, 0]);
    }
}
