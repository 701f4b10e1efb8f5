//! `snake`: the host walked as one ring (a Hamiltonian cycle wherever the
//! host has one, else closed at distance 2), the guest laid along it in its
//! own reflected Gray order. A ring or line guest gets unit steps all the way.

use super::plan::{GuestAxis, HostAxes, Plan};
use super::walk::{gray_point, gray_rank, Comp, Walk};
use super::{bounds, grid_of, MAX_AXES};
use crate::embed::{same_node_count, Embedding, Method, NotApplicable, Params};
use crate::topology::Topology;

pub(crate) const METHOD: Method = Method {
    name: "snake",
    guest: "ring, line, torus, mesh, grid",
    host: "ring, line, torus, mesh, grid",
    preconditions: "equal node counts (any sides)",
    summary:
        "host walked as one ring (Hamiltonian cycle where one exists), guest along it in Gray order",
    options: &[],
    build,
};

/// The guest's Gray rank, then that point of the host's walk.
struct Snake {
    guest: Vec<Comp>,
    plan: Plan,
    notes: Vec<String>,
}

impl Embedding for Snake {
    fn method(&self) -> &'static str {
        "snake"
    }
    fn map(&self, g: u64) -> u64 {
        let mut coords = [0u64; MAX_AXES];
        let mut rest = g;
        for (c, comp) in coords.iter_mut().zip(&self.guest) {
            *c = rest % comp.side;
            rest /= comp.side;
        }
        let rank = gray_rank(&self.guest, &coords[..self.guest.len()]);
        self.plan.host_node(&[rank])
    }
    fn inverse(&self, host: u64) -> Option<u64> {
        let mut rank = [0u64];
        self.plan.guest_coords(host, &mut rank);
        let mut coords = [0u64; MAX_AXES];
        gray_point(&self.guest, rank[0], &mut coords);
        let mut g = 0;
        for (&c, comp) in coords[..self.guest.len()].iter().zip(&self.guest).rev() {
            g = g * comp.side + c;
        }
        Some(g)
    }
    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }
}

fn build(
    guest: &dyn Topology,
    host: &dyn Topology,
    _params: &Params,
) -> Result<Box<dyn Embedding>, NotApplicable> {
    let (_, guest_sides, guest_closed) = grid_of(guest, "guest")?;
    let (grid, sides, _) = grid_of(host, "host")?;
    same_node_count(guest, host)?;
    let n = grid.node_count();
    // One guest axis (the whole snake) owning every host axis whole. A line
    // guest leaves the walk open; anything else closes it.
    let line = guest_sides.len() == 1 && !guest_closed[0];
    let rings = grid.rings();
    let shape = HostAxes {
        sides: sides.clone(),
        rings: rings.clone(),
    };
    let splits = shape.whole(|_| 0);
    let axis = GuestAxis::first_walk(&shape, &splits, 0, n, !line);
    let closes = axis.walk.as_ref().is_some_and(Walk::is_unit_cycle);
    let plan = Plan::new(shape, splits, vec![axis]);
    let host_shape = bounds::HostShape {
        sides: &sides,
        rings: &rings,
    };
    let mut notes = Vec::new();
    if line {
        notes.push(
            "the guest line follows the host in boustrophedon order: every step 1 hop".into(),
        );
    } else if closes {
        notes.push(format!(
            "the host is walked as a Hamiltonian cycle: all {n} steps of the snake, the closing one included, are 1 hop"
        ));
    } else {
        let bound = bounds::axis_bound(&host_shape, n, true);
        notes.push(format!(
            "the snake closes at distance 2, the least possible: {}",
            bound.reason
        ));
    }
    let guest_comps = guest_sides
        .iter()
        .map(|&side| Comp { side, ring: false })
        .collect();
    if guest_sides.len() > 1 {
        notes.push(
            "a guest of several axes is laid along the snake in its reflected Gray order: axis 1 neighbours stay close, the others do not (try axes)".into(),
        );
    }
    Ok(Box::new(Snake {
        guest: guest_comps,
        plan,
        notes,
    }))
}
