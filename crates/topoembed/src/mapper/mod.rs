//! The general mapper: any guest (an application's weighted communication
//! graph, or any implicit topology) onto any host, minimising hop-bytes
//! (Σ volume × host distance) under a capacity per host node.
//!
//! Multilevel, laid out by phase as KaHIP and Mt-KaHyPar are:
//! * [`coarsen`]: heavy-edge matching, inside every bisection (and once for
//!   the whole guest above 10^5 vertices: [`multilevel`]);
//! * two initial placements, one per search: [`partmap`] partitions the
//!   guest into as many parts as the host has nodes (cut only) and anneals
//!   the parts' quotient graph onto the host; [`initial`] is dual recursive
//!   bipartitioning of guest and host together (Pellegrini's Scotch): host
//!   domains split along the machine ([`domain`]), the guest's vertices split
//!   with them by multilevel bisection whose cost sees the distance to
//!   neighbours already placed;
//! * [`refine`]: FM on each bisection ([`refine::fm`]); on the placement,
//!   whole-part swaps, a V-cycle, localized k-way FM ([`refine::kway`]),
//!   FM and flows on every two neighbouring host nodes' vertices
//!   ([`refine::pairs`]; onto a tleaf also on every two groups of leaves at
//!   each level, [`refine::pairs::levels`]) and move/swap local search ([`refine::local`]),
//!   all with exact distances.
//!
//! * [`recognize`]: structure finding — a guest that is a grid or a cube
//!   whatever its numbering; the layer above ([`crate::embed::mapped`])
//!   turns it into closed-form placements, given here as [`Start`]s and
//!   kept when they beat the search (after the same local search).
//!
//! Capacity (DESIGN.md): with `imbalance` EPS no host node holds more than
//! ⌈(1 + EPS) · total load / host nodes⌉; when guest and host have as many
//! nodes and every load is 1, exactly one guest node per host node.
//! Results depend only on the seed, not on the number of threads.

mod coarsen;
mod coords;
mod defaults;
mod distance;
mod domain;
mod graph;
mod halved;
mod initial;
mod multilevel;
mod partmap;
pub mod phases;
pub mod recognize;
pub mod refine;
mod renumber;
pub mod rng;
mod start;

pub use defaults::{
    auto_passes, auto_restarts, bipartitioning_pays, one_axis, Preset, HUGE_GUEST, LARGE_GUEST,
    LARGE_ONE_AXIS_SEARCHES, ONE_AXIS_SEARCHES, SMALL_GUEST, TINY_GUEST, TINY_HOST, TINY_SEARCHES,
};
use defaults::{bipartitioning_refined_lightly, partitions_first, refined_instead};
pub use distance::{HostDistance, MAX_TABLE_NODES};
pub use graph::{WGraph, MAX_GUEST_NODES};
use phases::{refine_placement, Phases, CLOSED_FORM_PHASES};
pub use phases::{Phase, PhaseLog};

use crate::error::{Error, Result};
use crate::progress::Progress;
use crate::topology::Topology;
use rayon::prelude::*;
pub use renumber::Renumbering;
pub use start::Start;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Most host nodes the mapper places onto (it lists them).
pub const MAX_HOST_NODES: u64 = 1 << 24;

/// Default imbalance: 3 % above the average load.
pub const DEFAULT_IMBALANCE: f64 = 0.03;

/// What the mapper minimises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Objective {
    /// Σ volume × host distance.
    #[default]
    HopBytes,
    /// The routed congestion (most volume over one host link under the
    /// host's own routing model), after hop-bytes: the hop-bytes search's
    /// placement is refined by [`refine::congestion`].
    Congestion,
}

