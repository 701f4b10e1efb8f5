//! Product placements of a grid onto a grid host of fewer axes: the
//! guest's axes are shared out among the host's, each group of guest axes
//! (a smaller grid) is placed onto its host axis (a ring or a line) by the
//! mapper's search, and a guest node goes to the host node whose
//! coordinate along every host axis is its group's placement there — the
//! Cartesian product of the groups' placements.
//!
//! Where a group of two axes or more lands on a ring of 3 nodes or more,
//! the search places it as a ring of pieces round its middle (sectors, as
//! Scotch's recursive bipartitioning finds them), cutting fewer edges than
//! any box cut strung along the ring; no box cut gives such a placement.
//! With one volume on every edge, the product's hop-bytes are the sum over
//! host axes of its group's hop-bytes times the nodes of the other groups
//! (a host of rings and lines measures distance axis by axis).
//! mesh:20x20x20 onto torus:5x7: its z axis onto ring:5 (4 planes of 400
//! edges, 1 600) times mesh:20x20 onto ring:7 (90 hop-bytes, 20 layers:
//! 1 800) gives 3 400, where the search found 4 446 and Scotch 3 526.
//!
//! Onto a ring, some guest axes are placed onto it and the others left
//! alike layer by layer: mesh:100x100x100 onto ring:7 as 100 layers of
//! mesh:100x100 round its middle (432 hop-bytes each, 43 200) where its
//! slabs cut 60 000 and Scotch finds 49 239.

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;

use crate::mapper::recognize::{grid_spec, Grid};
use crate::mapper::refine::balance;
use crate::mapper::{self, HostDistance, MapOptions, Start, WGraph};
use crate::spec::Spec;
use crate::topology::{self, Topology};

/// Most guest axes whose sharings out are tried (host axes to the power
/// of guest axes, 2^6 = 64 onto two host axes).
const MAX_GUEST_AXES: usize = 6;

/// One group of guest axes placed onto one host axis: the group's sides
/// and wraps, the host axis's side and wrap, and the imbalance its search
/// is given (as bits, so that the key hashes).
type Part = (Vec<u64>, Vec<bool>, u64, bool, u64);

/// A sharing out of the guest's axes: the guest axes of every host axis
/// (in [`HostAxes`]' order), and how each group is placed — searched as
/// its [`Part`], or, `None`, a lone guest axis whose side the host axis's
/// does not divide, cut into balanced slabs column by column
/// ([`slabs_per_column`]).
struct Plan {
    groups: Vec<Vec<usize>>,
    parts: Vec<Option<Part>>,
}

/// The host's axes of more than one node: side, wrap and id stride of
/// each (ids run first axis fastest).
struct HostAxes {
    sides: Vec<u64>,
    wraps: Vec<bool>,
    strides: Vec<u64>,
}

impl HostAxes {
    fn of(host: &Spec) -> Option<HostAxes> {
        let (sides, wraps) = host.grid()?;
        let mut axes = HostAxes {
            sides: Vec::new(),
            wraps: Vec::new(),
            strides: Vec::new(),
        };
        let mut stride = 1u64;
        for (&side, wrap) in sides.iter().zip(wraps) {
            if side > 1 {
                axes.sides.push(side);
                axes.wraps.push(wrap);
                axes.strides.push(stride);
            }
            stride *= side;
        }
        Some(axes)
    }

    /// Host axis j as a topology spec (`ring:7`).
    fn spec(&self, j: usize) -> Spec {
        grid_spec(vec![self.sides[j]], vec![self.wraps[j]])
    }
}

/// A sharing out up to the order of sides alike: per host axis its side,
/// wrap and the sorted sides and wraps of its group, sorted.
type Shape = Vec<(u64, bool, Vec<(u64, bool)>)>;

