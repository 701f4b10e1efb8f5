//! Slurm's network topologies as hosts: `topology.conf` (the tree, block
//! and ring plugins' lines, `topology.conf(5)`) and `topology.yaml` (its
//! tree, block, ring and torus3d topologies: `topology.yaml(5)` for tree
//! and block; for ring and torus3d, whose keys the manual does not list
//! yet, Slurm's own schema, `data_parser/v0.0.46/parsers.c`:
//! `ring: {rings: [{ring, nodes}]}` and `torus3d: {toruses: [{name, dims:
//! {x, y, z}, nodes | regions: [{anchor, dims, nodes}]}]}`). Node and
//! switch lists are Slurm hostlist expressions ([`super::expand_hostlist`]).
//!
//! The host nodes are the nodes in the order the file first names them.
//! Distances, in links: tree — between two nodes, 2 (node to leaf switch
//! and back) plus the fewest switch-to-switch links between a leaf switch
//! of one and a leaf switch of the other (a node or switch may have several
//! parents: a spine level lists every leaf switch); block — 2 within a
//! block, 2(k + 1) within the level-k block (the `BlockSizes` aggregates:
//! size_k / size_0 contiguous blocks, in file order), one more level across
//! the whole cluster; ring — the shorter way round within a ring, and one
//! more than half the longest ring between rings; torus3d — the shorter
//! way round along each of x, y, z (Slurm's `torus3d_record.c` places
//! node k of a torus's list at x = k mod X, y = k / X mod Y, z = k / XY,
//! and node k of a region at its anchor plus the same offsets within the
//! region), and one more than the largest torus diameter between toruses.

use std::collections::VecDeque;
use std::path::Path;

use rustc_hash::FxHashMap;

use super::expand_hostlist;
use crate::error::{Error, Result};

/// Most leaf switches of a tree (their distance table is held whole).
pub const MAX_LEAF_SWITCHES: usize = 4096;

/// How the nodes of a Slurm topology are placed.
#[derive(Debug, Clone, PartialEq)]
pub enum SlurmLayout {
    /// topology/tree: each node's leaf switches (indices into the table),
    /// and the fewest switch links between every two leaf switches.
    Tree {
        /// Leaf switches of each node.
        leaves: Vec<Vec<u32>>,
        /// Row-major table over the leaf switches.
        hops: Vec<u32>,
        /// Number of leaf switches.
        count: usize,
    },
    /// topology/block: each node's block, and the aggregate sizes (in
    /// blocks) of the levels above the base blocks.
    Block {
        /// Block of each node.
        block: Vec<u32>,
        /// Blocks in one aggregate of each level above the base.
        levels: Vec<u64>,
    },
    /// topology/ring: each node's ring and position, and the ring sizes.
    Ring {
        /// (ring, position) of each node.
        at: Vec<(u32, u32)>,
        /// Nodes of each ring.
        sizes: Vec<u32>,
    },
    /// topology/torus3d: each node's torus and (x, y, z), and each torus's
    /// sizes along x, y, z.
    Torus {
        /// (torus, [x, y, z]) of each node.
        at: Vec<(u32, [u32; 3])>,
        /// X, Y, Z of each torus.
        dims: Vec<[u32; 3]>,
    },
}

/// A Slurm topology: node names and layout.
#[derive(Debug, Clone, PartialEq)]
pub struct SlurmTopology {
    /// Node names, host node i first named i-th.
    pub names: Vec<String>,
    /// The layout.
    pub layout: SlurmLayout,
}

/// Reads `topology.conf` or, for names ending `.yaml`/`.yml`, `topology.yaml`
/// (its topology `name`, else the cluster default, else the first).
pub fn read_slurm(path: &Path, name: Option<&str>) -> Result<SlurmTopology> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::File(format!("{}: cannot read: {e}", path.display())))?;
    parse_slurm(path, &text, name)
}

