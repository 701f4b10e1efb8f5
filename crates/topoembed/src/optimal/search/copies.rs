//! The second half of a sub-cube, placed as a constraint problem: once
//! dimension k opens (the nodes x < 2^k placed, f(2^k) chosen at D_k), every
//! node 2^k + x of the *copy* must sit on the sphere of radius D_k around
//! f(x), at distance D_j from its copy neighbour 2^k + (x ⊕ 2^j) and apart
//! from every node placed. [`Domains`] keeps each copy node's *domain* — the
//! points of its sphere still possible — and
//! * prunes it to arc consistency (AC-3, Mackworth 1977) over the copy's
//!   edges: a point with no partner at distance D_j in a neighbour's domain
//!   goes;
//! * removes a host node from every other domain once it is taken (the
//!   placement is one to one).
//!
//! So the branch and bound on one vector ([`crate::optimal::search::constant`]) learns that a
//! copy cannot be completed as soon as one domain empties, instead of
//! after placing every node before it in label order, and places the node
//! with the fewest points left first (most constrained first, Haralick &
//! Elliott 1980). On torus:32x32's hard vectors most openings of dimension
//! 5 have no completion at all; label order took ~27 000 nodes each to
//! find that out.
//!
//! Every point removed is one no embedding of the (k+1)-cube through the
//! nodes placed can use: the search stays complete, and what it reaches
//! (hence the cores of [`crate::optimal::search::vectors`]) is what label order reaches.
//!
//! The look-ahead ([`crate::optimal::search::ahead`]) keeps the next dimension's copy while
//! the nodes it hangs from are still being placed: a copy node whose f(x)
//! is not placed yet is [`UNKNOWN`], has no domain and prunes nothing
//! until [`Domains::reveal`] places it.

use crate::optimal::host::SearchHost;

/// Spheres larger than this many points are not kept as domains (the
/// caller then places the copy in label order).
pub const MAX_SPHERE: usize = 64;

/// One domain: a bit per point of the sphere.
type Domain = u64;

/// The centre of a copy node whose f(x) is not placed yet.
pub(in crate::optimal) const UNKNOWN: u16 = u16::MAX;

/// A pair table not made yet ([`Domains::pair_at`]).
const NOT_MADE: u32 = u32::MAX;

/// The domains of one level's copy and what prunes them.
#[derive(Default)]
pub(in crate::optimal) struct Domains {
    /// The sphere of radius D_k around node 0 (offsets), and each offset's
    /// place in it (`u16::MAX` where the offset is not on it).
    sphere: Vec<u16>,
    index: Vec<u16>,
    /// f(x) for x < 2^k: copy node 2^k + x's domain is relative to it
    /// ([`UNKNOWN`] where the look-ahead has not placed it yet).
    centre: Vec<u16>,
    /// The domains before f(2^k) is chosen ([`Domains::open`]) and now.
    base: Vec<Domain>,
    doms: Vec<Domain>,
    /// Whether copy node 2^k + x has been placed (x = 0: f(2^k)).
    placed: Vec<bool>,
    /// Domains saved before each placement, restored on the way back.
    trail: Vec<Domain>,
    /// The copy nodes to revise from.
    queue: NodeQueue,
    /// The table for dimension j and offset δ, once needed, at
    /// `pairs[pair_at[j · n + δ]..]` (n host nodes; [`NOT_MADE`] before),
    /// [`by_nibbles`]: the partners of point i are the points i' of the
    /// sphere around a centre δ away at distance D_j from point i of this
    /// one (a neighbour along dimension j), entry 16·⌊i/4⌋ + 2^(i mod 4).
    pair_at: Vec<u32>,
    pairs: Vec<Domain>,
    /// `edge[z · k + j]`: where the table for copy node z against its
    /// neighbour z ⊕ 2^j starts in `pairs`, set whenever both centres are
    /// known — so arc consistency looks up no offset and builds no table
    /// in its inner loop (it reads the table of the neighbour against the
    /// node revised).
    edge: Vec<u32>,
    /// D_0..D_k the tables were made for.
    dims: Vec<u32>,
    /// Distinct points for the copy nodes ([`Domains::distinct`]).
    matching: Matching,
}

