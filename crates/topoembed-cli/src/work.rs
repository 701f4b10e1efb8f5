//! The library's work model ([`topoembed::work`]) at the command line: the
//! estimate's note printed to stderr, a refusal turned into exit code 2.

pub use topoembed::work::{rate, Estimate};

use crate::Failure;

/// Whether `estimate` passes the limit.
pub fn exceeds(estimate: Estimate) -> Result<bool, Failure> {
    Ok(topoembed::work::exceeds(estimate)?)
}

/// Refuses `estimate` beyond the limit unless `force`; says it when long.
/// (`optimal` asks the library's model itself, see
/// [`topoembed::optimal::answer`].)
pub fn check(what: &str, estimate: Estimate, force: bool) -> Result<(), Failure> {
    if let Some(note) = topoembed::work::admit(what, estimate, force)? {
        eprintln!("note: {note}");
    }
    Ok(())
}
