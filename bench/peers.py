#!/usr/bin/env python3
"""Runs the Python-packaged peers of `topoembed map` on one METIS graph and
writes their placement, one block (host node) per line, as KaHIP does.

  peers.py mtkahypar GUEST.graph TARGET.graph OUT [--preset default] [--threads 2]
      Mt-KaHyPar's process mapping onto any target graph (PyPI `mtkahypar`,
      Graph.map_onto_graph; the target a METIS graph whose nodes are the
      host nodes, edge weights link costs).
  peers.py sharedmap GUEST.graph A:B:C c1,c2,c3 OUT [--mode eco] [--threads 2]
      SharedMap (PyPI `chszlablib`, Decomposition.process_map) onto the
      hierarchy tleaf:AxBxC:c1,c2,c3 (A top level), leaves numbered as
      tleaf numbers them.

Prints the seconds the peer took (reading excluded) on stdout. Both take
--eps (default 0.03) and --seed (default 1).
"""

import argparse
import os
import sys
import tempfile
import time


def write(path, blocks):
    with open(path, "w") as f:
        f.write("".join(f"{int(b)}\n" for b in blocks))


def mtkahypar_map(args):
    import mtkahypar

    init = mtkahypar.initialize(args.threads, False)
    preset = getattr(mtkahypar.PresetType, args.preset.upper())
    context = init.context_from_preset(preset)
    context.logging = False
    graph = init.graph_from_file(args.guest, context, mtkahypar.FileFormat.METIS)
    # Mt-KaHyPar's reader takes single spaces only (gcv -oc writes tabs).
    with open(args.target) as f:
        text = "\n".join(" ".join(line.split()) for line in f) + "\n"
    with tempfile.NamedTemporaryFile("w", suffix=".graph", delete=False) as f:
        f.write(text)
    target = init.target_graph_from_file(f.name, context, mtkahypar.FileFormat.METIS)
    os.unlink(f.name)
    context.set_mapping_parameters(target.num_nodes(), args.eps)
    mtkahypar.set_seed(args.seed)
    start = time.perf_counter()
    placed = graph.map_onto_graph(target, context)
    seconds = time.perf_counter() - start
    write(args.out, (placed.block_id(v) for v in range(graph.num_nodes())))
    return seconds


def sharedmap_map(args):
    import chszlablib

    sizes = [int(x) for x in args.hierarchy.split(":")]
    costs = [int(x) for x in args.costs.split(",")]
    if len(sizes) != len(costs):
        sys.exit(f"{args.hierarchy} has {len(sizes)} levels but {args.costs} gives {len(costs)} costs")
    graph = chszlablib.read_metis(args.guest)
    # SharedMap's hierarchy and distances run from the cores up (as KaHIP's
    # do): sizes C, B, A; the distance between PEs parting at a level is
    # the tleaf cost of that level plus those below it (tleaf costs add up).
    bottom_up = sizes[::-1]
    distance, total = [], 0
    for c in costs[::-1]:
        total += c
        distance.append(total)
    start = time.perf_counter()
    result = chszlablib.Decomposition.process_map(
        graph,
        bottom_up,
        distance,
        mode=args.mode,
        imbalance=args.eps,
        threads=args.threads,
        seed=args.seed,
    )
    seconds = time.perf_counter() - start
    write(args.out, result.assignment)
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="peer", required=True)
    mt = sub.add_parser("mtkahypar")
    mt.add_argument("guest")
    mt.add_argument("target")
    mt.add_argument("out")
    mt.add_argument("--preset", default="default")
    sm = sub.add_parser("sharedmap")
    sm.add_argument("guest")
    sm.add_argument("hierarchy")
    sm.add_argument("costs")
    sm.add_argument("out")
    sm.add_argument("--mode", default="eco")
    for p in (mt, sm):
        p.add_argument("--eps", type=float, default=0.03)
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    seconds = mtkahypar_map(args) if args.peer == "mtkahypar" else sharedmap_map(args)
    print(f"{seconds:.2f}")


if __name__ == "__main__":
    main()
