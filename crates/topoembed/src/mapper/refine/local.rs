//! The last phase: local search on the placement itself, with exact host
//! distances (so every wrap-around, every tleaf cost is in every gain), after
//! Schulz & Träff's sparse-QAP local search (2017): for each vertex, the
//! host nodes of its neighbours are the candidate targets; a *move* takes
//! the vertex there when the target's capacity allows, a *swap* exchanges it
//! with a vertex placed there. Gains cost O(degree): the hop-bytes change is
//! Σ volume × (old distance − new distance) over the vertex's own edges
//! (and the partner's, for a swap, less the edge between them, whose
//! distance a swap keeps).

use crate::mapper::distance::HostDistance;
use crate::mapper::graph::WGraph;
use crate::mapper::rng::Rng;
use crate::prefetch::prefetch;
use crate::progress::{self, Progress};
use crate::team::{with_team, Team};

use super::{border_flags, node_loads, refresh_border, Capacity, Known, Tally};

/// Vertices a thread of a batch's team rates at a time
/// ([`crate::team::Team::run`]): a vertex's best step takes a few hundred
/// nanoseconds, about what claiming it from the shared counter costs when
/// its cache line is on the other core.
const GRAIN: usize = 16;
/// Most partners tried on one target node for a swap.
const SWAP_PARTNERS: usize = 12;
/// Partners taken from the target's list beyond v's own neighbours there.
const FIRST_PARTNERS: usize = 3;

/// Improves `place` (host node per vertex; its hop-bytes `known` where the
/// caller has them) in passes until a pass gains less than 0.1 % or
/// `max_passes` pass; no host node ends outside `cap` unless it started
/// there. Returns the hop-bytes gained.
///
/// Vertices are taken in batches ([`super::batch_size`]: one at a time up
/// to 100 000 vertices): the best step of every vertex of a batch is found
/// in parallel on the placement as the batch found it, then the steps are
/// taken one by one in the batch's order, each only if its gain,
/// recomputed on the placement as it now stands, is still positive and
/// the capacity still allows it — the same placement on any number of
/// threads.
///
/// From the second pass on, a vertex is rated only where it or a
/// neighbour moved since its last rating (in the pass before or earlier in
/// this one): the others' moves to their neighbours' nodes gain what they
/// gained then, nothing, and only a swap partner or room arrived on a
/// node since could differ. Benchmark (2026-12-04, the 38 pairs of
/// `bench/mapper.sh`, one thread, seeds 1–3, against rating every border
/// vertex every pass): hop-bytes 0.7980x, 0.8050x and 0.8050x Scotch's →
/// 0.7979x, 0.8052x and 0.8049x (pairs −0.6 to +0.7 %), CPU time −3 to
/// −5 %; the shuffled 10^6-vertex stencil onto torus:16x16x16, whose
/// second pass gained 53 of 537 388 hop-bytes in about 0.35 s, 29 in a
/// tenth of it.
pub fn improve(
    g: &WGraph,
    dist: &HostDistance,
    place: &mut [u64],
    cap: Capacity,
    (max_passes, known): (usize, Known),
    rng: &mut Rng,
    progress: Option<&Progress>,
) -> u128 {
    let batch = super::batch_size(g.n(), g.n());
    improve_with(
        g,
        dist,
        place,
        cap,
        (max_passes, batch, known),
        rng,
        progress,
    )
}

/// [`improve`] with `batch` vertices per batch (at least 1) whatever the
/// graph's size.
pub fn improve_in_batches(
    g: &WGraph,
    dist: &HostDistance,
    place: &mut [u64],
    cap: Capacity,
    (max_passes, batch): (usize, usize),
    known: Known,
    rng: &mut Rng,
) -> u128 {
    improve_with(g, dist, place, cap, (max_passes, batch, known), rng, None)
}

