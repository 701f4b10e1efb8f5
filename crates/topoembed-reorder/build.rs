//! With the `mpi` feature: compiles the C interposer (src/shim.c) against the
//! MPI that `mpicc` wraps and links the library to it.

fn main() {
    #[cfg(feature = "mpi")]
    shim();
}

#[cfg(feature = "mpi")]
fn shim() {
    use std::process::Command;
    let mpicc = std::env::var("MPICC").unwrap_or_else(|_| "mpicc".into());
    let show = |what: &str| -> Vec<String> {
        let out = Command::new(&mpicc)
            .arg(format!("--showme:{what}"))
            .output()
            .unwrap_or_else(|e| {
                panic!("{mpicc} --showme:{what}: {e} (install libopenmpi-dev, or set MPICC)")
            });
        assert!(out.status.success(), "{mpicc} --showme:{what} failed");
        String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .map(String::from)
            .collect()
    };
    let mut build = cc::Build::new();
    build
        .file("src/shim.c")
        .file("src/record.c")
        .file("src/record_fortran.c")
        .warnings(true)
        .extra_warnings(true);
    for flag in show("compile") {
        match flag.strip_prefix("-I") {
            Some(dir) => {
                build.include(dir);
            }
            None => {
                build.flag(&flag);
            }
        }
    }
    build.compile("topoembed_reorder_shim");
    for flag in show("link") {
        if let Some(dir) = flag.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={dir}");
        } else if let Some(lib) = flag.strip_prefix("-l") {
            println!("cargo:rustc-link-lib=dylib={lib}");
        }
    }
    println!("cargo:rerun-if-changed=src/shim.c");
    println!("cargo:rerun-if-changed=src/record.c");
    println!("cargo:rerun-if-changed=src/record_fortran.c");
    println!("cargo:rerun-if-env-changed=MPICC");
}
