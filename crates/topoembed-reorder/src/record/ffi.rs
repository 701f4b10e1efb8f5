//! The C ABI the recorder's interposer (src/record.c) calls: the counters
//! of this process behind one lock, and rank 0's writing at
//! `MPI_Finalize`. Nothing unwinds into C: a panic is caught and, like any
//! error, becomes a warning (or a count left out); the application runs on.

use std::cell::RefCell;
use std::ffi::{c_char, c_int, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

use super::counters::Counters;
use super::recording::Recording;
use super::settings::record_path;
use super::traffic::CommunicatorKey;
use super::wire::Export;

/// The counters when several threads may call MPI at once
/// (`MPI_THREAD_SERIALIZED`, `MPI_THREAD_MULTIPLE`).
static COUNTERS: Mutex<Option<Counters>> = Mutex::new(None);

/// Whether only one thread ever calls MPI (`MPI_THREAD_SINGLE` or
/// `FUNNELED`): the counters are then that thread's own, with no lock —
/// the lock's two atomic operations were half the cost of counting a
/// message (13 of 25 ns, measured with perf).
static ONE_THREAD: AtomicBool = AtomicBool::new(false);

thread_local! {
    static LOCAL: RefCell<Option<Counters>> = const { RefCell::new(None) };
}

/// Runs `f` on the counters; a poisoned lock is taken over (counting must
/// go on) and a panic inside is swallowed.
fn with<T: Default>(f: impl FnOnce(&mut Counters) -> T) -> T {
    catch_unwind(AssertUnwindSafe(|| {
        if ONE_THREAD.load(Ordering::Relaxed) {
            LOCAL.with(|local| f(local.borrow_mut().get_or_insert_with(Counters::default)))
        } else {
            let mut guard: MutexGuard<'_, Option<Counters>> =
                COUNTERS.lock().unwrap_or_else(|e| e.into_inner());
            f(guard.get_or_insert_with(Counters::default))
        }
    }))
    .unwrap_or_default()
}

/// Tells the counters the thread level MPI provides (called once, before
/// anything is counted): 1 when only one thread calls MPI.
#[no_mangle]
pub extern "C" fn topoembed_record_one_thread(one: c_int) {
    ONE_THREAD.store(one != 0, Ordering::Relaxed);
}

/// 1 when `TOPOEMBED_RECORD` names a file (the library records), else 0.
#[no_mangle]
pub extern "C" fn topoembed_record_enabled() -> c_int {
    c_int::from(record_path().is_some())
}

/// A point-to-point message of `bytes` bytes to world rank `dest` (−1:
/// not translatable).
#[no_mangle]
pub extern "C" fn topoembed_record_send(dest: c_int, bytes: u64) {
    with(|c| c.send(dest, bytes));
}

/// What a neighbourhood collective sent world rank `dest`.
#[no_mangle]
pub extern "C" fn topoembed_record_neighbour(dest: c_int, bytes: u64) {
    with(|c| c.neighbour(dest, bytes));
}

/// A communicator seen for the first time: id `id`, `size` processes, rank
/// 0 world rank `leader` (−1 unknown), name `name` (may be null).
///
/// # Safety
/// `name` is null or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn topoembed_record_open(
    id: u64,
    leader: c_int,
    size: c_int,
    name: *const c_char,
) {
    let name = if name.is_null() {
        String::new()
    } else {
        CStr::from_ptr(name).to_string_lossy().into_owned()
    };
    let key = CommunicatorKey {
        leader: u32::try_from(leader).unwrap_or(u32::MAX),
        size: u32::try_from(size).unwrap_or(0),
        name,
    };
    with(|c| c.open(id, key));
}

/// Communicator `id` was freed.
#[no_mangle]
pub extern "C" fn topoembed_record_close(id: u64) {
    with(|c| c.close(id));
}

/// The world rank of rank `rank` of communicator `id` when translated
/// before (−1: not a world rank), else −2.
#[no_mangle]
pub extern "C" fn topoembed_record_world_rank(id: u64, rank: c_int) -> c_int {
    with(|c| c.world_rank(id, rank)).unwrap_or(-2)
}

/// Rank `rank` of communicator `id` is world rank `world` (−1: none).
#[no_mangle]
pub extern "C" fn topoembed_record_remember(id: u64, rank: c_int, world: c_int) {
    with(|c| c.remember(id, rank, world));
}

/// A call of collective `name` on communicator `id`, `bytes` from here.
///
/// # Safety
/// `name` is a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn topoembed_record_collective(id: u64, name: *const c_char, bytes: u64) {
    if name.is_null() {
        return;
    }
    let name = CStr::from_ptr(name).to_bytes();
    with(|c| c.collective(id, name, bytes));
}