fn improve_with(
    g: &WGraph,
    dist: &HostDistance,
    place: &mut [u64],
    cap: Capacity,
    (max_passes, batch, known): (usize, usize, Known),
    rng: &mut Rng,
    progress: Option<&Progress>,
) -> u128 {
    let n = g.n();
    // Load per host node, indexed by node (a hash map's lookups were a
    // sixteenth of the 10^6-vertex stencil's CPU time in this phase), and
    // the vertices on each, in ascending order.
    let mut load = node_loads(g, place);
    let mut on: Vec<Vec<u32>> = vec![Vec::new(); load.len()];
    for (v, &h) in place.iter().enumerate() {
        on[h as usize].push(v as u32);
    }
    let mut total_gain = 0u128;
    // (Summed, where not known, each edge once and in parallel: Σ over
    // vertices of `cost_at` counts it twice.)
    let mut current = super::start_hop_bytes(g, dist, place, known);
    let batch = batch.max(1);
    let hosts = load.len();
    // Whether each vertex has a neighbour on another host node, kept up to
    // date step by step: a vertex without one has no step
    // ([`Frozen::best_step`] finds every neighbour at home), so it is not
    // rated — its neighbours' placements are not read again every pass
    // (the same steps in the same order: the permutation is drawn whole).
    let mut border = border_flags(g, place);
    let mut rated: Vec<u32> = Vec::with_capacity(batch);
    // The last pass (from 1) in which each vertex or a neighbour of it
    // moved; 0: none has (so pass 1 rates every border vertex).
    let mut moved_in: Vec<u32> = vec![0; n];
    // (Passes beyond u32::MAX: as many as the gain rule allows.)
    let max_passes = max_passes.min(u32::MAX as usize) as u32;
    // Every thread's buffers ([`Scratch`]), made where it first rates a
    // vertex and kept for every batch.
    with_team(batch > 1, |team: &mut Team<'_, Option<Scratch>>| {
        for pass in 1..=max_passes {
            let mut gained = 0u128;
            let order = rng.permutation(n);
            let mut chunks = order.chunks(batch).enumerate();
            let mut more = next_rated(
                &mut chunks,
                &mut rated,
                (&border, &moved_in),
                pass,
                (g, &order),
            );
            while more {
                let vertices = rated.as_slice();
                let frozen = Frozen {
                    g,
                    dist,
                    cap,
                    place,
                    on: &on,
                    load: &load,
                };
                let steps: Vec<Option<Step>> = team.run((vertices.len(), GRAIN), |scratch, i| {
                    // A thread rates a run of the batch in turn.
                    g.prefetch_ahead(vertices, i, |v| prefetch(place.as_ptr().wrapping_add(v)));
                    let scratch = scratch.get_or_insert_with(|| Scratch::new(hosts));
                    frozen.best_step(vertices[i] as usize, scratch)
                });
                // The steps taken and the next batch found: serial, the
                // team's other threads spinning meanwhile.
                for step in steps.into_iter().flatten() {
                    gained += take(
                        step,
                        (g, dist, cap),
                        place,
                        (&mut on, &mut load),
                        pass,
                        (&mut border, &mut moved_in),
                    );
                }
                more = next_rated(
                    &mut chunks,
                    &mut rated,
                    (&border, &moved_in),
                    pass,
                    (g, &order),
                );
            }
            progress::advance(progress, n as u64);
            total_gain += gained;
            current -= gained.min(current);
            if gained * 1000 <= current {
                break;
            }
        }
    });
    total_gain
}

/// The next batch of the pass's `chunks` (of the vertex order `order`)
/// with a vertex to rate into `rated`: the border vertices that moved or
/// saw a neighbour move since their last rating (the pass before or this
/// one). False at the pass's end.
fn next_rated<'o>(
    chunks: &mut impl Iterator<Item = (usize, &'o [u32])>,
    rated: &mut Vec<u32>,
    (border, moved_in): (&[bool], &[u32]),
    pass: u32,
    (g, order): (&WGraph, &[u32]),
) -> bool {
    for (c, chunk) in chunks {
        if chunk.len() == 1 {
            // One vertex a batch: the visits to come are the order's next
            // vertices.
            g.prefetch_ahead(order, c, |v| prefetch(border.as_ptr().wrapping_add(v)));
        }
        rated.clear();
        rated.extend(
            chunk
                .iter()
                .filter(|&&v| border[v as usize] && moved_in[v as usize] + 1 >= pass),
        );
        if !rated.is_empty() {
            return true;
        }
    }
    false
}

