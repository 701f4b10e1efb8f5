/*
 * The recording side of libtopoembed_reorder (TOPOEMBED_RECORD=FILE): every
 * send the application makes, on any communicator, counted by the world rank
 * it goes to; collectives counted apart; at MPI_Finalize rank 0 gathers the
 * counts and writes FILE (src/record/, in Rust).
 *
 * Each interposed call runs the PMPI call first and counts only when it
 * succeeded, from the arguments alone (bytes = count x MPI_Type_size, as
 * Open MPI's monitoring counts them). Destinations are translated to world
 * ranks once per (communicator, rank), cached in Rust beside a
 * per-communicator id that an MPI attribute carries (deleted with the
 * communicator); communicators congruent to MPI_COMM_WORLD need no
 * translation. Persistent sends are remembered at *_init and counted at
 * every MPI_Start. Nothing here can stop the application: a failure to
 * translate is counted as unattributed traffic and reported once, on rank
 * 0, at MPI_Finalize.
 *
 * The exported MPI_* names are defined in Rust (src/record/exports.rs) and
 * forward here as topoembed_rec_MPI_*.
 */
#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The counters (src/record/ffi.rs). */
int topoembed_record_enabled(void);
void topoembed_record_one_thread(int one);
void topoembed_record_send(int dest, uint64_t bytes);
void topoembed_record_neighbour(int dest, uint64_t bytes);
void topoembed_record_open(uint64_t id, int leader, int size, const char *name);
void topoembed_record_close(uint64_t id);
int topoembed_record_world_rank(uint64_t id, int rank);
void topoembed_record_remember(uint64_t id, int rank, int world);
void topoembed_record_collective(uint64_t id, const char *name, uint64_t bytes);
void topoembed_record_persistent(uintptr_t request, int dest, uint64_t bytes);
void topoembed_record_start(uintptr_t request);
void topoembed_record_free_request(uintptr_t request);
unsigned char *topoembed_record_export(size_t *len);
void topoembed_record_release(unsigned char *blob, size_t len);
int topoembed_record_write(int world_size, const unsigned char *blobs, const int *counts,
                           char *message, int message_len);

#define MESSAGE_LEN 4096
/* topoembed_record_world_rank: not yet translated. */
#define UNKNOWN (-2)

static int state = -1;

/* Whether TOPOEMBED_RECORD is set (read once, at the first intercepted
 * call, after MPI_Init: the counters then learn whether one thread calls
 * MPI, which lets them count without a lock). */
static int recording(void)
{
    if (state < 0) {
        int level = MPI_THREAD_MULTIPLE, initialized = 0;
        state = topoembed_record_enabled();
        if (state && PMPI_Initialized(&initialized) == MPI_SUCCESS && initialized &&
            PMPI_Query_thread(&level) == MPI_SUCCESS)
            topoembed_record_one_thread(level <= MPI_THREAD_FUNNELED);
    }
    return state;
}

static uint64_t bytes_of(int count, MPI_Datatype type)
{
    int size = 0;
    if (count <= 0 || type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS ||
        size < 0)
        return 0;
    return (uint64_t)count * (uint64_t)size;
}

/* What the recorder keeps about a communicator. */
struct comm_info {
    uint64_t id;
    int identity;      /* rank r is world rank r */
    MPI_Group group;   /* the group destinations name (the remote one of an intercommunicator) */
};

static int keyval = MPI_KEYVAL_INVALID;
static uint64_t next_id = 1;
static struct comm_info world_info;
static int world_ready;
static MPI_Group world_group = MPI_GROUP_NULL;

static int delete_info(MPI_Comm comm, int key, void *value, void *extra)
{
    struct comm_info *info = value;
    (void)comm;
    (void)key;
    (void)extra;
    topoembed_record_close(info->id);
    if (info->group != MPI_GROUP_NULL)
        PMPI_Group_free(&info->group);
    free(info);
    return MPI_SUCCESS;
}

static int world_rank_of_group_rank(MPI_Group group, int rank)
{
    int world = MPI_UNDEFINED;
    if (world_group == MPI_GROUP_NULL && PMPI_Comm_group(MPI_COMM_WORLD, &world_group) != MPI_SUCCESS)
        return -1;
    if (PMPI_Group_translate_ranks(group, 1, &rank, world_group, &world) != MPI_SUCCESS ||
        world == MPI_UNDEFINED || world < 0)
        return -1;
    return world;
}

