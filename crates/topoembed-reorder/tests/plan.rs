//! The planning behind the preload library, without MPI: guests from MPI's
//! arguments, plans checked against brute force, settings and placement
//! files, and the C ABI's outcome codes.

use std::ffi::{c_char, c_int, CStr, CString};

use proptest::prelude::*;
use topoembed::mapper::Preset;
use topoembed::spec::Spec;
use topoembed::topology::{self, Topology};
use topoembed_reorder::ffi;
use topoembed_reorder::plan::{self, Cost};
use topoembed_reorder::settings::Settings;

fn build(spec: &Spec) -> Box<dyn Topology> {
    topology::build(spec).unwrap()
}

/// Σ distance and the longest over every guest edge (both directions seen
/// once), guest node g on host node `at[g]`: the brute force the plan's
/// costs must equal.
fn brute(guest: &dyn Topology, host: &dyn Topology, at: &[u64]) -> Cost {
    let mut cost = Cost {
        hop_bytes: 0,
        max_dilation: 0,
    };
    for g in 0..guest.node_count() {
        for u in guest.neighbors(g) {
            if u > g {
                let d = host.distance(at[g as usize], at[u as usize]);
                cost.hop_bytes += u128::from(d);
                cost.max_dilation = cost.max_dilation.max(d);
            }
        }
    }
    cost
}

#[test]
fn cartesian_guests_reverse_mpi_axes_and_drop_sides_of_one() {
    let g = |dims: &[i64], periods: &[bool]| plan::cartesian_guest(dims, periods).unwrap();
    assert_eq!(g(&[16, 1], &[true, true]), Some(Spec::Ring(16)));
    assert_eq!(g(&[4, 4], &[false, false]), Some(Spec::Mesh(vec![4, 4])));
    assert_eq!(g(&[4, 8], &[true, true]), Some(Spec::Torus(vec![8, 4])));
    assert_eq!(
        g(&[4, 3], &[true, false]),
        Some(Spec::Grid(vec![3, 4], vec![false, true]))
    );
    // A periodic side of 2 is one edge.
    assert_eq!(
        g(&[2, 4, 2], &[true, true, true]),
        Some(Spec::Grid(vec![2, 4, 2], vec![false, true, false]))
    );
    assert_eq!(g(&[1, 1], &[true, false]), None);
    assert!(plan::cartesian_guest(&[0, 4], &[true, true]).is_err());
    assert!(plan::cartesian_guest(&[4], &[true, true]).is_err());
}

#[test]
fn a_ring_on_a_torus_gets_dilation_one() {
    let guest = build(&Spec::Ring(16));
    let host = build(&Spec::Torus(vec![4, 4]));
    let members: Vec<u64> = (0..16).collect();
    let p = plan::plan(guest.as_ref(), host.as_ref(), &members, Preset::Default).unwrap();
    assert_eq!(p.before, brute(guest.as_ref(), host.as_ref(), &members));
    assert_eq!(p.before.max_dilation, 2);
    assert_eq!(p.after.max_dilation, 1);
    assert_eq!(p.after.hop_bytes, 16);
    assert_ne!(
        p.method, "map",
        "a closed form reaches every edge at one hop"
    );
    let line = p.report("MPI_Cart_create", "16x1 periodic (ring:16)", "torus:4x4");
    assert!(
        line.contains("hop-bytes 20 -> 16, max dilation 2 -> 1"),
        "{line}"
    );
}

#[test]
fn processes_sharing_nodes_take_the_nodes_guest_nodes() {
    // 16 processes, two per node of ring:8 (processes 2k and 2k + 1 on node k).
    let guest = build(&Spec::Ring(16));
    let host = build(&Spec::Ring(8));
    let members: Vec<u64> = (0..16).map(|p| p / 2).collect();
    let p = plan::plan(guest.as_ref(), host.as_ref(), &members, Preset::Default).unwrap();
    let mut at = vec![0u64; 16];
    for (proc_, &g) in p.new_rank.iter().enumerate() {
        at[g as usize] = members[proc_];
    }
    assert_eq!(p.after, brute(guest.as_ref(), host.as_ref(), &at));
    assert_eq!(p.after.max_dilation, 1);
}

