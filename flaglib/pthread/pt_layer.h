/*
 * pt_layer.h — private declarations of liblostcycles-pthread, the preload
 * layer: the real functions behind the interposed ones, and the guarded
 * entry into the flag library.
 */
#ifndef LC_PT_LAYER_H
#define LC_PT_LAYER_H

#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <time.h>

/* The next definition (libc's) of every function the layer interposes.
 * Filled by lc_pt_resolve(); a NULL entry is resolved on first use. */
struct lc_pt_real {
	int (*pthread_create)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
	void (*pthread_exit)(void *) __attribute__((noreturn));
	int (*pthread_join)(pthread_t, void **);
	int (*pthread_timedjoin_np)(pthread_t, void **, const struct timespec *);
	int (*pthread_clockjoin_np)(pthread_t, void **, clockid_t, const struct timespec *);
	int (*pthread_mutex_lock)(pthread_mutex_t *);
	int (*pthread_mutex_trylock)(pthread_mutex_t *);
	int (*pthread_mutex_timedlock)(pthread_mutex_t *, const struct timespec *);
	int (*pthread_mutex_clocklock)(pthread_mutex_t *, clockid_t, const struct timespec *);
	int (*pthread_rwlock_rdlock)(pthread_rwlock_t *);
	int (*pthread_rwlock_wrlock)(pthread_rwlock_t *);
	int (*pthread_rwlock_tryrdlock)(pthread_rwlock_t *);
	int (*pthread_rwlock_trywrlock)(pthread_rwlock_t *);
	int (*pthread_rwlock_timedrdlock)(pthread_rwlock_t *, const struct timespec *);
	int (*pthread_rwlock_timedwrlock)(pthread_rwlock_t *, const struct timespec *);
	int (*pthread_rwlock_clockrdlock)(pthread_rwlock_t *, clockid_t, const struct timespec *);
	int (*pthread_rwlock_clockwrlock)(pthread_rwlock_t *, clockid_t, const struct timespec *);
	int (*pthread_spin_lock)(pthread_spinlock_t *);
	int (*pthread_spin_trylock)(pthread_spinlock_t *);
	int (*pthread_barrier_wait)(pthread_barrier_t *);
	int (*pthread_cond_wait)(pthread_cond_t *, pthread_mutex_t *);
	int (*pthread_cond_timedwait)(pthread_cond_t *, pthread_mutex_t *,
				      const struct timespec *);
	int (*pthread_cond_clockwait)(pthread_cond_t *, pthread_mutex_t *, clockid_t,
				      const struct timespec *);
	int (*sem_wait)(sem_t *);
	int (*sem_trywait)(sem_t *);
	int (*sem_timedwait)(sem_t *, const struct timespec *);
	int (*sem_clockwait)(sem_t *, clockid_t, const struct timespec *);
};

extern struct lc_pt_real lc_pt_real;

/* Nonzero once the layer found an active session: the interposers only
 * pass calls through otherwise.  Written by the constructor. */
extern int lc_pt_on;

/* Resolve every entry of lc_pt_real that is still NULL. */
void lc_pt_resolve(void);

/* The real function name, resolved on first use. */
#define LC_PT_REAL(name) \
	(lc_pt_real.name ? lc_pt_real.name : (lc_pt_resolve(), lc_pt_real.name))

/* Enter state (LC_ST_*) for the calling thread before a blocking call made
 * from return address ra, in the place of a wait of kind wait (enum
 * lc_place_wait) at that call site.  Returns 1 if entered (pass it to
 * lc_pt_leave), 0 when the layer is off, the call comes from the OpenMP
 * runtime, or the thread is already inside the flag library (its own
 * locks). */
int lc_pt_enter(uint32_t state, const void *ra, uint32_t wait);

/* lc_pt_enter for a wait on synchronization object obj (a mutex, lock,
 * barrier, condition or semaphore), which "report --sync" then names: by
 * the program's symbol for it where the dynamic linker knows one, else by
 * its address. */
int lc_pt_enter_on(uint32_t state, const void *ra, const void *obj, uint32_t wait);

/* Undo lc_pt_enter() when entered is 1. */
void lc_pt_leave(int entered);

/* Find the OpenMP runtime libraries loaded so far (runtime.c). */
void lc_pt_find_runtime(void);

/* Nonzero if return address ra lies in an OpenMP runtime library: the
 * layer leaves such calls to the OpenMP tool. */
int lc_pt_from_runtime(const void *ra);

/* The interposed function's caller. */
#define LC_PT_CALLER() __builtin_return_address(0)

#endif /* LC_PT_LAYER_H */
