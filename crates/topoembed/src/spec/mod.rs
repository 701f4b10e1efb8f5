//! Topology specs: one syntax for the CLI, files and tests (DESIGN.md).
//!
//! `cube:D` · `ring:N` · `line:N` · `torus:K1xK2x..` · `mesh:K1xK2x..` ·
//! `grid:K1[w]xK2[w]x..` (a `w` after a side: that axis wraps around) ·
//! `bintree:P` · `tleaf:N1xN2x..:C1,C2,..` (a machine hierarchy, Scotch's
//! `tleaf`: N1 nodes of N2 sockets of .., the cost of each level, summed from
//! the level where two leaves part) · `fattree:L;D1,..;U1,..;P1,..` and
//! `dragonfly:G,GL;C,CL;R,RL;N` (SimGrid's `FAT_TREE` and `DRAGONFLY`
//! clusters, [`network`]) · `graph:PATH`. Sizes are whole numbers or powers written
//! `2^k` (`ring:2^10` is `ring:1024`).

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use crate::error::{Error, Result};

mod allocation;
mod network;

pub use allocation::{
    check_allocation, parse_allocation, ranges, read_allocation, AllocationNodes,
    MAX_ALLOCATION_NODES,
};
pub(crate) use network::pairs;
pub use network::{DragonflyShape, FatTreeShape, MAX_NETWORK_LINKS};

/// Most leaves of a tleaf hierarchy (its pairs are its links).
pub const MAX_TLEAF_LEAVES: u64 = 1 << 24;

/// The largest number of nodes any topology may have: 2^40, the size of `cube:40`.
/// Node ids are `u64`, and 2^40 keeps every edge count and dilation sum far from overflow.
pub const MAX_NODES: u64 = 1 << 40;

/// The largest hypercube dimension accepted.
pub const MAX_CUBE_DIM: u32 = 40;

const KINDS_HELP: &str = "use one of cube:D, ring:N, line:N, torus:K1xK2.., mesh:K1xK2.., \
     grid:K1wxK2.. (w: that axis wraps), bintree:P, tleaf:N1xN2..:C1,C2.., fattree:L;D1,..;U1,..;P1,.., dragonfly:G,GL;C,CL;R,RL;N, \
     hwloc:FILE.xml, slurm:topology.conf, graph:PATH (NETWORK*NODE: a network of nodes; a host \
     may end in @NODES: an allocation)";

/// The leaves of an hwloc node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HwlocLeaves {
    /// Hardware threads (hwloc's PU objects).
    Pus,
    /// Cores (a core's hardware threads are one leaf).
    Cores,
}

/// A parsed topology spec. `ring:N` and `line:N` stay distinct from the one-axis
/// `torus:N` / `mesh:N` only for display; [`Spec::grid`] treats them alike.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Spec {
    /// Hypercube Q_D with 2^D nodes.
    Cube(u32),
    /// Ring (one-axis torus) of N nodes.
    Ring(u64),
    /// Line (one-axis mesh) of N nodes.
    Line(u64),
    /// Torus: wrap-around on every axis. Axis 1 first.
    Torus(Vec<u64>),
    /// Mesh: no wrap-around. Axis 1 first.
    Mesh(Vec<u64>),
    /// Grid whose axes differ in wrap-around (a TPU slice may wrap some axes
    /// only): sides and, per axis, whether it wraps. Axis 1 first. Built by
    /// [`Spec::grid_of`], which keeps the uniform cases as torus / mesh.
    Grid(Vec<u64>, Vec<bool>),
    /// Complete binary tree with P leaves (2P-1 nodes), P a power of two.
    BinTree(u64),
    /// A machine hierarchy (Scotch's `tleaf`): `sizes[i]` children per node
    /// of level i, top level first (nodes, sockets, cores), and `costs[i]`
    /// the cost of level i. Two leaves that part at level i (same ancestor
    /// above, different ones at i) are `costs[i] + costs[i+1] + ..` apart,
    /// as Scotch measures it (`tleaf 3 8 100 8 10 4 1`: 1, 11, 111).
    Tleaf(Vec<u64>, Vec<u64>),
    /// A fat tree of switches, routed as SimGrid routes its `FAT_TREE`
    /// clusters; host nodes are the leaves.
    FatTree(FatTreeShape),
    /// A dragonfly of routers, routed as SimGrid routes its `DRAGONFLY`
    /// clusters; host nodes hang off the routers.
    Dragonfly(DragonflyShape),
    /// A graph stored in a file.
    Graph(PathBuf),
    /// One node as hwloc describes it: `hwloc:FILE.xml` (written by
    /// `lstopo --of xml`), `hwloc:` this machine; `hwloc:cores:..` takes
    /// the cores as the leaves instead of the hardware threads.
    Hwloc(Option<PathBuf>, HwlocLeaves),
    /// A cluster as Slurm's `topology.conf` or `topology.yaml` describes
    /// it (`slurm:FILE`, `slurm:topology.yaml#NAME` for one of a yaml's
    /// topologies): its nodes, by name, in the order the file names them.
    Slurm(PathBuf, Option<String>),
    /// A network of nodes, `NETWORK*NODE`: every node of the network holds
    /// a NODE (`fattree:..*hwloc:node.xml`, `torus:4x4*tleaf:2x8:10,1`).
    Nodes(Box<Spec>, Box<Spec>),
    /// Some nodes of a host, in the order they become nodes 0..n−1, with
    /// the whole host's distances and routes (`HOST@0-15,32`, `HOST@FILE`).
    Allocation(Box<Spec>, AllocationNodes),
}

