//! The phases of a search: which refinements run on its placement, in
//! order ([`refine_placement`], [`Phases`]), and where a map's time went
//! (`topoembed map --phases`): every phase of every search — the first
//! placement, each refinement — with its wall time and the hop-bytes it
//! took off, so that a slow pair shows which phase to look at (issue 56
//! began with a profiler for want of this). Timing costs two clock reads
//! a phase; with no log given, nothing.

use std::sync::Mutex;
use std::time::Instant;

use super::defaults;
use super::distance::HostDistance;
use super::graph::WGraph;
use super::refine;
use super::rng::Rng;
use super::start::Start;
use super::MapOptions;
use crate::spec::Spec;

/// One phase of one search.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Phase {
    /// The search it belongs to (restart number, from 0); the closed form
    /// refined instead of a search, and the starts weighed after, are
    /// search 0.
    pub search: u64,
    /// What ran.
    pub name: &'static str,
    /// Wall seconds it took.
    pub seconds: f64,
    /// Hop-bytes it took off, for a refinement (none for a first placement).
    pub gained: Option<u128>,
}

/// The phases of one map, as its searches record them (in parallel).
#[derive(Debug, Default)]
pub struct PhaseLog {
    phases: Mutex<Vec<Phase>>,
}

impl PhaseLog {
    /// An empty log.
    pub fn new() -> PhaseLog {
        PhaseLog::default()
    }

    /// The phases recorded, search by search, each search's in the order
    /// they ran.
    pub fn phases(&self) -> Vec<Phase> {
        let mut phases = self
            .phases
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        // Stable: a search runs its phases one after another on one thread.
        phases.sort_by_key(|p| p.search);
        phases
    }

    fn push(&self, phase: Phase) {
        self.phases
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(phase);
    }
}

/// Runs `f`, a first placement, and records it as `name` of `search` where
/// a log is given.
pub(crate) fn placement<R>(
    log: Option<&PhaseLog>,
    search: u64,
    name: &'static str,
    f: impl FnOnce() -> R,
) -> R {
    timed(log, (search, name), f, |_| None)
}

/// Runs `f`, a refinement returning the hop-bytes it took off, and records
/// it as `name` of `search` where a log is given.
pub(crate) fn refinement(
    log: Option<&PhaseLog>,
    search: u64,
    name: &'static str,
    f: impl FnOnce() -> u128,
) -> u128 {
    timed(log, (search, name), f, |&gained| Some(gained))
}

