//! Open MPI's monitoring profiles (`graph:P.0.prof`, or `graph:P.prof`):
//! what `mpirun --mca pml_monitoring_enable 2 --mca
//! pml_monitoring_enable_output 3 --mca pml_monitoring_filename P` writes,
//! one file `P.<world rank>.prof` per rank, read together as the guest of
//! the run: one node per rank, an edge {u, v} wherever u or v sent the other
//! a point-to-point message, its volume the bytes u sent v plus those v sent
//! u (at least 1: a pair that exchanged only empty messages still talked).
//!
//! Format (Open MPI 4.1, `ompi/mca/common/monitoring/`, checked against the
//! files Debian's build writes): sections `# POINT TO POINT`, `# OSC`,
//! `# COLLECTIVES`; tab-separated lines
//! * `E <me> <peer> <B> bytes <n> msgs sent <histogram>`: point-to-point
//!   messages from me to peer — with `pml_monitoring_enable 2` the
//!   application's own (tags ≥ 0), with 1 all of them, the messages that
//!   carry collectives included. These make the graph.
//! * `I ...` (enable 2 only): the library's internal messages (those of
//!   collectives), as `E`; counted apart, not in the graph, as the
//!   collectives are.
//! * `S|R <me> <peer> <B> bytes <n> msgs sent`: one-sided traffic (OSC),
//!   counted apart.
//! * `C <me> <peer> <B> bytes <n> msgs sent`: what collectives sent peer;
//!   `D <communicator> procs: <world ranks>` then `O2A|A2O|A2A <rank> <B>
//!   bytes <n> msgs sent` per communicator: counted apart (and
//!   `MPI_COMM_WORLD`'s `procs` checks that no rank's file is missing).
//!
//! Every file must name its own rank in each E, I, S, R and C line, every peer must be a
//! rank with a file, and ranks 0..N−1 must all have one: an error names the
//! file and line, or the missing file.

use std::path::{Path, PathBuf};

use super::tokens::read_text;
use crate::error::{Error, Result};
use crate::spec::Spec;
use crate::topology::Graph;

/// Most ranks the profiles of one run may have (world ranks are `u32`s in
/// the graph).
pub const MAX_PROFILE_RANKS: u64 = 1 << 24;

/// What one rank's profile says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RankProfile {
    /// `E` lines: (peer, bytes, messages, line).
    pub sent: Vec<(u64, u64, u64, usize)>,
    /// Bytes of the `I` lines (internal point-to-point messages).
    pub internal_bytes: u64,
    /// Bytes of the `S`/`R` lines (one-sided).
    pub one_sided_bytes: u64,
    /// Bytes of the `C` lines (collectives, per peer).
    pub collective_bytes: u64,
    /// `MPI_COMM_WORLD`'s ranks as its `D` line lists them, with the line.
    pub world: Option<(Vec<u64>, usize)>,
}

/// The profiles of one run as a guest graph.
#[derive(Debug, Clone)]
pub struct Monitoring {
    /// One node per world rank; edges where a pair exchanged point-to-point
    /// messages, volumes in bytes (module docs).
    pub graph: Graph,
    /// N: the ranks (and files).
    pub ranks: u64,
    /// The files read, rank 0 first.
    pub files: Vec<PathBuf>,
    /// Bytes and messages of the `E` lines, all ranks.
    pub point_to_point: (u64, u64),
    /// Bytes of the `I` lines (internal messages), all ranks.
    pub internal_bytes: u64,
    /// Bytes of the `S`/`R` lines (one-sided), all ranks.
    pub one_sided_bytes: u64,
    /// Bytes of the `C` lines (collectives), all ranks.
    pub collective_bytes: u64,
}

/// True when `path` names a monitoring profile (`.prof`).
pub fn is_monitoring_profile(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()) == Some("prof")
}

/// `P` of `P.<rank>.prof` or of `P.prof`, with the rank when named.
fn prefix_of(path: &Path) -> Option<(String, Option<u64>)> {
    let stem = path.file_stem()?.to_str()?;
    match stem.rsplit_once('.') {
        Some((prefix, rank)) if !rank.is_empty() && rank.bytes().all(|b| b.is_ascii_digit()) => {
            Some((prefix.to_string(), rank.parse().ok()))
        }
        _ => Some((stem.to_string(), None)),
    }
}

