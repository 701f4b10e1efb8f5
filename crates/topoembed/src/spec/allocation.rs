//! Allocations: `HOST@NODES`, the nodes of a machine a job was given, in
//! the order they become the allocation's nodes 0..n−1 — inline
//! (`torus:8x8x8@0-15,32,40-47`) or from a file of host node ids
//! (`torus:8x8x8@alloc.txt`: whitespace-separated, `#` starts a comment).

use std::fmt;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Most nodes an allocation lists (its pairs are its host's edges).
pub const MAX_ALLOCATION_NODES: u64 = 1 << 24;

/// The host nodes of an allocation, as written.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AllocationNodes {
    /// Listed inline: host node ids in allocation order.
    Listed(Vec<u64>),
    /// A file of host node ids.
    File(PathBuf),
}

impl AllocationNodes {
    /// Inline lists are digits, commas, dashes and blanks; anything else is a file.
    pub(super) fn parse(whole: &str, text: &str) -> Result<AllocationNodes> {
        let text = text.trim();
        if text.is_empty() {
            return Err(Error::Spec(format!(
                "'{whole}' names no nodes after '@'; write HOST@0-15,32 or HOST@FILE"
            )));
        }
        if text
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b',' || b == b'-' || b == b' ')
        {
            return Ok(AllocationNodes::Listed(parse_ranges(whole, text)?));
        }
        Ok(AllocationNodes::File(PathBuf::from(text)))
    }

    /// The host node ids, reading the file when there is one.
    pub fn resolve(&self) -> Result<Vec<u64>> {
        match self {
            AllocationNodes::Listed(nodes) => Ok(nodes.clone()),
            AllocationNodes::File(path) => read_allocation(path),
        }
    }
}

impl fmt::Display for AllocationNodes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AllocationNodes::File(path) => write!(f, "{}", path.display()),
            AllocationNodes::Listed(nodes) => write!(f, "{}", ranges(nodes)),
        }
    }
}

/// `0-15,32,40-47`: ranges and single ids, in order.
fn parse_ranges(whole: &str, text: &str) -> Result<Vec<u64>> {
    let mut nodes = Vec::new();
    for part in text.split(',') {
        let part = part.trim();
        let id = |t: &str| {
            t.trim().parse::<u64>().map_err(|_| {
                Error::Spec(format!(
                    "'{whole}': '{part}' is not a node id or a range like 40-47"
                ))
            })
        };
        let (lo, hi) = match part.split_once('-') {
            Some((lo, hi)) => (id(lo)?, id(hi)?),
            None => (id(part)?, id(part)?),
        };
        if hi < lo {
            return Err(Error::Spec(format!(
                "'{whole}': range {part} runs backwards; write {hi}-{lo}"
            )));
        }
        if (nodes.len() as u64).saturating_add(hi - lo + 1) > MAX_ALLOCATION_NODES {
            return Err(Error::Spec(format!(
                "'{whole}' lists more than 2^24 nodes; an allocation holds at most 2^24"
            )));
        }
        nodes.extend(lo..=hi);
    }
    Ok(nodes)
}

/// The shortest inline form of `nodes`: runs of consecutive ids as ranges.
pub fn ranges(nodes: &[u64]) -> String {
    let mut parts = Vec::new();
    let mut k = 0;
    while k < nodes.len() {
        let mut end = k;
        while end + 1 < nodes.len() && nodes[end + 1] == nodes[end] + 1 {
            end += 1;
        }
        parts.push(if end == k {
            nodes[k].to_string()
        } else {
            format!("{}-{}", nodes[k], nodes[end])
        });
        k = end + 1;
    }
    parts.join(",")
}

/// Reads an allocation file: host node ids separated by blanks or lines,
/// `#` to the end of a line a comment.
pub fn read_allocation(path: &Path) -> Result<Vec<u64>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::File(format!("{}: cannot read: {e}", path.display())))?;
    parse_allocation(path, &text)
}

/// [`read_allocation`] on text already read; `path` names it in errors.
pub fn parse_allocation(path: &Path, text: &str) -> Result<Vec<u64>> {
    let mut nodes = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        for word in line.split_whitespace() {
            let id = word.parse::<u64>().map_err(|_| {
                Error::File(format!(
                    "{}:{}: '{word}' is not a host node id (a whole number)",
                    path.display(),
                    k + 1
                ))
            })?;
            nodes.push(id);
            if nodes.len() as u64 > MAX_ALLOCATION_NODES {
                return Err(Error::File(format!(
                    "{}:{}: more than 2^24 nodes; an allocation holds at most 2^24",
                    path.display(),
                    k + 1
                )));
            }
        }
    }
    if nodes.is_empty() {
        return Err(Error::File(format!(
            "{}: names no host nodes; list their ids, one per line or separated by blanks",
            path.display()
        )));
    }
    Ok(nodes)
}

/// Checks an allocation against its host's node count: every id inside,
/// none twice, at least two.
pub fn check_allocation(host: &str, host_nodes: u64, nodes: &[u64]) -> Result<()> {
    if nodes.len() < 2 {
        return Err(Error::Spec(format!(
            "{host}@{}: an allocation needs at least 2 nodes",
            ranges(nodes)
        )));
    }
    if let Some(&id) = nodes.iter().find(|&&id| id >= host_nodes) {
        return Err(Error::Spec(format!(
            "{host}: allocation node {id} is outside the host (nodes 0..{})",
            host_nodes - 1
        )));
    }
    let mut sorted: Vec<(u64, usize)> = nodes.iter().copied().zip(0..).collect();
    sorted.sort_unstable();
    if let Some(w) = sorted.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(Error::Spec(format!(
            "{host}: host node {} is listed twice in the allocation (as its nodes {} and {})",
            w[0].0, w[0].1, w[1].1
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_round_trip() {
        let nodes = parse_ranges("x", "0-3, 7,9-10,2").unwrap();
        assert_eq!(nodes, vec![0, 1, 2, 3, 7, 9, 10, 2]);
        assert_eq!(ranges(&nodes), "0-3,7,9-10,2");
        assert!(parse_ranges("x", "5-3")
            .unwrap_err()
            .to_string()
            .contains("backwards"));
        assert!(parse_ranges("x", "1,,2")
            .unwrap_err()
            .to_string()
            .contains("''"));
        assert!(parse_ranges("x", "0-99999999999")
            .unwrap_err()
            .to_string()
            .contains("2^24"));
    }

    #[test]
    fn checks_name_the_bad_id() {
        assert!(check_allocation("ring:8", 8, &[0, 8])
            .unwrap_err()
            .to_string()
            .contains("node 8 is outside"));
        assert!(check_allocation("ring:8", 8, &[0, 3, 3])
            .unwrap_err()
            .to_string()
            .contains("listed twice"));
        assert!(check_allocation("ring:8", 8, &[3])
            .unwrap_err()
            .to_string()
            .contains("at least 2"));
        assert!(check_allocation("ring:8", 8, &[3, 1]).is_ok());
    }
}
