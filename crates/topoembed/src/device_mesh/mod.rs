//! Device meshes: a logical grid of devices (axes such as data = 16,
//! model = 4, whose collectives run as rings along each axis) laid onto a
//! physical torus or mesh, the problem JAX's `mesh_utils.create_device_mesh`
//! answers with hand-coded orders and a row-major reshape.
//!
//! Every logical axis is a ring (its last device talks to its first) or, for
//! pipeline axes, a line. The placement is the best plan of
//! [`crate::embed::grid::search`] under the axes' weights and the
//! [`Objective`], chosen among the plans it routed and the row-major
//! assignment (logical index in C order, last axis fastest, = host node id,
//! first host axis fastest: what reshaping the device list gives), never one
//! that another of them beats in both Σ max hops and Σ congestion
//! ([`crate::embed::grid::choice`]); beside it, the row-major figures and a
//! lower bound per axis with its reason. Hosts that are not grids (nodes of
//! accelerators under a fat tree, say) take the orders of the logical axes
//! instead ([`cluster`]).

mod cluster;

pub use cluster::{MAX_CLUSTER_DEVICES, MAX_PERMUTED_AXES};

use crate::embed::grid::bounds::{axis_bound, joint_bounds, Bound, HostShape};
pub use crate::embed::grid::choice::Objective;
use crate::embed::grid::choice::{choose, sums};
use crate::embed::grid::figures::{exact_figures, AxisFigures};
use crate::embed::grid::search::{search, Request};
use crate::error::{Error, Result};
use crate::spec::Spec;
use crate::topology::{Grid, Topology};

/// Most devices a device mesh may have: every message of every axis is
/// routed and counted (a table of host nodes and a counter per directed link).
pub const MAX_DEVICES: u64 = 1 << 24;

/// One logical axis: its name and size.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct LogicalAxis {
    /// Name (`data`, `model`, or `axis1`, `axis2`, .. when none is given).
    pub name: String,
    /// Number of devices along it.
    pub size: u64,
}

/// Parses `16x4` (axes named axis1, axis2, ..) or `data=16,model=4`.
pub fn parse_logical(text: &str) -> Result<Vec<LogicalAxis>> {
    let text = text.trim();
    let bad = |why: String| {
        Error::Parameter(format!(
            "logical mesh '{text}': {why}; write sizes like 16x4 or named axes like data=16,model=4"
        ))
    };
    if text.is_empty() {
        return Err(bad("it is empty".into()));
    }
    let named = text.contains('=');
    let pieces: Vec<&str> = if named {
        text.split(',').collect()
    } else {
        text.split(['x', 'X']).collect()
    };
    let mut axes = Vec::with_capacity(pieces.len());
    for (k, piece) in pieces.iter().enumerate() {
        let piece = piece.trim();
        let (name, size) = if named {
            let Some((name, size)) = piece.split_once('=') else {
                return Err(bad(format!("axis {} ('{piece}') has no '=SIZE'", k + 1)));
            };
            let name = name.trim();
            if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                return Err(bad(format!(
                    "axis {} has name '{name}'; names are letters, digits and _",
                    k + 1
                )));
            }
            (name.to_string(), size.trim())
        } else {
            (format!("axis{}", k + 1), piece)
        };
        if size.is_empty() {
            return Err(bad(format!("axis {} has no size", k + 1)));
        }
        let size = parse_size(size)
            .ok_or_else(|| bad(format!("'{size}' (axis {}) is not a size", k + 1)))?;
        if size == 0 {
            return Err(bad(format!("axis {} has size 0", k + 1)));
        }
        if axes.iter().any(|a: &LogicalAxis| a.name == name) {
            return Err(bad(format!("axis name '{name}' appears twice")));
        }
        axes.push(LogicalAxis { name, size });
    }
    let mut devices: u64 = 1;
    for a in &axes {
        devices = devices
            .checked_mul(a.size)
            .filter(|&d| d <= crate::spec::MAX_NODES)
            .ok_or_else(|| bad("it has more than 2^40 devices".into()))?;
    }
    Ok(axes)
}

