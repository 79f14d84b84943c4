/*
 * lca_predrun.h — one run of "lostcycles predict": evaluate a model file
 * (from "lostcycles fit --emit" or written by hand) at a point or over a
 * grid: per-category lost cycles, T(E) = sum C(E)/p with a prediction
 * interval, speedup, efficiency and scaling factor; what-if scenarios;
 * comparison with a second model and its crossover points; the plot of T
 * or speedup.
 *
 * Loading returns 0 or -errno with a one-line reason (lc_fail) and never
 * prints; the tables print, their job.
 */
#ifndef LCA_PREDRUN_H
#define LCA_PREDRUN_H

#include <stddef.h>
#include <stdio.h>

#include "lca_best.h"
#include "lca_grid.h"
#include "lca_predict.h"

/* What to predict (the options of "lostcycles predict"). */
struct lc_predrun_opts {
	const char *model, *at, *grid, *compare, *plot, *profile, *extract;
	const char *plot_x;		/* --x: the variable on the plot's x axis */
	struct lc_whatifs whatif;	/* --what-if */
	int speedup, force;
	size_t max_points;		/* --max-points */
	int best;			/* --best: search the grid (lca_best.h) */
	int goal;			/* its enum lc_best_goal */
	struct lc_best_wheres where;	/* --where constraints */
	double min_eff;			/* --min-efficiency (0: none) */
	int top;			/* --top: the points listed (0: 5) */
	int format;			/* --format: enum lc_emit_format */
};

/* A prediction; zero it (pax -1), fill o, lc_predrun_load, then print;
 * free with lc_predrun_free. */
struct lc_predrun {
	struct lc_predrun_opts o;
	struct lc_model *a, *b;
	struct lc_grid g;
	struct lc_whatif w[LC_WHATIF_MAX];
	const char *names[LC_GRID_MAXAXES];
	double vals[LC_GRID_MAXAXES];
	struct lc_env env;
	int pax;		/* the grid axis of p, or -1 */
	int has_t;		/* the model has every category T(E) needs, and p is given */
	char lacks[128];	/* the categories T(E) needs that the model lacks */
	struct lc_clip clip;	/* category predictions below zero, counted as 0 */
	double reach;		/* the farthest point past the runs: the ratio */
	char reach_text[200];	/* and how far, per variable (lc_predict_reach) */
	struct lc_best_cond cond[LC_BEST_MAXCOND];	/* --where, parsed */
	int ncond;
};

/* Read the model files, parse --at/--grid and the what-ifs, check that the
 * model has what the options need.  0, or -errno with the reason. */
int lc_predrun_load(struct lc_predrun *pr, char *msg, size_t len);

/* Print the point's table (--at) or the grid table with the crossovers of
 * --compare (--grid) to out.  0, or -errno with the reason (after what was
 * printed). */
int lc_predrun_print(struct lc_predrun *pr, FILE *out, char *msg, size_t len);

/* --plot: T or speedup over --x's grid variable (default: the first that
 * varies), one curve per value of the next that varies: FILE.data, FILE.gp and the PNG when gnuplot is there,
 * saying on out what was written.  0, or -errno with the reason. */
int lc_predrun_plot(struct lc_predrun *pr, FILE *out, char *msg, size_t len);

/* For lca_best.c: set pr's point to grid point i; T(E) and its 90 % half
 * width at the current point with p replaced by pv (NAN: as it is), a T
 * that is not positive refused; whether each category of the model holds
 * out to the current point (lc_predict_past); the notes of the tables
 * (clipped, excluded categories, p past the CPUs up to pmax, past the
 * data).  0, or -errno with the reason. */
void lc_predrun_point(struct lc_predrun *pr, size_t i);
/* The current point as "n=1024 p=26" into buf[len]. */
void lc_predrun_point_text(const struct lc_predrun *pr, char *buf, size_t len);
int lc_predrun_total(struct lc_predrun *pr, double pv, double *t, double *half, char *msg,
		     size_t len);
int lc_predrun_past(struct lc_predrun *pr, char *msg, size_t len);
void lc_predrun_notes(struct lc_predrun *pr, double pmax, FILE *out);

/* Free what pr holds (not pr); accepts a zeroed pr. */
void lc_predrun_free(struct lc_predrun *pr);

#endif /* LCA_PREDRUN_H */
