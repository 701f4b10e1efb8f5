//! The mapper's defaults that depend on the guest and the host: how many
//! passes of refinement, how many searches, and which kind each search is
//! (partitioning first, [`super::partmap`], or bipartitioning guest and host
//! together, [`super::initial`]), and how much each search spends
//! ([`Preset`]). Each choice cites the benchmark that set it.

use rayon::prelude::*;

use super::graph::WGraph;
use super::start::Start;
use crate::spec::Spec;

/// Most host nodes partitioned for first ([`super::partmap`]: the quotient
/// graph has a vertex per host node; beyond, dual recursive bipartitioning
/// alone).
pub const MAX_PARTITIONED_HOSTS: u64 = 1 << 16;

/// How much search the mapper spends on a placement (`map --preset`), as
/// KaHIP's preconfigurations and Mt-KaHyPar's presets do.
///
/// [`Preset::Fast`] spends less at every phase where time buys the fewest
/// hop-bytes: each bisection grows 4 initial tries on its coarsest graph
/// instead of 6 and refines each level by 2 FM passes instead of 6, a
/// hierarchy's lower levels try one bisection instead of 2, every annealing
/// of the parts' layout tries half its exchanges, a halved host's coarse
/// layout runs one chain instead of 2, the V-cycle is left out, and k-way
/// FM and move/swap run at most 2 passes unless `--passes` says otherwise.
/// Flows, the top-level tries of a hierarchy and of a partition, the
/// searches (`--restarts`) and the closed forms stay as they are.
///
/// Benchmark (2026-12-04, the 38 pairs of `bench/mapper.sh`, one thread,
/// CPU seconds summed, each pair run by both presets in turn; hop-bytes as
/// the geometric mean of the ratios to `scotch_gmap -Cd -b0.03`'s; 2 cores,
/// Intel Xeon VM): the default 32.0 s at 0.798x, fast 20.2 s at 0.822x
/// (0.828x and 0.826x on seeds 2 and 3), above Scotch on 3 pairs by at most
/// 0.9 % (the default: one, by 5.3 %; fast on seed 2: four, up to 7.1 %).
/// The cuts were chosen from a cheaper setting (those above, but 2 grown
/// tries, a quarter of the annealing, one try at every top level and no
/// flows: 12.6 s at 0.866x, above Scotch on 8 pairs) by
/// what each bought back per second: flows 1.9 % of hop-bytes for 1.6 s,
/// the top-level tries 1.1 % for 1.6 s, half the annealing 1.4 % for 2.1 s
/// (then all of it 0.1 % more for 3.6 s more), 4 grown tries 0.5 % for
/// 0.7 s, the second partition try 0.4 % for 0.9 s — against the V-cycle's
/// 0.7 % for 3.2 s and 4 passes' 0.4 % for 1.1 s, which stay out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Preset {
    /// Every phase at the budget the benchmarks set for hop-bytes.
    #[default]
    Default,
    /// About 40 % less time than the default on one core for about 3 %
    /// more hop-bytes.
    Fast,
    /// The default with every border vertex a k-way FM search's seed at
    /// every level, a search locking only the moves it keeps
    /// ([`crate::mapper::refine::kway::Rules`]), and the parts laid out 4
    /// times, the best layout kept ([`crate::mapper::partmap::layouts`]):
    /// 2–4x the default's time where the refinement has work (graphs of
    /// high degree or many levels), for hop-bytes no `--restarts` buys.
    /// Benchmark (`PRESET=strong RUNS=1 bash bench/mapper.sh`, 2026-12-07,
    /// noon): 0.7896x Scotch's hop-bytes over the 38 pairs where the
    /// default gave 0.7942x, 55.0 s on one thread against 22.8 s; copter2
    /// onto torus:16x16 120 103 in 7.0 s where the default's 124 182 took
    /// 1.6 s and four restarts gave 124 182 in 4.4 s; mdual onto
    /// torus:8x8x8 75 053 in 8.1 s, 77 586 in 3.0 s, 77 586 in 9.0 s. With
    /// the 4 layouts (the same day, afternoon, against 0.7896x in 55.4 s
    /// that hour): 0.7877x in 65.3 s (delaunay_n15 onto the tori −0.6 to
    /// −3.1 %, 4elt −1.7 to −1.9 %, copter2 onto torus:16x16 +1.8 %).
    Strong,
}

impl Preset {
    /// Every preset.
    pub const ALL: [Preset; 3] = [Preset::Default, Preset::Fast, Preset::Strong];

    /// The preset's name (`--preset NAME`).
    pub fn name(self) -> &'static str {
        match self {
            Preset::Default => "default",
            Preset::Fast => "fast",
            Preset::Strong => "strong",
        }
    }

    /// The preset of that name (`default`, `fast`, `strong`), if any.
    pub fn named(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == name)
    }

    /// What the mapper's notes add for the preset: nothing at the default.
    pub(super) fn note(self) -> &'static str {
        match self {
            Preset::Default => "",
            Preset::Fast => ", --preset fast",
            Preset::Strong => ", --preset strong",
        }
    }

    /// Passes of k-way FM and move/swap when none are asked: [`auto_passes`]
    /// at the default and strong, 2 when fast.
    pub fn passes(self, vertices: usize) -> usize {
        match self {
            Preset::Default | Preset::Strong => auto_passes(vertices),
            Preset::Fast => FAST_PASSES,
        }
    }
}

