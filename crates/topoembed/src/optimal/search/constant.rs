//! The least Σ D_i over all constant-distance embeddings of a d-cube onto a
//! ring or torus with power-of-two sides (xor paper §2.2: every node's
//! neighbour in dimension i at the same distance D_i, so a CC d-cube
//! algorithm takes d·T_a + T_c·Σ D_i), by a complete branch and bound.
//!
//! The embedding f is built node by node in binary order with f(0) = 0 (the
//! torus is vertex-transitive). Node 2^h opens dimension h: its distance D_h
//! is chosen there, not below D_{h−1} (dimensions can be permuted, so the
//! distances may be taken in ascending order), and f(2^h) runs over the
//! nodes at distance D_h from node 0, one node per orbit of the torus's
//! symmetries that fix node 0 and f(1), f(2), .., f(2^(h−1)) (the least of
//! its orbit: any embedding can be turned into one that chooses so, one
//! dimension after the other, without changing its distances). Every other node n has all its lower
//! neighbours n ⊕ e_j (bits j of n) placed already: f(n) must be an unused
//! node at distance D_j from each, so its candidates are the intersection of
//! those spheres. A complete placement is a constant-distance embedding: its
//! upper edges were checked when their upper ends were placed.
//!
//! Bounds: the search looks for sums strictly below the best known (xor's
//! first, then any better found), so a completed search proves the best
//! optimal. Two bounds hold for the sub-cube of any j dimensions S (so for
//! the j smallest distances, D_0..D_{j−1}), with R = Σ_S D_i:
//! * its 2^j images are distinct nodes whose distances from f(0) add up to
//!   at most 2^(j−1)·R (each is reached along its bits) and at least the sum
//!   of the 2^j smallest distances from one node;
//! * with x = f(c) and x' = f(c ⊕ S) for a node c, every image y = f(c ⊕ w)
//!   has d(x, y) + d(y, x') ≤ Σ_w D_i + Σ_{S∖w} D_i = R: all 2^j images lie
//!   in the "ellipse" of foci x ≠ x' and string R, so some ellipse of string
//!   R holds 2^j nodes (on a ring of 2^d nodes: R ≥ 2^j − 1, the xor paper's
//!   Lemma 1, here for every j and every torus).
//!
//! And the remaining d−1−h distances are each at least D_h.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::error::{Error, Result};
use crate::optimal::bounds::wirelength::{literature, Literature};
use crate::optimal::host::{torus_sides, SearchHost};
use crate::optimal::search::ahead::Ahead;
use crate::optimal::search::branch::{read_checkpoint, Search};
use crate::optimal::search::copies::Domains;
#[cfg(doc)]
use crate::optimal::search::faces::Faces;
use crate::optimal::search::shapes::Shapes;
use crate::spec::Spec;

pub use crate::optimal::host::MAX_DIMENSION;

/// What the search found.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Optimum {
    /// The guest, `cube:D`.
    pub guest: String,
    /// The host.
    pub host: String,
    /// The least Σ D_i found (the optimum when `proved`).
    pub min_sum: u32,
    /// D_0..D_{d−1} of the embedding reaching it (ascending).
    pub distances: Vec<u32>,
    /// Host node of every cube node in that embedding.
    pub map: Vec<u64>,
    /// Σ D_i of the xor embedding.
    pub xor_sum: u32,
    /// Σ D_i of the standard embedding.
    pub standard_sum: u32,
    /// Whether xor reaches the optimum (only meaningful when `proved`).
    pub xor_optimal: bool,
    /// True when the search ran to completion: `min_sum` is the least over
    /// all constant-distance embeddings.
    pub proved: bool,
    /// The least Σ D_i still possible, as far as the search got: `min_sum`
    /// when `proved`; for a stopped search by vectors, the sum below which
    /// every ascending vector is cut by the bounds or refuted; for a
    /// stopped branch and bound, the counting bound (it proves nothing
    /// sum by sum).
    pub lower_bound: u32,
    /// Placements tried (nodes of the search tree).
    pub nodes_searched: u64,
    /// Wall time of the search.
    pub seconds: f64,
    /// What the published least wirelength of a cube on this host implies
    /// (cited beside the search's answer, never used by it; see
    /// [`crate::optimal::bounds::wirelength`]).
    pub literature: Literature,
}

