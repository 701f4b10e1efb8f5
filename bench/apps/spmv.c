/* A sparse matrix-vector product over a partitioned mesh: a G x G grid of
 * points with the 9-point stencil, cut into P = PX x PY blocks, the blocks
 * numbered by a scrambled permutation (common.h). Each iteration every
 * block sends its neighbours the ghost values they need (a face of G/PX or
 * G/PY doubles, a corner of one double; MPI_Isend/MPI_Irecv). With DOTS > 0
 * each iteration then makes DOTS MPI_Allreduce calls of one double, as a
 * conjugate-gradient iteration does for its dot products (collectives: not
 * in the recorded graph, but on the simulated network).
 *
 *   spmv PX PY G ITERATIONS [DOTS]
 *
 * Prints "spmv time T", or "cg time T" with DOTS > 0. */
#include "common.h"

int main(int argc, char **argv)
{
    int n, me, px, py, bx, by, q, k, it, d, dots, peers[8];
    long g, iterations, sizes[8];
    char **out, **in;
    double start, dot = 1, sum;
    MPI_Request requests[16];
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    px = (int)arg(argc, argv, 1, 8);
    py = (int)arg(argc, argv, 2, 8);
    g = arg(argc, argv, 3, 32768);
    iterations = arg(argc, argv, 4, 10);
    dots = (int)arg(argc, argv, 5, 0);
    if (px * py != n) {
        if (me == 0)
            fprintf(stderr, "spmv: %d x %d blocks for %d processes\n", px, py, n);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    scramble(n);
    q = part[me];
    bx = q % px;
    by = q / px;
    /* Neighbours: 4 faces then 4 corners; the mesh does not wrap, so edge
     * blocks have fewer (MPI_PROC_NULL). */
    {
        int dx[8] = {-1, 1, 0, 0, -1, 1, -1, 1}, dy[8] = {0, 0, -1, 1, -1, -1, 1, 1};
        for (k = 0; k < 8; k++) {
            int x = bx + dx[k], y = by + dy[k];
            peers[k] = x < 0 || y < 0 || x >= px || y >= py ? MPI_PROC_NULL : rank_of[x + px * y];
            sizes[k] = 8 * (k < 2 ? g / py : k < 4 ? g / px : 1);
        }
    }
    out = buffers(8, 8 * g);
    in = buffers(8, 8 * g);
    MPI_Barrier(MPI_COMM_WORLD);
    start = MPI_Wtime();
    for (it = 0; it < iterations; it++) {
        /* The tag names the direction of travel; from neighbour k comes
         * a message moving the opposite way (faces k ^ 1, corners 11 - k). */
        for (k = 0; k < 8; k++)
            MPI_Irecv(in[k], (int)sizes[k], MPI_CHAR, peers[k], k < 4 ? k ^ 1 : 11 - k,
                      MPI_COMM_WORLD, &requests[k]);
        for (k = 0; k < 8; k++)
            MPI_Isend(out[k], (int)sizes[k], MPI_CHAR, peers[k], k, MPI_COMM_WORLD,
                      &requests[8 + k]);
        MPI_Waitall(16, requests, MPI_STATUSES_IGNORE);
        for (d = 0; d < dots; d++)
            MPI_Allreduce(&dot, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    report(dots > 0 ? "cg" : "spmv", start);
    MPI_Finalize();
    return 0;
}
