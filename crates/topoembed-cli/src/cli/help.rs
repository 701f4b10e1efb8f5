//! The long help texts of the commands (`after_help`).

pub(super) const SPECS: &str = "Topology specs: cube:D (hypercube, D <= 40), ring:N, line:N, \
torus:K1xK2x.. (wrap-around), mesh:K1xK2x.. (none), grid:K1wxK2x.. (a w after a side: that \
axis wraps around, the others do not), bintree:P (P leaves), graph:PATH \
(a Scotch source graph if PATH ends in .grf or .src, a METIS graph if it ends in .graph \
or .metis, a Matrix Market matrix's pattern if it ends in .mtx, a run's Open MPI monitoring \
files if it ends in .prof (P.<rank>.prof, all ranks read), a dense N x N matrix if it ends in .mat \
or its first row has more than three numbers, else an edge list 'u v [volume]' per line). \
Hosts also: tleaf:N1xN2..:C1,C2.. (a machine hierarchy, Scotch's tleaf), \
'fattree:L;D1,..;U1,..;P1,..' and 'dragonfly:G,GL;C,CL;R,RL;N' (SimGrid's FAT_TREE and DRAGONFLY \
clusters, routed as SimGrid routes them; quote them in a shell), hwloc:FILE.xml or hwloc:cores:FILE.xml \
(a node as lstopo --of xml describes it; hwloc: is this machine), a Scotch target file (FILE.tgt or \
tgt:FILE), slurm:topology.conf or slurm:topology.yaml[#NAME] (a Slurm tree, block or ring \
topology), NETWORK*NODE (every node of a network holding a node: 'fattree:..*hwloc:node.xml'), \
and any host followed by @NODES, an allocation: HOST@0-15,32 or HOST@FILE (those host \
nodes, in that order, with the whole host's distances and routes). Sizes may be written 2^k. Grid \
nodes are numbered with the first axis fastest: (i1, i2) is i1 + K1*i2.";

pub(super) const DEVICE_MESH: &str = "Host node ids number the host with the first axis fastest: \
(x, y, z) on torus:X x Y x Z is x + X*(y + Y*z). To build a jax.sharding.Mesh, sort \
jax.devices() by their coords into that numbering and index the list with `mesh` \
(see docs/src/device-meshes.md). On a cluster NETWORK*NODE, host node n*G + g is GPU g of network node n: \
with torchrun's ranks (node_rank*G + local_rank, node_rank in the network's order) the host \
node ids are the ranks, and DeviceMesh(\"cuda\", torch.tensor(mesh)) is the PyTorch mesh \
(topoembed.torch_mesh in Python does it).";

pub(super) const COMPLETIONS_HELP: &str = "Install (then open a new shell):
  bash:       topoembed completions bash > ~/.local/share/bash-completion/completions/topoembed
  zsh:        topoembed completions zsh > ~/.zfunc/_topoembed   (with fpath+=~/.zfunc before compinit)
  fish:       topoembed completions fish > ~/.config/fish/completions/topoembed.fish
  powershell: topoembed completions powershell >> $PROFILE";

pub(super) const MAP_HELP: &str = "Examples:
  topoembed map graph:mesh.graph torus:16x16                # 32 768 vertices onto 256 nodes
  topoembed map graph:app.grf tleaf:4x8x8:100,10,1 --format scotch-map > app.map
  topoembed map graph:trace.txt torus:8x8 --format rankfile --hosts hostfile
  topoembed map graph:run.0.prof tleaf:16x64:10,1 --format seq --nodes 'node[01-16]' --slots-per-node 64
  topoembed map torus:64x64 torus:64x64 --seed 7 --format json

Guest files: Scotch .grf (edge weights = volumes, vertex loads), METIS .graph (fmt 0/1/10/11;
the first vertex weight is the load), Matrix Market .mtx (|values| rounded, at least 1, as
volumes), Open MPI monitoring's P.<rank>.prof files of one run (bytes each pair exchanged,
collectives apart), dense N x N matrices .mat (row i: what rank i sent), edge lists 'u v' or
'u v volume'. Vertex i of any file is guest node i (rank i), from 0.

Launch files (--format rankfile|seq|machinefile|cray-rank-order) need the machine's slots,
--hosts FILE or --nodes HOSTLIST --slots-per-node N, as many as the host has nodes:
  mpirun -rf FILE ./app                                  # Open MPI 4.x, rankfile
  mpirun --map-by rankfile:file=FILE ./app               # Open MPI 5.x, rankfile
  mpirun --map-by seq --hostfile FILE ./app              # Open MPI, seq
  SLURM_HOSTFILE=FILE srun --distribution=arbitrary -n N ./app   # Slurm, seq
  smpirun -np N -platform P.xml -hostfile FILE ./app     # SimGrid, seq
  mpiexec -f FILE -n N ./app                             # MPICH/Hydra, machinefile
  MPICH_RANK_REORDER_METHOD=3 (FILE named MPICH_RANK_ORDER)     # HPE/Cray, cray-rank-order";

