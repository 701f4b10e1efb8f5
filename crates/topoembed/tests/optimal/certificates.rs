//! Certificates: written by the search by vectors or the branch and bound, checked, tampered with, stopped and resumed, holding only with the bounds they name.

#[allow(unused_imports)]
use super::*;
#[allow(unused_imports)]
use super::{bijections::*, branch_and_bound::*, lemmas::*, vectors::*};

/// A fresh directory under the system's temporary one.
pub(crate) fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("topoembed-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Solves by vectors with a certificate in `dir`, every vector by SAT.
pub(crate) fn certify(
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

/// Turns of one search node first and `proof_bytes` of proof, the solver
/// at every vector.
fn one_node_first(proof_bytes: u64) -> Turns {
    Turns {
        search_nodes: 1,
        proof_bytes,
        ..Turns::DEFAULT
    }
}

#[test]
pub(crate) fn the_solver_by_vectors_equals_the_branch_and_bound() {
    // Turns too small for either to decide at first: both take several
    // turns, with budgets growing until one decides.
    let tight = one_node_first(1);
    // The branch and bound's turns only (with no proof budget the solver
    // takes no turn).
    let searching = one_node_first(0);
    // The solver's first turn decides what one search node cannot.
    let solving = one_node_first(PROOF_BUDGET);
    // The solver only where the lemmas fold or pin the formula (under the
    // lift bounds; under the others at every vector).
    let tight_auto = Turns {
        solver_at: SolverAt::Folded,
        ..tight
    };
    // How each set of turns refuted vectors: "search" or "drat".
    let mut refuted_by = std::collections::HashSet::new();
    // (turns, bounds, whether the solver's formula was folded or pinned)
    // of every refutation by the solver.
    let mut solved = std::collections::HashSet::new();
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
            (tight, Bounds::Lift),
            (tight_auto, Bounds::Lift),
            (tight_auto, Bounds::Counting),
            (Turns::AUTO, Bounds::Lift),
        ] {
            let options = SearchOptions::default();
            let by = optimal_by_vectors(d, &spec, &options, None, budget, bounds).unwrap();
            for r in &by.refuted {
                refuted_by.insert((budget, r.by.clone()));
                if r.by == "drat" {
                    solved.insert((budget, bounds, r.halved || r.pinned));
                }
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
    assert!(!solved.contains(&(tight_auto, Bounds::Lift, false)));
}

/// Under the lift bounds, [`SolverAt::Folded`] gives the solver its turns
/// only at vectors whose formula a winding pair folds or pins: with a first
/// search turn too small to decide anything, the solver refutes a whole
/// formula of torus:8x8x8 in its turns at every vector (3.1 s, where the
/// branch and bound alone takes 0.2 s), and only the folded ones of
/// torus:32x8x2 (which it still refutes) when it waits for them; under the
/// counting bounds, which fold nothing, it takes every vector's turn either
/// way (torus:16x4). The answers are the same.
#[test]
fn the_solver_waits_for_a_folded_formula_under_the_lift_bounds() {
    let solving = one_node_first(PROOF_BUDGET);
    let solving_folded = Turns {
        solver_at: SolverAt::Folded,
        ..solving
    };
    let mut solved = std::collections::HashSet::new();
    for (d, host, bounds) in [
        (9, "torus:8x8x8", Bounds::Lift),
        (9, "torus:32x8x2", Bounds::Lift),
        (6, "torus:16x4", Bounds::Counting),
    ] {
        let spec: Spec = host.parse().unwrap();
        let mut sums = Vec::new();
        for (budget, name) in [(solving, "every"), (solving_folded, "folded")] {
            let options = SearchOptions::default();
            let by = optimal_by_vectors(d, &spec, &options, None, budget, bounds).unwrap();
            for r in by.refuted.iter().filter(|r| r.by == "drat") {
                solved.insert((name, bounds, r.halved || r.pinned));
            }
            assert!(by.optimum.proved, "{host}");
            sums.push(by.optimum.min_sum);
        }
        assert_eq!(sums[0], sums[1], "{host}");
    }
    let lift = Bounds::Lift;
    assert!(solved.contains(&("every", lift, false)), "{solved:?}");
    assert!(!solved.contains(&("folded", lift, false)), "{solved:?}");
    assert!(solved.contains(&("folded", lift, true)), "{solved:?}");
    assert!(
        solved.contains(&("folded", Bounds::Counting, false)),
        "{solved:?}"
    );
}

/// Writes the certificate index `original` of `dir` edited by `f`, and
/// returns why the check rejects it (it must).
pub(crate) fn rejection(
    dir: &std::path::Path,
    original: &str,
    f: &dyn Fn(&mut serde_json::Value),
) -> String {
    let mut c: serde_json::Value = serde_json::from_str(original).unwrap();
    f(&mut c);
    std::fs::write(dir.join("certificate.json"), c.to_string()).unwrap();
    certificate::verify(dir, false)
        .map(|_| ())
        .unwrap_err()
        .to_string()
}

#[test]
pub(crate) fn a_certificate_checks_and_tampered_ones_are_rejected() {
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
pub(crate) fn a_certificate_by_the_branch_and_bound_cites_core_proofs_and_tampered_ones_fail() {
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
pub(crate) fn a_certificate_stopped_by_its_flag_keeps_what_it_decided() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let dir = scratch("certificate-flag");
    // ring:64 under `small-cubes`: 16 vectors below xor's 47, each refuted
    // by the solver (a few milliseconds each; under `counting`, 3 622 took
    // 20 s of the test run).
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
            Bounds::SmallCubes,
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
    // Set while the solver works, once four proof files exist (each is
    // written as its solver goes, so some vectors are decided and some are
    // not; not polled with a timer, which the machine's load would make
    // too late or too early): whatever was decided is kept
    // (no proof file of a vector left undecided remains), and the next run
    // goes on.
    let stop = AtomicBool::new(false);
    let finished = AtomicBool::new(false);
    let stopped = std::thread::scope(|scope| {
        scope.spawn(|| {
            let proofs = dir.join("proofs");
            while !finished.load(Ordering::Relaxed) {
                if std::fs::read_dir(&proofs).is_ok_and(|d| d.count() >= 4) {
                    stop.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::sleep(std::time::Duration::from_micros(200));
            }
        });
        let stopped = run(Some(&stop));
        finished.store(true, Ordering::Relaxed);
        stopped
    });
    let proofs = std::fs::read_dir(dir.join("proofs")).unwrap().count();
    assert_eq!(proofs, stopped.refuted.len());
    let rest = run(None);
    assert!(rest.optimum.proved);
    assert_eq!((rest.optimum.min_sum, rest.refuted.len()), (47, 16));
    if !stopped.optimum.proved {
        // The second run decides only what the first left.
        assert_eq!(
            rest.optimum.nodes_searched as usize,
            16 - stopped.refuted.len()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
pub(crate) fn a_stopped_certificate_goes_on_from_where_it_stopped() {
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
pub(crate) fn the_ring_theorem_holds_by_the_bounds_for_every_d() {
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
pub(crate) fn a_certificate_holds_only_with_the_bounds_it_names() {
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
pub(crate) fn the_winding_cocycle_settles_torus_8x8x2_and_the_check_needs_it() {
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
