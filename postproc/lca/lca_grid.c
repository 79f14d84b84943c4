/*
 * lca_grid.c — parse --at and --grid specifications (see lca_grid.h).
 */
#include "lc_util.h"
#include "lca_grid.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Append v to axis a; 0, -E2BIG or -ENOMEM. */
static int push(struct lc_axis *a, double v)
{
	if (a->n >= LC_GRID_MAXVALUES)
		return -E2BIG;
	/* geometric growth: 100000 values one by one stay linear */
	if (lc_grow((void **)&a->v, &a->cap, (size_t)a->n + 1, sizeof(*a->v)))
		return -ENOMEM;
	a->v[a->n++] = v;
	return 0;
}

/* Parse a whole number s[0..len) into *v; 0 or -EINVAL. */
static int number(const char *s, size_t len, double *v)
{
	char buf[64], *end;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*v = strtod(buf, &end);
	return end == buf || *end || errno || !isfinite(*v) ? -EINVAL : 0;
}

/* Add the range lo..hi step st to a. */
static int range(struct lc_axis *a, double lo, double hi, double st)
{
	int rc = 0;

	if (st <= 0 || hi < lo || (hi - lo) / st > LC_GRID_MAXVALUES)
		return -EINVAL;
	for (double k = 0; !rc && lo + k * st <= hi * (1 + 1e-12); k++)
		rc = push(a, lo + k * st);
	return rc;
}

/* Continue the progression of a's last two values up to end ("..."). */
static int ellipsis(struct lc_axis *a, double end)
{
	double x = a->v[a->n - 2], y = a->v[a->n - 1], r = x > 0 ? y / x : 0;
	double k = r >= 2 && r == floor(r) ? log(end / y) / log(r) : -1;
	int rc = 0;

	if (k >= 0 && fabs(k - round(k)) < 1e-9) {
		for (double v = y * r; !rc && v <= end * (1 + 1e-12); v *= r)
			rc = push(a, v);
		return rc;
	}
	if (y <= x || end < y)
		return -EINVAL;
	return range(a, y + (y - x), end, y - x);
}

/* Parse one list item s[0..len) into a; pending is set after "...". */
static int item(struct lc_axis *a, const char *s, size_t len, int *pending, char *msg, size_t ml)
{
	const char *dots = NULL;
	double lo, hi, st = 1, v;

	for (size_t i = 0; i + 1 < len; i++)
		if (s[i] == '.' && s[i + 1] == '.') {
			dots = s + i;
			break;
		}
	if ((len == 3 && !memcmp(s, "...", 3)) || (len == 3 && !memcmp(s, "\xe2\x80\xa6", 3))) {
		if (a->n < 2)
			return lc_fail(msg, ml, -EINVAL, "%s: '...' needs two values before it", a->name);
		*pending = 1;
		return 0;
	}
	if (dots) {
		const char *colon = memchr(dots, ':', len - (size_t)(dots - s));
		size_t hl = (size_t)((colon ? colon : s + len) - dots - 2);

		if (number(s, (size_t)(dots - s), &lo) || number(dots + 2, hl, &hi) ||
		    (colon && number(colon + 1, len - (size_t)(colon + 1 - s), &st)) || range(a, lo, hi, st))
			return lc_fail(msg, ml, -EINVAL, "%s: bad range '%.*s' (want A..B or A..B:STEP)", a->name, (int)len, s);
		return 0;
	}
	if (number(s, len, &v))
		return lc_fail(msg, ml, -EINVAL, "%s: '%.*s' is not a number", a->name, (int)len, s);
	if (*pending) {
		*pending = 0;
		if (ellipsis(a, v))
			return lc_fail(msg, ml, -EINVAL, "%s: cannot continue %g, %g, ... to %g", a->name,
				   a->v[a->n - 2], a->v[a->n - 1], v);
		return 0;
	}
	return push(a, v);
}

