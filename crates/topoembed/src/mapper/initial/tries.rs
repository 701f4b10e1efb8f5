//! How many whole bisections each split of the dual recursive
//! bipartitioning tries, the cheapest kept ([`super::split_vertices`]):
//! more at a hierarchy's top level and at the first splits of
//! partitioning first, where a split carries the most hop-bytes, and at
//! every split onto a host of few nodes.

use super::LARGE;
use crate::mapper::defaults::{Preset, SMALL_GUEST};
use crate::mapper::distance::HostDistance;
use crate::mapper::domain::Domain;
use crate::spec::Spec;

/// Whether every two host nodes are equally far apart (a one-level tleaf,
/// as partitioning first uses; a fat tree or dragonfly of one level).
pub(super) fn is_flat(dist: &HostDistance) -> bool {
    match dist.host().spec() {
        Spec::Tleaf(_, costs) => costs.len() == 1,
        Spec::FatTree(shape) => shape.down.iter().filter(|&&d| d > 1).count() == 1,
        Spec::Dragonfly(s) => {
            [s.groups, s.chassis, s.routers, s.nodes]
                .iter()
                .filter(|&&k| k > 1)
                .count()
                == 1
        }
        _ => false,
    }
}

/// Twice the distance between leaves parting at a hierarchy's top level,
/// its diameter (`u64::MAX` on other hosts: no split reaches it).
pub(super) fn top_cost(dist: &HostDistance) -> u64 {
    match dist.host().spec() {
        Spec::Tleaf(_, costs) => 2 * costs.iter().sum::<u64>(),
        spec if spec.is_hierarchy() => 2 * dist.host().diameter(),
        _ => u64::MAX,
    }
}

/// Whole multilevel bisections tried for a split of a domain into `halves`,
/// `depth` splits below the whole host (the cheapest kept).
///
/// A hierarchy's top-level cut costs the most per edge (111 of 1/11/111):
/// there the best of several is kept (KaHIP's multisection spends its
/// effort at the top the same way). Benchmark: 4 tries, 6.2 % fewer
/// hop-bytes on tleaf 4x8x8 and 4x6x8, twice the time (still under KaHIP
/// eco's); its lower levels keep the best of [`HIERARCHY_TRIES`]. A
/// one-level tleaf (partitioning first) has every split at its top level;
/// there only the first level of splits is tried twice, the first two into
/// a few parts (see [`FLAT_FIRST_TRIES`] and [`flat_tried_levels`]). A
/// guest of `vertices` split onto a small host is tried twice at every
/// split ([`few_parts`]).
pub(super) fn bisections_tried(
    dist: &HostDistance,
    (d1, d2): (&Domain, &Domain),
    (depth, vertices): (u32, usize),
    preset: Preset,
) -> u64 {
    let top = d1.distance2(d2, dist) >= top_cost(dist);
    let lower = match preset {
        Preset::Default | Preset::Strong => HIERARCHY_TRIES,
        Preset::Fast => FAST_HIERARCHY_TRIES,
    };
    let few = few_parts(dist, vertices, preset);
    let hierarchy = dist.host().spec().is_hierarchy();
    match (top, is_flat(dist)) {
        (true, false) => TOP_TRIES,
        (true, true) if few || depth < flat_tried_levels(dist.host().node_count()) => {
            FLAT_FIRST_TRIES
        }
        (false, false) if hierarchy => lower,
        (false, false) if few => FEW_PARTS_TRIES,
        _ => 1,
    }
}

