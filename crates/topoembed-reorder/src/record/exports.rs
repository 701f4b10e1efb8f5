//! The names the recorder intercepts (`TOPOEMBED_RECORD`): every
//! point-to-point send, the neighbourhood collectives, the collectives and
//! `MPI_Finalize`, each forwarding to `topoembed_rec_<name>` in the C
//! interposer (src/record.c), which makes the PMPI call and counts it.
//!
//! Every pointer parameter (buffers, arrays, handles: Open MPI's handles
//! are pointers) travels as one machine word, as the C side's real types
//! receive it; the signatures are those of Open MPI 4.1's `mpi.h`.
#![allow(non_snake_case)]

use std::ffi::c_int;

use crate::forward::{Handle, F};

// Point-to-point sends, counted by world destination.
forward!(
    "MPI_Send, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Send] => topoembed_rec_MPI_Send(buf: Handle, count: c_int, datatype: Handle, dest: c_int, tag: c_int, comm: Handle) -> c_int
);
forward!(
    "MPI_Bsend, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Bsend] => topoembed_rec_MPI_Bsend(buf: Handle, count: c_int, datatype: Handle, dest: c_int, tag: c_int, comm: Handle) -> c_int
);
forward!(
    "MPI_Ssend, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Ssend] => topoembed_rec_MPI_Ssend(buf: Handle, count: c_int, datatype: Handle, dest: c_int, tag: c_int, comm: Handle) -> c_int
);
forward!(
    "MPI_Rsend, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Rsend] => topoembed_rec_MPI_Rsend(buf: Handle, count: c_int, datatype: Handle, dest: c_int, tag: c_int, comm: Handle) -> c_int
);
forward!(
    "MPI_Isend, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Isend] => topoembed_rec_MPI_Isend(buf: Handle, count: c_int, datatype: Handle, dest: c_int, tag: c_int, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Ibsend, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Ibsend] => topoembed_rec_MPI_Ibsend(buf: Handle, count: c_int, datatype: Handle, dest: c_int, tag: c_int, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Issend, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Issend] => topoembed_rec_MPI_Issend(buf: Handle, count: c_int, datatype: Handle, dest: c_int, tag: c_int, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Irsend, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Irsend] => topoembed_rec_MPI_Irsend(buf: Handle, count: c_int, datatype: Handle, dest: c_int, tag: c_int, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Send_init, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Send_init] => topoembed_rec_MPI_Send_init(buf: Handle, count: c_int, datatype: Handle, dest: c_int, tag: c_int, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Bsend_init, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Bsend_init] => topoembed_rec_MPI_Bsend_init(buf: Handle, count: c_int, datatype: Handle, dest: c_int, tag: c_int, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Ssend_init, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Ssend_init] => topoembed_rec_MPI_Ssend_init(buf: Handle, count: c_int, datatype: Handle, dest: c_int, tag: c_int, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Rsend_init, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Rsend_init] => topoembed_rec_MPI_Rsend_init(buf: Handle, count: c_int, datatype: Handle, dest: c_int, tag: c_int, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Start, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Start] => topoembed_rec_MPI_Start(request: Handle) -> c_int
);
forward!(
    "MPI_Startall, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Startall] => topoembed_rec_MPI_Startall(count: c_int, requests: Handle) -> c_int
);
forward!(
    "MPI_Request_free, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Request_free] => topoembed_rec_MPI_Request_free(request: Handle) -> c_int
);
forward!(
    "MPI_Sendrecv, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Sendrecv] => topoembed_rec_MPI_Sendrecv(sendbuf: Handle, sendcount: c_int, sendtype: Handle, dest: c_int, sendtag: c_int, recvbuf: Handle, recvcount: c_int, recvtype: Handle, source: c_int, recvtag: c_int, comm: Handle, status: Handle) -> c_int
);
forward!(
    "MPI_Sendrecv_replace, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Sendrecv_replace] => topoembed_rec_MPI_Sendrecv_replace(buf: Handle, count: c_int, datatype: Handle, dest: c_int, sendtag: c_int, source: c_int, recvtag: c_int, comm: Handle, status: Handle) -> c_int
);