/// Mapper settings.
#[derive(Debug, Clone, Copy)]
pub struct MapOptions<'a> {
    /// How far above the average load a host node may go (0.03: 3 %).
    pub imbalance: f64,
    /// Seed of every random choice.
    pub seed: u64,
    /// Most passes of k-way FM and the final local search; 0: by guest
    /// size ([`auto_passes`]).
    pub passes: usize,
    /// Independent searches (dual recursive bipartitioning and local search,
    /// each from its own random stream, run in parallel); the best is kept.
    /// 0: by guest size ([`auto_restarts`]).
    pub restarts: usize,
    /// What to minimise.
    pub objective: Objective,
    /// How much each search spends ([`Preset`]).
    pub preset: Preset,
    /// Progress counter (units: guest nodes per phase).
    pub progress: Option<&'a Progress>,
    /// Where each phase's time and gain are recorded (`map --phases`).
    pub phases: Option<&'a PhaseLog>,
}

impl Default for MapOptions<'_> {
    fn default() -> Self {
        MapOptions {
            imbalance: DEFAULT_IMBALANCE,
            seed: 1,
            passes: 0,
            restarts: 0,
            objective: Objective::HopBytes,
            preset: Preset::Default,
            progress: None,
            phases: None,
        }
    }
}

/// A placement found by the mapper.
#[derive(Debug, Clone)]
pub struct Placement {
    hosts: Vec<u64>,
    inverse: Option<Vec<u32>>,
    capacity: u64,
    notes: Vec<String>,
    start: Option<String>,
}

impl Placement {
    /// Host node of every guest node.
    pub fn hosts(&self) -> &[u64] {
        &self.hosts
    }
    /// Most load a host node was allowed.
    pub fn capacity(&self) -> u64 {
        self.capacity
    }
}

impl Placement {
    /// A placement made elsewhere (`hosts[v]`: host node of guest node v),
    /// under `capacity`, named `name` in its notes.
    pub fn given(hosts: Vec<u64>, host_nodes: u64, capacity: u64, name: &str) -> Placement {
        let inverse = (hosts.len() as u64 == host_nodes && capacity == 1).then(|| {
            let mut inv = vec![u32::MAX; host_nodes as usize];
            for (v, &h) in hosts.iter().enumerate() {
                inv[h as usize] = v as u32;
            }
            inv
        });
        Placement {
            hosts,
            inverse,
            capacity,
            notes: vec![format!("{name}, as given")],
            start: Some(name.to_string()),
        }
    }

    /// The guest node on host node `host`, when the placement is one-to-one.
    pub fn guest_on(&self, host: u64) -> Option<u64> {
        let inv = self.inverse.as_ref()?;
        inv.get(host as usize)
            .filter(|&&g| g != u32::MAX)
            .map(|&g| u64::from(g))
    }
    /// Prefixes every note with `context` (what graph the hop-bytes they
    /// quote were of).
    pub fn with_context(mut self, context: &str) -> Placement {
        for note in &mut self.notes {
            *note = format!("{context}: {note}");
        }
        self
    }

    /// What the mapper did (phases, gains, the start kept).
    pub fn notes(&self) -> &[String] {
        &self.notes
    }
    /// The name of the [`Start`] kept (`axes on torus:4x4`) when one beat
    /// the search, `None` when the search's own placement was kept.
    pub fn start(&self) -> Option<&str> {
        self.start.as_deref()
    }
}

/// Whether `g` goes one vertex per host node (as many vertices as the `p`
/// host nodes, capacity 1): MPI ranks onto their slots, a quotient graph.
pub(crate) fn one_per_node(g: &WGraph, p: u64, cap: u64) -> bool {
    g.n() as u64 == p && cap == 1
}

/// The most load one host node may take: ⌈(1 + eps) · total / nodes⌉, and
/// exactly 1 when guest and host have as many nodes and every load is 1.
pub fn capacity(g: &WGraph, host_nodes: u64, eps: f64) -> u64 {
    let total = g.total_load();
    if g.n() as u64 == host_nodes && g.vw.iter().all(|&w| w == 1) {
        return 1;
    }
    let avg = total as f64 / host_nodes as f64;
    ((1.0 + eps) * avg).ceil().max(1.0) as u64
}

