/*
 * plotout.c — the files of predict's and compose's --plot (see
 * plotout.h).
 */
#include "plotout.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lc_emit.h"
#include "lc_util.h"
#include "lca_grid.h"
#include "lca_plot.h"

int lc_plotout_open(struct lc_plotout *po, const char *png, int force, char *msg, size_t len)
{
	char why[4400];
	size_t n = strlen(png);
	int rc;

	if (n > 4 && !strcmp(png + n - 4, ".png"))
		n -= 4;
	po->png = png;
	snprintf(po->gp, sizeof(po->gp), "%.*s.gp", (int)(n < 4096 ? n : 4096), png);
	snprintf(po->data, sizeof(po->data), "%.*s.data", (int)(n < 4096 ? n : 4096), png);
	rc = lc_plot_prepare(po->gp, po->data, png, force ? LC_OUT_FORCE : LC_OUT_KEEP, why,
			     sizeof(why));
	return rc ? lc_fail(msg, len, rc, "--plot: %s", why) : 0;
}

int lc_plotout_finish(const struct lc_plotout *po, FILE *out, char *msg, size_t len)
{
	int rc = lc_plot_png(po->gp, po->png);

	if (rc && rc != -ENOENT)
		return lc_fail(msg, len, rc, "gnuplot failed on %s", po->gp);
	if (rc)
		fprintf(out, "wrote %s and %s (gnuplot not installed: no PNG)\n", po->gp, po->data);
	else
		fprintf(out, "wrote %s (and %s, %s)\n", po->png, po->gp, po->data);
	return 0;
}

void lc_plotout_str(FILE *f, const char *fmt, ...)
{
	char text[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	lc_emit_gnuplot_str(f, text);
}

void lc_plotout_curve(FILE *f, int first, const char *data, int b, const char *style,
		      const char *fmt, ...)
{
	char title[1024];
	va_list ap;

	fputs(first ? " " : ", \\\n     ", f);
	lc_plotout_str(f, "%s", data);
	fprintf(f, " index %d %s title ", b, style);
	va_start(ap, fmt);
	vsnprintf(title, sizeof(title), fmt, ap);
	va_end(ap);
	lc_plotout_str(f, "%s", title);
}

void lc_plotout_head(FILE *f, const char *who, const char *xlabel, const char *yaxis,
		     const char *title)
{
	fprintf(f, "# written by lostcycles %s\nset xlabel ", who);
	lc_plotout_str(f, "%s", xlabel);
	fprintf(f, "\n%s\nset title ", yaxis);
	lc_plotout_str(f, "%s", title);
	fprintf(f, " noenhanced\nset key left top noenhanced\nplot");
}

int lc_plotout_script(const struct lc_plotout *po, const struct lc_plotout_script *s,
		      char *msg, size_t len)
{
	FILE *f = lc_out_fopen(po->gp);

	if (!f)
		return lc_fail(msg, len, -errno, "--plot %s: %s", po->png, strerror(errno));
	lc_plotout_head(f, s->who, s->xlabel, s->yaxis, s->title);
	for (int b = 0; b < s->ncurves; b++)
		s->curve(s->arg, f, po->data, b);
	fprintf(f, "\n");
	if (fclose(f))
		return lc_fail(msg, len, -errno, "--plot %s: %s", po->png, strerror(errno));
	return 0;
}

/* Swap axes i and j of g. */
static void swap_axes(struct lc_grid *g, int i, int j)
{
	struct lc_axis t = g->axis[i];

	g->axis[i] = g->axis[j];
	g->axis[j] = t;
}

/* The first axis from "from" on with more than one value, else -1. */
static int varying_axis(const struct lc_grid *g, int from)
{
	for (int a = from; a < g->naxes; a++)
		if (g->axis[a].n > 1)
			return a;
	return -1;
}

int lc_plotout_axes(struct lc_grid *g, const char *x, char *msg, size_t len)
{
	int a = x ? lc_grid_find(g, x) : varying_axis(g, 0);

	if (x && a < 0)
		return lc_fail(msg, len, -EINVAL, "--x %s: not a variable of --grid", x);
	if (a > 0)
		swap_axes(g, 0, a);
	a = varying_axis(g, 1);
	if (a > 1)
		swap_axes(g, 1, a);
	return 0;
}

void lc_plotout_clipped(FILE *out, int n, const char *what)
{
	if (n > 0)
		fprintf(out, "note: --plot: at %d point%s %s reaches below 0; its bar stops at 0 "
			"(a time is not negative)\n", n, n == 1 ? "" : "s", what);
}