/// Passes of k-way FM and move/swap at [`Preset::Fast`] (most graphs stop
/// before the 5th at the default; the first two take most of the gain).
const FAST_PASSES: usize = 2;

/// Most passes of k-way FM and of the final move/swap local search when
/// none are asked (each also stops when a pass gains under 0.1 %): 8 up to
/// 500 000 vertices, 4 above, where a pass costs seconds. 8 rather
/// than 4 since the V-cycle and the balanced closed forms: over the
/// benchmark set (`bench/mapper.sh`) mdual -> torus:8x8x8 gains 2.0 %
/// (96 376 -> 94 417) and copter2 -> torus:16x16 1.2 % (133 892 ->
/// 132 267, below Scotch's 132 901) for about 6 % more time; most pairs
/// stop before the 5th pass. On the 10^6-vertex stencil the 4 more passes
/// would take 0.6 % off in 4.5 s (a quarter of the whole run).
pub fn auto_passes(vertices: usize) -> usize {
    match vertices {
        0..=HUGE_GUEST => 8,
        _ => 4,
    }
}

/// Guests above this many vertices get 4 passes ([`auto_passes`]) and one
/// search onto a ring or a line ([`LARGE_ONE_AXIS_SEARCHES`]): a pass, or a
/// bipartitioning, costs seconds there.
pub const HUGE_GUEST: usize = 500_000;

/// Guests above this many vertices get one search by default, and a closed
/// form found for them is refined instead of searching from scratch.
pub const LARGE_GUEST: usize = 100_000;

/// Guests up to this many vertices get two searches by default onto any
/// host: both together take about a tenth of a second on one core
/// (mesh:64x64 onto tleaf:4x8x8: 0.105 s; mesh:100x100 0.26 s).
pub const SMALL_GUEST: usize = 4096;

/// Guests up to this many vertices get [`TINY_SEARCHES`] searches by
/// default (but one, as larger ones, where [`auto_restarts`] says so).
pub const TINY_GUEST: usize = 2048;

/// Searches for a guest of at most [`TINY_GUEST`] vertices, the two kinds
/// alternating: each takes milliseconds (eight about 0.1 s on one core
/// for a few hundred vertices: KaHIP's 132-vertex `example_weighted.graph`
/// onto cube:4 0.107 s, a 16x32 mesh onto tleaf:4x8 0.136 s; 0.15–0.2 s
/// for a thousand or two: bintree:1024's 2 047 nodes onto ring:16 0.149 s,
/// 0.093 s on two cores), and on a small guest one bisection's draw
/// decides the placement. Searches 0 and 1 are the two a larger guest
/// gets, with the same streams, so the best of eight is never above the
/// best of two. Benchmark (2026-12-01, against the best of two, and
/// `scotch_gmap -Cd` on the same files): `example_weighted` onto 7 hosts
/// of 8 and 16 nodes and a 256-vertex graph of lognormal loads onto 3,
/// seeds 1–3 — worst seed onto cube:4 8 880 → 4 086 (Scotch 4 653, and
/// 9.7 % over its balance), mesh:4x4 10 656 → 4 155, tleaf:2x8 9 208 →
/// 8 977, tleaf:2x2x4 20 759 → 20 215; the 256-vertex graph onto
/// torus:4x4 3 120 → 2 675 on seed 1; elsewhere the same or up to 13 %
/// lower. Four searches left some of those (mesh:4x4 4 208). Grids and
/// trees of a thousand or two nodes (seed 1): mesh:10x10x10 onto
/// torus:4x4 572 → 541 (Scotch 548), bintree:1024 onto ring:16 42 → 32
/// (Scotch 39), and 9 of 30 such pairs lower, none higher; bintree:1024
/// onto ring:24 91 → 86 and mesh:33x31 onto ring:16 354 → 354 stay above
/// Scotch's 85 and 347 (16 searches: 343).
pub const TINY_SEARCHES: usize = 8;