/// The least load refinement leaves on a host node: ⌊(1 − eps) · total /
/// nodes⌋, as far below the average as the capacity is above it.
pub fn floor(total: u64, host_nodes: u64, eps: f64) -> u64 {
    let avg = total as f64 / host_nodes as f64;
    ((1.0 - eps) * avg).floor().max(0.0) as u64
}

/// Maps `guest` onto `host` (see the module docs), without structure
/// finding: no closed form is weighed, so between [`SMALL_GUEST`] and
/// [`LARGE_GUEST`] vertices onto a torus, mesh or cube of two axes or more
/// one search runs ([`auto_restarts`], [`bipartitioning_pays`]). `topoembed map`'s entry point,
/// [`crate::embed::mapped::map`], finds a grid in the guest and weighs its
/// closed forms.
pub fn map(guest: &dyn Topology, host: &dyn Topology, options: &MapOptions) -> Result<Placement> {
    map_graph(&WGraph::from_topology(guest)?, host, options, &[])
}

/// Maps the working graph `g` onto `host`, weighing `starts` (placements
/// built elsewhere; one that breaks the capacity is skipped) against the
/// search: the least hop-bytes wins, each after local search.
pub fn map_graph(
    g: &WGraph,
    host: &dyn Topology,
    options: &MapOptions,
    starts: &[Start],
) -> Result<Placement> {
    map_graph_with(g, host, options, |_, renumbering| match renumbering {
        None => starts.to_vec(),
        Some(renumbering) => starts.iter().map(|s| s.renumbered(renumbering)).collect(),
    })
}

/// [`map_graph`] with the starts built by `starts_of` on the graph the
/// search runs on: `g` itself, or `g` renumbered ([`renumber`]: a shuffled
/// guest's neighbours brought near each other in number) with the
/// renumbering, the placement then numbered back. Structure found on the
/// renumbered graph is found in cache order: recognising the shuffled
/// 10^6-vertex stencil's grid took 1.0 s on `g`, a breadth-first sweep
/// that reads memory at random, and 0.35 s renumbered (one thread).
pub fn map_graph_with(
    g: &WGraph,
    host: &dyn Topology,
    options: &MapOptions,
    starts_of: impl FnOnce(&WGraph, Option<&Renumbering>) -> Vec<Start> + Send,
) -> Result<Placement> {
    let renumbering = Renumbering::of_scattered(g);
    map_numbered(g, host, options, renumbering.as_ref(), starts_of)
}

/// [`map_graph_with`] with the renumbering given (`None`: `g` as it is).
pub(crate) fn map_numbered(
    g: &WGraph,
    host: &dyn Topology,
    options: &MapOptions,
    renumbering: Option<&Renumbering>,
    starts_of: impl FnOnce(&WGraph, Option<&Renumbering>) -> Vec<Start> + Send,
) -> Result<Placement> {
    // On one of the pool's threads: the phases' parallel loops (k-way FM's
    // batches thousands of times a pass) then run there or are stolen,
    // where from the caller's thread each would be handed to the pool and
    // waited for (a futex wake and sleep per loop: a fifth of k-way FM's
    // time on mdual).
    rayon::scope(|_| match renumbering {
        Some(renumbering) => {
            let renumbered = renumbering.graph(g);
            let starts = starts_of(&renumbered, Some(renumbering));
            let placement = map_on_pool(&renumbered, host, options, &starts)?;
            Ok(numbered_back(placement, renumbering))
        }
        None => map_on_pool(g, host, options, &starts_of(g, None)),
    })
}

/// A placement found on a renumbered guest, in the guest's own numbering.
fn numbered_back(mut placement: Placement, renumbering: &Renumbering) -> Placement {
    placement.hosts = renumbering.back(&placement.hosts);
    if let Some(inverse) = placement.inverse.as_mut() {
        for guest in inverse.iter_mut().filter(|x| **x != u32::MAX) {
            *guest = renumbering.original(*guest);
        }
    }
    placement
}

