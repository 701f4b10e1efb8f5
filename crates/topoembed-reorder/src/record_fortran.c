/*
 * The recorder's Fortran side (mpif.h and `use mpi`): Open MPI's Fortran
 * bindings call the PMPI C functions directly, so a Fortran program's sends
 * never pass through the C interposer (src/record.c). These wrappers take
 * the Fortran names, call the real binding (the next definition after this
 * library, found with dlsym(RTLD_NEXT)), and count what it sent from the
 * Fortran arguments, converted with the *_f2c functions. MPI_FINALIZE
 * writes the recording as MPI_Finalize does. (`mpi_f08` is not covered.)
 *
 * The exported names, under every mangling, are defined in Rust
 * (src/record/exports.rs) and forward here as topoembed_rec_f_*.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>

/* From src/record.c. */
int topoembed_rec_recording(void);
void topoembed_rec_sent(MPI_Comm comm, int dest, int count, MPI_Datatype type);
int topoembed_rec_world_of(MPI_Comm comm, int rank);
uint64_t topoembed_rec_bytes_of(int count, MPI_Datatype type);
void topoembed_rec_finish(void);
/* From src/record/ffi.rs. */
void topoembed_record_persistent(uintptr_t request, int dest, uint64_t bytes);
void topoembed_record_start(uintptr_t request);
void topoembed_record_free_request(uintptr_t request);