/// Searches run when none are asked: [`TINY_SEARCHES`] for guests up to
/// [`TINY_GUEST`] vertices, 2 for guests up to [`SMALL_GUEST`]
/// vertices (one partitioning first, one bipartitioning guest and host
/// together: each wins on some graphs), and onto a machine that is not a
/// hierarchy up to [`LARGE_GUEST`] where the bipartitioning pays
/// ([`bipartitioning_pays`]: a grid found in the guest, a host of at most
/// [`TINY_HOST`] nodes, or a host that is
/// not a torus, mesh or cube of two axes or more); 1 otherwise
/// (partitioning first), and above.
///
/// Onto a hierarchy (tleaf, fat tree, dragonfly, hwloc node, a list of
/// nodes; [`crate::spec::Spec::is_hierarchy`]) between the two sizes, 1
/// bipartitioning guest and host together ([`partitions_first`]): it won 9
/// of the 10 tleaf benchmark pairs where both ran, and alone it keeps
/// their hop-bytes (geometric mean 0.996, 0.987 and 1.017 of both's over
/// seeds 1–3; 0.9990 on 28 fat-tree, dragonfly and hwloc pairs) in about
/// half the time on one core.
///
/// A `one_to_one` guest (one vertex of load 1 per host node: MPI ranks
/// onto their slots, a quotient graph) onto a machine that is not a
/// hierarchy gets 1 search, partitioning first: the parts are its
/// vertices, laid out whole (and on a large grid host halved first), and
/// that search won all 36 runs where both ran — delaunay_n15's 64- to
/// 4096-part quotients onto cube:6, cube:8, torus:16x16, torus:32x32,
/// mesh:32x32, torus:16x16x16 and torus:64x64, 4elt's, copter2's and
/// rgg_n_2_15_s0's onto torus:8x8, torus:16x16, torus:8x8x8, mesh:8x8x8
/// and torus:32x32, seeds 1–3 — where onto tleaf:4x8x8 bipartitioning won
/// or tied on 3 of 3.
///
/// Onto a ring or a line ([`one_axis`]), a guest between the two sizes
/// gets [`ONE_AXIS_SEARCHES`], every one bipartitioning
/// ([`bipartitions_along_one_axis`]), and a larger one up to
/// [`HUGE_GUEST`] [`LARGE_ONE_AXIS_SEARCHES`], one of each kind, both
/// refined by every phase ([`bipartitioning_refined_lightly`]).
pub fn auto_restarts(
    vertices: usize,
    (hierarchy, one_axis): (bool, bool),
    one_to_one: bool,
    pays: bool,
) -> usize {
    match (vertices, hierarchy) {
        _ if one_to_one && !hierarchy => 1,
        (0..=TINY_GUEST, _) => TINY_SEARCHES,
        _ if bipartitions_along_one_axis(one_axis, vertices) => ONE_AXIS_SEARCHES,
        _ if one_axis && (LARGE_GUEST + 1..=HUGE_GUEST).contains(&vertices) => {
            LARGE_ONE_AXIS_SEARCHES
        }
        (0..=SMALL_GUEST, _) => 2,
        (0..=LARGE_GUEST, false) if pays => 2,
        _ => 1,
    }
}

/// Searches onto a ring or a line for a guest above [`TINY_GUEST`] and up
/// to [`LARGE_GUEST`] vertices, all bipartitioning guest and host together
/// ([`bipartitions_along_one_axis`]). Onto one axis the parts' order along
/// it decides, and partitioning first cuts compact parts whose layout along
/// the axis the annealing leaves to chance; each bipartitioning orders its
/// halves as it cuts them, in a third to a half of the time, but one in
/// four or so folded a ring badly (4elt onto ring:128 24 130 on seed 1,
/// Scotch 18 012), so four were run until 2026-12-07 (below: two since).
/// Benchmark (2026-12-06, 4elt, copter2,
/// butterfly_12, delaunay_n15 and rgg_n_2_15_s0 onto ring:64, line:64,
/// ring:128, ring:256, line:128 and line:256, seeds 1–2, against one
/// search of each kind): hop-bytes 0.9392x Scotch's in geometric mean
/// against 0.9499x, above Scotch on 9 of the 60 pair-seeds against 22, at
/// most 1.153x against 1.094x (4elt onto ring:128, seed 1: 20 769 against
/// 18 920), in 13 % more CPU time; two bipartitionings instead: 0.9531x,
/// above on 12, at most 1.340x, in 43 % less. rgg_n_2_15_s0, whose
/// compact parts lie well along a ring, lost most (onto ring:256 41 312 →
/// 43 919, Scotch 55 608). One partitioning first and three
/// bipartitionings (each refined by pairs and move/swap alone, as beside
/// partitioning first elsewhere): 0.9397x, above on 16, at most 1.094x,
/// 22 % more time; one and two: 0.9437x, above on 17, 3 % less. The
/// four refined by pairs and move/swap alone: 0.9453x, above on 15, 22 %
/// less time than by every phase.
///
/// The bad folds are splits that do not line up with their neighbours, a
/// near tie of a split's own costs; every split onto one axis is now also
/// searched with its external costs doubled (`initial::pulled`), and two
/// searches are enough. Benchmark (2026-12-07; the five graphs onto
/// ring:64, 96, 128, 200, 256 and line:64, 128, 256, seeds 1–2, two
/// threads): four searches without the doubled try 0.9265x Scotch's,
/// above it on 16 of the 80 pair-seeds, 52.0 s; two with it 0.9052x,
/// above on 12, at most 1.135x, 39.1 s; four with it 0.8999x, above on
/// 10, at most 1.092x, 76.7 s — half a percent for twice the time. One
/// thread, seed 1: 0.9285x → 0.9073x, 50.2 → 37.8 s. Two still fold a
/// ring badly now and then: 4elt onto ring:128 over seeds 1–4 20 267,
/// 18 322, 23 278 and 18 297 (four with the try 19 664, 18 322, 18 410 and
/// 18 019; four without it 18 972, 18 193, 18 881 and 18 414; Scotch
/// 18 012).
pub const ONE_AXIS_SEARCHES: usize = 2;