/// Runs `f` and records its wall time, and what `gained` reads off its
/// result, as `name` of `search`.
fn timed<R>(
    log: Option<&PhaseLog>,
    (search, name): (u64, &'static str),
    f: impl FnOnce() -> R,
    gained: impl FnOnce(&R) -> Option<u128>,
) -> R {
    let started = Instant::now();
    let result = f();
    if let Some(log) = log {
        log.push(Phase {
            search,
            name,
            seconds: started.elapsed().as_secs_f64(),
            gained: gained(&result),
        });
    }
    result
}

/// Passes of whole-part swaps after dual recursive bipartitioning.
const PART_PASSES: usize = 8;

/// Rounds of pairwise refinement after k-way FM ([`refine::pairs`]).
/// Benchmark (34 pairs of `bench/mapper.sh`, 2 cores): one round took
/// 1.1 % off the geometric mean (copter2 and 4elt onto tori 2–2.3 %,
/// mdual 3 %, never worse) for about 10 % more time; three rounds little
/// more.
const PAIR_ROUNDS: usize = 1;

/// The refinement of a closed form refined instead of a search: every
/// phase but the V-cycle. A closed form's boxes or slabs are already the
/// blocks a V-cycle would move whole, and it took a third to two fifths of
/// the time for what k-way FM and pairs then took off anyway. Benchmark (2
/// threads, seed 1, 2026-12-02; against the whole refinement): the
/// shuffled 100^3 7-point stencil onto torus:16x16x16 535 681 → 536 546
/// hop-bytes in 14.6 → 7.7 s (one thread 23.8 → 13.9 s), onto
/// mesh:16x16x16, cube:12, torus:8x8x8 and torus:32x32 +0.16, +0.28,
/// −0.15 and −0.12 % in 17–38 % less time; the shuffled 1000x1000 5-point
/// stencil onto torus:32x32 64 650 → 64 641 in 3.6 → 2.6 s, onto
/// torus:16x16x16 +0.18 %, onto ring:256 the same; a shuffled 64^3 stencil
/// onto torus:8x8x8, torus:16x16x16 and mesh:8x16x16 the same in 22–37 %
/// less time; the small grids of `bench/mapper.sh` refined so the same.
pub(super) const CLOSED_FORM_PHASES: Phases = Phases::AfterVcycle;

/// What [`refine_placement`] runs on a search's placement (onto a ring or
/// a line, after the parts' order, [`refine::parts::reorder`], whichever).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Phases {
    /// Part swaps, a V-cycle, k-way FM, pairwise refinement and move/swap
    /// (onto a tleaf of two levels or more, its levels' pairs of groups
    /// after the V-cycle, [`refine::pairs::levels`]; not after a closed
    /// form, which [`Phases::AfterVcycle`] refines).
    All,
    /// The same without the V-cycle: the placement came up through one
    /// ([`super::multilevel`]), or it is a closed form ([`CLOSED_FORM_PHASES`]).
    AfterVcycle,
    /// Pairwise refinement and move/swap only: the bipartitioning search
    /// beside a partitioning-first one onto a machine that is not a
    /// hierarchy (onto one it is the stronger search — see
    /// [`defaults::auto_restarts`] — and every phase pays, as onto a ring or a line
    /// above 10^5 guest vertices, `LARGE_ONE_AXIS_SEARCHES`: the small weighted
    /// example onto tleaf:2x4x4 lost 0.08 % without them). Its placement
    /// weighs distance at every split, and the V-cycle and k-way FM —
    /// which take 10–20 % off a partitioning-first placement — took 0–2 %
    /// off it, and on most pairs it lost anyway (delaunay_n15 onto torus:16x16: 14 567 → 14 375,
    /// against 12 970; copter2: 137 272 → 134 461 in 0.55 s, against
    /// 127 074). Benchmark (the 24 torus pairs of `bench/mapper.sh`, seeds
    /// 1–3): hop-bytes 1.0000, 1.0008 and 1.0002 of refining it fully,
    /// one-thread time 7–8 % less (copter2 14–18 %, butterfly_12 8–12 %),
    /// two threads 7 % less.
    ///
    /// Also one guest vertex per host node laid out by partitioning first
    /// (the parts are the vertices: an MPI job's ranks onto as many slots,
    /// a quotient graph): the layout ends with whole-part swaps, here swaps
    /// of single vertices, until a pass gains at most 0.1 %; at capacity 1
    /// no vertex can move alone, and no two share a host node to be
    /// coarsened together, so k-way FM and the V-cycle have nothing to do.
    /// delaunay_n15 onto torus:32x32x32 (one thread): the search's part
    /// swaps took 0.195 s of 2.9 s for 3 of 185 163 hop-bytes.
    Light,
}

impl Phases {
    /// The phases as the notes name them, onto `host` (onto a ring or a
    /// line every kind begins with the parts' order, [`refine::parts::reorder`]).
    pub(super) fn names(self, host: &Spec) -> String {
        let names = match (self, refine::pairs::levels::applies(host)) {
            (Phases::All, false) => "part swaps, V-cycle, k-way FM, pairs, move/swap",
            (Phases::All, true) => "part swaps, V-cycle, levels, k-way FM, pairs, move/swap",
            (Phases::AfterVcycle, _) => "part swaps, k-way FM, pairs, move/swap",
            (Phases::Light, _) => "pairs, move/swap",
        };
        match defaults::one_axis(host) {
            true => format!("part order, {names}"),
            false => names.to_string(),
        }
    }
}