/// The product starts of `grid` (every node of the working graph `g` at
/// its grid coordinates in `coords`) onto `host`, within the capacity
/// `cap`: one per sharing out of the guest's axes among the host's (onto
/// a ring, of some of them onto it) in which some host axis of 3 nodes or
/// more gets two open guest axes or more (the others are box cuts, built
/// elsewhere), one of those alike
/// but for the order of sides alike (a cube's three sharings onto ring x
/// ring are one start, turned).
pub(super) fn product_starts(
    grid: &Grid,
    coords: &[u64],
    (g, host): (&WGraph, &dyn Topology),
    cap: u64,
) -> Vec<Start> {
    let Some(axes) = HostAxes::of(host.spec()) else {
        return Vec::new();
    };
    let guest_axes: Vec<usize> = (0..grid.sides.len())
        .filter(|&a| grid.sides[a] > 1)
        .collect();
    let (k, m) = (guest_axes.len(), axes.sides.len());
    // Onto a ring, some guest axes onto it and the rest alike layer by
    // layer (digit 1: along no host axis).
    let onto_a_ring = m == 1 && axes.wraps[0];
    if (m < 2 && !onto_a_ring) || k <= m || k > MAX_GUEST_AXES {
        return Vec::new();
    }
    let base = m.max(2);
    let mut seen: HashSet<Shape> = HashSet::new();
    // (code: the host axis of every guest axis, in base m)
    let plans: Vec<Plan> = (0..base.pow(k as u32))
        .filter_map(|code| {
            let groups: Vec<Vec<usize>> = (0..m)
                .map(|j| {
                    (0..k)
                        .filter(|&i| (code / base.pow(i as u32)) % base == j)
                        .map(|i| guest_axes[i])
                        .collect()
                })
                .collect();
            if onto_a_ring && groups[0].len() == k {
                // (Every axis onto the ring: the search's own problem.)
                return None;
            }
            let placed_nodes: u64 = groups.iter().flatten().map(|&a| grid.sides[a]).product();
            let layers = grid.sides.iter().product::<u64>() / placed_nodes;
            let mut shape: Shape = groups
                .iter()
                .enumerate()
                .map(|(j, group)| {
                    let mut sides: Vec<(u64, bool)> = group
                        .iter()
                        .map(|&a| (grid.sides[a], grid.wraps[a]))
                        .collect();
                    sides.sort_unstable();
                    (axes.sides[j], axes.wraps[j], sides)
                })
                .collect();
            shape.sort_unstable();
            if seen.insert(shape) {
                plan(grid, groups, &axes, (cap, layers))
            } else {
                None
            }
        })
        .collect();
    // Each distinct part searched once, in parallel.
    let mut distinct: Vec<&Part> = plans
        .iter()
        .flat_map(|plan| plan.parts.iter().flatten())
        .collect();
    distinct.sort();
    distinct.dedup();
    let placed: HashMap<&Part, Vec<u64>> = distinct
        .into_par_iter()
        .filter_map(|part| Some((part, place_part(part)?)))
        .collect();
    let Ok(dist) = HostDistance::new(host) else {
        return Vec::new();
    };
    plans
        .iter()
        .filter_map(|plan| {
            let placements: Vec<Option<&Vec<u64>>> = plan
                .parts
                .iter()
                .map(|part| match part {
                    Some(part) => placed.get(part).map(Some),
                    None => Some(None),
                })
                .collect::<Option<_>>()?;
            let mut hosts = product_hosts(grid, coords, &plan.groups, &placements, &axes.strides);
            if let Some(j) = placements.iter().position(Option::is_none) {
                let axis = plan.groups[j][0];
                let onto = (axes.sides[j], axes.strides[j]);
                slabs_per_column(g, grid, coords, axis, onto, &mut hosts);
            }
            balance::restore(g, &dist, &mut hosts, host.node_count(), cap).ok()?;
            Some(Start {
                weighed_only: true,
                irregular: true,
                ..Start::new(name(grid, plan, &axes), hosts, true)
            })
        })
        .collect()
}