pub use super::branch::{SearchOptions, CHECKPOINT_NODES};

/// Σ D_i of a method's embedding (its distances are constant).
fn method_sum(method: &str, d: u32, host: &Spec) -> Result<u32> {
    let guest = crate::topology::build(&Spec::Cube(d))?;
    let host = crate::topology::build(host)?;
    let e = crate::embed::build(method, guest.as_ref(), host.as_ref())?;
    let origin = e.map(0);
    Ok((0..d)
        .map(|i| host.distance(origin, e.map(1 << i)) as u32)
        .sum())
}

/// What every search of cube:d onto a host starts from.
pub(in crate::optimal) struct Prepared {
    pub h: SearchHost,
    /// Least Σ_{i≤k} D_i for the sub-cube of dimensions 0..=k.
    pub prefix_bound: Vec<u32>,
    pub xor_sum: u32,
    pub standard_sum: u32,
}

/// Checks d and the host, and computes the tables and bounds of the search.
pub(in crate::optimal) fn prepare(d: u32, host: &Spec) -> Result<Prepared> {
    if d == 0 || d > MAX_DIMENSION {
        return Err(Error::Parameter(format!(
            "cube:{d}: the exact search takes d from 1 to {MAX_DIMENSION}"
        )));
    }
    let sides = torus_sides(d, host)?;
    let xor_sum = match method_sum("xor", d, host) {
        Ok(s) => s,
        // xor needs d ≥ 2 on a ring and sides ≥ 2; else the standard embedding.
        Err(_) => method_sum("standard", d, host)?,
    };
    let standard_sum = method_sum("standard", d, host)?;
    let h = SearchHost::new(&sides);
    let caps = h.ellipse_caps();
    let prefix_bound: Vec<u32> = (0..d)
        .map(|k| {
            let m = 1usize << (k + 1);
            let by_distances = h.nearest_sum(m).div_ceil(1u64 << k) as u32;
            let by_ellipses = caps.iter().position(|&c| c >= m).unwrap_or(caps.len()) as u32;
            by_distances.max(by_ellipses)
        })
        .collect();
    Ok(Prepared {
        h,
        prefix_bound,
        xor_sum,
        standard_sum,
    })
}

/// Random descents (probes) of the search tree behind the size estimate.
pub const ESTIMATE_PROBES: u32 = 2000;

/// An estimate of the nodes [`optimal_constant`] searches before it proves
/// its answer (Knuth, "Estimating the efficiency of backtrack programs",
/// 1975): a probe walks from the root to a leaf choosing each child at
/// random among those the search would visit; with b_1, b_2, .. the
/// numbers of children met on the way, 1 + b_1 + b_1·b_2 + .. is an
/// unbiased estimate of the tree's size, and the mean over `probes`
/// probes is returned. The bound is fixed at the start's sum (xor's or the
/// standard embedding's): the search itself first looks for a sum equal to
/// it (found early: distances go up from the least) and below it from
/// then on, and a search that finds a better sum prunes more than this
/// counts. Deterministic (a fixed seed).
pub fn estimate_nodes(d: u32, host: &Spec, probes: u32) -> Result<f64> {
    let Prepared {
        h,
        prefix_bound,
        xor_sum,
        standard_sum,
    } = prepare(d, host)?;
    let options = SearchOptions::default();
    // The search finds an embedding as good as the start's early (the
    // distances go up from the least) and searches below it from then.
    let names = (String::new(), String::new());
    let mut search = Search::new(&h, prefix_bound, xor_sum.min(standard_sum), &options, names);
    let mut rng = crate::mapper::rng::Rng::new(0x5eed, u64::from(d));
    let total: f64 = (0..probes.max(1)).map(|_| search.probe(&mut rng)).sum();
    Ok(total / f64::from(probes.max(1)))
}

