/*
 * merge.c — one job profile from node files (see merge.h).
 *
 * Each node file's windows are finished with the node's own p (empty slots
 * charged to LI or IP there), then summed into the job's windows, whose
 * t_we/t_nwe are the longest of the nodes' and whose n_we/n_nwe are p times
 * those, so that the job's p adds nothing more: the job's totals are
 * exactly the sums of the nodes' totals.  Node f's window w becomes job
 * window w + shift_f, where shift_f aligns the nodes' start times on rank
 * 0's clock (t0_f - clock_offset_f).
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

#define MAX_SHIFT_WINDOWS 1000000u	/* nodes further apart are not one job */
#define PID_NODE_SHIFT 22		/* pids above 2^22 do not exist on Linux */

/* The format minor of the file at path, or -1. */
static int file_minor(const char *path)
{
	unsigned char h[12];
	int fd = open(path, O_RDONLY | O_CLOEXEC), ok;

	if (fd < 0)
		return -1;
	ok = read(fd, h, sizeof(h)) == (ssize_t)sizeof(h);
	close(fd);
	return ok ? h[10] | h[11] << 8 : -1;
}

/* One job window being built. */
struct jwin {
	int used;
	uint32_t ticks, max_n;
	struct lc_acct acct;
	struct lc_prof_trow *rows;
	uint32_t nrows;
	size_t rcap;
	struct lc_prof_tagrow *tags;
	uint32_t ntags;
	size_t tcap;
};

/* Everything of one merge. */
struct job {
	int n;
	struct lc_profile **pr;
	int64_t *shift;		/* window shift per file */
	uint32_t *thread_base;	/* the file's first job thread index */
	int32_t *pid_add;	/* added to the file's pids (collisions) */
	uint32_t p;
};

/* Add b's categories, finished with p_f, into a job acct; t_* keep the
 * longest (set n_* afterwards). */
static void add_finished(struct lc_acct *a, const struct lc_acct *b, uint32_t pf)
{
	uint64_t cat[LC_NCAT];

	lc_acct_finish(b, pf, cat);
	for (int c = 0; c < LC_NCAT; c++)
		a->cat[c] += cat[c];
	a->li_qempty += b->li_qempty;
	if (b->t_we > a->t_we)
		a->t_we = b->t_we;
	if (b->t_nwe > a->t_nwe)
		a->t_nwe = b->t_nwe;
}

/* Fold node window w of file f into job window j. */
static int fold(const struct job *jb, int f, const struct lc_prof_window *w, struct jwin *j)
{
	uint32_t pf = jb->pr[f]->procs;

	j->used = 1;
	j->ticks += w->ticks;
	j->max_n += w->max_n;
	add_finished(&j->acct, &w->acct, pf);
	for (uint32_t i = 0; i < w->nthreads; i++) {
		struct lc_prof_trow r = w->threads[i];

		r.thread += jb->thread_base[f];
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
				    sizeof(*j->tags)))
				return -ENOMEM;
			j->tags[j->ntags++] = (struct lc_prof_tagrow){ .tag = w->tags[i].tag };
		}
		add_finished(&j->tags[k].acct, &w->tags[i].acct, pf);
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
static int write_source(const struct job *jb, int src, struct lc_pwriter *w, uint64_t window_ns)
{
	int64_t last = -1;
	struct jwin *jw;
	int r = 0;

	for (int f = 0; f < jb->n; f++) {
		const struct lc_prof_data *d = &jb->pr[f]->data[src];

		if (d->nwindows)
			if ((int64_t)d->windows[d->nwindows - 1].index + jb->shift[f] > last)
				last = (int64_t)d->windows[d->nwindows - 1].index + jb->shift[f];
	}
	if (last < 0)
		return 0;
	jw = calloc((size_t)last + 1, sizeof(*jw));
	if (!jw)
		return -ENOMEM;
	for (int f = 0; f < jb->n && !r; f++) {
		const struct lc_prof_data *d = &jb->pr[f]->data[src];

		for (uint32_t i = 0; i < d->nwindows && !r; i++)
			r = fold(jb, f, &d->windows[i], &jw[d->windows[i].index + jb->shift[f]]);
	}
	for (int64_t i = 0; i <= last && !r; i++) {
		struct jwin *j = &jw[i];
		struct lc_prof_window win;

		if (!j->used)
			continue;
		settle(&j->acct, jb->p);
		for (uint32_t k = 0; k < j->ntags; k++)
			settle(&j->tags[k].acct, jb->p);
		win = (struct lc_prof_window){
			.source = (uint8_t)src, .index = (uint32_t)i,
			.start_ns = (uint64_t)i * window_ns, .ticks = j->ticks, .max_n = j->max_n,
			.acct = j->acct, .nthreads = j->nrows, .threads = j->rows,
			.ntags = j->ntags, .tags = j->tags,
		};
		r = lc_pwriter_window(w, &win);
	}
	for (int64_t i = 0; i <= last; i++) {
		free(jw[i].rows);
		free(jw[i].tags);
	}
	free(jw);
	return r;
}

