/*
 * html.c — the self-contained HTML report (see html.h).
 */
#include "html.h"

#include <inttypes.h>
#include <string.h>

#include "lc_util.h"
#include "report_plot.h"

#define W 860		/* chart width, px */
#define LABEL 150	/* room for the row labels of the thread chart */

static double sec(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* Text with &, <, > and " escaped. */
static void esc(FILE *out, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
}

static int measured(const struct lc_profile *pr, int c)
{
	return !((pr->info.unavailable >> c) & 1);
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
	      "pre{background:#f8f8f8;padding:1em;white-space:pre-wrap}\n</style></head><body>\n",
	      out);
	fputs("<h1>Lost cycles of <code>", out);
	esc(out, pr->info.command ? pr->info.command : name);
	fprintf(out, "</code></h1>\n<p>Profile <code>");
	esc(out, name);
	fprintf(out, "</code> on %s: p = %u processors.</p>\n",
		pr->info.hostname ? pr->info.hostname : "?", pr->procs);
}

/* The category table with shares. */
static void table(FILE *out, const struct lc_profile *pr, const uint64_t cat[LC_NCAT],
		  uint64_t total)
{
	fputs("<h2>Categories</h2>\n<table id=\"categories\"><tr><th>category</th><th>seconds</th>"
	      "<th>share</th></tr>\n", out);
	for (int c = 0; c < LC_NCAT; c++) {
		fprintf(out, "<tr><td><span class=\"sw\" style=\"background:%s\"></span>%s (%s)</td>",
			lc_cat_colour(c), lc_cat_info(c)->name, lc_cat_info(c)->key);
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

int lc_html_write(FILE *out, const struct lc_profile *pr, enum lc_source src, const char *name,
		  const char *advice, char *msg, size_t len)
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
	table(out, pr, cat, total);
	thread_bars(out, pr, d);
	timeline(out, pr, d);
	if (advice) {
		fputs("<h2>Advice</h2>\n<pre id=\"advice\">", out);
		esc(out, advice);
		fputs("</pre>\n", out);
	}
	fputs("<p><small>Written by lostcycles report --html.</small></p>\n</body></html>\n", out);
	return 0;
}
