//! What a search by vectors says of a vector it ruled out ([`Refuted`]):
//! how (the branch and bound, a core found before, or a DRAT proof) and with
//! what (nodes, the formula's size, the proof's file) — the entries of a
//! record ([`crate::optimal::run::record`]) and of a certificate's index
//! ([`crate::optimal::certificate`]).

/// One vector ruled out, as a certificate lists it.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq, Eq)]
pub struct Refuted {
    /// D_0..D_{d−1}, ascending.
    pub distances: Vec<u32>,
    /// `search`: the branch and bound, run on this vector alone, found no
    /// embedding (in `search_nodes` nodes); `drat`: the SAT solver refuted
    /// the vector's formula — or its `core`'s — with the proof in `proof`;
    /// `propagation`: unit propagation on the window lemma's band formula
    /// ends in a conflict ([`crate::optimal::search::band_propagation`]; never in a
    /// certificate, whose refutations are all `drat`).
    pub by: String,
    /// Nodes of the branch and bound (`search`).
    #[serde(default)]
    pub search_nodes: u64,
    /// The binary DRAT proof, relative to the certificate directory (`drat`).
    #[serde(default)]
    pub proof: String,
    /// Variables and clauses of the formula (as [`crate::optimal::proof::sat::encode`]
    /// writes it); 0 and 0 when `propagated` (the formula not built).
    pub variables: u32,
    /// Clauses of the formula.
    pub clauses: usize,
    /// Size of the proof file.
    pub proof_bytes: u64,
    /// The formula is the winding lemma's ([`crate::optimal::bounds::windings`]): some
    /// dimensions bound to an axis (absent in earlier certificates).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub windings: bool,
    /// The formula is halved by the halving lemma ([`crate::optimal::bounds::halving`]): the
    /// half of the cube a tight winding pair determines (absent in earlier
    /// certificates).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub halved: bool,
    /// The formula is the window lemma's ([`crate::optimal::bounds::band`]): the folded part
    /// as a bijection onto a band of the torus (absent in earlier
    /// certificates).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub banded: bool,
    /// Unit propagation on the window lemma's band formula refuted it
    /// before any search ([`crate::optimal::search::band_propagation`]); with `drat`, the
    /// proof is the empty clause alone (absent in earlier certificates).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub propagated: bool,
    /// The formula is the slack window's ([`crate::optimal::bounds::pin`]): half the cube
    /// pinned to a window along an axis (absent in earlier certificates).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pinned: bool,
    /// The distances (ascending) of a sub-cube that embeds nowhere in the
    /// host — the branch and bound placed every embedding of the sub-cube
    /// of the first |core| distances it searched (the vector's, or a
    /// probe's: [`crate::optimal::search::cores`]) and none left room for the next (absent:
    /// the whole vector). Every vector holding these distances is refuted
    /// with it: its dimensions with them span that sub-cube. A vector
    /// refuted by the core of an earlier one has `search_nodes` 0. With
    /// `drat` (a certificate by the branch and bound), `proof` is the
    /// proof of this core's formula ([`crate::optimal::proof::core_proofs`]), not of the
    /// vector's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub core: Vec<u32>,
}

impl Refuted {
    /// `distances` refuted by the branch and bound in `nodes` nodes, which
    /// found no embedding of the sub-cube of the first `core` dimensions.
    pub(in crate::optimal) fn by_search(distances: &[u32], nodes: u64, core: usize) -> Refuted {
        let core = if core < distances.len() {
            distances[..core].to_vec()
        } else {
            Vec::new()
        };
        Refuted {
            core,
            distances: distances.to_vec(),
            by: "search".to_string(),
            search_nodes: nodes,
            proof: String::new(),
            variables: 0,
            clauses: 0,
            proof_bytes: 0,
            windings: false,
            halved: false,
            banded: false,
            pinned: false,
            propagated: false,
        }
    }

    /// `distances` refuted by `core`, a sub-cube refuted before (see
    /// [`Refuted::core`]).
    pub(in crate::optimal) fn by_core(distances: &[u32], core: &[u32]) -> Refuted {
        Refuted {
            core: core.to_vec(),
            ..Refuted::by_search(distances, 0, distances.len())
        }
    }
}

/// The first refutation citing each proof file, in order (a core's proof
/// is cited by every vector the core refutes); those with no proof file
/// are left out.
pub fn distinct_proofs(refuted: &[Refuted]) -> impl Iterator<Item = &Refuted> {
    let mut seen = std::collections::HashSet::new();
    refuted
        .iter()
        .filter(move |r| !r.proof.is_empty() && seen.insert(r.proof.as_str()))
}

/// Whether `dims` hold every entry of `part`, as multisets (any order).
pub(in crate::optimal) fn holds_multiset(dims: &[u32], part: &[u32]) -> bool {
    let mut left = dims.to_vec();
    part.iter().all(|x| match left.iter().position(|y| y == x) {
        Some(i) => {
            left.swap_remove(i);
            true
        }
        None => false,
    })
}