// Neighbourhood collectives: each block counted as a message to its neighbour.
forward!(
    "MPI_Neighbor_allgather, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Neighbor_allgather] => topoembed_rec_MPI_Neighbor_allgather(sendbuf: Handle, sendcount: c_int, sendtype: Handle, recvbuf: Handle, recvcount: c_int, recvtype: Handle, comm: Handle) -> c_int
);
forward!(
    "MPI_Neighbor_alltoall, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Neighbor_alltoall] => topoembed_rec_MPI_Neighbor_alltoall(sendbuf: Handle, sendcount: c_int, sendtype: Handle, recvbuf: Handle, recvcount: c_int, recvtype: Handle, comm: Handle) -> c_int
);
forward!(
    "MPI_Neighbor_allgatherv, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Neighbor_allgatherv] => topoembed_rec_MPI_Neighbor_allgatherv(sendbuf: Handle, sendcount: c_int, sendtype: Handle, recvbuf: Handle, recvcounts: Handle, displs: Handle, recvtype: Handle, comm: Handle) -> c_int
);
forward!(
    "MPI_Neighbor_alltoallv, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Neighbor_alltoallv] => topoembed_rec_MPI_Neighbor_alltoallv(sendbuf: Handle, sendcounts: Handle, sdispls: Handle, sendtype: Handle, recvbuf: Handle, recvcounts: Handle, rdispls: Handle, recvtype: Handle, comm: Handle) -> c_int
);
forward!(
    "MPI_Neighbor_alltoallw, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Neighbor_alltoallw] => topoembed_rec_MPI_Neighbor_alltoallw(sendbuf: Handle, sendcounts: Handle, sdispls: Handle, sendtypes: Handle, recvbuf: Handle, recvcounts: Handle, rdispls: Handle, recvtypes: Handle, comm: Handle) -> c_int
);
forward!(
    "MPI_Ineighbor_allgather, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Ineighbor_allgather] => topoembed_rec_MPI_Ineighbor_allgather(sendbuf: Handle, sendcount: c_int, sendtype: Handle, recvbuf: Handle, recvcount: c_int, recvtype: Handle, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Ineighbor_alltoall, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Ineighbor_alltoall] => topoembed_rec_MPI_Ineighbor_alltoall(sendbuf: Handle, sendcount: c_int, sendtype: Handle, recvbuf: Handle, recvcount: c_int, recvtype: Handle, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Ineighbor_allgatherv, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Ineighbor_allgatherv] => topoembed_rec_MPI_Ineighbor_allgatherv(sendbuf: Handle, sendcount: c_int, sendtype: Handle, recvbuf: Handle, recvcounts: Handle, displs: Handle, recvtype: Handle, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Ineighbor_alltoallv, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Ineighbor_alltoallv] => topoembed_rec_MPI_Ineighbor_alltoallv(sendbuf: Handle, sendcounts: Handle, sdispls: Handle, sendtype: Handle, recvbuf: Handle, recvcounts: Handle, rdispls: Handle, recvtype: Handle, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Ineighbor_alltoallw, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Ineighbor_alltoallw] => topoembed_rec_MPI_Ineighbor_alltoallw(sendbuf: Handle, sendcounts: Handle, sdispls: Handle, sendtypes: Handle, recvbuf: Handle, recvcounts: Handle, rdispls: Handle, recvtypes: Handle, comm: Handle, request: Handle) -> c_int
);

