//! Flow-based refinement of a bipartition (Sanders & Schulz, "Engineering
//! Multilevel Graph Partitioning Algorithms", ESA 2011, §4 — KaFFPa's
//! flows): a corridor around the cut is cut again by a minimum s-t cut, which
//! FM's one-vertex-at-a-time moves cannot reach when every single move
//! loses.
//!
//! The corridor B = B0 ∪ B1 is grown breadth first from the cut into each
//! side, B0 (side 0) up to `f × slack0` load and B1 up to `f × slack1`, where
//! slack is how much load that side may give away; with f = 1 every cut of B
//! keeps the balance. The network: the source s stands for side 0 outside B,
//! the sink t for side 1 outside B; an edge inside B has capacity
//! d12 × volume both ways; a corridor vertex's edges to fixed vertices become
//! an edge from s (or to t) of their d12 × volume; and the mapping's external
//! costs enter as terminal edges — v on side 0 pays `ext[v][0]` (an edge
//! v → t), on side 1 `ext[v][1]` (an edge s → v), less their minimum, a
//! constant. A minimum cut of this network is a cheapest re-cut of B with
//! everything outside fixed, the very cost [`super::fm::cost`] counts.
//!
//! Of the minimum cuts, one nearest the target load is kept (KaHIP's "most
//! balanced minimum cut", along one chain of the residual network's strongly
//! connected components: [`Network::most_balanced_cut`]). The factor f
//! adapts as in KaFFPa: halved when no cut is balanced, doubled after a gain.
//! Max-flow is Dinic's algorithm, its phases labelled from the sink.

use std::collections::VecDeque;

use super::fm::Balance;
use crate::mapper::coarsen::Bip;

/// Largest region factor tried (KaFFPa's α). Benchmark (38 pairs, seeds
/// 1–3): 8 and 4 rounds against 16 and 6 took 15 % off the mapper's time
/// for the same hop-bytes (geometric mean within 0.5 %): wide corridors
/// rarely found a cheaper cut the narrower ones missed.
const MAX_FACTOR: u64 = 8;
/// Max-flow rounds per refinement call.
const ROUNDS: usize = 4;

/// Refines `side` by minimum cuts of corridors around the cut; returns the
/// cost it took off (d12 × cut volume + external costs, as in FM).
pub fn refine(b: &Bip, side: &mut [u8], bal: Balance, target: u64) -> u128 {
    let n = b.g.n();
    if n < 4 {
        return 0;
    }
    let total = b.g.total_load();
    let mut load0 = b.load0(side);
    let mut index = vec![u32::MAX; n];
    // The corridor's seeds, kept as the cut moves: every round swept
    // every vertex's edges to find them, where a corridor holds about a
    // tenth of the vertices (delaunay_n15's and copter2's splits onto
    // torus:16x16).
    let mut seed: Vec<bool> = (0..n).map(|v| is_seed(b, side, v)).collect();
    let mut factor = MAX_FACTOR / 2;
    let mut gained = 0u128;
    for _ in 0..ROUNDS {
        if factor == 0 {
            break;
        }
        // How much load each side may give away and stay in bounds; a side
        // at its bound still lends a corridor of a slice of the window so
        // that balance can be restored by the cut (at least 2: at exact
        // balance a corridor of one vertex a side per unit of factor holds
        // no exchange of two cut vertices).
        let window = (bal.hi.saturating_sub(bal.lo) / 2).max(2);
        let slack0 = load0.saturating_sub(bal.lo).max(window);
        let slack1 = bal.hi.saturating_sub(load0).max(window);
        let budget = [
            slack0.saturating_mul(factor).min(load0),
            slack1.saturating_mul(factor).min(total - load0),
        ];
        let region = corridor(b, side, &seed, budget);
        if region.len() < 2 {
            break;
        }
        for (k, &v) in region.iter().enumerate() {
            index[v as usize] = k as u32;
        }
        // (A corridor of more than 2^32 arcs is left as it is.)
        let Some(mut net) = Network::build(b, side, bal.d12, &region, &index) else {
            for &v in &region {
                index[v as usize] = u32::MAX;
            }
            break;
        };
        let current = net.cost_of(|k| side[region[k] as usize] == 0);
        let min = net.max_flow();
        let region_load0: u64 = region
            .iter()
            .filter(|&&v| side[v as usize] == 0)
            .map(|&v| b.g.vw[v as usize])
            .sum();
        let base0 = load0 - region_load0;
        let cut = net.most_balanced_cut(
            |k| b.g.vw[region[k] as usize],
            base0,
            |l0| (bal.excess(l0), l0.abs_diff(target)),
        );
        for &v in &region {
            index[v as usize] = u32::MAX;
        }
        let (l0, on_source) = cut;
        let (excess, off) = (bal.excess(l0), l0.abs_diff(target));
        let now = (bal.excess(load0), load0.abs_diff(target));
        if excess > now.0 {
            // Too wide a corridor: every cheapest cut leaves the balance.
            factor /= 2;
            continue;
        }
        let better = min < current || (min == current && (excess, off) < now);
        if !better {
            break;
        }
        let mut flipped = Vec::new();
        for (k, &v) in region.iter().enumerate() {
            let s = u8::from(!on_source[k]);
            if side[v as usize] != s {
                let w = b.g.vw[v as usize];
                load0 = if s == 0 { load0 + w } else { load0 - w };
                side[v as usize] = s;
                flipped.push(v as usize);
            }
        }
        // A flip changes the seeds it and its neighbours are.
        for &v in &flipped {
            seed[v] = is_seed(b, side, v);
            for (u, _) in b.g.edges(v) {
                seed[u] = is_seed(b, side, u);
            }
        }
        gained += current.saturating_sub(min);
        factor = (factor * 2).min(MAX_FACTOR);
    }
    gained
}

