/*
 * profile_read_fix.c — corrections (wasted and move records) and counter
 * counts, applied to the windows and totals they name as they arrive: each
 * part moves at most what the exact window's part holds.
 */
#include "profile_read.h"
#include "profile_format.h"
#include "lc_util.h"

#include <errno.h>
#include <stdlib.h>

/* ---- corrections and counts, applied as they arrive -------------------- */

/* The held window holding file window x of d, or NULL. */
static struct lc_prof_window *held_find(struct lc_prof_data *d, struct srcst *ss, uint32_t x)
{
	uint32_t lo = 0, hi = d->nwindows;

	/* the held windows' first file indices increase: find the last <= x */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (d->windows[mid].index <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || x > ss->last[lo - 1])
		return NULL;
	return &d->windows[lo - 1];
}

/* File window x as it was read, with the corrections so far: the held
 * window itself when every window is held whole, else its copy in the ring.
 * Returns 0 with *exact set (NULL: x is older than the ring), or -1 when
 * the file holds no window x (or none has been read yet). */
int lc_rd_locate(struct rstate *s, uint8_t src, uint32_t x, struct lc_prof_window **held,
		 struct lc_prof_window **exact)
{
	struct lc_prof_data *d = &s->prof->data[src];
	struct srcst *ss = &s->src[src];

	*exact = NULL;
	*held = held_find(d, ss, x);
	if (!*held)
		return -1;
	if (!s->lean) {
		*exact = *held;
		return 0;
	}
	if (!ss->nring || x < ss->ring[ss->head].w.index)
		return 0;
	for (uint32_t k = ss->nring; k-- > 0;) {
		struct lc_prof_window *w = &ss->ring[(ss->head + k) % RING].w;

		if (w->index == x) {
			*exact = w;
			return 0;
		}
	}
	return -1;	/* a gap between windows */
}

/* Move up to want from category from to category to in cat[]; returns
 * what moved (never more than cat[from] held). */
uint64_t lc_rd_shift(uint64_t cat[LC_NCAT], const struct lc_prof_wasted *x, uint64_t want)
{
	uint64_t m = want < cat[x->from] ? want : cat[x->from];

	cat[x->from] -= m;
	cat[x->to] += m;
	return m;
}

/* Apply one wasted or move record to its window, thread row and tag rows
 * and to the totals.  Each part moves what the exact window's part holds,
 * at most x->ns; a window older than the ring is clamped against its held
 * window (which may hold its neighbours) and the thread's total.  Records
 * naming a window the file does not hold (cut, or not yet read) are
 * dropped. */
static int apply_move(struct rstate *s, const struct lc_prof_wasted *x)
{
	struct lc_prof_window *h, *e;
	struct lc_prof_data *d;
	struct lc_prof_trow *r;
	uint64_t m;

	if (x->source >= LC_NSRC || lc_rd_locate(s, x->source, x->window, &h, &e))
		return 0;
	d = &s->prof->data[x->source];
	if (lc_rd_fit_threads(s, d, &s->src[x->source]))
		return -ENOMEM;
	m = lc_rd_shift(e ? e->acct.cat : h->acct.cat, x, x->ns);
	if (e && e != h)
		lc_rd_shift(h->acct.cat, x, m);
	lc_rd_shift(d->total.cat, x, m);
	if (e) {
		r = lc_rd_find_row(e, x->thread);
		m = r ? lc_rd_shift(r->cat, x, x->ns) : 0;
	} else {
		m = lc_rd_shift(d->threads[x->thread].cat, x, x->ns);
	}
	if (m && e != h && (r = lc_rd_find_row(h, x->thread)))
		lc_rd_shift(r->cat, x, m);
	if (m && e)
		m = lc_rd_shift(d->threads[x->thread].cat, x, m);
	if (m)
		lc_rd_place_move(s, x, m);
	for (uint32_t k = 0; k < x->ntags; k++) {
		struct lc_prof_tagrow *g = lc_rd_find_tagrow(e ? e : h, x->tags[k]), *gt;

		if (!g)
			continue;
		m = lc_rd_shift(g->acct.cat, x, x->ns);
		if (e && e != h && (g = lc_rd_find_tagrow(h, x->tags[k])))
			lc_rd_shift(g->acct.cat, x, m);
		if ((gt = lc_rd_tag_total(d, x->tags[k])))
			lc_rd_shift(gt->acct.cat, x, m);
	}
	return 0;
}

