/*
 * html.c — the self-contained HTML report (see html.h).
 */
#include "html.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lc_emit.h"
#include "lc_util.h"
#include "report_plot.h"
#include "lca_model.h"
#include "lca_predict.h"
#include "report.h"
#include "where_print.h"

#define W 860		/* chart width, px */
#define LABEL 150	/* room for the row labels of the thread chart */

static double sec(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* Text for the page (lc_emit_html_str: markup escaped, control
 * characters and bytes that are not UTF-8 replaced). */
static void esc(FILE *out, const char *s)
{
	lc_emit_html_str(out, s);
}

static int measured(const struct lc_profile *pr, int c)
{
	return !((pr->info.unavailable >> c) & 1);
}

/* The warning that the machine's load m distorts categories. */
static void load_warning(FILE *out, const struct lc_prof_machine *m)
{
	fprintf(out, "<p class=\"warning\" id=\"load\"><strong>Warning:</strong> other "
		"processes and the hypervisor held %.1f %% of the program's CPUs (above "
		"%.0f %%): the categories marked * are distorted by that load.</p>\n",
		lc_machine_pct(m, LC_SHARE_LOAD), LC_MACHINE_LOAD_PCT);
}

/* The machine's share of the program's CPUs, and a warning when its load
 * distorts categories (marked * in the table). */
static void machine(FILE *out, const struct lc_profile *pr)
{
	const struct lc_prof_machine *m = &pr->machine_total;

	if (!pr->nmachine || !m->total_ns)
		return;
	fprintf(out, "<p id=\"machine\">The machine: other processes %.1f %%, steal %.1f %%, "
		"the sampler %.1f %% of the %u CPUs the program could use.</p>\n",
		lc_machine_pct(m, LC_SHARE_OTHER), lc_machine_pct(m, LC_SHARE_STEAL),
		lc_machine_pct(m, LC_SHARE_SAMPLER), m->ncpus);
	if (lc_machine_distorts(pr))
		load_warning(out, m);
}

static void head(FILE *out, const struct lc_profile *pr, const char *name)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>lostcycles: ",
	      out);
	esc(out, name);
	fputs("</title>\n<style>\nbody{font-family:sans-serif;margin:2em;max-width:70em;color:#222}\n"
	      "table{border-collapse:collapse}td,th{padding:2px 10px;text-align:right}"
	      "td:first-child,th:first-child{text-align:left}\ntr:nth-child(even){background:#f4f4f4}\n"
	      ".sw{display:inline-block;width:.9em;height:.9em;margin-right:.4em;vertical-align:middle}\n"
	      "pre{background:#f8f8f8;padding:1em;white-space:pre-wrap}\n"
	      ".warn{background:#fff3cd;padding:.5em}\n</style></head><body>\n",
	      out);
	fputs("<h1>Lost cycles of <code>", out);
	esc(out, pr->info.command ? pr->info.command : name);
	fprintf(out, "</code></h1>\n<p>Profile <code>");
	esc(out, name);
	fputs("</code> on ", out);
	esc(out, pr->info.hostname ? pr->info.hostname : "?");
	fprintf(out, ": p = %u processors.</p>\n", pr->procs);
	machine(out, pr);
}

/* What the text report warns about: a sampler that fell behind (missed
 * ticks), and a sampler that shared a CPU with the program. */
static void warnings(FILE *out, const struct lc_profile *pr)
{
	struct lc_report_missed m;
	char msg[512];

	lc_report_missed(pr, &m);
	if (lc_report_stall(pr, msg, sizeof(msg))) {
		fputs("<p class=\"warn\" id=\"stall\">Warning: ", out);
		esc(out, msg);
		fputs(".</p>\n", out);
	} else if (m.missed)
		fprintf(out, "<p class=\"warn\" id=\"missed\">Note: the sampler missed %" PRIu64
			" of its ticks%s (%.2g %%): their %.6f s (missed ticks &times; mean interval "
			"&times; p) went to the state seen at the end of each gap and may belong "
			"to other categories.</p>\n", m.missed, m.estimated ? " (estimated)" : "",
			100.0 * (double)m.missed / (double)(m.ticks + m.missed),
			(double)m.missed * (double)m.interval_ns * pr->procs / 1e9);
	if (pr->ended && pr->end.ext && pr->end.shared_cpu >= 0)
		fprintf(out, "<p class=\"warn\" id=\"shared-cpu\">Note: the sampler shared CPU %d "
			"with the program (no spare CPU): its ticks took CPU time from the "
			"program.</p>\n", (int)pr->end.shared_cpu);
}

