//! Command-line arguments: the commands here, each command's arguments in
//! the file of its area ([`embedding`], [`optimal`], [`placing`],
//! [`running`], [`shell`]), the long help texts in [`help`], the argument
//! groups and value lists they share in [`values`].

mod embedding;
mod help;
mod optimal;
mod placing;
mod running;
mod shell;
mod values;

use clap::{Parser, Subcommand};

pub use embedding::*;
use help::*;
pub use optimal::*;
pub use placing::*;
pub use running::*;
pub use shell::*;
pub use values::*;

/// Place the processes of a parallel program (the guest graph) on a machine's
/// interconnect (the host) and measure how good the placement is.
#[derive(Debug, Parser)]
#[command(name = "topoembed", version, after_help = SPECS)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the embedding methods, what they take and their preconditions.
    Methods(MethodsArgs),
    /// Print where every guest node goes: guest -> host node and host coordinates.
    #[command(after_help = SPECS)]
    Embed(EmbedArgs),
    /// Print D_i(n), the dilation of every dimension's edge at every cube node
    /// (the xor paper's figure 4a). Cube guests only.
    #[command(after_help = SPECS)]
    Dilations(DilationsArgs),
    /// Measure one embedding: load, dilation and its spectrum, distances D_i, CC time,
    /// congestion and node loads under the host's routing model. The embedding is a
    /// method, or any mapping of a Scotch graph given as a Scotch .map file.
    #[command(after_help = SPECS)]
    Metrics(MetricsArgs),
    /// The least Σ D_i (so the least CC time d·Ta + Tc·Σ D_i) over all
    /// constant-distance embeddings of a d-cube onto a ring or torus with
    /// power-of-two sides, proved by a complete search, beside the xor and
    /// standard embeddings' sums: whether xor is optimal there (the xor paper
    /// proves it for rings and leaves tori open). The sub-cube bounds rule
    /// distance vectors out first; only the vectors they leave are searched
    /// (on every ring they leave none), and only that search's size is
    /// estimated and, beyond the limit, refused.
    #[command(after_help = OPTIMAL_HELP)]
    Optimal(OptimalArgs),
    /// Check a certificate written by `topoembed optimal --certificate DIR`
    /// without trusting the search: the embedding is a constant-distance
    /// bijection with the claimed sum, every ascending distance vector below
    /// it is cut by the bounds the certificate names (`counting`,
    /// `small-cubes`, `all` or `lift`; recomputed here) or refuted, and every
    /// refutation's DRAT proof checks against the vector's formula.
    /// Exit 0 when it holds, 2 (with the reason) when not.
    VerifyCertificate(VerifyCertificateArgs),
    /// Lay a logical device mesh onto a physical torus or mesh, or onto a GPU
    /// cluster (nodes of GPUs under a fat tree or dragonfly: NETWORK*NODE):
    /// every logical axis (data, model, ..) runs its collectives as rings (or,
    /// with --lines, as pipelines) along that axis; the placement keeps
    /// consecutive devices of every ring as few hops apart as the host allows
    /// (on a cluster: each axis's rings inside a node where they fit, across
    /// the fewest switch levels otherwise, the weights saying which axis
    /// stays inside). Prints per axis the
    /// longest and mean hop between ring neighbours, the congestion (most
    /// messages on one directed link when every device sends to its ring
    /// successor at once, routed dimension-order), the lower bound no
    /// placement beats, and the same figures for the row-major assignment
    /// (np.arange(N).reshape(LOGICAL) over host node ids, first host axis
    /// fastest).
    #[command(name = "device-mesh", after_help = DEVICE_MESH)]
    DeviceMesh(DeviceMeshArgs),
    /// Map any guest onto any host with the general mapper (multilevel:
    /// partition then anneal the parts onto the host, or dual recursive
    /// bipartitioning; above 10^5 vertices one coarsening refined level by
    /// level; then k-way FM, FM and flows on every two neighbouring host
    /// nodes — onto a tleaf also on every two groups of its leaves, level by
    /// level — and move/swap local search), least
    /// hop-bytes (Σ volume x host distance) first, no host node above
    /// ⌈(1 + imbalance) x total load / host nodes⌉ (exactly one per node when
    /// the counts are equal and loads are 1). Prints the placement's metrics
    /// beside the identity (or consecutive blocks) and round-robin ones.
    #[command(after_help = MAP_HELP)]
    Map(MapArgs),
    /// Measure every method that applies to the pair, one row each; the best CC time is marked.
    #[command(after_help = SPECS)]
    Compare(CompareArgs),
    /// Build floor(n/2) edge-disjoint Hamiltonian cycles of cube:n (for even n every
    /// edge is on one: a Hamiltonian decomposition), verify them, and print them.
    /// Ho & Johnsson §5 use them to spread a mesh axis over several cycles
    /// (split --hamiltonian).
    Hamiltonian(HamiltonianArgs),
    /// For a rank (a host node), the guest node(s) it plays and the rank of
    /// each guest neighbour by name: ring left/right, 2-D grid west/east
    /// (axis 1) and north/south (axis 2), axisK-/+ beyond, cube dimK, tree
    /// parent / left child / right child on every level it takes part in.
    /// This is what a program needs to run as if on the guest (lecture notes:
    /// "processor i runs the algorithm as if its id is f^-1(i)").
    #[command(after_help = SPECS)]
    Neighbors(NeighborsArgs),
    /// Run an algorithm through an embedding, every rank an async task in
    /// this process, with a modelled clock: a compute phase costs T_a, a
    /// message hops x (T_c + bytes x T_b) (store and forward); exchanges end
    /// at max(both clocks) + cost, as in the xor paper. Every rank checks its
    /// result against a sequential reference. For cube algorithms the
    /// modelled time is set beside the CC recurrence over the same stages.
    #[command(after_help = RUN_HELP)]
    Run(RunArgs),
    /// Simulate an algorithm's messages on the host network, link by link: a
    /// link carries one message per direction at a time (or one in all,
    /// --duplex half), a message that finds its link busy queues for it, and
    /// processes sharing a node share its processor. Prints the makespan
    /// beside the contention-free one (the runtime's modelled clock) and the
    /// CC recurrence, where contention appeared, and the busiest links;
    /// --gantt draws every process's compute / communicate / wait / blocked
    /// intervals.
    #[command(after_help = SIMULATE_HELP)]
    Simulate(SimulateArgs),
    /// Draw an embedding as SVG: the host laid out as in the papers' figures
    /// with every node labelled by its guest node(s) (layout), the dilation
    /// spectrum as bars (spectrum), or the node load of every host node along
    /// its numbering, per guest dimension / axis and in all (load, as the
    /// journal xor paper's figures 7-10). Gantt charts come from
    /// `simulate --gantt`, whole comparisons from `report`.
    #[command(after_help = DRAW_HELP)]
    Draw(DrawArgs),
    /// Write one self-contained HTML page (inline SVG, no scripts, nothing
    /// fetched) comparing every method that applies to the pair: metrics
    /// table, what each metric means, and per method its layout, dilation
    /// spectrum, node-load profile and a Gantt chart of a simulated run.
    #[command(after_help = SPECS)]
    Report(ReportArgs),
    /// Write an Open MPI rankfile that launches MPI_COMM_WORLD rank g (guest
    /// node g) on the slot of host node f(g): host node h is the h-th slot of
    /// the hostfile (machines in order, each machine's slots in order). Run
    /// with `mpirun --rankfile FILE`. The alternative, without a rankfile, is
    /// topoembed-mpi's reordered communicators.
    #[command(after_help = SPECS)]
    Rankfile(RankfileArgs),
    /// Write a topology as a Scotch source graph (.grf) or target architecture (.tgt).
    #[command(after_help = SPECS)]
    Export(ExportArgs),
    /// Print a shell completion script, generated from these very definitions.
    #[command(after_help = COMPLETIONS_HELP)]
    Completions(CompletionsArgs),
    /// Print the manual page (roff), generated from these very definitions.
    #[command(after_help = "Example: topoembed man > topoembed.1 && man ./topoembed.1")]
    Man,
}