impl Domains {
    /// Sets up the copy of the k-cube placed at `centres` (f(x) for every
    /// x < 2^k), `used` marking every host node taken: each copy node's
    /// domain, f(2^k)'s too, pruned to arc consistency. False when one is
    /// empty: no f(2^k) at D_k = `dims[k]` has a completion. The
    /// look-ahead ([`crate::optimal::search::ahead`]) leaves some centres [`UNKNOWN`]: arc
    /// consistency is then over the edges between the known.
    pub(in crate::optimal) fn open(
        &mut self,
        h: &SearchHost,
        k: usize,
        dims: &[u32],
        centres: &[u16],
        used: &[bool],
    ) -> bool {
        debug_assert!(h.sphere(dims[k] as u16).len() <= MAX_SPHERE && centres.len() == 1 << k);
        if self.dims != dims[..=k] {
            // The sphere and the pairs hold while D_0..D_k do.
            self.dims = dims[..=k].to_vec();
            self.sphere = h.sphere(dims[k] as u16).to_vec();
            self.index = vec![u16::MAX; h.nodes()];
            for (i, &o) in self.sphere.iter().enumerate() {
                self.index[o as usize] = i as u16;
            }
            self.pairs.clear();
            self.pair_at.clear();
            self.pair_at.resize(k * h.nodes(), NOT_MADE);
        }
        let half = 1usize << k;
        self.centre.clear();
        self.centre.extend_from_slice(centres);
        self.edge.clear();
        self.edge.resize(half * k, NOT_MADE);
        for x in 0..half {
            for j in 0..k {
                self.set_edge(h, k, x, j);
            }
        }
        self.doms.clear();
        self.placed.clear();
        self.placed.resize(half, false);
        self.trail.clear();
        self.queue.reset(half);
        let mut consistent = true;
        for x in 0..half {
            let dom = self.free_points(h, self.centre[x], used);
            consistent &= dom != 0 || self.centre[x] == UNKNOWN;
            self.doms.push(dom);
            if self.centre[x] != UNKNOWN {
                self.enqueue(x);
            }
        }
        let consistent = if consistent {
            self.propagate(k)
        } else {
            self.fail()
        };
        self.base.clone_from(&self.doms);
        consistent
    }

    /// The points of the sphere around `centre` on no taken node (none
    /// around an [`UNKNOWN`] one).
    fn free_points(&self, h: &SearchHost, centre: u16, used: &[bool]) -> Domain {
        if centre == UNKNOWN {
            return 0;
        }
        let points = self.sphere.iter().enumerate();
        points
            .filter(|&(_, &o)| !used[h.add(centre, o) as usize])
            .fold(0, |dom, (i, _)| dom | 1 << i)
    }

    /// Every copy node's domain as [`Domains::open`] left it.
    #[cfg(test)]
    pub(in crate::optimal) fn opened(&self) -> &[Domain] {
        &self.base
    }

    /// Whether f(2^k) may be point i of its sphere (node 0 at host node
    /// 0: the point is the host node `sphere[i]`).
    pub(in crate::optimal) fn allows(&self, i: usize) -> bool {
        self.base[0] >> i & 1 == 1
    }

    /// Starts the copy from f(2^k) = point i: the domains of
    /// [`Domains::open`], then `assign`. False when one empties.
    pub(in crate::optimal) fn start(&mut self, h: &SearchHost, k: usize, i: usize) -> bool {
        self.rewind();
        self.placed.fill(false);
        self.placed[0] = true;
        self.assign(h, k, 0, i)
    }

    /// The unplaced copy node (as x) with the fewest points left, the
    /// least x among equals; None when every one is placed.
    pub(in crate::optimal) fn most_constrained(&self) -> Option<usize> {
        (0..self.doms.len())
            .filter(|&x| !self.placed[x])
            .min_by_key(|&x| self.doms[x].count_ones())
    }

