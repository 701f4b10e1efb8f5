/* A weighted neighbour exchange on a distributed-graph communicator:
 * vertex v of P is joined to v ± 1 (volume 10) and v ± STRIDE (volume 1),
 * mod P. The process of rank v in the new communicator plays vertex v.
 *
 *   graph STRIDE [REORDER] [general]
 *
 * Default: MPI_Dist_graph_create_adjacent (each rank gives its own lists;
 * MPI_Dist_graph_neighbors must return them in that order); "general":
 * MPI_Dist_graph_create (each rank gives its vertex's out-edges). Every
 * value received names its sender and receiver and is checked. Rank 0
 * prints "checksum S", "placement w0 w1 ..." and "verified". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int neighbours(int v, int p, int stride, int *out, int *weights)
{
    int steps[4] = {1, -1, stride, -stride}, vols[4] = {10, 10, 1, 1}, n = 0, i, j;
    for (i = 0; i < 4; i++) {
        int u = ((v + steps[i]) % p + p) % p, dup = 0;
        for (j = 0; j < n; j++)
            dup |= out[j] == u;
        if (u != v && !dup) {
            out[n] = u;
            weights[n++] = vols[i];
        }
    }
    return n;
}

int main(int argc, char **argv)
{
    int stride = argc > 1 ? atoi(argv[1]) : 4, reorder = argc > 2 ? atoi(argv[2]) : 1;
    int general = argc > 3 && strcmp(argv[3], "general") == 0;
    int old_rank, size, world_rank, rank, mine[4], weights[4], deg, i, j, bad = 0;
    MPI_Comm graph;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &old_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    world_rank = old_rank;
    deg = neighbours(old_rank, size, stride, mine, weights);
    if (general)
        MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &old_rank, &deg, mine, weights, MPI_INFO_NULL,
                              reorder, &graph);
    else
        MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, deg, mine, weights, deg, mine, weights,
                                       MPI_INFO_NULL, reorder, &graph);
    MPI_Comm_rank(graph, &rank);
    {
        int indeg, outdeg, weighted, sources[4], sw[4], dests[4], dw[4], expect[4], ew[4], n;
        long long send[4], recv[4], sum = 0, total = 0;
        int *where = malloc(sizeof(int) * (size_t)size), any_bad = 0;
        MPI_Dist_graph_neighbors_count(graph, &indeg, &outdeg, &weighted);
        n = neighbours(rank, size, stride, expect, ew);
        if (indeg != n || outdeg != n || !weighted) {
            fprintf(stderr, "rank %d: degrees %d/%d (weighted %d), expected %d\n", rank, indeg,
                    outdeg, weighted, n);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        MPI_Dist_graph_neighbors(graph, indeg, sources, sw, outdeg, dests, dw);
        for (i = 0; i < n; i++) {
            int found = 0;
            for (j = 0; j < n; j++)
                found |= dests[i] == expect[j] && dw[i] == ew[j];
            /* The adjacent form keeps the order given. */
            if (!found || (!general && (dests[i] != expect[i] || sources[i] != expect[i]))) {
                fprintf(stderr, "rank %d: neighbour %d is %d, expected %d\n", rank, i, dests[i],
                        expect[i]);
                bad = 1;
            }
        }
        for (i = 0; i < outdeg; i++)
            send[i] = (long long)rank * 1000 + dests[i];
        MPI_Neighbor_alltoall(send, 1, MPI_LONG_LONG, recv, 1, MPI_LONG_LONG, graph);
        for (i = 0; i < indeg; i++) {
            if (recv[i] != (long long)sources[i] * 1000 + rank) {
                fprintf(stderr, "rank %d: from %d received %lld\n", rank, sources[i], recv[i]);
                bad = 1;
            }
            sum += recv[i] * sw[i];
        }
        MPI_Reduce(&sum, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, graph);
        MPI_Gather(&world_rank, 1, MPI_INT, where, 1, MPI_INT, 0, graph);
        MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, graph);
        if (rank == 0) {
            printf("checksum %lld\nplacement", total);
            for (i = 0; i < size; i++)
                printf(" %d", where[i]);
            printf("\n%s\n", any_bad ? "WRONG" : "verified");
        }
        bad = any_bad;
        free(where);
    }
    MPI_Comm_free(&graph);
    MPI_Finalize();
    return bad;
}
