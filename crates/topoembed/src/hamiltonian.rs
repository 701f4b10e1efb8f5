//! Edge-disjoint Hamiltonian cycles of the Boolean n-cube: ⌊n/2⌋ of them,
//! which for even n use every edge (a Hamiltonian decomposition). Ho &
//! Johnsson §5 use them to spread one mesh axis over several cycles
//! (Theorem 4); they cite the construction (Lemmas 4–6) from other papers,
//! so the one here is our own, built from three steps that each come with a
//! proof below, and every result is checked by [`verify`] before it is
//! returned.
//!
//! Nodes of Q_a x Q_b are labelled `u | v << a` (u in Q_a, v in Q_b).
//!
//! 1. **Two cycles in a product of two cycles** (Lemma 4 for our case): for
//!    cycles P = p_0..p_{p-1} and Q = q_0..q_{q-1} with p | q, both powers of
//!    two ≥ 4, view P x Q as a torus with q rows (Q) and p columns (P).
//!    Cycle A runs along row i from column 1−i round to column −i (mod p)
//!    and steps down to row i+1 there; row i+1 is entered at column
//!    1−(i+1) = −i, so it is one cycle once −(q−1) ≡ 1 (mod p), i.e. p | q.
//!    Cycle B is the rest: column j less its vertical edges at rows ≡ −j
//!    (mod p), i.e. q/p paths of p nodes, joined by the one horizontal edge
//!    per row that A skips. Following B, each path moves one column right
//!    and p−1 rows down, so it is back at its start after L·p paths with
//!    L·p·(p−1) ≡ 0 (mod q); with p−1 odd and q/p a power of two that is
//!    L = q/p, every path: B is Hamiltonian.
//! 2. **Even cube, n = 2m, m even**: Q_2m = Q_m x Q_m, each with m/2 cycles
//!    (recursively); the i-th cycles of the two factors span a torus
//!    (step 1) that gives two cycles, and the tori of different i share no
//!    edge. (Lemma 6's first case.)
//! 3. **Even cube, n = 2m, m odd ≥ 3**: Q_2m = Q_{2m−2} x C_4, where Q_{2m−2}
//!    has cycles H_1..H_{m−1}. The torus H_{m−1} x C_4 gives two cycles A, B
//!    (step 1). Each other H_j appears as four copies, one per C_4 layer;
//!    the copies in layers c and c+1 are joined by a switch: for an edge uv
//!    of H_j whose two layer edges (u,c)(u,c+1) and (v,c)(v,c+1) lie on A,
//!    A gives those two up and takes (u,c)(v,c), (u,c+1)(v,c+1) from the
//!    copies. The copies become one cycle through uv's layer edges (two
//!    cycles lose an edge each and gain two joining them), and A stays one
//!    cycle exactly when it met the two layer edges in the same direction;
//!    the switch is tried edge by edge until A stays whole (this replaces
//!    Aubert and Schneider's Lemma 5). m−1 + 1 = m cycles.
//! 4. **Odd cube, n = 2m+1**: Q_2m x K_2, two layers. For each cycle H_j of
//!    Q_2m pick an edge u_j v_j with all 2m end nodes distinct; the cycle
//!    runs H_j from u_j to v_j in layer 0 (without u_j v_j), crosses to
//!    layer 1 at v_j, runs back to u_j, and crosses back. Different j use
//!    different crossing edges, so the m cycles are edge-disjoint.

use crate::error::{Error, Result};

/// Largest cube [`cycles`] builds (n/2 cycles of 2^n nodes each are kept).
pub const MAX_DIMENSION: u32 = 22;

/// ⌊n/2⌋ edge-disjoint Hamiltonian cycles of the n-cube, each as its node
/// labels in order from node 0 (the edge from the last node back to the
/// first closes it), checked by [`verify`].
pub fn cycles(n: u32) -> Result<Vec<Vec<u64>>> {
    if n < 2 {
        return Err(Error::Parameter(format!(
            "cube:{n} has no Hamiltonian cycle (it has {} node{}); use n >= 2",
            1u64 << n,
            if n == 0 { "" } else { "s" }
        )));
    }
    if n > MAX_DIMENSION {
        return Err(Error::Parameter(format!(
            "cube:{n} is too large to list its cycles ({} cycles of 2^{n} nodes); \
             the largest is cube:{MAX_DIMENSION}",
            n / 2
        )));
    }
    let mut found = if n % 2 == 0 {
        even_cube(n / 2)
    } else {
        odd_cube(n / 2)
    };
    for cycle in &mut found {
        let start = cycle.iter().position(|&x| x == 0).unwrap_or(0);
        cycle.rotate_left(start);
    }
    verify(n, &found)
        .map_err(|e| Error::Internal(format!("hamiltonian cycles of cube:{n}: {e}")))?;
    Ok(found)
}

