/*
 * report.c — print a profile the way the thesis's pp does (Figure 4.3), or
 * as a pp -l line for a runs file, per thread, per window, per fragment tag,
 * as text, CSV or JSON.  See report.h.
 */
#include "report.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_color.h"
#include "lc_emit.h"
#include "lc_program.h"
#include "lc_util.h"

/* What is printed: one acct finished for p, with its derived numbers. */
struct view {
	uint64_t cat[LC_NCAT];
	uint64_t qempty;
	uint64_t total;
	double wall;		/* seconds: total / p */
	double nobs;		/* tick observations behind it: 0 = not sampled */
};

static double pct(uint64_t ns, uint64_t total)
{
	return total ? 100.0 * (double)ns / (double)total : 0.0;
}

/* Finish acct a for the profile's p into v. */
static void make_view(const struct lc_profile *pr, const struct lc_acct *a, struct view *v)
{
	v->total = lc_profile_finish(pr, a, v->cat);
	v->qempty = a->li_qempty;
	v->wall = pr->procs ? lc_sec(v->total) / pr->procs : lc_sec(lc_acct_wall(a));
	v->nobs = 0;
}

/* The ticks of the windows of d. */
static uint64_t sampled_ticks(const struct lc_prof_data *d)
{
	uint64_t ticks = 0;

	for (uint32_t i = 0; i < d->nwindows; i++)
		ticks += d->windows[i].ticks;
	return ticks;
}

/* The slot observations behind v when it comes from the sampled source:
 * p slots read at every tick, scaled by v's share of the whole run's slot
 * time (a fragment tag holds part of the ticks).  0 for the trace source or
 * a profile without ticks. */
static double observations(const struct lc_profile *pr, const struct lc_report_opts *o,
			   const struct view *v)
{
	const struct lc_prof_data *d = &pr->data[LC_SRC_SAMPLED];
	uint64_t whole[LC_NCAT], ticks = sampled_ticks(d);
	uint64_t wt = lc_profile_finish(pr, &d->total, whole);

	if (o->source != LC_SRC_SAMPLED || !wt || !ticks)
		return 0;
	return (double)ticks * pr->procs * ((double)v->total / (double)wt);
}

/* The binomial standard error, in seconds, of ns out of v's total: each of
 * the v->nobs slot observations fell in the category with probability f. */
static double std_err(const struct view *v, uint64_t ns)
{
	double f;

	if (v->nobs <= 0 || !v->total)
		return 0;
	f = (double)ns / (double)v->total;
	return lc_sec(v->total) * sqrt(f * (1 - f) / v->nobs);
}

static int unavailable(const struct lc_profile *pr, int c)
{
	return (pr->info.unavailable >> c) & 1;
}

static const char *reason(const struct lc_profile *pr, int c)
{
	return pr->info.reason[c] ? pr->info.reason[c] : "not measured";
}

/* How available category c was measured, into buf: the end block's method,
 * and for RC the scheduler source when the method does not name it.  NULL
 * when the profile does not say (flag categories, files before minor 2). */
static const char *method(const struct lc_profile *pr, int c, char *buf, size_t len)
{
	const char *m, *s;

	if (!pr->ended || !pr->end.ext || unavailable(pr, c))
		return NULL;
	m = pr->end.method[c];
	s = c == LC_CAT_RC ? lc_sched_source_name(pr->end.sched_source) : NULL;
	if (m && s && !strstr(m, s))
		snprintf(buf, len, "%s (run queue from %s)", m, s);
	else if (s && !m)
		snprintf(buf, len, "run queue from %s", s);
	else if (m)
		snprintf(buf, len, "%s", m);
	else
		return NULL;
	return buf;
}

static const char *procs_from(uint32_t from)
{
	return lc_procs_from_name(from);
}

/* p, the rule that chose it and what the others give (profiles of format
 * minor 4 say), else the rule alone. */
static const char *procs_why(const struct lc_profile *pr, char *buf, size_t len)
{
	if (!pr->ended || !pr->end.p_rules)
		snprintf(buf, len, "%u (%s)", pr->procs, procs_from(pr->procs_from));
	else
		lc_procs_text(buf, len, pr->procs, pr->procs_from, pr->end.max_threads,
			      pr->end.max_runnable, pr->end.affinity_cpus);
	return buf;
}

/* The tag row of d for tag, or NULL. */
static const struct lc_prof_tagrow *find_tag(const struct lc_prof_data *d, int64_t tag)
{
	for (uint32_t i = 0; i < d->ntags; i++)
		if (d->tags[i].tag == tag)
			return &d->tags[i];
	return NULL;
}

/* The name o's caller gives tag, or NULL. */
static const char *tag_name(const struct lc_report_opts *o, int64_t tag)
{
	return o->tag_name ? o->tag_name(o->tag_arg, tag) : NULL;
}

/* "tags present: 1 2 (file.c:12) 3" (or "no tags") into buf. */
static void list_tags(const struct lc_report_opts *o, const struct lc_prof_data *d,
		      char *buf, size_t len)
{
	size_t off;

	if (!d->ntags) {
		snprintf(buf, len, "the profile has no fragment tags");
		return;
	}
	off = (size_t)snprintf(buf, len, "tags present:");
	for (uint32_t i = 0; i < d->ntags && off < len; i++) {
		const char *name = tag_name(o, d->tags[i].tag);

		off += (size_t)snprintf(buf + off, len - off, " %" PRId64 "%s%s%s",
					d->tags[i].tag, name ? " (" : "", name ? name : "",
					name ? ")" : "");
	}
}

/* The cut note, or "" when the profile is complete. */
static void cut_note(const struct lc_profile *pr, const struct lc_prof_data *d,
		     char *buf, size_t len)
{
	buf[0] = 0;
	if (pr->cut)
		snprintf(buf, len, "profile cut at byte %" PRIu64 ": shows the first %u "
			 "windows (%.6f s)%s", pr->cut_offset, d->nwindows,
			 lc_sec(lc_acct_wall(&d->total)),
			 pr->ended ? "" : "; the recording was cut short (no end block): its "
			 "ticks are those the windows hold");
}

/* ---- the sampler's own run ---------------------------------------------- */

/* What the sampler says of its run (the end block of minor 2), or what the
 * sampled windows' tick counts suggest for older files. */
struct samp {
	uint64_t ticks;		/* ticks taken */
	uint64_t missed;	/* ticks that fell inside late gaps */
	uint64_t gap_ns;	/* the longest tick gap, 0 unknown */
	int64_t gap_start;	/* when it began (ns after t0), -1 unknown */
	int est_missed;		/* missed estimated from the windows */
	int est_start;		/* gap_start estimated from the windows */
	uint64_t wall_ns;	/* the run's wall time */
	int stalled;		/* worth a warning */
};

/* The ticks a window of w's wall time would hold at the nominal interval,
 * minus the ticks it holds (0 when it holds as many or more). */
static uint64_t deficit(const struct lc_prof_window *w, uint64_t interval)
{
	uint64_t want = interval ? lc_acct_wall(&w->acct) / interval : 0;

	return want > w->ticks ? want - w->ticks : 0;
}

/* For files before minor 2: where the longest gap began, from the windows:
 * the start of the longest run of windows without a tick (the gap spanned
 * them), else of the window missing the most ticks.  -1 when none is short. */
