//! Device meshes on clusters (nodes of GPUs under a fat tree or dragonfly,
//! tleafs, allocations): the per-axis figures equal an independent count
//! over the host's distances and its network's own routes; no order of the
//! logical axes (every one tried here, laid out in mixed radix) beats the
//! answer on both weighted sums; the heaviest axis stays inside a node
//! where it fits and otherwise crosses the fewest switch levels; the
//! bounds hold; a given assignment scores as searched ones do.

use crate::common::logical_axes;

use proptest::prelude::*;
use topoembed::device_mesh::{device_mesh, score_assignment, DeviceMesh, Objective};
use topoembed::spec::Spec;
use topoembed::topology::{self, HostLinks, Topology};

/// (max hops, mean hops, congestion) of every logical axis of `table`
/// (host node of each device, row-major, last axis fastest), counted pair
/// by pair: every device sends to its successor along the axis.
fn count(
    host: &dyn Topology,
    sizes: &[u64],
    lines: &[usize],
    table: &[u64],
) -> Vec<(u64, f64, u64)> {
    let n = table.len();
    let links = !host.spec().has_no_links();
    let mut out = Vec::new();
    for (k, &side) in sizes.iter().enumerate() {
        if side < 2 {
            out.push((0, 0.0, 0));
            continue;
        }
        let mut load = std::collections::HashMap::new();
        let (mut max, mut total, mut messages) = (0u64, 0u64, 0u64);
        for g in 0..n {
            // Logical coordinates of device g, then its successor's index.
            let mut coords = Vec::new();
            let mut rest = g as u64;
            for &s in sizes.iter().rev() {
                coords.push(rest % s);
                rest /= s;
            }
            coords.reverse();
            if coords[k] + 1 == side && lines.contains(&k) {
                continue;
            }
            coords[k] = (coords[k] + 1) % side;
            let next = coords.iter().zip(sizes).fold(0, |i, (&c, &s)| i * s + c);
            let (a, b) = (table[g], table[next as usize]);
            let d = host.distance(a, b);
            max = max.max(d);
            total += d;
            messages += 1;
            if links {
                let mut route = Vec::new();
                HostLinks(host).route_links(a, b, &mut route);
                for link in route {
                    *load.entry(link).or_insert(0u64) += 1;
                }
            }
        }
        let congestion = load.values().copied().max().unwrap_or(0);
        out.push((max, total as f64 / messages.max(1) as f64, congestion));
    }
    out
}

/// The device mesh's figures are the counted ones, its own and row-major's.
fn assert_counted(d: &DeviceMesh, host: &dyn Topology, sizes: &[u64], lines: &[usize]) {
    let mut seen = vec![false; d.mesh.len()];
    for &h in &d.mesh {
        assert!(!std::mem::replace(&mut seen[h as usize], true), "{h} twice");
    }
    let own = count(host, sizes, lines, &d.mesh);
    let row_major: Vec<u64> = (0..d.mesh.len() as u64).collect();
    let rows = count(host, sizes, lines, &row_major);
    for (k, a) in d.axes.iter().enumerate() {
        assert_eq!(
            (a.figures.max_hops, a.figures.congestion),
            (own[k].0, own[k].2),
            "{} axis {k}",
            host.spec()
        );
        assert!((a.figures.average_hops - own[k].1).abs() < 1e-9);
        assert_eq!(
            (a.row_major.max_hops, a.row_major.congestion),
            (rows[k].0, rows[k].2)
        );
        assert!(
            a.lower_bound.value <= a.figures.max_hops,
            "{:?}",
            a.lower_bound
        );
    }
}

/// Host node of each device when the axes `order` (fastest first) are laid
/// out in mixed radix.
fn mixed_radix(sizes: &[u64], order: &[usize]) -> Vec<u64> {
    let mut stride = vec![0u64; sizes.len()];
    let mut s = 1;
    for &a in order {
        stride[a] = s;
        s *= sizes[a];
    }
    (0..s)
        .map(|g| {
            let mut rest = g;
            let mut node = 0;
            for k in (0..sizes.len()).rev() {
                node += (rest % sizes[k]) * stride[k];
                rest /= sizes[k];
            }
            node
        })
        .collect()
}

