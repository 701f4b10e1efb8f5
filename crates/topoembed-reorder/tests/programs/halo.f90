! A 2-D periodic halo exchange in Fortran (use mpi): MPI_CART_CREATE with
! reorder = .true., MPI_CART_SHIFT and MPI_SENDRECV, every value checked.
! Rank 0 prints "checksum S", "placement w0 w1 ..." and "verified".
program halo
  use mpi
  implicit none
  integer :: ierr, cart, rank, size, world_rank, d, src, dst, got, i
  integer :: dims(2), total, checksum, bad, any_bad
  logical :: periods(2)
  integer, allocatable :: where(:)
  character(len=16) :: arg
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, world_rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, size, ierr)
  call get_command_argument(1, arg)
  read(arg, *) dims(1)
  dims(2) = size / dims(1)
  periods = .true.
  call MPI_CART_CREATE(MPI_COMM_WORLD, 2, dims, periods, .true., cart, ierr)
  call MPI_COMM_RANK(cart, rank, ierr)
  bad = 0
  total = 0
  do d = 0, 1
    call MPI_CART_SHIFT(cart, d, 1, src, dst, ierr)
    ! Send my rank up, receive the rank below.
    call MPI_SENDRECV(rank, 1, MPI_INTEGER, dst, d, got, 1, MPI_INTEGER, src, d, cart, &
                      MPI_STATUS_IGNORE, ierr)
    if (got /= src) bad = 1
    total = total + got * (d + 1)
  end do
  call MPI_REDUCE(total, checksum, 1, MPI_INTEGER, MPI_SUM, 0, cart, ierr)
  call MPI_ALLREDUCE(bad, any_bad, 1, MPI_INTEGER, MPI_MAX, cart, ierr)
  allocate(where(size))
  call MPI_GATHER(world_rank, 1, MPI_INTEGER, where, 1, MPI_INTEGER, 0, cart, ierr)
  if (rank == 0) then
    print '(a,i0)', 'checksum ', checksum
    write(*, '(a)', advance='no') 'placement'
    do i = 1, size
      write(*, '(a,i0)', advance='no') ' ', where(i)
    end do
    print '(a)', ''
    if (any_bad == 0) then
      print '(a)', 'verified'
    else
      print '(a)', 'WRONG'
    end if
  end if
  call MPI_COMM_FREE(cart, ierr)
  call MPI_FINALIZE(ierr)
  if (any_bad /= 0) stop 1
end program halo
