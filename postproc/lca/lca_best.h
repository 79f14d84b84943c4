/*
 * lca_best.h — "lostcycles predict --best": the point of a grid where a
 * model's T(E) is least (or its speedup, or its speedup per processor, is
 * most), under constraints on the variables and an efficiency floor, with
 * its 90 % prediction interval and the runner-up points: the pipeline-
 * tuning paper's optimizer, as an exhaustive search over the grid.
 *
 * A constraint is VAR OP NUMBER, OP one of <= < >= > = != (== is =);
 * "n=4096" on a variable the grid does not give adds it at that value.
 * Nothing here prints but the table of lc_best_print, its job; errors come
 * back as -errno with a one-line reason (lc_fail).
 */
#ifndef LCA_BEST_H
#define LCA_BEST_H

#include <stddef.h>
#include <stdio.h>

#include "lca_grid.h"

#define LC_BEST_MAXCOND 16	/* constraints, over every --where */
#define LC_BEST_MAXTOP 100	/* the most points a table lists */

/* What --best looks for. */
enum lc_best_goal {
	LC_BEST_TIME,		/* least T(E) */
	LC_BEST_SPEEDUP,	/* most T(p=1)/T(E) */
	LC_BEST_PER_P,		/* most speedup per processor (efficiency) */
};

/* The words of the goals ("time", "speedup", "speedup-per-p"), ended by
 * { NULL }: the value of --best. */
struct lc_best_word {
	const char *word;
	enum lc_best_goal goal;
};
extern const struct lc_best_word lc_best_words[];

/* The --where arguments, as given (each may hold several constraints
 * separated by blanks). */
struct lc_best_wheres {
	const char *v[LC_BEST_MAXCOND];
	int n;
};

/* One constraint: var op v. */
struct lc_best_cond {
	char var[32];
	char op[3];		/* "<=", "<", ">=", ">", "=", "!=" */
	double v;
};

/* Parse the constraints of s ("p<=64 n=4096") into c[*n..max), advancing
 * *n.  0, or -EINVAL with the reason. */
int lc_best_cond_parse(const char *s, struct lc_best_cond *c, int *n, int max, char *msg,
		       size_t len);

/* Whether value x meets c. */
int lc_best_cond_holds(const struct lc_best_cond *c, double x);

/* Add to g, for each constraint VAR=V whose VAR g lacks, an axis VAR of the
 * one value V.  0, or -EINVAL with the reason. */
int lc_best_fix(struct lc_grid *g, const struct lc_best_cond *c, int n, char *msg, size_t len);

struct lc_predrun;

/* Search every point of pr's grid (loaded, with T(E); lc_predrun_load) and
 * print the best and its runners-up (pr->o.top of them in all) to out as
 * text, CSV or JSON (pr->o.format, enum lc_emit_format); text adds a title
 * line and the notes predict's tables carry.  0, or -errno with the
 * reason: p not a whole number >= 1, a model that goes below zero or turns
 * past its runs (lc_predict_past), no point meeting the constraints. */
int lc_best_print(struct lc_predrun *pr, FILE *out, char *msg, size_t len);

#endif /* LCA_BEST_H */
