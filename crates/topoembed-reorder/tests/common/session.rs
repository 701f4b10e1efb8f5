//! Open MPI session directories for the tests that start `mpirun` (this
//! crate's, through `common`, and topoembed-mpi's, which includes this
//! file by path).

/// A session directory of its own for each mpirun, for
/// `OMPI_MCA_orte_tmpdir_base`: two started at once (tests run in
/// parallel) race to create Open MPI's shared one under /tmp, and the loser
/// fails with "mkdir: File exists".
pub fn session_dir() -> String {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("te-ompi-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a session directory in the temporary directory");
    dir.display().to_string()
}
