/*
 * The MPI side of libtopoembed_reorder: what MPI_Cart_create,
 * MPI_Dist_graph_create_adjacent and MPI_Dist_graph_create do when the
 * application asks for reorder = 1 and TOPOEMBED_HOST names the machine.
 *
 * Every call is collective over `comm`, so every process takes the same
 * path: rank 0 gathers what the planner needs (world ranks, processor names
 * when wanted, the graph), asks the planner (src/ffi.rs), and broadcasts its
 * verdict; on a plan, PMPI_Comm_split with key = the new rank gives a
 * communicator whose rank g is the process that plays guest node g, and the
 * PMPI constructor builds the topology on it without reordering. On any
 * error rank 0 prints one warning and every process makes the plain call.
 *
 * The exported MPI_* and Fortran names are defined in Rust (src/exports.rs)
 * and forward here: a Rust cdylib exports only its own symbols.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The planner (src/ffi.rs). */
int topoembed_reorder_enabled(void);
int topoembed_reorder_wants_names(void);
int topoembed_reorder_report(void);
int topoembed_reorder_plan_cart(int ndims, const int *dims, const int *periods, int nprocs,
                                int world_size, const int *world_ranks, const char *names,
                                int name_len, int *new_rank, char *message, int message_len);
int topoembed_reorder_plan_graph(const char *call, int nprocs, int world_size,
                                 const int *world_ranks, const char *names, int name_len,
                                 const int *xadj, const int *targets, const int *weights,
                                 int *new_rank, char *message, int message_len);

enum { PLANNED = 0, FALL_BACK = 1, NOTHING = 2 };
#define MESSAGE_LEN 2048

/* Whether the library may act on this call at all. */
static int acts(MPI_Comm comm, int reorder)
{
    int inter = 0;
    if (!reorder || comm == MPI_COMM_NULL || !topoembed_reorder_enabled())
        return 0;
    PMPI_Comm_test_inter(comm, &inter);
    return !inter;
}

/* What rank 0 knows of the communicator's processes. */
struct members {
    int size, rank, world_size;
    int *world_ranks;  /* rank 0 only */
    char *names;       /* rank 0 only, when wanted */
    int name_len;
};

static void gather_members(MPI_Comm comm, struct members *m)
{
    int world_rank;
    PMPI_Comm_size(comm, &m->size);
    PMPI_Comm_rank(comm, &m->rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &m->world_size);
    PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    m->world_ranks = m->rank == 0 ? malloc(sizeof(int) * (size_t)m->size) : NULL;
    PMPI_Gather(&world_rank, 1, MPI_INT, m->world_ranks, 1, MPI_INT, 0, comm);
    m->names = NULL;
    m->name_len = 0;
    if (topoembed_reorder_wants_names()) {
        char name[MPI_MAX_PROCESSOR_NAME];
        int len = 0;
        memset(name, 0, sizeof name);
        PMPI_Get_processor_name(name, &len);
        m->name_len = MPI_MAX_PROCESSOR_NAME;
        if (m->rank == 0)
            m->names = calloc((size_t)m->size, MPI_MAX_PROCESSOR_NAME);
        PMPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, m->names, MPI_MAX_PROCESSOR_NAME,
                    MPI_CHAR, 0, comm);
    }
}

static void free_members(struct members *m)
{
    free(m->world_ranks);
    free(m->names);
}

/* Rank 0's verdict to every process; on a plan, each process's new rank.
 * Rank 0 prints the warning, or the report when asked. */
static int share_verdict(MPI_Comm comm, const struct members *m, int status,
                         const int *new_rank, const char *message, int *my_rank)
{
    if (m->rank == 0 && message[0] != '\0' &&
        (status == FALL_BACK || (status == PLANNED && topoembed_reorder_report()))) {
        fprintf(stderr, "%s\n", message);
        fflush(stderr);
    }
    PMPI_Bcast(&status, 1, MPI_INT, 0, comm);
    if (status == PLANNED)
        PMPI_Scatter(new_rank, 1, MPI_INT, my_rank, 1, MPI_INT, 0, comm);
    return status;
}

/* The communicator in which this process has rank `key`. */
static int reordered(MPI_Comm comm, int key, MPI_Comm *out)
{
    return PMPI_Comm_split(comm, 0, key, out);
}

