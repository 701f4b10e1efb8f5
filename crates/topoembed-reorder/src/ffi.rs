//! The C ABI the interposer (src/shim.c) calls on rank 0 of a communicator
//! being created. Nothing here unwinds into C: every entry point catches
//! panics and turns them, like every error, into a warning the interposer
//! prints before it falls back to the plain MPI call.
//!
//! Return codes of the planning calls: [`PLANNED`] (`new_rank` filled,
//! `message` the report line), [`FALL_BACK`] (`message` the warning),
//! [`NOTHING`] (a single process: nothing to place, no message).

use std::ffi::{c_char, c_int, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};

use topoembed::topology::Topology;
use topoembed::{Error, Result};

use crate::plan::{self, Plan};
use crate::settings::Settings;

/// The plan is made: `new_rank` holds each process's new rank.
pub const PLANNED: c_int = 0;
/// Something is wrong: `message` says what; the call runs unreordered.
pub const FALL_BACK: c_int = 1;
/// One process: nothing to reorder.
pub const NOTHING: c_int = 2;

/// 1 when `TOPOEMBED_HOST` is set (the library reorders), else 0.
#[no_mangle]
pub extern "C" fn topoembed_reorder_enabled() -> c_int {
    c_int::from(Settings::from_env().is_some())
}

/// 1 when the processes' names are needed (`TOPOEMBED_PER_NODE` above 1
/// without a placement file), else 0.
#[no_mangle]
pub extern "C" fn topoembed_reorder_wants_names() -> c_int {
    let wants = matches!(Settings::from_env(), Some(Ok(s)) if s.wants_names());
    c_int::from(wants)
}

/// 1 when `TOPOEMBED_REPORT=1`, else 0.
#[no_mangle]
pub extern "C" fn topoembed_reorder_report() -> c_int {
    c_int::from(matches!(Settings::from_env(), Some(Ok(s)) if s.report))
}

/// Plans a Cartesian communicator of `ndims` axes (`dims`, `periods` as
/// given to MPI_Cart_create) over `nprocs` processes of world ranks
/// `world_ranks` (and, when wanted, processor names: `nprocs` slots of
/// `name_len` bytes, each NUL-terminated).
///
/// # Safety
/// Every pointer must be valid for the lengths given; `names` may be null;
/// `message` must hold `message_len` bytes; `new_rank` `nprocs` ints.
#[no_mangle]
pub unsafe extern "C" fn topoembed_reorder_plan_cart(
    ndims: c_int,
    dims: *const c_int,
    periods: *const c_int,
    nprocs: c_int,
    world_size: c_int,
    world_ranks: *const c_int,
    names: *const c_char,
    name_len: c_int,
    new_rank: *mut c_int,
    message: *mut c_char,
    message_len: c_int,
) -> c_int {
    let call = "MPI_Cart_create";
    guarded(call, message, message_len, new_rank, || {
        let dims: Vec<i64> = ints(dims, ndims).iter().map(|&d| i64::from(d)).collect();
        let periods: Vec<bool> = ints(periods, ndims).iter().map(|&p| p != 0).collect();
        let Some(spec) = plan::cartesian_guest(&dims, &periods)? else {
            return Ok(None);
        };
        let guest = topoembed::topology::build(&spec)?;
        let label = format!("{} {} ({spec})", join(&dims, "x"), periodicity(&periods));
        let members = MemberInfo::read(nprocs, world_size, world_ranks, names, name_len);
        planned(call, &label, guest.as_ref(), &members)
    })
}

/// Plans a distributed-graph communicator: process v's destinations are
/// `targets[xadj[v]..xadj[v + 1]]` with volumes `weights` (null:
/// unweighted); `call` names the MPI function for the report.
///
/// # Safety
/// As [`topoembed_reorder_plan_cart`]; `xadj` holds `nprocs + 1` ints,
/// `targets` and (when not null) `weights` `xadj[nprocs]`; `call` is a C string.
#[no_mangle]
pub unsafe extern "C" fn topoembed_reorder_plan_graph(
    call: *const c_char,
    nprocs: c_int,
    world_size: c_int,
    world_ranks: *const c_int,
    names: *const c_char,
    name_len: c_int,
    xadj: *const c_int,
    targets: *const c_int,
    weights: *const c_int,
    new_rank: *mut c_int,
    message: *mut c_char,
    message_len: c_int,
) -> c_int {
    let call = CStr::from_ptr(call).to_string_lossy().into_owned();
    guarded(&call, message, message_len, new_rank, || {
        if nprocs <= 1 {
            return Ok(None);
        }
        let xadj: Vec<usize> = ints(xadj, nprocs + 1)
            .iter()
            .map(|&x| usize::try_from(x).map_err(|_| bad(&call, "a negative degree")))
            .collect::<Result<_>>()?;
        let total = *xadj.last().unwrap_or(&0) as c_int;
        let targets: Vec<u64> = ints(targets, total)
            .iter()
            .map(|&t| u64::try_from(t).map_err(|_| bad(&call, &format!("neighbour {t}"))))
            .collect::<Result<_>>()?;
        let weights: Option<Vec<u64>> = match weights.is_null() {
            true => None,
            false => Some(
                ints(weights, total)
                    .iter()
                    .map(|&w| u64::try_from(w).map_err(|_| bad(&call, &format!("weight {w}"))))
                    .collect::<Result<_>>()?,
            ),
        };
        let guest = plan::graph_guest(&call, &xadj, &targets, weights.as_deref())?;
        let label = format!(
            "graph of {nprocs} processes, {} edges{}",
            guest.edge_count(),
            if weights.is_some() { " (weighted)" } else { "" }
        );
        let members = MemberInfo::read(nprocs, world_size, world_ranks, names, name_len);
        planned(&call, &label, &guest, &members)
    })
}