/// A whole number or a power `B^K`.
fn parse_size(s: &str) -> Option<u64> {
    match s.split_once('^') {
        Some((b, e)) => b
            .trim()
            .parse::<u64>()
            .ok()?
            .checked_pow(e.trim().parse().ok()?),
        None if s.bytes().all(|b| b.is_ascii_digit()) => s.parse().ok(),
        None => None,
    }
}

/// Parses `--weights 1,2,4`: one finite non-negative number per axis.
pub fn parse_weights(text: &str, axes: &[LogicalAxis]) -> Result<Vec<f64>> {
    let values: Vec<&str> = text.split(',').map(str::trim).collect();
    if values.len() != axes.len() {
        return Err(Error::Parameter(format!(
            "--weights '{text}' gives {} weight(s) but the logical mesh has {} axes; give one per axis, e.g. --weights {}",
            values.len(),
            axes.len(),
            (1..=axes.len()).map(|k| k.to_string()).collect::<Vec<_>>().join(",")
        )));
    }
    values
        .iter()
        .map(|v| match v.parse::<f64>() {
            Ok(w) if w.is_finite() && w >= 0.0 => Ok(w),
            _ => Err(Error::Parameter(format!(
                "--weights: '{v}' is not a weight; weights are non-negative numbers like 1 or 2.5"
            ))),
        })
        .collect()
}

/// Parses `--lines pipe,stage` or `--lines 1,3`: axes (by name or 1-based
/// number) that are lines, with no closing link.
pub fn parse_lines(text: &str, axes: &[LogicalAxis]) -> Result<Vec<usize>> {
    let mut out = Vec::new();
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let by_name = axes.iter().position(|a| a.name == item);
        let by_number = item
            .parse::<usize>()
            .ok()
            .filter(|&k| (1..=axes.len()).contains(&k))
            .map(|k| k - 1);
        let Some(k) = by_name.or(by_number) else {
            let names: Vec<&str> = axes.iter().map(|a| a.name.as_str()).collect();
            return Err(Error::Parameter(format!(
                "--lines: no logical axis '{item}'; name one of {} or give its number 1..{}",
                names.join(", "),
                axes.len()
            )));
        };
        if !out.contains(&k) {
            out.push(k);
        }
    }
    Ok(out)
}

/// The default weights: heavier toward the last axis (1, 2, 3, ..), as JAX
/// orders mesh axes (the innermost, last axis carries the most traffic).
pub fn default_weights(axes: usize) -> Vec<f64> {
    (1..=axes).map(|k| k as f64).collect()
}

/// One logical axis of the result.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct AxisReport {
    /// Name.
    pub name: String,
    /// Size.
    pub size: u64,
    /// `ring` or `line`.
    pub kind: &'static str,
    /// Its weight.
    pub weight: f64,
    /// Its figures in the placement found.
    #[serde(flatten)]
    pub figures: AxisFigures,
    /// The least max hops any placement can give this axis, and why.
    pub lower_bound: Bound,
    /// The same figures for the row-major assignment.
    pub row_major: AxisFigures,
}

/// A device mesh laid onto a host.
#[derive(Debug, Clone, serde::Serialize)]
pub struct DeviceMesh {
    /// The host spec.
    pub host: String,
    /// Host sides (axis 1 first); empty on a cluster host.
    pub host_sides: Vec<u64>,
    /// A cluster host's coordinates of every node ([`Topology::coords`]:
    /// the network's, then the leaf's within its node); `None` on grids.
    #[serde(skip)]
    pub host_coordinates: Option<Vec<Vec<u64>>>,
    /// Whether congestion was counted (not on hosts without links, such as
    /// a `tleaf` or an hwloc node: their figures say 0).
    pub congestion_counted: bool,
    /// The logical axes.
    pub logical: Vec<LogicalAxis>,
    /// Host node of every logical device, row-major over the logical axes
    /// (the last axis fastest): `mesh[(i·L2 + j)]` is device (i, j).
    pub mesh: Vec<u64>,
    /// Per logical axis.
    pub axes: Vec<AxisReport>,
    /// How each axis was laid out.
    pub plan: Vec<String>,
    /// Bounds on the axes together, and anything else worth saying.
    pub notes: Vec<String>,
    /// Plans scored by the search.
    pub plans_scored: u64,
    /// Whether the search stopped at its limit.
    pub truncated: bool,
    /// What the choice favoured among the placements no other beats.
    pub objective: Objective,
    /// (Σ max hops, Σ congestion) of every placement the choice weighed:
    /// the plans routed and the row-major assignment (empty when scored,
    /// not searched).
    pub candidates: Vec<(u64, u64)>,
}