impl Spec {
    /// The kind word of the spec (`cube`, `ring`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            Spec::Cube(_) => "cube",
            Spec::Ring(_) => "ring",
            Spec::Line(_) => "line",
            Spec::Torus(_) => "torus",
            Spec::Mesh(_) => "mesh",
            Spec::Grid(..) => "grid",
            Spec::BinTree(_) => "bintree",
            Spec::Tleaf(..) => "tleaf",
            Spec::FatTree(_) => "fattree",
            Spec::Dragonfly(_) => "dragonfly",
            Spec::Graph(_) => "graph",
            Spec::Allocation(..) => "allocation",
            Spec::Hwloc(..) => "hwloc",
            Spec::Slurm(..) => "slurm",
            Spec::Nodes(..) => "nodes",
        }
    }

    /// Sides of the grid family (ring, line, torus, mesh, mixed grid), axis 1 first.
    pub fn sides(&self) -> Option<&[u64]> {
        match self {
            Spec::Ring(n) | Spec::Line(n) => Some(std::slice::from_ref(n)),
            Spec::Torus(s) | Spec::Mesh(s) | Spec::Grid(s, _) => Some(s),
            _ => None,
        }
    }

    /// Sides and, per axis, wrap-around, for the grid family.
    pub fn grid(&self) -> Option<(&[u64], Vec<bool>)> {
        let sides = self.sides()?;
        let wraps = match self {
            Spec::Grid(_, w) => w.clone(),
            Spec::Ring(_) | Spec::Torus(_) => vec![true; sides.len()],
            _ => vec![false; sides.len()],
        };
        Some((sides, wraps))
    }

    /// `Some(true)` for rings and tori, `Some(false)` for lines and meshes,
    /// `None` for mixed grids and the other kinds.
    pub fn uniform_wrap(&self) -> Option<bool> {
        match self {
            Spec::Ring(_) | Spec::Torus(_) => Some(true),
            Spec::Line(_) | Spec::Mesh(_) => Some(false),
            _ => None,
        }
    }

    /// The grid spec of `sides` with wrap-around `wraps` per axis, in its
    /// plainest form: ring / line for one axis, torus / mesh when every axis
    /// agrees, a mixed [`Spec::Grid`] otherwise.
    ///
    /// # Panics
    /// If `sides` is empty or the lengths differ.
    pub fn grid_of(sides: Vec<u64>, wraps: Vec<bool>) -> Spec {
        assert!(!sides.is_empty() && sides.len() == wraps.len());
        let all = wraps.iter().all(|&w| w);
        let none = !wraps.iter().any(|&w| w);
        match (sides.len(), all, none) {
            (1, true, _) => Spec::Ring(sides[0]),
            (1, _, _) => Spec::Line(sides[0]),
            (_, true, _) => Spec::Torus(sides),
            (_, _, true) => Spec::Mesh(sides),
            _ => Spec::Grid(sides, wraps),
        }
    }

    /// Hosts whose nodes are the leaves of a hierarchy, numbered with the
    /// lowest level fastest and with [`crate::topology::Topology::coords`]
    /// the index under each level, top level first: tleaf hierarchies, fat
    /// trees (two host nodes are farther apart the higher their nearest
    /// common switch) and dragonflies (group, chassis, router, node). The
    /// mapper splits them top level first.
    pub fn is_hierarchy(&self) -> bool {
        match self {
            Spec::Tleaf(..)
            | Spec::FatTree(_)
            | Spec::Dragonfly(_)
            | Spec::Hwloc(..)
            | Spec::Nodes(..) => true,
            Spec::Allocation(host, _) => host.is_hierarchy(),
            _ => false,
        }
    }

    /// Grids: rings, lines, tori, meshes, mixed grids and cubes (the hosts
    /// the closed-form placements are built for).
    pub fn is_grid(&self) -> bool {
        matches!(
            self,
            Spec::Cube(_)
                | Spec::Ring(_)
                | Spec::Line(_)
                | Spec::Torus(_)
                | Spec::Mesh(_)
                | Spec::Grid(..)
        )
    }

    /// Hosts without links of their own (a tleaf's levels are costs), and
    /// allocations of them: no congestion to count.
    pub fn has_no_links(&self) -> bool {
        match self {
            Spec::Tleaf(..) | Spec::Hwloc(..) | Spec::Slurm(..) => true,
            Spec::Allocation(host, _) | Spec::Nodes(host, _) => host.has_no_links(),
            _ => false,
        }
    }

    /// `HOST@NODES` with `host` already parsed (a Scotch target file, say).
    pub fn allocation(host: Spec, nodes: &str) -> Result<Spec> {
        if matches!(host, Spec::Allocation(..)) {
            return Err(Error::Spec(format!(
                "'{host}@{nodes}': an allocation of an allocation; list the host's own node ids \
                 after one '@'"
            )));
        }
        let whole = format!("{host}@{nodes}");
        Ok(Spec::Allocation(
            Box::new(host),
            AllocationNodes::parse(&whole, nodes)?,
        ))
    }

    /// Hosts whose links join switches or routers, not host nodes (fat
    /// trees, dragonflies): their routes are the network's
    /// ([`crate::topology::Topology::network`]).
    pub fn is_switched(&self) -> bool {
        matches!(self, Spec::FatTree(_) | Spec::Dragonfly(_))
    }

    /// Node count, for every kind except `graph:` (which needs the file).
    pub fn node_count(&self) -> Option<u64> {
        match self {
            Spec::Cube(d) => Some(1u64 << d),
            Spec::BinTree(p) => Some(2 * p - 1),
            Spec::Tleaf(sizes, _) => Some(sizes.iter().product()),
            Spec::FatTree(shape) => Some(shape.leaves()),
            Spec::Dragonfly(shape) => Some(shape.leaves()),
            Spec::Graph(_) => None,
            Spec::Allocation(_, AllocationNodes::Listed(nodes)) => Some(nodes.len() as u64),
            Spec::Allocation(_, AllocationNodes::File(_)) => None,
            Spec::Hwloc(..) | Spec::Slurm(..) => None,
            Spec::Nodes(network, node) => network
                .node_count()
                .zip(node.node_count())
                .and_then(|(a, b)| a.checked_mul(b)),
            _ => self.sides().map(|s| s.iter().product()),
        }
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let join = |s: &[u64]| s.iter().map(u64::to_string).collect::<Vec<_>>().join("x");
        match self {
            Spec::Cube(d) => write!(f, "cube:{d}"),
            Spec::Ring(n) => write!(f, "ring:{n}"),
            Spec::Line(n) => write!(f, "line:{n}"),
            Spec::Torus(s) => write!(f, "torus:{}", join(s)),
            Spec::Mesh(s) => write!(f, "mesh:{}", join(s)),
            Spec::Grid(s, w) => {
                let axes: Vec<String> = s
                    .iter()
                    .zip(w)
                    .map(|(side, &wraps)| format!("{side}{}", if wraps { "w" } else { "" }))
                    .collect();
                write!(f, "grid:{}", axes.join("x"))
            }
            Spec::BinTree(p) => write!(f, "bintree:{p}"),
            Spec::Tleaf(sizes, costs) => {
                let costs: Vec<String> = costs.iter().map(u64::to_string).collect();
                write!(f, "tleaf:{}:{}", join(sizes), costs.join(","))
            }
            Spec::FatTree(shape) => write!(f, "fattree:{}", network::fat_tree_body(shape)),
            Spec::Dragonfly(shape) => write!(f, "dragonfly:{}", network::dragonfly_body(shape)),
            Spec::Graph(p) => write!(f, "graph:{}", p.display()),
            Spec::Allocation(host, nodes) => write!(f, "{host}@{nodes}"),
            Spec::Nodes(network, node) => write!(f, "{network}*{node}"),
            Spec::Slurm(path, None) => write!(f, "slurm:{}", path.display()),
            Spec::Slurm(path, Some(name)) => write!(f, "slurm:{}#{name}", path.display()),
            Spec::Hwloc(path, leaves) => {
                let cores = if *leaves == HwlocLeaves::Cores {
                    "cores:"
                } else {
                    ""
                };
                let path = path
                    .as_ref()
                    .map_or_else(String::new, |p| p.display().to_string());
                write!(f, "hwloc:{cores}{path}")
            }
        }
    }
}

