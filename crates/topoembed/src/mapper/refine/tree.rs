//! Exact bisection of a forest: where a split's vertices (or a pair of
//! host nodes' vertices, [`super::pairs`]) induce no cycle
//! (a binary tree's reduction or broadcast, a tree of sub-communicators),
//! the side of every vertex is chosen by dynamic programming over the
//! trees — the knapsack over subtrees of balanced tree partitioning
//! (Feldmann & Foschini 2015 give its k-way form) — at the least
//! [`super::fm::cost`] whose side 0 holds a load within the balance.
//!
//! Why: the multilevel bisection cannot find a tree's balanced cut. The
//! edge whose subtree holds half the load is one among thousands, matching
//! contracts it as readily as any, and FM moves one vertex at a time, where
//! a whole subtree has to cross. `bintree:1024` (2 047 vertices) into two
//! halves came out at 1 to 4 edges cut over seeds where one always does;
//! `bintree:2048` onto torus:4x4x4 at 131 hop-bytes where Scotch gets 79.
//!
//! The table has a row per side and a column per load, per vertex; the
//! merges cost Σ over every vertex and child of the load below it times the
//! child's (half the load squared, for a balanced binary tree), so a
//! forest goes through only within [`MAX_WORK`] (a few milliseconds); a
//! larger one gets its best cut by one edge, for the multilevel bisection
//! to beat.

use super::fm::Balance;
use crate::mapper::coarsen::Bip;
use crate::mapper::graph::WGraph;

/// Most table entries merged (Σ over every merge of the two loads, each
/// within the balance's upper bound, times the four pairs of sides; 2n²
/// for a binary tree of n vertices): a binary tree of about 2 000 vertices
/// in one split. Larger splits get the best cut by one edge beside the
/// multilevel bisection. Benchmark (2026-12-06, binary trees of 2 047 to
/// 65 535 vertices onto torus:4x4, torus:8x8, torus:16x16, ring:16 and
/// cube:5, one thread): 8·10^6 took 7.6 s over the 20 pairs where
/// 1.2·10^8 (a binary tree of 8 000) took 15.5 s, hop-bytes 0.18 % higher
/// in geometric mean (the 65 535 onto torus:8x8 72 against 69); 2·10^6
/// 6.7 s, +0.25 %.
const MAX_WORK: u64 = 8_000_000;

/// Most table entries kept (every stage of every vertex, for the trace
/// back; 16 bytes each): 32 MiB.
const MAX_KEPT: u64 = 2 << 20;

/// No way to reach this load on this side.
const NONE: u64 = u64::MAX;

/// Whether `g` is a forest (no cycle; union–find over its edges, O(m)):
/// only then are its splits looked at by [`bisect`]. (A graph with cycles
/// gains nothing from it, and where its small pieces are forests — the
/// bottom splits of a quotient graph cut into blocks — the exact
/// bisection's draw among equal costs differs from FM's, and the layouts
/// after it moved either way: the 38 pairs of `bench/mapper.sh`, seeds
/// 1–2, +0.21 % in geometric mean, 13 lower and 14 higher.)
pub fn is_forest(g: &WGraph) -> bool {
    if g.adj.len() / 2 >= g.n().max(1) {
        return false;
    }
    let mut up: Vec<u32> = (0..g.n() as u32).collect();
    let root = |up: &mut Vec<u32>, mut v: u32| {
        while up[v as usize] != v {
            let next = up[up[v as usize] as usize];
            up[v as usize] = next;
            v = next;
        }
        v
    };
    for v in 0..g.n() {
        for (u, _) in g.edges(v).filter(|&(u, _)| u > v) {
            let (a, b) = (root(&mut up, v as u32), root(&mut up, u as u32));
            if a == b {
                return false;
            }
            up[a as usize] = b;
        }
    }
    // (A loop or a second edge between two vertices closes a cycle too.)
    (0..g.n()).all(|v| g.edges(v).all(|(u, _)| u != v))
}

/// What [`bisect`] found for a split.
pub enum Found {
    /// The least-cost bisection within the balance (side per vertex).
    Least(Vec<u8>),
    /// A forest too large for the tables: its best bisection by one edge
    /// (or one tree) within the balance, for the multilevel bisection to
    /// beat.
    OneCut(Vec<u8>),
    /// Not a forest, or no bisection within the balance found.
    Nothing,
}

