//! `fold`: a guest and a host of the same sides, axis by axis; where the
//! guest wraps around and the host does not, the ring is folded onto the
//! line (0 2 4 .. 5 3 1), every step 1 or 2 hops. A line has no cycle, so 2
//! is the least longest step a ring can have there.

use super::plan::{GuestAxis, HostAxes, Plan};
use super::{grid_of, plan_notes, PlannedGrid};
use crate::embed::{Embedding, Method, NotApplicable, Params};
use crate::topology::Topology;

pub(crate) const METHOD: Method = Method {
    name: "fold",
    guest: "ring, torus, grid",
    host: "line, mesh, grid (same sides)",
    preconditions: "same sides, axis by axis; a guest axis that wraps where the host's does not",
    summary:
        "rings folded onto lines axis by axis (0 2 4 .. 5 3 1): dilation 2, the least possible",
    options: &[],
    build,
};

fn build(
    guest: &dyn Topology,
    host: &dyn Topology,
    _params: &Params,
) -> Result<Box<dyn Embedding>, NotApplicable> {
    let (_, guest_sides, guest_closed) = grid_of(guest, "guest")?;
    let (grid, sides, _) = grid_of(host, "host")?;
    if guest_sides != sides {
        return Err(format!(
            "fold needs the same sides axis by axis (guest {}, host {}); axes handles other shapes",
            guest.spec(),
            host.spec()
        ));
    }
    let rings = grid.rings();
    if !guest_closed.iter().zip(&rings).any(|(&g, &h)| g && !h) {
        return Err(
            "no guest axis wraps around where the host's does not: there is nothing to fold".into(),
        );
    }
    let shape = HostAxes {
        sides: sides.clone(),
        rings: rings.clone(),
    };
    let splits = shape.whole(|j| j);
    let axes = (0..sides.len())
        .map(|i| GuestAxis::first_walk(&shape, &splits, i, sides[i], guest_closed[i]))
        .collect();
    let plan = Plan::new(shape, splits, axes);
    let notes = plan_notes(&plan, &grid);
    Ok(Box::new(PlannedGrid {
        method: "fold",
        sides,
        plan,
        notes,
    }))
}