/// [`read_slurm`] on text already read.
pub fn parse_slurm(path: &Path, text: &str, name: Option<&str>) -> Result<SlurmTopology> {
    let yaml = matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yaml" | "yml")
    );
    let lines = if yaml {
        yaml_lines(path, text, name)?
    } else {
        if let Some(name) = name {
            return Err(Error::File(format!(
                "{}: a topology.conf holds one topology; '#{name}' picks one of a topology.yaml's",
                path.display()
            )));
        }
        conf_lines(path, text)?
    };
    build(path, &lines)
}

/// One definition: its kind, name, child switches, nodes; the line it is
/// on (0 when the file format has none to give).
#[derive(Debug, Default)]
struct Line {
    kind: Kind,
    name: String,
    switches: Vec<String>,
    nodes: Vec<String>,
    sizes: Vec<u64>,
    /// torus3d: X, Y, Z, and the place of each of `nodes`.
    dims: [u32; 3],
    places: Vec<[u32; 3]>,
    line: usize,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Kind {
    #[default]
    Switch,
    Block,
    BlockSizes,
    Ring,
    Torus,
}

impl Kind {
    fn plugin(self) -> &'static str {
        match self {
            Kind::Switch => "tree",
            Kind::Block | Kind::BlockSizes => "block",
            Kind::Ring => "ring",
            Kind::Torus => "torus3d",
        }
    }
}

fn at(path: &Path, line: usize, why: &str) -> Error {
    if line == 0 {
        Error::File(format!("{}: {why}", path.display()))
    } else {
        Error::File(format!("{}:{line}: {why}", path.display()))
    }
}

fn hostlist(path: &Path, line: usize, list: &str) -> Result<Vec<String>> {
    expand_hostlist(list).map_err(|e| at(path, line, &e))
}

/// `topology.conf`: `Key=Value` words, `#` comments, keys in any case.
fn conf_lines(path: &Path, text: &str) -> Result<Vec<Line>> {
    let mut lines = Vec::new();
    for (k, raw) in text.lines().enumerate() {
        let n = k + 1;
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let mut line = Line {
            line: n,
            ..Line::default()
        };
        for (w, word) in body.split_whitespace().enumerate() {
            let Some((key, value)) = word.split_once('=') else {
                return Err(at(path, n, &format!("'{word}' is not Key=Value")));
            };
            match (key.to_ascii_lowercase().as_str(), w) {
                ("switchname", 0) => (line.kind, line.name) = (Kind::Switch, value.to_string()),
                ("blockname", 0) => (line.kind, line.name) = (Kind::Block, value.to_string()),
                ("ringname", 0) => (line.kind, line.name) = (Kind::Ring, value.to_string()),
                ("blocksizes", 0) => {
                    line.kind = Kind::BlockSizes;
                    line.sizes = value
                        .split(',')
                        .map(|v| v.trim().parse::<u64>().ok().filter(|&v| v > 0))
                        .collect::<Option<_>>()
                        .ok_or_else(|| {
                            at(
                                path,
                                n,
                                &format!("BlockSizes={value}: give whole numbers above 0"),
                            )
                        })?;
                }
                ("switches", w) if w > 0 => line.switches = hostlist(path, n, value)?,
                ("nodes", w) if w > 0 => line.nodes = hostlist(path, n, value)?,
                ("linkspeed", w) if w > 0 => {}
                (_, 0) => {
                    return Err(at(
                        path,
                        n,
                        &format!(
                            "a line starts with SwitchName=, BlockName=, BlockSizes= or \
                             RingName=, not '{key}='"
                        ),
                    ))
                }
                _ => {
                    return Err(at(
                        path,
                        n,
                        &format!("unknown key '{key}' (known: Switches, Nodes, LinkSpeed)"),
                    ))
                }
            }
        }
        lines.push(line);
    }
    Ok(lines)
}

