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

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::ahead::Ahead;
use super::copies::{Domains, MAX_SPHERE};
use super::host::{torus_sides, SearchHost};
use super::shapes::Shapes;
use super::wirelength::{literature, Literature};
use crate::error::{Error, Result};
use crate::progress::Progress;
use crate::spec::Spec;

/// Largest cube searched (the host's tables take 2 · 4^d bytes × 2).
pub const MAX_DIMENSION: u32 = 12;

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
    /// [`super::wirelength`]).
    pub literature: Literature,
}

/// How long the search may run, and where it saves itself.
#[derive(Debug, Clone, Copy, Default)]
pub struct SearchOptions<'a> {
    /// Stop after this many search nodes (`proved` is then false); 0: no limit.
    pub node_limit: u64,
    /// Set to stop the search early (`proved` is then false).
    pub stop: Option<&'a AtomicBool>,
    /// Counts search nodes, in thousands.
    pub progress: Option<&'a Progress>,
    /// A file the search writes its position to every
    /// [`CHECKPOINT_NODES`] nodes and when stopped, and resumes from when
    /// it exists (the same guest and host); the search by vectors records
    /// its refuted vectors there instead ([`super::vectors`]).
    pub checkpoint: Option<&'a std::path::Path>,
}

/// Search nodes between two checkpoint writes.
pub const CHECKPOINT_NODES: u64 = 1 << 26;

/// Where a search stands: enough to go on from there.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct Checkpoint {
    guest: String,
    host: String,
    /// Sums at or above this are not searched for.
    best: u32,
    /// The best embedding found so far: distances and placement.
    found: Option<(Vec<u32>, Vec<u16>)>,
    nodes: u64,
    /// The choice being explored at each depth of the search: (distance
    /// chosen where a dimension opens, else 0; index of the candidate).
    path: Vec<(u32, u32)>,
}

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
pub(super) struct Prepared {
    pub h: SearchHost,
    /// Least Σ_{i≤k} D_i for the sub-cube of dimensions 0..=k.
    pub prefix_bound: Vec<u32>,
    pub xor_sum: u32,
    pub standard_sum: u32,
}

