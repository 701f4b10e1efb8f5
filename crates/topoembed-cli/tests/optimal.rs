//! `topoembed optimal` end to end: the JSON keys the issue names, the
//! verdict in the table, and bad input with exit 2.

use crate::common;

use common::{assert_bad_input, json, ok};

#[test]
fn json_has_the_optimum_and_the_comparison() {
    let v = json(&["optimal", "cube:6", "torus:8x8", "--format", "json"]);
    assert_eq!(v["min_sum"], 10);
    assert_eq!(v["xor_sum"], 10);
    assert_eq!(v["standard_sum"], 14);
    assert_eq!(v["proved"], true);
    assert_eq!(v["xor_optimal"], true);
    assert_eq!(v["distances"].as_array().unwrap().len(), 6);
    assert_eq!(v["map"].as_array().unwrap().len(), 64);
    // Vectors decided: the bounds leave none on 8x8.
    assert_eq!(v["nodes_searched"], 0);
    // The cited bound: least wirelength 2 · 2^3·(3·2^3 − 2^2) = 320 = 2^5 · 10.
    assert_eq!(v["literature"]["min_wirelength"], 320);
    assert_eq!(v["literature"]["min_sum"], 10);
    assert!(v["literature"]["source"]
        .as_str()
        .unwrap()
        .contains("arXiv:2302.13237"));
}

/// A search that stops proves nothing, and the table keeps it apart from
/// the cited bound, which holds whether or not the search completes.
#[test]
fn the_cited_bound_is_marked_as_cited_and_proves_nothing() {
    let stopped = ok(&[
        "optimal",
        "cube:10",
        "torus:32x32",
        "--whole-tree",
        "--node-limit",
        "1024",
    ]);
    assert!(
        stopped.contains("cited     ≥ 46: least wirelength 23552 over all bijections"),
        "{stopped}"
    );
    assert!(stopped.contains("not checked here"), "{stopped}");
    assert!(stopped.contains("not proved"), "{stopped}");
    let ring = ok(&[
        "optimal",
        "cube:5",
        "ring:32",
        "--all-bijections",
        "--node-limit",
        "1000",
    ]);
    assert!(ring.contains("≥ 23: least wirelength 368"), "{ring}");
    assert!(ring.contains("Acta Math. Sci."), "{ring}");
    assert!(ring.contains("not proved"), "{ring}");
}

#[test]
fn table_states_what_was_proved() {
    let out = ok(&["optimal", "cube:4", "torus:4x4"]);
    assert!(
        out.contains("proved: no constant-distance embedding beats xor here"),
        "{out}"
    );
    let stopped = ok(&[
        "optimal",
        "cube:7",
        "torus:16x8",
        "--whole-tree",
        "--node-limit",
        "1024",
    ]);
    assert!(stopped.contains("not proved"), "{stopped}");
}

/// Without any option, `optimal` proves what its bounds settle: every ring
/// up to d = 12 (Theorem 10, by the axis lemma: no vector is left), the
/// tori of d <= 9 below and those of d = 10 with the quickest answers,
/// xor's sum the optimum on each.
#[test]
fn the_default_proves_what_the_bounds_settle() {
    for d in 9..=12u32 {
        let v = json(&[
            "optimal",
            &format!("cube:{d}"),
            &format!("ring:{}", 1u32 << d),
            "--format",
            "json",
        ]);
        let xor = 3 * (1u64 << (d - 2)) - 1;
        assert_eq!(v["proved"], true, "d = {d}");
        assert_eq!(v["min_sum"].as_u64(), Some(xor), "d = {d}");
        assert_eq!(
            v["nodes_searched"], 0,
            "d = {d}: the bounds leave no vector"
        );
    }
    for (d, host, least) in [
        (9, "torus:32x16", 34),
        (9, "torus:8x8x8", 15),
        (9, "torus:128x4", 97),
        (9, "torus:16x8x4", 18),
        (8, "torus:32x8", 28),
        // Every vector left refuted by unit propagation on the window
        // lemma's band (983 of them on 128x8), none by a search.
        (9, "torus:64x8", 52),
        (10, "torus:128x8", 100),
        // The energy lemma leaves no vector: it was 2 954 for the branch
        // and bound, most of a minute.
        (10, "torus:32x32", 46),
        (8, "torus:16x16", 22),
    ] {
        let v = json(&["optimal", &format!("cube:{d}"), host, "--format", "json"]);
        assert_eq!(v["proved"], true, "{host}");
        assert_eq!(v["min_sum"].as_u64(), Some(least), "{host}");
        assert_eq!(v["xor_sum"].as_u64(), Some(least), "{host}");
    }
    for host in ["torus:32x32", "torus:16x16", "torus:32x16"] {
        let d = if host == "torus:32x32" {
            10
        } else {
            8 + u32::from(host == "torus:32x16")
        };
        let out = ok(&["optimal", &format!("cube:{d}"), host]);
        assert!(
            out.contains("0 vectors decided after the `energy` bounds"),
            "{host}: {out}"
        );
    }
    let out = ok(&["optimal", "cube:10", "torus:128x8"]);
    assert!(
        out.contains("983 refuted: 983 by unit propagation on the window lemma's band, 0 by the branch and bound, 0 by SAT"),
        "{out}"
    );
}