// Collectives, counted apart by communicator.
forward!(
    "MPI_Barrier, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Barrier] => topoembed_rec_MPI_Barrier(comm: Handle) -> c_int
);
forward!(
    "MPI_Bcast, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Bcast] => topoembed_rec_MPI_Bcast(buf: Handle, count: c_int, datatype: Handle, root: c_int, comm: Handle) -> c_int
);
forward!(
    "MPI_Gather, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Gather] => topoembed_rec_MPI_Gather(sendbuf: Handle, sendcount: c_int, sendtype: Handle, recvbuf: Handle, recvcount: c_int, recvtype: Handle, root: c_int, comm: Handle) -> c_int
);
forward!(
    "MPI_Gatherv, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Gatherv] => topoembed_rec_MPI_Gatherv(sendbuf: Handle, sendcount: c_int, sendtype: Handle, recvbuf: Handle, recvcounts: Handle, displs: Handle, recvtype: Handle, root: c_int, comm: Handle) -> c_int
);
forward!(
    "MPI_Scatter, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Scatter] => topoembed_rec_MPI_Scatter(sendbuf: Handle, sendcount: c_int, sendtype: Handle, recvbuf: Handle, recvcount: c_int, recvtype: Handle, root: c_int, comm: Handle) -> c_int
);
forward!(
    "MPI_Scatterv, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Scatterv] => topoembed_rec_MPI_Scatterv(sendbuf: Handle, sendcounts: Handle, displs: Handle, sendtype: Handle, recvbuf: Handle, recvcount: c_int, recvtype: Handle, root: c_int, comm: Handle) -> c_int
);
forward!(
    "MPI_Allgather, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Allgather] => topoembed_rec_MPI_Allgather(sendbuf: Handle, sendcount: c_int, sendtype: Handle, recvbuf: Handle, recvcount: c_int, recvtype: Handle, comm: Handle) -> c_int
);
forward!(
    "MPI_Allgatherv, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Allgatherv] => topoembed_rec_MPI_Allgatherv(sendbuf: Handle, sendcount: c_int, sendtype: Handle, recvbuf: Handle, recvcounts: Handle, displs: Handle, recvtype: Handle, comm: Handle) -> c_int
);
forward!(
    "MPI_Alltoall, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Alltoall] => topoembed_rec_MPI_Alltoall(sendbuf: Handle, sendcount: c_int, sendtype: Handle, recvbuf: Handle, recvcount: c_int, recvtype: Handle, comm: Handle) -> c_int
);
forward!(
    "MPI_Alltoallv, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Alltoallv] => topoembed_rec_MPI_Alltoallv(sendbuf: Handle, sendcounts: Handle, sdispls: Handle, sendtype: Handle, recvbuf: Handle, recvcounts: Handle, rdispls: Handle, recvtype: Handle, comm: Handle) -> c_int
);
forward!(
    "MPI_Alltoallw, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Alltoallw] => topoembed_rec_MPI_Alltoallw(sendbuf: Handle, sendcounts: Handle, sdispls: Handle, sendtypes: Handle, recvbuf: Handle, recvcounts: Handle, rdispls: Handle, recvtypes: Handle, comm: Handle) -> c_int
);
forward!(
    "MPI_Reduce, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Reduce] => topoembed_rec_MPI_Reduce(sendbuf: Handle, recvbuf: Handle, count: c_int, datatype: Handle, op: Handle, root: c_int, comm: Handle) -> c_int
);
forward!(
    "MPI_Allreduce, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Allreduce] => topoembed_rec_MPI_Allreduce(sendbuf: Handle, recvbuf: Handle, count: c_int, datatype: Handle, op: Handle, comm: Handle) -> c_int
);
forward!(
    "MPI_Reduce_scatter, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Reduce_scatter] => topoembed_rec_MPI_Reduce_scatter(sendbuf: Handle, recvbuf: Handle, recvcounts: Handle, datatype: Handle, op: Handle, comm: Handle) -> c_int
);
forward!(
    "MPI_Reduce_scatter_block, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Reduce_scatter_block] => topoembed_rec_MPI_Reduce_scatter_block(sendbuf: Handle, recvbuf: Handle, recvcount: c_int, datatype: Handle, op: Handle, comm: Handle) -> c_int
);
forward!(
    "MPI_Scan, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Scan] => topoembed_rec_MPI_Scan(sendbuf: Handle, recvbuf: Handle, count: c_int, datatype: Handle, op: Handle, comm: Handle) -> c_int
);
forward!(
    "MPI_Exscan, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Exscan] => topoembed_rec_MPI_Exscan(sendbuf: Handle, recvbuf: Handle, count: c_int, datatype: Handle, op: Handle, comm: Handle) -> c_int
);
forward!(
    "MPI_Ibarrier, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Ibarrier] => topoembed_rec_MPI_Ibarrier(comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Ibcast, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Ibcast] => topoembed_rec_MPI_Ibcast(buf: Handle, count: c_int, datatype: Handle, root: c_int, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Igather, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Igather] => topoembed_rec_MPI_Igather(sendbuf: Handle, sendcount: c_int, sendtype: Handle, recvbuf: Handle, recvcount: c_int, recvtype: Handle, root: c_int, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Igatherv, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Igatherv] => topoembed_rec_MPI_Igatherv(sendbuf: Handle, sendcount: c_int, sendtype: Handle, recvbuf: Handle, recvcounts: Handle, displs: Handle, recvtype: Handle, root: c_int, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Iscatter, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Iscatter] => topoembed_rec_MPI_Iscatter(sendbuf: Handle, sendcount: c_int, sendtype: Handle, recvbuf: Handle, recvcount: c_int, recvtype: Handle, root: c_int, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Iscatterv, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Iscatterv] => topoembed_rec_MPI_Iscatterv(sendbuf: Handle, sendcounts: Handle, displs: Handle, sendtype: Handle, recvbuf: Handle, recvcount: c_int, recvtype: Handle, root: c_int, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Iallgather, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Iallgather] => topoembed_rec_MPI_Iallgather(sendbuf: Handle, sendcount: c_int, sendtype: Handle, recvbuf: Handle, recvcount: c_int, recvtype: Handle, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Iallgatherv, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Iallgatherv] => topoembed_rec_MPI_Iallgatherv(sendbuf: Handle, sendcount: c_int, sendtype: Handle, recvbuf: Handle, recvcounts: Handle, displs: Handle, recvtype: Handle, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Ialltoall, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Ialltoall] => topoembed_rec_MPI_Ialltoall(sendbuf: Handle, sendcount: c_int, sendtype: Handle, recvbuf: Handle, recvcount: c_int, recvtype: Handle, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Ialltoallv, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Ialltoallv] => topoembed_rec_MPI_Ialltoallv(sendbuf: Handle, sendcounts: Handle, sdispls: Handle, sendtype: Handle, recvbuf: Handle, recvcounts: Handle, rdispls: Handle, recvtype: Handle, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Ialltoallw, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Ialltoallw] => topoembed_rec_MPI_Ialltoallw(sendbuf: Handle, sendcounts: Handle, sdispls: Handle, sendtypes: Handle, recvbuf: Handle, recvcounts: Handle, rdispls: Handle, recvtypes: Handle, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Ireduce, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Ireduce] => topoembed_rec_MPI_Ireduce(sendbuf: Handle, recvbuf: Handle, count: c_int, datatype: Handle, op: Handle, root: c_int, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Iallreduce, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Iallreduce] => topoembed_rec_MPI_Iallreduce(sendbuf: Handle, recvbuf: Handle, count: c_int, datatype: Handle, op: Handle, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Ireduce_scatter, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Ireduce_scatter] => topoembed_rec_MPI_Ireduce_scatter(sendbuf: Handle, recvbuf: Handle, recvcounts: Handle, datatype: Handle, op: Handle, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Ireduce_scatter_block, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Ireduce_scatter_block] => topoembed_rec_MPI_Ireduce_scatter_block(sendbuf: Handle, recvbuf: Handle, recvcount: c_int, datatype: Handle, op: Handle, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Iscan, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Iscan] => topoembed_rec_MPI_Iscan(sendbuf: Handle, recvbuf: Handle, count: c_int, datatype: Handle, op: Handle, comm: Handle, request: Handle) -> c_int
);
forward!(
    "MPI_Iexscan, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Iexscan] => topoembed_rec_MPI_Iexscan(sendbuf: Handle, recvbuf: Handle, count: c_int, datatype: Handle, op: Handle, comm: Handle, request: Handle) -> c_int
);

