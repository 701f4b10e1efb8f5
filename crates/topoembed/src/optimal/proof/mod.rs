//! Proofs: a distance vector's SAT formula ([`sat`], with its DRAT proof
//! when the solver refutes it), the DRUP checker of those proofs ([`drat`],
//! sharing no code with the solver), the symmetry-breaking clauses a core
//! proof cites with their justification ([`shape_clauses`]), and the DRAT
//! proofs of cores ([`core_proofs`]).

pub(in crate::optimal) mod core_proofs;
pub mod drat;
pub mod sat;
pub(in crate::optimal) mod shape_clauses;
