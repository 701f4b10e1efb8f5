/* Known traffic, for the recorder's tests: every kind of send the recorder
 * intercepts, on MPI_COMM_WORLD and on communicators whose ranks are not
 * the world's (a split with reversed ranks, halves, an intercommunicator),
 * a neighbourhood collective, and collectives that must not reach the pair
 * volumes. Each process adds what it sends to `expected` by world
 * destination as it goes, and to `monitored` what Open MPI 4.1's
 * monitoring counts as the application's point-to-point traffic: not the
 * neighbourhood collective's blocks (internal messages to it), and not the
 * persistent sends (its E lines miss every send MPI_Start/MPI_Startall
 * starts: measured with this program).
 *
 *   traffic EXPECTED MONITORED [exit]
 *
 * Rank 0 writes both as edge lists "u v bytes" (a pair's bytes both ways;
 * pairs in order u < v) and prints "messages M" (point-to-point messages,
 * neighbourhood blocks included) and "checksum C". With "exit" every
 * process exits without MPI_Finalize after the traffic. Needs an even
 * number of processes, at least 4. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int n, me;
static long long *expected, *monitored, messages;

enum kind { PLAIN, NEIGHBOURHOOD, PERSISTENT };

static void count(int world_dest, long long bytes, enum kind kind)
{
    expected[world_dest] += bytes;
    if (kind == PLAIN)
        monitored[world_dest] += bytes;
    messages++;
}

static void write_pairs(const char *path, const long long *all)
{
    FILE *f = fopen(path, "w");
    int u, v;
    if (!f) {
        perror(path);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    fprintf(f, "# nodes %d\n", n);
    for (u = 0; u < n; u++)
        for (v = u + 1; v < n; v++) {
            long long w = all[(size_t)u * n + v] + all[(size_t)v * n + u];
            if (w > 0)
                fprintf(f, "%d %d %lld\n", u, v, w);
        }
    fclose(f);
}

int main(int argc, char **argv)
{
    int ints[64], back[64], i, k, rev_rank, half_rank, half_size, left, right, round;
    double doubles[3], got_doubles[3];
    char chars[7], got_chars[7];
    short shorts[4], got_shorts[4];
    float floats[11], got_floats[11];
    long long sum = 0, total = 0, all_messages = 0;
    char *bsend_buffer;
    int bsend_size;
    MPI_Request requests[4];
    MPI_Comm rev, half, inter, ring;
    MPI_Status status;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (argc < 3 || n < 4 || n % 2) {
        if (me == 0)
            fprintf(stderr, "usage: traffic EXPECTED MONITORED [exit], an even number of processes >= 4\n");
        MPI_Finalize();
        return 2;
    }
    expected = calloc((size_t)n, sizeof *expected);
    monitored = calloc((size_t)n, sizeof *monitored);
    right = (me + 1) % n;
    left = (me + n - 1) % n;
    for (i = 0; i < 64; i++)
        ints[i] = me * 100 + i;

    /* Blocking standard send: 10 ints right; and an empty message. */
    if (me % 2 == 0) {
        MPI_Send(ints, 10, MPI_INT, right, 1, MPI_COMM_WORLD);
        MPI_Recv(back, 10, MPI_INT, left, 1, MPI_COMM_WORLD, &status);
    } else {
        MPI_Recv(back, 10, MPI_INT, left, 1, MPI_COMM_WORLD, &status);
        MPI_Send(ints, 10, MPI_INT, right, 1, MPI_COMM_WORLD);
    }
    count(right, 10 * sizeof(int), PLAIN);
    sum += back[9];
    MPI_Sendrecv(ints, 0, MPI_INT, right, 2, back, 0, MPI_INT, left, 2, MPI_COMM_WORLD, &status);
    count(right, 0, PLAIN);
    /* To nobody: not counted. */
    MPI_Send(ints, 5, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD);

    /* Non-blocking: 3 doubles two ahead. */
    for (i = 0; i < 3; i++)
        doubles[i] = me + i;
    MPI_Irecv(got_doubles, 3, MPI_DOUBLE, (me + n - 2) % n, 4, MPI_COMM_WORLD, &requests[0]);
    MPI_Isend(doubles, 3, MPI_DOUBLE, (me + 2) % n, 4, MPI_COMM_WORLD, &requests[1]);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    count((me + 2) % n, 3 * sizeof(double), PLAIN);
    sum += (long long)got_doubles[2];

    /* Synchronous: 7 chars right (the receive is posted first). */
    memset(chars, 'a' + me % 26, sizeof chars);
    MPI_Irecv(got_chars, 7, MPI_CHAR, left, 5, MPI_COMM_WORLD, &requests[0]);
    MPI_Ssend(chars, 7, MPI_CHAR, right, 5, MPI_COMM_WORLD);
    MPI_Wait(&requests[0], &status);
    count(right, 7, PLAIN);
    /* Non-blocking synchronous: 7 chars left. */
    MPI_Irecv(got_chars, 7, MPI_CHAR, right, 6, MPI_COMM_WORLD, &requests[0]);
    MPI_Issend(chars, 7, MPI_CHAR, left, 6, MPI_COMM_WORLD, &requests[1]);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    count(left, 7, PLAIN);
    sum += got_chars[0];

    /* Buffered: 5 ints three ahead, then 2 more with MPI_Ibsend. */
    MPI_Pack_size(7, MPI_INT, MPI_COMM_WORLD, &bsend_size);
    bsend_size += 2 * MPI_BSEND_OVERHEAD;
    bsend_buffer = malloc((size_t)bsend_size);
    MPI_Buffer_attach(bsend_buffer, bsend_size);
    MPI_Bsend(ints, 5, MPI_INT, (me + 3) % n, 7, MPI_COMM_WORLD);
    MPI_Ibsend(ints, 2, MPI_INT, (me + 3) % n, 8, MPI_COMM_WORLD, &requests[1]);
    MPI_Recv(back, 5, MPI_INT, (me + n - 3) % n, 7, MPI_COMM_WORLD, &status);
    MPI_Recv(back + 5, 2, MPI_INT, (me + n - 3) % n, 8, MPI_COMM_WORLD, &status);
    MPI_Wait(&requests[1], &status);
    MPI_Buffer_detach(&bsend_buffer, &bsend_size);
    free(bsend_buffer);
    count((me + 3) % n, 5 * sizeof(int), PLAIN);
    count((me + 3) % n, 2 * sizeof(int), PLAIN);
    sum += back[6];

    /* Ready: 4 shorts right, every receive posted before the barrier. */
    for (i = 0; i < 4; i++)
        shorts[i] = (short)(me + i);
    MPI_Irecv(got_shorts, 4, MPI_SHORT, left, 9, MPI_COMM_WORLD, &requests[0]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Rsend(shorts, 4, MPI_SHORT, right, 9, MPI_COMM_WORLD);
    MPI_Wait(&requests[0], &status);
    count(right, 4 * sizeof(short), PLAIN);
    MPI_Irecv(got_shorts, 4, MPI_SHORT, right, 10, MPI_COMM_WORLD, &requests[0]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Irsend(shorts, 4, MPI_SHORT, left, 10, MPI_COMM_WORLD, &requests[1]);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    count(left, 4 * sizeof(short), PLAIN);
    sum += got_shorts[3];

    /* Persistent: 6 ints right and 12 left, started three times (MPI_Start
     * and MPI_Startall), then freed; a fourth start would be an error. */
    MPI_Send_init(ints, 6, MPI_INT, right, 11, MPI_COMM_WORLD, &requests[0]);
    MPI_Recv_init(back, 6, MPI_INT, left, 11, MPI_COMM_WORLD, &requests[1]);
    MPI_Ssend_init(ints + 6, 12, MPI_INT, left, 12, MPI_COMM_WORLD, &requests[2]);
    MPI_Recv_init(back + 6, 12, MPI_INT, right, 12, MPI_COMM_WORLD, &requests[3]);
    for (round = 0; round < 3; round++) {
        if (round == 0) {
            MPI_Start(&requests[1]);
            MPI_Start(&requests[3]);
            MPI_Start(&requests[0]);
            MPI_Start(&requests[2]);
        } else {
            MPI_Startall(4, requests);
        }
        MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
        count(right, 6 * sizeof(int), PERSISTENT);
        count(left, 12 * sizeof(int), PERSISTENT);
        sum += back[5] + back[17];
    }
    for (i = 0; i < 4; i++)
        MPI_Request_free(&requests[i]);

    /* Sendrecv: 11 floats half way round; Sendrecv_replace: 8 ints right. */
    for (i = 0; i < 11; i++)
        floats[i] = (float)(me * i);
    MPI_Sendrecv(floats, 11, MPI_FLOAT, (me + n / 2) % n, 13, got_floats, 11, MPI_FLOAT,
                 (me + n / 2) % n, 13, MPI_COMM_WORLD, &status);
    count((me + n / 2) % n, 11 * sizeof(float), PLAIN);
    memcpy(back, ints, 8 * sizeof(int));
    MPI_Sendrecv_replace(back, 8, MPI_INT, right, 14, left, 14, MPI_COMM_WORLD, &status);
    count(right, 8 * sizeof(int), PLAIN);
    sum += (long long)got_floats[10] + back[7];

    /* Reversed ranks: rank r of `rev` is world rank n-1-r. 9 ints to the
     * next rank of `rev`, which is world rank me-1. */
    MPI_Comm_split(MPI_COMM_WORLD, 0, n - 1 - me, &rev);
    MPI_Comm_rank(rev, &rev_rank);
    if (rev_rank != n - 1 - me)
        MPI_Abort(MPI_COMM_WORLD, 3);
    MPI_Sendrecv(ints, 9, MPI_INT, (rev_rank + 1) % n, 15, back, 9, MPI_INT,
                 (rev_rank + n - 1) % n, 15, rev, &status);
    count(n - 1 - (rev_rank + 1) % n, 9 * sizeof(int), PLAIN);
    sum += back[8];

    /* Halves by parity, reversed inside: rank h of my half is world rank
     * parity + 2 (size-1-h). Everyone but half-rank 0 sends it 13 ints;
     * an allreduce on the half is a collective and must not count. */
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, n - me, &half);
    MPI_Comm_rank(half, &half_rank);
    MPI_Comm_size(half, &half_size);
    if (half_rank == 0) {
        for (k = 1; k < half_size; k++)
            MPI_Recv(back, 13, MPI_INT, k, 16, half, &status);
    } else {
        MPI_Send(ints, 13, MPI_INT, 0, 16, half);
        count(me % 2 + 2 * (half_size - 1), 13 * sizeof(int), PLAIN);
    }
    MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_LONG_LONG, MPI_SUM, half);

    /* An intercommunicator between the halves: remote rank h is world
     * rank (1 - parity) + 2 (size-1-h). 3 ints to the same remote rank. */
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, me % 2 ? n - 2 : n - 1, 17, &inter);
    MPI_Sendrecv(ints, 3, MPI_INT, half_rank, 18, back, 3, MPI_INT, half_rank, 18, inter,
                 &status);
    count((1 - me % 2) + 2 * (half_size - 1 - half_rank), 3 * sizeof(int), PLAIN);
    sum += back[2];

    /* A neighbourhood collective on a periodic ring (no reordering: ring
     * rank = world rank): 8 ints to each of left and right. */
    {
        int dims[1] = {n}, periods[1] = {1};
        MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
        MPI_Neighbor_alltoall(ints, 8, MPI_INT, back, 8, MPI_INT, ring);
        count(left, 8 * sizeof(int), NEIGHBOURHOOD);
        count(right, 8 * sizeof(int), NEIGHBOURHOOD);
        sum += back[15];
        MPI_Comm_free(&ring);
    }

    /* Collectives: none of this is point-to-point traffic. */
    MPI_Bcast(ints, 64, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Alltoall(ints, 4, MPI_INT, back, 4, MPI_INT, MPI_COMM_WORLD);
    MPI_Allreduce(&sum, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    MPI_Comm_free(&rev);

    if (argc > 3 && strcmp(argv[3], "exit") == 0)
        exit(0);

    {
        long long *all = me == 0 ? malloc(sizeof(long long) * (size_t)n * n) : NULL;
        long long *all_monitored = me == 0 ? malloc(sizeof(long long) * (size_t)n * n) : NULL;
        MPI_Gather(expected, n, MPI_LONG_LONG, all, n, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
        MPI_Gather(monitored, n, MPI_LONG_LONG, all_monitored, n, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
        MPI_Reduce(&messages, &all_messages, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
        if (me == 0) {
            write_pairs(argv[1], all);
            write_pairs(argv[2], all_monitored);
            printf("messages %lld\nchecksum %lld\n", all_messages, total);
        }
        free(all);
        free(all_monitored);
    }
    MPI_Finalize();
    return 0;
}
