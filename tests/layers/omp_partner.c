/*
 * omp_partner — an unmodified OpenMP program (no lostcycles macros) whose
 * threads compute on the CPU, for tests/t_partner.sh: on a machine shared
 * with CPU-bound processes, a thread that waits at a barrier waits for a
 * partner that may itself wait for a CPU.  Every region is a parallel loop
 * of one iteration per thread (schedule(static, 1)); iteration t computes
 * MS x (1 + SKEW x t) ms of CPU time (a calibrated amount of arithmetic,
 * so that the work does not change when the thread is preempted), then
 * waits at the region's implicit barrier.
 *
 *   omp_partner REGIONS MS SKEW          the regions above
 *   omp_partner REGIONS MS SKEW where    each round a balanced loop of
 *                                        short iterations (20 of MS/20 ms
 *                                        a thread, in balanced()) then a
 *                                        loop skewed by SKEW (in skewed())
 *
 * The probe: at its arrival each thread reads every thread's CPU clock
 * (pthread_getcpuclockid); after the region, the last to arrive is known,
 * and the load imbalance of the region is, summed over the others, the CPU
 * time the last one computed while each of them waited for it.  Waiting
 * while the last one waited for a CPU is not in it.  Prints, in seconds
 * summed over the threads:
 *   truth p=P li=LI li_skewed=LI li_balanced=LI cpu=CPU wall=MAIN_DURATION
 *   thread T cpu=ITS_CPU_TIME_IN_THE_WORK
 * (the master's with its serial parts: the calibration before the regions,
 * its probe's arithmetic after each).
 */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LW_NAME "omp_partner"
#include "layer_wl.h"

#define MAXT 16
#define SHORT 20		/* iterations a thread of the balanced loop */

static clockid_t clk[MAXT];
static double arrived[MAXT];		/* a region's arrivals (monotonic s) */
static double seen[MAXT][MAXT];		/* [t][k]: k's CPU clock at t's arrival */
static double cpu_of[MAXT];		/* each thread's CPU time in the work */
static double li_truth[2];		/* skewed, balanced loops */
static double per_ms;			/* iterations of step() per CPU ms */
static double judged;			/* the master's CPU time in judge() */

static volatile double sink;

/* A fixed amount of arithmetic. */
static double step(double x, long n)
{
	for (long i = 0; i < n; i++)
		x = x * 1.0000001 + 1e-9;
	return x;
}

/* Iterations of step() per ms of this thread's CPU time: the best of a few
 * tries (a try that was preempted sees fewer per CPU ms only when the
 * preemption costs cache, never more). */
static double calibrate(void)
{
	double best = 0;

	for (int k = 0; k < 5; k++) {
		double c0 = lw_clock(CLOCK_THREAD_CPUTIME_ID), c1;

		sink = step(sink, 2000000);
		c1 = lw_clock(CLOCK_THREAD_CPUTIME_ID);
		if (c1 > c0 && 2000000 / ((c1 - c0) * 1e3) > best)
			best = 2000000 / ((c1 - c0) * 1e3);
	}
	return best;
}

/* Compute ms of CPU time; the CPU time it took. */
static double compute(double ms)
{
	double c0 = lw_clock(CLOCK_THREAD_CPUTIME_ID);

	sink = step(sink, (long)(ms * per_ms));
	return lw_clock(CLOCK_THREAD_CPUTIME_ID) - c0;
}

/* Thread t's (last) part of a region: compute ms of CPU time, then note
 * its arrival and everyone's CPU clock. */
static void part(int t, int n, double ms)
{
	cpu_of[t] += compute(ms);
	arrived[t] = lw_secs();
	for (int k = 0; k < n; k++) {
		struct timespec ts;

		clock_gettime(clk[k], &ts);
		seen[t][k] = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	}
}

/* After a region of n threads: add the last arrival's computation while
 * the others waited for it. */
static void judge(int n, int which)
{
	double c0 = lw_clock(CLOCK_THREAD_CPUTIME_ID);
	int last = 0;

	for (int t = 1; t < n; t++)
		if (arrived[t] > arrived[last])
			last = t;
	for (int t = 0; t < n; t++)
		if (t != last && seen[last][last] > seen[t][last])
			li_truth[which] += seen[last][last] - seen[t][last];
	judged += lw_clock(CLOCK_THREAD_CPUTIME_ID) - c0;
}

/* A balanced loop of short iterations: SHORT per thread, ms / SHORT each,
 * schedule(static) (thread t has iterations t x SHORT ..). */
static void balanced(int n, double ms)
{
#pragma omp parallel for schedule(static) num_threads(n)
	for (int i = 0; i < n * SHORT; i++) {
		int t = omp_get_thread_num();

		if (i % SHORT == SHORT - 1)	/* its last: it arrives */
			part(t, n, ms / SHORT);
		else
			cpu_of[t] += compute(ms / SHORT);
	}
	judge(n, 1);
}

static void skewed(int n, double ms, double skew)
{
#pragma omp parallel for schedule(static, 1) num_threads(n)
	for (int t = 0; t < n; t++)
		part(t, n, ms * (1 + skew * t));
	judge(n, 0);
}

int main(int argc, char **argv)
{
	int regions = argc > 1 ? atoi(argv[1]) : 100, n = 1;
	double ms = argc > 2 ? atof(argv[2]) : 10, skew = argc > 3 ? atof(argv[3]) : 0;
	int where = argc > 4 && !strcmp(argv[4], "where");
	double t0 = lw_secs(), cpu = 0;

	if (regions <= 0 || ms <= 0 || skew < 0) {
		fprintf(stderr, "usage: omp_partner REGIONS MS SKEW [where]\n");
		return 2;
	}
	double s0 = lw_clock(CLOCK_THREAD_CPUTIME_ID), serial;

	per_ms = calibrate();
#pragma omp parallel
	{
		int t = omp_get_thread_num();

#pragma omp single
		n = omp_get_num_threads() < MAXT ? omp_get_num_threads() : MAXT;
		if (t < MAXT)
			pthread_getcpuclockid(pthread_self(), &clk[t]);
	}
	serial = lw_clock(CLOCK_THREAD_CPUTIME_ID) - s0;
	for (int r = 0; r < regions; r++) {
		if (where)
			balanced(n, ms);
		skewed(n, ms, skew);
	}
	cpu_of[0] += serial + judged;
	for (int t = 0; t < n; t++)
		cpu += cpu_of[t];
	printf("truth p=%d li=%.6f li_skewed=%.6f li_balanced=%.6f cpu=%.6f wall=%.6f\n", n,
	       li_truth[0] + li_truth[1], li_truth[0], li_truth[1], cpu, lw_secs() - t0);
	for (int t = 0; t < n; t++)
		printf("thread %d cpu=%.6f\n", t, cpu_of[t]);
	return 0;
}
