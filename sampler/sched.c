/*
 * sched.c — run-queue time of the target threads (see lc_sched.h).
 */
#include "lc_sched.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lc_util.h"

#define RING_PAGES 8u	/* data pages of each thread's switch-record ring */

/* One watched thread.  Everything is the sampling thread's. */
struct sthr {
	int used;
	pid_t pid, tid;
	int fd;			/* perf event or schedstat file, -1 none */
	uint8_t *ring;		/* switch records: the mmap'd ring */
	size_t ring_len;
	uint64_t since;		/* preempted since (monotonic ns), 0: not */
	uint64_t wait_seen;	/* schedstat: run delay when last read */
	uint64_t credit;	/* schedstat: run delay not yet charged */
};

struct lc_sched {
	enum lc_sched_source src;
	struct sthr *thr;	/* indexed by profile thread */
	size_t cap;
	uint32_t *active;	/* indices of watched threads */
	size_t nactive, active_cap;
	uint64_t failures;
	long page;
};

/* Open a context-switch record event on tid: fd, or -errno. */
static int open_switch(pid_t tid)
{
	struct perf_event_attr a;
	long fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.sample_id_all = 1;
	a.context_switch = 1;
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &a, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

/* Can switch records be opened on a thread of ours?  0 or -errno. */
static int probe_switch(long page)
{
	int fd = open_switch(0);
	void *m;

	if (fd < 0)
		return fd;
	m = mmap(NULL, (size_t)page * (1 + RING_PAGES), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return -errno;
	munmap(m, (size_t)page * (1 + RING_PAGES));
	return 0;
}

/* Open /proc/PID/task/TID/schedstat: fd or -errno. */
static int open_schedstat(pid_t pid, pid_t tid)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", (int)pid, (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* The run delay of the thread behind fd, or UINT64_MAX. */
static uint64_t read_run_delay(int fd)
{
	char buf[128];
	unsigned long long run, wait;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return UINT64_MAX;
	buf[n] = 0;
	if (sscanf(buf, "%llu %llu", &run, &wait) != 2)
		return UINT64_MAX;
	return wait;
}

struct lc_sched *lc_sched_new(enum lc_sched_source want, char *why, size_t len)
{
	struct lc_sched *s = calloc(1, sizeof(*s));
	int e, fd;

	if (!s)
		return NULL;
	s->page = sysconf(_SC_PAGESIZE);
	if (s->page <= 0)
		s->page = 4096;
	if (why && len)
		why[0] = 0;
	if (want == LC_SCHED_SWITCH) {
		e = probe_switch(s->page);
		if (!e) {
			s->src = LC_SCHED_SWITCH;
			return s;
		}
		want = LC_SCHED_SCHEDSTAT;
	}
	if (want == LC_SCHED_SCHEDSTAT) {
		fd = open_schedstat(getpid(), (pid_t)syscall(SYS_gettid));
		if (fd >= 0 && read_run_delay(fd) != UINT64_MAX) {
			close(fd);
			s->src = LC_SCHED_SCHEDSTAT;
			return s;
		}
		if (fd >= 0)
			close(fd);
		lc_fail(why, len, -ENOENT,
			"not measured: neither perf context-switch records nor /proc/PID/task/TID/schedstat "
			"can be read here (kernel built without CONFIG_SCHEDSTATS or CONFIG_PERF_EVENTS?)");
		return s;
	}
	lc_fail(why, len, 0, "not measured: run-queue data was not asked for (record --sched=none)");
	return s;
}

enum lc_sched_source lc_sched_source(const struct lc_sched *s)
{
	return s->src;
}

/* Start watching thread t; 0 or -errno. */
static int watch(struct lc_sched *s, struct sthr *t)
{
	t->fd = -1;
	if (s->src == LC_SCHED_SWITCH) {
		int fd = open_switch(t->tid);

		if (fd < 0)
			return fd;
		t->ring_len = (size_t)s->page * (1 + RING_PAGES);
		t->ring = mmap(NULL, t->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (t->ring == MAP_FAILED) {
			t->ring = NULL;
			close(fd);
			return -errno;
		}
		t->fd = fd;
		return 0;
	}
	if (s->src == LC_SCHED_SCHEDSTAT) {
		t->fd = open_schedstat(t->pid, t->tid);
		if (t->fd < 0)
			return t->fd;
		t->wait_seen = read_run_delay(t->fd);
		return 0;
	}
	return -ENOENT;
}

static void unwatch(struct sthr *t)
{
	if (t->ring)
		munmap(t->ring, t->ring_len);
	if (t->fd >= 0)
		close(t->fd);
	*t = (struct sthr){ .fd = -1 };
}

/* Copy n bytes of the ring's data area from offset off (wrapping). */
static void ring_copy(const uint8_t *data, uint64_t size, uint64_t off, void *dst, size_t n)
{
	uint64_t o = off % size;
	size_t first = (size_t)(size - o) < n ? (size_t)(size - o) : n;

	memcpy(dst, data + o, first);
	memcpy((uint8_t *)dst + first, data, n - first);
}

/* Add the part of [a, b) inside [last, now) to *acc. */
static void overlap(uint64_t *acc, uint64_t a, uint64_t b, uint64_t last, uint64_t now)
{
	if (a < last)
		a = last;
	if (b > now)
		b = now;
	if (b > a)
		*acc += b - a;
}

/* Run-queue time of t in [last, now) from its switch records. */
static uint64_t switch_runq(struct sthr *t, uint64_t last, uint64_t now)
{
	struct perf_event_mmap_page *pg = (struct perf_event_mmap_page *)t->ring;
	uint8_t *data = t->ring + (pg->data_offset ? pg->data_offset : (uint64_t)t->ring_len / (1 + RING_PAGES));
	uint64_t size = pg->data_size ? pg->data_size : t->ring_len - (t->ring_len / (1 + RING_PAGES));
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE), tail = pg->data_tail;
	uint64_t acc = 0;

	while (tail + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header h;
		struct { uint32_t pid, tid; uint64_t time; } id;

		ring_copy(data, size, tail, &h, sizeof(h));
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		if (h.type == PERF_RECORD_SWITCH && h.size >= sizeof(h) + sizeof(id)) {
			ring_copy(data, size, tail + sizeof(h), &id, sizeof(id));
			if (id.time >= now)
				break;	/* the next tick's */
			if (h.misc & PERF_RECORD_MISC_SWITCH_OUT) {
				if (t->since)
					overlap(&acc, t->since, id.time, last, now);
				t->since = (h.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? id.time : 0;
			} else if (t->since) {
				overlap(&acc, t->since, id.time, last, now);
				t->since = 0;
			}
		}
		tail += h.size;
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
	if (t->since)
		overlap(&acc, t->since, now, last, now);
	return acc;
}

/* Run-queue time of t for an interval of now - last from schedstat: the
 * delay the kernel added since the last read, charged up to the interval. */
static uint64_t schedstat_runq(struct sthr *t, uint64_t last, uint64_t now)
{
	uint64_t w = read_run_delay(t->fd), take;

	if (w != UINT64_MAX && w >= t->wait_seen) {
		t->credit += w - t->wait_seen;
		t->wait_seen = w;
	}
	take = t->credit < now - last ? t->credit : now - last;
	t->credit -= take;
	return take;
}

/* The record of thread, grown as needed; NULL on ENOMEM. */
static struct sthr *slot_of(struct lc_sched *s, uint32_t thread)
{
	if (thread >= s->cap) {
		size_t old = s->cap;

		if (lc_grow((void **)&s->thr, &s->cap, (size_t)thread + 1, sizeof(*s->thr)))
			return NULL;
		for (size_t i = old; i < s->cap; i++)
			s->thr[i] = (struct sthr){ .fd = -1 };
	}
	return &s->thr[thread];
}

uint64_t lc_sched_runq(struct lc_sched *s, uint32_t thread, pid_t pid, pid_t tid,
		       uint64_t last, uint64_t now)
{
	struct sthr *t;

	if (s->src == LC_SCHED_NONE || !(t = slot_of(s, thread)))
		return 0;
	if (t->used && t->tid != tid)
		unwatch(t);
	if (!t->used) {
		if (lc_grow((void **)&s->active, &s->active_cap, s->nactive + 1, sizeof(uint32_t)))
			return 0;
		t->used = 1;
		t->pid = pid;
		t->tid = tid;
		if (watch(s, t))
			s->failures++;
		s->active[s->nactive++] = thread;
		return 0;
	}
	if (t->fd < 0)
		return 0;
	if (s->src == LC_SCHED_SWITCH)
		return switch_runq(t, last, now);
	return schedstat_runq(t, last, now);
}

int lc_sched_watching(const struct lc_sched *s, uint32_t thread)
{
	return s->src == LC_SCHED_NONE || (thread < s->cap && s->thr[thread].used);
}

void lc_sched_prefetch(const struct lc_sched *s, uint32_t thread)
{
	const struct sthr *t;

	if (s->src != LC_SCHED_SWITCH || thread >= s->cap)
		return;
	t = &s->thr[thread];
	if (t->ring)
		__builtin_prefetch(&((const struct perf_event_mmap_page *)t->ring)->data_head);
}

void lc_sched_forget(struct lc_sched *s, uint32_t thread)
{
	size_t k = 0;

	if (thread >= s->cap || !s->thr[thread].used)
		return;
	unwatch(&s->thr[thread]);
	for (size_t i = 0; i < s->nactive; i++)
		if (s->active[i] != thread)
			s->active[k++] = s->active[i];
	s->nactive = k;
}

uint64_t lc_sched_failures(const struct lc_sched *s)
{
	return s->failures;
}

void lc_sched_free(struct lc_sched *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nactive; i++)
		unwatch(&s->thr[s->active[i]]);
	free(s->thr);
	free(s->active);
	free(s);
}