/// Takes `step`, rated on the placement as its batch found it, where it
/// still applies (its vertices where it found them), the capacity still
/// allows it and its gain, recomputed on the placement as it now stands,
/// is positive; keeps the lists and loads, the border and when each
/// vertex's neighbourhood last moved. Returns the hop-bytes it took off.
fn take(
    step: Step,
    (g, dist, cap): (&WGraph, &HostDistance, Capacity),
    place: &mut [u64],
    (on, load): (&mut [Vec<u32>], &mut [u64]),
    pass: u32,
    (border, moved_in): (&mut [bool], &mut [u32]),
) -> u128 {
    let Step {
        v,
        from,
        to,
        partner,
    } = step;
    if place[v] != from || partner.is_some_and(|x| place[x as usize] != to) {
        return 0; // an earlier step of the batch moved it
    }
    let fits = match partner {
        None => {
            cap.allows(load[from as usize], g.vw[v], 0) && cap.allows(load[to as usize], 0, g.vw[v])
        }
        Some(x) => {
            let x = x as usize;
            cap.allows(load[to as usize], g.vw[x], g.vw[v])
                && cap.allows(load[from as usize], g.vw[v], g.vw[x])
        }
    };
    let gain = step_gain(g, dist, place, v, to, partner);
    if !fits || gain <= 0 {
        return 0;
    }
    relocate(on, load, place, g, v, to);
    if let Some(x) = partner {
        relocate(on, load, place, g, x as usize, from);
    }
    for moved in std::iter::once(v).chain(partner.map(|x| x as usize)) {
        refresh_border(g, place, border, moved);
        moved_in[moved] = pass;
        for (u, _) in g.edges(moved) {
            moved_in[u] = pass;
        }
    }
    gain as u128
}

/// A step: v leaves host node `from` for `to`, and `partner` (a vertex on
/// `to`) goes the other way.
struct Step {
    v: usize,
    from: u64,
    to: u64,
    partner: Option<u32>,
}

/// Σ volume × distance of v's edges were v on host node h.
fn cost_at(g: &WGraph, dist: &HostDistance, place: &[u64], v: usize, h: u64) -> u128 {
    let from = dist.row(h);
    g.edges(v)
        .map(|(u, w)| u128::from(w) * u128::from(from.d(place[u])))
        .sum()
}

/// The hop-bytes a step takes off: v's edges from its node to `to`, the
/// partner's the other way.
fn step_gain(
    g: &WGraph,
    dist: &HostDistance,
    place: &[u64],
    v: usize,
    to: u64,
    partner: Option<u32>,
) -> i128 {
    let hv = place[v];
    let moved = cost_at(g, dist, place, v, hv) as i128 - cost_at(g, dist, place, v, to) as i128;
    match partner {
        None => moved,
        Some(x) => moved + partner_gain(g, dist, place, (v, hv), (x as usize, to)),
    }
}

/// What partner x (on `t`) adds to v's move from `hv` to `t` when the two
/// swap: x's edges from t to hv, less the edge between them twice (a swap
/// keeps its distance, which v's move alone counted as changed). One pass
/// over x's edges: both directions of an edge carry the same volume, so
/// x's entries towards v are v's towards x.
fn partner_gain(
    g: &WGraph,
    dist: &HostDistance,
    place: &[u64],
    (v, hv): (usize, u64),
    (x, t): (usize, u64),
) -> i128 {
    let (mut at_t, mut at_hv, mut between) = (0u128, 0u128, 0u128);
    let (from_t, from_hv) = (dist.row(t), dist.row(hv));
    for (u, w) in g.edges(x) {
        let h = place[u];
        at_t += u128::from(w) * u128::from(from_t.d(h));
        at_hv += u128::from(w) * u128::from(from_hv.d(h));
        if u == v {
            between += u128::from(w);
        }
    }
    let between = between * u128::from(dist.d(hv, t));
    at_t as i128 - at_hv as i128 - 2 * between as i128
}