fn map_on_pool(
    g: &WGraph,
    host: &dyn Topology,
    options: &MapOptions,
    starts: &[Start],
) -> Result<Placement> {
    if !(0.0..=100.0).contains(&options.imbalance) || options.imbalance.is_nan() {
        return Err(Error::Parameter(format!(
            "imbalance {}: give a fraction from 0 to 100 (0.03 lets a host node hold 3 % above the average load)",
            options.imbalance
        )));
    }
    if g.n() == 0 {
        return Err(Error::Mismatch(
            "the guest has no nodes: there is nothing to place".into(),
        ));
    }
    let p = host.node_count();
    if p > MAX_HOST_NODES {
        return Err(Error::Parameter(format!(
            "{} has {p} nodes; the mapper places onto at most {MAX_HOST_NODES}",
            host.spec()
        )));
    }
    if options.objective == Objective::Congestion {
        refine::congestion::routable(host)?;
    }
    let cap = capacity(g, p, options.imbalance);
    if let Some(v) = (0..g.n()).find(|&v| g.vw[v] > cap) {
        return Err(Error::Mismatch(format!(
            "guest node {v} has load {}, more than any host node may take ({cap} = ⌈(1 + {}) × {} / {p}⌉); \
             raise --imbalance or use a host with fewer nodes",
            g.vw[v],
            options.imbalance,
            g.total_load()
        )));
    }
    let dist = HostDistance::new(host)?;
    let refine_start = options.restarts == 0;
    let restarts = match options.restarts {
        0 => auto_restarts(
            g.n(),
            (host.spec().is_hierarchy(), one_axis(host.spec())),
            one_per_node(g, p, cap),
            bipartitioning_pays(host.spec(), p, starts.iter().any(|s| s.closed_form)),
        ),
        r => r,
    };
    let passes = match options.passes {
        0 => options.preset.passes(g.n()),
        n => n,
    };
    let options = &MapOptions {
        restarts,
        passes,
        ..*options
    };
    if let Some(pr) = options.progress {
        let levels = 64 - (p.max(1) - 1).leading_zeros() as u64;
        let congestion = match options.objective {
            Objective::HopBytes => 0,
            Objective::Congestion => 2 * options.passes as u64,
        };
        pr.add_total(
            g.n() as u64
                * ((levels + options.passes as u64) * options.restarts as u64 + congestion),
        );
    }
    // Searches asked for run whatever the starts; by default a large guest's
    // closed form is refined instead (see `search`).
    let (mut hosts, mut notes, start) = search(
        g,
        &dist,
        p,
        cap,
        options,
        (starts, refine_start, host.spec().is_grid()),
    )?;
    if options.objective == Objective::Congestion {
        let before = hop_bytes(g, &dist, &hosts);
        let bounds = refine::Capacity {
            lo: floor(g.total_load(), p, options.imbalance),
            hi: cap,
        };
        let mut rng = rng::Rng::new(options.seed, u64::MAX - 2);
        let outcome = phases::placement(options.phases, 0, "congestion (moves and swaps)", || {
            refine::congestion::refine(
                g,
                &dist,
                &mut hosts,
                bounds,
                options.passes,
                &mut rng,
                options.progress,
            )
        })?;
        notes.push(format!(
            "objective congestion: congestion {} -> {}, hop-bytes {before} -> {} (moves and swaps that \
             never raise the most loaded link, under the host's routing with ties toward increasing coordinates)",
            outcome.before,
            outcome.after,
            hop_bytes(g, &dist, &hosts)
        ));
    }
    let inverse = if one_per_node(g, p, cap) {
        let mut inv = vec![u32::MAX; p as usize];
        for (v, &h) in hosts.iter().enumerate() {
            inv[h as usize] = v as u32;
        }
        Some(inv)
    } else {
        None
    };
    if host.as_graph().and_then(|h| h.loads()).is_some() {
        notes.push(
            "the host graph's node loads are not used: every host node takes the same capacity"
                .into(),
        );
    }
    if host.as_graph().and_then(|h| h.volumes()).is_some() {
        notes.push(
            "the host graph's edge volumes are link costs: distances are cheapest-path costs"
                .into(),
        );
    }
    if inverse.is_none() && g.n() as u64 == p {
        notes.push("loads differ, so several guest nodes may share a host node".into());
    }
    Ok(Placement {
        hosts,
        inverse,
        capacity: cap,
        notes,
        start,
    })
}