/// The least-cost bisection of `b` within `bal` (the load nearest `target`
/// among equal costs) where `b`'s graph is a forest within [`MAX_WORK`];
/// above it, the best that cuts one edge ([`Found`]).
pub fn bisect(b: &Bip, bal: Balance, target: u64) -> Found {
    // Costs are summed in 64 bits: every edge cut and every vertex at its
    // dearer side must fit.
    let most = b
        .ext
        .iter()
        .map(|e| u128::from(e[0].max(e[1])))
        .sum::<u128>()
        + b.g.ew.iter().map(|&w| u128::from(w)).sum::<u128>() * u128::from(bal.d12);
    if most >= u128::from(NONE) {
        return Found::Nothing;
    }
    let Some(forest) = Forest::of(b) else {
        return Found::Nothing;
    };
    let Some(tables) = forest.tables(b, bal) else {
        return match forest.one_cut(b, bal, target) {
            Some(side) => Found::OneCut(side),
            None => Found::Nothing,
        };
    };
    let least = tables.last(forest.root());
    let Some(best) = (0..least.len())
        .filter(|&l| l as u64 >= bal.lo && l as u64 <= bal.hi && least[l] != NONE)
        .min_by_key(|&l| (least[l], (l as u64).abs_diff(target), l))
    else {
        return Found::Nothing;
    };
    let mut side = vec![0u8; b.g.n()];
    forest.trace(b, bal, &tables, best, &mut side);
    Found::Least(side)
}

/// The forest rooted: every vertex's parent (the virtual root, numbered
/// n, is the parent of each tree's root), children in order, and the
/// vertices in post-order (children first).
struct Forest {
    /// Children of vertex v (v = n: the trees' roots), with each edge's volume.
    children: Vec<Vec<(usize, u64)>>,
    post: Vec<usize>,
}

impl Forest {
    /// `b`'s graph rooted at its lowest vertex per tree; `None` where it
    /// has a cycle (or a loop, or two edges between the same vertices).
    fn of(b: &Bip) -> Option<Forest> {
        let n = b.g.n();
        // More than n − 1 edges: a cycle, known before any allocation (a
        // mesh's split, most of those asked).
        if b.g.adj.len() / 2 >= n.max(1) {
            return None;
        }
        let mut children: Vec<Vec<(usize, u64)>> = vec![Vec::new(); n + 1];
        let mut parent = vec![usize::MAX; n + 1];
        let mut post = Vec::with_capacity(n + 1);
        // (vertex, whether its children were pushed)
        let mut stack: Vec<(usize, bool)> = Vec::new();
        for r in 0..n {
            if parent[r] != usize::MAX {
                continue;
            }
            parent[r] = n;
            children[n].push((r, 0));
            stack.push((r, false));
            while let Some((v, done)) = stack.pop() {
                if done {
                    post.push(v);
                    continue;
                }
                stack.push((v, true));
                let mut up = false;
                for (u, w) in b.g.edges(v) {
                    if u == parent[v] && !up {
                        // The edge to the parent, once.
                        up = true;
                    } else if parent[u] != usize::MAX {
                        return None;
                    } else {
                        parent[u] = v;
                        children[v].push((u, w));
                        stack.push((u, false));
                    }
                }
            }
        }
        post.push(n);
        Some(Forest { children, post })
    }

    /// The virtual root.
    fn root(&self) -> usize {
        self.post.len() - 1
    }

    /// The least-cost bisection within `bal` that cuts one edge (or moves
    /// one tree of several), a subtree on either side: each subtree's load
    /// and outside costs summed once, children first, O(n).
    fn one_cut(&self, b: &Bip, bal: Balance, target: u64) -> Option<Vec<u8>> {
        let n = b.g.n();
        // Per vertex: its subtree's load and costs on side 0 and on side 1,
        // and the volume of the edge to its parent (0 to the virtual root).
        let mut sums = vec![(0u64, 0u64, 0u64); n + 1];
        let mut up = vec![0u64; n + 1];
        for &v in &self.post {
            let mut s = match v < n {
                true => (b.g.vw[v], b.ext[v][0], b.ext[v][1]),
                false => (0, 0, 0),
            };
            for &(c, w) in &self.children[v] {
                up[c] = w;
                s = (s.0 + sums[c].0, s.1 + sums[c].1, s.2 + sums[c].2);
            }
            sums[v] = s;
        }
        let (load, all0, all1) = sums[n];
        // (cost, distance from target, vertex, its subtree's side)
        let best = (0..n)
            .flat_map(|v| [(v, 0u8), (v, 1u8)])
            .filter_map(|(v, s)| {
                let (l, c0, c1) = sums[v];
                let (load0, cost) = match s {
                    0 => (l, c0 + (all1 - c1)),
                    _ => (load - l, c1 + (all0 - c0)),
                };
                let cost = cost + up[v] * bal.d12;
                (load0 >= bal.lo && load0 <= bal.hi).then_some((cost, load0.abs_diff(target), v, s))
            })
            .min()?;
        let (_, _, v, s) = best;
        let mut side = vec![1 - s; n];
        let mut todo = vec![v];
        while let Some(u) = todo.pop() {
            side[u] = s;
            todo.extend(self.children[u].iter().map(|&(c, _)| c));
        }
        Some(side)
    }

