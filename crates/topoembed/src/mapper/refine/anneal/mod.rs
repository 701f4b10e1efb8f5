//! Simulated annealing of a one-to-one placement (Kirkpatrick, Gelatt &
//! Vecchi 1983; the classic heuristic for small quadratic assignment
//! problems, Burkard & Rendl 1984): the parts' quotient graph — a few
//! hundred or thousand vertices — is laid out on the host by pairwise
//! exchanges, each costing O(degree), worse ones accepted with probability
//! e^(−Δ/T) as T cools geometrically. Whole-part greedy swaps
//! ([`super::parts`]) stop at the first local optimum; a planar quotient
//! folded onto a torus has many, and annealing climbs out of them. Four
//! chains race through the hot part of the schedule and the lowest cools
//! ([`RACE`]): where the quotient folds is decided while it is hot.

use rayon::prelude::*;

use crate::mapper::distance::{HostDistance, TableRef};
use crate::mapper::graph::WGraph;
use crate::mapper::rng::Rng;

use super::best::Best;
use super::cost_table::Tables;

mod metropolis;
mod step;

use step::{priced_delta, Priced, Proposer, SparseSums, EMPTY};

/// Exchanges tried per vertex of the quotient graph.
const STEPS_PER_VERTEX: u64 = 10_000;
/// Exchanges tried per vertex *pair* of a small quotient graph, up to
/// [`SMALL_STEPS`] in all: a QAP of n vertices has n²/2 exchanges, and
/// STEPS_PER_VERTEX · n of them leave a quotient of 64 a few hundred
/// tries of each. Benchmark (delaunay_n15's 64-part quotient onto cube:6,
/// seeds 1–5): 6 517–6 677 hop-bytes in 0.05 s with the linear budget,
/// 6 288–6 463 in 0.21 s with this one (Mt-KaHyPar: 6 499–6 556 in
/// 0.13–0.15 s); 4 whole chains instead, 6 422–6 530 in 0.23 s.
const STEPS_PER_PAIR: u64 = 625;
/// The most [`STEPS_PER_PAIR`] gives: what a 256-vertex quotient gets from
/// [`STEPS_PER_VERTEX`], so the budget grows with n² below 64 vertices, is
/// flat up to 256 and linear above; at most 16 vertices it is linear.
const SMALL_STEPS: u64 = 2_560_000;
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
/// Chains that run the hot part of the schedule from the same start, each
/// on a stream of its own, in parallel, and the share of the steps that
/// part takes; the one standing lowest at its end cools alone. The
/// layout's shape (where a planar quotient folds) is set while it is hot,
/// and a lone chain's draw there was the lottery of delaunay_n15 onto
/// torus:16x16 (13 828–16 777 over six seeds). Benchmark (24 torus pairs of
/// `bench/mapper.sh`, seeds 1–3, hop-bytes after the whole search,
/// geometric mean): 4 chains hot for 25 % of the steps −0.9 % (the
/// annealing costs 1.75 chains), for 40 % −1.3 % (2.2 chains: over the
/// whole set 20 % more time where 25 % costs 15 %), 2 for 40 % −0.5 %; the
/// 4 × 25 % with the steps cut to cost one chain +0.3 % (the cooling
/// needs its steps); the better of two whole chains −0.4 % (2 chains).
const RACE: (usize, f64) = (4, 0.25);

/// One proposal in this many sends a vertex to any host node; the others
/// send it to a neighbour's node or next to it ([`Schedule::far`]).
const FAR: usize = 8;