impl FromStr for Spec {
    type Err = Error;

    fn from_str(text: &str) -> Result<Spec> {
        let text = text.trim();
        if let Some((host, nodes)) = text.rsplit_once('@') {
            return Spec::allocation(host.parse()?, nodes);
        }
        if let Some((network, node)) = text.split_once('*') {
            let (network, node): (Spec, Spec) = (network.parse()?, node.parse()?);
            if matches!(network, Spec::Nodes(..)) || matches!(node, Spec::Nodes(..)) {
                return Err(Error::Spec(format!(
                    "'{text}': one '*' joins a network and its node; nodes of nodes are not read"
                )));
            }
            return Ok(Spec::Nodes(Box::new(network), Box::new(node)));
        }
        if text.is_empty() {
            return Err(Error::Spec(format!(
                "empty topology spec; {KINDS_HELP} (e.g. cube:6, torus:8x8)"
            )));
        }
        let Some((kind, body)) = text.split_once(':') else {
            let example = match text.to_ascii_lowercase().as_str() {
                "cube" => "cube:6",
                "ring" | "line" | "bintree" => "ring:64, line:64 or bintree:16",
                "torus" | "mesh" => "torus:8x8 or mesh:8x8",
                _ => "cube:6",
            };
            return Err(Error::Spec(format!(
                "'{text}' has no size after a colon; write KIND:SIZE, e.g. {example}"
            )));
        };
        let kind = kind.trim().to_ascii_lowercase();
        let spec = match kind.as_str() {
            "cube" => Spec::Cube(parse_cube(text, body)?),
            "ring" => Spec::Ring(parse_sides(text, body, "ring", true)?[0]),
            "line" => Spec::Line(parse_sides(text, body, "line", true)?[0]),
            "torus" => Spec::Torus(parse_sides(text, body, "torus", false)?),
            "mesh" => Spec::Mesh(parse_sides(text, body, "mesh", false)?),
            "grid" => parse_grid(text, body)?,
            "bintree" => Spec::BinTree(parse_bintree(text, body)?),
            "tleaf" => parse_tleaf(text, body)?,
            "fattree" => Spec::FatTree(network::parse_fat_tree(text, body)?),
            "slurm" => {
                let (path, name) = match body.rsplit_once('#') {
                    Some((path, name)) => (path, Some(name.trim().to_string())),
                    None => (body, None),
                };
                if path.trim().is_empty() {
                    return Err(Error::Spec(format!(
                        "'{text}' names no file; write slurm:topology.conf or slurm:topology.yaml"
                    )));
                }
                Spec::Slurm(PathBuf::from(path.trim()), name.filter(|n| !n.is_empty()))
            }
            "hwloc" => {
                let (leaves, path) = match body.split_once(':') {
                    Some(("cores", path)) => (HwlocLeaves::Cores, path),
                    Some(("pus", path)) => (HwlocLeaves::Pus, path),
                    _ => (HwlocLeaves::Pus, body),
                };
                let path = (!path.trim().is_empty()).then(|| PathBuf::from(path.trim()));
                Spec::Hwloc(path, leaves)
            }
            "dragonfly" => Spec::Dragonfly(network::parse_dragonfly(text, body)?),
            "graph" => {
                if body.trim().is_empty() {
                    return Err(Error::Spec(format!(
                        "'{text}' names no file; write graph:PATH"
                    )));
                }
                Spec::Graph(PathBuf::from(body))
            }
            _ => {
                return Err(Error::Spec(format!(
                    "unknown topology kind '{kind}' in '{text}'; {KINDS_HELP}"
                )))
            }
        };
        Ok(spec)
    }
}

