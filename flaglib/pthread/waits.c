/*
 * waits.c — the waits liblostcycles-pthread interposes: the calling thread
 * is SYNC while it waits for a mutex, read-write lock, spin lock, barrier,
 * condition variable or semaphore.  Locks and semaphores are tried first:
 * one that is free is taken without a wait and the thread stays BUSY, so
 * the uncontended path costs one try and touches no flag.
 */
#include <errno.h>
#include <stdint.h>

#include "lc_auto.h"
#include "pt_layer.h"

#define LC_PT_API __attribute__((visibility("default")))

/* SYNC, waiting (a wait of kind wait, enum lc_place_wait) for object obj,
 * around a blocking call whose result goes to r; errno is the call's. */
#define SYNC_CALL(wait, obj, call) \
	do { \
		int e_ = lc_pt_enter_on(LC_ST_SYNC, LC_PT_CALLER(), (const void *)(uintptr_t)(obj), \
					(wait)), errno_; \
		r = (call); \
		errno_ = errno; \
		lc_pt_leave(e_); \
		errno = errno_; \
	} while (0)

/* Lock-like functions on obj: try first; only EBUSY means a wait. */
#define TRY_THEN_WAIT(wait, obj, try_call, wait_call) \
	do { \
		if (!lc_pt_on) \
			return (wait_call); \
		r = (try_call); \
		if (r != EBUSY) \
			return r; \
		SYNC_CALL(wait, obj, wait_call); \
		return r; \
	} while (0)

/* A mutex: SYNC only when it is taken. */
LC_PT_API int pthread_mutex_lock(pthread_mutex_t *m)
{
	int r;

	TRY_THEN_WAIT(LC_WAIT_MUTEX, m, LC_PT_REAL(pthread_mutex_trylock)(m),
		      LC_PT_REAL(pthread_mutex_lock)(m));
}

/* A mutex with an absolute CLOCK_REALTIME timeout. */
LC_PT_API int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *t)
{
	int r;

	TRY_THEN_WAIT(LC_WAIT_MUTEX, m, LC_PT_REAL(pthread_mutex_trylock)(m),
		      LC_PT_REAL(pthread_mutex_timedlock)(m, t));
}

/* A mutex with a timeout on clock c. */
LC_PT_API int pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t c, const struct timespec *t)
{
	int r;

	TRY_THEN_WAIT(LC_WAIT_MUTEX, m, LC_PT_REAL(pthread_mutex_trylock)(m),
		      LC_PT_REAL(pthread_mutex_clocklock)(m, c, t));
}

/* A read lock: SYNC while a writer holds it. */
LC_PT_API int pthread_rwlock_rdlock(pthread_rwlock_t *l)
{
	int r;

	TRY_THEN_WAIT(LC_WAIT_RWLOCK, l, LC_PT_REAL(pthread_rwlock_tryrdlock)(l),
		      LC_PT_REAL(pthread_rwlock_rdlock)(l));
}

/* A write lock: SYNC while anyone holds it. */
LC_PT_API int pthread_rwlock_wrlock(pthread_rwlock_t *l)
{
	int r;

	TRY_THEN_WAIT(LC_WAIT_RWLOCK, l, LC_PT_REAL(pthread_rwlock_trywrlock)(l),
		      LC_PT_REAL(pthread_rwlock_wrlock)(l));
}

/* A read lock with a CLOCK_REALTIME timeout. */
LC_PT_API int pthread_rwlock_timedrdlock(pthread_rwlock_t *l, const struct timespec *t)
{
	int r;

	TRY_THEN_WAIT(LC_WAIT_RWLOCK, l, LC_PT_REAL(pthread_rwlock_tryrdlock)(l),
		      LC_PT_REAL(pthread_rwlock_timedrdlock)(l, t));
}