int topoembed_shim_cart_create(MPI_Comm comm, int ndims, const int dims[],
                               const int periods[], int reorder, MPI_Comm *cart)
{
    struct members m;
    int status = NOTHING, my_rank = 0, positions = 1, i, code;
    int *new_rank = NULL;
    char message[MESSAGE_LEN] = "";
    MPI_Comm ordered;
    if (!acts(comm, reorder) || ndims <= 0)
        return PMPI_Cart_create(comm, ndims, dims, periods, reorder, cart);
    for (i = 0; i < ndims; i++)
        positions *= dims[i];
    gather_members(comm, &m);
    if (m.rank == 0) {
        if (positions != m.size) {
            /* MPI lets a grid use fewer processes than the communicator has;
             * which ones take part is then MPI's choice. */
            snprintf(message, sizeof message,
                     "topoembed-reorder: warning: MPI_Cart_create: the grid has %d positions for %d "
                     "processes; the call runs without reordering", positions, m.size);
            status = FALL_BACK;
        } else {
            new_rank = malloc(sizeof(int) * (size_t)m.size);
            status = topoembed_reorder_plan_cart(ndims, dims, periods, m.size, m.world_size,
                                                 m.world_ranks, m.names, m.name_len, new_rank,
                                                 message, MESSAGE_LEN);
        }
    }
    status = share_verdict(comm, &m, status, new_rank, message, &my_rank);
    free(new_rank);
    free_members(&m);
    if (status != PLANNED)
        return PMPI_Cart_create(comm, ndims, dims, periods, reorder, cart);
    code = reordered(comm, my_rank, &ordered);
    if (code != MPI_SUCCESS)
        return code;
    code = PMPI_Cart_create(ordered, ndims, dims, periods, 0, cart);
    PMPI_Comm_free(&ordered);
    return code;
}

/* Displacements of `counts` (n of them); returns the total. */
static int displacements(const int *counts, int n, int *displs)
{
    int total = 0, i;
    for (i = 0; i < n; i++) {
        displs[i] = total;
        total += counts[i];
    }
    return total;
}