/// Checks that every cycle visits each of the 2^n nodes once, that
/// consecutive nodes (and last to first) differ in one bit, and that no edge
/// is on two cycles; the reason otherwise.
pub fn verify(n: u32, cycles: &[Vec<u64>]) -> Result<(), String> {
    let nodes = 1usize << n;
    let mut edge_used = vec![false; nodes * n as usize];
    for (k, cycle) in cycles.iter().enumerate() {
        if cycle.len() != nodes {
            return Err(format!(
                "cycle {} has {} nodes, not {nodes}",
                k + 1,
                cycle.len()
            ));
        }
        let mut seen = vec![false; nodes];
        for &a in cycle {
            if a as usize >= nodes || std::mem::replace(&mut seen[a as usize], true) {
                return Err(format!(
                    "cycle {} visits node {a} twice or it is not in the cube",
                    k + 1
                ));
            }
        }
        for (i, &a) in cycle.iter().enumerate() {
            let b = cycle[(i + 1) % nodes];
            let diff = a ^ b;
            if diff.count_ones() != 1 {
                return Err(format!("cycle {}: {a} and {b} are not neighbours", k + 1));
            }
            // Edge id: the lower end and the dimension crossed.
            let id = (a.min(b) as usize) * n as usize + diff.trailing_zeros() as usize;
            if std::mem::replace(&mut edge_used[id], true) {
                return Err(format!(
                    "edge {a}-{b} is on two cycles (again on cycle {})",
                    k + 1
                ));
            }
        }
    }
    if cycles.len() != (n / 2) as usize {
        return Err(format!("{} cycles, not {}", cycles.len(), n / 2));
    }
    Ok(())
}

/// m edge-disjoint Hamiltonian cycles of Q_2m (steps 2 and 3).
fn even_cube(m: u32) -> Vec<Vec<u64>> {
    if m == 1 {
        return vec![vec![0, 1, 3, 2]];
    }
    if m % 2 == 0 {
        let half = even_cube(m / 2);
        return half
            .iter()
            .flat_map(|h| {
                let (a, b) = torus_cycles(h, m, h);
                [a, b]
            })
            .collect();
    }
    let base = even_cube(m - 1);
    let bits = 2 * (m - 1);
    let square = [0, 1, 3, 2];
    let (last, others) = base.split_last().expect("m - 1 >= 2 cycles");
    let (a, b) = torus_cycles(last, bits, &square);
    let mut host = Adjacency::from_cycle(&a, 1 << (bits + 2));
    let mut out: Vec<Vec<u64>> = others
        .iter()
        .map(|h| join_layers(h, bits, &square, &mut host))
        .collect();
    out.push(host.walk().expect("switches keep the cycle whole"));
    out.push(b);
    out
}

/// ⌊n/2⌋ = m edge-disjoint Hamiltonian cycles of Q_{2m+1} (step 4).
fn odd_cube(m: u32) -> Vec<Vec<u64>> {
    let bits = 2 * m;
    let top = 1u64 << bits;
    let mut used = vec![false; 1 << bits];
    even_cube(m)
        .into_iter()
        .map(|h| {
            // An edge (h[i], h[i+1]) with both ends not yet a crossing point.
            let len = h.len();
            let i = (0..len)
                .find(|&i| !used[h[i] as usize] && !used[h[(i + 1) % len] as usize])
                .expect("2m crossing points among 2^2m nodes");
            used[h[i] as usize] = true;
            used[h[(i + 1) % len] as usize] = true;
            // Layer 0 from h[i+1] round to h[i], then layer 1 back.
            let forward = (1..=len).map(|k| h[(i + k) % len]);
            let back = (1..=len).map(|k| h[(i + len + 1 - k) % len] | top);
            forward.chain(back).collect()
        })
        .collect()
}

/// The two Hamiltonian cycles of the torus P x Q (step 1), P in the low
/// `p_bits` bits and Q above; the shorter cycle plays P.
fn torus_cycles(p: &[u64], p_bits: u32, q: &[u64]) -> (Vec<u64>, Vec<u64>) {
    let (cols, rows, col_bits, row_shift) = if p.len() <= q.len() {
        (p, q, true, p_bits)
    } else {
        (q, p, false, p_bits)
    };
    // Label of (row i, column j): the column cycle's node in its own bits.
    let label = |i: usize, j: usize| {
        let (c, r) = (cols[j], rows[i]);
        if col_bits {
            c | r << row_shift
        } else {
            r | c << row_shift
        }
    };
    let (np, nq) = (cols.len(), rows.len());
    let a = (0..nq)
        .flat_map(|i| (0..np).map(move |k| (i, (1 + k + np * nq - i) % np)))
        .map(|(i, j)| label(i, j))
        .collect();
    let b = (0..nq)
        .flat_map(|s| {
            let top = 1 + s * (np - 1);
            (0..np).map(move |k| ((top + k) % nq, s % np))
        })
        .map(|(i, j)| label(i, j))
        .collect();
    (a, b)
}

