/*
 * bench_flags.c — what the flag macros cost the program, and what a sampler
 * tick costs the sampler, as ratios against baselines measured in the same
 * run (this machine's timing noise makes absolute numbers meaningless).
 *
 *   flag store:  LC_BUSY()/LC_IDLE() pairs vs. the same loop storing into a
 *                plain thread-local variable; without a session (private
 *                slot) and with one (shared-memory slot).
 *   sync pair:   LC_SYNC_BEGIN()/LC_SYNC_END() vs. the same baseline.
 *   tick:        lc_accum_charge of an observation of N threads vs. reading
 *                N slots' words (the sweep alone); and the sweep under the
 *                SIGBUS guard of sampler/guard.h (one target) vs. bare.
 *
 * Usage: bench_flags [ITERATIONS]; re-executes itself with a session set.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "attr.h"
#include "guard.h"
#include "lc_util.h"
#include "lc_abi.h"

static __thread volatile uint32_t plain;

/* Best of 5 of ns per iteration of fn over n iterations. */
static double best(void (*fn)(long), long n)
{
	double b = 1e30;

	for (int r = 0; r < 5; r++) {
		uint64_t t = lc_clock_ns();

		fn(n);
		t = lc_clock_ns() - t;
		if ((double)t / (double)n < b)
			b = (double)t / (double)n;
	}
	return b;
}

static void loop_plain(long n)
{
	for (long i = 0; i < n; i++) {
		plain = LC_ST_BUSY;
		__asm__ volatile("" ::: "memory");
		plain = LC_ST_IDLE;
		__asm__ volatile("" ::: "memory");
	}
}

static void loop_flags(long n)
{
	for (long i = 0; i < n; i++) {
		LC_BUSY();
		__asm__ volatile("" ::: "memory");
		LC_IDLE();
		__asm__ volatile("" ::: "memory");
	}
}

static void loop_sync(long n)
{
	for (long i = 0; i < n; i++) {
		LC_SYNC_BEGIN();
		__asm__ volatile("" ::: "memory");
		LC_SYNC_END();
		__asm__ volatile("" ::: "memory");
	}
}

/* One target's sweep of n slots under the guard of a tick; adds to *sink. */
static __attribute__((noinline)) void guarded_sweep(const struct lc_slot *slots, uint32_t n,
						    uint64_t *sink)
{
	static struct lc_guard g;

	if (sigsetjmp(g.env, 0))
		return;
	lc_guard_arm(&g, slots, n * sizeof(*slots));
	for (uint32_t i = 0; i < n; i++)
		*sink += __atomic_load_n(&slots[i].state, __ATOMIC_ACQUIRE) +
			 __atomic_load_n(&slots[i].tid, __ATOMIC_ACQUIRE);
	lc_guard_disarm();
}

/* The tick benchmark: charging N threads vs. reading N padded words. */
static void bench_tick(uint32_t nthreads, long n)
{
	struct lc_obs_thread *th = calloc(nthreads, sizeof(*th));
	struct lc_slot *slots = aligned_alloc(64, nthreads * sizeof(struct lc_slot));
	struct lc_obs_proc pr = { .uid = 1, .we = 1 };
	struct lc_accum *a = lc_accum_new(NULL, LC_SRC_SAMPLED, UINT64_MAX / 4, nthreads);
	uint64_t t, sweep_ns, charge_ns, guard_ns, sink = 0;

	if (!th || !slots || !a) {
		fprintf(stderr, "bench_flags: out of memory\n");
		exit(1);
	}
	memset(slots, 0, nthreads * sizeof(struct lc_slot));
	for (uint32_t i = 0; i < nthreads; i++)
		th[i] = (struct lc_obs_thread){ .thread = i, .state = 1 + i % 4 };
	struct lc_obs o = { 1, &pr, nthreads, th };

	t = lc_clock_ns();
	for (long k = 0; k < n; k++)
		for (uint32_t i = 0; i < nthreads; i++)
			sink += __atomic_load_n(&slots[i].state, __ATOMIC_ACQUIRE) +
				__atomic_load_n(&slots[i].tid, __ATOMIC_ACQUIRE);
	sweep_ns = lc_clock_ns() - t;
	t = lc_clock_ns();
	for (long k = 0; k < n; k++)
		lc_accum_charge(a, (uint64_t)k * 100000, 100000, &o);
	charge_ns = lc_clock_ns() - t;
	t = lc_clock_ns();
	for (long k = 0; k < n; k++)
		guarded_sweep(slots, nthreads, &sink);
	guard_ns = lc_clock_ns() - t;
	printf("tick %3u threads: sweep %7.1f ns, charge %7.1f ns per tick, ratio %.2f; "
	       "guarded sweep %7.1f ns (+%.1f ns)%s\n",
	       nthreads, (double)sweep_ns / (double)n, (double)charge_ns / (double)n,
	       (double)charge_ns / (double)(sweep_ns ? sweep_ns : 1), (double)guard_ns / (double)n,
	       ((double)guard_ns - (double)sweep_ns) / (double)n, sink == 1 ? " " : "");
	lc_accum_free(a);
	free(th);
	free(slots);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 20000000;
	const char *session = getenv("LOSTCYCLES_SESSION");
	double base, flags, sync;

	if (n <= 0)
		n = 20000000;
	lc_guard_init();
	base = best(loop_plain, n);
	flags = best(loop_flags, n);
	sync = best(loop_sync, n);
	printf("%-10s store pair: plain %.2f ns, LC_BUSY+LC_IDLE %.2f ns (ratio %.2f), "
	       "SYNC_BEGIN+END %.2f ns (ratio %.2f)\n", session ? "session" : "no session",
	       base, flags, flags / base, sync, sync / base);
	if (session) {
		fflush(stdout);
		return 0;
	}
	for (uint32_t k = 1; k <= 64; k *= 4)
		bench_tick(k, n / 200);
	fflush(stdout);
	/* the same stores into a shared-memory slot: run again in a session */
	setenv("LOSTCYCLES_SESSION", "bench", 1);
	execv("/proc/self/exe", argv);
	perror("bench_flags: exec");
	return 1;
}
