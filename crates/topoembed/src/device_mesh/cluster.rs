//! Device meshes on clusters: nodes of accelerators (joined inside a node
//! by NVLink/NVSwitch, a `tleaf` or hwloc node) under a network (a fat
//! tree, a dragonfly, a Slurm topology, a torus of nodes), as
//! `NETWORK*NODE`, or any other host that is not a grid.
//!
//! Such a host numbers its leaves so that neighbours in the numbering share
//! the lowest levels: leaf n·G + l is accelerator l of node n, and nodes
//! under one leaf switch are consecutive. A logical mesh laid out in mixed
//! radix with axis a fastest, then b, .. keeps every ring of a inside the
//! smallest aligned block of leaves that holds it — inside a node where it
//! fits, across the fewest switch levels otherwise — and every later axis
//! as close as what is left allows. So the candidates are the orders of the
//! logical axes (all of them up to [`MAX_PERMUTED_AXES`] axes; beyond, the
//! heaviest axis fastest and the row-major order); each is scored message
//! by message — every device sends to its successor along each ring, the
//! distance is the host's, the congestion counts the messages on each link
//! of the network's own routes ([`HostLinks`]: SimGrid's routes on fat trees
//! and dragonflies; none inside a node, whose NVSwitch is non-blocking) —
//! and the choice is the objective's best among those no other beats in
//! both Σ w·max hops and Σ w·congestion, the weights being the axes' shares
//! of the traffic ([`choose_weighted`]: on a cluster, keeping one axis
//! inside a node pushes the others onto the network, so which axis stays
//! inside is the weights' to say). Row-major (the last
//! logical axis fastest: what JAX's reshape and PyTorch's
//! `init_device_mesh` give) is one of the orders, so the answer is never
//! beaten by it on both counts.

use rayon::prelude::*;

use super::{axis_reports, check_assignment, default_weights, DeviceMesh, LogicalAxis, Objective};
use crate::embed::grid::bounds::Bound;
use crate::embed::grid::choice::{choose_weighted, sums};
use crate::embed::grid::figures::AxisFigures;
use crate::error::{Error, Result};
use crate::spec::Spec;
use crate::topology::{self, HostLinks, Topology};

/// Most devices on a cluster host: every order is scored message by message.
pub const MAX_CLUSTER_DEVICES: u64 = 1 << 20;

/// Most logical axes (longer than 1) whose every order is scored.
pub const MAX_PERMUTED_AXES: usize = 6;

/// Largest host whose lower bounds are found (pair by pair, per distance).
const BOUND_DEVICES: u64 = 2048;

/// A cluster device-mesh question, checked.
struct Cluster {
    host: Box<dyn Topology>,
    /// Whether congestion is counted: the host has links to route over.
    links: bool,
    weights: Vec<f64>,
    /// Logical axes longer than 1, and their sizes and ring flags.
    active: Vec<usize>,
    sides: Vec<u64>,
    closed: Vec<bool>,
}