int topoembed_shim_dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                                              const int sourceweights[], int outdegree,
                                              const int destinations[], const int destweights[],
                                              MPI_Info info, int reorder, MPI_Comm *graph)
{
    struct members m;
    int status = NOTHING, my_rank = 0, weighted, all_weighted, code, p;
    int degrees[2] = {indegree, outdegree}, mine[2];
    int *all_degrees = NULL, *in_counts = NULL, *out_counts = NULL, *in_displs = NULL,
        *out_displs = NULL, *all_sources = NULL, *all_sourceweights = NULL, *all_dests = NULL,
        *all_destweights = NULL, *new_rank = NULL, *send_counts = NULL,
        *send_displs = NULL, *my_sources, *my_sourceweights, *my_dests, *my_destweights;
    const int *in_weights, *out_weights;
    char message[MESSAGE_LEN] = "";
    MPI_Comm ordered;
    if (!acts(comm, reorder))
        return PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights, outdegree,
                                               destinations, destweights, info, reorder, graph);
    weighted = sourceweights != MPI_UNWEIGHTED && destweights != MPI_UNWEIGHTED;
    PMPI_Allreduce(&weighted, &all_weighted, 1, MPI_INT, MPI_MIN, comm);
    gather_members(comm, &m);
    if (m.rank == 0) {
        all_degrees = malloc(sizeof(int) * 2 * (size_t)m.size);
        in_counts = malloc(sizeof(int) * (size_t)m.size);
        out_counts = malloc(sizeof(int) * (size_t)m.size);
        in_displs = malloc(sizeof(int) * ((size_t)m.size + 1));
        out_displs = malloc(sizeof(int) * ((size_t)m.size + 1));
    }
    PMPI_Gather(degrees, 2, MPI_INT, all_degrees, 2, MPI_INT, 0, comm);
    if (m.rank == 0) {
        for (p = 0; p < m.size; p++) {
            in_counts[p] = all_degrees[2 * p];
            out_counts[p] = all_degrees[2 * p + 1];
        }
        in_displs[m.size] = displacements(in_counts, m.size, in_displs);
        out_displs[m.size] = displacements(out_counts, m.size, out_displs);
        all_sources = malloc(sizeof(int) * ((size_t)in_displs[m.size] + 1));
        all_dests = malloc(sizeof(int) * ((size_t)out_displs[m.size] + 1));
        if (all_weighted) {
            all_sourceweights = malloc(sizeof(int) * ((size_t)in_displs[m.size] + 1));
            all_destweights = malloc(sizeof(int) * ((size_t)out_displs[m.size] + 1));
        }
    }
    PMPI_Gatherv(sources, indegree, MPI_INT, all_sources, in_counts, in_displs, MPI_INT, 0, comm);
    PMPI_Gatherv(destinations, outdegree, MPI_INT, all_dests, out_counts, out_displs, MPI_INT, 0,
                 comm);
    if (all_weighted) {
        PMPI_Gatherv(sourceweights, indegree, MPI_INT, all_sourceweights, in_counts, in_displs,
                     MPI_INT, 0, comm);
        PMPI_Gatherv(destweights, outdegree, MPI_INT, all_destweights, out_counts, out_displs,
                     MPI_INT, 0, comm);
    }
    if (m.rank == 0) {
        new_rank = malloc(sizeof(int) * (size_t)m.size);
        status = topoembed_reorder_plan_graph("MPI_Dist_graph_create_adjacent", m.size,
                                              m.world_size, m.world_ranks, m.names, m.name_len,
                                              out_displs, all_dests, all_destweights, new_rank,
                                              message, MESSAGE_LEN);
    }
    status = share_verdict(comm, &m, status, new_rank, message, &my_rank);
    if (status == PLANNED) {
        /* The process of new rank v takes vertex v: the lists old rank v gave. */
        if (m.rank == 0) {
            send_counts = malloc(sizeof(int) * 2 * (size_t)m.size);
            for (p = 0; p < m.size; p++) {
                send_counts[2 * p] = in_counts[new_rank[p]];
                send_counts[2 * p + 1] = out_counts[new_rank[p]];
            }
        }
        PMPI_Scatter(send_counts, 2, MPI_INT, mine, 2, MPI_INT, 0, comm);
        my_sources = malloc(sizeof(int) * ((size_t)mine[0] + 1));
        my_sourceweights = malloc(sizeof(int) * ((size_t)mine[0] + 1));
        my_dests = malloc(sizeof(int) * ((size_t)mine[1] + 1));
        my_destweights = malloc(sizeof(int) * ((size_t)mine[1] + 1));
        if (m.rank == 0) {
            send_displs = malloc(sizeof(int) * (size_t)m.size);
            for (p = 0; p < m.size; p++) {
                send_counts[p] = in_counts[new_rank[p]];
                send_displs[p] = in_displs[new_rank[p]];
            }
        }
        PMPI_Scatterv(all_sources, send_counts, send_displs, MPI_INT, my_sources, mine[0], MPI_INT,
                      0, comm);
        if (all_weighted)
            PMPI_Scatterv(all_sourceweights, send_counts, send_displs, MPI_INT, my_sourceweights,
                          mine[0], MPI_INT, 0, comm);
        if (m.rank == 0) {
            for (p = 0; p < m.size; p++) {
                send_counts[p] = out_counts[new_rank[p]];
                send_displs[p] = out_displs[new_rank[p]];
            }
        }
        PMPI_Scatterv(all_dests, send_counts, send_displs, MPI_INT, my_dests, mine[1], MPI_INT, 0,
                      comm);
        if (all_weighted)
            PMPI_Scatterv(all_destweights, send_counts, send_displs, MPI_INT, my_destweights,
                          mine[1], MPI_INT, 0, comm);
        in_weights = !all_weighted ? MPI_UNWEIGHTED : mine[0] ? my_sourceweights : MPI_WEIGHTS_EMPTY;
        out_weights = !all_weighted ? MPI_UNWEIGHTED : mine[1] ? my_destweights : MPI_WEIGHTS_EMPTY;
        code = reordered(comm, my_rank, &ordered);
        if (code == MPI_SUCCESS) {
            code = PMPI_Dist_graph_create_adjacent(ordered, mine[0], my_sources, in_weights,
                                                   mine[1], my_dests, out_weights, info, 0, graph);
            PMPI_Comm_free(&ordered);
        }
        free(my_sources);
        free(my_sourceweights);
        free(my_dests);
        free(my_destweights);
    }
    free(all_degrees);
    free(in_counts);
    free(out_counts);
    free(in_displs);
    free(out_displs);
    free(all_sources);
    free(all_sourceweights);
    free(all_dests);
    free(all_destweights);
    free(new_rank);
    free(send_counts);
    free(send_displs);
    free_members(&m);
    if (status != PLANNED)
        return PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights, outdegree,
                                               destinations, destweights, info, reorder, graph);
    return code;
}

