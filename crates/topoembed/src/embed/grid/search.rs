//! The search over plans: every way to share each host axis between guest
//! axes (ordered factors, each owned by one guest axis, at most one factor
//! of a host axis per guest axis), every walk of each guest axis's sub-box.
//! Every plan is scored in closed form (weighted longest step, then weighted
//! mean step); the best few hundred, as many as a budget of routed messages
//! allows, are routed message by message and the winner is chosen among
//! those no other beats in both Σ max hops and Σ congestion by the
//! request's [`Objective`] ([`super::choice`]; by default the least
//! Σ w_i·(max hops_i + congestion_i) — a ring step costs latency (hops) and
//! bandwidth (messages sharing a link) — then the least weighted longest
//! step, then the least weighted mean step).
//!
//! A request that is not routed ([`Request::routed`]: the mapper's starts,
//! which it weighs by hop-bytes alone) takes the plan of least weighted
//! mean step, then least weighted longest step, straight from the closed
//! forms: routing the finalists of a 4096-node grid costs 1.6 s on one
//! thread, a quarter of the time of a 10^6-vertex stencil's whole start.
//!
//! Every pair with equal node counts has a plan: for each prime p, the host
//! axes' exponents of p and the guest axes' exponents add up to the same
//! number, and a non-negative integer matrix with those row and column sums
//! always exists (a transportation problem), so the factors can be dealt out.

use std::collections::BinaryHeap;

use rayon::prelude::*;

use super::choice::{choose, weighted, Objective};
use super::figures::{exact_figures, AxisFigures};
use super::plan::{step_hops, AxisSplit, GuestAxis, HostAxes, Part, Plan, StepHops};
use super::walk::Walk;
use crate::topology::{Grid, Topology};

/// What to lay out: the guest axes (length, ring or line) and how much each
/// one's traffic weighs.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    /// The host grid.
    pub host: &'a Grid,
    /// Guest axis lengths, axis 1 first.
    pub sides: &'a [u64],
    /// Per guest axis: a ring (true) or a line.
    pub closed: &'a [bool],
    /// Per guest axis: relative traffic.
    pub weights: &'a [f64],
    /// What to favour among the placements no other beats on both counts.
    pub objective: Objective,
    /// Whether the finalists are routed message by message and chosen by
    /// `objective`; otherwise the plan of least weighted mean step is taken
    /// from the closed forms, unrouted (`objective` unused).
    pub routed: bool,
}

/// The plan found and how the search went.
#[derive(Debug, Clone)]
pub struct Found {
    /// The best plan.
    pub plan: Plan,
    /// Complete plans scored.
    pub plans_scored: u64,
    /// Plans whose congestion was counted exactly.
    pub plans_routed: u64,
    /// True when the enumeration stopped at its limit.
    pub truncated: bool,
    /// The figures of every plan routed (the best one's among them).
    pub routed: Vec<Vec<AxisFigures>>,
}

/// Plans scored at most (each in closed form, microseconds).
const PLAN_LIMIT: u64 = 400_000;
/// Message routes counted exactly at most, over all finalists.
const ROUTE_BUDGET: u64 = 40_000_000;
/// Finalists at most.
const FINALISTS: u64 = 2000;

/// One scored candidate: splits and walks, and its closed-form figures.
struct Candidate {
    splits: Vec<AxisSplit>,
    guest: Vec<GuestAxis>,
    hops: Vec<StepHops>,
}

impl Candidate {
    /// Weighted longest step, then weighted mean step; the other way round
    /// for a request that is not `routed` (hop-bytes first).
    fn key(&self, weights: &[f64], routed: bool) -> (i64, i64) {
        let longest = weighted(weights, self.hops.iter().map(|h| h.max as f64));
        let mean = weighted(weights, self.hops.iter().map(StepHops::average));
        match routed {
            true => (longest, mean),
            false => (mean, longest),
        }
    }
}

