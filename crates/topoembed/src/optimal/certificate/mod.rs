//! Certificates of `topoembed optimal --certificate DIR`, and their check
//! (`topoembed verify-certificate DIR`) without trusting the search.
//!
//! `DIR/certificate.json` holds the optimum (Σ D_i, distances and the host
//! node of every cube node) and the vectors refuted below it, each with a
//! binary DRAT proof under `DIR/proofs/`. The check:
//! 1. the embedding is a bijection onto the host whose every edge of
//!    dimension i has the same length, and those lengths add up to the
//!    claimed optimum (distances recomputed here from coordinates);
//! 2. every ascending vector with a smaller sum (in the certificate of a
//!    stopped search: below its `lower_bound`, which is all it proves) is
//!    either ruled out by the
//!    bounds the certificate names ([`Bounds`](crate::optimal::bounds::cuts::Bounds)) — recomputed here, from
//!    their definitions, with code of its own — or listed as refuted:
//!    * `counting`: a sub-cube of j dimensions has 2^j distinct images
//!      whose distances from one of them add up to at most 2^(j−1)·R and at
//!      least the 2^j smallest distances, and that lie in one ellipse of
//!      string R (R the sum of its distances);
//!    * `small-cubes`: also, every pair and triple of the distances embeds
//!      as a 2- or 3-cube (an exhaustive search of its own, below);
//!    * `all`: also the axis lemmas, proved in [`crate::optimal::bounds::cuts`]: for every
//!      side k, a vector whose two largest entries add up to less than k/2
//!      has Σ ≥ k − 1; for every two sides k_a, k_b, one whose two largest
//!      add up to less than min(k_a, k_b)/2 has 4Σ ≥ 3(k_a + k_b − 2);
//!    * `lift`: instead, the lift lemma, proved in [`crate::optimal::bounds::cuts`]: for
//!      every side k, a vector whose two largest entries add up to less
//!      than k/2 has Σ ≥ k − 1 + Σ ⌊k_b/2⌋ over the other sides; and the
//!      winding cocycle ([`crate::optimal::bounds::cocycle`]), decided by that module's
//!      own search, which the check runs again (it is trusted as the
//!      lemma is);
//! 3. every listed refutation's proof is checked by [`crate::optimal::proof::drat`] against
//!    the formula [`crate::optimal::proof::sat::encode`] writes for the vector — or, for a
//!    refutation naming a `core` (a certificate written with the branch
//!    and bound: [`crate::optimal::proof::core_proofs`]), against the core's formula
//!    ([`crate::optimal::proof::sat::core_formula`]: the sub-cube of those distances placed
//!    one to one, with the lex-leader clauses the proof cites in the
//!    `.shapes` file beside it, each checked by
//!    [`crate::optimal::proof::shape_clauses::check`]), once per core, after checking that
//!    the vector holds the core's distances — with the
//!    winding lemma's axes when the refutation says `windings`, halved by
//!    the halving lemma when it says `halved`, or the window lemma's band
//!    formula ([`crate::optimal::bounds::band::encode`]) when it says `banded`, with half
//!    the cube pinned to a window ([`crate::optimal::bounds::pin`]) when it says `pinned`
//!    (`--dimacs`
//!    writes those formulas out, for drat-trim or any other checker) — or,
//!    with [`CheckOptions::checker`], by an external DRAT checker (such as
//!    `rate`, a backward checker that checks only the lemmas the refutation
//!    uses) on those formulas.
//!
//! What is trusted: the encoding (one short function, whose clauses say
//! "f(0) = 0, f(1) on one node per orbit of the symmetries fixing 0, a
//! bijection, every edge of dimension i D_i long"; for a core, one to one
//! instead of a bijection, and the unit vectors' images of two dimensions
//! of equal distance in ascending order), the DRUP checker (or
//! the external one named), and,
//! in an `all` or `lift` certificate, the lemmas' proofs (in a `lift` one,
//! the winding cocycle's search too); in a refutation marked
//! `windings`, the winding lemma's ([`crate::optimal::bounds::windings`]); in one marked
//! `halved`, the halving lemma's ([`crate::optimal::bounds::halving`]); in one marked
//! `banded`, the window lemma's ([`crate::optimal::bounds::band`]); in one marked `pinned`,
//! the slack window's ([`crate::optimal::bounds::pin`]).

mod format;
pub(in crate::optimal) mod refuted;
mod verify;
mod write;

pub use format::{Certificate, FORMAT};
pub use verify::{verify, verify_with, CheckOptions, Verified, BUILT_IN};
pub use write::write;
