/*
 * memlat.c — ideal memory latencies for CL = misses x latency, and their
 * per-machine file (see lc_calib.h and docs/memory-latency.md).
 */
#include "lc_calib.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lc_abi.h"
#include "lc_util.h"

#define BATCHES 200
#define ROUNDS_PER_BATCH 1000

static volatile size_t sink_index;	/* keeps the chase from being optimised away */

/* A whole floating-point number: 0, or -1 when s is not one. */
static int parse_number(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return end == s || *end || errno ? -1 : 0;
}

/* One cache line bounced between two threads. */
struct pingpong {
	_Alignas(64) volatile uint64_t ball;
	int cpu;
	int err;
	char pad[64 - 2 * sizeof(int)];
};

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* The other side: waits for an odd value and answers with the next even. */
static void *pong(void *arg)
{
	struct pingpong *p = arg;
	uint64_t want = 1, end = 2ull * BATCHES * ROUNDS_PER_BATCH;

	p->err = pin(p->cpu);
	while (want < end) {
		while (__atomic_load_n(&p->ball, __ATOMIC_ACQUIRE) != want)
			;
		__atomic_store_n(&p->ball, want + 1, __ATOMIC_RELEASE);
		want += 2;
	}
	return NULL;
}

/* This side: serve every odd value, wait for the even answer; the best
 * one-way time of a batch, in ns. */
static double ping(struct pingpong *p)
{
	double best = INFINITY;
	uint64_t v = 0;

	for (int k = 0; k < BATCHES; k++) {
		uint64_t t0 = lc_clock_ns();

		for (int r = 0; r < ROUNDS_PER_BATCH; r++) {
			__atomic_store_n(&p->ball, ++v, __ATOMIC_RELEASE);
			++v;
			while (__atomic_load_n(&p->ball, __ATOMIC_ACQUIRE) != v)
				;
		}
		best = fmin(best, (double)(lc_clock_ns() - t0) / ROUNDS_PER_BATCH / 2);
	}
	return best;
}

/* Best one-way transfer time over the batches, in ns. */
static int transfer(int a, int b, double *ns, int *rounds)
{
	struct pingpong *p;
	pthread_t t;
	double best;
	int e;

	if (posix_memalign((void **)&p, 64, sizeof(*p)))
		return -ENOMEM;
	memset(p, 0, sizeof(*p));
	p->cpu = b;
	if (pin(a)) {
		free(p);
		return -EINVAL;
	}
	e = pthread_create(&t, NULL, pong, p);
	if (e) {
		free(p);
		return -e;
	}
	best = ping(p);
	pthread_join(t, NULL);
	e = p->err ? -EINVAL : 0;
	free(p);
	*ns = best;
	*rounds = BATCHES * ROUNDS_PER_BATCH;
	return e;
}

/* perm[0..n) = a fixed pseudo-random permutation of 0..n-1 (Fisher-Yates). */
static void shuffle(size_t *perm, size_t n)
{
	for (size_t k = 0; k < n; k++)
		perm[k] = k;
	srand48(12345);
	for (size_t k = n - 1; k > 0; k--) {
		size_t j = (size_t)(drand48() * (double)(k + 1)), x = perm[k];

		perm[k] = perm[j];
		perm[j] = x;
	}
}

/* Average dependent-load time through a random cycle over bytes, in ns. */
static int chase(uint64_t bytes, double *ns)
{
	size_t n = bytes / 64, *next;
	size_t *perm;
	uint64_t t0, steps = 2000000;
	size_t i = 0;

	if (n < 2)
		return -EINVAL;
	next = aligned_alloc(64, n * 64);
	perm = malloc(n * sizeof(*perm));
	if (!next || !perm) {
		free(next);
		free(perm);
		return -ENOMEM;
	}
	shuffle(perm, n);
	for (size_t k = 0; k < n; k++)	/* one pointer per cache line */
		next[perm[k] * 8] = perm[(k + 1) % n] * 8;
	for (uint64_t s = 0; s < n; s++)	/* warm the TLB and page tables */
		i = next[i];
	t0 = lc_clock_ns();
	for (uint64_t s = 0; s < steps; s++)
		i = next[i];
	*ns = (double)(lc_clock_ns() - t0) / (double)steps;
	sink_index = i;
	free(next);
	free(perm);
	return 0;
}

