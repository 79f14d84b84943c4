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

#include "fdroom.h"
#include "lc_util.h"
#include "wake.h"
#include "tidy.h"

#define RING_PAGES 8u	/* data pages of each thread's switch-record ring */

#define WAKE_Q 8u	/* wake-ups of a thread kept until its switch-in */

/* One watched thread.  Everything is the sampling thread's. */
struct sthr {
	int used;
	pid_t pid, tid;
	int fd;			/* perf event or schedstat file, -1 none */
	int ss_fd;		/* switch source with schedstat wake-ups: the
				 * thread's schedstat file, -1 none */
	uint8_t *ring;		/* switch records: the mmap'd ring */
	size_t ring_len;
	uint64_t since;		/* preempted since (monotonic ns), 0: not */
	uint64_t blocked;	/* switched out asleep since, 0: not */
	uint64_t on;		/* switched in since, 0: not running */
	uint64_t wake[WAKE_Q];	/* wake-ups not yet matched, ascending */
	uint32_t nwake;
	uint64_t last_now;	/* end of the last interval read */
	uint64_t wait_seen;	/* schedstat: run delay when last read */
	uint64_t run_seen;	/* schedstat: run time when last read */
	uint64_t credit;	/* schedstat: run delay not yet charged */
	uint64_t pre_done;	/* schedstat wake-ups: preempted waits ended
				 * since the run delay was last read */
	uint64_t blk_done;	/* ... and sleeps ended (asleep + woken) */
	uint64_t blk_in;	/* ... and the last such switch-in */
};

/* The kept run-queue spans of one thread. */
struct slog {
	struct lc_rq_span *v;
	size_t n, cap;
};

/* A watched thread by kernel id, for the wake-ups. */
struct tidmap {
	pid_t tid;
	uint32_t thread;
};

/* A sleeping thread that no wake-up has reached is not read (its ring is
 * a page of its own: a TLB miss per thread and tick, most of a tick's time
 * per thread) except at every SLEEPER_EVERY-th tick (staggered by thread),
 * in case its wake-up record was lost. */
#define SLEEPER_EVERY 8u

struct lc_sched {
	enum lc_sched_source src;
	enum lc_wake_source wsrc;
	char wake_why[200];
	struct lc_wake *wake;	/* the tracepoint's rings, NULL none */
	struct sthr *thr;	/* indexed by profile thread */
	size_t cap;
	uint32_t *active;	/* indices of watched threads */
	size_t nactive, active_cap;
	struct tidmap *tids;	/* watched threads by tid, ascending */
	size_t ntids, tids_cap;
	struct slog *logs;	/* kept spans by profile thread, NULL: none */
	size_t logs_cap;
	int keep;
	uint64_t ticks;		/* lc_sched_tick calls */
	uint64_t failures;
	long page;
};

/* Open a context-switch record event on tid: fd, or -errno. */
static int open_switch(pid_t tid)
{
	struct perf_event_attr a;

	lc_perf_mono_attr(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY,
			  PERF_SAMPLE_TID | PERF_SAMPLE_TIME);
	a.sample_id_all = 1;
	a.context_switch = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return lc_perf_open(&a, tid, -1);
}

/* Map the switch-record ring of fd: its address, or MAP_FAILED (errno). */
static void *map_ring(int fd, long page)
{
	return mmap(NULL, (size_t)page * (1 + RING_PAGES), PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    0);
}

/* Can switch records be opened on a thread of ours?  0 or -errno. */
static int probe_switch(long page)
{
	int fd = open_switch(0);
	void *m;

	if (fd < 0)
		return fd;
	m = map_ring(fd, page);
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

/* The run time and run delay of the thread behind fd; 0, or -1 when
 * unreadable. */
static int read_schedstat(int fd, uint64_t *run, uint64_t *wait)
{
	char buf[128];
	unsigned long long r, w;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return -1;
	buf[n] = 0;
	if (sscanf(buf, "%llu %llu", &r, &w) != 2)
		return -1;
	*run = r;
	*wait = w;
	return 0;
}

/* The run delay of the thread behind fd, or UINT64_MAX. */
static uint64_t read_run_delay(int fd)
{
	uint64_t r, w;

	return read_schedstat(fd, &r, &w) ? UINT64_MAX : w;
}

/* Whether thread tid of pid is runnable now (state R in its stat file);
 * -1 when unreadable. */
static int is_runnable(pid_t pid, pid_t tid)
{
	char path[64], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, (int)tid);
	if (lc_read_text(path, buf, sizeof(buf)))
		return -1;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] == 'R' : -1;
}