    /// Every vertex's tables, children merged one at a time; `None` where
    /// that is above [`MAX_WORK`] or keeps more than [`MAX_KEPT`].
    fn tables(&self, b: &Bip, bal: Balance) -> Option<Tables> {
        let hi = bal.hi as usize;
        let n = b.g.n();
        let load = |v: usize| if v == n { 0 } else { b.g.vw[v] as usize };
        // The work first: each merge costs the two loads (within hi) times 4.
        let mut reach = vec![0usize; n + 1];
        let (mut work, mut kept) = (0u64, 0u64);
        for &v in &self.post {
            let mut r = load(v).min(hi);
            kept += r as u64 + 1;
            for &(c, _) in &self.children[v] {
                work += 4 * (r as u64 + 1) * (reach[c] as u64 + 1);
                r = (r + reach[c]).min(hi);
                kept += r as u64 + 1;
            }
            reach[v] = r;
        }
        if work > MAX_WORK || kept > MAX_KEPT {
            return None;
        }
        let mut tables = Tables {
            stages: vec![Vec::new(); n + 1],
        };
        let cut = |w: u64| w * bal.d12;
        for &v in &self.post {
            let own = load(v);
            let mut stage = Stage::new(own.min(hi));
            let ext = if v == n { [0, 0] } else { b.ext[v] };
            if own <= hi {
                stage.cost[0][own] = ext[0];
            }
            stage.cost[1][0] = ext[1];
            let mut stages = vec![stage];
            for &(c, w) in &self.children[v] {
                let below = tables.last_stage(c);
                let next = stages
                    .last()
                    .expect("a first stage")
                    .merged(below, cut(w), hi);
                stages.push(next);
            }
            tables.stages[v] = stages;
        }
        Some(tables)
    }

    /// Sets `side` from the tables: the virtual root's load `best`, each
    /// merge undone from the last child back.
    fn trace(&self, b: &Bip, bal: Balance, tables: &Tables, best: usize, side: &mut [u8]) {
        let n = b.g.n();
        let cut = |w: u64| w * bal.d12;
        // The virtual root's side is either: its load and costs are 0.
        let mut todo = vec![(self.root(), 0usize, best)];
        while let Some((v, s, mut l)) = todo.pop() {
            if v < n {
                side[v] = s as u8;
            }
            let stages = &tables.stages[v];
            for (j, &(c, w)) in self.children[v].iter().enumerate().rev() {
                let (before, after) = (&stages[j], &stages[j + 1]);
                let below = tables.last_stage(c);
                let want = after.cost[s][l];
                let (s2, l2) = (0..2)
                    .flat_map(|s2| (0..=l.min(below.reach())).map(move |l2| (s2, l2)))
                    .find(|&(s2, l2)| {
                        let (a, z) = (before.at(s, l - l2), below.cost[s2][l2]);
                        let link = if s2 == s { 0 } else { cut(w) };
                        a != NONE && z != NONE && a + z + link == want
                    })
                    .expect("every table entry comes from one below it");
                todo.push((c, s2, l2));
                l -= l2;
            }
        }
    }
}

/// One vertex's table after some of its children are merged: the least
/// cost of its subtree so far with it on side s and load l on side 0.
#[derive(Clone)]
struct Stage {
    cost: [Vec<u64>; 2],
}

impl Stage {
    fn new(reach: usize) -> Stage {
        Stage {
            cost: [vec![NONE; reach + 1], vec![NONE; reach + 1]],
        }
    }

    /// Most load on side 0 the table holds.
    fn reach(&self) -> usize {
        self.cost[0].len() - 1
    }

