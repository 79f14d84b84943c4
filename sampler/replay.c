/*
 * replay.c — exact profiles from trace files (see replay.h).
 */
#include "replay.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lc_util.h"
#include "tidy.h"
#include "waits.h"

#define OP_END 0xffff		/* synthetic: the process left */

/* One slot of a traced process. */
struct rslot {
	int live;
	uint32_t gen;
	uint32_t state;
	uint32_t flags;
	uint64_t task;
	int64_t thread;
};

/* One trace file: one process image. */
struct rfile {
	int32_t pid;
	uint64_t nonce;
	uint64_t start_ns;
	uint64_t end_ns;
	int alive;
	int64_t we;
	uint32_t sf, team;
	struct rslot *slots;
	uint32_t nslots;
	uint32_t ntags;
	int64_t tags[LC_MAX_TAGS];
	uint32_t depth[LC_MAX_TAGS];
	struct lc_trace_rec *recs;
	uint64_t nrecs;
};

/* A record in the merged, time-ordered stream. */
struct event {
	uint64_t t;
	uint32_t file;
	uint32_t seq;
	const struct lc_trace_rec *rec;	/* NULL: the process starts or leaves */
	int alive;			/* when rec is NULL: alive after it */
};

/* Order events by time, then file, then position in the file. */
static int event_cmp(const void *a, const void *b)
{
	const struct event *x = a, *y = b;

	return x->t != y->t	  ? lc_cmp_u64(x->t, y->t) :
	       x->file != y->file ? lc_cmp_u64(x->file, y->file) :
				    lc_cmp_u64(x->seq, y->seq);
}

/* Parse "lostcycles-trace.S.PID.NONCE" for session; 0 or -EINVAL. */
static int parse_trace_name(const char *name, const char *session, int32_t *pid,
			    uint64_t *nonce)
{
	size_t pl = strlen(LC_TRACE_PREFIX), sl = strlen(session);
	char *end;
	unsigned long v;

	if (strncmp(name, LC_TRACE_PREFIX, pl) || strncmp(name + pl, session, sl) ||
	    name[pl + sl] != '.')
		return -EINVAL;
	errno = 0;
	v = strtoul(name + pl + sl + 1, &end, 10);
	if (*end != '.' || errno || v == 0 || v > INT32_MAX || strlen(end + 1) != 16)
		return -EINVAL;
	*pid = (int32_t)v;
	*nonce = strtoull(end + 1, &end, 16);
	return *end ? -EINVAL : 0;
}

/* Read a whole trace file into f.  0 or -errno (-EINVAL: not a valid trace). */
static int load(const char *path, int32_t pid, uint64_t nonce, struct rfile *f)
{
	struct lc_trace_hdr h;
	struct stat st;
	size_t len;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = -EINVAL;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || st.st_size < (off_t)sizeof(h) ||
	    pread(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h))
		goto out;
	if (h.magic != LC_TRACE_MAGIC || h.abi_major != LC_ABI_MAJOR ||
	    h.rec_size != sizeof(struct lc_trace_rec) || h.pid != pid || h.nonce != nonce)
		goto out;
	f->nrecs = ((uint64_t)st.st_size - sizeof(h)) / sizeof(struct lc_trace_rec);
	len = f->nrecs * sizeof(struct lc_trace_rec);
	f->recs = malloc(len ? len : 1);
	rc = -ENOMEM;
	if (!f->recs)
		goto out;
	rc = -EIO;
	if (len && pread(fd, f->recs, len, sizeof(h)) != (ssize_t)len)
		goto out;
	f->pid = pid;
	f->nonce = nonce;
	f->start_ns = h.start_ns;
	rc = 0;
out:
	close(fd);
	return rc;
}

/* The slot i of f, growing the table; NULL when i is out of range. */
static struct rslot *slot_of(struct rfile *f, uint32_t i)
{
	if (i >= LC_SLOTS_MAX)
		return NULL;
	if (i >= f->nslots) {
		uint32_t n = i + 16;
		struct rslot *s = realloc(f->slots, n * sizeof(*s));

		if (!s)
			return NULL;
		memset(s + f->nslots, 0, (n - f->nslots) * sizeof(*s));
		for (uint32_t k = f->nslots; k < n; k++)
			s[k].thread = -1;
		f->slots = s;
		f->nslots = n;
	}
	return &f->slots[i];
}

