/*
 * extrap_table.c — the table of Extra-P's formats (see extrap_table.h).
 */
#include "extrap_table.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_util.h"

void lc_xp_free(struct lc_xp_table *t)
{
	for (int m = 0; t && m < t->nslot; m++) {
		for (size_t p = 0; p < t->cappt; p++)
			free(t->val[m][p].v);
		free(t->val[m]);
	}
	if (t)
		free(t->pt);
	free(t);
}

struct lc_xp_vals *lc_xp_cell(const struct lc_xp_table *t, int m, size_t p)
{
	return &t->val[m][p];
}

/* Slot m's values grown from old to cap points. */
static int grow_slot(struct lc_xp_table *t, int m, size_t old, size_t cap)
{
	struct lc_xp_vals *nv = realloc(t->val[m], cap * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	memset(&nv[old], 0, (cap - old) * sizeof(*nv));
	t->val[m] = nv;
	return 0;
}

/* Make room for point n in every slot. */
static int grow_points(struct lc_xp_table *t, size_t n)
{
	size_t old = t->cappt, cap = old ? old : 8;
	double *pt;

	if (n < old)
		return 0;
	while (cap <= n)
		cap *= 2;
	if (!(pt = realloc(t->pt, cap * LC_XP_MAXPAR * sizeof(*t->pt))))
		return -ENOMEM;
	t->pt = pt;
	for (int m = 0; m < t->nslot; m++)
		if (grow_slot(t, m, old, cap))
			return -ENOMEM;
	t->cappt = cap;
	return 0;
}

struct lc_xp_table *lc_xp_new(void)
{
	struct lc_xp_table *t = calloc(1, sizeof(*t));

	if (t && grow_points(t, 0)) {
		lc_xp_free(t);
		return NULL;
	}
	return t;
}

long lc_xp_point(struct lc_xp_table *t, const double *x)
{
	for (size_t i = 0; i < t->npt; i++)
		if (!memcmp(&t->pt[i * LC_XP_MAXPAR], x, (size_t)t->npar * sizeof(*x)))
			return (long)i;
	if (t->npt >= LC_XP_MAXPT || (t->npt + 1) * (size_t)t->nslot > LC_XP_MAXCELLS)
		return -E2BIG;
	if (grow_points(t, t->npt))
		return -ENOMEM;
	memcpy(&t->pt[t->npt * LC_XP_MAXPAR], x, (size_t)t->npar * sizeof(*x));
	return (long)t->npt++;
}

int lc_xp_value(struct lc_xp_table *t, struct lc_xp_vals *c, double v)
{
	if (t->nval >= LC_XP_MAXVALS)
		return -E2BIG;
	if (lc_grow((void **)&c->v, &c->cap, c->n + 1, sizeof(*c->v)))
		return -ENOMEM;
	c->v[c->n++] = v;
	t->nval++;
	return 0;
}

int lc_xp_region(struct lc_xp_table *t, const char *s, size_t n)
{
	for (int i = 0; i < t->nreg; i++)
		if (strlen(t->reg[i]) == n && !strncmp(t->reg[i], s, n))
			return i;
	if (t->nreg == LC_XP_MAXREG || n >= LC_XP_REGLEN)
		return -EINVAL;
	snprintf(t->reg[t->nreg], LC_XP_REGLEN, "%.*s", (int)n, s);
	return t->nreg++;
}

int lc_xp_slot(struct lc_xp_table *t, int reg, const char *s, size_t n)
{
	for (int i = 0; i < t->nslot; i++)
		if (t->mreg[i] == reg && strlen(t->met[i]) == n && !strncmp(t->met[i], s, n))
			return i;
	if (t->nslot == LC_XP_MAXSLOT || n >= LC_XP_NAMELEN ||
	    t->npt * (size_t)(t->nslot + 1) > LC_XP_MAXCELLS)
		return -EINVAL;
	if (grow_slot(t, t->nslot, 0, t->cappt))
		return -ENOMEM;
	snprintf(t->met[t->nslot], LC_XP_NAMELEN, "%.*s", (int)n, s);
	t->mreg[t->nslot] = reg;
	return t->nslot++;
}