static struct comm_info *info_of(MPI_Comm comm)
{
    struct comm_info *info;
    void *value = NULL;
    int found = 0, inter = 0, size = 0, compare = MPI_UNEQUAL, len = 0, leader;
    char name[MPI_MAX_OBJECT_NAME + 1];
    MPI_Group local = MPI_GROUP_NULL;
    if (comm == MPI_COMM_NULL)
        return NULL;
    if (comm == MPI_COMM_WORLD) {
        if (!world_ready) {
            PMPI_Comm_size(MPI_COMM_WORLD, &size);
            world_info.id = 0;
            world_info.identity = 1;
            world_info.group = MPI_GROUP_NULL;
            topoembed_record_open(0, 0, size, "MPI_COMM_WORLD");
            world_ready = 1;
        }
        return &world_info;
    }
    if (keyval == MPI_KEYVAL_INVALID &&
        PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_info, &keyval, NULL) != MPI_SUCCESS)
        return NULL;
    if (PMPI_Comm_get_attr(comm, keyval, &value, &found) != MPI_SUCCESS)
        return NULL;
    if (found)
        return value;
    info = calloc(1, sizeof *info);
    if (!info)
        return NULL;
    info->id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
    info->group = MPI_GROUP_NULL;
    PMPI_Comm_test_inter(comm, &inter);
    PMPI_Comm_size(comm, &size);
    PMPI_Comm_group(comm, &local);
    leader = world_rank_of_group_rank(local, 0);
    if (inter) {
        PMPI_Comm_remote_group(comm, &info->group);
        PMPI_Group_free(&local);
    } else {
        info->group = local;
        PMPI_Comm_compare(comm, MPI_COMM_WORLD, &compare);
        info->identity = compare == MPI_IDENT || compare == MPI_CONGRUENT;
    }
    memset(name, 0, sizeof name);
    PMPI_Comm_get_name(comm, name, &len);
    topoembed_record_open(info->id, leader, size, name);
    PMPI_Comm_set_attr(comm, keyval, info);
    return info;
}

/* The world rank of rank `rank` of `comm` (a destination), or -1. */
static int world_of(MPI_Comm comm, int rank)
{
    struct comm_info *info = info_of(comm);
    int world;
    if (!info || rank < 0)
        return -1;
    if (info->identity)
        return rank;
    world = topoembed_record_world_rank(info->id, rank);
    if (world != UNKNOWN)
        return world;
    world = world_rank_of_group_rank(info->group, rank);
    topoembed_record_remember(info->id, rank, world);
    return world;
}

static void sent(MPI_Comm comm, int dest, int count, MPI_Datatype type)
{
    if (!recording() || dest == MPI_PROC_NULL)
        return;
    topoembed_record_send(world_of(comm, dest), bytes_of(count, type));
}

/* ---- point to point ---- */

#define BLOCKING_SEND(fn)                                                                   \
    int topoembed_rec_##fn(const void *buf, int count, MPI_Datatype type, int dest, int tag,  \
                           MPI_Comm comm)                                                   \
    {                                                                                       \
        int code = P##fn(buf, count, type, dest, tag, comm);                                \
        if (code == MPI_SUCCESS)                                                            \
            sent(comm, dest, count, type);                                                  \
        return code;                                                                        \
    }
BLOCKING_SEND(MPI_Send)
BLOCKING_SEND(MPI_Bsend)
BLOCKING_SEND(MPI_Ssend)
BLOCKING_SEND(MPI_Rsend)

#define NONBLOCKING_SEND(fn)                                                                \
    int topoembed_rec_##fn(const void *buf, int count, MPI_Datatype type, int dest, int tag,  \
                           MPI_Comm comm, MPI_Request *request)                             \
    {                                                                                       \
        int code = P##fn(buf, count, type, dest, tag, comm, request);                       \
        if (code == MPI_SUCCESS)                                                            \
            sent(comm, dest, count, type);                                                  \
        return code;                                                                        \
    }