/// The least Σ D_i over all constant-distance embeddings of cube:`d` onto
/// `host` (see the module docs), with an embedding that reaches it.
pub fn optimal_constant(d: u32, host: &Spec, options: &SearchOptions) -> Result<Optimum> {
    let started = Instant::now();
    let Prepared {
        h,
        prefix_bound,
        xor_sum,
        standard_sum,
    } = prepare(d, host)?;
    let guest_name = Spec::Cube(d).to_string();
    let resume = match options.checkpoint {
        Some(path) if path.exists() => Some(read_checkpoint(path, &guest_name, host)?),
        _ => None,
    };
    let names = (guest_name.clone(), host.to_string());
    let mut search = Search::new(
        &h,
        prefix_bound,
        xor_sum.min(standard_sum) + 1,
        options,
        names,
    );
    if let Some(c) = resume {
        search.best = c.best;
        search.found = c.found;
        search.nodes = c.nodes;
        search.resume = c.path;
    }
    search.descend(1, 0);
    if let Some(e) = search.failure.take() {
        return Err(e);
    }
    let proved = !search.aborted;
    if let (Some(path), true) = (options.checkpoint, search.aborted) {
        search.save(path)?;
    } else if let (Some(path), true) = (options.checkpoint, proved) {
        // Done: a checkpoint left behind would resume a finished search.
        let _ = std::fs::remove_file(path);
    }
    let nodes_searched = search.nodes;
    let counting_bound = search.prefix_bound.last().copied().unwrap_or(1);
    let (min_sum, distances, map) = match search.found {
        Some((dims, place)) => (
            dims.iter().sum(),
            dims,
            place.iter().map(|&v| u64::from(v)).collect(),
        ),
        None => start_embedding(d, host, xor_sum, standard_sum)?,
    };
    Ok(Optimum {
        guest: guest_name,
        host: host.to_string(),
        min_sum,
        distances,
        map,
        xor_sum,
        standard_sum,
        xor_optimal: xor_sum == min_sum,
        proved,
        lower_bound: if proved {
            min_sum
        } else {
            counting_bound.min(min_sum)
        },
        nodes_searched,
        seconds: started.elapsed().as_secs_f64(),
        literature: literature(d, host)?,
    })
}

/// What the branch and bound made of one distance vector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::optimal) enum SearchAnswer {
    /// The host node of every cube node.
    Embedding(Vec<u16>),
    /// No embedding, after `nodes` search nodes; not even one of the
    /// sub-cube of the first `core` dimensions (the least k whose node 2^k
    /// the search never reached: it placed every k-cube embedding there is,
    /// canonical up to the torus's symmetries, and none had room for
    /// dimension k; `core` = d when it reached them all).
    Refuted { nodes: u64, core: usize },
    /// The budget ran out, or `stop` was set.
    Undecided { nodes: u64 },
}

/// Decides one ascending distance vector by the branch and bound, within
/// `node_budget` search nodes (0: no limit).
pub(in crate::optimal) fn decide_by_search(
    h: &SearchHost,
    prefix_bound: &[u32],
    dims: &[u32],
    node_budget: u64,
    stop: Option<&AtomicBool>,
) -> SearchAnswer {
    decide_by_search_from(h, prefix_bound, dims, node_budget, stop, None).0
}

/// What a branch and bound on one vector learned before its budget ran
/// out, for the next turn at the same vector to go on from instead of
/// starting over: the shapes it found not to extend (a failed shape is
/// recorded only once every extension of it has been searched, so the
/// next search skips those subtrees whole), the highest dimension it
/// opened (a refutation names its core from the highest any turn
/// reached: the subtrees skipped may be where it was reached) and the
/// nodes it took. On torus:32x32 the turns of 2^18, 2^20 and 2^22 nodes
/// before the one that decides had cost its three hardest vectors 48 s
/// of 147 s of search, each turn starting from node 1.
pub(in crate::optimal) struct Learned {
    shapes: Shapes,
    opened: usize,
    nodes: u64,
}

