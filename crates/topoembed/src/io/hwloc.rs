//! hwloc topology files (`lstopo --of xml`, hwloc 2.x and 1.x) as the tree
//! of one node: machine, packages, dies, groups, NUMA nodes, caches, cores,
//! hardware threads (PUs).
//!
//! The tree kept is the CPU side: every object above the leaves (PUs, or
//! cores when asked) that holds some leaf; memory children (hwloc 2.x's
//! NUMANode and MemCache objects), I/O and Misc objects are left out, and
//! an object with a single kept child is merged into it (an L1i cache per
//! core adds no level: nothing two cores share is told apart by it). The
//! leaves are numbered in tree order, which is hwloc's logical order.
//!
//! NUMA: each leaf's NUMA node is the memory child of its nearest ancestor
//! that has one (hwloc 2.x) or its nearest NUMANode ancestor (1.x); a
//! latency matrix over the NUMA nodes is read from `<distances2
//! type="NUMANode">` (kind with the means-latency bit, hwloc 2.x) or
//! `<distances>` over NUMANode objects (1.x, `latency_base` × `value`).

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::spec::HwlocLeaves;

/// Most leaves of a node read (pairs of them are the host's edges).
pub const MAX_HWLOC_LEAVES: usize = 1 << 20;

/// One node's tree, read from hwloc.
#[derive(Debug, Clone, PartialEq)]
pub struct HwlocTree {
    /// For each leaf, the merged tree's nodes from the root down to it.
    pub paths: Vec<Vec<u32>>,
    /// For each leaf, the index under its parent at each depth (root's
    /// children first): the leaf's coordinates.
    pub positions: Vec<Vec<u32>>,
    /// For each leaf, its NUMA node's row in `latency` (when there is one).
    pub numa: Vec<Option<usize>>,
    /// NUMA latencies (row-major, as hwloc gives them), when the file has them.
    pub latency: Option<(usize, Vec<u64>)>,
    /// The object type of each merged node (the lowest of a merged chain),
    /// by node id, for messages.
    pub kinds: Vec<String>,
}

/// Reads an hwloc XML file (`None`: this machine, from `lstopo`).
pub fn read_hwloc(path: Option<&Path>, leaves: HwlocLeaves) -> Result<HwlocTree> {
    let (name, text) = match path {
        Some(path) => (
            path.to_path_buf(),
            std::fs::read_to_string(path)
                .map_err(|e| Error::File(format!("{}: cannot read: {e}", path.display())))?,
        ),
        None => (PathBuf::from("lstopo"), this_machine()?),
    };
    parse_hwloc(&name, &text, leaves)
}

/// This machine's topology, as `lstopo --of xml -` writes it.
fn this_machine() -> Result<String> {
    for program in ["lstopo-no-graphics", "lstopo"] {
        if let Ok(out) = std::process::Command::new(program)
            .args(["--of", "xml", "-"])
            .output()
        {
            if out.status.success() {
                return String::from_utf8(out.stdout)
                    .map_err(|_| Error::File(format!("{program} wrote XML that is not UTF-8")));
            }
        }
    }
    Err(Error::File(
        "hwloc: reads this machine with lstopo, which is not installed (Debian: apt-get \
         install hwloc); or give a file written elsewhere: lstopo --of xml node.xml, then \
         hwloc:node.xml"
            .to_string(),
    ))
}

/// Object types of the CPU side that can hold leaves.
const CPU_TYPES: [&str; 17] = [
    "Machine", "System", "Package", "Socket", "Die", "Group", "NUMANode", "Cache", "L1Cache",
    "L2Cache", "L3Cache", "L4Cache", "L5Cache", "L1iCache", "L2iCache", "L3iCache", "Core",
];