NONBLOCKING_SEND(MPI_Isend)
NONBLOCKING_SEND(MPI_Ibsend)
NONBLOCKING_SEND(MPI_Issend)
NONBLOCKING_SEND(MPI_Irsend)

/* Persistent sends are counted when started, as often as started. */
#define PERSISTENT_SEND(fn)                                                                 \
    int topoembed_rec_##fn(const void *buf, int count, MPI_Datatype type, int dest, int tag,  \
                           MPI_Comm comm, MPI_Request *request)                             \
    {                                                                                       \
        int code = P##fn(buf, count, type, dest, tag, comm, request);                       \
        if (code == MPI_SUCCESS && recording() && dest != MPI_PROC_NULL)                    \
            topoembed_record_persistent((uintptr_t)*request, world_of(comm, dest),          \
                                        bytes_of(count, type));                             \
        return code;                                                                        \
    }
PERSISTENT_SEND(MPI_Send_init)
PERSISTENT_SEND(MPI_Bsend_init)
PERSISTENT_SEND(MPI_Ssend_init)
PERSISTENT_SEND(MPI_Rsend_init)

int topoembed_rec_MPI_Start(MPI_Request *request)
{
    uintptr_t handle = (uintptr_t)*request;
    int code = PMPI_Start(request);
    if (code == MPI_SUCCESS && recording())
        topoembed_record_start(handle);
    return code;
}

int topoembed_rec_MPI_Startall(int count, MPI_Request requests[])
{
    int code = PMPI_Startall(count, requests), i;
    if (code == MPI_SUCCESS && recording())
        for (i = 0; i < count; i++)
            topoembed_record_start((uintptr_t)requests[i]);
    return code;
}

int topoembed_rec_MPI_Request_free(MPI_Request *request)
{
    uintptr_t handle = (uintptr_t)*request;
    int code = PMPI_Request_free(request);
    if (code == MPI_SUCCESS && recording())
        topoembed_record_free_request(handle);
    return code;
}

int topoembed_rec_MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               int dest, int sendtag, void *recvbuf, int recvcount,
                               MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                               MPI_Status *status)
{
    int code = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                             recvtype, source, recvtag, comm, status);
    if (code == MPI_SUCCESS)
        sent(comm, dest, sendcount, sendtype);
    return code;
}

int topoembed_rec_MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest,
                                       int sendtag, int source, int recvtag, MPI_Comm comm,
                                       MPI_Status *status)
{
    int code = PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm,
                                     status);
    if (code == MPI_SUCCESS)
        sent(comm, dest, count, type);
    return code;
}

/* ---- neighbourhood collectives: point-to-point traffic to each out-neighbour ---- */

/* The out-neighbours of this process in `comm`'s topology, in the order the
 * neighbourhood collectives send to them (MPI 3.1 section 7.6); NULL when
 * it has none. */
static int *out_neighbours(MPI_Comm comm, int *n)
{
    int kind = MPI_UNDEFINED, *out = NULL, dims = 0, d, rank = 0, in = 0, weighted = 0;
    int *sources, *weights_in, *weights_out;
    *n = 0;
    if (PMPI_Topo_test(comm, &kind) != MPI_SUCCESS)
        return NULL;
    if (kind == MPI_CART) {
        PMPI_Cartdim_get(comm, &dims);
        out = malloc(sizeof(int) * (2 * (size_t)dims + 1));
        for (d = 0; out && d < dims; d++)
            PMPI_Cart_shift(comm, d, 1, &out[2 * d], &out[2 * d + 1]);
        *n = out ? 2 * dims : 0;
    } else if (kind == MPI_GRAPH) {
        PMPI_Comm_rank(comm, &rank);
        PMPI_Graph_neighbors_count(comm, rank, n);
        out = malloc(sizeof(int) * ((size_t)*n + 1));
        if (out)
            PMPI_Graph_neighbors(comm, rank, *n, out);
        else
            *n = 0;
    } else if (kind == MPI_DIST_GRAPH) {
        PMPI_Dist_graph_neighbors_count(comm, &in, n, &weighted);
        sources = malloc(sizeof(int) * ((size_t)in + 1));
        weights_in = malloc(sizeof(int) * ((size_t)in + 1));
        weights_out = malloc(sizeof(int) * ((size_t)*n + 1));
        out = malloc(sizeof(int) * ((size_t)*n + 1));
        if (sources && weights_in && weights_out && out)
            PMPI_Dist_graph_neighbors(comm, in, sources, weighted ? weights_in : MPI_UNWEIGHTED,
                                      *n, out, weighted ? weights_out : MPI_UNWEIGHTED);
        else
            *n = 0;
        free(sources);
        free(weights_in);
        free(weights_out);
    }
    return out;
}

