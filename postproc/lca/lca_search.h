/*
 * lca_search.h — hypotheses for "lostcycles fit --search".
 *
 * One variable: the performance model normal form c0 + c1 * v^i * log2(v)^j
 * over a grid of exponents i (0 to 3 in steps of 1/4 and 1/3; with
 * LC_SEARCH_NEGATIVE also -2 to -1/4) and j = 0, 1, 2.
 *
 * Two or three variables, in two stages (the way a multi-parameter modeller
 * builds on single-parameter ones):
 *  1. for each variable v, every factor v^i * log2(v)^j is fitted as
 *     c0 + c1 * factor along each line of points where the other variables
 *     are fixed (over all points when there are no such lines), and the
 *     factors are ranked by their summed in-sample SMAPE; the best
 *     LC_SEARCH_KEEP2 (two variables) or LC_SEARCH_KEEP3 (three) are kept;
 *  2. the terms are the kept factors and their products across variables;
 *     the hypotheses are every term and every sum of two terms, each with
 *     and without a constant.
 * The caller fits and ranks the hypotheses (lc_fit_select cross-validates
 * them).  Factors that are not finite at some point (log2(0), 0^-1) are
 * left out and counted.
 */
#ifndef LCA_SEARCH_H
#define LCA_SEARCH_H

#include "lca_runs.h"

/* Search flags. */
#define LC_SEARCH_NEGATIVE 0x1u	/* allow negative exponents of v */

#define LC_SEARCH_KEEP2 6
#define LC_SEARCH_KEEP3 3

/* What the search did, for the report. */
struct lc_search_info {
	int nfactors;		/* factors tried per variable */
	int undefined;		/* factors left out as not finite at some point */
	char undefined_at[64];	/* one such point, e.g. "p=0" */
	int kept[3];		/* factors kept per variable (several variables) */
};

/* Build the hypothesis formulae (as text) for the variables vars[0..nvars)
 * over the points pts (fitted with fitflags in stage 1).  *out gets a
 * malloc'd array of malloc'd strings (free with lc_strv_free), *n their
 * count.  Returns 0, -ENOMEM, -E2BIG (more than three variables) or -EDOM
 * (no factor is defined at every point). */
int lc_search_hypotheses(const char *const *vars, int nvars, const struct lc_points *pts,
			 unsigned sflags, unsigned fitflags, char ***out, int *n,
			 struct lc_search_info *info);


#endif