/// Searches the plans of `req` and returns the best one. The guest's node
/// count must equal the host's (checked by the callers).
pub fn search(req: &Request) -> Found {
    let host = HostAxes {
        sides: req.host.sides(),
        rings: req.host.rings(),
    };
    let nodes = req.host.node_count();
    let per_plan = nodes * req.sides.len().max(1) as u64 * 2;
    let finalists = match req.routed {
        true => (ROUTE_BUDGET / per_plan.max(1)).clamp(1, FINALISTS) as usize,
        false => 1,
    };
    let mut state = State::new(req, &host, finalists);
    state.descend(0);
    let State {
        mut best,
        scored,
        truncated,
        ..
    } = state;
    // The finalists, best closed-form key first, routed message by message
    // (hosts too large for even one routed plan keep the closed-form best).
    best.sort_by_key(|(k, _)| *k);
    if per_plan > ROUTE_BUDGET || !req.routed {
        let (_, c) = best.swap_remove(0);
        return Found {
            plan: Plan::new(host, c.splits, c.guest),
            plans_scored: scored,
            plans_routed: 0,
            truncated,
            routed: Vec::new(),
        };
    }
    // In parallel, in the finalists' order (up to 40·10^6 routes: half a
    // second for a 16x16x16 grid onto torus:16x16x16).
    let (mut plans, routed): (Vec<Plan>, Vec<Vec<AxisFigures>>) = best
        .into_par_iter()
        .map(|(_, c)| {
            let plan = Plan::new(host.clone(), c.splits, c.guest);
            let figures = exact_figures(req.host, req.sides, req.closed, &|g| plan.host_node(g));
            (plan, figures)
        })
        .unzip();
    let at = choose(&routed, req.weights, req.objective)
        .expect("every pair with equal node counts has a plan");
    Found {
        plan: plans.swap_remove(at),
        plans_scored: scored,
        plans_routed: routed.len() as u64,
        truncated,
        routed,
    }
}

struct State<'a, 'b> {
    req: &'a Request<'b>,
    host: &'a HostAxes,
    rem: Vec<u64>,
    splits: Vec<AxisSplit>,
    /// The best candidates so far by closed-form key (at most `keep`).
    best: Vec<((i64, i64), Candidate)>,
    /// Their keys and slots, worst on top.
    worst: BinaryHeap<((i64, i64), usize)>,
    keep: usize,
    scored: u64,
    truncated: bool,
}

impl<'a, 'b> State<'a, 'b> {
    /// The search's start: nothing split yet, up to `keep` candidates kept.
    fn new(req: &'a Request<'b>, host: &'a HostAxes, keep: usize) -> State<'a, 'b> {
        State {
            req,
            host,
            rem: req.sides.to_vec(),
            splits: Vec::new(),
            best: Vec::new(),
            worst: BinaryHeap::new(),
            keep,
            scored: 0,
            truncated: false,
        }
    }

    fn descend(&mut self, j: usize) {
        if self.scored >= PLAN_LIMIT {
            self.truncated = true;
            return;
        }
        if j == self.host.sides.len() {
            if self.rem.iter().all(|&r| r == 1) {
                self.score();
            }
            return;
        }
        // What the host axes after j can still hold must cover the rest.
        let (options, capped) = splits_of(self.host.sides[j], &self.rem);
        self.truncated |= capped;
        for parts in options {
            for p in &parts {
                self.rem[p.guest_axis] /= p.side;
            }
            let later: u64 = self.host.sides[j + 1..].iter().product();
            if self.rem.iter().product::<u64>() == later {
                self.splits.push(AxisSplit::new(
                    parts.clone(),
                    self.host.sides[j],
                    self.host.rings[j],
                ));
                self.descend(j + 1);
                self.splits.pop();
            }
            for p in &parts {
                self.rem[p.guest_axis] *= p.side;
            }
        }
    }