/* Counts what a neighbourhood collective sends: block i (counts[i] of
 * types[i], or `count` of `type` when those are NULL) to out-neighbour i. */
static void neighbours_sent(MPI_Comm comm, int count, const int *counts, MPI_Datatype type,
                            const MPI_Datatype *types)
{
    int n = 0, i;
    int *out;
    if (!recording())
        return;
    out = out_neighbours(comm, &n);
    for (i = 0; i < n; i++)
        if (out[i] != MPI_PROC_NULL)
            topoembed_record_neighbour(world_of(comm, out[i]),
                                       bytes_of(counts ? counts[i] : count,
                                                types ? types[i] : type));
    free(out);
}

/* Defines the neighbourhood collective `fn` and its nonblocking twin `ifn`
 * (PARAMS_fn and ARGS_fn name the parameters); `counts`, `count`, `type`,
 * `types` say what block i holds, as neighbours_sent takes them. */
#define NEIGHBOURHOOD(fn, ifn, count, counts, type, types)                                  \
    int topoembed_rec_##fn(PARAMS_##fn)                                                     \
    {                                                                                       \
        int code = P##fn(ARGS_##fn);                                                        \
        if (code == MPI_SUCCESS)                                                            \
            neighbours_sent(comm, count, counts, type, types);                              \
        return code;                                                                        \
    }                                                                                       \
    int topoembed_rec_##ifn(PARAMS_##fn, MPI_Request *request)                              \
    {                                                                                       \
        int code = P##ifn(ARGS_##fn, request);                                              \
        if (code == MPI_SUCCESS)                                                            \
            neighbours_sent(comm, count, counts, type, types);                              \
        return code;                                                                        \
    }

/* Allgather sends its one block to every neighbour, alltoall block i to
 * neighbour i: the same bytes either way. */
#define PARAMS_MPI_Neighbor_allgather                                                       \
    const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, \
        MPI_Datatype recvtype, MPI_Comm comm
#define ARGS_MPI_Neighbor_allgather sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm
NEIGHBOURHOOD(MPI_Neighbor_allgather, MPI_Ineighbor_allgather, sendcount, NULL, sendtype, NULL)

#define PARAMS_MPI_Neighbor_alltoall PARAMS_MPI_Neighbor_allgather
#define ARGS_MPI_Neighbor_alltoall ARGS_MPI_Neighbor_allgather
NEIGHBOURHOOD(MPI_Neighbor_alltoall, MPI_Ineighbor_alltoall, sendcount, NULL, sendtype, NULL)

#define PARAMS_MPI_Neighbor_allgatherv                                                      \
    const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,               \
        const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm
#define ARGS_MPI_Neighbor_allgatherv                                                        \
    sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm
NEIGHBOURHOOD(MPI_Neighbor_allgatherv, MPI_Ineighbor_allgatherv, sendcount, NULL, sendtype,
              NULL)

#define PARAMS_MPI_Neighbor_alltoallv                                                       \
    const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, \
        void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,  \
        MPI_Comm comm
#define ARGS_MPI_Neighbor_alltoallv                                                         \
    sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm
NEIGHBOURHOOD(MPI_Neighbor_alltoallv, MPI_Ineighbor_alltoallv, 0, sendcounts, sendtype, NULL)

#define PARAMS_MPI_Neighbor_alltoallw                                                       \
    const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],                 \
        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],              \
        const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm
#define ARGS_MPI_Neighbor_alltoallw                                                         \
    sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm
NEIGHBOURHOOD(MPI_Neighbor_alltoallw, MPI_Ineighbor_alltoallw, 0, sendcounts,
              MPI_DATATYPE_NULL, sendtypes)

/* ---- collectives: counted apart, by communicator ---- */

