/*
 * report_plot.h — "report --plot": the per-thread stacked bars and the
 * timeline of a profile as one PNG, drawn by gnuplot (lca_plot.h), with
 * the colours the HTML report uses.
 */
#ifndef LC_REPORT_PLOT_H
#define LC_REPORT_PLOT_H

#include <stddef.h>

#include "lc_profile.h"
#include "lc_util.h"

/* The colour of category c (< LC_NCAT) in the charts, "#rrggbb". */
const char *lc_cat_colour(int c);

/* Write BASE.threads.data, BASE.windows.data and BASE.gp (BASE is png
 * without ".png"), then png with gnuplot; files that exist are treated
 * as how says (lc_out_prepare).  Returns 0; -ENOENT when gnuplot is not
 * installed (the data and script are written); or non-zero with the reason
 * in msg (no data for the source, a file exists or cannot be written,
 * gnuplot failed). */
int lc_report_plot(const struct lc_profile *pr, enum lc_source src, const char *png,
		   enum lc_out_mode how, char *msg, size_t len);

#endif
