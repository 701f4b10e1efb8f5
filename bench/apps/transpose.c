/* The transposes of a pencil-decomposed 3-D FFT: P processes in groups of
 * S (the row communicators of a P/S x S process grid), each group's
 * members chosen by a scrambled permutation (common.h); each iteration
 * every process exchanges BYTES with each other member of its group
 * (pairwise MPI_Isend/MPI_Irecv: an all-to-all inside the group).
 *
 *   transpose S BYTES ITERATIONS */
#include "common.h"

int main(int argc, char **argv)
{
    int n, me, s, q, base, k, it, count = 0;
    long bytes, iterations;
    char **out, **in;
    double start;
    MPI_Request *requests;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    s = (int)arg(argc, argv, 1, 8);
    bytes = arg(argc, argv, 2, 1 << 16);
    iterations = arg(argc, argv, 3, 10);
    if (s < 2 || n % s) {
        if (me == 0)
            fprintf(stderr, "transpose: groups of %d do not divide %d processes\n", s, n);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    scramble(n);
    q = part[me];
    base = q - q % s;
    out = buffers(s, bytes);
    in = buffers(s, bytes);
    requests = malloc(sizeof(MPI_Request) * 2 * (size_t)s);
    MPI_Barrier(MPI_COMM_WORLD);
    start = MPI_Wtime();
    for (it = 0; it < iterations; it++) {
        count = 0;
        for (k = 0; k < s; k++)
            if (base + k != q)
                MPI_Irecv(in[k], (int)bytes, MPI_CHAR, rank_of[base + k], 0, MPI_COMM_WORLD,
                          &requests[count++]);
        for (k = 0; k < s; k++)
            if (base + k != q)
                MPI_Isend(out[k], (int)bytes, MPI_CHAR, rank_of[base + k], 0, MPI_COMM_WORLD,
                          &requests[count++]);
        MPI_Waitall(count, requests, MPI_STATUSES_IGNORE);
    }
    report("transpose", start);
    MPI_Finalize();
    return 0;
}
