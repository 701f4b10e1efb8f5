//! Placements built outside the search (closed forms for a grid found in
//! the guest, the launch order) that the mapper weighs against it or
//! refines instead of it.

use super::renumber::Renumbering;

/// A placement built elsewhere (a closed form for a guest found to be a
/// grid) that the mapper weighs against its own search.
#[derive(Debug, Clone)]
pub struct Start {
    /// What built it (`axes on torus:64x64`).
    pub name: String,
    /// Host node of every guest node.
    pub hosts: Vec<u64>,
    /// Built by a closed form for the guest's structure (a grid found in
    /// it): on a large guest such a start is refined instead of a search
    /// from scratch; another (the launch order) is only weighed.
    pub closed_form: bool,
    /// A closed form of the grid under a 9- or 27-point stencil, found as
    /// its skeleton ([`super::recognize::stencil_backbone`]), that puts no
    /// edge more hops apart than that grid does ([`super::defaults`]'s `refined_instead`).
    pub non_expanding: bool,
    /// A closed form of a grid found under a 9- or 27-point stencil's
    /// diagonals (not the guest itself).
    pub under_diagonals: bool,
    /// The axes of more than one node of the grid found in the guest that
    /// a closed form was built for (0 for any other start): a grid of
    /// fewer axes than the host folds onto it ([`super::defaults`]'s
    /// `refined_instead`).
    pub grid_axes: usize,
    /// A grid cut by a tleaf's levels (`embed/nested.rs`): refined
    /// instead of a search there where its boxes are all alike or the
    /// guest is large ([`super::defaults`]'s `refined_instead`).
    pub by_levels: bool,
    /// That cut's boxes all alike, every cut a plane.
    pub even_levels: bool,
    /// Boxes cut for the host's shape (strung along a ring, columns under
    /// a host of fewer axes), not among the fewest cut edges: weighed
    /// after the search, never refined instead of it by the rules that
    /// trust a closed form's cut ([`super::defaults`]'s `refined_instead`).
    pub weighed_only: bool,
    /// Pieces that are not boxes (a product's sectors,
    /// `embed/product.rs`): FM and flows gain little on them where they
    /// gain much on a box cut's slabs, so the best start of boxes is
    /// weighed beside it.
    pub irregular: bool,
}

impl Start {
    /// A start named `name` placing guest node v on `hosts[v]`; `closed_form`
    /// as the field says, every rule's flag unset (the grid's are set by
    /// `embed/structured.rs` once its starts are built).
    pub fn new(name: String, hosts: Vec<u64>, closed_form: bool) -> Start {
        Start {
            name,
            hosts,
            closed_form,
            non_expanding: false,
            under_diagonals: false,
            grid_axes: 0,
            by_levels: false,
            even_levels: false,
            weighed_only: false,
            irregular: false,
        }
    }

    /// The same start on the guest renumbered by `renumbering`.
    pub fn renumbered(&self, renumbering: &Renumbering) -> Start {
        Start {
            name: self.name.clone(),
            hosts: renumbering.forward(&self.hosts),
            ..*self
        }
    }
}