/// `topology.yaml`: a list of topologies; the one named, else the cluster
/// default, else the first.
fn yaml_lines(path: &Path, text: &str, name: Option<&str>) -> Result<Vec<Line>> {
    use yaml_rust2::{Yaml, YamlLoader};
    let docs = YamlLoader::load_from_str(text).map_err(|e| {
        let m = e.marker();
        Error::File(format!(
            "{}:{}:{}: not YAML: {}",
            path.display(),
            m.line(),
            m.col() + 1,
            e.info()
        ))
    })?;
    let bad = |why: &str| Error::File(format!("{}: {why}", path.display()));
    let Some(Yaml::Array(topologies)) = docs.first() else {
        return Err(bad(
            "a topology.yaml is a list of topologies (- topology: NAME ..)",
        ));
    };
    let title = |t: &Yaml| t["topology"].as_str().map(str::to_string);
    let chosen = match name {
        Some(name) => topologies
            .iter()
            .find(|t| title(t).as_deref() == Some(name))
            .ok_or_else(|| bad(&format!("no topology named '{name}'")))?,
        None => topologies
            .iter()
            .find(|t| t["cluster_default"].as_bool() == Some(true))
            .or_else(|| topologies.first())
            .ok_or_else(|| bad("the list of topologies is empty"))?,
    };
    let what = title(chosen).unwrap_or_else(|| "the topology".to_string());
    let list = |y: &Yaml, key: &str| -> Result<Vec<String>> {
        match &y[key] {
            Yaml::BadValue => Ok(Vec::new()),
            Yaml::String(s) => hostlist(path, 0, s),
            Yaml::Array(items) => items
                .iter()
                .map(|i| i.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| bad(&format!("{what}: '{key}' lists something not a name")))
                .and_then(|v| {
                    v.iter()
                        .map(|s| hostlist(path, 0, s))
                        .collect::<Result<Vec<_>>>()
                        .map(|v| v.concat())
                }),
            _ => Err(bad(&format!("{what}: '{key}' is not a hostlist"))),
        }
    };
    // A switch, block or ring: `KEY: NAME` and its `nodes`.
    let named = |y: &Yaml, kind: Kind, key: &str| -> Result<Line> {
        Ok(Line {
            kind,
            name: y[key]
                .as_str()
                .ok_or_else(|| bad(&format!("{what}: a {key} without '{key}: NAME'")))?
                .to_string(),
            nodes: list(y, "nodes")?,
            ..Line::default()
        })
    };
    let mut lines = Vec::new();
    if let Yaml::Array(switches) = &chosen["tree"]["switches"] {
        for s in switches {
            lines.push(Line {
                switches: list(s, "children")?,
                ..named(s, Kind::Switch, "switch")?
            });
        }
    } else if let Yaml::Array(blocks) = &chosen["block"]["blocks"] {
        for b in blocks {
            lines.push(named(b, Kind::Block, "block")?);
        }
        if let Yaml::Array(sizes) = &chosen["block"]["block_sizes"] {
            lines.push(Line {
                kind: Kind::BlockSizes,
                sizes: sizes
                    .iter()
                    .map(|s| s.as_i64().filter(|&v| v > 0).map(|v| v as u64))
                    .collect::<Option<_>>()
                    .ok_or_else(|| {
                        bad(&format!("{what}: block_sizes are whole numbers above 0"))
                    })?,
                ..Line::default()
            });
        }
    } else if let Yaml::Array(rings) = &chosen["ring"]["rings"] {
        for r in rings {
            lines.push(named(r, Kind::Ring, "ring")?);
        }
    } else if let Yaml::Array(toruses) = &chosen["torus3d"]["toruses"] {
        for t in toruses {
            lines.push(torus_line(t, &what, &|y, key| list(y, key), &bad)?);
        }
    } else if chosen["flat"].as_bool() == Some(true) {
        return Err(bad(&format!(
            "{what} is flat: every node equally far; that host is tleaf:N:1"
        )));
    } else {
        return Err(bad(&format!(
            "{what} has no tree (switches), block (blocks), ring (rings) or torus3d \
             (toruses) topology; topoembed reads those from a topology.yaml"
        )));
    }
    Ok(lines)
}

