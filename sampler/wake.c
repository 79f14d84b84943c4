/*
 * wake.c — wake-ups from the sched:sched_wakeup tracepoint (see wake.h).
 */
#include "wake.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lc_util.h"
#include "tidy.h"

#define WAKE_PAGES 16u		/* data pages of each CPU's ring */
#define TRACEFS "/sys/kernel/tracing"
#define EVENT_DIR "/events/sched/sched_wakeup/"

struct wring {
	int fd;
	uint8_t *map;
	size_t len;
};

struct lc_wake {
	struct wring *cpu;
	int ncpu;
	uint32_t pid_off;	/* offset of the woken pid in the raw data */
	uint64_t lost;
};

/* Read the small text file dir/name into buf[len]; 0 or -errno. */
static int read_text(const char *dir, const char *name, char *buf, size_t len)
{
	char path[256];

	snprintf(path, sizeof(path), "%s%s%s", dir, EVENT_DIR, name);
	return lc_read_text(path, buf, len);
}

/* The event's id and the offset of its "pid_t pid" field, from tracefs
 * under dir; 0 or -errno. */
static int read_event(const char *dir, uint64_t *id, uint32_t *pid_off)
{
	char buf[4096], *f;
	unsigned off;
	int e;

	if ((e = read_text(dir, "id", buf, sizeof(buf))))
		return e;
	*id = strtoull(buf, NULL, 10);
	if ((e = read_text(dir, "format", buf, sizeof(buf))))
		return e;
	f = strstr(buf, "pid_t pid;");
	if (!f || sscanf(f, "pid_t pid; offset:%u;", &off) != 1 || off > 256)
		return -EPROTO;
	*pid_off = off;
	return 0;
}

/* The tracepoint's id and pid offset: from a mounted tracefs (or the one
 * under debugfs), else by mounting tracefs for the time it takes to read
 * them.  0, or -errno with the reason in why. */
static int find_event(uint64_t *id, uint32_t *pid_off, char *why, size_t len)
{
	int e = read_event(TRACEFS, id, pid_off);

	if (!e)
		return 0;
	if (!read_event("/sys/kernel/debug/tracing", id, pid_off))
		return 0;
	if (e != -ENOENT)
		return lc_fail(why, len, e, "cannot read " TRACEFS EVENT_DIR ": %s", strerror(-e));
	if (mount("nodev", TRACEFS, "tracefs", 0, NULL))
		return lc_fail(why, len, -errno, "tracefs is not mounted and cannot be mounted at "
			       TRACEFS " (%s)", strerror(errno));
	e = read_event(TRACEFS, id, pid_off);
	umount2(TRACEFS, MNT_DETACH);
	if (e)
		return lc_fail(why, len, e, "no sched:sched_wakeup tracepoint in tracefs (%s)",
			       strerror(-e));
	return 0;
}

void lc_perf_mono_attr(struct perf_event_attr *a, uint32_t type, uint64_t config,
		       uint64_t sample_type)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = type;
	a->config = config;
	a->sample_type = sample_type;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
}

