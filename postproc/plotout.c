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

void lc_plotout_head(FILE *f, const char *who, const char *xlabel, const char *yaxis,
		     const char *title)
{
	fprintf(f, "# written by lostcycles %s\nset xlabel ", who);
	lc_plotout_str(f, "%s", xlabel);
	fprintf(f, "\n%s\nset title ", yaxis);
	lc_plotout_str(f, "%s", title);
	fprintf(f, " noenhanced\nset key left top noenhanced\nplot");
}
