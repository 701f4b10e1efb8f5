//! The one error type of the library.
//!
//! Every message is meant to be read by a user: it says what was wrong and,
//! where there is one, what would be right.

use thiserror::Error;

/// Library result.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What can go wrong. Every variant except [`Error::Internal`] is the user's
/// input (a spec, a size, a method that does not fit); the CLI maps those to
/// exit code 2.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum Error {
    /// A topology spec could not be parsed or names an impossible size.
    #[error("{0}")]
    Spec(String),
    /// Guest and host do not fit each other or the method (node counts, shapes).
    #[error("{0}")]
    Mismatch(String),
    /// A method name that is not in the registry.
    #[error("unknown method '{name}'; known methods: {known}")]
    UnknownMethod { name: String, known: String },
    /// A method that exists but does not apply to this guest/host pair.
    #[error("method '{method}' does not apply to {guest} -> {host}: {reason}; {applicable}")]
    NotApplicable {
        method: String,
        guest: String,
        host: String,
        reason: String,
        applicable: String,
    },
    /// A numeric parameter out of range (cost model constants and the like).
    #[error("{0}")]
    Parameter(String),
    /// A file could not be read or parsed.
    #[error("{0}")]
    File(String),
    /// A bug: a condition the library guarantees did not hold.
    #[error("internal error: {0}")]
    Internal(String),
}

impl Error {
    /// True when the error comes from what the user gave (exit code 2 in the CLI).
    pub fn is_user_error(&self) -> bool {
        !matches!(self, Error::Internal(_))
    }
}
