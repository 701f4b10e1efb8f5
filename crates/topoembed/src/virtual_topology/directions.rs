//! Guest-side neighbours by name: the neighbour of a guest node in a named
//! direction, computed from the guest's shape alone (no embedding involved).

use serde::Serialize;

use crate::spec::Spec;
use crate::topology::Topology;

/// A direction in which a guest node has (or may have) a neighbour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Direction {
    /// Cube dimension i: the node with bit i flipped.
    Dimension(u32),
    /// Grid axis (0 = axis 1, the fastest), towards lower (`up: false`) or
    /// higher coordinates; rings and tori wrap around.
    Axis {
        /// Axis index, 0-based.
        axis: u32,
        /// Towards the higher coordinate.
        up: bool,
    },
    /// Tree: the parent.
    Parent,
    /// Tree: the left child.
    LeftChild,
    /// Tree: the right child.
    RightChild,
    /// Stored graphs: the k-th neighbour in the graph's order.
    Edge(u32),
}

impl Direction {
    /// The name a reader expects for this direction on `guest`: `dim3`;
    /// `left`/`right` on rings and lines; `west`/`east` (axis 1 down/up) and
    /// `north`/`south` (axis 2) on 2-D grids, as in the lecture notes;
    /// `axis3-`/`axis3+` beyond; `parent`, `left child`, `right child`; `edge2`.
    pub fn name(&self, guest: &Spec) -> String {
        let axes = guest.grid().map_or(0, |(sides, _)| sides.len());
        match *self {
            Direction::Dimension(i) => format!("dim{i}"),
            Direction::Axis { axis, up } => match (axes, axis, up) {
                (1, 0, false) => "left".into(),
                (1, 0, true) => "right".into(),
                (2, 0, false) => "west".into(),
                (2, 0, true) => "east".into(),
                (2, 1, false) => "north".into(),
                (2, 1, true) => "south".into(),
                _ => format!("axis{}{}", axis + 1, if up { '+' } else { '-' }),
            },
            Direction::Parent => "parent".into(),
            Direction::LeftChild => "left child".into(),
            Direction::RightChild => "right child".into(),
            Direction::Edge(k) => format!("edge{k}"),
        }
    }
}

/// Every direction a node of `guest` may have a neighbour in (for stored
/// graphs: one per neighbour of `node`).
pub fn directions(guest: &dyn Topology, node: u64) -> Vec<Direction> {
    match guest.spec() {
        Spec::Cube(d) => (0..*d).map(Direction::Dimension).collect(),
        Spec::BinTree(_) => vec![
            Direction::Parent,
            Direction::LeftChild,
            Direction::RightChild,
        ],
        Spec::Graph(_) => (0..guest.degree(node) as u32)
            .map(Direction::Edge)
            .collect(),
        spec => {
            let axes = spec.grid().map_or(0, |(s, _)| s.len() as u32);
            (0..axes)
                .flat_map(|axis| [false, true].map(|up| Direction::Axis { axis, up }))
                .collect()
        }
    }
}

/// The guest neighbour of `node` in direction `dir`, if there is one.
pub fn guest_neighbor(guest: &dyn Topology, node: u64, dir: Direction) -> Option<u64> {
    match (guest.spec(), dir) {
        (Spec::Cube(d), Direction::Dimension(i)) => (i < *d).then_some(node ^ (1 << i)),
        (Spec::BinTree(_), Direction::Parent) => (node > 0).then(|| (node - 1) / 2),
        (Spec::BinTree(_), Direction::LeftChild) => {
            Some(2 * node + 1).filter(|&c| c < guest.node_count())
        }
        (Spec::BinTree(_), Direction::RightChild) => {
            Some(2 * node + 2).filter(|&c| c < guest.node_count())
        }
        (Spec::Graph(_), Direction::Edge(k)) => guest.neighbors(node).get(k as usize).copied(),
        (spec, Direction::Axis { axis, up }) => {
            let (sides, wraps) = spec.grid()?;
            let side = *sides.get(axis as usize)?;
            let stride: u64 = sides[..axis as usize].iter().product();
            let x = (node / stride) % side;
            step(x, side, up, wraps[axis as usize]).map(|y| node - x * stride + y * stride)
        }
        _ => None,
    }
}

/// Coordinate `x` of an axis of `side` nodes moved one step up or down,
/// wrapping round when `wrap`; `None` off the end of a line, and on an axis
/// of one node.
pub(super) fn step(x: u64, side: u64, up: bool, wrap: bool) -> Option<u64> {
    let y = match (up, wrap) {
        (true, _) if x + 1 < side => x + 1,
        (true, true) => 0,
        (false, _) if x > 0 => x - 1,
        (false, true) => side - 1,
        _ => return None,
    };
    (y != x).then_some(y)
}