/* Choose where wake-ups come from under the switch source. */
static void choose_wake(struct lc_sched *s)
{
	s->wake = lc_wake_open(s->wake_why, sizeof(s->wake_why));
	if (s->wake) {
		s->wsrc = LC_WAKE_TRACEPOINT;
		return;
	}
	s->wsrc = LC_WAKE_SCHEDSTAT;
}

/* Can this thread's schedstat file be read?  1 or 0. */
static int probe_schedstat(void)
{
	int fd = open_schedstat(getpid(), (pid_t)syscall(SYS_gettid));
	uint64_t w = fd >= 0 ? read_run_delay(fd) : UINT64_MAX;

	if (fd >= 0)
		close(fd);
	return w != UINT64_MAX;
}

/* Use want, or schedstat when switch records cannot be opened; none, with
 * the reason in why, when neither can be read or none was asked for. */
static void choose_source(struct lc_sched *s, enum lc_sched_source want, char *why, size_t len)
{
	if (want != LC_SCHED_SWITCH && want != LC_SCHED_SCHEDSTAT)
		lc_fail(why, len, 0, "not measured: run-queue data was not asked for (record --sched=none)");
	else if (want == LC_SCHED_SWITCH && !probe_switch(s->page))
		s->src = LC_SCHED_SWITCH;
	else if (probe_schedstat())
		s->src = LC_SCHED_SCHEDSTAT;
	else
		lc_fail(why, len, -ENOENT,
			"not measured: neither perf context-switch records nor /proc/PID/task/TID/schedstat "
			"can be read here (kernel built without CONFIG_SCHEDSTATS or CONFIG_PERF_EVENTS?)");
	if (s->src == LC_SCHED_SWITCH)
		choose_wake(s);
}

struct lc_sched *lc_sched_new(enum lc_sched_source want, char *why, size_t len)
{
	struct lc_sched *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->page = sysconf(_SC_PAGESIZE) > 0 ? sysconf(_SC_PAGESIZE) : 4096;
	if (why && len)
		why[0] = 0;
	choose_source(s, want, why, len);
	return s;
}

enum lc_sched_source lc_sched_source(const struct lc_sched *s)
{
	return s->src;
}

enum lc_wake_source lc_sched_wake_source(const struct lc_sched *s, const char **why)
{
	if (why)
		*why = s->wsrc == LC_WAKE_SCHEDSTAT ? s->wake_why : "";
	return s->wsrc;
}