#[test]
fn bad_input_exits_2() {
    assert_bad_input(&["optimal", "cube:4", "torus:4x3"]);
    assert_bad_input(&["optimal", "cube:4", "torus:4x8"]);
    assert_bad_input(&["optimal", "cube:13", "ring:8192"]);
    assert_bad_input(&["optimal", "ring:16", "torus:4x4"]);
    assert_bad_input(&["optimal", "cube:4", "mesh:4x4"]);
    // --bounds shapes the search by vectors only: with the whole tree or
    // the search over all bijections, it is refused rather than ignored.
    for other in ["--whole-tree", "--all-bijections"] {
        let args = ["optimal", "cube:4", "torus:4x4", other, "--bounds", "all"];
        assert_bad_input(&args);
        let (_, _, err) = common::run(&args);
        assert!(err.contains(other), "{err}");
    }
    ok(&["optimal", "cube:4", "torus:4x4", "--bounds", "all"]);
    ok(&["optimal", "cube:4", "torus:4x4", "--bounds", "all", "--sat"]);
}

#[test]
fn all_bijections_compare_with_constant_distances() {
    let v = json(&[
        "optimal",
        "cube:4",
        "ring:16",
        "--all-bijections",
        "--format",
        "json",
    ]);
    assert_eq!(v["min_communication"], 11);
    assert_eq!(v["constant_min"], 11);
    assert_eq!(v["beats_constant"], false);
    assert_eq!(v["proved"], true);
    assert_eq!(v["map"].as_array().unwrap().len(), 16);
    let out = ok(&["optimal", "cube:3", "ring:8", "--all-bijections"]);
    assert!(
        out.contains("no bijection beats the best constant-distance embedding"),
        "{out}"
    );
    assert_bad_input(&["optimal", "cube:6", "torus:8x8", "--all-bijections"]);
}

/// Each command's help says what that command does (a misplaced doc
/// comment once gave `optimal` the device-mesh text and device-mesh none).
#[test]
fn help_texts_belong_to_their_commands() {
    let optimal = ok(&["optimal", "--help"]);
    assert!(optimal.starts_with("The least Σ D_i"), "{optimal}");
    assert!(!optimal.contains("device mesh"), "{optimal}");
    let mesh = ok(&["device-mesh", "--help"]);
    assert!(mesh.starts_with("Lay a logical device mesh"), "{mesh}");
}