static int64_t guess_gap_start(const struct lc_prof_data *d, uint64_t interval)
{
	uint32_t best = 0, bestlen = 0, len = 0, most = 0;
	uint64_t worst = 0;

	for (uint32_t i = 0; i < d->nwindows; i++) {
		const struct lc_prof_window *w = &d->windows[i];
		int follows = i && w->index == d->windows[i - 1].index +
						(d->windows[i - 1].nmerged ? d->windows[i - 1].nmerged : 1);

		len = !w->ticks ? (follows ? len + 1 : 1) : 0;
		if (len > bestlen) {
			bestlen = len;
			best = i + 1 - len;
		}
		if (deficit(w, interval) > worst) {
			worst = deficit(w, interval);
			most = i;
		}
	}
	if (bestlen)
		return (int64_t)d->windows[best].start_ns;
	return worst ? (int64_t)d->windows[most].start_ns : -1;
}

/* The longest nominal interval of the run: the top of an adaptive rule,
 * else the interval (a gap is judged against it). */
static uint64_t top_interval(const struct lc_profile *pr)
{
	return pr->ended && pr->end.interval_rule && pr->end.interval_max_ns > pr->info.interval_ns ?
	       pr->end.interval_max_ns : pr->info.interval_ns;
}

/* For a run cut short (no end block, so no interval is known but the
 * nominal one, which the interval rule may have grown from): the ticks of
 * the windows that hold none, each at the interval the last window before
 * it with ticks achieved (its wall time over its ticks).  A window that
 * holds ticks is taken as whole: what it lacks cannot be told from a
 * longer interval. */
static uint64_t windows_missed(const struct lc_prof_data *d)
{
	uint64_t missed = 0, iv = 0;

	for (uint32_t i = 0; i < d->nwindows; i++) {
		const struct lc_prof_window *w = &d->windows[i];

		if (w->ticks)
			iv = lc_acct_wall(&w->acct) / w->ticks;
		else if (iv)
			missed += lc_acct_wall(&w->acct) / iv;
	}
	return missed;
}

/* Fill s from the end block, estimating from the windows what it lacks. */
static void sampler_stats(const struct lc_profile *pr, struct samp *s)
{
	const struct lc_prof_data *d = &pr->data[LC_SRC_SAMPLED];
	uint64_t interval = pr->info.interval_ns, sum = 0, want;

	*s = (struct samp){ .gap_start = -1 };
	for (uint32_t i = 0; i < d->nwindows; i++)
		sum += d->windows[i].ticks;
	s->wall_ns = pr->ended && pr->end.end_ns ? pr->end.end_ns : lc_acct_wall(&d->total);
	s->ticks = pr->ended ? pr->end.ticks : sum;
	s->gap_ns = pr->ended ? pr->end.max_gap_ns : 0;
	if (pr->ended && pr->end.ext) {
		s->missed = pr->end.missed_ticks;
		if (pr->end.max_gap_at_ns >= s->gap_ns && s->gap_ns)
			s->gap_start = (int64_t)(pr->end.max_gap_at_ns - s->gap_ns);
	} else if (interval && d->present && pr->ended) {
		/* before minor 2 the interval was fixed; one tick of slack:
		 * where the first tick falls is not recorded */
		want = lc_acct_wall(&d->total) / interval;
		s->missed = want > sum + 1 ? want - sum - 1 : 0;
		s->est_missed = 1;
		s->gap_start = guess_gap_start(d, interval);
		s->est_start = 1;
	} else if (d->present) {
		/* cut short: the interval may have grown past the nominal one */
		s->missed = windows_missed(d);
		s->est_missed = 1;
		s->gap_start = s->missed ? guess_gap_start(d, interval) : -1;
		s->est_start = 1;
	}
	s->stalled = (interval && s->gap_ns > 10 * top_interval(pr)) ||
		     (s->missed && s->missed * 100 > s->ticks + s->missed);
}

/* The interval the ticks kept on average (the nominal one before minor 5). */
static uint64_t mean_interval(const struct lc_profile *pr)
{
	return pr->end.interval_rule && pr->end.mean_interval_ns ? pr->end.mean_interval_ns :
								     pr->info.interval_ns;
}

/* The missed ticks as the text report counts them.  See report.h. */
void lc_report_missed(const struct lc_profile *pr, struct lc_report_missed *m)
{
	struct samp s;

	sampler_stats(pr, &s);
	*m = (struct lc_report_missed){ .missed = s.missed, .ticks = s.ticks,
					.interval_ns = mean_interval(pr),
					.estimated = s.est_missed, .gap_start = s.gap_start,
					.gap_ns = s.gap_ns };
}

/* The ticks window w lacks of a gap [a, b) that missed some: its share of
 * the gap over the mean interval, at least one where they overlap. */
static uint64_t gap_share(const struct lc_profile *pr, const struct lc_prof_window *w,
			  uint64_t a, uint64_t b)
{
	uint64_t lo = w->start_ns > a ? w->start_ns : a;
	uint64_t hi = w->start_ns + lc_acct_wall(&w->acct) < b ?
		      w->start_ns + lc_acct_wall(&w->acct) : b;
	uint64_t iv = mean_interval(pr);

	if (hi <= lo)
		return 0;
	return iv && (hi - lo) / iv > 1 ? (hi - lo) / iv : 1;
}

/* The ticks sampled window i lacks.  See report.h. */
uint64_t lc_report_window_missed(const struct lc_profile *pr, const struct lc_report_missed *m,
				 uint32_t i)
{
	const struct lc_prof_data *d = &pr->data[LC_SRC_SAMPLED];
	uint64_t iv = 0;

	if (i >= d->nwindows || !m->missed)
		return 0;
	if (pr->ended && pr->end.ext)	/* where: only the longest gap is recorded */
		return m->gap_start >= 0 ? gap_share(pr, &d->windows[i], (uint64_t)m->gap_start,
						     (uint64_t)m->gap_start + m->gap_ns) : 0;
	if (pr->ended)	/* fixed interval; one tick of slack: where the first tick falls */
		return deficit(&d->windows[i], pr->info.interval_ns) > 1 ?
		       deficit(&d->windows[i], pr->info.interval_ns) - 1 : 0;
	if (d->windows[i].ticks)	/* cut short: as windows_missed counts */
		return 0;
	for (uint32_t k = i; k-- > 0 && !iv;)
		if (d->windows[k].ticks)
			iv = lc_acct_wall(&d->windows[k].acct) / d->windows[k].ticks;
	return iv ? lc_acct_wall(&d->windows[i].acct) / iv : 0;
}

/* The stall warning.  See report.h. */
int lc_report_stall(const struct lc_profile *pr, char *msg, size_t len)
{
	char g[32], at[64] = "", miss[128] = "";
	struct samp s;
	int big;

	sampler_stats(pr, &s);
	*msg = 0;
	if (!s.stalled)
		return 0;
	big = pr->info.interval_ns && s.gap_ns > 10 * top_interval(pr);
	if (s.gap_start >= 0)
		snprintf(at, sizeof(at), " at %s%.3g s", s.est_start ? "about " : "",
			 (double)s.gap_start / 1e9);
	if (s.missed)
		snprintf(miss, sizeof(miss), "; %" PRIu64 " ticks (%.2g %%) were missed%s",
			 s.missed, 100.0 * (double)s.missed / (double)(s.ticks + s.missed),
			 s.est_missed ? " (estimated from the windows' tick counts)" : "");
	if (big)
		snprintf(msg, len, "the sampler stalled for %s%s%s: times in a late tick's span "
			 "are charged to one state seen in it", lc_fmt_duration(s.gap_ns, 0, g, sizeof(g)),
			 at, miss);
	else if (!s.gap_ns)	/* no end block: the profile was cut */
		snprintf(msg, len, "the sampler fell behind (its longest tick gap is not known: the "
			 "profile has no end block; the worst span began%s)%s: times in a late "
			 "tick's span are charged to one state seen in it",
			 *at ? at : " at an unknown time", miss);
	else
		snprintf(msg, len, "the sampler fell behind (longest tick gap %s%s)%s: times in "
			 "a late tick's span are charged to one state seen in it",
			 lc_fmt_duration(s.gap_ns, 0, g, sizeof(g)), at, miss);
	return 1;
}

