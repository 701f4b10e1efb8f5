/* The traffic behind tests/data/monitoring/P.*.prof (tests/profiles.rs):
 * rank r sends three messages of 100*(r+1) bytes to rank r+1 (mod N), then
 * an MPI_Allreduce on MPI_COMM_WORLD and an MPI_Bcast on a communicator split
 * with the ranks reversed: collectives that must stay out of the pair
 * volumes. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int r, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    char *out = calloc(100 * (size_t)n, 1), *in = calloc(100 * (size_t)n, 1);
    for (int i = 0; i < 3; i++)
        MPI_Sendrecv(out, 100 * (r + 1), MPI_CHAR, (r + 1) % n, 0, in, 100 * n, MPI_CHAR,
                     (r + n - 1) % n, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double x = r, y;
    MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, r % 2, -r, &half);
    MPI_Bcast(out, 10, MPI_CHAR, 0, half);
    MPI_Comm_free(&half);
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
