//! `combine`: Ho & Johnsson §4 and §6 item 3, between `split` and
//! `reshape`. Each axis ℓ_i = 2^(q_i) · b_i gives up q_i ≤ (its power of two)
//! cube dimensions to exact halvings (the M1 part of §6): 2^(q_i) runs of
//! b_i elements, run s placed at G(s), every other run reversed, so the
//! last element of one run and the first of the next hold the same position
//! in their runs (the length-2^q·b path is a subgraph of the 2^q x b mesh,
//! Lemma 2). The runs' inner coordinates of a chosen group S of axes are
//! then reshaped into one axis (longest slowest), cut into segments of
//! β = ⌈Π_S b_i / 2^m⌉ and placed by the Gray code in the remaining
//! m = n − Σ q_i dimensions (Theorem 3 on the group); axes outside S stay
//! whole inside a node. Load factor β · Π_{i∉S} b_i; dilation 1 across runs
//! and ≤ ⌈log2(3/2 · ⌈w/β⌉)⌉ inside the group, w = Π_S b / max_S b the
//! slowest axis's step (Lemma 3; Lemma 1 combines the parts).
//!
//! S = every axis and q = 0 is `reshape`; S empty is a `split` into exact
//! halves. The search takes the least load factor, then the least dilation
//! bound, then fewest unused nodes, then the most M1 dimensions: for
//! M(100, 200) in a 10-cube, M1(4, 8) in 5 dimensions and M2(25, 25)
//! reshaped into the other 5, load 20 (optimal) and dilation ≤ 2, where
//! reshaping the whole mesh gives the same load at a bound of 3.

use super::super::{Embedding, Method, NotApplicable, Params};
use super::factoring::MAX_CANDIDATES;
use super::{many_to_one, x_list};
use crate::bits::{btog, gtob};
use crate::topology::Topology;

pub(in crate::embed) const METHOD: Method = Method {
    name: "combine",
    guest: "mesh:L0xL1x.. (any lengths), line:N",
    host: "cube:n",
    preconditions: "many-to-one",
    summary: "powers of two split off, a subset of axes reshaped into one (Ho & Johnsson §4, §6)",
    options: &[],
    build,
};

fn build(
    guest: &dyn Topology,
    host: &dyn Topology,
    _params: &Params,
) -> Result<Box<dyn Embedding>, NotApplicable> {
    let (lengths, n) = many_to_one(guest, host)?;
    let plan = CombinePlan::search(&lengths, n)?;
    Ok(Box::new(Combine::new(&lengths, &plan)))
}

/// Which powers of two are split off and which axes are reshaped together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CombinePlan {
    /// q_i: exact halvings of axis i (its cube dimensions outside the group).
    pub halvings: Vec<u32>,
    /// The reshaped group S, as a bit set of axes.
    pub group: u64,
    /// m: the group's cube dimensions.
    pub group_bits: u32,
    /// β · Π_{i∉S} b_i.
    pub load_factor: u64,
    /// Bound on the dilation (module doc).
    pub dilation: u64,
    /// Cube nodes holding no element.
    pub unused: u64,
}

impl CombinePlan {
    /// The plan for `halvings` and `group`, the group taking every
    /// dimension the halvings leave.
    pub fn evaluate(lengths: &[u64], halvings: &[u32], group: u64, n: u32) -> CombinePlan {
        let runs: Vec<u64> = lengths
            .iter()
            .zip(halvings)
            .map(|(&l, &q)| l >> q)
            .collect();
        let outer: u32 = halvings.iter().sum();
        let in_group = |i: usize| group >> i & 1 == 1;
        let group_bits = if group == 0 { 0 } else { n - outer };
        let elements: u64 = (0..runs.len())
            .filter(|&i| in_group(i))
            .map(|i| runs[i])
            .product();
        let beta = elements.div_ceil(1 << group_bits);
        let local: u64 = (0..runs.len())
            .filter(|&i| !in_group(i))
            .map(|i| runs[i])
            .product();
        let longest = (0..runs.len())
            .filter(|&i| in_group(i))
            .map(|i| runs[i])
            .max();
        let inner = match longest {
            Some(longest) if group_bits > 0 => segment_jump_bound(elements / longest, beta),
            _ => 0,
        };
        CombinePlan {
            halvings: halvings.to_vec(),
            group,
            group_bits,
            load_factor: beta * local,
            dilation: inner.max(u64::from(outer > 0)),
            unused: (1u64 << n) - (elements.div_ceil(beta) << outer),
        }
    }

    /// The best plan for `lengths` in an n-cube (module doc).
    pub fn search(lengths: &[u64], n: u32) -> Result<CombinePlan, String> {
        let k = lengths.len();
        let twos: Vec<u32> = lengths.iter().map(|l| l.trailing_zeros()).collect();
        let too_many =
            || format!("more than {MAX_CANDIDATES} ways to combine {k} axes; use reshape");
        let candidates = (k < 40)
            .then(|| {
                twos.iter()
                    .try_fold(1u64 << k, |acc, &t| acc.checked_mul(u64::from(t) + 1))
            })
            .flatten()
            .ok_or_else(too_many)?;
        if candidates > MAX_CANDIDATES {
            return Err(too_many());
        }
        let key = |p: &CombinePlan| {
            let outer: u32 = p.halvings.iter().sum();
            (
                p.load_factor,
                p.dilation,
                p.unused,
                std::cmp::Reverse(outer),
            )
        };
        let mut best: Option<CombinePlan> = None;
        let mut halvings = vec![0u32; k];
        loop {
            let outer: u32 = halvings.iter().sum();
            if outer <= n {
                for group in 0..1u64 << k {
                    // An empty group leaves n − Σ q dimensions unused.
                    let plan = CombinePlan::evaluate(lengths, &halvings, group, n);
                    if best.as_ref().map_or(true, |b| key(&plan) < key(b)) {
                        best = Some(plan);
                    }
                }
            }
            // Next halvings vector (odometer over 0..=twos[i]).
            let Some(i) = (0..k).find(|&i| halvings[i] < twos[i]) else {
                break;
            };
            halvings[i] += 1;
            halvings[..i].iter_mut().for_each(|q| *q = 0);
        }
        best.ok_or_else(|| "no way to combine the axes".to_string())
    }
}

