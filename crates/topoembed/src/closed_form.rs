//! Closed forms of the journal xor paper's metrics (§4.2-4.6) for the
//! standard and xor embeddings of a d-cube onto a ring or a torus with
//! power-of-two sides 2^k1 x .. x 2^kc (k1 + .. + kc = d), under the
//! dimension-order routing model of [`crate::routing`].
//!
//! Both embeddings work field by field: cube dimension i in axis j's field
//! moves only coordinate j, so every guest edge routes along one host line,
//! and the guest edges on each axis-j line are a copy of the kj-cube's ring
//! embedding. Everything therefore follows from the ring of 2^k nodes:
//!
//! | ring of 2^k         | standard              | xor (k >= 2)                          |
//! |---------------------|-----------------------|---------------------------------------|
//! | D_i                 | 2^i                   | 2^i (i <= k-2), D_{k-1} = 2^(k-2)       |
//! | longest dilation    | 2^(k-1)               | 2^(k-2)                               |
//! | total dilation      | 2^(k-1) (2^k - 1)     | 2^(k-1) (3 2^(k-2) - 1)               |
//! | max node load       | ⌊2^(k+1)/3⌋ - ⌈k/2⌉    | ⌊5 2^(k-2)/3⌋ - ⌈k/2⌉                  |
//! | min node load       | 0                     | 2^(k-2) - 1                           |
//! | congestion          | ⌊2^(k+1)/3⌋            | ⌊5 2^(k-2)/3⌋                          |
//!
//! (a 1-bit axis is one link: both embeddings leave it as it is.)
//!
//! *Standard, node load.* The dimension-i edge n -> n + 2^i (bit i of n clear)
//! passes through n+1 .. n+2^i-1, so node m is passed by
//! min(r, 2^(i+1) - 1 - r) of them, r = m mod 2^(i+1): the low i bits of m,
//! complemented when bit i of m is set. Summed over i that is
//! Σ_{j<i} 2^j [m_j != m_i], zero at m = 0 and m = 2^k - 1 (journal §4.5),
//! and largest at the alternating patterns ..0101/..1010 where it equals
//! ⌊2^(k+1)/3⌋ - ⌈k/2⌉. The ties of dimension k-1 (length exactly 2^(k-1))
//! cover half the ring whichever way they go, which leaves the extremes
//! unchanged. *Xor.* Dimensions up to k-3 are routed as in the standard
//! embedding; the two last dimensions, both of length 2^(k-2), together pass
//! every node 2^(k-2) - 1 times more evenly, which lifts the minimum and
//! lowers the maximum (§4.5.2). The forms were found this way and are held to
//! enumeration for every k <= 10 by the tests (and to d = 20 on rings).
//!
//! On the torus the loads of the axes add up at each node and the axes are
//! independent, so max and min node load are sums over the axes; the
//! congestion and longest dilation are maxima over the axes; spectrum and
//! total dilation are sums over the 2^(d - kj) lines of each axis.
//! Average load is Σ (dilation - 1) / 2^d (§4.6).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::bits::pow2_widths;
use crate::spec::Spec;

/// The journal's metrics of one embedding, from the closed forms.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct JournalMetrics {
    /// Link dilation spectrum: guest edges per dilation (§4.2).
    pub spectrum: BTreeMap<u64, u64>,
    /// Longest dilation (§4.3).
    pub dilation_max: u64,
    /// Total dilation (§4.4).
    pub dilation_total: u128,
    /// Maximum node load (§4.5).
    pub node_load_max: u64,
    /// Minimum node load (§4.5).
    pub node_load_min: u64,
    /// Average load Σ (dilation - 1) / nodes (§4.6).
    pub node_load_average: f64,
    /// Congestion under dimension-order routing.
    pub congestion: u64,
}

/// The ring of 2^k nodes under one embedding.
struct Ring {
    /// (dilation, edges) pairs.
    spectrum: Vec<(u64, u64)>,
    max: u64,
    total: u128,
    load_max: u64,
    load_min: u64,
    congestion: u64,
}

fn ring(kind: Journal, k: u32) -> Ring {
    let edges_per_dim = 1u64 << (k - 1);
    let half_k = u64::from(k.div_ceil(2));
    if kind == Journal::Xor && k >= 2 {
        let congestion = (5u128 << (k - 2)) / 3;
        let mut spectrum: Vec<(u64, u64)> = (0..k - 2).map(|i| (1 << i, edges_per_dim)).collect();
        spectrum.push((1 << (k - 2), 2 * edges_per_dim));
        Ring {
            spectrum,
            max: 1 << (k - 2),
            total: u128::from(edges_per_dim) * ((3u128 << (k - 2)) - 1),
            load_max: congestion as u64 - half_k,
            load_min: (1 << (k - 2)) - 1,
            congestion: congestion as u64,
        }
    } else {
        let congestion = (2u128 << k) / 3;
        Ring {
            spectrum: (0..k).map(|i| (1 << i, edges_per_dim)).collect(),
            max: 1 << (k - 1),
            total: u128::from(edges_per_dim) * ((1u128 << k) - 1),
            load_max: congestion as u64 - half_k,
            load_min: 0,
            congestion: congestion as u64,
        }
    }
}

/// The two embeddings whose journal metrics have closed forms; an
/// [`crate::embed::Embedding`] says which it is
/// ([`crate::embed::Embedding::journal`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Journal {
    /// f(n) = n (xor paper §2.3).
    Standard,
    /// f(n) = n xor (top bit of each field >> 1) (xor paper §3).
    Xor,
}

/// The closed forms of embedding `kind` of `guest` into `host`, when they
/// apply: a cube guest, a ring or torus host with power-of-two sides and as
/// many nodes. `None` otherwise.
pub fn journal(kind: Journal, guest: &Spec, host: &Spec) -> Option<JournalMetrics> {
    let Spec::Cube(d) = *guest else { return None };
    if host.uniform_wrap() != Some(true) {
        return None;
    }
    let sides = host.sides()?;
    let widths = pow2_widths(sides)?;
    if widths.iter().sum::<u32>() != d || (kind == Journal::Xor && widths == [1]) {
        return None;
    }
    let mut spectrum = BTreeMap::new();
    let mut m = JournalMetrics {
        spectrum: BTreeMap::new(),
        dilation_max: 0,
        dilation_total: 0,
        node_load_max: 0,
        node_load_min: 0,
        node_load_average: 0.0,
        congestion: 0,
    };
    for &k in &widths {
        let lines = 1u64 << (d - k);
        let r = ring(kind, k);
        for (dil, count) in r.spectrum {
            *spectrum.entry(dil).or_insert(0u64) += count * lines;
        }
        m.dilation_max = m.dilation_max.max(r.max);
        m.dilation_total += r.total * u128::from(lines);
        m.node_load_max += r.load_max;
        m.node_load_min += r.load_min;
        m.congestion = m.congestion.max(r.congestion);
    }
    let edges = u128::from(d) << (d - 1);
    m.node_load_average = (m.dilation_total - edges) as f64 / (1u128 << d) as f64;
    m.spectrum = spectrum;
    Some(m)
}
