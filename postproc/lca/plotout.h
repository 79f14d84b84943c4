/*
 * plotout.h — the --plot FILE.png files of predict and compose: the names
 * of the data and script beside the PNG, making room for them, and running
 * gnuplot with the line that says what was written; and the quoting of
 * every string the gnuplot scripts of fit, predict and compose write.
 */
#ifndef LC_PLOTOUT_H
#define LC_PLOTOUT_H

#include <stddef.h>
#include <stdio.h>

/* The files of one plot. */
struct lc_plotout {
	const char *png;		/* FILE.png as given */
	char gp[4200], data[4200];	/* FILE.gp, FILE.data (".png" left off) */
};

/* Name the files of png and make room for them (an existing one only with
 * force).  0, or -errno with the reason ("--plot: ..."). */
int lc_plotout_open(struct lc_plotout *po, const char *png, int force, char *msg, size_t len);

/* Run gnuplot on the script for the PNG, saying on out what was written
 * (without gnuplot: the data and the script).  0, or -errno with the
 * reason when gnuplot failed. */
int lc_plotout_finish(const struct lc_plotout *po, FILE *out, char *msg, size_t len);

/* The note on out that at n points (none: no note) what (an interval, a
 * spread) reached below 0 and its error bar was drawn from 0. */
void lc_plotout_clipped(FILE *out, int n, const char *what);

/* Write the text of fmt to f as one gnuplot string, quoted through the
 * emitter (lc_emit_gnuplot_str): no file name, path or label ends the
 * string and reaches gnuplot's command language. */
void lc_plotout_str(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Write the head of a --plot script to f, up to its "plot" command: who
 * wrote it (the subcommand), the x label, the y axis (gnuplot commands of
 * the caller's own, without untrusted text) and the title, the labels
 * quoted as lc_plotout_str does. */
void lc_plotout_head(FILE *f, const char *who, const char *xlabel, const char *yaxis,
		     const char *title);

/* One curve of a --plot script, after "plot" when first (else after the
 * previous curve): block b of the data file data, drawn as style ("using
 * 1:2 with lines"), titled with the text of fmt quoted as lc_plotout_str
 * does. */
void lc_plotout_curve(FILE *f, int first, const char *data, int b, const char *style,
		      const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* A --plot script: its head (as lc_plotout_head) and ncurves curves, each
 * written by curve(arg, f, data, b) after "plot" or ", \\" (data: the
 * data file's name, b: the curve's index block). */
struct lc_plotout_script {
	const char *who, *xlabel, *yaxis, *title;
	int ncurves;
	void (*curve)(const void *arg, FILE *f, const char *data, int b);
	const void *arg;
};

/* Write the script of s to po's FILE.gp.  0, or -errno with the reason
 * ("--plot FILE.png: ..."). */
int lc_plotout_script(const struct lc_plotout *po, const struct lc_plotout_script *s,
		      char *msg, size_t len);

struct lc_grid;

/* Put the variable to plot on x first among g's axes: x (NULL: the first
 * axis with more than one value, so that --grid "n=256 p=1..26" plots
 * over p), and the next axis with more than one value second (a curve per
 * value); the others keep their order.  Returns 0, or -EINVAL when x is
 * not an axis (msg says so). */
int lc_plotout_axes(struct lc_grid *g, const char *x, char *msg, size_t len);

#endif /* LC_PLOTOUT_H */
