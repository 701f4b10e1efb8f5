//! The exact searches:
//!
//! * [`constant`]: the branch and bound over constant-distance embeddings
//!   (placements extended node by node, [`copies`] and [`ahead`] keeping a
//!   sub-cube's copy consistent, [`shapes`] skipping placements of the same
//!   shape);
//! * [`vectors`]: the search by distance vectors in increasing Σ D_i, each
//!   decided in [`turns`] by the branch and bound, a [`core_search`], the
//!   window lemma's [`band_propagation`] or the SAT solver, in the order
//!   [`queue`] gives, sub-cubes that embed nowhere kept as [`cores`];
//!   [`one_vector`] decides one vector alone;
//! * [`bijection`]: the least CC time over all bijections, waiting included.
//!
//! The certificate checker imports nothing from here.

pub(in crate::optimal) mod ahead;
pub(in crate::optimal) mod band_propagation;
pub mod bijection;
mod branch;
pub mod constant;
pub(in crate::optimal) mod copies;
pub(in crate::optimal) mod core_search;
pub(in crate::optimal) mod cores;
pub(in crate::optimal) mod faces;
pub mod one_vector;
pub(in crate::optimal) mod queue;
pub(in crate::optimal) mod shapes;
pub(in crate::optimal) mod turns;
pub mod vectors;
