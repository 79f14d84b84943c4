! fimbalance.f90 — the Fortran twin of imbalance.c (no lostcycles code):
! rank k computes (k+1)*10 ms, then all meet at MPI_Barrier, 10 times; each
! rank prints its time in MPI_Barrier and its run time, in ns:
!   rank K wait_ns W run_ns R
program fimbalance
  use mpi
  implicit none
  integer :: ierr, rank, i
  double precision :: t0, start, w, x
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  w = 0
  x = 0
  start = MPI_Wtime()
  do i = 1, 10
    t0 = MPI_Wtime()
    do while (MPI_Wtime() - t0 < 0.01d0 * (rank + 1))
      x = x + 1
    end do
    t0 = MPI_Wtime()
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    w = w + MPI_Wtime() - t0
  end do
  write (*, '(A,I0,A,I0,A,I0)') 'rank ', rank, ' wait_ns ', int(w * 1d9, 8), &
       ' run_ns ', int((MPI_Wtime() - start) * 1d9, 8)
  call MPI_Finalize(ierr)
  if (x < 0) stop 1
end program fimbalance