/// The processes of the communicator: world ranks and, when gathered, names.
struct MemberInfo {
    world_size: u64,
    world_ranks: Vec<u64>,
    names: Option<Vec<String>>,
}

impl MemberInfo {
    unsafe fn read(
        nprocs: c_int,
        world_size: c_int,
        world_ranks: *const c_int,
        names: *const c_char,
        name_len: c_int,
    ) -> MemberInfo {
        let world_ranks = ints(world_ranks, nprocs)
            .iter()
            .map(|&r| r.max(0) as u64)
            .collect();
        let names = (!names.is_null() && name_len > 0).then(|| {
            (0..nprocs.max(0) as usize)
                .map(|p| {
                    let slot = std::slice::from_raw_parts(
                        names.add(p * name_len as usize).cast::<u8>(),
                        name_len as usize,
                    );
                    let end = slot.iter().position(|&b| b == 0).unwrap_or(slot.len());
                    String::from_utf8_lossy(&slot[..end]).into_owned()
                })
                .collect()
        });
        MemberInfo {
            world_size: world_size.max(0) as u64,
            world_ranks,
            names,
        }
    }
}

/// The plan of `guest` for these processes under the environment's settings.
fn planned(
    call: &str,
    label: &str,
    guest: &dyn Topology,
    members: &MemberInfo,
) -> Result<Option<(Plan, String)>> {
    let settings = Settings::from_env()
        .ok_or_else(|| Error::Parameter("TOPOEMBED_HOST is not set".into()))??;
    let host = plan::host(&settings.host)
        .map_err(|e| Error::Parameter(format!("TOPOEMBED_HOST={}: {e}", settings.host)))?;
    let nodes = settings.host_nodes(
        host.node_count(),
        members.world_size,
        &members.world_ranks,
        members.names.as_deref(),
    )?;
    let plan = plan::plan(guest, host.as_ref(), &nodes, settings.preset)?;
    let report = plan.report(call, label, &host.spec().to_string());
    Ok(Some((plan, report)))
}

/// Runs `body`, writing its outcome for the interposer.
unsafe fn guarded(
    call: &str,
    message: *mut c_char,
    message_len: c_int,
    new_rank: *mut c_int,
    body: impl FnOnce() -> Result<Option<(Plan, String)>>,
) -> c_int {
    let outcome = catch_unwind(AssertUnwindSafe(body))
        .unwrap_or_else(|_| Err(Error::Internal("the planner panicked".into())));
    match outcome {
        Ok(None) => NOTHING,
        Ok(Some((plan, report))) => {
            for (p, &r) in plan.new_rank.iter().enumerate() {
                *new_rank.add(p) = r as c_int;
            }
            write_message(message, message_len, &report);
            PLANNED
        }
        Err(e) => {
            let text = format!(
                "topoembed-reorder: warning: {call}: {e}; the call runs without reordering"
            );
            write_message(message, message_len, &text);
            FALL_BACK
        }
    }
}

/// Copies `text` into the C buffer, cut to fit, NUL-terminated.
unsafe fn write_message(message: *mut c_char, message_len: c_int, text: &str) {
    if message.is_null() || message_len <= 0 {
        return;
    }
    let bytes = text.as_bytes();
    let n = bytes.len().min(message_len as usize - 1);
    std::ptr::copy_nonoverlapping(bytes.as_ptr(), message.cast::<u8>(), n);
    *message.add(n) = 0;
}

/// `len` ints from `ptr` (none when null or `len` ≤ 0).
unsafe fn ints<'a>(ptr: *const c_int, len: c_int) -> &'a [c_int] {
    match ptr.is_null() || len <= 0 {
        true => &[],
        false => std::slice::from_raw_parts(ptr, len as usize),
    }
}

fn bad(call: &str, what: &str) -> Error {
    Error::Parameter(format!("{call}: {what} is not valid"))
}

fn join(values: &[i64], sep: &str) -> String {
    values
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(sep)
}

/// "periodic", "non-periodic" or "periods 1,0".
fn periodicity(periods: &[bool]) -> String {
    if periods.iter().all(|&p| p) {
        "periodic".into()
    } else if !periods.iter().any(|&p| p) {
        "non-periodic".into()
    } else {
        let flags: Vec<&str> = periods.iter().map(|&p| if p { "1" } else { "0" }).collect();
        format!("periods {}", flags.join(","))
    }
}