    /// The entry at (s, l), none beyond the table.
    fn at(&self, s: usize, l: usize) -> u64 {
        self.cost[s].get(l).copied().unwrap_or(NONE)
    }

    /// This table with a child's (`below`, linked by an edge costing `link`
    /// when cut) merged: loads add, up to `hi`.
    fn merged(&self, below: &Stage, link: u64, hi: usize) -> Stage {
        let mut next = Stage::new((self.reach() + below.reach()).min(hi));
        for s in 0..2 {
            for (l1, &a) in self.cost[s].iter().enumerate() {
                if a == NONE {
                    continue;
                }
                for s2 in 0..2 {
                    let extra = if s2 == s { 0 } else { link };
                    let top = (next.reach() - l1).min(below.reach());
                    for (l2, &z) in below.cost[s2][..=top].iter().enumerate() {
                        if z == NONE {
                            continue;
                        }
                        // (No sum overflows: see [`bisect`].)
                        let sum = a + z + extra;
                        let entry = &mut next.cost[s][l1 + l2];
                        if sum < *entry {
                            *entry = sum;
                        }
                    }
                }
            }
        }
        next
    }
}

/// Every vertex's stages: its own table, then one per child merged.
struct Tables {
    stages: Vec<Vec<Stage>>,
}

impl Tables {
    fn last_stage(&self, v: usize) -> &Stage {
        self.stages[v].last().expect("every vertex has a stage")
    }

