//! `axes`: guest axes spread over host axes and factors of host axes, the
//! assignment searched (see [`super::search`]), every guest axis walking its
//! sub-box as a unit-hop cycle where one exists. Equal weights: every guest
//! axis counts the same.

use super::search::{search, Request};
use super::{grid_of, plan_notes, PlannedGrid};
use crate::embed::{same_node_count, Embedding, Method, NotApplicable, Params};
use crate::topology::Topology;

pub(crate) const METHOD: Method = Method {
    name: "axes",
    guest: "ring, line, torus, mesh, grid",
    host: "ring, line, torus, mesh, grid",
    preconditions: "equal node counts (any sides)",
    summary: "guest axes spread over host axes and their factors, searched; unit-hop cycles per axis where they exist",
    options: &[],
    build,
};

fn build(
    guest: &dyn Topology,
    host: &dyn Topology,
    _params: &Params,
) -> Result<Box<dyn Embedding>, NotApplicable> {
    Ok(Box::new(build_routed(guest, host, true, None)?))
}

/// The `axes` plan of least mean hop, taken from the closed forms without
/// routing a message ([`Request::routed`]): the mapper's start, which it
/// weighs by hop-bytes (Σ volume × hops) alone.
pub(crate) fn least_mean_hop(
    guest: &dyn Topology,
    host: &dyn Topology,
) -> Result<Box<dyn Embedding>, NotApplicable> {
    Ok(Box::new(build_routed(guest, host, false, None)?))
}

/// The `axes` plan of least Σ `weights[i]` × mean step of guest axis i,
/// unrouted as [`least_mean_hop`], and that sum. Weighed by the guest
/// edges cut across each axis of a grid of boxes, the sum is the boxes'
/// hop-bytes: where a box grid folds onto a host of fewer axes, the axis
/// of most edges takes the shortest steps (`embed/box_cuts.rs`).
pub(crate) fn least_weighted_mean_hop(
    guest: &dyn Topology,
    host: &dyn Topology,
    weights: &[f64],
) -> Result<(Box<dyn Embedding>, f64), NotApplicable> {
    let planned = build_routed(guest, host, false, Some(weights))?;
    let plan = planned.plan();
    let sum = (0..plan.guest.len())
        .map(|i| weights[i] * plan.step_hops(i).average())
        .sum();
    Ok((Box::new(planned), sum))
}

/// [`build`], its finalists `routed` or not, its axes weighed by `weights`
/// (`None`: all alike).
fn build_routed(
    guest: &dyn Topology,
    host: &dyn Topology,
    routed: bool,
    weights: Option<&[f64]>,
) -> Result<PlannedGrid, NotApplicable> {
    let (_, sides, closed) = grid_of(guest, "guest")?;
    let (grid, _, _) = grid_of(host, "host")?;
    same_node_count(guest, host)?;
    let weights = match weights {
        Some(w) if w.len() == sides.len() => w.to_vec(),
        Some(w) => {
            return Err(format!(
                "{} axis weights for a guest of {} axes",
                w.len(),
                sides.len()
            ))
        }
        None => vec![1.0; sides.len()],
    };
    let found = search(&Request {
        host: &grid,
        sides: &sides,
        closed: &closed,
        weights: &weights,
        objective: super::choice::Objective::Balanced,
        routed,
    });
    let mut notes = plan_notes(&found.plan, &grid);
    if found.truncated {
        notes.push(format!(
            "the search stopped after {} plans; the best of those is shown",
            found.plans_scored
        ));
    }
    Ok(PlannedGrid {
        method: "axes",
        sides,
        plan: found.plan,
        notes,
    })
}