/* Add one counts record to its source's totals per window, thread and tag
 * (the tags seen so far). */
static int apply_counts(struct rstate *s, const struct lc_prof_counts *x)
{
	struct lc_prof_window *h, *e;
	struct lc_prof_data *d;
	size_t ne = s->prof->nevents, hi;

	if (!ne || x->source >= LC_NSRC || lc_rd_locate(s, x->source, x->window, &h, &e))
		return 0;
	d = &s->prof->data[x->source];
	if (lc_rd_fit_counters(s, d, &s->src[x->source]))
		return -ENOMEM;
	hi = (size_t)(h - d->windows);
	for (size_t v = 0; v < ne; v++) {
		d->ev_total[v] += x->v[v];
		d->ev_window[hi * ne + v] += x->v[v];
		d->ev_thread[(size_t)x->thread * ne + v] += x->v[v];
	}
	for (uint32_t k = 0; k < x->ntags; k++) {
		struct lc_prof_tagrow *g = lc_rd_tag_total(d, x->tags[k]);

		if (g)
			for (size_t v = 0; v < ne; v++)
				d->ev_tag[(size_t)(g - d->tags) * ne + v] += x->v[v];
	}
	return 0;
}

/* The tags of a record that names thread (read before them): a count and
 * the tags into *ntags and a new *tags.  A thread not declared makes the
 * block invalid with the reason why.  0 (c->why set if invalid) or
 * -ENOMEM. */
static int get_thread_tags(struct rstate *s, struct cur *c, uint32_t thread, uint32_t *ntags,
			   int64_t **tags, const char *why)
{
	*ntags = lc_rd_getcount(c, 8);
	if (c->why)
		return 0;
	if (thread >= s->prof->nthreads)
		return lc_rd_bad(c, why);
	return lc_rd_get_tags(c, *ntags, tags);
}

/* Apply a parsed wasted or move record, then free its tags. */
static int apply_free(struct rstate *s, struct cur *c, struct lc_prof_wasted *x)
{
	int r = c->why ? 0 : apply_move(s, x);

	free(x->tags);
	return r;
}

int lc_rd_parse_wasted(struct rstate *s, struct cur *c)
{
	struct lc_prof_wasted x = { .from = LC_CAT_PC, .to = LC_CAT_WC };

	lc_rd_get_fields(c, &x, &lc_pf_wasted, NULL);
	if (get_thread_tags(s, c, x.thread, &x.ntags, &x.tags,
			    "wasted time of an undeclared thread"))
		return -ENOMEM;
	return apply_free(s, c, &x);
}

int lc_rd_parse_move(struct rstate *s, struct cur *c)
{
	struct lc_prof_wasted x = { 0 };

	lc_rd_get_fields(c, &x, &lc_pf_move, NULL);
	if (get_thread_tags(s, c, x.thread, &x.ntags, &x.tags, "moved time of an undeclared thread"))
		return -ENOMEM;
	if (!c->why && (x.from >= LC_NCAT || x.to >= LC_NCAT))
		lc_rd_bad(c, "move names an unknown category");
	return apply_free(s, c, &x);
}

int lc_rd_parse_counts(struct rstate *s, struct cur *c)
{
	struct lc_prof_counts x = { 0 };
	int r;

	lc_rd_get_fields(c, &x, &lc_pf_counts, NULL);
	if (get_thread_tags(s, c, x.thread, &x.ntags, &x.tags, "counts of an undeclared thread"))
		return -ENOMEM;
	x.nev = lc_rd_get32(c);
	if (!c->why && (x.nev != s->prof->nevents || !s->prof->events))
		lc_rd_bad(c, "counts that do not match the events block");
	for (uint32_t i = 0; i < x.nev && !c->why; i++)
		x.v[i] = lc_rd_get64(c);
	r = c->why ? 0 : apply_counts(s, &x);
	free(x.tags);
	return r;
}
