/* A halo exchange on a periodic grid of processes (2-D or 3-D), with the
 * parts numbered by a scrambled permutation (common.h):
 *
 *   halo DIMS BYTES ITERATIONS     (DIMS: 8x8 or 4x4x4; their product = processes)
 *
 * Each iteration every part sends BYTES to each of its 2 x D neighbours
 * (MPI_Isend/MPI_Irecv, MPI_Waitall); tag k = the direction the message
 * moves (2d: -d, 2d+1: +d), so axes of 2 parts still match. */
#include "common.h"

int main(int argc, char **argv)
{
    int n, me, d, dims[3] = {1, 1, 1}, nd = 0, coords[3], it, k, q, peers[6];
    long bytes, iterations;
    char **out, **in, *spec;
    MPI_Request requests[12];
    double start;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    spec = argc > 1 ? argv[1] : "8x8";
    for (char *s = spec; nd < 3 && *s; nd++) {
        dims[nd] = (int)strtol(s, &s, 10);
        if (*s == 'x')
            s++;
    }
    bytes = arg(argc, argv, 2, 1 << 18);
    iterations = arg(argc, argv, 3, 10);
    if (dims[0] * dims[1] * dims[2] != n) {
        if (me == 0)
            fprintf(stderr, "halo: %s has %d positions for %d processes\n", spec,
                    dims[0] * dims[1] * dims[2], n);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    scramble(n);
    q = part[me];
    coords[0] = q % dims[0];
    coords[1] = q / dims[0] % dims[1];
    coords[2] = q / (dims[0] * dims[1]);
    for (d = 0; d < nd; d++)
        for (k = 0; k < 2; k++) {
            int c[3] = {coords[0], coords[1], coords[2]};
            c[d] = (c[d] + (k ? 1 : dims[d] - 1)) % dims[d];
            peers[2 * d + k] = rank_of[c[0] + dims[0] * (c[1] + dims[1] * c[2])];
        }
    out = buffers(2 * nd, bytes);
    in = buffers(2 * nd, bytes);
    MPI_Barrier(MPI_COMM_WORLD);
    start = MPI_Wtime();
    for (it = 0; it < iterations; it++) {
        for (k = 0; k < 2 * nd; k++)
            MPI_Irecv(in[k], (int)bytes, MPI_CHAR, peers[k], k ^ 1, MPI_COMM_WORLD, &requests[k]);
        for (k = 0; k < 2 * nd; k++)
            MPI_Isend(out[k], (int)bytes, MPI_CHAR, peers[k], k, MPI_COMM_WORLD,
                      &requests[2 * nd + k]);
        MPI_Waitall(4 * nd, requests, MPI_STATUSES_IGNORE);
    }
    report(nd == 3 ? "halo3d" : "halo2d", start);
    MPI_Finalize();
    return 0;
}