/// Searches onto a ring or a line for a guest above [`LARGE_GUEST`]
/// vertices and up to [`HUGE_GUEST`]: one of each kind, multilevel partitioning first (search 0,
/// the lone search such a guest gets elsewhere) and a bipartitioning
/// refined by every phase, the better kept — so never above the lone
/// search of the same seed. Which wins is the graph's draw: mdual and
/// butterfly_14 (2.5·10^5 vertices) onto line:64, line:128, line:256,
/// ring:128 and ring:256, seeds 1–2, two threads, against the lone search
/// (2026-12-06): hop-bytes 0.9910x Scotch's (`scotch_gmap -Cd -b0.03`) in
/// geometric mean where it was 0.9993x, above it on 8 of the 20
/// pair-seeds where on 13 (by at most 1.1 %: mdual onto line:64, seed 2,
/// 116 134 → 113 035, Scotch 111 774), 18 % more CPU time; the
/// bipartitioning refined by pairs and move/swap alone, 0.9953x and 11.
/// Two bipartitionings alone did better there (0.9848x, 8 above, 8 % less
/// CPU time than the lone search), but lost onto ring:64 and ring:1024 with
/// a 2-D random geometric graph of 10^6 vertices (17 564 and 316 134
/// against the lone search's 15 593 and 281 873; Scotch 22 009 and
/// 426 549), whose compact parts lie well along a ring. Above
/// [`HUGE_GUEST`] the bipartitioning costs twice the multilevel search
/// (flows refine only its first splits there, `initial::LARGE`): that
/// 10^6-vertex graph onto ring:64 took 5.4 s on two threads with both
/// searches where it took 1.9 s with one, for the same placement; at
/// 4.8·10^5 vertices (the same kind of graph onto ring:64, ring:256 and
/// line:128) both searches took 1.6–1.9x the time and 6 % off one of the
/// three pairs.
pub const LARGE_ONE_AXIS_SEARCHES: usize = 2;

/// Whether the host is a ring or a line (a grid of one axis).
pub fn one_axis(host: &Spec) -> bool {
    host.sides().is_some_and(|sides| sides.len() == 1)
}

/// Whether every search of several onto a ring or a line (`one_axis`)
/// bipartitions a guest of `vertices` ([`ONE_AXIS_SEARCHES`]): above
/// [`TINY_GUEST`] and up to [`LARGE_GUEST`] vertices.
fn bipartitions_along_one_axis(one_axis: bool, vertices: usize) -> bool {
    one_axis && vertices > TINY_GUEST && vertices <= LARGE_GUEST
}

/// Whether the bipartitioning search pays beside partitioning first onto
/// `host` (a machine that is not a hierarchy; [`auto_restarts`]), for a
/// guest in which a `grid` was found or not (a closed form was weighed).
///
/// It pays where it folds the guest onto a host of fewer axes, splitting
/// guest and host along their axes together: a grid found in the guest
/// (the shuffled 24^3 stencil onto torus:16x16: both searches 12.1 % below
/// partitioning first alone), and any guest onto a ring or a line (both
/// searches below it by 12 % on delaunay_n15 onto ring:64, 5.6 % onto
/// ring:256, 7.2 % onto line:64, 7.4 % on copter2 onto ring:32, 1.1 % on
/// the 9-point stencil onto ring:256; 4 of 9 pairs the same). Onto a torus or
/// mesh of two axes or more, or a cube, a guest with no grid found gets
/// partitioning first alone: over the 26 torus pairs of `bench/mapper.sh`
/// it gave the same hop-bytes as both searches on 76 of the 78 pair-seeds
/// (seeds 1–3; butterfly_12 onto torus:8x8x8 +2.05 % on seed 2, the
/// 128x128 9-point stencil onto torus:16x16 +2.86 % on seed 3) and on 31 of
/// 33 other pairs (27- and 7-point stencils, shuffled or not, onto 2-D tori
/// and meshes, a 256x64 stencil onto torus:8x8x8 and torus:4x4x4x4,
/// butterfly_10, the benchmark graphs onto other tori, meshes, torus:64x4,
/// torus:128x2 and cubes 6 to 8: the 9-point stencil onto torus:4x4x4x4
/// +1.72 %, a 20^3 27-point stencil onto torus:32x16 +0.04 %); random
/// graphs, seeds 1–2: an Erdős–Rényi graph of 10^4 vertices and 2-D and 3-D
/// random geometric graphs of 16 000 and 20 000 the same on 16 of 16
/// pair-seeds, a Barabási–Albert graph of 20 000 (hubs) +0.16 to +1.84 %
/// on 4 of 4 — +0.08 % on average over all 131, in 18 % less
/// time on one thread and 18–31 % less on two, where the lone search's own
/// parallel phases take the second core the other search held. A host
/// graph (a stored machine, not measured so) keeps both, as does a host of
/// at most [`TINY_HOST`] nodes.
pub fn bipartitioning_pays(host: &Spec, nodes: u64, grid: bool) -> bool {
    let several_axes = match host {
        Spec::Cube(d) => *d >= 2,
        _ => host.sides().is_some_and(|sides| sides.len() >= 2),
    };
    grid || !several_axes || nodes <= TINY_HOST
}