/* A write lock with a CLOCK_REALTIME timeout. */
LC_PT_API int pthread_rwlock_timedwrlock(pthread_rwlock_t *l, const struct timespec *t)
{
	int r;

	TRY_THEN_WAIT(LC_WAIT_RWLOCK, l, LC_PT_REAL(pthread_rwlock_trywrlock)(l),
		      LC_PT_REAL(pthread_rwlock_timedwrlock)(l, t));
}

/* A read lock with a timeout on clock c. */
LC_PT_API int pthread_rwlock_clockrdlock(pthread_rwlock_t *l, clockid_t c,
					 const struct timespec *t)
{
	int r;

	TRY_THEN_WAIT(LC_WAIT_RWLOCK, l, LC_PT_REAL(pthread_rwlock_tryrdlock)(l),
		      LC_PT_REAL(pthread_rwlock_clockrdlock)(l, c, t));
}

/* A write lock with a timeout on clock c. */
LC_PT_API int pthread_rwlock_clockwrlock(pthread_rwlock_t *l, clockid_t c,
					 const struct timespec *t)
{
	int r;

	TRY_THEN_WAIT(LC_WAIT_RWLOCK, l, LC_PT_REAL(pthread_rwlock_trywrlock)(l),
		      LC_PT_REAL(pthread_rwlock_clockwrlock)(l, c, t));
}

/* A spin lock: SYNC while it spins. */
LC_PT_API int pthread_spin_lock(pthread_spinlock_t *l)
{
	int r;

	TRY_THEN_WAIT(LC_WAIT_SPIN, l, LC_PT_REAL(pthread_spin_trylock)(l),
		      LC_PT_REAL(pthread_spin_lock)(l));
}

/* A barrier: SYNC until the last thread arrives. */
LC_PT_API int pthread_barrier_wait(pthread_barrier_t *b)
{
	int r;

	SYNC_CALL(LC_WAIT_BARRIER, b, LC_PT_REAL(pthread_barrier_wait)(b));
	return r;
}

/* A condition variable: SYNC until signalled (and the mutex is back). */
LC_PT_API int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	int r;

	SYNC_CALL(LC_WAIT_COND, c, LC_PT_REAL(pthread_cond_wait)(c, m));
	return r;
}

/* The same with a timeout. */
LC_PT_API int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
				     const struct timespec *t)
{
	int r;

	SYNC_CALL(LC_WAIT_COND, c, LC_PT_REAL(pthread_cond_timedwait)(c, m, t));
	return r;
}

/* The same with a timeout on clock clk. */
LC_PT_API int pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clk,
				     const struct timespec *t)
{
	int r;

	SYNC_CALL(LC_WAIT_COND, c, LC_PT_REAL(pthread_cond_clockwait)(c, m, clk, t));
	return r;
}

/* Semaphores report failure in errno: try first, and wait only when the
 * try says the wait would block. */
#define SEM_TRY_THEN_WAIT(s, wait_call) \
	do { \
		int r; \
		if (!lc_pt_on) \
			return (wait_call); \
		if (LC_PT_REAL(sem_trywait)(s) == 0) \
			return 0; \
		if (errno != EAGAIN) \
			return -1; \
		SYNC_CALL(LC_WAIT_SEM, s, wait_call); \
		return r; \
	} while (0)

/* A semaphore: SYNC while its count is 0. */
LC_PT_API int sem_wait(sem_t *s)
{
	SEM_TRY_THEN_WAIT(s, LC_PT_REAL(sem_wait)(s));
}

/* A semaphore with a CLOCK_REALTIME timeout. */
LC_PT_API int sem_timedwait(sem_t *s, const struct timespec *t)
{
	SEM_TRY_THEN_WAIT(s, LC_PT_REAL(sem_timedwait)(s, t));
}

/* A semaphore with a timeout on clock c. */
LC_PT_API int sem_clockwait(sem_t *s, clockid_t c, const struct timespec *t)
{
	SEM_TRY_THEN_WAIT(s, LC_PT_REAL(sem_clockwait)(s, c, t));
}