/// A persistent send request made (`MPI_Send_init` and kin).
#[no_mangle]
pub extern "C" fn topoembed_record_persistent(request: usize, dest: c_int, bytes: u64) {
    with(|c| c.persistent(request, dest, bytes));
}

/// `MPI_Start` of `request`.
#[no_mangle]
pub extern "C" fn topoembed_record_start(request: usize) {
    with(|c| c.start(request));
}

/// `MPI_Request_free` of `request`.
#[no_mangle]
pub extern "C" fn topoembed_record_free_request(request: usize) {
    with(|c| c.free_request(request));
}

/// This process's counters as bytes to gather (`*len` of them; null on
/// failure); give them back with [`topoembed_record_release`].
///
/// # Safety
/// `len` points to a `size_t`.
#[no_mangle]
pub unsafe extern "C" fn topoembed_record_export(len: *mut usize) -> *mut u8 {
    // Both stores: this thread's and the shared one (only one is used in a
    // run, but merging costs nothing).
    let bytes = catch_unwind(AssertUnwindSafe(|| {
        let mut all = COUNTERS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .unwrap_or_default();
        if let Some(mine) = LOCAL.with(|local| local.borrow_mut().take()) {
            all.absorb(mine);
        }
        all.export().to_bytes()
    }))
    .ok();
    let Some(bytes) = bytes else {
        *len = 0;
        return std::ptr::null_mut();
    };
    let boxed = bytes.into_boxed_slice();
    *len = boxed.len();
    Box::into_raw(boxed).cast::<u8>()
}

/// Frees what [`topoembed_record_export`] returned.
///
/// # Safety
/// `blob` and `len` as that call returned them (or null).
#[no_mangle]
pub unsafe extern "C" fn topoembed_record_release(blob: *mut u8, len: usize) {
    if !blob.is_null() {
        drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(blob, len)));
    }
}

/// Rank 0: merges the gathered counters (`counts[r]` bytes from rank r,
/// one after another in `blobs`) and writes the recording; `message`
/// receives the line to print. Returns 0 when written, 1 when not.
///
/// # Safety
/// `blobs` holds the sum of `counts` (`world_size` ints) bytes; `message`
/// `message_len` bytes.
#[no_mangle]
pub unsafe extern "C" fn topoembed_record_write(
    world_size: c_int,
    blobs: *const u8,
    counts: *const c_int,
    message: *mut c_char,
    message_len: c_int,
) -> c_int {
    let result = catch_unwind(AssertUnwindSafe(|| {
        let path = record_path().ok_or("TOPOEMBED_RECORD is not set")?;
        let n = usize::try_from(world_size).map_err(|_| "a negative world size")?;
        let counts = if n == 0 {
            &[][..]
        } else {
            std::slice::from_raw_parts(counts, n)
        };
        let total: usize = counts.iter().map(|&c| c.max(0) as usize).sum();
        let all = if total == 0 {
            &[][..]
        } else {
            std::slice::from_raw_parts(blobs, total)
        };
        let mut exports = Vec::with_capacity(n);
        let mut at = 0;
        for (rank, &count) in counts.iter().enumerate() {
            let count = count.max(0) as usize;
            let e = Export::from_bytes(&all[at..at + count])
                .map_err(|e| format!("rank {rank}'s counters: {e}"))?;
            exports.push(e);
            at += count;
        }
        let recording = Recording::gather(&exports)?;
        let mut line = recording
            .write(&path)
            .map_err(|e| format!("{e}; the run goes on without a recording"))?;
        if recording.unattributed.messages > 0 {
            line.push_str(&format!(
                "\ntopoembed-reorder: warning: TOPOEMBED_RECORD: {} messages ({} bytes) went to \
                 processes outside MPI_COMM_WORLD (spawned or connected) or to ranks that could \
                 not be translated; they are counted in the summary, not in the graph",
                recording.unattributed.messages, recording.unattributed.bytes
            ));
        }
        Ok::<String, String>(line)
    }));
    let (code, text) = match result {
        Ok(Ok(line)) => (0, line),
        Ok(Err(e)) => (
            1,
            format!("topoembed-reorder: warning: TOPOEMBED_RECORD: {e}"),
        ),
        Err(_) => (
            1,
            "topoembed-reorder: warning: TOPOEMBED_RECORD: internal error while writing; \
             nothing was written"
                .to_string(),
        ),
    };
    copy_message(&text, message, message_len);
    code
}

/// Copies `text` into the C buffer, NUL-terminated, cut to fit.
unsafe fn copy_message(text: &str, message: *mut c_char, message_len: c_int) {
    let Ok(cap) = usize::try_from(message_len) else {
        return;
    };
    if message.is_null() || cap == 0 {
        return;
    }
    let bytes = text.as_bytes();
    let n = bytes.len().min(cap - 1);
    std::ptr::copy_nonoverlapping(bytes.as_ptr(), message.cast::<u8>(), n);
    *message.add(n) = 0;
}
