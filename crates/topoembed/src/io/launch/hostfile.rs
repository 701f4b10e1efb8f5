//! Open MPI hostfiles: `name slots=N` per line, `#` comments, a name
//! alone one slot (`max_slots=` and the like are read past: they do not
//! change where ranks go). The machines in order, with their slots, are
//! what every launch file counts through ([`super::launch`]).

use std::path::Path;

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
