//! Cannon's matrix multiplication, block version (lecture notes §4, figure 5)
//! on a q x q torus guest.
//!
//! C = A·B with A of M x K and B of K x N, each cut into q x q blocks
//! (M/q x K/q and K/q x N/q: blocks need not be square). Guest node
//! (column j, row i) — index j + q·i, axis 1 the column — holds A_ij, B_ij.
//! Pre-skew: row i moves its A blocks i steps west, column j its B blocks j
//! steps north (one message each, straight to the rank that plays the
//! destination). Then q times: C_ij += A·B (one compute phase), and, except
//! after the last product, A one step west and B one step north (the notes'
//! loop shifts once more, moving blocks nobody uses).

use super::data::{unit, MATRIX_A, MATRIX_B};
use super::{guest_of, peer, Check};
use crate::error::Result;
use crate::runtime::{Process, Transport};
use crate::virtual_topology::{Direction, VirtualTopology};

/// Matrix sizes: A is `m` x `k`, B is `k` x `n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Rows of A and C.
    pub m: u64,
    /// Columns of A, rows of B.
    pub k: u64,
    /// Columns of B and C.
    pub n: u64,
}

/// Entry (r, c) of A.
pub fn a(shape: &Shape, r: u64, c: u64) -> f64 {
    unit(MATRIX_A, r * shape.k + c)
}

/// Entry (r, c) of B.
pub fn b(shape: &Shape, r: u64, c: u64) -> f64 {
    unit(MATRIX_B, r * shape.n + c)
}

/// C = A·B, sequentially, row-major: the reference.
pub fn reference(shape: &Shape) -> Vec<f64> {
    let (m, k, n) = (shape.m as usize, shape.k as usize, shape.n as usize);
    let bm: Vec<f64> = (0..k * n)
        .map(|x| b(shape, (x / n) as u64, (x % n) as u64))
        .collect();
    let mut c = vec![0.0; m * n];
    for r in 0..m {
        for t in 0..k {
            let x = a(shape, r as u64, t as u64);
            let row = &bm[t * n..(t + 1) * n];
            for (out, y) in c[r * n..(r + 1) * n].iter_mut().zip(row) {
                *out += x * y;
            }
        }
    }
    c
}

/// Block (bi, bj) of a matrix with blocks of `rows` x `cols`, row-major.
fn block(rows: u64, cols: u64, bi: u64, bj: u64, entry: impl Fn(u64, u64) -> f64) -> Vec<f64> {
    (0..rows * cols)
        .map(|x| entry(bi * rows + x / cols, bj * cols + x % cols))
        .collect()
}

/// c += a · b for row-major blocks a (rows x inner) and b (inner x cols).
fn multiply_add(c: &mut [f64], a: &[f64], b: &[f64], rows: usize, inner: usize, cols: usize) {
    for r in 0..rows {
        for t in 0..inner {
            let x = a[r * inner + t];
            for (out, y) in c[r * cols..(r + 1) * cols]
                .iter_mut()
                .zip(&b[t * cols..(t + 1) * cols])
            {
                *out += x * y;
            }
        }
    }
}

/// Round-off allowance for inner products of length `k` of values in [-1, 1).
pub fn tolerance(k: u64) -> f64 {
    1e-12 * (k as f64 / 256.0).max(1.0)
}

/// The program of one rank on a q x q torus guest.
pub async fn run<T: Transport>(
    p: &mut Process<T>,
    vt: &VirtualTopology,
    q: u64,
    shape: &Shape,
    reference: &[f64],
) -> Result<Check> {
    let rank = p.rank();
    let g = guest_of(vt, rank)?;
    let (col, row) = (g % q, g / q);
    let (bm, bk, bn) = (shape.m / q, shape.k / q, shape.n / q);
    let mut a_blk = block(bm, bk, row, col, |r, c| a(shape, r, c));
    let mut b_blk = block(bk, bn, row, col, |r, c| b(shape, r, c));
    let node = |i: u64, j: u64| vt.rank_of(j % q + q * (i % q));
    if row != 0 {
        let (to, from) = (node(row, col + q - row), node(row, col + row));
        a_blk = p.sendrecv(to, a_blk, from, 0).await?;
    }
    if col != 0 {
        let (to, from) = (node(row + q - col, col), node(row + col, col));
        b_blk = p.sendrecv(to, b_blk, from, 1).await?;
    }
    let axis = |axis, up| peer(vt, rank, Direction::Axis { axis, up });
    let (west, east) = (axis(0, false)?, axis(0, true)?);
    let (north, south) = (axis(1, false)?, axis(1, true)?);
    let mut c_blk = vec![0.0; (bm * bn) as usize];
    for s in 0..q {
        multiply_add(
            &mut c_blk,
            &a_blk,
            &b_blk,
            bm as usize,
            bk as usize,
            bn as usize,
        );
        p.compute(1);
        if s + 1 < q {
            let tag = 2 + 2 * s as u32;
            a_blk = p.sendrecv(west, a_blk, east, tag).await?;
            b_blk = p.sendrecv(north, b_blk, south, tag + 1).await?;
        }
    }
    let mut max_error: f64 = 0.0;
    for (x, v) in c_blk.iter().enumerate() {
        let (r, c) = (row * bm + x as u64 / bn, col * bn + x as u64 % bn);
        max_error = max_error.max((v - reference[(r * shape.n + c) as usize]).abs());
    }
    Ok(Check::new(max_error, tolerance(shape.k)))
}
