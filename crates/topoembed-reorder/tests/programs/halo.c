/* A periodic halo exchange through MPI_Cart_create + MPI_Cart_shift +
 * MPI_Neighbor_alltoall, every received value checked.
 *
 *   halo DIMS [REORDER]     e.g. halo 16x1 1, halo 2x4x2 0
 *
 * Rank 0 prints "checksum S" (the same with and without a reordering
 * library: the program computes in Cartesian ranks) and "placement w0 w1
 * ..." (the world rank at each Cartesian rank). Exit 1 on a wrong value. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int dims[8], periods[8], ndims = 0, reorder = argc > 2 ? atoi(argv[2]) : 1;
    int rank, size, world_rank, d, bad = 0, i;
    char *spec, *tok;
    MPI_Comm cart;
    MPI_Init(&argc, &argv);
    if (argc < 2) {
        fprintf(stderr, "usage: halo DIMS [REORDER]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    spec = strdup(argv[1]);
    for (tok = strtok(spec, "x"); tok && ndims < 8; tok = strtok(NULL, "x")) {
        dims[ndims] = atoi(tok);
        periods[ndims++] = 1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, reorder, &cart);
    MPI_Comm_rank(cart, &rank);
    MPI_Comm_size(cart, &size);
    {
        long long send[16], recv[16], sum = 0, total = 0;
        int coords[8], source, dest, expect_source, expect_dest;
        for (i = 0; i < 2 * ndims; i++)
            send[i] = (long long)rank * 1000 + i;
        MPI_Neighbor_alltoall(send, 1, MPI_LONG_LONG, recv, 1, MPI_LONG_LONG, cart);
        MPI_Cart_coords(cart, rank, ndims, coords);
        for (d = 0; d < ndims; d++) {
            int c = coords[d];
            MPI_Cart_shift(cart, d, 1, &source, &dest);
            /* The neighbours by coordinates, to check MPI_Cart_shift too. */
            coords[d] = (c - 1 + dims[d]) % dims[d];
            MPI_Cart_rank(cart, coords, &expect_source);
            coords[d] = (c + 1) % dims[d];
            MPI_Cart_rank(cart, coords, &expect_dest);
            coords[d] = c;
            if (source != expect_source || dest != expect_dest) {
                fprintf(stderr, "rank %d: shift %d gives %d/%d, coordinates say %d/%d\n", rank, d,
                        source, dest, expect_source, expect_dest);
                bad = 1;
            }
            /* The - neighbour sent its + slot (2d + 1), the + neighbour its - slot. */
            if (recv[2 * d] != (long long)source * 1000 + 2 * d + 1 ||
                recv[2 * d + 1] != (long long)dest * 1000 + 2 * d) {
                fprintf(stderr, "rank %d: axis %d received %lld/%lld\n", rank, d, recv[2 * d],
                        recv[2 * d + 1]);
                bad = 1;
            }
            sum += recv[2 * d] * (d + 1) + recv[2 * d + 1];
        }
        MPI_Reduce(&sum, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, cart);
        {
            int *where = malloc(sizeof(int) * (size_t)size), any_bad = 0;
            MPI_Gather(&world_rank, 1, MPI_INT, where, 1, MPI_INT, 0, cart);
            MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, cart);
            if (rank == 0) {
                printf("checksum %lld\nplacement", total);
                for (i = 0; i < size; i++)
                    printf(" %d", where[i]);
                printf("\n%s\n", any_bad ? "WRONG" : "verified");
            }
            free(where);
            bad = any_bad;
        }
    }
    MPI_Comm_free(&cart);
    free(spec);
    MPI_Finalize();
    return bad;
}