#[test]
fn uneven_processes_are_refused() {
    let guest = build(&Spec::Ring(8));
    let host = build(&Spec::Ring(8));
    let mut members: Vec<u64> = (0..8).collect();
    members[7] = 0;
    let e = plan::plan(guest.as_ref(), host.as_ref(), &members, Preset::Default)
        .unwrap_err()
        .to_string();
    assert!(e.contains("do not fill ring:8 evenly"), "{e}");
    let e = plan::plan(guest.as_ref(), host.as_ref(), &[0, 1, 2], Preset::Default)
        .unwrap_err()
        .to_string();
    assert!(e.contains("has 8 nodes but the communicator has 3"), "{e}");
    let e = plan::plan(
        guest.as_ref(),
        host.as_ref(),
        &[0, 1, 2, 3, 4, 5, 6, 9],
        Preset::Default,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("host node 9"), "{e}");
}

#[test]
fn graph_guests_add_both_directions() {
    // 0 -> 1 (3), 1 -> 0 (4), 1 -> 2 (unweighted 1 each way), a self-loop.
    let g = plan::graph_guest("t", &[0, 1, 3, 4], &[1, 0, 2, 1], Some(&[3, 4, 1, 1])).unwrap();
    assert_eq!(g.node_count(), 3);
    assert_eq!(g.edge_count(), 2);
    let wg = topoembed::mapper::WGraph::from_topology(&g).unwrap();
    let vol: Vec<(usize, u64)> = wg.edges(1).collect();
    assert_eq!(vol, vec![(0, 7), (2, 2)]);
    let e = plan::graph_guest("MPI_Dist_graph_create", &[0, 1], &[5], None).unwrap_err();
    assert!(e.to_string().contains("neighbour 5"), "{e}");
    let looped = plan::graph_guest("t", &[0, 1, 1], &[0], None).unwrap();
    assert_eq!(looped.edge_count(), 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Any grid guest of a torus's size, at either preset: the plan is a
    /// permutation, its costs are the brute force's, and it is never worse
    /// than MPI's order.
    #[test]
    fn plans_are_permutations_never_worse(
        a in 1u32..4,
        b in 1u32..4,
        split in 0u32..6,
        wrap in any::<bool>(),
        preset in prop::sample::select(Preset::ALL.to_vec()),
    ) {
        let host = build(&Spec::Torus(vec![1 << a, 1 << b]));
        let n = 1u64 << (a + b);
        let first = 1u64 << split.min(a + b);
        let dims: Vec<i64> = [first, n / first].into_iter().map(|d| d as i64).collect();
        let Some(spec) = plan::cartesian_guest(&dims, &[wrap, true]).unwrap() else {
            return Ok(());
        };
        let guest = build(&spec);
        let members: Vec<u64> = (0..n).collect();
        let p = plan::plan(guest.as_ref(), host.as_ref(), &members, preset).unwrap();
        let mut seen = p.new_rank.clone();
        seen.sort_unstable();
        prop_assert_eq!(seen, (0..n as u32).collect::<Vec<_>>());
        let mut at = vec![0u64; n as usize];
        for (proc_, &g) in p.new_rank.iter().enumerate() {
            at[g as usize] = members[proc_];
        }
        prop_assert_eq!(p.after, brute(guest.as_ref(), host.as_ref(), &at));
        prop_assert_eq!(p.before, brute(guest.as_ref(), host.as_ref(), &members));
        prop_assert!((p.after.hop_bytes, p.after.max_dilation) <= (p.before.hop_bytes, p.before.max_dilation));
    }
}

#[test]
fn settings_and_placement_files() {
    let s = Settings::parse("torus:4x4", None, Some("2"), Some("1")).unwrap();
    assert_eq!((s.per_node, s.report, s.wants_names()), (2, true, true));
    let s = Settings::parse("torus:4x4", Some("p.txt"), Some("2"), None).unwrap();
    assert!(!s.wants_names() && !s.report);
    for bad in ["0", "two", "-1"] {
        let e = Settings::parse("torus:4x4", None, Some(bad), None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("TOPOEMBED_PER_NODE"), "{e}");
    }
    // TOPOEMBED_PRESET: default when unset, fast and strong by name, anything else refused.
    assert_eq!(s.preset, Preset::Default);
    let fast = s.clone().with_preset(Some(" fast ")).unwrap();
    assert_eq!(fast.preset, Preset::Fast);
    assert_eq!(fast.with_preset(None).unwrap().preset, Preset::Default);
    let strong = s.clone().with_preset(Some("strong")).unwrap();
    assert_eq!(strong.preset, Preset::Strong);
    let e = s.with_preset(Some("quick")).unwrap_err().to_string();
    assert!(
        e.contains("TOPOEMBED_PRESET=quick: give default, fast or strong"),
        "{e}"
    );
    // Placement files: topoembed::io::parse_placement's tests; here the file's name.
    let e = topoembed_reorder::settings::read_placement("/nonexistent/p".as_ref(), 4, 4, 1)
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("TOPOEMBED_PLACEMENT /nonexistent/p: cannot read"),
        "{e}"
    );
}