    /// Whether the known copy nodes can still sit on distinct host nodes,
    /// each on a point of its domain (Hall's condition, checked by a
    /// matching: Régin's alldifferent, 1994, without its filtering). Arc
    /// consistency only keeps a point taken out of every other domain; a
    /// copy node squeezed with others into fewer free points than they are
    /// passes it. The matching of the last call is kept and only the nodes
    /// whose point left their domain look again (Hopcroft & Karp's
    /// augmenting paths, one at a time): a call where nothing it used
    /// changed reads each node's point once.
    pub(in crate::optimal) fn distinct(&mut self, h: &SearchHost) -> bool {
        let half = self.doms.len();
        let m = &mut self.matching;
        m.fit(h.nodes(), half);
        m.free.clear();
        for x in 0..half {
            if self.centre[x] == UNKNOWN {
                m.point[x] = NONE;
                continue;
            }
            let i = m.point[x];
            let kept = i != NONE
                && self.doms[x] >> i & 1 == 1
                && m.owner[h.add(self.centre[x], self.sphere[i as usize]) as usize] == x as u16;
            if !kept {
                m.point[x] = NONE;
                m.free.push(x as u16);
            }
        }
        let free = std::mem::take(&mut m.free);
        let matched = free.iter().all(|&x| {
            self.matching.next_search();
            self.augment(h, x as usize)
        });
        self.matching.free = free;
        matched
    }

    /// Finds copy node x a point: a free host node of its domain, or one
    /// whose holder finds another (an augmenting path; each host node
    /// visited once per search).
    fn augment(&mut self, h: &SearchHost, x: usize) -> bool {
        let mut points = self.doms[x];
        while points != 0 {
            let i = points.trailing_zeros() as usize;
            points &= points - 1;
            let u = h.add(self.centre[x], self.sphere[i]) as usize;
            if self.matching.seen[u] == self.matching.stamp {
                continue;
            }
            self.matching.seen[u] = self.matching.stamp;
            let holder = self.holder(h, u);
            if holder.map_or(true, |y| self.augment(h, y)) {
                self.matching.point[x] = i as u16;
                self.matching.owner[u] = x as u16;
                return true;
            }
        }
        false
    }

    /// The copy node host node u is matched to, if the match still holds
    /// (a node whose point or centre changed since has let it go).
    fn holder(&self, h: &SearchHost, u: usize) -> Option<usize> {
        let y = self.matching.owner[u];
        let i = *self.matching.point.get(y as usize)?;
        let holds = i != NONE
            && self.centre[y as usize] != UNKNOWN
            && h.add(self.centre[y as usize], self.sphere[i as usize]) as usize == u;
        holds.then_some(y as usize)
    }

    /// The points left to copy node x, a bit per sphere index.
    pub(in crate::optimal) fn points(&self, x: usize) -> Domain {
        self.doms[x]
    }

    /// The host node of point i of copy node x.
    pub(in crate::optimal) fn host(&self, h: &SearchHost, x: usize, i: usize) -> u16 {
        h.add(self.centre[x], self.sphere[i])
    }

    /// Marks copy node x placed or not.
    pub(in crate::optimal) fn set_placed(&mut self, x: usize, placed: bool) {
        self.placed[x] = placed;
    }

    /// Saves every domain; [`Domains::restore`] with the mark returned puts
    /// them back.
    pub(in crate::optimal) fn save(&mut self) -> usize {
        let mark = self.trail.len();
        self.trail.extend_from_slice(&self.doms);
        mark
    }

    /// Puts back the domains saved at `mark`.
    pub(in crate::optimal) fn restore(&mut self, mark: usize) {
        let half = self.doms.len();
        self.doms.copy_from_slice(&self.trail[mark..mark + half]);
        self.trail.truncate(mark);
    }

    /// Places copy node x on point i: its domain becomes that point, the
    /// host node leaves every other domain, and arc consistency is
    /// restored. False when some domain empties.
    pub(in crate::optimal) fn assign(
        &mut self,
        h: &SearchHost,
        k: usize,
        x: usize,
        i: usize,
    ) -> bool {
        let u = self.host(h, x, i);
        self.doms[x] = 1 << i;
        self.enqueue(x);
        self.take(h, u, x) && self.propagate(k)
    }

