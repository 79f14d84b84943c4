/*
 * threads.c — liblostcycles-pthread, an LD_PRELOAD layer that sets the
 * predicate flags of an unmodified pthread program: the layer's set-up, its
 * guarded entry into the flag library, and the threads' life: a created
 * thread starts BUSY, a thread in pthread_join is IDLE, and work exists
 * while more than one thread of the process is alive.  The waits are in
 * waits.c; calls made by the OpenMP runtime are left alone (runtime.c).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "lc_auto.h"
#include "pt_layer.h"

#define LC_PT_API __attribute__((visibility("default")))

struct lc_pt_real lc_pt_real;
int lc_pt_on;

/* Set while the calling thread is inside the flag library on the layer's
 * behalf: the library's own locks then go straight to libc. */
static __thread int guard __attribute__((tls_model("initial-exec")));

/* Threads alive, counting the main thread; guarded by alive_lock. */
static pthread_mutex_t alive_lock = PTHREAD_MUTEX_INITIALIZER;
static int alive = 1;

/* What pthread_create passes to the trampoline. */
struct start {
	void *(*fn)(void *);
	void *arg;
};

/* Look up the next definition of name after this library, or NULL. */
static void *next_fn(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

#define RESOLVE(name) \
	do { \
		if (!lc_pt_real.name) \
			lc_pt_real.name = (__typeof__(lc_pt_real.name))next_fn(#name); \
	} while (0)

void lc_pt_resolve(void)
{
	RESOLVE(pthread_create);
	RESOLVE(pthread_exit);
	RESOLVE(pthread_join);
	RESOLVE(pthread_timedjoin_np);
	RESOLVE(pthread_clockjoin_np);
	RESOLVE(pthread_mutex_lock);
	RESOLVE(pthread_mutex_trylock);
	RESOLVE(pthread_mutex_timedlock);
	RESOLVE(pthread_mutex_clocklock);
	RESOLVE(pthread_rwlock_rdlock);
	RESOLVE(pthread_rwlock_wrlock);
	RESOLVE(pthread_rwlock_tryrdlock);
	RESOLVE(pthread_rwlock_trywrlock);
	RESOLVE(pthread_rwlock_timedrdlock);
	RESOLVE(pthread_rwlock_timedwrlock);
	RESOLVE(pthread_rwlock_clockrdlock);
	RESOLVE(pthread_rwlock_clockwrlock);
	RESOLVE(pthread_spin_lock);
	RESOLVE(pthread_spin_trylock);
	RESOLVE(pthread_barrier_wait);
	RESOLVE(pthread_cond_wait);
	RESOLVE(pthread_cond_timedwait);
	RESOLVE(pthread_cond_clockwait);
	RESOLVE(sem_wait);
	RESOLVE(sem_trywait);
	RESOLVE(sem_timedwait);
	RESOLVE(sem_clockwait);
}

int lc_pt_enter(uint32_t state, const void *ra, uint32_t wait)
{
	if (!lc_pt_on || guard || lc_pt_from_runtime(ra))
		return 0;
	guard = 1;
	/* the place before the state, and after it on the way out: a tick
	 * that sees the wait sees its place */
	lc_auto_place_push(lc_auto_site_word(LC_PLACE_SYNC, wait, ra));
	lc_auto_enter(state);
	guard = 0;
	return 1;
}

/* Bit i: object i + 1 of the sync table has been given a symbol's name
 * (or found to have none). */
static uint64_t named;

int lc_pt_enter_on(uint32_t state, const void *ra, const void *obj, uint32_t wait)
{
	uint32_t id;
	Dl_info di;

	if (!lc_pt_on || guard || lc_pt_from_runtime(ra))
		return 0;
	guard = 1;
	id = lc_sync_id((uint64_t)(uintptr_t)obj);
	if (id && !(__atomic_load_n(&named, __ATOMIC_RELAXED) & (1ull << (id - 1)))) {
		__atomic_fetch_or(&named, 1ull << (id - 1), __ATOMIC_RELAXED);
		if (dladdr(obj, &di) && di.dli_sname && di.dli_saddr == obj)
			lc_sync_name((uint64_t)(uintptr_t)obj, di.dli_sname);
	}
	lc_auto_place_push(lc_auto_site_word(LC_PLACE_SYNC, wait, ra));
	lc_auto_enter_on(state, id);
	guard = 0;
	return 1;
}

void lc_pt_leave(int entered)
{
	if (!entered)
		return;
	guard = 1;
	lc_auto_leave();
	lc_auto_place_pop();
	guard = 0;
}

/* Set the calling thread's base state, guarded. */
static void base_state(uint32_t state)
{
	guard = 1;
	lc_auto_set(state);
	guard = 0;
}

/* Count d (+1 or -1) threads: work exists from the second thread alive on,
 * and no longer once only one is left.  The count and the flag change
 * together under alive_lock, so the flag follows the count's order. */
static void alive_add(int d)
{
	LC_PT_REAL(pthread_mutex_lock)(&alive_lock);
	alive += d;
	guard = 1;
	if ((d > 0 && alive == 2) || (d < 0 && alive == 1))
		lc_auto_parallel(d);
	guard = 0;
	pthread_mutex_unlock(&alive_lock);
}

/* Cleanup of a created thread (return, pthread_exit or cancellation). */
static void thread_gone(void *unused)
{
	(void)unused;
	alive_add(-1);
}

/* Start of every thread created through the layer: BUSY, then the
 * program's start routine. */
static void *trampoline(void *p)
{
	struct start s = *(struct start *)p;
	void *ret;

	free(p);
	base_state(LC_ST_BUSY);
	pthread_cleanup_push(thread_gone, NULL);
	ret = s.fn(s.arg);
	pthread_cleanup_pop(1);
	return ret;
}

/* A new thread: counted, and started through the trampoline (BUSY).
 * Threads the OpenMP runtime creates are left to the OpenMP tool. */
LC_PT_API int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
			     void *(*fn)(void *), void *arg)
{
	struct start *s;
	int r;

	if (!lc_pt_on || lc_pt_from_runtime(LC_PT_CALLER()))
		return LC_PT_REAL(pthread_create)(thread, attr, fn, arg);
	s = malloc(sizeof(*s));
	if (!s)
		return EAGAIN;
	s->fn = fn;
	s->arg = arg;
	alive_add(1);
	r = LC_PT_REAL(pthread_create)(thread, attr, trampoline, s);
	if (r) {
		free(s);
		alive_add(-1);
	}
	return r;
}

/* Waiting for a thread to finish: IDLE. */
LC_PT_API int pthread_join(pthread_t thread, void **ret)
{
	int e = lc_pt_enter(LC_ST_IDLE, LC_PT_CALLER(), LC_WAIT_JOIN);
	int r = LC_PT_REAL(pthread_join)(thread, ret);

	lc_pt_leave(e);
	return r;
}

/* The same with a CLOCK_REALTIME timeout. */
LC_PT_API int pthread_timedjoin_np(pthread_t thread, void **ret, const struct timespec *abstime)
{
	int e = lc_pt_enter(LC_ST_IDLE, LC_PT_CALLER(), LC_WAIT_JOIN);
	int r = LC_PT_REAL(pthread_timedjoin_np)(thread, ret, abstime);

	lc_pt_leave(e);
	return r;
}

/* The same with a timeout on clock clock. */
LC_PT_API int pthread_clockjoin_np(pthread_t thread, void **ret, clockid_t clock,
				   const struct timespec *abstime)
{
	int e = lc_pt_enter(LC_ST_IDLE, LC_PT_CALLER(), LC_WAIT_JOIN);
	int r = LC_PT_REAL(pthread_clockjoin_np)(thread, ret, clock, abstime);

	lc_pt_leave(e);
	return r;
}

/* The main thread may end with pthread_exit while others go on: it no
 * longer counts (created threads are counted out by their cleanup). */
LC_PT_API void pthread_exit(void *ret)
{
	if (lc_pt_on && gettid() == getpid())
		alive_add(-1);
	LC_PT_REAL(pthread_exit)(ret);
	abort();	/* not reached: pthread_exit does not return */
}

/* fork child: only the forking thread lives on; the child's segment
 * started with the parent's work_exists, so take the layer's share back. */
static void atfork_child(void)
{
	int was = alive;

	alive = 1;
	if (was > 1) {
		guard = 1;
		lc_auto_parallel(-1);
		guard = 0;
	}
}

/* Whether the process is a threaded program: a loaded object calls a
 * function the layer wraps (shells, env and launchers call none). */
static int threaded_program(void)
{
	static const char *const names[] = {
		"pthread_create", "pthread_join", "pthread_mutex_lock", "pthread_cond_wait",
		"pthread_cond_timedwait", "pthread_barrier_wait", "pthread_rwlock_rdlock",
		"pthread_rwlock_wrlock", "pthread_spin_lock", "sem_wait",
	};

	return lc_auto_program_calls(names, (int)(sizeof(names) / sizeof(names[0])));
}

/* Load time: find libc's functions, and with a session active, mark the
 * main thread of a threaded program BUSY from its start (a shell that
 * starts or execs the program is left alone: it would be a thread
 * computing while it waits). */
__attribute__((constructor)) static void pt_init(void)
{
	lc_pt_resolve();
	if (!lc_auto_active())
		return;
	lc_pt_find_runtime();
	pthread_atfork(NULL, NULL, atfork_child);
	lc_pt_on = 1;
	if (threaded_program())
		base_state(LC_ST_BUSY);
}