/// Whether v seeds the corridor: a cut vertex, or one that prefers the
/// other side from outside (its external costs differ).
fn is_seed(b: &Bip, side: &[u8], v: usize) -> bool {
    let s = side[v] as usize;
    b.g.edges(v).any(|(u, _)| side[u] as usize != s) || b.ext[v][s] > b.ext[v][1 - s]
}

/// The corridor: breadth first from the seeds (`seed`, [`is_seed`]) into
/// each side, side s up to `budget[s]` load (a vertex that would pass it
/// is skipped, the sweep goes on).
fn corridor(b: &Bip, side: &[u8], seed: &[bool], budget: [u64; 2]) -> Vec<u32> {
    let n = b.g.n();
    let mut taken = vec![false; n];
    let mut region = Vec::new();
    // Both sides' seeds in one sweep of the flags (ascending on each side).
    let mut seeds: [VecDeque<usize>; 2] = [VecDeque::new(), VecDeque::new()];
    for v in (0..n).filter(|&v| seed[v]) {
        seeds[side[v] as usize].push_back(v);
    }
    for (s, mut queue) in seeds.into_iter().enumerate() {
        let s = s as u8;
        let mut load = 0u64;
        for &v in &queue {
            taken[v] = true;
        }
        while let Some(v) = queue.pop_front() {
            let w = b.g.vw[v];
            if load + w > budget[s as usize] {
                continue;
            }
            load += w;
            region.push(v as u32);
            for (u, _) in b.g.edges(v) {
                if side[u] == s && !taken[u] {
                    taken[u] = true;
                    queue.push_back(u);
                }
            }
        }
    }
    region
}

/// One arc of a [`Network`]: its head, its partner's index, its residual
/// capacity and its partner's, side by side — the blocking flow and the
/// residual searches read them of every arc they pass (three arrays were
/// three cache misses per arc). The partner's residual is kept here too
/// (`back`) for the searches that walk toward the sink: each phase's
/// labelling from the sink read it from the partner, elsewhere in the
/// array, a cache miss per arc where every other read was in sequence.
#[derive(Debug, Clone, Copy)]
struct Arc {
    to: u32,
    /// The partner arc (head → tail).
    rev: u32,
    cap: u64,
    /// The partner's residual capacity (`arc[rev].cap`).
    back: u64,
}

/// A flow network on the corridor in CSR form: nodes 0..r are its
/// vertices, r the source, r + 1 the sink; arc e's partner is `arc[e].rev`.
struct Network {
    /// Node x's arcs are `first[x]..first[x + 1]`.
    first: Vec<usize>,
    arc: Vec<Arc>,
    /// The capacities before the flow (the cut's cost is read from them).
    orig: Vec<u64>,
    source: usize,
    sink: usize,
}

