//! Radix-2 FFT as a CC d-cube algorithm (xor paper §1: "FFT ... frequently
//! found in real applications").
//!
//! Iterative decimation in time on n = 2^k points over P = 2^d ranks: the
//! input is taken in bit-reversed order and spread in blocks of m = n/P, so
//! the first log m stages pair points inside a block and stage log m + i pairs
//! the block of guest node g with that of g ^ 2^i — an exchange along cube
//! dimension i, i = 0, 1, .., d-1, the CC d-cube order. Every stage is one
//! compute phase: log m + d phases. Rank g ends with X[g·m .. (g+1)·m] in
//! natural order.

use super::data::{unit, FFT_INPUT};
use super::{guest_of, peer, Check};
use crate::error::Result;
use crate::runtime::{Process, Transport};
use crate::virtual_topology::{Direction, VirtualTopology};

/// Largest n whose reference is a direct DFT, O(n^2); beyond it a
/// sequential recursive FFT (a different algorithm from the distributed one).
pub const DIRECT_DFT_LIMIT: u64 = 1 << 12;

/// A complex number.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Complex {
    /// Real part.
    pub re: f64,
    /// Imaginary part.
    pub im: f64,
}

impl Complex {
    fn add(self, o: Complex) -> Complex {
        Complex {
            re: self.re + o.re,
            im: self.im + o.im,
        }
    }
    fn sub(self, o: Complex) -> Complex {
        Complex {
            re: self.re - o.re,
            im: self.im - o.im,
        }
    }
    fn mul(self, o: Complex) -> Complex {
        Complex {
            re: self.re * o.re - self.im * o.im,
            im: self.re * o.im + self.im * o.re,
        }
    }
    fn abs(self) -> f64 {
        self.re.hypot(self.im)
    }
    /// e^(-2πi · num / den).
    fn root(num: u64, den: u64) -> Complex {
        let angle = -2.0 * std::f64::consts::PI * num as f64 / den as f64;
        Complex {
            re: angle.cos(),
            im: angle.sin(),
        }
    }
}

/// Input point j.
pub fn input(j: u64) -> Complex {
    Complex {
        re: unit(FFT_INPUT, 2 * j),
        im: unit(FFT_INPUT, 2 * j + 1),
    }
}

/// The reference transform of the n-point input, and what computed it.
pub fn reference(n: u64) -> (Vec<Complex>, &'static str) {
    let x: Vec<Complex> = (0..n).map(input).collect();
    if n <= DIRECT_DFT_LIMIT {
        // Roots from a table indexed by (j·k) mod n: no drift from repeated products.
        let roots: Vec<Complex> = (0..n).map(|r| Complex::root(r, n)).collect();
        let out = (0..n)
            .map(|k| {
                x.iter()
                    .enumerate()
                    .fold(Complex::default(), |acc, (j, &v)| {
                        acc.add(v.mul(roots[((j as u64 * k) % n) as usize]))
                    })
            })
            .collect();
        (out, "direct DFT")
    } else {
        (recursive_fft(&x), "sequential recursive FFT")
    }
}

fn recursive_fft(x: &[Complex]) -> Vec<Complex> {
    let n = x.len();
    if n == 1 {
        return x.to_vec();
    }
    let even: Vec<Complex> = x.iter().step_by(2).copied().collect();
    let odd: Vec<Complex> = x.iter().skip(1).step_by(2).copied().collect();
    let (e, o) = (recursive_fft(&even), recursive_fft(&odd));
    let mut out = vec![Complex::default(); n];
    for k in 0..n / 2 {
        let t = Complex::root(k as u64, n as u64).mul(o[k]);
        out[k] = e[k].add(t);
        out[k + n / 2] = e[k].sub(t);
    }
    out
}

/// Bits of j in reverse order, over `bits` bits.
fn bit_reverse(j: u64, bits: u32) -> u64 {
    if bits == 0 {
        0
    } else {
        j.reverse_bits() >> (64 - bits)
    }
}

/// Twiddle of the butterfly whose lower point has global index `j` in the
/// stage pairing points `half` apart.
fn twiddle(j: u64, half: u64) -> Complex {
    Complex::root(j % half, 2 * half)
}

fn flatten(y: &[Complex]) -> Vec<f64> {
    y.iter().flat_map(|c| [c.re, c.im]).collect()
}

/// The program of one rank: `n` points on a `dim`-cube guest.
pub async fn run<T: Transport>(
    p: &mut Process<T>,
    vt: &VirtualTopology,
    dim: u32,
    n: u64,
    reference: &[Complex],
) -> Result<Check> {
    let rank = p.rank();
    let g = guest_of(vt, rank)?;
    let m = n >> dim;
    let (bits, block_bits) = (n.trailing_zeros(), m.trailing_zeros());
    let base = g * m;
    let mut y: Vec<Complex> = (0..m).map(|t| input(bit_reverse(base + t, bits))).collect();
    for s in 0..block_bits {
        let half = 1u64 << s;
        for start in (0..m).step_by(2 * half as usize) {
            for t in start..start + half {
                let w = twiddle(base + t, half);
                let (a, b) = (y[t as usize], w.mul(y[(t + half) as usize]));
                y[t as usize] = a.add(b);
                y[(t + half) as usize] = a.sub(b);
            }
        }
        p.compute(1);
    }
    for i in 0..dim {
        let half = m << i;
        let partner = peer(vt, rank, Direction::Dimension(i))?;
        let other = p.exchange(partner, i, flatten(&y)).await?;
        let lower = g >> i & 1 == 0;
        for (t, v) in y.iter_mut().enumerate() {
            let o = Complex {
                re: other[2 * t],
                im: other[2 * t + 1],
            };
            let w = twiddle(base + t as u64, half);
            *v = if lower {
                v.add(w.mul(o))
            } else {
                o.sub(w.mul(*v))
            };
        }
        p.compute(1);
    }
    let max_error = y
        .iter()
        .enumerate()
        .map(|(t, v)| v.sub(reference[(base + t as u64) as usize]).abs())
        .fold(0.0, f64::max);
    Ok(Check::new(max_error, tolerance(n)))
}

/// Round-off allowance: inputs lie in the unit square, so |X_k| <= n·√2 and
/// the error of either transform grows like ε · log n · n at worst.
pub fn tolerance(n: u64) -> f64 {
    1e-12 * n as f64 * (1.0 + f64::from(n.trailing_zeros()))
}