/// Under Slurm, a Slurm-topology host becomes the job's allocation: the
/// nodes SLURM_JOB_NODELIST names, in its order; other hosts, and hosts
/// with an allocation already, are left as given.
#[test]
fn slurm_hosts_take_the_jobs_nodes() {
    let tree = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../topoembed/tests/data/slurm/tree.conf"
    );
    let s = Settings::parse(&format!("slurm:{tree}"), None, None, None)
        .unwrap()
        .with_job_nodes(Some("dev[4-7]"));
    assert_eq!(s.host, format!("slurm:{tree}@dev[4-7]"));
    let host = plan::host(&s.host).unwrap();
    assert_eq!(host.node_count(), 4);
    assert_eq!(host.distance(1, 2), 4, "dev5 under s0, dev6 under s1");
    let torus = Settings::parse("torus:4x4", None, None, None)
        .unwrap()
        .with_job_nodes(Some("dev[4-7]"));
    assert_eq!(torus.host, "torus:4x4");
    let given = Settings::parse(&format!("slurm:{tree}@dev[0-1]"), None, None, None)
        .unwrap()
        .with_job_nodes(Some("dev[4-7]"));
    assert!(given.host.ends_with("@dev[0-1]"));
}

#[test]
fn processes_are_grouped_by_name() {
    let s = Settings::parse("ring:4", None, Some("2"), None).unwrap();
    let names: Vec<String> = ["a", "b", "a", "b", "a", "a"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    // World ranks 0..6: a holds 0, 2, 4, 5 (nodes 0, 0, 2, 2), b 1, 3 (node 1).
    let nodes = s
        .host_nodes(4, 6, &[0, 1, 2, 3, 4, 5], Some(&names))
        .unwrap();
    assert_eq!(nodes, vec![0, 1, 0, 1, 2, 2]);
    // In another order of the communicator, the same nodes per world rank.
    let nodes = s
        .host_nodes(
            4,
            6,
            &[5, 4, 3, 2, 1, 0],
            Some(&names[..].iter().rev().cloned().collect::<Vec<_>>()),
        )
        .unwrap();
    assert_eq!(nodes, vec![2, 2, 1, 0, 1, 0]);
    let s = Settings::parse("ring:2", None, Some("1"), None).unwrap();
    let e = s
        .host_nodes(2, 3, &[0, 1, 2], None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("world rank 2 has no host node"), "{e}");
    let s = Settings::parse("ring:2", None, Some("2"), None).unwrap();
    let three: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let e = s
        .host_nodes(2, 3, &[0, 1, 2], Some(&three))
        .unwrap_err()
        .to_string();
    assert!(e.contains("more than the host's 2 nodes"), "{e}");
}

/// The C ABI: a plan, a fallback with its warning, and nothing to do. (The
/// only test that sets the environment.)
#[test]
fn the_c_abi_reports_plans_and_warnings() {
    let mut message = vec![0 as c_char; 512];
    let mut new_rank = vec![-1 as c_int; 16];
    let world: Vec<c_int> = (0..16).collect();
    let cart = |dims: &[c_int], message: &mut [c_char], new_rank: &mut [c_int]| unsafe {
        ffi::topoembed_reorder_plan_cart(
            dims.len() as c_int,
            dims.as_ptr(),
            [1, 1].as_ptr(),
            16,
            16,
            world.as_ptr(),
            std::ptr::null(),
            0,
            new_rank.as_mut_ptr(),
            message.as_mut_ptr(),
            message.len() as c_int,
        )
    };
    let text = |m: &[c_char]| {
        unsafe { CStr::from_ptr(m.as_ptr()) }
            .to_string_lossy()
            .into_owned()
    };
    std::env::remove_var("TOPOEMBED_HOST");
    assert_eq!(ffi::topoembed_reorder_enabled(), 0);
    std::env::set_var("TOPOEMBED_HOST", "torus:4x4");
    std::env::set_var("TOPOEMBED_REPORT", "1");
    assert_eq!(
        (
            ffi::topoembed_reorder_enabled(),
            ffi::topoembed_reorder_report()
        ),
        (1, 1)
    );
    assert_eq!(ffi::topoembed_reorder_wants_names(), 0);
    assert_eq!(cart(&[16, 1], &mut message, &mut new_rank), ffi::PLANNED);
    assert!(
        text(&message).contains("max dilation 2 -> 1"),
        "{}",
        text(&message)
    );
    let mut sorted = new_rank.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..16).collect::<Vec<_>>());
    assert_eq!(cart(&[1, 1], &mut message, &mut new_rank), ffi::NOTHING);
    std::env::set_var("TOPOEMBED_HOST", "torus:3x");
    assert_eq!(cart(&[16, 1], &mut message, &mut new_rank), ffi::FALL_BACK);
    let warning = text(&message);
    assert!(
        warning.starts_with("topoembed-reorder: warning: MPI_Cart_create: TOPOEMBED_HOST=torus:3x"),
        "{warning}"
    );
    assert!(
        warning.ends_with("the call runs without reordering"),
        "{warning}"
    );
    // A message longer than the buffer is cut, still NUL-terminated.
    let mut short = vec![1 as c_char; 8];
    assert_eq!(cart(&[16, 1], &mut short, &mut new_rank), ffi::FALL_BACK);
    assert_eq!(text(&short), "topoemb");
    // A graph with a negative weight falls back.
    std::env::set_var("TOPOEMBED_HOST", "ring:2");
    let call = CString::new("MPI_Dist_graph_create_adjacent").unwrap();
    let code = unsafe {
        ffi::topoembed_reorder_plan_graph(
            call.as_ptr(),
            2,
            2,
            [0, 1].as_ptr(),
            std::ptr::null(),
            0,
            [0, 1, 2].as_ptr(),
            [1, 0].as_ptr(),
            [3, -1].as_ptr(),
            new_rank.as_mut_ptr(),
            message.as_mut_ptr(),
            message.len() as c_int,
        )
    };
    assert_eq!(code, ffi::FALL_BACK);
    assert!(
        text(&message).contains("weight -1 is not valid"),
        "{}",
        text(&message)
    );
}
