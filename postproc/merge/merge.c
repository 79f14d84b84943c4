/*
 * merge.c — one job profile from node files (see merge.h).
 *
 * Each node file's windows are finished with the node's own p (empty slots
 * charged to LI or IP there), then summed into the job's windows, whose
 * t_we/t_nwe are the longest of the nodes' and whose n_we/n_nwe are p times
 * those, so that the job's p adds nothing more: the job's totals are
 * exactly the sums of the nodes' totals.
 *
 * The job's timeline has the window schedule of the first file (its base
 * window and growth, lc_window_span) and starts at the earliest node's t0
 * on rank 0's clock (t0_f - clock_offset_f).  Node f's window [start,
 * start + len) lies at [start + off_f, start + off_f + len) there and goes
 * whole into the job window that holds its midpoint: for equal fixed
 * windows that is window w + round(off_f / window).  Where a node's
 * windows are finer than the job's, several add up in one job window
 * (which may then hold up to half a node window more at either end than
 * its length).  A node window longer than the job window that would hold
 * it cannot be placed by time and is refused; nodes recorded with the same
 * schedule never meet that, as a node that started later is earlier in
 * its schedule at any moment.
 */
#include "merge.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_profile.h"
#include "lc_util.h"

#define MAX_SHIFT_WINDOWS 1000000u	/* nodes further apart than this many
					 * base windows are not one job */
#define PID_NODE_SHIFT 22		/* pids above 2^22 do not exist on Linux */

int lc_merge_read(const char *path, const struct lc_read_opts *o, struct lc_profile **pr,
		  char *why, size_t len)
{
	char self[64];
	int fd = lc_open_regular(path, 0, why, len), r;

	*pr = NULL;
	if (fd < 0)
		return fd;
	/* the file just checked, whatever its name is by now */
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	r = lc_profile_read_opts(access(self, F_OK) ? path : self, o, pr, why, len);
	close(fd);
	return r;
}

/* The format minor of the file at path, or -1. */
static int file_minor(const char *path)
{
	unsigned char h[12];
	int fd = lc_open_regular(path, 0, NULL, 0), ok;

	if (fd < 0)
		return -1;
	ok = read(fd, h, sizeof(h)) == (ssize_t)sizeof(h);
	close(fd);
	return ok ? h[10] | h[11] << 8 : -1;
}

/* What one node has put into a job window (or a tag row of it) so far:
 * several windows of a node may go into one job window, and then their
 * times add up before the job keeps the longest node's. */
struct nodesum {
	int f;			/* the node's file + 1; 0: none yet */
	uint64_t we, nwe;	/* its t_we and t_nwe there */
	uint32_t max_n;		/* its most live threads at one tick */
	uint32_t row0;		/* its first thread row there */
};

/* One job window being built. */
struct jwin {
	int used;
	uint32_t ticks, max_n;
	struct lc_acct acct;
	struct nodesum sum;
	struct lc_prof_trow *rows;
	uint32_t nrows;
	size_t rcap;
	struct lc_prof_tagrow *tags;
	struct nodesum *tsum;	/* beside tags[] */
	uint32_t ntags;
	size_t tcap, tscap;
};

/* Everything of one merge. */
struct job {
	int n;
	struct lc_profile **pr;
	uint64_t base;		/* the job's window schedule: the first file's */
	uint32_t grow;
	uint64_t *off;		/* per file: where its t0 lies on the job's timeline */
	uint32_t *at[LC_NSRC];	/* per source: the job window of each node
				 * window, the files' windows one after another */
	uint32_t nwin[LC_NSRC];	/* per source: the last job window used + 1 */
	uint32_t *thread_base;	/* the file's first job thread index */
	int32_t *pid_add;	/* added to the file's pids (collisions) */
	uint32_t p;
};

/* Start node f's part of a job window (or tag row) when it is new. */
static void node_part(struct nodesum *ns, int f, uint32_t nrows)
{
	if (ns->f == f + 1)
		return;
	*ns = (struct nodesum){ .f = f + 1, .row0 = nrows };
}

/* Add b's categories, finished with p_f, into a job acct; t_* keep the
 * longest node's time (set n_* afterwards). */