/// Lays `logical` onto the cluster `host` (module docs).
pub(super) fn cluster_mesh(
    host: &Spec,
    logical: &[LogicalAxis],
    (weights, objective): (Option<&[f64]>, Objective),
    lines: &[usize],
) -> Result<DeviceMesh> {
    let cluster = Cluster::new(host, logical, weights, lines)?;
    let m = cluster.active.len();
    let active_weights: Vec<f64> = cluster.active.iter().map(|&k| cluster.weights[k]).collect();
    let orders = orders(m, &active_weights);
    let scored: Vec<Vec<AxisFigures>> = orders
        .par_iter()
        .map(|order| cluster.figures(&cluster.table(order)))
        .collect();
    let row_major: Vec<usize> = (0..m).rev().collect();
    let at_row_major = orders
        .iter()
        .position(|o| *o == row_major)
        .expect("row-major is always an order");
    let best = choose_weighted(&scored, &active_weights, objective).unwrap_or(at_row_major);
    let mesh = cluster.table(&orders[best]);
    let names: Vec<String> = cluster
        .active
        .iter()
        .map(|&k| format!("{}={}", logical[k].name, logical[k].size))
        .collect();
    let order_text: Vec<&str> = orders[best].iter().map(|&a| names[a].as_str()).collect();
    let mut plan = vec![format!(
        "axes in mixed radix, fastest first: {}{}",
        order_text.join(", "),
        if best == at_row_major {
            " (the row-major order)"
        } else {
            ""
        }
    )];
    for (a, &k) in cluster.active.iter().enumerate() {
        let stride: u64 = orders[best]
            .iter()
            .take_while(|&&b| b != a)
            .map(|&b| cluster.sides[b])
            .product();
        plan.push(format!(
            "{} ({}): host nodes {stride} apart in the numbering, {} wide",
            logical[k].name,
            logical[k].size,
            stride * logical[k].size
        ));
    }
    let mut notes = Vec::new();
    if m > MAX_PERMUTED_AXES {
        notes.push(format!(
            "{m} axes: {} orders scored (every order up to {MAX_PERMUTED_AXES} axes)",
            orders.len()
        ));
    }
    let mut report = cluster.report(
        host,
        logical,
        lines,
        (mesh, &scored[best], &scored[at_row_major]),
        plan,
        notes,
    );
    report.plans_scored = orders.len() as u64;
    report.objective = objective;
    report.candidates = scored.iter().map(|f| sums(f)).collect();
    Ok(report)
}

/// Scores a given assignment on the cluster `host` (`mesh[r]`: the host
/// node of the device with row-major index r), beside the row-major one.
pub(super) fn cluster_score(
    host: &Spec,
    logical: &[LogicalAxis],
    weights: Option<&[f64]>,
    lines: &[usize],
    mesh: Vec<u64>,
) -> Result<DeviceMesh> {
    let cluster = Cluster::new(host, logical, weights, lines)?;
    check_assignment(host, cluster.host.node_count(), &mesh)?;
    let figures = cluster.figures(&mesh);
    let row_major: Vec<usize> = (0..cluster.active.len()).rev().collect();
    let rows = cluster.figures(&cluster.table(&row_major));
    let plan = vec!["the assignment given (scored, not searched)".to_string()];
    Ok(cluster.report(
        host,
        logical,
        lines,
        (mesh, &figures, &rows),
        plan,
        Vec::new(),
    ))
}

/// The orders to score (each the active axes, fastest first): every one up
/// to [`MAX_PERMUTED_AXES`] axes, the heaviest axis fastest first; beyond,
/// that order and the row-major one.
fn orders(m: usize, weights: &[f64]) -> Vec<Vec<usize>> {
    let mut heaviest: Vec<usize> = (0..m).collect();
    // Heaviest first; of equal weights the later axis first (as row-major).
    heaviest.sort_by(|&a, &b| weights[b].total_cmp(&weights[a]).then(b.cmp(&a)));
    let row_major: Vec<usize> = (0..m).rev().collect();
    if m > MAX_PERMUTED_AXES {
        let mut two = vec![heaviest];
        if two[0] != row_major {
            two.push(row_major);
        }
        return two;
    }
    let mut all = vec![heaviest.clone()];
    permutations(&mut (0..m).collect(), 0, &mut |p| {
        if *p != heaviest {
            all.push(p.to_vec());
        }
    });
    all
}

/// Calls `f` with every permutation of `items[k..]` after `items[..k]`.
fn permutations(items: &mut Vec<usize>, k: usize, f: &mut dyn FnMut(&Vec<usize>)) {
    if k == items.len() {
        return f(items);
    }
    for j in k..items.len() {
        items.swap(k, j);
        permutations(items, k + 1, f);
        items.swap(k, j);
    }
}