/// Checks d and the host, and computes the tables and bounds of the search.
pub(super) fn prepare(d: u32, host: &Spec) -> Result<Prepared> {
    if d == 0 || d > MAX_DIMENSION {
        return Err(Error::Parameter(format!(
            "cube:{d}: the exact search takes d from 1 to {MAX_DIMENSION} (its tables hold 4^d entries)"
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
pub(super) enum SearchAnswer {
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
pub(super) fn decide_by_search(
    h: &SearchHost,
    prefix_bound: &[u32],
    dims: &[u32],
    node_budget: u64,
    stop: Option<&AtomicBool>,
) -> SearchAnswer {
    let options = SearchOptions {
        node_limit: node_budget,
        stop,
        ..SearchOptions::default()
    };
    search_one(h, prefix_bound, dims, &options, Pruning::ALL)
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
}

impl Pruning {
    const ALL: Pruning = Pruning {
        shapes: true,
        copies: true,
        ahead: true,
    };
}

/// The branch and bound on the ascending vector `dims` alone.
fn search_one(
    h: &SearchHost,
    prefix_bound: &[u32],
    dims: &[u32],
    options: &SearchOptions,
    pruning: Pruning,
) -> SearchAnswer {
    let names = (String::new(), String::new());
    let sum: u32 = dims.iter().sum();
    let mut search = Search::new(h, prefix_bound.to_vec(), sum + 1, options, names);
    search.fixed = Some(dims.to_vec());
    if pruning.shapes {
        search.shapes = Some(Shapes::new(dims));
    }
    if pruning.copies {
        search.copies = Some((0..dims.len()).map(|_| Domains::default()).collect());
        if pruning.ahead {
            search.aheads = Some((0..dims.len()).map(|_| Ahead::default()).collect());
        }
    }
    search.descend(1, 0);
    let nodes = search.nodes;
    match (search.found, search.aborted) {
        (Some((_, place)), _) => SearchAnswer::Embedding(place),
        (None, true) => SearchAnswer::Undecided { nodes },
        (None, false) => SearchAnswer::Refuted {
            nodes,
            core: search.opened + 1,
        },
    }
}

/// The better of xor and standard as (Σ D_i, ascending distances, map):
/// the answer when nothing below it exists.
pub(super) fn start_embedding(
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

/// The branch and bound's state.
struct Search<'a> {
    h: &'a SearchHost,
    d: usize,
    /// `place[v]`: host node of cube node v (v below the current node).
    place: Vec<u16>,
    used: Vec<bool>,
    /// D_0..: the distances chosen so far.
    dims: Vec<u32>,
    /// Least Σ_{i≤k} D_i for the sub-cube of dimensions 0..=k.
    prefix_bound: Vec<u32>,
    /// `stabilizers[k]`: the symmetries f(2^k) is taken up to, fixing node
    /// 0 and the images of the nodes 2^j, j < k — of every node below 2^k
    /// with `shapes` (indices into the host's list; see [`Search::settle`]).
    stabilizers: Vec<Vec<usize>>,
    /// Only sums below this are searched for.
    best: u32,
    found: Option<(Vec<u32>, Vec<u16>)>,
    nodes: u64,
    options: &'a SearchOptions<'a>,
    aborted: bool,
    /// The choice being explored at each depth (see [`Checkpoint::path`]).
    path: Vec<(u32, u32)>,
    /// A checkpoint's path still to be replayed, deepest last.
    resume: Vec<(u32, u32)>,
    /// Guest and host, as a checkpoint names them.
    names: (String, String),
    /// A checkpoint that could not be written.
    failure: Option<Error>,
    /// Only this distance vector (ascending) is searched, when set.
    fixed: Option<Vec<u32>>,
    /// The shapes of placements found not to extend (one vector only:
    /// with `fixed` set).
    shapes: Option<Shapes>,
    /// Per level, the copy placed most constrained first under arc
    /// consistency (one vector only: with `fixed` set).
    copies: Option<Vec<Domains>>,
    /// Per level k, dimension k + 1's copy over what dimension k's copy
    /// has placed so far (one vector only, with `copies`).
    aheads: Option<Vec<Ahead>>,
    /// The highest dimension opened so far (node 2^k reached: the sub-cube
    /// of dimensions below k embeds).
    opened: usize,
}

/// Reads a checkpoint of the same guest and host.
fn read_checkpoint(path: &Path, guest: &str, host: &Spec) -> Result<Checkpoint> {
    let text = super::record::checkpoint_text(path)?;
    let c: Checkpoint = serde_json::from_str(&text).map_err(|e| {
        Error::File(format!(
            "{}: not a checkpoint of `topoembed optimal` ({e}); remove it to start afresh",
            path.display()
        ))
    })?;
    super::record::same_problem(path, (&c.guest, &c.host), (guest, &host.to_string()))?;
    Ok(c)
}

impl<'a> Search<'a> {
    /// A search of `h` from cube node 1 (node 0 on host node 0) for sums
    /// below `best`; `names` = (guest, host) as a checkpoint names them.
    fn new(
        h: &'a SearchHost,
        prefix_bound: Vec<u32>,
        best: u32,
        options: &'a SearchOptions<'a>,
        names: (String, String),
    ) -> Search<'a> {
        let (n, d) = (h.nodes(), prefix_bound.len());
        let mut used = vec![false; n];
        used[0] = true;
        Search {
            h,
            d,
            place: vec![0u16; 1 << d],
            used,
            dims: vec![0u32; d],
            prefix_bound,
            stabilizers: vec![(0..h.symmetries().len()).collect()],
            best,
            found: None,
            nodes: 0,
            options,
            aborted: false,
            path: Vec::new(),
            resume: Vec::new(),
            names,
            failure: None,
            fixed: None,
            opened: 0,
            shapes: None,
            copies: None,
            aheads: None,
        }
    }

    /// Places cube node `v` and those after it; `partial` = Σ of the
    /// distances chosen (dimensions below v's highest bit, and it if open).
    fn descend(&mut self, v: usize, partial: u32) {
        if self.aborted {
            return;
        }
        if v == self.place.len() {
            self.best = partial;
            self.found = Some((self.dims.clone(), self.place.clone()));
            return;
        }
        if !self.tick() {
            return;
        }
        if v.is_power_of_two() {
            self.open_dimension(v, partial);
            return;
        }
        // Candidates: the sphere of radius D_j around the lower neighbour
        // whose sphere is smallest, checked against the others.
        // The bits of v, iterated without allocating (this runs per search node).
        let d = self.d;
        let bits = move || (0..d).filter(move |&j| v >> j & 1 == 1);
        let pivot = bits()
            .min_by_key(|&j| self.h.sphere(self.dims[j] as u16).len())
            .expect("v has two bits or more");
        let centre = self.place[v ^ (1 << pivot)];
        let radius = self.dims[pivot] as u16;
        let (_, first) = self.resumed(v);
        for k in first as usize..self.h.sphere(radius).len() {
            self.path[v - 1] = (0, k as u32);
            let u = self.h.add(centre, self.h.sphere(radius)[k]);
            if self.used[u as usize] {
                continue;
            }
            let fits = bits().all(|j| {
                j == pivot || u32::from(self.h.d(u, self.place[v ^ (1 << j)])) == self.dims[j]
            });
            if fits {
                self.place[v] = u;
                self.used[u as usize] = true;
                self.descend(v + 1, partial);
                self.used[u as usize] = false;
                if self.aborted {
                    return;
                }
            }
        }
    }

    /// Counts one search node: writes the checkpoint, advances the progress
    /// and stops at the node limit or on `stop`. False once aborted.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes % CHECKPOINT_NODES == 0 {
            if let Some(path) = self.options.checkpoint {
                if let Err(e) = self.save(path) {
                    self.failure = Some(e);
                    self.aborted = true;
                    return false;
                }
            }
        }
        // The limit exactly (a budget of one node is one node), the flag
        // now and then.
        let limit = self.options.node_limit;
        if limit > 0 && self.nodes >= limit {
            self.aborted = true;
            return false;
        }
        if self.nodes % 1024 == 0 {
            crate::progress::advance(self.options.progress, 1);
            if self.options.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                self.aborted = true;
                return false;
            }
        }
        true
    }

    /// Level k's [`Domains`], taken out of `copies` for the time of the
    /// level (put back by the caller): None without copies or where the
    /// sphere of radius D_k is too large for a domain.
    fn copy_for(&mut self, k: usize) -> Option<Domains> {
        let large = self.h.sphere(self.dims[k] as u16).len() > MAX_SPHERE;
        match self.copies.as_mut() {
            Some(copies) if !large => Some(std::mem::take(&mut copies[k])),
            _ => None,
        }
    }

    /// Level k's [`Ahead`], taken out of `aheads` for the time of the
    /// level (put back by the caller): None without look-ahead, at the
    /// last dimension, where dimension k + 1's sphere is too large, and
    /// until dimension k + 1 has opened once. A refutation then names the
    /// same core as without it: what the look-ahead drops could not have
    /// opened dimension k + 1, let alone gone past it.
    fn ahead_for(&mut self, k: usize) -> Option<Ahead> {
        if self.opened <= k {
            return None;
        }
        let next = *self.fixed.as_ref()?.get(k + 1)?;
        let large = self.h.sphere(next as u16).len() > MAX_SPHERE;
        match self.aheads.as_mut() {
            Some(aheads) if !large => Some(std::mem::take(&mut aheads[k])),
            _ => None,
        }
    }

    /// f(x) = u (x in a copy, u marked used) for the look-ahead, if any;
    /// false when it finds that the next dimension cannot open.
    fn look_ahead(&self, ahead: &mut Option<Ahead>, x: usize, u: u16) -> bool {
        ahead
            .as_mut()
            .map_or(true, |ahead| ahead.place(self.h, x, u, &self.used))
    }

    /// Places the copy's unplaced nodes (f(2^k) placed and started), the
    /// one with the fewest points left first, then goes on from node
    /// 2^(k+1).
    fn fill_from(&mut self, copy: &mut Domains, ahead: &mut Option<Ahead>, k: usize, partial: u32) {
        let half = 1usize << k;
        let Some(x) = copy.most_constrained() else {
            // The (k+1)-cube is placed: the path keeps one entry per node.
            self.path.resize(2 * half - 1, (0, 0));
            return self.descend(2 * half, partial);
        };
        copy.set_placed(x, true);
        let mut points = copy.points(x);
        while points != 0 {
            let i = points.trailing_zeros() as usize;
            points &= points - 1;
            if !self.tick() {
                return;
            }
            let u = copy.host(self.h, x, i);
            let mark = copy.save();
            if copy.assign(self.h, k, x, i) {
                self.place[half + x] = u;
                self.used[u as usize] = true;
                let ahead_mark = ahead.as_mut().map(Ahead::mark);
                if self.look_ahead(ahead, half + x, u) {
                    self.fill_from(copy, ahead, k, partial);
                }
                if let (Some(ahead), Some(mark)) = (ahead.as_mut(), ahead_mark) {
                    ahead.undo(mark);
                }
                self.used[u as usize] = false;
            }
            copy.restore(mark);
            if self.aborted {
                return;
            }
        }
        copy.set_placed(x, false);
    }

    /// The choice to start from at depth v: the checkpoint's while the
    /// search is still on the checkpoint's path, else the first. Also sizes
    /// the current path.
    fn resumed(&mut self, v: usize) -> (u32, u32) {
        self.path.truncate(v - 1);
        self.path.push((0, 0));
        let on_path = self.resume.len() >= v && self.resume[..v - 1] == self.path[..v - 1];
        if !on_path {
            // Replayed (or moved past): from here on every loop starts at 0.
            self.resume.clear();
            return (0, 0);
        }
        self.resume[v - 1]
    }

    /// Writes where the search stands to `path` (through a temporary file,
    /// so a stop while writing leaves the last checkpoint whole).
    fn save(&self, path: &Path) -> Result<()> {
        let c = Checkpoint {
            guest: self.names.0.clone(),
            host: self.names.1.clone(),
            best: self.best,
            found: self.found.clone(),
            nodes: self.nodes,
            path: self.path.clone(),
        };
        let text = serde_json::to_string(&c).map_err(|e| Error::File(e.to_string()))?;
        let temporary = super::record::temporary_beside(path);
        std::fs::write(&temporary, text)
            .and_then(|()| std::fs::rename(&temporary, path))
            .map_err(|e| {
                Error::File(format!(
                    "{}: cannot write the checkpoint: {e}",
                    path.display()
                ))
            })
    }

    /// The least Σ D_i of a completion once D_k = `dk` (with `partial` the
    /// sum below k): for every j ≥ k, the sub-cube of dimensions 0..=j needs
    /// at least max(its bound, partial + (j − k + 1)·dk), and each of the
    /// d − 1 − j dimensions above it at least dk.
    fn least_total(&self, k: usize, partial: u32, dk: u32) -> u32 {
        (k..self.d)
            .map(|j| {
                let below = self.prefix_bound[j].max(partial + (j - k + 1) as u32 * dk);
                below + (self.d - 1 - j) as u32 * dk
            })
            .max()
            .unwrap_or(partial)
    }

    /// One random descent for [`estimate_nodes`]: returns 1 + b_1 + b_1·b_2
    /// + .., b_i the children at depth i, and leaves the state as found.
    fn probe(&mut self, rng: &mut crate::mapper::rng::Rng) -> f64 {
        let (mut total, mut weight, mut partial) = (1.0, 1.0, 0u32);
        let mut children: Vec<(u32, u16)> = Vec::new();
        let mut placed = Vec::new();
        for v in 1..self.place.len() {
            if v.is_power_of_two() {
                self.settle(v.trailing_zeros() as usize);
            }
            self.children(v, partial, &mut children);
            if children.is_empty() {
                break;
            }
            weight *= children.len() as f64;
            // A child is a search node unless it completes the placement.
            if v + 1 < self.place.len() {
                total += weight;
            }
            let (dk, u) = children[rng.below(children.len())];
            if v.is_power_of_two() {
                let k = v.trailing_zeros() as usize;
                self.dims[k] = dk;
                partial += dk;
            }
            self.place[v] = u;
            self.used[u as usize] = true;
            placed.push(u);
        }
        for u in placed {
            self.used[u as usize] = false;
        }
        total
    }

    /// Records, as dimension k opens (every cube node below 2^k placed),
    /// the symmetries f(2^k) is taken up to: the least node of its orbit
    /// under those that fix node 0 and the images of the nodes 2^j, j < k.
    /// Any embedding can be turned into one that chooses so, level by
    /// level, each turn fixing what the levels before chose, so the search
    /// is complete. With [`Shapes`] the symmetries fix the image of every
    /// node below 2^k instead: fewer (the search of torus:16x16 takes 12 %
    /// more nodes), but then the search from one placement of the k-cube is
    /// complete for that placement's extensions, each turn fixing all of it.
    fn settle(&mut self, k: usize) {
        self.stabilizers.truncate(k.max(1));
        if k == 0 {
            return;
        }
        let symmetries = self.h.symmetries();
        let block = match self.shapes {
            Some(_) => &self.place[1 << (k - 1)..1 << k],
            None => &self.place[1 << (k - 1)..=1 << (k - 1)],
        };
        let fixing: Vec<usize> = self.stabilizers[k - 1]
            .iter()
            .copied()
            .filter(|&g| block.iter().all(|&u| symmetries[g][u as usize] == u))
            .collect();
        self.stabilizers.push(fixing);
    }

    /// The children the search visits at node v: (the distance D_k chosen
    /// when v = 2^k opens dimension k, else 0; the host node for v).
    fn children(&self, v: usize, partial: u32, out: &mut Vec<(u32, u16)>) {
        out.clear();
        if v.is_power_of_two() {
            let k = v.trailing_zeros() as usize;
            let lowest = if k == 0 { 1 } else { self.dims[k - 1] };
            let mut dk = self.prefix_bound[k].saturating_sub(partial).max(lowest);
            let symmetries = self.h.symmetries();
            while dk <= u32::from(self.h.diameter()) && self.least_total(k, partial, dk) < self.best
            {
                for &u in self.h.sphere(dk as u16) {
                    let least = !self.stabilizers[k]
                        .iter()
                        .any(|&g| symmetries[g][u as usize] < u);
                    if !self.used[u as usize] && least {
                        out.push((dk, u));
                    }
                }
                dk += 1;
            }
            return;
        }
        let bits = (0..self.d).filter(|&j| v >> j & 1 == 1);
        let pivot = bits
            .clone()
            .min_by_key(|&j| self.h.sphere(self.dims[j] as u16).len())
            .expect("v has two bits or more");
        let centre = self.place[v ^ (1 << pivot)];
        let radius = self.dims[pivot] as u16;
        for &offset in self.h.sphere(radius) {
            let u = self.h.add(centre, offset);
            let fits = bits.clone().all(|j| {
                j == pivot || u32::from(self.h.d(u, self.place[v ^ (1 << j)])) == self.dims[j]
            });
            if !self.used[u as usize] && fits {
                out.push((0, u));
            }
        }
    }

    /// Node v = 2^k opens dimension k: choose D_k, then f(v) at that distance.
    fn open_dimension(&mut self, v: usize, partial: u32) {
        let k = v.trailing_zeros() as usize;
        self.opened = self.opened.max(k);
        self.settle(k);
        // The placement's shape, once it is known to leave f(2^k) a point.
        let mut shape = None;
        let lowest = if k == 0 { 1 } else { self.dims[k - 1] };
        let need = self.prefix_bound[k].saturating_sub(partial).max(lowest);
        let (at_dk, at_c) = self.resumed(v);
        let mut dk = need.max(at_dk);
        let mut first = if at_dk >= need { at_c } else { 0 };
        // The remaining distances are each at least D_k, and every larger
        // sub-cube has its own bound: stop when even they cannot stay below
        // the best.
        while dk <= u32::from(self.h.diameter()) && self.least_total(k, partial, dk) < self.best {
            if let Some(wanted) = self.fixed.as_ref().map(|f| f[k]) {
                match dk.cmp(&wanted) {
                    std::cmp::Ordering::Less => {
                        dk = wanted;
                        continue;
                    }
                    std::cmp::Ordering::Greater => break,
                    std::cmp::Ordering::Equal => {}
                }
            }
            self.dims[k] = dk;
            let sphere = self.h.sphere(dk as u16);
            // With copies, what the nodes below 2^k leave each copy node.
            let mut copy = self.copy_for(k);
            let mut open = match copy.as_mut() {
                Some(copy) => copy.open(self.h, k, &self.dims, &self.place[..v], &self.used),
                None => true,
            };
            // And what they leave dimension k + 1's copy.
            let mut ahead = copy.as_ref().and_then(|_| self.ahead_for(k));
            if let (true, Some(ahead)) = (open, ahead.as_mut()) {
                let dims = self.fixed.as_deref().expect("look-ahead needs the vector");
                open = ahead.begin(self.h, k + 1, dims, &self.place[..v], &self.used);
            }
            // A placement of a shape found not to extend is not searched
            // again. The shape is computed only where the copy opens: it
            // costs 2^k translations × the torus's symmetries × 2^k labels
            // at least, and most placements leave f(2^k) no point, which the
            // copy finds for less (torus:32x32, 1,2,2,3,4,5,5,5,5,11: 1 675
            // shapes at level 6 instead of 636 081, 9.3 s instead of 22.6).
            let mut failed = false;
            if open && shape.is_none() {
                if let Some(shapes) = self.shapes.as_mut().filter(|s| s.kept(k)) {
                    let found = shapes.shape(self.h, k, &self.place[..v]);
                    failed = shapes.failed(k, &found);
                    shape = (!failed).then_some(found);
                }
            }
            // A failed shape skips the points but still hands the copy back.
            let open = open && !failed;
            let skip = std::mem::take(&mut first) as usize;
            for (c, &u) in sphere.iter().enumerate().skip(skip).filter(|_| open) {
                self.path[v - 1] = (dk, c as u32);
                if self.used[u as usize] || copy.as_ref().is_some_and(|copy| !copy.allows(c)) {
                    continue;
                }
                // The least node of its orbit under the symmetries that fix
                // what is open so far.
                let symmetries = self.h.symmetries();
                let stabilizer = &self.stabilizers[k];
                if stabilizer.iter().any(|&g| symmetries[g][u as usize] < u) {
                    continue;
                }
                self.place[v] = u;
                self.used[u as usize] = true;
                match copy.as_mut() {
                    // Node 0 is at host node 0: u is point c of its sphere.
                    Some(copy) => {
                        if let Some(ahead) = ahead.as_mut() {
                            ahead.reset();
                        }
                        if copy.start(self.h, k, c) && self.look_ahead(&mut ahead, v, u) {
                            self.fill_from(copy, &mut ahead, k, partial + dk);
                        }
                    }
                    None => self.descend(v + 1, partial + dk),
                }
                self.used[u as usize] = false;
                if self.aborted {
                    break;
                }
                // A better sum was found below: the bound tightened.
                if self.least_total(k, partial, dk) >= self.best {
                    break;
                }
            }
            if let (Some(copy), Some(copies)) = (copy, self.copies.as_mut()) {
                copies[k] = copy;
            }
            if let (Some(ahead), Some(aheads)) = (ahead, self.aheads.as_mut()) {
                aheads[k] = ahead;
            }
            if self.aborted || failed {
                return;
            }
            dk += 1;
        }
        if let (Some(shape), Some(shapes), None) = (shape, &mut self.shapes, &self.found) {
            shapes.fail(k, shape);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::optimal::cuts::{Bounds, Cuts};
    use crate::optimal::vectors::vectors_with_sum;

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

    /// Shapes, copies and the look-ahead change no answer and no core, only
    /// the nodes searched: every vector the counting bounds leave up to
    /// xor's sum + 1 on five tori, decided with none, with shapes, with
    /// shapes and copies, with all three. Shapes never search more nodes
    /// than label order without them, the look-ahead never more than the
    /// copies without it.
    #[test]
    fn pruning_keeps_every_answer() {
        let none = Pruning {
            shapes: false,
            copies: false,
            ahead: false,
        };
        let shapes_only = Pruning {
            shapes: true,
            ..none
        };
        let no_ahead = Pruning {
            ahead: false,
            ..Pruning::ALL
        };
        let options = SearchOptions::default();
        let (mut vectors, mut fewer, mut fewer_by_copies, mut fewer_by_ahead) = (0, 0, 0, 0);
        for sides in [&[8u32, 4][..], &[8, 8], &[16, 4], &[4, 4, 4], &[16, 8]] {
            let d = sides.iter().product::<u32>().trailing_zeros();
            let host = Spec::Torus(sides.iter().map(|&k| u64::from(k)).collect());
            let p = prepare(d, &host).unwrap();
            let mut cuts = Cuts::new(&p.h, Bounds::Counting, sides);
            let top = u32::from(p.h.diameter());
            for s in d..=p.xor_sum + 1 {
                for dims in vectors_with_sum(&p.prefix_bound, top, s, &mut cuts) {
                    let answers = [none, shapes_only, no_ahead, Pruning::ALL]
                        .map(|pruning| search_one(&p.h, &p.prefix_bound, &dims, &options, pruning));
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
                        [(all, plain), (shaped, core), (copied, core2), (ahead, core3)] => {
                            assert_eq!(
                                (core, core2, core3),
                                (plain, plain, plain),
                                "{sides:?} {dims:?}"
                            );
                            assert!(shaped <= all, "{sides:?} {dims:?}");
                            assert!(ahead <= copied, "{sides:?} {dims:?}");
                            fewer += usize::from(shaped < all);
                            fewer_by_copies += usize::from(copied < shaped);
                            fewer_by_ahead += usize::from(ahead < copied);
                        }
                        _ => panic!("{sides:?} {dims:?}: {answers:?}"),
                    }
                    vectors += 1;
                }
            }
        }
        assert!(
            vectors > 50 && fewer > 0 && fewer_by_copies > 0 && fewer_by_ahead > 0,
            "{vectors} {fewer} {fewer_by_copies} {fewer_by_ahead}"
        );
    }
}