/// How the sharing out `groups` (the guest axes of every host axis) is
/// placed within the capacity `cap`: every group searched, or one lone
/// axis the host axis does not divide cut column by column and the
/// others searched within what that leaves; where even that breaks the
/// capacity, every group as balanced as it can be, and the product's
/// overfull nodes emptied after. `None` where a group has fewer nodes
/// than its host axis, or no group of two open axes or more meets a host
/// axis of 3 nodes or more (a group that wraps folds round no middle: its
/// search finds only the strips a box cut gives, a local optimum the box
/// cut's refinement leaves — torus:20x20x20 onto torus:5x7 5 680
/// hop-bytes by the product, 5 214 by balanced slabs).
fn plan(
    grid: &Grid,
    groups: Vec<Vec<usize>>,
    axes: &HostAxes,
    (cap, layers): (u64, u64),
) -> Option<Plan> {
    let m = groups.len();
    let sizes: Vec<(u64, u64)> = (0..m)
        .map(|j| {
            (
                groups[j].iter().map(|&a| grid.sides[a]).product(),
                axes.sides[j],
            )
        })
        .collect();
    let open = |group: &[usize]| group.iter().all(|&a| !grid.wraps[a]);
    let ringed = (0..m).any(|j| groups[j].len() >= 2 && open(&groups[j]) && axes.sides[j] >= 3);
    if !ringed || sizes.iter().any(|&(nodes, side)| nodes < side) {
        return None;
    }
    let lone = (0..m).find(|&j| groups[j].len() == 1 && sizes[j].0 % sizes[j].1 != 0);
    let within = (u128::from(cap), u128::from(layers));
    let (eps, sliced) = match (part_imbalances(&sizes, within), lone) {
        (Some(eps), _) => (eps, None),
        (None, Some(j)) => {
            let others: Vec<(u64, u64)> = (0..m).filter(|&i| i != j).map(|i| sizes[i]).collect();
            let (nodes, side) = sizes[j];
            let budget = (
                u128::from(cap) * u128::from(side),
                u128::from(nodes) * u128::from(layers),
            );
            let mut eps = part_imbalances(&others, budget).unwrap_or(vec![0.0; m - 1]);
            eps.insert(j, 0.0);
            (eps, Some(j))
        }
        (None, None) => (vec![0.0; m], None),
    };
    let parts = (0..m)
        .map(|j| {
            (sliced != Some(j)).then(|| {
                (
                    groups[j].iter().map(|&i| grid.sides[i]).collect(),
                    groups[j].iter().map(|&i| grid.wraps[i]).collect(),
                    axes.sides[j],
                    axes.wraps[j],
                    eps[j].to_bits(),
                )
            })
        })
        .collect();
    Some(Plan { groups, parts })
}

/// The imbalance each group's search is given so that the product of
/// their capacities stays within `budget` (num / den: the capacity over
/// the layers alike, or, where a lone axis is cut column by column, what
/// that leaves), `sizes` being each group's nodes and its host axis's
/// side: capacities as near the m-th root of the room as whole loads
/// allow, the one furthest above its average taken down first until
/// their product fits; `None` where even exact balance breaks it. (The
/// imbalance rounded to 3 % of a share cost mesh:100x100 onto ring:16
/// every slack: capacity 644 of 625 breaks 64 375 / 100 layers, so it got
/// none and cut 1 179 where 643 cuts 1 052.)
fn part_imbalances(sizes: &[(u64, u64)], (num, den): (u128, u128)) -> Option<Vec<f64>> {
    let avg: Vec<f64> = sizes.iter().map(|&(n, h)| n as f64 / h as f64).collect();
    let least: Vec<u128> = sizes
        .iter()
        .map(|&(n, h)| u128::from(n.div_ceil(h)))
        .collect();
    let fits = |caps: &[u128]| {
        caps.iter()
            .try_fold(den, |acc, &c| acc.checked_mul(c))
            .is_some_and(|total| total <= num)
    };
    if !fits(&least) {
        return None;
    }
    let room = num as f64 / den as f64 / avg.iter().product::<f64>();
    let root = room.powf(1.0 / sizes.len() as f64);
    let mut caps: Vec<u128> = (0..sizes.len())
        .map(|j| ((avg[j] * root).floor() as u128).max(least[j]))
        .collect();
    while !fits(&caps) {
        let j = (0..caps.len())
            .filter(|&j| caps[j] > least[j])
            .max_by(|&a, &b| (caps[a] as f64 / avg[a]).total_cmp(&(caps[b] as f64 / avg[b])))?;
        caps[j] -= 1;
    }
    // (The mapper's capacity is ⌈(1 + eps) · average⌉: just under the
    // capacity wanted rounds up to it.)
    Some(
        (0..caps.len())
            .map(|j| ((caps[j] as f64 - 1e-6) / avg[j] - 1.0).max(0.0))
            .collect(),
    )
}