impl Cluster {
    fn new(
        spec: &Spec,
        logical: &[LogicalAxis],
        weights: Option<&[f64]>,
        lines: &[usize],
    ) -> Result<Cluster> {
        let host = topology::build(spec)?;
        let n = host.node_count();
        if n > MAX_CLUSTER_DEVICES {
            return Err(Error::Parameter(format!(
                "{spec} has {n} nodes; device-mesh scores every order of the logical axes message by \
                 message on cluster hosts up to 2^20 devices"
            )));
        }
        let devices: u64 = logical.iter().map(|a| a.size).product();
        if devices != n {
            let shape: Vec<String> = logical.iter().map(|a| a.size.to_string()).collect();
            return Err(Error::Mismatch(format!(
                "the logical mesh {} has {devices} devices but {spec} has {n} nodes; the sizes \
                 must multiply to the host's node count",
                shape.join("x")
            )));
        }
        let weights = match weights {
            Some(w) => w.to_vec(),
            None => default_weights(logical.len()),
        };
        let active: Vec<usize> = (0..logical.len())
            .filter(|&k| logical[k].size > 1)
            .collect();
        Ok(Cluster {
            links: !spec.has_no_links(),
            host,
            weights,
            sides: active.iter().map(|&k| logical[k].size).collect(),
            closed: active.iter().map(|&k| !lines.contains(&k)).collect(),
            active,
        })
    }

    /// The report on `mesh`, given its figures and the row-major ones.
    fn report(
        &self,
        host: &Spec,
        logical: &[LogicalAxis],
        lines: &[usize],
        (mesh, figures, rows): (Vec<u64>, &[AxisFigures], &[AxisFigures]),
        plan: Vec<String>,
        mut notes: Vec<String>,
    ) -> DeviceMesh {
        notes.push(if self.links {
            format!(
                "congestion: messages on the busiest link, {}",
                HostLinks(self.host.as_ref()).describe()
            )
        } else {
            format!("congestion not counted: {host} gives distances between its nodes, not links")
        });
        let bounds = self.bounds(logical);
        let axes = axis_reports(
            logical,
            lines,
            (&self.weights, &self.active),
            (figures, rows),
            |k, _| bounds[k].clone(),
        );
        let coordinates = (0..self.host.node_count())
            .map(|v| self.host.coords(v))
            .collect();
        DeviceMesh {
            host: host.to_string(),
            host_sides: Vec::new(),
            host_coordinates: Some(coordinates),
            congestion_counted: self.links,
            logical: logical.to_vec(),
            mesh,
            axes,
            plan,
            notes,
            plans_scored: 0,
            truncated: false,
            objective: Objective::default(),
            candidates: Vec::new(),
        }
    }

    /// Host node of every device, row-major over the active axes (the last
    /// fastest), when the axes are laid out in mixed radix in `order`
    /// (fastest first).
    fn table(&self, order: &[usize]) -> Vec<u64> {
        let m = self.sides.len();
        let mut stride = vec![0u64; m];
        let mut s = 1;
        for &a in order {
            stride[a] = s;
            s *= self.sides[a];
        }
        let mut table = Vec::with_capacity(s as usize);
        let mut coords = vec![0u64; m];
        for _ in 0..s {
            table.push(coords.iter().zip(&stride).map(|(c, t)| c * t).sum());
            for k in (0..m).rev() {
                coords[k] += 1;
                if coords[k] < self.sides[k] {
                    break;
                }
                coords[k] = 0;
            }
        }
        table
    }