impl Network {
    /// The network of the corridor `region` (`index`: each vertex's place
    /// in it, `u32::MAX` outside); none where its arcs would not fit the
    /// 32-bit partner numbers of [`Arc`] (a corridor of over 2^31 edges).
    fn build(b: &Bip, side: &[u8], d12: u64, region: &[u32], index: &[u32]) -> Option<Network> {
        let r = region.len();
        let (source, sink) = (r, r + 1);
        // Arcs as pairs (a → b of capacity ab, b → a of capacity ba).
        let mut pairs: Vec<(u32, u32, u64, u64)> = Vec::new();
        for (k, &v) in region.iter().enumerate() {
            let v = v as usize;
            // from_s: cost of k ending on side 1; to_t: on side 0.
            let (mut from_s, mut to_t) = (b.ext[v][1], b.ext[v][0]);
            let m = from_s.min(to_t);
            from_s -= m;
            to_t -= m;
            for (u, w) in b.g.edges(v) {
                let c = w.saturating_mul(d12);
                let j = index[u];
                if j != u32::MAX {
                    if (j as usize) > k {
                        pairs.push((k as u32, j, c, c));
                    }
                } else if side[u] == 0 {
                    from_s = from_s.saturating_add(c);
                } else {
                    to_t = to_t.saturating_add(c);
                }
            }
            if from_s > 0 {
                pairs.push((source as u32, k as u32, from_s, 0));
            }
            if to_t > 0 {
                pairs.push((k as u32, sink as u32, to_t, 0));
            }
        }
        let mut first = vec![0usize; r + 3];
        for &(x, y, _, _) in &pairs {
            first[x as usize + 1] += 1;
            first[y as usize + 1] += 1;
        }
        for x in 0..r + 2 {
            first[x + 1] += first[x];
        }
        let arcs = first[r + 2];
        if arcs > u32::MAX as usize {
            return None;
        }
        let mut fill = first.clone();
        let mut arc = vec![
            Arc {
                to: 0,
                rev: 0,
                cap: 0,
                back: 0
            };
            arcs
        ];
        for &(x, y, xy, yx) in &pairs {
            let (e, f) = (fill[x as usize], fill[y as usize]);
            fill[x as usize] += 1;
            fill[y as usize] += 1;
            arc[e] = Arc {
                to: y,
                rev: f as u32,
                cap: xy,
                back: yx,
            };
            arc[f] = Arc {
                to: x,
                rev: e as u32,
                cap: yx,
                back: xy,
            };
        }
        Some(Network {
            first,
            orig: arc.iter().map(|a| a.cap).collect(),
            arc,
            source,
            sink,
        })
    }

    fn nodes(&self) -> usize {
        self.first.len() - 1
    }

    fn arcs(&self, x: usize) -> std::ops::Range<usize> {
        self.first[x]..self.first[x + 1]
    }

    /// Cost of the cut with the corridor vertices `on_source(k)` on side 0.
    fn cost_of(&self, on_source: impl Fn(usize) -> bool) -> u128 {
        let in_s = |x: usize| x == self.source || (x != self.sink && on_source(x));
        let mut total = 0u128;
        for x in (0..self.nodes()).filter(|&x| in_s(x)) {
            for e in self.arcs(x) {
                if !in_s(self.arc[e].to as usize) {
                    total += u128::from(self.orig[e]);
                }
            }
        }
        total
    }

