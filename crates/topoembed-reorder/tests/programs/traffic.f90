! Known traffic from Fortran (mpif.h / `use mpi` bindings), for the
! recorder's tests: rank r sends
!   r+1:    10 integers (MPI_ISEND), 2 integers (MPI_SENDRECV_REPLACE),
!           1 integer (MPI_SSEND)
!   r+2:    3 double precision (MPI_SEND)
!   r-1:    5 integers, persistent (MPI_SEND_INIT), started 3 times
!           (MPI_START once, MPI_STARTALL twice)
!   r+n/2:  7 reals (MPI_SENDRECV)
! (8 messages a rank) plus an MPI_ALLREDUCE, which is no pair's traffic.
! Rank 0 prints "done".
program traffic
  use mpi
  implicit none
  integer :: ierr, rank, n, right, left, i, round
  integer :: ints(10), back(10), reqs(4), status(MPI_STATUS_SIZE), one, got
  integer :: persistent(5), landed(5), pair(2)
  double precision :: d(3), dgot(3)
  real :: f(7), fgot(7)
  integer :: total, all
  call MPI_Init(ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  right = mod(rank + 1, n)
  left = mod(rank + n - 1, n)
  ints = (/ (rank * 100 + i, i = 1, 10) /)
  total = 0

  call MPI_Isend(ints, 10, MPI_INTEGER, right, 1, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Recv(back, 10, MPI_INTEGER, left, 1, MPI_COMM_WORLD, status, ierr)
  call MPI_Wait(reqs(1), status, ierr)
  total = total + back(10)

  d = (/ 1.0d0 * rank, 2.0d0, 3.0d0 /)
  call MPI_Irecv(dgot, 3, MPI_DOUBLE_PRECISION, mod(rank + n - 2, n), 2, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Send(d, 3, MPI_DOUBLE_PRECISION, mod(rank + 2, n), 2, MPI_COMM_WORLD, ierr)
  call MPI_Wait(reqs(1), status, ierr)
  total = total + int(dgot(1))

  persistent = (/ (rank + i, i = 1, 5) /)
  call MPI_Send_init(persistent, 5, MPI_INTEGER, left, 3, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Recv_init(landed, 5, MPI_INTEGER, right, 3, MPI_COMM_WORLD, reqs(2), ierr)
  do round = 1, 3
    if (round == 1) then
      call MPI_Start(reqs(2), ierr)
      call MPI_Start(reqs(1), ierr)
    else
      call MPI_Startall(2, reqs, ierr)
    end if
    call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
    total = total + landed(5)
  end do
  call MPI_Request_free(reqs(1), ierr)
  call MPI_Request_free(reqs(2), ierr)

  f = (/ (real(rank * i), i = 1, 7) /)
  call MPI_Sendrecv(f, 7, MPI_REAL, mod(rank + n / 2, n), 4, fgot, 7, MPI_REAL, &
                    mod(rank + n - n / 2, n), 4, MPI_COMM_WORLD, status, ierr)
  total = total + int(fgot(7))

  pair = (/ rank, rank /)
  call MPI_Sendrecv_replace(pair, 2, MPI_INTEGER, right, 5, left, 5, MPI_COMM_WORLD, status, ierr)
  total = total + pair(1)

  one = rank
  call MPI_Irecv(got, 1, MPI_INTEGER, left, 6, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Ssend(one, 1, MPI_INTEGER, right, 6, MPI_COMM_WORLD, ierr)
  call MPI_Wait(reqs(1), status, ierr)
  total = total + got

  call MPI_Allreduce(total, all, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a)', 'done'
  call MPI_Finalize(ierr)
end program traffic
