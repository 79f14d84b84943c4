/*
 * lca_predict.h — the thesis's Figure 5.4 step 3: T(E) = sum over the
 * categories C of C(E) / p, with a 90 % prediction interval, what-if
 * scenarios that change categories, and the crossover points where one
 * model's T(E) overtakes another's.
 *
 * Values of the environment E are passed as parallel arrays of names and
 * values; names a model does not use are ignored.  Nothing here prints.
 */
#ifndef LCA_PREDICT_H
#define LCA_PREDICT_H

#include <stddef.h>

#include "lca_model.h"

#define LC_WHATIF_MAX 16

/* The scenarios of the --what-if options, as given. */
struct lc_whatifs {
	const char *v[LC_WHATIF_MAX];
	int n;
};

/* A what-if scenario: category changes applied in order. */
struct lc_whatif {
	char text[128];
	int n;
	struct {
		char cat[8];
		char op;	/* '=', '*', '/', '+', '-' */
		double v;
	} e[LC_WHATIF_MAX];
};

/* Parse a scenario such as "li=0", "sl*=0.5", "li=0 sl*=0.5" or the words
 * balanced (li=0), nowait (sl=0), nocomm (cl=0), nocontention (rc=0),
 * nospeculation (wc=0).  Returns 0 or -EINVAL with msg set. */
int lc_whatif_parse(const char *s, struct lc_whatif *w, char *msg, size_t len);

/* Apply the changes of w (NULL: none) for category cat to its value *c
 * and half width *half, in order. */
void lc_whatif_apply(const struct lc_whatif *w, const char *cat, double *c, double *half);

/* The environment: names[i] = vals[i] for i < n. */
struct lc_env {
	const char *const *names;
	const double *vals;
	int n;
};

/* The lower end of a 90 % interval t +/- half, which a time cannot take
 * below 0. */
double lc_predict_lower(double t, double half);

/* Predict one category of m at env: *c and its half width *half.  A model
 * below zero there (past the range it was fitted over) gives 0: a time
 * cannot be negative (lc_predict_cat_clip counts it).  Returns
 * 0, -ENOENT when m has no model for cat, -EINVAL when env lacks a variable
 * the model's formula reads (*missing names it); variables a model line
 * declares but does not read are not needed. */
int lc_predict_cat(const struct lc_model *m, const char *cat, const struct lc_env *env,
		   double *c, double *half, const char **missing);

/* lc_predict_cat, counting in clip (NULL: not counted) a prediction below
 * zero that was given as 0. */
int lc_predict_cat_clip(const struct lc_model *m, const char *cat, const struct lc_env *env,
			struct lc_clip *clip, double *c, double *half, const char **missing);

/* Whether the model of cat in m holds between the runs it was fitted to
 * (its "%range") and env: walking from the nearest point of that range to
 * env, it must not go below zero, nor turn (rise, then fall, or the
 * reverse) unless fit kept it because the data demand it ("turns").
 * Returns 0 (also for a model without a range, or env inside it), -EINVAL
 * when env lacks a variable, or -EDOM with the reason in msg. */
int lc_predict_past(const struct lc_model *m, const char *cat, const struct lc_env *env,
		    char *msg, size_t len);

/* How far env lies past the runs of m's models: per variable, the ratio of
 * its value to the largest value any model's runs measured, where above 1,
 * as "p=64 is 8x the largest measured (8)" (joined by "; ") into buf.
 * Returns the largest ratio (1: inside every range, or none known). */
double lc_predict_reach(const struct lc_model *m, const struct lc_env *env, char *buf,
			size_t len);

/* The categories T(E) needs: rt (pure computation) and the thesis's five
 * categories of lost cycles, li ip sl cl rc (its complete accounting); ml,
 * bl and wc are added when m has them.  A model of tt alone gives
 * T = tt/p.  Writes the missing categories to buf as "li sl" ("" when none)
 * and returns how many are missing. */
int lc_predict_needs(const struct lc_model *m, char *buf, size_t len);

/* The categories T(E) leaves out because m has no model for them (never
 * measured in the runs, e.g. "ml" without counters, or not fitted), space-
 * separated into buf; returns how many.  0 for a model of tt alone. */
int lc_predict_excluded(const struct lc_model *m, char *buf, size_t len);

/* Predict T(E) = sum C(E) / p over the categories of m (all but tt; tt
 * alone when it is the only one), after scenario w (NULL: none).  *half gets
 * the 90 % prediction half width (category intervals combined in
 * quadrature).  Returns 0, or -EINVAL when env lacks p or a variable
 * (*missing names it) or p <= 0. */
int lc_predict_total(const struct lc_model *m, const struct lc_env *env, const struct lc_whatif *w,
		     double *t, double *half, const char **missing);

/* The variance of the fitted T(E) at env `at` (*var: the categories'
 * lc_model_var_fit over p^2: the models' uncertainty, not the noise of a
 * run, which no measurement takes away) and how much one more run at env x
 * would take off it (*gain; lc_model_gain per category).
 * Returns 0 or -EINVAL as lc_predict_total. */
int lc_predict_gain(const struct lc_model *m, const struct lc_env *at, const struct lc_env *x,
		    double *var, double *gain, const char **missing);

/* Find where T_a - T_b changes sign along variable axis (index into env)
 * between consecutive values xs[0..nx) (the other variables as in env),
 * refining each crossing by bisection.  Writes up to max crossing values to
 * out and, for each, in below[] which model is faster below it (0: a, 1: b).
 * Returns the number found or -EINVAL as lc_predict_total. */
int lc_predict_crossovers(const struct lc_model *a, const struct lc_model *b,
			  const struct lc_env *env, int axis, const double *xs, int nx,
			  double *out, int *below, int max, const char **missing);

#endif