static void collective(MPI_Comm comm, const char *name, uint64_t bytes)
{
    struct comm_info *info;
    if (!recording())
        return;
    info = info_of(comm);
    if (info)
        topoembed_record_collective(info->id, name, bytes);
}

/* The processes a rooted or all-to-all call addresses: the remote group of
 * an intercommunicator. */
static int peers(MPI_Comm comm)
{
    int inter = 0, n = 0;
    PMPI_Comm_test_inter(comm, &inter);
    if (inter)
        PMPI_Comm_remote_size(comm, &n);
    else
        PMPI_Comm_size(comm, &n);
    return n;
}

static int is_root(MPI_Comm comm, int root)
{
    int inter = 0, rank = -1;
    if (root == MPI_ROOT)
        return 1;
    PMPI_Comm_test_inter(comm, &inter);
    if (inter)
        return 0;
    PMPI_Comm_rank(comm, &rank);
    return rank == root;
}

static uint64_t sum_bytes(const int *counts, int n, MPI_Datatype type)
{
    uint64_t total = 0;
    int i;
    for (i = 0; counts && i < n; i++)
        total += bytes_of(counts[i], type);
    return total;
}

static uint64_t sum_bytes_w(const int *counts, const MPI_Datatype *types, int n)
{
    uint64_t total = 0;
    int i;
    for (i = 0; counts && types && i < n; i++)
        total += bytes_of(counts[i], types[i]);
    return total;
}

/* Defines the blocking collective `fn` and its nonblocking twin `ifn`
 * (the same parameters and a request); `bytes` is what this process's
 * send buffers held, computed from the parameters after a successful call. */
