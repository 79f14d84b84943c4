/*
 * profile_read_held.c — the windows held: each one as read (every row: the
 * default), or without rows, or merged into its neighbours when the
 * options keep at most max_windows; and, when they keep less, the ring of
 * the latest windows of a source kept whole for the corrections after them.
 */
#include "profile_read.h"
#include "profile_format.h"
#include "lc_util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- the windows held ---------------------------------------------------- */

/* Copy the rows (when keep_rows) and tag rows of src into the empty dst. */
static int copy_window(struct lc_prof_window *dst, const struct lc_prof_window *src,
		       int keep_rows)
{
	*dst = *src;
	dst->threads = NULL;
	dst->tags = NULL;
	dst->places = NULL;
	dst->nplaces = 0;
	if (!keep_rows)
		dst->nthreads = 0;
	if (dst->nthreads) {
		dst->threads = malloc(dst->nthreads * sizeof(*dst->threads));
		if (!dst->threads)
			return -ENOMEM;
		memcpy(dst->threads, src->threads, dst->nthreads * sizeof(*dst->threads));
	}
	if (dst->ntags) {
		dst->tags = malloc(dst->ntags * sizeof(*dst->tags));
		if (!dst->tags) {
			free(dst->threads);
			return -ENOMEM;
		}
		memcpy(dst->tags, src->tags, dst->ntags * sizeof(*dst->tags));
	}
	return 0;
}

/* The row of thread t in w (the first, as corrections have always found
 * it), or NULL. */
struct lc_prof_trow *lc_rd_find_row(struct lc_prof_window *w, uint32_t t)
{
	for (uint32_t i = 0; i < w->nthreads; i++)
		if (w->threads[i].thread == t)
			return &w->threads[i];
	return NULL;
}

struct lc_prof_tagrow *lc_rd_find_tagrow(struct lc_prof_window *w, int64_t tag)
{
	for (uint32_t i = 0; i < w->ntags; i++)
		if (w->tags[i].tag == tag)
			return &w->tags[i];
	return NULL;
}

/* Room for n more elements of size bytes in the array *p of have. */
static int room_more(void *p, uint32_t have, uint32_t n, size_t size)
{
	void *q;

	if (!n)
		return 0;
	q = realloc(*(void **)p, ((size_t)have + n) * size);
	if (!q)
		return -ENOMEM;
	*(void **)p = q;
	return 0;
}

/* src's tag rows into dst's, by tag. */
static int merge_tags(struct lc_prof_window *dst, const struct lc_prof_window *src)
{
	if (room_more(&dst->tags, dst->ntags, src->ntags, sizeof(*dst->tags)))
		return -ENOMEM;
	for (uint32_t i = 0; i < src->ntags; i++) {
		struct lc_prof_tagrow *g = lc_rd_find_tagrow(dst, src->tags[i].tag);

		if (g)
			lc_acct_add(&g->acct, &src->tags[i].acct);
		else
			dst->tags[dst->ntags++] = src->tags[i];
	}
	return 0;
}

/* Thread row r into dst's row of its thread (s->map: thread -> position
 * + 1), or as a new row. */
static void merge_row(struct rstate *s, struct lc_prof_window *dst, const struct lc_prof_trow *r)
{
	uint32_t k = s->map[r->thread];

	if (!k) {
		dst->threads[dst->nthreads] = *r;
		s->map[r->thread] = ++dst->nthreads;
		return;
	}
	lc_cat_add(dst->threads[k - 1].cat, r->cat);
	dst->threads[k - 1].li_qempty += r->li_qempty;
}

/* src's thread rows into dst's, by thread, through a map of thread ->
 * position + 1 left all zero again afterwards. */
static int merge_rows(struct rstate *s, struct lc_prof_window *dst,
		      const struct lc_prof_window *src)
{
	if (lc_grow((void **)&s->map, &s->mapcap, s->prof->nthreads, sizeof(*s->map)) ||
	    room_more(&dst->threads, dst->nthreads, src->nthreads, sizeof(*dst->threads)))
		return -ENOMEM;
	for (uint32_t i = dst->nthreads; i-- > 0;)
		s->map[dst->threads[i].thread] = i + 1;
	for (uint32_t i = 0; i < src->nthreads; i++)
		merge_row(s, dst, &src->threads[i]);
	for (uint32_t i = 0; i < dst->nthreads; i++)
		s->map[dst->threads[i].thread] = 0;
	return 0;
}

/* Merge the later window src into dst: sums, maxima, tag rows by tag and,
 * when dst has rows, rows by thread; dst keeps its start and index. */