/* ---- text ---------------------------------------------------------------- */

/* The pp table: a name, seconds, percent, and a note: the standard error
 * for sampled data, or why a category was not measured. */
static const struct lc_col pp_cols[] = {
	{ .name = "", .kind = LC_COL_STR, .width = 24 },
	{ .name = "seconds", .kind = LC_COL_FLOAT, .prec = 6, .width = 12 },
	{ .name = "percent", .kind = LC_COL_PCT, .prec = 2, .width = 9 },
	{ .name = "note", .kind = LC_COL_STR, .gap = 2 },
};

/* One row: seconds, percent and, for sampled data, the standard error;
 * mark ends it (" *": distorted by the machine's load). */
static void pp_row(struct lc_emit *e, const char *name, const struct view *v, uint64_t ns,
		   const char *mark)
{
	char se[64] = "";

	lc_emit_str(e, name);
	lc_emit_num(e, lc_sec(ns));
	lc_emit_num(e, pct(ns, v->total));
	if (v->nobs > 0)
		snprintf(se, sizeof(se), "\u00b1%.6f%s", std_err(v, ns), mark);
	else
		snprintf(se, sizeof(se), "%s", *mark ? mark + 1 : "");
	lc_emit_str(e, se);
	lc_emit_row(e);
}

/* The row of category c when it was not measured: na and why. */
static void pp_na(struct lc_emit *e, const struct lc_profile *pr, int c)
{
	char why[LC_PROF_TEXT_MAX + 8];

	snprintf(why, sizeof(why), "(%s)", reason(pr, c));
	lc_emit_str(e, lc_cat_info(c)->name);
	lc_emit_na(e);
	lc_emit_empty(e);
	lc_emit_str(e, why);
	lc_emit_row(e);
}

static void pp_line(struct lc_emit *e, const struct lc_profile *pr, const struct view *v, int c)
{
	lc_emit_color(e, lc_cat_info(c)->colour);
	if (!unavailable(pr, c))
		pp_row(e, lc_cat_info(c)->name, v, v->cat[c], lc_report_mark(pr, c));
	else
		pp_na(e, pr, c);
}

/* The Total Time row of pp. */
static void pp_total(struct lc_emit *e, const struct view *v)
{
	lc_emit_str(e, "Total Time");
	lc_emit_num(e, lc_sec(v->total));
	lc_emit_num(e, v->total ? 100.0 : 0.0);
	lc_emit_row(e);
}

/* The losses (Load Imbalance with "of which queue empty"), Total Time,
 * then the computation (Remaining Time), as the thesis's pp prints them:
 * the table's order, its computation rows after the total. */
static void pp_table(const struct lc_profile *pr, const struct view *v)
{
	struct lc_emit *e = lc_emit_new(stdout, LC_EMIT_TEXT, pp_cols, 4, LC_EMIT_NO_HEADER);

	for (int c = 0; c < LC_NCAT; c++) {
		if (lc_cat_info(c)->computation)
			continue;
		pp_line(e, pr, v, c);
		if (c == LC_CAT_LI && v->qempty && !unavailable(pr, c))
			pp_row(e, "  of which queue empty", v, v->qempty, "");
	}
	pp_total(e, v);
	for (int c = 0; c < LC_NCAT; c++)
		if (lc_cat_info(c)->computation)
			pp_line(e, pr, v, c);
	lc_emit_end(e);
}

/* The interval rule and the slowdown of the program the sampler caused
 * (docs/performance.md), when the profile says (minor 5). */
static void text_cost(const struct lc_profile *pr, uint64_t wall_ns)
{
	char buf[256];

	if (!pr->ended || !pr->end.interval_rule)
		return;
	printf("** interval: %s\n", lc_cost_rule_text(&pr->end, buf, sizeof(buf)));
	printf("** estimated slowdown of the program by the sampler: %s\n",
	       lc_cost_slowdown_text(pr->end.sampler_cpu_ns, wall_ns, pr->procs,
				     pr->end.shared_cpu, buf, sizeof(buf)));
}

/* The wall time, and beside it the sampler's own CPU time when recorded. */
static void text_wall(const struct lc_profile *pr, const struct view *v)
{
	struct samp s;

	printf("** wall time: %.6f s (Total Time / %u)", v->wall, pr->procs);
	sampler_stats(pr, &s);
	if (pr->ended && pr->end.ext && pr->end.sampler_cpu_ns)
		printf("; sampler CPU %.3f s (%.1f %% of the run's %.3f s)",
		       lc_sec(pr->end.sampler_cpu_ns),
		       s.wall_ns ? 100.0 * (double)pr->end.sampler_cpu_ns / (double)s.wall_ns : 0.0,
		       lc_sec(s.wall_ns));
	printf("\n");
	if (pr->ended && pr->end.ext && pr->end.shared_cpu >= 0)
		printf("** note: the sampler shared CPU %d with the program (no spare CPU): its "
		       "ticks took CPU time from the program\n", pr->end.shared_cpu);
	text_cost(pr, s.wall_ns);
}

/* For the ± line: what it leaves out when ticks were missed (the time of
 * a gap went to one state seen in it, whatever the threads did in
 * it), into buf[len]; "" when none were missed.  Returns buf. */
static const char *missed_note(const struct lc_profile *pr, char *buf, size_t len)
{
	struct samp s;
	double t;

	sampler_stats(pr, &s);
	*buf = 0;
	if (!s.missed)
		return buf;
	t = (double)s.missed * (double)mean_interval(pr) * pr->procs / 1e9;
	snprintf(buf, len, "; it excludes the %" PRIu64 " missed ticks%s: their %.6f s "
		 "(missed ticks x interval x p) went to the state seen at the end of each "
		 "gap and may belong to other categories", s.missed,
		 s.est_missed ? " (estimated)" : "", t);
	return buf;
}

/* Under the table: how each counter- or scheduler-derived category was
 * measured, once each, and what the ± column means. */
static void text_methods(const struct lc_profile *pr, const struct view *v)
{
	char buf[LC_PROF_TEXT_MAX + 128];

	for (int c = 0; c < LC_NCAT; c++)
		if (method(pr, c, buf, sizeof(buf))) {
			printf("** %s%s%s: ", lc_color(stdout, lc_cat_info(c)->colour),
			       lc_cat_info(c)->name, lc_color(stdout, NULL));
			lc_emit_text_str(stdout, buf);
			printf("\n");
		}
	if (v->nobs > 0)
		printf("** \u00b1: one standard error of the tick sampling (binomial, %.0f slot "
		       "observations)%s\n", v->nobs, missed_note(pr, buf, sizeof(buf)));
}