#define COLLECTIVE(fn, ifn, params, args, bytes)                                            \
    int topoembed_rec_##fn params                                                           \
    {                                                                                       \
        int code = P##fn args;                                                              \
        if (code == MPI_SUCCESS && recording())                                             \
            collective(comm, #fn, bytes);                                                   \
        return code;                                                                        \
    }                                                                                       \
    int topoembed_rec_##ifn(PARAMS_##fn, MPI_Request *request)                              \
    {                                                                                       \
        int code = P##ifn(ARGS_##fn, request);                                              \
        if (code == MPI_SUCCESS && recording())                                             \
            collective(comm, #ifn, bytes);                                                  \
        return code;                                                                        \
    }

#define PARAMS_MPI_Barrier MPI_Comm comm
#define ARGS_MPI_Barrier comm
COLLECTIVE(MPI_Barrier, MPI_Ibarrier, (PARAMS_MPI_Barrier), (ARGS_MPI_Barrier), 0)

#define PARAMS_MPI_Bcast void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm
#define ARGS_MPI_Bcast buf, count, type, root, comm
COLLECTIVE(MPI_Bcast, MPI_Ibcast, (PARAMS_MPI_Bcast), (ARGS_MPI_Bcast),
           is_root(comm, root) ? bytes_of(count, type) : 0)

#define PARAMS_MPI_Gather                                                                   \
    const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, \
        MPI_Datatype recvtype, int root, MPI_Comm comm
#define ARGS_MPI_Gather sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm
COLLECTIVE(MPI_Gather, MPI_Igather, (PARAMS_MPI_Gather), (ARGS_MPI_Gather),
           sendbuf == MPI_IN_PLACE || root == MPI_ROOT || root == MPI_PROC_NULL
               ? 0
               : bytes_of(sendcount, sendtype))

#define PARAMS_MPI_Gatherv                                                                  \
    const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,               \
        const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,        \
        MPI_Comm comm
#define ARGS_MPI_Gatherv                                                                    \
    sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm
COLLECTIVE(MPI_Gatherv, MPI_Igatherv, (PARAMS_MPI_Gatherv), (ARGS_MPI_Gatherv),
           sendbuf == MPI_IN_PLACE || root == MPI_ROOT || root == MPI_PROC_NULL
               ? 0
               : bytes_of(sendcount, sendtype))

#define PARAMS_MPI_Scatter                                                                  \
    const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, \
        MPI_Datatype recvtype, int root, MPI_Comm comm
#define ARGS_MPI_Scatter sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm
COLLECTIVE(MPI_Scatter, MPI_Iscatter, (PARAMS_MPI_Scatter), (ARGS_MPI_Scatter),
           is_root(comm, root) ? bytes_of(sendcount, sendtype) * (uint64_t)peers(comm) : 0)

#define PARAMS_MPI_Scatterv                                                                 \
    const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, \
        void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm
#define ARGS_MPI_Scatterv                                                                   \
    sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm
COLLECTIVE(MPI_Scatterv, MPI_Iscatterv, (PARAMS_MPI_Scatterv), (ARGS_MPI_Scatterv),
           is_root(comm, root) ? sum_bytes(sendcounts, peers(comm), sendtype) : 0)

#define PARAMS_MPI_Allgather                                                                \
    const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, \
        MPI_Datatype recvtype, MPI_Comm comm
#define ARGS_MPI_Allgather sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm
COLLECTIVE(MPI_Allgather, MPI_Iallgather, (PARAMS_MPI_Allgather), (ARGS_MPI_Allgather),
           sendbuf == MPI_IN_PLACE ? bytes_of(recvcount, recvtype)
                                   : bytes_of(sendcount, sendtype))

#define PARAMS_MPI_Allgatherv                                                               \
    const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,               \
        const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm
#define ARGS_MPI_Allgatherv                                                                 \
    sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm
COLLECTIVE(MPI_Allgatherv, MPI_Iallgatherv, (PARAMS_MPI_Allgatherv), (ARGS_MPI_Allgatherv),
           sendbuf == MPI_IN_PLACE ? 0 : bytes_of(sendcount, sendtype))

#define PARAMS_MPI_Alltoall                                                                 \
    const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, \
        MPI_Datatype recvtype, MPI_Comm comm
#define ARGS_MPI_Alltoall sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm
COLLECTIVE(MPI_Alltoall, MPI_Ialltoall, (PARAMS_MPI_Alltoall), (ARGS_MPI_Alltoall),
           (sendbuf == MPI_IN_PLACE ? bytes_of(recvcount, recvtype)
                                    : bytes_of(sendcount, sendtype)) *
               (uint64_t)peers(comm))

#define PARAMS_MPI_Alltoallv                                                                \
    const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, \
        void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,  \
        MPI_Comm comm
#define ARGS_MPI_Alltoallv                                                                  \
    sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm
COLLECTIVE(MPI_Alltoallv, MPI_Ialltoallv, (PARAMS_MPI_Alltoallv), (ARGS_MPI_Alltoallv),
           sendbuf == MPI_IN_PLACE ? sum_bytes(recvcounts, peers(comm), recvtype)
                                   : sum_bytes(sendcounts, peers(comm), sendtype))

#define PARAMS_MPI_Alltoallw                                                                \
    const void *sendbuf, const int sendcounts[], const int sdispls[],                      \
        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],              \
        const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm
#define ARGS_MPI_Alltoallw                                                                  \
    sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm
COLLECTIVE(MPI_Alltoallw, MPI_Ialltoallw, (PARAMS_MPI_Alltoallw), (ARGS_MPI_Alltoallw),
           sendbuf == MPI_IN_PLACE ? sum_bytes_w(recvcounts, recvtypes, peers(comm))
                                   : sum_bytes_w(sendcounts, sendtypes, peers(comm)))

#define PARAMS_MPI_Reduce                                                                   \
    const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,  \
        MPI_Comm comm
#define ARGS_MPI_Reduce sendbuf, recvbuf, count, type, op, root, comm
COLLECTIVE(MPI_Reduce, MPI_Ireduce, (PARAMS_MPI_Reduce), (ARGS_MPI_Reduce),
           root == MPI_ROOT || root == MPI_PROC_NULL ? 0 : bytes_of(count, type))

#define PARAMS_MPI_Allreduce                                                                \
    const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm
#define ARGS_MPI_Allreduce sendbuf, recvbuf, count, type, op, comm
COLLECTIVE(MPI_Allreduce, MPI_Iallreduce, (PARAMS_MPI_Allreduce), (ARGS_MPI_Allreduce),
           bytes_of(count, type))

#define PARAMS_MPI_Reduce_scatter                                                           \
    const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype type,          \
        MPI_Op op, MPI_Comm comm
#define ARGS_MPI_Reduce_scatter sendbuf, recvbuf, recvcounts, type, op, comm
COLLECTIVE(MPI_Reduce_scatter, MPI_Ireduce_scatter, (PARAMS_MPI_Reduce_scatter),
           (ARGS_MPI_Reduce_scatter), sum_bytes(recvcounts, peers(comm), type))

#define PARAMS_MPI_Reduce_scatter_block                                                     \
    const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype type, MPI_Op op,        \
        MPI_Comm comm
#define ARGS_MPI_Reduce_scatter_block sendbuf, recvbuf, recvcount, type, op, comm
COLLECTIVE(MPI_Reduce_scatter_block, MPI_Ireduce_scatter_block,
           (PARAMS_MPI_Reduce_scatter_block), (ARGS_MPI_Reduce_scatter_block),
           bytes_of(recvcount, type) * (uint64_t)peers(comm))

#define PARAMS_MPI_Scan                                                                     \
    const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm
#define ARGS_MPI_Scan sendbuf, recvbuf, count, type, op, comm
COLLECTIVE(MPI_Scan, MPI_Iscan, (PARAMS_MPI_Scan), (ARGS_MPI_Scan), bytes_of(count, type))

#define PARAMS_MPI_Exscan PARAMS_MPI_Scan
#define ARGS_MPI_Exscan ARGS_MPI_Scan
COLLECTIVE(MPI_Exscan, MPI_Iexscan, (PARAMS_MPI_Exscan), (ARGS_MPI_Exscan),
           bytes_of(count, type))

/* ---- what the Fortran wrappers (src/record_fortran.c) use ---- */

int topoembed_rec_recording(void)
{
    return recording();
}

void topoembed_rec_sent(MPI_Comm comm, int dest, int count, MPI_Datatype type)
{
    sent(comm, dest, count, type);
}

int topoembed_rec_world_of(MPI_Comm comm, int rank)
{
    return world_of(comm, rank);
}

uint64_t topoembed_rec_bytes_of(int count, MPI_Datatype type)
{
    return bytes_of(count, type);
}

/* ---- MPI_Finalize: rank 0 gathers every process's counters and writes ---- */

static void finish_recording(void)
{
    int rank = 0, size = 0, mine, ok = 1, p;
    size_t len = 0;
    long long total = 0;
    int *counts = NULL, *displs = NULL;
    unsigned char *blob, *all = NULL;
    char message[MESSAGE_LEN] = "";
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    blob = topoembed_record_export(&len);
    /* A process whose counters cannot travel sends none; rank 0 then
     * refuses the whole recording rather than write a partial one. */
    mine = blob && len <= INT_MAX ? (int)len : -1;
    if (rank == 0) {
        counts = malloc(sizeof(int) * (size_t)size);
        displs = malloc(sizeof(int) * (size_t)size);
        ok = counts && displs;
    }
    PMPI_Gather(&mine, 1, MPI_INT, ok ? counts : NULL, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0 && ok) {
        for (p = 0; p < size && ok; p++) {
            ok = counts[p] >= 0;
            displs[p] = (int)total;
            total += ok ? counts[p] : 0;
            ok = ok && total <= INT_MAX;
        }
        if (ok) {
            all = malloc((size_t)total + 1);
            ok = all != NULL;
        }
    }
    PMPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (ok)
        PMPI_Gatherv(blob, mine, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        if (ok)
            topoembed_record_write(size, all, counts, message, MESSAGE_LEN);
        else
            snprintf(message, sizeof message,
                     "topoembed-reorder: warning: TOPOEMBED_RECORD: the counters are too large "
                     "to gather (over 2 GiB) or memory ran out; nothing was written");
        if (message[0] != '\0') {
            fprintf(stderr, "%s\n", message);
            fflush(stderr);
        }
    }
    topoembed_record_release(blob, len);
    free(counts);
    free(displs);
    free(all);
}

/* Writes the recording once (MPI_Finalize and the Fortran MPI_FINALIZE
 * both come here; a binding that calls the other must not write twice). */
void topoembed_rec_finish(void)
{
    static int finished;
    if (finished)
        return;
    finished = 1;
    if (recording())
        finish_recording();
    if (world_group != MPI_GROUP_NULL)
        PMPI_Group_free(&world_group);
}

int topoembed_rec_MPI_Finalize(void)
{
    topoembed_rec_finish();
    return PMPI_Finalize();
}