/// One search: its placement, hop-bytes before refinement, the gain, and
/// which initial placement it began from.
type Run = (Vec<u64>, u128, u128, &'static str, String);

/// A search's outcome: the placement, notes on what was weighed, and the
/// name of the start kept (none: the search's own placement).
type Found = (Vec<u64>, Vec<String>, Option<String>);

/// The placement of least hop-bytes among the search's and the starts'
/// (each after local search), with notes on what was weighed.
fn search(
    g: &WGraph,
    dist: &HostDistance,
    p: u64,
    cap: u64,
    options: &MapOptions,
    (starts, refine_start, host_is_grid): (&[Start], bool, bool),
) -> Result<Found> {
    let mut notes = Vec::new();
    let bounds = refine::Capacity {
        lo: floor(g.total_load(), p, options.imbalance),
        hi: cap,
    };
    let mut best: Option<(u128, &Start)> = None;
    let mut best_closed_form: Option<(u128, &Start)> = None;
    let mut best_of_boxes: Option<(u128, &Start)> = None;
    // Each start's hop-bytes (None: it breaks the capacity), in parallel:
    // a 100^3 stencil has nine starts of 10^6 nodes.
    let costs: Vec<Option<u128>> = starts
        .par_iter()
        .map(|start| fits(g, &start.hosts, p, cap).then(|| hop_bytes(g, dist, &start.hosts)))
        .collect();
    for (start, cost) in starts.iter().zip(costs) {
        let Some(cost) = cost else {
            notes.push(format!(
                "{} skipped: it breaks the capacity {cap}",
                start.name
            ));
            continue;
        };
        if best.map_or(true, |(b, _)| cost < b) {
            best = Some((cost, start));
        }
        if start.closed_form && best_closed_form.map_or(true, |(b, _)| cost < b) {
            best_closed_form = Some((cost, start));
        }
        if !start.irregular && best_of_boxes.map_or(true, |(b, _)| cost < b) {
            best_of_boxes = Some((cost, start));
        }
    }
    // At most one guest node per host node (a capacity of 1, every load at
    // least 1; as many host nodes as guest nodes or more): no edge is
    // shorter than one hop, so a start with every edge one hop long is
    // optimal and ends the search.
    let apart = cap == 1 && g.vw.iter().all(|&w| w >= 1);
    let floor: u128 = g.ew.iter().map(|&w| u128::from(w)).sum::<u128>() / 2;
    if let Some((cost, start)) = best {
        if apart && cost == floor {
            notes.push(format!(
                "{}: every edge one hop long, optimal (hop-bytes {cost}, the total volume)",
                start.name
            ));
            return Ok((start.hosts.clone(), notes, Some(start.name.clone())));
        }
    }
    // A large guest with a closed form (a grid found in it, cut into
    // balanced boxes) on a grid-shaped host (ring, line, torus, mesh, cube:
    // the closed forms are built for those): the closed form is a far
    // better first placement than a partition from scratch, which costs
    // most of the time at 10^6 vertices; unless searches are asked for,
    // the one search refines it. (On hierarchies the closed forms ignore
    // the levels, and the search is kept: a 100^3 stencil onto
    // tleaf:16x16x16 starts at 3x the search's hop-bytes, but for a grid
    // cut by a tleaf's levels — into equal boxes, or any above 10^5
    // vertices.) A small guest's
    // closed form is refined so too where [`refined_instead`] says why;
    // otherwise it is weighed after the searches. (Only when no other
    // start, the launch order say, is better.)
    let closed_form_best = best_closed_form.filter(|&(c, _)| best.is_some_and(|(b, _)| c <= b));
    let host = dist.host().spec();
    let why = closed_form_best
        .filter(|(_, s)| refine_start && (host_is_grid || s.by_levels))
        .and_then(|(cost, s)| refined_instead(g, s, cost, host));
    if let (Some(why), Some((cost, start))) = (why, closed_form_best) {
        let mut hosts = start.hosts.clone();
        let mut rng = rng::Rng::new(options.seed, u64::MAX);
        // No V-cycle ([`CLOSED_FORM_PHASES`]).
        let gained = refine_placement(
            g,
            dist,
            &mut hosts,
            bounds,
            options,
            (&mut rng, 0),
            (CLOSED_FORM_PHASES, cost),
        );
        notes.insert(
            0,
            format!(
                "{} gave hop-bytes {cost}; refinement ({}) took {gained} off \
                 (the closed form refined instead of a search from scratch, {why}; --restarts N searches; \
                 capacity {cap} load per host node, seed {}{})",
                start.name,
                CLOSED_FORM_PHASES.names(dist.host().spec()),
                options.seed,
                options.preset.note()
            ),
        );
        return Ok((hosts, notes, Some(start.name.clone())));
    }
    // A grid folded onto a 2-D host, where the closed forms beat the search
    // (`defaults::unsearched`): weighed alone, as after a search.
    let unsearched = closed_form_best
        .filter(|_| refine_start && host_is_grid)
        .and_then(|(_, s)| defaults::unsearched(g, s, host));
    if let Some(why) = unsearched {
        notes.push(format!(
            "no search ({why}; --restarts N searches; capacity {cap} load per host node, seed {}{})",
            options.seed,
            options.preset.note()
        ));
        let boxes = (best, best_of_boxes);
        if let Some((placed, name)) =
            phases::weigh(g, dist, boxes, None, bounds, options, &mut notes)
        {
            return Ok((placed, notes, Some(name)));
        }
    }
    // A grid found (a closed form built) bisects along its axes; any other guest
    // starts a hierarchy's first split from its quarters (`initial::QUARTERED_ABOVE`).
    let grid_found = starts.iter().any(|start| start.closed_form);
    // Restart r searches with seed stream r; each is deterministic, and the
    // least hop-bytes wins (the first on ties): the same seed gives the
    // same placement on any number of threads.
    // The host's kinds every search's choices read ([`partitions_first`]).
    let hierarchy = host.is_hierarchy();
    let kinds = (hierarchy, one_axis(host));
    // The first search to meet the floor (every edge one hop long, at most
    // one guest node per host node) wins, as no later one can beat it and
    // the first of equal minima is kept: later searches are then skipped.
    // Whichever thread runs which, the search kept is the same.
    let met = AtomicU64::new(u64::MAX);
    let runs: Vec<Result<Option<Run>>> = (0..options.restarts as u64)
        .into_par_iter()
        .map(|r| {
            if met.load(Relaxed) < r {
                return Ok(None);
            }
            let seed = match r {
                0 => options.seed,
                _ => rng::Rng::new(options.seed, r).next_u64(),
            };
            let two_phase = partitions_first(r, options.restarts, g.n(), kinds, p);
            // Above 10^5 vertices onto a machine that is not a hierarchy the
            // parts come from one coarsening of the guest ([`multilevel`]),
            // whose levels are refined on the way up (a V-cycle already).
            let large = g.n() > LARGE_GUEST && !hierarchy;
            let log = options.phases;
            let (mut hosts, coarsened) = match (two_phase, large) {
                (true, true) => phases::placement(
                    log,
                    r,
                    "multilevel: coarsening, parts, coarse levels",
                    || {
                        multilevel::place(
                            g,
                            dist,
                            p,
                            (cap, options.imbalance),
                            bounds,
                            (seed, options.preset),
                            options.progress,
                        )
                    },
                )?,
                (true, false) => {
                    let parts = phases::placement(log, r, "partitioning", || {
                        let capacity = (cap, options.imbalance);
                        partmap::partition(g, p, capacity, (seed, options.preset), options.progress)
                    });
                    let hosts = phases::placement(log, r, "laying out the parts", || {
                        let chains = partmap::layouts(options.preset);
                        let budget = partmap::Budget::partitioned_first(g.n(), p, options.preset);
                        partmap::lay_out(g, &parts, dist, p, (seed, chains), budget)
                    });
                    (hosts, false)
                }
                (false, _) => (
                    phases::placement(log, r, "dual recursive bipartitioning", || {
                        initial::place(
                            g,
                            dist,
                            (0..p).collect(),
                            (cap, options.imbalance),
                            (seed, options.preset, !grid_found),
                            options.progress,
                        )
                    }),
                    false,
                ),
            };
            let kind = match (two_phase, coarsened) {
                (true, true) => {
                    "multilevel partitioning, mapping the parts and refining every coarser level"
                }
                (true, false) => "partitioning and mapping the parts",
                (false, _) => "dual recursive bipartitioning",
            };
            phases::placement(log, r, "capacity restored", || {
                refine::balance::restore(g, dist, &mut hosts, p, cap)
            })?;
            let before = hop_bytes(g, dist, &hosts);
            let mut rng = rng::Rng::new(seed, u64::MAX);
            // Bipartitioning beside partitioning first onto a machine that
            // is not a hierarchy is refined lightly (but a large guest's onto
            // a ring or a line), and so is one vertex
            // per node laid out by partitioning first (see [`Phases::Light`]).
            let light = bipartitioning_refined_lightly(options.restarts, g.n(), kinds, p);
            // (The fast preset leaves the V-cycle out.)
            let phases = match (two_phase, coarsened) {
                (false, _) if light => Phases::Light,
                (true, false) if one_per_node(g, p, cap) => Phases::Light,
                (_, true) => Phases::AfterVcycle,
                _ if options.preset == Preset::Fast => Phases::AfterVcycle,
                _ => Phases::All,
            };
            let steps = (phases, before);
            let gained =
                refine_placement(g, dist, &mut hosts, bounds, options, (&mut rng, r), steps);
            if apart && before - gained == floor {
                met.fetch_min(r, Relaxed);
            }
            Ok(Some((
                hosts,
                before,
                gained,
                kind,
                phases.names(dist.host().spec()),
            )))
        })
        .collect();
    let mut kept: Option<Run> = None;
    for run in runs {
        let Some(run) = run? else { continue };
        if kept.as_ref().map_or(true, |k| run.1 - run.2 < k.1 - k.2) {
            kept = Some(run);
        }
    }
    let (hosts, before, gained, kind, phases) = kept.expect("at least one restart");
    let first_met = met.into_inner();
    notes.insert(
        0,
        format!(
            "{kind} gave hop-bytes {before}; refinement ({phases}) took {gained} off \
             ({}; capacity {cap} load per host node, seed {}{})",
            match (options.restarts, first_met) {
                (1, _) => "one search".to_string(),
                (r, u64::MAX) => format!("best of {r} searches"),
                (r, first) => format!(
                    "search {} of {r} met the bound, every edge one hop long, and the later ones \
                     were dropped",
                    first + 1
                ),
            },
            options.seed,
            options.preset.note()
        ),
    );
    let searched = Some(before - gained);
    let boxes = (best, best_of_boxes);
    if let Some((placed, name)) =
        phases::weigh(g, dist, boxes, searched, bounds, options, &mut notes)
    {
        return Ok((placed, notes, Some(name)));
    }
    Ok((hosts, notes, None))
}

/// Whether `hosts` places every guest node on a host node below `p` and
/// no host node above `cap` load.
fn fits(g: &WGraph, hosts: &[u64], p: u64, cap: u64) -> bool {
    if hosts.len() != g.n() || hosts.iter().any(|&h| h >= p) {
        return false;
    }
    // A load per host node where there are no more nodes than guest nodes
    // (a hash map's look-ups were a tenth of a second over the 10^6-vertex
    // stencil's nine starts on one thread), else only the nodes used.
    if p <= hosts.len() as u64 {
        let mut load = vec![0u64; p as usize];
        return hosts.iter().zip(&g.vw).all(|(&h, &w)| {
            load[h as usize] += w;
            load[h as usize] <= cap
        });
    }
    let mut load = rustc_hash::FxHashMap::<u64, u64>::default();
    hosts.iter().zip(&g.vw).all(|(&h, &w)| {
        let l = load.entry(h).or_default();
        *l += w;
        *l <= cap
    })
}

/// Σ volume × distance of a placement (summed in parallel: integers, so
/// the same total on any number of threads).
pub fn hop_bytes(g: &WGraph, dist: &HostDistance, hosts: &[u64]) -> u128 {
    (0..g.n())
        .into_par_iter()
        .with_min_len(1 << 12)
        .map(|v| {
            let from = dist.row(hosts[v]);
            g.edges(v)
                .filter(|&(u, _)| u > v)
                .map(|(u, w)| u128::from(w) * u128::from(from.d(hosts[u])))
                .sum::<u128>()
        })
        .sum()
}

/// Runs `f` on a pool of `threads` threads: the tests that show a seed
/// gives one placement on any number of threads run a phase on 1 and on 3.
#[cfg(test)]
pub(crate) fn on_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
        .install(f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology;

    /// A placement found on the renumbered guest comes back in the guest's
    /// numbering: the same hop-bytes on the guest as on the renumbered
    /// graph, the capacity kept, and one to one the inverse names the
    /// guest's own nodes.
    #[test]
    fn renumbered_placements_come_back_in_the_guests_numbering() {
        for (guest, host) in [("mesh:24x20", "torus:4x4"), ("mesh:8x8", "torus:8x8")] {
            let mesh = WGraph::from_topology(topology::parse(guest).unwrap().as_ref()).unwrap();
            // Numbered diagonal by diagonal, then again from that order.
            let diagonal = Renumbering::breadth_first(&mesh).graph(&mesh);
            let g = Renumbering::breadth_first(&diagonal).graph(&diagonal);
            let renumbering = Renumbering::breadth_first(&g);
            let host = topology::parse(host).unwrap();
            let options = MapOptions::default();
            let placement =
                map_numbered(&g, host.as_ref(), &options, Some(&renumbering), |_, _| {
                    Vec::new()
                })
                .unwrap();
            let dist = HostDistance::new(host.as_ref()).unwrap();
            let on_renumbered = renumbering.forward(placement.hosts());
            assert_eq!(
                hop_bytes(&g, &dist, placement.hosts()),
                hop_bytes(&renumbering.graph(&g), &dist, &on_renumbered)
            );
            assert!(fits(
                &g,
                placement.hosts(),
                host.node_count(),
                placement.capacity()
            ));
            if let Some(inverse) = placement.inverse.as_ref() {
                for (v, &h) in placement.hosts().iter().enumerate() {
                    assert_eq!(inverse[h as usize] as usize, v, "{guest}");
                }
            } else {
                assert_eq!(guest, "mesh:24x20", "one to one has an inverse");
            }
        }
    }

    /// A guest of no nodes is an error, not a search (the V-cycle of an
    /// empty graph never ended).
    #[test]
    fn a_guest_of_no_nodes_is_refused() {
        let empty = WGraph {
            xadj: vec![0],
            adj: Vec::new(),
            ew: Vec::new(),
            vw: Vec::new(),
        };
        let host = topology::parse("torus:4x4").unwrap();
        let err = map_graph(&empty, host.as_ref(), &MapOptions::default(), &[]).unwrap_err();
        assert!(matches!(err, Error::Mismatch(_)), "{err}");
        assert!(err.to_string().contains("no nodes"), "{err}");
    }
}
