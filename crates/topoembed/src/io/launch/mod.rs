//! What each MPI launcher reads to start rank g where a placement put it
//! (`topoembed map --format rankfile|seq|machinefile|cray-rank-order`).
//!
//! The machine is a list of slots, host node h the h-th: from an Open MPI
//! hostfile (each machine's `slots=N` in turn, [`super::parse_hostfile`])
//! or from a Slurm hostlist (`node[01-16]`) and a count of slots per node
//! ([`expand_hostlist`]), node 0's slots first. The placement gives the host
//! node of every rank, one rank per slot. Formats (`../shared/FORMATS.md`,
//! from each launcher's documentation):
//! * [`LaunchFormat::Rankfile`]: `rank g=HOST slot=S` per rank — Open MPI
//!   4.x `mpirun -rf FILE`, 5.x `mpirun --map-by rankfile:file=FILE`; S is
//!   the slot's index on its host, a logical core.
//! * [`LaunchFormat::Seq`]: line g is the host of rank g — Open MPI
//!   `--map-by seq` with `--hostfile FILE`, Slurm's `SLURM_HOSTFILE=FILE
//!   srun --distribution=arbitrary`, SimGrid's `smpirun -hostfile FILE`.
//! * [`LaunchFormat::Machinefile`]: `HOST:n` for each run of n consecutive
//!   ranks on one host — MPICH/Hydra `mpiexec -f FILE`, Intel MPI
//!   `-machinefile FILE` (its `-hostfile` merges repeated hosts: not that
//!   one).
//! * [`LaunchFormat::CrayRankOrder`]: the ranks in the order they fill the
//!   slots, comma-separated, one line per node — HPE/Cray MPICH's
//!   `MPICH_RANK_ORDER` with `MPICH_RANK_REORDER_METHOD=3`.

pub(super) mod hostfile;
pub(super) mod rankfile;

use std::io::Write;

use crate::error::{Error, Result};
use hostfile::Machine;

/// Most names a hostlist may expand to.
pub const MAX_HOSTLIST: usize = 1 << 20;

/// The machine's slots in host-node order: node `h` is slot `h`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slots {
    /// (host name, slots on it), in order.
    pub machines: Vec<Machine>,
}

/// What a launcher reads (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LaunchFormat {
    Rankfile,
    Seq,
    Machinefile,
    CrayRankOrder,
}

impl Slots {
    /// The slots of a hostfile's machines.
    pub fn from_machines(machines: Vec<Machine>) -> Slots {
        Slots { machines }
    }

    /// `per_node` slots on each host of a Slurm hostlist.
    pub fn from_hostlist(list: &str, per_node: u64) -> std::result::Result<Slots, String> {
        if per_node == 0 {
            return Err("slots per node must be 1 or more".to_string());
        }
        let names = expand_hostlist(list)?;
        let mut seen = std::collections::HashSet::new();
        if let Some(twice) = names.iter().find(|n| !seen.insert(n.as_str())) {
            return Err(format!("'{twice}' appears twice in the hostlist '{list}'"));
        }
        Ok(Slots {
            machines: names
                .into_iter()
                .map(|name| Machine {
                    name,
                    slots: per_node,
                })
                .collect(),
        })
    }

    /// All slots.
    pub fn total(&self) -> u64 {
        self.machines.iter().map(|m| m.slots).sum()
    }

    /// (machine index, slot on it) of every host node.
    fn slot_of(&self) -> Vec<(usize, u64)> {
        self.machines
            .iter()
            .enumerate()
            .flat_map(|(m, machine)| (0..machine.slots).map(move |s| (m, s)))
            .collect()
    }
}

