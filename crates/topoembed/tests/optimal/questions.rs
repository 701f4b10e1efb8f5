//! `optimal` as a user asks it ([`topoembed::optimal::answer`]): each method
//! answers as its search does alone, a certificate is written and holds, the
//! tally adds up to the refuted list, and the budgets follow the options.

use std::sync::Arc;

use topoembed::optimal::{
    answer, cube_dimension, optimal_bijection, Answer, Bounds, DecideBy, Method, Question, Tally,
    Watch,
};
use topoembed::Progress;

use super::*;

fn spec(text: &str) -> Spec {
    text.parse().unwrap()
}

#[test]
fn each_method_answers_as_its_search_does_alone() {
    let (guest, host) = (spec("cube:6"), spec("torus:8x8"));
    let ask = |method: Method| {
        answer(
            &Question {
                method,
                ..Question::new(&guest, &host)
            },
            Watch::default(),
        )
        .unwrap()
    };
    let alone = optimal_constant(6, &host, &SearchOptions::default()).unwrap();
    match ask(Method::WholeTree) {
        Answer::WholeTree { optimum } => {
            assert_eq!((optimum.min_sum, optimum.proved), (alone.min_sum, true));
            assert_eq!(optimum.min_sum, 10);
        }
        other => panic!("{other:?}"),
    }
    match ask(Method::Vectors) {
        Answer::Vectors {
            search,
            tally,
            certificate,
        } => {
            assert_eq!(search.optimum.min_sum, alone.min_sum);
            assert!(search.optimum.proved && certificate.is_none());
            assert_eq!(tally, Tally::of(&search));
        }
        other => panic!("{other:?}"),
    }
    match ask(Method::OneVector(vec![1, 1, 2, 2, 4, 4])) {
        Answer::OneVector { decision } => assert_eq!(decision.sum, 14),
        other => panic!("{other:?}"),
    }
    let small = spec("ring:8");
    let best = answer(
        &Question {
            method: Method::AllBijections,
            ..Question::new(&spec("cube:3"), &small)
        },
        Watch::default(),
    )
    .unwrap();
    let alone = optimal_bijection(3, &small, &SearchOptions::default()).unwrap();
    match best {
        Answer::AllBijections { best } => {
            assert_eq!(best.min_communication, alone.min_communication)
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_tally_adds_up_to_the_refuted_vectors() {
    let (guest, host) = (spec("cube:8"), spec("torus:16x16"));
    let progress = Arc::new(Progress::new());
    // Under `lift` (the energy lemma, the default, leaves none there).
    let question = Question {
        bounds: Bounds::Lift,
        ..Question::new(&guest, &host)
    };
    let Answer::Vectors { search, tally, .. } = answer(
        &question,
        Watch {
            progress: Some(&progress),
            ..Watch::default()
        },
    )
    .unwrap() else {
        panic!("the default method is by vectors")
    };
    assert_eq!(search.optimum.min_sum, 22);
    assert_eq!(tally.refuted, search.refuted.len());
    // The seven vectors of sum 21 the bounds leave.
    assert_eq!(tally.refuted, 7);
    assert!(search
        .refuted
        .iter()
        .all(|r| r.distances.iter().sum::<u32>() == 21));
    assert_eq!(
        tally.by_propagation + tally.by_search + tally.by_solver,
        tally.refuted
    );
    assert!(tally.by_earlier_cores <= tally.by_search);
    assert!(
        progress.get().0 > 0,
        "the search counts the vectors it decides"
    );
    let Answer::Vectors { search, tally, .. } =
        answer(&Question::new(&guest, &host), Watch::default()).unwrap()
    else {
        panic!("the default method is by vectors")
    };
    assert_eq!((search.optimum.min_sum, tally.refuted), (22, 0));
    assert!(search.optimum.proved);
}

#[test]
fn a_certificate_asked_for_is_written_and_holds() {
    let dir = std::env::temp_dir().join(format!("topoembed-question-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (guest, host) = (spec("cube:6"), spec("torus:8x8"));
    let question = Question {
        certificate: Some(&dir),
        ..Question::new(&guest, &host)
    };
    let Answer::Vectors {
        search,
        certificate,
        ..
    } = answer(&question, Watch::default()).unwrap()
    else {
        panic!("a certificate comes of the search by vectors")
    };
    assert_eq!(certificate.as_deref(), Some(dir.as_path()));
    // The solver alone: every refutation a DRAT proof.
    assert!(search.refuted.iter().all(|r| r.by == "drat"));
    let verified = certificate::verify(&dir, false).unwrap();
    assert!(verified.complete);
    assert_eq!(verified.lower_bound, search.optimum.min_sum);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_budgets_follow_the_options() {
    let (guest, host) = (spec("cube:6"), spec("torus:8x8"));
    let dir = std::path::Path::new("cert");
    let plain = Question::new(&guest, &host);
    assert_eq!(plain.turns(), Turns::AUTO);
    let certified = Question {
        certificate: Some(dir),
        ..plain.clone()
    };
    assert_eq!(certified.turns(), Turns::SOLVER_ONLY);
    let searched = Question {
        decide_by: Some(DecideBy::Search),
        ..certified.clone()
    };
    assert_eq!(searched.turns(), Turns::SEARCH_ONLY);
    // One vector ignores a certificate (none is written for it).
    let one = Question {
        method: Method::OneVector(vec![1, 1, 2, 2, 4, 4]),
        ..certified
    };
    assert_eq!(one.turns(), Turns::AUTO);
    let turns = Question {
        decide_by: Some(DecideBy::Turns),
        ..plain.clone()
    };
    assert_eq!(turns.turns(), Turns::DEFAULT);
    for how in [
        DecideBy::Auto,
        DecideBy::Turns,
        DecideBy::Search,
        DecideBy::Solver,
    ] {
        assert_eq!(how.name().parse::<DecideBy>().unwrap(), how);
    }
    assert!("luck".parse::<DecideBy>().is_err());
}

#[test]
fn only_cubes_are_asked() {
    assert_eq!(cube_dimension(&spec("cube:7")).unwrap(), 7);
    let error = cube_dimension(&spec("ring:8")).unwrap_err().to_string();
    assert!(error.contains("hypercubes (cube:D)"), "{error}");
    let (guest, host) = (spec("torus:4x4"), spec("ring:16"));
    assert!(answer(&Question::new(&guest, &host), Watch::default()).is_err());
}