impl Learned {
    /// Bytes its shapes hold.
    pub(in crate::optimal) fn bytes(&self) -> usize {
        self.shapes.bytes()
    }
}

/// [`decide_by_search`] going on from what an earlier turn at the same
/// vector `learned`; returns what this one learned too when it does not
/// decide (budget spent or `stop` set). The nodes of a refutation count
/// every turn's.
pub(in crate::optimal) fn decide_by_search_from(
    h: &SearchHost,
    prefix_bound: &[u32],
    dims: &[u32],
    node_budget: u64,
    stop: Option<&AtomicBool>,
    learned: Option<Learned>,
) -> (SearchAnswer, Option<Learned>) {
    let options = SearchOptions {
        node_limit: node_budget,
        stop,
        ..SearchOptions::default()
    };
    search_one(h, prefix_bound, dims, &options, Pruning::ALL, learned)
}

/// What the branch and bound on one vector uses beyond the symmetries of
/// the torus (each keeps every answer; tests turn them off to show it).
#[derive(Debug, Clone, Copy)]
struct Pruning {
    /// Skip placements of a shape found not to extend ([`Shapes`]).
    shapes: bool,
    /// Place each copy most constrained first under arc consistency
    /// ([`Domains`]), instead of in label order.
    copies: bool,
    /// Keep the next dimension's copy to arc consistency while a copy is
    /// placed ([`Ahead`]; with `copies` only).
    ahead: bool,
    /// Keep a sub-cube only while none of its faces has a smaller shape
    /// than the half it was built from ([`Faces`]; with `shapes` only).
    faces: bool,
    /// Drop a partial copy whose nodes, or the next copy's, cannot sit on
    /// distinct points ([`Domains::distinct`]; with `copies` only).
    distinct: bool,
}

impl Pruning {
    const ALL: Pruning = Pruning {
        shapes: true,
        copies: true,
        ahead: true,
        faces: true,
        distinct: true,
    };
}

/// The branch and bound on the ascending vector `dims` alone.
fn search_one(
    h: &SearchHost,
    prefix_bound: &[u32],
    dims: &[u32],
    options: &SearchOptions,
    pruning: Pruning,
    learned: Option<Learned>,
) -> (SearchAnswer, Option<Learned>) {
    let names = (String::new(), String::new());
    let sum: u32 = dims.iter().sum();
    let mut search = Search::new(h, prefix_bound.to_vec(), sum + 1, options, names);
    search.fixed = Some(dims.to_vec());
    let mut earlier = 0;
    if pruning.shapes {
        search.shapes = Some(match learned {
            Some(learned) => {
                search.opened = learned.opened;
                earlier = learned.nodes;
                learned.shapes
            }
            None => Shapes::new(dims),
        });
        search.faces = pruning.faces;
    }
    if pruning.copies {
        search.distinct = pruning.distinct;
        search.copies = Some((0..dims.len()).map(|_| Domains::default()).collect());
        if pruning.ahead {
            search.aheads = Some((0..dims.len()).map(|_| Ahead::default()).collect());
        }
    }
    search.descend(1, 0);
    let nodes = earlier + search.nodes;
    match (search.found, search.aborted) {
        (Some((_, place)), _) => (SearchAnswer::Embedding(place), None),
        (None, true) => {
            let learned = search.shapes.map(|shapes| Learned {
                shapes,
                opened: search.opened,
                nodes,
            });
            (SearchAnswer::Undecided { nodes }, learned)
        }
        (None, false) => {
            let core = search.opened + 1;
            (SearchAnswer::Refuted { nodes, core }, None)
        }
    }
}

