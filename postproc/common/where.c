/*
 * where.c — the places of a profile as ranked rows (see where.h): group the
 * profile's place rows by place, name them (placename.h), make the names
 * unique, add the (elsewhere) row, rank, print through the emitter.
 */
#include "where.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lc_emit.h"
#include "lc_util.h"
#include "placename.h"

/* The tid of thread index t of pr, or -1. */
static int32_t tid_of(const struct lc_profile *pr, uint32_t t)
{
	if (t < pr->nthreads && pr->threads[t].idx == t)
		return pr->threads[t].tid;
	for (uint32_t i = 0; i < pr->nthreads; i++)
		if (pr->threads[i].idx == t)
			return pr->threads[i].tid;
	return -1;
}

/* The key order of place rows: place, then obj. */
static int cmp_key(const struct lc_prof_place *a, const struct lc_prof_place *b)
{
	if (a->place != b->place)
		return a->place < b->place ? -1 : 1;
	return a->obj < b->obj ? -1 : a->obj > b->obj;
}

static int by_key(const void *a, const void *b)
{
	return cmp_key(*(const struct lc_prof_place *const *)a,
		       *(const struct lc_prof_place *const *)b);
}

static struct lc_where *where_new(uint32_t cap)
{
	struct lc_where *w = calloc(1, sizeof(*w));

	if (w && !(w->rows = calloc(cap + 1, sizeof(*w->rows)))) {
		free(w);
		return NULL;
	}
	return w;
}

/* Add the place row p (one thread's share of a place) into row r. */
static void add_share(struct lc_where_row *r, const struct lc_prof_place *p)
{
	lc_cat_add(r->cat, p->cat);
	r->nthreads++;
}

/* The time a place row's thread waited for its partners: its lost time
 * but the wait for a CPU (RC), which is the machine's or the scheduler's,
 * not lateness of a partner. */
static uint64_t partner_wait(const uint64_t cat[LC_NCAT])
{
	uint64_t lost = lc_cat_lost(cat, -1);

	return lost > cat[LC_CAT_RC] ? lost - cat[LC_CAT_RC] : 0;
}

/* The slowest thread of place row r from its place rows g[n]: where the
 * threads mostly computed (PC at least the time they waited for
 * partners), the one with the most PC; where they mostly waited, the one
 * that waited least for partners (it came last).  Time spent waiting for
 * a CPU counts in neither: on a loaded machine it is the load's, and the
 * thread's computation (its CPU time in its own work) is what the load
 * does not distort.  Left at -1 with fewer than two threads. */
static void find_slowest(const struct lc_profile *pr, struct lc_where_row *r,
			 const struct lc_prof_place *const *g, uint32_t n)
{
	const struct lc_prof_place *best = NULL;
	int late = r->cat[LC_CAT_PC] < partner_wait(r->cat);
	uint64_t bv = 0;
	double sum = 0;
	uint32_t k = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t v = late ? partner_wait(g[i]->cat) : g[i]->cat[LC_CAT_PC];

		if (g[i]->thread == UINT32_MAX)
			continue;
		sum += (double)v;
		k++;
		if (!best || (late ? v < bv : v > bv)) {
			best = g[i];
			bv = v;
		}
	}
	if (k < 2)
		return;
	r->slow_late = late;
	r->slow_busy = bv;
	r->mean_busy = sum / k;
	r->slow_is_rank = lc_profile_rank_of(pr, best->pid) != NULL;
	r->slow_id = r->slow_is_rank ? lc_profile_rank_of(pr, best->pid)->rank
				     : tid_of(pr, best->thread);
}

/* Set row r's name, kind and function from pn. */
static int name_row(struct lc_placenames *pn, struct lc_where_row *r)
{
	struct lc_place_name nm;

	lc_placenames_get(pn, r->pid, r->place, r->obj, &nm);
	r->name = strdup(nm.name);
	r->what = strdup(nm.what);
	r->func = strdup(nm.func);
	return r->name && r->what && r->func ? 0 : -ENOMEM;
}

/* Free what a place row holds. */
static void free_row(void *row)
{
	struct lc_where_row *r = row;

	free(r->name);
	free(r->what);
	free(r->func);
	free(r->keys);
}

