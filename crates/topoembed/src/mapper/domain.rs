//! Host domains for dual recursive bipartitioning (Scotch's `arch_*.c`
//! idea: each architecture says how its domains split): a domain is a set
//! of host nodes; it splits in two halves of ⌊n/2⌋ and ⌈n/2⌉ nodes, but a
//! box of a grid, which splits between layers into two boxes.
//!
//! Grids split across their longest extent (halves stay boxes, so the
//! domain tree follows the machine, and a torus's halves are the bands
//! whose wrap-around the gains see through the host distance); hypercubes
//! split on a bit; hierarchies (tleaf, fat tree, dragonfly) split at the
//! highest level the domain spans (nodes before sockets before cores,
//! groups before chassis before routers, as the distances demand); any other
//! host splits by distance from two far-apart nodes.

use super::distance::HostDistance;
use crate::spec::Spec;

/// A set of host nodes, sorted, with where it sits for distances.
#[derive(Debug, Clone)]
pub struct Domain {
    /// Host nodes, ascending.
    pub nodes: Vec<u64>,
    /// A central node.
    pub rep: u64,
    /// Grid and cube hosts: twice the centre's coordinates (min + max per
    /// axis), so that two halves of a box are equally far from a third box
    /// that lies across both (a representative node would favour one).
    center: Option<Vec<u64>>,
}

impl Domain {
    /// The domain of `nodes` (non-empty), with its representative.
    pub fn new(host: &HostDistance, mut nodes: Vec<u64>) -> Domain {
        nodes.sort_unstable();
        let rep = representative(host, &nodes);
        let center = lattice(host).map(|_| {
            let coords: Vec<Vec<u64>> = nodes.iter().map(|&v| host.host().coords(v)).collect();
            (0..coords[0].len())
                .map(|a| {
                    let lo = coords.iter().map(|c| c[a]).min().unwrap_or(0);
                    let hi = coords.iter().map(|c| c[a]).max().unwrap_or(0);
                    lo + hi
                })
                .collect()
        });
        Domain { nodes, rep, center }
    }

    /// Twice the distance between two domains: between their centres on
    /// grids and cubes (wrap-around included), between their
    /// representatives elsewhere.
    pub fn distance2(&self, other: &Domain, host: &HostDistance) -> u64 {
        match (&self.center, &other.center, lattice(host)) {
            (Some(a), Some(b), Some(axes)) => a
                .iter()
                .zip(b)
                .zip(axes)
                .map(|((&x, &y), (side, wraps))| {
                    let d = x.abs_diff(y);
                    if wraps {
                        d.min(2 * side - d)
                    } else {
                        d
                    }
                })
                .sum(),
            _ => 2 * host.d(self.rep, other.rep),
        }
    }

    /// Splits into two halves (⌊n/2⌋ first), each a domain; `None` for one node.
    pub fn split(&self, host: &HostDistance) -> Option<(Domain, Domain)> {
        if self.nodes.len() < 2 {
            return None;
        }
        let (order, axis) = ordered(host, &self.nodes);
        let half = match (host.host().spec(), axis) {
            (spec, _) if spec.is_hierarchy() => tleaf_half(host, &order),
            (_, Some(axis)) if lattice(host).is_some() => box_half(host, &order, axis),
            _ => order.len() / 2,
        };
        Some((
            Domain::new(host, order[..half].to_vec()),
            Domain::new(host, order[half..].to_vec()),
        ))
    }
}

/// Where a tleaf domain (in [`ordered`]'s order) splits: between whole
/// subtrees of the highest level it spans, ⌊k/2⌋ of its k subtrees first —
/// 3 sockets split 1 | 2, never through a socket (which halving the node
/// count would do, leaving a socket's cores in two domains whose guest
/// vertices are cut apart at socket cost).
fn tleaf_half(host: &HostDistance, order: &[u64]) -> usize {
    let coords: Vec<Vec<u64>> = order.iter().map(|&v| host.host().coords(v)).collect();
    let axes = coords[0].len();
    let Some(axis) = (0..axes).find(|&a| coords.iter().any(|c| c[a] != coords[0][a])) else {
        return order.len() / 2;
    };
    let mut values: Vec<u64> = coords.iter().map(|c| c[axis]).collect();
    values.dedup();
    let last_first = values[values.len() / 2 - 1];
    coords.iter().take_while(|c| c[axis] <= last_first).count()
}

