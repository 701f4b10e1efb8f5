//! Open MPI session directories for the tests that start `mpirun` (this
//! crate's, through `common`, and topoembed-mpi's, which includes this
//! file by path).

/// A session directory of its own for each mpirun, for
/// `OMPI_MCA_orte_tmpdir_base`: two started at once (tests run in
/// parallel) race to create Open MPI's shared one under /tmp, and the loser
/// fails with "mkdir: File exists". A short path under the system's
/// temporary directory (Open MPI's sockets live in it, and a socket's path
/// is at most 107 bytes), removed with its contents when the value is
/// dropped: keep it until `mpirun` has returned
/// ([`mpirun_command`] sets it).
pub fn session_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("te-ompi-")
        .tempdir()
        .expect("a session directory in the temporary directory")
}

/// `timeout 120 mpirun --allow-run-as-root --oversubscribe -np NP` (a hang
/// fails instead of stalling the tests) in a session directory of its own
/// ([`session_dir`]): keep the directory until the command has run.
pub fn mpirun_command(np: impl ToString) -> (std::process::Command, tempfile::TempDir) {
    let session = session_dir();
    let mut cmd = std::process::Command::new("timeout");
    cmd.env("OMPI_MCA_orte_tmpdir_base", session.path())
        .arg("120")
        .args(["mpirun", "--allow-run-as-root", "--oversubscribe", "-np"])
        .arg(np.to_string());
    (cmd, session)
}