impl DeviceMesh {
    /// Logical coordinates (first axis first) of the device with row-major
    /// index `index` (the last axis fastest), the position of `mesh[index]`.
    pub fn logical_coords(&self, mut index: u64) -> Vec<u64> {
        let mut coords = vec![0; self.logical.len()];
        for (c, axis) in coords.iter_mut().zip(&self.logical).rev() {
            *c = index % axis.size;
            index /= axis.size;
        }
        coords
    }

    /// Host coordinates (axis 1 first) of a host node.
    pub fn host_coords(&self, node: u64) -> Vec<u64> {
        if let Some(table) = &self.host_coordinates {
            return table[node as usize].clone();
        }
        let mut rest = node;
        self.host_sides
            .iter()
            .map(|&s| {
                let c = rest % s;
                rest /= s;
                c
            })
            .collect()
    }
}

/// Whether `host` is laid out as a grid (any ring, line, torus, mesh or
/// grid, and a hypercube), not as a cluster.
fn is_grid(host: &Spec) -> bool {
    matches!(host, Spec::Cube(_)) || host.grid().is_some()
}

/// The grid a host spec is, for device meshes: any ring, line, torus, mesh
/// or grid; a hypercube is the mesh 2x2x..x2 (same graph, same numbering).
fn host_grid(host: &Spec) -> Result<Grid> {
    match host {
        Spec::Cube(d) => Ok(Grid::new(Spec::Mesh(vec![2; *d as usize]))),
        s if s.grid().is_some() => Ok(Grid::new(s.clone())),
        other => Err(Error::Parameter(format!(
            "device-mesh needs a torus, mesh, ring, line, grid or cube host, not {other}"
        ))),
    }
}

/// A device-mesh question, checked: the host grid, the weights and the
/// axes that take part (size > 1), rings or lines.
struct Setup {
    grid: Grid,
    weights: Vec<f64>,
    active: Vec<usize>,
    sides: Vec<u64>,
    closed: Vec<bool>,
    devices: u64,
}

impl Setup {
    fn new(
        host: &Spec,
        logical: &[LogicalAxis],
        weights: Option<&[f64]>,
        lines: &[usize],
    ) -> Result<Setup> {
        let grid = host_grid(host)?;
        if grid.node_count() > MAX_DEVICES {
            return Err(Error::Parameter(format!(
                "{host} has {} nodes; device-mesh counts every ring message of every axis and handles up to 2^24 devices (the largest accelerator slices have about 10^4); use metrics with --method axes for larger grids",
                grid.node_count()
            )));
        }
        let devices: u64 = logical.iter().map(|a| a.size).product();
        if devices != grid.node_count() {
            let shape: Vec<String> = logical.iter().map(|a| a.size.to_string()).collect();
            return Err(Error::Mismatch(format!(
                "the logical mesh {} has {devices} devices but {host} has {} nodes; the sizes must multiply to the host's node count",
                shape.join("x"),
                grid.node_count()
            )));
        }
        let weights = match weights {
            Some(w) if w.len() != logical.len() => {
                return Err(Error::Parameter(format!(
                    "{} weights for {} logical axes",
                    w.len(),
                    logical.len()
                )))
            }
            Some(w) => w.to_vec(),
            None => default_weights(logical.len()),
        };
        // Axes of one device take no part; the host has at least 2 nodes, so
        // some axis is longer than 1.
        let active: Vec<usize> = (0..logical.len())
            .filter(|&k| logical[k].size > 1)
            .collect();
        let sides = active.iter().map(|&k| logical[k].size).collect();
        let closed = active.iter().map(|&k| !lines.contains(&k)).collect();
        Ok(Setup {
            grid,
            weights,
            active,
            sides,
            closed,
            devices,
        })
    }

    /// The C-order index over the active axes of active coordinates `c`:
    /// the row-major assignment's host node, and the index into a mesh.
    fn row_major(&self, c: &[u64]) -> u64 {
        c.iter()
            .zip(&self.sides)
            .fold(0, |index, (&x, &s)| index * s + x)
    }