/// Whether every split of a guest of `vertices` onto `dist`'s host tries
/// [`FEW_PARTS_TRIES`] bisections (partitioning first, a one-level tleaf:
/// [`FLAT_FIRST_TRIES`]): a host of at most [`FEW_PARTS`] nodes that is a
/// grid, ring, cube or graph, or partitioning first into at most as many
/// parts, a guest above [`SMALL_GUEST`] vertices (a smaller one gets
/// several searches, and the parts' quotient graphs laid out on a halved
/// host are such) and at most [`LARGE`], at the default preset. Into few
/// parts each split carries a large share of the hop-bytes, and a split is
/// a few hundredths of a second.
fn few_parts(dist: &HostDistance, vertices: usize, preset: Preset) -> bool {
    let spec = dist.host().spec();
    let kind = is_flat(dist) || !spec.is_hierarchy();
    preset == Preset::Default
        && kind
        && dist.host().node_count() <= FEW_PARTS
        && (SMALL_GUEST + 1..=LARGE).contains(&vertices)
}

/// Whole bisections tried at a hierarchy's top level (the cheapest kept).
pub(super) const TOP_TRIES: u64 = 4;

/// Bisections tried for each half a look-ahead splits ([`super::look_ahead`],
/// [`super::Effort::Glance`]): one. Its quarters judge the try above them and are
/// then dropped; the try kept has its halves split again as every split is.
/// Split with [`TOP_TRIES`] each and kept, they made the first split of
/// tleaf:4x8x8 cost 20 whole-guest bisections where Scotch's costs one.
/// Benchmark (2026-12-02, one thread, seeds 1–3, against that): the 8
/// tleaf:4x8x8:100,10,1 pairs of `bench/mapper.sh` +0.11 % hop-bytes in
/// geometric mean (copter2 +0.7 %, the rest within ±0.3 %), 13.1 → 10.6 s
/// over them on seed 1; fat trees, a dragonfly and two other tleafs (6
/// pairs) −0.05 % in 13 % less time. One try kept as it is instead +0.47 %;
/// 3 tries at the top with the glance +0.9 %, 6 the same hop-bytes in the
/// old time.
pub(super) const AHEAD_TRIES: u64 = 1;

/// Whole bisections tried at a hierarchy's lower levels (sockets, cores).
/// Benchmark (8 tleaf pairs against KaHIP eco): 2 took 0.6–2 % off the
/// hop-bytes of 7 of them for 0.1 s each; 3 took little more.
const HIERARCHY_TRIES: u64 = 2;

/// [`HIERARCHY_TRIES`] at the fast preset ([`Preset::Fast`]). Benchmark
/// (2026-12-04, the 38 pairs of `bench/mapper.sh`, one thread, seed 1, the
/// other fast settings with 2 initial tries): 2 tries took 0.3 % off the
/// geometric mean (0.841x → 0.838x of Scotch's hop-bytes) for 3 % more time.
const FAST_HIERARCHY_TRIES: u64 = 1;

/// Whole bisections tried at the first split of partitioning first (a
/// one-level tleaf), one at every later split. Benchmark (38 pairs, seeds
/// 1–3, 2 cores): the best of 4 at every split, as at a hierarchy's top,
/// took 1.9 times Scotch's time for 1–2 % fewer hop-bytes over the set.
/// (2 at the first split was first kept for mdual, which since goes
/// through [`crate::mapper::multilevel`].) 1 try, measured again on 2026-12-01
/// over the 38 pairs and seeds 1–3: geometric means 0.7530, 0.7514 and
/// 0.7526 of Scotch's hop-bytes, against 0.7499, 0.7501 and 0.7493 with 2.
const FLAT_FIRST_TRIES: u64 = 2;

/// Most parts into which partitioning first tries [`FLAT_FIRST_TRIES`]
/// bisections at the first two levels of splits, not the first alone, and,
/// for a guest above [`SMALL_GUEST`] and up to [`LARGE`] vertices, at every
/// level ([`few_parts`]).
const FEW_PARTS: u64 = 64;

