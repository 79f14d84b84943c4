/*
 * profile_read_window.c — window blocks (type 4 fixed-width, type 12 in
 * varints) parsed into the scratch window, and the totals of each source
 * that every window is added to as it arrives.
 */
#include "profile_read.h"
#include "profile_format.h"
#include "lc_util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void lc_rd_free_window(void *row)
{
	struct lc_prof_window *w = row;

	free(w->threads);
	free(w->tags);
	free(w->places);
}

/* Room for n rows and g tag rows in the window being parsed. */
static int scratch_room(struct slot *sl, uint32_t n, uint32_t g)
{
	if (lc_grow((void **)&sl->w.threads, &sl->rcap, n, sizeof(*sl->w.threads)) ||
	    lc_grow((void **)&sl->w.tags, &sl->gcap, g, sizeof(*sl->w.tags)))
		return -ENOMEM;
	return 0;
}

/* The fields of a window in the scratch slot, keeping its arrays. */
static struct lc_prof_window *scratch_reset(struct rstate *s)
{
	struct lc_prof_window *w = &s->scratch.w;
	struct lc_prof_trow *rows = w->threads;
	struct lc_prof_tagrow *tags = w->tags;

	*w = (struct lc_prof_window){ .threads = rows, .tags = tags, .nmerged = 1 };
	return w;
}

/* Room in the scratch window for n rows and g tag rows, unless the block
 * is already invalid (then the readers that follow read nothing). */
static int rows_room(struct rstate *s, struct cur *c, uint32_t n, uint32_t g)
{
	return c->why ? 0 : scratch_room(&s->scratch, n, g);
}

/* A thread row's masked values v (fixed-width order). */
static void trow_set(struct lc_prof_trow *r, const uint64_t v[10])
{
	memcpy(r->cat, v, sizeof(r->cat));
	r->li_qempty = v[LC_PF_M_QEMPTY];
}

/* The thread rows and tag rows of a window block (type 4); rows must name
 * threads declared earlier. */
static int parse_rows(struct rstate *s, struct cur *c, struct lc_prof_window *w)
{
	w->nthreads = lc_rd_getcount(c, 6);
	if (rows_room(s, c, w->nthreads, 0))
		return -ENOMEM;
	for (uint32_t i = 0; i < w->nthreads && !c->why; i++) {
		uint64_t v[10];

		w->threads[i].thread = lc_rd_get32(c);
		if (!c->why && w->threads[i].thread >= s->prof->nthreads)
			return lc_rd_bad(c, "row names an undeclared thread");
		lc_rd_getmasked(c, v, 10, LC_PF_M_TROW);
		trow_set(&w->threads[i], v);
	}
	w->ntags = lc_rd_getcount(c, 10);
	if (rows_room(s, c, 0, w->ntags))
		return -ENOMEM;
	for (uint32_t i = 0; i < w->ntags && !c->why; i++) {
		w->tags[i].tag = (int64_t)lc_rd_get64(c);
		lc_rd_getacct(c, &w->tags[i].acct);
	}
	return 0;
}

/* A window block of format minor 0-2 (type 4, fixed-width fields). */
int lc_rd_parse_window(struct rstate *s, struct cur *c)
{
	struct lc_prof_window *w = scratch_reset(s);
	int r;

	lc_rd_get_fields(c, w, &lc_pf_window4, NULL);
	lc_rd_getacct(c, &w->acct);
	r = parse_rows(s, c, w);
	w->len_ns = s->prof->info.window_ns;
	if (r || c->why)
		return r;
	return lc_rd_commit_window(s, c, w);
}

/* The thread rows of a varint window: each thread the difference from the
 * previous row's, within the declared threads. */
static int parse_vrows(struct rstate *s, struct cur *c, struct lc_prof_window *w)
{
	uint32_t prev = 0, nth = s->prof->nthreads;

	/* a row is at least a delta and a mask */
	w->nthreads = lc_rd_getvcount(c, 2);
	if (rows_room(s, c, w->nthreads, 0))
		return -ENOMEM;
	for (uint32_t i = 0; i < w->nthreads && !c->why; i++) {
		int64_t d = lc_pf_unzigzag(lc_rd_getuv(c));
		uint64_t v[10];

		if (!c->why && (d < -(int64_t)prev || d >= (int64_t)nth - (int64_t)prev))
			return lc_rd_bad(c, "row names an undeclared thread");
		w->threads[i].thread = prev = (uint32_t)((int64_t)prev + d);
		lc_rd_getvmasked(c, v, 10, LC_PF_M_TROW);
		trow_set(&w->threads[i], v);
	}
	return 0;
}

/* The tag rows of a varint window: a tag and a masked acct each. */
static int parse_vtags(struct rstate *s, struct cur *c, struct lc_prof_window *w)
{
	w->ntags = lc_rd_getvcount(c, 2);
	if (rows_room(s, c, 0, w->ntags))
		return -ENOMEM;
	for (uint32_t i = 0; i < w->ntags && !c->why; i++) {
		w->tags[i].tag = lc_pf_unzigzag(lc_rd_getuv(c));
		lc_rd_getvacct(c, &w->tags[i].acct);
	}
	return 0;
}

/* A varint window block (type 12, minor 3), with its place rows after the
 * tag rows from minor 5 on. */