/* When no thread of the run set a flag (no macros, no layer): said, with
 * the layer that would profile the program, from the runtime it links
 * (the threads it ran are not in the profile: record said). */
static void noflag_note(const struct lc_profile *pr)
{
	char exe[4096];
	const char *l = NULL;

	if (pr->nthreads || pr->nprocesses)
		return;
	if (!lc_program_of_command(pr->info.command, exe, sizeof(exe)))
		l = lc_program_layer(exe);
	printf("** note: no thread set a flag (the program has no macros and no layer was "
	       "loaded): the profile is all insufficient parallelism; %s\n",
	       !l ? "record the program with --pthread if it creates threads, --omp if it "
		    "uses OpenMP, --mpi if it uses MPI, or add the macros (lostcycles(3))" :
	       !strcmp(l, "omp") ? "it links an OpenMP runtime: record it with --omp" :
	       !strcmp(l, "gomp") ? "it links GCC's libgomp, which --omp cannot see: build it "
				    "with clang -fopenmp and record it with --omp" :
	       "it links an MPI library: record it with --mpi");
}

static void text_summary(const struct lc_profile *pr, const struct lc_report_opts *o,
			 const struct view *v, const char *note)
{
	char why[200];

	printf("lostcycles report %s: ", LC_TOOL_VERSION);
	lc_emit_text_str(stdout, o->file);
	printf("%s", pr->info.command ? ": " : "");
	lc_emit_text_str(stdout, pr->info.command);
	printf("\n");
	printf("** processors: %s\n", procs_why(pr, why, sizeof(why)));
	noflag_note(pr);
	lc_report_machine_text(stdout, pr);
	if (o->source == LC_SRC_TRACE)
		printf("** source: trace mode (exact event log)\n");
	if (o->have_tag) {
		printf("** fragment tag %" PRId64 "%s", o->tag, tag_name(o, o->tag) ? ": " : "");
		lc_emit_text_str(stdout, tag_name(o, o->tag));
		printf("\n");
	}
	pp_table(pr, v);
	text_wall(pr, v);
	text_methods(pr, v);
	if (pr->ended && pr->end.wasted_lost)
		printf("** note: %" PRIu64 " LC_TASK_WASTED call(s) missed by the sampler: "
		       "their time stays in Remaining Time\n", pr->end.wasted_lost);
	if (pr->ended && pr->end.bad_reads)
		printf("** note: %" PRIu64 " invalid value(s) read from shared memory were "
		       "ignored\n", pr->end.bad_reads);
	if (pr->ended && pr->end.untracked)
		printf("** warning: %" PRIu32 " process(es) could not be tracked for want of file "
		       "descriptors (raise ulimit -n): missing from this profile\n",
		       pr->end.untracked);
	if (pr->ended && (pr->end.fd_flags & LC_END_FDS_SHORT))
		printf("** note: file descriptors ran out while recording: threads that appeared "
		       "after that have no scheduler or counter source\n");
	lc_report_limits(pr);
	if (*note)
		printf("** %s\n", note);
}

/* The empty-slot row: total minus the sum of the threads, per category. */
static void empty_row(const struct lc_prof_data *d, const struct view *v, uint64_t out[LC_NCAT])
{
	for (int c = 0; c < LC_NCAT; c++) {
		uint64_t s = 0;

		for (uint32_t i = 0; i < d->nthreads; i++)
			s += d->threads[i].cat[c];
		out[c] = v->cat[c] > s ? v->cat[c] - s : 0;
	}
}

/* The emitter's format for o's. */
static enum lc_emit_format emit_fmt(enum lc_report_fmt f)
{
	return f == LC_REPORT_CSV ? LC_EMIT_CSV : f == LC_REPORT_JSON ? LC_EMIT_JSON : LC_EMIT_TEXT;
}

/* Append a column to cols[*n]. */
static void add_col(struct lc_col *cols, int *n, struct lc_col c)
{
	cols[(*n)++] = c;
}

/* The columns of a category table after the leading ones: each category's
 * seconds and the row's total (or, with frac, each category's fraction). */
static void cat_cols(struct lc_col *cols, int *n, int frac)
{
	for (int c = 0; c < LC_NCAT; c++)
		add_col(cols, n, (struct lc_col){ .name = lc_cat_info(c)->key, .kind = LC_COL_FLOAT,
						  .prec = frac ? 3 : 6, .data_prec = 9,
						  .width = frac ? 6 : 10,
						  .hex = lc_cat_info(c)->colour });
	if (!frac)
		add_col(cols, n, (struct lc_col){ .name = "total", .kind = LC_COL_FLOAT, .prec = 6,
						  .data_prec = 9, .width = 10 });
}

/* The category cells of one row and its total; na for what was not
 * measured. */
static void cat_cells(struct lc_emit *e, const struct lc_profile *pr, const uint64_t cat[LC_NCAT])
{
	for (int c = 0; c < LC_NCAT; c++)
		if (unavailable(pr, c))
			lc_emit_na(e);
		else
			lc_emit_num(e, lc_sec(cat[c]));
	lc_emit_num(e, lc_sec(lc_cat_sum(cat)));
}

/* Threads x categories, then the empty slots (text and CSV). */
static void per_thread(const struct lc_profile *pr, const struct lc_prof_data *d,
		       const struct view *v, enum lc_emit_format f)
{
	struct lc_col cols[3 + LC_NCAT + 1];
	uint64_t empty[LC_NCAT];
	struct lc_emit *e;
	int n = 0;

	if (f == LC_EMIT_CSV)
		add_col(cols, &n, (struct lc_col){ .name = "thread", .kind = LC_COL_INT });
	add_col(cols, &n, (struct lc_col){ .name = "pid", .kind = LC_COL_INT, .width = 8 });
	add_col(cols, &n, (struct lc_col){ .name = "tid", .kind = LC_COL_INT, .width = 8 });
	cat_cols(cols, &n, 0);
	printf(f == LC_EMIT_CSV ? "\n" : "\n** per thread (seconds)\n");
	e = lc_emit_new(stdout, f, cols, n, 0);
	for (uint32_t i = 0; i < d->nthreads; i++) {
		if (f == LC_EMIT_CSV)
			lc_emit_uint(e, i);
		lc_emit_int(e, pr->threads[i].pid);
		lc_emit_int(e, pr->threads[i].tid);
		cat_cells(e, pr, d->threads[i].cat);
		lc_emit_row(e);
	}
	empty_row(d, v, empty);
	if (f == LC_EMIT_CSV) {
		lc_emit_str(e, "empty");
		lc_emit_empty(e);
		lc_emit_empty(e);
	} else {
		lc_emit_span(e, 2, "(empty slots)");
	}
	cat_cells(e, pr, empty);
	lc_emit_row(e);
	lc_emit_end(e);
}

/* The acct a timeline row shows: the window's, or its row for the tag. */
static const struct lc_acct *window_acct(const struct lc_prof_window *w, const struct lc_report_opts *o)
{
	if (!o->have_tag)
		return &w->acct;
	for (uint32_t i = 0; i < w->ntags; i++)
		if (w->tags[i].tag == o->tag)
			return &w->tags[i].acct;
	return NULL;
}

/* The view of window w as a timeline row shows it into *v: 0 when the
 * row is left out (the window lacks the tag asked for), else 1. */
static int window_view(const struct lc_profile *pr, const struct lc_prof_window *w,
		       const struct lc_report_opts *o, struct view *v)
{
	const struct lc_acct *a = window_acct(w, o);

	if (!a)
		return 0;
	make_view(pr, a, v);
	return 1;
}