/// One torus of a torus3d topology: its `name`, `dims` and either `nodes`
/// (the whole torus, x fastest) or `regions` (boxes of it, each at an
/// `anchor`, x fastest within the box), as `torus3d_record.c` reads them.
fn torus_line(
    t: &yaml_rust2::Yaml,
    what: &str,
    list: &dyn Fn(&yaml_rust2::Yaml, &str) -> Result<Vec<String>>,
    bad: &dyn Fn(&str) -> Error,
) -> Result<Line> {
    use yaml_rust2::Yaml;
    let name = t["name"]
        .as_str()
        .ok_or_else(|| bad(&format!("{what}: a torus without 'name: NAME'")))?
        .to_string();
    let xyz = |y: &Yaml, key: &str, least: i64| -> Result<[u32; 3]> {
        let mut v = [0u32; 3];
        for (k, axis) in ["x", "y", "z"].iter().enumerate() {
            v[k] = match &y[key][*axis] {
                Yaml::BadValue if least == 0 => 0,
                Yaml::Integer(i) if (least..=i64::from(u16::MAX)).contains(i) => *i as u32,
                _ => {
                    return Err(bad(&format!(
                        "{what}: torus {name}: '{key}' needs {axis}: a whole number from {least} \
                         to {}",
                        u16::MAX
                    )))
                }
            };
        }
        Ok(v)
    };
    let dims = xyz(t, "dims", 1)?;
    let mut line = Line {
        kind: Kind::Torus,
        name: name.clone(),
        dims,
        ..Line::default()
    };
    let whole = list(t, "nodes")?;
    match (&t["regions"], whole.is_empty()) {
        (Yaml::BadValue, false) => {
            let size = dims.iter().map(|&d| d as u64).product::<u64>();
            if whole.len() as u64 != size {
                return Err(bad(&format!(
                    "{what}: torus {name} is {}x{}x{} = {size} places but lists {} nodes",
                    dims[0],
                    dims[1],
                    dims[2],
                    whole.len()
                )));
            }
            let (x, xy) = (dims[0] as usize, (dims[0] * dims[1]) as usize);
            line.places = (0..whole.len())
                .map(|k| {
                    [
                        (k % x) as u32,
                        (k / x % dims[1] as usize) as u32,
                        (k / xy) as u32,
                    ]
                })
                .collect();
            line.nodes = whole;
        }
        (Yaml::Array(regions), true) => {
            let mut taken = rustc_hash::FxHashSet::default();
            for r in regions {
                let (anchor, size) = (xyz(r, "anchor", 0)?, xyz(r, "dims", 1)?);
                if (0..3).any(|k| anchor[k] + size[k] > dims[k]) {
                    return Err(bad(&format!(
                        "{what}: torus {name}: a region at {anchor:?} of {size:?} leaves the torus \
                         {dims:?}"
                    )));
                }
                let nodes = list(r, "nodes")?;
                let count = size.iter().map(|&d| d as u64).product::<u64>();
                if nodes.len() as u64 != count {
                    return Err(bad(&format!(
                        "{what}: torus {name}: a region of {}x{}x{} = {count} places lists {} \
                         nodes",
                        size[0],
                        size[1],
                        size[2],
                        nodes.len()
                    )));
                }
                let (x, xy) = (size[0] as usize, (size[0] * size[1]) as usize);
                for k in 0..nodes.len() {
                    let place = [
                        anchor[0] + (k % x) as u32,
                        anchor[1] + (k / x % size[1] as usize) as u32,
                        anchor[2] + (k / xy) as u32,
                    ];
                    if !taken.insert(place) {
                        return Err(bad(&format!(
                            "{what}: torus {name}: regions overlap at {place:?}"
                        )));
                    }
                    line.places.push(place);
                }
                line.nodes.extend(nodes);
            }
        }
        (Yaml::BadValue, true) => {
            return Err(bad(&format!(
                "{what}: torus {name} lists neither 'nodes' nor 'regions'"
            )))
        }
        (Yaml::Array(_), false) => {
            return Err(bad(&format!(
                "{what}: torus {name} lists both 'nodes' and 'regions'; Slurm takes one"
            )))
        }
        _ => {
            return Err(bad(&format!(
                "{what}: torus {name}: 'regions' is not a list"
            )))
        }
    }
    Ok(line)
}

