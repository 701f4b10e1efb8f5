//! Command-line arguments: the commands here, the long help texts in
//! [`help`], the argument groups and value lists they share in [`values`].

mod help;
mod values;

use clap::{Parser, Subcommand};

use help::*;
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
    Methods {
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Print where every guest node goes: guest -> host node and host coordinates.
    #[command(after_help = SPECS)]
    Embed {
        #[command(flatten)]
        pair: Pair,
        /// Embedding method (see `topoembed methods`); without it, the method `compare` marks best (named on stderr, with why).
        #[arg(long, short)]
        method: Option<String>,
        /// table | json | csv, or layout: the host drawn as rows of guest labels
        /// (rings and lines on one row; 2-D hosts with axis 2 as rows, like the
        /// xor paper's figures; 3-D and more as 2-D slices), or scotch-map: a Scotch
        /// mapping file (a count, then 'vertex target' lines), or smpi-hostfile:
        /// line g = PREFIX<host node of guest node g>, for `smpirun -hostfile` on
        /// the platform `export --format simgrid` writes.
        #[arg(long, value_enum, default_value_t = EmbedFormat::Table)]
        format: EmbedFormat,
        /// Host name prefix of --format smpi-hostfile (as `export --prefix`).
        #[arg(long, default_value = "node-")]
        prefix: String,
    },
    /// Print D_i(n), the dilation of every dimension's edge at every cube node
    /// (the xor paper's figure 4a). Cube guests only.
    #[command(after_help = SPECS)]
    Dilations {
        #[command(flatten)]
        pair: Pair,
        /// Embedding method (see `topoembed methods`).
        #[arg(long, short)]
        method: String,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Measure one embedding: load, dilation and its spectrum, distances D_i, CC time,
    /// congestion and node loads under the host's routing model. The embedding is a
    /// method, or any mapping of a Scotch graph given as a Scotch .map file.
    #[command(after_help = SPECS)]
    Metrics {
        #[command(flatten)]
        pair: Pair,
        #[command(flatten)]
        placement: Placement,
        #[command(flatten)]
        costs: Costs,
        #[command(flatten)]
        routing: Routing,
        /// Run even when the estimated work (guest edges, routed or not) passes
        /// the limit: 10 minutes, or TOPOEMBED_WORK_LIMIT seconds.
        #[arg(long)]
        force: bool,
        /// With --mapping of a recorded graph: the recording's summary
        /// (FILE.json); adds the mapping's predicted cost, as `map --summary`
        /// weighs its candidates (busiest link + point-to-point latency +
        /// collectives' critical paths, in bytes).
        #[arg(long, requires = "mapping", value_name = "FILE.json")]
        summary: Option<std::path::PathBuf>,
        /// With --summary: what one hop's latency is worth in bytes (α/β).
        #[arg(long, default_value_t = topoembed::recorded::DEFAULT_LATENCY_BYTES, requires = "summary")]
        latency_bytes: u64,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// The least Σ D_i (so the least CC time d·Ta + Tc·Σ D_i) over all
    /// constant-distance embeddings of a d-cube onto a ring or torus with
    /// power-of-two sides, proved by a complete search, beside the xor and
    /// standard embeddings' sums: whether xor is optimal there (the xor paper
    /// proves it for rings and leaves tori open). The sub-cube bounds rule
    /// distance vectors out first; only the vectors they leave are searched
    /// (on every ring they leave none), and only that search's size is
    /// estimated and, beyond the limit, refused.
    #[command(after_help = OPTIMAL_HELP)]
    Optimal {
        /// The guest: cube:D (D up to 12; with --distances, a cube smaller
        /// than the host too).
        guest: String,
        /// The host: ring:N or torus:AxB.. with power-of-two sides and 2^D nodes.
        host: String,
        /// Stop after this many distance vectors decided, the turns under way
        /// finishing (with --whole-tree: search nodes); the answer is then
        /// not proved; 0: no limit.
        #[arg(long, default_value_t = 0)]
        node_limit: u64,
        /// Save the vectors refuted so far to FILE, after each sum, every
        /// minute and when stopped (Ctrl-C, --node-limit); a run with the
        /// same FILE does not decide them again, and a search that completes
        /// removes it. With --whole-tree: the search's position, every 2^26
        /// nodes and when it stops.
        #[arg(long, value_name = "FILE")]
        checkpoint: Option<std::path::PathBuf>,
        /// Search all bijections instead (d up to 5): the least CC time with
        /// waiting (the recurrence of the xor paper §2.1), beside the best
        /// constant-distance embedding's — does giving up constant distances pay?
        /// It looks at one bijection per class of symmetric ones, shows its
        /// branches on cube nodes 1 and 2 as progress, and Ctrl-C (or
        /// --node-limit) stops it unproved; with --checkpoint FILE it
        /// writes where it got to after every such branch and goes on from
        /// FILE when run again.
        #[arg(long)]
        all_bijections: bool,
        /// Decide distance vector by distance vector (the default, so this
        /// flag changes nothing; scripts that name it still run): vectors in
        /// increasing Σ D_i; each one the sub-cube bounds leave whose
        /// formula the window lemma folds into a band of the torus goes
        /// first to unit propagation on that band (a millisecond; it
        /// refutes all 983 of torus:128x8), and each one left to the
        /// branch and bound and a SAT solver (varisat) in turns, 2^18 nodes
        /// and 4 MiB of proof first, four times as much each turn, until one
        /// decides it; the first with an embedding is optimal. Where the
        /// branch and bound refutes a vector it names the sub-cube that
        /// embeds nowhere (its first dimensions), and every later vector
        /// holding those distances is refuted with it. Ctrl-C stops it
        /// within seconds, inside a solve too.
        #[arg(long, conflicts_with = "all_bijections")]
        sat: bool,
        /// One branch and bound over every distance vector and placement at
        /// once, without the vectors' bounds (what `optimal` did before the
        /// search by vectors became the default): its size is estimated by
        /// random probes (Knuth's estimator) before it starts.
        #[arg(
            long,
            conflicts_with_all = ["sat", "certificate", "decide_by", "distances", "all_bijections"]
        )]
        whole_tree: bool,
        /// Write a certificate to DIR (implies --sat, every vector by the
        /// solver): the optimal embedding and every vector below it that the
        /// bounds leave, each with a binary DRAT proof of its formula's
        /// unsatisfiability. With --decide-by search or turns, a vector the
        /// branch and bound refutes by a core cites the DRAT proof of that
        /// core (its sub-cube placed one to one), one proof per core,
        /// written by a search that keeps the placement arc consistent and
        /// writes a clause at every dead end (the SAT solver takes hours
        /// on cores it refutes in minutes), cutting placements that have a
        /// smaller symmetric copy by lex-leader clauses it lists, each with
        /// its witness, in a `.shapes` file beside the proof. Check it with
        /// `topoembed verify-certificate DIR`.
        /// A stopped run writes a certificate of the lower bound it proved
        /// and goes on from DIR when run again (no --checkpoint: DIR is its
        /// own).
        #[arg(long, value_name = "DIR", conflicts_with_all = ["checkpoint", "all_bijections"])]
        certificate: Option<std::path::PathBuf>,
        /// How each vector is decided: `turns` (the branch
        /// and bound and the solver in turns, as above), `search` (the
        /// branch and bound alone, in turns of 2^18 nodes, four times as many
        /// each turn: on torus:32x32 the solver decides no vector, and its
        /// turns cost many times the branch and bound's: 450 s for 256 MiB
        /// of proof against 25 s for 2^28 nodes), `solver` (the solver
        /// alone, as --certificate does by default). The vectors of one sum
        /// take their turns together, so a hard vector waits for the cores
        /// the easy ones find [default: turns].
        #[arg(
            long,
            value_enum,
            value_name = "HOW",
            conflicts_with = "all_bijections"
        )]
        decide_by: Option<DecideBy>,
        /// Decide this one distance vector only (D_0,..,D_{d−1}, any order):
        /// does the cube embed with dimension i at distance D_i? The bounds
        /// answer first, then the branch and bound and the solver in turns
        /// as with --sat; an embedding found is printed (its map with
        /// --format json), dimension i at the i-th distance given. GUEST may
        /// be a cube smaller than the host (a sub-cube, placed one-to-one,
        /// decided by the branch and bound alone): how a core a refutation
        /// names is checked on its own, e.g. `optimal cube:6 torus:32x32
        /// --distances 4,4,4,4,4,4`.
        #[arg(
            long,
            value_name = "D0,D1,..",
            value_delimiter = ',',
            num_args = 1..,
            conflicts_with_all = ["checkpoint", "all_bijections", "certificate"]
        )]
        distances: Option<Vec<u32>>,
        /// Which vectors the search skips without deciding them:
        /// `counting` (sub-cube images are distinct, near each other and in
        /// one ellipse), `small-cubes` (also: every pair and triple of
        /// distances embeds as a 2- or 3-cube, found by exhaustive search),
        /// `all` (also the axis lemmas as first published: for a side k, if
        /// the two largest distances add up to less than k/2, then
        /// Σ D_i ≥ k − 1 — on rings the xor paper's Corollary 9; for two
        /// sides, 4·Σ D_i ≥ 3(k_a + k_b − 2) below min(k_a, k_b)/2; and,
        /// inside the SAT formulas, the winding lemma: if Σ D_i < k − 1 and
        /// exactly one pair reaches k/2, exactly, that pair moves along that
        /// side only), `lift` (the default: the lift lemma sharpens the axis
        /// lemma to Σ D_i ≥ k − 1 + the diameter of the other sides, and
        /// the winding lemma then holds below that, a pair reaching
        /// k/2 + s/2 moving at most s off its side; and the winding
        /// cocycle: with several pairs reaching half a side, some face of
        /// the sub-cube of their dimensions winds round every such side —
        /// a small search rules out the vectors where no placement of that
        /// sub-cube can). A certificate names its bounds and the checker
        /// recomputes them. Not with --whole-tree or --all-bijections (they
        /// prune by their own bounds).
        #[arg(
            long,
            default_value = "lift",
            value_name = "BOUNDS",
            conflicts_with_all = ["whole_tree", "all_bijections"]
        )]
        bounds: topoembed::optimal::Bounds,
        /// Run even when the estimated search passes the limit: 10 minutes,
        /// or TOPOEMBED_WORK_LIMIT seconds. The estimate is of the vectors
        /// the bounds leave (capped by --node-limit); with --whole-tree, of
        /// its tree's size by random probes. --sat, --decide-by and
        /// --certificate ask for the search by name and are never refused.
        #[arg(long)]
        force: bool,
        /// table: the optimum beside xor and standard; json: `min_sum`,
        /// `distances`, `map` (host node of every cube node), `xor_sum`,
        /// `standard_sum`, `xor_optimal`, `proved`, `lower_bound` (the least
        /// Σ D_i still possible: `min_sum` when proved; a stopped --sat run's
        /// first sum with a vector undecided), `nodes_searched`, `seconds`.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Check a certificate written by `topoembed optimal --certificate DIR`
    /// without trusting the search: the embedding is a constant-distance
    /// bijection with the claimed sum, every ascending distance vector below
    /// it is cut by the bounds the certificate names (`counting`,
    /// `small-cubes`, `all` or `lift`; recomputed here) or refuted, and every
    /// refutation's DRAT proof checks against the vector's formula.
    /// Exit 0 when it holds, 2 (with the reason) when not.
    VerifyCertificate {
        /// The certificate's directory.
        dir: std::path::PathBuf,
        /// Also write each refuted vector's formula (DIMACS) to DIR/formulas/,
        /// for drat-trim or any other DRAT checker.
        #[arg(long)]
        dimacs: bool,
        /// Check the proofs with this external DRAT checker instead of the
        /// built-in one: the command (with its options) to which each
        /// formula's and proof's paths are appended; a proof passes when it
        /// exits 0 and prints `s VERIFIED`. `rate` (`cargo install rate`)
        /// checks backwards, only the lemmas a refutation uses: torus:32x16's
        /// 21 GB of proofs in under an hour on 2 cores, where the built-in
        /// forward checker (about 1 MB/s per core) would take hours. Also
        /// `drat-trim`. (The built-in checker replays a core search's
        /// proof as the search tree it is, in about the search's time, and
        /// checks a solver's forward.)
        #[arg(long, value_name = "COMMAND")]
        checker: Option<String>,
        /// table or json (`min_sum`, `lower_bound`, `complete` — false for
        /// a stopped search's certificate, which proves `lower_bound` only —,
        /// `by_bounds`, `by_proofs`, `by_cores`, `cores`,
        /// `lex_leader_clauses`, `by_windings`, `by_halving`, `by_band`,
        /// `by_pin`, `lemmas`, `proof_bytes`, `checker`, `seconds`).
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
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
    DeviceMesh {
        /// The physical host: torus:4x4x4, mesh:16x16, grid:16wx16 (axis 1
        /// wraps, axis 2 does not), ring:N, line:N, cube:D (a mesh of 2s); or a
        /// cluster, e.g. 'fattree:2;4,4;1,2;1,1*tleaf:8:1' (16 nodes of 8
        /// NVSwitch-joined GPUs, GPU g of node n = host node 8n + g), a
        /// dragonfly of nodes, an allocation (HOST@IDS), a tleaf or hwloc node.
        host: String,
        /// The logical mesh, first axis outermost as in JAX: sizes like 16x4,
        /// or named axes like data=16,model=4. Sizes multiply to the host's node count.
        logical: String,
        /// Relative traffic of each logical axis, one number per axis, e.g.
        /// 1,4. Default 1,2,3,..: heavier toward the last axis, as JAX orders
        /// mesh axes.
        #[arg(long)]
        weights: Option<String>,
        /// Logical axes that are lines (pipeline axes: no link from the last
        /// device back to the first), by name or number, comma-separated.
        #[arg(long)]
        lines: Option<String>,
        /// What matters among the placements no other beats in both Σ max
        /// hops and Σ congestion (a ring all-reduce of B bytes costs about
        /// α·hops + β·B·congestion a step): `bandwidth` (least weighted
        /// congestion first, then hops: large messages, as gradients and
        /// activations are), `latency` (fewest weighted hops first, then
        /// congestion: small messages), `balanced` (least Σ w·(max hops +
        /// congestion): α = β·B). Never a placement that another one scored,
        /// row-major included, beats on both counts.
        #[arg(long, value_enum, default_value_t = MeshObjective::Bandwidth)]
        objective: MeshObjective,
        /// Score this assignment instead of searching: a file of host node
        /// ids, one per logical device in row-major order (last axis
        /// fastest); any separators, so a JSON nested list works (e.g. the
        /// ids of JAX's create_device_mesh result, converted to host nodes).
        #[arg(long, value_name = "FILE")]
        assignment: Option<std::path::PathBuf>,
        /// table: per-axis figures, the plan and the host drawn with each
        /// node's logical coordinates (up to 1024 devices); json: `mesh`
        /// (nested lists of host node ids shaped like LOGICAL: mesh[i][j] is
        /// the host node of logical (i, j)), `coords` (the same with host
        /// coordinates), `axes` (figures per axis, with `row_major`), `plan`,
        /// `notes`; csv: one row per device (logical coordinates, host node,
        /// host coordinates).
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Map any guest onto any host with the general mapper (multilevel:
    /// partition then anneal the parts onto the host, or dual recursive
    /// bipartitioning; then k-way FM and move/swap local search), least
    /// hop-bytes (Σ volume x host distance) first, no host node above
    /// ⌈(1 + imbalance) x total load / host nodes⌉ (exactly one per node when
    /// the counts are equal and loads are 1). Prints the placement's metrics
    /// beside the identity (or consecutive blocks) and round-robin ones.
    #[command(after_help = MAP_HELP)]
    Map {
        /// The communication graph: graph:FILE (.grf, .graph, .mtx, a run's
        /// Open MPI monitoring profiles P.<rank>.prof, a dense matrix .mat,
        /// or an edge list 'u v [volume]'), or any spec such as torus:64x64.
        guest: String,
        /// The machine: any spec (torus:16x16x16, tleaf:8x8x4:100,10,1, a .tgt file, graph:FILE).
        host: String,
        /// How far above the average load a host node may go.
        #[arg(long, default_value_t = 0.03)]
        imbalance: f64,
        /// Seed of the mapper's random choices: the same seed gives the same placement.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Most passes of the final k-way FM and move/swap local search (each
        /// also stops when a pass gains under 0.1 %); more passes are slower
        /// and rarely better (copter2: 4 passes 13 % faster than 12, 0.3 %
        /// more hop-bytes over the benchmark).
        #[arg(long, default_value_t = 4)]
        passes: usize,
        /// Independent searches from different random streams, run in
        /// parallel; the least hop-bytes is kept (more: better and slower).
        /// 0 (default): 2 for guests up to 100 000 vertices (one partitioning
        /// first, one bipartitioning guest and host together), 1 above.
        #[arg(long, default_value_t = 0)]
        restarts: usize,
        /// The machine's slots for a launch format (rankfile, seq,
        /// machinefile, cray-rank-order): an Open MPI hostfile, `name
        /// slots=N` per line; host node h is the h-th slot through it.
        #[arg(long, conflicts_with = "nodes")]
        hosts: Option<std::path::PathBuf>,
        /// The machine's slots for a launch format, as a Slurm hostlist
        /// (`node[01-16]`, `$SLURM_JOB_NODELIST`) with --slots-per-node on
        /// each: host node h is slot h, node 0's slots first.
        #[arg(long)]
        nodes: Option<String>,
        /// Slots (ranks) on each node of --nodes; with more than 1, give a
        /// host of nodes x slots nodes (a tleaf:NODESxSLOTS:.. or a .tgt).
        #[arg(long, default_value_t = 1, requires = "nodes")]
        slots_per_node: u64,
        /// Skip routing (congestion) in the metrics.
        #[arg(long)]
        no_traffic: bool,
        /// What to minimise: hop-bytes (Σ volume x host distance), or
        /// congestion (the most volume routed over one host link, under the
        /// host's own routing with ties toward increasing coordinates, as
        /// `metrics` counts it): the hop-bytes placement is then refined by
        /// moves and swaps that never raise the most loaded link.
        #[arg(long, value_enum, default_value_t = MapObjective::HopBytes)]
        objective: MapObjective,
        /// table: metrics beside the baselines; json: `map` (host node of
        /// every guest node), `metrics`, `baselines`, `capacity`, `seconds`;
        /// scotch-map: a Scotch .map (labels = guest node ids, or a .grf's own
        /// labels); launch files (need --hosts or --nodes): rankfile
        /// (Open MPI 4.x `mpirun -rf FILE`, 5.x `--map-by
        /// rankfile:file=FILE`), seq (line r = host of rank r: Open MPI
        /// `--map-by seq --hostfile FILE`, `SLURM_HOSTFILE=FILE srun
        /// --distribution=arbitrary`, `smpirun -hostfile FILE`), machinefile
        /// (`host:n` runs: MPICH/Hydra `mpiexec -f FILE`, Intel
        /// `-machinefile FILE`), cray-rank-order (`MPICH_RANK_ORDER` for
        /// `MPICH_RANK_REORDER_METHOD=3`); smpi-hostfile: line r =
        /// PREFIX<host node of rank r>, for `smpirun -platform P.xml
        /// -hostfile FILE` on the platform `topoembed export HOST --format
        /// simgrid` writes (no --hosts needed).
        #[arg(long, value_enum, default_value_t = MapFormat::Table)]
        format: MapFormat,
        /// Host name prefix of --format smpi-hostfile (as `export --prefix`).
        #[arg(long, default_value = "node-")]
        prefix: String,
        /// A recording's summary (the FILE.json `TOPOEMBED_RECORD=FILE`
        /// writes beside the graph), for an objective that sees latency:
        /// each pair's volume gains its messages x --latency-bytes, and the
        /// MPI_COMM_WORLD collectives are added as the messages SimGrid
        /// SMPI's default algorithms send (binomial broadcast, linear reduce
        /// to rank 0; rooted operations at root 0), each weighed as (bytes +
        /// --latency-bytes) x the ranks waiting for it; the launch order
        /// (rank r on host node r) is weighed against the search.
        #[arg(long, value_name = "FILE.json")]
        summary: Option<std::path::PathBuf>,
        /// With --summary: what one hop's latency is worth in bytes (α/β:
        /// latency x bandwidth; 1 µs at 10 GB/s is 10000).
        #[arg(long, default_value_t = topoembed::recorded::DEFAULT_LATENCY_BYTES, requires = "summary")]
        latency_bytes: u64,
    },
    /// Measure every method that applies to the pair, one row each; the best CC time is marked.
    #[command(after_help = SPECS)]
    Compare {
        #[command(flatten)]
        pair: Pair,
        #[command(flatten)]
        costs: Costs,
        #[command(flatten)]
        routing: Routing,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
        /// List every method that does not apply, with the reason (by
        /// default one line counts them).
        #[arg(long)]
        all: bool,
        /// Also print how each method built its embedding (the mapper's
        /// searches, the grid methods' choices); always in --format json.
        #[arg(long, short)]
        verbose: bool,
    },
    /// Build floor(n/2) edge-disjoint Hamiltonian cycles of cube:n (for even n every
    /// edge is on one: a Hamiltonian decomposition), verify them, and print them.
    /// Ho & Johnsson §5 use them to spread a mesh axis over several cycles
    /// (split --hamiltonian).
    Hamiltonian {
        /// The cube, cube:n with 2 <= n <= 22.
        spec: String,
        /// Print only the verification, not the cycles.
        #[arg(long)]
        summary: bool,
        /// table: one cycle per line (node labels in order; the last node
        /// links back to the first); json: {"dimension", "cycles": [[..], ..]}.
        #[arg(long, value_enum, default_value_t = HamiltonianFormat::Table)]
        format: HamiltonianFormat,
    },
    /// For a rank (a host node), the guest node(s) it plays and the rank of
    /// each guest neighbour by name: ring left/right, 2-D grid west/east
    /// (axis 1) and north/south (axis 2), axisK-/+ beyond, cube dimK, tree
    /// parent / left child / right child on every level it takes part in.
    /// This is what a program needs to run as if on the guest (lecture notes:
    /// "processor i runs the algorithm as if its id is f^-1(i)").
    #[command(after_help = SPECS)]
    Neighbors {
        #[command(flatten)]
        pair: Pair,
        /// Embedding method (see `topoembed methods`).
        #[arg(long, short)]
        method: String,
        /// The rank to describe (0 .. host nodes - 1).
        #[arg(long, required_unless_present = "all", conflicts_with = "all")]
        rank: Option<u64>,
        /// Describe every rank.
        #[arg(long)]
        all: bool,
        #[arg(long, value_enum, default_value_t = RunFormat::Table)]
        format: RunFormat,
    },
    /// Run an algorithm through an embedding, every rank an async task in
    /// this process, with a modelled clock: a compute phase costs T_a, a
    /// message hops x (T_c + bytes x T_b) (store and forward); exchanges end
    /// at max(both clocks) + cost, as in the xor paper. Every rank checks its
    /// result against a sequential reference. For cube algorithms the
    /// modelled time is set beside the CC recurrence over the same stages.
    #[command(after_help = RUN_HELP)]
    Run {
        /// cannon (torus:QxQ guest), fft, bitonic or allreduce (cube:D guest).
        #[arg(value_enum)]
        algorithm: AlgorithmArg,
        #[command(flatten)]
        pair: Pair,
        /// Embedding method (see `topoembed methods`); must be one-to-one; without it, the method `compare` marks best (named on stderr, with why).
        #[arg(long, short)]
        method: Option<String>,
        /// Problem size. fft: points (a power of two >= ranks; default: one per
        /// rank); bitonic: keys (a multiple of the ranks; default one per rank);
        /// allreduce: every rank's vector length (default 1); cannon: matrix
        /// order N, or MxKxN for A (MxK) times B (KxN), each a multiple of Q
        /// (default Q). 2^k is accepted.
        #[arg(long)]
        n: Option<String>,
        #[command(flatten)]
        costs: Costs,
        /// T_b: cost of one payload byte over one link (store and forward).
        #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
        tb: f64,
        #[arg(long, value_enum, default_value_t = RunFormat::Table)]
        format: RunFormat,
    },
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
    Draw {
        #[command(flatten)]
        pair: Pair,
        /// Embedding method (see `topoembed methods`); without it, the method `compare` marks best (named on stderr, with why).
        #[arg(long, short)]
        method: Option<String>,
        /// Which figure.
        #[arg(long, value_enum, default_value_t = FigureArg::Layout)]
        figure: FigureArg,
        /// layout: also draw every guest edge, coloured by its dilation
        /// (green 1 .. red the largest).
        #[arg(long)]
        edges: bool,
        /// load: ring direction when both ways round are equally short.
        #[arg(long, value_enum, default_value_t = Ties::Increasing)]
        ties: Ties,
        /// Output file; the SVG goes to standard output when not given.
        #[arg(long, short)]
        output: Option<std::path::PathBuf>,
    },
    /// Write one self-contained HTML page (inline SVG, no scripts, nothing
    /// fetched) comparing every method that applies to the pair: metrics
    /// table, what each metric means, and per method its layout, dilation
    /// spectrum, node-load profile and a Gantt chart of a simulated run.
    #[command(after_help = SPECS)]
    Report {
        #[command(flatten)]
        pair: Pair,
        /// The HTML file to write.
        #[arg(long, short)]
        output: std::path::PathBuf,
    },
    /// Write an Open MPI rankfile that launches MPI_COMM_WORLD rank g (guest
    /// node g) on the slot of host node f(g): host node h is the h-th slot of
    /// the hostfile (machines in order, each machine's slots in order). Run
    /// with `mpirun --rankfile FILE`. The alternative, without a rankfile, is
    /// topoembed-mpi's reordered communicators.
    #[command(after_help = SPECS)]
    Rankfile {
        #[command(flatten)]
        pair: Pair,
        /// Embedding method; must be one-to-one.
        #[arg(long, short)]
        method: String,
        /// Open MPI hostfile: 'name slots=N' per line, as many slots in all as host nodes.
        #[arg(long)]
        hosts: std::path::PathBuf,
    },
    /// Write a topology as a Scotch source graph (.grf) or target architecture (.tgt).
    #[command(after_help = SPECS)]
    Export {
        /// The topology, e.g. cube:10 or torus:32x32.
        spec: String,
        /// grf: Scotch source graph (node i is vertex i + base); tgt: Scotch target
        /// (hcub, torus2D/3D/XD, mesh2D/3D/XD; rings and lines as 1-D torusXD/meshXD;
        /// tleaf for tleaf hierarchies, fat trees and regular hwloc nodes; sub for
        /// allocations; deco, a distance matrix, for partly wrapped grids,
        /// dragonflies and other hwloc nodes); simgrid: a SimGrid platform for
        /// `smpirun -platform`, host node i named PREFIXi: rings, tori and
        /// hypercubes as TORUS clusters, fat trees and dragonflies as FAT_TREE and
        /// DRAGONFLY clusters; lines, meshes, partly wrapped grids, binary trees
        /// and graphs as one full-duplex link per edge and, up to 256 nodes, for
        /// every pair the route topoembed's routing takes (the links `metrics`
        /// counts congestion on; above, SimGrid's own shortest paths).
        #[arg(long, value_enum)]
        format: ExportFormat,
        /// Numbering base of the graph's vertices (0 or 1).
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=1))]
        base: u64,
        /// simgrid: the host names, PREFIX0, PREFIX1, ... (host node i is
        /// PREFIXi: `map --format smpi-hostfile --prefix PREFIX` writes the
        /// matching hostfile).
        #[arg(long, default_value = "node-")]
        prefix: String,
        /// simgrid: each link's bandwidth, in SimGrid's units.
        #[arg(long, default_value = "10GBps")]
        bandwidth: String,
        /// simgrid: each link's latency, in SimGrid's units.
        #[arg(long, default_value = "1us")]
        latency: String,
        /// simgrid: each host's speed, in SimGrid's units.
        #[arg(long, default_value = "1Gf")]
        speed: String,
        /// simgrid: write a ring, torus or hypercube as the other hosts are
        /// written — one link per edge and topoembed's route for every pair
        /// (up to 256 nodes; SimGrid's shortest paths above) — instead of a
        /// TORUS cluster routed by SimGrid,
        /// whose routes differ from topoembed's in one tie (from k/2 to 0 on
        /// an even ring SimGrid goes down).
        #[arg(long)]
        explicit_routes: bool,
    },
    /// Print a shell completion script, generated from these very definitions.
    #[command(after_help = COMPLETIONS_HELP)]
    Completions {
        /// The shell to complete in.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), generated from these very definitions.
    #[command(after_help = "Example: topoembed man > topoembed.1 && man ./topoembed.1")]
    Man,
}