/* The file's windows that d's held windows stand for. */
static uint64_t merged_windows(const struct lc_prof_data *d)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < d->nwindows; i++)
		n += d->windows[i].nmerged ? d->windows[i].nmerged : 1;
	return n;
}

/* One row per window: its fraction of p x its wall time per category in
 * text, its seconds in CSV. */
static void timeline(const struct lc_profile *pr, const struct lc_prof_data *d,
		     const struct lc_report_opts *o, enum lc_emit_format f)
{
	int csv = f == LC_EMIT_CSV, n = 0;
	uint64_t nfile = merged_windows(d);
	struct lc_col cols[3 + LC_NCAT + 1];
	struct lc_emit *e;

	add_col(cols, &n, (struct lc_col){ .name = "window", .kind = LC_COL_INT, .width = 7 });
	add_col(cols, &n, (struct lc_col){ .name = csv ? "start" : "start(s)", .kind = LC_COL_FLOAT,
					   .prec = 6, .data_prec = 9, .width = 10 });
	add_col(cols, &n, (struct lc_col){ .name = csv ? "wall" : "wall(s)", .kind = LC_COL_FLOAT,
					   .prec = 6, .data_prec = 9, .width = 10 });
	cat_cols(cols, &n, !csv);
	if (csv) {
		printf("\n");
	} else {
		printf("\n** timeline (fraction of %u x window wall time)\n", pr->procs);
		if (nfile > d->nwindows)
			printf("(the profile's %" PRIu64 " windows shown as %u: neighbours merged "
			       "pairwise; --max-windows 0 shows every one)\n", nfile, d->nwindows);
	}
	e = lc_emit_new(stdout, f, cols, n, 0);
	for (uint32_t i = 0; i < d->nwindows; i++) {
		const struct lc_prof_window *w = &d->windows[i];
		struct view v;

		if (!window_view(pr, w, o, &v))
			continue;
		lc_emit_uint(e, w->index);
		lc_emit_num(e, lc_sec(w->start_ns));
		lc_emit_num(e, v.wall);
		if (csv)
			cat_cells(e, pr, v.cat);
		for (int c = 0; c < LC_NCAT && !csv; c++)
			if (unavailable(pr, c))
				lc_emit_na(e);
			else
				lc_emit_num(e, v.total ? (double)v.cat[c] / (double)v.total : 0.0);
		lc_emit_row(e);
	}
	lc_emit_end(e);
}

/* ---- -l ------------------------------------------------------------------ */

/* One key of a -l line and its value as printed. */
struct kv {
	const char *key;
	char val[48];
};

/* The profile's keys of a -l line, in order: p, the categories (na when not
 * measured), cpus when the profile recorded the machine's CPUs (before the
 * first computation category, rt:
 * "p=N li=" and "tt= " stay next to each other for readers of older lines),
 * tt, and load (the machine's share other processes and steal took, %)
 * when it was measured.  Returns how many. */
static int lline_pairs(const struct lc_profile *pr, const struct view *v, struct kv *kv)
{
	int n = 0;

	kv[n].key = "p";
	snprintf(kv[n++].val, sizeof(kv->val), "%u", pr->procs);
	for (int c = 0, cpus = pr->ended && pr->end.ext && pr->end.ncpus; c < LC_NCAT; c++) {
		if (cpus && lc_cat_info(c)->computation) {
			cpus = 0;
			kv[n].key = "cpus";
			snprintf(kv[n++].val, sizeof(kv->val), "%u", pr->end.ncpus);
		}
		kv[n].key = lc_cat_info(c)->key;
		if (unavailable(pr, c))
			snprintf(kv[n++].val, sizeof(kv->val), "na");
		else
			snprintf(kv[n++].val, sizeof(kv->val), "%.9g", lc_sec(v->cat[c]));
	}
	kv[n].key = lc_cat_info(LC_KEY_TT)->key;
	snprintf(kv[n++].val, sizeof(kv->val), "%.9g", lc_sec(v->total));
	if (lc_machine_pct(&pr->machine_total, LC_SHARE_LOAD) >= 0) {	/* unknown: left out */
		kv[n].key = "load";
		snprintf(kv[n++].val, sizeof(kv->val), "%.3g",
			 lc_machine_pct(&pr->machine_total, LC_SHARE_LOAD));
	}
	return n;
}

/* The value of key in note (whitespace-separated var=value pairs) into
 * val[len]; 1 when the note names key, else 0. */
static int note_value(const char *note, const char *key, char *val, size_t len)
{
	size_t kl = strlen(key);

	while (note && *note) {
		size_t tl;

		note += strspn(note, " \t");
		tl = strcspn(note, " \t");
		if (tl > kl && !strncmp(note, key, kl) && note[kl] == '=') {
			snprintf(val, len, "%.*s", (int)(tl - kl - 1), note + kl + 1);
			return 1;
		}
		note += tl;
	}
	return 0;
}

/* True when two values of a key agree: the same text or the same number. */
static int same_value(const char *a, const char *b)
{
	char *ea, *eb;
	double x, y;

	if (!strcmp(a, b))
		return 1;
	x = strtod(a, &ea);
	y = strtod(b, &eb);
	return ea != a && !*ea && eb != b && !*eb && x == y;
}

/* The pp -l line: the note, then the profile's keys the note does not
 * already give.  Returns 0, or 1 with the reason in msg (nothing printed)
 * when the note gives a profile key another value. */
static int lline(const struct lc_profile *pr, const struct lc_report_opts *o, const struct view *v,
		 char *msg, size_t len)
{
	struct kv kv[LC_NKEY + 3];
	int n = lline_pairs(pr, v, kv), skip[LC_NKEY + 3] = { 0 };
	char nv[256];

	for (int i = 0; i < n; i++) {
		if (!note_value(o->note, kv[i].key, nv, sizeof(nv)))
			continue;
		if (!same_value(nv, kv[i].val))
			return lc_fail(msg, len, 1, "-l: the note says %s=%s but the profile's %s "
				       "is %s", kv[i].key, nv, kv[i].key, kv[i].val);
		skip[i] = 1;
	}
	if (o->note)
		printf("%s", o->note);
	for (int i = 0; i < n; i++)
		if (!skip[i])
			printf("%s%s=%s", i || o->note ? " " : "", kv[i].key, kv[i].val);
	printf("\n");
	return 0;
}

/* ---- csv ----------------------------------------------------------------- */

/* The summary as CSV: one row per category, with the processors first
 * and queue empty, total and wall time after. */
static const struct lc_col sum_cols[] = {
	{ .name = "key", .kind = LC_COL_STR },
	{ .name = "name", .kind = LC_COL_STR },
	{ .name = "seconds", .kind = LC_COL_FLOAT, .prec = 9 },
	{ .name = "percent", .kind = LC_COL_PCT, .prec = 4 },
	{ .name = "available", .kind = LC_COL_INT },
	{ .name = "reason", .kind = LC_COL_STR },
	{ .name = "se", .kind = LC_COL_FLOAT, .prec = 9 },
	{ .name = "method", .kind = LC_COL_STR },
};

/* The first cells of a summary row: key, name, seconds and percent, and
 * that the value is available. */
static void sum_head(struct lc_emit *e, const char *key, const char *name, double s, double p)
{
	lc_emit_str(e, key);
	lc_emit_str(e, name);
	lc_emit_num(e, s);
	if (isnan(p))
		lc_emit_empty(e);
	else
		lc_emit_num(e, p);
	lc_emit_int(e, 1);
}

