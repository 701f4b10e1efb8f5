//! Lower bounds on the longest step of a guest axis's rings, whatever the
//! placement: each with the reason it holds, so a user sees how far from
//! optimal each axis is.

/// A lower bound on an axis's `max_hops`, and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Bound {
    /// No placement does better.
    pub value: u64,
    /// Why.
    pub reason: String,
}

/// The host as the bounds see it: sides and ring axes.
#[derive(Debug, Clone)]
pub struct HostShape<'a> {
    /// Sides.
    pub sides: &'a [u64],
    /// Ring axes (wrapped, side > 2).
    pub rings: &'a [bool],
}

impl HostShape<'_> {
    fn nodes(&self) -> u64 {
        self.sides.iter().product()
    }
    /// No odd cycle: every ring axis has an even side (paths are bipartite).
    fn bipartite(&self) -> bool {
        self.sides
            .iter()
            .zip(self.rings)
            .all(|(&s, &r)| !r || s % 2 == 0)
    }
    /// A Hamiltonian cycle exists: a ring axis, or two or more axes and an
    /// even node count (a product of paths with an odd count has colour
    /// classes of different sizes).
    pub fn hamiltonian(&self) -> bool {
        let n = self.nodes();
        n <= 2 || self.rings.iter().any(|&r| r) || (self.sides.len() >= 2 && n % 2 == 0)
    }
    fn degree(&self) -> u64 {
        self.sides
            .iter()
            .zip(self.rings)
            .map(|(&s, &r)| if r || s > 2 { 2 } else { 1 })
            .sum()
    }
    fn diameter(&self) -> u64 {
        self.sides
            .iter()
            .zip(self.rings)
            .map(|(&s, &r)| if r { s / 2 } else { s - 1 })
            .sum()
    }
}

/// The bound on the longest step of a ring (`closed`) or line of `side`
/// nodes, one of the guest axes, on `host`.
pub fn axis_bound(host: &HostShape, side: u64, closed: bool) -> Bound {
    let one = |reason: &str| Bound {
        value: 1,
        reason: reason.to_string(),
    };
    let two = |reason: String| Bound { value: 2, reason };
    if side <= 1 {
        return Bound {
            value: 0,
            reason: "an axis of one node sends nothing".into(),
        };
    }
    if !closed || side == 2 {
        return one("distinct nodes are at least one hop apart");
    }
    let n = host.nodes();
    if host.sides.len() == 1 && !host.rings[0] {
        return two(format!(
            "a ring of {side} needs a cycle of {side} hosts and a line has no cycle"
        ));
    }
    if host.sides.len() == 1 && side != n {
        return two(format!(
            "the only cycle of a ring of {n} has {n} nodes, not {side}"
        ));
    }
    if side % 2 == 1 && host.bipartite() {
        return two(format!(
            "the host is bipartite (no wrapped axis of odd side), so it has no cycle of odd length {side}"
        ));
    }
    if side == n && !host.hamiltonian() {
        return two(format!(
            "the host has no Hamiltonian cycle: without wrap-around its {n} nodes split into colour classes of {} and {}",
            n.div_ceil(2),
            n / 2
        ));
    }
    one("a unit-hop cycle of this length exists in the host")
}

/// Bounds that hold for the axes together: by degree (a guest node's
/// neighbours cannot all be host neighbours when it has more) and by
/// diameter (two hosts at the host's diameter are joined by a guest path of
/// at most the guest's diameter steps, so some step is at least the ratio).
pub fn joint_bounds(host: &HostShape, sides: &[u64], closed: &[bool]) -> Vec<String> {
    let mut out = Vec::new();
    let degree: u64 = sides
        .iter()
        .map(|&s| match s {
            1 => 0,
            2 => 1,
            _ => 2,
        })
        .sum();
    if degree > host.degree() {
        out.push(format!(
            "not every axis can have max hops 1: a logical device has up to {degree} ring neighbours, a host node at most {} links",
            host.degree()
        ));
    }
    let guest_diameter: u64 = sides
        .iter()
        .zip(closed)
        .map(|(&s, &c)| if c { s / 2 } else { s.saturating_sub(1) })
        .sum();
    if guest_diameter > 0 {
        let ratio = host.diameter().div_ceil(guest_diameter);
        if ratio > 1 {
            out.push(format!(
                "some axis has max hops >= {ratio}: hosts {} hops apart are joined by at most {guest_diameter} logical steps",
                host.diameter()
            ));
        }
    }
    out
}