/* The index in s->tids of the first entry with tid >= tid. */
static size_t tid_pos(const struct lc_sched *s, pid_t tid)
{
	size_t lo = 0, hi = s->ntids;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->tids[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* List thread under tid for the wake-ups (a tid listed twice keeps the
 * newest thread). */
static void tid_add(struct lc_sched *s, pid_t tid, uint32_t thread)
{
	size_t i = tid_pos(s, tid);

	if (i < s->ntids && s->tids[i].tid == tid) {
		s->tids[i].thread = thread;
		return;
	}
	if (lc_grow((void **)&s->tids, &s->tids_cap, s->ntids + 1, sizeof(*s->tids)))
		return;
	memmove(&s->tids[i + 1], &s->tids[i], (s->ntids - i) * sizeof(*s->tids));
	s->tids[i] = (struct tidmap){ tid, thread };
	s->ntids++;
}

static void tid_del(struct lc_sched *s, pid_t tid, uint32_t thread)
{
	size_t i = tid_pos(s, tid);

	if (i >= s->ntids || s->tids[i].tid != tid || s->tids[i].thread != thread)
		return;
	memmove(&s->tids[i], &s->tids[i + 1], (s->ntids - i - 1) * sizeof(*s->tids));
	s->ntids--;
}

/* Open and map t's switch-record ring; 0 or -errno. */
static int open_ring(struct lc_sched *s, struct sthr *t)
{
	int fd = open_switch(t->tid);

	if (fd < 0)
		return fd;
	t->ring_len = (size_t)s->page * (1 + RING_PAGES);
	t->ring = map_ring(fd, s->page);
	if (t->ring == MAP_FAILED) {
		t->ring = NULL;
		close(fd);
		return -errno;
	}
	t->fd = fd;
	return 0;
}

/* Watch t through switch records: its state before its first record, and
 * its schedstat file when wake-ups come from there. */
static int watch_switch(struct lc_sched *s, struct sthr *t, uint32_t thread, uint64_t now)
{
	int e = open_ring(s, t), r;

	if (e)
		return e;
	r = is_runnable(t->pid, t->tid);
	if (r > 0)
		t->on = now;
	else if (r == 0)
		t->blocked = now;
	if (s->wsrc == LC_WAKE_SCHEDSTAT && (t->ss_fd = open_schedstat(t->pid, t->tid)) >= 0)
		t->wait_seen = read_run_delay(t->ss_fd);
	tid_add(s, t->tid, thread);
	return 0;
}

/* Watch t through its schedstat file, from what it holds now. */
static int watch_schedstat(struct sthr *t)
{
	t->fd = open_schedstat(t->pid, t->tid);
	if (t->fd < 0)
		return t->fd;
	if (read_schedstat(t->fd, &t->run_seen, &t->wait_seen))
		t->wait_seen = t->run_seen = 0;
	return 0;
}

/* Start watching thread t (index thread) at now; 0 or -errno. */
static int watch(struct lc_sched *s, struct sthr *t, uint32_t thread, uint64_t now)
{
	t->fd = -1;
	t->ss_fd = -1;
	if (lc_fds_short())	/* the descriptors left go to processes */
		return -EMFILE;
	if (s->src == LC_SCHED_SWITCH)
		return watch_switch(s, t, thread, now);
	if (s->src == LC_SCHED_SCHEDSTAT)
		return watch_schedstat(t);
	return -ENOENT;
}

/* Keep span [a, b) of kind of thread when spans are kept. */
static void log_span(struct lc_sched *s, uint32_t thread, uint64_t a, uint64_t b, uint32_t kind)
{
	struct slog *l;

	if (!s->keep || b <= a)
		return;
	if (thread >= s->logs_cap &&
	    lc_grow((void **)&s->logs, &s->logs_cap, (size_t)thread + 1, sizeof(*s->logs)))
		return;
	l = &s->logs[thread];
	if (l->n && l->v[l->n - 1].kind == kind && l->v[l->n - 1].end == a) {
		l->v[l->n - 1].end = b;
		return;
	}
	if (lc_grow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v)))
		return;
	l->v[l->n++] = (struct lc_rq_span){ a, b, kind };
}

/* The first wake-up of t at or after from and at or before to, 0 none. */
static uint64_t first_wake(const struct sthr *t, uint64_t from, uint64_t to)
{
	for (uint32_t i = 0; i < t->nwake; i++)
		if (t->wake[i] >= from && t->wake[i] <= to)
			return t->wake[i];
	return 0;
}

/* Drop the wake-ups of t up to time to. */
static void pop_wakes(struct sthr *t, uint64_t to)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < t->nwake; i++)
		if (t->wake[i] > to)
			t->wake[k++] = t->wake[i];
	t->nwake = k;
}

