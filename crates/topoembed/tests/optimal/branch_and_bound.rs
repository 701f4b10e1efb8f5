//! The branch and bound against a naive search on every small torus, rings, stopped searches, bad hosts, checkpoints.

#[allow(unused_imports)]
use super::*;
#[allow(unused_imports)]
use super::{bijections::*, certificates::*, lemmas::*, vectors::*};

/// The least Σ D_i by the plainest search: every injective assignment of
/// cube nodes 1, 2, .. to host nodes with cube node 0 on host node 0 (a
/// torus looks the same from every node; no other symmetry is used, the
/// distances are not ordered), D_i set by the first edge of dimension i and
/// every later edge checked against it.
pub(crate) fn naive(d: u32, host: &dyn Topology) -> Option<u64> {
    fn go(
        v: usize,
        d: usize,
        host: &dyn Topology,
        place: &mut Vec<u64>,
        dims: &mut Vec<Option<u64>>,
        best: &mut Option<u64>,
    ) {
        let n = 1usize << d;
        if v == n {
            let sum = dims
                .iter()
                .map(|x| x.expect("every dimension has an edge"))
                .sum();
            *best = Some(best.map_or(sum, |b: u64| b.min(sum)));
            return;
        }
        let first = if v == 0 { 0..1 } else { 0..host.node_count() };
        for u in first {
            if place[..v].contains(&u) {
                continue;
            }
            let mut set = Vec::new();
            let mut fits = true;
            for j in 0..d {
                if v >> j & 1 == 0 {
                    continue;
                }
                let dist = host.distance(u, place[v ^ (1 << j)]);
                match dims[j] {
                    Some(x) if x != dist => fits = false,
                    Some(_) => {}
                    None => {
                        dims[j] = Some(dist);
                        set.push(j);
                    }
                }
            }
            if fits {
                place[v] = u;
                go(v + 1, d, host, place, dims, best);
            }
            for j in set {
                dims[j] = None;
            }
        }
    }
    let mut best = None;
    let mut place = vec![0u64; 1 << d];
    let mut dims = vec![None; d as usize];
    go(0, d as usize, host, &mut place, &mut dims, &mut best);
    best
}

pub(crate) fn search(d: u32, host: &str) -> topoembed::optimal::Optimum {
    optimal_constant(d, &host.parse::<Spec>().unwrap(), &SearchOptions::default()).unwrap()
}

/// The map really is a bijection with constant distances D (in some order
/// of the dimensions) adding up to `min_sum`.
pub(crate) fn check_embedding(d: u32, host: &str, found: &topoembed::optimal::Optimum) {
    let h = topology::parse(host).unwrap();
    let n = 1usize << d;
    let mut seen = vec![false; n];
    for &x in &found.map {
        assert!(!seen[x as usize], "{host}: host node {x} used twice");
        seen[x as usize] = true;
    }
    let mut dims: Vec<u32> = (0..d)
        .map(|i| {
            let first = h.distance(found.map[0], found.map[1 << i]);
            for v in 0..n {
                let w = v ^ (1 << i);
                assert_eq!(
                    h.distance(found.map[v], found.map[w]),
                    first,
                    "{host}: dimension {i} at node {v}"
                );
            }
            first as u32
        })
        .collect();
    dims.sort_unstable();
    assert_eq!(dims, found.distances, "{host}");
    assert_eq!(dims.iter().sum::<u32>(), found.min_sum, "{host}");
}

#[test]
pub(crate) fn equals_the_naive_search_on_every_small_torus() {
    let hosts = [
        (1, "ring:2"),
        (2, "ring:4"),
        (2, "torus:2x2"),
        (3, "ring:8"),
        (3, "torus:2x4"),
        (3, "torus:4x2"),
        (3, "torus:2x2x2"),
        (4, "ring:16"),
        (4, "torus:4x4"),
        (4, "torus:2x8"),
        (4, "torus:8x2"),
        (4, "torus:2x2x4"),
        (4, "torus:4x2x2"),
        (4, "torus:2x2x2x2"),
    ];
    for (d, host) in hosts {
        let found = search(d, host);
        let h = topology::parse(host).unwrap();
        assert!(found.proved, "{host}");
        assert_eq!(
            Some(u64::from(found.min_sum)),
            naive(d, h.as_ref()),
            "{host}"
        );
        check_embedding(d, host, &found);
    }
}

#[test]
pub(crate) fn known_small_tori_and_xor_reaches_them() {
    for (d, host, sum) in [
        (4, "torus:4x4", 4),
        (5, "torus:8x4", 7),
        (6, "torus:8x8", 10),
        (7, "torus:16x8", 16),
    ] {
        let found = search(d, host);
        assert!(found.proved && found.xor_optimal, "{host}");
        assert_eq!((found.min_sum, found.xor_sum), (sum, sum), "{host}");
        assert!(found.standard_sum > sum, "{host}");
        check_embedding(d, host, &found);
    }
}

/// Theorem 10 of the xor paper: on ring:2^d the least Σ D_i is xor's,
/// 2^(d-1) + 2^(d-2) - 1.
#[test]
pub(crate) fn xor_is_optimal_on_rings() {
    for d in 2..=7u32 {
        let found = search(d, &format!("ring:{}", 1u64 << d));
        assert!(found.proved && found.xor_optimal, "d = {d}");
        assert_eq!(
            found.min_sum,
            (1 << (d - 1)) + (1 << (d - 2)) - 1,
            "d = {d}"
        );
    }
}

