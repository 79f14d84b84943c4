/*
 * counters.c — per-thread counters named through libpfm4 (see counters.h).
 *
 * Backends: perf_event (one group per target thread, read with one read(2)
 * at the counter interval, reads spread over ticks), replay (a text file of
 * cumulative counts, for deterministic tests of the arithmetic), none.
 */
#include "counters.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fdroom.h"
#include "lc_util.h"
#include "tidy.h"

enum backend { BK_NONE, BK_PERF, BK_REPLAY };

/* One target thread's counters. */
struct cthr {
	int used;
	int tried;			/* lc_ctr_attach was called for it */
	int fd[LC_PROF_MAX_EVENTS];	/* group leader first; -1 none */
	uint64_t last[LC_PROF_MAX_EVENTS];
	uint64_t last_en, last_run;
	uint64_t next;			/* when it is due, monotonic ns */
};

/* One line of a replay file: cumulative counts of a thread at t. */
struct rline {
	uint64_t t;
	uint32_t thread;
	uint64_t v[LC_PROF_MAX_EVENTS];
	uint64_t en, run;
};

struct lc_ctr {
	enum backend bk;
	uint32_t n;
	struct lc_prof_event ev[LC_PROF_MAX_EVENTS];
	struct perf_event_attr attr[LC_PROF_MAX_EVENTS];
	int role_at[LC_EVR_NROLES];	/* event index of each role, -1 none */
	uint64_t interval, tick;
	double latency;
	int user_only;			/* cfg->exclude_kernel: for every target */
	char latency_from[512];
	char why[512];
	char method[3][800];
	struct cthr *thr;
	size_t cap;
	uint32_t nused;			/* threads whose counters are open */
	uint32_t cursor;
	uint64_t failures;
	/* replay */
	struct rline *lines;
	size_t nlines, nextline, linecap;
	uint64_t t0;
	struct rline *prev;		/* last line per thread */
	size_t prevcap;
};

/* The role of an event named name when none is given. */
static uint32_t guess_role(const char *name)
{
	char up[128];
	size_t i;

	for (i = 0; name[i] && i < sizeof(up) - 1; i++)
		up[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 32 : name[i]);
	up[i] = 0;
	if (strstr(up, "STALL") && strstr(up, "MISS"))
		return LC_EVR_MISS_STALL;
	if (strstr(up, "STALL"))
		return LC_EVR_STALL;
	if (strstr(up, "MISS"))
		return LC_EVR_MISS;
	if (strstr(up, "INSTR"))
		return LC_EVR_INSTR;
	if (strstr(up, "CYCLES"))
		return LC_EVR_CYCLES;
	return LC_EVR_OTHER;
}

char *lc_ctr_reason(int err, char *buf, size_t len)
{
	long long paranoid;

	switch (-err) {
	case ENOENT:
		snprintf(buf, len, "no such event here: no hardware PMU (a virtual machine?), or "
			 "not one of this CPU's events");
		break;
	case EACCES:
	case EPERM:
		if (!lc_read_num("/proc/sys/kernel/perf_event_paranoid", &paranoid))
			snprintf(buf, len, "not permitted: perf_event_paranoid is %lld; run 'sysctl "
				 "kernel.perf_event_paranoid=1' or give the tool CAP_PERFMON", paranoid);
		else
			snprintf(buf, len, "not permitted: give the tool CAP_PERFMON or run it as root");
		break;
	case EINVAL:
	case EOPNOTSUPP:
		snprintf(buf, len, "not supported by this kernel or PMU (%s)", strerror(-err));
		break;
	case ESRCH:
		snprintf(buf, len, "the process is gone");
		break;
	default:
		snprintf(buf, len, "%s", strerror(-err));
	}
	return buf;
}

