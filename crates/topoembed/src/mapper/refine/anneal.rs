//! Simulated annealing of a one-to-one placement (Kirkpatrick, Gelatt &
//! Vecchi 1983; the classic heuristic for small quadratic assignment
//! problems, Burkard & Rendl 1984): the parts' quotient graph — a few
//! hundred or thousand vertices — is laid out on the host by pairwise
//! exchanges, each costing O(degree), worse ones accepted with probability
//! e^(−Δ/T) as T cools geometrically. Whole-part greedy swaps
//! ([`super::parts`]) stop at the first local optimum; a planar quotient
//! folded onto a torus has many, and annealing climbs out of them.

use crate::mapper::distance::HostDistance;
use crate::mapper::graph::WGraph;
use crate::mapper::rng::Rng;

/// Exchanges tried per vertex of the quotient graph.
const STEPS_PER_VERTEX: u64 = 10_000;
/// Most exchanges tried in all.
const MAX_STEPS: u64 = 5_000_000;
/// Most distances read in all (a dense quotient graph, such as an FFT
/// butterfly's, tries fewer exchanges: 0.85 s → 0.3 s on butterfly_12,
/// the same hop-bytes; 3·10^7 was too few for mdual's 512 parts on
/// torus:8x8x8, +6 % hop-bytes).
const MAX_READS: u64 = 100_000_000;
/// First temperature as a share of the mean worsening exchange: hot enough
/// to leave the local optimum of the start, cool enough to keep its layout
/// (0.3 beat 0.1 and 0.05 onto tori in the benchmark).
const HEAT: f64 = 0.3;
/// Final temperature as a share of the first.
const COOLING: f64 = 1.0 / 300.0;
/// Host nodes of more neighbours than this are not listed (a hierarchy's
/// leaves all neighbour each other): candidates come from anywhere instead.
const MAX_HOST_DEGREE: u64 = 64;
/// No vertex on a host node.
const EMPTY: u32 = u32::MAX;

/// Anneals `place` (distinct host nodes below `p`, one per vertex of `q`);
/// returns the hop-bytes gained (the best placement met is kept, never a
/// worse one than the start).
pub fn anneal(q: &WGraph, dist: &HostDistance, place: &mut [u64], p: u64, rng: &mut Rng) -> u128 {
    let n = q.n();
    if n < 3 || p > u64::from(u32::MAX) {
        return 0;
    }
    let mut at = vec![EMPTY; p as usize];
    for (v, &h) in place.iter().enumerate() {
        at[h as usize] = v as u32;
    }
    let host = dist.host();
    let near: Vec<Vec<u64>> =
        if p <= 1 << 16 && (0..p.min(64)).all(|y| host.degree(y) <= MAX_HOST_DEGREE) {
            (0..p).map(|y| host.neighbors(y)).collect()
        } else {
            Vec::new()
        };
    // Exchanges are summed in i64 (i128 through the general lookup was 2.5
    // times slower): volumes are scaled down, only where Σ volume × the
    // largest distance would overflow it, and the gain returned is
    // recomputed exactly.
    let (bound, table) = match dist.table() {
        Some(t) => (u128::from(u16::MAX), Some(t)),
        None => (u128::from(dist.host().distance_bound().max(1)), None),
    };
    let volume: u128 = q.ew.iter().map(|&w| u128::from(w)).sum();
    let mut shift = 0;
    while (volume >> shift) * bound > i64::MAX as u128 {
        shift += 1;
    }
    let w: Vec<i64> = q.ew.iter().map(|&w| (w >> shift) as i64).collect();
    let before = crate::mapper::hop_bytes(q, dist, place);
    let original = place.to_vec();
    match table {
        Some((width, t)) => run(q, &w, place, (p, &near), at, rng, |a, b| {
            i64::from(t[a as usize * width + b as usize])
        }),
        None => run(q, &w, place, (p, &near), at, rng, |a, b| {
            dist.d(a, b) as i64
        }),
    }
    let after = crate::mapper::hop_bytes(q, dist, place);
    if after > before {
        // Only scaled volumes can mislead the search so.
        place.copy_from_slice(&original);
        return 0;
    }
    before - after
}

