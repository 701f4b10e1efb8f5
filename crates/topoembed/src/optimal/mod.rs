//! Exact searches: the least CC time of a d-cube algorithm on a ring or
//! torus over *all* constant-distance embeddings (xor paper §2.2), which
//! settles — case by case — the paper's open question whether the xor
//! embedding is optimal on tori (it proves so for rings, Theorem 10).
//!
//! * [`host`]: the torus as the search sees it (distance and translation
//!   tables, spheres, the symmetries that fix a node);
//! * [`constant`]: branch and bound over distance vectors and placements;
//! * [`bijection`]: the least CC time over all bijections, waiting
//!   included, for small d;
//! * [`wirelength`]: what the published least wirelength of a cube on a
//!   ring or torus implies for both (cited beside the proofs, not used).

mod ahead;
pub mod band;
mod band_propagation;
pub mod bijection;
pub mod certificate;
pub mod cocycle;
pub mod constant;
mod copies;
mod core_proofs;
mod core_search;
mod cores;
pub mod cuts;
pub mod drat;
pub mod halving;
mod host;
mod interrupt;
mod lift;
pub mod one_vector;
pub mod pin;
mod queue;
mod record;
mod refuted;
pub mod sat;
mod shape_clauses;
mod shapes;
mod turns;
pub mod vectors;
pub mod windings;
pub mod wirelength;

pub use bijection::{optimal_bijection, BestBijection, MAX_BIJECTION_DIMENSION};
pub use constant::{
    estimate_nodes, optimal_constant, Optimum, SearchOptions, ESTIMATE_PROBES, MAX_DIMENSION,
};
pub use cuts::Bounds;
pub use one_vector::{decide_vector, VectorAnswer, VectorDecision};
pub use vectors::{
    optimal_by_vectors, optimal_by_vectors_admitted, Left, Refuted, Turns, VectorSearch,
};
pub use wirelength::{literature, Literature};