    /// The look-ahead's step: f(x) = u is placed (x was [`UNKNOWN`]), `used`
    /// marking u and every node taken. u leaves every known domain, x's
    /// domain is its sphere's free points, and arc consistency is restored
    /// over the known nodes. False when a domain empties.
    pub(in crate::optimal) fn reveal(
        &mut self,
        h: &SearchHost,
        x: usize,
        u: u16,
        used: &[bool],
    ) -> bool {
        // The copy of the k-cube: the tables hold D_0..=D_k.
        let k = self.dims.len() - 1;
        if !self.take(h, u, x) {
            return false;
        }
        self.centre[x] = u;
        for j in 0..k {
            self.set_edge(h, k, x, j);
            self.set_edge(h, k, x ^ 1 << j, j);
        }
        self.doms[x] = self.free_points(h, u, used);
        if self.doms[x] == 0 {
            return self.fail();
        }
        // x's domain against its known neighbours, and theirs against it.
        self.enqueue(x);
        for j in 0..k {
            if self.centre[x ^ 1 << j] != UNKNOWN {
                self.enqueue(x ^ 1 << j);
            }
        }
        self.propagate(k)
    }

    /// Undoes [`Domains::reveal`]'s centre (the domains come back with
    /// [`Domains::restore`] or [`Domains::rewind`]).
    pub(in crate::optimal) fn hide(&mut self, x: usize) {
        self.centre[x] = UNKNOWN;
    }

    /// Back to the domains [`Domains::open`] left.
    pub(in crate::optimal) fn rewind(&mut self) {
        self.doms.copy_from_slice(&self.base);
        self.trail.clear();
    }

    /// Host node u is taken: it leaves every known domain but x's; false
    /// when one empties.
    fn take(&mut self, h: &SearchHost, u: u16, x: usize) -> bool {
        for z in 0..self.doms.len() {
            if z == x || self.centre[z] == UNKNOWN {
                continue;
            }
            let at = self.index[h.sub(u, self.centre[z]) as usize];
            if at == u16::MAX || self.doms[z] >> at & 1 == 0 {
                continue;
            }
            self.doms[z] &= !(1 << at);
            if self.doms[z] == 0 {
                return self.fail();
            }
            self.enqueue(z);
        }
        true
    }

    fn enqueue(&mut self, x: usize) {
        self.queue.push(x);
    }

    /// Empties the queue after a domain emptied; false.
    fn fail(&mut self) -> bool {
        self.queue.clear();
        false
    }

    /// AC-3: every domain that changed prunes its neighbours' (the known
    /// ones) until none changes; false when one empties. The queue is
    /// first in, first out: a node's losses gather while it waits, and
    /// one revision of its neighbours covers them all (last in, first out
    /// took torus:32x32's core (1, 2, 2, 4, 4, 5, 5) 10.2 s where this
    /// takes 8.1, the same fixpoint and nodes; 7.6 with the queue a ring
    /// of its own instead of a `VecDeque`).
    fn propagate(&mut self, k: usize) -> bool {
        while let Some(y) = self.queue.pop() {
            for j in 0..k {
                let z = y ^ 1 << j;
                if self.centre[z] != UNKNOWN && self.revise(z, y, j) {
                    if self.doms[z] == 0 {
                        return self.fail();
                    }
                    self.enqueue(z);
                }
            }
        }
        true
    }

    /// Points the table of copy node z against its neighbour z ⊕ 2^j
    /// ([`Domains::edge`]), where both centres are known.
    fn set_edge(&mut self, h: &SearchHost, k: usize, z: usize, j: usize) {
        let (from, to) = (self.centre[z], self.centre[z ^ 1 << j]);
        if from != UNKNOWN && to != UNKNOWN {
            self.edge[z * k + j] = self.pair_table(h, j, to, from);
        }
    }

    /// Where the table for dimension j between a copy node around `from`
    /// and its neighbour around `to` starts in `pairs`, made if need be.
    fn pair_table(&mut self, h: &SearchHost, j: usize, to: u16, from: u16) -> u32 {
        let delta = h.sub(to, from);
        let slot = j * h.nodes() + delta as usize;
        if self.pair_at[slot] == NOT_MADE {
            self.pair_at[slot] = self.pairs.len() as u32;
            let table = pairs(h, &self.sphere, delta, self.dims[j] as u16);
            self.pairs.extend(by_nibbles(&table));
        }
        self.pair_at[slot]
    }