/// The files of the run `path` belongs to (`P.0.prof`, `P.1.prof`, ...
/// beside it), rank 0 first; an error when one of 0..N−1 is missing.
pub fn profile_files(path: &Path) -> Result<Vec<PathBuf>> {
    let (prefix, named) = prefix_of(path).ok_or_else(|| {
        Error::File(format!(
            "{}: not a monitoring profile name (P.<rank>.prof)",
            path.display()
        ))
    })?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let entries = std::fs::read_dir(&dir)
        .map_err(|e| Error::File(format!("{}: cannot list: {e}", dir.display())))?;
    let mut ranks: Vec<u64> = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(rank) = name
            .strip_prefix(&format!("{prefix}."))
            .and_then(|rest| rest.strip_suffix(".prof"))
            .filter(|r| !r.is_empty() && r.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|r| r.parse::<u64>().ok())
        else {
            continue;
        };
        ranks.push(rank);
    }
    ranks.sort_unstable();
    let file = |rank: u64| dir.join(format!("{prefix}.{rank}.prof"));
    let Some(&last) = ranks.last() else {
        return Err(Error::File(format!(
            "{}: no profile {} beside it; Open MPI's monitoring writes one file P.<rank>.prof per \
             rank (--mca pml_monitoring_filename P)",
            path.display(),
            file(0).display()
        )));
    };
    if named.is_some_and(|r| r > last) {
        return Err(Error::File(format!(
            "{}: no such profile (the run's files beside it go up to {})",
            path.display(),
            file(last).display()
        )));
    }
    if last >= MAX_PROFILE_RANKS {
        return Err(Error::File(format!(
            "{}: rank {last}: at most {MAX_PROFILE_RANKS} ranks",
            file(last).display()
        )));
    }
    if let Some(missing) = (0..=last).find(|r| ranks.binary_search(r).is_err()) {
        return Err(Error::File(format!(
            "{}: missing ({} profiles found, ranks up to {last}); every rank of the run needs its file",
            file(missing).display(),
            ranks.len()
        )));
    }
    Ok((0..=last).map(file).collect())
}

/// Reads the profiles of the run `path` belongs to as a guest graph
/// (module docs).
pub fn read_monitoring(path: &Path) -> Result<Monitoring> {
    let files = profile_files(path)?;
    let mut profiles = Vec::with_capacity(files.len());
    for (rank, file) in files.iter().enumerate() {
        profiles.push(parse_rank_profile(file, &read_text(file)?, rank as u64)?);
    }
    combine(Spec::Graph(path.to_path_buf()), &files, &profiles)
}

/// `<B> bytes`, `<n> msgs sent`: the count before `unit`.
fn count_before(field: &str, unit: &str) -> Option<u64> {
    field.trim().strip_suffix(unit)?.trim().parse().ok()
}