static int merge_window(struct rstate *s, struct lc_prof_window *dst,
			const struct lc_prof_window *src, int keep_rows)
{
	lc_acct_add(&dst->acct, &src->acct);
	dst->ticks += src->ticks;
	dst->len_ns += src->len_ns;
	dst->nmerged += src->nmerged;
	dst->max_n = src->max_n > dst->max_n ? src->max_n : dst->max_n;
	dst->team = src->team > dst->team ? src->team : dst->team;
	if (merge_tags(dst, src))
		return -ENOMEM;
	return keep_rows && src->nthreads ? merge_rows(s, dst, src) : 0;
}

/* Merge the held windows of d pairwise (0 and 1, 2 and 3, ...), with
 * their counters: each now holds twice as many file windows. */
static int halve(struct rstate *s, struct lc_prof_data *d, struct srcst *ss)
{
	size_t ne = s->prof->nevents;
	uint32_t n = d->nwindows, k = 0;

	for (uint32_t i = 0; i < n; i += 2, k++) {
		struct lc_prof_window *w = &d->windows[i];
		uint32_t last = ss->last[i];

		if (i + 1 < n) {
			if (merge_window(s, w, &d->windows[i + 1], !s->o.no_rows))
				return -ENOMEM;
			lc_rd_free_window(&d->windows[i + 1]);
			d->windows[i + 1] = (struct lc_prof_window){ 0 };
			last = ss->last[i + 1];
		}
		if (k != i) {	/* move it down, leaving nothing to free twice */
			d->windows[k] = *w;
			*w = (struct lc_prof_window){ 0 };
		}
		ss->last[k] = last;
		if (ne && d->ev_window) {
			uint64_t *to = &d->ev_window[k * ne], *a = &d->ev_window[i * ne];

			for (size_t e = 0; e < ne; e++)
				to[e] = a[e] + (i + 1 < n ? a[ne + e] : 0);
		}
	}
	if (ne && d->ev_window)
		memset(&d->ev_window[k * ne], 0, (n - k) * ne * sizeof(uint64_t));
	d->nwindows = k;
	ss->factor *= 2;
	return 0;
}

/* Hold window w: as it is (every row: the default), or without its rows,
 * or merged into the last held window while that holds fewer than
 * `factor` file windows; when max_windows are held, they are merged
 * pairwise first so that they stay evenly spaced. */
int lc_rd_hold(struct rstate *s, struct lc_prof_data *d, struct srcst *ss,
	       const struct lc_prof_window *w)
{
	struct lc_prof_window *last = d->nwindows ? &d->windows[d->nwindows - 1] : NULL;

	if (s->lean && s->o.max_windows && last && last->nmerged >= ss->factor &&
	    d->nwindows >= s->o.max_windows) {
		if (halve(s, d, ss))
			return -ENOMEM;
		last = &d->windows[d->nwindows - 1];
	}
	if (s->lean && last && last->nmerged < ss->factor) {
		ss->last[d->nwindows - 1] = w->index;
		return merge_window(s, last, w, !s->o.no_rows);
	}
	if (lc_grow((void **)&d->windows, &ss->wcap, (size_t)d->nwindows + 1, sizeof(*w)) ||
	    lc_grow((void **)&ss->last, &ss->lastcap, (size_t)d->nwindows + 1, sizeof(*ss->last)))
		return -ENOMEM;
	if (copy_window(&d->windows[d->nwindows], w, !s->o.no_rows))
		return -ENOMEM;
	ss->last[d->nwindows++] = w->index;
	return lc_rd_fit_counters(s, d, ss);
}

/* Keep w whole in the ring of its source, in place of the oldest: the
 * scratch slot takes the evicted window's arrays for the next block. */
static void ring_push(struct rstate *s, struct srcst *ss)
{
	uint32_t i;
	struct slot t;

	if (ss->nring < RING) {
		i = (ss->head + ss->nring++) % RING;
	} else {
		i = ss->head;
		ss->head = (ss->head + 1) % RING;
	}
	t = ss->ring[i];
	ss->ring[i] = s->scratch;
	s->scratch = t;
}

/* A parsed window: checked against the previous one of its source, added
 * to the totals, held, and (lean) kept in the ring. */
int lc_rd_commit_window(struct rstate *s, struct cur *c, struct lc_prof_window *w)
{
	struct lc_prof_data *d;
	struct srcst *ss;

	if (w->source >= LC_NSRC)	/* unknown sources are skipped */
		return 0;
	d = &s->prof->data[w->source];
	ss = &s->src[w->source];
	if (ss->any && w->index <= ss->last_index)
		return lc_rd_bad(c, "window index out of order");
	ss->any = 1;
	ss->last_index = w->index;
	if (lc_rd_add_totals(s, d, ss, w) || lc_rd_hold(s, d, ss, w))
		return -ENOMEM;
	if (s->lean)
		ring_push(s, ss);
	return 0;
}
