//! Any bytes as one process's gathered counters (what rank 0 reads at
//! MPI_Finalize when recording): an error or counters that merge into a
//! recording, never a panic; what it reads writes and reads back the same.
#![no_main]
use libfuzzer_sys::fuzz_target;
use topoembed_reorder::record::recording::Recording;
use topoembed_reorder::record::wire::Export;

fuzz_target!(|bytes: &[u8]| {
    let Ok(e) = Export::from_bytes(bytes) else { return };
    assert_eq!(Export::from_bytes(&e.to_bytes()).as_ref(), Ok(&e));
    if let Ok(r) = Recording::gather(std::slice::from_ref(&e)) {
        let _ = r.summary(std::path::Path::new("fuzz.txt"));
    }
});