int topoembed_shim_dist_graph_create(MPI_Comm comm, int n, const int sources[],
                                     const int degrees[], const int destinations[],
                                     const int weights[], MPI_Info info, int reorder,
                                     MPI_Comm *graph)
{
    struct members m;
    int status = NOTHING, my_rank = 0, weighted, all_weighted, code = MPI_SUCCESS, edges = 0,
        i, j, k, p, total = 0;
    int *counts = NULL, *displs = NULL, *pairs = NULL, *all_pairs = NULL, *all_weights = NULL,
        *new_rank = NULL, *xadj = NULL, *targets = NULL, *target_weights = NULL, *fill = NULL;
    char message[MESSAGE_LEN] = "";
    MPI_Comm ordered;
    if (!acts(comm, reorder))
        return PMPI_Dist_graph_create(comm, n, sources, degrees, destinations, weights, info,
                                      reorder, graph);
    weighted = weights != MPI_UNWEIGHTED;
    PMPI_Allreduce(&weighted, &all_weighted, 1, MPI_INT, MPI_MIN, comm);
    gather_members(comm, &m);
    /* This process's edges as (source, destination) pairs. */
    for (i = 0; i < n; i++)
        edges += degrees[i];
    pairs = malloc(sizeof(int) * (2 * (size_t)edges + 1));
    for (i = 0, k = 0; i < n; i++)
        for (j = 0; j < degrees[i]; j++, k++) {
            pairs[2 * k] = sources[i];
            pairs[2 * k + 1] = destinations[k];
        }
    if (m.rank == 0) {
        counts = malloc(sizeof(int) * (size_t)m.size);
        displs = malloc(sizeof(int) * (size_t)m.size);
    }
    PMPI_Gather(&edges, 1, MPI_INT, counts, 1, MPI_INT, 0, comm);
    if (m.rank == 0) {
        total = displacements(counts, m.size, displs);
        all_weights = malloc(sizeof(int) * ((size_t)total + 1));
        all_pairs = malloc(sizeof(int) * (2 * (size_t)total + 1));
    }
    if (all_weighted)
        PMPI_Gatherv(weights, edges, MPI_INT, all_weights, counts, displs, MPI_INT, 0, comm);
    if (m.rank == 0)
        for (p = 0; p < m.size; p++) {
            counts[p] *= 2;
            displs[p] *= 2;
        }
    PMPI_Gatherv(pairs, 2 * edges, MPI_INT, all_pairs, counts, displs, MPI_INT, 0, comm);
    if (m.rank == 0) {
        /* Destinations by source (CSR), for the planner; ids out of range
         * are left for the planner to report. */
        xadj = calloc((size_t)m.size + 1, sizeof(int));
        targets = malloc(sizeof(int) * ((size_t)total + 1));
        target_weights = malloc(sizeof(int) * ((size_t)total + 1));
        fill = malloc(sizeof(int) * ((size_t)m.size + 1));
        new_rank = malloc(sizeof(int) * (size_t)m.size);
        status = FALL_BACK;
        for (k = 0; k < total; k++)
            if (all_pairs[2 * k] < 0 || all_pairs[2 * k] >= m.size)
                break;
        if (k < total) {
            snprintf(message, sizeof message,
                     "topoembed-reorder: warning: MPI_Dist_graph_create: source %d is not a rank "
                     "of the communicator; the call runs without reordering", all_pairs[2 * k]);
        } else {
            for (k = 0; k < total; k++)
                xadj[all_pairs[2 * k] + 1]++;
            for (p = 0; p < m.size; p++)
                xadj[p + 1] += xadj[p];
            memcpy(fill, xadj, sizeof(int) * (size_t)m.size);
            for (k = 0; k < total; k++) {
                int at = fill[all_pairs[2 * k]]++;
                targets[at] = all_pairs[2 * k + 1];
                target_weights[at] = all_weighted ? all_weights[k] : 1;
            }
            status = topoembed_reorder_plan_graph(
                "MPI_Dist_graph_create", m.size, m.world_size, m.world_ranks, m.names, m.name_len,
                xadj, targets, all_weighted ? target_weights : NULL, new_rank, message, MESSAGE_LEN);
        }
    }
    status = share_verdict(comm, &m, status, new_rank, message, &my_rank);
    if (status == PLANNED) {
        /* Vertex ids are the new ranks: the same edges, given on the new
         * communicator, join the processes that now play their ends. */
        code = reordered(comm, my_rank, &ordered);
        if (code == MPI_SUCCESS) {
            code = PMPI_Dist_graph_create(ordered, n, sources, degrees, destinations, weights,
                                          info, 0, graph);
            PMPI_Comm_free(&ordered);
        }
    }
    free(counts);
    free(displs);
    free(pairs);
    free(all_pairs);
    free(all_weights);
    free(new_rank);
    free(xadj);
    free(targets);
    free(target_weights);
    free(fill);
    free_members(&m);
    if (status != PLANNED)
        return PMPI_Dist_graph_create(comm, n, sources, degrees, destinations, weights, info,
                                      reorder, graph);
    return code;
}

