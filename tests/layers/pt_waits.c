/*
 * pt_waits — an unmodified pthread program (no lostcycles macros) in which
 * one thread waits in every kind of call the pthread layer interposes
 * besides the plain mutex: a mutex with a timeout, read-write locks (read
 * and timed write), a spin lock, a semaphore (plain and timed), a condition
 * variable (plain and timed).  For each, the holder (the main thread) takes
 * the resource, tells the waiter through an atomic, works 2 ms and lets go;
 * the waiter times its own call.  Handshakes poll atomics (not interposed),
 * so only the timed calls wait.  Prints, in seconds:
 *   truth p=2 sl=WAITER'S_TIMED_WAITS waits=NUMBER wall=...
 */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#define LW_NAME "pt_waits"
#include "layer_wl.h"

#define CYCLES 12
#define NPRIM 5			/* mutex, rwlock, spin, semaphore, condition */

static pthread_mutex_t mtx = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static pthread_spinlock_t spin;
static sem_t sem;
static pthread_mutex_t cmtx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int pred;			/* guarded by cmtx */
static atomic_int held, done;		/* handshake: step numbers */
static double waited;			/* the waiter's timed calls */
static int nwaits;

/* Poll until *a == v. */
static void await(atomic_int *a, int v)
{
	while (atomic_load(a) != v)
		nap(20000);
}

/* CLOCK_REALTIME one second from now, for the timed calls. */
static struct timespec deadline(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 1;
	return ts;
}

/* The holder's part of step s with primitive k: take it, let the waiter
 * know, work 2 ms, let go, wait until the waiter is through. */
static void hold(int k, int s)
{
	int e = 0;

	if (k == 0)
		e = pthread_mutex_lock(&mtx);
	else if (k == 1)
		e = pthread_rwlock_wrlock(&rw);
	else if (k == 2)
		e = pthread_spin_lock(&spin);
	if (e)
		die("holder lock", e);
	atomic_store(&held, s);
	nap(2 * MS);
	if (k == 0)
		pthread_mutex_unlock(&mtx);
	else if (k == 1)
		pthread_rwlock_unlock(&rw);
	else if (k == 2)
		pthread_spin_unlock(&spin);
	else if (k == 3)
		sem_post(&sem);
	else {
		pthread_mutex_lock(&cmtx);
		pred = s;
		pthread_cond_signal(&cond);
		pthread_mutex_unlock(&cmtx);
	}
	await(&done, s);
}

/* Wait for the condition of step s, plain or timed. */
static int cond_until(int s, int timed)
{
	struct timespec t = deadline();
	int e = pthread_mutex_lock(&cmtx);

	while (!e && pred != s)
		e = timed ? pthread_cond_timedwait(&cond, &cmtx, &t) :
			    pthread_cond_wait(&cond, &cmtx);
	pthread_mutex_unlock(&cmtx);
	return e;
}

/* The waiter's call for primitive k, plain or timed; returns 0 or an
 * error number.  Locks are released again. */
static int wait_for(int k, int s, int timed)
{
	struct timespec t = deadline();
	int e;

	switch (k) {
	case 0:
		e = timed ? pthread_mutex_timedlock(&mtx, &t) : pthread_mutex_lock(&mtx);
		return e ? e : pthread_mutex_unlock(&mtx);
	case 1:
		e = timed ? pthread_rwlock_timedwrlock(&rw, &t) : pthread_rwlock_rdlock(&rw);
		return e ? e : pthread_rwlock_unlock(&rw);
	case 2:
		e = pthread_spin_lock(&spin);
		return e ? e : pthread_spin_unlock(&spin);
	case 3:
		return (timed ? sem_timedwait(&sem, &t) : sem_wait(&sem)) ? errno : 0;
	default:
		return cond_until(s, timed);
	}
}

/* The waiter thread: every step, wait for the holder's signal, then time
 * the call. */
static void *waiter(void *unused)
{
	(void)unused;
	for (int c = 0; c < CYCLES; c++) {
		for (int k = 0; k < NPRIM; k++) {
			int s = c * NPRIM + k + 1, e;
			unsigned long long t;

			await(&held, s);
			t = now();
			e = wait_for(k, s, c % 2);
			if (e)
				die("waiter", e);
			waited += (double)(now() - t) / 1e9;
			nwaits++;
			atomic_store(&done, s);
		}
	}
	return NULL;
}

int main(void)
{
	unsigned long long t0 = now();
	pthread_t th;
	int e;

	if ((e = pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE)) || sem_init(&sem, 0, 0))
		die("init", e ? e : errno);
	if ((e = pthread_create(&th, NULL, waiter, NULL)))
		die("pthread_create", e);
	for (int c = 0; c < CYCLES; c++)
		for (int k = 0; k < NPRIM; k++)
			hold(k, c * NPRIM + k + 1);
	if ((e = pthread_join(th, NULL)))
		die("pthread_join", e);
	printf("truth p=2 sl=%.6f waits=%d wall=%.6f\n", waited, nwaits,
	       (double)(now() - t0) / 1e9);
	return 0;
}
