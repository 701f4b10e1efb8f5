/* A pipeline: stage s receives a block from stage s - 1, and passes it on
 * to stage s + 1, BLOCKS blocks of BYTES one after another; the stages are
 * the processes in a scrambled order (common.h).
 *
 *   pipeline BYTES BLOCKS */
#include "common.h"

int main(int argc, char **argv)
{
    int n, me, q, b, prev, next;
    long bytes, blocks;
    char **buf;
    double start;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    bytes = arg(argc, argv, 1, 1 << 20);
    blocks = arg(argc, argv, 2, 16);
    scramble(n);
    q = part[me];
    prev = q > 0 ? rank_of[q - 1] : MPI_PROC_NULL;
    next = q < n - 1 ? rank_of[q + 1] : MPI_PROC_NULL;
    buf = buffers(1, bytes);
    MPI_Barrier(MPI_COMM_WORLD);
    start = MPI_Wtime();
    for (b = 0; b < blocks; b++) {
        MPI_Recv(buf[0], (int)bytes, MPI_CHAR, prev, b, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf[0], (int)bytes, MPI_CHAR, next, b, MPI_COMM_WORLD);
    }
    report("pipeline", start);
    MPI_Finalize();
    return 0;
}