/// Most nodes of a torus, mesh or cube onto which a guest gets both
/// searches, partitioning first and the bipartitioning beside it
/// ([`bipartitioning_pays`]). Into so few parts whether they meet as the
/// host's nodes do is each search's draw: partitioning first cuts each
/// half again on its own, so the two cuts meet the first at different
/// points and a part touches its diagonal neighbour (4elt onto mesh:2x2 —
/// a ring of 4 — came out at 500–503 hop-bytes on 3 of 4 seeds, Scotch 460,
/// where onto ring:4, searched by bipartitionings, at 416–469), and
/// delaunay_n15's 9 parts onto mesh:3x3 a 3x3 grid of parts (1 256) on
/// some seeds of either kind and not on others (1 611, 1 722; Scotch
/// 1 406). Benchmark (2026-12-07, 4elt, delaunay_n15, rgg_n_2_15_s0,
/// butterfly_12 and copter2 onto mesh:2x2, mesh:2x3, mesh:2x4, torus:2x4,
/// mesh:3x3, torus:3x3 and cube:3, seeds 1–4, one thread, against
/// partitioning first alone): hop-bytes 0.9011x → 0.8821x Scotch's
/// (`scotch_gmap -Cd -b0.03`) in geometric mean, above it on 25 → 17 of
/// the 140 runs, at most 1.146x → 1.077x (delaunay_n15 onto mesh:3x3), in
/// 15.8 → 24.2 s a seed (Scotch 7.0 s; on two threads 10.8 → 14.8 s, above
/// 10 → 6 of 70 on seeds 1–2). Two bipartitionings instead: 0.8830x, 20
/// above, 26.7 s; four (as onto a ring): 0.8661x, 11 above, 48.0 s; up to
/// 16 nodes (mesh:3x4, torus:3x5, mesh:4x4 and cube:4 too; the 12 hosts
/// of 3 to 27 nodes on which two bisections a split were measured,
/// `initial`'s `FEW_PARTS_TRIES`, seeds 1–3): above Scotch on 5 → 4 of
/// 180 runs for 34 % more time, where up to 9 nodes took 14 %.
pub const TINY_HOST: u64 = 9;

/// Whether search `r` of `restarts` partitions first and maps the parts
/// second ([`super::partmap`]) rather than bipartitioning guest and host together
/// ([`super::initial`]): the kinds alternate, partitioning first at even `r`
/// (which wins on tori and meshes) — but a lone search onto a hierarchy
/// with a guest of at most [`LARGE_GUEST`] vertices bipartitions (which
/// wins there; see [`auto_restarts`]), and several onto a ring or a line
/// ([`ONE_AXIS_SEARCHES`]). Partitioning first needs at most
/// [`MAX_PARTITIONED_HOSTS`] host nodes.
pub(super) fn partitions_first(
    r: u64,
    restarts: usize,
    vertices: usize,
    (hierarchy, one_axis): (bool, bool),
    p: u64,
) -> bool {
    let lone_on_hierarchy = restarts == 1 && hierarchy && vertices <= LARGE_GUEST;
    let along_one_axis = restarts > 1 && bipartitions_along_one_axis(one_axis, vertices);
    r % 2 == 0 && !lone_on_hierarchy && !along_one_axis && p <= MAX_PARTITIONED_HOSTS
}

/// Whether a bipartitioning search is refined by pairs and move/swap
/// alone: beside partitioning first (search 0 of `restarts` partitions
/// first, [`partitions_first`]) onto a machine that is not a hierarchy —
/// but onto a ring or a line with a guest above [`LARGE_GUEST`] vertices
/// ([`LARGE_ONE_AXIS_SEARCHES`]), where every phase paid (0.9953x →
/// 0.9910x Scotch's hop-bytes over 20 pair-seeds).
pub(super) fn bipartitioning_refined_lightly(
    restarts: usize,
    vertices: usize,
    (hierarchy, one_axis): (bool, bool),
    p: u64,
) -> bool {
    let beside = partitions_first(0, restarts, vertices, (hierarchy, one_axis), p);
    beside && !hierarchy && !(one_axis && vertices > LARGE_GUEST)
}

/// Why the closed form `start` (of hop-bytes `cost`) is refined instead
/// of a search from scratch onto `host` (the search's note says it), or
/// `None` where it is only weighed after the searches: onto a tleaf, a
/// grid of even volumes cut by its levels into equal boxes
/// ([`cut_by_levels`]) or, above [`LARGE_GUEST`] vertices, into any
/// ([`large_cut_by_levels`]); onto a grid-shaped host,
/// a guest above [`LARGE_GUEST`] vertices, every cut edge one hop of one
/// volume ([`one_hop_on_uniform_volumes`]), a 9- or 27-point stencil whose
/// closed form stretches no edge ([`stencil_refined`]), or a grid
/// of fewer axes than the host ([`folded_onto_more_axes`]).
pub(super) fn refined_instead(
    g: &WGraph,
    start: &Start,
    cost: u128,
    host: &Spec,
) -> Option<String> {
    if start.by_levels {
        // (Onto a tleaf these rules alone: the others are for grid hosts.)
        if start.even_levels && cut_by_levels(g) {
            Some(
                "as for every grid of even volumes cut by a tleaf's levels into equal boxes".into(),
            )
        } else if large_cut_by_levels(g, start) {
            Some(format!(
                "as for every grid of even volumes above {LARGE_GUEST} vertices cut by a tleaf's \
                 levels, but a 27-point stencil's"
            ))
        } else {
            None
        }
    } else if g.n() > LARGE_GUEST {
        Some(format!(
            "as for every guest above {LARGE_GUEST} vertices with one"
        ))
    } else if start.weighed_only {
        None
    } else if one_hop_on_uniform_volumes(g, &start.hosts, cost)
        // (Strips of a ring or a line cut every diagonal of a 9- or
        // 27-point stencil's long sides: there the search runs — the
        // shuffled 16x16x32 27-point stencil onto ring:16 30 481 hop-bytes,
        // its slabs 31 726.)
        && !(start.under_diagonals && host_axes(host) < 2)
    {
        Some(
            "as for every grid of even volumes whose closed form cuts only edges one hop long"
                .into(),
        )
    } else if stencil_refined(g, start.non_expanding, host) {
        Some(
            "as for every 9- or 27-point stencil of even volumes whose closed form stretches no \
             edge beyond the grid under it"
                .into(),
        )
    } else if folded_onto_more_axes(g, start.grid_axes, host) {
        Some("as for every grid of even volumes onto a host of more axes".into())
    } else {
        None
    }
}

