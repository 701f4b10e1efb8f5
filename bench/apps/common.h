/* Shared by the mini-apps (bench/simgrid_apps.sh): the scrambled rank
 * numbering, the arguments, the timing line. Every app numbers its
 * processes by a fixed pseudo-random permutation of the world ranks, as an
 * application whose decomposition knows nothing of the machine does: rank
 * r plays part scramble[r]. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* part[r] = the part world rank r plays; rank_of[p] = the rank playing p. */
static int *part, *rank_of;

static void scramble(int n)
{
    unsigned long long state = 0x9e3779b97f4a7c15ULL;
    int i;
    part = malloc(sizeof(int) * (size_t)n);
    rank_of = malloc(sizeof(int) * (size_t)n);
    for (i = 0; i < n; i++)
        part[i] = i;
    for (i = n - 1; i > 0; i--) {
        int j, t;
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        j = (int)((state >> 33) % (unsigned long long)(i + 1));
        t = part[i];
        part[i] = part[j];
        part[j] = t;
    }
    for (i = 0; i < n; i++)
        rank_of[part[i]] = i;
}

static long arg(int argc, char **argv, int k, long fallback)
{
    return argc > k ? atol(argv[k]) : fallback;
}

/* Rank 0 prints the time from the first process's start (after the
 * barrier) to the last one's end: on one clock (SimGrid's simulated one,
 * or one machine's) the span of the whole exchange. */
static void report(const char *name, double start)
{
    double end = MPI_Wtime(), first = 0, last = 0;
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Reduce(&start, &first, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&end, &last, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (me == 0)
        printf("%s time %.6f\n", name, last - first);
}

/* Buffers of `bytes` bytes, `count` of them. */
static char **buffers(int count, long bytes)
{
    char **b = malloc(sizeof(char *) * (size_t)count);
    int i;
    for (i = 0; i < count; i++) {
        b[i] = malloc((size_t)bytes + 1);
        memset(b[i], i, (size_t)bytes + 1);
    }
    return b;
}