/* Append key (place, obj) to row r's keys.  0 or -ENOMEM. */
static int add_key(struct lc_where_row *r, uint64_t place, uint64_t obj)
{
	uint64_t *k = realloc(r->keys, (r->nkeys + 1) * 2 * sizeof(*k));

	if (!k)
		return -ENOMEM;
	r->keys = k;
	k[2 * r->nkeys] = place;
	k[2 * r->nkeys++ + 1] = obj;
	return 0;
}

/* Whether place row p is one of row r's keys. */
static int has_key(const struct lc_where_row *r, const struct lc_prof_place *p)
{
	for (uint32_t k = 0; k < r->nkeys; k++)
		if (r->keys[2 * k] == p->place && r->keys[2 * k + 1] == p->obj)
			return 1;
	return 0;
}

static int by_thread(const void *a, const void *b)
{
	const struct lc_prof_place *x = a, *y = b;

	return x->thread < y->thread ? -1 : x->thread > y->thread;
}

/* Row r's threads and slowest thread from the place rows ps[n] (sorted by
 * key) of its keys, a thread's rows of several keys added into one.  0 or
 * -ENOMEM. */
static int row_threads(const struct lc_profile *pr, struct lc_where_row *r,
		       const struct lc_prof_place *const *ps, uint32_t n)
{
	struct lc_prof_place *t = calloc(n + 1, sizeof(*t));
	const struct lc_prof_place **g = calloc(n + 1, sizeof(*g));
	uint32_t m = 0, k = 0;

	if (!t || !g) {
		free(t);
		free(g);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < n; i++)
		if (has_key(r, ps[i]))
			t[m++] = *ps[i];
	qsort(t, m, sizeof(*t), by_thread);
	for (uint32_t i = 0; i < m; i++) {
		if (k && t[i].thread != UINT32_MAX && t[i].thread == t[k - 1].thread)
			lc_cat_add(t[k - 1].cat, t[i].cat);
		else
			t[k++] = t[i];
	}
	r->nthreads = k;
	for (uint32_t i = 0; i < k; i++)
		g[i] = &t[i];
	find_slowest(pr, r, g, k);
	free(t);
	free(g);
	return 0;
}

/* Rows by their key (place word, then object). */
static int row_key(const struct lc_where_row *x, const struct lc_where_row *y)
{
	if (x->place != y->place)
		return x->place < y->place ? -1 : 1;
	return x->obj < y->obj ? -1 : x->obj > y->obj;
}

/* Rows by name, then key. */
static int by_name(const void *a, const void *b)
{
	const struct lc_where_row *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : row_key(x, y);
}

/* Rows by name, kind, then key. */
static int by_name_what(const void *a, const void *b)
{
	const struct lc_where_row *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (!c)
		c = strcmp(x->what, y->what);
	return c ? c : row_key(x, y);
}

/* Merge w's rows of one name and kind into one (one call site or construct
 * met at several addresses: a combined "parallel for"'s region and loop,
 * a barrier's two return addresses): their time added, their keys kept. */
static void merge_same(struct lc_where *w)
{
	uint32_t k = 0;

	qsort(w->rows, w->n, sizeof(*w->rows), by_name_what);
	for (uint32_t i = 0; i < w->n; i++) {
		struct lc_where_row *r = &w->rows[i], *m = k ? &w->rows[k - 1] : NULL;

		if (m && !strcmp(m->name, r->name) && !strcmp(m->what, r->what) &&
		    !add_key(m, r->place, r->obj)) {
			lc_cat_add(m->cat, r->cat);
			free_row(r);
			continue;
		}
		w->rows[k++] = *r;
	}
	w->n = k;
}

/* Group the sorted place rows ps[n] (place word not 0) into w's rows: one
 * per key, named, then those of one name and kind merged. */
static int group(const struct lc_profile *pr, struct lc_where *w,
		 const struct lc_prof_place *const *ps, uint32_t n, struct lc_placenames *pn)
{
	for (uint32_t i = 0; i < n; i++) {
		struct lc_where_row *r;

		if (!i || cmp_key(ps[i - 1], ps[i])) {
			r = &w->rows[w->n++];
			*r = (struct lc_where_row){ .place = ps[i]->place, .obj = ps[i]->obj,
						    .pid = ps[i]->pid, .slow_id = -1 };
			if (name_row(pn, r) || add_key(r, r->place, r->obj))
				return -ENOMEM;
		}
		lc_cat_add(w->rows[w->n - 1].cat, ps[i]->cat);
	}
	merge_same(w);
	for (uint32_t i = 0; i < w->n; i++)
		if (row_threads(pr, &w->rows[i], ps, n))
			return -ENOMEM;
	return 0;
}