/// Parses a size: a whole number, or `B^K` (e.g. `2^10`).
fn parse_size(whole: &str, token: &str) -> Result<u64> {
    let token = token.trim();
    let not_a_size = || {
        Error::Spec(format!(
            "'{whole}': '{token}' is not a size; sizes are whole numbers like 8 or 2^3"
        ))
    };
    let too_big = || {
        Error::Spec(format!(
            "'{whole}': size '{token}' is too large; topoembed handles up to 2^40 nodes"
        ))
    };
    if let Some((base, exp)) = token.split_once('^') {
        let base: u64 = base.trim().parse().map_err(|_| not_a_size())?;
        let exp: u32 = exp.trim().parse().map_err(|_| not_a_size())?;
        return base.checked_pow(exp).ok_or_else(too_big);
    }
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) {
        return Err(not_a_size());
    }
    token.parse().map_err(|_| too_big())
}

fn parse_cube(whole: &str, body: &str) -> Result<u32> {
    let d = parse_size(whole, body)?;
    if d == 0 {
        return Err(Error::Spec(format!(
            "'{whole}': a cube needs at least one dimension; D must be 1 to {MAX_CUBE_DIM}"
        )));
    }
    if d > u64::from(MAX_CUBE_DIM) {
        return Err(Error::Spec(format!(
            "'{whole}' would have 2^{d} nodes; topoembed handles cubes up to cube:{MAX_CUBE_DIM} (2^40 nodes)"
        )));
    }
    Ok(d as u32)
}

