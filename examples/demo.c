/*
 * demo.c — a small pthreads program instrumented with the lostcycles flags.
 *
 * It runs a team of threads (4 by default) through five phases, each of
 * which loses processor time in a different way, and marks each phase with a
 * fragment tag so that "lostcycles report -t TAG" can show it alone:
 *
 *   tag 1  serial set-up        only the master works          -> IP
 *   tag 2  skewed parallel loop the last block costs the most  -> LI
 *   tag 3  shared histogram     a contended mutex              -> SL
 *   tag 4  transfer             results sent over a slow link  -> CL
 *   tag 5  speculative search   fruitless subtrees are wasted  -> WC
 *                               and the search brakes slowly   -> BL
 *
 * The rest of the busy time is pure computation (PC, the "remaining time").
 *
 * Build:   cc -O2 -pthread demo.c -llostcycles
 * Profile: lostcycles record -- ./demo && lostcycles report
 *
 * "Computation" here is compute(), which does arithmetic for a given wall
 * time: the demo then takes about the same time (0.8 s with the
 * defaults) on any machine.  In a real program the flags go around real
 * work in the same places.  Without a profiling session the flags cost a
 * store each and the program runs normally.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lostcycles.h>

#define EXAMPLE_NAME "demo"
#include "example_clock.h"

#define MAX_THREADS 64
#define LOOP_ITERS 48		/* iterations of the skewed loop */
#define LOCK_ROUNDS 12		/* histogram updates per thread */
#define PACKETS 16		/* packets each thread sends */
#define PACKET_BYTES (64 * 1024)
#define STAGES 5		/* stages of the speculative search */

/* Times in microseconds at the default size (-n 50); scaled by -n. */
#define SERIAL_US 150000	/* serial set-up */
#define ITER_US 500		/* iteration i of the loop costs (i + 1) x this */
#define PRIVATE_US 2000		/* work outside the lock per round */
#define LOCKED_US 3000		/* work holding the lock per round */
#define PACKET_US 2500		/* time on the link per packet */
#define SUBTREE_US 10000	/* a subtree costs 10, 22, 34, 46 or 58 ms... */
#define SUBTREE_STEP_US 12000
#define CHUNK_US 30000		/* ...searched in chunks; between two chunks a
				 * searcher checks whether someone else won */

static unsigned nthreads = 4;	/* -p */
static unsigned size = 50;	/* -n: 50 = the default run of about 0.8 s */

static pthread_barrier_t barrier;
static pthread_mutex_t histo_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t histogram[16];
static unsigned char *link_buf;	/* the "remote" side of the transfer */
static int winner[STAGES];	/* thread that won each search stage, -1 none */
static __thread volatile double sink;	/* keeps compute() from being optimised out (per thread) */

/* Nanoseconds for us microseconds of the default size, scaled by -n. */
static uint64_t scaled(uint64_t us)
{
	return us * 1000u * size / 50u;
}

/* Do arithmetic for ns nanoseconds of wall time: the stand-in for real
 * computation. */
static void compute(uint64_t ns)
{
	uint64_t end = now_ns() + ns;
	double x = sink;

	while (now_ns() < end)
		for (int i = 0; i < 200; i++)
			x = x * 0.999999 + 1.0;
	sink = x;
}

/* Wait until every thread of the team arrives. */
static void wait_all(void)
{
	int e = pthread_barrier_wait(&barrier);

	if (e && e != PTHREAD_BARRIER_SERIAL_THREAD)
		die("pthread_barrier_wait", e);
}

/* Tag 1: the master sets up; the others have nothing to do yet.  No
 * parallel region is open, so their idle time is insufficient parallelism. */
static void serial_setup(unsigned me)
{
	if (me == 0) {
		LC_BUSY();
		compute(scaled(SERIAL_US));
	}
}

/* Tag 2: a loop whose iteration i costs (i + 1) units, split into equal
 * blocks of iterations.  The thread with the last block works longest; the
 * others wait for it idle while parallel work exists: load imbalance. */
static void skewed_loop(unsigned me)
{
	unsigned lo = me * LOOP_ITERS / nthreads;
	unsigned hi = (me + 1) * LOOP_ITERS / nthreads;

	LC_BUSY();
	for (unsigned i = lo; i < hi; i++)
		compute((i + 1) * scaled(ITER_US));
}

/* Tag 3: each thread computes privately, then adds into a shared histogram
 * under one mutex.  The time spent waiting for the mutex, and only that, is
 * flagged SYNC: synchronization loss. */
static void shared_histogram(unsigned me)
{
	int e;

	for (unsigned r = 0; r < LOCK_ROUNDS; r++) {
		LC_BUSY();
		compute(scaled(PRIVATE_US));
		LC_SYNC_BEGIN();
		if ((e = pthread_mutex_lock(&histo_lock)))
			die("pthread_mutex_lock", e);
		LC_SYNC_END();
		histogram[(me + r) % 16]++;
		compute(scaled(LOCKED_US));
		if ((e = pthread_mutex_unlock(&histo_lock)))
			die("pthread_mutex_unlock", e);
	}
}

/* Tag 4: each thread sends its results in packets over a slow link (a copy
 * plus the link's delay).  Time inside the transfer is flagged COMM:
 * communication loss. */
static void transfer(unsigned me)
{
	static unsigned char packet[MAX_THREADS][PACKET_BYTES];

	LC_BUSY();
	memset(packet[me], (int)me, PACKET_BYTES);	/* produce the results */
	LC_COMM_BEGIN();
	for (unsigned k = 0; k < PACKETS; k++) {
		uint64_t arrived = now_ns() + scaled(PACKET_US);

		memcpy(link_buf + (size_t)me * PACKET_BYTES, packet[me], PACKET_BYTES);
		sleep_until(arrived);
	}
	LC_COMM_END();
}