/// How a layout is annealed: the first temperature, the chains that race
/// through the hot part, and how often an exchange is proposed anywhere.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Schedule {
    /// First temperature as a share of the mean worsening exchange
    /// ([`HEAT`] from scratch): a cooler start keeps more of the layout.
    pub heat: f64,
    /// Chains that race through the hot part and its share of the steps
    /// ([`RACE`] from scratch); `(1, 0.0)`: one chain the whole way.
    pub race: (usize, f64),
    /// One proposal in `far` sends a vertex to a host node drawn from all
    /// ([`FAR`] from scratch), the others next to a neighbour of its own
    /// (0 and 1 alike: every proposal drawn from all).
    pub far: usize,
    /// Share of the exchanges a quotient's size gives ([`steps`]) that are
    /// tried: 1 from scratch, less at the fast preset
    /// ([`crate::mapper::Preset`]).
    pub share: f64,
}

impl Schedule {
    /// A layout annealed from scratch ([`anneal`]): hot enough to leave the
    /// start's local optimum, four chains racing to decide where it folds.
    pub const FROM_SCRATCH: Schedule = Schedule {
        heat: HEAT,
        race: RACE,
        far: FAR,
        share: 1.0,
    };

    /// This schedule trying `share` of its exchanges.
    pub fn sharing(self, share: f64) -> Schedule {
        Schedule { share, ..self }
    }
}

/// A chain that cools ends once it has stalled: a tenth of its steps
/// (`STALL.0`) without a new best since its first, or 35 % of them
/// (`STALL.1`) without any. The schedule's last half is frozen: over the
/// 24 torus pairs of `bench/mapper.sh` the lowest chain met its best at
/// 42–63 % of the steps, and between its first best and its last it waited
/// at most 3–8 % of the steps for the next (up to 16 %: copter2's quotient
/// onto torus:16x16, delaunay_n15's 4096 parts onto torus:16x16x16).
/// Before its first best the chosen racer may stand above the start and
/// cool for a fifth of the steps to come back below it (those 4096 parts),
/// so the first wait is longer. Benchmark (those pairs and the 4 quotients
/// of `bench/mapper.sh`, seeds 1–3, hop-bytes after the whole search): 80
/// of 84 placements the same, the geometric mean +0.02 % (butterfly_12 onto
/// torus:8x8x4 +1.7 % on seed 1, copter2 onto torus:16x16 −0.14 %), 4.3 %
/// less time on one thread; counting a tenth from the end of the race
/// instead lost 2.7 % on the 4096 parts.
const STALL: (f64, f64) = (0.10, 0.35);

/// A quotient of at most this many vertices (a budget set by pairs,
/// [`SMALL_STEPS`]) counts the first wait of its cooling chain from the end
/// of the race ([`Patience::from_race`]): where the race's best is not met
/// again within a tenth of the steps, nothing later was. Benchmark (the 24
/// torus pairs and the 4 quotients of `bench/mapper.sh`, seeds 1–3, the
/// whole search): 83 of 84 placements the same, one 0.2 % above
/// (butterfly_12 onto torus:8x8x8, seed 3: 57 140 for 57 026), and 7 % fewer
/// exchanges tried in all (193 → 179 million on seed 1: coarse layouts of
/// 64 parts onto 8x8 or 4x4x4 blocks, and 256 parts onto torus:16x16,
/// whose best came in the race, had cooled for 35 % of their steps for
/// nothing). Above 256 it changed nothing on seed 1, but counting so lost
/// on the 4096 parts before (see [`STALL`]).
const SMALL_QUOTIENT: u64 = SMALL_STEPS / STEPS_PER_VERTEX;

/// When a cooling chain has stalled ([`STALL`]), in steps.
#[derive(Debug, Clone, Copy)]
struct Patience {
    /// Steps without a new best after one.
    after_best: u64,
    /// Steps before a first best.
    first: u64,
    /// Whether a best met in the race counts as the chain's last
    /// ([`SMALL_QUOTIENT`]); otherwise the first wait is [`Patience::first`].
    from_race: bool,
}

impl Patience {
    /// The waits of a chain of `steps` in all (each at least one step).
    fn of(steps: u64, from_race: bool) -> Patience {
        let share = |s: f64| ((s * steps as f64) as u64).max(1);
        Patience {
            after_best: share(STALL.0),
            first: share(STALL.1),
            from_race,
        }
    }