    /// Drops the points of z with no partner at distance D_j among y's
    /// (y = z ⊕ 2^j); whether any went. z keeps the union of the partners
    /// of y's points, read from the table of y against z (the relation is
    /// symmetric): one read per four points of y (one for a single point),
    /// no test per point of z. (Testing each point of z against y's
    /// domain, or choosing the side with fewer points — a popcount the
    /// portable x86-64 target emulates — took torus:32x32's core (1, 2, 2,
    /// 4, 4, 5, 5) 15.1 and 12.9 s where a read per point of y took 10.2,
    /// the same 2 227 007 nodes; the tables of [`Domains::edge`] before
    /// that: (1, 2, 2, 4, 4, 4, 4) 3.60 → 3.32 s. Reads by nibbles instead
    /// of per point: (1, 2, 2, 4, 4, 5, 5) 5.34 → 4.84 s, (1, 2, 3, 4, 4,
    /// 4, 5) 5.81 → 5.27 s, the same nodes; by bytes, tables of 256
    /// entries, 5.30 and 5.64 s.)
    fn revise(&mut self, z: usize, y: usize, j: usize) -> bool {
        let k = self.dims.len() - 1;
        let (was, other) = (self.doms[z], self.doms[y]);
        let at = self.edge[y * k + j] as usize;
        let nibbles = &self.pairs[at..at + 16 * self.sphere.len().div_ceil(4)];
        let support = if other & other.wrapping_sub(1) == 0 {
            // One point (or none): its partners alone.
            let i = other.trailing_zeros() as usize;
            nibbles
                .get((i >> 2) * 16 + (1 << (i & 3)))
                .copied()
                .unwrap_or(0)
        } else {
            nibbles
                .chunks_exact(16)
                .enumerate()
                .fold(0, |support, (c, table)| {
                    support | table[(other >> (4 * c) & 15) as usize]
                })
        };
        let dom = was & support;
        self.doms[z] = dom;
        dom != was
    }
}

/// No copy node, no point ([`Matching`]).
const NONE: u16 = u16::MAX;

/// The matching of [`Domains::distinct`], kept from call to call.
#[derive(Default)]
struct Matching {
    /// Per copy node, its point (a sphere index), or [`NONE`].
    point: Vec<u16>,
    /// Per host node, the copy node matched to it, or [`NONE`] (stale
    /// entries are ignored: [`Domains::holder`]).
    owner: Vec<u16>,
    /// Per host node, the search that last visited it.
    seen: Vec<u32>,
    stamp: u32,
    /// Copy nodes without a point, a buffer kept across calls.
    free: Vec<u16>,
}

impl Matching {
    /// Sized for `nodes` host nodes and `half` copy nodes; emptied when
    /// either changed (a copy of another level).
    fn fit(&mut self, nodes: usize, half: usize) {
        if self.owner.len() != nodes || self.point.len() != half {
            self.owner.clear();
            self.owner.resize(nodes, NONE);
            self.seen.clear();
            self.seen.resize(nodes, 0);
            self.point.clear();
            self.point.resize(half, NONE);
        }
    }

    /// A new augmenting search: no host node visited yet (the stamp moves
    /// on; where it wraps, the marks are cleared).
    fn next_search(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.stamp = 1;
        }
    }
}

/// Copy nodes waiting for arc consistency, first in, first out, each at
/// most once: a ring of 2^k slots (`slots[(head + i) % 2^k]` for i <
/// `waiting`) and a flag per node.
#[derive(Default)]
struct NodeQueue {
    slots: Vec<usize>,
    head: usize,
    waiting: usize,
    queued: Vec<bool>,
}

impl NodeQueue {
    /// Empty, for copy nodes 0..`nodes` (a power of two).
    fn reset(&mut self, nodes: usize) {
        debug_assert!(nodes.is_power_of_two());
        self.slots.clear();
        self.slots.resize(nodes, 0);
        self.queued.clear();
        self.queued.resize(nodes, false);
        (self.head, self.waiting) = (0, 0);
    }

    /// Queues x unless it waits already.
    fn push(&mut self, x: usize) {
        if !self.queued[x] {
            self.queued[x] = true;
            let mask = self.slots.len() - 1;
            self.slots[(self.head + self.waiting) & mask] = x;
            self.waiting += 1;
        }
    }

    /// The node that has waited longest.
    fn pop(&mut self) -> Option<usize> {
        (self.waiting > 0).then(|| {
            let x = self.slots[self.head];
            self.head = (self.head + 1) & (self.slots.len() - 1);
            self.waiting -= 1;
            self.queued[x] = false;
            x
        })
    }

