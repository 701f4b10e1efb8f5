#!/usr/bin/env python3
"""Generated benchmark graphs, written as METIS files (1-based, no weights).

    bench/graphs.py stencil 128x128 9 OUT.graph   # 2-D 5- or 9-point stencil
    bench/graphs.py stencil 24x24x24 7 OUT.graph  # 3-D 7- or 27-point stencil
    bench/graphs.py butterfly 10 OUT.graph        # FFT butterfly: 11 ranks of 2^10
    bench/graphs.py shuffle IN.graph SEED OUT.graph
    bench/graphs.py quotient IN.graph PARTS.map OUT.graph  # one vertex per part

`quotient` reads a Scotch mapping of IN's vertices to parts (as
`scotch_gpart K IN.grf PARTS.map` writes it, labels in gcv's numbering from
1) and writes the parts' graph: one vertex per part, an edge between two
parts weighted by the number of IN's edges between them (METIS fmt 1) -- the
one-to-one mapping problem of a partitioned application.

Vertices of stencils are numbered in grid order (first axis fastest), as an
application numbers them; `shuffle` renumbers any METIS graph at random, so
nothing can lean on the numbering.
"""
import itertools
import random
import sys


def write(path, n, adj):
    m = sum(len(a) for a in adj) // 2
    with open(path, "w") as f:
        f.write(f"{n} {m}\n")
        for a in adj:
            f.write(" ".join(str(u + 1) for u in sorted(a)) + "\n")


def stencil(sides, points):
    n = 1
    for s in sides:
        n *= s
    dims = len(sides)
    full = points in (9, 27)  # Chebyshev ball (box) vs. the axes only
    if (dims, points) not in ((2, 5), (2, 9), (3, 7), (3, 27)):
        sys.exit(f"stencil: {dims}-D takes {'5 or 9' if dims == 2 else '7 or 27'} points")
    offsets = [
        o
        for o in itertools.product((-1, 0, 1), repeat=dims)
        if any(o) and (full or sum(map(abs, o)) == 1)
    ]
    strides = [1]
    for s in sides[:-1]:
        strides.append(strides[-1] * s)
    adj = [[] for _ in range(n)]
    for v in range(n):
        c = [v // strides[a] % sides[a] for a in range(dims)]
        for o in offsets:
            d = [c[a] + o[a] for a in range(dims)]
            if all(0 <= d[a] < sides[a] for a in range(dims)):
                adj[v].append(sum(d[a] * strides[a] for a in range(dims)))
    return n, adj


def butterfly(k):
    # Rank r (0..k) holds 2^k vertices; (r, i) links to (r+1, i) and (r+1, i ^ 2^r).
    w = 1 << k
    n = (k + 1) * w
    adj = [[] for _ in range(n)]
    for r in range(k):
        for i in range(w):
            for j in (i, i ^ (1 << r)):
                a, b = r * w + i, (r + 1) * w + j
                adj[a].append(b)
                adj[b].append(a)
    return n, adj


def read(path):
    with open(path) as f:
        lines = [l for l in f if not l.startswith("%")]
    n = int(lines[0].split()[0])
    adj = [[int(x) - 1 for x in lines[1 + v].split()] for v in range(n)]
    return n, adj


def write_weighted(path, rows):
    m = sum(len(r) for r in rows) // 2
    with open(path, "w") as f:
        f.write(f"{len(rows)} {m} 1\n")
        for r in rows:
            f.write(" ".join(f"{u + 1} {w}" for u, w in sorted(r.items())) + "\n")


def quotient(n, adj, mapping):
    with open(mapping) as f:
        lines = f.read().split("\n")[1:]
    pairs = [tuple(map(int, l.split())) for l in lines if l.strip()]
    base = min(label for label, _ in pairs)
    part = [None] * n
    for label, p in pairs:
        part[label - base] = p
    if any(p is None for p in part):
        sys.exit(f"quotient: {mapping} does not map every vertex")
    ids = {p: i for i, p in enumerate(sorted(set(part)))}
    rows = [dict() for _ in ids]
    for v in range(n):
        for u in adj[v]:
            a, b = ids[part[v]], ids[part[u]]
            if a != b:
                rows[a][b] = rows[a].get(b, 0) + 1
    return rows


def main():
    kind = sys.argv[1] if len(sys.argv) > 1 else ""
    if kind == "stencil" and len(sys.argv) == 5:
        sides = [int(s) for s in sys.argv[2].split("x")]
        write(sys.argv[4], *stencil(sides, int(sys.argv[3])))
    elif kind == "butterfly" and len(sys.argv) == 4:
        write(sys.argv[3], *butterfly(int(sys.argv[2])))
    elif kind == "shuffle" and len(sys.argv) == 5:
        n, adj = read(sys.argv[2])
        perm = list(range(n))
        random.Random(int(sys.argv[3])).shuffle(perm)
        new = [None] * n
        for v in range(n):
            new[perm[v]] = [perm[u] for u in adj[v]]
        write(sys.argv[4], n, new)
    elif kind == "quotient" and len(sys.argv) == 5:
        n, adj = read(sys.argv[2])
        write_weighted(sys.argv[4], quotient(n, adj, sys.argv[3]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
