/*
 * html.c — the self-contained HTML report (see html.h).
 */
#include "html.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "lc_emit.h"
#include "lc_util.h"
#include "report_plot.h"
#include "lca_model.h"
#include "lca_predict.h"
#include "report.h"
#include "where.h"

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
		fprintf(out, "<p class=\"warning\" id=\"load\"><strong>Warning:</strong> other "
			"processes and the hypervisor held %.1f %% of the program's CPUs (above "
			"%.0f %%): the categories marked * are distorted by that load.</p>\n",
			lc_machine_pct(m, LC_SHARE_LOAD), LC_MACHINE_LOAD_PCT);
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
	char msg[512];

	if (lc_report_stall(pr, msg, sizeof(msg))) {
		fputs("<p class=\"warn\" id=\"stall\">Warning: ", out);
		esc(out, msg);
		fputs(".</p>\n", out);
	}
	if (pr->ended && pr->end.ext && pr->end.shared_cpu >= 0)
		fprintf(out, "<p class=\"warn\" id=\"shared-cpu\">Note: the sampler shared CPU %d "
			"with the program (no spare CPU): its ticks took CPU time from the "
			"program.</p>\n", (int)pr->end.shared_cpu);
}

/* The category table with shares. */
static void table(FILE *out, const struct lc_profile *pr, const uint64_t cat[LC_NCAT],
		  uint64_t total)
{
	fputs("<h2>Categories</h2>\n<table id=\"categories\"><tr><th>category</th><th>seconds</th>"
	      "<th>share</th></tr>\n", out);
	for (int c = 0; c < LC_NCAT; c++) {
		fprintf(out, "<tr><td><span class=\"sw\" style=\"background:%s\"></span>%s (%s)%s</td>",
			lc_cat_colour(c), lc_cat_info(c)->name, lc_cat_info(c)->key,
			(lc_machine_distorts(pr) >> c) & 1 ? " *" : "");
		if (measured(pr, c))
			fprintf(out, "<td>%.6f</td><td>%.1f %%</td></tr>\n", sec(cat[c]),
				total ? 100.0 * (double)cat[c] / (double)total : 0.0);
		else
			fputs("<td>na</td><td>not measured</td></tr>\n", out);
	}
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

/* The timeline: per window, the processors in each category, stacked. */
static void timeline(FILE *out, const struct lc_profile *pr, const struct lc_prof_data *d)
{
	const int h = 220;
	uint64_t end = 1;

	for (uint32_t i = 0; i < d->nwindows; i++) {
		uint64_t e = d->windows[i].start_ns + lc_acct_wall(&d->windows[i].acct);

		end = e > end ? e : end;
	}
	fprintf(out, "<h2>Timeline</h2>\n<p>Processors in each category per window of the run "
		"(%.3f s).</p>\n<svg id=\"timeline\" width=\"%d\" "
		"height=\"%d\" role=\"img\" aria-label=\"timeline\">\n", sec(end), W, h + 20);
	for (uint32_t i = 0; i < d->nwindows; i++) {
		const struct lc_prof_window *w = &d->windows[i];
		uint64_t cat[LC_NCAT], wall = lc_acct_wall(&w->acct), tot = 0;
		double x = (double)W * (double)w->start_ns / (double)end;
		double wd = (double)W * (double)wall / (double)end, y = h;
		char what[64];

		if (!wall)
			continue;
		lc_profile_finish(pr, &w->acct, cat);
		for (int c = 0; c < LC_NCAT; c++)
			tot += cat[c];
		snprintf(what, sizeof(what), "%.3f s", sec(w->start_ns));
		for (int c = 0; c < LC_NCAT && tot; c++) {
			double hh = (double)h * (double)cat[c] / (double)tot;

			y -= hh;
			rect(out, x, y, wd, hh, c, what, sec(cat[c]));
		}
	}
	fprintf(out, "<text x=\"0\" y=\"%d\" font-size=\"12\">0 s</text><text x=\"%d\" y=\"%d\" "
		"font-size=\"12\" text-anchor=\"end\">%.3f s</text>\n</svg>\n", h + 16, W, h + 16,
		sec(end));
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

	lc_profile_finish(pr, &pr->data[LC_SRC_SAMPLED].total, cat);
	for (int c = 0; c < LC_NCAT; c++)
		tot += cat[c];
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
	fprintf(out, "</code> for p = 1 to %d; the dot is this run's wall time.</p>\n"
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
	lc_profile_finish(pr, &d->total, cat);
	for (int c = 0; c < LC_NCAT; c++)
		total += cat[c];
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