/// Expands a Slurm hostlist: comma-separated names, each with any number
/// of bracket groups of numbers and ranges (`node[01-16,20]`,
/// `r[1-2]n[1-4]`); a bound written with a leading zero fixes the width.
pub fn expand_hostlist(list: &str) -> std::result::Result<Vec<String>, String> {
    let mut names = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    let mut pieces = Vec::new();
    for (k, c) in list.char_indices() {
        match c {
            '[' => depth += 1,
            ']' if depth == 0 => return Err(format!("'{list}': ']' without '['")),
            ']' => depth -= 1,
            ',' if depth == 0 => {
                pieces.push(&list[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err(format!("'{list}': '[' without ']'"));
    }
    pieces.push(&list[start..]);
    for piece in pieces.into_iter().map(str::trim) {
        if piece.is_empty() {
            return Err(format!("'{list}': an empty name"));
        }
        let mut expanded = vec![String::new()];
        let mut rest = piece;
        while let Some(open) = rest.find('[') {
            let close = open + rest[open..].find(']').expect("brackets balanced");
            let numbers =
                numbers_in(&rest[open + 1..close]).map_err(|e| format!("'{list}': {e}"))?;
            let prefix = &rest[..open];
            expanded = expanded
                .iter()
                .flat_map(|head| numbers.iter().map(move |n| format!("{head}{prefix}{n}")))
                .collect();
            if expanded.len() > MAX_HOSTLIST {
                return Err(format!("'{list}': more than {MAX_HOSTLIST} names"));
            }
            rest = &rest[close + 1..];
        }
        names.extend(expanded.into_iter().map(|head| format!("{head}{rest}")));
        if names.len() > MAX_HOSTLIST {
            return Err(format!("'{list}': more than {MAX_HOSTLIST} names"));
        }
    }
    Ok(names)
}

/// The numbers of one bracket group (`01-16,20`), as written (width kept).
fn numbers_in(group: &str) -> std::result::Result<Vec<String>, String> {
    let mut out = Vec::new();
    for part in group.split(',').map(str::trim) {
        let (low, high) = part.split_once('-').unwrap_or((part, part));
        let parse = |s: &str| {
            s.parse::<u64>()
                .ok()
                .filter(|_| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
                .ok_or_else(|| format!("'[{group}]': '{s}' is not a number"))
        };
        let (a, b) = (parse(low)?, parse(high)?);
        if a > b {
            return Err(format!("'[{group}]': the range {part} runs backwards"));
        }
        if b - a >= MAX_HOSTLIST as u64 {
            return Err(format!("'[{group}]': more than {MAX_HOSTLIST} names"));
        }
        let width = if low.len() > 1 && low.starts_with('0') {
            low.len()
        } else {
            0
        };
        out.extend((a..=b).map(|n| format!("{n:0width$}")));
    }
    Ok(out)
}

/// Writes `format` for `ranks` (the host node of every rank, one rank per
/// slot) on `slots` (module docs).
pub fn write_launch(
    format: LaunchFormat,
    ranks: &[u64],
    slots: &Slots,
    out: &mut dyn Write,
) -> Result<()> {
    let total = slots.total();
    if total != ranks.len() as u64 {
        return Err(Error::Mismatch(format!(
            "{} ranks for {total} slots on {} hosts; a launch file places one rank per slot \
             (give a host with one node per slot: nodes x cores when ranks share a node)",
            ranks.len(),
            slots.machines.len()
        )));
    }
    let slot_of = slots.slot_of();
    // The rank on every slot.
    let mut rank_on = vec![u64::MAX; total as usize];
    for (g, &h) in ranks.iter().enumerate() {
        if h >= total || rank_on[h as usize] != u64::MAX {
            return Err(Error::Mismatch(format!(
                "the placement is not one rank per slot (rank {g} on host node {h})"
            )));
        }
        rank_on[h as usize] = g as u64;
    }
    let host = |g: usize| &slots.machines[slot_of[ranks[g] as usize].0].name;
    let io = |e: std::io::Error| Error::File(format!("cannot write the launch file: {e}"));
    match format {
        LaunchFormat::Rankfile => {
            for (g, &h) in ranks.iter().enumerate() {
                let (m, s) = slot_of[h as usize];
                writeln!(out, "rank {g}={} slot={s}", slots.machines[m].name).map_err(io)?;
            }
        }
        LaunchFormat::Seq => {
            for g in 0..ranks.len() {
                writeln!(out, "{}", host(g)).map_err(io)?;
            }
        }
        LaunchFormat::Machinefile => {
            let mut g = 0;
            while g < ranks.len() {
                let run = (g..ranks.len()).take_while(|&k| host(k) == host(g)).count();
                writeln!(out, "{}:{run}", host(g)).map_err(io)?;
                g += run;
            }
        }
        LaunchFormat::CrayRankOrder => {
            let mut h = 0usize;
            for machine in &slots.machines {
                let line: Vec<String> = rank_on[h..h + machine.slots as usize]
                    .iter()
                    .map(u64::to_string)
                    .collect();
                writeln!(out, "{}", line.join(",")).map_err(io)?;
                h += machine.slots as usize;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(format: LaunchFormat, ranks: &[u64], slots: &Slots) -> String {
        let mut out = Vec::new();
        write_launch(format, ranks, slots, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn hostlists_expand_as_slurm_writes_them() {
        assert_eq!(
            expand_hostlist("node[01-03,10],gpu7").unwrap(),
            ["node01", "node02", "node03", "node10", "gpu7"]
        );
        assert_eq!(
            expand_hostlist("r[1-2]n[8-9]x").unwrap(),
            ["r1n8x", "r1n9x", "r2n8x", "r2n9x"]
        );
        assert_eq!(expand_hostlist("tux[0-1]").unwrap(), ["tux0", "tux1"]);
        for (bad, says) in [
            ("node[3-1]", "runs backwards"),
            ("node[1-2", "'[' without ']'"),
            ("node1]", "']' without '['"),
            ("a,,b", "an empty name"),
            ("n[x]", "'x' is not a number"),
            ("n[0-99999999]", "more than"),
        ] {
            assert!(expand_hostlist(bad).unwrap_err().contains(says), "{bad}");
        }
        assert!(Slots::from_hostlist("a,a", 1)
            .unwrap_err()
            .contains("twice"));
        assert!(Slots::from_hostlist("a", 0).is_err());
    }

    #[test]
    fn every_format_puts_each_rank_on_its_slot() {
        // Two nodes of two slots; ranks 0..3 on host nodes 3, 0, 1, 2:
        // rank 0 on b slot 1, rank 1 on a slot 0, rank 2 on a slot 1,
        // rank 3 on b slot 0.
        let slots = Slots::from_hostlist("node[1-2]", 2).unwrap();
        let ranks = [3, 0, 1, 2];
        assert_eq!(
            write(LaunchFormat::Rankfile, &ranks, &slots),
            "rank 0=node2 slot=1\nrank 1=node1 slot=0\nrank 2=node1 slot=1\nrank 3=node2 slot=0\n"
        );
        assert_eq!(
            write(LaunchFormat::Seq, &ranks, &slots),
            "node2\nnode1\nnode1\nnode2\n"
        );
        assert_eq!(
            write(LaunchFormat::Machinefile, &ranks, &slots),
            "node2:1\nnode1:2\nnode2:1\n"
        );
        assert_eq!(
            write(LaunchFormat::CrayRankOrder, &ranks, &slots),
            "1,2\n3,0\n"
        );
    }

    #[test]
    fn a_placement_that_does_not_fill_the_slots_is_refused() {
        let slots = Slots::from_hostlist("n[1-2]", 2).unwrap();
        let mut out = Vec::new();
        let e = write_launch(LaunchFormat::Seq, &[0, 1, 2], &slots, &mut out).unwrap_err();
        assert!(
            e.to_string().contains("3 ranks for 4 slots on 2 hosts"),
            "{e}"
        );
        let e = write_launch(LaunchFormat::Seq, &[0, 1, 1, 2], &slots, &mut out).unwrap_err();
        assert!(e.to_string().contains("rank 2 on host node 1"), "{e}");
    }
}