    /// The least cost over both sides of v's whole subtree, per load.
    fn last(&self, v: usize) -> Vec<u64> {
        let t = self.last_stage(v);
        t.cost[0]
            .iter()
            .zip(&t.cost[1])
            .map(|(&a, &b)| a.min(b))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapper::refine::fm;
    use crate::topology;
    use proptest::prelude::*;

    /// The graph of `n` vertices of `loads` and the edges (u, v, volume).
    fn graph(n: usize, edges: &[(usize, usize, u64)], loads: Vec<u64>) -> WGraph {
        let mut rows: Vec<Vec<(u32, u64)>> = vec![Vec::new(); n];
        for &(u, v, w) in edges {
            rows[u].push((v as u32, w));
            rows[v].push((u as u32, w));
        }
        let mut xadj = vec![0];
        let (mut adj, mut ew) = (Vec::new(), Vec::new());
        for row in rows {
            for (u, w) in row {
                adj.push(u);
                ew.push(w);
            }
            xadj.push(adj.len());
        }
        WGraph {
            xadj,
            adj,
            ew,
            vw: loads,
        }
    }

    /// `g` with no outside neighbours.
    /// The working graph of `spec`.
    fn graph_of(spec: &str) -> WGraph {
        WGraph::from_topology(topology::parse(spec).unwrap().as_ref()).unwrap()
    }

    fn alone(g: WGraph) -> Bip {
        let ext = vec![[0, 0]; g.n()];
        Bip { g, ext }
    }

    /// The least cost within `bal` over every side assignment (n ≤ 16).
    fn brute(b: &Bip, bal: Balance) -> Option<u128> {
        let n = b.g.n();
        (0u32..1 << n)
            .filter_map(|mask| {
                let side: Vec<u8> = (0..n).map(|v| (mask >> v & 1) as u8).collect();
                let load0 = b.load0(&side);
                (load0 >= bal.lo && load0 <= bal.hi).then(|| fm::cost(b, &side, bal.d12))
            })
            .min()
    }

    /// A binary tree of 1 023 vertices halved within six vertices of the
    /// middle: one edge cut (the multilevel bisection cut 1 to 4 of
    /// bintree:1024's over seeds where one always does).
    #[test]
    fn a_binary_tree_is_halved_by_one_edge() {
        let b = alone(graph_of("bintree:512"));
        let bal = Balance {
            lo: 505,
            hi: 517,
            d12: 3,
        };
        let Found::Least(side) = bisect(&b, bal, 511) else {
            panic!("a tree within the tables")
        };
        assert_eq!(fm::cost(&b, &side, 3), 3, "one edge at distance 3");
        let load0 = b.load0(&side);
        assert!((511..=512).contains(&load0), "{load0}");
    }

    /// A binary tree of 8 191 vertices is above the tables: its best cut
    /// by one edge, within the balance, for the multilevel bisection to
    /// beat; with outside costs pulling its left subtree to side 1 and its
    /// root to side 0, that subtree is the side cut off.
    #[test]
    fn a_large_tree_gets_its_best_single_cut() {
        let g = graph_of("bintree:4096");
        let n = g.n();
        let bal = Balance {
            lo: 4000,
            hi: 4200,
            d12: 2,
        };
        let b = alone(g.clone());
        let Found::OneCut(side) = bisect(&b, bal, 4095) else {
            panic!("8 191 vertices are above the tables")
        };
        assert_eq!(fm::cost(&b, &side, 2), 2);
        assert!((4000..=4200).contains(&b.load0(&side)));
        // Node 0 is the root and 2v + 1, 2v + 2 its children (heap order):
        // the left subtree (under 1) pays 5 a vertex on side 0.
        let mut left = vec![false; n];
        left[1] = true;
        for v in 2..n {
            left[v] = left[(v - 1) / 2];
        }
        let ext = (0..n)
            .map(|v| match (v, left[v]) {
                (0, _) => [0, 5],
                (_, true) => [5, 0],
                _ => [0, 0],
            })
            .collect();
        let b = Bip { g, ext };
        let Found::OneCut(side) = bisect(&b, bal, 4095) else {
            panic!("still above the tables")
        };
        assert!(
            (0..n).all(|v| side[v] == u8::from(left[v])),
            "the left subtree on side 1"
        );
        assert_eq!(fm::cost(&b, &side, 2), 2);
    }

    /// Forests are told from graphs with a cycle, a loop or a second edge
    /// between two vertices; isolated vertices are trees of their own.
    #[test]
    fn forests_are_told_apart() {
        let of = |n: usize, edges: &[(usize, usize, u64)]| is_forest(&graph(n, edges, vec![1; n]));
        assert!(of(5, &[(0, 1, 1), (1, 2, 1), (3, 4, 1)]));
        assert!(of(6, &[(0, 1, 1), (4, 5, 1)]));
        assert!(!of(4, &[(0, 1, 1), (1, 2, 1), (2, 0, 1)]));
        assert!(
            !of(6, &[(0, 1, 1), (1, 2, 1), (2, 0, 1)]),
            "a cycle beside isolated vertices"
        );
        assert!(!of(3, &[(0, 1, 1), (0, 1, 2)]));
        assert!(!of(3, &[(1, 1, 1)]));
        assert!(is_forest(&graph_of("bintree:64")));
        assert!(!is_forest(&graph_of("mesh:3x3")));
    }

    /// A graph with a cycle is left to the multilevel bisection.
    #[test]
    fn a_cycle_is_not_a_forest() {
        let b = alone(graph_of("ring:8"));
        let bal = Balance {
            lo: 4,
            hi: 4,
            d12: 1,
        };
        assert!(matches!(bisect(&b, bal, 4), Found::Nothing));
    }

    proptest! {
        /// On random forests of up to 12 vertices, with loads, volumes and
        /// outside costs, the bisection costs what the best of every
        /// assignment within the balance costs, and keeps the balance.
        #[test]
        fn the_bisection_is_the_least_within_the_balance(
            parents in prop::collection::vec((any::<prop::sample::Index>(), any::<bool>(), 1u64..5), 1..12),
            loads in prop::collection::vec(1u64..4, 12),
            ext in prop::collection::vec((0u64..9, 0u64..9), 12),
            (lo, width, d12) in (0u64..12, 0u64..8, 1u64..4),
        ) {
            // Vertex k + 1 hangs under one of 0..=k, or starts a tree.
            let n = parents.len() + 1;
            let mut edges = Vec::new();
            for (k, (p, joined, w)) in parents.iter().enumerate() {
                if *joined {
                    edges.push((p.index(k + 1), k + 1, *w));
                }
            }
            let g = graph(n, &edges, loads[..n].to_vec());
            let b = Bip { g, ext: ext[..n].iter().map(|&(a, c)| [a, c]).collect() };
            let bal = Balance { lo, hi: lo + width, d12 };
            let found = match bisect(&b, bal, lo + width / 2) {
                Found::Least(side) => Some(side),
                Found::OneCut(_) => unreachable!("12 vertices fit the tables"),
                Found::Nothing => None,
            };
            match (found, brute(&b, bal)) {
                (Some(side), Some(least)) => {
                    let load0 = b.load0(&side);
                    prop_assert!(load0 >= bal.lo && load0 <= bal.hi, "load {}", load0);
                    prop_assert_eq!(fm::cost(&b, &side, d12), least);
                }
                (None, None) => {}
                (found, least) => prop_assert!(false, "{:?} against {:?}", found, least),
            }
        }
    }
}