/* Row r, the k-th of its name, named "NAME#k".  0 or -ENOMEM. */
static int number_name(struct lc_where_row *r, uint32_t k)
{
	char buf[600], *n;

	snprintf(buf, sizeof(buf), "%s#%" PRIu32, r->name, k);
	if (!(n = strdup(buf)))
		return -ENOMEM;
	free(r->name);
	r->name = n;
	return 0;
}

/* Give rows of the same text distinct names: the second "NAME#2", ... in
 * the order of their place words, so a name does not depend on ranking. */
static int unique_names(struct lc_where *w)
{
	qsort(w->rows, w->n, sizeof(*w->rows), by_name);
	for (uint32_t i = 1, k = 1; i < w->n; i++) {
		k = strcmp(w->rows[i].name, w->rows[i - k].name) ? 1 : k + 1;
		if (k > 1 && number_name(&w->rows[i], k))
			return -ENOMEM;
	}
	return 0;
}

/* The category by_lost ranks by (qsort has no argument). */
static int rank_cat_of;

static int by_lost(const void *a, const void *b)
{
	const struct lc_where_row *x = a, *y = b;
	uint64_t lx = lc_cat_lost(x->cat, rank_cat_of), ly = lc_cat_lost(y->cat, rank_cat_of);

	if (lx != ly)
		return lx > ly ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Rank w's rows (all but a last elsewhere row when has_else). */
static void rank_rows(struct lc_where *w, int has_else)
{
	rank_cat_of = w->rank_cat;
	qsort(w->rows, w->n - (has_else ? 1 : 0), sizeof(*w->rows), by_lost);
}

/* The (elsewhere) row: the totals minus every place's row, so the rows add
 * up to the totals exactly.  -ERANGE when the places hold more than the
 * totals in some category (a profile that breaks the rule). */
static int elsewhere(struct lc_where *w)
{
	struct lc_where_row *r = &w->rows[w->n];
	int bad = 0;

	*r = (struct lc_where_row){ .slow_id = -1, .name = strdup("(elsewhere)"),
				    .what = strdup(""), .func = strdup("") };
	for (int c = 0; c < LC_NCAT; c++) {
		uint64_t s = 0;

		for (uint32_t i = 0; i < w->n; i++)
			s += w->rows[i].cat[c];
		bad |= s > w->total[c];
		r->cat[c] = s > w->total[c] ? 0 : w->total[c] - s;
	}
	w->n++;
	if (!r->name || !r->what || !r->func)
		return -ENOMEM;
	return bad ? -ERANGE : 0;
}

/* The rows of d with a place, sorted by key, into *out (*n of them). */
static int keyed(const struct lc_prof_data *d, const struct lc_prof_place ***out, uint32_t *n)
{
	*n = 0;
	*out = calloc(d->nplaces + 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (uint32_t i = 0; i < d->nplaces; i++)
		if (d->places[i].place)
			(*out)[(*n)++] = &d->places[i];
	qsort(*out, *n, sizeof(**out), by_key);
	return 0;
}

/* The exclusive rows of src without ranking or the elsewhere row. */
static int places_of(const struct lc_profile *pr, enum lc_source src, struct lc_where **out,
		     char *msg, size_t len)
{
	const struct lc_prof_data *d = &pr->data[src];
	const struct lc_prof_place **ps = NULL;
	struct lc_placenames *pn = NULL;
	struct lc_where *w;
	uint32_t n;
	int r = -ENOMEM;

	if (!d->nplaces && src == LC_SRC_TRACE && pr->data[LC_SRC_SAMPLED].nplaces) {
		snprintf(msg, len, "the trace source has no places (the sampled one has: "
			 "--source sampled)");
		return -ENOENT;
	}
	if (!d->nplaces) {
		snprintf(msg, len, "the profile holds no places (recorded before profile "
			 "format 1.5, or no thread was in a place the layers know: docs/where.md)");
		return -ENOENT;
	}
	if (!(w = where_new(d->nplaces + 1)) || keyed(d, &ps, &n) ||
	    !(pn = lc_placenames_new(pr)))
		goto out;
	lc_profile_finish(pr, &d->total, w->total);
	r = group(pr, w, ps, n, pn);
	if (!r)
		r = unique_names(w);
	snprintf(w->note, sizeof(w->note), "%s", lc_placenames_note(pn));
out:
	free(ps);
	lc_placenames_free(pn);
	if (r && w) {
		lc_where_free(w);
		w = NULL;
	}
	*out = w;
	return r;
}

int lc_where_build(const struct lc_profile *pr, enum lc_source src, int rank_cat,
		   struct lc_where **out, char *msg, size_t len)
{
	int r = places_of(pr, src, out, msg, len);

	if (r)
		return r;
	(*out)->rank_cat = rank_cat;
	r = elsewhere(*out);
	if (r == -ERANGE) {
		snprintf((*out)->note + strlen((*out)->note),
			 sizeof((*out)->note) - strlen((*out)->note),
			 "%sthe place rows hold more than the totals in some category: the "
			 "profile breaks the exclusive rule", (*out)->note[0] ? "; " : "");
		r = 0;
	}
	if (r) {
		lc_where_free(*out);
		*out = NULL;
		return r;
	}
	rank_rows(*out, 1);
	return 0;
}

/* ---- the inclusive view ---------------------------------------------------- */

/* The row of w named name with kind what, added when missing.  NULL when
 * out of memory. */
static struct lc_where_row *group_row(struct lc_where *w, const char *name, const char *what)
{
	for (uint32_t i = 0; i < w->n; i++)
		if (!strcmp(w->rows[i].name, name) && !strcmp(w->rows[i].what, what))
			return &w->rows[i];
	w->rows[w->n] = (struct lc_where_row){ .slow_id = -1, .name = strdup(name),
					       .what = strdup(what), .func = strdup("") };
	return w->rows[w->n].name && w->rows[w->n].what && w->rows[w->n].func ?
		       &w->rows[w->n++] : NULL;
}

/* Add place row x into the group g (a sum: no slowest thread). */
static void add_into(struct lc_where_row *g, const struct lc_where_row *x)
{
	lc_cat_add(g->cat, x->cat);
	g->nthreads += x->nthreads;
}

/* The name of the function row of place row x: "func()", or a demangled
 * C++ name as it is (its parameters are its parentheses). */
static void func_row_name(const struct lc_where_row *x, char *name, size_t len)
{
	if (!x->func[0])
		snprintf(name, len, "(unknown function)()");
	else
		snprintf(name, len, strchr(x->func, '(') ? "%s" : "%s()", x->func);
}

/* One row per function holding places, and one per MPI function. */
static int by_function(const struct lc_where *ex, struct lc_where *w)
{
	char name[1100];

	for (uint32_t i = 0; i < ex->n; i++) {
		const struct lc_where_row *x = &ex->rows[i];
		struct lc_where_row *g;

		func_row_name(x, name, sizeof(name));
		if (!(g = group_row(w, name, "function")))
			return -ENOMEM;
		add_into(g, x);
		if (LC_PLN_KIND(x->place) != LC_PLN_MPI)
			continue;
		if (!(g = group_row(w, x->what, "MPI function")))
			return -ENOMEM;
		add_into(g, x);
	}
	return 0;
}

/* How many tags of d are named name. */
static uint32_t same_named(const struct lc_prof_data *d, const char *name,
			   const char *(*tag_name)(const void *, int64_t), const void *arg)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < d->ntags; i++) {
		const char *n = tag_name(arg, d->tags[i].tag);

		k += n && !strcmp(n, name);
	}
	return k;
}