    fn score(&mut self) {
        self.scored += 1;
        let mut guest = Vec::with_capacity(self.req.sides.len());
        let mut hops = Vec::with_capacity(self.req.sides.len());
        for (i, (&side, &closed)) in self.req.sides.iter().zip(self.req.closed).enumerate() {
            let (comps, costs, refs) = Plan::comps_of(self.host, &self.splits, i);
            if comps.is_empty() {
                guest.push(GuestAxis {
                    side,
                    closed,
                    walk: None,
                    parts: Vec::new(),
                });
                hops.push(StepHops::default());
                continue;
            }
            let (walk, perm, h) = best_walk(&comps, &costs, closed);
            guest.push(GuestAxis {
                side,
                closed,
                walk: Some(walk),
                parts: perm.iter().map(|&k| refs[k]).collect(),
            });
            hops.push(h);
        }
        let c = Candidate {
            splits: self.splits.clone(),
            guest,
            hops,
        };
        let key = c.key(self.req.weights, self.req.routed);
        if self.best.len() < self.keep {
            self.worst.push((key, self.best.len()));
            self.best.push((key, c));
        } else if let Some(&(top, at)) = self.worst.peek() {
            if key < top {
                self.worst.pop();
                self.worst.push((key, at));
                self.best[at] = (key, c);
            }
        }
    }
}

/// The walk of least longest step, then least total, among the choices.
fn best_walk(
    comps: &[super::walk::Comp],
    costs: &[u64],
    closed: bool,
) -> (Walk, Vec<usize>, StepHops) {
    Walk::choices(comps, costs, closed)
        .into_iter()
        .map(|(walk, perm)| {
            let walk_costs: Vec<u64> = perm.iter().map(|&k| costs[k]).collect();
            let h = step_hops(&walk, &walk_costs);
            (walk, perm, h)
        })
        .min_by_key(|(_, _, h)| (h.max, h.total))
        .expect("a sub-box always has a walk")
}

/// Ways to cut one host axis at most (a side of 2^30 shared by five guest
/// axes has millions); the whole-axis and two-part cuts come first.
const SPLIT_LIMIT: usize = 20_000;

/// Every way to cut a host axis of `side` into ordered parts owned by
/// distinct guest axes, each part's side dividing what that axis still needs
/// (`rem`), fewest parts first; the flag says [`SPLIT_LIMIT`] cut the list.
fn splits_of(side: u64, rem: &[u64]) -> (Vec<Vec<Part>>, bool) {
    let mut out = Vec::new();
    for parts in 1..=rem.len() {
        extend(side, rem, parts, &mut Vec::new(), &mut out);
        if out.len() >= SPLIT_LIMIT {
            out.truncate(SPLIT_LIMIT);
            return (out, true);
        }
    }
    (out, false)
}

