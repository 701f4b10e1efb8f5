/* What counting one message costs the recorder, without MPI: the counters'
 * entry point (src/record/ffi.rs) called 10^7 times to 6 peers in turn,
 * with one thread calling MPI (no lock) and with several (a lock). Linked
 * against libtopoembed_reorder.so; prints "ns per message". */
#include <stdint.h>
#include <stdio.h>
#include <time.h>

void topoembed_record_send(int dest, uint64_t bytes);
void topoembed_record_one_thread(int one);

static double per_message(int one_thread)
{
    struct timespec a, b;
    const int n = 10000000;
    int i;
    topoembed_record_one_thread(one_thread);
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (i = 0; i < n; i++)
        topoembed_record_send(i % 6, 4096);
    clock_gettime(CLOCK_MONOTONIC, &b);
    return ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / n;
}

int main(void)
{
    double one = per_message(1), locked = per_message(0);
    printf("count one thread %.1f\ncount locked %.1f\n", one, locked);
    return 0;
}