/// The search's placement of one group of guest axes onto its host axis
/// (host coordinate of every node of the group's grid, first axis
/// fastest), with the seed 1 whatever the caller's: a start is the same
/// for every seed. `None` where the mapper refuses it.
fn place_part((sides, wraps, side, wrap, eps): &Part) -> Option<Vec<u64>> {
    let guest = topology::build(&grid_spec(sides.clone(), wraps.clone())).ok()?;
    let axis = topology::build(&grid_spec(vec![*side], vec![*wrap])).ok()?;
    let g = WGraph::from_topology(guest.as_ref()).ok()?;
    let options = MapOptions {
        imbalance: f64::from_bits(*eps),
        ..MapOptions::default()
    };
    let placed = mapper::map_graph(&g, axis.as_ref(), &options, &[]).ok()?;
    Some(placed.hosts().to_vec())
}

/// Host node of every guest node but along a group cut by
/// [`slabs_per_column`] (its placement `None`): along host axis j (of id
/// stride `strides[j]`),
/// the placement of group j at the node's coordinates on that group's axes.
fn product_hosts(
    grid: &Grid,
    coords: &[u64],
    groups: &[Vec<usize>],
    placements: &[Option<&Vec<u64>>],
    strides: &[u64],
) -> Vec<u64> {
    let dims = grid.sides.len();
    (0..coords.len() / dims)
        .into_par_iter()
        .map(|v| {
            let at = &coords[v * dims..(v + 1) * dims];
            groups
                .iter()
                .zip(placements)
                .zip(strides)
                .filter_map(|((group, placement), &stride)| {
                    // The node's id in the group's grid, first axis fastest.
                    let id = group
                        .iter()
                        .rev()
                        .fold(0u64, |acc, &i| acc * grid.sides[i] + at[i]);
                    placement.map(|placement| placement[id as usize] * stride)
                })
                .sum()
        })
        .collect()
}

/// Cuts guest `axis` onto a host axis of `side` nodes (id stride
/// `stride`) column by column: the nodes of each column (those `hosts`
/// puts on one host node along the other axes) in order along `axis`,
/// then along the other guest axes, cut into `side` slabs of equal load,
/// slab s at coordinate s. Where `side` does not divide the axis, a slab
/// ends within a layer of the guest, and every column's piece of that
/// layer is cut in the same proportion: each host node gets its column's
/// share (planes cut at a layer would leave every node of some slabs
/// a layer over the rest).
fn slabs_per_column(
    g: &WGraph,
    grid: &Grid,
    coords: &[u64],
    axis: usize,
    (side, stride): (u64, u64),
    hosts: &mut [u64],
) {
    let dims = grid.sides.len();
    let n = hosts.len();
    // Every node's place in the order along `axis`, then along the other
    // axes (mixed radix): the numbers 0..n, each once, so placing every
    // node at its key sorts them in O(n).
    let per_layer = n as u64 / grid.sides[axis];
    let keys: Vec<u64> = (0..n)
        .into_par_iter()
        .map(|v| {
            let at = &coords[v * dims..(v + 1) * dims];
            let rest = (0..dims)
                .filter(|&a| a != axis)
                .fold(0u64, |acc, a| acc * grid.sides[a] + at[a]);
            at[axis] * per_layer + rest
        })
        .collect();
    let mut by_key = vec![u32::MAX; n];
    for (v, &key) in keys.iter().enumerate() {
        by_key[key as usize] = v as u32;
    }
    let columns = hosts.iter().max().map_or(0, |&c| c as usize + 1);
    let mut total = vec![0u64; columns];
    for (v, &c) in hosts.iter().enumerate() {
        total[c as usize] += g.vw[v];
    }
    let mut before = vec![0u64; columns];
    for v in by_key {
        let v = v as usize;
        let c = hosts[v] as usize;
        // Slab ⌊(load before v in its column + half its own) · side / total⌋.
        let w = g.vw[v];
        let slab = (u128::from(2 * before[c] + w) * u128::from(side)
            / (2 * u128::from(total[c].max(1))))
        .min(u128::from(side - 1)) as u64;
        before[c] += w;
        hosts[v] += slab * stride;
    }
}