/// The better of xor and standard as (Σ D_i, ascending distances, map):
/// the answer when nothing below it exists.
pub(in crate::optimal) fn start_embedding(
    d: u32,
    host: &Spec,
    xor_sum: u32,
    standard_sum: u32,
) -> Result<(u32, Vec<u32>, Vec<u64>)> {
    let method = if xor_sum <= standard_sum {
        "xor"
    } else {
        "standard"
    };
    let guest = crate::topology::build(&Spec::Cube(d))?;
    let topo = crate::topology::build(host)?;
    let e = crate::embed::build(method, guest.as_ref(), topo.as_ref())
        .or_else(|_| crate::embed::build("standard", guest.as_ref(), topo.as_ref()))?;
    let map: Vec<u64> = (0..1u64 << d).map(|v| e.map(v)).collect();
    let origin = map[0];
    let mut dims: Vec<u32> = (0..d)
        .map(|i| topo.distance(origin, map[1 << i]) as u32)
        .collect();
    dims.sort_unstable();
    Ok((dims.iter().sum(), dims, map))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::optimal::bounds::cuts::{Bounds, Cuts};
    use crate::optimal::search::vectors::vectors_with_sum;

    /// Checks that `place` embeds the cube with distances `dims`: every
    /// host node once, every edge at its distance.
    fn assert_embeds(h: &SearchHost, dims: &[u32], place: &[u16]) {
        let mut seen = place.to_vec();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), place.len());
        for v in 0..place.len() {
            for (j, &dj) in dims.iter().enumerate() {
                assert_eq!(u32::from(h.d(place[v], place[v ^ 1 << j])), dj);
            }
        }
    }

    /// Calls `each` with every vector the counting bounds leave up to xor's
    /// sum + 1 on each torus of `tori` (its sides), and the torus's search.
    fn for_each_small_vector(tori: &[&[u32]], mut each: impl FnMut(&[u32], &Prepared, Vec<u32>)) {
        for &sides in tori {
            let d = sides.iter().product::<u32>().trailing_zeros();
            let host = Spec::Torus(sides.iter().map(|&k| u64::from(k)).collect());
            let p = prepare(d, &host).unwrap();
            let mut cuts = Cuts::new(&p.h, Bounds::Counting, sides);
            let top = u32::from(p.h.diameter());
            for s in d..=p.xor_sum + 1 {
                for dims in vectors_with_sum(&p.prefix_bound, top, s, &mut cuts) {
                    each(sides, &p, dims);
                }
            }
        }
    }

    /// A vector decided in turns of a few nodes, each going on from what
    /// the last learned, gets the answer one search without a budget gets:
    /// the same first embedding, or a refutation naming the same core —
    /// every vector the counting bounds leave up to xor's sum + 1 on four
    /// tori; each turn spends exactly its budget until the last, and the
    /// last, where there were several, often needs fewer nodes than the
    /// whole search.
    #[test]
    fn turns_going_on_from_what_they_learned_decide_as_one_search() {
        let (mut vectors, mut turned, mut shorter) = (0, 0, 0);
        for_each_small_vector(
            &[&[8u32, 8][..], &[16, 4], &[4, 4, 4], &[16, 8]],
            |sides, p, dims| {
                let whole = decide_by_search(&p.h, &p.prefix_bound, &dims, 0, None);
                // Turns of 8, 16, 32, .. nodes, each from the last.
                let (mut budget, mut learned, mut turns) = (8, None, 0);
                let (answer, last_nodes) = loop {
                    let before = learned.as_ref().map_or(0, |l: &Learned| l.nodes);
                    let (answer, now) = decide_by_search_from(
                        &p.h,
                        &p.prefix_bound,
                        &dims,
                        budget,
                        None,
                        learned.take(),
                    );
                    turns += 1;
                    match answer {
                        SearchAnswer::Undecided { nodes } => {
                            let now = now.expect("a budget spent leaves what it learned");
                            assert_eq!((now.nodes, nodes), (before + budget, before + budget));
                            learned = Some(now);
                            budget *= 2;
                        }
                        answer => {
                            assert!(now.is_none());
                            let nodes = match &answer {
                                SearchAnswer::Refuted { nodes, .. } => nodes - before,
                                _ => 0,
                            };
                            break (answer, nodes);
                        }
                    }
                };
                match (&whole, &answer) {
                    (SearchAnswer::Embedding(a), SearchAnswer::Embedding(b)) => {
                        assert_embeds(&p.h, &dims, b);
                        assert_eq!(a, b, "{sides:?} {dims:?}: the first in search order");
                    }
                    (
                        SearchAnswer::Refuted { nodes, core },
                        SearchAnswer::Refuted { core: core2, .. },
                    ) => {
                        assert_eq!(core, core2, "{sides:?} {dims:?}");
                        if turns > 1 {
                            shorter += usize::from(last_nodes < *nodes);
                        }
                    }
                    other => panic!("{sides:?} {dims:?}: {other:?}"),
                }
                turned += usize::from(turns > 1);
                vectors += 1;
            },
        );
        assert!(
            vectors > 50 && turned > 20 && shorter > 10,
            "{vectors} {turned} {shorter}"
        );
    }

    /// Shapes, copies, the look-ahead, the faces and distinct points change
    /// no answer and no core, only the nodes searched: every vector the
    /// counting bounds leave up to xor's sum + 1 on five tori, decided with
    /// none, with shapes, with shapes and copies, with the look-ahead too,
    /// with the faces too, with distinct points too. Shapes never search
    /// more nodes than label order without them, the look-ahead never more
    /// than the copies without it, distinct points never more than without.
    #[test]
    fn pruning_keeps_every_answer() {
        let none = Pruning {
            shapes: false,
            copies: false,
            ahead: false,
            faces: false,
            distinct: false,
        };
        let shapes_only = Pruning {
            shapes: true,
            ..none
        };
        let no_distinct = Pruning {
            distinct: false,
            ..Pruning::ALL
        };
        let no_faces = Pruning {
            faces: false,
            ..no_distinct
        };
        let no_ahead = Pruning {
            ahead: false,
            ..no_faces
        };
        let options = SearchOptions::default();
        let (mut vectors, mut fewer, mut fewer_by_copies, mut fewer_by_ahead) = (0, 0, 0, 0);
        let (mut fewer_by_faces, mut fewer_by_distinct) = (0, 0);
        for_each_small_vector(
            &[&[8u32, 4][..], &[8, 8], &[16, 4], &[4, 4, 4], &[16, 8]],
            |sides, p, dims| {
                let answers = [
                    none,
                    shapes_only,
                    no_ahead,
                    no_faces,
                    no_distinct,
                    Pruning::ALL,
                ]
                .map(|pruning| search_one(&p.h, &p.prefix_bound, &dims, &options, pruning, None).0);
                let mut refuted = Vec::new();
                for answer in &answers {
                    match answer {
                        SearchAnswer::Embedding(place) => assert_embeds(&p.h, &dims, place),
                        SearchAnswer::Refuted { nodes, core } => refuted.push((*nodes, *core)),
                        other => panic!("{sides:?} {dims:?}: {other:?}"),
                    }
                }
                match refuted[..] {
                    [] => {}
                    [(all, plain), (shaped, core), (copied, core2), (ahead, core3), (faced, core4), (matched, core5)] =>
                    {
                        assert_eq!(
                            (core, core2, core3, core4, core5),
                            (plain, plain, plain, plain, plain),
                            "{sides:?} {dims:?}"
                        );
                        fewer_by_faces += usize::from(faced < ahead);
                        assert!(matched <= faced, "{sides:?} {dims:?}");
                        fewer_by_distinct += usize::from(matched < faced);
                        assert!(shaped <= all, "{sides:?} {dims:?}");
                        assert!(ahead <= copied, "{sides:?} {dims:?}");
                        fewer += usize::from(shaped < all);
                        fewer_by_copies += usize::from(copied < shaped);
                        fewer_by_ahead += usize::from(ahead < copied);
                    }
                    _ => panic!("{sides:?} {dims:?}: {answers:?}"),
                }
                vectors += 1;
            },
        );
        assert!(
            vectors > 50
                && fewer > 0
                && fewer_by_copies > 0
                && fewer_by_ahead > 0
                && fewer_by_faces > 0
                && fewer_by_distinct > 0,
            "{vectors} {fewer} {fewer_by_copies} {fewer_by_ahead} {fewer_by_faces} {fewer_by_distinct}"
        );
    }
}
