/*
 * keeper.c — the keeper of a busy-waiting SCHED_FIFO sampler's share of
 * the kernel's real-time budget.  See keeper.h.
 */
#include "keeper.h"

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lc_abi.h"
#include "lc_util.h"

/*
 * The kernel lets real-time threads run sched_rt_runtime_us of every
 * sched_rt_period_us on a CPU (950 ms of 1 s by default) and then stops them
 * until the period ends.  A sampler that busy-waits at SCHED_FIFO uses its
 * whole CPU, so it was stopped for 50 ms of every second: 2000 missed ticks
 * at 25 us, 5 % of them, in one gap.  Instead, of every RT_CYCLE_NS it spins
 * at SCHED_FIFO for the budget's share less 5 % (90 ms by default), then at
 * SCHED_OTHER for the rest: on a CPU of its own nothing else wants the CPU
 * then and no tick is lost; beside other threads it shares the CPU with
 * them for those 10 ms, which costs at most what the throttling did.  Any
 * stretch of the kernel's period holds whole cycles, so at most 90 % of
 * real-time running.
 *
 * A keeper thread at a higher real-time priority (it runs ~10 us a cycle)
 * switches the sampler's class, because at SCHED_OTHER the sampler itself
 * may not run again: another session's sampler spinning at SCHED_FIFO on
 * the same CPU keeps it off until throttled.  Such a peer is seen in the
 * sampler's switches in (schedstat's third field): alone, a SCHED_FIFO
 * spinner is never switched out, while its yield to a spinning peer
 * switches at every turn.  Beside a peer the sampler stays SCHED_FIFO for
 * the cycle and shares the CPU with it turn by turn, as before.
 */
#define RT_CYCLE_NS 100000000u
#define RT_PEER_SWITCHES 100u

/* The phases' lengths from the kernel's budget; 0 when there is no budget
 * to keep (unlimited) and the sampler stays SCHED_FIFO. */
static int rt_budget(struct lc_keeper *k)
{
	long long period = -1, runtime = -1, share;

	lc_read_num("/proc/sys/kernel/sched_rt_period_us", &period);
	lc_read_num("/proc/sys/kernel/sched_rt_runtime_us", &runtime);
	share = runtime - period / 20;
	if (period <= 0 || runtime < 0 || runtime >= period)
		return 0;
	k->fifo_ns = share > 0 ? (uint64_t)(RT_CYCLE_NS * (double)share / (double)period) : 0;
	k->other_ns = RT_CYCLE_NS - k->fifo_ns;
	return 1;
}

/* The times the sampling thread was switched in (schedstat's pcount), from
 * its open schedstat file; 0 when unreadable. */
static uint64_t switches_in(int fd)
{
	char buf[128];
	unsigned long long run, wait, n;
	ssize_t len = fd >= 0 ? pread(fd, buf, sizeof(buf) - 1, 0) : -1;

	if (len <= 0)
		return 0;
	buf[len] = 0;
	return sscanf(buf, "%llu %llu %llu", &run, &wait, &n) == 3 ? n : 0;
}

/* Wait until the monotonic time t; whether the sampler is stopping. */
static int keeper_wait(struct lc_keeper *k, uint64_t t)
{
	struct timespec ts = { (time_t)(t / 1000000000u), (long)(t % 1000000000u) };
	int stop;

	pthread_mutex_lock(&k->lock);
	while (!k->stop && lc_clock_ns() < t)
		pthread_cond_timedwait(&k->cond, &k->lock, &ts);
	stop = k->stop;
	pthread_mutex_unlock(&k->lock);
	return stop;
}

/* Put the sampling thread in SCHED_FIFO (fifo) or SCHED_OTHER. */
static void sampler_class(struct lc_keeper *k, int fifo)
{
	struct sched_param sp = { .sched_priority = fifo };

	if (!fifo)
		__atomic_store_n(&k->rt_now, 0, __ATOMIC_RELAXED);
	if (!pthread_setschedparam(k->sampler, fifo ? SCHED_FIFO : SCHED_OTHER, &sp) && fifo)
		__atomic_store_n(&k->rt_now, 1, __ATOMIC_RELAXED);
}

/* The keeper of the real-time budget (see above). */
static void *keeper(void *arg)
{
	struct lc_keeper *k = arg;
	struct sched_param sp = { .sched_priority = 2 };
	char path[64];
	uint64_t t = lc_clock_ns(), seen;
	cpu_set_t set;
	int fd;

	/* wherever the process may run, not only on the sampler's CPU: it
	 * must run there even when it did not get its real-time priority */
	if (!sched_getaffinity(getpid(), sizeof(set), &set))
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	prctl(PR_SET_NAME, "lc-keeper", 0, 0, 0);
	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", (int)k->tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	seen = switches_in(fd);
	for (;;) {
		uint64_t now_seen;

		t += k->fifo_ns;
		if (keeper_wait(k, t))
			break;
		now_seen = switches_in(fd);
		if (now_seen - seen > RT_PEER_SWITCHES) {	/* a peer: stay */
			seen = now_seen;
			t += k->other_ns;
			continue;
		}
		sampler_class(k, 0);
		t += k->other_ns;
		if (keeper_wait(k, t))
			break;
		sampler_class(k, 1);
		seen = switches_in(fd);
	}
	if (!__atomic_load_n(&k->rt_now, __ATOMIC_RELAXED))
		sampler_class(k, 1);
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* The keeper's lock and condition gone (it never started, or has left). */
static void keeper_destroy(struct lc_keeper *k)
{
	pthread_mutex_destroy(&k->lock);
	pthread_cond_destroy(&k->cond);
	k->have = 0;
}

void lc_keeper_start(struct lc_keeper *k)
{
	pthread_condattr_t ca;

	if (!rt_budget(k))
		return;
	k->sampler = pthread_self();
	k->tid = (pid_t)syscall(SYS_gettid);
	pthread_mutex_init(&k->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&k->cond, &ca);
	pthread_condattr_destroy(&ca);
	k->have = !lc_thread_start(&k->thread, keeper, k);
	if (!k->have)
		keeper_destroy(k);
}

void lc_keeper_stop(struct lc_keeper *k)
{
	if (!k->have)
		return;
	pthread_mutex_lock(&k->lock);
	k->stop = 1;
	pthread_cond_broadcast(&k->cond);
	pthread_mutex_unlock(&k->lock);
	pthread_join(k->thread, NULL);
	keeper_destroy(k);
}
