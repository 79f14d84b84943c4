/*
 * lca_grid.h — the points "lostcycles predict" evaluates: "n=1024 p=26"
 * (--at) or "n=64,128,...,1024 p=1..26" (--grid).
 *
 * A list item is a number, a range a..b (step 1) or a..b:step, or "..."
 * (also "…") between values to continue the progression of the two values
 * before it: geometric when their ratio is a whole number >= 2 and the end
 * is reached exactly, arithmetic otherwise.
 *
 * Nothing here prints; errors come back as -EINVAL with a message.
 */
#ifndef LCA_GRID_H
#define LCA_GRID_H

#include <stddef.h>

#define LC_GRID_MAXAXES 8
#define LC_GRID_MAXVALUES 100000
/* The most points a command evaluates unless told otherwise (--max-points). */
#define LC_GRID_DEFAULT_MAX_POINTS 1000000

/* One variable of the grid and its values, in the order given. */
struct lc_axis {
	char name[32];
	int n;
	double *v;
	size_t cap;	/* values allocated */
};

struct lc_grid {
	int naxes;
	struct lc_axis axis[LC_GRID_MAXAXES];
};

/* Parse spec into g.  Returns 0, -EINVAL (msg says why) or -ENOMEM. */
int lc_grid_parse(const char *spec, struct lc_grid *g, char *msg, size_t len);

/* The axis named name, or -1. */
int lc_grid_find(const struct lc_grid *g, const char *name);

/* The number of grid points (product of the axes' lengths), SIZE_MAX when
 * that does not fit. */
size_t lc_grid_count(const struct lc_grid *g);

/* 0 when g has at most max points, else -E2BIG with the reason in msg. */
int lc_grid_cap(const struct lc_grid *g, size_t max, char *msg, size_t len);

/* Set idx[0..naxes) to the indices of grid point i, last axis fastest. */
void lc_grid_index(const struct lc_grid *g, size_t i, int *idx);

/* Free the value arrays of g. */
void lc_grid_free(struct lc_grid *g);

#endif
