//! The search over all bijections, the cited wirelength, the size estimate.

#[allow(unused_imports)]
use super::*;
#[allow(unused_imports)]
use super::{branch_and_bound::*, certificates::*, lemmas::*, vectors::*};

/// The communication time of every bijection of cube:d onto `host` by the
/// recurrence of the library's model (waiting included), the least of them:
/// all (2^d)! placements, d ≤ 3.
pub(crate) fn naive_bijection(d: u32, host: &str) -> u64 {
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
pub(crate) fn all_bijections_equal_the_naive_search_and_constant_distances_win_small_cubes() {
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
pub(crate) fn all_bijections_show_progress_and_stop_on_their_flag() {
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
pub(crate) fn all_bijections_resume_from_their_checkpoint() {
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
pub(crate) fn the_cited_wirelength_agrees_with_every_proved_optimum() {
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
pub(crate) fn the_size_estimate_is_near_the_search() {
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
