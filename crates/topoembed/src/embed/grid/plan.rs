//! A plan: how each guest axis is spread over host axes and factors of host
//! axes, and the walk that takes it round its sub-box.
//!
//! Host axis j of side h_j is cut into factors, inner first: h_j = f_0·f_1·..,
//! and position x_j = y_0 + f_0·(y_1 + f_1·(..)) (mixed radix). Each factor
//! (a *part*) belongs to one guest axis. A step of part q moves x_j by its
//! stride S_q = f_0·..·f_{q−1} hops; the outermost part of a wrapped axis
//! wraps too (from f−1 to 0 is S hops the other way round). One exception
//! is exact and worth having: a ring of 4 is K2 × K2 (0 1 3 2 round the
//! ring), so splitting it 2·2 costs 1 hop for both parts instead of 1 and 2.
//! A guest axis of length ℓ_i owns parts whose sides multiply to ℓ_i, and its
//! coordinate walks their sub-box (see [`super::walk`]); every step of the
//! walk moves one part, so its cost in hops is that part's stride.

use super::walk::{Comp, StepKind, Walk};

/// Largest number of axes (or parts) a grid of at most 2^40 nodes can have.
pub(crate) const MAX_AXES: usize = 40;

/// `[0, 1, 3, 2]`: the ring of 4 as K2 × K2 (positions of (y0, y1) = y0 + 2·y1).
const RING4: [u64; 4] = [0, 1, 3, 2];

/// One factor of a host axis, owned by one guest axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Part {
    /// The guest axis that owns it (0-based).
    pub guest_axis: usize,
    /// Its number of positions.
    pub side: u64,
}

/// How one host axis is shared: its parts, inner (stride 1) first.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AxisSplit {
    /// The parts; their sides multiply to the host side.
    pub parts: Vec<Part>,
    /// A ring of 4 split 2·2, placed as K2 × K2.
    pub ring4: bool,
}

/// The host side of the plan: sides and wrap-around per axis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostAxes {
    /// Sides, axis 1 first.
    pub sides: Vec<u64>,
    /// Ring axes (wrapped, side > 2).
    pub rings: Vec<bool>,
}

impl HostAxes {
    /// Every host axis whole, host axis j owned by guest axis `owner(j)`.
    pub fn whole(&self, owner: impl Fn(usize) -> usize) -> Vec<AxisSplit> {
        self.sides
            .iter()
            .zip(&self.rings)
            .enumerate()
            .map(|(j, (&side, &ring))| {
                let part = Part {
                    guest_axis: owner(j),
                    side,
                };
                AxisSplit::new(vec![part], side, ring)
            })
            .collect()
    }
}

impl AxisSplit {
    /// A split of a host axis of `side` into `parts` (inner first), placed
    /// as K2 × K2 when it is a ring of 4 cut 2·2.
    pub fn new(parts: Vec<Part>, side: u64, ring: bool) -> AxisSplit {
        let ring4 = ring && side == 4 && parts.len() == 2;
        AxisSplit { parts, ring4 }
    }

    /// Hops of one step of part q.
    pub fn stride(&self, q: usize) -> u64 {
        if self.ring4 {
            1
        } else {
            self.parts[..q].iter().map(|p| p.side).product()
        }
    }

    /// Part q as a walk component: it wraps when it is the whole of a ring
    /// axis, or the outermost part of one (and has more than 2 positions).
    pub fn comp(&self, q: usize, ring: bool) -> Comp {
        let side = self.parts[q].side;
        let outer = q + 1 == self.parts.len();
        Comp {
            side,
            ring: ring && outer && side > 2 && !self.ring4,
        }
    }

    /// Host coordinate of the part positions `y` (inner first).
    fn position(&self, y: &[u64]) -> u64 {
        if self.ring4 {
            return RING4[(y[0] + 2 * y[1]) as usize];
        }
        let mut x = 0;
        for (q, p) in self.parts.iter().enumerate().rev() {
            x = x * p.side + y[q];
        }
        x
    }

