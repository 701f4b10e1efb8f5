//! `topoembed optimal` end to end: the JSON keys the issue names, the
//! verdict in the table, and bad input with exit 2.

mod common;

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
    assert!(v["nodes_searched"].as_u64().unwrap() > 0);
}

#[test]
fn table_states_what_was_proved() {
    let out = ok(&["optimal", "cube:4", "torus:4x4"]);
    assert!(
        out.contains("proved: no constant-distance embedding beats xor here"),
        "{out}"
    );
    let stopped = ok(&["optimal", "cube:7", "torus:16x8", "--node-limit", "1024"]);
    assert!(stopped.contains("not proved"), "{stopped}");
}

#[test]
fn bad_input_exits_2() {
    assert_bad_input(&["optimal", "cube:4", "torus:4x3"]);
    assert_bad_input(&["optimal", "cube:4", "torus:4x8"]);
    assert_bad_input(&["optimal", "cube:13", "ring:8192"]);
    assert_bad_input(&["optimal", "ring:16", "torus:4x4"]);
    assert_bad_input(&["optimal", "cube:4", "mesh:4x4"]);
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
