//! The lemmas that settle the large tori (axis, winding, halving, window) and the proofs that need them; external checkers.

#[allow(unused_imports)]
use super::*;
#[allow(unused_imports)]
use super::{bijections::*, branch_and_bound::*, certificates::*, vectors::*};

/// Renames the bounds of the certificate in `dir` to `bounds` and returns
/// the checker's reason for rejecting it.
pub(crate) fn verify_naming_bounds(dir: &std::path::Path, bounds: &str) -> String {
    let index = dir.join("certificate.json");
    let mut c: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&index).unwrap()).unwrap();
    c["bounds"] = bounds.into();
    std::fs::write(&index, c.to_string()).unwrap();
    certificate::verify(dir, false).unwrap_err().to_string()
}

#[test]
pub(crate) fn elongated_tori_hold_by_the_axis_lemmas() {
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
pub(crate) fn the_winding_lemma_settles_torus_32x8_and_its_proofs_need_it() {
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
pub(crate) fn each_proof_fails_without(dir: &std::path::Path, mark: &str, count: usize) {
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
pub(crate) fn the_halving_and_window_lemmas_shrink_torus_32x8_and_its_proofs_need_them() {
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
pub(crate) fn torus_128x8_window_lemma_refutes_its_first_vectors() {
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
pub(crate) fn torus_128x8_is_settled_by_the_window_lemma() {
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
pub(crate) fn rate() -> Option<String> {
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
pub(crate) fn an_external_checker_checks_the_proofs_and_its_verdict_is_required() {
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
pub(crate) fn formulas_unit_propagation_refutes_need_no_external_checker_and_every_failure_is_counted(
) {
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
