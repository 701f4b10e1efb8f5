/* Ranks 0 and 1 bounce a message of BYTES bytes ROUNDS times (other ranks
 * wait); rank 0 prints the time of one round trip:
 *
 *   pingpong BYTES ROUNDS */
#include "common.h"

int main(int argc, char **argv)
{
    int me, r;
    long bytes, rounds;
    char **buf;
    double start;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    bytes = arg(argc, argv, 1, 8);
    rounds = arg(argc, argv, 2, 100000);
    buf = buffers(1, bytes);
    MPI_Barrier(MPI_COMM_WORLD);
    start = MPI_Wtime();
    for (r = 0; r < rounds; r++) {
        if (me == 0) {
            MPI_Send(buf[0], (int)bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(buf[0], (int)bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (me == 1) {
            MPI_Recv(buf[0], (int)bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf[0], (int)bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
        }
    }
    if (me == 0)
        printf("pingpong time %.9f\n", (MPI_Wtime() - start) / (double)rounds);
    MPI_Finalize();
    return 0;
}
