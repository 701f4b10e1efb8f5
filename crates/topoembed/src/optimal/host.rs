//! A ring or torus with power-of-two sides as the exact search sees it:
//! nodes numbered with the first axis fastest (DESIGN.md), every distance
//! and every translation tabulated (the search asks for millions), the
//! nodes at each distance from node 0 ("spheres"), and the automorphisms
//! that fix node 0 (a reflection per axis, permutations of equal sides),
//! used to try only one node of each orbit where a dimension opens.

use crate::error::{Error, Result};
use crate::spec::Spec;

/// Largest cube searched.
pub const MAX_DIMENSION: u32 = 12;

/// The sides of a ring or torus host with power-of-two sides and 2^d nodes.
pub(in crate::optimal) fn torus_sides(d: u32, host: &Spec) -> Result<Vec<u32>> {
    let sides: Vec<u64> = match host {
        Spec::Ring(k) => vec![*k],
        Spec::Torus(s) => s.clone(),
        other => {
            return Err(Error::Mismatch(format!(
                "{other}: the search is over rings and tori (torus:AxB.., ring:N) with power-of-two sides"
            )))
        }
    };
    if let Some(k) = sides.iter().find(|k| !k.is_power_of_two()) {
        return Err(Error::Mismatch(format!(
            "{host}: side {k} is not a power of two; a d-cube has constant-distance embeddings only \
             onto tori whose sides are powers of two (try {})",
            Spec::Torus(sides.iter().map(|k| k.next_power_of_two()).collect())
        )));
    }
    let nodes: u128 = sides.iter().map(|&k| u128::from(k)).product();
    if nodes != 1u128 << d {
        return Err(Error::Mismatch(format!(
            "cube:{d} has {} nodes but {host} has {nodes}; give a host of 2^{d} nodes",
            1u128 << d
        )));
    }
    Ok(sides.iter().map(|&k| k as u32).collect())
}

/// The torus of the search.
pub struct SearchHost {
    n: usize,
    /// The sides, first axis first.
    sides: Vec<u32>,
    /// `from_zero[v]`: the distance from node 0 to v (the torus is
    /// vertex-transitive: d(a, b) = d(0, b − a)).
    from_zero: Vec<u16>,
    /// The top bit of every axis's field of a node's number (a side of
    /// 2^w takes w bits, the first axis the lowest): coordinates add per
    /// axis modulo the side as fields of one word, carries stopped at these
    /// bits (SWAR addition).
    tops: u32,
    /// `negated[a]`: the node at coordinates −a.
    negated: Vec<u16>,
    /// `spheres[r]`: the nodes at distance r from node 0, ascending.
    spheres: Vec<Vec<u16>>,
    /// The automorphisms fixing node 0, each as the image of every node.
    symmetries: Vec<Vec<u16>>,
}

impl SearchHost {
    /// The torus of `sides` (each a power of two, the product at most 2^16).
    pub fn new(sides: &[u32]) -> SearchHost {
        let n: usize = sides.iter().map(|&k| k as usize).product();
        let coords: Vec<Vec<u32>> = (0..n).map(|v| coords_of(sides, v)).collect();
        let index = |c: &[u32]| -> usize {
            let mut v = 0usize;
            for (a, &k) in sides.iter().enumerate().rev() {
                v = v * k as usize + c[a] as usize;
            }
            v
        };
        let from_zero: Vec<u16> = coords
            .iter()
            .map(|c| {
                let along = sides.iter().zip(c);
                along.map(|(&k, &x)| x.min(k - x)).sum::<u32>() as u16
            })
            .collect();
        // Each axis's field starts where the product of the sides before
        // it does; its top bit is half its side further.
        let mut tops = 0u32;
        let mut stride = 1u32;
        for &k in sides {
            if k >= 2 {
                tops |= stride * (k / 2);
            }
            stride *= k;
        }
        let diameter: u32 = sides.iter().map(|&k| k / 2).sum();
        let mut spheres = vec![Vec::new(); diameter as usize + 1];
        for v in 0..n {
            spheres[from_zero[v] as usize].push(v as u16);
        }
        let negated: Vec<u16> = (0..n)
            .map(|v| {
                let minus: Vec<u32> = sides
                    .iter()
                    .zip(&coords[v])
                    .map(|(&k, &x)| (k - x) % k)
                    .collect();
                index(&minus) as u16
            })
            .collect();
        let symmetries = automorphisms(sides);
        let images: Vec<Vec<u16>> = symmetries
            .iter()
            .map(|s| {
                (0..n)
                    .map(|v| index(&s.apply(sides, &coords[v])) as u16)
                    .collect()
            })
            .collect();
        SearchHost {
            n,
            sides: sides.to_vec(),
            from_zero,
            tops,
            negated,
            spheres,
            symmetries: images,
        }
    }

