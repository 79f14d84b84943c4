/*
 * diff.c — the rows of "lostcycles diff" (diff.h): each side's places
 * gathered over its profiles, matched by name and else by function and
 * construct kind, and compared with the sampling error of each profile
 * (the report's ± column: binomial over the slot observations) and, with
 * repeats, their spread.
 */
#include "diff.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_util.h"
#include "where.h"

/* One place of one side: its value per profile and category (ns). */
struct splace {
	char *name, *what, *func;
	uint64_t (*v)[LC_NCAT];	/* [profile][category] */
	int used;		/* matched */
};

struct side {
	int k;			/* profiles */
	uint32_t p;
	double *total;		/* [profile] ns */
	double *nobs;		/* [profile] slot observations, 0: none */
	uint32_t n;		/* places; place 0 is (total) */
	size_t cap;
	struct splace *pl;
};

/* The slot observations behind source src of pr: p slots read at every
 * sampled tick (as report.c counts them); 0 for the trace source. */
static double observations(const struct lc_profile *pr, enum lc_source src)
{
	const struct lc_prof_data *d = &pr->data[LC_SRC_SAMPLED];
	uint64_t ticks = 0;

	if (src != LC_SRC_SAMPLED)
		return 0;
	for (uint32_t i = 0; i < d->nwindows; i++)
		ticks += d->windows[i].ticks;
	return (double)ticks * pr->procs;
}

/* The place of s named name, added (zero for every profile) when new;
 * NULL when out of memory. */
static struct splace *place_of(struct side *s, const char *name, const char *what,
			       const char *func)
{
	struct splace *p;

	for (uint32_t i = 0; i < s->n; i++)
		if (!strcmp(s->pl[i].name, name))
			return &s->pl[i];
	if (lc_grow((void **)&s->pl, &s->cap, s->n + 1, sizeof(*s->pl)))
		return NULL;
	p = &s->pl[s->n];
	*p = (struct splace){ .name = strdup(name), .what = strdup(what ? what : ""),
			      .func = strdup(func ? func : ""),
			      .v = calloc((size_t)s->k, sizeof(*p->v)) };
	if (!p->name || !p->what || !p->func || !p->v) {
		free(p->name), free(p->what), free(p->func), free(p->v);
		return NULL;
	}
	s->n++;
	return p;
}

/* Add thread rows of profile i (ranked by their order) as "thread N". */
static int add_threads(struct side *s, int i, const struct lc_prof_data *d)
{
	char nm[32];

	for (uint32_t t = 0; t < d->nthreads; t++) {
		struct splace *p;

		snprintf(nm, sizeof(nm), "thread %u", t);
		if (!(p = place_of(s, nm, "thread", "")))
			return -ENOMEM;
		for (int c = 0; c < LC_NCAT; c++)
			p->v[i][c] += d->threads[t].cat[c];
	}
	return 0;
}

/* Profile i of side s: its totals, its places (when it has any) and its
 * threads (when o asks).  0, -ENOMEM, or -EINVAL with the reason. */
static int add_profile(struct side *s, int i, const struct lc_profile *pr,
		       const struct lc_diff_opts *o, char *msg, size_t len)
{
	const struct lc_prof_data *d = &pr->data[o->source];
	struct lc_where *w = NULL;
	uint64_t cat[LC_NCAT];
	struct splace *t;
	char why[512];
	int r;

	if (!d->present)
		return lc_fail(msg, len, -EINVAL, "a profile has no %s data",
			       o->source == LC_SRC_TRACE ? "trace" : "sampled");
	s->total[i] = (double)lc_profile_finish(pr, &d->total, cat);
	s->nobs[i] = observations(pr, o->source);
	if (!(t = place_of(s, "(total)", "", "")))
		return -ENOMEM;
	memcpy(t->v[i], cat, sizeof(cat));
	r = lc_where_build(pr, o->source, -1, &w, why, sizeof(why));
	if (r == -ENOMEM)
		return r;
	for (uint32_t j = 0; w && j < w->n; j++) {
		const struct lc_where_row *x = &w->rows[j];
		struct splace *p = place_of(s, x->name, x->what, x->func);

		if (!p) {
			lc_where_free(w);
			return -ENOMEM;
		}
		for (int c = 0; c < LC_NCAT; c++)
			p->v[i][c] += x->cat[c];
	}
	lc_where_free(w);
	return o->threads ? add_threads(s, i, d) : 0;
}

