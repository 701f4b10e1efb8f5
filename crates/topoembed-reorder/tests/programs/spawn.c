/* A message to a process outside MPI_COMM_WORLD, for the recorder's tests:
 * two ranks spawn a child (this program with the argument "child", which
 * drops TOPOEMBED_RECORD so that only the parents record), rank 0 sends it
 * 4 ints over the intercommunicator, and the two parents exchange 2 ints
 * each. The child's message has no world rank: the recording counts it as
 * unattributed and warns once; the pair {0, 1} carries 16 bytes. Rank 0
 * prints "parent done". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
    MPI_Comm parent, child; int rank, buf[4] = {1,2,3,4};
    if (argc > 1 && strcmp(argv[1], "child") == 0) unsetenv("TOPOEMBED_RECORD");
    MPI_Init(&argc, &argv);
    MPI_Comm_get_parent(&parent);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (parent == MPI_COMM_NULL) {
        char *args[] = {"child", NULL};
        MPI_Comm_spawn(argv[0], args, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &child, MPI_ERRCODES_IGNORE);
        if (rank == 0) MPI_Send(buf, 4, MPI_INT, 0, 0, child);
        MPI_Send(buf, 2, MPI_INT, (rank + 1) % 2, 1, MPI_COMM_WORLD);
        MPI_Recv(buf, 2, MPI_INT, (rank + 1) % 2, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Comm_disconnect(&child);
        if (rank == 0) printf("parent done\n");
    } else {
        MPI_Recv(buf, 4, MPI_INT, 0, 0, parent, MPI_STATUS_IGNORE);
        MPI_Comm_disconnect(&parent);
    }
    MPI_Finalize();
    return 0;
}
