/*
 * waits.c — an unmodified MPI program (no lostcycles header) for the
 * waiting rules of the MPI layer.  Each thread measures the time it spends
 * waiting and prints:
 *   rank R tid T wait_ns W run_ns X
 * Modes:
 *   poll     rank 1 computes 200 ms, then sends; rank 0 waits for the
 *            message in a tight MPI_Test loop (counted as waiting).
 *   overlap  the same, but rank 0 computes 2 ms between tests (a test
 *            every 2 ms is not a poll loop: rank 0 stays busy; its wait is
 *            reported as 0).
 *   threads  MPI_THREAD_MULTIPLE, two threads per rank; thread t of rank 1
 *            computes (t+1)*40 ms per round before a Sendrecv with thread t
 *            of rank 0 (tag t), 5 rounds: each thread waits on its own.
 *   die      rank 1 computes 200 ms and kills itself (SIGKILL); rank 0
 *            waits for a message that never comes (the launcher ends it).
 *   abort    rank 1 computes 200 ms and calls MPI_Abort; rank 0 waits for a
 *            message that never comes (the abort ends it).
 * Usage: waits MODE   (2 ranks)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mpi_wl.h"

static int rank;

static void report(uint64_t wait, uint64_t start)
{
	printf("rank %d tid %d wait_ns %llu run_ns %llu\n", rank, (int)gettid(),
	       (unsigned long long)wait, (unsigned long long)(now_ns() - start));
	fflush(stdout);
}

/* poll and overlap: one message, waited for with MPI_Test. */
static double testing(int overlap)
{
	uint64_t start = now_ns(), wait = 0, t;
	double sink = 0;
	int buf = 0, flag = 0;
	MPI_Request req;

	if (rank == 1) {
		sink += compute(200000000u);
		MPI_Send(&buf, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	} else {
		MPI_Irecv(&buf, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &req);
		t = now_ns();
		while (!flag) {
			if (overlap)
				sink += compute(2000000u);
			MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
		}
		if (!overlap)
			wait = now_ns() - t;
	}
	report(wait, start);
	return sink;
}

static void *thread_main(void *arg)
{
	int t = (int)(intptr_t)arg, x = 0, y = 0;
	uint64_t start = now_ns(), wait = 0, w0;
	double sink = 0;

	for (int r = 0; r < 5; r++) {
		if (rank == 1)
			sink += compute((uint64_t)(t + 1) * 40000000u);
		w0 = now_ns();
		MPI_Sendrecv(&x, 1, MPI_INT, 1 - rank, t, &y, 1, MPI_INT, 1 - rank, t,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		wait += now_ns() - w0;
	}
	report(wait, start);
	return (void *)(intptr_t)(sink < 0);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "poll";
	int provided = 0, size;
	double sink = 0;

	if (!strcmp(mode, "threads")) {
		pthread_t th[2];

		MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
		MPI_Comm_rank(MPI_COMM_WORLD, &rank);
		if (provided < MPI_THREAD_MULTIPLE) {
			if (rank == 0)
				fprintf(stderr, "waits: no MPI_THREAD_MULTIPLE\n");
			MPI_Finalize();
			return 77;
		}
		for (int t = 0; t < 2; t++)
			pthread_create(&th[t], NULL, thread_main, (void *)(intptr_t)t);
		for (int t = 0; t < 2; t++)
			pthread_join(th[t], NULL);
	} else {
		MPI_Init(&argc, &argv);
		MPI_Comm_rank(MPI_COMM_WORLD, &rank);
		MPI_Comm_size(MPI_COMM_WORLD, &size);
		if (size == 2 && (!strcmp(mode, "die") || !strcmp(mode, "abort"))) {
			int buf;

			if (rank == 1) {
				sink = compute(200000000u);
				printf("rank 1 computed_ns 200000000\n");
				fflush(stdout);
				if (!strcmp(mode, "abort"))
					MPI_Abort(MPI_COMM_WORLD, 3);
				raise(SIGKILL);
			}
			MPI_Recv(&buf, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else if (size == 2) {
			sink = testing(!strcmp(mode, "overlap"));
		}
	}
	MPI_Finalize();
	return sink < 0;
}