    /// Whether a chain has stalled after `taken` steps of its cooling,
    /// `since_best` steps after its last new best in it (`None`: none yet).
    fn stalled(self, taken: u64, since_best: Option<u64>) -> bool {
        match since_best {
            Some(since) => since >= self.after_best,
            None if self.from_race => taken >= self.after_best,
            None => taken >= self.first,
        }
    }
}

/// Exchanges tried on a quotient of `n` vertices whose exchanges read
/// `reads` distances each: STEPS_PER_VERTEX · n, at least STEPS_PER_PAIR ·
/// n² up to SMALL_STEPS, within MAX_STEPS and MAX_READS.
fn steps(n: u64, reads: u64) -> u64 {
    (STEPS_PER_VERTEX * n)
        .max(
            STEPS_PER_PAIR
                .saturating_mul(n)
                .saturating_mul(n)
                .min(SMALL_STEPS),
        )
        .min(MAX_STEPS)
        .min(MAX_READS / reads.max(1))
}

/// Anneals `place` (distinct host nodes below `p`, one per vertex of `q`);
/// returns the hop-bytes gained (the best placement met is kept, never a
/// worse one than the start).
pub fn anneal(q: &WGraph, dist: &HostDistance, place: &mut [u64], p: u64, rng: &mut Rng) -> u128 {
    anneal_from(q, dist, place, p, rng, Schedule::FROM_SCRATCH)
}