fn parse_sides(whole: &str, body: &str, kind: &str, one_axis: bool) -> Result<Vec<u64>> {
    let parts: Vec<&str> = body.split(['x', 'X']).collect();
    if one_axis && parts.len() > 1 {
        let other = if kind == "ring" { "torus" } else { "mesh" };
        return Err(Error::Spec(format!(
            "'{whole}': a {kind} has one axis; for several axes write {other}:{body}"
        )));
    }
    let mut sides = Vec::with_capacity(parts.len());
    let mut nodes: u64 = 1;
    for (axis, part) in parts.iter().enumerate() {
        if part.trim().is_empty() {
            return Err(Error::Spec(format!(
                "'{whole}': axis {} has no size; write sides like {kind}:{}",
                axis + 1,
                if kind == "grid" { "8wx8" } else { "8x8" }
            )));
        }
        let side = parse_size(whole, part)?;
        if side < 2 {
            let what = if one_axis {
                format!("a {kind} needs at least 2 nodes")
            } else {
                format!(
                    "every side must be at least 2 (axis {} is {side})",
                    axis + 1
                )
            };
            return Err(Error::Spec(format!("'{whole}': {what}")));
        }
        nodes = nodes
            .checked_mul(side)
            .filter(|&n| n <= MAX_NODES)
            .ok_or_else(|| {
                Error::Spec(format!(
                    "'{whole}' has more than 2^40 nodes; topoembed handles up to 2^40 nodes"
                ))
            })?;
        sides.push(side);
    }
    Ok(sides)
}

/// `grid:16wx16x4w`: sides, each marked `w` when its axis wraps around.
fn parse_grid(whole: &str, body: &str) -> Result<Spec> {
    let mut wraps = Vec::new();
    let mut plain = Vec::new();
    for part in body.split(['x', 'X']) {
        let part = part.trim();
        let stripped = part.strip_suffix(['w', 'W']);
        wraps.push(stripped.is_some());
        plain.push(stripped.unwrap_or(part));
    }
    let sides = parse_sides(whole, &plain.join("x"), "grid", false)?;
    Ok(Spec::grid_of(sides, wraps))
}