/// Refines `hosts` (of hop-bytes `before`) by `steps` ([`Phases`]), each
/// logged as a phase of search `search` where `options` ask (`--phases`);
/// returns the hop-bytes they took off. Each phase is handed the hop-bytes
/// it starts from (those before less the exact gains so far).
pub(super) fn refine_placement(
    g: &WGraph,
    dist: &HostDistance,
    hosts: &mut [u64],
    bounds: refine::Capacity,
    options: &MapOptions,
    (rng, search): (&mut Rng, u64),
    (steps, before): (Phases, u128),
) -> u128 {
    let light = steps == Phases::Light;
    let log = options.phases;
    let mut gained = 0;
    if defaults::one_axis(dist.host().spec()) {
        gained += refinement(log, search, "part order", || {
            refine::parts::reorder(g, dist, hosts, Some(before))
        });
    }
    if !light {
        gained += refinement(log, search, "part swaps", || {
            refine::parts::swap(g, dist, hosts, PART_PASSES, Some(before - gained), rng)
        });
    }
    if steps == Phases::All {
        gained += refinement(log, search, "V-cycle", || {
            refine::vcycle::refine(
                g,
                dist,
                hosts,
                (bounds, options.preset),
                Some(before - gained),
                rng,
            )
        });
    }
    // Onto a tleaf the pairs below are two leaves of one parent; the
    // borders between its sockets, nodes and racks are refined here, level
    // by level (`refine::pairs::levels`). Benchmark (2026-12-07; 4elt,
    // delaunay_n15, rgg_n_2_15_s0, butterfly_12 and copter2 onto
    // tleaf:4x8x8:100,10,1, 2x8x4:100,10,1, 4x4x4:100,10,1, 4x4:10,1,
    // 8x4:10,1 and 16x16:10,1, seeds 1–2, two threads): 0.9114x → 0.9064x
    // Scotch's hop-bytes in geometric mean, 49 of the 60 lower and none
    // higher (rgg_n_2_15_s0 onto tleaf:2x8x4 −7.3 %), above Scotch on 7 → 6
    // (butterfly_12, whose top-level cut the bisections draw at 4 030–4 096
    // edges where Scotch's is 4 028–4 048); on one thread (seed 1)
    // 26.2–26.8 → 29.7 s over the 30 pairs. A closed form onto a tleaf is
    // cut by its levels already: there it took 0 off (mesh:1000x1000 onto
    // tleaf:16x16x16:100,10,1, 0.39 s; the set's three stencils onto
    // tleaf:4x8x8), and it runs after a search only.
    if steps == Phases::All && refine::pairs::levels::applies(dist.host().spec()) {
        gained += refinement(log, search, "levels (pairs of groups)", || {
            refine::pairs::levels::refine(g, dist, hosts, bounds)
        });
    }
    if !light {
        gained += refinement(log, search, "k-way FM", || {
            let known = Some(before - gained);
            let rules = refine::kway::Rules::finest(options.preset);
            refine::kway::refine(g, dist, hosts, bounds, (options.passes, rules), known, rng)
        });
    }
    gained += refinement(log, search, "pairs (FM and flows)", || {
        refine::pairs::refine(g, dist, hosts, bounds, PAIR_ROUNDS)
    });
    let known = (options.passes, Some(before - gained));
    gained
        + refinement(log, search, "move/swap", || {
            refine::local::improve(g, dist, hosts, bounds, known, rng, options.progress)
        })
}

/// A start and its hop-bytes, if any.
pub(super) type Scored<'a> = Option<(u128, &'a Start)>;