/// Whether a closed form (`hosts`, of hop-bytes `cost`) of a guest whose
/// edges all carry one volume and whose nodes all carry one load puts
/// every cut edge one hop long: its hop-bytes are then its cut (of boxes
/// tried cheapest cut first in `embed/structured.rs`), and a search
/// from scratch has only a smaller cut to find. Over 20 small grids
/// (128x128 and 24^3 stencils onto tori, meshes, rings, lines and cubes)
/// the search never beat such a closed form (by 7–80 % it lost: 24^3
/// onto torus:8x8x8 19 350 against 12 096 in 1.1 s of searching); every
/// closed form it beat had longer edges (24^3 onto torus:16x8, 6x6x3
/// blocks: 12 672 against 12 267).
fn one_hop_on_uniform_volumes(g: &WGraph, hosts: &[u64], cost: u128) -> bool {
    if !uniform(g) {
        return false;
    }
    let cut: u128 = (0..g.n())
        .into_par_iter()
        .map(|v| {
            g.edges(v)
                .filter(|&(u, _)| u > v && hosts[u] != hosts[v])
                .map(|(_, w)| u128::from(w))
                .sum::<u128>()
        })
        .sum();
    cut == cost
}

/// Whether a closed form of a 9- or 27-point stencil `g` (the grid under
/// it found as its skeleton, no edge placed more hops apart than that grid
/// puts it: `non_expanding`) is refined instead of a
/// search: where every edge and node carries one volume and load, onto a
/// host of two axes or more. Benchmark (2026-12-05, two threads, seed 1):
/// the 128x128 9-point stencil onto torus:8x8x4, torus:16x16 and
/// torus:8x8x8, 32x32, 48x48 and 64x64 ones onto torus:4x4x2,
/// torus:4x4x4, torus:8x8, mesh:4x4, torus:16x16 and mesh:8x8x4 (21
/// pairs): the same hop-bytes as the searches with the closed form weighed
/// after them, in 0.004–0.04 s where they took 0.03–0.96 s. Onto ring:16
/// the searches won by 13–15 % (32x32: 857 against 985): strips of a 1-D
/// host cut every diagonal of their long sides, and there the closed
/// form is only weighed. 27-point stencils (2026-12-05, one thread, seed
/// 1: 12^3, 16^3, 18^3, 20^3, 24^3, 16x16x32 and 30x20x10, shuffled, onto
/// torus:8x8x8, torus:8x8x4, torus:16x16, torus:4x4x4, mesh:8x8x8,
/// torus:16x8x4, cube:8, torus:4x4x4x4 and mesh:4x4x8, 63 pairs): 62 the
/// same hop-bytes as the searches with the closed form weighed after
/// them, one 1.7 % above (16^3 onto torus:16x8x4, 52 377 against
/// 51 477; Scotch 57 527), in 38.9 s where they took 50.7 s (24^3 onto
/// torus:8x8x8 0.29 s against 1.43 s).
fn stencil_refined(g: &WGraph, non_expanding: bool, host: &Spec) -> bool {
    non_expanding && host_axes(host) >= 2 && uniform(g)
}

/// Whether a closed form of a grid of `grid_axes` axes found in `g` is
/// refined instead of a search onto `host`, of more axes and at least
/// [`FOLDED_FROM_NODES`] nodes, where every edge and node of `g` carries
/// one volume and load. Folding the grid's axes
/// onto more host axes stretches some edges to two hops, so the rules
/// above keep the search; but refined (k-way FM, pairs and move/swap on
/// it) the fold beat the search, in a tenth to a fifth of the time.
/// Benchmark (2026-12-05, one thread, seed 1, 179 pairs: 5- and 9-point
/// stencils of 64x64 to 200x50, shuffled, and the specs torus:100x100,
/// torus:90x60 and mesh:100x100 onto 12 hosts of 3 to 8 axes and 128 to
/// 512 nodes (torus:8x8x8, torus:16x8x4, mesh:4x4x8, torus:8x4x4,
/// mesh:6x6x6, torus:4x4x4x4, cube:8, …); 7-point stencils of 16^3 to
/// 20x20x30, shuffled, and the specs torus:50x50x50 and mesh:30x30x30 onto
/// the 4- and 5-axis ones and cube:8): the geometric mean of the hop-bytes
/// −1.0 % against the searches (with the closed form weighed after them),
/// below on 84 pairs, above on 3 by at most 0.08 %, and 48.0 → 10.9 s in
/// all: the 128x128 5- and 9-point stencils onto torus:8x8x8 0.43 → 0.02 s
/// and 0.59 → 0.06 s at the same hop-bytes, a 20x20x30 7-point one onto
/// torus:4x4x4x4 10 926 → 10 141 hop-bytes in 0.08 s for 0.38 s. A grid of
/// as many axes as the host, or more, is not folded so: onto a torus or
/// mesh of two axes such a grid's closed forms are weighed without a
/// search where [`unsearched`] says so (the shuffled 24^3 stencil onto
/// torus:16x16: balanced slabs 15 552, the search 15 935), and else after
/// it. Nor is a guest of fewer nodes
/// than the host: its fold onto a cube is a many-to-one method's (reshape),
/// which leaves nodes empty where the search spreads the grid over them —
/// refined, mesh:20x20 onto cube:9 1 226 hop-bytes, mesh:10x10 onto cube:7
/// 279 and mesh:6x6x6 onto cube:8 971, searched 948, 197 and 706.
fn folded_onto_more_axes(g: &WGraph, grid_axes: usize, host: &Spec) -> bool {
    let nodes = host.node_count().unwrap_or(0);
    let fills_the_host = g.n() as u64 >= nodes;
    nodes >= FOLDED_FROM_NODES
        && fills_the_host
        && grid_axes >= 1
        && grid_axes < host_axes(host)
        && uniform(g)
}