/// Joins the four C_4-layer copies of cycle `h` (of Q_bits) into one
/// Hamiltonian cycle of Q_{bits+2} by switches with `host` (step 3).
fn join_layers(h: &[u64], bits: u32, square: &[u64; 4], host: &mut Adjacency) -> Vec<u64> {
    let layer = |u: u64, c: usize| u | square[c] << bits;
    let mut copies = Adjacency::empty(1 << (bits + 2));
    for c in 0..4 {
        for (i, &u) in h.iter().enumerate() {
            copies.link(layer(u, c), layer(h[(i + 1) % h.len()], c));
        }
    }
    for c in 0..3 {
        let joined = h.iter().enumerate().any(|(i, &u)| {
            let v = h[(i + 1) % h.len()];
            let (u0, u1, v0, v1) = (layer(u, c), layer(u, c + 1), layer(v, c), layer(v, c + 1));
            let free = copies.has(u0, v0) && copies.has(u1, v1);
            if !free || !host.has(u0, u1) || !host.has(v0, v1) {
                return false;
            }
            host.swap((u0, u1), (v0, v1), (u0, v0), (u1, v1));
            if host.walk().is_some() {
                copies.swap((u0, v0), (u1, v1), (u0, u1), (v0, v1));
                true
            } else {
                host.swap((u0, v0), (u1, v1), (u0, u1), (v0, v1));
                false
            }
        });
        assert!(joined, "no switch joins layers {c} and {}", c + 1);
    }
    copies.walk().expect("three joins make one cycle")
}

/// A 2-regular graph as the two neighbours of each node.
struct Adjacency(Vec<[u64; 2]>);

const NONE: u64 = u64::MAX;

impl Adjacency {
    fn empty(nodes: usize) -> Adjacency {
        Adjacency(vec![[NONE; 2]; nodes])
    }
    fn from_cycle(cycle: &[u64], nodes: usize) -> Adjacency {
        let mut adj = Adjacency::empty(nodes);
        for (i, &u) in cycle.iter().enumerate() {
            adj.link(u, cycle[(i + 1) % cycle.len()]);
        }
        adj
    }
    fn has(&self, u: u64, v: u64) -> bool {
        self.0[u as usize].contains(&v)
    }
    fn link(&mut self, u: u64, v: u64) {
        for (a, b) in [(u, v), (v, u)] {
            let slot = self.0[a as usize].iter().position(|&x| x == NONE);
            self.0[a as usize][slot.expect("at most two neighbours")] = b;
        }
    }
    fn unlink(&mut self, u: u64, v: u64) {
        for (a, b) in [(u, v), (v, u)] {
            let slot = self.0[a as usize].iter().position(|&x| x == b);
            self.0[a as usize][slot.expect("edge present")] = NONE;
        }
    }
    /// Replaces edges `out1`, `out2` by `in1`, `in2`.
    fn swap(&mut self, out1: (u64, u64), out2: (u64, u64), in1: (u64, u64), in2: (u64, u64)) {
        self.unlink(out1.0, out1.1);
        self.unlink(out2.0, out2.1);
        self.link(in1.0, in1.1);
        self.link(in2.0, in2.1);
    }
    /// The nodes in cycle order from node 0, if the graph is one cycle
    /// through every node.
    fn walk(&self) -> Option<Vec<u64>> {
        let nodes = self.0.len();
        let mut order = Vec::with_capacity(nodes);
        let (mut prev, mut at) = (NONE, 0u64);
        loop {
            order.push(at);
            let [x, y] = self.0[at as usize];
            let next = if x != prev { x } else { y };
            if next == NONE || order.len() > nodes {
                return None;
            }
            (prev, at) = (at, next);
            if at == 0 {
                break;
            }
        }
        (order.len() == nodes).then_some(order)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn torus_cycles_are_hamiltonian_for_unequal_sides() {
        // C_4 x C_16 inside Q_2 x Q_4: the cycles of step 1 with p | q, p < q.
        let c4 = [0, 1, 3, 2];
        let c16: Vec<u64> = (0..16).map(crate::bits::btog).collect();
        let (a, b) = torus_cycles(&c4, 2, &c16);
        let (a2, b2) = torus_cycles(&c16, 4, &c4);
        assert!(verify(6, &[a, b]).unwrap_err().contains("cycles, not 3"));
        assert!(verify(6, &[a2, b2]).unwrap_err().contains("cycles, not 3"));
    }

    #[test]
    fn verify_rejects_broken_cycles() {
        let good = vec![vec![0, 1, 3, 2]];
        assert_eq!(verify(2, &good), Ok(()));
        assert!(verify(2, &[vec![0, 1, 2, 3]])
            .unwrap_err()
            .contains("not neighbours"));
        assert!(verify(2, &[vec![0, 1, 3]]).unwrap_err().contains("3 nodes"));
        assert!(verify(2, &[vec![0, 1, 0, 1]])
            .unwrap_err()
            .contains("twice"));
        assert!(verify(4, &[vec![0; 16], vec![0; 16]]).is_err());
        let twice = vec![vec![0, 1, 3, 2], vec![0, 1, 3, 2]];
        assert!(verify(4, &twice).is_err());
    }
}