/* The se and method cells that end a category's row: se only for sampled
 * data. */
static void sum_tail(struct lc_emit *e, const struct lc_profile *pr, const struct view *v, int c,
		     uint64_t ns)
{
	char buf[LC_PROF_TEXT_MAX + 128];
	const char *m = c >= 0 ? method(pr, c, buf, sizeof(buf)) : NULL;

	if (v->nobs > 0 && (c < 0 || !unavailable(pr, c)))
		lc_emit_num(e, std_err(v, ns));
	else
		lc_emit_empty(e);
	if (m)
		lc_emit_str(e, m);
	else
		lc_emit_empty(e);
	lc_emit_row(e);
}

static void csv_summary(const struct lc_profile *pr, const struct view *v)
{
	struct lc_emit *e = lc_emit_new(stdout, LC_EMIT_CSV, sum_cols, 8, 0);

	lc_emit_str(e, "p");
	lc_emit_str(e, "processors");
	lc_emit_uint(e, pr->procs);
	lc_emit_empty(e);
	lc_emit_int(e, 1);
	lc_emit_str(e, procs_from(pr->procs_from));
	lc_emit_row(e);
	for (int c = 0; c < LC_NCAT; c++) {
		if (unavailable(pr, c)) {
			lc_emit_str(e, lc_cat_info(c)->key);
			lc_emit_str(e, lc_cat_info(c)->name);
			lc_emit_empty(e);
			lc_emit_empty(e);
			lc_emit_int(e, 0);
			lc_emit_str(e, reason(pr, c));
		} else {
			sum_head(e, lc_cat_info(c)->key, lc_cat_info(c)->name, lc_sec(v->cat[c]),
				 pct(v->cat[c], v->total));
			lc_emit_empty(e);
		}
		sum_tail(e, pr, v, c, v->cat[c]);
	}
	sum_head(e, "qe", "of which queue empty", lc_sec(v->qempty), pct(v->qempty, v->total));
	lc_emit_empty(e);
	sum_tail(e, pr, v, -1, v->qempty);
	sum_head(e, lc_cat_info(LC_KEY_TT)->key, "Total Time", lc_sec(v->total), v->total ? 100.0 : 0.0);
	lc_emit_row(e);
	sum_head(e, "wall", "Wall Time", v->wall, NAN);
	lc_emit_row(e);
	lc_emit_end(e);
}

/* ---- counters -------------------------------------------------------------- */

/* The first event of the profile with role, or -1. */
static int event_of(const struct lc_profile *pr, uint32_t role)
{
	for (uint32_t e = 0; e < pr->nevents; e++)
		if (pr->events[e].role == role)
			return (int)e;
	return -1;
}

/* a / b of counts v[] for the events of roles ra and rb, times scale; NAN
 * when either event is missing or the divisor is 0. */
static double ratio(const struct lc_profile *pr, const uint64_t *v, uint32_t ra, uint32_t rb,
		    double scale)
{
	int a = event_of(pr, ra), b = event_of(pr, rb);

	if (a < 0 || b < 0 || !v[b])
		return NAN;
	return scale * (double)v[a] / (double)v[b];
}

/* Instructions per cycle, and misses per 1000 instructions, of v[]. */
static double ipc(const struct lc_profile *pr, const uint64_t *v)
{
	return ratio(pr, v, LC_EVR_INSTR, LC_EVR_CYCLES, 1);
}

static double mpki(const struct lc_profile *pr, const uint64_t *v)
{
	return ratio(pr, v, LC_EVR_MISS, LC_EVR_INSTR, 1000);
}

/* The counts --counters reports as the totals: the whole source's, or the
 * tag's with -t.  NULL when the source or tag has none. */
static const uint64_t *counts_of(const struct lc_profile *pr, const struct lc_prof_data *d,
				 const struct lc_report_opts *o)
{
	const struct lc_prof_tagrow *t;

	if (!pr->nevents)
		return NULL;
	if (!o->have_tag)
		return d->ev_total;
	t = find_tag(d, o->tag);
	return t && d->ev_tag ? &d->ev_tag[(size_t)(t - d->tags) * pr->nevents] : NULL;
}

/* The counters' table: each event's role and total (in CSV, then the
 * derived ratios as rows). */
static const struct lc_col ev_cols[] = {
	{ .name = "event", .kind = LC_COL_STR, .width = 28 },
	{ .name = "role", .kind = LC_COL_STR, .width = 18 },
	{ .name = "total", .kind = LC_COL_FLOAT, .prec = 6, .width = 20, .csv_na = "" },
};

static void events_table(const struct lc_profile *pr, const uint64_t *v, enum lc_emit_format f)
{
	struct lc_emit *e = lc_emit_new(stdout, f, ev_cols, 3, 0);

	for (uint32_t i = 0; i < pr->nevents; i++) {
		lc_emit_str(e, pr->events[i].name ? pr->events[i].name : "");
		lc_emit_str(e, lc_ev_role_info(pr->events[i].role)->name);
		lc_emit_uint(e, v[i]);
		lc_emit_row(e);
	}
	if (f == LC_EMIT_CSV) {
		lc_emit_str(e, "ipc");
		lc_emit_str(e, "derived");
		lc_emit_num(e, ipc(pr, v));
		lc_emit_row(e);
		lc_emit_str(e, "mpki");
		lc_emit_str(e, "derived");
		lc_emit_num(e, mpki(pr, v));
		lc_emit_row(e);
	}
	lc_emit_end(e);
}

/* Counts per thread (lead "thread") or per fragment tag (lead "tag"):
 * each event, IPC and misses per 1000 instructions. */
static void counts_table(const struct lc_profile *pr, const struct lc_prof_data *d,
			 const char *lead, enum lc_emit_format f)
{
	int csv = f == LC_EMIT_CSV, tags = !strcmp(lead, "tag"), n = 0;
	struct lc_col *cols = calloc(pr->nevents + 5, sizeof(*cols));
	struct lc_emit *e;

	if (!cols)
		return;
	if (tags)
		add_col(cols, &n, (struct lc_col){ .name = "tag", .kind = LC_COL_INT, .width = 16 });
	if (!tags && csv)
		add_col(cols, &n, (struct lc_col){ .name = "thread", .kind = LC_COL_INT });
	if (!tags) {
		add_col(cols, &n, (struct lc_col){ .name = "pid", .kind = LC_COL_INT, .width = 8 });
		add_col(cols, &n, (struct lc_col){ .name = "tid", .kind = LC_COL_INT, .width = 8 });
	}
	for (uint32_t i = 0; i < pr->nevents; i++)
		add_col(cols, &n, (struct lc_col){ .name = pr->events[i].name ? pr->events[i].name : "",
						   .kind = LC_COL_INT, .width = 12 });
	add_col(cols, &n, (struct lc_col){ .name = "ipc", .kind = LC_COL_FLOAT, .prec = 3,
					   .data_prec = 6, .width = 7, .na = "-", .csv_na = "" });
	add_col(cols, &n, (struct lc_col){ .name = "mpki", .kind = LC_COL_FLOAT, .prec = 3,
					   .data_prec = 6, .width = 9, .na = "-", .csv_na = "" });
	e = lc_emit_new(stdout, f, cols, n, 0);
	for (uint32_t i = 0; i < (tags ? d->ntags : d->nthreads); i++) {
		const uint64_t *v = tags ? d->ev_tag : d->ev_thread;

		if (!v)
			break;
		v += (size_t)i * pr->nevents;
		if (tags)
			lc_emit_int(e, d->tags[i].tag);
		if (!tags && csv)
			lc_emit_uint(e, i);
		if (!tags) {
			lc_emit_int(e, pr->threads[i].pid);
			lc_emit_int(e, pr->threads[i].tid);
		}
		for (uint32_t k = 0; k < pr->nevents; k++)
			lc_emit_uint(e, v[k]);
		lc_emit_num(e, ipc(pr, v));
		lc_emit_num(e, mpki(pr, v));
		lc_emit_row(e);
	}
	lc_emit_end(e);
	free(cols);
}

