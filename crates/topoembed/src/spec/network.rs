//! Switched networks, in the words of SimGrid's clusters: `fattree:` takes a
//! `FAT_TREE` cluster's `topo_parameters` and `dragonfly:` a `DRAGONFLY`
//! cluster's, character for character (SimGrid's manual, "Cluster
//! topologies"; `FatTreeZone::parse_topo_parameters`,
//! `DragonflyZone::parse_specific_arguments`), so that host node i is
//! SimGrid's host i of a cluster with the same parameters.

use super::{parse_size, MAX_TLEAF_LEAVES};
use crate::error::{Error, Result};

/// Most links of a fat tree or dragonfly: link loads are one counter each.
pub const MAX_NETWORK_LINKS: u64 = 1 << 28;

/// A fat tree as SimGrid's `FatTreeZone` builds it (Zahavi's parallel
/// ports generalised fat tree): `levels` switch levels above the host
/// nodes; a switch of level i (1 = the leaf switches) has `down[i-1]`
/// children, a node of level i−1 has `up[i-1]` parents and `ports[i-1]`
/// parallel links to each. Host nodes: Π down.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FatTreeShape {
    /// Children per switch, level 1 (leaf switches) first.
    pub down: Vec<u64>,
    /// Parents per node, host nodes' first.
    pub up: Vec<u64>,
    /// Parallel links between a node and each of its parents, host nodes' first.
    pub ports: Vec<u64>,
}

impl FatTreeShape {
    /// Switch levels.
    pub fn levels(&self) -> usize {
        self.down.len()
    }
    /// Host nodes: Π down.
    pub fn leaves(&self) -> u64 {
        self.down.iter().product()
    }
    /// Nodes at level `i` (0 = host nodes): Π up[..i] · Π down[i..]
    /// (`FatTreeZone::generate_switches`).
    pub fn nodes_at(&self, level: usize) -> u64 {
        self.up[..level].iter().product::<u64>() * self.down[level..].iter().product::<u64>()
    }
    /// Links between level `i` and level i+1: every node of level i has
    /// `up[i]` parents, `ports[i]` links to each.
    pub fn links_at(&self, level: usize) -> u64 {
        self.nodes_at(level) * self.up[level] * self.ports[level]
    }
    /// All links.
    pub fn links(&self) -> u64 {
        (0..self.levels()).map(|i| self.links_at(i)).sum()
    }
}

/// A dragonfly as SimGrid's `DragonflyZone` builds it (Cray Cascade's
/// layout): `groups` groups of `chassis` chassis of `routers` routers
/// ("blades"), `nodes` host nodes on each router; the routers of a chassis
/// all-to-all ("green" links), the routers of equal position in the
/// chassis of a group all-to-all ("black"), one link between every two
/// groups ("blue": group j's end is router j of the group's first
/// chassis). The link multiplicities scale a link's bandwidth in SimGrid.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DragonflyShape {
    /// Groups.
    pub groups: u64,
    /// Links bundled in each group-to-group (blue) link.
    pub blue: u64,
    /// Chassis per group.
    pub chassis: u64,
    /// Links bundled in each chassis-to-chassis (black) link.
    pub black: u64,
    /// Routers per chassis.
    pub routers: u64,
    /// Links bundled in each router-to-router (green) link.
    pub green: u64,
    /// Host nodes per router.
    pub nodes: u64,
}

impl DragonflyShape {
    /// Routers in all.
    pub fn router_count(&self) -> u64 {
        self.groups * self.chassis * self.routers
    }
    /// Host nodes: groups · chassis · routers · nodes.
    pub fn leaves(&self) -> u64 {
        self.router_count() * self.nodes
    }
    /// Host-to-router links.
    pub fn local_links(&self) -> u64 {
        self.leaves()
    }
    /// Router-to-router links inside the chassis.
    pub fn green_links(&self) -> u64 {
        self.groups * self.chassis * pairs(self.routers)
    }
    /// Chassis-to-chassis links inside the groups.
    pub fn black_links(&self) -> u64 {
        self.groups * pairs(self.chassis) * self.routers
    }
    /// Group-to-group links.
    pub fn blue_links(&self) -> u64 {
        pairs(self.groups)
    }
    /// All links.
    pub fn links(&self) -> u64 {
        self.local_links() + self.green_links() + self.black_links() + self.blue_links()
    }
}

/// Unordered pairs of `n` things.
pub(crate) fn pairs(n: u64) -> u64 {
    n * n.saturating_sub(1) / 2
}

