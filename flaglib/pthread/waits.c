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
		int r; \
		if (!lc_pt_on) \
			return (wait_call); \
		r = (try_call); \
		if (r != EBUSY) \
			return r; \
		SYNC_CALL(wait, obj, wait_call); \
		return r; \
	} while (0)

/* The interposed lock function name(params) on object l: the thread is SYNC
 * (wait kind wait) only when try(l) finds l taken and the real name(args...)
 * waits for it. */
#define LOCK_WAIT(name, wait, try, params, ...) \
	LC_PT_API int name params \
	{ \
		TRY_THEN_WAIT(wait, l, LC_PT_REAL(try)(l), LC_PT_REAL(name)(__VA_ARGS__)); \
	}

#define TS const struct timespec *t
/* Mutexes: SYNC only when taken; plain, with a CLOCK_REALTIME timeout, with a
 * timeout on clock c. */
LOCK_WAIT(pthread_mutex_lock, LC_WAIT_MUTEX, pthread_mutex_trylock, (pthread_mutex_t *l), l)
LOCK_WAIT(pthread_mutex_timedlock, LC_WAIT_MUTEX, pthread_mutex_trylock,
	  (pthread_mutex_t *l, TS), l, t)
LOCK_WAIT(pthread_mutex_clocklock, LC_WAIT_MUTEX, pthread_mutex_trylock,
	  (pthread_mutex_t *l, clockid_t c, TS), l, c, t)
/* Read locks (SYNC while a writer holds it) and write locks (SYNC while anyone
 * holds it), each plain, with a CLOCK_REALTIME timeout, on clock c. */
LOCK_WAIT(pthread_rwlock_rdlock, LC_WAIT_RWLOCK, pthread_rwlock_tryrdlock, (pthread_rwlock_t *l), l)
LOCK_WAIT(pthread_rwlock_wrlock, LC_WAIT_RWLOCK, pthread_rwlock_trywrlock, (pthread_rwlock_t *l), l)
LOCK_WAIT(pthread_rwlock_timedrdlock, LC_WAIT_RWLOCK, pthread_rwlock_tryrdlock,
	  (pthread_rwlock_t *l, TS), l, t)
LOCK_WAIT(pthread_rwlock_timedwrlock, LC_WAIT_RWLOCK, pthread_rwlock_trywrlock,
	  (pthread_rwlock_t *l, TS), l, t)
LOCK_WAIT(pthread_rwlock_clockrdlock, LC_WAIT_RWLOCK, pthread_rwlock_tryrdlock,
	  (pthread_rwlock_t *l, clockid_t c, TS), l, c, t)
LOCK_WAIT(pthread_rwlock_clockwrlock, LC_WAIT_RWLOCK, pthread_rwlock_trywrlock,
	  (pthread_rwlock_t *l, clockid_t c, TS), l, c, t)
/* A spin lock: SYNC while it spins. */
LOCK_WAIT(pthread_spin_lock, LC_WAIT_SPIN, pthread_spin_trylock, (pthread_spinlock_t *l), l)
#undef TS

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