/// One rank's profile (`path` names it in errors, `rank` is the one its
/// name gives).
pub fn parse_rank_profile(path: &Path, text: &str, rank: u64) -> Result<RankProfile> {
    let mut profile = RankProfile::default();
    for (k, line) in text.lines().enumerate() {
        let number = k + 1;
        let at = |message: String| Error::File(format!("{}:{number}: {message}", path.display()));
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = trimmed.split('\t').map(str::trim).collect();
        let me = |k: usize| -> Result<()> {
            match fields.get(k).and_then(|f| f.parse::<u64>().ok()) {
                Some(r) if r == rank => Ok(()),
                Some(r) => Err(at(format!(
                    "rank {r} in the file of rank {rank}; each P.<rank>.prof speaks for its own rank"
                ))),
                None => Err(at(format!("'{trimmed}': no rank where one belongs"))),
            }
        };
        // `<B> bytes` and `<n> msgs sent` from field k on.
        let amounts = |k: usize| -> Result<(u64, u64)> {
            let bytes = fields.get(k).and_then(|f| count_before(f, "bytes"));
            let messages = fields.get(k + 1).and_then(|f| count_before(f, "msgs sent"));
            bytes.zip(messages).ok_or_else(|| {
                at(format!(
                    "'{trimmed}': expected '<B> bytes' and '<n> msgs sent' (a cut line?)"
                ))
            })
        };
        let peer = || -> Result<u64> {
            fields
                .get(2)
                .and_then(|f| f.parse::<u64>().ok())
                .ok_or_else(|| at(format!("'{trimmed}': no peer rank")))
        };
        match fields[0] {
            "E" => {
                me(1)?;
                let (bytes, messages) = amounts(3)?;
                profile.sent.push((peer()?, bytes, messages, number));
            }
            "I" | "S" | "R" | "C" => {
                me(1)?;
                peer()?;
                let (bytes, _) = amounts(3)?;
                let total = match fields[0] {
                    "I" => &mut profile.internal_bytes,
                    "C" => &mut profile.collective_bytes,
                    _ => &mut profile.one_sided_bytes,
                };
                *total = total.saturating_add(bytes);
            }
            "O2A" | "A2O" | "A2A" => {
                // The rank here is not always the file's: after the `D`
                // line of an intercommunicator Open MPI 4.1 prints the
                // process's rank in it (seen: `O2A 1` in rank 0's file,
                // for `D procs: 3,1`). Counted apart, so only the form
                // is checked.
                fields
                    .get(1)
                    .and_then(|f| f.parse::<u64>().ok())
                    .ok_or_else(|| at(format!("'{trimmed}': no rank where one belongs")))?;
                amounts(2)?;
            }
            "D" => {
                let procs = fields
                    .get(2)
                    .and_then(|f| f.strip_prefix("procs:"))
                    .ok_or_else(|| {
                        at(format!("'{trimmed}': expected 'D <communicator> procs: <ranks>'"))
                    })?;
                if fields[1] == "MPI_COMM_WORLD" {
                    let ranks = procs
                        .split(',')
                        .map(|r| r.trim().parse::<u64>())
                        .collect::<std::result::Result<Vec<u64>, _>>()
                        .map_err(|_| at(format!("'{procs}' is not a list of ranks")))?;
                    profile.world = Some((ranks, number));
                }
            }
            other => {
                return Err(at(format!(
                    "'{other}' starts no line of a monitoring profile (E, I, S, R, C, D, O2A, A2O, A2A)"
                )))
            }
        }
    }
    Ok(profile)
}