static void add_finished(struct lc_acct *a, struct nodesum *ns, const struct lc_acct *b,
			 uint32_t pf)
{
	uint64_t cat[LC_NCAT];

	lc_acct_finish(b, pf, cat);
	lc_cat_add(a->cat, cat);
	a->li_qempty += b->li_qempty;
	ns->we += b->t_we;
	ns->nwe += b->t_nwe;
	if (ns->we > a->t_we)
		a->t_we = ns->we;
	if (ns->nwe > a->t_nwe)
		a->t_nwe = ns->nwe;
}

/* Fold node window w of file f into job window j. */
static int fold(const struct job *jb, int f, const struct lc_prof_window *w, struct jwin *j)
{
	uint32_t pf = jb->pr[f]->procs;
	int again = j->sum.f == f + 1;	/* another window of this node */

	node_part(&j->sum, f, j->nrows);
	j->used = 1;
	j->ticks += w->ticks;
	if (w->max_n > j->sum.max_n) {
		j->max_n += w->max_n - j->sum.max_n;
		j->sum.max_n = w->max_n;
	}
	add_finished(&j->acct, &j->sum, &w->acct, pf);
	for (uint32_t i = 0; i < w->nthreads; i++) {
		struct lc_prof_trow r = w->threads[i];
		uint32_t k = j->nrows;

		r.thread += jb->thread_base[f];
		/* a thread has one row per window: add to the row an earlier
		 * window of its node gave it here */
		if (again)
			for (k = j->sum.row0; k < j->nrows && j->rows[k].thread != r.thread; k++)
				;
		if (k < j->nrows) {
			lc_cat_add(j->rows[k].cat, r.cat);
			j->rows[k].li_qempty += r.li_qempty;
			continue;
		}
		if (lc_grow((void **)&j->rows, &j->rcap, (size_t)j->nrows + 1, sizeof(r)))
			return -ENOMEM;
		j->rows[j->nrows++] = r;
	}
	for (uint32_t i = 0; i < w->ntags; i++) {
		uint32_t k;

		for (k = 0; k < j->ntags && j->tags[k].tag != w->tags[i].tag; k++)
			;
		if (k == j->ntags) {
			if (lc_grow((void **)&j->tags, &j->tcap, (size_t)j->ntags + 1,
				    sizeof(*j->tags)) ||
			    lc_grow((void **)&j->tsum, &j->tscap, (size_t)j->ntags + 1,
				    sizeof(*j->tsum)))
				return -ENOMEM;
			j->tsum[j->ntags] = (struct nodesum){ 0 };
			j->tags[j->ntags++] = (struct lc_prof_tagrow){ .tag = w->tags[i].tag };
		}
		node_part(&j->tsum[k], f, 0);
		add_finished(&j->tags[k].acct, &j->tsum[k], &w->tags[i].acct, pf);
	}
	return 0;
}

/* Make the job p add nothing to an acct whose empty slots are in cat[]. */
static void settle(struct lc_acct *a, uint32_t p)
{
	a->n_we = (uint64_t)p * a->t_we;
	a->n_nwe = (uint64_t)p * a->t_nwe;
}

/* Build and write the job windows of source src. */
static int write_source(const struct job *jb, int src, struct lc_pwriter *w)
{
	uint32_t nwin = jb->nwin[src];
	struct jwin *jw;
	size_t k = 0;
	int r = 0;

	if (!nwin)
		return 0;
	jw = calloc(nwin, sizeof(*jw));
	if (!jw)
		return -ENOMEM;
	for (int f = 0; f < jb->n && !r; f++) {
		const struct lc_prof_data *d = &jb->pr[f]->data[src];

		for (uint32_t i = 0; i < d->nwindows && !r; i++)
			r = fold(jb, f, &d->windows[i], &jw[jb->at[src][k++]]);
	}
	for (uint32_t i = 0; i < nwin && !r; i++) {
		struct jwin *j = &jw[i];
		struct lc_prof_window win;
		uint64_t start, len;

		if (!j->used)
			continue;
		settle(&j->acct, jb->p);
		for (uint32_t t = 0; t < j->ntags; t++)
			settle(&j->tags[t].acct, jb->p);
		lc_window_span(jb->base, jb->grow, i, &start, &len);
		win = (struct lc_prof_window){
			.source = (uint8_t)src, .index = i, .start_ns = start, .len_ns = len,
			.ticks = j->ticks, .max_n = j->max_n,
			.acct = j->acct, .nthreads = j->nrows, .threads = j->rows,
			.ntags = j->ntags, .tags = j->tags,
		};
		r = lc_pwriter_window(w, &win);
	}
	for (uint32_t i = 0; i < nwin; i++) {
		free(jw[i].rows);
		free(jw[i].tags);
		free(jw[i].tsum);
	}
	free(jw);
	return r;
}