/* Add event spec "name[=role]" to c.  0 or -EINVAL with the reason. */
static int add_event(struct lc_ctr *c, const char *spec, int exclude_kernel, char *msg,
		     size_t len)
{
	char name[256], *eq;
	uint32_t role;
	pfm_perf_encode_arg_t arg;
	struct perf_event_attr *a;
	int rc;

	if (c->n == LC_PROF_MAX_EVENTS)
		return lc_fail(msg, len, -EINVAL, "at most %d events", LC_PROF_MAX_EVENTS);
	snprintf(name, sizeof(name), "%s", spec);
	eq = strchr(name, '=');
	if (eq) {
		*eq++ = 0;
		if (lc_ev_role_by_key(eq) < 0)
			return lc_fail(msg, len, -EINVAL,
				       "event '%s': unknown role '%s' (cycles, stall, miss, instr, "
				       "miss-stall or other)", name, eq);
		role = (uint32_t)lc_ev_role_by_key(eq);
	} else {
		role = guess_role(name);
	}
	if (!*name)
		return lc_fail(msg, len, -EINVAL, "an empty event name");
	a = &c->attr[c->n];
	memset(a, 0, sizeof(*a));
	memset(&arg, 0, sizeof(arg));
	arg.attr = a;
	arg.size = sizeof(arg);
	rc = pfm_get_os_event_encoding(name, exclude_kernel ? PFM_PLM3 : PFM_PLM3 | PFM_PLM0,
				       PFM_OS_PERF_EVENT, &arg);
	if (rc != PFM_SUCCESS)
		return lc_fail(msg, len, -EINVAL, "event '%s': %s", name, pfm_strerror(rc));
	a->size = sizeof(*a);
	a->exclude_kernel = exclude_kernel ? 1 : a->exclude_kernel;
	a->exclude_hv = 1;
	c->ev[c->n].name = strdup(name);
	c->ev[c->n].role = role;
	if (!c->ev[c->n].name)
		return -ENOMEM;
	if (c->role_at[role] < 0)
		c->role_at[role] = (int)c->n;
	c->n++;
	return 0;
}

/* Add every event of list "EV[,EV...]". */
static int add_list(struct lc_ctr *c, const char *list, int exclude_kernel, char *msg,
		    size_t len)
{
	char buf[2048], *save = NULL;
	int rc;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *t = strtok_r(buf, ", \t\n", &save); t; t = strtok_r(NULL, ", \t\n", &save))
		if ((rc = add_event(c, t, exclude_kernel, msg, len)))
			return rc;
	return 0;
}

/* The name of the present core PMU, or "". */
static void core_pmu(char *out, size_t len)
{
	out[0] = 0;
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX && !out[0]; p++) {
		pfm_pmu_info_t pi = { .size = sizeof(pi) };

		if (pfm_get_pmu_info((pfm_pmu_t)p, &pi) == PFM_SUCCESS && pi.is_present &&
		    pi.type == PFM_PMU_TYPE_CORE)
			snprintf(out, len, "%s", pi.name);
	}
}

/* The events file's path: file, else the installed one. */
static const char *events_path(const char *file, char *path, size_t len)
{
	if (file)
		return file;
	lc_share_file("events.txt", "LOSTCYCLES_EVENTS", path, len);
	return path;
}

/* The default events of core PMU pmu ("": none found) from the events
 * file: the first line whose PMU glob matches, else the "default" line. */
static int default_events(const char *file, const char *pmu, char *out, size_t len, char *msg,
			  size_t mlen)
{
	char line[2048], dflt[2048] = "", path[PATH_MAX];
	FILE *f = fopen(events_path(file, path, sizeof(path)), "r");

	if (!f)
		return lc_fail(msg, mlen, -ENOENT, "%s: %s (give the events with -e)",
			       events_path(file, path, sizeof(path)), strerror(errno));
	out[0] = 0;
	while (fgets(line, sizeof(line), f)) {
		char glob[128], evs[1900];

		if (line[0] == '#' || sscanf(line, "%127s %1899s", glob, evs) != 2)
			continue;
		if (!strcmp(glob, "default"))
			snprintf(dflt, sizeof(dflt), "%s", evs);
		else if (*pmu && !fnmatch(glob, pmu, 0)) {
			snprintf(out, len, "%s", evs);
			break;
		}
	}
	fclose(f);
	if (!out[0])
		snprintf(out, len, "%s", dflt);
	if (!out[0])
		return lc_fail(msg, mlen, -ENOENT, "%s: no line for PMU '%s' and no default line",
			       events_path(file, path, sizeof(path)), *pmu ? pmu : "(none)");
	return 0;
}

long (*lc_ctr_open_hook)(struct perf_event_attr *attr, pid_t tid, int cpu, int group_fd,
			 unsigned long flags);

int lc_ctr_user_only(pid_t tid)
{
	char path[64], line[256];
	unsigned long r, e;
	int user = 1;
	FILE *f;

	if (tid)
		snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	else
		snprintf(path, sizeof(path), "/proc/thread-self/status");
	f = fopen(path, "re");
	if (!f)
		return 1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Uid: %lu %lu", &r, &e) == 2) {
			user = e != 0;
			break;
		}
	fclose(f);
	return user;
}