/// The graph of all ranks' profiles (`files[r]` names rank r's).
pub fn combine(spec: Spec, files: &[PathBuf], profiles: &[RankProfile]) -> Result<Monitoring> {
    let n = profiles.len() as u64;
    let mut pairs: std::collections::BTreeMap<(u64, u64), (u64, u64)> = Default::default();
    let mut point_to_point = (0u64, 0u64);
    for (rank, profile) in profiles.iter().enumerate() {
        let rank = rank as u64;
        let file = files[rank as usize].display();
        if let Some((world, line)) = &profile.world {
            if world.len() as u64 != n {
                return Err(Error::File(format!(
                    "{file}:{line}: MPI_COMM_WORLD has {} ranks but {n} profiles were found; \
                     every rank of the run needs its file",
                    world.len()
                )));
            }
        }
        for &(peer, bytes, messages, line) in &profile.sent {
            if peer >= n {
                return Err(Error::File(format!(
                    "{file}:{line}: rank {peer} has no profile ({n} ranks: 0 to {})",
                    n - 1
                )));
            }
            if peer == rank || messages == 0 {
                continue;
            }
            let entry = pairs.entry((rank.min(peer), rank.max(peer))).or_default();
            entry.0 = entry.0.saturating_add(bytes);
            entry.1 = entry.1.saturating_add(messages);
            point_to_point.0 = point_to_point.0.saturating_add(bytes);
            point_to_point.1 = point_to_point.1.saturating_add(messages);
        }
    }
    let edges: Vec<(u64, u64)> = pairs.keys().copied().collect();
    let volumes: Vec<u64> = pairs.values().map(|&(bytes, _)| bytes.max(1)).collect();
    let graph = Graph::from_weighted_edges(spec, n, &edges, Some(&volumes))
        .map_err(|e| Error::File(e.to_string()))?;
    let sum = |f: fn(&RankProfile) -> u64| {
        profiles
            .iter()
            .map(f)
            .fold(0u64, |a, b| a.saturating_add(b))
    };
    Ok(Monitoring {
        graph,
        ranks: n,
        files: files.to_vec(),
        point_to_point,
        internal_bytes: sum(|p| p.internal_bytes),
        one_sided_bytes: sum(|p| p.one_sided_bytes),
        collective_bytes: sum(|p| p.collective_bytes),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::Topology;

    fn parse(text: &str, rank: u64) -> Result<RankProfile> {
        parse_rank_profile(Path::new("P.1.prof"), text, rank)
    }

    #[test]
    fn the_lines_of_a_profile_are_read_and_the_rest_counted_apart() {
        let text = "# POINT TO POINT\n\
            E\t1\t2\t600 bytes\t3 msgs sent\t0,0,3\n\
            I\t1\t0\t28 bytes\t5 msgs sent\t0,0,0\n\
            # OSC\nS\t1\t0\t40 bytes\t1 msgs sent\n\
            # COLLECTIVES\nC\t1\t0\t28 bytes\t5 msgs sent\n\
            D\tMPI_COMM_WORLD\tprocs: 0,1,2,3\n\
            A2A\t1\t84 bytes\t5 msgs sent\n\
            D\tMPI COMMUNICATOR 3 SPLIT FROM 0\tprocs: 3,1\n";
        let p = parse(text, 1).unwrap();
        assert_eq!(p.sent, vec![(2, 600, 3, 2)]);
        assert_eq!(
            (p.internal_bytes, p.one_sided_bytes, p.collective_bytes),
            (28, 40, 28)
        );
        assert_eq!(p.world, Some((vec![0, 1, 2, 3], 8)));
    }

    #[test]
    fn malformed_lines_name_file_and_line() {
        for (text, says) in [
            (
                "E\t2\t0\t6 bytes\t1 msgs sent\n",
                "P.1.prof:1: rank 2 in the file of rank 1",
            ),
            (
                "# x\nE\t1\t0\t6 by",
                "P.1.prof:2: 'E\t1\t0\t6 by': expected '<B> bytes'",
            ),
            (
                "E\t1\tx\t6 bytes\t1 msgs sent\n",
                "P.1.prof:1: 'E\t1\tx\t6 bytes\t1 msgs sent': no peer",
            ),
            ("X\t1\t0\n", "P.1.prof:1: 'X' starts no line"),
            (
                "D\tMPI_COMM_WORLD\tprocs: 0,a\n",
                "P.1.prof:1: ' 0,a' is not a list of ranks",
            ),
            (
                "D\tMPI_COMM_WORLD\n",
                "P.1.prof:1: 'D\tMPI_COMM_WORLD': expected 'D <communicator>",
            ),
        ] {
            let e = parse(text, 1).unwrap_err().to_string();
            assert!(e.contains(says), "{text:?}: {e}");
        }
    }

    #[test]
    fn pairs_add_both_directions_and_peers_must_have_files() {
        let files: Vec<PathBuf> = (0..3)
            .map(|r| PathBuf::from(format!("P.{r}.prof")))
            .collect();
        let mut profiles = vec![RankProfile::default(); 3];
        profiles[0].sent = vec![(1, 100, 2, 2), (2, 0, 1, 3)];
        profiles[1].sent = vec![(0, 50, 1, 2)];
        let m = combine(Spec::Graph("P.prof".into()), &files, &profiles).unwrap();
        assert_eq!((m.ranks, m.graph.edge_count()), (3, 2));
        assert_eq!(m.point_to_point, (150, 4));
        let v: Vec<u64> = m.graph.adjacency_volumes(0).collect();
        assert_eq!(v, vec![150, 1], "an empty message still joins the pair");
        profiles[2].sent = vec![(3, 8, 1, 5)];
        let e = combine(Spec::Graph("P.prof".into()), &files, &profiles)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("P.2.prof:5: rank 3 has no profile (3 ranks: 0 to 2)"),
            "{e}"
        );
        profiles[2].sent.clear();
        profiles[2].world = Some((vec![0, 1, 2, 3], 9));
        let e = combine(Spec::Graph("P.prof".into()), &files, &profiles)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("P.2.prof:9: MPI_COMM_WORLD has 4 ranks but 3 profiles"),
            "{e}"
        );
    }

    #[test]
    fn names_give_the_run_prefix() {
        assert_eq!(
            prefix_of(Path::new("d/run.a.12.prof")),
            Some(("run.a".to_string(), Some(12)))
        );
        assert_eq!(
            prefix_of(Path::new("P.prof")),
            Some(("P".to_string(), None))
        );
    }
}