/// Where a box of a grid or cube host (in [`ordered`]'s order, along its
/// longest axis) splits: between the first ⌊k/2⌋ of the k layers across
/// that axis and the rest, so that both halves are boxes again — as
/// Scotch's mesh and torus architectures split. Halving the node count cut
/// through a layer where k is odd: mesh:3x3's first half was a column and
/// one node of the next, its halves' halves no boxes either, and the
/// bipartitioning's hop-bytes 10–25 % above Scotch's (delaunay_n15 onto
/// mesh:3x3, 4elt onto torus:3x3x3).
fn box_half(host: &HostDistance, order: &[u64], axis: usize) -> usize {
    let at = |v: u64| host.host().coords(v)[axis];
    let (lo, hi) = (at(order[0]), at(order[order.len() - 1]));
    // ⌊k/2⌋ of the k = hi − lo + 1 layers first.
    let cut = lo + (hi - lo).div_ceil(2);
    order.partition_point(|&v| at(v) < cut)
}

/// Grid hosts: (side, wraps) per axis; cubes: a mesh of 2s.
fn lattice(host: &HostDistance) -> Option<Vec<(u64, bool)>> {
    let spec = host.host().spec();
    match spec {
        Spec::Cube(d) => Some(vec![(2, false); *d as usize]),
        _ => {
            let (sides, wraps) = spec.grid()?;
            Some(sides.iter().copied().zip(wraps).collect())
        }
    }
}

/// The nodes in an order whose first half and second half are the split,
/// and the axis they are sorted along (none where sorted by distance).
fn ordered(host: &HostDistance, nodes: &[u64]) -> (Vec<u64>, Option<usize>) {
    let coords: Vec<Vec<u64>> = match host.host().spec() {
        Spec::Graph(_) | Spec::BinTree(_) | Spec::Slurm(..) => {
            return (by_distance(host, nodes), None)
        }
        _ => nodes.iter().map(|&v| host.host().coords(v)).collect(),
    };
    let axes = coords[0].len();
    let extent = |a: usize| {
        let lo = coords.iter().map(|c| c[a]).min().unwrap_or(0);
        let hi = coords.iter().map(|c| c[a]).max().unwrap_or(0);
        hi - lo
    };
    let axis = match host.host().spec() {
        // Top level first: parting there costs the most.
        spec if spec.is_hierarchy() => (0..axes).find(|&a| extent(a) > 0).unwrap_or(0),
        // Longest extent; ties to the last axis (the slowest in node ids).
        _ => (0..axes).rev().max_by_key(|&a| extent(a)).unwrap_or(0),
    };
    let mut order: Vec<usize> = (0..nodes.len()).collect();
    order.sort_by_key(|&k| (coords[k][axis], nodes[k]));
    (order.into_iter().map(|k| nodes[k]).collect(), Some(axis))
}

/// Any host: order by d(x, a) − d(x, b) for two far-apart nodes a and b.
fn by_distance(host: &HostDistance, nodes: &[u64]) -> Vec<u64> {
    let far = |from: u64| {
        *nodes
            .iter()
            .max_by_key(|&&x| (host.d(from, x), std::cmp::Reverse(x)))
            .expect("domains are not empty")
    };
    let a = far(nodes[0]);
    let b = far(a);
    // Distances from a fixed source in each pass (stored hosts cache one BFS).
    let from_a: Vec<u64> = nodes.iter().map(|&x| host.d(a, x)).collect();
    let mut keyed: Vec<(i128, u64)> = nodes
        .iter()
        .zip(from_a)
        .map(|(&x, da)| (i128::from(da) - i128::from(host.d(b, x)), x))
        .collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, x)| x).collect()
}