/* Open the events as one group on tid (0: this thread), in user space only
 * or with the kernel as the target's credentials say (lc_ctr_user_only);
 * fds[] out.  0 or -errno of the first that failed. */
static int open_group(const struct lc_ctr *c, pid_t tid, int fds[])
{
	int user = c->user_only || lc_ctr_user_only(tid);

	for (uint32_t i = 0; i < c->n; i++) {
		struct perf_event_attr a = c->attr[i];
		long fd;

		a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
				PERF_FORMAT_TOTAL_TIME_RUNNING;
		a.disabled = 0;
		a.exclude_kernel = user ? 1 : a.exclude_kernel;
		if (lc_ctr_open_hook)
			fd = lc_ctr_open_hook(&a, tid, -1, i ? fds[0] : -1, PERF_FLAG_FD_CLOEXEC);
		else
			fd = syscall(SYS_perf_event_open, &a, tid, -1, i ? fds[0] : -1,
				     PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			int e = -errno;

			for (uint32_t k = 0; k < i; k++)
				close(fds[k]);
			return e;
		}
		fds[i] = (int)fd;
	}
	return 0;
}

/* Read a replay file: "t_ns thread v1..vn enabled running" per line. */
static int load_replay(struct lc_ctr *c, const char *path, char *msg, size_t len)
{
	char line[4096];
	FILE *f = fopen(path, "r");
	unsigned ln = 0;

	if (!f)
		return lc_fail(msg, len, -errno, "%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		struct rline r = { 0 };
		char *p = line, *end;

		ln++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		r.t = strtoull(p, &end, 10);
		if (end == p)
			goto bad;
		p = end;
		r.thread = (uint32_t)strtoul(p, &end, 10);
		if (end == p)
			goto bad;
		p = end;
		for (uint32_t i = 0; i < c->n + 2; i++) {
			uint64_t v = strtoull(p, &end, 10);

			if (end == p)
				goto bad;
			p = end;
			if (i < c->n)
				r.v[i] = v;
			else if (i == c->n)
				r.en = v;
			else
				r.run = v;
		}
		if (lc_grow((void **)&c->lines, &c->linecap, c->nlines + 1, sizeof(r))) {
			fclose(f);
			return -ENOMEM;
		}
		c->lines[c->nlines++] = r;
	}
	fclose(f);
	return 0;
bad:
	fclose(f);
	return lc_fail(msg, len, -EINVAL, "%s:%u: want 't_ns thread %u counts enabled running'",
		       path, ln, c->n);
}

/* The methods of ML, CL and RC for the events of c. */
static void describe(struct lc_ctr *c)
{
	const int *r = c->role_at;
	int split = r[LC_EVR_MISS] >= 0 && r[LC_EVR_CYCLES] >= 0 &&
		    (r[LC_EVR_STALL] >= 0 || r[LC_EVR_MISS_STALL] >= 0);

	if (r[LC_EVR_CYCLES] >= 0 && r[LC_EVR_STALL] >= 0)
		snprintf(c->method[0], sizeof(c->method[0]),
			 "busy x stall cycles / cycles (%s / %s)%s", c->ev[r[LC_EVR_STALL]].name,
			 c->ev[r[LC_EVR_CYCLES]].name,
			 r[LC_EVR_MISS] >= 0 && c->latency > 0 ? ", less what CL and RC take" : "");
	if (split && c->latency > 0)
		snprintf(c->method[1], sizeof(c->method[1]),
			 "misses x ideal latency %.1f ns (%s)%s%s", c->latency,
			 c->ev[r[LC_EVR_MISS]].name, c->latency_from[0] ? "; latency from " : "",
			 c->latency_from);
	else if (split)
		snprintf(c->method[1], sizeof(c->method[1]),
			 "the COMM flags only; misses (%s) not charged: %s", c->ev[r[LC_EVR_MISS]].name,
			 c->latency_from[0] ? c->latency_from : "no ideal miss latency "
			 "(record --miss-latency NS, or lostcycles calibrate --memory)");
	if (split && c->latency > 0 && r[LC_EVR_MISS_STALL] >= 0)
		snprintf(c->method[2], sizeof(c->method[2]),
			 "stall on misses beyond the ideal latency (%s / %s)",
			 c->ev[r[LC_EVR_MISS_STALL]].name, c->ev[r[LC_EVR_CYCLES]].name);
}