/* The real binding of `name` (gfortran's mangling: a trailing underscore). */
static void *real(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

#define F MPI_Fint

typedef void (*send_fn)(void *, F *, F *, F *, F *, F *, F *);
typedef void (*isend_fn)(void *, F *, F *, F *, F *, F *, F *, F *);

#define F_SEND(lower, pmpi)                                                                 \
    void topoembed_rec_f_##lower(void *buf, F *count, F *type, F *dest, F *tag, F *comm,     \
                                 F *ierr)                                                   \
    {                                                                                       \
        static send_fn fn;                                                                  \
        if (!fn)                                                                            \
            fn = (send_fn)real("mpi_" #lower "_");                                          \
        if (fn)                                                                             \
            fn(buf, count, type, dest, tag, comm, ierr);                                    \
        else                                                                                \
            *ierr = pmpi(buf, *count, PMPI_Type_f2c(*type), *dest, *tag,                    \
                         PMPI_Comm_f2c(*comm));                                             \
        if (*ierr == MPI_SUCCESS)                                                           \
            topoembed_rec_sent(PMPI_Comm_f2c(*comm), *dest, *count, PMPI_Type_f2c(*type));  \
    }
F_SEND(send, PMPI_Send)
F_SEND(bsend, PMPI_Bsend)
F_SEND(ssend, PMPI_Ssend)
F_SEND(rsend, PMPI_Rsend)

/* Non-blocking sends are counted when posted; persistent ones at each
 * start. */
#define F_ISEND(lower, pmpi, persistent)                                                    \
    void topoembed_rec_f_##lower(void *buf, F *count, F *type, F *dest, F *tag, F *comm,     \
                                 F *request, F *ierr)                                       \
    {                                                                                       \
        static isend_fn fn;                                                                 \
        MPI_Request c_request = MPI_REQUEST_NULL;                                           \
        if (!fn)                                                                            \
            fn = (isend_fn)real("mpi_" #lower "_");                                         \
        if (fn) {                                                                           \
            fn(buf, count, type, dest, tag, comm, request, ierr);                           \
        } else {                                                                            \
            *ierr = pmpi(buf, *count, PMPI_Type_f2c(*type), *dest, *tag,                    \
                         PMPI_Comm_f2c(*comm), &c_request);                                 \
            *request = PMPI_Request_c2f(c_request);                                         \
        }                                                                                   \
        if (*ierr != MPI_SUCCESS || !topoembed_rec_recording())                             \
            return;                                                                         \
        if (!persistent)                                                                    \
            topoembed_rec_sent(PMPI_Comm_f2c(*comm), *dest, *count, PMPI_Type_f2c(*type));  \
        else if (*dest != MPI_PROC_NULL)                                                    \
            topoembed_record_persistent(                                                    \
                (uintptr_t)PMPI_Request_f2c(*request),                                      \
                topoembed_rec_world_of(PMPI_Comm_f2c(*comm), *dest),                        \
                topoembed_rec_bytes_of(*count, PMPI_Type_f2c(*type)));                      \
    }
F_ISEND(isend, PMPI_Isend, 0)
F_ISEND(ibsend, PMPI_Ibsend, 0)
F_ISEND(issend, PMPI_Issend, 0)
F_ISEND(irsend, PMPI_Irsend, 0)
F_ISEND(send_init, PMPI_Send_init, 1)
F_ISEND(bsend_init, PMPI_Bsend_init, 1)
F_ISEND(ssend_init, PMPI_Ssend_init, 1)
F_ISEND(rsend_init, PMPI_Rsend_init, 1)

typedef void (*start_fn)(F *, F *);
typedef void (*startall_fn)(F *, F *, F *);

void topoembed_rec_f_start(F *request, F *ierr)
{
    static start_fn fn;
    MPI_Request c_request = PMPI_Request_f2c(*request);
    uintptr_t handle = (uintptr_t)c_request;
    if (!fn)
        fn = (start_fn)real("mpi_start_");
    if (fn)
        fn(request, ierr);
    else
        *ierr = PMPI_Start(&c_request);
    if (*ierr == MPI_SUCCESS && topoembed_rec_recording())
        topoembed_record_start(handle);
}

void topoembed_rec_f_startall(F *count, F *requests, F *ierr)
{
    static startall_fn fn;
    int i, n = *count > 0 ? *count : 0;
    if (!fn)
        fn = (startall_fn)real("mpi_startall_");
    if (fn) {
        fn(count, requests, ierr);
    } else {
        *ierr = MPI_SUCCESS;
        for (i = 0; i < n && *ierr == MPI_SUCCESS; i++) {
            MPI_Request r = PMPI_Request_f2c(requests[i]);
            *ierr = PMPI_Start(&r);
        }
    }
    if (*ierr == MPI_SUCCESS && topoembed_rec_recording())
        for (i = 0; i < n; i++)
            topoembed_record_start((uintptr_t)PMPI_Request_f2c(requests[i]));
}

void topoembed_rec_f_request_free(F *request, F *ierr)
{
    static start_fn fn;
    MPI_Request c_request = PMPI_Request_f2c(*request);
    uintptr_t handle = (uintptr_t)c_request;
    if (!fn)
        fn = (start_fn)real("mpi_request_free_");
    if (fn) {
        fn(request, ierr);
    } else {
        *ierr = PMPI_Request_free(&c_request);
        *request = PMPI_Request_c2f(c_request);
    }
    if (*ierr == MPI_SUCCESS && topoembed_rec_recording())
        topoembed_record_free_request(handle);
}

typedef void (*sendrecv_fn)(void *, F *, F *, F *, F *, void *, F *, F *, F *, F *, F *, F *,
                            F *);

void topoembed_rec_f_sendrecv(void *sendbuf, F *sendcount, F *sendtype, F *dest, F *sendtag,
                              void *recvbuf, F *recvcount, F *recvtype, F *source, F *recvtag,
                              F *comm, F *status, F *ierr)
{
    static sendrecv_fn fn;
    if (!fn)
        fn = (sendrecv_fn)real("mpi_sendrecv_");
    if (!fn) {
        *ierr = MPI_ERR_INTERN;
        return;
    }
    fn(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
       recvtag, comm, status, ierr);
    if (*ierr == MPI_SUCCESS)
        topoembed_rec_sent(PMPI_Comm_f2c(*comm), *dest, *sendcount, PMPI_Type_f2c(*sendtype));
}

typedef void (*sendrecv_replace_fn)(void *, F *, F *, F *, F *, F *, F *, F *, F *, F *);

void topoembed_rec_f_sendrecv_replace(void *buf, F *count, F *type, F *dest, F *sendtag,
                                      F *source, F *recvtag, F *comm, F *status, F *ierr)
{
    static sendrecv_replace_fn fn;
    if (!fn)
        fn = (sendrecv_replace_fn)real("mpi_sendrecv_replace_");
    if (!fn) {
        *ierr = MPI_ERR_INTERN;
        return;
    }
    fn(buf, count, type, dest, sendtag, source, recvtag, comm, status, ierr);
    if (*ierr == MPI_SUCCESS)
        topoembed_rec_sent(PMPI_Comm_f2c(*comm), *dest, *count, PMPI_Type_f2c(*type));
}

typedef void (*finalize_fn)(F *);

void topoembed_rec_f_finalize(F *ierr)
{
    static finalize_fn fn;
    topoembed_rec_finish();
    if (!fn)
        fn = (finalize_fn)real("mpi_finalize_");
    if (fn)
        fn(ierr);
    else
        *ierr = PMPI_Finalize();
}