#[test]
fn certificates_are_written_checked_and_rejected_when_wrong() {
    let dir = common::temp_dir("optimal-certificate");
    let cert = dir.join("ring32");
    let cert_arg = cert.to_str().unwrap();
    let out = ok(&["optimal", "cube:5", "ring:32", "--certificate", cert_arg]);
    assert!(out.contains("optimum   23"), "{out}");
    assert!(out.contains("verify-certificate"), "{out}");
    let checked = ok(&["verify-certificate", cert_arg]);
    assert!(checked.contains("certificate holds"), "{checked}");
    let v = json(&["verify-certificate", cert_arg, "--format", "json"]);
    assert_eq!(
        (v["min_sum"].as_u64(), v["bounds"].as_str()),
        (Some(23), Some("energy"))
    );
    // With the small cubes only, the solver refutes what the ring lemma cut.
    let small = dir.join("ring32-small");
    let small_arg = small.to_str().unwrap();
    let out = ok(&[
        "optimal",
        "cube:6",
        "ring:64",
        "--certificate",
        small_arg,
        "--bounds",
        "small-cubes",
    ]);
    assert!(
        out.contains("16 vectors decided after the `small-cubes` bounds"),
        "{out}"
    );
    let checked = ok(&["verify-certificate", small_arg]);
    assert!(checked.contains("16 vectors refuted by DRAT"), "{checked}");
    // An external checker: none named, or one that is not there, exits 2;
    // rate (when on PATH; .ci/run installs it) checks the same 16 proofs.
    assert_bad_input(&["verify-certificate", small_arg, "--checker", " "]);
    assert_bad_input(&[
        "verify-certificate",
        small_arg,
        "--checker",
        "no-such-drat-checker",
    ]);
    let rate = std::process::Command::new("rate").arg("--version").output();
    if rate.is_ok_and(|o| o.status.success()) {
        let checked = ok(&["verify-certificate", small_arg, "--checker", "rate"]);
        assert!(
            checked.contains("16 vectors refuted by DRAT proofs (")
                && checked.contains("checked by `rate`"),
            "{checked}"
        );
    } else {
        assert!(
            std::env::var_os("TOPOEMBED_REQUIRE_RATE").is_none(),
            "rate is not on PATH"
        );
    }
    // Band formulas that unit propagation refutes (torus:64x8's 30): each
    // proof is the empty clause alone, and the checker, rebuilding each
    // formula, accepts it.
    let banded = dir.join("torus64x8");
    let banded_arg = banded.to_str().unwrap();
    let out = ok(&[
        "optimal",
        "cube:9",
        "torus:64x8",
        "--certificate",
        banded_arg,
    ]);
    assert!(
        out.contains("30 refuted: 30 by unit propagation on the window lemma's band")
            && out.contains("(30 proofs, 60 B)"),
        "{out}"
    );
    for proof in std::fs::read_dir(banded.join("proofs")).unwrap() {
        assert_eq!(std::fs::read(proof.unwrap().path()).unwrap(), [b'a', 0]);
    }
    let checked = ok(&["verify-certificate", banded_arg]);
    assert!(
        checked.contains("certificate holds")
            && checked.contains("30 of those formulas in a band of the torus"),
        "{checked}"
    );
    assert_bad_input(&["optimal", "cube:5", "ring:32", "--sat", "--bounds", "some"]);
    // --sat alone decides the same without writing anything.
    let sat = json(&[
        "optimal",
        "cube:6",
        "torus:8x8",
        "--sat",
        "--format",
        "json",
    ]);
    assert_eq!(
        (sat["min_sum"].as_u64(), sat["proved"].as_bool()),
        (Some(10), Some(true))
    );
    // A claimed optimum the map does not have: exit 2 with the reason.
    let index = cert.join("certificate.json");
    let text = std::fs::read_to_string(&index).unwrap();
    std::fs::write(&index, text.replace("\"min_sum\": 23", "\"min_sum\": 22")).unwrap();
    assert_bad_input(&["verify-certificate", cert_arg]);
    // Not a certificate at all, and no directory.
    std::fs::write(&index, "{}").unwrap();
    assert_bad_input(&["verify-certificate", cert_arg]);
    assert_bad_input(&["verify-certificate", dir.join("none").to_str().unwrap()]);
    // A stopped certificate run writes a certificate of its lower bound,
    // which the check says is no more than that.
    let stopped = dir.join("stopped");
    let stopped_arg = stopped.to_str().unwrap();
    let out = ok(&[
        "optimal",
        "cube:5",
        "ring:32",
        "--certificate",
        stopped_arg,
        "--bounds",
        "counting",
        "--node-limit",
        "5",
    ]);
    assert!(
        out.contains("a certificate of the lower bound alone in"),
        "{out}"
    );
    let checked = ok(&["verify-certificate", stopped_arg]);
    assert!(
        checked.contains("certificate holds (a stopped search's: it proves a lower bound only)"),
        "{checked}"
    );
    assert!(checked.contains("Σ D_i = 23"), "{checked}");
    let v = json(&["verify-certificate", stopped_arg, "--format", "json"]);
    assert_eq!(v["complete"], false);
    assert!(v["lower_bound"].as_u64().unwrap() < 23, "{v}");
    // The engines do not mix with the bijection search, and a certificate
    // is its own checkpoint.
    assert_bad_input(&["optimal", "cube:4", "ring:16", "--sat", "--all-bijections"]);
    assert_bad_input(&[
        "optimal",
        "cube:5",
        "ring:32",
        "--certificate",
        cert_arg,
        "--checkpoint",
        dir.join("q.json").to_str().unwrap(),
    ]);
}