    /// Dinic's algorithm; the value of a maximum flow (= a minimum cut).
    ///
    /// Each phase labels nodes by their residual distance *to the sink*
    /// (a breadth-first search backwards from it, stopped once the source
    /// is labelled), and the blocking flow steps only along arcs one label
    /// down: the arcs of shortest source–sink paths. Levels from the source
    /// admitted also every arc into a node one step further that leads
    /// nowhere near the sink, and the depth-first search walked each such
    /// dead end before giving it up. The paths augmented are the same —
    /// the first live shortest path in arc order either way — so the flow
    /// is too (the same placements on the 38 pairs of `bench/mapper.sh` and
    /// six fat trees, dragonflies and tleafs); a hierarchy's bipartitioning
    /// 6–9 % faster (delaunay_n15 onto tleaf:4x8x8:100,10,1 0.98 → 0.90 s,
    /// copter2 onto tleaf:256:1 1.12 → 1.02 s; one thread, medians of 5).
    fn max_flow(&mut self) -> u128 {
        let nodes = self.nodes();
        let mut flow = 0u128;
        let mut label = vec![u32::MAX; nodes];
        let mut it = vec![0usize; nodes];
        let mut queue = VecDeque::new();
        loop {
            label.fill(u32::MAX);
            label[self.sink] = 0;
            queue.clear();
            queue.push_back(self.sink);
            'bfs: while let Some(y) = queue.pop_front() {
                for e in self.arcs(y) {
                    // The partner of y's arc e is the arc x → y: its residual
                    // is `back`.
                    let Arc { to, back, .. } = self.arc[e];
                    let x = to as usize;
                    if label[x] == u32::MAX && back > 0 {
                        label[x] = label[y] + 1;
                        if x == self.source {
                            break 'bfs;
                        }
                        queue.push_back(x);
                    }
                }
            }
            if label[self.source] == u32::MAX {
                return flow;
            }
            it.copy_from_slice(&self.first[..nodes]);
            flow += self.blocking_flow(&label, &mut it);
        }
    }

    /// A blocking flow along arcs one `label` (distance to the sink) down:
    /// depth-first with current-arc pointers, keeping the path up to its
    /// first saturated arc after each augmentation (iterative, so long
    /// corridors need no deep recursion).
    fn blocking_flow(&mut self, label: &[u32], it: &mut [usize]) -> u128 {
        let mut total = 0u128;
        let mut path: Vec<usize> = Vec::new();
        let mut x = self.source;
        loop {
            if x == self.sink {
                let f = path.iter().map(|&e| self.arc[e].cap).min().unwrap_or(0);
                let mut cut_at = path.len();
                for (i, &e) in path.iter().enumerate() {
                    self.arc[e].cap -= f;
                    self.arc[e].back += f;
                    let rev = self.arc[e].rev as usize;
                    self.arc[rev].cap += f;
                    self.arc[rev].back -= f;
                    if self.arc[e].cap == 0 && cut_at == path.len() {
                        cut_at = i;
                    }
                }
                total += u128::from(f);
                // Back to the tail of the first saturated arc.
                path.truncate(cut_at);
                x = match path.last() {
                    Some(&e) => self.arc[e].to as usize,
                    None => self.source,
                };
                continue;
            }
            let end = self.first[x + 1];
            while it[x] < end {
                let Arc { to, cap, .. } = self.arc[it[x]];
                // (x is labelled, and above 0: it is not the sink.)
                if cap > 0 && label[to as usize] == label[x] - 1 {
                    break;
                }
                it[x] += 1;
            }
            if it[x] < end {
                let e = it[x];
                path.push(e);
                x = self.arc[e].to as usize;
            } else {
                // Dead end: retreat and skip the arc that led here.
                let Some(e) = path.pop() else {
                    return total;
                };
                x = self.arc[self.arc[e].rev as usize].to as usize;
                it[x] += 1;
            }
        }
    }

    /// Of all minimum cuts (after [`Network::max_flow`]), a most balanced
    /// one along one chain (Picard & Queyranne 1980: the minimum cuts are
    /// the closed sets of the residual network's strongly connected
    /// components that hold the source and not the sink). Starting from the
    /// smallest source side, components are added in Tarjan's emission
    /// order — a component comes after every component it reaches, so every
    /// prefix is closed — and the prefix of least `score(load0)` wins, where
    /// load0 = `base0` + the load of the corridor vertices on the source
    /// side. Returns that load and the corridor vertices on the source side.
    fn most_balanced_cut<K: Ord>(
        &self,
        load: impl Fn(usize) -> u64,
        base0: u64,
        score: impl Fn(u64) -> K,
    ) -> (u64, Vec<bool>) {
        let r = self.source;
        let comp = self.components();
        let from_source = self.residual_reach(self.source, true);
        let to_sink = self.residual_reach(self.sink, false);
        let mut l0 = base0 + (0..r).filter(|&k| from_source[k]).map(&load).sum::<u64>();
        // Corridor vertices in neither extreme, by component (components
        // are numbered in emission order).
        let mut free: Vec<u32> = (0..r as u32)
            .filter(|&k| !from_source[k as usize] && !to_sink[k as usize])
            .collect();
        free.sort_by_key(|&k| comp[k as usize]);
        let mut best = (score(l0), l0, 0usize);
        for (i, &k) in free.iter().enumerate() {
            l0 += load(k as usize);
            // A prefix ends with a whole component.
            let ends = free
                .get(i + 1)
                .map_or(true, |&next| comp[next as usize] != comp[k as usize]);
            if ends {
                let s = score(l0);
                if s < best.0 {
                    best = (s, l0, i + 1);
                }
            }
        }
        // The source side: the smallest one and the components of the best
        // prefix.
        let mut on_source = from_source;
        on_source.truncate(r);
        for &k in &free[..best.2] {
            on_source[k as usize] = true;
        }
        (best.1, on_source)
    }

    /// Strongly connected components of the residual network (Tarjan,
    /// iterative): each node's component, numbered in emission order (a
    /// component after every component it reaches).
    fn components(&self) -> Vec<u32> {
        let nodes = self.nodes();
        const UNSEEN: u32 = u32::MAX;
        let mut index = vec![UNSEEN; nodes];
        let mut low = vec![0u32; nodes];
        let mut on_stack = vec![false; nodes];
        let mut comp = vec![UNSEEN; nodes];
        let mut stack: Vec<usize> = Vec::new();
        let mut count = 0u32;
        let mut counter = 0u32;
        // Call stack of (node, next arc to look at).
        let mut calls: Vec<(usize, usize)> = Vec::new();
        for root in 0..nodes {
            if index[root] != UNSEEN {
                continue;
            }
            calls.push((root, self.first[root]));
            index[root] = counter;
            low[root] = counter;
            counter += 1;
            stack.push(root);
            on_stack[root] = true;
            while let Some(&mut (x, ref mut e)) = calls.last_mut() {
                if *e < self.first[x + 1] {
                    let arc = *e;
                    *e += 1;
                    let Arc { to, cap, .. } = self.arc[arc];
                    if cap == 0 {
                        continue;
                    }
                    let y = to as usize;
                    if index[y] == UNSEEN {
                        index[y] = counter;
                        low[y] = counter;
                        counter += 1;
                        stack.push(y);
                        on_stack[y] = true;
                        calls.push((y, self.first[y]));
                    } else if on_stack[y] {
                        low[x] = low[x].min(index[y]);
                    }
                    continue;
                }
                calls.pop();
                if let Some(&(parent, _)) = calls.last() {
                    low[parent] = low[parent].min(low[x]);
                }
                if low[x] == index[x] {
                    loop {
                        let y = stack.pop().expect("x is on the stack");
                        on_stack[y] = false;
                        comp[y] = count;
                        if y == x {
                            break;
                        }
                    }
                    count += 1;
                }
            }
        }
        comp
    }

    /// Nodes reachable from `from` in the residual network (`forward`: the
    /// source side of the smallest minimum cut, from the source), or that
    /// reach it (`!forward`: the sink side of the largest, to the sink).
    fn residual_reach(&self, from: usize, forward: bool) -> Vec<bool> {
        let mut seen = vec![false; self.nodes()];
        seen[from] = true;
        let mut queue = VecDeque::from([from]);
        while let Some(x) = queue.pop_front() {
            for e in self.arcs(x) {
                // Forward: the arc x → y; backward: its partner y → x.
                let Arc { to, cap, back, .. } = self.arc[e];
                let residual = if forward { cap } else { back };
                let y = to as usize;
                if residual > 0 && !seen[y] {
                    seen[y] = true;
                    queue.push_back(y);
                }
            }
        }
        seen
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapper::graph::WGraph;
    use crate::mapper::refine::fm;
    use proptest::prelude::*;

    use crate::mapper::coarsen::tests::bip;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// The gain reported is the cost taken off, the cost never rises
        /// and the balance never gets worse.
        #[test]
        fn gains_are_exact_and_balance_holds(
            n in 4usize..60,
            extra in prop::collection::vec((0usize..60, 0usize..60, 1u64..6), 0..120),
            loads in prop::collection::vec(1u64..4, 1..8),
            ext in prop::collection::vec([0u64..20, 0u64..20], 1..8),
            sides in prop::collection::vec(0u8..2, 60),
            d12 in 1u64..5,
            eps in 0u64..20,
        ) {
            let b = bip(n, &extra, &loads, &ext);
            let mut side = sides[..n].to_vec();
            let total = b.g.total_load();
            let target = total / 2;
            let bal = Balance { lo: target.saturating_sub(eps), hi: (target + eps).min(total), d12 };
            let before = fm::cost(&b, &side, d12);
            let excess = bal.excess(b.load0(&side));
            let gained = refine(&b, &mut side, bal, target);
            let after = fm::cost(&b, &side, d12);
            prop_assert!(after <= before);
            prop_assert_eq!(before - after, gained);
            prop_assert!(bal.excess(b.load0(&side)) <= excess);
        }

        /// With no balance to keep, the corridor is the whole graph and the
        /// minimum cut is the cheapest of all 2^n bipartitions (brute force).
        #[test]
        fn unconstrained_cut_is_optimal(
            n in 4usize..13,
            extra in prop::collection::vec((0usize..13, 0usize..13, 1u64..6), 0..30),
            ext in prop::collection::vec([0u64..30, 0u64..30], 1..13),
            first in 1usize..12,
            d12 in 1u64..4,
        ) {
            let b = bip(n, &extra, &[1], &ext);
            // Both sides non-empty: every side's part touches the cut.
            let mut side: Vec<u8> = (0..n).map(|v| u8::from(v >= first.min(n - 1))).collect();
            let total = b.g.total_load();
            let bal = Balance { lo: 0, hi: total, d12 };
            refine(&b, &mut side, bal, total / 2);
            let best = (0u32..1 << n)
                .map(|mask| {
                    let s: Vec<u8> = (0..n).map(|v| ((mask >> v) & 1) as u8).collect();
                    fm::cost(&b, &s, d12)
                })
                .min()
                .unwrap();
            prop_assert_eq!(fm::cost(&b, &side, d12), best);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// On a network over every vertex (random external costs and sides
        /// fixing nothing), the maximum flow is the cheapest of all 2^n
        /// source sides (brute force), every arc still knows its partner's
        /// residual, and the most balanced cut found is one of that cost,
        /// its load as reported.
        #[test]
        fn max_flow_is_the_minimum_cut(
            n in 2usize..12,
            extra in prop::collection::vec((0usize..12, 0usize..12, 1u64..9), 0..40),
            ext in prop::collection::vec([0u64..40, 0u64..40], 1..12),
            sides in prop::collection::vec(0u8..2, 12),
            d12 in 1u64..4,
        ) {
            let b = bip(n, &extra, &[1, 2], &ext);
            let side = &sides[..n];
            let region: Vec<u32> = (0..n as u32).collect();
            let index: Vec<u32> = region.clone();
            let mut net = Network::build(&b, side, d12, &region, &index).expect("a small network");
            let cheapest = (0u32..1 << n)
                .map(|mask| net.cost_of(|k| (mask >> k) & 1 == 1))
                .min()
                .unwrap();
            let flow = net.max_flow();
            prop_assert_eq!(flow, cheapest);
            // Every arc's copy of its partner's residual kept up with it.
            for a in &net.arc {
                prop_assert_eq!(a.back, net.arc[a.rev as usize].cap);
            }
            let (load0, on_source) = net.most_balanced_cut(|k| b.g.vw[k], 0, |l| l);
            prop_assert_eq!(net.cost_of(|k| on_source[k]), cheapest);
            let counted: u64 = (0..n).filter(|&k| on_source[k]).map(|k| b.g.vw[k]).sum();
            prop_assert_eq!(load0, counted);
        }
    }

    #[test]
    fn a_zigzag_cut_is_straightened() {
        // A 6x6 grid cut between columns 2 and 3, but (3, 2) sits on the
        // left and (2, 4) on the right: 10 cut edges where 6 suffice, at
        // exact balance (18 a side), so no single move is allowed.
        let (w, h) = (6usize, 6usize);
        let id = |x: usize, y: usize| y * w + x;
        let mut g = WGraph {
            xadj: vec![0],
            vw: vec![1; w * h],
            ..Default::default()
        };
        for y in 0..h {
            for x in 0..w {
                let near = [
                    (x > 0).then(|| id(x - 1, y)),
                    (x + 1 < w).then(|| id(x + 1, y)),
                    (y > 0).then(|| id(x, y - 1)),
                    (y + 1 < h).then(|| id(x, y + 1)),
                ];
                for u in near.into_iter().flatten() {
                    g.adj.push(u as u32);
                    g.ew.push(1);
                }
                g.xadj.push(g.adj.len());
            }
        }
        let b = Bip {
            ext: vec![[0, 0]; w * h],
            g,
        };
        let mut side: Vec<u8> = (0..w * h).map(|v| u8::from(v % w >= 3)).collect();
        side[id(3, 2)] = 0;
        side[id(2, 4)] = 1;
        let bal = Balance {
            lo: 18,
            hi: 18,
            d12: 1,
        };
        let gained = refine(&b, &mut side, bal, 18);
        assert_eq!(fm::cost(&b, &side, 1), 6);
        assert_eq!(gained, 4);
        assert_eq!(b.load0(&side), 18);
    }
}
