//! One distance vector or sub-cube decided as the naive search decides it; levels taken in turns; cores.

#[allow(unused_imports)]
use super::*;
#[allow(unused_imports)]
use super::{bijections::*, branch_and_bound::*, certificates::*, lemmas::*};

/// Whether the d-cube embeds with dimension j at distance `dims[j]`, by
/// the plainest search (as `naive`, the distances fixed beforehand).
pub(crate) fn naive_vector(host: &dyn Topology, dims: &[u64]) -> bool {
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
pub(crate) fn one_vector_is_decided_as_the_naive_search_decides_it() {
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
pub(crate) fn a_sub_cube_is_decided_as_the_naive_search_decides_it() {
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
pub(crate) fn holds(dims: &[u32], part: &[u32]) -> bool {
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
pub(crate) fn a_level_takes_turns_so_cores_found_early_refute_the_rest() {
    // Budgets from one node: the turn that decides n nodes is ⌈log4 n⌉
    // (the search takes the same path with any budget that suffices).
    let from_one = Turns {
        search_nodes: 1,
        proof_bytes: 0,
        ..Turns::DEFAULT
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
pub(crate) fn a_sub_cube_refuted_once_refutes_every_vector_holding_it() {
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