/* The row of category c: ns of total, or na. */
static void table_row(FILE *out, const struct lc_profile *pr, int c, uint64_t ns, uint64_t total)
{
	fprintf(out, "<tr><td><span class=\"sw\" style=\"background:%s\"></span>%s (%s)%s</td>",
		lc_cat_colour(c), lc_cat_info(c)->name, lc_cat_info(c)->key,
		(lc_machine_distorts(pr) >> c) & 1 ? " *" : "");
	if (measured(pr, c))
		fprintf(out, "<td>%.6f</td><td>%.1f %%</td></tr>\n", sec(ns),
			total ? 100.0 * (double)ns / (double)total : 0.0);
	else
		fputs("<td>na</td><td>not measured</td></tr>\n", out);
}

/* The category table with shares. */
static void table(FILE *out, const struct lc_profile *pr, const uint64_t cat[LC_NCAT],
		  uint64_t total)
{
	fputs("<h2>Categories</h2>\n<table id=\"categories\"><tr><th>category</th><th>seconds</th>"
	      "<th>share</th></tr>\n", out);
	for (int c = 0; c < LC_NCAT; c++)
		table_row(out, pr, c, cat[c], total);
	fprintf(out, "<tr><th>total (p &times; wall)</th><th>%.6f</th><th>100 %%</th></tr></table>\n",
		sec(total));
}

/* One rectangle with a tooltip. */
static void rect(FILE *out, double x, double y, double w, double h, int c, const char *what,
		 double s)
{
	if (w <= 0 || h <= 0)
		return;
	fprintf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\">"
		"<title>%s %s: %.6f s</title></rect>\n", x, y, w, h, lc_cat_colour(c), what,
		lc_cat_info(c)->key, s);
}

/* A stacked bar per thread, scaled to the longest. */
static void thread_bars(FILE *out, const struct lc_profile *pr, const struct lc_prof_data *d)
{
	uint64_t max = 1;
	char what[64];
	int row = 0;

	for (uint32_t t = 0; t < d->nthreads; t++) {
		uint64_t s = 0;

		for (int c = 0; c < LC_NCAT; c++)
			s += d->threads[t].cat[c];
		max = s > max ? s : max;
	}
	fprintf(out, "<h2>Per thread</h2>\n<svg id=\"threads\" "
		"width=\"%d\" height=\"%u\" role=\"img\" aria-label=\"time per thread and category\">\n",
		W, 24 * d->nthreads + 24);
	for (uint32_t t = 0; t < d->nthreads; t++, row++) {
		double x = LABEL;

		snprintf(what, sizeof(what), "thread %u", t);
		fprintf(out, "<text x=\"0\" y=\"%d\" font-size=\"13\">thread %u (tid %d)</text>\n",
			24 * row + 16, t, t < pr->nthreads ? pr->threads[t].tid : 0);
		for (int c = 0; c < LC_NCAT; c++) {
			double w = (double)(W - LABEL) * (double)d->threads[t].cat[c] / (double)max;

			rect(out, x, 24.0 * row + 4, w, 18, c, what, sec(d->threads[t].cat[c]));
			x += w;
		}
	}
	fprintf(out, "<text x=\"%d\" y=\"%u\" font-size=\"12\">0 s</text><text x=\"%d\" y=\"%u\" "
		"font-size=\"12\" text-anchor=\"end\">%.3f s</text>\n</svg>\n", LABEL,
		24 * d->nthreads + 18, W, 24 * d->nthreads + 18, sec(max));
}

/* ---- the timeline: time on x, the processors and each thread on y ------ */

#define TL_TOP 30	/* the strips of missed-tick and load marks above the plot */
#define TL_H 150	/* the processors band */
#define TL_LANE 16	/* one thread's lane */
#define TL_GAP 4
#define TL_MAXLANES 64	/* threads drawn; the others are said */
#define TL_COLS 340	/* columns the windows are gathered into (2 px each) */

