//! The closed forms of the journal metrics (`closed_form`) against
//! enumeration, and the journal's comparisons of standard and xor as
//! assertions.

use topoembed::closed_form::{self, Journal, JournalMetrics};
use topoembed::embed;
use topoembed::metrics::{self, Metrics, Options, Routing};
use topoembed::routing::TieRule;
use topoembed::topology;

fn measured(guest: &str, host: &str, method: &str, ties: TieRule) -> Metrics {
    let g = topology::parse(guest).unwrap();
    let h = topology::parse(host).unwrap();
    let e = embed::build(method, g.as_ref(), h.as_ref()).unwrap();
    let options = Options {
        routing: Routing::Model(ties),
        ..Options::default()
    };
    metrics::measure(g.as_ref(), h.as_ref(), e.as_ref(), &options).unwrap()
}

fn assert_closed_form_holds(guest: &str, host: &str) {
    for method in ["standard", "xor"] {
        for ties in [TieRule::Increasing, TieRule::Decreasing] {
            let m = measured(guest, host, method, ties);
            let what = format!("{method} {guest} -> {host}, ties {ties}");
            let cf: &JournalMetrics = m
                .closed_form
                .as_ref()
                .unwrap_or_else(|| panic!("{what}: no closed form"));
            assert_eq!(cf.spectrum, m.dilation.spectrum, "{what}: spectrum");
            assert_eq!(cf.dilation_max, m.dilation.max, "{what}: longest dilation");
            assert_eq!(
                cf.dilation_total, m.dilation.total,
                "{what}: total dilation"
            );
            let load = m.node_load.unwrap();
            assert_eq!(cf.node_load_max, load.max, "{what}: max node load");
            assert_eq!(cf.node_load_min, load.min, "{what}: min node load");
            assert!(
                (cf.node_load_average - load.average).abs() < 1e-9,
                "{what}: average load"
            );
            assert_eq!(
                cf.congestion,
                m.congestion.unwrap().max,
                "{what}: congestion"
            );
        }
    }
}

#[test]
fn rings_match_enumeration_up_to_d_18() {
    for d in 2..=18u32 {
        assert_closed_form_holds(&format!("cube:{d}"), &format!("ring:{}", 1u64 << d));
    }
}

#[test]
fn square_tori_match_enumeration_for_k_up_to_10() {
    for k in 1..=10u32 {
        let side = 1u64 << k;
        assert_closed_form_holds(&format!("cube:{}", 2 * k), &format!("torus:{side}x{side}"));
        if k <= 6 {
            assert_closed_form_holds(
                &format!("cube:{}", 3 * k),
                &format!("torus:{side}x{side}x{side}"),
            );
        }
    }
}

#[test]
fn unequal_tori_match_enumeration() {
    for host in [
        "torus:2x4",
        "torus:4x16x8",
        "torus:2x2x8",
        "torus:32x2",
        "torus:8x2x4x2",
    ] {
        let d = topology::parse(host).unwrap().node_count().trailing_zeros();
        assert_closed_form_holds(&format!("cube:{d}"), host);
    }
}

#[test]
fn closed_forms_apply_only_where_they_hold() {
    let cube: topoembed::spec::Spec = "cube:6".parse().unwrap();
    for host in ["mesh:8x8", "torus:8x4"] {
        assert!(
            closed_form::journal(Journal::Standard, &cube, &host.parse().unwrap()).is_none(),
            "standard {host}"
        );
    }
    // The embedding says which closed form it has: Gray code has none.
    let (guest, host) = (
        topology::parse("cube:6").unwrap(),
        topology::parse("torus:8x8").unwrap(),
    );
    for (method, kind) in [
        ("gray", None),
        ("standard", Some(Journal::Standard)),
        ("xor", Some(Journal::Xor)),
    ] {
        let e = embed::build(method, guest.as_ref(), host.as_ref()).unwrap();
        assert_eq!(e.journal(), kind, "{method}");
    }
}

/// Journal §4.3-4.6 for large d: the standard embedding's total dilation and
/// average load are about 4/3 of the xor embedding's (33 % higher), and the
/// xor embedding's longest dilation is half the standard's; xor also has the
/// higher minimum and the lower maximum node load (§4.5.3).
#[test]
fn journal_comparisons_hold_for_large_d() {
    for d in [20u32, 24, 30, 36, 40] {
        for c in [1u32, 2, 4] {
            // The ratios approach 4/3 as each axis grows: 2^10 nodes and more.
            if d % c != 0 || d / c < 10 {
                continue;
            }
            let side = 1u64 << (d / c);
            let host = vec![side.to_string(); c as usize].join("x");
            let host: topoembed::spec::Spec =
                format!("{}:{host}", if c == 1 { "ring" } else { "torus" })
                    .parse()
                    .unwrap();
            let cube = topoembed::spec::Spec::Cube(d);
            let std = closed_form::journal(Journal::Standard, &cube, &host).unwrap();
            let xor = closed_form::journal(Journal::Xor, &cube, &host).unwrap();
            let what = format!("cube:{d} -> {host}");
            let total = std.dilation_total as f64 / xor.dilation_total as f64;
            assert!(
                (total - 4.0 / 3.0).abs() < 1e-3,
                "{what}: total dilation ratio {total}"
            );
            let load = std.node_load_average / xor.node_load_average;
            assert!(
                (load - 4.0 / 3.0).abs() < 1e-2,
                "{what}: average load ratio {load}"
            );
            assert_eq!(2 * xor.dilation_max, std.dilation_max, "{what}");
            assert!(
                xor.node_load_max < std.node_load_max && xor.node_load_min > std.node_load_min,
                "{what}"
            );
        }
    }
    // And measured, not only from the forms: the ring of 2^20.
    let std = measured("cube:20", "ring:1048576", "standard", TieRule::Increasing);
    let xor = measured("cube:20", "ring:1048576", "xor", TieRule::Increasing);
    let ratio = std.dilation.total as f64 / xor.dilation.total as f64;
    assert!(
        (ratio - 4.0 / 3.0).abs() < 1e-3,
        "measured total dilation ratio {ratio}"
    );
    assert_eq!(2 * xor.dilation.max, std.dilation.max);
}
