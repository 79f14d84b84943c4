/*
 * bench_flags.c — what attribution costs the sampler per tick:
 * lc_accum_charge of an observation of N threads against reading N slots'
 * words (the sweep alone), as a ratio measured in the same run; and the
 * sweep under the SIGBUS guard of sampler/guard.h against the bare sweep.  What the
 * flag macros cost the program is bench_annot.c's.
 *
 * Usage: bench_flags [ITERATIONS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "attr.h"
#include "lc_util.h"
#include "lc_abi.h"
#include "guard.h"

#include <setjmp.h>

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
	printf("tick %3u threads: sweep %7.1f ns, charge %7.1f ns per tick, ratio %.2f%s\n",
	       nthreads, (double)sweep_ns / (double)n, (double)charge_ns / (double)n,
	       (double)charge_ns / (double)(sweep_ns ? sweep_ns : 1), sink == 1 ? " " : "");
	t = lc_clock_ns();
	for (long k = 0; k < n; k++)
		guarded_sweep(slots, nthreads, &sink);
	guard_ns = lc_clock_ns() - t;
	printf("guard %3u threads: guarded sweep %7.1f ns per tick (+%.1f ns)%s\n", nthreads,
	       (double)guard_ns / (double)n, ((double)guard_ns - (double)sweep_ns) / (double)n,
	       sink == 1 ? " " : "");
	lc_accum_free(a);
	free(th);
	free(slots);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 20000000;

	if (n <= 0)
		n = 20000000;
	lc_guard_init();
	for (uint32_t k = 1; k <= 256; k *= 4)
		bench_tick(k, n / 200 / k);
	return 0;
}
