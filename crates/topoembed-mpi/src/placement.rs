//! Where MPI's world ranks sit on the host: world rank w on host node
//! `node_of(w)`. By default rank w is on node w; a placement file lists the
//! host node of each world rank, one per line, in world-rank order (`#`
//! starts a comment), so that a machine whose launcher numbers processes
//! differently from the host spec can say so.

use std::path::Path;

use topoembed::Error;

/// A one-to-one assignment of world ranks to host nodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    node_of: Vec<u64>,
}

impl Placement {
    /// World rank w on host node w.
    pub fn identity(ranks: u64) -> Placement {
        Placement {
            node_of: (0..ranks).collect(),
        }
    }

    /// Reads a placement file for a host of `host_nodes` nodes.
    pub fn read(path: &Path, host_nodes: u64) -> Result<Placement, Error> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::File(format!("{}: cannot read: {e}", path.display())))?;
        Placement::parse(&text, host_nodes)
            .map_err(|m| Error::File(format!("{}: {m}", path.display())))
    }

    /// Parses the text of a placement file; errors name the line.
    pub fn parse(text: &str, host_nodes: u64) -> Result<Placement, String> {
        let node_of = topoembed::io::parse_placement(text, host_nodes, host_nodes, 1)?;
        Ok(Placement { node_of })
    }

    /// Host node of world rank `rank`.
    pub fn node_of(&self, rank: u64) -> u64 {
        self.node_of[rank as usize]
    }

    /// Number of world ranks.
    pub fn len(&self) -> u64 {
        self.node_of.len() as u64
    }

    /// True when there are no ranks.
    pub fn is_empty(&self) -> bool {
        self.node_of.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_permutation_and_refuses_everything_else() {
        let p = Placement::parse("# rank -> node\n3\n1\n\n0 # first\n2\n", 4).unwrap();
        assert_eq!(
            (0..4).map(|r| p.node_of(r)).collect::<Vec<_>>(),
            [3, 1, 0, 2]
        );
        for (text, says) in [
            ("0\n1\n2\n", "lists 3 world ranks, but the host has 4 nodes"),
            (
                "0\n1\n1\n3\n",
                "line 3: host node 1 is given to world ranks 1 and 2",
            ),
            ("0\n1\nx\n3\n", "line 3: 'x' is not a host node number"),
            ("0\n1\n2\n4\n", "line 4: host node 4 does not exist"),
            ("0\n1\n-2\n3\n", "line 3: '-2' is not a host node number"),
        ] {
            let err = Placement::parse(text, 4).unwrap_err();
            assert!(err.contains(says), "{text:?}: {err}");
        }
        assert_eq!(Placement::identity(3).node_of(2), 2);
    }
}