/* The clock offset of file f's node: that of its lowest rank. */
static int64_t node_offset(const struct lc_profile *pr)
{
	const struct lc_prof_rank *best = NULL;

	for (uint32_t i = 0; i < pr->nranks; i++)
		if (!best || pr->ranks[i].rank < best->rank)
			best = &pr->ranks[i];
	return best ? best->clock_offset_ns : 0;
}

/* Check that the files can be one job.  Returns 0 or -EINVAL with why. */
static int check(const struct job *jb, char *const *paths, char *msg, size_t len)
{
	int m0 = file_minor(paths[0]);
	uint64_t job = jb->pr[0]->nranks ? jb->pr[0]->ranks[0].job_id : 0;

	for (int f = 0; f < jb->n; f++) {
		const struct lc_profile *pr = jb->pr[f];
		int m = file_minor(paths[f]);

		if (m != m0)
			return lc_fail(msg, len, -EINVAL, "%s is format 1.%d, %s is 1.%d: record "
				       "all nodes with the same lostcycles", paths[0], m0,
				       paths[f], m);
		if (!pr->nranks)
			return lc_fail(msg, len, -EINVAL, "%s has no rank records: not a node "
				       "file of an MPI job (lostcycles exec)", paths[f]);
		for (uint32_t i = 0; i < pr->nranks; i++)
			if (pr->ranks[i].job_id != job)
				return lc_fail(msg, len, -EINVAL, "%s and %s are of different "
					       "jobs (job ids %016llx and %016llx)", paths[0],
					       paths[f], (unsigned long long)job,
					       (unsigned long long)pr->ranks[i].job_id);
		if (pr->info.window_ns != jb->pr[0]->info.window_ns)
			return lc_fail(msg, len, -EINVAL, "%s has %llu ns windows, %s %llu ns: "
				       "give all nodes the same -w", paths[0],
				       (unsigned long long)jb->pr[0]->info.window_ns, paths[f],
				       (unsigned long long)pr->info.window_ns);
		for (int g = 0; g < f; g++)
			if (pr->info.hostname && jb->pr[g]->info.hostname &&
			    !strcmp(pr->info.hostname, jb->pr[g]->info.hostname))
				return lc_fail(msg, len, -EINVAL, "%s and %s are both of host %s",
					       paths[g], paths[f], pr->info.hostname);
	}
	return 0;
}

/* Window shifts from the nodes' start times on rank 0's clock. */
static int align(struct job *jb, char *msg, size_t len)
{
	uint64_t wns = jb->pr[0]->info.window_ns;
	int64_t t0 = INT64_MAX;

	for (int f = 0; f < jb->n; f++) {
		int64_t s = (int64_t)jb->pr[f]->info.t0_ns - node_offset(jb->pr[f]);

		if (s < t0)
			t0 = s;
	}
	for (int f = 0; f < jb->n; f++) {
		int64_t s = (int64_t)jb->pr[f]->info.t0_ns - node_offset(jb->pr[f]) - t0;

		jb->shift[f] = (s + (int64_t)wns / 2) / (int64_t)wns;
		if (jb->shift[f] > MAX_SHIFT_WINDOWS)
			return lc_fail(msg, len, -EINVAL, "the nodes started %.1f s apart: not "
				       "one job", (double)s / 1e9);
	}
	return 0;
}