/* One row per fragment tag of d: all processor slots while it was open;
 * "tag NAME", or "tag NUMBER" when it has no name of its own (none, or
 * one that another tag has too: the name is then its function column). */
static int by_tag(const struct lc_profile *pr, const struct lc_prof_data *d, struct lc_where *w,
		  const char *(*tag_name)(const void *, int64_t), const void *arg)
{
	for (uint32_t i = 0; i < d->ntags; i++) {
		const char *n = tag_name ? tag_name(arg, d->tags[i].tag) : NULL;
		struct lc_where_row *g;
		char buf[600];

		if (n && same_named(d, n, tag_name, arg) == 1)
			snprintf(buf, sizeof(buf), "tag %s", n);
		else
			snprintf(buf, sizeof(buf), "tag %" PRId64, d->tags[i].tag);
		if (!(g = group_row(w, buf, "tag")))
			return -ENOMEM;
		if (n && strcmp(buf + 4, n))
			g->func = (free(g->func), strdup(n));
		if (!g->func)
			return -ENOMEM;
		lc_profile_finish(pr, &d->tags[i].acct, g->cat);
	}
	return 0;
}

int lc_where_inclusive(const struct lc_profile *pr, enum lc_source src, int rank_cat,
		       const char *(*tag_name)(const void *arg, int64_t tag),
		       const void *tag_arg, struct lc_where **out, char *msg, size_t len)
{
	const struct lc_prof_data *d = &pr->data[src];
	struct lc_where *ex = NULL, *w;
	int r;

	if (d->nplaces && (r = places_of(pr, src, &ex, msg, len)))
		return r;
	if (!d->nplaces && !d->ntags) {
		snprintf(msg, len, "the profile holds no places and no fragment tags");
		return -ENOENT;
	}
	w = where_new(2 * (ex ? ex->n : 0) + d->ntags + 1);
	r = w ? 0 : -ENOMEM;
	if (w) {
		lc_profile_finish(pr, &d->total, w->total);
		w->rank_cat = rank_cat;
		w->inclusive = 1;
		snprintf(w->note, sizeof(w->note), "%s", ex ? ex->note : "");
	}
	if (!r && ex)
		r = by_function(ex, w);
	if (!r)
		r = by_tag(pr, d, w, tag_name, tag_arg);
	lc_where_free(ex);
	if (r) {
		lc_where_free(w);
		return r;
	}
	rank_rows(w, 0);
	*out = w;
	return 0;
}