/// `fattree:2;4,4;1,2;1,2`: levels, then children, parents and parallel
/// links per level, lowest level first.
pub(super) fn parse_fat_tree(whole: &str, body: &str) -> Result<FatTreeShape> {
    let example = "fattree:2;4,4;1,2;1,2 (levels; children per switch; parents per node; \
                   parallel links per parent; each list lowest level first)";
    let parts: Vec<&str> = body.split(';').collect();
    if parts.len() != 4 {
        return Err(Error::Spec(format!(
            "'{whole}': a fat tree is SimGrid's four parts separated by ';', {} given; write {example}",
            parts.len()
        )));
    }
    let levels = parse_count(whole, parts[0], "the number of levels")?;
    if levels > 16 {
        return Err(Error::Spec(format!(
            "'{whole}': {levels} levels; a fat tree here has at most 16"
        )));
    }
    let list = |k: usize, what: &str| -> Result<Vec<u64>> {
        let values: Vec<u64> = parts[k]
            .split(',')
            .map(|v| parse_count(whole, v, what))
            .collect::<Result<_>>()?;
        if values.len() as u64 != levels {
            return Err(Error::Spec(format!(
                "'{whole}': {levels} levels but {} {what} (part {}); give one per level, \
                 lowest level first: {example}",
                values.len(),
                k + 1
            )));
        }
        Ok(values)
    };
    let shape = FatTreeShape {
        down: list(1, "children counts")?,
        up: list(2, "parent counts")?,
        ports: list(3, "parallel-link counts")?,
    };
    let leaves = shape
        .down
        .iter()
        .try_fold(1u64, |n, &d| n.checked_mul(d))
        .filter(|&n| n <= MAX_TLEAF_LEAVES);
    if leaves.is_none() {
        return Err(Error::Spec(format!(
            "'{whole}' has more than 2^24 host nodes (the product of the children counts); \
             a fat tree here holds at most 2^24"
        )));
    }
    if leaves == Some(1) {
        return Err(Error::Spec(format!(
            "'{whole}' has a single host node; give some level at least 2 children"
        )));
    }
    check_links(whole, || {
        (0..shape.levels()).try_fold(0u64, |sum, level| {
            let nodes = shape.up[..level]
                .iter()
                .chain(&shape.down[level..])
                .try_fold(1u64, |n, &k| n.checked_mul(k))?;
            sum.checked_add(
                nodes
                    .checked_mul(shape.up[level])?
                    .checked_mul(shape.ports[level])?,
            )
        })
    })?;
    Ok(shape)
}

/// `dragonfly:3,1;4,1;3,1;2`: groups and blue links, chassis and black
/// links, routers and green links, host nodes per router.
pub(super) fn parse_dragonfly(whole: &str, body: &str) -> Result<DragonflyShape> {
    let example = "dragonfly:3,1;4,1;3,1;2 (groups,links; chassis per group,links; \
                   routers per chassis,links; host nodes per router)";
    let parts: Vec<&str> = body.split(';').collect();
    if parts.len() != 4 {
        return Err(Error::Spec(format!(
            "'{whole}': a dragonfly is SimGrid's four parts separated by ';', {} given; write {example}",
            parts.len()
        )));
    }
    let pair = |k: usize, what: &str| -> Result<(u64, u64)> {
        let Some((count, links)) = parts[k].split_once(',') else {
            return Err(Error::Spec(format!(
                "'{whole}': part {} ('{}') must be the number of {what} and the links between \
                 them, as 'COUNT,LINKS'; write {example}",
                k + 1,
                parts[k].trim()
            )));
        };
        Ok((
            parse_count(whole, count, &format!("the number of {what}"))?,
            parse_count(whole, links, &format!("the links between {what}"))?,
        ))
    };
    let (groups, blue) = pair(0, "groups")?;
    let (chassis, black) = pair(1, "chassis per group")?;
    let (routers, green) = pair(2, "routers per chassis")?;
    let nodes = parse_count(whole, parts[3], "the number of host nodes per router")?;
    let shape = DragonflyShape {
        groups,
        blue,
        chassis,
        black,
        routers,
        green,
        nodes,
    };
    if groups > routers {
        return Err(Error::Spec(format!(
            "'{whole}': {groups} groups but {routers} routers per chassis; SimGrid's dragonfly \
             joins group j to router j of every group's first chassis, so it needs at most as \
             many groups as routers per chassis"
        )));
    }
    let leaves = [groups, chassis, routers, nodes]
        .iter()
        .try_fold(1u64, |n, &k| n.checked_mul(k))
        .filter(|&n| n <= MAX_TLEAF_LEAVES);
    if leaves.is_none() {
        return Err(Error::Spec(format!(
            "'{whole}' has more than 2^24 host nodes; a dragonfly here holds at most 2^24"
        )));
    }
    if leaves == Some(1) {
        return Err(Error::Spec(format!("'{whole}' has a single host node")));
    }
    check_links(whole, || Some(shape.links()))?;
    Ok(shape)
}

/// A count of at least 1 (SimGrid refuses 0 everywhere).
fn parse_count(whole: &str, token: &str, what: &str) -> Result<u64> {
    let value = parse_size(whole, token)?;
    if value == 0 {
        return Err(Error::Spec(format!("'{whole}': {what} must be at least 1")));
    }
    Ok(value)
}

fn check_links(whole: &str, links: impl FnOnce() -> Option<u64>) -> Result<()> {
    match links() {
        Some(n) if n <= MAX_NETWORK_LINKS => Ok(()),
        _ => Err(Error::Spec(format!(
            "'{whole}' has more than 2^28 links; a network here holds at most 2^28"
        ))),
    }
}

/// `fattree:` body of a shape.
pub(super) fn fat_tree_body(shape: &FatTreeShape) -> String {
    let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
    format!(
        "{};{};{};{}",
        shape.levels(),
        list(&shape.down),
        list(&shape.up),
        list(&shape.ports)
    )
}

/// `dragonfly:` body of a shape.
pub(super) fn dragonfly_body(s: &DragonflyShape) -> String {
    format!(
        "{},{};{},{};{},{};{}",
        s.groups, s.blue, s.chassis, s.black, s.routers, s.green, s.nodes
    )
}