/// [`read_hwloc`] on text already read; `path` names it in errors.
pub fn parse_hwloc(path: &Path, text: &str, leaves: HwlocLeaves) -> Result<HwlocTree> {
    // hwloc's files name their DTD (hwloc2.dtd); it is not fetched.
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    let doc = roxmltree::Document::parse_with_options(text, options).map_err(|e| {
        let pos = e.pos();
        Error::File(format!(
            "{}:{}:{}: not hwloc XML: {e}",
            path.display(),
            pos.row,
            pos.col
        ))
    })?;
    let at = |node: roxmltree::Node, why: &str| {
        let pos = doc.text_pos_at(node.range().start);
        Error::File(format!("{}:{}:{}: {why}", path.display(), pos.row, pos.col))
    };
    let root = doc.root_element();
    if root.tag_name().name() != "topology" {
        return Err(at(
            root,
            &format!(
                "the root element is <{}>, not hwloc's <topology>; write the file with \
                 lstopo --of xml FILE",
                root.tag_name().name()
            ),
        ));
    }
    let version2 = root.attribute("version").is_some();
    let Some(top) = root.children().find(|n| n.has_tag_name("object")) else {
        return Err(at(
            root,
            "the topology has no <object> (hwloc writes the Machine first)",
        ));
    };
    let mut reader = Reader {
        leaves,
        version2,
        tree: HwlocTree {
            paths: Vec::new(),
            positions: Vec::new(),
            numa: Vec::new(),
            latency: None,
            kinds: Vec::new(),
        },
        numa_os: Vec::new(),
        numa_nodes: Vec::new(),
    };
    let mut path_now = Vec::new();
    let mut position_now = Vec::new();
    reader.walk(top, &mut path_now, &mut position_now, None, &at)?;
    if reader.tree.paths.is_empty() {
        let what = match leaves {
            HwlocLeaves::Pus => "PU objects (hardware threads)",
            HwlocLeaves::Cores => "Core objects (hwloc:cores: asks for cores)",
        };
        return Err(at(top, &format!("the topology has no {what}")));
    }
    if reader.tree.paths.len() < 2 {
        return Err(at(
            top,
            "the topology has a single leaf; topoembed needs at least 2",
        ));
    }
    reader.read_latencies(root, &at)?;
    let mut tree = reader.tree;
    // Pad coordinates to one length (the mapper reads them by axis).
    let depth = tree.positions.iter().map(Vec::len).max().unwrap_or(0);
    for p in &mut tree.positions {
        p.resize(depth, 0);
    }
    Ok(tree)
}

struct Reader {
    leaves: HwlocLeaves,
    version2: bool,
    tree: HwlocTree,
    /// For each NUMA node met, its os_index; a leaf's `numa` indexes this
    /// until the latency matrix renumbers it.
    numa_os: Vec<u64>,
    /// 1.x: the NUMANode objects in logical order (their os_index).
    numa_nodes: Vec<u64>,
}

impl Reader {
    /// Whether `node` is a leaf of the tree kept.
    fn is_leaf(&self, kind: &str) -> bool {
        match self.leaves {
            HwlocLeaves::Pus => kind == "PU",
            HwlocLeaves::Cores => kind == "Core",
        }
    }

    /// The CPU children of `node` (module docs), and its NUMA memory child.
    fn children<'a, 'i>(
        &self,
        node: roxmltree::Node<'a, 'i>,
    ) -> (Vec<roxmltree::Node<'a, 'i>>, Option<u64>) {
        let mut cpu = Vec::new();
        let mut memory = None;
        for child in node.children().filter(|n| n.has_tag_name("object")) {
            let kind = child.attribute("type").unwrap_or("");
            let holds_cpus = child
                .descendants()
                .any(|d| d.has_tag_name("object") && d.attribute("type") == Some("PU"));
            if kind == "NUMANode" && (self.version2 || !holds_cpus) {
                memory =
                    memory.or_else(|| child.attribute("os_index").and_then(|v| v.parse().ok()));
            } else if kind == "PU" || (CPU_TYPES.contains(&kind) && holds_cpus) {
                cpu.push(child);
            }
        }
        (cpu, memory)
    }

    fn walk(
        &mut self,
        node: roxmltree::Node,
        path: &mut Vec<u32>,
        positions: &mut Vec<u32>,
        numa: Option<usize>,
        at: &dyn Fn(roxmltree::Node, &str) -> Error,
    ) -> Result<()> {
        let kind = node.attribute("type").unwrap_or("");
        if kind.is_empty() {
            return Err(at(node, "an <object> without a type attribute"));
        }
        let (children, memory) = self.children(node);
        let mut numa = numa;
        let own_numa = if !self.version2 && kind == "NUMANode" {
            node.attribute("os_index")
                .and_then(|v| v.parse::<u64>().ok())
        } else {
            memory
        };
        if let Some(os) = own_numa {
            if !self.version2 && kind == "NUMANode" {
                self.numa_nodes.push(os);
            }
            numa = Some(match self.numa_os.iter().position(|&o| o == os) {
                Some(k) => k,
                None => {
                    self.numa_os.push(os);
                    self.numa_os.len() - 1
                }
            });
        }
        if self.is_leaf(kind) {
            if self.tree.paths.len() >= MAX_HWLOC_LEAVES {
                return Err(at(
                    node,
                    "more than 2^20 leaves; a node here has at most 2^20",
                ));
            }
            self.tree.paths.push(path.clone());
            self.tree.positions.push(positions.clone());
            self.tree.numa.push(numa);
            return Ok(());
        }
        // One child: merged into it (no level of its own).
        let id = if children.len() > 1 {
            let id = self.tree.kinds.len() as u32;
            self.tree.kinds.push(kind.to_string());
            Some(id)
        } else {
            None
        };
        for (k, child) in children.into_iter().enumerate() {
            if let Some(id) = id {
                path.push(id);
                positions.push(k as u32);
            }
            self.walk(child, path, positions, numa, at)?;
            if id.is_some() {
                path.pop();
                positions.pop();
            }
        }
        Ok(())
    }

