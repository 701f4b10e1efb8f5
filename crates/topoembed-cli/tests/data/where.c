/* Each rank prints where it runs: "rank R host H core C" (C: the one core
 * it is bound to, -1 when bound to several or none). tests/map.rs launches
 * it with the rankfile `topoembed map --format rankfile` writes. */
#define _GNU_SOURCE
#include <mpi.h>
#include <sched.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, len, core = -1, count = 0, i;
    char name[MPI_MAX_PROCESSOR_NAME];
    cpu_set_t set;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Get_processor_name(name, &len);
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        for (i = 0; i < CPU_SETSIZE; i++)
            if (CPU_ISSET(i, &set)) {
                core = i;
                count++;
            }
    printf("rank %d host %s core %d\n", rank, name, count == 1 ? core : -1);
    MPI_Finalize();
    return 0;
}