/// The placement as a batch found it.
struct Frozen<'a> {
    g: &'a WGraph,
    dist: &'a HostDistance<'a>,
    cap: Capacity,
    place: &'a [u64],
    on: &'a [Vec<u32>],
    load: &'a [u64],
}

impl Frozen<'_> {
    /// v's best step of positive gain: a move to a neighbour's host node
    /// where the capacity allows, else a swap with a vertex there.
    fn best_step(&self, v: usize, scratch: &mut Scratch) -> Option<Step> {
        let (g, place, cap) = (self.g, self.place, self.cap);
        let hv = place[v];
        // v's volume per host node of its neighbours, ascending: each
        // target's cost then reads one distance per node, not per edge.
        scratch.gather(g, place, v);
        let around = &scratch.around;
        if around.iter().all(|&(h, _)| h == hv) {
            return None;
        }
        let cost = |t: u64| -> i128 {
            let from = self.dist.row(t);
            around
                .iter()
                .map(|&(h, w)| w * u128::from(from.d(h)))
                .sum::<u128>() as i128
        };
        let here = cost(hv);
        // (gain, target, partner)
        let mut best: (i128, u64, Option<u32>) = (0, hv, None);
        // Whether v may leave its node without a partner (the floor).
        let may_leave = cap.allows(self.load[hv as usize], g.vw[v], 0);
        for &(t, _) in around.iter().filter(|&&(t, _)| t != hv) {
            let moved = here - cost(t);
            if may_leave && cap.allows(self.load[t as usize], 0, g.vw[v]) {
                if moved > best.0 {
                    best = (moved, t, None);
                }
                continue;
            }
            let list = &self.on[t as usize];
            if list.is_empty() {
                continue;
            }
            // Partners: v's own neighbours on t first (they border v's
            // node, so their other edges likely lead there too), then
            // the first few placed on t.
            let partners = &mut scratch.partners;
            partners.clear();
            partners.extend(
                g.edges(v)
                    .filter(|&(u, _)| place[u] == t)
                    .map(|(u, _)| u as u32)
                    .take(SWAP_PARTNERS),
            );
            let own = partners.len();
            let wanted = own + SWAP_PARTNERS.saturating_sub(own).min(FIRST_PARTNERS);
            for &x in list {
                if partners.len() >= wanted {
                    break;
                }
                if !partners[..own].contains(&x) {
                    partners.push(x);
                }
            }
            g.prefetch_rows(partners, |x| prefetch(g.vw.as_ptr().wrapping_add(x)));
            for &x in partners.iter() {
                let x = x as usize;
                let fits_t = cap.allows(self.load[t as usize], g.vw[x], g.vw[v]);
                let fits_h = cap.allows(self.load[hv as usize], g.vw[v], g.vw[x]);
                if !(fits_t && fits_h) {
                    continue;
                }
                let swap = moved + partner_gain(g, self.dist, place, (v, hv), (x, t));
                if swap > best.0 {
                    best = (swap, t, Some(x as u32));
                }
            }
        }
        let (gain, to, partner) = best;
        (gain > 0).then_some(Step {
            v,
            from: hv,
            to,
            partner,
        })
    }
}

/// One thread's buffers for [`Frozen::best_step`].
struct Scratch {
    /// (host node, volume) around the vertex rated.
    around: Vec<(u64, u128)>,
    /// Swap partners tried on one target.
    partners: Vec<u32>,
    /// What sums `around`.
    tally: Tally,
}

/// Most host nodes a thread's buffers keep a [`Tally`] slot for (80 KiB a
/// thread).
const MAX_TALLIED_HOSTS: usize = 1 << 12;