/* ---- one place's threads ---------------------------------------------------- */

/* The row of ex with p's key, or NULL. */
static const struct lc_where_row *row_of(const struct lc_where *ex, const struct lc_prof_place *p)
{
	for (uint32_t i = 0; i < ex->n; i++)
		if (has_key(&ex->rows[i], p))
			return &ex->rows[i];
	return NULL;
}

/* Whether place row p counts in row r: r's place, or for an inclusive row
 * a place of that function (by ex, the exclusive rows) or MPI function. */
static int belongs(const struct lc_where *ex, const struct lc_where_row *r,
		   const struct lc_prof_place *p)
{
	const struct lc_where_row *x;
	char fn[1100];

	if (strcmp(r->what, "function") && strcmp(r->what, "MPI function"))
		return r->nkeys ? has_key(r, p) : p->place == r->place && p->obj == r->obj;
	if (!p->place || !(x = row_of(ex, p)))
		return 0;
	if (!strcmp(r->what, "MPI function"))
		return LC_PLN_KIND(x->place) == LC_PLN_MPI && !strcmp(x->what, r->name);
	func_row_name(x, fn, sizeof(fn));
	return !strcmp(fn, r->name);
}

int lc_where_threads(const struct lc_profile *pr, enum lc_source src, const struct lc_where *ex,
		     const struct lc_where_row *r, struct lc_where **out)
{
	const struct lc_prof_data *d = &pr->data[src];
	struct lc_where *w = where_new(d->nplaces);
	char buf[64];

	if (!w)
		return -ENOMEM;
	lc_profile_finish(pr, &d->total, w->total);
	w->rank_cat = -1;
	w->inclusive = 2;
	for (uint32_t i = 0; i < d->nplaces; i++) {
		const struct lc_prof_place *p = &d->places[i];
		const struct lc_prof_rank *rk = lc_profile_rank_of(pr, p->pid);
		struct lc_where_row *t;

		if (!belongs(ex, r, p))
			continue;
		if (p->thread == UINT32_MAX)
			snprintf(buf, sizeof(buf), "pid %" PRId32 " (no thread)", p->pid);
		else if (rk)
			snprintf(buf, sizeof(buf), "rank %" PRId32 " tid %" PRId32, rk->rank,
				 tid_of(pr, p->thread));
		else
			snprintf(buf, sizeof(buf), "tid %" PRId32, tid_of(pr, p->thread));
		if (!(t = group_row(w, buf, "thread")))
			break;
		t->func = (free(t->func), strdup(r->name));
		add_share(t, p);
	}
	rank_rows(w, 0);
	*out = w;
	return 0;
}

