//! Embeddings and the method registry.
//!
//! A *method* is a named construction that turns a (guest, host) pair into an
//! [`Embedding`]. Each family lives in a file of its own; adding one is a new
//! file plus one line in [`METHODS`].

mod box_cuts;
mod byweight;
mod gray;
pub mod grid;
mod identity;
mod inside;
pub mod mapped;
pub mod mesh_to_cube;
mod nested;
mod product;
mod standard;
mod structured;
pub mod tree;
mod xor;

pub use byweight::ByWeight;
pub use gray::FieldGray;
pub use identity::Identity;
pub use xor::Xor;

use crate::error::{Error, Result};
use crate::topology::Topology;

/// A map from guest nodes to host nodes.
pub trait Embedding: Send + Sync {
    /// The method that built it.
    fn method(&self) -> &'static str;
    /// The host node of guest node `guest`.
    fn map(&self, guest: u64) -> u64;
    /// `out[k] = map(guest[k])`; one virtual call maps a whole batch.
    fn map_many(&self, guest: &[u64], out: &mut [u64]) {
        for (o, &g) in out.iter_mut().zip(guest) {
            *o = self.map(g);
        }
    }
    /// The guest node placed on host node `host`, for one-to-one embeddings
    /// (`None` when no guest node is there).
    fn inverse(&self, host: u64) -> Option<u64>;
    /// A proven bound on the dilation, for methods that come with one.
    fn dilation_bound(&self) -> Option<DilationBound> {
        None
    }
    /// What the method chose and why (a cut, a strategy), for the reader.
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }
    /// Mesh guests placed axis by axis, each axis in a bit field of its own
    /// (the metrics then factor over the axes).
    fn per_axis(&self) -> Option<&dyn PerAxis> {
        None
    }
    /// Cube guests on grids with power-of-two sides: true when host
    /// coordinate j of f(n) depends only on the cube bits of axis j's field
    /// of n (the fields in host order, axis 1 in the low bits), as for xor
    /// and the standard embedding. Routed loads then factor over the axes
    /// ([`crate::traffic`]).
    fn axis_product(&self) -> bool {
        false
    }
    /// Which of the journal's closed forms (xor paper §4) this embedding
    /// has, where the guest and host allow them
    /// ([`crate::closed_form::journal`]); most have none.
    fn journal(&self) -> Option<crate::closed_form::Journal> {
        None
    }
}

/// A map of a mesh into a cube whose label is the OR of one function per
/// mesh axis, each writing its own bit field: f(x) = f_1(x_1) | f_2(x_2) | ..
pub trait PerAxis {
    /// Where axis `axis`'s field starts in a node label, and its width.
    fn field(&self, axis: usize) -> (u32, u32);
    /// The field value of element `x` of axis `axis` (not shifted).
    fn image(&self, axis: usize, x: u64) -> u64;
}

/// A method's bound on its dilation, with the paper's form where that differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DilationBound {
    /// The bound that holds.
    pub holds: u64,
    /// The bound as the source prints it.
    pub printed: u64,
    /// Where the bound comes from.
    pub source: &'static str,
}

/// Why a method does not apply to a pair; becomes [`Error::NotApplicable`].
pub type NotApplicable = String;

/// How a mesh axis is cut into segments (Ho & Johnsson's `split`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Partition {
    /// Runs of consecutive elements, lengths as equal as possible.
    #[default]
    Consecutive,
    /// Element x in segment x mod (number of segments).
    Cyclic,
}

/// What `auto` optimises first (Ho & Johnsson §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Objective {
    /// Least load factor (then dilation).
    Load,
    /// Dilation 1, then the least load factor.
    Dilation,
    /// Least congestion with every node used, dilation 1.
    Congestion,
}

/// Options of the methods that take any; [`build_with`] refuses an option
/// given to a method that does not take it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Params {
    /// `split`: consecutive or cyclic segments.
    pub partition: Partition,
    /// `split`: axes with 4 or more dimensions go round edge-disjoint
    /// Hamiltonian cycles (Theorem 4).
    pub hamiltonian: bool,
    /// `auto`: what to optimise (default: load).
    pub objective: Option<Objective>,
}