    /// Drops every node waiting.
    fn clear(&mut self) {
        while self.pop().is_some() {}
    }
}

/// A table of partners by nibbles: entry 16·c + n is the union of the
/// partners of the points 4c + b for every bit b of n, so the partners of
/// a whole domain are one read per four points.
fn by_nibbles(partners: &[Domain]) -> impl Iterator<Item = Domain> + '_ {
    (0..partners.len().div_ceil(4)).flat_map(move |c| {
        (0..16usize).map(move |n| {
            (0..4)
                .filter(|&b| n >> b & 1 == 1)
                .filter_map(|b| partners.get(4 * c + b))
                .fold(0, |u, &p| u | p)
        })
    })
}

/// For each point i of a sphere (offset o_i from its centre), the points
/// i' of the same sphere around a centre δ away at distance `dj` from it:
/// d(o_i, δ + o_i') = dj.
fn pairs(h: &SearchHost, sphere: &[u16], delta: u16, dj: u16) -> Box<[Domain]> {
    sphere
        .iter()
        .map(|&o| {
            let far = sphere.iter().enumerate();
            far.filter(|&(_, &o2)| h.d(o, h.add(delta, o2)) == dj)
                .fold(0, |mask, (i2, _)| mask | 1 << i2)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::optimal::search::constant::{
        decide_by_search, prepare, start_embedding, SearchAnswer,
    };
    use crate::spec::Spec;

    /// Every completion of the copy of `place[..2^k]` through `place[2^k]`,
    /// in label order with every constraint checked (at most 500).
    fn completions(h: &SearchHost, k: usize, dims: &[u32], place: &[u16]) -> Vec<Vec<u16>> {
        fn go(
            h: &SearchHost,
            k: usize,
            dims: &[u32],
            fixed: &mut Vec<u16>,
            out: &mut Vec<Vec<u16>>,
        ) {
            let half = 1usize << k;
            if fixed.len() == 2 * half {
                out.push(fixed[half..].to_vec());
                return;
            }
            let x = fixed.len() - half;
            for u in 0..h.nodes() as u16 {
                let fits = !fixed.contains(&u)
                    && u32::from(h.d(u, fixed[x])) == dims[k]
                    && (0..k)
                        .filter(|&j| x >> j & 1 == 1)
                        .all(|j| u32::from(h.d(u, fixed[half + (x ^ 1 << j)])) == dims[j]);
                if fits && out.len() < 500 {
                    fixed.push(u);
                    go(h, k, dims, fixed, out);
                    fixed.pop();
                }
            }
        }
        let mut out = Vec::new();
        go(h, k, dims, &mut place[..=1 << k].to_vec(), &mut out);
        out
    }

    /// Whether the copy nodes can sit on distinct host nodes, by trying
    /// every choice (the known nodes, each on a point of its domain).
    fn distinct_by_brute_force(h: &SearchHost, domains: &Domains) -> bool {
        fn go(h: &SearchHost, domains: &Domains, x: usize, taken: &mut Vec<u16>) -> bool {
            let Some(x) = (x..domains.doms.len()).find(|&y| domains.centre[y] != UNKNOWN) else {
                return true;
            };
            (0..domains.sphere.len())
                .filter(|&i| domains.doms[x] >> i & 1 == 1)
                .any(|i| {
                    let u = domains.host(h, x, i);
                    if taken.contains(&u) {
                        return false;
                    }
                    taken.push(u);
                    let fits = go(h, domains, x + 1, taken);
                    taken.pop();
                    fits
                })
        }
        go(h, domains, 0, &mut Vec::new())
    }

    /// The matching says what trying every choice says: on copies of
    /// 3-cubes of several tori whose domains lose points at random (a
    /// domain emptied too), some centres hidden and shown again, the
    /// matching carried from one call to the next as the search carries
    /// it.
    #[test]
    fn distinct_is_halls_condition() {
        let mut rng = crate::mapper::rng::Rng::new(7, 0);
        let (mut held, mut failed) = (0, 0);
        for (sides, radius) in [(&[8u64, 8][..], 2u32), (&[4, 4, 4], 1), (&[16, 4], 3)] {
            let host = Spec::Torus(sides.to_vec());
            let d = sides.iter().product::<u64>().trailing_zeros();
            let p = prepare(d, &host).unwrap();
            for _ in 0..60 {
                // A 3-cube placed at random (not an embedding: only the
                // centres matter here), its copy at `radius`.
                let k = 3;
                let mut centres: Vec<u16> = Vec::new();
                while centres.len() < 1 << k {
                    let u = rng.below(p.h.nodes()) as u16;
                    if !centres.contains(&u) {
                        centres.push(u);
                    }
                }
                let mut used = vec![false; p.h.nodes()];
                for &u in &centres {
                    used[u as usize] = true;
                }
                let dims = vec![radius; k + 1];
                let mut domains = Domains::default();
                domains.open(&p.h, k, &dims, &centres, &used);
                let full = domains.doms.clone();
                for _ in 0..30 {
                    for x in 0..1 << k {
                        match rng.below(6) {
                            0 => domains.doms[x] = full[x],
                            1 => domains.doms[x] &= !(1 << rng.below(domains.sphere.len())),
                            2 => domains.doms[x] &= rng.next_u64(),
                            _ => {}
                        }
                        if rng.below(10) == 0 {
                            domains.centre[x] = UNKNOWN;
                        } else {
                            domains.centre[x] = centres[x];
                        }
                    }
                    let expected = distinct_by_brute_force(&p.h, &domains);
                    assert_eq!(domains.distinct(&p.h), expected, "{sides:?}");
                    if expected {
                        held += 1;
                    } else {
                        failed += 1;
                    }
                }
            }
        }
        assert!(held > 100 && failed > 100, "{held} {failed}");
    }

    /// Arc consistency removes no point a completion uses: on the k-cubes
    /// of an embedding, with f(2^k) moved to every free node at D_k, each
    /// completion found by brute force survives `open`, `start` and every
    /// `assign` along it, and where they say no there is none.
    #[test]
    fn domains_keep_every_completion() {
        let (mut started, mut refused, mut completed) = (0, 0, 0);
        for sides in [&[8u64, 8][..], &[4, 4, 4], &[16, 4]] {
            let host = Spec::Torus(sides.to_vec());
            let d = sides.iter().product::<u64>().trailing_zeros();
            let p = prepare(d, &host).unwrap();
            let (_, dims, _) = start_embedding(d, &host, p.xor_sum, p.standard_sum).unwrap();
            let SearchAnswer::Embedding(place) =
                decide_by_search(&p.h, &p.prefix_bound, &dims, 0, None)
            else {
                panic!("xor's or standard's distances embed");
            };
            for k in 1..d as usize {
                let half = 1usize << k;
                let taken = &place[..half];
                for &o in p.h.sphere(dims[k] as u16) {
                    let mut trial = place[..=half].to_vec();
                    trial[half] = p.h.add(place[0], o);
                    if taken.contains(&trial[half]) {
                        continue;
                    }
                    let mut used = vec![false; p.h.nodes()];
                    for &u in taken {
                        used[u as usize] = true;
                    }
                    let all = completions(&p.h, k, &dims, &trial);
                    let mut domains = Domains::default();
                    let opened = domains.open(&p.h, k, &dims, &trial[..half], &used);
                    let i0 = domains.index[p.h.sub(trial[half], trial[0]) as usize] as usize;
                    if !opened || !domains.allows(i0) || !domains.start(&p.h, k, i0) {
                        assert!(all.is_empty(), "{sides:?} k {k}");
                        refused += 1;
                        continue;
                    }
                    started += 1;
                    for copy in &all {
                        let mark = domains.save();
                        // Placed in reverse label order: another order than
                        // the brute force's.
                        for x in (1..half).rev() {
                            let i = domains.index[p.h.sub(copy[x], trial[x]) as usize] as usize;
                            assert!(domains.points(x) >> i & 1 == 1);
                            assert!(domains.assign(&p.h, k, x, i), "{sides:?} k {k}");
                            domains.set_placed(x, true);
                        }
                        assert_eq!(domains.most_constrained(), None);
                        for x in 1..half {
                            domains.set_placed(x, false);
                        }
                        domains.restore(mark);
                        completed += 1;
                    }
                }
            }
        }
        assert!(
            started > 10 && refused > 10 && completed > 10,
            "{started} {refused} {completed}"
        );
    }
}