/* The windows gathered into one column of the picture. */
struct tl_col {
	uint64_t start, end;	/* ns after t0: their first start, their last end */
	uint64_t wall;		/* their wall time */
	uint64_t missed;	/* the ticks they missed */
	uint64_t cat[LC_NCAT];	/* their processor time per category */
};

/* The timeline: where its parts go (x of a time, y of the rows) and the
 * windows gathered into columns. */
struct tl {
	uint64_t end;		/* the run's end, ns after t0 (> 0) */
	uint32_t procs;		/* the band's scale */
	uint32_t lanes;		/* thread lanes drawn */
	int lanes_y;		/* top of the first lane */
	int axis_y;		/* the time axis */
	uint32_t ncols;
	struct tl_col *cols;
	uint64_t (*lane)[LC_NCAT];	/* [col * lanes + thread]: a thread's time */
	uint32_t nmissed;	/* windows that missed ticks */
	struct lc_report_missed missed;	/* the run's, as the text report counts them */
};

static double tl_x(const struct tl *t, uint64_t ns)
{
	return LABEL + (double)(W - LABEL - 30) * (double)ns / (double)t->end;
}

static int lane_y(const struct tl *t, uint32_t lane)
{
	return t->lanes_y + (int)lane * (TL_LANE + TL_GAP);
}

/* A step of 1, 2 or 5 times a power of ten that cuts span into at most
 * max parts. */
static double nice_step(double span, int max)
{
	double p = pow(10, floor(log10(span / max))), m[] = { 1, 2, 5, 10 };

	for (int i = 0; i < 4; i++)
		if (span / (m[i] * p) <= max)
			return m[i] * p;
	return 10 * p;
}

/* The unit of a time axis that ends at end ns: its name and its ns. */
static const char *time_unit(uint64_t end, double *ns)
{
	static const struct { uint64_t below; double ns; const char *name; } units[] = {
		{ 2000000, 1e3, "\xc2\xb5s" }, { 2000000000, 1e6, "ms" }, { UINT64_MAX, 1e9, "s" },
	};
	size_t i = 0;

	while (end >= units[i].below && units[i].below != UINT64_MAX)
		i++;
	*ns = units[i].ns;
	return units[i].name;
}

/* The ticks of the time axis, every step units of unit ns, labelled. */
static void time_ticks(FILE *out, const struct tl *t, double unit, double step)
{
	for (double v = 0; v * unit <= (double)t->end * (1 + 1e-9); v += step) {
		double x = tl_x(t, (uint64_t)(v * unit));

		fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#000\"/>"
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n", x, t->axis_y,
			x, t->axis_y + 5, x, t->axis_y + 18, v);
	}
}

/* The time axis under the plot: ticks with their times and the unit. */
static void time_axis(FILE *out, const struct tl *t)
{
	double unit, step;
	const char *u = time_unit(t->end, &unit);

	step = nice_step((double)t->end / unit, 8);
	fprintf(out, "<g id=\"time-axis\" font-size=\"12\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		"y2=\"%d\" stroke=\"#000\"/>\n", LABEL, t->axis_y, W - 30, t->axis_y);
	time_ticks(out, t, unit, step);
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">time since the start "
		"(%s)</text></g>\n", (LABEL + W) / 2, t->axis_y + 36, u);
}

/* The ticks of the processors axis, every step processors, labelled. */
static void procs_ticks(FILE *out, const struct tl *t, double step)
{
	for (double v = 0; v <= t->procs + 1e-9; v += step) {
		double y = TL_TOP + TL_H - TL_H * v / t->procs;

		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#000\"/>"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", LABEL - 5, y,
			LABEL, y, LABEL - 8, y + 4, v);
	}
}

/* The processors axis beside the band: 0 .. procs. */
static void procs_axis(FILE *out, const struct tl *t)
{
	double step = nice_step(t->procs, 5);

	fprintf(out, "<g id=\"procs-axis\" font-size=\"12\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		"y2=\"%d\" stroke=\"#000\"/>\n", LABEL, TL_TOP, LABEL, TL_TOP + TL_H);
	procs_ticks(out, t, step < 1 ? 1 : step);
	fprintf(out, "<text x=\"0\" y=\"%d\">processors</text></g>\n", TL_TOP + TL_H / 2);
}