static void unwatch(struct lc_sched *s, struct sthr *t, uint32_t thread)
{
	/* what was waiting at the last read ends there, for the replay */
	if (t->since)
		log_span(s, thread, t->since, t->last_now, LC_RQ_PREEMPT);
	if (t->blocked && first_wake(t, t->blocked, t->last_now))
		log_span(s, thread, first_wake(t, t->blocked, t->last_now), t->last_now, LC_RQ_WOKEN);
	if (t->used && s->src == LC_SCHED_SWITCH)
		tid_del(s, t->tid, thread);
	if (t->ring)
		munmap(t->ring, t->ring_len);
	if (t->fd >= 0)
		close(t->fd);
	if (t->ss_fd >= 0)
		close(t->ss_fd);
	*t = (struct sthr){ .fd = -1, .ss_fd = -1 };
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

/* Add the part of run-queue span [a, b) inside [last, now) to *acc (a
 * field of out), and the part of it before out->cut (when set) to *early. */
static void rq_overlap(struct lc_runq *out, uint64_t *acc, uint64_t *early, uint64_t a, uint64_t b,
		       uint64_t last, uint64_t now)
{
	overlap(acc, a, b, last, now);
	if (out->cut > last && out->cut < now)
		overlap(early, a, b, last, out->cut);
}

/* Thread t was switched out at time; preempted says it stayed runnable. */
static void switched_out(struct sthr *t, uint64_t time, int preempted, uint64_t last, uint64_t now,
			 struct lc_runq *out)
{
	if (t->on)
		overlap(&out->run_ns, t->on, time, last, now);
	t->on = 0;
	if (preempted) {
		if (!t->since)
			t->since = time;
		t->blocked = 0;
	} else {
		t->since = 0;
		t->blocked = time;
	}
}

/* The sleep of t (index thread) ends with its switch-in at time: from its
 * wake-up on it waited for a CPU. */
static void sleep_ended(struct lc_sched *s, struct sthr *t, uint32_t thread, uint64_t time,
			uint64_t last, uint64_t now, struct lc_runq *out)
{
	uint64_t w = first_wake(t, t->blocked, time);

	if (w) {
		rq_overlap(out, &out->woken_ns, &out->cut_woken_ns, w, time, last, now);
		log_span(s, thread, w, time, LC_RQ_WOKEN);
	}
	t->blk_done += time - t->blocked;
	t->blk_in = time;
	t->blocked = 0;
}

/* Thread t (index thread) was switched in at time: a preemption or a
 * sleep ends here. */
static void switched_in(struct lc_sched *s, struct sthr *t, uint32_t thread, uint64_t time,
			uint64_t last, uint64_t now, struct lc_runq *out)
{
	if (t->since) {
		rq_overlap(out, &out->preempt_ns, &out->cut_preempt_ns, t->since, time, last, now);
		log_span(s, thread, t->since, time, LC_RQ_PREEMPT);
		t->pre_done += time - t->since;
		t->since = 0;
	}
	if (t->blocked)
		sleep_ended(s, t, thread, time, last, now, out);
	pop_wakes(t, time);
	t->on = time;
}

/* Switch source without the tracepoint: the woken waits that ended in
 * [last, now), from the run delay the kernel added at the switch-ins
 * (less the preempted waits, whose spans are known), placed just before
 * the last switch-in that ended a sleep. */
static void schedstat_woken(struct lc_sched *s, struct sthr *t, uint32_t thread, uint64_t last,
			    uint64_t now, struct lc_runq *out)
{
	uint64_t rd, w;

	if (t->ss_fd < 0 || !t->blk_done || (rd = read_run_delay(t->ss_fd)) == UINT64_MAX)
		return;
	w = rd > t->wait_seen ? rd - t->wait_seen : 0;
	w = w > t->pre_done ? w - t->pre_done : 0;
	if (w > t->blk_done)
		w = t->blk_done;
	if (w > t->blk_in)
		w = t->blk_in;
	rq_overlap(out, &out->woken_ns, &out->cut_woken_ns, t->blk_in - w, t->blk_in, last, now);
	log_span(s, thread, t->blk_in - w, t->blk_in, LC_RQ_WOKEN);
	t->wait_seen = rd;
	t->pre_done = t->blk_done = 0;
}

/* Whether t (index thread) sleeps and no wake-up has reached it, so that
 * nothing can be in its ring: its switch-in follows a wake-up. */
static int asleep(const struct lc_sched *s, const struct sthr *t, uint32_t thread)
{
	return s->wsrc == LC_WAKE_TRACEPOINT && t->blocked && !t->since && !t->on &&
	       !t->nwake && (s->ticks + thread) % SLEEPER_EVERY;
}

/* Apply the switch records of t (index thread) in its ring before now;
 * return the ring offset after the last one applied. */
static uint64_t drain_switches(struct lc_sched *s, struct sthr *t, uint32_t thread, uint64_t last,
			       uint64_t now, struct lc_runq *out)
{
	struct perf_event_mmap_page *pg = (struct perf_event_mmap_page *)t->ring;
	uint64_t dpage = (uint64_t)t->ring_len / (1 + RING_PAGES);
	uint8_t *data = t->ring + (pg->data_offset ? pg->data_offset : dpage);
	uint64_t size = pg->data_size ? pg->data_size : t->ring_len - dpage;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE), tail = pg->data_tail;
	struct perf_event_header h;
	struct { uint32_t pid, tid; uint64_t time; } id;

	for (; tail + sizeof(h) <= head; tail += h.size) {
		lc_ring_copy(data, size, tail, &h, sizeof(h));
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		if (h.type != PERF_RECORD_SWITCH || h.size < sizeof(h) + sizeof(id))
			continue;
		lc_ring_copy(data, size, tail + sizeof(h), &id, sizeof(id));
		if (id.time >= now)
			break;	/* the next tick's */
		if (h.misc & PERF_RECORD_MISC_SWITCH_OUT)
			switched_out(t, id.time, !!(h.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT),
				     last, now, out);
		else
			switched_in(s, t, thread, id.time, last, now, out);
	}
	return tail;
}

