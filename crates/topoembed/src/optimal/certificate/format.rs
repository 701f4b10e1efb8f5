//! The certificate file, `DIR/certificate.json`: what the writer puts in
//! it and the verifier reads.

use crate::optimal::bounds::cuts::Bounds;

use super::refuted::Refuted;

/// The format tag of `certificate.json`.
pub const FORMAT: &str = "topoembed-optimal-certificate/1";

/// `DIR/certificate.json`.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Certificate {
    /// [`FORMAT`].
    pub format: String,
    /// `cube:D`.
    pub guest: String,
    /// The ring or torus.
    pub host: String,
    /// The least Σ D_i.
    pub min_sum: u32,
    /// D_0..D_{d−1} of the embedding below, ascending.
    pub distances: Vec<u32>,
    /// Host node of every cube node (first host axis fastest).
    pub map: Vec<u64>,
    /// Σ D_i of xor, for the record.
    pub xor_sum: u32,
    /// The vectors below `min_sum` that the bounds do not rule out, each
    /// with its proof.
    pub refuted: Vec<Refuted>,
    /// How the proofs were made.
    pub solver: String,
    /// The bounds the certificate relies on for the vectors it does not
    /// list (absent in certificates of earlier versions: the counting ones).
    #[serde(default)]
    pub bounds: Bounds,
    /// Set by a search that was stopped: the certificate proves only that
    /// no vector with a smaller sum embeds, and `min_sum` is the best sum
    /// found (xor's or standard's unless the search found better), an
    /// upper bound. Absent: the search completed and `min_sum` is the
    /// least.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lower_bound: Option<u32>,
}