/* The column of the picture that window w goes into. */
static uint32_t col_of(const struct tl *t, const struct lc_prof_window *w)
{
	uint64_t c = (uint64_t)((double)w->start_ns / (double)t->end * t->ncols);

	return c < t->ncols ? (uint32_t)c : t->ncols - 1;
}

/* Window w (with wall time) into its column: its span, its processor time
 * per category, the ticks it missed (m) and its thread rows. */
static void gather_window(struct tl *t, const struct lc_profile *pr,
			  const struct lc_prof_window *w, uint64_t m)
{
	uint64_t wall = lc_acct_wall(&w->acct), cat[LC_NCAT];
	uint32_t c = col_of(t, w);
	struct tl_col *col = &t->cols[c];

	if (!col->wall || w->start_ns < col->start)
		col->start = w->start_ns;
	if (w->start_ns + wall > col->end)
		col->end = w->start_ns + wall;
	col->wall += wall;
	lc_profile_finish(pr, &w->acct, cat);
	for (int k = 0; k < LC_NCAT; k++)
		col->cat[k] += cat[k];
	col->missed += m;
	t->nmissed += m > 0;
	for (uint32_t j = 0; j < w->nthreads; j++)
		if (w->threads[j].thread < t->lanes)
			for (int k = 0; k < LC_NCAT; k++)
				t->lane[(size_t)c * t->lanes + w->threads[j].thread][k] +=
					w->threads[j].cat[k];
}

/* Gather d's windows into at most TL_COLS columns of the picture (a run
 * of thousands of windows draws no more), marking missed ticks only where
 * the text report counts some (lc_report_window_missed).  0 or -ENOMEM. */
static int gather(struct tl *t, const struct lc_profile *pr, const struct lc_prof_data *d)
{
	t->ncols = d->nwindows < TL_COLS ? d->nwindows : TL_COLS;
	t->cols = calloc(t->ncols ? t->ncols : 1, sizeof(*t->cols));
	t->lane = calloc((size_t)(t->ncols ? t->ncols : 1) * (t->lanes ? t->lanes : 1),
			 sizeof(*t->lane));
	if (!t->cols || !t->lane)
		return -ENOMEM;
	lc_report_missed(pr, &t->missed);
	for (uint32_t i = 0; i < d->nwindows; i++)
		if (lc_acct_wall(&d->windows[i].acct))
			gather_window(t, pr, &d->windows[i],
				      d == &pr->data[LC_SRC_SAMPLED] ?
				      lc_report_window_missed(pr, &t->missed, i) : 0);
	return 0;
}

/* The categories of one column, stacked upwards from y0 in rectangles as
 * tall as scale times each category's ns. */
static void stack(FILE *out, const struct tl *t, const struct tl_col *col,
		  const uint64_t cat[LC_NCAT], double y0, double scale, const char *who)
{
	double x = tl_x(t, col->start), wd = tl_x(t, col->end) - x, y = y0;
	char what[96];

	snprintf(what, sizeof(what), "%s%.3f s to %.3f s", who, sec(col->start), sec(col->end));
	for (int c = 0; c < LC_NCAT; c++) {
		double hh = scale * (double)cat[c];

		y -= hh;
		if (hh >= 0.2)
			rect(out, x, y, wd, hh, c, what, sec(cat[c]));
	}
}

/* The processors in each category per column, stacked in the band. */
static void procs_band(FILE *out, const struct tl *t)
{
	for (uint32_t i = 0; i < t->ncols; i++)
		if (t->cols[i].wall)
			stack(out, t, &t->cols[i], t->cols[i].cat, TL_TOP + TL_H,
			      (double)TL_H / (double)t->cols[i].wall / t->procs, "");
}

/* The lane of thread k, labelled. */
static void thread_lane(FILE *out, const struct lc_profile *pr, const struct tl *t, uint32_t k)
{
	char who[40];

	fprintf(out, "<text x=\"0\" y=\"%d\" font-size=\"12\">thread %u (tid %d)</text>\n",
		lane_y(t, k) + 12, k, k < pr->nthreads ? pr->threads[k].tid : 0);
	snprintf(who, sizeof(who), "thread %u, ", k);
	for (uint32_t i = 0; i < t->ncols; i++)
		if (t->cols[i].wall)
			stack(out, t, &t->cols[i], t->lane[(size_t)i * t->lanes + k],
			      lane_y(t, k) + TL_LANE, (double)TL_LANE / (double)t->cols[i].wall, who);
}