/// Weighs the best start (of hop-bytes and start, `best`) against a search
/// that reached `searched` hop-bytes (`None`: none ran, and every start is
/// below it), and where its pieces are not boxes the best start of boxes
/// (`best_of_boxes`) beside it: FM and flows gain little on a product's
/// sectors and much on balanced slabs (the shuffled 16x16x32 stencil onto
/// torus:6x10: the product 4 724 → 4 623 refined, its balanced slabs
/// 4 918 → 4 521). Each is polished by move/swap; one below the search is
/// then refined as a closed form refined instead of it is (balanced slabs
/// are a local optimum of move/swap, not of FM and flows: the shuffled
/// 16x16x32 stencil's folded onto torus:12x12 8 972 → 8 233, the 20^3
/// one's onto torus:8x16 7 686 → 7 606; Scotch 8 784 and 7 620). Returns
/// the least refined below the search (the first on ties) and its name,
/// and notes what each gave.
pub(super) fn weigh(
    g: &WGraph,
    dist: &HostDistance,
    (best, best_of_boxes): (Scored, Scored),
    searched: Option<u128>,
    bounds: refine::Capacity,
    options: &MapOptions,
    notes: &mut Vec<String>,
) -> Option<(Vec<u64>, String)> {
    let weighed = match (best, best_of_boxes) {
        (Some(best), Some(boxes)) if best.1.irregular => vec![best, boxes],
        (Some(best), _) => vec![best],
        (None, _) => Vec::new(),
    };
    let search = match searched {
        Some(searched) => format!("the search's: {searched}"),
        None => "no search".to_string(),
    };
    // Each start below the search: (refined hop-bytes, placement, start,
    // its hop-bytes as it came and after local search).
    let mut below = Vec::new();
    for (i, (cost, start)) in weighed.into_iter().enumerate() {
        // (A start of boxes draws the streams it drew alone.)
        let salt = if start.irregular { 2 } else { 0 };
        let mut placed = start.hosts.clone();
        let mut rng = Rng::new(options.seed, u64::MAX - 1 - salt);
        let phase = [
            "move/swap of the best start",
            "move/swap of the best start of boxes",
        ][i];
        let polished = cost
            - refinement(options.phases, 0, phase, || {
                let known = (options.passes, Some(cost));
                refine::local::improve(g, dist, &mut placed, bounds, known, &mut rng, None)
            });
        if let Some(searched) = searched.filter(|&s| polished >= s) {
            notes.push(format!(
                "weighed {}: hop-bytes {polished} after local search, not below the search's {searched}",
                start.name
            ));
            continue;
        }
        let mut rng = Rng::new(options.seed, u64::MAX - 2 - salt);
        let refined = polished
            - refine_placement(
                g,
                dist,
                &mut placed,
                bounds,
                options,
                (&mut rng, 0),
                (CLOSED_FORM_PHASES, polished),
            );
        below.push((refined, placed, start, cost, polished));
    }
    // The least refined, the first on ties.
    let kept = (0..below.len()).min_by_key(|&i| below[i].0);
    for (i, (refined, _, start, cost, polished)) in below.iter().enumerate() {
        notes.push(format!(
            "{} {}: hop-bytes {cost}, {polished} after local search, {refined} refined \
             ({}; {search})",
            if Some(i) == kept { "kept" } else { "weighed" },
            start.name,
            CLOSED_FORM_PHASES.names(dist.host().spec())
        ));
    }
    let (_, placed, start, _, _) = below.swap_remove(kept?);
    Some((placed, start.name.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Phases come back search by search, each search's in its own order,
    /// whatever order the searches logged them in; without a log nothing
    /// is kept and the result passes through.
    #[test]
    fn phases_come_back_by_search_in_order() {
        let log = PhaseLog::new();
        assert_eq!(refinement(Some(&log), 1, "b", || 5), 5);
        assert_eq!(placement(Some(&log), 0, "a", || 7), 7);
        refinement(Some(&log), 1, "c", || 0);
        refinement(Some(&log), 0, "d", || 3);
        let got: Vec<(u64, &str, Option<u128>)> = log
            .phases()
            .iter()
            .map(|p| (p.search, p.name, p.gained))
            .collect();
        assert_eq!(
            got,
            [
                (0, "a", None),
                (0, "d", Some(3)),
                (1, "b", Some(5)),
                (1, "c", Some(0))
            ]
        );
        assert!(log.phases().iter().all(|p| p.seconds >= 0.0));
        assert_eq!(refinement(None, 0, "e", || 9), 9);
    }
}
