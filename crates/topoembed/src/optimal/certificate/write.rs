//! Writing a certificate from a finished (or stopped) search by vectors.

use std::path::Path;

use super::format::{Certificate, FORMAT};
use crate::error::{Error, Result};
use crate::optimal::search::vectors::VectorSearch;

/// Writes `DIR/certificate.json` for a search by vectors; for a stopped
/// one, a certificate of its lower bound (see [`Certificate::lower_bound`]).
pub fn write(dir: &Path, search: &VectorSearch) -> Result<()> {
    let o = &search.optimum;
    let c = Certificate {
        format: FORMAT.to_string(),
        guest: o.guest.clone(),
        host: o.host.clone(),
        min_sum: o.min_sum,
        distances: o.distances.clone(),
        map: o.map.clone(),
        xor_sum: o.xor_sum,
        refuted: search.refuted.clone(),
        solver: "varisat 0.2, binary DRAT".to_string(),
        bounds: search.bounds,
        lower_bound: (!o.proved).then_some(o.lower_bound),
    };
    let path = dir.join("certificate.json");
    let text = serde_json::to_string_pretty(&c).map_err(|e| Error::File(e.to_string()))?;
    std::fs::write(&path, text)
        .map_err(|e| Error::File(format!("{}: cannot write: {e}", path.display())))
}