int lc_perf_open(struct perf_event_attr *a, pid_t tid, int cpu)
{
	long fd = syscall(SYS_perf_event_open, a, tid, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : (int)fd;
}

/* Open the tracepoint id on cpu into r; 0 or -errno. */
static int open_cpu(struct wring *r, uint64_t id, int cpu, long page)
{
	struct perf_event_attr a;
	int fd;

	lc_perf_mono_attr(&a, PERF_TYPE_TRACEPOINT, id, PERF_SAMPLE_TIME | PERF_SAMPLE_RAW);
	a.sample_period = 1;
	fd = lc_perf_open(&a, -1, cpu);
	if (fd < 0)
		return fd;
	r->len = (size_t)page * (1 + WAKE_PAGES);
	r->map = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (r->map == MAP_FAILED) {
		int e = -errno;

		r->map = NULL;
		close(fd);
		return e;
	}
	r->fd = fd;
	return 0;
}

/* Open the tracepoint id on every online CPU of w; 0, or -errno with the
 * reason in why. */
static int open_cpus(struct lc_wake *w, uint64_t id, long page, char *why, size_t len)
{
	int e;

	for (int c = 0; c < w->ncpu; c++)
		w->cpu[c].fd = -1;
	for (int c = 0; c < w->ncpu; c++) {
		e = open_cpu(&w->cpu[c], id, c, page);
		if (e == -ENODEV || e == -EINVAL)
			continue;	/* an offline CPU */
		if (e)
			return lc_fail(why, len, e, "perf_event_open of sched:sched_wakeup on CPU %d: %s%s",
				       c, strerror(-e), e == -EACCES || e == -EPERM ?
				       " (system-wide tracepoints need root or perf_event_paranoid = -1)" : "");
	}
	return 0;
}

struct lc_wake *lc_wake_open(char *why, size_t len)
{
	struct lc_wake *w = calloc(1, sizeof(*w));
	long page = sysconf(_SC_PAGESIZE), n = sysconf(_SC_NPROCESSORS_CONF);
	uint64_t id;
	int e;

	if (!w || (e = find_event(&id, &w->pid_off, why, len)))
		goto fail;
	if (page <= 0)
		page = 4096;
	w->ncpu = n > 0 ? (int)n : 1;
	w->cpu = calloc((size_t)w->ncpu, sizeof(*w->cpu));
	if (!w->cpu)
		goto fail;
	if (open_cpus(w, id, page, why, len))
		goto fail;
	return w;
fail:
	if (!w)
		lc_fail(why, len, -ENOMEM, "out of memory");
	lc_wake_close(w);
	return NULL;
}

/* A sample at offset off of a ring's data: the time and the raw
 * tracepoint record, whose pid field names the woken thread. */
static void on_sample(struct lc_wake *w, const uint8_t *data, uint64_t size, uint64_t off,
		      lc_wake_fn fn, void *arg)
{
	struct { uint64_t time; uint32_t raw; } s;
	int32_t pid;

	lc_ring_copy(data, size, off, &s, 12);
	if (s.raw < w->pid_off + 4)
		return;
	lc_ring_copy(data, size, off + 12 + w->pid_off, &pid, 4);
	fn(arg, (pid_t)pid, s.time);
}

/* A lost record at offset off of a ring's data: count what was lost. */
static void on_lost(struct lc_wake *w, const uint8_t *data, uint64_t size, uint64_t off)
{
	uint64_t lost[2];

	lc_ring_copy(data, size, off, lost, sizeof(lost));
	w->lost += lost[1];
}

/* Read the records of one CPU's ring. */
static void drain_ring(struct lc_wake *w, struct wring *r, lc_wake_fn fn, void *arg)
{
	struct perf_event_mmap_page *pg = (struct perf_event_mmap_page *)r->map;
	uint8_t *data = r->map + pg->data_offset;
	uint64_t size = pg->data_size;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE), tail = pg->data_tail;

	struct perf_event_header h;

	for (; tail + sizeof(h) <= head; tail += h.size) {
		lc_ring_copy(data, size, tail, &h, sizeof(h));
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		if (h.type == PERF_RECORD_SAMPLE && h.size >= sizeof(h) + 12 + w->pid_off + 4)
			on_sample(w, data, size, tail + sizeof(h), fn, arg);
		else if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16)
			on_lost(w, data, size, tail + sizeof(h));
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
}

void lc_wake_drain(struct lc_wake *w, lc_wake_fn fn, void *arg)
{
	for (int c = 0; c < w->ncpu; c++)
		if (w->cpu[c].map)
			drain_ring(w, &w->cpu[c], fn, arg);
}

uint64_t lc_wake_lost(const struct lc_wake *w)
{
	return w ? w->lost : 0;
}

void lc_wake_close(struct lc_wake *w)
{
	if (!w)
		return;
	for (int c = 0; w->cpu && c < w->ncpu; c++) {
		if (w->cpu[c].map)
			munmap(w->cpu[c].map, w->cpu[c].len);
		if (w->cpu[c].fd >= 0)
			close(w->cpu[c].fd);
	}
	LC_FREE_ALL(w->cpu, w);
}
