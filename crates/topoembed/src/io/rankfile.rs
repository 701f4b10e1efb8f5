//! Open MPI rankfiles, for users who place processes at launch instead of
//! reordering communicators: MPI_COMM_WORLD rank g (= guest node g) goes to
//! the slot of host node f(g).
//!
//! The machine is described by an Open MPI hostfile (`name slots=N` per
//! line, `#` comments; a name alone is one slot). Host node h is the h-th
//! slot counting through the file: the first machine's slots 0..N-1, then
//! the next machine's, and so on. The rankfile has one line per rank,
//! `rank g=name slot=s` (`mpirun --rankfile FILE`).

use std::io::Write;
use std::path::Path;

use crate::embed::Embedding;
use crate::error::{Error, Result};

/// A machine of a hostfile and its slot count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Machine {
    /// Host name as the launcher knows it.
    pub name: String,
    /// Processes it takes.
    pub slots: u64,
}

/// Parses an Open MPI hostfile; errors name the line.
pub fn parse_hostfile(text: &str) -> std::result::Result<Vec<Machine>, String> {
    let mut machines = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        let mut words = line.split_whitespace();
        let Some(name) = words.next() else {
            continue;
        };
        let mut slots = 1;
        for word in words {
            match word.split_once('=') {
                Some(("slots", n)) => {
                    slots = n.parse().ok().filter(|&n: &u64| n > 0).ok_or_else(|| {
                        format!(
                            "line {}: slots must be a count of at least 1, not '{n}'",
                            k + 1
                        )
                    })?;
                }
                // max_slots and the like do not change where ranks go.
                Some(_) => {}
                None => {
                    return Err(format!(
                        "line {}: '{word}' is not 'slots=N' (a hostfile line is 'name slots=N')",
                        k + 1
                    ))
                }
            }
        }
        machines.push(Machine {
            name: name.to_string(),
            slots,
        });
    }
    Ok(machines)
}

/// Reads an Open MPI hostfile.
pub fn read_hostfile(path: &Path) -> Result<Vec<Machine>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::File(format!("{}: cannot read: {e}", path.display())))?;
    parse_hostfile(&text).map_err(|m| Error::File(format!("{}: {m}", path.display())))
}

/// Writes the rankfile placing guest node g (world rank g) on host node
/// `embedding.map(g)`, for `guest_nodes` one-to-one onto `host_nodes`.
pub fn write_rankfile(
    guest_nodes: u64,
    host_nodes: u64,
    embedding: &dyn Embedding,
    machines: &[Machine],
    out: &mut dyn Write,
) -> Result<()> {
    let slots: u64 = machines.iter().map(|m| m.slots).sum();
    if slots != host_nodes {
        return Err(Error::Mismatch(format!(
            "the hostfile has {slots} slots on {} machines but the host has {host_nodes} nodes; \
             give one slot per host node",
            machines.len()
        )));
    }
    if guest_nodes != host_nodes {
        return Err(Error::Mismatch(format!(
            "a rankfile places one rank per slot: the guest has {guest_nodes} nodes, the host \
             {host_nodes}"
        )));
    }
    let ranks: Vec<u64> = (0..guest_nodes).map(|g| embedding.map(g)).collect();
    super::launch::write_launch(
        super::launch::LaunchFormat::Rankfile,
        &ranks,
        &super::launch::Slots::from_machines(machines.to_vec()),
        out,
    )
    .map_err(|e| match e {
        Error::Mismatch(m) => Error::Mismatch(format!(
            "'{}': {m}; a rankfile needs one rank per slot",
            embedding.method()
        )),
        other => other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostfiles() {
        let m = parse_hostfile("# cluster\nnode01 slots=2\nnode02 slots=2 max_slots=4\n\nnode03\n")
            .unwrap();
        assert_eq!(m.len(), 3);
        assert_eq!(
            (m[1].name.as_str(), m[1].slots, m[2].slots),
            ("node02", 2, 1)
        );
        for (text, says) in [
            (
                "a slots=0\n",
                "line 1: slots must be a count of at least 1, not '0'",
            ),
            ("a\nb slots=x\n", "line 2: slots must be"),
            ("a cores\n", "line 1: 'cores' is not 'slots=N'"),
        ] {
            assert!(parse_hostfile(text).unwrap_err().contains(says), "{text}");
        }
    }
}
