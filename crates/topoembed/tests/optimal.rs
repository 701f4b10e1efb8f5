//! The exact search for the least Σ D_i over constant-distance embeddings:
//! equal to a naive search on every ring and torus with at most 16 nodes,
//! the known small tori (4x4, 8x4, 8x8, 16x8: 4, 7, 10, 16), the ring
//! theorem (xor optimal, xor paper Theorem 10), embeddings that really have
//! the distances reported, and bad input.

pub(crate) use topoembed::optimal::vectors::{SolverAt, PROOF_BUDGET};
pub(crate) use topoembed::optimal::{certificate, optimal_by_vectors, Bounds, Refuted, Turns};
pub(crate) use topoembed::optimal::{
    estimate_nodes, optimal_constant, SearchOptions, ESTIMATE_PROBES,
};
pub(crate) use topoembed::spec::Spec;
pub(crate) use topoembed::topology::{self, Topology};

// The parts, one file each (the root of a test binary looks for its
// modules beside it, hence the paths).
#[path = "optimal/bijections.rs"]
mod bijections;
#[path = "optimal/branch_and_bound.rs"]
mod branch_and_bound;
#[path = "optimal/certificates.rs"]
mod certificates;
#[path = "optimal/lemmas.rs"]
mod lemmas;
#[path = "optimal/questions.rs"]
mod questions;
#[path = "optimal/vectors.rs"]
mod vectors;
