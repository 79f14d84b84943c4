/*
 * lca_search.h — hypotheses for "lostcycles fit --search": the performance
 * model normal form of Extra-P, c0 + c1 * v^i * log2(v)^j, over a grid of
 * exponents i and j; for several variables, products and sums of such terms
 * over a smaller grid.
 */
#ifndef LCA_SEARCH_H
#define LCA_SEARCH_H

/* Build the hypothesis formulae (as text) for the variables vars[0..nvars).
 * *out gets a malloc'd array of malloc'd strings, *n their count.  Returns 0
 * or -ENOMEM / -E2BIG (more than three variables). */
int lc_search_hypotheses(const char *const *vars, int nvars, char ***out, int *n);

/* Free what lc_search_hypotheses returned. */
void lc_search_free(char **h, int n);

#endif
