/*
 * bottleneck.c — "report --bottlenecks" (report.h): PPW's bottleneck tests
 * per place.  A hotspot filter first (a place's share of the total time at
 * least LC_BNECK_HOTSPOT), then for each hotspot a baseline test where a
 * baseline exists — an MPI call against its LogGP ideal, the communication
 * loss the layer credited there (docs/mpi.md): flagged when the call took
 * more than LC_BNECK_RATIO times that — else a deviation test over the
 * place's instances: the shortest and longest instance against the mean,
 * flagged when either is LC_BNECK_SPREAD times off.  A profile holds a
 * place's totals only; instances are a trace-mode recording's fragments
 * (lc_strace.h), so the deviation test runs on fragment tags with the
 * trace given, and says so for a place without one.
 */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_emit.h"
#include "lc_strace.h"
#include "lc_util.h"
#include "where.h"

static const struct lc_col cols[] = {
	{ .name = "place", .kind = LC_COL_STR },
	{ .name = "what", .kind = LC_COL_STR },
	{ .name = "share", .kind = LC_COL_PCT, .prec = 1, .data_prec = 3 },
	{ .name = "time_s", .kind = LC_COL_FLOAT, .prec = 4, .data_prec = 9 },
	{ .name = "test", .kind = LC_COL_STR },
	{ .name = "figure", .kind = LC_COL_FLOAT, .prec = 2, .data_prec = 4 },
	{ .name = "flagged", .kind = LC_COL_STR },
	{ .name = "why", .kind = LC_COL_STR },
};

#define NCOLS ((int)(sizeof(cols) / sizeof(cols[0])))

static double sum_cats(const uint64_t cat[LC_NCAT])
{
	double s = 0;

	for (int c = 0; c < LC_NCAT; c++)
		s += (double)cat[c];
	return s;
}

static void emit(struct lc_emit *e, const char *name, const char *what, double share,
		 double t, const char *test, double fig, int flagged, const char *why)
{
	lc_emit_str(e, name);
	lc_emit_str(e, what);
	lc_emit_num(e, 100 * share);
	lc_emit_num(e, t / 1e9);
	lc_emit_str(e, test);
	lc_emit_num(e, fig);
	lc_emit_str(e, flagged ? "yes" : "no");
	lc_emit_str(e, why);
	lc_emit_row(e);
}

/* The baseline test of MPI place r (its CL measured): returns 1 when it
 * ran (emitted), 0 when r has no baseline. */
static int baseline(struct lc_emit *e, const struct lc_profile *pr, const struct lc_where_row *r,
		    double share, int *nflag)
{
	double t = sum_cats(r->cat), ideal = (double)r->cat[LC_CAT_CL], ratio;
	char why[200];

	if (strncmp(r->what, "MPI_", 4) || ((pr->info.unavailable >> LC_CAT_CL) & 1) ||
	    ideal <= 0)
		return 0;
	ratio = t / ideal;
	snprintf(why, sizeof(why), "%.4f s in the call against its LogGP ideal %.4f s",
		 t / 1e9, ideal / 1e9);
	*nflag += ratio > LC_BNECK_RATIO;
	emit(e, r->name, r->what, share, t, "baseline", ratio, ratio > LC_BNECK_RATIO, why);
	return 1;
}

/* The deviation test of tag over the instances of tr: 0 instances: not
 * emitted (returns 0). */