/// Bisections tried at every split of a guest above [`SMALL_GUEST`] and up
/// to [`LARGE`] vertices onto a host of at most [`FEW_PARTS`] nodes that is no
/// hierarchy (grids, rings, lines, cubes, host graphs; [`few_parts`]), as
/// partitioning first into as many parts tries [`FLAT_FIRST_TRIES`] at
/// every level. Onto such hosts a run was a draw of its splits: 4elt onto
/// ring:3 (every node beside every other, a 3-way partition) 287–291
/// hop-bytes over seeds 1–3 where Scotch's `-Cd -b0.03` gives 276.
/// Benchmark (2026-12-06, one thread, seeds 1–3, 4elt, delaunay_n15,
/// rgg_n_2_15_s0, butterfly_12 and copter2 onto ring:3, ring:5, line:6,
/// mesh:2x3, mesh:3x3, torus:3x3, mesh:3x4, torus:3x5, mesh:4x4, cube:4,
/// mesh:5x5 and torus:3x3x3, against the tries before): hop-bytes 0.8936x
/// → 0.8759x Scotch's in geometric mean, above it on 19 → 8 of the 180
/// runs, 28.9 → 37.9 s a seed (Scotch 12.8 s); onto cube:5, mesh:6x6,
/// torus:4x8, mesh:7x7, torus:6x8, ring:32 and line:48, 0.8970x →
/// 0.8713x, above on 9 of 105 before and after (butterfly_12 and copter2
/// by at most 3 %), 25.5 → 38.4 s (Scotch 8.6 s). Three tries: 0.8650x on
/// the first set in 47.5 s a seed, four 0.8647x in 63 s; four with the
/// first split onto a grid judged by its quarters, and a bipartitioning
/// beside partitioning first, 0.8542x in 103 s.
/// `bench/mapper-results.md` (2026-12-06, late night) has the table.
const FEW_PARTS_TRIES: u64 = 2;

