/*
 * lca_plot.h — run gnuplot on a script the caller wrote, to make a PNG.
 */
#ifndef LCA_PLOT_H
#define LCA_PLOT_H

/* Run gnuplot on the script at gp with its output set to the PNG file png
 * (terminal pngcairo, falling back to png).  gnuplot's own messages are
 * discarded.  Returns 0, -ENOENT when gnuplot is not installed, -EIO when it
 * failed. */
int lc_plot_png(const char *gp, const char *png);

#endif