/* The view of t (index thread) over [last, now) from its switch records. */
static void switch_read(struct lc_sched *s, struct sthr *t, uint32_t thread, uint64_t last,
			uint64_t now, struct lc_runq *out)
{
	struct perf_event_mmap_page *pg = (struct perf_event_mmap_page *)t->ring;
	uint64_t w;

	out->known = 1;
	if (asleep(s, t, thread))
		return;
	__atomic_store_n(&pg->data_tail, drain_switches(s, t, thread, last, now, out),
			 __ATOMIC_RELEASE);
	/* what goes on past the last record */
	if (t->since)
		rq_overlap(out, &out->preempt_ns, &out->cut_preempt_ns, t->since, now, last, now);
	if (t->on)
		overlap(&out->run_ns, t->on, now, last, now);
	if (t->blocked && (w = first_wake(t, t->blocked, now)))
		rq_overlap(out, &out->woken_ns, &out->cut_woken_ns, w, now, last, now);
	if (s->wsrc == LC_WAKE_SCHEDSTAT)
		schedstat_woken(s, t, thread, last, now, out);
}

/* What t's schedstat file added since the last read: the run time, at most
 * dt, into out; the delay into t's credit. */
static void schedstat_since(struct sthr *t, uint64_t dt, struct lc_runq *out)
{
	uint64_t r, w;

	if (read_schedstat(t->fd, &r, &w))
		return;
	if (w >= t->wait_seen) {
		t->credit += w - t->wait_seen;
		t->wait_seen = w;
	}
	out->run_ns = r > t->run_seen ? r - t->run_seen : 0;
	if (out->run_ns > dt)
		out->run_ns = dt;
	t->run_seen = r;
}

/* The view of t for an interval of now - last from schedstat: the run
 * time and the delay the kernel added since the last read, the delay
 * charged up to the interval (and reported as woken: schedstat does not
 * say why a thread waited). */
static void schedstat_read(struct lc_sched *s, struct sthr *t, uint32_t thread, uint64_t last,
			   uint64_t now, struct lc_runq *out)
{
	uint64_t take;

	schedstat_since(t, now - last, out);
	take = t->credit < now - last ? t->credit : now - last;
	t->credit -= take;
	out->woken_ns = take;
	log_span(s, thread, now - take, now, LC_RQ_WOKEN);
	out->known = 1;
}