/// Hamming distance bound for elements `step` apart in a reshaped order cut
/// into segments of `beta`: their segments are at most d = ⌈step/β⌉ apart,
/// and Gray codes d apart differ in at most ⌈log2(3d/2)⌉ bits (Lemma 3),
/// at least 1.
pub fn segment_jump_bound(step: u64, beta: u64) -> u64 {
    let apart = step.div_ceil(beta.max(1)).max(1);
    let mut m = 1;
    while (1u128 << (m + 1)) < 3 * u128::from(apart) {
        m += 1;
    }
    m
}

/// A [`CombinePlan`] as an embedding.
#[derive(Debug, Clone)]
pub struct Combine {
    /// Per spec axis: length, run length b_i, halvings q_i, their bit offset.
    axes: Vec<(u64, u64, u32, u32)>,
    /// Per spec axis: its weight in the group's reshaped index (0 outside).
    weights: Vec<u64>,
    beta: u64,
    group_offset: u32,
    plan: CombinePlan,
}

impl Combine {
    /// The embedding of mesh `lengths` by `plan`.
    pub fn new(lengths: &[u64], plan: &CombinePlan) -> Combine {
        let mut offset = 0;
        let axes: Vec<(u64, u64, u32, u32)> = lengths
            .iter()
            .zip(&plan.halvings)
            .map(|(&l, &q)| {
                let axis = (l, l >> q, q, offset);
                offset += q;
                axis
            })
            .collect();
        // Longest run slowest (ties: the earlier axis slower), as reshape.
        let mut order: Vec<usize> = (0..axes.len())
            .filter(|&i| plan.group >> i & 1 == 1)
            .collect();
        order.sort_by(|&a, &b| axes[b].1.cmp(&axes[a].1).then(a.cmp(&b)));
        let mut weights = vec![0; axes.len()];
        let mut product = 1;
        for &i in order.iter().rev() {
            weights[i] = product;
            product *= axes[i].1;
        }
        Combine {
            axes,
            weights,
            beta: product.div_ceil(1 << plan.group_bits),
            group_offset: offset,
            plan: plan.clone(),
        }
    }

    /// The plan it was built from.
    pub fn plan(&self) -> &CombinePlan {
        &self.plan
    }
}

impl Embedding for Combine {
    fn method(&self) -> &'static str {
        "combine"
    }
    fn map(&self, guest: u64) -> u64 {
        let mut rest = guest;
        let (mut node, mut y) = (0, 0);
        for (&(length, run, _, offset), &weight) in self.axes.iter().zip(&self.weights) {
            let x = rest % length;
            rest /= length;
            let (s, mut t) = (x / run, x % run);
            if s % 2 == 1 {
                t = run - 1 - t;
            }
            node |= btog(s) << offset;
            y += t * weight;
        }
        node | btog(y / self.beta) << self.group_offset
    }
    /// One-to-one only at load factor 1: then every run outside the group
    /// is one element and the group's segments one element each.
    fn inverse(&self, host: u64) -> Option<u64> {
        if self.plan.load_factor != 1 || host >> (self.group_offset + self.plan.group_bits) != 0 {
            return None;
        }
        let mut y = gtob(host >> self.group_offset);
        // Peel the group's coordinates off from the heaviest weight down.
        let mut order: Vec<usize> = (0..self.axes.len())
            .filter(|&i| self.weights[i] > 0)
            .collect();
        order.sort_by_key(|&i| std::cmp::Reverse(self.weights[i]));
        let mut inner = vec![0; self.axes.len()];
        for &i in &order {
            inner[i] = y / self.weights[i];
            y %= self.weights[i];
        }
        let mut guest = 0;
        for (i, &(length, run, halvings, offset)) in self.axes.iter().enumerate().rev() {
            let s = gtob((host >> offset) & ((1 << halvings) - 1));
            let t = inner[i];
            if t >= run {
                return None;
            }
            let x = s * run + if s % 2 == 1 { run - 1 - t } else { t };
            guest = guest * length + x;
        }
        Some(guest)
    }
    fn notes(&self) -> Vec<String> {
        let p = &self.plan;
        let runs: Vec<u64> = self.axes.iter().map(|a| a.1).collect();
        let m1: Vec<u64> = self.axes.iter().map(|a| 1u64 << a.2).collect();
        let group: Vec<String> = (0..self.axes.len())
            .filter(|&i| p.group >> i & 1 == 1)
            .map(|i| (i + 1).to_string())
            .collect();
        vec![format!(
            "split off {} in {} dimensions (runs {}), axes {{{}}} reshaped into {} dimensions \
             with segments of {}; load {}, dilation <= {}",
            x_list(&m1),
            self.group_offset,
            x_list(&runs),
            group.join(","),
            p.group_bits,
            self.beta,
            p.load_factor,
            p.dilation
        )]
    }
}