/* One lane per thread (the first t->lanes), labelled: the thread's
 * categories per column, each as tall as its share of the column's time. */
static void thread_lanes(FILE *out, const struct lc_profile *pr, const struct tl *t)
{
	for (uint32_t k = 0; k < t->lanes; k++)
		thread_lane(out, pr, t, k);
}

/* The black mark above column col, whose windows missed ticks. */
static void missed_mark(FILE *out, const struct tl *t, const struct tl_col *col)
{
	double x = tl_x(t, col->start), wd = tl_x(t, col->end) - x;

	fprintf(out, "<rect class=\"missed\" x=\"%.2f\" y=\"2\" width=\"%.2f\" "
		"height=\"10\" fill=\"#000000\"><title>%.3f s to %.3f s: %" PRIu64
		" ticks missed: their time went to the state seen at the end of each "
		"gap</title></rect>\n", x, wd < 1 ? 1 : wd, sec(col->start),
		sec(col->end), col->missed);
}

/* Black marks above the columns whose windows missed ticks. */
static void missed_marks(FILE *out, const struct tl *t)
{
	for (uint32_t i = 0; i < t->ncols; i++)
		if (t->cols[i].missed)
			missed_mark(out, t, &t->cols[i]);
	if (t->nmissed)
		fputs("<text x=\"0\" y=\"11\" font-size=\"12\">missed ticks</text>\n", out);
}

/* Grey marks in their strip over the spans in which other processes and
 * the hypervisor held more than LC_MACHINE_LOAD_PCT of the program's CPUs
 * (darker the more they held); how many. */
static uint32_t load_bands(FILE *out, const struct lc_profile *pr, const struct tl *t)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < pr->nmachine; i++) {
		const struct lc_prof_machine *m = &pr->machine[i];
		double load = lc_machine_pct(m, LC_SHARE_LOAD), x = tl_x(t, m->start_ns);

		if (!m->total_ns || load <= LC_MACHINE_LOAD_PCT || m->start_ns >= t->end)
			continue;
		n++;
		fprintf(out, "<rect class=\"load\" x=\"%.2f\" y=\"15\" width=\"%.2f\" height=\"10\" "
			"fill=\"#404040\" fill-opacity=\"%.2f\"><title>%.3f s to %.3f s: other "
			"processes and the hypervisor held %.1f %% of the program's CPUs</title>"
			"</rect>\n", x, tl_x(t, m->start_ns + m->len_ns < t->end ?
					     m->start_ns + m->len_ns : t->end) - x,
			0.2 + 0.8 * fmin(load, 100) / 100, sec(m->start_ns),
			sec(m->start_ns + m->len_ns), load);
	}
	if (n)
		fputs("<text x=\"0\" y=\"24\" font-size=\"12\" fill=\"#404040\">machine load</text>\n",
		      out);
	return n;
}

/* The caption under the timeline: what its marks mean, when there are any. */
static void timeline_notes(FILE *out, const struct lc_profile *pr, uint32_t nmissed,
			   uint32_t nload, uint32_t nthreads, const struct tl *t)
{
	if (nmissed)
		fprintf(out, "<p class=\"warn\" id=\"timeline-missed\">The sampler missed "
			"<span id=\"missed-ticks\">%" PRIu64 "</span> tick%s%s; the black mark%s "
			"above the plot show%s the %u window%s where the longest gap or the windows' "
			"tick counts place them: their time went to the state seen at the end of "
			"each gap.</p>\n",
			t->missed.missed, t->missed.missed == 1 ? "" : "s",
			t->missed.estimated ? " (estimated)" : "", nmissed == 1 ? "" : "s",
			nmissed == 1 ? "s" : "", nmissed, nmissed == 1 ? "" : "s");
	if (nload)
		fprintf(out, "<p class=\"warn\" id=\"timeline-load\">In %u span%s (grey marks) other "
			"processes and the hypervisor held more than %.0f %% of the program's CPUs: "
			"the categories there are distorted by that load.</p>\n", nload,
			nload == 1 ? "" : "s", LC_MACHINE_LOAD_PCT);
	if (pr->ended && pr->end.ext && pr->end.shared_cpu >= 0)
		fprintf(out, "<p class=\"warn\" id=\"timeline-shared\">The sampler shared CPU %d "
			"with the program throughout: the thread on that CPU lost the sampler's "
			"ticks.</p>\n", (int)pr->end.shared_cpu);
	if (nthreads > t->lanes)
		fprintf(out, "<p>Threads %u to %u are not drawn (%u lanes at most).</p>\n",
			t->lanes, nthreads - 1, TL_MAXLANES);
}