/// `tleaf:8x8x4:100,10,1`: sizes top level first, then one cost per level
/// (all 1 when left out).
fn parse_tleaf(whole: &str, body: &str) -> Result<Spec> {
    let (sizes, costs) = match body.split_once(':') {
        Some((sizes, costs)) => (sizes, Some(costs)),
        None => (body, None),
    };
    let sizes = parse_sides(whole, sizes, "tleaf", false)?;
    let leaves: u64 = sizes.iter().product();
    if leaves > MAX_TLEAF_LEAVES {
        return Err(Error::Spec(format!(
            "'{whole}' has {leaves} leaves; a tleaf hierarchy holds at most 2^24"
        )));
    }
    let costs = match costs {
        None => vec![1; sizes.len()],
        Some(text) => {
            let costs = text
                .split(',')
                .map(|c| {
                    c.trim()
                        .parse::<u64>()
                        .ok()
                        .filter(|&c| c <= 1 << 32)
                        .ok_or_else(|| {
                            Error::Spec(format!(
                                "'{whole}': cost '{}' is not a whole number from 0 to 2^32",
                                c.trim()
                            ))
                        })
                })
                .collect::<Result<Vec<u64>>>()?;
            if costs.len() != sizes.len() {
                return Err(Error::Spec(format!(
                    "'{whole}': {} levels but {} costs; give one cost per level, top level \
                     first (tleaf:8x8x4:100,10,1)",
                    sizes.len(),
                    costs.len()
                )));
            }
            costs
        }
    };
    Ok(Spec::Tleaf(sizes, costs))
}

