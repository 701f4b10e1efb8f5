//! Scotch target architectures (`.tgt`) as host specs.
//!
//! Read: `tleaf L N1 C1 ..` -> `tleaf:N1x..:C1,..`; `hcub D` -> `cube:D`; `torus2D X Y`, `torus3D X Y Z`,
//! `torusXD n K1 .. Kn` -> `torus:` (one axis: `ring:`); `mesh2D`,
//! `mesh3D`, `meshXD` -> `mesh:` (one axis: `line:`). Sides of 1 add no
//! axis and are dropped. Written: the same forms, rings as `torusXD 1 N`,
//! lines as `mesh2D N 1` and meshes of up to three axes as `mesh2D` /
//! `mesh3D`: Scotch 7.0.3's `meshXD` measures distances with wrap-around
//! (gmtst gives a mapping onto `meshXD 1 15` the total dilation it has on a
//! ring of 15, 24, and 37 on `mesh2D 15 1`), so `meshXD` is written only
//! for meshes of four axes or more.

use std::io::Write;
use std::path::Path;

use super::tokens::{read_text, Tokens};
use crate::error::{Error, Result};
use crate::spec::{Spec, MAX_CUBE_DIM, MAX_NODES};

/// Reads a target architecture file as a host spec.
pub fn read_target(path: &Path) -> Result<Spec> {
    parse_target(path, &read_text(path)?)
}

/// [`read_target`] on text already read; `path` names it in errors.
pub fn parse_target(path: &Path, text: &str) -> Result<Spec> {
    let mut t = Tokens::new(path, text);
    let spec = parse_architecture(&mut t)?;
    t.finish(&format!("the {} target", target_name(&spec)))?;
    Ok(spec)
}

/// The word a spec's target starts with, for messages.
fn target_name(spec: &Spec) -> &'static str {
    match spec {
        Spec::Allocation(..) => "sub",
        Spec::Cube(_) => "hcub",
        Spec::Tleaf(..) => "tleaf",
        Spec::Torus(_) | Spec::Ring(_) => "torus",
        _ => "mesh",
    }
}

/// `sub N T0 .. TN-1 TARGET`: Scotch's sub-architecture, terminals T0..
/// of TARGET in that order — an allocation.
fn parse_sub(t: &mut Tokens) -> Result<Spec> {
    let count = t.number(
        "the number of terminals kept",
        crate::spec::MAX_ALLOCATION_NODES,
    )?;
    let mut nodes = Vec::with_capacity(count as usize);
    for k in 0..count {
        nodes.push(t.number(&format!("terminal {k} of the sub-architecture"), MAX_NODES)?);
    }
    let host = parse_architecture(t)?;
    if matches!(host, Spec::Allocation(..)) {
        return Err(t.error("a sub-architecture of a sub-architecture is not read"));
    }
    if let Some(host_nodes) = host.node_count() {
        crate::spec::check_allocation(&host.to_string(), host_nodes, &nodes)
            .map_err(|e| t.error(&e.to_string()))?;
    }
    Spec::allocation(host, &crate::spec::ranges(&nodes))
}

/// One target architecture from `t`, leaving what follows it.
fn parse_architecture(t: &mut Tokens) -> Result<Spec> {
    let name = t.expect("a target architecture name such as hcub or torus2D")?;
    let (wrap, axes) = match name {
        "hcub" => {
            let d = t.number("the hypercube dimension", u64::from(MAX_CUBE_DIM))?;
            if d == 0 {
                return Err(t.error("hcub 0 is a single node; topoembed needs at least 2"));
            }
            return Ok(Spec::Cube(d as u32));
        }
        "sub" => return parse_sub(t),
        "torus2D" => (true, 2),
        "torus3D" => (true, 3),
        "mesh2D" => (false, 2),
        "mesh3D" => (false, 3),
        "torusXD" | "meshXD" => (name == "torusXD", t.number("the number of dimensions", 64)?),
        "tleaf" => return parse_tleaf(t),
        other => {
            return Err(t.error(&format!(
                "target architecture '{other}' is not read; topoembed reads hcub, torus2D, \
                 torus3D, torusXD, mesh2D, mesh3D, meshXD, tleaf and sub"
            )))
        }
    };
    let mut sides = Vec::new();
    let mut nodes: u64 = 1;
    for k in 0..axes {
        let side = t.number(&format!("the size of dimension {}", k + 1), MAX_NODES)?;
        if side == 0 {
            return Err(t.error(&format!("dimension {} has size 0", k + 1)));
        }
        nodes = nodes
            .checked_mul(side)
            .filter(|&x| x <= MAX_NODES)
            .ok_or_else(|| t.error(&format!("more than {MAX_NODES} nodes")))?;
        if side > 1 {
            sides.push(side);
        }
    }
    Ok(match (sides.len(), wrap) {
        (0, _) => return Err(t.error("the target has a single node")),
        (1, true) => Spec::Ring(sides[0]),
        (1, false) => Spec::Line(sides[0]),
        (_, true) => Spec::Torus(sides),
        (_, false) => Spec::Mesh(sides),
    })
}

