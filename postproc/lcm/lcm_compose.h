/*
 * lcm_compose.h — one run of "lostcycles compose" (lost cycles modeling,
 * the thesis's lcm, chapter 6): read or extract the structure, bind it to
 * the variables of --at/--grid (and --tune), compose it at each point and
 * print the predicted categories and T(E), what-if scenarios (category
 * changes on the composed program, as predict's), the comparison with a
 * second structure or model file, the measured runs and the tuning search; write
 * the plot of --plot.
 *
 * Loading returns 0 or -errno with a one-line reason (lc_fail) and prints
 * only the extracted structure when that is the output asked for; notes
 * go to the note callback.  The tables print: that is their job.
 */
#ifndef LCM_COMPOSE_H
#define LCM_COMPOSE_H

#include <stddef.h>
#include <stdio.h>

#include "lc_strace.h"
#include "lca_grid.h"
#include "lca_predict.h"

#define LC_COMPOSE_MAXSRC 32

/* What to compose and how (the options of "lostcycles compose"). */
struct lc_compose_opts {
	const char *structure, *at, *grid, *compare, *plot, *measured, *transfer, *tune, *output;
	const char *critical;		/* --critical-path TRACE */
	const char *memory;		/* --memory[=FILE]: "" for the default file */
	const char *src[LC_COMPOSE_MAXSRC];
	struct lc_whatifs whatif;	/* --what-if scenarios, as given */
	int nsrc, extract, explain, force;
	size_t max_points;		/* --max-points */
};

struct lcm;
struct lc_model;
struct lc_runs;

/* A composition and what it read; zero it, fill o, note and memory, then
 * lc_compose_load; free with lc_compose_free. */
struct lc_compose {
	struct lc_compose_opts o;
	void (*note)(void *arg, const char *text);	/* a note; NULL: dropped */
	void *note_arg;
	/* --memory: the transfer parameters from the file at path ("": the
	 * default file), 0 or -errno with the reason.  NULL: --memory is
	 * refused. */
	int (*memory)(const char *path, double *lat, double *bw, char *msg, size_t len);
	struct lcm *a, *b;
	struct lc_model *bm;		/* --compare with a model file */
	char *text;			/* the extracted structure */
	struct lc_grid g, tg;
	const char *names[2 * LC_GRID_MAXAXES];
	double vals[2 * LC_GRID_MAXAXES];
	int nnames;
	struct lc_runs *runs;
	struct lc_strace trace;		/* --critical-path */
	int nclip;			/* --plot: bars whose lower bound was below 0 */
	struct lc_whatif w[LC_WHATIF_MAX];	/* o.whatif parsed */
};

/* Read (or with o.extract extract, writing the structure to o.output or
 * out when nothing is to be evaluated) the structure and what the options
 * name, parse the grids and bind.  0, with c->a NULL when the extraction
 * was all; or -errno with the reason. */
int lc_compose_load(struct lc_compose *c, FILE *out, char *msg, size_t len);

/* Print what the options ask for to out: the tuning, one point, or the
 * grid table.  0, or -errno with the reason (after what was printed). */
int lc_compose_print(struct lc_compose *c, FILE *out, char *msg, size_t len);

/* --plot: the data, the gnuplot script, the PNG when gnuplot is there,
 * saying on out what was written.  0, or -errno with the reason. */
int lc_compose_plot(struct lc_compose *c, FILE *out, char *msg, size_t len);

/* Free what c holds (not c); accepts a zeroed c. */
void lc_compose_free(struct lc_compose *c);

/* Parse --transfer "latency=S bandwidth=B" into *lat and *bw.  0, or
 * -EINVAL with the reason. */
int lc_compose_transfer(const char *s, double *lat, double *bw, char *msg, size_t len);

/* The measured wall time (mean tt/p of the runs of c->runs at the grid
 * variables' current values), NaN when no run matches; *count says how
 * many did. */
double lc_compose_measured(const struct lc_compose *c, int *count);

#endif /* LCM_COMPOSE_H */
