//! `hamiltonian`: the verification line, then one cycle per line.

use super::Out;
use std::io;

/// The verification line of `hamiltonian`, then one cycle per line.
pub fn hamiltonian(n: u32, cycles: &[Vec<u64>], summary: bool, out: Out) -> io::Result<()> {
    let nodes = 1u64 << n;
    let edges: usize = cycles.iter().map(Vec::len).sum();
    writeln!(
        out,
        "cube:{n}: {} edge-disjoint Hamiltonian cycles of {nodes} nodes, {edges} of the cube's {} edges{}",
        cycles.len(),
        u64::from(n) << (n - 1),
        if n % 2 == 0 { " (every edge: a Hamiltonian decomposition)" } else { "" }
    )?;
    writeln!(
        out,
        "verified: every cycle visits each node once, consecutive nodes (and last to first) \
         differ in one bit, no edge is on two cycles"
    )?;
    if summary {
        return Ok(());
    }
    for (k, cycle) in cycles.iter().enumerate() {
        write!(out, "cycle {}:", k + 1)?;
        for node in cycle {
            write!(out, " {node}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}
