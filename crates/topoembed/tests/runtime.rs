//! The runtime: algorithms through embeddings, checked against references
//! and against the CC recurrence.

use topoembed::embed::Params;
use topoembed::runtime::algorithms::{run_local, Algorithm, Problem, RunReport};
use topoembed::runtime::Costs;
use topoembed::virtual_topology::VirtualTopology;

fn run(
    alg: Algorithm,
    guest: &str,
    host: &str,
    method: &str,
    n: Option<&str>,
    costs: Costs,
) -> RunReport {
    let vt = VirtualTopology::from_specs(guest, host, method, &Params::default()).unwrap();
    let problem = Problem::new(alg, &vt, n).unwrap();
    let report = run_local(&vt, &problem, costs).unwrap();
    assert!(
        report.check.passed,
        "{alg} {guest} {host} {method}: {:?}",
        report.check
    );
    report
}

#[test]
fn smoke() {
    for alg in [Algorithm::Fft, Algorithm::Bitonic, Algorithm::Allreduce] {
        let r = run(alg, "cube:4", "ring:16", "xor", None, Costs::default());
        eprintln!(
            "{alg}: time {} predicted {:?} msgs {} hops {}",
            r.modelled_time, r.predicted, r.messages, r.hops
        );
    }
    let r = run(
        Algorithm::Cannon,
        "torus:4x4",
        "cube:4",
        "gray",
        Some("8"),
        Costs::default(),
    );
    eprintln!("cannon: {:?}", r.check);
}