#[test]
pub(crate) fn a_stopped_search_is_not_proved() {
    let found = optimal_constant(
        7,
        &"torus:16x8".parse::<Spec>().unwrap(),
        &SearchOptions {
            node_limit: 2048,
            ..SearchOptions::default()
        },
    )
    .unwrap();
    assert!(!found.proved);
    // Still a valid embedding: the best known (xor's).
    assert_eq!(found.min_sum, found.xor_sum);
    check_embedding(7, "torus:16x8", &found);
    // What it proved is the counting bound, below the optimum 16, which a
    // whole search states as its bound.
    assert!(found.lower_bound >= 1 && found.lower_bound < 16);
    assert_eq!(search(7, "torus:16x8").lower_bound, 16);
}

/// A stopped search states what it did prove: the search by vectors, the
/// least sum with a candidate vector it has not refuted (the oracle: the
/// candidate list against the refutations it returns). Never above the
/// optimum, the optimum itself once proved (the branch and bound's:
/// `a_stopped_search_is_not_proved`), and on one thread never lower for
/// a larger limit.
#[test]
pub(crate) fn a_stopped_search_states_its_proved_lower_bound() {
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    for (d, host, optimum) in [(8, "torus:16x16", 22), (6, "ring:64", 47)] {
        let spec: Spec = host.parse().unwrap();
        let candidates =
            topoembed::optimal::vectors::candidate_vectors(d, &spec, Bounds::Counting).unwrap();
        let mut last = 0;
        for limit in [1, 2, 3, 5, 10, 20, 30, 50, 100, 0] {
            let options = SearchOptions {
                node_limit: limit,
                ..SearchOptions::default()
            };
            let by = one_thread.install(|| {
                optimal_by_vectors(d, &spec, &options, None, Turns::DEFAULT, Bounds::Counting)
                    .unwrap()
            });
            let found = by.optimum;
            let refuted: Vec<&Vec<u32>> = by.refuted.iter().map(|r| &r.distances).collect();
            let expected = candidates
                .iter()
                .find(|v| !refuted.contains(v))
                .map_or(optimum, |v| v.iter().sum::<u32>().min(optimum));
            assert_eq!(found.lower_bound, expected, "{host}, limit {limit}");
            assert!(found.lower_bound <= optimum && found.lower_bound >= last);
            assert_eq!(
                found.proved,
                found.lower_bound == optimum,
                "{host}, limit {limit}"
            );
            last = found.lower_bound;
        }
        assert_eq!(last, optimum);
    }
}

#[test]
pub(crate) fn bad_hosts_are_refused_with_a_reason() {
    let err = |d: u32, host: &str| {
        optimal_constant(d, &host.parse::<Spec>().unwrap(), &SearchOptions::default())
            .unwrap_err()
            .to_string()
    };
    assert!(err(4, "torus:4x3").contains("not a power of two"));
    assert!(err(4, "torus:4x8").contains("cube:4 has 16 nodes but torus:4x8 has 32"));
    assert!(err(13, "ring:8192").contains("d from 1 to 12"));
    assert!(err(4, "mesh:4x4").contains("rings and tori"));
}

/// A search stopped with a checkpoint goes on from it: the same answer,
/// proved, after about as many nodes as one run (the path to the stopping
/// point is walked again); the finished search removes its checkpoint, and
/// a checkpoint of another pair or a file that is not one is refused.
#[test]
pub(crate) fn checkpoints_resume_where_the_search_stopped() {
    let dir = std::env::temp_dir().join(format!("topoembed-optimal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("search.json");
    // A file left by an earlier process of the same id is not this run's.
    let _ = std::fs::remove_file(&path);
    let host: Spec = "torus:16x8".parse().unwrap();
    let whole = optimal_constant(7, &host, &SearchOptions::default()).unwrap();
    let stopped = optimal_constant(
        7,
        &host,
        &SearchOptions {
            node_limit: whole.nodes_searched / 3,
            checkpoint: Some(&path),
            ..SearchOptions::default()
        },
    )
    .unwrap();
    assert!(!stopped.proved && path.exists());
    // Written through a temporary file beside it, gone once renamed.
    assert!(!dir.join("search.json.tmp").exists() && !dir.join("search.tmp").exists());
    let resumed = optimal_constant(
        7,
        &host,
        &SearchOptions {
            checkpoint: Some(&path),
            ..SearchOptions::default()
        },
    )
    .unwrap();
    assert!(resumed.proved);
    assert_eq!(resumed.min_sum, whole.min_sum);
    let extra = resumed.nodes_searched - whole.nodes_searched;
    assert!(extra <= 128, "the resumed search redid {extra} nodes");
    assert!(!path.exists(), "a finished search leaves no checkpoint");
    // Another pair's checkpoint, and a file that is not one.
    optimal_constant(
        7,
        &host,
        &SearchOptions {
            node_limit: 2048,
            checkpoint: Some(&path),
            ..SearchOptions::default()
        },
    )
    .unwrap();
    let other = optimal_constant(
        7,
        &"ring:128".parse::<Spec>().unwrap(),
        &SearchOptions {
            checkpoint: Some(&path),
            ..SearchOptions::default()
        },
    )
    .unwrap_err();
    assert!(
        other
            .to_string()
            .contains("a checkpoint of cube:7 -> torus:16x8"),
        "{other}"
    );
    std::fs::write(&path, "not json").unwrap();
    let garbage = optimal_constant(
        7,
        &host,
        &SearchOptions {
            checkpoint: Some(&path),
            ..SearchOptions::default()
        },
    )
    .unwrap_err();
    assert!(
        garbage.to_string().contains("not a checkpoint"),
        "{garbage}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