/* The settings of cfg into c, nothing opened yet. */
static void ctr_setup(struct lc_ctr *c, const struct lc_ctr_cfg *cfg)
{
	for (int i = 0; i < LC_EVR_NROLES; i++)
		c->role_at[i] = -1;
	c->interval = cfg->interval_ns ? cfg->interval_ns : LC_CTR_DEFAULT_INTERVAL_NS;
	c->tick = cfg->tick_ns ? cfg->tick_ns : 100000;
	c->latency = cfg->miss_latency_ns;
	c->user_only = cfg->exclude_kernel;
	if (cfg->latency_from)
		snprintf(c->latency_from, sizeof(c->latency_from), "%s", cfg->latency_from);
}

/* Open c's event group once, to see whether the counters open here: the
 * perf back end, or why they are not measured. */
static void ctr_probe(struct lc_ctr *c)
{
	int fds[LC_PROF_MAX_EVENTS], rc = open_group(c, 0, fds);
	char r[400];

	if (rc) {
		snprintf(c->why, sizeof(c->why), "not measured: counters (%s%s) do not open here: %s",
			 c->ev[0].name, c->n > 1 ? ", ..." : "", lc_ctr_reason(rc, r, sizeof(r)));
		c->n = 0;
		return;
	}
	for (uint32_t i = 0; i < c->n; i++)
		close(fds[i]);
	c->bk = BK_PERF;
}

/* Whether the kernel has no hardware PMU: a cycles counter on this thread
 * fails with ENOENT (these virtual machines).  One system call, where
 * libpfm4's initialisation costs ~2 ms of a recording's start. */
static int no_pmu(void)
{
	struct perf_event_attr a = { .type = PERF_TYPE_HARDWARE, .size = sizeof(a),
				     .config = PERF_COUNT_HW_CPU_CYCLES, .exclude_kernel = 1,
				     .exclude_hv = 1, .disabled = 1 };
	long fd;

	if (lc_ctr_open_hook)	/* a test's opens go the whole way */
		return 0;
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? errno == ENOENT : (close((int)fd), 0);
}

/* The default events without libpfm4 when the kernel has no hardware PMU:
 * c->why names the events file's default line, which cannot open.  1 when
 * that decided it, 0 to go the whole way. */
static int no_pmu_default(struct lc_ctr *c, const struct lc_ctr_cfg *cfg)
{
	char evs[2048], msg[256], r[400];

	if (cfg->events || cfg->replay || !no_pmu() ||
	    default_events(cfg->events_file, "", evs, sizeof(evs), msg, sizeof(msg)))
		return 0;
	snprintf(c->why, sizeof(c->why), "not measured: counters (%.*s%s) do not open here: %s",
		 (int)strcspn(evs, "=,"), evs, strchr(evs, ',') ? ", ..." : "",
		 lc_ctr_reason(-ENOENT, r, sizeof(r)));
	return 1;
}

/* The events of cfg into c, and its back end (replay, perf, or none with
 * the reason in c->why).  0, or -errno with the reason in msg. */
static int ctr_start(struct lc_ctr *c, const struct lc_ctr_cfg *cfg, char *msg, size_t len)
{
	char evs[2048], pmu[64];
	int rc, prc;

	if (no_pmu_default(c, cfg))
		return 0;
	prc = pfm_initialize();
	if (prc != PFM_SUCCESS) {
		snprintf(c->why, sizeof(c->why), "not measured: libpfm4: %s", pfm_strerror(prc));
		return 0;
	}
	core_pmu(pmu, sizeof(pmu));
	if (cfg->events)
		snprintf(evs, sizeof(evs), "%s", cfg->events);
	else if ((rc = default_events(cfg->events_file, pmu, evs, sizeof(evs), msg, len))) {
		snprintf(c->why, sizeof(c->why), "not measured: %s", msg);
		return 0;
	}
	if ((rc = add_list(c, evs, cfg->exclude_kernel, msg, len)))
		return rc;
	describe(c);
	if (!cfg->replay) {
		ctr_probe(c);
		return 0;
	}
	if ((rc = load_replay(c, cfg->replay, msg, len)))
		return rc;
	c->bk = BK_REPLAY;
	return 0;
}

int lc_ctr_open(const struct lc_ctr_cfg *cfg, struct lc_ctr **out, char *msg, size_t len)
{
	struct lc_ctr *c = calloc(1, sizeof(*c));
	int rc;

	*out = NULL;
	if (!c)
		return -ENOMEM;
	ctr_setup(c, cfg);
	if (!cfg->off && (rc = ctr_start(c, cfg, msg, len))) {
		lc_ctr_close(c);
		return rc;
	}
	*out = c;
	return 0;
}

