//! Exact searches: the least CC time of a d-cube algorithm on a ring or
//! torus over *all* constant-distance embeddings (xor paper §2.2), which
//! settles — case by case — the paper's open question whether the xor
//! embedding is optimal on tori (it proves so for rings, Theorem 10).
//!
//! Laid out as the question it answers:
//!
//! * [`host`]: the torus as the search sees it (distance and translation
//!   tables, spheres, the symmetries that fix a node);
//! * [`bounds`]: the lemmas that rule vectors out or shrink their formulas,
//!   one file each;
//! * [`search`]: the exact searches — branch and bound, search by distance
//!   vectors, all bijections;
//! * [`proof`]: SAT formulas, DRAT proofs and their checker;
//! * [`certificate`]: writing certificates, and their verifier, which
//!   imports nothing from [`search`] (`tests/layout.rs` fails if it does);
//! * [`run`]: stopping and resuming long runs;
//! * [`question`]: `optimal` as a user asks it — which search, after which
//!   estimate, and the tally of its answer (the CLI and Python call it).

pub mod bounds;
pub mod certificate;
mod host;
pub mod proof;
pub mod question;
pub mod run;
pub mod search;

// The modules' paths before they were grouped, kept for the callers.
pub use bounds::{band, cocycle, cuts, halving, pin, windings, wirelength};
pub use proof::{drat, sat};
pub use search::{bijection, constant, one_vector, vectors};

pub use bijection::{optimal_bijection, BestBijection, MAX_BIJECTION_DIMENSION};
pub use constant::{
    estimate_nodes, optimal_constant, Optimum, SearchOptions, ESTIMATE_PROBES, MAX_DIMENSION,
};
pub use cuts::Bounds;
pub use one_vector::{decide_vector, VectorAnswer, VectorDecision};
pub use question::{answer, cube_dimension, Answer, DecideBy, Method, Question, Tally, Watch};
pub use vectors::{
    optimal_by_vectors, optimal_by_vectors_admitted, Left, Refuted, Turns, VectorSearch,
};
pub use wirelength::{literature, Literature};