/// `--sat --checkpoint FILE`: a run stopped by --node-limit records the
/// vectors it refuted, the next run with FILE decides only the others (the
/// same answer as one run) and removes FILE; a record of another search,
/// and the branch and bound's own checkpoint, are refused with exit 2.
#[test]
fn a_sat_search_goes_on_from_its_checkpoint() {
    let dir = common::temp_dir("optimal-sat-checkpoint");
    let file = dir.join("q.json");
    let path = file.to_str().unwrap();
    // ring:32 under `counting`: a few dozen vectors below xor's 23.
    let sat = [
        "optimal", "cube:5", "ring:32", "--sat", "--bounds", "counting",
    ];
    let with = |extra: &[&str]| -> Vec<String> {
        let mut args: Vec<String> = sat.iter().map(|a| a.to_string()).collect();
        args.extend(["--checkpoint", path].iter().map(|a| a.to_string()));
        args.extend(extra.iter().map(|a| a.to_string()));
        args
    };
    fn args(v: &[String]) -> Vec<&str> {
        v.iter().map(String::as_str).collect()
    }
    let whole = json(&[&sat[..], &["--format", "json"]].concat());
    let total = whole["nodes_searched"].as_u64().unwrap();
    assert!(total > 5, "{whole}");
    let first = with(&["--node-limit", "5", "--format", "json"]);
    let first = json(&args(&first));
    assert_eq!(first["proved"], false);
    assert!(file.exists(), "a stopped search keeps its record");
    let recorded: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let before = recorded["refuted"].as_array().unwrap().len() as u64;
    assert_eq!(before, first["nodes_searched"].as_u64().unwrap());
    // The rest: only the vectors not refuted before, and the same answer.
    let rest = with(&[]);
    let rest = ok(&args(&rest));
    assert!(
        rest.contains("proved: no constant-distance embedding beats xor"),
        "{rest}"
    );
    assert!(
        rest.contains(&format!(
            "{} vectors decided ({before} more by the stopped run it went on from)",
            total - before
        )),
        "{rest}"
    );
    assert!(!file.exists(), "a completed search removes its record");
    // Another host's record, and the branch and bound's checkpoint.
    std::fs::write(
        &file,
        r#"{"guest":"cube:5","host":"torus:8x4","refuted":[]}"#,
    )
    .unwrap();
    let (code, _, err) = common::run(&args(&with(&[])));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("torus:8x4"), "{err}");
    std::fs::remove_file(&file).unwrap();
    // (a stopped search of another pair: its own kind of file is refused first)
    ok(&[
        "optimal",
        "cube:7",
        "torus:16x8",
        "--whole-tree",
        "--node-limit",
        "1000",
        "--checkpoint",
        path,
    ]);
    assert!(file.exists());
    let (code, _, err) = common::run(&args(&with(&[])));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a record of refuted vectors"), "{err}");
}