const char *lc_ctr_unavailable(const struct lc_ctr *c)
{
	return c->bk == BK_NONE ? (c->why[0] ? c->why : "not measured: counters were not asked for") :
	       NULL;
}

const struct lc_prof_event *lc_ctr_events(const struct lc_ctr *c, uint32_t *n)
{
	*n = c->bk == BK_NONE ? 0 : c->n;
	return c->ev;
}

const char *lc_ctr_method(const struct lc_ctr *c, int cat)
{
	int k = cat == LC_CAT_ML ? 0 : cat == LC_CAT_CL ? 1 : cat == LC_CAT_RC ? 2 : -1;

	if (c->bk == BK_NONE || k < 0 || !c->method[k][0])
		return NULL;
	return c->method[k];
}

/* The record of thread, grown as needed; NULL on ENOMEM. */
static struct cthr *thr_of(struct lc_ctr *c, uint32_t thread)
{
	if (thread >= c->cap) {
		size_t old = c->cap;

		if (lc_grow((void **)&c->thr, &c->cap, (size_t)thread + 1, sizeof(*c->thr)))
			return NULL;
		memset(c->thr + old, 0, (c->cap - old) * sizeof(*c->thr));
	}
	return &c->thr[thread];
}

int lc_ctr_attach(struct lc_ctr *c, uint32_t thread, pid_t tid)
{
	struct cthr *t;
	int rc;

	if (c->bk != BK_PERF)
		return 0;
	if (!(t = thr_of(c, thread)))
		return -ENOMEM;
	if (t->used)
		return 0;
	t->tried = 1;
	/* the descriptors left go to processes (fdroom.h) */
	rc = lc_fds_short() ? -EMFILE : open_group(c, tid, t->fd);
	if (rc) {
		c->failures++;
		return rc;
	}
	t->used = 1;
	c->nused++;
	memset(t->last, 0, sizeof(t->last));
	t->last_en = t->last_run = 0;
	t->next = 0;
	return 0;
}

/* Read thread's group and report the scaled deltas since the last read. */
static void read_thread(struct lc_ctr *c, uint32_t thread, struct cthr *t, lc_ctr_cb cb,
			void *arg)
{
	uint64_t buf[3 + LC_PROF_MAX_EVENTS], d[LC_PROF_MAX_EVENTS], den, drun;
	ssize_t want = (ssize_t)((3 + c->n) * sizeof(uint64_t));

	if (read(t->fd[0], buf, sizeof(buf)) < want || buf[0] != c->n) {
		c->failures++;
		return;
	}
	den = buf[1] - t->last_en;
	drun = buf[2] - t->last_run;
	for (uint32_t i = 0; i < c->n; i++) {
		uint64_t v = buf[3 + i] - t->last[i];

		d[i] = drun && drun < den ? (uint64_t)((double)v * (double)den / (double)drun) : v;
		t->last[i] = buf[3 + i];
	}
	t->last_en = buf[1];
	t->last_run = buf[2];
	cb(arg, thread, d);
}

int lc_ctr_pending(const struct lc_ctr *c, uint32_t thread)
{
	return c->bk == BK_PERF && (thread >= c->cap || !c->thr[thread].tried);
}

void lc_ctr_detach(struct lc_ctr *c, uint32_t thread, lc_ctr_cb cb, void *arg)
{
	struct cthr *t;

	if (c->bk != BK_PERF || thread >= c->cap || !(t = &c->thr[thread])->used)
		return;
	if (cb)
		read_thread(c, thread, t, cb, arg);
	for (uint32_t i = c->n; i-- > 0;)
		close(t->fd[i]);
	t->used = 0;
	c->nused--;
}

/* Replay: the lines due by now, as deltas against each thread's last. */
static void replay_poll(struct lc_ctr *c, uint64_t now, lc_ctr_cb cb, void *arg)
{
	if (!c->t0)
		c->t0 = now ? now : 1;
	while (c->nextline < c->nlines && c->lines[c->nextline].t <= now - c->t0) {
		const struct rline *r = &c->lines[c->nextline++];
		struct rline *p;
		uint64_t d[LC_PROF_MAX_EVENTS], den, drun;
		size_t old = c->prevcap;

		if (r->thread >= c->prevcap) {
			if (lc_grow((void **)&c->prev, &c->prevcap, (size_t)r->thread + 1,
				    sizeof(*c->prev)))
				return;
			memset(c->prev + old, 0, (c->prevcap - old) * sizeof(*c->prev));
		}
		p = &c->prev[r->thread];
		den = r->en - p->en;
		drun = r->run - p->run;
		for (uint32_t i = 0; i < c->n; i++) {
			uint64_t v = r->v[i] - p->v[i];

			d[i] = drun && drun < den ? (uint64_t)((double)v * (double)den / (double)drun) :
			       v;
		}
		*p = *r;
		cb(arg, r->thread, d);
	}
}