    /// Number of nodes.
    pub fn nodes(&self) -> usize {
        self.n
    }
    /// Distance between nodes a and b.
    #[inline]
    pub fn d(&self, a: u16, b: u16) -> u16 {
        self.from_zero[self.sub(b, a) as usize]
    }
    /// The node at a + b (coordinates added per axis).
    #[inline]
    pub fn add(&self, a: u16, b: u16) -> u16 {
        let (a, b, tops) = (u32::from(a), u32::from(b), self.tops);
        let sum = ((a & !tops) + (b & !tops)) ^ ((a ^ b) & tops);
        (sum & (self.n as u32 - 1)) as u16
    }
    /// The node at a − b: the translation taking b to node 0 takes a there.
    #[inline]
    pub fn sub(&self, a: u16, b: u16) -> u16 {
        self.add(a, self.negated[b as usize])
    }
    /// The sides, first axis first.
    pub fn sides(&self) -> &[u32] {
        &self.sides
    }
    /// How far apart neighbours along `axis` are numbered (the product of
    /// the sides before it: the first axis is fastest).
    pub fn stride(&self, axis: usize) -> u32 {
        self.sides[..axis].iter().product()
    }
    /// How far node v is from the line of `axis` through node 0: its
    /// distance from node 0 over every other axis (the shorter way round
    /// each): 0 when v is on that line.
    pub fn off_axis(&self, v: u16, axis: usize) -> u32 {
        let mut rest = v as u32;
        let mut off = 0;
        for (a, &k) in self.sides.iter().enumerate() {
            let x = rest % k;
            rest /= k;
            if a != axis {
                off += x.min(k - x);
            }
        }
        off
    }
    /// The largest distance.
    pub fn diameter(&self) -> u16 {
        (self.spheres.len() - 1) as u16
    }
    /// Nodes at distance r from node 0.
    pub fn sphere(&self, r: u16) -> &[u16] {
        &self.spheres[r as usize]
    }
    /// The automorphisms fixing node 0 (the identity among them), each as
    /// the image of every node.
    pub fn symmetries(&self) -> &[Vec<u16>] {
        &self.symmetries
    }
    /// `caps[R]`: the most nodes y with d(0, y) + d(y, x) ≤ R over one
    /// node x ≠ 0 (the largest "ellipse" with foci 0 and x and string R),
    /// for R from 0 to twice the diameter.
    pub fn ellipse_caps(&self) -> Vec<usize> {
        let top = 2 * self.diameter() as usize;
        let mut caps = vec![0usize; top + 1];
        let mut count = vec![0usize; top + 1];
        for x in 1..self.n as u16 {
            count.fill(0);
            for y in 0..self.n as u16 {
                count[(self.d(0, y) + self.d(y, x)) as usize] += 1;
            }
            let mut within = 0;
            for (r, c) in count.iter().enumerate() {
                within += c;
                caps[r] = caps[r].max(within);
            }
        }
        caps
    }
    /// The sum of the `m` smallest distances from node 0 (the least Σ of
    /// distances from one node to m distinct nodes, itself included).
    pub fn nearest_sum(&self, m: usize) -> u64 {
        let mut left = m;
        let mut total = 0u64;
        for (r, sphere) in self.spheres.iter().enumerate() {
            let take = left.min(sphere.len());
            total += (take * r) as u64;
            left -= take;
        }
        total
    }
}

/// Coordinates of node v, first axis fastest.
fn coords_of(sides: &[u32], mut v: usize) -> Vec<u32> {
    sides
        .iter()
        .map(|&k| {
            let c = (v % k as usize) as u32;
            v /= k as usize;
            c
        })
        .collect()
}

/// An automorphism of the torus fixing node 0: coordinates permuted among
/// axes of equal side, then some axes reflected (x → −x).
struct Symmetry {
    permutation: Vec<usize>,
    reflect: Vec<bool>,
}

impl Symmetry {
    fn apply(&self, sides: &[u32], c: &[u32]) -> Vec<u32> {
        (0..c.len())
            .map(|a| {
                let x = c[self.permutation[a]];
                match self.reflect[a] {
                    true => (sides[a] - x) % sides[a],
                    false => x,
                }
            })
            .collect()
    }
}

/// Every automorphism of the torus fixing node 0 that permutes axes of
/// equal side and reflects axes (all of them for the tori searched here).
fn automorphisms(sides: &[u32]) -> Vec<Symmetry> {
    let c = sides.len();
    let mut all = Vec::new();
    for p in equal_permutations(sides) {
        for mask in 0..1u32 << c {
            all.push(Symmetry {
                permutation: p.clone(),
                reflect: (0..c).map(|a| mask >> a & 1 == 1).collect(),
            });
        }
    }
    all
}