/// `mesh:20x20x20 by its axes' product: axis 3 (line:20) onto ring:5,
/// axes 1, 2 (mesh:20x20) onto ring:7`.
fn name(grid: &Grid, plan: &Plan, axes: &HostAxes) -> String {
    let each: Vec<String> = plan
        .groups
        .iter()
        .zip(&plan.parts)
        .enumerate()
        .map(|(j, (group, part))| {
            let numbers: Vec<String> = group.iter().map(|a| (a + 1).to_string()).collect();
            let sides = group.iter().map(|&i| grid.sides[i]).collect();
            let wraps = group.iter().map(|&i| grid.wraps[i]).collect();
            format!(
                "{} {} ({}){} onto {}",
                if group.len() == 1 { "axis" } else { "axes" },
                numbers.join(", "),
                grid_spec(sides, wraps),
                if part.is_none() {
                    " in balanced slabs"
                } else {
                    ""
                },
                axes.spec(j),
            )
        })
        .collect();
    let alike: Vec<String> = (0..grid.sides.len())
        .filter(|&a| grid.sides[a] > 1 && !plan.groups.iter().flatten().any(|&b| b == a))
        .map(|a| (a + 1).to_string())
        .collect();
    let layers = match alike.len() {
        0 => String::new(),
        1 => format!(", every layer alike along axis {}", alike[0]),
        _ => format!(", every layer alike along axes {}", alike.join(", ")),
    };
    format!(
        "{} by its axes' product: {}{layers}",
        grid.spec(),
        each.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapper::{capacity, hop_bytes};
    use proptest::prelude::*;

    /// The product starts of `guest` onto `host` at 3 % imbalance, each
    /// with its hop-bytes and its heaviest host node's load, and the
    /// capacity.
    fn starts_of(guest: &str, host: &str) -> (Vec<(Start, u128, u64)>, u64) {
        let guest = topology::parse(guest).unwrap();
        let host = topology::parse(host).unwrap();
        let grid = Grid::of_spec(guest.spec()).unwrap();
        let g = WGraph::from_topology(guest.as_ref()).unwrap();
        let coords: Vec<u64> = (0..guest.node_count())
            .flat_map(|v| guest.coords(v))
            .collect();
        let cap = capacity(&g, host.node_count(), 0.03);
        let dist = HostDistance::new(host.as_ref()).unwrap();
        let starts = product_starts(&grid, &coords, (&g, host.as_ref()), cap)
            .into_iter()
            .map(|start| {
                assert!(start.hosts.iter().all(|&h| h < host.node_count()));
                let mut load = vec![0u64; host.node_count() as usize];
                for &h in &start.hosts {
                    load[h as usize] += 1;
                }
                let cost = hop_bytes(&g, &dist, &start.hosts);
                (start, cost, load.into_iter().max().unwrap())
            })
            .collect();
        (starts, cap)
    }

    /// mesh:20x20x20 onto torus:5x7: every axis divides, so the product's
    /// hop-bytes are the sum over host axes of its group's hop-bytes times
    /// the other group's nodes — the z axis onto ring:5 cuts 4 planes of
    /// 400 edges, one hop each — and the best is below Scotch's 3 526.
    #[test]
    fn a_product_costs_its_groups_times_the_others_nodes() {
        let (starts, cap) = starts_of("mesh:20x20x20", "torus:5x7");
        assert!(!starts.is_empty());
        for (start, _, most) in &starts {
            assert!(*most <= cap, "{}", start.name);
            assert!(start.closed_form && start.weighed_only);
        }
        let (start, cost, _) = starts.iter().min_by_key(|(_, c, _)| *c).unwrap();
        assert!(*cost < 3526, "{cost}: {}", start.name);
        assert!(
            start.name.contains("(line:20) onto ring:5"),
            "{}",
            start.name
        );
        // The mesh:20x20 group's own placement onto ring:7, read off the
        // start's layer z = 0 (its host coordinate along the first axis
        // of torus:5x7 is its z slab).
        let mesh = topology::parse("mesh:20x20").unwrap();
        let ring = topology::parse("ring:7").unwrap();
        let layer: Vec<u64> = start.hosts[..400].iter().map(|&h| h / 5).collect();
        let sub = mapper::hop_bytes(
            &WGraph::from_topology(mesh.as_ref()).unwrap(),
            &HostDistance::new(ring.as_ref()).unwrap(),
            &layer,
        );
        assert_eq!(*cost, 20 * sub + 400 * 4);
    }

    /// 12 layers onto ring:5 do not divide: the z axis is cut column by
    /// column into slabs of equal load, within the capacity, below
    /// Scotch's 1 481 (the search alone: 1 601).
    #[test]
    fn a_lone_axis_the_host_does_not_divide_is_cut_column_by_column() {
        let (starts, cap) = starts_of("mesh:12x12x12", "torus:5x7");
        let sliced: Vec<_> = starts
            .iter()
            .filter(|(s, _, _)| s.name.contains("in balanced slabs onto ring:5"))
            .collect();
        assert!(!sliced.is_empty());
        for (start, _, most) in &starts {
            assert!(*most <= cap, "{}", start.name);
        }
        assert!(sliced.iter().any(|(_, cost, _)| *cost < 1481));
    }

    /// Onto a ring, two axes onto it and the third alike layer by layer:
    /// the hop-bytes are the layers' times their number.
    #[test]
    fn onto_a_ring_every_layer_is_alike() {
        let (starts, cap) = starts_of("mesh:40x40x10", "ring:7");
        let (start, cost, most) = starts
            .iter()
            .find(|(s, _, _)| s.name.contains("every layer alike along axis 3"))
            .unwrap();
        assert!(*most <= cap);
        assert!(start
            .hosts
            .chunks(1600)
            .all(|layer| layer == &start.hosts[..1600]));
        let mesh = topology::parse("mesh:40x40").unwrap();
        let ring = topology::parse("ring:7").unwrap();
        let layer = mapper::hop_bytes(
            &WGraph::from_topology(mesh.as_ref()).unwrap(),
            &HostDistance::new(ring.as_ref()).unwrap(),
            &start.hosts[..1600],
        );
        assert_eq!(*cost, 10 * layer);
        // Below the slabs' 6 planes of 400 edges.
        assert!(*cost < 6 * 400, "{cost}");
    }

    /// None where no host axis of 3 nodes or more gets two open guest
    /// axes: a torus's groups wrap, a ring takes no guest of two axes
    /// (every axis onto it is the search's own problem), a line folds
    /// round no middle, a guest of no more axes than the host is a box
    /// cut's.
    #[test]
    fn no_product_where_no_open_group_meets_a_ring() {
        for (guest, host) in [
            ("torus:20x20x20", "torus:5x7"),
            ("mesh:30x30", "ring:7"),
            ("mesh:20x20x20", "line:7"),
            ("mesh:30x30", "torus:5x7"),
            ("mesh:20x20x20", "torus:2x2"),
        ] {
            assert!(starts_of(guest, host).0.is_empty(), "{guest} onto {host}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// Any grid onto any ring, line, torus or mesh of fewer axes: every start
        /// places every node on a host node and none above the capacity.
        #[test]
        fn products_respect_the_capacity(
            sides in proptest::collection::vec(2u64..9, 3..5),
            wraps in proptest::collection::vec(any::<bool>(), 4),
            host in proptest::collection::vec(2u64..8, 1..3),
            torus in any::<bool>(),
        ) {
            let guest = Spec::grid_of(sides.clone(), wraps[..sides.len()].to_vec());
            let wraps = vec![torus; host.len()];
            let host = Spec::grid_of(host, wraps);
            let (starts, cap) = starts_of(&guest.to_string(), &host.to_string());
            for (start, _, most) in starts {
                prop_assert!(most <= cap, "{}", start.name);
            }
        }
    }
}
