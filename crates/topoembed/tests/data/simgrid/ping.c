/* Rank 0 pings every other rank in turn with an empty message and prints
 * the simulated round-trip time: under SimGrid's SMPI it is 2 x (links on
 * the route) x latency plus fixed overheads, so it orders the ranks by
 * their distance from rank 0 (tests/simgrid.rs). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int r, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    char byte = 0;
    for (int peer = 1; peer < n; peer++) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (r == 0) {
            double start = MPI_Wtime();
            MPI_Send(&byte, 0, MPI_CHAR, peer, 0, MPI_COMM_WORLD);
            MPI_Recv(&byte, 0, MPI_CHAR, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            printf("%d %.9f\n", peer, MPI_Wtime() - start);
        } else if (r == peer) {
            MPI_Recv(&byte, 0, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&byte, 0, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
        }
    }
    MPI_Finalize();
    return 0;
}