/// The annealing proper on volumes `w` (one per entry of `q.adj`) and
/// distances `d`: `at` is the vertex on each host node, `near` each host
/// node's neighbours (empty: none listed). Leaves the best placement met.
fn run(
    q: &WGraph,
    w: &[i64],
    place: &mut [u64],
    (p, near): (u64, &[Vec<u64>]),
    mut at: Vec<u32>,
    rng: &mut Rng,
    d: impl Fn(u64, u64) -> i64,
) {
    let n = q.n();
    // Δ of moving v from `from` to `to`, its edge to `skip` left out (a
    // swap keeps the distance between the two it exchanges).
    let delta = |place: &[u64], v: usize, from: u64, to: u64, skip: u32| -> i64 {
        let r = q.xadj[v]..q.xadj[v + 1];
        let mut sum = 0i64;
        for (&c, &wc) in q.adj[r.clone()].iter().zip(&w[r]) {
            if c != skip {
                let h = place[c as usize];
                sum += wc * (d(to, h) - d(from, h));
            }
        }
        sum
    };
    // An exchange reads the distances of both ends' edges: 2 × mean degree.
    let reads = (2 * q.adj.len() as u64).div_ceil(n as u64).max(1);
    let steps = (STEPS_PER_VERTEX * n as u64)
        .min(MAX_STEPS)
        .min(MAX_READS / reads);
    let propose = |place: &[u64], rng: &mut Rng| -> Option<(usize, u64)> {
        let a = rng.below(n);
        let degree = q.xadj[a + 1] - q.xadj[a];
        let y = if degree == 0 || rng.below(8) == 0 {
            rng.below(p as usize) as u64
        } else {
            let c = q.adj[q.xadj[a] + rng.below(degree)] as usize;
            let y = place[c];
            match near.get(y as usize) {
                Some(list) if !list.is_empty() && rng.below(2) == 0 => list[rng.below(list.len())],
                _ => y,
            }
        };
        (y != place[a]).then_some((a, y))
    };
    // First temperature: the mean worsening of a sample of exchanges.
    let mut worse = (0i64, 0i64);
    for _ in 0..1000 {
        if let Some((a, y)) = propose(place, rng) {
            let d = exchange_delta(place, &at, a, y, &delta);
            if d > 0 {
                worse = (worse.0 + d, worse.1 + 1);
            }
        }
    }
    if worse.1 == 0 {
        return;
    }
    let t0 = worse.0 as f64 / worse.1 as f64 * HEAT;
    let factor = COOLING.powf(1.0 / steps as f64);
    let (mut current, mut best) = (0i64, 0i64);
    let mut kept = place.to_vec();
    let mut t = t0;
    for _ in 0..steps {
        t *= factor;
        let Some((a, y)) = propose(place, rng) else {
            continue;
        };
        let d = exchange_delta(place, &at, a, y, &delta);
        // Worse by over 30 temperatures: e^-30 < 10^-13, never taken.
        if d > 0 && (d as f64 > 30.0 * t || rng.unit() >= (-(d as f64) / t).exp()) {
            continue;
        }
        let x = place[a];
        let b = at[y as usize];
        place[a] = y;
        at[y as usize] = a as u32;
        at[x as usize] = b;
        if b != EMPTY {
            place[b as usize] = x;
        }
        current += d;
        if current < best {
            best = current;
            kept.copy_from_slice(place);
        }
    }
    place.copy_from_slice(&kept);
}

/// Δ of sending vertex a to host node y and whatever sits on y to a's node.
fn exchange_delta(
    place: &[u64],
    at: &[u32],
    a: usize,
    y: u64,
    delta: &impl Fn(&[u64], usize, u64, u64, u32) -> i64,
) -> i64 {
    let x = place[a];
    let b = at[y as usize];
    let mut d = delta(place, a, x, y, b);
    if b != EMPTY {
        d += delta(place, b as usize, y, x, a as u32);
    }
    d
}