fn weighted(figures: &[(u64, f64, u64)], weights: &[f64]) -> (f64, f64) {
    figures
        .iter()
        .zip(weights)
        .fold((0.0, 0.0), |(h, c), (f, w)| {
            (h + w * f.0 as f64, c + w * f.2 as f64)
        })
}

fn orders(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for rest in orders(n - 1) {
        for at in 0..=rest.len() {
            let mut o = rest.clone();
            o.insert(at, n - 1);
            all.push(o);
        }
    }
    all
}

const CLUSTERS: [&str; 6] = [
    "fattree:2;4,4;1,2;1,1*tleaf:8:1",
    "fattree:3;2,2,2;1,2,2;1,1,1*tleaf:2x2:5,1",
    "dragonfly:2,1;2,1;2,1;2*tleaf:4:1",
    "tleaf:4x8:10,1",
    "fattree:2;4,8;1,2;1,1@3-10,20-27",
    "torus:4x4*tleaf:4:1",
];

#[test]
fn figures_equal_the_count_and_no_order_beats_the_answer() {
    let shapes: [&[u64]; 4] = [&[2, 4], &[4, 2, 2], &[8], &[2, 2, 2]];
    for spec in CLUSTERS {
        let host = topology::parse(spec).unwrap();
        let n = host.node_count();
        for shape in shapes {
            // Scale the shape's first axis to the host's size.
            let rest: u64 = shape[1..].iter().product();
            let mut sizes = shape.to_vec();
            sizes[0] = n / rest;
            let weights: Vec<f64> = (1..=sizes.len()).map(|k| k as f64).collect();
            for lines in [vec![], vec![0]] {
                let d = device_mesh(
                    host.spec(),
                    &logical_axes(&sizes),
                    (Some(&weights), Objective::Bandwidth),
                    &lines,
                )
                .unwrap();
                assert_counted(&d, host.as_ref(), &sizes, &lines);
                let own = weighted(&count(host.as_ref(), &sizes, &lines, &d.mesh), &weights);
                for order in orders(sizes.len()) {
                    let other = count(host.as_ref(), &sizes, &lines, &mixed_radix(&sizes, &order));
                    let other = weighted(&other, &weights);
                    assert!(
                        !(other.0 <= own.0 && other.1 <= own.1 && other != own),
                        "{spec} {sizes:?}: order {order:?} {other:?} beats {own:?}"
                    );
                }
            }
        }
    }
}

fn bandwidth_mesh(host: &Spec, sizes: &[u64], weights: &[f64]) -> DeviceMesh {
    device_mesh(
        host,
        &logical_axes(sizes),
        (Some(weights), Objective::Bandwidth),
        &[],
    )
    .unwrap()
}

#[test]
fn the_heaviest_axis_stays_inside_a_node() {
    // 16 nodes of 8 GPUs under 4 leaf switches of 4 nodes.
    let host = "fattree:2;4,4;1,2;1,1*tleaf:8:1".parse::<Spec>().unwrap();
    for (sizes, weights, inside) in [
        (vec![16, 8], vec![1.0, 10.0], 1),
        (vec![8, 16], vec![10.0, 1.0], 0),
        (vec![4, 8, 4], vec![1.0, 10.0, 1.0], 1),
    ] {
        let d = bandwidth_mesh(&host, &sizes, &weights);
        let a = &d.axes[inside];
        assert_eq!(
            (a.figures.max_hops, a.figures.congestion),
            (1, 0),
            "{sizes:?}: {:?}",
            d.plan
        );
    }
    // A ring of 32 fits under one leaf switch (4 nodes of 8): one switch
    // level, 2 + 1 hops, never over the spine; 64 and 128 need the spine.
    for (sizes, hops) in [(vec![4, 32], 3), (vec![2, 64], 5), (vec![128], 5)] {
        let weights: Vec<f64> = (0..sizes.len()).map(|k| 100f64.powi(k as i32)).collect();
        let d = bandwidth_mesh(&host, &sizes, &weights);
        let last = d.axes.last().unwrap();
        assert_eq!(last.figures.max_hops, hops, "{sizes:?}");
        assert_eq!(last.lower_bound.value, hops, "{}", last.lower_bound.reason);
    }
}