impl Scratch {
    /// Buffers for a placement on host nodes `0..hosts`.
    fn new(hosts: usize) -> Scratch {
        Scratch {
            around: Vec::new(),
            partners: Vec::new(),
            tally: Tally::new(hosts, MAX_TALLIED_HOSTS),
        }
    }

    /// v's volume per host node of its neighbours into `around`, one entry
    /// per node, ascending by node.
    fn gather(&mut self, g: &WGraph, place: &[u64], v: usize) {
        let around = &mut self.around;
        around.clear();
        let edges = g.edges(v).map(|(u, w)| (place[u] as usize, w));
        self.tally.sum(edges, |h, w| around.push((h as u64, w)));
        around.sort_unstable_by_key(|&(h, _)| h);
    }
}

/// Moves vertex v to host node t, keeping the lists and loads.
fn relocate(
    on: &mut [Vec<u32>],
    load: &mut [u64],
    place: &mut [u64],
    g: &WGraph,
    v: usize,
    t: u64,
) {
    let from = place[v];
    let list = &mut on[from as usize];
    if let Some(k) = list.iter().position(|&x| x as usize == v) {
        list.swap_remove(k);
    }
    load[from as usize] -= g.vw[v];
    on[t as usize].push(v as u32);
    load[t as usize] += g.vw[v];
    place[v] = t;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapper::coarsen::tests::bip;
    use crate::topology;

    /// A vertex with every neighbour at home is not rated, and one whose
    /// neighbour has just left is: x — y = z (volumes 1 and 5) onto
    /// line:3, x and y on node 0 and z on node 2. x starts inside; where y
    /// is rated before z and joins it (a gain of 8), x borders node 2 and
    /// follows (2 more), in the same pass or, rated before y moved, in
    /// the next — had its flag not been kept, or its neighbour's move not
    /// marked it to be rated again, it would stay behind (hop-bytes 2,
    /// not 0; seeds 1–5 rate so); where z goes first (10), all three meet
    /// on node 0.
    #[test]
    fn a_vertex_whose_neighbour_left_is_rated_again() {
        let g = bip(3, &[(1, 2, 4)], &[1], &[[0, 0]]).g;
        let host = topology::parse("line:3").unwrap();
        let dist = HostDistance::new(host.as_ref()).unwrap();
        for seed in 1..=8 {
            let mut place = vec![0u64, 0, 2];
            let cap = Capacity { lo: 0, hi: 3 };
            let known = (4, Some(crate::mapper::hop_bytes(&g, &dist, &place)));
            let gained = improve(
                &g,
                &dist,
                &mut place,
                cap,
                known,
                &mut Rng::new(seed, 0),
                None,
            );
            assert_eq!(gained, 10, "seed {seed}: {place:?}");
            assert!(
                place.iter().all(|&h| h == place[0]),
                "seed {seed}: {place:?}"
            );
        }
    }

    /// Passes are counted in 32 bits: more than 2^32 asked for is as many
    /// as the gain rule allows, not none (a mesh scattered onto torus:4x4
    /// gains the same with 2^32 passes, which a plain cast makes 0, as
    /// with 1000).
    #[test]
    fn passes_beyond_32_bits_are_not_none() {
        let mesh = topology::parse("mesh:16x16").unwrap();
        let g = WGraph::from_topology(mesh.as_ref()).unwrap();
        let host = topology::parse("torus:4x4").unwrap();
        let dist = HostDistance::new(host.as_ref()).unwrap();
        let start: Vec<u64> = (0..256u64).map(|v| (v * 7 + v / 16) % 16).collect();
        let cap = Capacity { lo: 0, hi: 20 };
        let run = |passes: usize| {
            let mut place = start.clone();
            let gained = improve(
                &g,
                &dist,
                &mut place,
                cap,
                (passes, None),
                &mut Rng::new(3, 0),
                None,
            );
            (gained, place)
        };
        let (gained, place) = run(1 << 32);
        assert!(gained > 0);
        assert_eq!((gained, place), run(1000));
    }
}
