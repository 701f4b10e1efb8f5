//! Edge-disjoint Hamiltonian cycles of the n-cube (Ho & Johnsson §5, Lemma 6).

use topoembed::hamiltonian::{cycles, verify};

/// Every cube from 2 to 16 (the range) and the odd ones between:
/// ⌊n/2⌋ cycles, each through all 2^n nodes along cube edges, no edge on two
/// cycles; for even n every edge is used (a Hamiltonian decomposition).
#[test]
fn cycles_of_every_cube_up_to_16() {
    for n in 2..=16 {
        let found = cycles(n).unwrap();
        assert_eq!(found.len(), (n / 2) as usize, "cube:{n}");
        assert_eq!(verify(n, &found), Ok(()), "cube:{n}");
        let edges: usize = found.iter().map(Vec::len).sum();
        let cube_edges = (n as usize) << (n - 1);
        if n % 2 == 0 {
            assert_eq!(edges, cube_edges, "cube:{n} decomposed");
        } else {
            assert_eq!(edges, cube_edges - (1 << (n - 1)), "cube:{n}");
        }
    }
}

#[test]
fn tampered_cycles_fail_verification() {
    let mut found = cycles(6).unwrap();
    found[1].swap(3, 4);
    assert!(verify(6, &found).is_err());
    let mut found = cycles(6).unwrap();
    found[2] = found[0].clone();
    assert!(verify(6, &found).unwrap_err().contains("two cycles"));
}

#[test]
fn sizes_without_cycles_are_errors() {
    for n in [0, 1] {
        let e = cycles(n).unwrap_err();
        assert!(
            e.is_user_error() && e.to_string().contains("no Hamiltonian cycle"),
            "{e}"
        );
    }
    let e = cycles(30).unwrap_err();
    assert!(e.to_string().contains("too large"), "{e}");
}

#[test]
fn every_cycle_starts_at_node_zero() {
    for n in 2..=9 {
        assert!(cycles(n).unwrap().iter().all(|c| c[0] == 0), "cube:{n}");
    }
}