#[test]
fn hosts_without_links_count_no_congestion() {
    let host = "tleaf:4x8:10,1".parse::<Spec>().unwrap();
    let d = device_mesh(
        &host,
        &logical_axes(&[4, 8]),
        (None, Objective::Bandwidth),
        &[],
    )
    .unwrap();
    assert!(!d.congestion_counted);
    assert_eq!(
        (d.axes[1].figures.max_hops, d.axes[0].figures.max_hops),
        (1, 11)
    );
    assert!(d.notes.iter().any(|n| n.contains("congestion not counted")));
    let fat = "fattree:2;4,4;1,2;1,1*tleaf:8:1".parse::<Spec>().unwrap();
    let d = device_mesh(
        &fat,
        &logical_axes(&[16, 8]),
        (None, Objective::Bandwidth),
        &[],
    )
    .unwrap();
    assert!(d.congestion_counted);
    assert_eq!(d.host_coords(9), topology::build(&fat).unwrap().coords(9));
}

#[test]
fn a_given_assignment_scores_as_the_search_does() {
    let host = "dragonfly:2,1;2,1;2,1;2*tleaf:4:1".parse::<Spec>().unwrap();
    let sizes = [4, 2, 8];
    let searched = device_mesh(
        &host,
        &logical_axes(&sizes),
        (None, Objective::Bandwidth),
        &[],
    )
    .unwrap();
    let scored = score_assignment(
        &host,
        &logical_axes(&sizes),
        None,
        &[],
        searched.mesh.clone(),
    )
    .unwrap();
    for (a, b) in searched.axes.iter().zip(&scored.axes) {
        assert_eq!(a.figures, b.figures);
        assert_eq!(a.row_major, b.row_major);
    }
    let e = score_assignment(&host, &logical_axes(&sizes), None, &[], vec![0; 64]).unwrap_err();
    assert!(e.to_string().contains("two devices on host node 0"), "{e}");
    let e = device_mesh(
        &host,
        &logical_axes(&[3, 5]),
        (None, Objective::Bandwidth),
        &[],
    )
    .unwrap_err();
    assert!(e.to_string().contains("has 15 devices but"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Random fat trees of random nodes, random logical shapes and weights:
    /// the figures are the counted ones, the answer one of the orders, and
    /// row-major never beats it on both weighted sums.
    #[test]
    fn random_clusters_count_true(
        down in prop::collection::vec(2u64..=3, 1..=2),
        gpus in 2u64..=4,
        split in 0usize..3,
        weights in prop::collection::vec(0.5f64..4.0, 3),
        objective in prop::sample::select(vec![Objective::Balanced, Objective::Latency, Objective::Bandwidth]),
    ) {
        let levels = down.len();
        let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
        let up: Vec<u64> = (0..levels).map(|k| if k == 0 { 1 } else { 2 }).collect();
        let spec = format!(
            "fattree:{levels};{};{};{}*tleaf:{gpus}:1",
            list(&down),
            list(&up),
            list(&vec![1; levels])
        );
        let host = topology::parse(&spec).unwrap();
        let n = host.node_count();
        let mut sizes = vec![gpus, n / gpus];
        if split == 1 && n / gpus % 2 == 0 {
            sizes = vec![gpus, 2, n / gpus / 2];
        } else if split == 2 {
            sizes.reverse();
        }
        let w = &weights[..sizes.len()];
        let d = device_mesh(host.spec(), &logical_axes(&sizes), (Some(w), objective), &[]).unwrap();
        assert_counted(&d, host.as_ref(), &sizes, &[]);
        let own = weighted(&count(host.as_ref(), &sizes, &[], &d.mesh), w);
        let row_major: Vec<u64> = (0..n).collect();
        let rows = weighted(&count(host.as_ref(), &sizes, &[], &row_major), w);
        prop_assert!(!(rows.0 <= own.0 && rows.1 <= own.1 && rows != own), "{spec} {sizes:?}");
    }
}