    /// Part positions of host coordinate `x` (inverse of `position`).
    fn positions(&self, mut x: u64, y: &mut [u64]) {
        if self.ring4 {
            let k = RING4.iter().position(|&r| r == x).unwrap_or(0) as u64;
            (y[0], y[1]) = (k % 2, k / 2);
            return;
        }
        for (q, p) in self.parts.iter().enumerate() {
            y[q] = x % p.side;
            x /= p.side;
        }
    }
}

/// One guest axis: its walk and, for each walk component, the part it is
/// (host axis, index of the part in that axis's split).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuestAxis {
    /// Length of the axis.
    pub side: u64,
    /// A ring (its last node talks to its first) or a line.
    pub closed: bool,
    /// The walk of its sub-box (`None` for an axis of length 1).
    pub walk: Option<Walk>,
    /// Walk component k is part `parts[k].1` of host axis `parts[k].0`.
    pub parts: Vec<(usize, usize)>,
}

impl GuestAxis {
    /// Guest axis `i` (of `side` nodes, a ring when `closed`) walking its
    /// parts of `splits` by the first walk [`Walk::choices`] offers: the one
    /// whose column is the cheapest part, all parts alike when the costs are.
    pub fn first_walk(
        host: &HostAxes,
        splits: &[AxisSplit],
        i: usize,
        side: u64,
        closed: bool,
    ) -> GuestAxis {
        let (comps, costs, refs) = Plan::comps_of(host, splits, i);
        let (walk, perm) = Walk::choices(&comps, &costs, closed)
            .into_iter()
            .next()
            .expect("a sub-box always has a walk");
        GuestAxis {
            side,
            closed,
            walk: Some(walk),
            parts: perm.iter().map(|&k| refs[k]).collect(),
        }
    }
}

/// Hops of every step of a guest axis's rings: the longest, the sum over
/// one ring, and the number of steps (ℓ when closed, ℓ − 1 when open).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StepHops {
    /// Longest step.
    pub max: u64,
    /// Sum over the steps of one ring.
    pub total: u64,
    /// Number of steps of one ring.
    pub steps: u64,
}

impl StepHops {
    /// Mean hops of a step.
    pub fn average(&self) -> f64 {
        if self.steps == 0 {
            0.0
        } else {
            self.total as f64 / self.steps as f64
        }
    }
}

/// A complete plan: every host axis split, every guest axis walked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The host's sides and rings.
    pub host: HostAxes,
    /// One split per host axis.
    pub splits: Vec<AxisSplit>,
    /// One entry per guest axis.
    pub guest: Vec<GuestAxis>,
    offsets: Vec<usize>,
}

impl Plan {
    /// Puts the splits together with a walk per guest axis (`walks[i]`, with
    /// its components' parts). The caller guarantees the sides multiply out.
    pub fn new(host: HostAxes, splits: Vec<AxisSplit>, guest: Vec<GuestAxis>) -> Plan {
        let mut offsets = Vec::with_capacity(splits.len());
        let mut at = 0;
        for s in &splits {
            offsets.push(at);
            at += s.parts.len();
        }
        Plan {
            host,
            splits,
            guest,
            offsets,
        }
    }

    /// The walk components of guest axis i's parts (in host order) and the
    /// hops of a step of each: what [`Walk::choices`] chooses from.
    pub fn comps_of(
        host: &HostAxes,
        splits: &[AxisSplit],
        axis: usize,
    ) -> (Vec<Comp>, Vec<u64>, Vec<(usize, usize)>) {
        let (mut comps, mut costs, mut refs) = (Vec::new(), Vec::new(), Vec::new());
        for (j, split) in splits.iter().enumerate() {
            for (q, part) in split.parts.iter().enumerate() {
                if part.guest_axis == axis {
                    comps.push(split.comp(q, host.rings[j]));
                    costs.push(split.stride(q));
                    refs.push((j, q));
                }
            }
        }
        (comps, costs, refs)
    }