/* The side of the k profiles prs.  0, or -errno with the reason. */
static int side_load(struct side *s, struct lc_profile *const *prs, int k,
		     const struct lc_diff_opts *o, const char *label, char *msg, size_t len)
{
	int r = 0;

	s->k = k;
	s->p = prs[0]->procs;
	s->total = calloc((size_t)k, sizeof(double));
	s->nobs = calloc((size_t)k, sizeof(double));
	if (!s->total || !s->nobs)
		return -ENOMEM;
	for (int i = 0; i < k && !r; i++) {
		if (prs[i]->procs != s->p)
			return lc_fail(msg, len, -EINVAL, "the profiles of side %s have different p "
				       "(%u and %u): repeats are runs of one configuration", label,
				       s->p, prs[i]->procs);
		r = add_profile(s, i, prs[i], o, msg, len);
	}
	return r;
}

static void side_free(struct side *s)
{
	for (uint32_t i = 0; i < s->n; i++) {
		free(s->pl[i].name), free(s->pl[i].what), free(s->pl[i].func);
		free(s->pl[i].v);
	}
	free(s->pl), free(s->total), free(s->nobs);
}

/* Profile i's value of category c (LC_DIFF_ALL: all) at place p, ns. */
static double value(const struct splace *p, int i, int c)
{
	double x = 0;

	if (c != LC_DIFF_ALL)
		return (double)p->v[i][c];
	for (int k = 0; k < LC_NCAT; k++)
		x += (double)p->v[i][k];
	return x;
}

/* The mean over s's profiles of category c at p (NULL: zero), in seconds
 * divided by div, its variance as a mean (the larger of the profiles'
 * spread over k and their sampling error's), and the mean total. */
static void side_stats(const struct side *s, const struct splace *p, int c, double div,
		       double *mean, double *var, double *total)
{
	double sum = 0, sq = 0, se2 = 0, tot = 0;

	for (int i = 0; i < s->k; i++) {
		double x = p ? value(p, i, c) : 0, t = s->total[i];
		double f = t > 0 ? x / t : 0;

		sum += x;
		sq += x * x;
		tot += t;
		if (s->nobs[i] > 0)
			se2 += t * t * f * (1 - f) / s->nobs[i];
	}
	*mean = sum / s->k;
	*total = tot / s->k;
	*var = se2 / s->k / s->k;
	if (s->k > 1) {
		double spread = (sq - sum * sum / s->k) / (s->k - 1) / s->k;

		if (spread > *var)
			*var = spread;
	}
	*mean = *mean / 1e9 / div;
	*total = *total / 1e9 / div;
	*var = *var / 1e18 / (div * div);
}

/* One row of d for places pa and pb (either may be NULL: zero) and
 * category c; none when both sides are zero.  0 or -ENOMEM. */
static int add_row(struct lc_diff *d, size_t *cap, const struct side *sa,
		   const struct splace *pa, const struct side *sb, const struct splace *pb, int c)
{
	double da = d->per_proc ? sa->p : 1, db = d->per_proc ? sb->p : 1;
	double va, vb, xa, xb, ta, tb, dv;
	struct lc_diff_row *r;

	side_stats(sa, pa, c, da, &xa, &va, &ta);
	side_stats(sb, pb, c, db, &xb, &vb, &tb);
	if (xa == 0 && xb == 0)
		return 0;
	if (lc_grow((void **)&d->rows, cap, d->n + 1, sizeof(*d->rows)))
		return -ENOMEM;
	r = &d->rows[d->n];
	*r = (struct lc_diff_row){ .cat = c, .a = xa, .b = xb, .se = sqrt(va + vb) };
	r->place = strdup(pa ? pa->name : pb->name);
	r->what = strdup(pa ? pa->what : pb->what);
	if (pa && pb && strcmp(pa->name, pb->name))
		r->b_name = strdup(pb->name);
	if (!r->place || !r->what || (pa && pb && strcmp(pa->name, pb->name) && !r->b_name)) {
		free(r->place), free(r->what), free(r->b_name);
		return -ENOMEM;
	}
	r->share_a = ta > 0 ? xa / ta : 0;
	r->share_b = tb > 0 ? xb / tb : 0;
	dv = xb - xa;
	r->z = r->se > 0 ? dv / r->se : dv > 0 ? INFINITY : dv < 0 ? -INFINITY : 0;
	r->beyond = fabs(r->z) > d->o.z && fabs(dv) >= d->o.min * fmax(d->total_a, d->total_b);
	d->n++;
	return 0;
}