// At MPI_Finalize rank 0 gathers the counts and writes the recording.
forward!(
    "MPI_Finalize, recorded when `TOPOEMBED_RECORD` is set.",
    [MPI_Finalize] => topoembed_rec_MPI_Finalize() -> c_int
);

// The Fortran bindings (mpif.h, `use mpi`) of the sends and of
// MPI_FINALIZE, under every mangling gfortran and Open MPI use
// (src/record_fortran.c calls the real binding, then counts).
forward!(
    "Fortran MPI_SEND, recorded when `TOPOEMBED_RECORD` is set.",
    [mpi_send, mpi_send_, mpi_send__, MPI_SEND] => topoembed_rec_f_send(buf: Handle, count: F, datatype: F, dest: F, tag: F, comm: F, ierr: F)
);
forward!(
    "Fortran MPI_BSEND, recorded when `TOPOEMBED_RECORD` is set.",
    [mpi_bsend, mpi_bsend_, mpi_bsend__, MPI_BSEND] => topoembed_rec_f_bsend(buf: Handle, count: F, datatype: F, dest: F, tag: F, comm: F, ierr: F)
);
forward!(
    "Fortran MPI_SSEND, recorded when `TOPOEMBED_RECORD` is set.",
    [mpi_ssend, mpi_ssend_, mpi_ssend__, MPI_SSEND] => topoembed_rec_f_ssend(buf: Handle, count: F, datatype: F, dest: F, tag: F, comm: F, ierr: F)
);
forward!(
    "Fortran MPI_RSEND, recorded when `TOPOEMBED_RECORD` is set.",
    [mpi_rsend, mpi_rsend_, mpi_rsend__, MPI_RSEND] => topoembed_rec_f_rsend(buf: Handle, count: F, datatype: F, dest: F, tag: F, comm: F, ierr: F)
);
forward!(
    "Fortran MPI_ISEND, recorded when `TOPOEMBED_RECORD` is set.",
    [mpi_isend, mpi_isend_, mpi_isend__, MPI_ISEND] => topoembed_rec_f_isend(buf: Handle, count: F, datatype: F, dest: F, tag: F, comm: F, request: F, ierr: F)
);
forward!(
    "Fortran MPI_IBSEND, recorded when `TOPOEMBED_RECORD` is set.",
    [mpi_ibsend, mpi_ibsend_, mpi_ibsend__, MPI_IBSEND] => topoembed_rec_f_ibsend(buf: Handle, count: F, datatype: F, dest: F, tag: F, comm: F, request: F, ierr: F)
);
forward!(
    "Fortran MPI_ISSEND, recorded when `TOPOEMBED_RECORD` is set.",
    [mpi_issend, mpi_issend_, mpi_issend__, MPI_ISSEND] => topoembed_rec_f_issend(buf: Handle, count: F, datatype: F, dest: F, tag: F, comm: F, request: F, ierr: F)
);
forward!(
    "Fortran MPI_IRSEND, recorded when `TOPOEMBED_RECORD` is set.",
    [mpi_irsend, mpi_irsend_, mpi_irsend__, MPI_IRSEND] => topoembed_rec_f_irsend(buf: Handle, count: F, datatype: F, dest: F, tag: F, comm: F, request: F, ierr: F)
);
forward!(
    "Fortran MPI_SEND_INIT, recorded when `TOPOEMBED_RECORD` is set.",
    [mpi_send_init, mpi_send_init_, mpi_send_init__, MPI_SEND_INIT] => topoembed_rec_f_send_init(buf: Handle, count: F, datatype: F, dest: F, tag: F, comm: F, request: F, ierr: F)
);
forward!(
    "Fortran MPI_BSEND_INIT, recorded when `TOPOEMBED_RECORD` is set.",
    [mpi_bsend_init, mpi_bsend_init_, mpi_bsend_init__, MPI_BSEND_INIT] => topoembed_rec_f_bsend_init(buf: Handle, count: F, datatype: F, dest: F, tag: F, comm: F, request: F, ierr: F)
);
forward!(
    "Fortran MPI_SSEND_INIT, recorded when `TOPOEMBED_RECORD` is set.",
    [mpi_ssend_init, mpi_ssend_init_, mpi_ssend_init__, MPI_SSEND_INIT] => topoembed_rec_f_ssend_init(buf: Handle, count: F, datatype: F, dest: F, tag: F, comm: F, request: F, ierr: F)
);
forward!(
    "Fortran MPI_RSEND_INIT, recorded when `TOPOEMBED_RECORD` is set.",
    [mpi_rsend_init, mpi_rsend_init_, mpi_rsend_init__, MPI_RSEND_INIT] => topoembed_rec_f_rsend_init(buf: Handle, count: F, datatype: F, dest: F, tag: F, comm: F, request: F, ierr: F)
);
forward!(
    "Fortran MPI_START, recorded when `TOPOEMBED_RECORD` is set.",
    [mpi_start, mpi_start_, mpi_start__, MPI_START] => topoembed_rec_f_start(request: F, ierr: F)
);
forward!(
    "Fortran MPI_STARTALL, recorded when `TOPOEMBED_RECORD` is set.",
    [mpi_startall, mpi_startall_, mpi_startall__, MPI_STARTALL] => topoembed_rec_f_startall(count: F, requests: F, ierr: F)
);
forward!(
    "Fortran MPI_REQUEST_FREE, recorded when `TOPOEMBED_RECORD` is set.",
    [mpi_request_free, mpi_request_free_, mpi_request_free__, MPI_REQUEST_FREE] => topoembed_rec_f_request_free(request: F, ierr: F)
);
forward!(
    "Fortran MPI_SENDRECV, recorded when `TOPOEMBED_RECORD` is set.",
    [mpi_sendrecv, mpi_sendrecv_, mpi_sendrecv__, MPI_SENDRECV] => topoembed_rec_f_sendrecv(sendbuf: Handle, sendcount: F, sendtype: F, dest: F, sendtag: F, recvbuf: Handle, recvcount: F, recvtype: F, source: F, recvtag: F, comm: F, status: F, ierr: F)
);
forward!(
    "Fortran MPI_SENDRECV_REPLACE, recorded when `TOPOEMBED_RECORD` is set.",
    [mpi_sendrecv_replace, mpi_sendrecv_replace_, mpi_sendrecv_replace__, MPI_SENDRECV_REPLACE] => topoembed_rec_f_sendrecv_replace(buf: Handle, count: F, datatype: F, dest: F, sendtag: F, source: F, recvtag: F, comm: F, status: F, ierr: F)
);
forward!(
    "Fortran MPI_FINALIZE, recorded when `TOPOEMBED_RECORD` is set.",
    [mpi_finalize, mpi_finalize_, mpi_finalize__, MPI_FINALIZE] => topoembed_rec_f_finalize(ierr: F)
);