/* Open or close fragment tag in f. */
static void tag_change(struct rfile *f, int64_t tag, int open)
{
	uint32_t i;

	for (i = 0; i < f->ntags && f->tags[i] != tag; i++)
		;
	if (open) {
		if (i == f->ntags) {
			if (f->ntags == LC_MAX_TAGS)
				return;
			f->tags[f->ntags] = tag;
			f->depth[f->ntags++] = 0;
		}
		f->depth[i]++;
	} else if (i < f->ntags && f->depth[i] && --f->depth[i] == 0) {
		f->tags[i] = f->tags[f->ntags - 1];
		f->depth[i] = f->depth[f->ntags - 1];
		f->ntags--;
	}
}

/* The state of the replay: files, and observation buffers. */
struct replay {
	struct rfile *files;
	uint32_t nfiles;
	struct lc_obs_proc *procs;
	struct lc_obs_thread *threads;
	uint32_t threads_cap;
	struct lc_accum *acc;
	struct lc_threads *names;
	uint64_t t0;
	uint64_t bad;
	/* the sampler's run-queue spans (NULL: none), and by profile thread
	 * the first span not yet passed and the thread's waits as in
	 * tick.c: since when it waits (0: not), when it last waited */
	const struct lc_sched *sched;
	size_t *span_at;
	size_t span_cap;
	struct lc_waits waits;
	uint64_t *rqall;	/* beside threads: all of a thread's run-queue time */
	size_t rqall_cap;
};

/* Build the observation of the current state into r's buffers. */
static int observe(struct replay *r, struct lc_obs *o)
{
	uint32_t np = 0, nt = 0;

	for (uint32_t i = 0; i < r->nfiles; i++) {
		struct rfile *f = &r->files[i];

		if (!f->alive)
			continue;
		r->procs[np] = (struct lc_obs_proc){ .uid = i, .we = f->we > 0, .sf = f->sf != 0,
						     .team = f->team, .ntags = f->ntags,
						     .tags = f->tags };
		for (uint32_t k = 0; k < f->nslots; k++) {
			const struct rslot *s = &f->slots[k];

			if (!s->live || s->thread < 0)
				continue;
			if (nt == r->threads_cap) {
				uint32_t cap = r->threads_cap ? 2 * r->threads_cap : 64;
				void *p = realloc(r->threads, cap * sizeof(*r->threads));

				if (!p)
					return -ENOMEM;
				r->threads = p;
				r->threads_cap = cap;
			}
			r->threads[nt++] = (struct lc_obs_thread){
				.thread = (uint32_t)s->thread, .proc = np, .state = s->state,
				.qempty = (s->flags & LC_SLOT_QUEUE_EMPTY) != 0, .task = s->task };
		}
		np++;
	}
	*o = (struct lc_obs){ .nprocs = np, .procs = r->procs, .nthreads = nt, .threads = r->threads };
	return 0;
}

/* Apply one event to the state. */
static void apply(struct replay *r, const struct event *e)
{
	struct rfile *f = &r->files[e->file];
	const struct lc_trace_rec *rec = e->rec;
	struct rslot *s;

	if (!rec) {		/* the process starts or leaves */
		f->alive = e->alive;
		return;
	}
	switch (rec->op) {
	case LC_OP_PARALLEL:
		f->we = (int64_t)rec->arg;
		return;
	case LC_OP_SOLUTION:
		f->sf = 1;
		return;
	case LC_OP_TEAM:
		f->team = rec->arg <= LC_SLOTS_MAX ? (uint32_t)rec->arg : 0;
		return;
	case LC_OP_FRAGMENT_BEGIN:
	case LC_OP_FRAGMENT_END:
		tag_change(f, (int64_t)rec->arg, rec->op == LC_OP_FRAGMENT_BEGIN);
		return;
	}
	s = slot_of(f, rec->slot);
	if (!s) {
		r->bad++;
		return;
	}
	switch (rec->op) {
	case LC_OP_REGISTER:
		*s = (struct rslot){ .live = 1, .gen = s->gen + 1 };
		s->thread = lc_threads_id(r->names, f->pid, f->nonce, rec->slot, s->gen,
					  (int32_t)rec->arg, e->t > r->t0 ? e->t - r->t0 : 0);
		break;
	case LC_OP_RELEASE:
		s->live = 0;
		break;
	case LC_OP_STATE:
		s->state = (uint32_t)rec->arg & 0xff;
		if (s->state > LC_ST_COMM) {
			r->bad++;
			s->state = LC_ST_IDLE;
		}
		break;
	case LC_OP_QUEUE_EMPTY:
		s->flags = (uint32_t)rec->arg;
		break;
	case LC_OP_TASK:
		s->task = rec->arg;
		break;
	case LC_OP_WASTED:
		lc_accum_wasted(r->acc, e->file, rec->arg);
		break;
	default:
		r->bad++;
	}
}