/// `tleaf LEVELS N1 C1 N2 C2 ..`: sizes top level first, each with its cost.
fn parse_tleaf(t: &mut Tokens) -> Result<Spec> {
    let levels = t.number("the number of levels", 32)?;
    if levels == 0 {
        return Err(t.error("a tleaf needs at least one level"));
    }
    let (mut sizes, mut costs) = (Vec::new(), Vec::new());
    let mut leaves: u64 = 1;
    for k in 1..=levels {
        let size = t.number(
            &format!("the size of level {k}"),
            crate::topology::MAX_TLEAF_LEAVES,
        )?;
        let cost = t.number(&format!("the cost of level {k}"), 1 << 32)?;
        leaves = leaves
            .checked_mul(size)
            .filter(|&n| n <= crate::topology::MAX_TLEAF_LEAVES)
            .ok_or_else(|| t.error("more than 2^24 leaves"))?;
        // A level of one child adds no choice and, parting nowhere, no cost.
        if size > 1 {
            sizes.push(size);
            costs.push(cost);
        } else if size == 0 {
            return Err(t.error(&format!("level {k} has size 0")));
        }
    }
    if sizes.is_empty() {
        return Err(t.error("the target has a single leaf"));
    }
    Ok(Spec::Tleaf(sizes, costs))
}

/// Largest mixed grid written as a `deco` target: its distance matrix has
/// n(n−1)/2 entries (8 million at 4096 nodes).
pub const DECO_MAX_NODES: u64 = 4096;

/// A host no Scotch target family says — a grid that wraps some axes only
/// (`torusXD` and `meshXD` wrap all or none), a dragonfly (its distances
/// depend on more than the level two nodes part at) — as a
/// decomposition-defined target (`deco 0`): terminal label = host node id
/// (what mapping files name), weight 1, domain number from a recursive
/// halving of the node ids (root 1, children 2k and 2k + 1), then the exact
/// distance of every pair, lower triangle in label order.
fn write_deco(spec: &Spec, out: &mut dyn Write) -> Result<()> {
    let host = crate::topology::build(spec)?;
    let n = host.node_count();
    if n > DECO_MAX_NODES {
        let why = if spec.is_switched()
            || matches!(spec, Spec::Slurm(..) | Spec::Hwloc(..) | Spec::Nodes(..))
        {
            "its distances are no tleaf's"
        } else {
            "it wraps some axes only, which Scotch's torus and mesh targets cannot say"
        };
        return Err(Error::Parameter(format!(
            "{spec}: {why}; its decomposition-defined target would hold {} distances (up to \
             {DECO_MAX_NODES} nodes are written); export it as a graph instead (--format grf)",
            n * (n - 1) / 2
        )));
    }
    let host = host.as_ref();
    fn number(lo: u64, hi: u64, num: u64, nums: &mut [u64]) {
        if hi - lo == 1 {
            nums[lo as usize] = num;
        } else {
            let mid = (lo + hi) / 2;
            number(lo, mid, 2 * num, nums);
            number(mid, hi, 2 * num + 1, nums);
        }
    }
    let mut nums = vec![0u64; n as usize];
    number(0, n, 1, &mut nums);
    let max = nums.iter().copied().max().unwrap_or(1);
    let fail = |e: std::io::Error| Error::File(format!("cannot write the target: {e}"));
    let mut text = format!("deco\n0\n{n}\t{max}\n");
    for (label, num) in nums.iter().enumerate() {
        text.push_str(&format!("{label}\t1\t{num}\n"));
    }
    out.write_all(text.as_bytes()).map_err(fail)?;
    for i in 1..n {
        let row: Vec<String> = (0..i).map(|j| host.distance(i, j).to_string()).collect();
        writeln!(out, "{}", row.join("\t")).map_err(fail)?;
    }
    Ok(())
}