/// The nodes in first-named order, and the layout the lines describe.
fn build(path: &Path, lines: &[Line]) -> Result<SlurmTopology> {
    let Some(first) = lines.iter().find(|l| l.kind != Kind::BlockSizes) else {
        return Err(at(path, 0, "defines no switch, block or ring"));
    };
    let kind = first.kind;
    if let Some(other) = lines.iter().find(|l| l.kind.plugin() != kind.plugin()) {
        return Err(at(
            path,
            other.line,
            &format!(
                "mixes the {} and {} plugins' lines; a file describes one topology",
                kind.plugin(),
                other.kind.plugin()
            ),
        ));
    }
    let mut names: Vec<String> = Vec::new();
    let mut index: FxHashMap<String, u32> = FxHashMap::default();
    let mut node = |name: &str| -> u32 {
        *index.entry(name.to_string()).or_insert_with(|| {
            names.push(name.to_string());
            (names.len() - 1) as u32
        })
    };
    let defs: Vec<&Line> = lines
        .iter()
        .filter(|l| l.kind != Kind::BlockSizes)
        .collect();
    let mut seen = FxHashMap::default();
    for l in &defs {
        if let Some(before) = seen.insert(l.name.as_str(), l.line) {
            return Err(at(
                path,
                l.line,
                &format!("'{}' is defined twice (first on line {before})", l.name),
            ));
        }
    }
    let layout = match kind {
        Kind::Switch => tree(path, &defs, &mut node)?,
        Kind::Block | Kind::BlockSizes => {
            let mut block = Vec::new();
            for (b, l) in defs.iter().enumerate() {
                for n in &l.nodes {
                    let id = node(n) as usize;
                    if id < block.len() {
                        return Err(at(path, l.line, &format!("node {n} is in two blocks")));
                    }
                    block.push(b as u32);
                }
            }
            let sizes = lines
                .iter()
                .find(|l| l.kind == Kind::BlockSizes)
                .map(|l| (l.sizes.clone(), l.line));
            SlurmLayout::Block {
                levels: block_levels(path, sizes, defs.len() as u64)?,
                block,
            }
        }
        Kind::Ring => {
            let mut at_ = Vec::new();
            let mut sizes = Vec::new();
            for (r, l) in defs.iter().enumerate() {
                for (p, n) in l.nodes.iter().enumerate() {
                    let id = node(n) as usize;
                    if id < at_.len() {
                        return Err(at(path, l.line, &format!("node {n} is in two rings")));
                    }
                    at_.push((r as u32, p as u32));
                }
                sizes.push(l.nodes.len() as u32);
            }
            SlurmLayout::Ring { at: at_, sizes }
        }
        Kind::Torus => {
            let mut at_ = Vec::new();
            for (t, l) in defs.iter().enumerate() {
                for (n, &place) in l.nodes.iter().zip(&l.places) {
                    let id = node(n) as usize;
                    if id < at_.len() {
                        return Err(at(path, l.line, &format!("node {n} is in two places")));
                    }
                    at_.push((t as u32, place));
                }
            }
            SlurmLayout::Torus {
                at: at_,
                dims: defs.iter().map(|l| l.dims).collect(),
            }
        }
    };
    if names.len() < 2 {
        return Err(at(path, 0, "names fewer than 2 nodes"));
    }
    Ok(SlurmTopology { names, layout })
}

