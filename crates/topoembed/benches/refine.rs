//! The mapper's refinement phases alone, one thread, from a fixed start:
//! k-way FM, move/swap local search and a V-cycle on copter2 (from
//! libmetis-doc, where installed) and on a shuffled 3-D stencil, each
//! placed in blocks of its vertex numbers onto its host (copter2's blocks
//! lie together; the shuffled stencil's are scattered, a start far from any
//! good one). The phases' memory-bound inner loops (a vertex's neighbours'
//! placements) are timed here apart from the rest of a `map` run — on a
//! shared machine still within ±10 % run to run: compare alternating runs.
//! `cargo bench -p topoembed --bench refine`.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use topoembed::mapper::refine::{kway, local, vcycle, Capacity};
use topoembed::mapper::rng::Rng;
use topoembed::mapper::{self, HostDistance, Preset, WGraph};
use topoembed::topology;

/// Guests to refine: (name, graph, host).
fn problems() -> Vec<(String, WGraph, &'static str)> {
    let mut out = Vec::new();
    let copter2 = "/usr/share/doc/libmetis-dev/examples/graphs/copter2.graph";
    if let Ok(guest) = topology::parse(&format!("graph:{copter2}")) {
        out.push((
            "copter2".to_string(),
            WGraph::from_topology(guest.as_ref()).unwrap(),
            "torus:16x16",
        ));
    }
    let stencil = topology::parse("torus:48x48x24").unwrap();
    let g = WGraph::from_topology(stencil.as_ref()).unwrap();
    // Shuffled, as a guest numbered by no grid would be.
    let n = g.n();
    let order = Rng::new(1, 1).permutation(n);
    let mut rank = vec![0u32; n];
    for (i, &v) in order.iter().enumerate() {
        rank[v as usize] = i as u32;
    }
    out.push((
        "torus:48x48x24 shuffled".to_string(),
        g.renumbered(&order, &rank),
        "torus:8x8x4",
    ));
    out
}

fn refinement(c: &mut Criterion) {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build_global()
        .ok();
    for (name, g, host) in problems() {
        let h = topology::parse(host).unwrap();
        let dist = HostDistance::new(h.as_ref()).unwrap();
        let p = h.node_count();
        let cap = Capacity {
            lo: mapper::floor(g.total_load(), p, 0.03),
            hi: mapper::capacity(&g, p, 0.03),
        };
        let n = g.n() as u64;
        let blocks: Vec<u64> = (0..n).map(|v| v * p / n).collect();
        let mut group = c.benchmark_group(format!("refine {name} onto {host}"));
        group.bench_function("k-way FM", |b| {
            b.iter_batched_ref(
                || blocks.clone(),
                |place| {
                    let rules = kway::Rules::finest(Preset::Default);
                    kway::refine(&g, &dist, place, cap, (8, rules), None, &mut Rng::new(1, 2))
                },
                BatchSize::LargeInput,
            )
        });
        group.bench_function("move/swap", |b| {
            b.iter_batched_ref(
                || blocks.clone(),
                |place| local::improve(&g, &dist, place, cap, (8, None), &mut Rng::new(1, 3), None),
                BatchSize::LargeInput,
            )
        });
        group.bench_function("V-cycle", |b| {
            b.iter_batched_ref(
                || blocks.clone(),
                |place| {
                    vcycle::refine(
                        &g,
                        &dist,
                        place,
                        (cap, Preset::Default),
                        None,
                        &mut Rng::new(1, 4),
                    )
                },
                BatchSize::LargeInput,
            )
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(10));
    targets = refinement
}
criterion_main!(benches);