/// Writes `spec` as a Scotch target architecture (a `deco` target for
/// grids that wrap some axes only).
pub fn write_target(spec: &Spec, out: &mut dyn Write) -> Result<()> {
    let text = match spec {
        Spec::Cube(d) => format!("hcub\t{d}"),
        Spec::Ring(n) => format!("torusXD\t1\t{n}"),
        Spec::Line(n) => format!("mesh2D\t{n}\t1"),
        Spec::Torus(s) | Spec::Mesh(s) => {
            let name = if matches!(spec, Spec::Torus(_)) {
                "torus"
            } else {
                "mesh"
            };
            let sides: Vec<String> = s.iter().map(u64::to_string).collect();
            match s.len() {
                2 | 3 => format!("{name}{}D\t{}", s.len(), sides.join("\t")),
                k => format!("{name}XD\t{k}\t{}", sides.join("\t")),
            }
        }
        Spec::FatTree(_) | Spec::Hwloc(..) | Spec::Nodes(..) | Spec::Tleaf(..) => {
            match tree_levels(spec)? {
                Some(levels) => {
                    let levels: Vec<String> =
                        levels.iter().map(|(n, c)| format!("{n}\t{c}")).collect();
                    format!("tleaf\t{}\t{}", levels.len(), levels.join("\t"))
                }
                None => return write_deco(spec, out),
            }
        }
        Spec::Grid(..) | Spec::Dragonfly(_) | Spec::Slurm(..) => return write_deco(spec, out),
        // Scotch's sub-architecture: the kept terminals in allocation
        // order, then the whole host.
        Spec::Allocation(host, listed) => {
            let nodes: Vec<String> = listed.resolve()?.iter().map(u64::to_string).collect();
            writeln!(out, "sub\t{}\t{}", nodes.len(), nodes.join("\t"))
                .map_err(|e| Error::File(format!("cannot write the target: {e}")))?;
            return write_target(host, out);
        }
        other => {
            return Err(Error::Parameter(format!(
                "{other} has no Scotch target form; targets are hcub, torus, mesh, tleaf and deco"
            )))
        }
    };
    writeln!(out, "{text}").map_err(|e| Error::File(format!("cannot write the target: {e}")))
}

/// A host whose distance depends only on the level of two nodes' nearest
/// common ancestor, as Scotch's `tleaf` levels top first: (children, link
/// cost), two leaves parted at level k being the sum of the costs of
/// levels k and below apart (as in a topoembed `tleaf`; `gmtst` agrees,
/// `crates/topoembed-cli/tests/scotch.rs`). A fat tree: 2 a level (up and
/// down one switch); a regular hwloc tree: 2 a level; a network of nodes:
/// the network's levels over the node's. `None` for other hosts.
fn tree_levels(spec: &Spec) -> Result<Option<Vec<(u64, u64)>>> {
    Ok(match spec {
        Spec::FatTree(shape) => Some(shape.down.iter().rev().map(|&n| (n, 2)).collect()),
        Spec::Hwloc(path, leaves) => {
            let host = crate::topology::Hwloc::new(
                spec.clone(),
                super::read_hwloc(path.as_deref(), *leaves)?,
            );
            regular_tree(&host).map(|sizes| sizes.iter().map(|&n| (n, 2)).collect())
        }
        Spec::Tleaf(sizes, costs) => {
            Some(sizes.iter().copied().zip(costs.iter().copied()).collect())
        }
        // Across the network: the network's distance plus the node's
        // diameter, which the node's own levels already add.
        Spec::Nodes(network, node) => match (tree_levels(network)?, tree_levels(node)?) {
            (Some(mut outer), Some(inner)) => {
                outer.extend(inner);
                Some(outer)
            }
            _ => None,
        },
        _ => None,
    })
}

/// The sizes of an hwloc node's levels, top first, when its tree is a
/// tleaf (every leaf as deep, every object of a level with as many
/// children, leaves in order) and no NUMA latencies scale its distances.
fn regular_tree(host: &crate::topology::Hwloc) -> Option<Vec<u64>> {
    use crate::topology::Topology;
    let tree = host.tree();
    if tree.latency.is_some() {
        return None;
    }
    let depth = tree.paths[0].len();
    if tree.paths.iter().any(|p| p.len() != depth) || depth == 0 {
        return None;
    }
    let sizes: Vec<u64> = (0..depth)
        .map(|d| {
            tree.positions
                .iter()
                .map(|p| u64::from(p[d]) + 1)
                .max()
                .unwrap_or(1)
        })
        .collect();
    let leaves: u64 = sizes.iter().product();
    let in_order = (0..host.node_count()).all(|v| {
        let coords = host.coords(v);
        coords
            .iter()
            .zip(&sizes)
            .fold(0, |acc, (&c, &n)| acc * n + c)
            == v
    });
    (leaves == host.node_count() && in_order).then_some(sizes)
}

/// The spec `text` names on a command line: a spec, or a Scotch target
/// file (`FILE.tgt` or `tgt:FILE`).
pub fn parse_spec_or_target(text: &str) -> Result<Spec> {
    // An allocation of a target file: FILE.tgt@NODES.
    if let Some((host, nodes)) = text.rsplit_once('@') {
        if host.ends_with(".tgt") || host.starts_with("tgt:") {
            return Spec::allocation(parse_spec_or_target(host)?, nodes);
        }
    }
    match text
        .strip_prefix("tgt:")
        .or_else(|| text.ends_with(".tgt").then_some(text))
    {
        Some(path) => read_target(Path::new(path)),
        None => text.parse(),
    }
}