/* The counters: totals per event (with -t: the tag's), then per thread and
 * per tag (not with -t); text names the derived ratios in lines, CSV as
 * rows of the events' table. */
static void counters(const struct lc_profile *pr, const struct lc_prof_data *d,
		     const struct lc_report_opts *o, enum lc_emit_format f)
{
	const uint64_t *v = counts_of(pr, d, o);
	int csv = f == LC_EMIT_CSV;

	if (!v) {
		printf(csv ? "\nevent,role,total\nno counters recorded,,\n" :
			     "\n** counters: no counters recorded\n");
		return;
	}
	if (csv)
		printf("\n");
	else if (o->have_tag)
		printf("\n** counters while fragment tag %" PRId64 " was open\n", o->tag);
	else
		printf("\n** counters\n");
	events_table(pr, v, f);
	if (!csv && !isnan(ipc(pr, v)))
		printf("** IPC %.3f (instructions / cycles)\n", ipc(pr, v));
	if (!csv && !isnan(mpki(pr, v)))
		printf("** %.3f misses per 1000 instructions\n", mpki(pr, v));
	if (o->have_tag)
		return;
	printf(csv ? "\n" : "\n** counters per thread\n");
	counts_table(pr, d, "thread", f);
	if (!d->ntags || !d->ev_tag)
		return;
	printf(csv ? "\n" : "\n** counters per fragment tag\n");
	counts_table(pr, d, "tag", f);
}

/* ---- json ---------------------------------------------------------------- */

/* {"li": 0.1, ..., "rt": 0.2, "total": 0.3} with null for unavailable. */
static void json_cats(struct lc_doc *j, const char *key, const struct lc_profile *pr,
		      const uint64_t cat[LC_NCAT])
{
	lc_doc_obj(j, key, 0);
	for (int c = 0; c < LC_NCAT; c++)
		if (unavailable(pr, c))
			lc_doc_null(j, lc_cat_info(c)->key);
		else
			lc_doc_num(j, lc_cat_info(c)->key, lc_sec(cat[c]), 9);
	lc_doc_num(j, "total", lc_sec(lc_cat_sum(cat)), 9);
	lc_doc_end(j);
}

static void json_head(struct lc_doc *j, const struct lc_profile *pr,
		      const struct lc_report_opts *o, const struct view *v)
{
	lc_doc_str(j, "file", o->file);
	lc_doc_str(j, "command", pr->info.command);
	lc_doc_str(j, "source", o->source == LC_SRC_TRACE ? "trace" : "sampled");
	if (o->have_tag)
		lc_doc_int(j, "tag", o->tag);
	if (o->have_tag && tag_name(o, o->tag))
		lc_doc_str(j, "tag_name", tag_name(o, o->tag));
	lc_doc_uint(j, "procs", pr->procs);
	lc_doc_str(j, "procs_from", procs_from(pr->procs_from));
	if (pr->ended && pr->end.p_rules) {
		lc_doc_obj(j, "procs_rules", 0);
		lc_doc_uint(j, "threads", pr->end.max_threads);
		lc_doc_uint(j, "runnable", pr->end.max_runnable);
		lc_doc_uint(j, "affinity_cpus", pr->end.affinity_cpus);
		lc_doc_end(j);
	}
	lc_doc_num(j, "wall", v->wall, 9);
	lc_doc_num(j, "total", lc_sec(v->total), 9);
	lc_doc_num(j, "li_queue_empty", lc_sec(v->qempty), 9);
	lc_doc_uint(j, "wasted_lost", pr->end.wasted_lost);
	lc_doc_uint(j, "bad_reads", pr->end.bad_reads);
	if (pr->ended && pr->end.fds) {
		lc_doc_uint(j, "untracked_for_want_of_fds", pr->end.untracked);
		lc_doc_bool(j, "fds_ran_out", pr->end.fd_flags & LC_END_FDS_SHORT);
	}
	lc_report_limits_json(j, pr);
}

/* "sampler": the sampler's own run, null where the profile does not say. */
static void json_sampler(struct lc_doc *j, const struct lc_profile *pr)
{
	int ext = pr->ended && pr->end.ext;
	struct samp s;

	sampler_stats(pr, &s);
	lc_doc_obj(j, "sampler", 0);
	lc_doc_uint(j, "ticks", s.ticks);
	lc_doc_num(j, "max_gap_s", pr->ended ? lc_sec(s.gap_ns) : NAN, 9);
	lc_doc_num(j, "max_gap_at_s", s.gap_start >= 0 ? lc_sec((uint64_t)s.gap_start) : NAN, 9);
	lc_doc_uint(j, "missed_ticks", s.missed);
	lc_doc_bool(j, "estimated", s.est_missed);
	lc_doc_bool(j, "stalled", s.stalled);
	lc_doc_num(j, "cpu_s", ext && pr->end.sampler_cpu_ns ? lc_sec(pr->end.sampler_cpu_ns) : NAN,
		   9);
	if (ext)
		lc_doc_int(j, "shared_cpu", pr->end.shared_cpu);
	else
		lc_doc_null(j, "shared_cpu");
	lc_doc_str(j, "sched_source", ext ? lc_sched_source_name(pr->end.sched_source) : NULL);
	if (ext && pr->end.ncpus)
		lc_doc_uint(j, "ncpus", pr->end.ncpus);
	else
		lc_doc_null(j, "ncpus");
	lc_doc_end(j);
}

static void json_categories(struct lc_doc *j, const struct lc_profile *pr, const struct view *v)
{
	char buf[LC_PROF_TEXT_MAX + 128];

	lc_doc_num(j, "observations", v->nobs > 0 ? v->nobs : NAN, 0);
	lc_doc_obj(j, "categories", LC_DOC_LINES);
	for (int c = 0; c < LC_NCAT; c++) {
		int na = unavailable(pr, c);

		lc_doc_obj(j, lc_cat_info(c)->key, 0);
		lc_doc_str(j, "name", lc_cat_info(c)->name);
		lc_doc_num(j, "seconds", na ? NAN : lc_sec(v->cat[c]), 9);
		lc_doc_num(j, "percent", na ? NAN : pct(v->cat[c], v->total), 4);
		lc_doc_bool(j, "available", !na);
		lc_doc_str(j, "reason", na ? reason(pr, c) : NULL);
		lc_doc_num(j, "se", !na && v->nobs > 0 ? std_err(v, v->cat[c]) : NAN, 9);
		lc_doc_str(j, "method", method(pr, c, buf, sizeof(buf)));
		lc_doc_end(j);
	}
	lc_doc_end(j);
}

