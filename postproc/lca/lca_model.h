/*
 * lca_model.h — model files: one fitted model per lost cycles category, as
 * "lostcycles fit --emit" appends them and "lostcycles predict" reads them.
 *
 *   # comment
 *   %log e                      what log() means below: e, 2 or 10 (default 2)
 *   li(n,p) = 2.76e-05*n*log2(n)*p*sqrt(p)   # k1 in [2.6e-05, 2.9e-05]; R2 0.998
 *   #: li dof=10 s2=1.2e-05 cov=1.1e-14
 *   rt(n) = n^2*log(n)/3550     hand-written models work too
 *
 * A "#:" line carries the coefficients' covariance (row-major, in the order
 * the terms appear), the residual variance and the degrees of freedom of the
 * model line above it; without one a model is taken as exact.  A later line
 * for a category replaces an earlier one.
 *
 * Nothing here prints; errors come back as -errno with a line and message.
 */
#ifndef LCA_MODEL_H
#define LCA_MODEL_H

#include <stddef.h>
#include <stdio.h>

#include "lca_formula.h"
#include "lca_lsq.h"

#define LC_MODEL_MAXVARS 16
#define LC_MODEL_MAXCATS 16
#define LC_MODEL_MAXDOF 100000000	/* the largest dof a "#:" line may give */

/* One category's model. */
struct lc_catmodel {
	char cat[8];
	int line;
	int nvars;
	int vars[LC_MODEL_MAXVARS];		/* slots of the declared variables */
	struct lc_expr *expr;			/* slots index lc_model.vars */
	int nterms;
	struct lc_term terms[LC_FORMULA_MAXTERMS];
	int has_cov, dof, relative;
	double s2;
	double cov[LC_FORMULA_MAXTERMS * LC_FORMULA_MAXTERMS];
	/* "%range cat v=lo..hi ... [turns]" below the model: the range of the
	 * runs it was fitted to, per variable slot (ranged[v] says which), and
	 * whether fit kept it although it turns past them (the data demand it) */
	unsigned char ranged[LC_MODEL_MAXVARS];
	double lo[LC_MODEL_MAXVARS], hi[LC_MODEL_MAXVARS];
	int turns_ok;
};

/* A model file. */
struct lc_model {
	unsigned cpus;				/* "%cpus N": the most CPUs of a machine the
						 * runs were measured on (0: not said) */
	unsigned pmax;				/* "%pmax N": the largest p measured (0: not
						 * said); p up to it is no extrapolation */
	int nvars;
	char *vars[LC_MODEL_MAXVARS];		/* every variable any line declares */
	int ncats;
	struct lc_catmodel cats[LC_MODEL_MAXCATS];
};

/* Read the model file at path into *out.  Returns 0, -errno from reading,
 * -EINVAL for a malformed line (*line and msg say which and why), -ENOMEM. */
int lc_model_read(const char *path, struct lc_model **out, int *line, char *msg, size_t len);

/* lc_model_read on the lines of text (a model file's content in memory, as
 * "lostcycles compose" finds it in a structure file or an lcm comment). */
int lc_model_read_text(const char *text, struct lc_model **out, int *line, char *msg, size_t len);

/* Free m; NULL is fine. */
void lc_model_free(struct lc_model *m);

/* The slot of variable name in m, or -1. */
int lc_model_var(const struct lc_model *m, const char *name);

/* The model of category cat in m, or NULL. */
const struct lc_catmodel *lc_model_cat(const struct lc_model *m, const char *cat);

/* Evaluate cm at vals (indexed by m's variable slots): *value gets the
 * prediction and *half the half width of its 90 % prediction interval (0 for
 * a model without a "#:" line).  Past the range of its runs ("%range": r =
 * the largest ratio of a value to its variable's largest measured one,
 * above 1) the interval is widened by the factor 1 + log2(r): the form
 * itself is in doubt there, once more for each doubling. */
void lc_model_eval(const struct lc_catmodel *cm, const double *vals, double *value, double *half);

/* The variance of the fitted value of cm at `at` (the model's uncertainty,
 * without the noise of a run): g' C g.  0 without a covariance. */
double lc_model_var_fit(const struct lc_catmodel *cm, const double *at);

/* How much one more run measured at x would shrink the variance of the
 * fitted value of cm at `at` (both in the model's variable slots): with
 * the coefficients' covariance C, the terms' values g there and the noise
 * of a run s2 (times the value squared for a relative fit), Sherman and
 * Morrison's update gives (g_at' C g_x)^2 / (s2 + g_x' C g_x).  0 without
 * a covariance. */
double lc_model_gain(const struct lc_catmodel *cm, const double *at, const double *x);

/* Append a fitted model for category cat over vars to the file at path
 * (its logarithms print as log2(), log10() or ln()), first writing a "%log"
 * line when the file's current log() differs from logflags (LC_EXPR_LOG2 /
 * LC_EXPR_LOG10 / 0; a file without "%log" means log2).  note goes into the comment.
 * Returns 0 or -errno. */
int lc_model_append(const char *path, const char *cat, const char *const *vars, int nvars,
		    const struct lc_formula *f, const struct lc_fit *fit, unsigned logflags,
		    const char *note);

/* Append a "%cpus N" line to the model file at path (the most CPUs of a
 * machine the runs behind the next models were measured on).  Returns 0 or
 * -errno. */
int lc_model_append_cpus(const char *path, unsigned cpus);

/* Append a "%pmax N" line (the largest p of the runs a model was fitted to)
 * unless the file says as much already.  0 or -errno. */
int lc_model_append_pmax(const char *path, unsigned pmax);

/* How far past its runs vals lies for cm: the largest ratio of a value to
 * its variable's largest measured value (1 within them, or without a
 * "%range"); *slot gets that variable's slot (-1: none). */
double lc_model_reach(const struct lc_catmodel *cm, const double *vals, int *slot);

/* Append "%range cat v=lo..hi ..." (the range of the runs the model above
 * was fitted to; turns: fit kept it although it turns past them) to the
 * model file at path.  0 or -errno. */
int lc_model_append_range(const char *path, const char *cat, const char *const *vars,
			  int nvars, const double *lo, const double *hi, int turns);

/* Predictions a model gave below zero, counted as 0 (a time cannot be
 * negative): how many, and the first one's category and value. */
struct lc_clip {
	int n;
	char cat[8];
	double value;
};

#endif
