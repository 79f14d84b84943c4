/*
 * bench_latency.c — record's own start and end: how long "lostcycles
 * record -q -- PROGRAM" takes around a program that does nothing, against
 * the program run alone.
 *
 *   bench_latency RUNS                  the table row (docs/performance.md)
 *   bench_latency --child FD            (internal) write CLOCK_MONOTONIC at
 *                                       start and at exit to FD
 *
 * Each run spawns ./lostcycles record -q --no-counters -o FILE -- itself
 * --child: start is the time from the spawn to the child's first
 * instruction of main, end from the child's exit to record's, whole the
 * spawn to record's exit; alone is the child spawned without record.  The
 * figures are medians over RUNS.  Prints "row|7 latency|..." lines.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define GOAL_MS 30.0	/* record -- /bin/true, whole */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The child: its start and its end, on fd. */
static int child(int fd)
{
	uint64_t t[2] = { now_ns(), 0 };

	t[1] = now_ns();
	return write(fd, t, sizeof(t)) == (ssize_t)sizeof(t) ? 0 : 1;
}

/* One run (with record or alone): the child's start and end and record's
 * exit, ns after the spawn.  0, or -1 when it failed. */
static int one(const char *self, const char *out, int recorded, double ms[3])
{
	char fd_s[16];
	uint64_t t0, t1, t[2] = { 0, 0 };
	int p[2], st;
	pid_t pid;

	if (pipe(p))
		return -1;
	snprintf(fd_s, sizeof(fd_s), "%d", p[1]);
	t0 = now_ns();
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		if (!freopen("/dev/null", "w", stderr))	/* record's notes */
			_exit(127);
		if (recorded)
			execl("./lostcycles", "lostcycles", "record", "-q", "--no-counters", "-o", out,
			      "--force", "--", self, "--child", fd_s, (char *)NULL);
		else
			execl(self, self, "--child", fd_s, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) ||
	    read(p[0], t, sizeof(t)) != (ssize_t)sizeof(t)) {
		close(p[0]);
		return -1;
	}
	t1 = now_ns();
	close(p[0]);
	ms[0] = (double)(t[0] - t0) / 1e6;
	ms[1] = (double)(t1 - t[1]) / 1e6;
	ms[2] = (double)(t1 - t0) / 1e6;
	return 0;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), by_value);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	char out[64];
	int runs = argc > 1 ? atoi(argv[1]) : 0;
	double *v, ms[3], alone;

	if (argc == 3 && !strcmp(argv[1], "--child"))
		return child(atoi(argv[2]));
	if (runs < 1 || runs > 10000 || !(v = calloc((size_t)runs * 4, sizeof(*v)))) {
		fprintf(stderr, "usage: bench_latency RUNS (run from the top of the tree)\n");
		return 2;
	}
	snprintf(out, sizeof(out), "/tmp/lc-bench-latency.%d.data", (int)getpid());
	for (int i = 0; i < runs; i++) {
		if (one(argv[0], out, 1, ms)) {
			fprintf(stderr, "bench_latency: run %d failed\n", i);
			unlink(out);
			free(v);
			return 1;
		}
		v[i] = ms[0];
		v[runs + i] = ms[1];
		v[2 * runs + i] = ms[2];
	}
	for (int i = 0; i < runs; i++) {	/* alone: the whole run of each */
		if (one(argv[0], out, 0, ms)) {
			free(v);
			return 1;
		}
		v[3 * runs + i] = ms[2];
	}
	unlink(out);
	alone = median(v + 3 * runs, runs);
	printf("row|7 latency|record -q -- a program that does nothing: start (spawn to its main), "
	       "median of %d|%.1f ms|-|-|-\n", runs, median(v, runs));
	printf("row|7 latency|the same: end (its exit to record's)|%.1f ms|-|-|-\n",
	       median(v + runs, runs));
	printf("row|7 latency|the same: whole run (alone %.1f ms)|%.1f ms|%.1f x alone|<= %.0f ms|%s\n",
	       alone, median(v + 2 * runs, runs), median(v + 2 * runs, runs) / (alone > 0 ? alone : 1),
	       GOAL_MS, median(v + 2 * runs, runs) <= GOAL_MS ? "met" : "MISSED");
	free(v);
	return 0;
}