/// [`anneal`] on another [`Schedule`] (a cooler start where the layout
/// is decided already: the mapper's blocks spread over a halved host).
pub fn anneal_from(
    q: &WGraph,
    dist: &HostDistance,
    place: &mut [u64],
    p: u64,
    rng: &mut Rng,
    schedule: Schedule,
) -> u128 {
    let n = q.n();
    if n < 3 || p > u64::from(u32::MAX) {
        return 0;
    }
    let volume: u128 = q.ew.iter().map(|&w| u128::from(w)).sum();
    let before = crate::mapper::hop_bytes(q, dist, place);
    // Every edge one hop long on a host whose distinct nodes are at least a
    // hop apart (a grid-shaped machine, a graph without link costs): no
    // exchange gains. A stencil's parts onto a torus of its shape often
    // start so (the 24^3 stencil's 512 parts onto torus:8x8x8: 0.88 s of
    // annealing saved).
    if dist.at_least_a_hop_apart() && before == volume / 2 {
        return 0;
    }
    let mut at = vec![EMPTY; p as usize];
    for (v, &h) in place.iter().enumerate() {
        at[h as usize] = v as u32;
    }
    let near = neighbour_lists(dist, p);
    // Exchanges are summed in i64 (i128 through the general lookup was 2.5
    // times slower): volumes are scaled down, only where Σ volume × the
    // largest distance would overflow it, and the gain returned is
    // recomputed exactly.
    let (bound, table) = match dist.table() {
        Some(t) => (u128::from(u16::MAX), Some(t)),
        None => (u128::from(dist.host().distance_bound().max(1)), None),
    };
    let mut shift = 0;
    while (volume >> shift) * bound > i64::MAX as u128 {
        shift += 1;
    }
    let w: Vec<i64> = q.ew.iter().map(|&w| (w >> shift) as i64).collect();
    let original = place.to_vec();
    let schedule = (rng, schedule);
    match table {
        Some((width, TableRef::Bytes(t))) => {
            run(q, &w, place, (p, near.as_ref()), at, schedule, |a, b| {
                i64::from(t[a as usize * width + b as usize])
            })
        }
        Some((width, TableRef::Words(t))) => {
            run(q, &w, place, (p, near.as_ref()), at, schedule, |a, b| {
                i64::from(t[a as usize * width + b as usize])
            })
        }
        // Coordinates (or their differences) read in the loop itself, not
        // through a call per distance (a fifth of the time of
        // delaunay_n15's 4096-part quotient onto torus:16x16x16 went to
        // the call).
        None => match (dist.differences(), dist.coords()) {
            (Some(diff), _) => run(q, &w, place, (p, near.as_ref()), at, schedule, |a, b| {
                diff.d(a, b) as i64
            }),
            (_, Some(coords)) => run(q, &w, place, (p, near.as_ref()), at, schedule, |a, b| {
                coords.d(a, b) as i64
            }),
            _ => run(q, &w, place, (p, near.as_ref()), at, schedule, |a, b| {
                dist.d(a, b) as i64
            }),
        },
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
/// node's neighbours (empty: none listed), `schedule` its first
/// temperature, race and far proposals ([`Schedule`]; one chain: the whole
/// schedule on `rng`'s own stream). Leaves the best placement met by the
/// chain that cooled.
///
/// Each vertex's cost where it sits, Σ volume × distance over its edges, is
/// kept (`cost`), so an exchange's Δ reads one distance per edge, the one
/// from the new node, not two; the costs change only when an exchange is
/// taken, one in 11 to 21 on the quotients of delaunay_n15, 4elt and
/// copter2. The same exchanges are taken as when both distances were read
/// (the sums are exact): delaunay_n15/256 onto torus:16x16 0.145 → 0.135 s
/// for the whole map, delaunay_n15/1024 onto torus:32x32 0.40 → 0.38 s.
fn run(
    q: &WGraph,
    w: &[i64],
    place: &mut [u64],
    (p, (near_start, near_list)): (u64, (&[u32], &[u32])),
    at: Vec<u32>,
    (rng, schedule): (&mut Rng, Schedule),
    d: impl Fn(u64, u64) -> i64 + Sync,
) {
    let Schedule {
        heat,
        race,
        far,
        share,
    } = schedule;
    let n = q.n();
    // The hot loop reads host nodes in 32 bits (p < 2^32) and each entry's
    // neighbour and volume side by side.
    let on: Vec<u32> = place.iter().map(|&h| h as u32).collect();
    let entries: Vec<(u32, i64)> = q.adj.iter().copied().zip(w.iter().copied()).collect();
    let sums = SparseSums {
        entries: &entries,
        xadj: &q.xadj,
        d: &d,
    };
    // Small hosts price an exchange from a table of every vertex's cost on
    // every node ([`super::cost_table`]), larger ones from the edges' sums.
    // (16-bit entries where every one fits, 32-bit where not.)
    let narrow = Tables::<i16>::new(&entries, &q.xadj, p, &d);
    let wide = match narrow {
        Some(_) => None,
        None => Tables::<i32>::new(&entries, &q.xadj, p, &d),
    };
    let cost = match (&narrow, &wide) {
        (Some(tables), _) => Priced::Narrow(tables, tables.costs(&entries, &q.xadj, &on)),
        (_, Some(tables)) => Priced::Wide(tables, tables.costs(&entries, &q.xadj, &on)),
        (None, None) => Priced::Sums(
            (0..n)
                .map(|v| sums.cost_from(&on, v, u64::from(on[v]), EMPTY).0)
                .collect(),
        ),
    };
    // An exchange reads the distances of both ends' edges: 2 × mean degree.
    let reads = (2 * q.adj.len() as u64).div_ceil(n as u64).max(1);
    let steps = ((steps(n as u64, reads) as f64 * share) as u64).max(1);
    let proposer = Proposer {
        q,
        p,
        far,
        near: (near_start, near_list),
    };
    // First temperature: the mean worsening of a sample of exchanges.
    let mut worse = (0i64, 0i64);
    for _ in 0..1000 {
        if let Some((a, y)) = proposer.propose(&on, rng) {
            let change = priced_delta(&cost, (&on, &at), (a, y), &sums);
            if change > 0 {
                worse = (worse.0 + change, worse.1 + 1);
            }
        }
    }
    if worse.1 == 0 {
        return;
    }
    let t0 = worse.0 as f64 / worse.1 as f64 * heat;
    let factor = COOLING.powf(1.0 / steps as f64);
    // The first wait counts from the end of the race on a small quotient.
    let patience = Patience::of(steps, race.0 > 1 && n as u64 <= SMALL_QUOTIENT);
    // `count` more steps of one chain, ending early once it has stalled
    // ([`STALL`]; `stop`: the cooling, not the racing chains, which are
    // compared where they stand).
    let advance = |chain: &mut Chain, count: u64, stop: bool| {
        let Chain {
            on,
            at,
            cost,
            current,
            best,
            kept,
            t,
            rng,
            step,
            best_step,
        } = chain;
        let entered = *step;
        // The temperature in a local of the loop: through `chain` it was
        // stored and loaded again every step.
        let mut temperature = *t;
        for _ in 0..count {
            if stop
                && patience.stalled(
                    *step - entered,
                    (*best_step > entered).then(|| *step - *best_step),
                )
            {
                break;
            }
            *step += 1;
            temperature *= factor;
            let Some((a, y)) = proposer.propose(on, rng) else {
                continue;
            };
            let change = priced_delta(cost, (on, at), (a, y), &sums);
            // Worse by over 30 temperatures: e^-30 < 10^-13, never taken.
            if change > 0
                && (change as f64 > metropolis::MOST * temperature
                    || !metropolis::takes(change as f64 / temperature, rng.unit()))
            {
                continue;
            }
            let x = on[a];
            let b = at[y as usize];
            on[a] = y;
            at[y as usize] = a as u32;
            at[x as usize] = b;
            kept.moved(a as u32);
            if b != EMPTY {
                on[b as usize] = x;
                kept.moved(b);
            }
            match cost {
                Priced::Narrow(tables, costs) => {
                    tables.commit(costs, (&entries, &q.xadj), (a, b), (x, y));
                }
                Priced::Wide(tables, costs) => {
                    tables.commit(costs, (&entries, &q.xadj), (a, b), (x, y));
                }
                Priced::Sums(cost) => {
                    // The neighbours' costs follow a (x → y) and b (y → x);
                    // a's and b's own are summed again.
                    let (x, y) = (u64::from(x), u64::from(y));
                    for &(c, wc) in sums.row(a) {
                        let h = u64::from(on[c as usize]);
                        cost[c as usize] += wc * (d(h, y) - d(h, x));
                    }
                    if b != EMPTY {
                        for &(c, wc) in sums.row(b as usize) {
                            let h = u64::from(on[c as usize]);
                            cost[c as usize] += wc * (d(h, x) - d(h, y));
                        }
                        cost[b as usize] = sums.cost_from(on, b as usize, x, EMPTY).0;
                    }
                    cost[a] = sums.cost_from(on, a, y, EMPTY).0;
                }
            }
            *current += change;
            if *current < *best {
                *best = *current;
                *best_step = *step;
                kept.keep(on);
            }
        }
        *t = temperature;
    };
    let start = Chain {
        kept: Best::new(&on),
        on,
        at,
        cost,
        current: 0,
        best: 0,
        t: t0,
        rng: rng.clone(),
        step: 0,
        best_step: 0,
    };
    let chain = match race {
        (chains, hot) if chains > 1 => {
            let hot = ((hot * steps as f64) as u64).min(steps);
            let base = rng.next_u64();
            let mut racing: Vec<Chain> = (0..chains as u64)
                .map(|c| Chain {
                    rng: Rng::new(base, c),
                    ..start.clone()
                })
                .collect();
            racing
                .par_iter_mut()
                .for_each(|chain| advance(chain, hot, false));
            // Where the chains stand (`current`, from the same start): the
            // lowest, the first on ties, whatever thread ran which.
            let lowest = (0..chains)
                .min_by_key(|&c| (racing[c].current, c))
                .expect("more than one chain");
            let mut chain = racing.swap_remove(lowest);
            advance(&mut chain, steps - hot, true);
            chain
        }
        _ => {
            let mut chain = start;
            advance(&mut chain, steps, true);
            *rng = chain.rng.clone();
            chain
        }
    };
    let Chain { on, cost, kept, .. } = chain;
    debug_assert!(
        (0..n).all(|v| cost.of(v, on[v]) == sums.cost_from(&on, v, u64::from(on[v]), EMPTY).0),
        "the kept costs follow the exchanges"
    );
    for (h, &k) in place.iter_mut().zip(kept.place()) {
        *h = u64::from(k);
    }
}

/// One annealing chain: the placement both ways (`on`: host node per
/// vertex; `at`: vertex per host node), each vertex's cost where it sits,
/// the hop-bytes change since the start (`current`) and the least met
/// (`best`, placed as `kept`), the temperature and the chain's stream.
#[derive(Clone)]
struct Chain<'t> {
    on: Vec<u32>,
    at: Vec<u32>,
    cost: Priced<'t>,
    current: i64,
    best: i64,
    kept: Best,
    t: f64,
    rng: Rng,
    /// Steps taken, and the step of the last new best.
    step: u64,
    best_step: u64,
}

/// Every host node's neighbours in one array, node y's
/// `list[start[y]..start[y + 1]]` — `(start, list)`, both empty where none
/// are listed (above 2^16 nodes, or more than [`MAX_HOST_DEGREE`]
/// neighbours).
fn neighbour_lists(dist: &HostDistance, p: u64) -> NeighbourLists {
    let host = dist.host();
    let mut near = NeighbourLists::default();
    if p > 1 << 16 || (0..p.min(64)).any(|y| host.degree(y) > MAX_HOST_DEGREE) {
        return near;
    }
    near.0.push(0);
    for y in 0..p {
        near.1
            .extend(host.neighbors(y).into_iter().map(|z| z as u32));
        near.0.push(near.1.len() as u32);
    }
    near
}

/// `(start, list)` of [`neighbour_lists`].
#[derive(Default)]
struct NeighbourLists(Vec<u32>, Vec<u32>);

impl NeighbourLists {
    fn as_ref(&self) -> (&[u32], &[u32]) {
        (&self.0, &self.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The budget's shape: linear up to 16 vertices, n² · STEPS_PER_PAIR up
    /// to 64, flat to 256, linear above up to MAX_STEPS; dense quotients
    /// capped by the distances read; never zero, never overflowing.
    #[test]
    fn small_quotients_get_a_budget_by_pairs() {
        assert_eq!(steps(3, 4), 30_000);
        assert_eq!(steps(16, 4), 160_000);
        assert_eq!(steps(17, 4), 625 * 17 * 17);
        assert_eq!(steps(32, 4), 640_000);
        assert_eq!(steps(64, 4), SMALL_STEPS);
        assert_eq!(steps(100, 4), SMALL_STEPS);
        assert_eq!(steps(256, 4), SMALL_STEPS);
        assert_eq!(steps(300, 4), 3_000_000);
        assert_eq!(steps(1024, 4), MAX_STEPS);
        assert_eq!(steps(64, 200), MAX_READS / 200);
        assert_eq!(steps(1 << 24, 0), MAX_STEPS);
        assert_eq!(steps(u64::from(u32::MAX), 1), MAX_STEPS);
        for n in 3..600 {
            assert!(steps(n + 1, 4) >= steps(n, 4), "the budget shrinks at {n}");
        }
    }
    use crate::mapper::coarsen::tests::bip;
    use crate::mapper::rng::Rng;
    use crate::topology;
    use proptest::prelude::*;

    /// The annealing proper on volumes `w` (one per entry of `q.adj`) and
    /// distances `d`: `at` is the vertex on each host node, `near` each host
    /// node's neighbours (empty: none listed). Leaves the best placement met.
    fn reference_run(
        q: &WGraph,
        w: &[i64],
        place: &mut [u64],
        (p, near): (u64, &[Vec<u64>]),
        mut at: Vec<u32>,
        (rng, far): (&mut Rng, usize),
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
        let steps = steps(n as u64, reads);
        let propose = |place: &[u64], rng: &mut Rng| -> Option<(usize, u64)> {
            let a = rng.below(n);
            let degree = q.xadj[a + 1] - q.xadj[a];
            let y = if degree == 0 || rng.below(far) == 0 {
                rng.below(p as usize) as u64
            } else {
                let c = q.adj[q.xadj[a] + rng.below(degree)] as usize;
                let y = place[c];
                match near.get(y as usize) {
                    Some(list) if !list.is_empty() && rng.below(2) == 0 => {
                        list[rng.below(list.len())]
                    }
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
        let mut best_step = 0;
        for step in 1..=steps {
            if Patience::of(steps, false)
                .stalled(step - 1, (best_step > 0).then(|| step - 1 - best_step))
            {
                break;
            }
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
                best_step = step;
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

    /// The annealing as it was before the costs were kept: both distances
    /// of every edge read for each exchange's Δ.
    fn reference(
        q: &WGraph,
        dist: &HostDistance,
        place: &mut [u64],
        p: u64,
        (rng, far): (&mut Rng, usize),
    ) {
        let mut at = vec![EMPTY; p as usize];
        for (v, &h) in place.iter().enumerate() {
            at[h as usize] = v as u32;
        }
        let near: Vec<Vec<u64>> = (0..p).map(|y| dist.host().neighbors(y)).collect();
        let w: Vec<i64> = q.ew.iter().map(|&w| w as i64).collect();
        reference_run(q, &w, place, (p, &near), at, (rng, far), |a, b| {
            dist.d(a, b) as i64
        });
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(60))]

        /// Keeping each vertex's cost changes nothing a chain decides:
        /// on random graphs, on a torus and on a tleaf (distances from a
        /// table and from the host), the same seed leaves the same
        /// placement as reading both distances of every edge — one
        /// proposal in `far` anywhere, as the schedule says — whether the
        /// costs are priced by a table of every node (hosts of up to
        /// `cost_table::MAX_SPARSE_NODES`) or summed edge by edge (torus:24x24).
        #[test]
        fn kept_costs_take_the_exchanges_both_distances_take(
            n in 3usize..40,
            extra in prop::collection::vec((0usize..40, 0usize..40, 1u64..9), 0..80),
            host in prop::sample::select(vec!["torus:8x8", "tleaf:2x4x8:50,5,1", "mesh:5x9", "torus:16x20", "torus:24x24"]),
            seed in 0u64..1000,
            far in prop::sample::select(vec![FAR, 64, 2]),
        ) {
            let q = bip(n, &extra, &[1], &[[0, 0]]).g;
            let host = topology::parse(host).unwrap();
            let dist = HostDistance::new(host.as_ref()).unwrap();
            let p = host.node_count();
            let start: Vec<u64> = Rng::new(seed, 1).permutation(p as usize)[..n]
                .iter()
                .map(|&h| u64::from(h))
                .collect();
            let mut at = vec![EMPTY; p as usize];
            for (v, &h) in start.iter().enumerate() {
                at[h as usize] = v as u32;
            }
            let near = neighbour_lists(&dist, p);
            let w: Vec<i64> = q.ew.iter().map(|&w| w as i64).collect();
            let (mut kept, mut both) = (start.clone(), start);
            let schedule = Schedule {
                race: (1, 0.0),
                far,
                ..Schedule::FROM_SCRATCH
            };
            let one_chain = (&mut Rng::new(seed, 2), schedule);
            run(&q, &w, &mut kept, (p, near.as_ref()), at, one_chain, |a, b| {
                dist.d(a, b) as i64
            });
            reference(&q, &dist, &mut both, p, (&mut Rng::new(seed, 2), far));
            prop_assert_eq!(kept, both);
        }
    }

    /// A cooling chain stalls a tenth of its steps after its last new best,
    /// or 35 % of them in when it has met none — a tenth where the race's
    /// best counts (a small quotient).
    #[test]
    fn a_chain_stalls_a_tenth_after_its_last_best() {
        let patience = Patience::of(1000, false);
        assert!(!patience.stalled(500, Some(99)));
        assert!(patience.stalled(500, Some(100)));
        assert!(!patience.stalled(349, None));
        assert!(patience.stalled(350, None));
        let small = Patience::of(1000, true);
        assert!(!small.stalled(99, None));
        assert!(small.stalled(100, None));
        assert!(!small.stalled(500, Some(99)));
        // A few steps still wait one.
        assert!(!Patience::of(3, false).stalled(0, Some(0)));
        assert!(Patience::of(3, false).stalled(1, Some(1)));
        assert!(!Patience::of(3, true).stalled(0, None));
    }

    /// A layout with every edge one hop long is left as it is without a
    /// step (the caller's stream untouched); one hop longer somewhere, it
    /// is annealed back to one hop.
    #[test]
    fn a_layout_of_one_hop_edges_is_not_annealed() {
        // (`bip` adds a path of volume 1 beside these edges.)
        let ring: Vec<(usize, usize, u64)> = (0..16).map(|i| (i, (i + 1) % 16, 3)).collect();
        let q = bip(16, &ring, &[1], &[[0, 0]]).g;
        let host = topology::parse("ring:16").unwrap();
        let dist = HostDistance::new(host.as_ref()).unwrap();
        let mut place: Vec<u64> = (0..16).collect();
        let mut rng = Rng::new(4, 0);
        assert_eq!(anneal(&q, &dist, &mut place, 16, &mut rng), 0);
        assert_eq!(place, (0..16).collect::<Vec<u64>>());
        assert_eq!(rng.next_u64(), Rng::new(4, 0).next_u64());
        place.swap(3, 4);
        assert!(anneal(&q, &dist, &mut place, 16, &mut Rng::new(4, 0)) > 0);
        let volume: u64 = q.ew.iter().sum::<u64>() / 2;
        assert_eq!(
            crate::mapper::hop_bytes(&q, &dist, &place),
            u128::from(volume)
        );
    }

    /// The chains that run the hot part of the schedule give the same
    /// placement, gain and caller's stream on one thread and on three (each
    /// chain has its own stream, and the lowest standing wins with ties to
    /// the first), and the gain is exact.
    #[test]
    fn racing_chains_give_one_placement_on_any_thread_count() {
        let extra: Vec<(usize, usize, u64)> = (0..120)
            .map(|i| (i * 7 % 64, (i * 13 + 5) % 64, 1 + i as u64 % 5))
            .collect();
        let q = bip(64, &extra, &[1], &[[0, 0]]).g;
        let host = topology::parse("torus:8x8").unwrap();
        let dist = HostDistance::new(host.as_ref()).unwrap();
        let start: Vec<u64> = (0..64).map(|v| (v * 37 % 64) as u64).collect();
        let on_threads = |threads: usize| {
            crate::mapper::on_threads(threads, || {
                let mut place = start.clone();
                let mut rng = Rng::new(9, 0);
                let gained = anneal(&q, &dist, &mut place, 64, &mut rng);
                (place, gained, rng.next_u64())
            })
        };
        let one = on_threads(1);
        assert_eq!(one, on_threads(3));
        assert!(
            one.1 > 0,
            "a scrambled layout gives the annealing something"
        );
        let raced = crate::mapper::hop_bytes(&q, &dist, &one.0);
        assert_eq!(raced + one.1, crate::mapper::hop_bytes(&q, &dist, &start));
    }
}