/* The rows of one pair of places: their whole time, then each category. */
static int add_pair(struct lc_diff *d, size_t *cap, const struct side *sa,
		    const struct splace *pa, const struct side *sb, const struct splace *pb)
{
	int r = add_row(d, cap, sa, pa, sb, pb, LC_DIFF_ALL);

	for (int c = 0; c < LC_NCAT && !r; c++)
		r = add_row(d, cap, sa, pa, sb, pb, c);
	return r;
}

/* The place of s that is not yet matched and has function func and kind
 * what, when exactly one has; else NULL. */
static struct splace *only_like(struct side *s, const char *func, const char *what)
{
	struct splace *hit = NULL;

	for (uint32_t i = 1; i < s->n; i++) {
		struct splace *p = &s->pl[i];

		if (p->used || strcmp(p->func, func) || strcmp(p->what, what))
			continue;
		if (hit)
			return NULL;
		hit = p;
	}
	return hit;
}

/* Match the places of a and b: by name, then (a rebuilt binary moves
 * lines) by function and kind where exactly one place on each side has
 * them.  pair[i] is b's place for a's place i, or NULL. */
static void match(struct side *a, struct side *b, struct splace **pair)
{
	for (uint32_t i = 0; i < a->n; i++) {
		pair[i] = NULL;
		for (uint32_t j = 0; j < b->n; j++)
			if (!b->pl[j].used && !strcmp(a->pl[i].name, b->pl[j].name)) {
				pair[i] = &b->pl[j];
				a->pl[i].used = b->pl[j].used = 1;
				break;
			}
	}
	for (uint32_t i = 1; i < a->n; i++) {
		struct splace *pa = &a->pl[i], *pb;

		if (pa->used || !pa->func[0] || only_like(a, pa->func, pa->what) != pa)
			continue;
		if ((pb = only_like(b, pa->func, pa->what))) {
			pair[i] = pb;
			pa->used = pb->used = 1;
		}
	}
}

/* Note each place of s left unmatched in d->unmatched ("A: name (what in
 * func, 1.2 s)"). */
static int note_unmatched(struct lc_diff *d, const struct side *s, const char *label)
{
	for (uint32_t i = 1; i < s->n; i++) {
		const struct splace *p = &s->pl[i];
		double t = 0;
		char buf[600], **u;

		if (p->used)
			continue;
		for (int k = 0; k < s->k; k++)
			t += value(p, k, LC_DIFF_ALL);
		snprintf(buf, sizeof(buf), "%s: %s (%s%s%s, %.3f s)", label, p->name,
			 p->what[0] ? p->what : "place", p->func[0] ? " in " : "", p->func,
			 t / s->k / 1e9);
		u = realloc(d->unmatched, (d->nunmatched + 1) * sizeof(*u));
		if (!u)
			return -ENOMEM;
		d->unmatched = u;
		if (!(u[d->nunmatched] = strdup(buf)))
			return -ENOMEM;
		d->nunmatched++;
	}
	return 0;
}

/* |change| of the whole-time row starting the place group at i. */
static double group_change(const struct lc_diff *d, uint32_t i)
{
	return fabs(d->rows[i].b - d->rows[i].a);
}

/* Order the place groups after (total)'s by their whole time's change,
 * largest first (a stable insertion of whole groups; places are few). */