int lc_rd_parse_vwindow(struct rstate *s, struct cur *c)
{
	struct lc_prof_window *w = scratch_reset(s);
	uint32_t x;
	int ext, rc;
	uint8_t src;

	lc_rd_get_fields(c, w, &lc_pf_vwindow, NULL);
	lc_rd_getvacct(c, &w->acct);
	if (parse_vrows(s, c, w) || parse_vtags(s, c, w))
		return c->why ? 0 : -ENOMEM;
	ext = !c->why && c->off < c->n;
	if (ext && lc_rd_get_place_rows(s, c, w->source, w->index))
		return -ENOMEM;
	if (c->why)
		return 0;
	src = w->source;	/* w is the scratch slot: committing may swap it */
	x = w->index;
	rc = lc_rd_commit_window(s, c, w);
	return rc || !ext ? rc : lc_rd_places_commit(s, c, src, x);
}

/* ---- totals, kept as blocks arrive -------------------------------------- */

/* The per-thread totals of d cover every declared thread. */
int lc_rd_fit_threads(struct rstate *s, struct lc_prof_data *d, struct srcst *ss)
{
	return lc_grow((void **)&d->threads, &ss->tcap, s->prof->nthreads, sizeof(*d->threads));
}

/* The counter arrays of d, once there are counters, cover its windows,
 * threads and tags (one spare row each, as readers have always had). */
int lc_rd_fit_counters(struct rstate *s, struct lc_prof_data *d, struct srcst *ss)
{
	size_t row = (size_t)s->prof->nevents * sizeof(uint64_t);

	if (!row || !d->present)
		return 0;
	if (lc_grow((void **)&d->ev_window, &ss->evwcap, d->nwindows ? d->nwindows : 1, row) ||
	    lc_grow((void **)&d->ev_thread, &ss->evtcap, (size_t)s->prof->nthreads + 1, row) ||
	    lc_grow((void **)&d->ev_tag, &ss->evgcap, (size_t)d->ntags + 1, row))
		return -ENOMEM;
	return 0;
}

/* Position of tag in the sorted per-tag totals of d, or where it goes. */
static int cmp_tagrow(const void *key, const void *elem)
{
	int64_t x = *(const int64_t *)key, y = ((const struct lc_prof_tagrow *)elem)->tag;

	return (x > y) - (x < y);
}

static uint32_t tag_pos(const struct lc_prof_data *d, int64_t tag)
{
	return (uint32_t)lc_lower_bound(d->tags, d->ntags, sizeof(*d->tags), &tag, cmp_tagrow);
}

/* The per-tag total of tag, or NULL. */
struct lc_prof_tagrow *lc_rd_tag_total(struct lc_prof_data *d, int64_t tag)
{
	uint32_t i = tag_pos(d, tag);

	return i < d->ntags && d->tags[i].tag == tag ? &d->tags[i] : NULL;
}

/* Add a tag row to the per-tag totals (sorted by tag), making room for a
 * new tag and its counter row. */
static int add_tag_total(struct rstate *s, struct lc_prof_data *d, struct srcst *ss,
			 const struct lc_prof_tagrow *g)
{
	uint32_t i = tag_pos(d, g->tag);
	size_t ne = s->prof->nevents;

	if (i < d->ntags && d->tags[i].tag == g->tag) {
		lc_acct_add(&d->tags[i].acct, &g->acct);
		return 0;
	}
	if (lc_grow((void **)&d->tags, &ss->gcap, (size_t)d->ntags + 1, sizeof(*d->tags)))
		return -ENOMEM;
	if (ne && lc_grow((void **)&d->ev_tag, &ss->evgcap, (size_t)d->ntags + 2,
			  ne * sizeof(uint64_t)))
		return -ENOMEM;
	memmove(&d->tags[i + 1], &d->tags[i], (d->ntags - i) * sizeof(*d->tags));
	d->tags[i] = *g;
	if (ne && d->ev_tag) {
		memmove(&d->ev_tag[(i + 1) * ne], &d->ev_tag[i * ne],
			(d->ntags - i) * ne * sizeof(uint64_t));
		memset(&d->ev_tag[i * ne], 0, ne * sizeof(uint64_t));
	}
	d->ntags++;
	return 0;
}

/* A window's part of the totals of its source: whole, per thread, per tag. */
int lc_rd_add_totals(struct rstate *s, struct lc_prof_data *d, struct srcst *ss,
		     const struct lc_prof_window *w)
{
	d->present = 1;
	lc_acct_add(&d->total, &w->acct);
	if (w->max_n > d->max_n)
		d->max_n = w->max_n;
	if (w->team > d->team)
		d->team = w->team;
	if (w->nthreads && lc_rd_fit_threads(s, d, ss))
		return -ENOMEM;
	for (uint32_t j = 0; j < w->nthreads; j++) {
		struct lc_prof_trow *t = &d->threads[w->threads[j].thread];

		for (int c = 0; c < LC_NCAT; c++)
			t->cat[c] += w->threads[j].cat[c];
		t->li_qempty += w->threads[j].li_qempty;
	}
	for (uint32_t j = 0; j < w->ntags; j++)
		if (add_tag_total(s, d, ss, &w->tags[j]))
			return -ENOMEM;
	return 0;
}