/* Load every trace file of session in dir into r.  0 or -errno. */
static int load_all(struct replay *r, const char *dir, const char *session, char *err,
		    size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[4096];

	if (!d) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -errno;
	}
	while ((de = readdir(d))) {
		struct rfile f = { 0 };
		int32_t pid;
		uint64_t nonce;
		void *p;

		if (parse_trace_name(de->d_name, session, &pid, &nonce))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (load(path, pid, nonce, &f)) {
			r->bad++;
			continue;
		}
		p = realloc(r->files, (r->nfiles + 1) * sizeof(*r->files));
		if (!p) {
			free(f.recs);
			closedir(d);
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		r->files = p;
		r->files[r->nfiles++] = f;
	}
	closedir(d);
	return 0;
}

/* When each file's process left: its departure, the start of a newer image
 * of the same pid, or t_end. */
static void set_ends(struct replay *r, uint64_t t_end, const struct lc_departure *dep,
		     uint32_t ndep)
{
	for (uint32_t i = 0; i < r->nfiles; i++) {
		struct rfile *f = &r->files[i];

		f->end_ns = t_end;
		for (uint32_t k = 0; k < ndep; k++)
			if (dep[k].pid == f->pid && dep[k].nonce == f->nonce && dep[k].t_ns < f->end_ns)
				f->end_ns = dep[k].t_ns;
		for (uint32_t k = 0; k < r->nfiles; k++)
			if (k != i && r->files[k].pid == f->pid &&
			    r->files[k].start_ns > f->start_ns && r->files[k].start_ns < f->end_ns)
				f->end_ns = r->files[k].start_ns;
	}
}

/* Merge all records (and each file's start and end) into one sorted stream. */
static struct event *merge(struct replay *r, uint64_t *n)
{
	uint64_t total = 0, k = 0;
	struct event *ev;

	for (uint32_t i = 0; i < r->nfiles; i++)
		total += r->files[i].nrecs + 2;
	ev = malloc((total ? total : 1) * sizeof(*ev));
	if (!ev)
		return NULL;
	for (uint32_t i = 0; i < r->nfiles; i++) {
		struct rfile *f = &r->files[i];

		ev[k++] = (struct event){ f->start_ns, i, 0, NULL, 1 };
		for (uint64_t j = 0; j < f->nrecs; j++)
			ev[k++] = (struct event){ f->recs[j].t_ns, i, (uint32_t)j + 1, &f->recs[j], 0 };
		ev[k++] = (struct event){ f->end_ns, i, UINT32_MAX, NULL, 0 };
	}
	qsort(ev, k, sizeof(*ev), event_cmp);
	*n = k;
	return ev;
}

/* The run-queue time of thread th over [a, b) from the sampler's spans of
 * the kinds in mask (1 << LC_RQ_*), passing the spans that end by a. */
static uint64_t span_time(struct replay *r, uint32_t th, uint64_t a, uint64_t b, uint32_t mask)
{
	size_t n, i;
	const struct lc_rq_span *v = lc_sched_spans(r->sched, th, &n);
	uint64_t acc = 0;

	for (i = r->span_at[th]; i < n && v[i].end <= a; i++)
		;
	r->span_at[th] = i;
	for (; i < n && v[i].start < b; i++) {
		uint64_t x = v[i].start > a ? v[i].start : a, y = v[i].end < b ? v[i].end : b;

		if (y > x && (mask & (1u << v[i].kind)))
			acc += y - x;
	}
	return acc;
}

/* Note the waits of o's threads at t; 0 or -ENOMEM. */
static int note_waits(struct replay *r, const struct lc_obs *o, uint64_t t)
{
	for (uint32_t i = 0; i < o->nthreads; i++) {
		uint32_t th = o->threads[i].thread, st = o->threads[i].state;
		uint32_t key = st | (uint32_t)o->procs[o->threads[i].proc].we << 8;

		if (lc_grow((void **)&r->span_at, &r->span_cap, (size_t)th + 1, sizeof(size_t)) ||
		    lc_waits_note(&r->waits, th, st, key, t))
			return -ENOMEM;
	}
	return 0;
}

/* Whether the event waiting thread i of o waits for has happened: every
 * other thread of its process has waited since i began to (as tick.c). */
static int wait_over(const struct replay *r, const struct lc_obs *o, uint32_t i)
{
	const struct lc_obs_thread *th = o->threads;
	uint64_t since = r->waits.since[th[i].thread];
	int others = 0;

	for (uint32_t k = 0; k < o->nthreads; k++) {
		if (k == i || th[k].proc != th[i].proc)
			continue;
		if (r->waits.at[th[k].thread] < since)
			return 0;
		others = 1;
	}
	return others;
}