/* The record of thread, grown as needed; NULL on ENOMEM. */
static struct sthr *slot_of(struct lc_sched *s, uint32_t thread)
{
	if (thread >= s->cap) {
		size_t old = s->cap;

		if (lc_grow((void **)&s->thr, &s->cap, (size_t)thread + 1, sizeof(*s->thr)))
			return NULL;
		for (size_t i = old; i < s->cap; i++)
			s->thr[i] = (struct sthr){ .fd = -1, .ss_fd = -1 };
	}
	return &s->thr[thread];
}

/* Queue a wake-up at t on th, in time order (the newest when full). */
static void queue_wake(struct sthr *th, uint64_t t)
{
	uint32_t k;

	if (th->nwake == WAKE_Q) {	/* keep the newest */
		memmove(th->wake, th->wake + 1, (WAKE_Q - 1) * sizeof(th->wake[0]));
		th->nwake--;
	}
	for (k = th->nwake; k > 0 && th->wake[k - 1] > t; k--)
		th->wake[k] = th->wake[k - 1];
	th->wake[k] = t;
	th->nwake++;
}

/* A wake-up of tid at t: queue it on its thread when watched. */
static void woke(void *arg, pid_t tid, uint64_t t)
{
	struct lc_sched *s = arg;
	size_t i = tid_pos(s, tid);

	if (i < s->ntids && s->tids[i].tid == tid)
		queue_wake(&s->thr[s->tids[i].thread], t);
}

void lc_sched_tick(struct lc_sched *s)
{
	s->ticks++;
	if (s->wake)
		lc_wake_drain(s->wake, woke, s);
}

/* First sight of thread (pid, tid) in slot t at now: watch it from now. */
static void start_thread(struct lc_sched *s, struct sthr *t, uint32_t thread, pid_t pid,
			 pid_t tid, uint64_t now)
{
	if (lc_grow((void **)&s->active, &s->active_cap, s->nactive + 1, sizeof(uint32_t)))
		return;
	t->used = 1;
	t->pid = pid;
	t->tid = tid;
	t->last_now = now;
	if (watch(s, t, thread, now))
		s->failures++;
	s->active[s->nactive++] = thread;
}

void lc_sched_read(struct lc_sched *s, uint32_t thread, pid_t pid, pid_t tid,
		   uint64_t last, uint64_t now, struct lc_runq *out)
{
	struct sthr *t;

	*out = (struct lc_runq){ .cut = out->cut };
	if (s->src == LC_SCHED_NONE || !(t = slot_of(s, thread)))
		return;
	if (t->used && t->tid != tid)
		unwatch(s, t, thread);
	if (!t->used) {
		start_thread(s, t, thread, pid, tid, now);
		return;
	}
	if (t->fd < 0)
		return;
	t->last_now = now;
	if (s->src == LC_SCHED_SWITCH)
		switch_read(s, t, thread, last, now, out);
	else
		schedstat_read(s, t, thread, last, now, out);
}

void lc_sched_keep_spans(struct lc_sched *s)
{
	s->keep = 1;
}

const struct lc_rq_span *lc_sched_spans(const struct lc_sched *s, uint32_t thread, size_t *n)
{
	if (thread >= s->logs_cap || !s->logs[thread].n) {
		*n = 0;
		return NULL;
	}
	*n = s->logs[thread].n;
	return s->logs[thread].v;
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
	if (t->ring && !asleep(s, t, thread))
		__builtin_prefetch(&((const struct perf_event_mmap_page *)t->ring)->data_head);
}

void lc_sched_forget(struct lc_sched *s, uint32_t thread)
{
	size_t k = 0;

	if (thread >= s->cap || !s->thr[thread].used)
		return;
	unwatch(s, &s->thr[thread], thread);
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
		unwatch(s, &s->thr[s->active[i]], s->active[i]);
	for (size_t i = 0; i < s->logs_cap; i++)
		free(s->logs[i].v);
	lc_wake_close(s->wake);
	LC_FREE_ALL(s->logs, s->tids, s->thr, s->active, s);
}
