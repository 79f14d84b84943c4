/*
 * report_plot.c — the per-thread and timeline charts as PNG (see
 * report_plot.h).
 */
#include "report_plot.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lc_emit.h"
#include "lc_util.h"
#include "lca_plot.h"

/* The colour of category c: the category table's.  See report_plot.h. */
const char *lc_cat_colour(int c)
{
	return c >= 0 && c < LC_NCAT ? lc_cat_info(c)->colour : "#000000";
}

/* The header row of a data file: the first column's name, then the keys. */
static void header(FILE *f, const char *first)
{
	fprintf(f, "%s", first);
	for (int c = 0; c < LC_NCAT; c++)
		fprintf(f, " %s", lc_cat_info(c)->key);
	fputc('\n', f);
}

/* Seconds per category of each thread. */
static int thread_data(const struct lc_prof_data *d, const char *path)
{
	FILE *f = lc_out_fopen(path);

	if (!f)
		return -errno;
	header(f, "thread");
	for (uint32_t t = 0; t < d->nthreads; t++) {
		fprintf(f, "%u", t);
		for (int c = 0; c < LC_NCAT; c++)
			fprintf(f, " %.9f", (double)d->threads[t].cat[c] / 1e9);
		fputc('\n', f);
	}
	return fclose(f) ? -errno : 0;
}

/* Processors per category of each window, labelled by its start. */
static int window_data(const struct lc_profile *pr, const struct lc_prof_data *d,
		       const char *path)
{
	FILE *f = lc_out_fopen(path);

	if (!f)
		return -errno;
	header(f, "start_s");
	for (uint32_t i = 0; i < d->nwindows; i++) {
		uint64_t cat[LC_NCAT], wall = lc_acct_wall(&d->windows[i].acct);

		lc_profile_finish(pr, &d->windows[i].acct, cat);
		fprintf(f, "%.3f", (double)d->windows[i].start_ns / 1e9);
		for (int c = 0; c < LC_NCAT; c++)
			fprintf(f, " %.6f", wall ? (double)cat[c] / (double)wall : 0.0);
		fputc('\n', f);
	}
	return fclose(f) ? -errno : 0;
}

/* The gnuplot script: two rowstacked histograms, one above the other. */
static int script(const struct lc_profile *pr, const struct lc_prof_data *d, const char *gp,
		  const char *threads, const char *windows)
{
	FILE *f = lc_out_fopen(gp);
	uint32_t every = d->nwindows > 10 ? d->nwindows / 10 : 1;
	char title[LC_PROF_TEXT_MAX + 64];

	if (!f)
		return -errno;
	snprintf(title, sizeof(title), "lost cycles of %s (p = %u)",
		 pr->info.command ? pr->info.command : "?", pr->procs);
	fprintf(f, "# written by lostcycles report --plot\nset multiplot layout 2,1 title ");
	lc_emit_gnuplot_str(f, title);
	fprintf(f, " noenhanced\nset style data histograms\nset style histogram rowstacked\n"
		   "set style fill solid 0.9 noborder\nset key outside right noenhanced\n");
	for (int c = 0; c < LC_NCAT; c++)
		fprintf(f, "set linetype %d lc rgb '%s'\n", c + 1, lc_cat_colour(c));
	fprintf(f, "set title 'per thread'\nset xlabel 'thread'\nset ylabel 'seconds'\n"
		   "set boxwidth 0.7\n"
		   "plot for [i=2:%d] ", LC_NCAT + 1);
	lc_emit_gnuplot_str(f, threads);
	fprintf(f, " using i:xtic(1) title columnheader(i)\n"
		   "set title 'timeline'\nset xlabel 'window start (s)'\n"
		   "set ylabel 'processors'\nset boxwidth 1\nset xtics rotate by -45\n"
		   "plot for [i=2:%d] ", LC_NCAT + 1);
	lc_emit_gnuplot_str(f, windows);
	fprintf(f, " using i:xtic(int($0) %% %u == 0 ? stringcolumn(1) : '') "
		   "title columnheader(i)\nunset multiplot\n", every);
	return fclose(f) ? -errno : 0;
}

int lc_report_plot(const struct lc_profile *pr, enum lc_source src, const char *png,
		   enum lc_out_mode how, char *msg,
		   size_t len)
{
	const struct lc_prof_data *d = &pr->data[src];
	char base[4096], gp[4200], threads[4200], windows[4200];
	size_t n = strlen(png);
	int rc;

	if (!d->present)
		return lc_fail(msg, len, 1, "the profile holds no %s data",
			       src == LC_SRC_TRACE ? "trace" : "sampled");
	snprintf(base, sizeof(base), "%.*s",
		 (int)(n > 4 && !strcmp(png + n - 4, ".png") ? n - 4 : n), png);
	snprintf(gp, sizeof(gp), "%s.gp", base);
	snprintf(threads, sizeof(threads), "%s.threads.data", base);
	snprintf(windows, sizeof(windows), "%s.windows.data", base);
	if (lc_plot_prepare(gp, threads, png, how, msg, len) ||
	    lc_out_prepare(windows, how, msg, len))
		return 1;
	rc = thread_data(d, threads);
	rc = rc ? rc : window_data(pr, d, windows);
	rc = rc ? rc : script(pr, d, gp, threads, windows);
	if (rc)
		return lc_fail(msg, len, 1, "cannot write %s: %s", base, strerror(-rc));
	rc = lc_plot_png(gp, png);
	if (rc && rc != -ENOENT)
		return lc_fail(msg, len, 1, "gnuplot failed on %s", gp);
	return rc;
}
