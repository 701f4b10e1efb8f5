//! `simulate` as a user asks it ([`topoembed::workload`]): which trace a
//! request gets, the CC recurrence beside it, the refusals.

use std::cell::RefCell;
use std::sync::Arc;

use topoembed::embed::{self, Embedding};
use topoembed::simulate::Network;
use topoembed::topology::{self, Topology};
use topoembed::workload::{self, Ask, TraceFrom, Traced, Workload};

/// A guest, a host and an embedding between them.
type Pair = (Arc<dyn Topology>, Arc<dyn Topology>, Arc<dyn Embedding>);

fn pair(guest: &str, host: &str, method: &str) -> Pair {
    let g: Arc<dyn Topology> = Arc::from(topology::parse(guest).unwrap());
    let h: Arc<dyn Topology> = Arc::from(topology::parse(host).unwrap());
    let e: Arc<dyn Embedding> = Arc::from(embed::build(method, g.as_ref(), h.as_ref()).unwrap());
    (g, h, e)
}

fn ask(workload: Workload, trace: Option<TraceFrom>) -> Ask<'static> {
    Ask {
        workload,
        n: None,
        iterations: 4,
        trace,
        force: false,
    }
}

/// [`workload::trace`] of `ask` on `pair`, on the default network, notes dropped.
fn traced(ask: &Ask, (g, h, e): &Pair) -> topoembed::Result<Traced> {
    workload::trace(
        ask,
        g.clone(),
        h.clone(),
        e.clone(),
        &Network::default(),
        &|_| {},
    )
}

#[test]
fn one_to_one_runs_are_recorded_and_many_to_one_built_from_the_cc_structure() {
    let p = pair("cube:4", "ring:16", "xor");
    let recorded = traced(&ask(Workload::Fft, None), &p).unwrap();
    assert!(recorded.ranks.is_some() && recorded.problem.is_some());
    let on_3 = recorded.ranks.as_ref().unwrap().guest_of(3).unwrap();
    assert_eq!(recorded.label(3), format!("rank 3 (guest {on_3})"));
    let built = traced(&ask(Workload::Fft, Some(TraceFrom::Cc)), &p).unwrap();
    assert!(built.ranks.is_none());
    // Without contention, both take the CC recurrence's time (xor paper).
    let (g, h, e) = &p;
    let free = Network {
        contention: false,
        ..Network::default()
    };
    let cc = workload::recurrence(
        built.problem.as_ref(),
        g.as_ref(),
        h.as_ref(),
        e.as_ref(),
        &free,
    )
    .unwrap()
    .unwrap();
    for t in [&recorded, &built] {
        let (_, without) =
            workload::with_and_without(&t.trace, h.as_ref(), &free, 0, None).unwrap();
        assert_eq!(without, cc);
    }
    let many = traced(
        &ask(Workload::Allreduce, None),
        &pair("cube:6", "ring:16", "map"),
    )
    .unwrap();
    assert!(
        many.ranks.is_none(),
        "a many-to-one embedding gets the CC structure"
    );
}

#[test]
fn halos_follow_the_guest_and_bad_requests_are_refused() {
    let p = pair("torus:4x4", "ring:16", "snake");
    let halo = traced(&ask(Workload::Halo, None), &p).unwrap();
    assert!(halo.problem.is_none());
    // One process per guest node.
    assert_eq!(halo.trace.processes(), 16);
    let refused = |a: &Ask| traced(a, &p).err().unwrap().to_string();
    assert!(refused(&ask(Workload::Halo, Some(TraceFrom::Run)))
        .contains("--trace run is for the runtime"));
    let zero = Ask {
        iterations: 0,
        ..ask(Workload::Halo, None)
    };
    assert!(refused(&zero).contains("at least 1"));
    let bad_n = Ask {
        n: Some("many"),
        ..ask(Workload::Halo, None)
    };
    assert!(refused(&bad_n).contains("got 'many'"));
}

#[test]
fn short_work_says_nothing() {
    let said = RefCell::new(Vec::<String>::new());
    let say = |note: &str| said.borrow_mut().push(note.to_string());
    let (g, h, e) = pair("cube:4", "ring:16", "xor");
    workload::check_work(
        &ask(Workload::Bitonic, None),
        g.as_ref(),
        h.as_ref(),
        e.as_ref(),
        &say,
    )
    .unwrap();
    assert!(said.borrow().is_empty(), "{:?}", said.borrow());
}