/// Every permutation p of 0..values.len() with values[p[i]] = values[i]:
/// the axes' among equal sides, or the cube's dimensions' among equal
/// distances.
pub(in crate::optimal) fn equal_permutations(values: &[u32]) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    permute(&mut (0..values.len()).collect(), 0, values, &mut out);
    out
}

/// The permutations of [`equal_permutations`] that extend `p[..at]`.
fn permute(p: &mut Vec<usize>, at: usize, values: &[u32], out: &mut Vec<Vec<usize>>) {
    if at == p.len() {
        out.push(p.clone());
        return;
    }
    for k in at..p.len() {
        p.swap(at, k);
        if values[p[at]] == values[at] {
            permute(p, at + 1, values, out);
        }
        p.swap(at, k);
    }
}

/// Whether every side of the host is even (the torus is bipartite).
pub(in crate::optimal) fn bipartite(host: &Spec) -> bool {
    match host {
        Spec::Ring(k) => k % 2 == 0,
        Spec::Torus(s) => s.iter().all(|k| k % 2 == 0),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sums, differences and distances, computed on the node numbers,
    /// equal those of the coordinates on every pair of nodes of rings and
    /// tori of sides 2 to 16 (one or three axes, equal or not).
    #[test]
    fn node_arithmetic_is_the_coordinates() {
        for sides in [
            &[16u32][..],
            &[2],
            &[8, 4],
            &[2, 2, 2],
            &[4, 2, 8],
            &[16, 16],
        ] {
            let h = SearchHost::new(sides);
            let n = h.nodes();
            let coords: Vec<Vec<u32>> = (0..n).map(|v| coords_of(sides, v)).collect();
            let node = |c: &[u32]| coords.iter().position(|x| x == c).unwrap() as u16;
            for a in 0..n {
                for b in 0..n {
                    let along = sides.iter().zip(&coords[a]).zip(&coords[b]);
                    let (mut sum, mut diff, mut d) = (Vec::new(), Vec::new(), 0);
                    for ((&k, &x), &y) in along {
                        sum.push((x + y) % k);
                        diff.push((x + k - y) % k);
                        d += x.abs_diff(y).min(k - x.abs_diff(y));
                    }
                    let (a16, b16) = (a as u16, b as u16);
                    assert_eq!(h.add(a16, b16), node(&sum), "{sides:?} {a} + {b}");
                    assert_eq!(h.sub(a16, b16), node(&diff), "{sides:?} {a} - {b}");
                    assert_eq!(u32::from(h.d(a16, b16)), d, "{sides:?} d({a}, {b})");
                }
            }
        }
    }

    #[test]
    fn tables_match_the_torus() {
        let h = SearchHost::new(&[8, 4]);
        assert_eq!(h.nodes(), 32);
        // (1, 1) to (7, 3): 2 + 2 hops.
        assert_eq!(h.d(9, 7 + 8 * 3), 4);
        // (3, 2) + (6, 3) = (1, 1).
        assert_eq!(h.add(3 + 16, 6 + 24), 9);
        // (1, 1) − (6, 3) = (3, 2), and a − a = 0 everywhere.
        assert_eq!(h.sub(9, 6 + 24), 3 + 16);
        assert!((0..32).all(|a| h.sub(a, a) == 0 && h.add(h.sub(5, a), a) == 5));
        assert_eq!(h.diameter(), 6);
        assert_eq!(h.sphere(1), &[1, 7, 8, 24]);
        // On 8x4 the axes differ: reflections only, 4 symmetries; (1,0) ~ (7,0).
        assert_eq!(h.symmetries().len(), 4);
        assert!(h.symmetries().iter().any(|g| g[1] == 7));
        assert!(h.symmetries().iter().all(|g| g[1] != 8 && g[0] == 0));
        // 4x4: the axes swap too, so (1,0) ~ (0,1): 8 symmetries.
        let square = SearchHost::new(&[4, 4]);
        assert_eq!(square.symmetries().len(), 8);
        assert!(square.symmetries().iter().any(|g| g[1] == 4));
        assert_eq!(h.nearest_sum(5), 4);
        // Foci (0,0) and (1,0), string 1: just the two foci; string 3 on
        // 8x4: the 2 foci and 2 x 3 nodes one step off the segment, and
        // (7,0), (2,0): 10 (found by hand: d(0,y) + d(y,(1,0)) ≤ 3).
        let caps = h.ellipse_caps();
        assert_eq!(caps[0], 0);
        assert_eq!(caps[1], 2);
        assert_eq!(caps[2 * h.diameter() as usize], 32);
        assert_eq!(
            h.nearest_sum(32),
            (0..32).map(|v| u64::from(h.d(0, v))).sum::<u64>()
        );
    }
}