void lc_ctr_poll(struct lc_ctr *c, uint64_t now, lc_ctr_cb cb, void *arg)
{
	uint32_t budget, seen = 0, nused = c->nused;

	if (c->bk == BK_REPLAY) {
		replay_poll(c, now, cb, arg);
		return;
	}
	if (c->bk != BK_PERF || !c->cap || !nused)
		return;
	/* about nused x tick / interval reads per tick, at least one */
	budget = (uint32_t)(((uint64_t)nused * c->tick + c->interval - 1) / c->interval);
	if (!budget)
		budget = 1;
	/* Threads are read in turn from the cursor, so the first one there
	 * that is not due yet was read the longest ago of those that were:
	 * the walk stops at it instead of visiting every thread at every tick
	 * (a line of each, 256 threads at 25 us: most of a tick).  A thread
	 * further on that is due waits until the turn reaches it. */
	for (size_t k = 0, start = c->cursor; k < c->cap && budget && seen < nused; k++) {
		uint32_t i = (uint32_t)((start + k) % c->cap);
		struct cthr *t = &c->thr[i];

		if (!t->used)
			continue;
		seen++;
		if (!t->next) {
			t->next = now + c->interval;	/* first read one interval on */
			continue;
		}
		if (t->next > now)
			break;
		read_thread(c, i, t, cb, arg);
		t->next += c->interval;		/* keep the rate when a read was late */
		if (t->next <= now)
			t->next = now + c->interval;
		budget--;
		c->cursor = i + 1;
	}
}

void lc_ctr_split(const struct lc_ctr *c, const uint64_t *delta, uint64_t busy_ns,
		  uint64_t out[LC_NCAT])
{
	const int *r = c->role_at;
	double cyc, stall = 0, actual = 0, ideal = 0, cl = 0, rc = 0, ml;

	memset(out, 0, LC_NCAT * sizeof(out[0]));
	if (r[LC_EVR_CYCLES] < 0 || !(cyc = (double)delta[r[LC_EVR_CYCLES]]) || !busy_ns)
		return;
	if (r[LC_EVR_STALL] >= 0)
		stall = (double)busy_ns * (double)delta[r[LC_EVR_STALL]] / cyc;
	if (stall > (double)busy_ns)
		stall = (double)busy_ns;
	ml = stall;
	if (r[LC_EVR_MISS] >= 0 && c->latency > 0)
		ideal = (double)delta[r[LC_EVR_MISS]] * c->latency;
	if (ideal > 0 && r[LC_EVR_MISS_STALL] >= 0) {
		actual = (double)busy_ns * (double)delta[r[LC_EVR_MISS_STALL]] / cyc;
		if (actual > (double)busy_ns)
			actual = (double)busy_ns;
		cl = ideal < actual ? ideal : actual;
		rc = actual - cl;
		ml = stall > actual ? stall - actual : 0;
	} else if (ideal > 0) {
		cl = ideal < stall ? ideal : stall;
		ml = stall - cl;
	}
	if (cl + rc + ml > (double)busy_ns) {	/* never more than the time there was */
		double k = (double)busy_ns / (cl + rc + ml);

		cl *= k, rc *= k, ml *= k;
	}
	out[LC_CAT_ML] = (uint64_t)ml;
	out[LC_CAT_CL] = (uint64_t)cl;
	out[LC_CAT_RC] = (uint64_t)rc;
}

uint64_t lc_ctr_failures(const struct lc_ctr *c)
{
	return c->failures;
}

void lc_ctr_close(struct lc_ctr *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->cap; i++)
		if (c->thr[i].used)
			lc_ctr_detach(c, (uint32_t)i, NULL, NULL);
	for (uint32_t i = 0; i < LC_PROF_MAX_EVENTS; i++)
		free(c->ev[i].name);
	LC_FREE_ALL(c->thr, c->lines, c->prev, c);
}