fn parse_bintree(whole: &str, body: &str) -> Result<u64> {
    let p = parse_size(whole, body)?;
    if p < 2 {
        return Err(Error::Spec(format!(
            "'{whole}': a binary tree needs at least 2 leaves (bintree:2 has 3 nodes)"
        )));
    }
    if !p.is_power_of_two() {
        let below = 1u64 << (63 - p.leading_zeros());
        return Err(Error::Spec(format!(
            "'{whole}': the number of leaves must be a power of two (try bintree:{below} or bintree:{})",
            below * 2
        )));
    }
    if 2 * p - 1 > MAX_NODES {
        return Err(Error::Spec(format!(
            "'{whole}' has more than 2^40 nodes; topoembed handles up to 2^40 nodes"
        )));
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        text.parse::<Spec>().unwrap_err().to_string()
    }

    #[test]
    fn parses_every_kind_and_prints_it_back() {
        for text in [
            "cube:6",
            "ring:64",
            "line:8",
            "torus:8x8",
            "mesh:8x4x16x2x8",
            "grid:16wx16",
            "grid:4x4wx12",
            "bintree:16",
            "fattree:2;4,4;1,2;1,2",
            "fattree:3;2,3,4;1,2,2;1,1,2",
            "dragonfly:3,1;4,1;3,1;2",
            "graph:a.grf",
        ] {
            assert_eq!(text.parse::<Spec>().unwrap().to_string(), text);
        }
        assert_eq!("ring:2^10".parse::<Spec>().unwrap(), Spec::Ring(1024));
        assert_eq!(
            " Torus:4X2^3 ".parse::<Spec>().unwrap(),
            Spec::Torus(vec![4, 8])
        );
    }

    #[test]
    fn mixed_grids_keep_their_plainest_form() {
        let spec: Spec = "grid:4wx2^3x12W".parse().unwrap();
        assert_eq!(spec, Spec::Grid(vec![4, 8, 12], vec![true, false, true]));
        assert_eq!(spec.to_string(), "grid:4wx8x12w");
        assert_eq!(spec.node_count(), Some(384));
        assert_eq!(spec.grid().unwrap().1, vec![true, false, true]);
        assert_eq!(spec.uniform_wrap(), None);
        assert_eq!(
            "grid:8wx8w".parse::<Spec>().unwrap(),
            Spec::Torus(vec![8, 8])
        );
        assert_eq!("grid:8x8".parse::<Spec>().unwrap(), Spec::Mesh(vec![8, 8]));
        assert_eq!("grid:8w".parse::<Spec>().unwrap(), Spec::Ring(8));
        assert_eq!("grid:8".parse::<Spec>().unwrap(), Spec::Line(8));
        assert_eq!(
            "torus:4x4".parse::<Spec>().unwrap().grid().unwrap().1,
            vec![true; 2]
        );
    }

    #[test]
    fn node_counts() {
        assert_eq!(
            "cube:40".parse::<Spec>().unwrap().node_count(),
            Some(1 << 40)
        );
        assert_eq!("bintree:16".parse::<Spec>().unwrap().node_count(), Some(31));
        assert_eq!(
            "mesh:3x5x7".parse::<Spec>().unwrap().node_count(),
            Some(105)
        );
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        assert!(err("").contains("empty"));
        assert!(err("cube").contains("cube:6"));
        assert!(err("hypercube:4").contains("unknown topology kind 'hypercube'"));
        assert!(err("cube:0").contains("at least one dimension"));
        assert!(err("cube:41").contains("up to cube:40"));
        assert!(err("ring:1").contains("at least 2 nodes"));
        assert!(err("ring:0").contains("at least 2 nodes"));
        assert!(err("torus:8x1").contains("axis 2 is 1"));
        assert!(err("torus:8xx8").contains("axis 2 has no size"));
        assert!(err("torus:abc").contains("'abc' is not a size"));
        assert!(err("ring:-4").contains("not a size"));
        assert!(err("ring:8x8").contains("torus:8x8"));
        assert!(err("torus:4294967296x4294967296").contains("more than 2^40"));
        assert!(err("ring:99999999999999999999999").contains("too large"));
        assert!(err("ring:2^70").contains("too large"));
        assert!(err("bintree:6").contains("bintree:4 or bintree:8"));
        assert!(err("bintree:1").contains("at least 2 leaves"));
        assert!(err("graph:").contains("names no file"));
        assert!(err("grid:8wx").contains("axis 2 has no size"));
        assert!(err("grid:8wx1").contains("axis 2 is 1"));
        assert!(err("grid:w").contains("axis 1 has no size"));
        assert!(err("grid:8ww").contains("'8w' is not a size"));
        assert!(err("grid:0wx4").contains("axis 1 is 0"));
    }

    #[test]
    fn networks_take_simgrids_parameters() {
        let Spec::FatTree(shape) = "fattree:2;4,4;1,2;1,2".parse::<Spec>().unwrap() else {
            panic!("a fat tree")
        };
        // SimGrid's manual example: 16 hosts, 4 leaf switches, 2 top switches.
        assert_eq!(shape.leaves(), 16);
        assert_eq!((shape.nodes_at(1), shape.nodes_at(2)), (4, 2));
        assert_eq!(shape.links(), 16 + 4 * 2 * 2);
        let Spec::Dragonfly(shape) = "dragonfly:3,1;4,1;3,1;2".parse::<Spec>().unwrap() else {
            panic!("a dragonfly")
        };
        assert_eq!(shape.leaves(), 72);
        assert_eq!(shape.router_count(), 36);
        assert_eq!(
            shape.links(),
            72 + 3 * 4 * 3 + 3 * 6 * 3 + 3,
            "local, green, black, blue"
        );
        assert_eq!(
            "dragonfly:3,1;4,1;3,1;2"
                .parse::<Spec>()
                .unwrap()
                .node_count(),
            Some(72)
        );
    }

    #[test]
    fn bad_networks_say_what_is_wrong() {
        assert!(err("fattree:2;4,4;1,2").contains("four parts"));
        assert!(err("fattree:2;4,4,4;1,2;1,2").contains("2 levels but 3 children counts"));
        assert!(err("fattree:2;4,4;1;1,2").contains("2 levels but 1 parent counts"));
        assert!(err("fattree:2;4,4;1,2;1,x").contains("'x' is not a size"));
        assert!(err("fattree:2;4,0;1,2;1,2").contains("at least 1"));
        assert!(err("fattree:0;;;").contains("at least 1"));
        assert!(err("fattree:1;1;1;1").contains("single host node"));
        assert!(err("fattree:2;8192,4096;1,1;1,1").contains("2^24"));
        assert!(err("fattree:2;64,64;4096,4096;64,64").contains("2^28 links"));
        assert!(err("dragonfly:3,1;4,1;3,1").contains("four parts"));
        assert!(err("dragonfly:3;4,1;3,1;2").contains("'COUNT,LINKS'"));
        assert!(err("dragonfly:4,1;4,1;3,1;2").contains("at most as many groups"));
        assert!(err("dragonfly:1,1;1,1;1,1;1").contains("single host node"));
        assert!(err("dragonfly:2,1;4,1;3,0;2").contains("at least 1"));
    }
}