/// The node of a sample whose summed distance to a sample of the domain is
/// least (exact for small domains).
fn representative(host: &HostDistance, nodes: &[u64]) -> u64 {
    if nodes.len() <= 2 {
        return nodes[0];
    }
    let sample = |k: usize| -> Vec<u64> {
        let step = nodes.len().div_ceil(k).max(1);
        nodes.iter().copied().step_by(step).collect()
    };
    let (candidates, targets) = (sample(48), sample(192));
    candidates
        .into_iter()
        .min_by_key(|&c| {
            let total: u128 = targets.iter().map(|&t| u128::from(host.d(c, t))).sum();
            (total, c)
        })
        .expect("domains are not empty")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::Tleaf;

    /// Whether `nodes` are every node of the box their coordinates span.
    fn is_box(host: &dyn crate::topology::Topology, nodes: &[u64]) -> bool {
        let coords: Vec<Vec<u64>> = nodes.iter().map(|&v| host.coords(v)).collect();
        let volume: u64 = (0..coords[0].len())
            .map(|a| {
                let lo = coords.iter().map(|c| c[a]).min().unwrap();
                let hi = coords.iter().map(|c| c[a]).max().unwrap();
                hi - lo + 1
            })
            .product();
        volume == nodes.len() as u64
    }

    /// Grid domains split between layers of their longest axis, ⌊k/2⌋ of
    /// k layers first: every domain down to single nodes is a box, on odd
    /// sides too (mesh:3x3 splits into a column of 3 and a box of 6), and
    /// on even sides the halves are the halves of the node count.
    #[test]
    fn grid_domains_split_into_boxes() {
        for spec in [
            "mesh:3x3",
            "torus:3x5",
            "torus:3x3x3",
            "mesh:5x7x2",
            "torus:16x16",
            "cube:4",
        ] {
            let host = crate::topology::build(&spec.parse().unwrap()).unwrap();
            let dist = HostDistance::new(host.as_ref()).unwrap();
            let mut domains = vec![Domain::new(&dist, (0..host.node_count()).collect())];
            while let Some(domain) = domains.pop() {
                assert!(
                    is_box(host.as_ref(), &domain.nodes),
                    "{spec}: {:?}",
                    domain.nodes
                );
                if let Some((a, b)) = domain.split(&dist) {
                    let even = spec == "torus:16x16" || spec == "cube:4";
                    if even {
                        assert_eq!(a.nodes.len(), domain.nodes.len() / 2, "{spec}");
                    }
                    assert!(
                        a.nodes.len() <= b.nodes.len(),
                        "{spec}: the smaller half first"
                    );
                    domains.extend([a, b]);
                }
            }
        }
        let host = crate::topology::build(&"mesh:3x3".parse().unwrap()).unwrap();
        let dist = HostDistance::new(host.as_ref()).unwrap();
        let (a, b) = Domain::new(&dist, (0..9).collect()).split(&dist).unwrap();
        assert_eq!((a.nodes.len(), b.nodes.len()), (3, 6));
    }

    #[test]
    fn tleaf_domains_split_between_whole_subtrees() {
        // 2 nodes x 3 sockets x 2 cores: leaf = node·6 + socket·2 + core.
        let host = Tleaf::new(&[2, 3, 2], &[100, 10, 1]);
        let dist = HostDistance::new(&host).unwrap();
        let all = Domain::new(&dist, (0..12).collect());
        let (a, b) = all.split(&dist).unwrap();
        assert_eq!(
            (a.nodes.clone(), b.nodes.clone()),
            ((0..6).collect(), (6..12).collect())
        );
        // Three sockets: one | two, not three cores each.
        let (s1, s2) = a.split(&dist).unwrap();
        assert_eq!(s1.nodes, vec![0, 1]);
        assert_eq!(s2.nodes, vec![2, 3, 4, 5]);
        let (c1, c2) = s2.split(&dist).unwrap();
        assert_eq!((c1.nodes, c2.nodes), (vec![2, 3], vec![4, 5]));
    }
}