/// Appends the cuts of `left` into exactly `parts` more parts.
fn extend(left: u64, rem: &[u64], parts: usize, current: &mut Vec<Part>, out: &mut Vec<Vec<Part>>) {
    if out.len() >= SPLIT_LIMIT {
        return;
    }
    if parts == 0 {
        if left == 1 {
            out.push(current.clone());
        }
        return;
    }
    if left == 1 {
        return;
    }
    for (axis, &need) in rem.iter().enumerate() {
        if current.iter().any(|p| p.guest_axis == axis) {
            continue;
        }
        let g = gcd(need, left);
        for f in divisors(g).into_iter().filter(|&f| f >= 2) {
            current.push(Part {
                guest_axis: axis,
                side: f,
            });
            extend(left / f, rem, parts - 1, current, out);
            current.pop();
        }
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn divisors(n: u64) -> Vec<u64> {
    let mut small = Vec::new();
    let mut large = Vec::new();
    let mut d = 1;
    while d * d <= n {
        if n % d == 0 {
            small.push(d);
            if d * d != n {
                large.push(n / d);
            }
        }
        d += 1;
    }
    small.extend(large.into_iter().rev());
    small
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Spec;

    /// The figures of every plan of `req` (each guest axis walked as the
    /// search walks it), counted message by message.
    fn every_plan(req: &Request) -> Vec<Vec<AxisFigures>> {
        let host = HostAxes {
            sides: req.host.sides(),
            rings: req.host.rings(),
        };
        let mut state = State::new(req, &host, usize::MAX);
        state.descend(0);
        state
            .best
            .into_iter()
            .map(|(_, c)| {
                let plan = Plan::new(host.clone(), c.splits, c.guest);
                exact_figures(req.host, req.sides, req.closed, &|g| plan.host_node(g))
            })
            .collect()
    }

    /// A request that is not routed returns a plan of least weighted mean
    /// step among every plan, each counted message by message (so the
    /// closed forms it ranks by are exact), and no worse by that count than
    /// the routed request's choice; it routes nothing.
    #[test]
    fn unrouted_requests_take_the_least_mean_step() {
        // (host, guest sides, guest rings, weights)
        type Case<'a> = (&'a str, &'a [u64], &'a [bool], &'a [f64]);
        let cases: &[Case] = &[
            // Where the plan of least longest step is not the one of
            // least mean step (a ring of 16 onto torus:8x8: 3 against
            // 2.875 hops a step over both axes).
            ("torus:8x8", &[4, 16], &[true, true], &[1.0, 1.0]),
            ("mesh:8x8", &[16, 4], &[true, true], &[1.0, 1.0]),
            ("torus:4x6", &[3, 8], &[true, false], &[1.0, 1.0]),
            ("torus:6x6", &[3, 12], &[true, true], &[1.0, 1.0]),
            // Weighted, and where both orders agree.
            ("torus:8x8", &[4, 16], &[false, true], &[1.0, 3.0]),
            ("mesh:6x6", &[3, 12], &[true, false], &[2.0, 1.0]),
            ("mesh:2x3x4", &[24], &[true], &[1.0]),
            ("torus:4x4x4", &[8, 8], &[true, true], &[1.0, 1.0]),
            ("grid:6wx4x2", &[4, 12], &[false, true], &[1.0, 1.0]),
        ];
        for &(host, sides, closed, weights) in cases {
            let grid = Grid::new(host.parse::<Spec>().expect("a grid spec"));
            let request = |routed| Request {
                host: &grid,
                sides,
                closed,
                weights,
                objective: Objective::Balanced,
                routed,
            };
            let mean =
                |figures: &[AxisFigures]| weighted(weights, figures.iter().map(|a| a.average_hops));
            let least = every_plan(&request(false))
                .iter()
                .map(|f| mean(f))
                .min()
                .expect("every pair of equal node counts has a plan");
            let figures_of =
                |found: &Found| exact_figures(&grid, sides, closed, &|g| found.plan.host_node(g));
            let unrouted = search(&request(false));
            let routed = search(&request(true));
            assert_eq!(unrouted.plans_routed, 0, "{host} {sides:?}");
            assert_eq!(mean(&figures_of(&unrouted)), least, "{host} {sides:?}");
            assert!(least <= mean(&figures_of(&routed)), "{host} {sides:?}");
        }
    }

    #[test]
    fn splits_cover_every_ordered_factoring() {
        // 12 shared by two guest axes needing 4 and 6: [a4 b3], [b3 a4],
        // [a2 b6], [b6 a2], [a4, b3]... every order, each part dividing.
        let (s, capped) = splits_of(12, &[4, 6]);
        assert!(!capped);
        for parts in &s {
            assert_eq!(parts.iter().map(|p| p.side).product::<u64>(), 12);
        }
        let mut shapes: Vec<Vec<(usize, u64)>> = s
            .iter()
            .map(|p| p.iter().map(|p| (p.guest_axis, p.side)).collect())
            .collect();
        shapes.sort();
        assert_eq!(
            shapes,
            vec![
                vec![(0, 2), (1, 6)],
                vec![(0, 4), (1, 3)],
                vec![(1, 3), (0, 4)],
                vec![(1, 6), (0, 2)],
            ]
        );
        assert_eq!(divisors(36), vec![1, 2, 3, 4, 6, 9, 12, 18, 36]);
    }
}