impl Params {
    /// The options set to something other than their default.
    pub fn given(&self) -> Vec<&'static str> {
        let mut given = Vec::new();
        if self.partition != Partition::Consecutive {
            given.push("partition");
        }
        if self.hamiltonian {
            given.push("hamiltonian");
        }
        if self.objective.is_some() {
            given.push("objective");
        }
        given
    }
}

/// Signature of a method's constructor.
pub type Build =
    fn(&dyn Topology, &dyn Topology, &Params) -> Result<Box<dyn Embedding>, NotApplicable>;

/// A registry entry: what a method is for and how to build it.
pub struct Method {
    /// Name used on the command line (`--method xor`).
    pub name: &'static str,
    /// Guest kinds it takes.
    pub guest: &'static str,
    /// Host kinds it takes.
    pub host: &'static str,
    /// Conditions on sizes, checked by `build`.
    pub preconditions: &'static str,
    /// One line on what it does and where it comes from.
    pub summary: &'static str,
    /// The [`Params`] it takes (`partition`, `hamiltonian`, `objective`).
    pub options: &'static [&'static str],
    /// Constructor: the embedding, or the reason the method does not apply.
    pub build: Build,
}

/// Every method, in the order `compare` lists them.
pub static METHODS: &[Method] = &[
    standard::METHOD,
    xor::METHOD,
    byweight::METHOD,
    gray::METHOD,
    identity::METHOD,
    grid::SNAKE,
    grid::FOLD,
    grid::AXES,
    tree::LEVELS,
    tree::INORDER,
    mesh_to_cube::SPLIT,
    mesh_to_cube::RESHAPE,
    mesh_to_cube::COMBINE,
    mesh_to_cube::RECURSIVE,
    mesh_to_cube::AUTO,
    mapped::METHOD,
];

