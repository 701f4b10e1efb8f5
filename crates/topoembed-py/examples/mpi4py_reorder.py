"""Reorder MPI.COMM_WORLD with a topoembed placement (mpi4py recipe).

World rank r runs on host node r (Open MPI fills a machine's slots in
order; use a rankfile to make it so). The program communicates along a
GUEST graph; topoembed embeds it onto the HOST, and ``comm.Split(0, key)``
makes the rank of guest node v the process on host node ``map[v]``:
neighbours in the program become neighbours on the machine.

    mpirun -np 16 python mpi4py_reorder.py cube:4 torus:4x4 xor

Every rank checks that the reordered communicator's neighbour distances are
what topoembed's metrics say (the longest is the embedding's dilation).
"""

import sys

import numpy as np
from mpi4py import MPI

import topoembed

defaults = ["cube:4", "torus:4x4", "xor"]
guest_spec, host_spec, method = (sys.argv[1:] + defaults[len(sys.argv) - 1 :])[:3]
world = MPI.COMM_WORLD
guest, host = topoembed.topology(guest_spec), topoembed.topology(host_spec)
if world.size != host.nodes:
    if world.rank == 0:
        print(f"run with {host.nodes} ranks (one per node of {host_spec}), not {world.size}", file=sys.stderr)
    sys.exit(2)

# Every rank computes the same embedding (deterministic), so no broadcast.
embedding = topoembed.embed(guest, host, method)
key = int(embedding.inverse[world.rank])  # the guest node placed on my host node
comm = world.Split(0, key)
assert comm.rank == key

# Where each reordered rank runs (its world rank = its host node).
host_of = np.array(comm.allgather(world.rank), dtype=np.uint64)
assert np.array_equal(host_of, embedding.map)
mine = guest.neighbors(comm.rank)
hops = host.distance(host_of[comm.rank], host_of[mine])
longest = comm.allreduce(int(hops.max()), op=MPI.MAX)
total = comm.allreduce(int(hops.sum()), op=MPI.SUM) // 2

measured = topoembed.metrics(guest, host, method=method)
assert longest == measured["dilation"]["max"], (longest, measured["dilation"])
assert total == measured["dilation"]["total"], (total, measured["dilation"])
identity = topoembed.metrics(guest, host, method="identity")
if comm.rank == 0:
    print(
        f"{guest_spec} on {host_spec} by {method}, {comm.size} ranks reordered: longest neighbour "
        f"distance {longest} (identity {identity['dilation']['max']}), {total} hops over all guest "
        f"edges (identity {identity['dilation']['total']}), as topoembed.metrics says"
    )
