//! Streamed metrics (now with congestion and node loads), the traffic pass
//! alone and the CC recurrence at the sizes the issues name.
//! `cargo bench -p topoembed` (bench/large.sh times the CLI end to end).

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use topoembed::embed;
use topoembed::metrics::{self, Options};
use topoembed::model;
use topoembed::routing::{HostRoute, TieRule};
use topoembed::topology;
use topoembed::traffic;

fn measure(c: &mut Criterion, guest: &str, host: &str, method: &str) {
    let g = topology::parse(guest).unwrap();
    let h = topology::parse(host).unwrap();
    let e = embed::build(method, g.as_ref(), h.as_ref()).unwrap();
    c.bench_function(&format!("metrics {guest} {host} {method}"), |b| {
        b.iter(|| {
            metrics::measure(g.as_ref(), h.as_ref(), e.as_ref(), &Options::default()).unwrap()
        })
    });
}

fn streamed_metrics(c: &mut Criterion) {
    measure(c, "cube:20", "torus:1024x1024", "xor");
    measure(c, "cube:20", "ring:2^20", "xor");
    measure(c, "cube:20", "mesh:1024x1024", "standard");
    measure(c, "torus:1024x1024", "cube:20", "gray");
    // The target: 8.7e8 guest edges in under 10 s.
    measure(c, "cube:26", "torus:8192x8192", "xor");
}

/// Congestion and node loads alone: the difference-array shortcut on a torus
/// and hop walking on a hypercube host.
fn traffic(c: &mut Criterion) {
    for (guest, host, method) in [
        ("cube:20", "torus:1024x1024", "xor"),
        ("torus:1024x1024", "cube:20", "gray"),
    ] {
        let g = topology::parse(guest).unwrap();
        let h = topology::parse(host).unwrap();
        let e = embed::build(method, g.as_ref(), h.as_ref()).unwrap();
        let route = HostRoute::new(h.as_ref(), TieRule::Increasing);
        c.bench_function(&format!("traffic {guest} {host} {method}"), |b| {
            b.iter(|| traffic::measure(g.as_ref(), h.as_ref(), e.as_ref(), &route, None).unwrap())
        });
    }
}

fn cc_recurrence(c: &mut Criterion) {
    let g = topology::parse("cube:20").unwrap();
    let h = topology::parse("line:2^20").unwrap();
    let e = embed::build("byweight", g.as_ref(), h.as_ref()).unwrap();
    c.bench_function("cc recurrence cube:20 line:2^20 byweight", |b| {
        b.iter(|| model::cc_recurrence(20, e.as_ref(), h.as_ref(), None).unwrap())
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(20));
    targets = streamed_metrics, traffic, cc_recurrence
}
criterion_main!(benches);
