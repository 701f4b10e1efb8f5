//! Which way a route goes round a ring when both ways are equally short:
//! the one choice a topology's own routes leave open ([`crate::routing`]
//! re-exports it beside the routing models).

use std::fmt;
use std::str::FromStr;

use crate::error::Error;

/// Which way a ring route goes when both ways are equally short (the
/// destination exactly half way round, as every dimension d-1 edge of the
/// standard embedding on a ring is).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TieRule {
    /// Toward increasing coordinate (the default).
    #[default]
    Increasing,
    /// Toward decreasing coordinate.
    Decreasing,
}

impl fmt::Display for TieRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TieRule::Increasing => "increasing",
            TieRule::Decreasing => "decreasing",
        })
    }
}

impl FromStr for TieRule {
    type Err = Error;
    fn from_str(s: &str) -> Result<TieRule, Error> {
        match s {
            "increasing" => Ok(TieRule::Increasing),
            "decreasing" => Ok(TieRule::Decreasing),
            _ => Err(Error::Parameter(format!(
                "unknown tie rule '{s}'; use 'increasing' or 'decreasing'"
            ))),
        }
    }
}