int lc_memlat_measure(int cpu_a, int cpu_b, uint64_t dram_bytes, struct lc_memlat *m)
{
	int e;

	*m = (struct lc_memlat){ .cpu_a = cpu_a, .cpu_b = cpu_b, .dram_bytes = dram_bytes };
	e = transfer(cpu_a, cpu_b, &m->transfer_ns, &m->rounds);
	if (e)
		return e;
	return chase(dram_bytes, &m->dram_ns);
}

int lc_memlat_default_path(char *buf, size_t len)
{
	return lc_config_path("memory", "LOSTCYCLES_MEMORY_FILE", buf, len);
}

/* The file's text of m (lc_replace_file's writer). */
static int write_memlat(FILE *f, void *arg)
{
	const struct lc_memlat *m = arg;
	char host[256] = "";

	gethostname(host, sizeof(host) - 1);
	fprintf(f, "# lostcycles memory latencies (lostcycles calibrate --memory)\n"
		   "format=1\nhost=%s\ncpu_a=%d\ncpu_b=%d\ntransfer_ns=%.2f\ndram_ns=%.2f\n"
		   "dram_bytes=%llu\n", host, m->cpu_a, m->cpu_b, m->transfer_ns, m->dram_ns,
		(unsigned long long)m->dram_bytes);
	return 0;
}

int lc_memlat_write(const char *path, const struct lc_memlat *m)
{
	return lc_replace_file(path, write_memlat, (void *)m);
}

/* Take value v of name into m (format and have as lc_memlat_read keeps
 * them); unknown names, later additions, are ignored. */
static void memlat_set(struct lc_memlat *m, const char *name, double v, int *format, int *have)
{
	if (!strcmp(name, "format"))
		*format = (int)v;
	else if (!strcmp(name, "cpu_a"))
		m->cpu_a = (int)v;
	else if (!strcmp(name, "cpu_b"))
		m->cpu_b = (int)v;
	else if (!strcmp(name, "transfer_ns"))
		m->transfer_ns = v, *have |= 1;
	else if (!strcmp(name, "dram_ns"))
		m->dram_ns = v, *have |= 2;
	else if (!strcmp(name, "dram_bytes"))
		m->dram_bytes = (uint64_t)v;
}

/* One line (newline removed) of the file at path:lineno into m; 0 or
 * -EINVAL with the reason. */
static int memlat_line(char *line, const char *path, int lineno, struct lc_memlat *m,
		       int *format, int *have, char *why, size_t len)
{
	char *eq = strchr(line, '='), *val;
	double v;

	if (!*line || *line == '#')
		return 0;
	if (!eq)
		return lc_fail(why, len, -EINVAL, "%s:%d: not name=value", path, lineno);
	*eq = 0;
	val = eq + 1;
	if (!strcmp(line, "host"))
		return 0;
	if (parse_number(val, &v))
		return lc_fail(why, len, -EINVAL, "%s:%d: %s: bad number '%s'", path, lineno, line,
			       val);
	memlat_set(m, line, v, format, have);
	return 0;
}

int lc_memlat_read(const char *path, struct lc_memlat *m, char *why, size_t len)
{
	char line[512];
	int lineno = 0, format = 0, have = 0, e = 0;
	FILE *f = fopen(path, "re");

	*m = (struct lc_memlat){ .cpu_a = -1, .cpu_b = -1, .transfer_ns = NAN, .dram_ns = NAN };
	if (!f)
		return lc_fail(why, len, -errno, "%s: %s", path, strerror(errno));
	while (!e && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		e = memlat_line(line, path, ++lineno, m, &format, &have, why, len);
	}
	fclose(f);
	if (e)
		return e;
	if (format != 1)
		return lc_fail(why, len, -EINVAL, "%s: format %d, this version reads 1", path, format);
	if (have != 3)
		return lc_fail(why, len, -EINVAL, "%s: transfer_ns or dram_ns missing", path);
	return 0;
}