static int deviation(struct lc_emit *e, const struct lc_strace *tr, int64_t tag,
		     const char *name, double share, double t, int *nflag)
{
	double mn = INFINITY, mx = 0, sum = 0, mean, fig;
	size_t k = 0;
	char why[200];

	for (size_t i = 0; tr && i < tr->ninst; i++) {
		double d;

		if (tr->inst[i].tag != tag)
			continue;
		d = (double)(tr->inst[i].end - tr->inst[i].begin);
		mn = fmin(mn, d), mx = fmax(mx, d), sum += d, k++;
	}
	if (!k)
		return 0;
	mean = sum / (double)k;
	fig = mean > 0 ? fmax(mx / mean, mn > 0 ? mean / mn : INFINITY) : 1;
	snprintf(why, sizeof(why), "%zu instances: shortest %.3g ms, mean %.3g ms, longest "
		 "%.3g ms", k, mn / 1e6, mean / 1e6, mx / 1e6);
	*nflag += fig > LC_BNECK_SPREAD;
	emit(e, name, "tag", share, t, "deviation", fig, fig > LC_BNECK_SPREAD, why);
	return 1;
}

/* The hotspot places of w. */
static void places(struct lc_emit *e, const struct lc_profile *pr, const struct lc_where *w,
		   double total, int *nflag)
{
	for (uint32_t i = 0; i < w->n; i++) {
		const struct lc_where_row *r = &w->rows[i];
		double t = sum_cats(r->cat), share = total > 0 ? t / total : 0;

		if (!r->place || share < LC_BNECK_HOTSPOT || baseline(e, pr, r, share, nflag))
			continue;
		emit(e, r->name, r->what, share, t, "deviation", NAN, 0,
		     "needs instances: record --trace, and give the trace to --bottlenecks");
	}
}

/* The hotspot fragment tags of source d with their deviation tests. */
static void tags(struct lc_emit *e, const struct lc_profile *pr, const struct lc_prof_data *d,
		 const struct lc_strace *tr, const struct lc_report_opts *o, double total,
		 int *nflag)
{
	for (uint32_t i = 0; tr && i < d->ntags; i++) {
		uint64_t cat[LC_NCAT];
		double t = (double)lc_profile_finish(pr, &d->tags[i].acct, cat);
		double share = total > 0 ? t / total : 0;
		const char *nm = o->tag_name ? o->tag_name(o->tag_arg, d->tags[i].tag) : NULL;
		char buf[64];

		if (share < LC_BNECK_HOTSPOT)
			continue;
		if (!nm) {
			snprintf(buf, sizeof(buf), "tag %lld", (long long)d->tags[i].tag);
			nm = buf;
		}
		deviation(e, tr, d->tags[i].tag, nm, share, t, nflag);
	}
}

int lc_report_bottlenecks(const struct lc_profile *pr, const struct lc_report_opts *o,
			  const char *trace, char *msg, size_t len)
{
	const struct lc_prof_data *d = &pr->data[o->source];
	struct lc_strace tr = { 0 };
	struct lc_where *w = NULL;
	struct lc_emit *e;
	uint64_t cat[LC_NCAT];
	double total = (double)lc_profile_finish(pr, &d->total, cat);
	int r, nflag = 0;

	if (trace && (r = lc_strace_read(trace, &tr, msg, len)))
		return r;
	if ((r = lc_where_build(pr, o->source, -1, &w, msg, len)) && !(r == -ENOENT && trace)) {
		lc_strace_free(&tr);
		return r;
	}
	e = lc_emit_new(stdout, (enum lc_emit_format)o->fmt, cols, NCOLS, 0);
	if (!e) {
		lc_where_free(w), lc_strace_free(&tr);
		return lc_fail(msg, len, -ENOMEM, "out of memory");
	}
	if (w)
		places(e, pr, w, total, &nflag);
	tags(e, pr, d, trace ? &tr : NULL, o, total, &nflag);
	r = lc_emit_end(e);
	if (o->fmt == LC_REPORT_TEXT)
		printf("\n%d flagged: hotspots hold %.0f %% of the total or more; baseline: an MPI "
		       "call beyond %.0fx its LogGP ideal; deviation: an instance %.0fx off the "
		       "mean.\n", nflag, 100 * LC_BNECK_HOTSPOT, LC_BNECK_RATIO, LC_BNECK_SPREAD);
	lc_where_free(w), lc_strace_free(&tr);
	return r ? lc_fail(msg, len, r, "cannot write the table") : 0;
}
