/*
 * keeper.h — the keeper of the real-time budget: a sampler that
 * busy-waits at SCHED_FIFO would be throttled by the kernel for the rest of
 * every real-time period (sched_rt_runtime_us), missing ticks in one gap;
 * a keeper thread at a higher priority switches it to SCHED_OTHER for that
 * share of each 100 ms cycle instead, unless another spinning sampler
 * shares its CPU (keeper.c says how that is seen).
 *
 * Threads: the sampling thread sets rt_now, starts and stops the keeper
 * and reads rt_now (relaxed, lc_keeper_fifo_now) while it spins; the keeper
 * thread writes rt_now (relaxed: 1 while the sampler is SCHED_FIFO) and
 * reads stop under lock; the rest is written before the keeper starts.
 */
#ifndef LC_KEEPER_H
#define LC_KEEPER_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

struct lc_keeper {
	pthread_t sampler;		/* the sampling thread */
	pid_t tid;			/* its kernel id (its schedstat) */
	pthread_t thread;		/* the keeper */
	uint64_t fifo_ns, other_ns;	/* the phases of a cycle */
	int have;			/* the keeper runs */
	int stop;			/* under lock: the keeper leaves */
	int rt_now;			/* the sampler is SCHED_FIFO now */
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* on CLOCK_MONOTONIC */
};

/* On the sampling thread, when it busy-waits at SCHED_FIFO (rt_now set
 * to 1 by the caller): start the keeper when the kernel keeps a real-time
 * budget; else nothing to keep (the sampler stays SCHED_FIFO). */
void lc_keeper_start(struct lc_keeper *k);

/* On the sampling thread: stop the keeper (if it runs) and join it; the
 * sampler is SCHED_FIFO again after it. */
void lc_keeper_stop(struct lc_keeper *k);

/* Whether the sampler is SCHED_FIFO now (it then yields as it spins). */
static inline int lc_keeper_fifo_now(const struct lc_keeper *k)
{
	return __atomic_load_n(&k->rt_now, __ATOMIC_RELAXED);
}

#endif /* LC_KEEPER_H */