/* What searching subtree `me` of stage s costs: a different amount for each
 * thread (10, 22, 34, 46 or 58 units), changing from stage to stage. */
static uint64_t subtree_cost(unsigned s, unsigned me)
{
	return scaled(SUBTREE_US + (uint64_t)((s + me * 3) % 5) * SUBTREE_STEP_US);
}

/* Tag 5: tree parallelism.  In each stage every thread searches its own
 * subtree as one task; the first to finish has the stage's answer, the
 * others learn it only between two chunks of their search, and declare their
 * task wasted: its busy time becomes wasted computation.  Finishing the last
 * stage finds the solution; the other threads go on until the end of their
 * chunk, which is braking loss. */
static void speculative_search(unsigned me)
{
	for (unsigned s = 0; s < STAGES; s++) {
		uint64_t id = 1 + (uint64_t)s * nthreads + me;	/* nonzero, unique */
		uint64_t left = subtree_cost(s, me);
		int lost = 0;

		LC_BUSY();
		LC_TASK_BEGIN(id);
		while (left > 0 && !lost) {
			uint64_t chunk = left < scaled(CHUNK_US) ? left : scaled(CHUNK_US);

			compute(chunk);
			left -= chunk;
			lost = __atomic_load_n(&winner[s], __ATOMIC_ACQUIRE) >= 0;
		}
		if (!lost) {
			int none = -1;

			lost = !__atomic_compare_exchange_n(&winner[s], &none, (int)me, 0,
							    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
		}
		LC_TASK_END(id);
		if (lost)
			LC_TASK_WASTED(id);
		else if (s == STAGES - 1)
			LC_SOLUTION_FOUND();
		LC_IDLE();
		wait_all();	/* the next stage needs this stage's answer */
	}
}

/* The phases in order, with their fragment tags. */
static const struct phase {
	int tag;
	int parallel;		/* inside the parallel region */
	void (*run)(unsigned me);
} phases[] = {
	{ 1, 0, serial_setup },
	{ 2, 1, skewed_loop },
	{ 3, 1, shared_histogram },
	{ 4, 1, transfer },
	{ 5, 1, speculative_search },
};

#define NPHASES (sizeof(phases) / sizeof(phases[0]))

/* Run every phase as team member me.  Member 0 (the master) opens and
 * closes the fragment tags and the parallel region; the barriers keep all
 * members in the same phase.  A member with nothing left to do in a phase
 * is idle until the others finish it. */
static void run_team_member(unsigned me)
{
	for (size_t i = 0; i < NPHASES; i++) {
		const struct phase *ph = &phases[i];

		if (me == 0) {
			LC_FRAGMENT_BEGIN(ph->tag);
			if (ph->parallel && (i == 0 || !phases[i - 1].parallel))
				LC_PARALLEL_BEGIN();
		}
		wait_all();	/* start together, after the master */
		ph->run(me);
		LC_IDLE();
		wait_all();	/* the phase is over for everybody */
		if (me == 0) {
			if (ph->parallel && (i == NPHASES - 1 || !phases[i + 1].parallel))
				LC_PARALLEL_END();
			LC_FRAGMENT_END(ph->tag);
		}
	}
}

/* Thread entry: p is the member number. */
static void *team_thread(void *p)
{
	run_team_member((unsigned)(uintptr_t)p);
	return NULL;
}

/* Parse option text s as an unsigned number in [min, max] for option opt,
 * or exit with a message. */
static unsigned parse_count(int opt, const char *s, unsigned long min, unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v < min || v > max) {
		fprintf(stderr, "demo: -%c %s: expected a whole number from %lu to %lu\n",
			opt, s, min, max);
		exit(2);
	}
	return (unsigned)v;
}

/* Print the usage text to f. */
static void usage(FILE *f)
{
	fprintf(f, "usage: demo [-p THREADS] [-n SIZE]\n"
		   "  -p THREADS  team size, 1 to %d (default 4)\n"
		   "  -n SIZE     problem size, 1 to 1000; 50 runs for about 0.8 s (default 50)\n",
		MAX_THREADS);
}

int main(int argc, char **argv)
{
	pthread_t th[MAX_THREADS];
	int opt, e;

	while ((opt = getopt(argc, argv, "p:n:h")) != -1) {
		switch (opt) {
		case 'p':
			nthreads = parse_count('p', optarg, 1, MAX_THREADS);
			break;
		case 'n':
			size = parse_count('n', optarg, 1, 1000);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	link_buf = calloc(nthreads, PACKET_BYTES);
	if (!link_buf)
		die("calloc", errno);
	for (unsigned s = 0; s < STAGES; s++)
		winner[s] = -1;
	if ((e = pthread_barrier_init(&barrier, NULL, nthreads)))
		die("pthread_barrier_init", e);

	LC_TEAM(nthreads);	/* the profile accounts nthreads processors */
	for (unsigned t = 1; t < nthreads; t++)
		if ((e = pthread_create(&th[t], NULL, team_thread, (void *)(uintptr_t)t)))
			die("pthread_create", e);
	run_team_member(0);	/* the main thread is the master, member 0 */
	for (unsigned t = 1; t < nthreads; t++)
		if ((e = pthread_join(th[t], NULL)))
			die("pthread_join", e);

	printf("demo: %u threads; the search's answer came from thread %d; "
	       "%u histogram updates\n", nthreads, winner[STAGES - 1],
	       nthreads * LOCK_ROUNDS);
	pthread_barrier_destroy(&barrier);
	free(link_buf);
	return 0;
}