/// Levels of splits, from the top, at which partitioning first into
/// `parts` parts keeps the better of [`FLAT_FIRST_TRIES`] bisections: 2 up
/// to [`FEW_PARTS`] parts, 1 above. Into few parts each of the first splits
/// carries a large share of the cut, and where it falls was the draw that
/// decided a run: delaunay_n15 onto cube:5 came out at 3 531–3 750
/// hop-bytes over seeds 1–4, above Scotch's 3 705 on seed 1 (a cut of
/// 3 362 edges against 3 204–3 234 on seeds 2 and 3), and at 3 475–3 593
/// with the second level tried twice. Benchmark (delaunay_n15,
/// rgg_n_2_15_s0, 4elt and bf10 onto cube:5, cube:6, mesh:4x4, mesh:3x7
/// and ring:16, seeds 1–4, one thread): the geometric mean of the 80
/// runs' hop-bytes 1.5 % lower, for one more bisection of the whole
/// guest; run by run a draw still (27 of them higher, rgg_n_2_15_s0 onto
/// mesh:4x4 1 853 → 1 408 on one seed and 1 407 → 1 566 on another). Into
/// 256 parts and more (the 38 pairs of `bench/mapper.sh`, seeds 1–3) the
/// same took 0.3 % off for 10 % more time on one thread, and is not done.
fn flat_tried_levels(parts: u64) -> u32 {
    if parts <= FEW_PARTS {
        2
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::{self, Tleaf};

    /// Partitioning first (a one-level tleaf) tries two bisections at the
    /// first level of splits, and at the second too into at most FEW_PARTS
    /// parts; one below. A hierarchy's own rule is kept: TOP_TRIES at its
    /// top level, HIERARCHY_TRIES below, at any depth.
    #[test]
    fn few_parts_try_two_levels_of_splits_twice() {
        let tried = |dist: &HostDistance, nodes: Vec<u64>, depth: u32| {
            let (d1, d2) = Domain::new(dist, nodes).split(dist).unwrap();
            bisections_tried(dist, (&d1, &d2), (depth, LARGE + 1), Preset::Default)
        };
        for (parts, levels) in [
            (2, 2),
            (21, 2),
            (FEW_PARTS, 2),
            (FEW_PARTS + 1, 1),
            (256, 1),
        ] {
            let flat = Tleaf::new(&[parts], &[1]);
            let dist = HostDistance::new(&flat).unwrap();
            assert_eq!(flat_tried_levels(parts), levels);
            for depth in 0..4 {
                let whole = (0..parts).collect();
                let expected = match depth < levels {
                    true => FLAT_FIRST_TRIES,
                    false => 1,
                };
                assert_eq!(
                    tried(&dist, whole, depth),
                    expected,
                    "{parts} parts, depth {depth}"
                );
            }
        }
        let host = Tleaf::new(&[4, 8], &[10, 1]);
        let dist = HostDistance::new(&host).unwrap();
        for depth in 0..4 {
            assert_eq!(tried(&dist, (0..32).collect(), depth), TOP_TRIES);
            assert_eq!(tried(&dist, (0..8).collect(), depth), HIERARCHY_TRIES);
            // The fast preset splits the lower levels once, the top as often.
            let (d1, d2) = Domain::new(&dist, (0..8).collect()).split(&dist).unwrap();
            let fast = bisections_tried(&dist, (&d1, &d2), (depth, 100), Preset::Fast);
            assert_eq!(fast, FAST_HIERARCHY_TRIES);
            let (d1, d2) = Domain::new(&dist, (0..32).collect()).split(&dist).unwrap();
            let fast = bisections_tried(&dist, (&d1, &d2), (depth, 100), Preset::Fast);
            assert_eq!(fast, TOP_TRIES);
        }
    }

    /// A guest above SMALL_GUEST and up to LARGE vertices onto a host of
    /// at most FEW_PARTS nodes that is no hierarchy tries every split
    /// FEW_PARTS_TRIES times, and partitioning first into as many parts
    /// FLAT_FIRST_TRIES times; a larger host, a smaller or larger guest,
    /// the fast preset and a hierarchy keep their own rules.
    #[test]
    fn few_parts_try_every_split() {
        let tried = |spec: &str, depth: u32, vertices: usize, preset: Preset| {
            let host = topology::parse(spec).unwrap();
            let dist = HostDistance::new(host.as_ref()).unwrap();
            let nodes = (0..host.node_count()).collect();
            let (d1, d2) = Domain::new(&dist, nodes).split(&dist).unwrap();
            bisections_tried(&dist, (&d1, &d2), (depth, vertices), preset)
        };
        for depth in 0..6 {
            for spec in ["ring:3", "mesh:3x3", "torus:4x4x4", "cube:6", "line:64"] {
                assert_eq!(tried(spec, depth, LARGE, Preset::Default), FEW_PARTS_TRIES);
                assert_eq!(tried(spec, depth, LARGE + 1, Preset::Default), 1);
                assert_eq!(tried(spec, depth, SMALL_GUEST, Preset::Default), 1);
                assert_eq!(tried(spec, depth, LARGE, Preset::Fast), 1);
            }
            for spec in ["ring:65", "torus:16x16", "cube:7"] {
                assert_eq!(tried(spec, depth, LARGE, Preset::Default), 1, "{spec}");
            }
            for parts in [2, 9, FEW_PARTS] {
                let spec = format!("tleaf:{parts}:1");
                let expected = tried(&spec, depth, LARGE, Preset::Default);
                assert_eq!(expected, FLAT_FIRST_TRIES, "{spec} at depth {depth}");
            }
            let spec = format!("tleaf:{}:1", FEW_PARTS + 1);
            let expected = match depth {
                0 => FLAT_FIRST_TRIES,
                _ => 1,
            };
            assert_eq!(tried(&spec, depth, LARGE, Preset::Default), expected);
            // A hierarchy keeps its own rule: TOP_TRIES at its top level.
            assert_eq!(
                tried("tleaf:2x4:10,1", depth, LARGE, Preset::Default),
                TOP_TRIES
            );
        }
    }
}
