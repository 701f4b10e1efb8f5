//! A fat tree routed as SimGrid routes its `FAT_TREE` clusters
//! (`src/kernel/routing/FatTreeZone.cpp`, SimGrid 3.32).
//!
//! Every node of level i (0 = host nodes, L = the top switches) has a label
//! of L digits; digit j counts up to `up[j]` when j < i and to `down[j]`
//! otherwise, digit 0 fastest, and a node's position in its level is its
//! label read in that mixed radix — so host node p's label is p in the
//! radix of the children counts, and host node i is SimGrid's host i. A
//! node of level i+1 is a parent of a node of level i when their labels
//! agree but for digit i; between them run `ports[i]` parallel links.
//!
//! Routes (`FatTreeZone::get_local_route`): up while the destination is
//! not below the current node, taking at level i the parent port
//! d = ⌊b / Π_{j<i} up[j]⌋ mod up[i]·ports[i] (d-mod-k: parent digit
//! d mod up[i], parallel link ⌊d / up[i]⌋); then down, on the
//! parallel link `a mod ports[i]`, scanning the child ports as SimGrid's
//! loop does. Two host nodes whose labels differ highest at digit h meet at
//! level h + 1: their route has 2(h + 1) links, the distance here.
//! Links are cables: a link's load counts the routes over it in either
//! direction (SimGrid's SPLITDUPLEX cluster has one link each way).

use std::ops::Range;

use super::{EdgeBuffer, Topology};
use super::{Network, PairGraph};
use crate::spec::{FatTreeShape, Spec};

/// Most levels (labels live on the stack).
const MAX_LEVELS: usize = 16;

/// A fat tree (module docs).
#[derive(Debug, Clone)]
pub struct FatTree {
    spec: Spec,
    shape: FatTreeShape,
    leaves: u64,
    /// Host nodes under one switch of each level: Π down[..j] for digit j.
    strides: Vec<u64>,
    /// First link id of each level's links (level i to i+1), then the total.
    offsets: Vec<u64>,
}

type Label = [u64; MAX_LEVELS];

impl FatTree {
    /// The fat tree of `shape` (checked by the spec parser).
    pub fn new(shape: &FatTreeShape) -> FatTree {
        let mut offsets = vec![0];
        for level in 0..shape.levels() {
            offsets.push(offsets[level] + shape.links_at(level));
        }
        let strides = (0..shape.levels())
            .map(|j| shape.down[..j].iter().product())
            .collect();
        FatTree {
            spec: Spec::FatTree(shape.clone()),
            shape: shape.clone(),
            leaves: shape.leaves(),
            strides,
            offsets,
        }
    }

    /// Host node p's label: p in the radix of the children counts.
    fn leaf_label(&self, mut p: u64) -> Label {
        let mut label = [0; MAX_LEVELS];
        for (digit, &d) in label.iter_mut().zip(&self.shape.down) {
            *digit = p % d;
            p /= d;
        }
        label
    }

    /// Position in its level of the node of `level` labelled `label`.
    fn position(&self, level: usize, label: &Label) -> u64 {
        let s = &self.shape;
        let mut position = 0;
        let mut scale = 1;
        for (j, &digit) in label[..s.levels()].iter().enumerate() {
            position += digit * scale;
            scale *= if j < level { s.up[j] } else { s.down[j] };
        }
        position
    }

    /// The highest digit in which host nodes `a != b` differ: they meet at
    /// level h + 1.
    /// (Digits j and above agree exactly when a / stride_j = b / stride_j.)
    pub fn meeting_digit(&self, a: u64, b: u64) -> usize {
        self.strides
            .iter()
            .rposition(|&s| a / s != b / s)
            .unwrap_or(0)
    }

    /// The link between the node of `level` at `position` and its parent
    /// of digit `parent`, parallel link `port`.
    fn link(&self, level: usize, position: u64, parent: u64, port: u64) -> u64 {
        let s = &self.shape;
        self.offsets[level] + (position * s.up[level] + parent) * s.ports[level] + port
    }
}

impl Topology for FatTree {
    super::pair_graph_methods!();
    fn spec(&self) -> &Spec {
        &self.spec
    }
    fn node_count(&self) -> u64 {
        self.leaves
    }
    fn diameter(&self) -> u64 {
        let top = (0..self.shape.levels())
            .rev()
            .find(|&j| self.shape.down[j] > 1);
        top.map_or(0, |h| 2 * (h as u64 + 1))
    }
    #[inline]
    fn distance(&self, a: u64, b: u64) -> u64 {
        if a == b {
            0
        } else {
            2 * (self.meeting_digit(a, b) as u64 + 1)
        }
    }
    /// The label's digits, top level first (the index under each switch level).
    fn coords(&self, v: u64) -> Vec<u64> {
        let label = self.leaf_label(v);
        label[..self.shape.levels()].iter().rev().copied().collect()
    }
    /// One class per level: the digit where the pair's labels differ highest.
    fn edge_classes(&self) -> u32 {
        self.shape.levels() as u32
    }
    fn push_edges(&self, nodes: Range<u64>, edges: &mut EdgeBuffer) {
        PairGraph {
            leaves: self.leaves,
        }
        .push_edges(nodes, edges, |u, v| self.meeting_digit(u, v) as u32);
    }
    fn network(&self) -> Option<&dyn Network> {
        Some(self)
    }
}

impl Network for FatTree {
    fn link_count(&self) -> u64 {
        self.offsets[self.shape.levels()]
    }
    fn link_classes(&self) -> u32 {
        self.shape.levels() as u32
    }
    fn link_class(&self, link: u64) -> u32 {
        (self.offsets.partition_point(|&o| o <= link) - 1) as u32
    }
    fn class_name(&self, class: u32) -> String {
        match class {
            0 => "hosts to level 1".to_string(),
            c => format!("level {c} to {}", c + 1),
        }
    }
    fn route_links(&self, a: u64, b: u64, links: &mut Vec<u64>) {
        if a == b {
            return;
        }
        let s = &self.shape;
        let levels = s.levels();
        let dest = self.leaf_label(b);
        let mut label = self.leaf_label(a);
        let mut level = 0;
        let mut divisor = 1u64;
        // Up, d-mod-k.
        while level == 0 || label[level..levels] != dest[level..levels] {
            let k = s.up[level] * s.ports[level];
            let d = (b / divisor) % k;
            let (parent, port) = (d % s.up[level], d / s.up[level]);
            links.push(self.link(level, self.position(level, &label), parent, port));
            label[level] = parent;
            level += 1;
            divisor = divisor.saturating_mul(s.up[level - 1]);
        }
        // Down: SimGrid's loop over the child ports, whose bound and test
        // follow the node it has just stepped to.
        while level > 0 {
            let mut i = (a % s.ports[level - 1]) * s.down[level - 1];
            while level > 0 && i < s.down[level - 1] * s.ports[level - 1] {
                let l = level - 1;
                if i % s.down[l] == dest[l] {
                    let parent = label[l];
                    label[l] = i % s.down[l];
                    links.push(self.link(l, self.position(l, &label), parent, i / s.down[l]));
                    level = l;
                }
                i += 1;
            }
        }
    }
    fn describe_routing(&self) -> String {
        "SimGrid's fat-tree routing (up d-mod-k to the nearest common switch, then down)"
            .to_string()
    }
}