    /// The NUMA latency matrix, renumbering each leaf's NUMA node to its row.
    fn read_latencies(
        &mut self,
        root: roxmltree::Node,
        at: &dyn Fn(roxmltree::Node, &str) -> Error,
    ) -> Result<()> {
        let numbers = |node: roxmltree::Node, what: &str| -> Result<Vec<u64>> {
            node.text()
                .unwrap_or("")
                .split_whitespace()
                .map(|w| {
                    w.parse::<u64>()
                        .map_err(|_| at(node, &format!("'{w}' in {what} is not a whole number")))
                })
                .collect()
        };
        // hwloc 2.x.
        for d in root.children().filter(|n| n.has_tag_name("distances2")) {
            let latency = d
                .attribute("kind")
                .and_then(|k| k.parse::<u64>().ok())
                .is_some_and(|k| k & 4 != 0)
                || d.attribute("name") == Some("NUMALatency");
            if d.attribute("type") != Some("NUMANode") || !latency {
                continue;
            }
            let n: usize = d
                .attribute("nbobjs")
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| at(d, "<distances2> without a number of objects (nbobjs)"))?;
            let index_node = d
                .children()
                .find(|c| c.has_tag_name("indexes"))
                .ok_or_else(|| at(d, "<distances2> without <indexes>"))?;
            let indexes = numbers(index_node, "<indexes>")?;
            let values: Vec<u64> = d
                .children()
                .filter(|c| c.has_tag_name("u64values"))
                .map(|c| numbers(c, "<u64values>"))
                .collect::<Result<Vec<_>>>()?
                .concat();
            if indexes.len() != n || values.len() != n * n {
                return Err(at(
                    d,
                    &format!(
                        "<distances2> over {n} objects has {} indexes and {} values (want {n} and {})",
                        indexes.len(),
                        values.len(),
                        n * n
                    ),
                ));
            }
            let by_gp = d.attribute("indexing") == Some("gp");
            let os_of = |index: u64| -> Option<u64> {
                if !by_gp {
                    return Some(index);
                }
                root.descendants()
                    .find(|o| {
                        o.attribute("type") == Some("NUMANode")
                            && o.attribute("gp_index").and_then(|g| g.parse().ok()) == Some(index)
                    })
                    .and_then(|o| o.attribute("os_index").and_then(|v| v.parse().ok()))
            };
            let rows: Vec<Option<u64>> = indexes.iter().map(|&i| os_of(i)).collect();
            return self.set_latency(n, values, &rows, d, at);
        }
        // hwloc 1.x: over the NUMANode objects, in logical order.
        for d in root.descendants().filter(|n| n.has_tag_name("distances")) {
            let n: usize = d
                .attribute("nbobjs")
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            if n == 0 || n != self.numa_nodes.len() {
                continue;
            }
            let base: f64 = d
                .attribute("latency_base")
                .and_then(|v| v.parse().ok())
                .unwrap_or(1.0);
            let values: Vec<u64> = d
                .children()
                .filter(|c| c.has_tag_name("latency"))
                .map(|c| {
                    c.attribute("value")
                        .and_then(|v| v.parse::<f64>().ok())
                        .filter(|v| v.is_finite() && *v >= 0.0)
                        .map(|v| (v * base).round() as u64)
                        .ok_or_else(|| at(c, "a <latency> without a number value"))
                })
                .collect::<Result<_>>()?;
            if values.len() != n * n {
                return Err(at(
                    d,
                    &format!(
                        "<distances> over {n} objects has {} latencies, not {}",
                        values.len(),
                        n * n
                    ),
                ));
            }
            let rows: Vec<Option<u64>> = self.numa_nodes.iter().map(|&os| Some(os)).collect();
            return self.set_latency(n, values, &rows, d, at);
        }
        Ok(())
    }

    /// Keeps the matrix whose row k is NUMA node `rows[k]` (an os_index).
    fn set_latency(
        &mut self,
        n: usize,
        values: Vec<u64>,
        rows: &[Option<u64>],
        node: roxmltree::Node,
        at: &dyn Fn(roxmltree::Node, &str) -> Error,
    ) -> Result<()> {
        if (0..n).any(|k| values[k * n + k] == 0) {
            return Err(at(node, "a NUMA node's latency to itself is 0"));
        }
        let mut row_of = Vec::with_capacity(self.numa_os.len());
        for &os in &self.numa_os {
            let row = rows.iter().position(|&r| r == Some(os)).ok_or_else(|| {
                at(
                    node,
                    &format!("the latency matrix has no row for NUMA node {os}"),
                )
            })?;
            row_of.push(row);
        }
        for numa in &mut self.tree.numa {
            *numa = numa.map(|k| row_of[k]);
        }
        self.tree.latency = Some((n, values));
        Ok(())
    }
}