/* Parse "name=list" s[0..len) into a new axis of g. */
static int axis(struct lc_grid *g, const char *s, size_t len, char *msg, size_t ml)
{
	const char *eq = memchr(s, '=', len), *p, *end = s + len;
	struct lc_axis *a;
	int pending = 0, rc = 0;

	if (!eq || eq == s || (size_t)(eq - s) >= sizeof(a->name))
		return lc_fail(msg, ml, -EINVAL, "expected NAME=VALUES, not '%.*s'", (int)len, s);
	if (g->naxes == LC_GRID_MAXAXES)
		return lc_fail(msg, ml, -EINVAL, "more than %d variables", LC_GRID_MAXAXES);
	a = &g->axis[g->naxes++];
	snprintf(a->name, sizeof(a->name), "%.*s", (int)(eq - s), s);
	for (int i = 0; i < g->naxes - 1; i++)
		if (!strcmp(g->axis[i].name, a->name))
			return lc_fail(msg, ml, -EINVAL, "%s given twice", a->name);
	for (p = eq + 1; !rc && p < end;) {
		const char *q = memchr(p, ',', (size_t)(end - p));

		if (!q)
			q = end;
		rc = item(a, p, (size_t)(q - p), &pending, msg, ml);
		p = q + 1;
	}
	if (!rc && (pending || a->n == 0))
		rc = lc_fail(msg, ml, -EINVAL, "%s: no values%s", a->name, pending ? " after '...'" : "");
	return rc;
}

/* Parse a grid.  See lca_grid.h. */
int lc_grid_parse(const char *spec, struct lc_grid *g, char *msg, size_t len)
{
	const char *s = spec, *w;
	size_t wl;
	int rc = 0;

	memset(g, 0, sizeof(*g));
	while (!rc && (w = lc_next_word(&s, NULL, ";", &wl)))
		rc = axis(g, w, wl, msg, len);
	if (!rc && !g->naxes)
		rc = lc_fail(msg, len, -EINVAL, "no variables given");
	if (rc == -E2BIG)
		rc = lc_fail(msg, len, -EINVAL, "more than %d values", LC_GRID_MAXVALUES);
	if (rc)
		lc_grid_free(g);
	return rc;
}

/* Find an axis.  See lca_grid.h. */
int lc_grid_find(const struct lc_grid *g, const char *name)
{
	for (int i = 0; i < g->naxes; i++)
		if (!strcmp(g->axis[i].name, name))
			return i;
	return -1;
}

/* Count grid points.  See lca_grid.h. */
size_t lc_grid_count(const struct lc_grid *g)
{
	size_t n = 1;

	for (int i = 0; i < g->naxes; i++) {
		size_t k = (size_t)g->axis[i].n;

		if (k && n > SIZE_MAX / k)
			return SIZE_MAX;
		n *= k;
	}
	return n;
}

/* Cap the number of points.  See lca_grid.h. */
int lc_grid_cap(const struct lc_grid *g, size_t max, char *msg, size_t len)
{
	size_t n = lc_grid_count(g);

	if (n <= max)
		return 0;
	if (n == SIZE_MAX)
		return lc_fail(msg, len, -E2BIG, "too many points (the product of the axes "
			       "passes 2^64); the limit is --max-points %zu", max);
	return lc_fail(msg, len, -E2BIG, "%zu points, more than --max-points %zu", n, max);
}

/* Indices of point i.  See lca_grid.h. */
void lc_grid_index(const struct lc_grid *g, size_t i, int *idx)
{
	for (int a = g->naxes - 1; a >= 0; a--) {
		idx[a] = (int)(i % (size_t)g->axis[a].n);
		i /= (size_t)g->axis[a].n;
	}
}

/* Free the values.  See lca_grid.h. */
void lc_grid_free(struct lc_grid *g)
{
	for (int i = 0; i < g->naxes; i++) {
		free(g->axis[i].v);
		g->axis[i].v = NULL;
		g->axis[i].n = 0;
		g->axis[i].cap = 0;
	}
	g->naxes = 0;
}