/* ---- finding a row by name ----------------------------------------------- */

/* name without its directories (before a "file.c:LINE"'s base name). */
static const char *strip_dirs(const char *name)
{
	const char *colon = strchr(name, ':'), *slash = strrchr(name, '/');

	return slash && (!colon || slash < colon) ? slash + 1 : name;
}

/* Whether row name n is name apart from a "#K" suffix, a call site
 * (" @ SITE": "MPI_Recv" for "MPI_Recv @ ring.c:40") or an inlining site
 * (" via FILE:LINE"). */
static int same_but_suffix(const char *n, const char *name)
{
	size_t k = strlen(name);

	return !strncmp(n, name, k) &&
	       (n[k] == 0 || n[k] == '#' || !strncmp(n + k, " @ ", 3) || !strncmp(n + k, " via ", 5));
}

/* Whether row name n is name or name with a "#K" suffix. */
static int same_or_numbered(const char *n, const char *name)
{
	size_t k = strlen(name);

	return !strncmp(n, name, k) && (n[k] == 0 || (n[k] == '#' && n[k + 1] &&
				       strspn(n + k + 1, "0123456789") == strlen(n + k + 1)));
}

/* Of the rows that name designates exactly (name, or "name#K": several
 * constructs met at one source line), the one that holds the time: the
 * only one, or the one with more than twice the time of the others
 * together; NULL when none or no one holds it (*n: how many; the name
 * then means its own row, as printed). */
static const struct lc_where_row *holding(const struct lc_where *w, const char *name,
					  uint32_t *n)
{
	const struct lc_where_row *best = NULL;
	uint64_t bt = 0, all = 0;

	*n = 0;
	for (uint32_t i = 0; i < w->n; i++) {
		uint64_t t = lc_cat_sum(w->rows[i].cat);

		if (!w->rows[i].place || !same_or_numbered(w->rows[i].name, name))
			continue;
		++*n;
		all += t;
		if (!best || t > bt) {
			best = &w->rows[i];
			bt = t;
		}
	}
	return *n == 1 || (best && bt > 2 * (all - bt)) ? best : NULL;
}

const struct lc_where_row *lc_where_find(const struct lc_where *w, const char *name, char *msg,
					 size_t len)
{
	const struct lc_where_row *hit = NULL;
	const char *base = strip_dirs(name);
	uint32_t nhit = 0;
	size_t o;

	for (uint32_t i = 0; i < w->n; i++) {
		if (strcmp(w->rows[i].name, name) && strcmp(w->rows[i].name, base))
			continue;
		if (!strchr(w->rows[i].name, '#') && (hit = holding(w, w->rows[i].name, &nhit)))
			return hit;
		return &w->rows[i];
	}
	for (uint32_t i = 0; i < w->n; i++)
		if (same_but_suffix(w->rows[i].name, base)) {
			hit = &w->rows[i];
			nhit++;
		}
	if (nhit == 1)
		return hit;
	o = (size_t)snprintf(msg, len, nhit ? "'%s' names %" PRIu32 " places:" :
				       "no place is named '%s' (report --where lists them)", name, nhit);
	for (uint32_t i = 0; nhit && i < w->n && o < len; i++)
		if (same_but_suffix(w->rows[i].name, base))
			o += (size_t)snprintf(msg + o, len - o, " '%s'", w->rows[i].name);
	return NULL;
}

const struct lc_where_row *lc_where_top(const struct lc_where *w, int c, double *share)
{
	const struct lc_where_row *best = NULL;

	for (uint32_t i = 0; w && i < w->n; i++)
		if (w->rows[i].place && w->rows[i].cat[c] &&
		    (!best || w->rows[i].cat[c] > best->cat[c]))
			best = &w->rows[i];
	*share = best && w->total[c] ? (double)best->cat[c] / (double)w->total[c] : 0;
	return best;
}


void lc_where_free(struct lc_where *w)
{
	LC_FREE_TABLE(w, rows, n, free_row);
}