/// `--distances`: one vector decided, its embedding in the order asked;
/// vectors the bounds cut say so; bad vectors exit 2.
#[test]
fn one_distance_vector_is_decided() {
    // xor's own distances on 8x8, asked out of order: they embed.
    let v = json(&[
        "optimal",
        "cube:6",
        "torus:8x8",
        "--distances",
        "2,1,2,2,1,2",
        "--format",
        "json",
    ]);
    assert_eq!(
        (v["answer"].as_str(), v["sum"].as_u64()),
        (Some("embedding"), Some(10))
    );
    let map: Vec<u64> = v["map"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(map.len(), 64);
    // Node 1 (dimension 0) lies 2 from node 0, node 2 (dimension 1) 1 away.
    let torus = |a: u64, b: u64| {
        let (dx, dy) = ((a % 8).abs_diff(b % 8), (a / 8).abs_diff(b / 8));
        dx.min(8 - dx) + dy.min(8 - dy)
    };
    assert_eq!((torus(map[0], map[1]), torus(map[0], map[2])), (2, 1));
    let table = ok(&[
        "optimal",
        "cube:6",
        "torus:8x8",
        "--distances",
        "2,1,2,2,1,2",
    ]);
    assert!(
        table.contains("embeds: a constant-distance embedding"),
        "{table}"
    );
    // Below the optimum (Σ 9): cut by the bounds, or refuted when the
    // bounds are only counting.
    let cut = ok(&[
        "optimal",
        "cube:6",
        "torus:8x8",
        "--distances",
        "1,1,1,2,2,2",
    ]);
    assert!(cut.contains("(by the `energy` bounds)"), "{cut}");
    let refuted = json(&[
        "optimal",
        "cube:6",
        "torus:8x8",
        "--distances",
        "1,1,1,2,2,2",
        "--bounds",
        "counting",
        "--format",
        "json",
    ]);
    assert!(
        matches!(refuted["answer"].as_str(), Some("refuted" | "ruled_out")),
        "{refuted}"
    );
    // A vector the window lemma folds into a band, refuted by unit
    // propagation on it (any order of the distances).
    let banded = json(&[
        "optimal",
        "cube:10",
        "torus:128x8",
        "--distances",
        "32,1,1,2,3,4,8,8,8,32",
        "--format",
        "json",
    ]);
    assert_eq!(banded["answer"], "refuted", "{banded}");
    assert_eq!(banded["refuted"]["by"], "propagation", "{banded}");
    assert_eq!(banded["refuted"]["banded"], true, "{banded}");
    let table = ok(&[
        "optimal",
        "cube:10",
        "torus:128x8",
        "--distances",
        "32,1,1,2,3,4,8,8,8,32",
    ]);
    assert!(
        table.contains(
            "by the window lemma: unit propagation on its band formula ends in a conflict"
        ),
        "{table}"
    );
    for bad in ["1,1,2,2,2", "0,1,2,2,2,3", "1,1,2,2,2,9", "1,1,2,2,2,x"] {
        assert_bad_input(&["optimal", "cube:6", "torus:8x8", "--distances", bad]);
    }
    assert_bad_input(&[
        "optimal",
        "cube:6",
        "torus:8x8",
        "--distances",
        "1,1,2,2,2,2",
        "--certificate",
        "x",
    ]);
    // A sub-cube: three distances 1 embed nowhere in a 2-D torus (three
    // pairwise squares need three orthogonal directions), two do.
    let sub = ok(&["optimal", "cube:3", "torus:8x8", "--distances", "1,1,1"]);
    assert!(sub.contains("no constant-distance embedding"), "{sub}");
    let square = ok(&["optimal", "cube:2", "torus:8x8", "--distances", "1,1"]);
    assert!(square.contains("embeds"), "{square}");
    // The solver only places cubes filling the host; a larger cube fits not.
    assert_bad_input(&[
        "optimal",
        "cube:3",
        "torus:8x8",
        "--distances",
        "1,1,1",
        "--decide-by",
        "solver",
    ]);
    assert_bad_input(&[
        "optimal",
        "cube:7",
        "torus:8x8",
        "--distances",
        "1,1,1,1,1,1,1",
    ]);
}

/// `--decide-by`: the branch and bound alone or the solver alone decide
/// the same answer, each refuting every vector itself; a certificate by
/// the branch and bound cites the DRAT proofs of its cores (by the core search).
#[test]
fn each_way_of_deciding_vectors_gives_the_same_answer() {
    let sat = [
        "optimal", "cube:5", "ring:32", "--sat", "--bounds", "counting",
    ];
    for (how, by) in [
        // Many by the sub-cubes the first ones named (how many depends on
        // which the two threads decide first).
        ("search", "of them by a sub-cube refuted before), 0 by SAT"),
        ("solver", "0 by the branch and bound"),
        ("turns", "by the branch and bound"),
    ] {
        let out = ok(&[&sat[..], &["--decide-by", how]].concat());
        assert!(out.contains("optimum   23"), "{how}: {out}");
        assert!(
            out.contains("proved: no constant-distance embedding"),
            "{how}: {out}"
        );
        assert!(out.contains(by), "{how}: {out}");
    }
    let one = ok(&[
        "optimal",
        "cube:6",
        "torus:8x8",
        "--distances",
        "1,1,1,2,2,2",
        "--bounds",
        "counting",
        "--decide-by",
        "solver",
    ]);
    assert!(one.contains("(by the SAT solver,"), "{one}");
    let dir = common::temp_dir("optimal-decide-by");
    assert_bad_input(&[
        "optimal",
        "cube:5",
        "ring:32",
        "--sat",
        "--decide-by",
        "guess",
    ]);
    // A certificate by the branch and bound: its refutations cite the
    // solver's proofs of the cores, one per core, and it checks.
    for how in ["search", "turns"] {
        let cert = dir.join(how);
        let out = ok(&[
            "optimal",
            "cube:5",
            "ring:32",
            "--bounds",
            "counting",
            "--certificate",
            cert.to_str().unwrap(),
            "--decide-by",
            how,
        ]);
        assert!(out.contains("optimum   23"), "{how}: {out}");
        assert!(
            out.contains("citing the DRAT proof of its core"),
            "{how}: {out}"
        );
        let checked = ok(&["verify-certificate", cert.to_str().unwrap()]);
        assert!(checked.contains("certificate holds"), "{how}: {checked}");
        assert!(checked.contains("by the proofs of"), "{how}: {checked}");
    }
    // --decide-by alone implies --sat.
    let implied = ok(&[
        "optimal",
        "cube:5",
        "ring:32",
        "--bounds",
        "counting",
        "--decide-by",
        "search",
    ]);
    assert!(
        implied.contains("vectors decided after the `counting` bounds"),
        "{implied}"
    );
}