/* The timeline: per window, the processors in each category stacked, and
 * each thread's lane, over time, with both axes, the windows that missed
 * ticks and the spans of heavy machine load marked. */
static void timeline(FILE *out, const struct lc_profile *pr, const struct lc_prof_data *d)
{
	struct tl t = { .end = 1, .procs = pr->procs ? pr->procs : 1 };
	uint32_t nload;

	for (uint32_t i = 0; i < d->nwindows; i++) {
		uint64_t e = d->windows[i].start_ns + lc_acct_wall(&d->windows[i].acct);

		t.end = e > t.end ? e : t.end;
	}
	t.lanes = d->nthreads < TL_MAXLANES ? d->nthreads : TL_MAXLANES;
	t.lanes_y = TL_TOP + TL_H + 14;
	t.axis_y = lane_y(&t, t.lanes) + 4;
	fprintf(out, "<h2>Timeline</h2>\n<p>The run's %.3f s: on top the processors in each "
		"category over time (p = %u), below each thread's categories (a lane is full "
		"while the thread lived).</p>\n", sec(t.end), pr->procs);
	if (gather(&t, pr, d)) {
		fputs("<p class=\"warn\">The timeline is left out: out of memory.</p>\n", out);
		goto out;
	}
	fprintf(out, "<svg id=\"timeline\" width=\"%d\" height=\"%d\" role=\"img\" "
		"aria-label=\"timeline: time on x, processors and threads on y\">\n", W,
		t.axis_y + 44);
	procs_band(out, &t);
	thread_lanes(out, pr, &t);
	nload = load_bands(out, pr, &t);
	missed_marks(out, &t);
	procs_axis(out, &t);
	time_axis(out, &t);
	fputs("</svg>\n", out);
	timeline_notes(out, pr, t.nmissed, nload, d->nthreads, &t);
out:
	free(t.cols);
	free(t.lane);
}

#define MODEL_PTS 64

/* The model's T(p) (series 0) and C(p)/p of each category it has
 * (series 1 + c) at p = 1 .. pmax into y[series][i]; NaN where it cannot
 * be evaluated. */
static void model_series(const struct lc_html_model *hm, int pmax,
			 double y[LC_NCAT + 1][MODEL_PTS + 1])
{
	const char *names[LC_MODEL_MAXVARS + 1], *missing;
	double vals[LC_MODEL_MAXVARS + 1], half;
	struct lc_env env = { names, vals, 0 };
	int k = 0;

	for (int i = 0; i < hm->nat && k < LC_MODEL_MAXVARS; i++)
		names[k] = hm->at_names[i], vals[k++] = hm->at_vals[i];
	names[k] = "p";
	env.n = k + 1;
	for (int i = 0; i <= MODEL_PTS; i++) {
		double p = 1 + (double)(pmax - 1) * i / MODEL_PTS;

		vals[k] = p;
		if (lc_predict_total(hm->model, &env, NULL, &y[0][i], &half, &missing))
			y[0][i] = NAN;
		for (int c = 0; c < LC_NCAT; c++) {
			double v;

			if (lc_predict_cat(hm->model, lc_cat_info(c)->key, &env, &v, &half, &missing))
				y[1 + c][i] = NAN;
			else
				y[1 + c][i] = v / p;
		}
	}
}