    /// Per active axis: every device sends one message to its successor
    /// along the axis (the last to the first on a ring), all at once.
    fn figures(&self, table: &[u64]) -> Vec<AxisFigures> {
        let links = HostLinks(self.host.as_ref());
        let mut load = if self.links {
            vec![0u32; links.link_count() as usize]
        } else {
            Vec::new()
        };
        let mut route = Vec::new();
        let n = table.len() as u64;
        let mut out = Vec::with_capacity(self.sides.len());
        for (k, (&side, &ring)) in self.sides.iter().zip(&self.closed).enumerate() {
            let stride: u64 = self.sides[k + 1..].iter().product();
            load.fill(0);
            let (mut max, mut total, mut messages, mut congestion) = (0, 0u64, 0u64, 0u32);
            for g in 0..n {
                let c = (g / stride) % side;
                let next = if c + 1 < side {
                    g + stride
                } else if ring {
                    g - c * stride
                } else {
                    continue;
                };
                let (a, b) = (table[g as usize], table[next as usize]);
                let d = self.host.distance(a, b);
                max = max.max(d);
                total += d;
                messages += 1;
                if self.links {
                    route.clear();
                    links.route_links(a, b, &mut route);
                    for &link in &route {
                        load[link as usize] += 1;
                        congestion = congestion.max(load[link as usize]);
                    }
                }
            }
            out.push(AxisFigures::from_counts(
                max,
                total,
                messages,
                u64::from(congestion),
            ));
        }
        out
    }

    /// Per logical axis, the least max hops of any placement: the ring's
    /// (or line's) devices are joined by steps of at most its max hops, so
    /// they lie in one group of host nodes joined by pairs that near; the
    /// least distance r whose groups reach the axis's size is a bound.
    fn bounds(&self, logical: &[LogicalAxis]) -> Vec<Bound> {
        let n = self.host.node_count();
        if n > BOUND_DEVICES {
            let why = format!("not computed on hosts above {BOUND_DEVICES} nodes");
            return logical
                .iter()
                .map(|_| Bound {
                    value: 0,
                    reason: why.clone(),
                })
                .collect();
        }
        let mut distances: Vec<u64> = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                let d = self.host.distance(a, b);
                if let Err(at) = distances.binary_search(&d) {
                    distances.insert(at, d);
                }
            }
        }
        // Largest group at each distance, until the longest axis fits.
        let longest = logical.iter().map(|a| a.size).max().unwrap_or(1);
        let mut groups: Vec<(u64, u64)> = Vec::new();
        for &r in &distances {
            let mut parent: Vec<u32> = (0..n as u32).collect();
            fn root(parent: &mut [u32], mut x: u32) -> u32 {
                while parent[x as usize] != x {
                    parent[x as usize] = parent[parent[x as usize] as usize];
                    x = parent[x as usize];
                }
                x
            }
            for a in 0..n {
                for b in a + 1..n {
                    if self.host.distance(a, b) <= r {
                        let (x, y) = (root(&mut parent, a as u32), root(&mut parent, b as u32));
                        parent[x.max(y) as usize] = x.min(y);
                    }
                }
            }
            let mut size = vec![0u64; n as usize];
            for v in 0..n as u32 {
                size[root(&mut parent, v) as usize] += 1;
            }
            let largest = size.into_iter().max().unwrap_or(0);
            groups.push((r, largest));
            if largest >= longest {
                break;
            }
        }
        logical
            .iter()
            .map(|axis| {
                if axis.size < 2 {
                    return Bound {
                        value: 0,
                        reason: "one device: no messages".to_string(),
                    };
                }
                let (r, largest) = groups
                    .iter()
                    .copied()
                    .find(|&(_, g)| g >= axis.size)
                    .unwrap_or((0, 0));
                let below = groups
                    .iter()
                    .take_while(|&&(d, _)| d < r)
                    .last()
                    .map(|&(d, g)| {
                        format!("; pairs at most {d} apart join groups of at most {g} nodes")
                    })
                    .unwrap_or_default();
                Bound {
                    value: r,
                    reason: format!(
                        "its {} devices need a group of host nodes joined by steps of {r} \
                         (the largest such group has {largest}){below}",
                        axis.size
                    ),
                }
            })
            .collect()
    }
}