/// Why the search is left out for a closed form `start`, weighed alone as
/// it would be after a search (local search, then refined where it beats
/// the search — here always), or `None` where the search runs: a grid of
/// even volumes folded onto a torus or mesh of two axes
/// ([`folded_onto_fewer_axes`]), where the search rarely won and took most
/// of the time.
pub(super) fn unsearched(g: &WGraph, start: &Start, host: &Spec) -> Option<String> {
    (!start.under_diagonals && folded_onto_fewer_axes(g, start.grid_axes, host)).then(|| {
        format!(
            "as for every grid of even volumes and more axes onto a torus or mesh of two, \
             {FOLDED_FROM_NODES} to {FOLDED_UP_TO} nodes, {FOLDED_PER_NODE} of its nodes or more \
             a host node"
        )
    })
}

/// Whether the closed forms of a grid of more axes than `host`, a torus
/// or mesh of two axes of [`FOLDED_FROM_NODES`] to [`FOLDED_UP_TO`] nodes,
/// are weighed without a search ([`unsearched`]): where every edge and node of `g` carries
/// one volume and load and each host node gets [`FOLDED_PER_NODE`] of its
/// nodes or more. Such a grid's closed forms — balanced slabs of a box of
/// more axes folded two axes onto one, or its axes' product — won the
/// searches' race by a median 21 %. Benchmark (2026-12-07, two threads,
/// seeds 1–3; 7-point stencils, shuffled, of 20^3, 24^3, 28^3, 30^3,
/// 40^3, 16x16x32, 24x24x48, 36x36x18, 48x48x12, 20x20x40, 32x32x8 and
/// 8x8x64 onto torus:16x16, torus:12x12, torus:8x16, mesh:16x16,
/// torus:32x16, mesh:12x12, torus:10x14 and torus:24x20, 288 runs): the
/// closed form, weighed after the searches, below them on 286 (by 1.9 %
/// at least) and above on 2 (36x36x18 onto torus:8x16 on seed 2 15 830
/// against 15 539; onto mesh:16x16 on seed 3 23 042 against 22 961), the
/// searches 244 s in all. With fewer nodes a host node the search shapes
/// the parts better than slabs and staircases: 12^3 to 18^3 onto the same
/// hosts lost to it on 35 of 144 runs, by up to 59 % (12^3 onto
/// torus:32x16, 3.4 nodes a host node), by 0.3–2.1 % at 24 to 28 (16^3
/// onto mesh:12x12, 16x16x24 onto torus:16x16); onto torus:8x8 (20^3, 30^3)
/// and torus:32x32 (16^3 to 30^3, seeds 1–2) it won every run.
fn folded_onto_fewer_axes(g: &WGraph, grid_axes: usize, host: &Spec) -> bool {
    let nodes = host.node_count().unwrap_or(0);
    host_axes(host) == 2
        && grid_axes > 2
        && (FOLDED_FROM_NODES..=FOLDED_UP_TO).contains(&nodes)
        && g.n() as u64 >= FOLDED_PER_NODE * nodes
        && uniform(g)
}

/// Most host nodes onto which a grid of more axes is placed from its
/// closed forms without a search ([`folded_onto_fewer_axes`]).
const FOLDED_UP_TO: u64 = 512;

/// Fewest guest nodes a host node for a grid of more axes to be placed
/// from its closed forms without a search ([`folded_onto_fewer_axes`]).
const FOLDED_PER_NODE: u64 = 32;

/// The axes of more than one node of a grid-shaped `host` (a cube's
/// dimension; 0 for any other).
fn host_axes(host: &Spec) -> usize {
    match host {
        Spec::Cube(d) => *d as usize,
        spec => spec
            .grid()
            .map_or(0, |(sides, _)| sides.iter().filter(|&&k| k > 1).count()),
    }
}