/* One series as a polyline (points where it is defined). */
static void polyline(FILE *out, const double *y, double ymax, int h, const char *col, int wide)
{
	fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%d\" points=\"", col, wide);
	for (int i = 0; i <= MODEL_PTS; i++)
		if (isfinite(y[i]))
			fprintf(out, "%.1f,%.1f ", 40 + (double)(W - 60) * i / MODEL_PTS,
				10 + h - h * fmin(fmax(y[i], 0) / ymax, 1));
	fputs("\"/>\n", out);
}

/* The model's curves over p, the measured wall time marked. */
static void model_chart(FILE *out, const struct lc_profile *pr, const struct lc_html_model *hm)
{
	static double y[LC_NCAT + 1][MODEL_PTS + 1];
	int pmax = pr->procs * 2 > 8 ? (int)pr->procs * 2 : 8, h = 240;
	double ymax = 0, wall = 0;
	uint64_t cat[LC_NCAT], tot = 0;

	tot = lc_profile_finish(pr, &pr->data[LC_SRC_SAMPLED].total, cat);
	wall = pr->procs ? sec(tot) / pr->procs : wall;
	model_series(hm, pmax, y);
	for (int s = 0; s <= LC_NCAT; s++)
		for (int i = 0; i <= MODEL_PTS; i++)
			if (isfinite(y[s][i]) && y[s][i] > ymax)
				ymax = y[s][i];
	ymax = fmax(ymax, wall) * 1.05;
	if (ymax <= 0)
		return;
	fputs("<h2>Model</h2>\n<p>Predicted run time T(p) (black) and each category C(p)/p of "
	      "the model <code>", out);
	esc(out, hm->name);
	fprintf(out, "</code> for p = 1 to %d (a category whose model goes below 0 is drawn "
		"at 0: a time is not negative); the dot is this run's wall time.</p>\n"
		"<svg id=\"model\" width=\"%d\" height=\"%d\" role=\"img\" "
		"aria-label=\"model curves\">\n", pmax, W, h + 40);
	for (int c = 0; c < LC_NCAT; c++)
		if (isfinite(y[1 + c][0]) || isfinite(y[1 + c][MODEL_PTS]))
			polyline(out, y[1 + c], ymax, h, lc_cat_colour(c), 2);
	polyline(out, y[0], ymax, h, "#000000", 3);
	if (pr->procs)
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#000000\">"
			"<title>this run: p = %u, wall %.6f s</title></circle>\n",
			40 + (double)(W - 60) * (pr->procs - 1) / (pmax - 1),
			10 + h - h * fmin(wall / ymax, 1), pr->procs, wall);
	fprintf(out, "<text x=\"40\" y=\"%d\" font-size=\"12\">p = 1</text><text x=\"%d\" "
		"y=\"%d\" font-size=\"12\" text-anchor=\"end\">p = %d</text><text x=\"0\" "
		"y=\"16\" font-size=\"12\">%.3f s</text>\n</svg>\n", h + 30, W - 20, h + 30,
		pmax, ymax);
}

/* The places' table (where.h), when the profile has places. */
static void where_table(FILE *out, const struct lc_profile *pr, enum lc_source src)
{
	struct lc_where *w = NULL;
	char msg[256];

	if (!lc_where_build(pr, src, -1, &w, msg, sizeof(msg)))
		lc_where_html(out, pr, w);
	lc_where_free(w);
}

int lc_html_write(FILE *out, const struct lc_profile *pr, enum lc_source src, const char *name,
		  const char *advice, const struct lc_html_model *hm, char *msg, size_t len)
{
	const struct lc_prof_data *d = &pr->data[src];
	uint64_t cat[LC_NCAT], total = 0;

	if (!d->present)
		return lc_fail(msg, len, 1, "the profile holds no %s data",
			       src == LC_SRC_TRACE ? "trace" : "sampled");
	total = lc_profile_finish(pr, &d->total, cat);
	head(out, pr, name);
	warnings(out, pr);
	table(out, pr, cat, total);
	thread_bars(out, pr, d);
	timeline(out, pr, d);
	where_table(out, pr, src);
	if (hm && hm->model)
		model_chart(out, pr, hm);
	if (advice) {
		fputs("<h2>Advice</h2>\n<pre id=\"advice\">", out);
		esc(out, advice);
		fputs("</pre>\n", out);
	}
	fputs("<p><small>Written by lostcycles report --html.</small></p>\n</body></html>\n", out);
	return 0;
}