    /// The report: figures of `mesh` (counted), the row-major figures, bounds.
    fn report(
        &self,
        host: &Spec,
        logical: &[LogicalAxis],
        lines: &[usize],
        mesh: Vec<u64>,
        plan: Vec<String>,
        mut notes: Vec<String>,
    ) -> DeviceMesh {
        let figures = exact_figures(&self.grid, &self.sides, &self.closed, &|c| {
            mesh[self.row_major(c) as usize]
        });
        let row_major = exact_figures(&self.grid, &self.sides, &self.closed, &|c| {
            self.row_major(c)
        });
        let host_sides = self.grid.sides();
        let rings = self.grid.rings();
        let shape = HostShape {
            sides: &host_sides,
            rings: &rings,
        };
        let axes = axis_reports(
            logical,
            lines,
            (&self.weights, &self.active),
            (&figures, &row_major),
            |k, axis| axis_bound(&shape, axis.size, !lines.contains(&k)),
        );
        let mut all = joint_bounds(&shape, &self.sides, &self.closed);
        all.append(&mut notes);
        DeviceMesh {
            host: host.to_string(),
            host_sides,
            host_coordinates: None,
            congestion_counted: true,
            logical: logical.to_vec(),
            mesh,
            axes,
            plan,
            notes: all,
            plans_scored: 0,
            truncated: false,
            objective: Objective::default(),
            candidates: Vec::new(),
        }
    }
}

/// One report per logical axis: `figures` and `rows` (the placement's and
/// row-major's) are per active axis (`active[a]` the logical axis of
/// active axis a); axes of one device get zeros; `bound` gives each axis's.
fn axis_reports(
    logical: &[LogicalAxis],
    lines: &[usize],
    (weights, active): (&[f64], &[usize]),
    (figures, rows): (&[AxisFigures], &[AxisFigures]),
    bound: impl Fn(usize, &LogicalAxis) -> Bound,
) -> Vec<AxisReport> {
    let none = AxisFigures::from_counts(0, 0, 0, 0);
    logical
        .iter()
        .enumerate()
        .map(|(k, axis)| {
            let at = active.iter().position(|&a| a == k);
            AxisReport {
                name: axis.name.clone(),
                size: axis.size,
                kind: if lines.contains(&k) { "line" } else { "ring" },
                weight: weights[k],
                figures: at.map_or(none, |a| figures[a]),
                lower_bound: bound(k, axis),
                row_major: at.map_or(none, |a| rows[a]),
            }
        })
        .collect()
}

/// Lays `logical` onto `host`: rings along every axis but `lines`, the
/// search weighted by `weights` (default [`default_weights`]), the choice
/// among the placements no other beats on both counts by `objective`.
pub fn device_mesh(
    host: &Spec,
    logical: &[LogicalAxis],
    (weights, objective): (Option<&[f64]>, Objective),
    lines: &[usize],
) -> Result<DeviceMesh> {
    if !is_grid(host) {
        return cluster::cluster_mesh(host, logical, (weights, objective), lines);
    }
    let setup = Setup::new(host, logical, weights, lines)?;
    let active_weights: Vec<f64> = setup.active.iter().map(|&k| setup.weights[k]).collect();
    let found = search(&Request {
        host: &setup.grid,
        sides: &setup.sides,
        closed: &setup.closed,
        weights: &active_weights,
        objective,
        routed: true,
    });
    let names: Vec<String> = setup
        .active
        .iter()
        .map(|&k| logical[k].name.clone())
        .collect();
    // The row-major assignment beside the plans routed: the answer is never
    // one it beats on both counts (where the plans were routed at all).
    let mut candidates = found.routed.clone();
    let row_major_won = !candidates.is_empty() && {
        candidates.push(exact_figures(
            &setup.grid,
            &setup.sides,
            &setup.closed,
            &|c| setup.row_major(c),
        ));
        // The first of equals is a plan: row-major only where it is
        // strictly the choice.
        choose(&candidates, &active_weights, objective) == Some(candidates.len() - 1)
    };
    // The mesh, row-major over the active axes (= over all axes: the others
    // have one coordinate).
    let mut mesh = Vec::with_capacity(setup.devices as usize);
    let mut coords = vec![0u64; setup.sides.len()];
    for _ in 0..setup.devices {
        mesh.push(if row_major_won {
            setup.row_major(&coords)
        } else {
            found.plan.host_node(&coords)
        });
        for k in (0..coords.len()).rev() {
            coords[k] += 1;
            if coords[k] < setup.sides[k] {
                break;
            }
            coords[k] = 0;
        }
    }
    let mut notes = Vec::new();
    if found.truncated {
        notes.push(format!(
            "the search stopped after {} plans; the best of those is shown",
            found.plans_scored
        ));
    }
    let plan = if row_major_won {
        vec![
            "row-major: logical index in C order = host node id (no plan routed beats it)"
                .to_string(),
        ]
    } else {
        found.plan.describe(&names)
    };
    let mut report = setup.report(host, logical, lines, mesh, plan, notes);
    report.plans_scored = found.plans_scored;
    report.truncated = found.truncated;
    report.objective = objective;
    report.candidates = candidates.iter().map(|f| sums(f)).collect();
    Ok(report)
}

