//! The exact search and the network simulator from Python: `optimal` and
//! `verify-certificate` ([`topoembed::optimal::answer`]) and `simulate`
//! ([`topoembed::workload::run`]), as the JSON the CLI prints.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use topoembed::embed;
use topoembed::spec::Spec;

use crate::{json, value_error, Topology};

/// `topoembed optimal`'s answer as JSON ([`topoembed::optimal::answer`]):
/// `method` is `vectors` (the default), `whole-tree` or `all-bijections`;
/// `distances` decides that one vector instead.
#[pyfunction]
#[pyo3(signature = (guest, host, method="vectors", distances=None, node_limit=0, certificate=None, checkpoint=None, bounds="energy", decide_by=None, force=false))]
#[allow(clippy::too_many_arguments)]
pub fn optimal_json(
    py: Python<'_>,
    guest: &str,
    host: &str,
    method: &str,
    distances: Option<Vec<u32>>,
    node_limit: u64,
    certificate: Option<PathBuf>,
    checkpoint: Option<PathBuf>,
    bounds: &str,
    decide_by: Option<&str>,
    force: bool,
) -> PyResult<String> {
    use topoembed::optimal::{answer, Method, Question, Watch};
    let guest: Spec = guest.parse().map_err(value_error)?;
    let host: Spec = host.parse().map_err(value_error)?;
    let method = match (method, distances) {
        (_, Some(distances)) => Method::OneVector(distances),
        ("vectors", None) => Method::Vectors,
        ("whole-tree", None) => Method::WholeTree,
        ("all-bijections", None) => Method::AllBijections,
        (other, None) => {
            return Err(PyValueError::new_err(format!(
                "method {other:?}: give vectors, whole-tree or all-bijections"
            )))
        }
    };
    let question = Question {
        method,
        node_limit,
        certificate: certificate.as_deref(),
        checkpoint: checkpoint.as_deref(),
        bounds: bounds.parse().map_err(PyValueError::new_err)?,
        decide_by: decide_by.map(str::parse).transpose().map_err(value_error)?,
        force,
        ..Question::new(&guest, &host)
    };
    let found = py
        .detach(|| answer(&question, Watch::default()))
        .map_err(value_error)?;
    json(&found)
}

/// `topoembed verify-certificate DIR --format json`.
#[pyfunction]
#[pyo3(signature = (dir, dimacs=false, checker=None))]
pub fn verify_certificate_json(
    py: Python<'_>,
    dir: PathBuf,
    dimacs: bool,
    checker: Option<Vec<String>>,
) -> PyResult<String> {
    use topoembed::optimal::certificate;
    if checker.as_ref().is_some_and(Vec::is_empty) {
        return Err(PyValueError::new_err(
            "checker: give a command, as [\"drat-trim\"]",
        ));
    }
    let verified = py
        .detach(|| {
            certificate::verify_with(
                &dir,
                &certificate::CheckOptions {
                    dimacs,
                    checker,
                    progress: None,
                },
            )
        })
        .map_err(value_error)?;
    json(&verified)
}

/// `topoembed simulate`'s JSON ([`topoembed::workload::run`]): an
/// algorithm's messages placed by `method`, simulated on the host network.
#[pyfunction]
#[pyo3(signature = (algorithm, guest, host, method, n=None, iterations=4, trace=None, mode="saf", duplex="full", contention=true, ta=0.0, tc=1.0, tb=0.0, th=0.0, links=5, force=false))]
#[allow(clippy::too_many_arguments)]
pub fn simulate_json(
    py: Python<'_>,
    algorithm: &str,
    guest: &Topology,
    host: &Topology,
    method: &str,
    n: Option<&str>,
    iterations: u32,
    trace: Option<&str>,
    mode: &str,
    duplex: &str,
    contention: bool,
    ta: f64,
    tc: f64,
    tb: f64,
    th: f64,
    links: usize,
    force: bool,
) -> PyResult<String> {
    use topoembed::simulate::{Duplex, Network, Switching};
    use topoembed::workload::{self, Ask};
    let ask = Ask {
        workload: algorithm.parse().map_err(value_error)?,
        n,
        iterations,
        trace: trace.map(str::parse).transpose().map_err(value_error)?,
        force,
    };
    let net = Network {
        switching: match mode {
            "saf" => Switching::StoreAndForward,
            "cut-through" => Switching::CutThrough,
            other => {
                return Err(PyValueError::new_err(format!(
                    "mode {other:?}: give saf (store-and-forward) or cut-through"
                )))
            }
        },
        duplex: match duplex {
            "full" => Duplex::Full,
            "half" => Duplex::Half,
            other => {
                return Err(PyValueError::new_err(format!(
                    "duplex {other:?}: give full or half"
                )))
            }
        },
        contention,
        costs: topoembed::runtime::Costs { ta, tc, tb },
        th,
        ..Network::default()
    };
    let (g, h) = (guest.inner.clone(), host.inner.clone());
    let summary = py
        .detach(|| {
            let embedding: Arc<dyn embed::Embedding> =
                Arc::from(embed::build(method, g.as_ref(), h.as_ref())?);
            workload::run(&ask, (g, h, embedding), &net, 0, links, None, &|_| {})
                .map(|(_, _, summary)| summary)
        })
        .map_err(value_error)?;
    json(&summary)
}