    /// Hops of the steps of guest axis `i`, in closed form from its walk.
    pub fn step_hops(&self, i: usize) -> StepHops {
        let axis = &self.guest[i];
        match &axis.walk {
            None => StepHops::default(),
            Some(walk) => {
                let costs: Vec<u64> = axis
                    .parts
                    .iter()
                    .map(|&(j, q)| self.splits[j].stride(q))
                    .collect();
                step_hops(walk, &costs)
            }
        }
    }

    /// Host node of the guest node with coordinates `coords` (axis 1 first).
    pub fn host_node(&self, coords: &[u64]) -> u64 {
        let mut y = [0u64; MAX_AXES];
        let mut p = [0u64; MAX_AXES];
        for (axis, &c) in self.guest.iter().zip(coords) {
            if let Some(walk) = &axis.walk {
                walk.point(c, &mut p);
                for (k, &(j, q)) in axis.parts.iter().enumerate() {
                    y[self.offsets[j] + q] = p[k];
                }
            }
        }
        let mut node = 0;
        for (j, split) in self.splits.iter().enumerate().rev() {
            let at = self.offsets[j];
            node = node * self.host.sides[j] + split.position(&y[at..at + split.parts.len()]);
        }
        node
    }

    /// Guest coordinates of the guest node on host node `node`.
    pub fn guest_coords(&self, mut node: u64, coords: &mut [u64]) {
        let mut y = [0u64; MAX_AXES];
        for (j, split) in self.splits.iter().enumerate() {
            let side = self.host.sides[j];
            let at = self.offsets[j];
            split.positions(node % side, &mut y[at..at + split.parts.len()]);
            node /= side;
        }
        let mut p = [0u64; MAX_AXES];
        for (axis, c) in self.guest.iter().zip(coords.iter_mut()) {
            *c = match &axis.walk {
                None => 0,
                Some(walk) => {
                    for (k, &(j, q)) in axis.parts.iter().enumerate() {
                        p[k] = y[self.offsets[j] + q];
                    }
                    walk.rank(&p[..axis.parts.len()])
                }
            };
        }
    }

    /// One line per guest axis: its parts (host axis, factor, hops a step)
    /// and its walk, for notes.
    pub fn describe(&self, names: &[String]) -> Vec<String> {
        self.guest
            .iter()
            .enumerate()
            .map(|(i, axis)| {
                let parts: Vec<String> = axis
                    .parts
                    .iter()
                    .map(|&(j, q)| {
                        let split = &self.splits[j];
                        let side = split.parts[q].side;
                        let whole = split.parts.len() == 1;
                        let stride = split.stride(q);
                        match (whole, split.ring4) {
                            (true, _) => format!("host axis {} ({side})", j + 1),
                            (false, true) => format!("host axis {} (2 of 4, as K2 x K2)", j + 1),
                            (false, false) => format!(
                                "host axis {} ({side} of {}, {stride} hop{} a step)",
                                j + 1,
                                self.host.sides[j],
                                if stride == 1 { "" } else { "s" }
                            ),
                        }
                    })
                    .collect();
                let walk = match &axis.walk {
                    None => "length 1".to_string(),
                    Some(w) => format!("{:?}", w.shape()).to_lowercase(),
                };
                let name = names
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| format!("axis {}", i + 1));
                format!("{name} ({}): {} [{walk}]", axis.side, parts.join(" x "))
            })
            .collect()
    }
}

/// Hops of a walk's steps when component k costs `costs[k]` hops a position.
pub fn step_hops(walk: &Walk, costs: &[u64]) -> StepHops {
    let mut out = StepHops::default();
    for StepKind { count, moves } in walk.step_kinds() {
        let hops: u64 = moves.iter().map(|&(k, d)| d * costs[k]).sum();
        out.max = out.max.max(hops);
        out.total += count * hops;
        out.steps += count;
    }
    out
}