pub(super) const RUN_HELP: &str = "Examples:
  topoembed run allreduce cube:10 ring:1024 --method xor        # 767 hops of modelled time
  topoembed run allreduce cube:10 ring:1024 --method standard   # 1023
  topoembed run fft cube:6 torus:8x8 --method xor --n 4096
  topoembed run cannon torus:4x4 cube:4 --method gray --n 64x32x16

Algorithms: cannon (Cannon's block matrix product, lecture notes §4) on a square torus guest;
fft (radix-2, decimation in time), bitonic (sort with compare-split) and allreduce (recursive
doubling) as compute-and-communicate d-cube algorithms on a cube guest.";

pub(super) const DRAW_HELP: &str = "Examples (the xor paper's figures):
  topoembed draw cube:3 line:8 --method standard -o fig2a.svg       # figure 2a
  topoembed draw cube:4 torus:4x4 --method standard -o fig2b.svg    # figure 2b
  topoembed draw cube:5 ring:32 --method byweight -o fig3b.svg      # figure 3b
  topoembed draw cube:4 ring:16 --method xor -o fig5.svg            # figure 5
  topoembed draw cube:6 torus:8x8 --method xor --edges -o fig6.svg  # figure 6
  topoembed draw bintree:16 cube:4 --method levels -o tree.svg      # lecture notes figure 4
  topoembed draw cube:4 ring:16 --method standard --figure load -o fig9.svg

Hosts: rings as a circle (node 0 on top, clockwise), lines as a row, 2-D grids with axis 1
across and axis 2 down, larger grids as 2-D slices, hypercubes as a Gray-code grid (low bits
across, high bits down, neighbours in a row or column differ in one bit), trees by level.
At most 4096 host nodes.";

pub(super) const SIMULATE_HELP: &str = "Examples:
  topoembed simulate fft cube:6 line:64 --method byweight             # contention: 41 -> 43
  topoembed simulate fft cube:6 torus:8x8 --method xor --gantt fft.svg
  topoembed simulate halo mesh:16x16 cube:4 --method reshape          # many-to-one: shared processors
  topoembed simulate allreduce cube:16 torus:256x256 --method xor     # 65 536 processes

Traces: 'run' runs the algorithm in this process (one-to-one embeddings, real message sizes)
and replays what every rank did; 'cc' builds the CC d-cube structure (local phases, then
compute + exchange per stage), one process per guest node, so it takes many-to-one methods too.
halo: every guest node computes, then sends to and receives from each guest neighbour.";

pub(super) const OPTIMAL_HELP: &str = "Examples:
  topoembed optimal cube:6 torus:8x8               # min Σ D_i = 10, reached by xor
  topoembed optimal cube:8 torus:16x16 --format json

The search is complete: `proved` is true when it ran to the end (not stopped by
--node-limit or Ctrl-C), and then no constant-distance embedding has a smaller
sum. The bounds go first: on every ring they leave no vector below xor's, so
  topoembed optimal cube:12 ring:4096                        # proved, 0 vectors, 0.4 s
Ctrl-C stops it with the best found so far; with --checkpoint FILE the next
run goes on from where it stopped:
  topoembed optimal cube:10 torus:32x32 --force --checkpoint q10.json   # ~10 min; Ctrl-C, later the same again

A certificate proves the answer to anyone (a stopped run goes on from DIR when
given the same DIR):
  topoembed optimal cube:8 torus:32x8 --certificate c32x8   # 2 DRAT proofs, 4 B
  topoembed verify-certificate c32x8                         # exit 0: it holds

On rings the bounds alone leave no vector below xor (the xor paper's Theorem 10,
by the axis lemma of the default bounds); --bounds small-cubes leaves the rest to DRAT:
  topoembed optimal cube:12 ring:4096 --certificate r12      # 0 vectors, 0.4 s
  topoembed optimal cube:6 ring:64 --certificate r6 --bounds small-cubes

The `cited` row is not proved here: it is what the published least wirelength of a
cube on a ring (Liu & Tang 2023) or torus (Tang 2023, a preprint) implies, since a
constant-distance embedding's wirelength is 2^(d-1)·Σ D_i and a bijection's CC time
is at least 2·wirelength/2^d. The searches never use it.";
