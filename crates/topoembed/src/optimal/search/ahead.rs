//! Look-ahead: while dimension k's copy is being placed ([`crate::optimal::search::copies`]),
//! the copy dimension k + 1 will need is kept to arc consistency over the
//! nodes placed so far, so that a partial placement none of whose
//! completions can open dimension k + 1 is dropped before it is completed.
//!
//! Once the (k+1)-cube is placed, dimension k + 1 opens: every node
//! 2^(k+1) + x must sit on the sphere of radius D_{k+1} around f(x), apart
//! from every node placed, at distance D_j from its neighbour along j.
//! While the (k+1)-cube is still being placed, f(x) is known for the nodes
//! placed so far; their next copy's domains (the sphere minus the nodes
//! taken) pruned by arc consistency over the edges between them are a
//! superset of what the opening would compute for any completion (more
//! nodes taken, more edges: arc consistency is monotone). So an empty one
//! means no completion opens dimension k + 1 with that distance.
//!
//! On torus:32x32's vector 1,2,2,4,5,5,5,5,5,11 the search spends 86 % of
//! its time opening dimension 6, and 99.95 % of those openings fail: the
//! look-ahead finds most of them while dimension 5's copy is half placed.
//! Only for a fixed vector (D_{k+1} known while dimension k fills).

use crate::optimal::host::SearchHost;
use crate::optimal::search::copies::{Domains, UNKNOWN};

/// The next dimension's copy, over the nodes placed so far.
#[derive(Default)]
pub(in crate::optimal) struct Ahead {
    /// The copy of dimension k + 1 while dimension k fills.
    next: Domains,
    /// The copy nodes placed since [`Ahead::begin`], in order.
    revealed: Vec<usize>,
}

/// Where to undo to: the domains saved, and how many nodes were placed.
pub(in crate::optimal) type Mark = (usize, usize);

impl Ahead {
    /// Sets up dimension `level`'s copy over the nodes below 2^(level−1)
    /// (`place`, `used` marking every host node taken), pruned to arc
    /// consistency. False when a domain is empty: no placement of the
    /// dimension level − 1 copy opens dimension `level` at `dims[level]`.
    pub(in crate::optimal) fn begin(
        &mut self,
        h: &SearchHost,
        level: usize,
        dims: &[u32],
        place: &[u16],
        used: &[bool],
    ) -> bool {
        self.revealed.clear();
        let mut centres = place[..1 << (level - 1)].to_vec();
        centres.resize(1 << level, UNKNOWN);
        self.next.open(h, level, dims, &centres, used)
    }

    /// Back to [`Ahead::begin`]'s domains (a new start of the filling copy).
    pub(in crate::optimal) fn reset(&mut self) {
        for x in self.revealed.drain(..) {
            self.next.hide(x);
        }
        self.next.rewind();
    }

    /// Where [`Ahead::undo`] goes back to.
    pub(in crate::optimal) fn mark(&mut self) -> Mark {
        (self.next.save(), self.revealed.len())
    }

    /// Undoes every change since `mark`.
    pub(in crate::optimal) fn undo(&mut self, (saved, revealed): Mark) {
        self.next.restore(saved);
        for x in self.revealed.drain(revealed..) {
            self.next.hide(x);
        }
    }

    /// Whether the next copy's known nodes can still sit on distinct
    /// host nodes ([`Domains::distinct`]).
    pub(in crate::optimal) fn distinct(&mut self, h: &SearchHost) -> bool {
        self.next.distinct(h)
    }

    /// Node x (below 2^level) placed on host node u, `used` marking it and
    /// every node taken; false when the next copy cannot open any more.
    pub(in crate::optimal) fn place(
        &mut self,
        h: &SearchHost,
        x: usize,
        u: u16,
        used: &[bool],
    ) -> bool {
        self.revealed.push(x);
        self.next.reveal(h, x, u, used)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::optimal::search::constant::{
        decide_by_search, prepare, start_embedding, SearchAnswer,
    };
    use crate::optimal::search::copies::MAX_SPHERE;
    use crate::spec::Spec;

    /// Placed node by node, the look-ahead ends where opening the next
    /// dimension on the whole placement ends: the same domains when it
    /// opens, a refusal (at the last node or before) when it does not —
    /// on the sub-cubes of an embedding, with the next distance set to
    /// every value, the copy placed in label order and then, after an
    /// undo to the start, in reverse order.
    #[test]
    fn the_look_ahead_ends_where_opening_ends() {
        let (mut agreed, mut refused, mut early) = (0, 0, 0);
        for sides in [&[8u64, 8][..], &[4, 4, 4], &[16, 4], &[16, 8], &[32, 4]] {
            let host = Spec::Torus(sides.to_vec());
            let d = sides.iter().product::<u64>().trailing_zeros() as usize;
            let p = prepare(d as u32, &host).unwrap();
            let (_, dims, _) = start_embedding(d as u32, &host, p.xor_sum, p.standard_sum).unwrap();
            let SearchAnswer::Embedding(place) =
                decide_by_search(&p.h, &p.prefix_bound, &dims, 0, None)
            else {
                panic!("xor's or standard's distances embed");
            };
            for k in 1..d - 1 {
                let (half, size) = (1usize << k, 1usize << (k + 1));
                for next in 1..=p.h.diameter() {
                    if p.h.sphere(next).len() > MAX_SPHERE {
                        continue;
                    }
                    let mut trial = dims.clone();
                    trial[k + 1] = u32::from(next);
                    let mut used = vec![false; p.h.nodes()];
                    for &u in &place[..half] {
                        used[u as usize] = true;
                    }
                    let mut ahead = Ahead::default();
                    let begun = ahead.begin(&p.h, k + 1, &trial, &place[..half], &used);
                    let orders: [Vec<usize>; 2] =
                        [(half..size).collect(), (half..size).rev().collect()];
                    let mut whole = vec![false; p.h.nodes()];
                    for &u in &place[..size] {
                        whole[u as usize] = true;
                    }
                    let mut domains = Domains::default();
                    let opens = domains.open(&p.h, k + 1, &trial, &place[..size], &whole);
                    for order in &orders {
                        let start = ahead.mark();
                        let mut step_used = used.clone();
                        let mut placed_all = begun;
                        for (n, &x) in order.iter().enumerate().take_while(|_| begun) {
                            step_used[place[x] as usize] = true;
                            if !ahead.place(&p.h, x, place[x], &step_used) {
                                placed_all = false;
                                early += usize::from(n + 1 < order.len());
                                break;
                            }
                        }
                        assert_eq!(placed_all, opens, "{sides:?} k {k} D {next}");
                        if opens {
                            let now: Vec<_> = (0..size).map(|x| ahead.next.points(x)).collect();
                            assert_eq!(now, domains.opened(), "{sides:?} k {k} D {next}");
                            agreed += 1;
                        } else {
                            refused += 1;
                        }
                        ahead.undo(start);
                    }
                }
            }
        }
        assert!(
            agreed > 100 && refused > 20 && early > 10,
            "{agreed} {refused} {early}"
        );
    }
}