/* Fortran (mpif.h and `use mpi`): Open MPI's bindings call the PMPI C
 * functions directly, so their names are intercepted too. LOGICAL is an
 * integer, nonzero for .TRUE.; MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY are the
 * addresses of two common blocks. */
extern int mpi_fortran_unweighted_;
extern int mpi_fortran_weights_empty_;

void topoembed_shim_cart_create_f(MPI_Fint *comm, MPI_Fint *ndims, MPI_Fint *dims,
                                  MPI_Fint *periods, MPI_Fint *reorder, MPI_Fint *cart,
                                  MPI_Fint *ierr)
{
    int n = *ndims > 0 ? *ndims : 0, i, code;
    int *c_dims = malloc(sizeof(int) * ((size_t)n + 1)),
        *c_periods = malloc(sizeof(int) * ((size_t)n + 1));
    MPI_Comm out = MPI_COMM_NULL;
    for (i = 0; i < n; i++) {
        c_dims[i] = dims[i];
        c_periods[i] = periods[i] != 0;
    }
    code = topoembed_shim_cart_create(PMPI_Comm_f2c(*comm), *ndims, c_dims, c_periods,
                                      *reorder != 0, &out);
    *cart = PMPI_Comm_c2f(out);
    if (ierr)
        *ierr = code;
    free(c_dims);
    free(c_periods);
}

static const int *fortran_weights(const MPI_Fint *w)
{
    if ((const void *)w == (const void *)&mpi_fortran_unweighted_)
        return MPI_UNWEIGHTED;
    if ((const void *)w == (const void *)&mpi_fortran_weights_empty_)
        return MPI_WEIGHTS_EMPTY;
    return (const int *)w;
}

void topoembed_shim_dist_graph_create_adjacent_f(MPI_Fint *comm, MPI_Fint *indegree,
                                                 MPI_Fint *sources, MPI_Fint *sourceweights,
                                                 MPI_Fint *outdegree, MPI_Fint *destinations,
                                                 MPI_Fint *destweights, MPI_Fint *info,
                                                 MPI_Fint *reorder, MPI_Fint *graph,
                                                 MPI_Fint *ierr)
{
    MPI_Comm out = MPI_COMM_NULL;
    int code = topoembed_shim_dist_graph_create_adjacent(
        PMPI_Comm_f2c(*comm), *indegree, (const int *)sources, fortran_weights(sourceweights),
        *outdegree, (const int *)destinations, fortran_weights(destweights),
        PMPI_Info_f2c(*info), *reorder != 0, &out);
    *graph = PMPI_Comm_c2f(out);
    if (ierr)
        *ierr = code;
}
