//! The library's work model ([`topoembed::work`]) at the command line: the
//! estimate's note printed to stderr, a refusal turned into exit code 2.

pub use topoembed::work::{rate, Estimate};

use crate::Failure;

/// Refuses `estimate` beyond the limit unless `force`; says it when long.
/// (`optimal` and `simulate` ask the library's model themselves, see
/// [`topoembed::optimal::answer`] and [`topoembed::workload::check_work`].)
pub fn check(what: &str, estimate: Estimate, force: bool) -> Result<(), Failure> {
    if let Some(note) = topoembed::work::admit(what, estimate, force)? {
        eprintln!("note: {note}");
    }
    Ok(())
}