/* Pid offsets so that equal pids of different nodes stay apart, and the
 * job's thread numbering. */
static void number(struct job *jb)
{
	uint32_t base = 0;

	for (int f = 0; f < jb->n; f++) {
		int clash = 0;

		for (int g = 0; g < f && !clash; g++)
			for (uint32_t i = 0; i < jb->pr[f]->nprocesses && !clash; i++)
				for (uint32_t k = 0; k < jb->pr[g]->nprocesses; k++)
					if (jb->pr[f]->processes[i].pid ==
					    jb->pr[g]->processes[k].pid)
						clash = 1;
		jb->pid_add[f] = clash ? (int32_t)((uint32_t)f << PID_NODE_SHIFT) : 0;
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
			p.attach_ns += (uint64_t)jb->shift[f] * info.window_ns;
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
			t.first_ns += (uint64_t)jb->shift[f] * info.window_ns;
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
	uint64_t wns = jb->pr[0]->info.window_ns;
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
		end += (uint64_t)jb->shift[f] * wns;
		if (end > e.end_ns)
			e.end_ns = end;
		e.ticks += pr->ended ? pr->end.ticks : 0;
		if (pr->ended && pr->end.max_gap_ns > e.max_gap_ns)
			e.max_gap_ns = pr->end.max_gap_ns;
		e.wasted_lost += pr->ended ? pr->end.wasted_lost : 0;
		e.bad_reads += pr->ended ? pr->end.bad_reads : 0;
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
	jb.pr = calloc((size_t)n, sizeof(*jb.pr));
	jb.shift = calloc((size_t)n, sizeof(*jb.shift));
	jb.thread_base = calloc((size_t)n, sizeof(*jb.thread_base));
	jb.pid_add = calloc((size_t)n, sizeof(*jb.pid_add));
	if (!jb.pr || !jb.shift || !jb.thread_base || !jb.pid_add) {
		r = lc_fail(msg, len, -ENOMEM, "out of memory");
		goto out;
	}
	for (int f = 0; f < n && !r; f++)
		if (lc_profile_read(paths[f], &jb.pr[f], why, sizeof(why)))
			r = lc_fail(msg, len, -EINVAL, "%s: %s", paths[f], why);
	if (r || (r = check(&jb, paths, msg, len)) || (r = align(&jb, msg, len)))
		goto out;
	number(&jb);
	for (int f = 0; f < n; f++) {
		jb.p += jb.pr[f]->procs;
		st->ranks += jb.pr[f]->nranks;
		if (jb.pr[f]->cut) {
			ncut++;
			lc_append_line(st->notes, sizeof(st->notes), "%s is cut after byte %llu: "
				       "merged what it holds", paths[f],
				       (unsigned long long)jb.pr[f]->cut_offset);
		}
		if (jb.pid_add[f])
			lc_append_line(st->notes, sizeof(st->notes), "%s: pids also used on "
				       "another node appear as pid + %d", paths[f], jb.pid_add[f]);
	}
	if ((r = write_head(&jb, out, &w, msg, len)))
		goto out;
	for (int s = 0; s < LC_NSRC && !r; s++)
		r = write_source(&jb, s, w, jb.pr[0]->info.window_ns);
	if (!r)
		r = write_end(&jb, w, ncut);
	if (r && r != -ENOMEM)
		lc_fail(msg, len, r, "%s: %s", out, strerror(-r));
	else if (r)
		lc_fail(msg, len, r, "out of memory");
	st->files = (uint32_t)n;
	st->procs = jb.p;
out:
	if (w) {
		int e = lc_pwriter_close(w);

		if (!r && e)
			r = lc_fail(msg, len, e, "%s: %s", out, strerror(-e));
	}
	for (int f = 0; jb.pr && f < n; f++)
		lc_profile_free(jb.pr[f]);
	free(jb.pr);
	free(jb.shift);
	free(jb.thread_base);
	free(jb.pid_add);
	return r;
}
