/*
 * lca_plot.h — run gnuplot on a script the caller wrote, to make a PNG.
 */
#ifndef LCA_PLOT_H
#define LCA_PLOT_H

#include "lc_util.h"

/* Make room for the files of a plot (lc_out_prepare on each of gp, data
 * and png; NULL ones are skipped): with LC_OUT_KEEP an existing one is
 * refused.  The writers then create them with lc_out_fopen.  Returns 0 or
 * -errno with the reason in msg[len]. */
int lc_plot_prepare(const char *gp, const char *data, const char *png, enum lc_out_mode how,
		    char *msg, size_t len);

/* Run gnuplot on the script at gp with its output set to the PNG file png
 * (terminal pngcairo, falling back to png), which is first created with
 * lc_out_create, so gnuplot writes only a file of ours (-EEXIST when png
 * exists).  gnuplot's own messages are discarded.  Returns 0, -ENOENT when
 * gnuplot is not installed (no PNG is left), -EIO when it failed. */
int lc_plot_png(const char *gp, const char *png);

#endif
