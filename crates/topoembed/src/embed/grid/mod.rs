//! Grid guests on grid hosts of any sides (rings, lines, tori, meshes and
//! grids that wrap some axes only, with the same node count), one file per
//! idea: [`walk`] (snakes, cylinders, folds: sub-box orders with unit
//! steps), [`plan`] (guest axes spread over host axes and factors of host
//! axes), [`search`] (the best plan), [`choice`] (which of the plans
//! routed, never one another beats on both counts), [`figures`] (per-axis hops and
//! congestion, counted), [`bounds`] (what no placement beats), and the three
//! methods: `snake`, `fold` and `axes`.

mod axes;
pub mod bounds;
pub mod choice;
pub mod figures;
mod fold;
pub mod plan;
pub mod search;
mod snake;
pub mod walk;

pub(super) use axes::least_mean_hop as axes_least_mean_hop;
pub(super) use axes::least_weighted_mean_hop as axes_least_weighted_mean_hop;
pub(super) use axes::METHOD as AXES;
pub(super) use fold::METHOD as FOLD;
pub(super) use snake::METHOD as SNAKE;

use plan::{Plan, MAX_AXES};

use super::{Embedding, NotApplicable};
use crate::topology::{Grid, Topology};

/// Sides and ring flags of a grid topology, or why it is not one.
fn grid_of(t: &dyn Topology, role: &str) -> Result<(Grid, Vec<u64>, Vec<bool>), NotApplicable> {
    let spec = t.spec();
    match spec.grid() {
        Some((sides, wraps)) => {
            let grid = Grid::new(spec.clone());
            let closed = sides
                .iter()
                .zip(&wraps)
                .map(|(&s, &w)| w && s > 2)
                .collect();
            Ok((grid, sides.to_vec(), closed))
        }
        _ => Err(format!(
            "the {role} must be a ring, line, torus, mesh or grid (got {})",
            spec.kind()
        )),
    }
}

/// A grid guest placed by a [`Plan`]: guest node → coordinates → host node.
pub struct PlannedGrid {
    method: &'static str,
    sides: Vec<u64>,
    plan: Plan,
    notes: Vec<String>,
}

impl PlannedGrid {
    /// The plan behind the map.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }
}

impl Embedding for PlannedGrid {
    fn method(&self) -> &'static str {
        self.method
    }
    fn map(&self, guest: u64) -> u64 {
        let mut coords = [0u64; MAX_AXES];
        let mut rest = guest;
        for (c, &s) in coords.iter_mut().zip(&self.sides) {
            *c = rest % s;
            rest /= s;
        }
        self.plan.host_node(&coords[..self.sides.len()])
    }
    fn inverse(&self, host: u64) -> Option<u64> {
        let mut coords = [0u64; MAX_AXES];
        self.plan
            .guest_coords(host, &mut coords[..self.sides.len()]);
        let mut g = 0;
        for (&c, &s) in coords[..self.sides.len()].iter().zip(&self.sides).rev() {
            g = g * s + c;
        }
        Some(g)
    }
    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }
}

/// Per-axis notes of a plan: what each guest axis was given, its longest
/// and mean step beside the bound no placement beats.
fn plan_notes(plan: &Plan, host: &Grid) -> Vec<String> {
    let names: Vec<String> = (1..=plan.guest.len())
        .map(|k| format!("axis {k}"))
        .collect();
    let sides = host.sides();
    let rings = host.rings();
    let shape = bounds::HostShape {
        sides: &sides,
        rings: &rings,
    };
    let mut notes = Vec::new();
    for (i, line) in plan.describe(&names).into_iter().enumerate() {
        let hops = plan.step_hops(i);
        let axis = &plan.guest[i];
        let bound = bounds::axis_bound(&shape, axis.side, axis.closed);
        let verdict = if hops.max <= bound.value {
            "optimal".to_string()
        } else {
            format!("bound {} ({})", bound.value, bound.reason)
        };
        notes.push(format!(
            "{line}; longest step {} hop(s), mean {:.4}; {verdict}",
            hops.max,
            hops.average()
        ));
    }
    let closed: Vec<bool> = plan.guest.iter().map(|a| a.closed).collect();
    let guest_sides: Vec<u64> = plan.guest.iter().map(|a| a.side).collect();
    notes.extend(bounds::joint_bounds(&shape, &guest_sides, &closed));
    notes
}