/// Looks a method up by name.
pub fn method(name: &str) -> Result<&'static Method> {
    METHODS
        .iter()
        .find(|m| m.name == name)
        .ok_or_else(|| Error::UnknownMethod {
            name: name.to_string(),
            known: METHODS
                .iter()
                .map(|m| m.name)
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// The methods that apply to a pair, with their embeddings (default options).
pub fn applicable(
    guest: &dyn Topology,
    host: &dyn Topology,
) -> Vec<(&'static Method, Box<dyn Embedding>)> {
    applicable_with(guest, host, &Params::default())
}

/// Methods that search instead of constructing: named explicitly
/// (`--method map`, `topoembed map`), never tried by [`applicable`], which
/// `compare` and every error message call — a search there would cost
/// seconds and it applies to every pair.
pub const SEARCHING: &[&str] = &["map"];

/// The constructing methods that apply to a pair with options `params`.
pub fn applicable_with(
    guest: &dyn Topology,
    host: &dyn Topology,
    params: &Params,
) -> Vec<(&'static Method, Box<dyn Embedding>)> {
    constructed(|m| (m.build)(guest, host, params))
}

/// The constructing methods that apply to a pair, as the mapper's starts
/// ([`structured`]): [`applicable`]'s, but `axes` takes its plan of least
/// mean hop from the closed forms, unrouted ([`grid::search::Request::routed`]):
/// the mapper weighs every start by hop-bytes alone, and routing the
/// finalists of a 16x16x16 box grid cost 1.6 s a grid on one thread (three
/// of them for the 10^6-vertex stencil onto torus:16x16x16).
pub(crate) fn applicable_as_starts(
    guest: &dyn Topology,
    host: &dyn Topology,
) -> Vec<(&'static Method, Box<dyn Embedding>)> {
    let params = Params::default();
    constructed(|m| match m.name == grid::AXES.name {
        true => grid::axes_least_mean_hop(guest, host),
        false => (m.build)(guest, host, &params),
    })
}

/// Every constructing method (not [`SEARCHING`]) that `build` builds.
fn constructed(
    build: impl Fn(&Method) -> Result<Box<dyn Embedding>, NotApplicable>,
) -> Vec<(&'static Method, Box<dyn Embedding>)> {
    METHODS
        .iter()
        .filter(|m| !SEARCHING.contains(&m.name))
        .filter_map(|m| build(m).ok().map(|e| (m, e)))
        .collect()
}

/// Builds method `name` for the pair with default options.
pub fn build(name: &str, guest: &dyn Topology, host: &dyn Topology) -> Result<Box<dyn Embedding>> {
    build_with(name, guest, host, &Params::default())
}

/// Builds method `name` for the pair, with an error that says why not and
/// what would work instead.
pub fn build_with(
    name: &str,
    guest: &dyn Topology,
    host: &dyn Topology,
    params: &Params,
) -> Result<Box<dyn Embedding>> {
    let m = method(name)?;
    if let Some(option) = params.given().into_iter().find(|o| !m.options.contains(o)) {
        let takers: Vec<&str> = METHODS
            .iter()
            .filter(|t| t.options.contains(&option))
            .map(|t| t.name)
            .collect();
        return Err(Error::Parameter(format!(
            "--{option} does not apply to method '{name}'; it is an option of {}",
            takers.join(", ")
        )));
    }
    (m.build)(guest, host, params).map_err(|reason| {
        let names: Vec<&str> = applicable(guest, host)
            .iter()
            .map(|(m, _)| m.name)
            .collect();
        if guest.node_count() != host.node_count() && names.is_empty() {
            return node_count_mismatch(guest, host);
        }
        Error::NotApplicable {
            method: name.to_string(),
            guest: guest.spec().to_string(),
            host: host.spec().to_string(),
            reason,
            applicable: match names.len() {
                0 => "no method applies to this pair".to_string(),
                _ => format!("methods that apply: {}", names.join(", ")),
            },
        }
    })
}

/// "cube:6 has 64 nodes but torus:8x4 has 32; use ... torus:8x8".
pub fn node_count_mismatch(guest: &dyn Topology, host: &dyn Topology) -> Error {
    let (g, h) = (guest.node_count(), host.node_count());
    let mut text = format!(
        "{} has {g} nodes but {} has {h}; the methods here are one-to-one",
        guest.spec(),
        host.spec()
    );
    if let Some(fit) = host_of_size(host, g) {
        text.push_str(&format!(", so try {fit}"));
    }
    Error::Mismatch(text)
}

/// A host of the same family as `host` with `nodes` nodes, when one is easy to
/// name: same number of axes, power-of-two sides as equal as possible.
fn host_of_size(host: &dyn Topology, nodes: u64) -> Option<String> {
    use crate::spec::Spec;
    let spec = host.spec();
    match spec {
        Spec::Cube(_) => nodes
            .is_power_of_two()
            .then(|| format!("cube:{}", nodes.trailing_zeros())),
        Spec::Ring(_) => Some(format!("ring:{nodes}")),
        Spec::Line(_) => Some(format!("line:{nodes}")),
        Spec::Torus(s) | Spec::Mesh(s) if nodes.is_power_of_two() => {
            let bits = nodes.trailing_zeros() as usize;
            let axes = s.len();
            let sides: Vec<String> = (0..axes)
                .map(|k| (1u64 << (bits / axes + usize::from(k < bits % axes))).to_string())
                .collect();
            Some(format!("{}:{}", spec.kind(), sides.join("x")))
        }
        _ => None,
    }
}

/// Shared precondition: equal node counts.
fn same_node_count(guest: &dyn Topology, host: &dyn Topology) -> Result<(), NotApplicable> {
    if guest.node_count() == host.node_count() {
        Ok(())
    } else {
        Err(format!(
            "guest has {} nodes, host has {}",
            guest.node_count(),
            host.node_count()
        ))
    }
}