/// The switch graph's leaf-switch distances (module docs).
fn tree(path: &Path, defs: &[&Line], node: &mut dyn FnMut(&str) -> u32) -> Result<SlurmLayout> {
    let id: FxHashMap<&str, usize> = defs
        .iter()
        .enumerate()
        .map(|(k, l)| (l.name.as_str(), k))
        .collect();
    let mut adjacent = vec![Vec::new(); defs.len()];
    for (k, l) in defs.iter().enumerate() {
        for child in &l.switches {
            let Some(&c) = id.get(child.as_str()) else {
                return Err(at(
                    path,
                    l.line,
                    &format!(
                        "switch {} names switch {child}, which no line defines",
                        l.name
                    ),
                ));
            };
            adjacent[k].push(c);
            adjacent[c].push(k);
        }
    }
    let leaf_switches: Vec<usize> = (0..defs.len())
        .filter(|&k| !defs[k].nodes.is_empty())
        .collect();
    if leaf_switches.len() > MAX_LEAF_SWITCHES {
        return Err(at(
            path,
            0,
            &format!(
                "{} leaf switches; a tree here has at most {MAX_LEAF_SWITCHES}",
                leaf_switches.len()
            ),
        ));
    }
    let row: FxHashMap<usize, usize> = leaf_switches
        .iter()
        .enumerate()
        .map(|(r, &s)| (s, r))
        .collect();
    let count = leaf_switches.len();
    let mut hops = vec![u32::MAX; count * count];
    for (r, &s) in leaf_switches.iter().enumerate() {
        let mut dist = vec![u32::MAX; defs.len()];
        dist[s] = 0;
        let mut queue = VecDeque::from([s]);
        while let Some(x) = queue.pop_front() {
            for &y in &adjacent[x] {
                if dist[y] == u32::MAX {
                    dist[y] = dist[x] + 1;
                    queue.push_back(y);
                }
            }
        }
        for (c, &t) in leaf_switches.iter().enumerate() {
            hops[r * count + c] = dist[t];
        }
    }
    if let Some(k) = hops.iter().position(|&h| h == u32::MAX) {
        let (a, b) = (leaf_switches[k / count], leaf_switches[k % count]);
        return Err(at(
            path,
            0,
            &format!(
                "switches {} and {} are in separate fabrics; join them under a common switch",
                defs[a].name, defs[b].name
            ),
        ));
    }
    let mut leaves: Vec<Vec<u32>> = Vec::new();
    for &s in &leaf_switches {
        for n in &defs[s].nodes {
            let id = node(n) as usize;
            if id == leaves.len() {
                leaves.push(Vec::new());
            }
            leaves[id].push(row[&s] as u32);
        }
    }
    Ok(SlurmLayout::Tree {
        leaves,
        hops,
        count,
    })
}

/// Blocks per aggregate at each level above the base: `BlockSizes` b0, b1,
/// .. gives b_k / b0 (each a power of two above the last); without it,
/// 2, 4, 8, .. while below the block count.
fn block_levels(path: &Path, sizes: Option<(Vec<u64>, usize)>, blocks: u64) -> Result<Vec<u64>> {
    let Some((sizes, line)) = sizes else {
        return Ok((1..)
            .map(|k| 1u64 << k)
            .take_while(|&m| m < blocks)
            .collect());
    };
    let base = sizes[0];
    let mut levels = Vec::new();
    for &s in &sizes[1..] {
        let m = s / base;
        let last = levels.last().copied().unwrap_or(1);
        if s % base != 0 || !m.is_power_of_two() || m <= last {
            return Err(at(
                path,
                line,
                &format!(
                    "block size {s} is not the base size {base} times a power of two above the \
                     last ({}); Slurm requires it",
                    base * last
                ),
            ));
        }
        levels.push(m);
    }
    Ok(levels)
}
