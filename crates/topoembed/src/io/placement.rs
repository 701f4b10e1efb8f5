//! Placement files: the host node of each world rank of an MPI job, one per
//! line in world-rank order (`#` starts a comment), for machines whose
//! launcher numbers processes differently from the host spec. Read by
//! `topoembed-mpi --placement` (one rank per node) and by the preload
//! library's `TOPOEMBED_PLACEMENT` (up to `TOPOEMBED_PER_NODE` per node).

/// Parses a placement file for `ranks` world ranks on a host of
/// `host_nodes` nodes, no node given to more than `per_node` ranks; errors
/// name the line.
pub fn parse_placement(
    text: &str,
    host_nodes: u64,
    ranks: u64,
    per_node: u64,
) -> Result<Vec<u64>, String> {
    let mut node_of = Vec::new();
    // The ranks on each node so far (node numbers checked before use).
    let mut held = std::collections::HashMap::<u64, Vec<usize>>::new();
    for (k, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at = k + 1;
        let node: u64 = line
            .parse()
            .map_err(|_| format!("line {at}: '{line}' is not a host node number"))?;
        if node >= host_nodes {
            return Err(format!(
                "line {at}: host node {node} does not exist (the host has nodes 0..{})",
                host_nodes.saturating_sub(1)
            ));
        }
        let rank = node_of.len();
        let on = held.entry(node).or_default();
        if on.len() as u64 == per_node {
            return Err(match per_node {
                1 => format!("line {at}: host node {node} is given to world ranks {} and {rank}", on[0]),
                _ => format!(
                    "line {at}: host node {node} is given to more than {per_node} ranks (world ranks {on:?} and {rank})"
                ),
            });
        }
        on.push(rank);
        node_of.push(node);
    }
    if node_of.len() as u64 != ranks {
        let whose = match ranks == host_nodes && per_node == 1 {
            true => format!("the host has {host_nodes} nodes"),
            false => format!("the world has {ranks}"),
        };
        return Err(format!(
            "lists {} world ranks, but {whose} (one line per rank)",
            node_of.len()
        ));
    }
    Ok(node_of)
}

#[cfg(test)]
mod tests {
    use super::parse_placement;

    #[test]
    fn one_or_several_ranks_per_node() {
        assert_eq!(
            parse_placement("3\n# c\n1 # x\n0\n2\n", 4, 4, 1).unwrap(),
            vec![3, 1, 0, 2]
        );
        assert_eq!(
            parse_placement("0\n1\n1\n0\n", 4, 4, 2).unwrap(),
            vec![0, 1, 1, 0]
        );
        let err = |text: &str, per: u64| parse_placement(text, 4, 4, per).unwrap_err();
        assert_eq!(
            err("0\n1\nx\n3\n", 1),
            "line 3: 'x' is not a host node number"
        );
        assert!(err("0\n1\n7\n3\n", 1)
            .contains("line 3: host node 7 does not exist (the host has nodes 0..3)"));
        assert_eq!(
            err("0\n1\n1\n3\n", 1),
            "line 3: host node 1 is given to world ranks 1 and 2"
        );
        assert!(
            err("1\n1\n1\n3\n", 2).contains("line 3: host node 1 is given to more than 2 ranks")
        );
        assert!(err("0\n1\n2\n", 1).contains("lists 3 world ranks, but the host has 4 nodes"));
        assert!(parse_placement("0\n", 4, 2, 2)
            .unwrap_err()
            .contains("but the world has 2"));
    }
}