/* Set the run-queue time that is resource contention of every thread of o
 * over [a, b) from the sampler's spans, by the sampler's rules: preempted
 * time while BUSY or once a waiter's event happened, woken time always. */
static int add_runq(struct replay *r, struct lc_obs *o, uint64_t a, uint64_t b)
{
	struct lc_obs_thread *th = r->threads;	/* o->threads, writable */

	if (!r->sched)
		return 0;
	if (note_waits(r, o, a))
		return -ENOMEM;
	if (o->nthreads > r->rqall_cap &&
	    lc_grow((void **)&r->rqall, &r->rqall_cap, o->nthreads, sizeof(*r->rqall)))
		return -ENOMEM;
	for (uint32_t i = 0; i < o->nthreads; i++) {
		uint32_t mask = 1u << LC_RQ_WOKEN, st = th[i].state, all;

		if (st == LC_ST_BUSY ||
		    ((st == LC_ST_SYNC || st == LC_ST_IDLE) &&
		     (wait_over(r, o, i) || lc_waits_work_began(&r->waits, th[i].thread))))
			mask |= 1u << LC_RQ_PREEMPT;
		all = 1u << LC_RQ_WOKEN | 1u << LC_RQ_PREEMPT;
		th[i].runq_ns = span_time(r, th[i].thread, a, b, mask);
		r->rqall[i] = mask == all ? th[i].runq_ns : span_time(r, th[i].thread, a, b, all);
	}
	/* the partners' rule, exact per interval between transitions: each
	 * arrival is a transition, and each thread's run-queue time since its
	 * last wait is summed from its spans */
	return lc_waits_partners(&r->waits, o, th, r->rqall, a, b - a);
}

/* Charge [*cur, until) (clamped to the window) with the current state. */
static int charge_to(struct replay *r, uint64_t *cur, uint64_t until, uint64_t t_end)
{
	struct lc_obs o;
	int rc;

	if (until > t_end)
		until = t_end;
	if (until <= *cur)
		return 0;
	rc = observe(r, &o);
	if (!rc)
		rc = add_runq(r, &o, *cur, until);
	if (rc)
		return rc;
	lc_accum_charge(r->acc, *cur - r->t0, until - *cur, &o);
	*cur = until;
	return 0;
}

int lc_replay(const char *dir, const char *session, uint64_t t0, uint64_t t_end,
	      const struct lc_departure *dep, uint32_t ndep, struct lc_accum *acc,
	      struct lc_threads *threads, const struct lc_sched *sched, struct lc_replay_stats *st,
	      char *err, size_t errlen)
{
	struct replay r = { .waits.ncpus = (uint32_t)sysconf(_SC_NPROCESSORS_ONLN),
			    .waits.on = lc_waits_rule_asked(),
			    .acc = acc, .names = threads, .t0 = t0,
			    .sched = sched && lc_sched_source(sched) != LC_SCHED_NONE ? sched : NULL };
	struct event *ev = NULL;
	uint64_t n = 0, cur = t0;
	int rc;

	memset(st, 0, sizeof(*st));
	rc = load_all(&r, dir, session, err, errlen);
	if (rc)
		goto out;
	set_ends(&r, t_end, dep, ndep);
	r.procs = calloc(r.nfiles ? r.nfiles : 1, sizeof(*r.procs));
	ev = merge(&r, &n);
	rc = -ENOMEM;
	if (!ev || !r.procs) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (uint64_t i = 0; i < n; i++) {
		if ((rc = charge_to(&r, &cur, ev[i].t, t_end)))
			goto out;
		apply(&r, &ev[i]);
	}
	rc = charge_to(&r, &cur, t_end, t_end);
out:
	st->files = r.nfiles;
	st->records = n > 2 * r.nfiles ? n - 2 * r.nfiles : 0;
	st->bad = r.bad;
	for (uint32_t i = 0; i < r.nfiles; i++) {
		free(r.files[i].recs);
		free(r.files[i].slots);
	}
	free(r.files);
	free(r.procs);
	free(r.threads);
	free(r.span_at);
	free(r.rqall);
	lc_waits_free(&r.waits);
	free(ev);
	return rc;
}

int lc_replay_cleanup(const char *dir, const char *session)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[4096];
	int32_t pid;
	uint64_t nonce;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (parse_trace_name(de->d_name, session, &pid, &nonce))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		n += !unlink(path);
	}
	closedir(d);
	return n;
}
