//! The exact search for the least Σ D_i over constant-distance embeddings:
//! equal to a naive search on every ring and torus with at most 16 nodes,
//! the known small tori (4x4, 8x4, 8x8, 16x8: 4, 7, 10, 16), the ring
//! theorem (xor optimal, xor paper Theorem 10), embeddings that really have
//! the distances reported, and bad input.

use topoembed::optimal::vectors::PROOF_BUDGET;
use topoembed::optimal::{certificate, optimal_by_vectors, Bounds, Refuted, Turns};
use topoembed::optimal::{estimate_nodes, optimal_constant, SearchOptions, ESTIMATE_PROBES};
use topoembed::spec::Spec;
use topoembed::topology::{self, Topology};

/// The least Σ D_i by the plainest search: every injective assignment of
/// cube nodes 1, 2, .. to host nodes with cube node 0 on host node 0 (a
/// torus looks the same from every node; no other symmetry is used, the
/// distances are not ordered), D_i set by the first edge of dimension i and
/// every later edge checked against it.
fn naive(d: u32, host: &dyn Topology) -> Option<u64> {
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

fn search(d: u32, host: &str) -> topoembed::optimal::Optimum {
    optimal_constant(d, &host.parse::<Spec>().unwrap(), &SearchOptions::default()).unwrap()
}

/// The map really is a bijection with constant distances D (in some order
/// of the dimensions) adding up to `min_sum`.
fn check_embedding(d: u32, host: &str, found: &topoembed::optimal::Optimum) {
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
fn equals_the_naive_search_on_every_small_torus() {
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
fn known_small_tori_and_xor_reaches_them() {
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
fn xor_is_optimal_on_rings() {
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
fn a_stopped_search_is_not_proved() {
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
fn a_stopped_search_states_its_proved_lower_bound() {
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
fn bad_hosts_are_refused_with_a_reason() {
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
fn checkpoints_resume_where_the_search_stopped() {
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

/// The communication time of every bijection of cube:d onto `host` by the
/// recurrence of the library's model (waiting included), the least of them:
/// all (2^d)! placements, d ≤ 3.
fn naive_bijection(d: u32, host: &str) -> u64 {
    use topoembed::io::Mapping;
    use topoembed::model::cc_recurrence;
    fn permutations(rest: &mut Vec<u64>, k: usize, out: &mut dyn FnMut(&[u64])) {
        if k == rest.len() {
            out(rest);
            return;
        }
        for j in k..rest.len() {
            rest.swap(k, j);
            permutations(rest, k + 1, out);
            rest.swap(k, j);
        }
    }
    let h = topology::parse(host).unwrap();
    let mut best = u64::MAX;
    let mut all: Vec<u64> = (0..1u64 << d).collect();
    permutations(&mut all, 0, &mut |p| {
        let r = cc_recurrence(d, &Mapping::new(p.to_vec()), h.as_ref(), None).unwrap();
        best = best.min(r.communication);
    });
    best
}

#[test]
fn all_bijections_equal_the_naive_search_and_constant_distances_win_small_cubes() {
    use topoembed::optimal::optimal_bijection;
    for (d, host) in [
        (2, "ring:4"),
        (2, "torus:2x2"),
        (3, "ring:8"),
        (3, "torus:4x2"),
        (3, "torus:2x2x2"),
    ] {
        let found = optimal_bijection(d, &host.parse::<Spec>().unwrap(), &SearchOptions::default())
            .unwrap();
        assert!(found.proved, "{host}");
        assert_eq!(found.min_communication, naive_bijection(d, host), "{host}");
        // The map given reaches the time reported.
        let h = topology::parse(host).unwrap();
        let r = topoembed::model::cc_recurrence(
            d,
            &topoembed::io::Mapping::new(found.map.clone()),
            h.as_ref(),
            None,
        )
        .unwrap();
        assert_eq!(r.communication, found.min_communication, "{host}");
    }
}

/// The search over all bijections counts its branches on cube nodes 1 and
/// 2 as progress (all of them when it completes), and a set stop flag ends
/// it unproved.
#[test]
fn all_bijections_show_progress_and_stop_on_their_flag() {
    use std::sync::atomic::AtomicBool;
    use topoembed::optimal::optimal_bijection;
    use topoembed::Progress;
    let host: Spec = "ring:16".parse().unwrap();
    let progress = Progress::new();
    let options = SearchOptions {
        progress: Some(&progress),
        ..SearchOptions::default()
    };
    let found = optimal_bijection(4, &host, &options).unwrap();
    assert!(found.proved);
    // Node 1 on one node per orbit (1..=8 of the ring's reflections), node
    // 2 on any of the 14 others.
    assert_eq!(progress.get(), (8 * 14, 8 * 14));
    let stop = AtomicBool::new(true);
    let options = SearchOptions {
        stop: Some(&stop),
        ..SearchOptions::default()
    };
    let stopped = optimal_bijection(5, &"ring:32".parse().unwrap(), &options).unwrap();
    assert!(!stopped.proved);
    assert!(stopped.nodes_searched <= 1024, "{}", stopped.nodes_searched);
}

/// A search over all bijections stopped with a checkpoint goes on from it
/// to the same answer, and removes it when done; a checkpoint of another
/// host or of the other search is refused.
#[test]
fn all_bijections_resume_from_their_checkpoint() {
    use topoembed::optimal::optimal_bijection;
    let dir = scratch("bijection-checkpoint");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("ring16.json");
    let host: Spec = "ring:16".parse().unwrap();
    let whole = optimal_bijection(4, &host, &SearchOptions::default()).unwrap();
    let with = |node_limit: u64| SearchOptions {
        node_limit,
        checkpoint: Some(&file),
        ..SearchOptions::default()
    };
    // Stopped inside the branches of one node 1 (some of its branches on
    // node 2 finished, not all), where a resumed run skips part of a group.
    let (stopped, saved) = (1..whole.nodes_searched)
        .step_by(5)
        .find_map(|limit| {
            let _ = std::fs::remove_file(&file);
            let stopped = optimal_bijection(4, &host, &with(limit)).unwrap();
            let saved: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&file).ok()?).unwrap();
            (saved["done"][1] != 65535).then_some((stopped, saved))
        })
        .expect("a stop inside a group");
    assert!(!stopped.proved);
    assert_eq!(saved["search"], "all-bijections");
    let before = saved["nodes"].as_u64().unwrap();
    assert!(before > 0 && before <= stopped.nodes_searched);
    let progress = topoembed::Progress::new();
    let resumed = optimal_bijection(
        4,
        &host,
        &SearchOptions {
            progress: Some(&progress),
            ..with(0)
        },
    )
    .unwrap();
    assert!(resumed.proved);
    // Every branch counted once, the finished ones too.
    assert_eq!(progress.get(), (8 * 14, 8 * 14));
    assert_eq!(resumed.min_communication, whole.min_communication);
    // It went on: the branches finished before were not searched again,
    // only the one cut short, so the whole count is the search's.
    assert!(resumed.nodes_searched - before < whole.nodes_searched);
    assert!(resumed.nodes_searched >= whole.nodes_searched);
    assert!(!file.exists());
    // Another host's checkpoint, and the constant-distance search's.
    let stopped = optimal_bijection(4, &host, &with(100)).unwrap();
    assert!(!stopped.proved);
    let other = optimal_bijection(4, &"torus:8x2".parse().unwrap(), &with(0));
    assert!(other
        .unwrap_err()
        .to_string()
        .contains("not cube:4 -> torus:8x2"));
    std::fs::write(&file, r#"{"guest":"cube:4","host":"ring:16","best":11}"#).unwrap();
    let wrong = optimal_bijection(4, &host, &with(0));
    assert!(wrong.unwrap_err().to_string().contains("--all-bijections"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The published least wirelength (cited, not used by the searches) agrees
/// with every optimum the searches prove: Σ D_i · 2^(d−1) is an embedding's
/// wirelength, so the proved optimum is at least the cited bound, and xor's
/// map, summed edge by edge, reaches the cited wirelength exactly. The all
/// bijections search never goes below it either.
#[test]
fn the_cited_wirelength_agrees_with_every_proved_optimum() {
    use topoembed::optimal::{literature, optimal_bijection};
    for (d, host) in [
        (2, "ring:4"),
        (3, "ring:8"),
        (3, "torus:4x2"),
        (4, "ring:16"),
        (4, "torus:4x4"),
        (4, "torus:8x2"),
        (5, "torus:8x4"),
        (5, "torus:4x4x2"),
        (5, "torus:8x2x2"),
        (5, "torus:4x2x2x2"),
        (5, "torus:2x2x2x2x2"),
        (6, "ring:64"),
        (6, "torus:8x8"),
        (6, "torus:16x4"),
        (7, "torus:16x8"),
        (7, "torus:8x4x4"),
    ] {
        let found = search(d, host);
        assert!(found.proved, "{host}");
        assert_eq!(u64::from(found.min_sum), found.literature.min_sum, "{host}");
        let spec: Spec = host.parse().unwrap();
        assert_eq!(found.literature, literature(d, &spec).unwrap(), "{host}");
        let h = topology::parse(host).unwrap();
        let guest = topology::parse(&format!("cube:{d}")).unwrap();
        let xor = topoembed::embed::build("xor", guest.as_ref(), h.as_ref()).unwrap();
        let wirelength: u64 = (0..1u64 << d)
            .flat_map(|x| (0..d).map(move |i| (x, x ^ 1 << i)))
            .filter(|(x, y)| x < y)
            .map(|(x, y)| h.distance(xor.map(x), xor.map(y)))
            .sum();
        assert_eq!(wirelength, found.literature.min_wirelength, "{host}");
        if d <= 5 {
            let all = optimal_bijection(d, &spec, &SearchOptions::default()).unwrap();
            assert!(
                all.proved && all.min_communication >= all.literature.min_sum,
                "{host}"
            );
        }
    }
}

/// Knuth's estimate of the search tree is within a small factor of the
/// nodes the search visits (it leans on the start's bound, which the search
/// reaches early), is the same on every call, and refuses what the search
/// refuses.
#[test]
fn the_size_estimate_is_near_the_search() {
    for (d, host) in [
        (6, "torus:16x4"),
        (7, "torus:16x8"),
        (7, "ring:128"),
        (8, "torus:16x16"),
    ] {
        let spec: Spec = host.parse().unwrap();
        let estimate = estimate_nodes(d, &spec, ESTIMATE_PROBES).unwrap();
        assert_eq!(estimate, estimate_nodes(d, &spec, ESTIMATE_PROBES).unwrap());
        let searched = optimal_constant(d, &spec, &SearchOptions::default())
            .unwrap()
            .nodes_searched as f64;
        let ratio = estimate / searched;
        assert!(
            (0.2..=5.0).contains(&ratio),
            "cube:{d} on {host}: estimate {estimate}, searched {searched}"
        );
    }
    assert!(estimate_nodes(13, &"torus:128x64".parse().unwrap(), 10).is_err());
    assert!(estimate_nodes(6, &"torus:8x4".parse().unwrap(), 10).is_err());
}

/// A fresh directory under the system's temporary one.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("topoembed-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Solves by vectors with a certificate in `dir`, every vector by SAT.
fn certify(
    d: u32,
    host: &str,
    dir: &std::path::Path,
    bounds: Bounds,
) -> topoembed::optimal::VectorSearch {
    let host: Spec = host.parse().unwrap();
    let found = optimal_by_vectors(
        d,
        &host,
        &SearchOptions::default(),
        Some(dir),
        Turns::SOLVER_ONLY,
        bounds,
    )
    .unwrap();
    certificate::write(dir, &found).unwrap();
    found
}

#[test]
fn the_solver_by_vectors_equals_the_branch_and_bound() {
    // Turns too small for either to decide at first: both take several
    // turns, with budgets growing until one decides.
    let tight = Turns {
        search_nodes: 1,
        proof_bytes: 1,
    };
    // The branch and bound's turns only (with no proof budget the solver
    // takes no turn).
    let searching = Turns {
        search_nodes: 1,
        proof_bytes: 0,
    };
    // The solver's first turn decides what one search node cannot.
    let solving = Turns {
        search_nodes: 1,
        proof_bytes: PROOF_BUDGET,
    };
    // How each set of turns refuted vectors: "search" or "drat".
    let mut refuted_by = std::collections::HashSet::new();
    for (d, host) in [
        (3, "ring:8"),
        (4, "ring:16"),
        (4, "torus:4x4"),
        (4, "torus:2x2x4"),
        (5, "ring:32"),
        (5, "torus:8x4"),
        (6, "torus:4x4x4"),
        (6, "torus:16x4"),
        (6, "torus:8x8"),
    ] {
        let spec: Spec = host.parse().unwrap();
        let expected = search(d, host).min_sum;
        for (budget, bounds) in [
            (Turns::SOLVER_ONLY, Bounds::Counting),
            (Turns::DEFAULT, Bounds::Counting),
            (tight, Bounds::Counting),
            (searching, Bounds::Counting),
            (solving, Bounds::Counting),
            (Turns::SEARCH_ONLY, Bounds::Counting),
            (Turns::SEARCH_ONLY, Bounds::Lift),
            (Turns::SOLVER_ONLY, Bounds::SmallCubes),
            (Turns::SOLVER_ONLY, Bounds::All),
            (Turns::SOLVER_ONLY, Bounds::Lift),
        ] {
            let options = SearchOptions::default();
            let by = optimal_by_vectors(d, &spec, &options, None, budget, bounds).unwrap();
            for r in &by.refuted {
                refuted_by.insert((budget, r.by.clone()));
            }
            let b = by.optimum;
            assert!(b.proved, "{host}");
            assert_eq!(b.min_sum, expected, "{host} {bounds:?}");
            check_embedding(d, host, &b);
        }
    }
    let used = |turns: Turns, by: &str| refuted_by.contains(&(turns, by.to_string()));
    assert!(used(Turns::SOLVER_ONLY, "drat") && !used(Turns::SOLVER_ONLY, "search"));
    assert!(used(searching, "search") && !used(searching, "drat"));
    assert!(used(Turns::SEARCH_ONLY, "search") && !used(Turns::SEARCH_ONLY, "drat"));
    assert!(used(solving, "drat"));
    assert!(used(tight, "search"));
}

/// Writes the certificate index `original` of `dir` edited by `f`, and
/// returns why the check rejects it (it must).
fn rejection(dir: &std::path::Path, original: &str, f: &dyn Fn(&mut serde_json::Value)) -> String {
    let mut c: serde_json::Value = serde_json::from_str(original).unwrap();
    f(&mut c);
    std::fs::write(dir.join("certificate.json"), c.to_string()).unwrap();
    certificate::verify(dir, false)
        .map(|_| ())
        .unwrap_err()
        .to_string()
}

#[test]
fn a_certificate_checks_and_tampered_ones_are_rejected() {
    let dir = scratch("certificate");
    // ring:32: 23 (Theorem 10), with vectors below it that only the solver rules out.
    let found = certify(5, "ring:32", &dir, Bounds::Counting);
    assert_eq!(found.optimum.min_sum, 23);
    assert!(!found.refuted.is_empty());
    let v = certificate::verify(&dir, true).unwrap();
    assert_eq!((v.min_sum, v.by_proofs as usize), (23, found.refuted.len()));
    assert!(v.lemmas > 0 && v.by_bounds > 0);
    // The formulas were written for other checkers.
    let first = &found.refuted[0];
    let cnf = dir.join(
        first
            .proof
            .replace("proofs/", "formulas/")
            .replace(".drat", ".cnf"),
    );
    assert!(std::fs::read_to_string(cnf).unwrap().starts_with("p cnf "));

    let index = dir.join("certificate.json");
    let original = std::fs::read_to_string(&index).unwrap();
    let edit = |f: &dyn Fn(&mut serde_json::Value)| rejection(&dir, &original, f);
    // A refutation left out.
    let e = edit(&|c| {
        c["refuted"].as_array_mut().unwrap().remove(0);
    });
    assert!(e.contains("not refuted"), "{e}");
    // A claimed optimum below the truth: its own vector is not refuted.
    let e = edit(&|c| {
        c["min_sum"] = 22.into();
    });
    assert!(e.contains("rejected"), "{e}");
    // An embedding that is not one: two cube nodes swapped.
    let e = edit(&|c| {
        let map = c["map"].as_array_mut().unwrap();
        map.swap(1, 2);
    });
    assert!(e.contains("long") || e.contains("distances"), "{e}");
    // A refutation the certificate cannot back: the branch and bound's.
    let e = edit(&|c| {
        c["refuted"][0]["by"] = "search".into();
    });
    assert!(e.contains("DRAT proofs only"), "{e}");
    std::fs::write(&index, &original).unwrap();
    // The longest proof (its formula is not refuted by unit propagation
    // alone: a short formula may be, and then any proof passes) cut short,
    // then emptied.
    let longest = found.refuted.iter().max_by_key(|r| r.proof_bytes).unwrap();
    let proof = dir.join(&longest.proof);
    let bytes = std::fs::read(&proof).unwrap();
    for cut in [bytes.len() / 2, 0] {
        std::fs::write(&proof, &bytes[..cut]).unwrap();
        let e = certificate::verify(&dir, false).unwrap_err().to_string();
        assert!(e.contains("fails"), "{e}");
    }
    std::fs::write(&proof, &bytes).unwrap();
    assert!(certificate::verify(&dir, false).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_certificate_by_the_branch_and_bound_cites_core_proofs_and_tampered_ones_fail() {
    // ring:64 under the counting bounds: 3 622 vectors below xor's 47,
    // every one refuted by the branch and bound through a core, each core
    // proved once by the core search.
    let dir = scratch("certificate-cores");
    let host: Spec = "ring:64".parse().unwrap();
    let options = SearchOptions::default();
    let found = optimal_by_vectors(
        6,
        &host,
        &options,
        Some(&dir),
        Turns::SEARCH_ONLY,
        Bounds::Counting,
    )
    .unwrap();
    certificate::write(&dir, &found).unwrap();
    assert_eq!(found.optimum.min_sum, 47);
    let cited: Vec<&Refuted> = found
        .refuted
        .iter()
        .filter(|r| !r.core.is_empty())
        .collect();
    assert_eq!(cited.len(), found.refuted.len());
    assert!(found.refuted.iter().all(|r| r.by == "drat"));
    let cores: std::collections::HashSet<&[u32]> =
        cited.iter().map(|r| r.core.as_slice()).collect();
    // Fewer proofs than vectors: one per core, and the proof bytes counted once each.
    assert_eq!(found.proofs, cores.len());
    assert!(found.proofs < found.refuted.len() / 10);
    let drat = |dir: &std::path::Path| {
        std::fs::read_dir(dir.join("proofs"))
            .unwrap()
            .filter(|f| f.as_ref().unwrap().path().extension().unwrap() == "drat")
            .count()
    };
    assert_eq!(drat(&dir), found.proofs);
    let v = certificate::verify(&dir, true).unwrap();
    assert_eq!(v.by_proofs as usize, found.refuted.len());
    assert_eq!(
        (v.by_cores as usize, v.cores as usize),
        (cited.len(), cores.len())
    );
    // Those of 4 distances and more cite lex-leader clauses, each checked.
    assert!(v.lex_leader_clauses > 0);

    let index = dir.join("certificate.json");
    let original = std::fs::read_to_string(&index).unwrap();
    let edit = |f: &dyn Fn(&mut serde_json::Value)| rejection(&dir, &original, f);
    // A core the vector does not hold.
    let e = edit(&|c| {
        let r = &mut c["refuted"][0];
        let top = r["distances"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .max();
        r["core"] = serde_json::json!([top.unwrap() + 1]);
    });
    assert!(e.contains("does not hold"), "{e}");
    // Two vectors citing one proof for different cores.
    let (a, b) = (
        cited[0],
        cited.iter().find(|r| r.core != cited[0].core).unwrap(),
    );
    let e = edit(&|c| {
        for r in c["refuted"].as_array_mut().unwrap() {
            if r["distances"] == serde_json::json!(b.distances) {
                r["proof"] = a.proof.clone().into();
            }
        }
    });
    assert!(e.contains("same proof"), "{e}");
    // A lemma's mark on a core's refutations (on one citation only: the
    // citations differ; on all: a core's formula takes no lemma).
    let e = edit(&|c| {
        c["refuted"][0]["windings"] = true.into();
    });
    assert!(e.contains("same proof"), "{e}");
    let e = edit(&|c| {
        for r in c["refuted"].as_array_mut().unwrap() {
            if r["proof"] == serde_json::json!(a.proof) {
                r["windings"] = true.into();
            }
        }
    });
    assert!(e.contains("takes none"), "{e}");
    // Its core dropped: the proof is checked against the whole vector's
    // formula, which it does not refute.
    let e = edit(&|c| {
        for r in c["refuted"].as_array_mut().unwrap() {
            if r["proof"] == serde_json::json!(a.proof) {
                r["core"] = serde_json::json!([]);
                break;
            }
        }
    });
    assert!(e.contains("fails") || e.contains("same proof"), "{e}");
    std::fs::write(&index, &original).unwrap();
    // The longest core proof cut to its first step (a clause the search
    // wrote at its first dead end: it refutes nothing alone).
    let longest = cited.iter().max_by_key(|r| r.proof_bytes).unwrap();
    let proof = dir.join(&longest.proof);
    let bytes = std::fs::read(&proof).unwrap();
    let first_step = bytes.iter().position(|&b| b == 0).unwrap() + 1;
    assert!(first_step < bytes.len());
    std::fs::write(&proof, &bytes[..first_step]).unwrap();
    let e = certificate::verify(&dir, false).unwrap_err().to_string();
    assert!(e.contains("fails"), "{e}");
    std::fs::write(&proof, &bytes).unwrap();
    assert!(certificate::verify(&dir, false).is_ok());

    // Some cores' proofs cite lex-leader clauses, each with the symmetry
    // that justifies it; without them, or with one altered, the
    // certificate fails.
    let shapes = std::fs::read_dir(dir.join("proofs"))
        .unwrap()
        .map(|f| f.unwrap().path())
        .filter(|p| p.extension().unwrap() == "shapes")
        .max_by_key(|p| std::fs::metadata(p).unwrap().len())
        .expect("a core proof citing lex-leader clauses");
    let text = std::fs::read_to_string(&shapes).unwrap();
    let first = text.lines().next().unwrap();
    let fields: Vec<&str> = first.split_whitespace().collect();
    let level = fields[2].split(',').count();
    let tampered = [
        // Gone: the proof uses them.
        None,
        // A translation outside its level.
        Some(format!("{} {}", 1 << level, fields[1..].join(" "))),
        // A literal left out.
        Some(format!(
            "{} {}",
            fields[..3].join(" "),
            fields[4..].join(" ")
        )),
    ];
    for line in tampered {
        match &line {
            None => std::fs::remove_file(&shapes).unwrap(),
            Some(line) => std::fs::write(&shapes, text.replacen(first, line, 1)).unwrap(),
        }
        let e = certificate::verify(&dir, false).unwrap_err().to_string();
        assert!(e.contains("fails"), "{line:?}: {e}");
        if line.is_some() {
            assert!(e.contains("lex-leader clause"), "{line:?}: {e}");
        }
    }
    std::fs::write(&shapes, &text).unwrap();
    assert!(certificate::verify(&dir, false).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_certificate_stopped_by_its_flag_keeps_what_it_decided() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let dir = scratch("certificate-flag");
    // ring:64 under `counting`: 3 622 vectors below xor's 47, each refuted
    // by the solver (a few seconds in all).
    let host: Spec = "ring:64".parse().unwrap();
    let run = |stop: Option<&AtomicBool>| {
        let options = SearchOptions {
            stop,
            ..SearchOptions::default()
        };
        optimal_by_vectors(
            6,
            &host,
            &options,
            Some(&dir),
            Turns::SOLVER_ONLY,
            Bounds::Counting,
        )
        .unwrap()
    };
    // Set before the search: nothing decided, the bound is the first sum
    // with a vector, and the partial list is written (empty).
    let stop = AtomicBool::new(true);
    let none = run(Some(&stop));
    assert!(!none.optimum.proved);
    assert_eq!((none.optimum.nodes_searched, none.refuted.len()), (0, 0));
    assert!(none.optimum.lower_bound < 47);
    assert!(dir.join(topoembed::optimal::vectors::PARTIAL).exists());
    // Set while the solver works: whatever was decided is kept (no proof
    // file of a vector left undecided remains), and the next run goes on.
    let stop = AtomicBool::new(false);
    let stopped = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(300));
            stop.store(true, Ordering::Relaxed);
        });
        run(Some(&stop))
    });
    let proofs = std::fs::read_dir(dir.join("proofs")).unwrap().count();
    assert_eq!(proofs, stopped.refuted.len());
    let rest = run(None);
    assert!(rest.optimum.proved);
    assert_eq!((rest.optimum.min_sum, rest.refuted.len()), (47, 3622));
    if !stopped.optimum.proved {
        // The second run decides only what the first left.
        assert_eq!(
            rest.optimum.nodes_searched as usize,
            3622 - stopped.refuted.len()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_stopped_certificate_goes_on_from_where_it_stopped() {
    let dir = scratch("certificate-resume");
    let host: Spec = "ring:32".parse().unwrap();
    let limited = SearchOptions {
        node_limit: 5,
        ..SearchOptions::default()
    };
    let first = optimal_by_vectors(
        5,
        &host,
        &limited,
        Some(&dir),
        Turns::SOLVER_ONLY,
        Bounds::Counting,
    )
    .unwrap();
    assert!(!first.optimum.proved);
    assert!(dir.join(topoembed::optimal::vectors::PARTIAL).exists());
    let before = first.refuted.len();
    assert!(before >= 5);
    // Its certificate proves the lower bound it reached, and no more.
    certificate::write(&dir, &first).unwrap();
    let partial = certificate::verify(&dir, false).unwrap();
    assert!(!partial.complete);
    assert_eq!(
        (partial.lower_bound, partial.min_sum),
        (first.optimum.lower_bound, 23)
    );
    assert!(partial.lower_bound < 23 && partial.by_proofs > 0);
    let index = dir.join("certificate.json");
    let text = std::fs::read_to_string(&index).unwrap();
    let claim = format!("\"lower_bound\": {}", partial.lower_bound);
    assert!(text.contains(&claim), "{text}");
    for (higher, why) in [(23, "below the lower bound"), (24, "above the sum")] {
        std::fs::write(
            &index,
            text.replace(&claim, &format!("\"lower_bound\": {higher}")),
        )
        .unwrap();
        let e = certificate::verify(&dir, false).unwrap_err().to_string();
        assert!(e.contains(why), "{e}");
    }
    // The rest, without the vectors already refuted.
    let rest = optimal_by_vectors(
        5,
        &host,
        &SearchOptions::default(),
        Some(&dir),
        Turns::SOLVER_ONLY,
        Bounds::Counting,
    )
    .unwrap();
    assert!(rest.optimum.proved);
    assert_eq!(rest.optimum.min_sum, 23);
    assert!(rest.optimum.nodes_searched < rest.refuted.len() as u64);
    assert!(!dir.join(topoembed::optimal::vectors::PARTIAL).exists());
    certificate::write(&dir, &rest).unwrap();
    let whole_dir = scratch("certificate-whole");
    let whole = certify(5, "ring:32", &whole_dir, Bounds::Counting);
    let _ = std::fs::remove_dir_all(&whole_dir);
    assert_eq!(rest.refuted.len(), whole.refuted.len());
    let complete = certificate::verify(&dir, false).unwrap();
    assert!(complete.complete);
    assert_eq!((complete.lower_bound, complete.min_sum), (23, 23));
    // Another host's partial list is refused.
    std::fs::write(
        dir.join(topoembed::optimal::vectors::PARTIAL),
        r#"{"guest":"cube:5","host":"torus:8x4","refuted":[]}"#,
    )
    .unwrap();
    let e = optimal_by_vectors(
        5,
        &host,
        &SearchOptions::default(),
        Some(&dir),
        Turns::SOLVER_ONLY,
        Bounds::Counting,
    )
    .unwrap_err();
    assert!(e.to_string().contains("torus:8x4"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_ring_theorem_holds_by_the_bounds_for_every_d() {
    // Theorem 10 for d = 2..=12: with the small cubes and the ring lemma,
    // nothing below xor's 3·2^(d−2) − 1 is left for the solver, and the
    // checker, with its own code, agrees.
    for d in 2..=12u32 {
        let dir = scratch(&format!("ring-{d}"));
        let found = certify(d, &format!("ring:{}", 1u32 << d), &dir, Bounds::Lift);
        assert_eq!(found.optimum.min_sum, 3 * (1 << (d - 2)) - 1, "d = {d}");
        assert!(found.optimum.xor_optimal && found.refuted.is_empty());
        let v = certificate::verify(&dir, false).unwrap();
        assert_eq!(
            (v.min_sum, v.by_proofs, v.bounds.as_str()),
            (found.optimum.min_sum, 0, "lift")
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_certificate_holds_only_with_the_bounds_it_names() {
    // ring:64: the small cubes leave 16 vectors below 47, the ring lemma none.
    let dir = scratch("certificate-bounds");
    let found = certify(6, "ring:64", &dir, Bounds::Lift);
    assert!(found.refuted.is_empty());
    let index = dir.join("certificate.json");
    let original = std::fs::read_to_string(&index).unwrap();
    for weaker in ["small-cubes", "counting"] {
        let mut c: serde_json::Value = serde_json::from_str(&original).unwrap();
        c["bounds"] = weaker.into();
        std::fs::write(&index, c.to_string()).unwrap();
        let e = certificate::verify(&dir, false).unwrap_err().to_string();
        assert!(e.contains("not refuted"), "{weaker}: {e}");
    }
    let mut c: serde_json::Value = serde_json::from_str(&original).unwrap();
    c["bounds"] = "everything".into();
    std::fs::write(&index, c.to_string()).unwrap();
    assert!(certificate::verify(&dir, false).is_err());
    let _ = std::fs::remove_dir_all(&dir);
    // torus:16x8: the small cubes rule 4 of 13 vectors out, the solver the rest.
    let dir = scratch("certificate-small-cubes");
    let small = certify(7, "torus:16x8", &dir, Bounds::SmallCubes);
    assert!(!small.refuted.is_empty());
    let v = certificate::verify(&dir, false).unwrap();
    assert_eq!((v.min_sum, v.bounds.as_str()), (16, "small-cubes"));
    // The lift lemma leaves torus:16x8 nothing to refute; the lemmas as
    // first published leave 5, so the same certificate naming them fails.
    let lift_dir = scratch("certificate-lift");
    let lift = certify(7, "torus:16x8", &lift_dir, Bounds::Lift);
    assert!(lift.optimum.xor_optimal && lift.refuted.is_empty());
    let v = certificate::verify(&lift_dir, false).unwrap();
    assert_eq!((v.min_sum, v.by_proofs, v.bounds.as_str()), (16, 0, "lift"));
    let index = lift_dir.join("certificate.json");
    let mut c: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&index).unwrap()).unwrap();
    c["bounds"] = "all".into();
    std::fs::write(&index, c.to_string()).unwrap();
    let e = certificate::verify(&lift_dir, false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("not refuted"), "{e}");
    let _ = std::fs::remove_dir_all(&lift_dir);
    let counting_dir = scratch("certificate-counting");
    let counting = certify(7, "torus:16x8", &counting_dir, Bounds::Counting);
    assert!(counting.refuted.len() > small.refuted.len());
    let _ = std::fs::remove_dir_all(&counting_dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_winding_cocycle_settles_torus_8x8x2_and_the_check_needs_it() {
    // torus:8x8x2: the lift lemma leaves (1, 1, 1, 1, 2, 2, 2) below
    // xor's 11 (three pairs 2 + 2 reach 4 on both long axes); the winding
    // cocycle cuts it, so the certificate has no proof, and it holds only
    // under `lift`: named `all`, that vector is neither cut nor refuted.
    let dir = scratch("certificate-cocycle");
    let found = certify(7, "torus:8x8x2", &dir, Bounds::Lift);
    assert!(found.optimum.xor_optimal && found.refuted.is_empty());
    assert!(topoembed::optimal::cocycle::rules_out(
        &[8, 8, 2],
        &[1, 1, 1, 1, 2, 2, 2]
    ));
    let v = certificate::verify(&dir, false).unwrap();
    assert_eq!((v.min_sum, v.by_proofs), (11, 0));
    let e = verify_naming_bounds(&dir, "all");
    assert!(e.contains("not refuted"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Renames the bounds of the certificate in `dir` to `bounds` and returns
/// the checker's reason for rejecting it.
fn verify_naming_bounds(dir: &std::path::Path, bounds: &str) -> String {
    let index = dir.join("certificate.json");
    let mut c: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&index).unwrap()).unwrap();
    c["bounds"] = bounds.into();
    std::fs::write(&index, c.to_string()).unwrap();
    certificate::verify(dir, false).unwrap_err().to_string()
}

#[test]
fn elongated_tori_hold_by_the_axis_lemmas() {
    // The longest side's rule leaves no vector below xor on these, as
    // first published and with the lift lemma: each certificate lists no
    // refutation, and the checker agrees.
    for (d, host) in [
        (8, "torus:64x4"),
        (9, "torus:32x4x4"),
        (9, "torus:256x2"),
        (10, "torus:256x4"),
    ] {
        let dir = scratch(&format!("elongated-{d}"));
        let bounds = if d == 9 { Bounds::All } else { Bounds::Lift };
        let found = certify(d, host, &dir, bounds);
        assert!(
            found.optimum.xor_optimal && found.refuted.is_empty(),
            "{host}"
        );
        let v = certificate::verify(&dir, false).unwrap();
        assert_eq!(v.min_sum, found.optimum.xor_sum, "{host}");
        // Without the lemmas the checker finds vectors nobody refuted.
        let e = verify_naming_bounds(&dir, "small-cubes");
        assert!(e.contains("not refuted"), "{host}: {e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn the_winding_lemma_settles_torus_32x8_and_its_proofs_need_it() {
    // torus:32x8: the two vectors the bounds leave below 28 both pair 8 + 8
    // = 32/2 with Σ < 31, so their formulas move those dimensions along the
    // long axis only (crate::optimal::windings); the proofs check against
    // those formulas, and against the plain ones they do not.
    let dir = scratch("certificate-windings");
    let found = certify(8, "torus:32x8", &dir, Bounds::All);
    assert_eq!(found.optimum.min_sum, 28);
    assert!(found.optimum.xor_optimal);
    assert_eq!(found.refuted.len(), 2);
    assert!(found.refuted.iter().all(|r| r.windings && r.by == "drat"));
    let v = certificate::verify(&dir, false).unwrap();
    assert_eq!((v.min_sum, v.by_proofs, v.by_windings), (28, 2, 2));
    let listed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("certificate.json")).unwrap())
            .unwrap();
    assert_eq!(listed["refuted"][1]["windings"], true);
    each_proof_fails_without(&dir, "windings", 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Removing `mark` from any one of the first `count` refutations of the
/// certificate in `dir` gets it rejected: that proof fails against the
/// formula without the lemma the mark names. Leaves the certificate as it
/// was.
fn each_proof_fails_without(dir: &std::path::Path, mark: &str, count: usize) {
    let index = dir.join("certificate.json");
    let original = std::fs::read_to_string(&index).unwrap();
    for i in 0..count {
        let mut c: serde_json::Value = serde_json::from_str(&original).unwrap();
        c["refuted"][i].as_object_mut().unwrap().remove(mark);
        std::fs::write(&index, c.to_string()).unwrap();
        let e = certificate::verify(dir, false).unwrap_err().to_string();
        assert!(e.contains("fails"), "{mark} {i}: {e}");
    }
    std::fs::write(&index, original).unwrap();
}

#[test]
fn the_halving_and_window_lemmas_shrink_torus_32x8_and_its_proofs_need_them() {
    // torus:32x8 under the lift bounds: both vectors pair 8 + 8 = 32/2,
    // each 32/4, so their formulas keep only the quarter of the cube with
    // those two bits 0 (crate::optimal::halving), and the quarter's sum,
    // less the diameter of the 8-cycle, is 12 − 4 = 8 − 1: it fills a band
    // of 8 columns of the torus (crate::optimal::band). The proofs check
    // against the band formulas, not against the quartered ones; a
    // refutation marked `banded` but not `halved` is inconsistent.
    let dir = scratch("certificate-halving");
    let found = certify(8, "torus:32x8", &dir, Bounds::Lift);
    assert_eq!(found.optimum.min_sum, 28);
    assert_eq!(found.refuted.len(), 2);
    assert!(found
        .refuted
        .iter()
        .all(|r| r.windings && r.halved && r.banded));
    let v = certificate::verify(&dir, false).unwrap();
    assert_eq!(
        (
            v.min_sum,
            v.by_proofs,
            v.by_windings,
            v.by_halving,
            v.by_band
        ),
        (28, 2, 2, 2, 2)
    );
    each_proof_fails_without(&dir, "banded", 2);
    each_proof_fails_without(&dir, "halved", 2);
    // Marked `pinned` as well: the slack window is for unfolded formulas.
    let index = dir.join("certificate.json");
    let original = std::fs::read_to_string(&index).unwrap();
    let mut c: serde_json::Value = serde_json::from_str(&original).unwrap();
    c["refuted"][0]["pinned"] = serde_json::Value::Bool(true);
    std::fs::write(&index, c.to_string()).unwrap();
    let e = certificate::verify(&dir, false).unwrap_err().to_string();
    assert!(e.contains("marked `pinned` and `halved`"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The window lemma on torus:128x8's first vectors, in every `cargo test`:
/// a certificate stopped after 32 of the 983 vectors (the whole settles in
/// about three minutes on 2 cores, below, under --ignored) refutes each
/// one quartered and in a band, each with its proof; the certificate of
/// the lower bound it proves (99: all 983 are of sum 99, so none of its
/// proofs is needed yet) checks. The band formulas' proofs are checked, and
/// shown to need the band, on torus:32x8 above.
#[test]
fn torus_128x8_window_lemma_refutes_its_first_vectors() {
    let dir = scratch("certificate-128x8-first");
    let host: Spec = "torus:128x8".parse().unwrap();
    let options = SearchOptions {
        node_limit: 32,
        ..SearchOptions::default()
    };
    let found = optimal_by_vectors(
        10,
        &host,
        &options,
        Some(&dir),
        Turns::SOLVER_ONLY,
        Bounds::Lift,
    )
    .unwrap();
    assert!(!found.optimum.proved);
    assert!(found.refuted.len() >= 32, "{}", found.refuted.len());
    assert!(found.refuted.iter().all(|r| r.banded && r.halved));
    let proofs = std::fs::read_dir(dir.join("proofs")).unwrap().count();
    assert_eq!(proofs, found.refuted.len());
    certificate::write(&dir, &found).unwrap();
    let v = certificate::verify(&dir, false).unwrap();
    assert!(!v.complete);
    assert_eq!((v.lower_bound, found.optimum.lower_bound), (99, 99));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "slow: about three minutes on 2 cores (983 proofs); cargo test -- --ignored runs it"]
fn torus_128x8_is_settled_by_the_window_lemma() {
    // The 983 vectors the lift lemma leaves below xor's 100 all quarter
    // (32 + 32 = 128/2) with W = 35 − 4 = 32 − 1: each quarter fills the
    // cylinder P_32 x C_8, node 0 in a corner, and unit propagation
    // refutes every formula (before the window lemma, 2 to 370 s each).
    let dir = scratch("certificate-128x8");
    let found = certify(10, "torus:128x8", &dir, Bounds::Lift);
    assert_eq!((found.optimum.min_sum, found.refuted.len()), (100, 983));
    assert!(found.optimum.xor_optimal && found.refuted.iter().all(|r| r.banded));
    let v = certificate::verify(&dir, false).unwrap();
    assert_eq!((v.min_sum, v.by_proofs, v.by_band), (100, 983, 983));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `rate` (krobelus/rate, `cargo install rate`), an independent backward
/// DRAT checker, when on PATH; `.ci/run` installs it and sets
/// TOPOEMBED_REQUIRE_RATE, so that there its absence fails the test.
fn rate() -> Option<String> {
    let found = std::process::Command::new("rate")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found && std::env::var_os("TOPOEMBED_REQUIRE_RATE").is_some() {
        panic!("rate is not on PATH (cargo install rate)");
    }
    found.then(|| "rate".to_string())
}

#[test]
fn an_external_checker_checks_the_proofs_and_its_verdict_is_required() {
    use certificate::{verify_with, CheckOptions};
    // torus:16x8x2: one vector below xor's 17, its band formula (see
    // crate::optimal::band) refuted by a proof of 3 465 lemmas.
    let dir = scratch("certificate-external");
    let found = certify(8, "torus:16x8x2", &dir, Bounds::Lift);
    assert_eq!(found.refuted.len(), 1);
    let with = |command: &[&str]| {
        verify_with(
            &dir,
            &CheckOptions {
                checker: Some(command.iter().map(|s| s.to_string()).collect()),
                ..CheckOptions::default()
            },
        )
    };
    // A checker that says nothing, one that fails, and one that is not
    // there: rejected, and the formulas written for them removed again.
    let e = with(&["true"]).unwrap_err().to_string();
    assert!(e.contains("fails") && e.contains("no verdict"), "{e}");
    let e = with(&["sh", "-c", "echo s VERIFIED; exit 1", "sh"])
        .unwrap_err()
        .to_string();
    assert!(e.contains("exit status: 1"), "{e}");
    let e = with(&["no-such-drat-checker"]).unwrap_err().to_string();
    assert!(
        e.contains("cannot run the DRAT checker") && !e.contains("rejected"),
        "{e}"
    );
    assert!(!dir.join("formulas").exists());
    // The checker gets the formula and the proof, in that order: a script
    // that verifies only when the first is DIMACS and the second is the
    // proof the certificate names passes.
    let shape = "head -c 6 \"$1\" | grep -q '^p cnf ' && cmp -s \"$2\" \"$0\"/proofs/$(basename \"$1\" .cnf).drat && echo 's VERIFIED'";
    let v = with(&["sh", "-c", shape, dir.to_str().unwrap()]).unwrap();
    assert_eq!((v.by_proofs, v.lemmas, v.by_propagation), (1, 0, 0));
    assert!(v.checker.starts_with("sh -c"));
    let Some(rate) = rate() else {
        eprintln!("rate not on PATH: the check by rate itself is skipped");
        let _ = std::fs::remove_dir_all(&dir);
        return;
    };
    // rate accepts the proof, and names itself.
    let v = with(&[&rate]).unwrap();
    assert_eq!((v.min_sum, v.by_proofs, v.by_band), (17, 1, 1));
    assert_eq!(v.checker, "rate");
    assert_eq!(v.proof_bytes, found.proof_bytes);
    // A proof cut short, or one checked against the quartered formula (the
    // window lemma's mark removed): rate rejects it too.
    let proof = dir.join(&found.refuted[0].proof);
    let bytes = std::fs::read(&proof).unwrap();
    std::fs::write(&proof, &bytes[..bytes.len() / 2]).unwrap();
    let e = with(&[&rate]).unwrap_err().to_string();
    assert!(e.contains("fails"), "{e}");
    std::fs::write(&proof, &bytes).unwrap();
    let index = dir.join("certificate.json");
    let original = std::fs::read_to_string(&index).unwrap();
    let mut c: serde_json::Value = serde_json::from_str(&original).unwrap();
    c["refuted"][0].as_object_mut().unwrap().remove("banded");
    std::fs::write(&index, c.to_string()).unwrap();
    let e = with(&[&rate]).unwrap_err().to_string();
    assert!(e.contains("fails"), "{e}");
    std::fs::write(&index, original).unwrap();
    assert!(with(&[&rate]).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn formulas_unit_propagation_refutes_need_no_external_checker_and_every_failure_is_counted() {
    use certificate::{verify_with, CheckOptions};
    // ring:32 with the counting bounds only: 52 refutations, of which 48
    // formulas unit propagation refutes by themselves (their proofs add no
    // lemma; rate 0.3.0 panics on such formulas), and 4 need their proofs.
    let dir = scratch("certificate-propagation");
    let found = certify(5, "ring:32", &dir, Bounds::Counting);
    assert_eq!(found.refuted.len(), 52);
    let with = |command: &str| {
        verify_with(
            &dir,
            &CheckOptions {
                checker: Some(vec![command.to_string()]),
                ..CheckOptions::default()
            },
        )
    };
    // A checker that rejects everything: the 4 it is asked about fail, and
    // the message counts them all.
    let e = with("false").unwrap_err().to_string();
    assert!(e.contains("(and 3 more of the 52 proofs fail)"), "{e}");
    // The built-in checker takes them all, with lemmas for the 4 only.
    let built_in = certificate::verify(&dir, false).unwrap();
    assert_eq!((built_in.by_proofs, built_in.by_propagation), (52, 0));
    if let Some(rate) = rate() {
        let v = with(&rate).unwrap();
        assert_eq!((v.by_proofs, v.by_propagation, v.lemmas), (52, 48, 0));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether the d-cube embeds with dimension j at distance `dims[j]`, by
/// the plainest search (as `naive`, the distances fixed beforehand).
fn naive_vector(host: &dyn Topology, dims: &[u64]) -> bool {
    fn go(v: usize, host: &dyn Topology, dims: &[u64], place: &mut Vec<u64>) -> bool {
        if v == place.len() {
            return true;
        }
        for u in 0..host.node_count() {
            let fits = !place[..v].contains(&u)
                && (0..dims.len())
                    .filter(|&j| v >> j & 1 == 1)
                    .all(|j| host.distance(u, place[v ^ (1 << j)]) == dims[j]);
            if fits {
                place[v] = u;
                if go(v + 1, host, dims, place) {
                    return true;
                }
            }
        }
        false
    }
    let mut place = vec![0u64; 1 << dims.len()];
    go(1, host, dims, &mut place)
}

/// `optimal --distances`: on every ring and torus of 16 nodes, every vector
/// up to xor's sum + 3 (asked in a shuffled order) embeds exactly when the
/// plainest search says so, under the `counting` and `lift` bounds alike;
/// an embedding found has the distances in the order asked; bad vectors
/// are refused.
#[test]
fn one_vector_is_decided_as_the_naive_search_decides_it() {
    use topoembed::optimal::{decide_vector, VectorAnswer};
    let (mut embeds, mut refuted, mut ruled_out) = (0, 0, 0);
    for host in ["ring:16", "torus:4x4", "torus:8x2", "torus:4x2x2"] {
        let spec: Spec = host.parse().unwrap();
        let h = topology::parse(host).unwrap();
        let xor = search(4, host).xor_sum;
        for a in 1..=8u32 {
            for b in a..=8 {
                for c in b..=8 {
                    for e in c..=8 {
                        if a + b + c + e > xor + 3 {
                            continue;
                        }
                        // Asked largest first, and the second swapped in.
                        let asked = [e, b, c, a];
                        let wide: Vec<u64> = asked.iter().map(|&x| u64::from(x)).collect();
                        let too_far = asked.iter().any(|&x| u64::from(x) > h.diameter());
                        let expected = !too_far && naive_vector(h.as_ref(), &wide);
                        for bounds in [Bounds::Counting, Bounds::Lift] {
                            let decided = decide_vector(
                                4,
                                &spec,
                                &asked,
                                &SearchOptions::default(),
                                Turns::DEFAULT,
                                bounds,
                            );
                            if too_far {
                                assert!(decided.is_err(), "{host} {asked:?}");
                                continue;
                            }
                            let decided = decided.unwrap();
                            assert_eq!(decided.sum, a + b + c + e);
                            match &decided.answer {
                                VectorAnswer::Embedding { map } => {
                                    assert!(expected, "{host} {asked:?}");
                                    embeds += 1;
                                    let mut seen = [false; 16];
                                    for v in 0..16usize {
                                        assert!(!std::mem::replace(
                                            &mut seen[map[v] as usize],
                                            true
                                        ));
                                        for (j, &want) in wide.iter().enumerate() {
                                            let w = v ^ (1 << j);
                                            assert_eq!(
                                                h.distance(map[v], map[w]),
                                                want,
                                                "{host} {asked:?}"
                                            );
                                        }
                                    }
                                }
                                VectorAnswer::Refuted { refuted: r } => {
                                    assert!(!expected, "{host} {asked:?}");
                                    // A core named embeds nowhere either.
                                    let core: Vec<u64> =
                                        r.core.iter().map(|&x| u64::from(x)).collect();
                                    assert!(
                                        core.is_empty() || !naive_vector(h.as_ref(), &core),
                                        "{host} {asked:?} {r:?}"
                                    );
                                    refuted += 1;
                                }
                                VectorAnswer::RuledOut { .. } => {
                                    assert!(!expected, "{host} {asked:?}");
                                    ruled_out += 1;
                                }
                                VectorAnswer::Stopped => panic!("nothing stops it"),
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(
        embeds > 0 && refuted > 0 && ruled_out > 0,
        "{embeds} {refuted} {ruled_out}"
    );
    let ring: Spec = "ring:16".parse().unwrap();
    let options = SearchOptions::default();
    for bad in [&[1u32, 2, 4][..], &[1, 2, 4, 9], &[0, 1, 2, 4]] {
        let e = decide_vector(4, &ring, bad, &options, Turns::DEFAULT, Bounds::Lift).unwrap_err();
        assert!(e.to_string().contains("--distances"), "{e}");
    }
}

/// `optimal --distances` with a cube smaller than the host: every
/// ascending vector of 2 to 4 distances on torus:8x8 and torus:16x4 (and
/// 2 to 3 on ring:64) embeds one-to-one exactly when the plainest search
/// finds such a placement; the embedding found has the distances asked and
/// distinct host nodes; the solver, whose formula fills the host, is
/// refused; a cube larger than the host is refused.
#[test]
fn a_sub_cube_is_decided_as_the_naive_search_decides_it() {
    use topoembed::optimal::{decide_vector, VectorAnswer};
    let (mut embeds, mut refuted) = (0, 0);
    for (host, longest) in [("torus:8x8", 4), ("torus:16x4", 4), ("ring:64", 3)] {
        let spec: Spec = host.parse().unwrap();
        let h = topology::parse(host).unwrap();
        let top = h.diameter() as u32;
        let mut vectors: Vec<Vec<u32>> = (1..=top).map(|a| vec![a]).collect();
        let mut k = 1;
        while k < longest {
            vectors = vectors
                .iter()
                .flat_map(|v| {
                    (v[k - 1]..=top.min(v[k - 1] + 3)).map(move |x| [&v[..], &[x]].concat())
                })
                .collect();
            k += 1;
            for dims in &vectors {
                // Asked largest first.
                let asked: Vec<u32> = dims.iter().rev().copied().collect();
                let wide: Vec<u64> = asked.iter().map(|&x| u64::from(x)).collect();
                let expected = naive_vector(h.as_ref(), &wide);
                let options = SearchOptions::default();
                let decided = decide_vector(
                    k as u32,
                    &spec,
                    &asked,
                    &options,
                    Turns::SEARCH_ONLY,
                    Bounds::Lift,
                )
                .unwrap();
                match &decided.answer {
                    VectorAnswer::Embedding { map } => {
                        assert!(expected, "{host} {asked:?}");
                        embeds += 1;
                        let mut used = std::collections::HashSet::new();
                        for v in 0..1usize << k {
                            assert!(used.insert(map[v]), "{host} {asked:?}");
                            for (j, &want) in wide.iter().enumerate() {
                                assert_eq!(h.distance(map[v], map[v ^ (1 << j)]), want);
                            }
                        }
                    }
                    VectorAnswer::Refuted { .. } | VectorAnswer::RuledOut { .. } => {
                        assert!(!expected, "{host} {asked:?}");
                        refuted += 1;
                    }
                    VectorAnswer::Stopped => panic!("nothing stops it"),
                }
            }
        }
    }
    assert!(embeds > 0 && refuted > 0, "{embeds} {refuted}");
    let torus: Spec = "torus:8x8".parse().unwrap();
    let options = SearchOptions::default();
    let solver = decide_vector(
        3,
        &torus,
        &[1, 2, 3],
        &options,
        Turns::SOLVER_ONLY,
        Bounds::Lift,
    );
    assert!(solver.unwrap_err().to_string().contains("branch and bound"));
    let larger = decide_vector(
        7,
        &torus,
        &[1; 7],
        &options,
        Turns::SEARCH_ONLY,
        Bounds::Lift,
    );
    assert!(larger.unwrap_err().to_string().contains("nodes but"));
}

/// Whether `dims` hold every entry of `part`, as multisets.
fn holds(dims: &[u32], part: &[u32]) -> bool {
    let mut rest = dims.to_vec();
    part.iter().all(|p| match rest.iter().position(|x| x == p) {
        Some(i) => {
            rest.remove(i);
            true
        }
        None => false,
    })
}

/// The vectors of one sum take their turns together: a vector the branch
/// and bound refuted in a later turn than another of its sum does not hold
/// that one's core (it would have been refuted by the core instead, without
/// a search of its own).
#[test]
fn a_level_takes_turns_so_cores_found_early_refute_the_rest() {
    // Budgets from one node: the turn that decides n nodes is ⌈log4 n⌉
    // (the search takes the same path with any budget that suffices).
    let from_one = Turns {
        search_nodes: 1,
        proof_bytes: 0,
    };
    let turn_of = |nodes: u64| (0..).find(|&t| 4u64.pow(t) >= nodes).unwrap();
    let sum = |r: &Refuted| r.distances.iter().sum::<u32>();
    // One thread: on two, a vector's next turn may start while another
    // vector's earlier turn is still finding its core.
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let mut pairs = 0;
    for (d, host) in [
        (6, "torus:16x4"),
        (6, "torus:8x8"),
        (6, "torus:4x4x4"),
        (6, "torus:16x2x2"),
        (7, "torus:16x8"),
    ] {
        let spec: Spec = host.parse().unwrap();
        let options = SearchOptions::default();
        let by = one_thread.install(|| {
            optimal_by_vectors(d, &spec, &options, None, from_one, Bounds::Counting).unwrap()
        });
        assert_eq!(by.optimum.min_sum, search(d, host).min_sum, "{host}");
        let searched: Vec<&Refuted> = by.refuted.iter().filter(|r| r.search_nodes > 0).collect();
        for a in &searched {
            for b in searched
                .iter()
                .filter(|b| !b.core.is_empty() && sum(b) == sum(a))
            {
                if turn_of(b.search_nodes) < turn_of(a.search_nodes) {
                    pairs += 1;
                    assert!(!holds(&a.distances, &b.core), "{host}: {a:?} after {b:?}");
                }
            }
        }
    }
    assert!(pairs > 0);
}

/// A refutation's core is a sub-cube that embeds nowhere in the host (the
/// plainest search agrees, and the core less its last distance embeds: the
/// branch and bound stopped at the first sub-cube it ran out of), every
/// vector holding a core is refuted with it without a search of its own,
/// and a certificate's refutations (the solver's alone) name none.
#[test]
fn a_sub_cube_refuted_once_refutes_every_vector_holding_it() {
    let (mut searched, mut reused) = (0, 0);
    for (d, host) in [
        (4, "torus:4x4"),
        (5, "torus:8x4"),
        (5, "ring:32"),
        (6, "torus:8x8"),
        (6, "torus:16x4"),
    ] {
        let spec: Spec = host.parse().unwrap();
        let h = topology::parse(host).unwrap();
        let options = SearchOptions::default();
        let by = optimal_by_vectors(
            d,
            &spec,
            &options,
            None,
            Turns::SEARCH_ONLY,
            Bounds::Counting,
        )
        .unwrap();
        assert_eq!(by.optimum.min_sum, search(d, host).min_sum, "{host}");
        for r in by.refuted.iter().filter(|r| !r.core.is_empty()) {
            assert!(
                r.core.len() < d as usize && holds(&r.distances, &r.core),
                "{r:?}"
            );
            // The core embeds nowhere; its ascending prefix one shorter
            // does (the search that found it placed that sub-cube).
            let wide: Vec<u64> = r.core.iter().map(|&x| u64::from(x)).collect();
            assert!(!naive_vector(h.as_ref(), &wide), "{host} {r:?}");
            assert!(
                naive_vector(h.as_ref(), &wide[..wide.len() - 1]),
                "{host} {r:?}"
            );
            if r.search_nodes > 0 {
                searched += 1;
            } else {
                // Learned from a vector the branch and bound refuted, from a
                // probe of a run of equal distances, or shrunk from either.
                reused += 1;
            }
        }
        let certified = optimal_by_vectors(
            d,
            &spec,
            &options,
            None,
            Turns::SOLVER_ONLY,
            Bounds::Counting,
        )
        .unwrap();
        assert!(certified
            .refuted
            .iter()
            .all(|r| r.core.is_empty() && r.by == "drat"));
    }
    assert!(searched > 0 && reused > 0, "{searched} {reused}");
}