static int order_groups(struct lc_diff *d, uint32_t first)
{
	struct lc_diff_row *tmp = malloc(d->n * sizeof(*tmp) + 1);
	uint32_t out = first;

	if (!tmp)
		return -ENOMEM;
	if (!d->n) {		/* (no rows: d->rows may be NULL) */
		free(tmp);
		return 0;
	}
	memcpy(tmp, d->rows, d->n * sizeof(*tmp));
	for (uint32_t done = first; done < d->n;) {
		uint32_t best = UINT32_MAX, blen = 0;

		for (uint32_t i = first; i < d->n;) {
			uint32_t e = i + 1;

			while (e < d->n && !strcmp(d->rows[e].place, d->rows[i].place))
				e++;
			if (d->rows[i].cat != -2 &&
			    (best == UINT32_MAX || group_change(d, i) > group_change(d, best)))
				best = i, blen = e - i;
			i = e;
		}
		memcpy(&tmp[out], &d->rows[best], blen * sizeof(*tmp));
		out += blen;
		done += blen;
		d->rows[best].cat = -2;	/* taken */
	}
	memcpy(d->rows, tmp, d->n * sizeof(*tmp));
	free(tmp);
	return 0;
}

static void note(struct lc_diff *d, const struct side *a, const struct side *b)
{
	size_t n = 0;

	if (d->per_proc)
		n += (size_t)snprintf(d->note, sizeof(d->note), "p differs (%u against %u): "
				      "times are seconds per processor; compare the shares too. ",
				      a->p, b->p);
	if (!d->repeats && n < sizeof(d->note))
		snprintf(d->note + n, sizeof(d->note) - n, "One profile a side: noise is the "
			 "sampling error only (give repeats for the spread between runs).");
	else if (n < sizeof(d->note))
		snprintf(d->note + n, sizeof(d->note) - n, "Noise: the larger of the repeats' "
			 "spread and their sampling error, over %d and %d profiles.", a->k, b->k);
}

/* The rows of d from its two sides. */
static int build_rows(struct lc_diff *d, struct side *a, struct side *b)
{
	struct splace **pair = calloc(a->n + 1, sizeof(*pair));
	size_t cap = 0;
	uint32_t places;
	int r = 0;

	if (!pair)
		return -ENOMEM;
	match(a, b, pair);
	r = add_pair(d, &cap, a, &a->pl[0], b, pair[0]);
	places = d->n;
	for (uint32_t i = 1; i < a->n && !r; i++)
		if (pair[i])
			r = add_pair(d, &cap, a, &a->pl[i], b, pair[i]);
	free(pair);
	if (!r)
		r = order_groups(d, places);
	if (!r)
		r = note_unmatched(d, a, "A");
	if (!r)
		r = note_unmatched(d, b, "B");
	note(d, a, b);
	return r;
}

int lc_diff_build(struct lc_profile *const *a, int na, struct lc_profile *const *b, int nb,
		  const struct lc_diff_opts *o, struct lc_diff **out, char *msg, size_t len)
{
	struct side sa = { 0 }, sb = { 0 };
	struct lc_diff *d = calloc(1, sizeof(*d));
	double t, v;
	int r;

	*out = NULL;
	if (!d)
		return -ENOMEM;
	d->o = *o;
	d->na = na, d->nb = nb;
	r = side_load(&sa, a, na, o, "A", msg, len);
	if (!r)
		r = side_load(&sb, b, nb, o, "B", msg, len);
	if (!r) {
		d->pa = sa.p, d->pb = sb.p;
		d->per_proc = sa.p != sb.p;
		d->repeats = na > 1 || nb > 1;
		side_stats(&sa, &sa.pl[0], LC_DIFF_ALL, d->per_proc ? sa.p : 1, &t, &v, &d->total_a);
		side_stats(&sb, &sb.pl[0], LC_DIFF_ALL, d->per_proc ? sb.p : 1, &t, &v, &d->total_b);
		r = build_rows(d, &sa, &sb);
	}
	side_free(&sa), side_free(&sb);
	if (r) {
		if (r == -ENOMEM)
			lc_fail(msg, len, r, "out of memory");
		lc_diff_free(d);
		return r;
	}
	*out = d;
	return 0;
}

void lc_diff_free(struct lc_diff *d)
{
	if (!d)
		return;
	for (uint32_t i = 0; i < d->n; i++)
		free(d->rows[i].place), free(d->rows[i].what), free(d->rows[i].b_name);
	for (uint32_t i = 0; i < d->nunmatched; i++)
		free(d->unmatched[i]);
	free(d->rows), free(d->unmatched);
	free(d);
}
