/*
 * scaling.c — a scaling testbed whose categories follow laws chosen in
 * advance, for p up to 64 on a machine with few CPUs.
 *
 * Its threads' work is time asleep while flagged: a thread that sleeps
 * while BUSY is charged computation (it holds its processor slot and is
 * not waiting for a CPU), so p threads behave as on a machine with p
 * processors whatever the machine has.  Every phase ends at an absolute
 * time, so a late wake-up moves time between two phases, never adds any.
 *
 * Each of R rounds, with the unit u (microseconds) and size n:
 *
 *   serial      thread 0 BUSY, the others IDLE outside the parallel
 *               region, s n u long                  ip = s n (p-1) u
 *   compute     c n u of work split over p threads; thread 0's share is
 *               larger by k (p-1)/p^2 u, the others wait IDLE in the
 *               parallel region for it             rt = (c + s) n u
 *                                                  li = k (p-1)/p u
 *   exchange    every thread COMM for x log2(p) u  cl = x p log2(p) u
 *   lock queue  every thread SYNC for q p u        sl = q p^2 u
 *
 * the totals being processor time summed over the p threads, per round
 * (s = 8, c = 128, k = 32000, x = 1000, q = 500: with n = 1000 and
 * u = 1 us a round at p = 1 takes 0.137 s, at p = 64 about 0.049 s).  Before
 * the first round every slot is idle for a fixed 10 ms (the threads'
 * start), which adds p * 10 ms (and what starting the process costs) to
 * ip: ip stays linear in p.
 *
 * Build:   make examples  (build/examples/scaling)
 * Run:     lostcycles record --procs P -- build/examples/scaling P [N [R [U]]]
 * Sweep:   lostcycles sweep -o runs -v p=1,2,4,8,16,32,64 -r 3 \
 *              -- build/examples/scaling {p} 1000 2 1
 *
 * docs/models.md ("The scaling testbed") fits it on p <= 8 and predicts
 * p = 16, 32 and 64 against recorded runs there.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lostcycles.h"

#define EXAMPLE_NAME "scaling"
#include "example_clock.h"

#define MAXP 64
#define START_NS 10000000ull	/* the threads' common start, after main's */

/* The laws' coefficients, per unit u of size n (see the comment above). */
static const double law_s = 8, law_c = 128;	/* times n */
static const double law_k = 32000, law_x = 1000, law_q = 500;

/* One round's phase ends, in ns from the round's start, for a team of p. */
struct plan {
	uint64_t serial, comp0, comp, exch, lock;
};

static struct plan plan_of(int p, double n, double u_ns)
{
	double lg = log2(p), q2 = (double)p * p;
	double s = law_s * n * u_ns;
	double w0 = (law_c * n / p + law_k * (p - 1) / q2) * u_ns;
	double wo = (law_c * n / p - law_k / q2) * u_ns;
	double x = law_x * lg * u_ns, l = law_q * p * u_ns;

	return (struct plan){ .serial = (uint64_t)s, .comp0 = (uint64_t)(s + w0),
			      .comp = (uint64_t)(s + wo), .exch = (uint64_t)(s + w0 + x),
			      .lock = (uint64_t)(s + w0 + x + l) };
}

struct member {
	pthread_t th;
	int me, rounds;
	uint64_t t0;
	struct plan pl;
};

/* One thread's rounds: every phase asleep under its flag until its end. */
static void *member_run(void *arg)
{
	const struct member *m = arg;
	const struct plan *pl = &m->pl;

	LC_IDLE();
	sleep_until(m->t0);
	for (int r = 0; r < m->rounds; r++) {
		uint64_t b = m->t0 + (uint64_t)r * pl->lock;

		if (m->me == 0) {
			LC_BUSY();
			sleep_until(b + pl->serial);
			LC_PARALLEL_BEGIN();
			sleep_until(b + pl->comp0);
		} else {
			sleep_until(b + pl->serial);
			LC_BUSY();
			sleep_until(b + pl->comp);
			LC_IDLE();
			sleep_until(b + pl->comp0);
		}
		LC_COMM_BEGIN();
		sleep_until(b + pl->exch);
		LC_COMM_END();
		LC_SYNC_BEGIN();
		sleep_until(b + pl->lock);
		LC_SYNC_END();
		LC_IDLE();
		if (m->me == 0)
			LC_PARALLEL_END();
	}
	return NULL;
}

/* Parse argv[i] as a number in [lo, hi], else the default d. */
static double arg_num(int argc, char **argv, int i, double d, double lo, double hi)
{
	char *end;
	double v;

	if (argc <= i)
		return d;
	errno = 0;
	v = strtod(argv[i], &end);
	if (errno || end == argv[i] || *end || !(v >= lo && v <= hi)) {
		fprintf(stderr, "scaling: %s: not a number in [%g, %g]\n", argv[i], lo, hi);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	static struct member mem[MAXP];
	int p, rounds, e;
	double pv, rv, n, u;
	uint64_t t0;

	if (argc < 2 || argc > 5) {
		fprintf(stderr, "usage: %s P [N [ROUNDS [UNIT_US]]]\n", argv[0]);
		return 2;
	}
	pv = arg_num(argc, argv, 1, 1, 1, MAXP);
	n = arg_num(argc, argv, 2, 1000, 1, 1e6);
	rv = arg_num(argc, argv, 3, 2, 1, 1000);
	u = arg_num(argc, argv, 4, 1, 0.01, 1000);
	if (pv != floor(pv) || rv != floor(rv)) {
		fprintf(stderr, "scaling: P and ROUNDS are whole numbers\n");
		return 2;
	}
	p = (int)pv;
	rounds = (int)rv;
	if (p > 1 && law_c * n / p <= law_k / ((double)p * p)) {
		fprintf(stderr, "scaling: N too small for P\n");
		return 2;
	}
	LC_TEAM(p);
	t0 = now_ns() + START_NS;
	for (int i = 0; i < p; i++)
		mem[i] = (struct member){ .me = i, .rounds = rounds, .t0 = t0,
					  .pl = plan_of(p, n, u * 1000) };
	for (int i = 1; i < p; i++)
		if ((e = pthread_create(&mem[i].th, NULL, member_run, &mem[i])))
			die("pthread_create", e);
	member_run(&mem[0]);
	for (int i = 1; i < p; i++)
		if ((e = pthread_join(mem[i].th, NULL)))
			die("pthread_join", e);
	return 0;
}
