/*
 * pt_pigz — an unmodified pthread program shaped like pigz (no lostcycles
 * macros, no team declared): the main thread reads (makes) blocks and hands
 * them to NCOMP compressor threads through a bounded queue guarded by a
 * mutex and two condition variables; a writer thread waits, block by block
 * and in order, for the compressed results.  The compressors do nearly all
 * the work; the reader and the writer wait most of the time.
 *
 *   pt_pigz NCOMP BLOCKS
 *
 * Prints, in seconds:
 *   truth p=NCOMP cpu=COMPRESSORS'_CPU_TIME wall=MAIN_DURATION
 * where each compressor measures its own CPU time (CLOCK_THREAD_CPUTIME_ID)
 * from its start to its end.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "layer_wl.h"

#define QCAP 4
#define MAXC 64
#define BLOCK 4096

static pthread_mutex_t mtx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t more = PTHREAD_COND_INITIALIZER;	/* queue not empty */
static pthread_cond_t room = PTHREAD_COND_INITIALIZER;	/* queue not full */
static pthread_cond_t ready = PTHREAD_COND_INITIALIZER;	/* a result is done */
static int queue[QCAP], qhead, qlen, eof;			/* guarded by mtx */
static unsigned char *done;					/* guarded by mtx */
static unsigned char data[BLOCK];
static double cpu_of[MAXC];
static unsigned sums[MAXC];

/* "Compress" block b: ~4 ms of arithmetic over the data. */
static unsigned compress(int b)
{
	unsigned h = (unsigned)b;

	for (int r = 0; r < 6000; r++)
		for (int i = 0; i < BLOCK; i += 8)
			h = h * 31u + data[i] + (unsigned)r;
	return h;
}

/* Take the next block number from the queue; -1 at the end. */
static int take(void)
{
	int b;

	pthread_mutex_lock(&mtx);
	while (!qlen && !eof)
		pthread_cond_wait(&more, &mtx);
	if (!qlen) {
		pthread_mutex_unlock(&mtx);
		return -1;
	}
	b = queue[qhead];
	qhead = (qhead + 1) % QCAP;
	qlen--;
	pthread_cond_signal(&room);
	pthread_mutex_unlock(&mtx);
	return b;
}

static void *compressor(void *arg)
{
	int me = (int)(long)arg, b;
	double c0 = lw_clock(CLOCK_THREAD_CPUTIME_ID);

	while ((b = take()) >= 0) {
		sums[me] += compress(b);
		pthread_mutex_lock(&mtx);
		done[b] = 1;
		pthread_cond_broadcast(&ready);
		pthread_mutex_unlock(&mtx);
	}
	cpu_of[me] = lw_clock(CLOCK_THREAD_CPUTIME_ID) - c0;
	return NULL;
}

static void *writer(void *arg)
{
	int n = (int)(long)arg;

	for (int b = 0; b < n; b++) {
		pthread_mutex_lock(&mtx);
		while (!done[b])
			pthread_cond_wait(&ready, &mtx);
		pthread_mutex_unlock(&mtx);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int ncomp = argc > 1 ? atoi(argv[1]) : 2, blocks = argc > 2 ? atoi(argv[2]) : 400;
	double t0 = lw_clock(CLOCK_MONOTONIC), cpu = 0;
	pthread_t th[MAXC], wr;

	if (ncomp <= 0 || ncomp > MAXC || blocks <= 0) {
		fprintf(stderr, "usage: pt_pigz NCOMP BLOCKS\n");
		return 2;
	}
	done = calloc((size_t)blocks, 1);
	if (!done)
		return 1;
	for (int i = 0; i < BLOCK; i++)
		data[i] = (unsigned char)(i * 7);
	for (int i = 0; i < ncomp; i++)
		pthread_create(&th[i], NULL, compressor, (void *)(long)i);
	pthread_create(&wr, NULL, writer, (void *)(long)blocks);
	for (int b = 0; b < blocks; b++) {	/* the reader */
		pthread_mutex_lock(&mtx);
		while (qlen == QCAP)
			pthread_cond_wait(&room, &mtx);
		queue[(qhead + qlen) % QCAP] = b;
		qlen++;
		pthread_cond_signal(&more);
		pthread_mutex_unlock(&mtx);
	}
	pthread_mutex_lock(&mtx);
	eof = 1;
	pthread_cond_broadcast(&more);
	pthread_mutex_unlock(&mtx);
	for (int i = 0; i < ncomp; i++) {
		pthread_join(th[i], NULL);
		cpu += cpu_of[i];
	}
	pthread_join(wr, NULL);
	printf("truth p=%d cpu=%.6f wall=%.6f sum=%u\n", ncomp, cpu, lw_clock(CLOCK_MONOTONIC) - t0,
	       sums[0] & 1u);
	free(done);
	return 0;
}