/* The pid and tid of thread i as members. */
static void json_ids(struct lc_doc *j, const struct lc_profile *pr, uint32_t i)
{
	lc_doc_uint(j, "thread", i);
	lc_doc_int(j, "pid", pr->threads[i].pid);
	lc_doc_int(j, "tid", pr->threads[i].tid);
}

static void json_per_thread(struct lc_doc *j, const struct lc_profile *pr,
			    const struct lc_prof_data *d, const struct view *v)
{
	uint64_t empty[LC_NCAT];

	lc_doc_arr(j, "per_thread", LC_DOC_LINES);
	for (uint32_t i = 0; i < d->nthreads; i++) {
		lc_doc_obj(j, NULL, 0);
		json_ids(j, pr, i);
		json_cats(j, "seconds", pr, d->threads[i].cat);
		lc_doc_end(j);
	}
	lc_doc_end(j);
	empty_row(d, v, empty);
	json_cats(j, "empty_slots", pr, empty);
}

/* The timeline: one object per window the options keep. */
static void json_timeline(struct lc_doc *j, const struct lc_profile *pr,
			  const struct lc_prof_data *d, const struct lc_report_opts *o)
{
	lc_doc_arr(j, "timeline", LC_DOC_LINES);
	for (uint32_t i = 0; i < d->nwindows; i++) {
		const struct lc_prof_window *w = &d->windows[i];
		struct view v;

		if (!window_view(pr, w, o, &v))
			continue;
		lc_doc_obj(j, NULL, 0);
		lc_doc_uint(j, "window", w->index);
		lc_doc_num(j, "start", lc_sec(w->start_ns), 9);
		lc_doc_num(j, "wall", v.wall, 9);
		json_cats(j, "seconds", pr, v.cat);
		lc_doc_end(j);
	}
	lc_doc_end(j);
}

/* "counts": [...], "ipc": x, "mpki": y of v[]. */
static void json_counts(struct lc_doc *j, const struct lc_profile *pr, const uint64_t *v)
{
	lc_doc_arr(j, "counts", 0);
	for (uint32_t e = 0; e < pr->nevents; e++)
		lc_doc_uint(j, NULL, v[e]);
	lc_doc_end(j);
	lc_doc_num(j, "ipc", ipc(pr, v), 6);
	lc_doc_num(j, "mpki", mpki(pr, v), 6);
}

/* The counts per thread and per tag. */
static void json_counts_by(struct lc_doc *j, const struct lc_profile *pr,
			   const struct lc_prof_data *d)
{
	lc_doc_break(j);
	lc_doc_arr(j, "per_thread", LC_DOC_HANG);
	for (uint32_t i = 0; i < d->nthreads && d->ev_thread; i++) {
		lc_doc_obj(j, NULL, 0);
		json_ids(j, pr, i);
		json_counts(j, pr, &d->ev_thread[(size_t)i * pr->nevents]);
		lc_doc_end(j);
	}
	lc_doc_end(j);
	lc_doc_break(j);
	lc_doc_arr(j, "per_tag", LC_DOC_HANG);
	for (uint32_t i = 0; i < d->ntags && d->ev_tag; i++) {
		lc_doc_obj(j, NULL, 0);
		lc_doc_int(j, "tag", d->tags[i].tag);
		json_counts(j, pr, &d->ev_tag[(size_t)i * pr->nevents]);
		lc_doc_end(j);
	}
	lc_doc_end(j);
}

static void json_counters(struct lc_doc *j, const struct lc_profile *pr,
			  const struct lc_prof_data *d, const struct lc_report_opts *o)
{
	const uint64_t *v = counts_of(pr, d, o);

	lc_doc_obj(j, "counters", 0);
	lc_doc_bool(j, "recorded", v != NULL);
	if (!v) {
		lc_doc_str(j, "note", "no counters recorded");
		lc_doc_end(j);
		return;
	}
	lc_doc_break(j);
	lc_doc_arr(j, "events", 0);
	for (uint32_t e = 0; e < pr->nevents; e++) {
		lc_doc_obj(j, NULL, 0);
		lc_doc_str(j, "name", pr->events[e].name);
		lc_doc_str(j, "role", lc_ev_role_info(pr->events[e].role)->name);
		lc_doc_uint(j, "total", v[e]);
		lc_doc_end(j);
	}
	lc_doc_end(j);
	lc_doc_break(j);
	json_counts(j, pr, v);
	if (!o->have_tag)
		json_counts_by(j, pr, d);
	lc_doc_end(j);
}

/* "cut": where a cut profile ends, or null. */
static void json_cut(struct lc_doc *j, const struct lc_profile *pr, const struct lc_prof_data *d)
{
	if (!pr->cut) {
		lc_doc_null(j, "cut");
		return;
	}
	lc_doc_obj(j, "cut", 0);
	lc_doc_uint(j, "offset", pr->cut_offset);
	lc_doc_uint(j, "windows", d->nwindows);
	lc_doc_num(j, "seconds", lc_sec(lc_acct_wall(&d->total)), 9);
	lc_doc_end(j);
}

static void json_report(const struct lc_profile *pr, const struct lc_report_opts *o,
			const struct lc_prof_data *d, const struct view *v)
{
	struct lc_doc j;

	lc_doc_init(&j, stdout, 2);
	lc_doc_obj(&j, NULL, LC_DOC_LINES);
	json_head(&j, pr, o, v);
	json_cut(&j, pr, d);
	json_sampler(&j, pr);
	lc_report_machine_json(&j, pr, o->timeline);
	json_categories(&j, pr, v);
	if (o->per_thread)
		json_per_thread(&j, pr, d, v);
	if (o->timeline)
		json_timeline(&j, pr, d, o);
	if (o->counters)
		json_counters(&j, pr, d, o);
	lc_doc_end(&j);
}

/* Print the report.  See report.h. */
int lc_report_print(const struct lc_profile *pr, const struct lc_report_opts *o, char *msg,
		    size_t len)
{
	const struct lc_prof_data *d = &pr->data[o->source];
	const struct lc_acct *a = &d->total;
	char note[256], tags[1024];
	struct view v;

	*msg = 0;
	if (o->source_set && o->source == LC_SRC_TRACE && !d->present)
		return lc_fail(msg, len, 1, "no trace-mode data (record with --trace)");
	if (o->have_tag) {
		const struct lc_prof_tagrow *t = find_tag(d, o->tag);

		if (!t) {
			list_tags(o, d, tags, sizeof(tags));
			return lc_fail(msg, len, 1, "tag %" PRId64 " never appears (%s)", o->tag,
				       tags);
		}
		a = &t->acct;
	}
	make_view(pr, a, &v);
	v.nobs = observations(pr, o, &v);
	cut_note(pr, d, note, sizeof(note));
	snprintf(msg, len, "%s", note);
	if (o->lline) {
		if (lline(pr, o, &v, msg, len))
			return 1;
	} else if (o->fmt == LC_REPORT_JSON) {
		json_report(pr, o, d, &v);
	} else if (o->fmt == LC_REPORT_CSV) {
		csv_summary(pr, &v);
	} else {
		text_summary(pr, o, &v, note);
	}
	if (!o->lline && o->fmt != LC_REPORT_JSON) {
		if (o->per_thread)
			per_thread(pr, d, &v, emit_fmt(o->fmt));
		if (o->timeline)
			timeline(pr, d, o, emit_fmt(o->fmt));
		if (o->counters)
			counters(pr, d, o, emit_fmt(o->fmt));
	}
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}