/// Fewest host nodes onto which a grid of fewer axes is folded by its
/// closed form instead of searched ([`folded_onto_more_axes`]). Onto the
/// 9 hosts of 16 to 64 nodes measured with the pairs there (torus:3x3x3,
/// torus:4x4x2, cube:5, cube:6, torus:4x4x4, torus:4x4x2x2, …; 171 pairs)
/// the fold won as often, but lost by up to 8.4 % (the 128x128 9-point
/// stencil onto torus:3x3x3, whose rings of 3 join every two nodes: 3 836
/// against the search's 3 540; a shuffled 60x36 5-point stencil onto
/// torus:4x4x2 480 against 454), and there the search takes a tenth of a
/// second.
const FOLDED_FROM_NODES: u64 = 128;

/// Whether a grid `g` cut by a tleaf's levels into boxes all alike, every
/// cut a plane (`embed/nested.rs`), is refined instead of a search: where
/// every edge and node carries one volume and load. Benchmark (2026-12-05,
/// one thread, seed 1; 5-, 9- and 7-point stencils of 64x64 to 128x128
/// and 16^3 to 24^3, shuffled, onto six tleafs of 2 to 6 levels, the 84
/// pairs of 132 whose sides the levels' arities divide): against the
/// search with that start weighed after it, the same hop-bytes on 79, above
/// on 5 by at most 0.17 % (9-point stencils: 128x64 onto tleaf:16x16:10,1
/// 25 110 against 25 068), in 2.1 s against 17.2 s over all 84 — the
/// 128x128 5- and 9-point and 24^3 7-point stencils onto
/// tleaf:4x8x8:100,10,1 of `bench/mapper.sh` 0.26 → 0.02 s, 0.40 → 0.07 s
/// and 0.32 → 0.03 s. Where the sides do not divide the cut's staircases
/// lost to the search by up to 11.7 %, and there it is only weighed.
fn cut_by_levels(g: &WGraph) -> bool {
    uniform(g)
}

/// Whether a grid `g` of more than [`LARGE_GUEST`] vertices cut by a
/// tleaf's levels (`start`; `embed/nested.rs`) is refined instead of a
/// search where its boxes are not all alike: where every edge and node
/// carries one volume and load, and the grid is not the one under a 3-D
/// box stencil's diagonals. At that size a staircase costs little beside
/// the planes. Benchmark (2026-12-05, two threads, seed 1, 58 pairs:
/// mesh:1000x1000, torus:500x400, torus:400x300, mesh:700x200,
/// mesh:60x60x60 and mesh:100x100x100, and shuffled 600x400 5-point,
/// 64x64x40 7-point, 500x300 and 700x180 9-point stencils, onto
/// tleaf:16x16x16:100,10,1, tleaf:4x8x8:100,10,1, tleaf:8x16:10,1,
/// tleaf:2x4x8x4:1000,100,10,1, tleaf:32x32:10,1 and tleaf:6x6x6:100,10,1):
/// against the search with the cut weighed after it, lower on 53 (by up to
/// 6.0 %, the 7-point stencil onto tleaf:6x6x6: 1 107 806 against
/// 1 178 511), the same on 5, higher on none, in 28.6 s against 90.0 s
/// (mesh:1000x1000 onto tleaf:16x16x16 1.0 s against 4.5 s). Shuffled
/// 27-point stencils lost: 50^3 above the search on all six hosts (by up
/// to 7.4 %, tleaf:6x6x6, in 5.6 s against 5.4 s; why, not measured),
/// 40x40x80 below it on two of four, and there the cut is only weighed.
fn large_cut_by_levels(g: &WGraph, start: &Start) -> bool {
    g.n() > LARGE_GUEST && uniform(g) && !(start.under_diagonals && start.grid_axes >= 3)
}

/// Whether every edge of `g` carries one volume and every node one load.
fn uniform(g: &WGraph) -> bool {
    let even = |x: &[u64]| x.windows(2).all(|w| w[0] == w[1]);
    even(&g.ew) && even(&g.vw)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bipartitioning search is refined lightly only beside
    /// partitioning first onto a machine that is not a hierarchy, and not
    /// onto a ring or a line above [`LARGE_GUEST`] vertices, where both
    /// searches it gets are refined by every phase.
    #[test]
    fn a_large_guests_bipartitioning_onto_one_axis_is_refined_fully() {
        let (torus, ring, tleaf) = ((false, false), (false, true), (true, false));
        let large = LARGE_GUEST + 1;
        let searches = |vertices, kinds| auto_restarts(vertices, kinds, false, true);
        // Two searches of a large guest onto a ring: one of each kind.
        assert_eq!(searches(large, ring), LARGE_ONE_AXIS_SEARCHES);
        assert!(partitions_first(0, 2, large, ring, 256));
        assert!(!partitions_first(1, 2, large, ring, 256));
        assert!(!bipartitioning_refined_lightly(2, large, ring, 256));
        // Beside partitioning first elsewhere (asked for), lightly.
        assert!(bipartitioning_refined_lightly(2, large, torus, 256));
        assert!(bipartitioning_refined_lightly(2, 3000, torus, 256));
        // A tiny guest's eight searches onto a ring alternate, lightly.
        assert!(bipartitioning_refined_lightly(8, 100, ring, 64));
        // Onto a hierarchy, every phase.
        assert!(!bipartitioning_refined_lightly(2, 3000, tleaf, 256));
        // Between the sizes every search onto a ring bipartitions: none
        // beside partitioning first.
        assert!(!bipartitioning_refined_lightly(4, 3000, ring, 256));
    }
}