/// Scores a given assignment instead of searching: `mesh[r]` is the host
/// node of the logical device with row-major index r (last axis fastest),
/// as JAX's `create_device_mesh` or any other tool produced it.
pub fn score_assignment(
    host: &Spec,
    logical: &[LogicalAxis],
    weights: Option<&[f64]>,
    lines: &[usize],
    mesh: Vec<u64>,
) -> Result<DeviceMesh> {
    if !is_grid(host) {
        return cluster::cluster_score(host, logical, weights, lines, mesh);
    }
    let setup = Setup::new(host, logical, weights, lines)?;
    check_assignment(host, setup.devices, &mesh)?;
    let plan = vec!["the assignment given (scored, not searched)".to_string()];
    Ok(setup.report(host, logical, lines, mesh, plan, Vec::new()))
}

/// An assignment of `devices` devices onto `host`: one host node each,
/// every node once.
fn check_assignment(host: &Spec, devices: u64, mesh: &[u64]) -> Result<()> {
    if mesh.len() as u64 != devices {
        return Err(Error::Mismatch(format!(
            "the assignment has {} host node ids but the logical mesh has {devices} devices; give one per device, row-major",
            mesh.len()
        )));
    }
    let mut seen = vec![false; mesh.len()];
    for (r, &h) in mesh.iter().enumerate() {
        if h >= devices {
            return Err(Error::Parameter(format!(
                "the assignment puts device {r} on host node {h}, but {host} has nodes 0..{}",
                devices - 1
            )));
        }
        if std::mem::replace(&mut seen[h as usize], true) {
            return Err(Error::Parameter(format!(
                "the assignment puts two devices on host node {h}; it must use every host node once"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logical_meshes_parse_with_and_without_names() {
        let a = parse_logical("16x4").unwrap();
        assert_eq!((a[0].name.as_str(), a[0].size, a[1].size), ("axis1", 16, 4));
        let b = parse_logical("data=16, model=2^2").unwrap();
        assert_eq!((b[1].name.as_str(), b[1].size), ("model", 4));
        for (bad, says) in [
            ("", "empty"),
            ("16x", "axis 2 has no size"),
            ("16x0", "size 0"),
            ("16xa", "'a' (axis 2) is not a size"),
            ("data=4,data=4", "appears twice"),
            ("data=4,model", "has no '=SIZE'"),
            ("da ta=4", "names are letters"),
            ("1048576x1048576x2", "more than 2^40"),
        ] {
            let e = parse_logical(bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
        assert!(parse_weights("1,2", &a).is_ok());
        assert!(parse_weights("1", &a)
            .unwrap_err()
            .to_string()
            .contains("1 weight(s) but"));
        assert!(parse_weights("1,-2", &a)
            .unwrap_err()
            .to_string()
            .contains("'-2'"));
        assert_eq!(parse_lines("axis2", &a).unwrap(), vec![1]);
        assert_eq!(parse_lines("1", &a).unwrap(), vec![0]);
        assert!(parse_lines("pipe", &a)
            .unwrap_err()
            .to_string()
            .contains("no logical axis 'pipe'"));
    }
}