/* The lowest rank of pr (NULL: none): its clock offset is the node's. */
static const struct lc_prof_rank *node_rank(const struct lc_profile *pr)
{
	const struct lc_prof_rank *best = NULL;

	for (uint32_t i = 0; i < pr->nranks; i++)
		if (!best || pr->ranks[i].rank < best->rank)
			best = &pr->ranks[i];
	return best;
}

/* The clock offset of file f's node: that of its lowest rank. */
static int64_t node_offset(const struct lc_profile *pr)
{
	const struct lc_prof_rank *best = node_rank(pr);

	return best ? best->clock_offset_ns : 0;
}

/* A rank of the job and the file that holds it. */
struct rankat {
	int32_t rank;
	int f;
	uint32_t i;
};

static int cmp_rankat(const void *a, const void *b)
{
	const struct rankat *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->f != y->f ? (x->f < y->f ? -1 : 1) : (x->i > y->i) - (x->i < y->i);
}

static int cmp_pid(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* The pids of pr's processes, sorted, in a new array; NULL when out of
 * memory. */
static int32_t *sorted_pids(const struct lc_profile *pr)
{
	int32_t *pid = malloc(((size_t)pr->nprocesses + 1) * sizeof(*pid));

	for (uint32_t i = 0; pid && i < pr->nprocesses; i++)
		pid[i] = pr->processes[i].pid;
	if (pid)
		qsort(pid, pr->nprocesses, sizeof(*pid), cmp_pid);
	return pid;
}

/* Every rank of file f names one of that file's processes.  Returns 0,
 * -EINVAL or -ENOMEM with why. */
static int check_pids(const struct lc_profile *pr, const char *name, char *msg, size_t len)
{
	int32_t *pid = sorted_pids(pr);
	int r = 0;

	if (!pid)
		return lc_fail(msg, len, -ENOMEM, "out of memory");
	for (uint32_t i = 0; i < pr->nranks && !r; i++)
		if (!bsearch(&pr->ranks[i].pid, pid, pr->nprocesses, sizeof(*pid), cmp_pid))
			r = lc_fail(msg, len, -EINVAL, "%s: rank %d names pid %d, which is not one "
				    "of this file's processes: refused", name, pr->ranks[i].rank,
				    pr->ranks[i].pid);
	free(pid);
	return r;
}

/* Every rank of every file agrees on the job's size, lies below it and is
 * in one file once.  Returns 0, -EINVAL or -ENOMEM with why. */
static int check_ranks(struct lc_profile *const *pr, const char *const *names, int n, char *msg,
		       size_t len)
{
	uint32_t size = pr[0]->ranks[0].size;
	size_t total = 0, k = 0;
	struct rankat *all;
	int r = 0;

	for (int f = 0; f < n; f++) {
		total += pr[f]->nranks;
		for (uint32_t i = 0; i < pr[f]->nranks; i++) {
			const struct lc_prof_rank *rk = &pr[f]->ranks[i];

			if (rk->size != size)
				return lc_fail(msg, len, -EINVAL, "%s: rank %d says the job has %u "
					       "ranks, %s's rank %d says %u: refused", names[f],
					       rk->rank, rk->size, names[0], pr[0]->ranks[0].rank,
					       size);
			if (rk->rank < 0 || (uint32_t)rk->rank >= size)
				return lc_fail(msg, len, -EINVAL, "%s: rank %d is outside the "
					       "job's %u ranks: refused", names[f], rk->rank, size);
		}
	}
	all = malloc((total ? total : 1) * sizeof(*all));
	if (!all)
		return lc_fail(msg, len, -ENOMEM, "out of memory");
	for (int f = 0; f < n; f++)
		for (uint32_t i = 0; i < pr[f]->nranks; i++)
			all[k++] = (struct rankat){ pr[f]->ranks[i].rank, f, i };
	qsort(all, total, sizeof(*all), cmp_rankat);
	for (size_t i = 1; i < total && !r; i++)
		if (all[i].rank == all[i - 1].rank)
			r = lc_fail(msg, len, -EINVAL, "%s: rank %d is also in %s: refused",
				    names[all[i].f], all[i].rank,
				    all[i - 1].f == all[i].f ? "this file" : names[all[i - 1].f]);
	free(all);
	return r;
}

/* Where node f starts on rank 0's clock: t0 minus its clock offset, or
 * -EINVAL with why when that is out of range (a hostile offset). */
static int node_start(const struct lc_profile *pr, const char *name, int64_t *s, char *msg,
		      size_t len)
{
	int64_t off = node_offset(pr);

	if (pr->info.t0_ns > INT64_MAX || __builtin_sub_overflow((int64_t)pr->info.t0_ns, off, s))
		return lc_fail(msg, len, -EINVAL, "%s: rank %d's clock offset of %lld ns is out "
			       "of range: refused", name, pr->nranks ? node_rank(pr)->rank : 0,
			       (long long)off);
	return 0;
}

int lc_merge_check(struct lc_profile *const *pr, const char *const *names, int n, char *msg,
		   size_t len)
{
	uint64_t job;
	int64_t lo = INT64_MAX, hi = INT64_MIN, d;
	int r;

	if (n < 1)
		return lc_fail(msg, len, -EINVAL, "no node files");
	job = pr[0]->nranks ? pr[0]->ranks[0].job_id : 0;
	for (int f = 0; f < n; f++) {
		int64_t s;

		if (!pr[f]->nranks)
			return lc_fail(msg, len, -EINVAL, "%s has no rank records: not a node "
				       "file of an MPI job (lostcycles exec)", names[f]);
		for (uint32_t i = 0; i < pr[f]->nranks; i++)
			if (pr[f]->ranks[i].job_id != job)
				return lc_fail(msg, len, -EINVAL, "%s and %s are of different "
					       "jobs (job ids %016llx and %016llx)", names[0],
					       names[f], (unsigned long long)job,
					       (unsigned long long)pr[f]->ranks[i].job_id);
		for (int g = 0; g < f; g++)
			if (pr[f]->info.hostname && pr[g]->info.hostname &&
			    !strcmp(pr[f]->info.hostname, pr[g]->info.hostname))
				return lc_fail(msg, len, -EINVAL, "%s and %s are both of host %s",
					       names[g], names[f], pr[f]->info.hostname);
		if ((r = check_pids(pr[f], names[f], msg, len)) ||
		    (r = node_start(pr[f], names[f], &s, msg, len)))
			return r;
		if (s < lo)
			lo = s;
		if (s > hi)
			hi = s;
	}
	if (__builtin_sub_overflow(hi, lo, &d))
		return lc_fail(msg, len, -EINVAL, "the nodes' clock offsets put their starts "
			       "more than 292 years apart: not one job");
	return check_ranks(pr, names, n, msg, len);
}

/* Check that the files can be one job.  Returns 0 or -EINVAL with why. */
static int check(const struct job *jb, char *const *paths, char *msg, size_t len)
{
	int m0 = file_minor(paths[0]);

	for (int f = 0; f < jb->n; f++) {
		int m = file_minor(paths[f]);

		if (m != m0)
			return lc_fail(msg, len, -EINVAL, "%s is format 1.%d, %s is 1.%d: record "
				       "all nodes with the same lostcycles", paths[0], m0,
				       paths[f], m);
	}
	return lc_merge_check(jb->pr, (const char *const *)paths, jb->n, msg, len);
}

/* Where each node's t0 lies on the job's timeline (rank 0's clock, from
 * the earliest node's t0). */
static int align(struct job *jb, char *const *paths, char *msg, size_t len)
{
	int64_t t0 = INT64_MAX, *st = calloc((size_t)jb->n, sizeof(*st));
	int r = 0;

	if (!st)
		return lc_fail(msg, len, -ENOMEM, "out of memory");
	for (int f = 0; f < jb->n; f++) {
		/* checked by lc_merge_check: no overflow here or below */
		node_start(jb->pr[f], "", &st[f], msg, len);
		if (st[f] < t0)
			t0 = st[f];
	}
	for (int f = 0; f < jb->n && !r; f++) {
		int64_t s = st[f] - t0;

		jb->off[f] = (uint64_t)s;
		if (jb->off[f] / jb->base > MAX_SHIFT_WINDOWS)
			r = lc_fail(msg, len, -EINVAL, "%s: rank %d's clock offset puts its "
				    "start %.1f s after another node's: not one job", paths[f],
				    node_rank(jb->pr[f])->rank, (double)s / 1e9);
	}
	free(st);
	return r;
}

/* The nominal length of window w of pr (files of format minor 2 and
 * older: the info block's window). */
static uint64_t node_len(const struct lc_profile *pr, const struct lc_prof_window *w)
{
	if (w->len_ns)
		return w->len_ns;
	return pr->info.window_ns ? pr->info.window_ns : 1;
}

/* a + b, at most UINT64_MAX. */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* The job window of every node window: the one that holds its midpoint on
 * the job's timeline.  Returns 0, or -EINVAL / -ENOMEM with why; done
 * before the output exists, so that a refusal leaves nothing behind. */
static int place(struct job *jb, char *const *paths, char *msg, size_t len)
{
	for (int s = 0; s < LC_NSRC; s++) {
		size_t n = 0, k = 0;

		for (int f = 0; f < jb->n; f++)
			n += jb->pr[f]->data[s].nwindows;
		jb->at[s] = malloc((n ? n : 1) * sizeof(*jb->at[s]));
		if (!jb->at[s])
			return lc_fail(msg, len, -ENOMEM, "out of memory");
		for (int f = 0; f < jb->n; f++) {
			const struct lc_prof_data *d = &jb->pr[f]->data[s];

			for (uint32_t i = 0; i < d->nwindows; i++) {
				const struct lc_prof_window *w = &d->windows[i];
				uint64_t l = node_len(jb->pr[f], w), at, st, jl;
				uint32_t j;

				at = sat_add(sat_add(w->start_ns, jb->off[f]), l / 2);
				j = lc_window_at(jb->base, jb->grow, at);
				lc_window_span(jb->base, jb->grow, j, &st, &jl);
				if (j == UINT32_MAX || st == UINT64_MAX)
					return lc_fail(msg, len, -EINVAL, "%s: a window at %.3f s "
						       "lies past the end of the job's timeline",
						       paths[f], (double)at / 1e9);
				if (l > jl)
					return lc_fail(msg, len, -EINVAL, "%s has %g ms windows "
						       "at %.3f s, where the job's timeline (the "
						       "windows of %s, the first file) has %g ms "
						       "ones: record every node with the same -w "
						       "and --window-grow, or name a file with "
						       "windows at least as long first", paths[f],
						       (double)l / 1e6, (double)at / 1e9, paths[0],
						       (double)jl / 1e6);
				jb->at[s][k++] = j;
				if (j + 1 > jb->nwin[s])
					jb->nwin[s] = j + 1;
			}
		}
	}
	return 0;
}

/* Whether a process of node f has the pid of one of an earlier node. */
static int pid_clash(const struct job *jb, int f)
{
	for (int g = 0; g < f; g++)
		for (uint32_t i = 0; i < jb->pr[f]->nprocesses; i++)
			for (uint32_t k = 0; k < jb->pr[g]->nprocesses; k++)
				if (jb->pr[f]->processes[i].pid == jb->pr[g]->processes[k].pid)
					return 1;
	return 0;
}

/* Pid offsets so that equal pids of different nodes stay apart, and the
 * job's thread numbering. */
static void number(struct job *jb)
{
	uint32_t base = 0;

	for (int f = 0; f < jb->n; f++) {
		jb->pid_add[f] = pid_clash(jb, f) ? (int32_t)((uint32_t)f << PID_NODE_SHIFT) : 0;
		jb->thread_base[f] = base;
		base += jb->pr[f]->nthreads;
	}
}

/* Write the header blocks: info, processes, ranks, threads. */
static int write_head(const struct job *jb, const char *out, struct lc_pwriter **wp,
		      char *msg, size_t len)
{
	struct lc_prof_info info = jb->pr[0]->info;
	char host[1024] = "";
	uint32_t idx = 0;
	int e = 0;

	for (int f = 0; f < jb->n; f++) {
		const struct lc_prof_info *in = &jb->pr[f]->info;

		info.unavailable |= in->unavailable;
		for (int c = 0; c < LC_NCAT; c++)
			if (!info.reason[c])
				info.reason[c] = in->reason[c];
		if (in->start_realtime_ns < info.start_realtime_ns)
			info.start_realtime_ns = in->start_realtime_ns;
		if (in->interval_ns > info.interval_ns)
			info.interval_ns = in->interval_ns;
		snprintf(host + strlen(host), sizeof(host) - strlen(host), "%s%s", f ? "+" : "",
			 in->hostname ? in->hostname : "?");
	}
	info.hostname = host;
	info.procs_option = 0;
	info.sampler_cpu = -1;
	*wp = lc_pwriter_open(out, &info, &e);
	if (!*wp)
		return lc_fail(msg, len, e, "%s: %s", out, strerror(-e));
	for (int f = 0; f < jb->n; f++) {
		const struct lc_profile *pr = jb->pr[f];

		for (uint32_t i = 0; i < pr->nprocesses; i++) {
			struct lc_prof_process p = pr->processes[i];

			p.pid += jb->pid_add[f];
			p.attach_ns += jb->off[f];
			lc_pwriter_process(*wp, &p);
		}
		for (uint32_t i = 0; i < pr->nranks; i++) {
			struct lc_prof_rank r = pr->ranks[i];

			r.pid += jb->pid_add[f];
			lc_pwriter_rank(*wp, &r);
		}
		for (uint32_t i = 0; i < pr->nthreads; i++) {
			struct lc_prof_thread t = pr->threads[i];

			t.idx = idx++;
			t.pid += jb->pid_add[f];
			t.first_ns += jb->off[f];
			lc_pwriter_thread(*wp, &t);
		}
	}
	return 0;
}

/* The end block: p summed, the nodes' statistics combined. */
static int write_end(const struct job *jb, struct lc_pwriter *w, int ncut)
{
	struct lc_prof_end e = { .procs = jb->p, .procs_from = LC_PROCS_THREADS,
				 .exit_status = 0, .shared_cpu = -1 };
	char reason[128];

	for (int f = 0; f < jb->n; f++) {
		const struct lc_profile *pr = jb->pr[f];
		uint64_t end = pr->ended ? pr->end.end_ns : 0;

		if (!pr->ended)
			for (int s = 0; s < LC_NSRC; s++)
				if (pr->data[s].nwindows) {
					const struct lc_prof_window *lw =
						&pr->data[s].windows[pr->data[s].nwindows - 1];
					uint64_t t = lw->start_ns + lc_acct_wall(&lw->acct);

					if (t > end)
						end = t;
				}
		end += jb->off[f];
		if (end > e.end_ns)
			e.end_ns = end;
		e.ticks += pr->ended ? pr->end.ticks : 0;
		if (pr->ended && pr->end.max_gap_ns > e.max_gap_ns)
			e.max_gap_ns = pr->end.max_gap_ns;
		e.wasted_lost += pr->ended ? pr->end.wasted_lost : 0;
		e.bad_reads += pr->ended ? pr->end.bad_reads : 0;
		e.untracked += pr->ended ? pr->end.untracked : 0;
		e.fd_flags |= pr->ended ? pr->end.fd_flags : 0;
		if (pr->ended && pr->end.exit_status && !e.exit_status)
			e.exit_status = pr->end.exit_status;
		/* what was measured: a category unavailable on one node is
		 * unavailable for the job (this end block has the final say, so
		 * it must carry the nodes' answers, with the first reason) */
		e.unavailable |= pr->info.unavailable;
		for (int c = 0; c < LC_NCAT; c++) {
			if (!e.reason_na[c] && (pr->info.unavailable & (1u << c)))
				e.reason_na[c] = pr->info.reason[c];
			if (!e.method[c] && pr->ended && pr->end.ext)
				e.method[c] = pr->end.method[c];
		}
		if (pr->ended && pr->end.ext) {
			e.sampler_cpu_ns += pr->end.sampler_cpu_ns;
			e.missed_ticks += pr->end.missed_ticks;
			e.ncpus += pr->end.ncpus;
			if (!e.sched_source)
				e.sched_source = pr->end.sched_source;
		}
	}
	snprintf(reason, sizeof(reason), "merged %d node file%s%s", jb->n, jb->n == 1 ? "" : "s",
		 ncut ? " (some cut short)" : "");
	e.reason = reason;
	return lc_pwriter_end(w, &e);
}

/* The arrays of jb, one row per node file (jb->n); 0 or -ENOMEM. */
static int job_alloc(struct job *jb)
{
	size_t n = (size_t)jb->n;

	jb->pr = calloc(n, sizeof(*jb->pr));
	jb->off = calloc(n, sizeof(*jb->off));
	jb->thread_base = calloc(n, sizeof(*jb->thread_base));
	jb->pid_add = calloc(n, sizeof(*jb->pid_add));
	return jb->pr && jb->off && jb->thread_base && jb->pid_add ? 0 : -ENOMEM;
}

/* Free what jb holds (not jb). */
static void job_free(struct job *jb)
{
	for (int f = 0; jb->pr && f < jb->n; f++)
		lc_profile_free(jb->pr[f]);
	free(jb->pr);
	free(jb->off);
	for (int s = 0; s < LC_NSRC; s++)
		free(jb->at[s]);
	free(jb->thread_base);
	free(jb->pid_add);
}

/* Sum the node files' processors into jb->p and their ranks into st, with
 * a note for each file cut short or whose pids were moved; returns how
 * many were cut short. */
static int count_nodes(struct job *jb, char *const *paths, struct lc_merge_stats *st)
{
	int ncut = 0;

	for (int f = 0; f < jb->n; f++) {
		jb->p += jb->pr[f]->procs;
		st->ranks += jb->pr[f]->nranks;
		if (jb->pr[f]->cut) {
			ncut++;
			lc_append_line(st->notes, sizeof(st->notes), "%s is cut after byte %llu: "
				       "merged what it holds", paths[f],
				       (unsigned long long)jb->pr[f]->cut_offset);
		}
		if (jb->pid_add[f])
			lc_append_line(st->notes, sizeof(st->notes), "%s: pids also used on "
				       "another node appear as pid + %d", paths[f], jb->pid_add[f]);
	}
	return ncut;
}

int lc_merge(char *const *paths, int n, const char *out, struct lc_merge_stats *st, char *msg,
	     size_t len)
{
	struct job jb = { .n = n };
	struct lc_pwriter *w = NULL;
	char why[256];
	int r = 0, ncut = 0;

	*st = (struct lc_merge_stats){ 0 };
	if (n < 1)
		return lc_fail(msg, len, -EINVAL, "no node files");
	if (job_alloc(&jb)) {
		r = lc_fail(msg, len, -ENOMEM, "out of memory");
		goto out;
	}
	for (int f = 0; f < n && !r; f++)
		if (lc_merge_read(paths[f], NULL, &jb.pr[f], why, sizeof(why)))
			r = lc_fail(msg, len, -EINVAL, "%s: %s", paths[f], why);
	if (r || (r = check(&jb, paths, msg, len)))
		goto out;
	jb.base = jb.pr[0]->info.window_ns ? jb.pr[0]->info.window_ns : 1;
	jb.grow = jb.pr[0]->info.window_grow;
	if ((r = align(&jb, paths, msg, len)) || (r = place(&jb, paths, msg, len)))
		goto out;
	number(&jb);
	ncut = count_nodes(&jb, paths, st);
	if ((r = write_head(&jb, out, &w, msg, len)))
		goto out;
	for (int s = 0; s < LC_NSRC && !r; s++)
		r = write_source(&jb, s, w);
	if (!r)
		r = write_end(&jb, w, ncut);
	if (r && r != -ENOMEM)
		lc_fail(msg, len, r, "%s: %s", out, strerror(-r));
	else if (r)
		lc_fail(msg, len, r, "out of memory");
	st->files = (uint32_t)n;
	st->procs = jb.p;
	st->job_id = jb.pr[0]->ranks[0].job_id;
out:
	if (w) {
		int e = lc_pwriter_close(w);

		if (!r && e)
			r = lc_fail(msg, len, e, "%s: %s", out, strerror(-e));
	}
	job_free(&jb);
	return r;
}
