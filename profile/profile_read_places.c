/*
 * profile_read_places.c — place rows (minor 5): a window's place block,
 * the rows it implies (place 0: the time of a thread it does not place),
 * their totals by thread, pid, place and object, and corrections spread
 * over them.
 */
#include "profile_read.h"
#include "profile_format.h"
#include "lc_util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- place rows (minor 5) ------------------------------------------------ */

/* Order of place rows: thread, pid, place word, object. */
static int place_cmp(const struct lc_prof_place *a, const struct lc_prof_place *b)
{
	if (a->thread != b->thread)
		return a->thread < b->thread ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->place != b->place)
		return a->place < b->place ? -1 : 1;
	if (a->obj != b->obj)
		return a->obj < b->obj ? -1 : 1;
	return 0;
}

/* Position of the key of r in the sorted totals of d, or where it goes. */
static uint32_t place_pos(const struct lc_prof_data *d, const struct lc_prof_place *r)
{
	uint32_t lo = 0, hi = d->nplaces;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (place_cmp(&d->places[mid], r) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The total row of the key of r, or NULL. */
static struct lc_prof_place *place_total(struct lc_prof_data *d, const struct lc_prof_place *r)
{
	uint32_t i = place_pos(d, r);

	return i < d->nplaces && !place_cmp(&d->places[i], r) ? &d->places[i] : NULL;
}

/* Add place row r to the totals of d (window UINT32_MAX). */
static int add_place_total(struct lc_prof_data *d, struct srcst *ss, const struct lc_prof_place *r)
{
	uint32_t i = place_pos(d, r);

	if (i < d->nplaces && !place_cmp(&d->places[i], r)) {
		lc_cat_add(d->places[i].cat, r->cat);
		return 0;
	}
	if (lc_grow((void **)&d->places, &ss->plcap, (size_t)d->nplaces + 1, sizeof(*r)))
		return -ENOMEM;
	memmove(&d->places[i + 1], &d->places[i], (d->nplaces - i) * sizeof(*r));
	d->places[i] = *r;
	d->places[i].window = UINT32_MAX;
	d->nplaces++;
	return 0;
}

/* The ring entry for the next place block of ss (the oldest when full). */
static struct pwin *pring_next(struct srcst *ss)
{
	uint32_t i;

	if (ss->npring < RING) {
		i = (ss->pphead + ss->npring++) % RING;
	} else {
		i = ss->pphead;
		ss->pphead = (ss->pphead + 1) % RING;
	}
	return &ss->pring[i];
}

/* The kept place rows of window x of ss, or NULL. */
static struct pwin *pring_find(struct srcst *ss, uint32_t x)
{
	for (uint32_t k = 0; k < ss->npring; k++) {
		struct pwin *p = &ss->pring[(ss->pphead + k) % RING];

		if (p->index == x)
			return p;
	}
	return NULL;
}

/* One place row after row prev: thread + 1 (0: no thread), pid, place and
 * obj as differences from prev's, categories. */
static void get_place_row(struct rstate *s, struct cur *c, struct lc_prof_place *r,
			  const struct lc_prof_place *prev)
{
	uint64_t t = lc_rd_getuv(c), v[10];
	int64_t pid = lc_pf_unzigzag(lc_rd_getuv(c));

	r->place = prev->place + (uint64_t)lc_pf_unzigzag(lc_rd_getuv(c));
	r->obj = prev->obj + (uint64_t)lc_pf_unzigzag(lc_rd_getuv(c));
	lc_rd_getvmasked(c, v, LC_NCAT, LC_PF_M_PLACE);
	memcpy(r->cat, v, sizeof(r->cat));
	if (c->why)
		return;
	/* refused rows stop here: a thread past those declared has no pid */
	if (t > s->prof->nthreads) {
		lc_rd_bad(c, "place row names an undeclared thread");
		return;
	}
	if (pid < INT32_MIN || pid > INT32_MAX) {
		lc_rd_bad(c, "place row's pid out of range");
		return;
	}
	r->thread = t ? (uint32_t)(t - 1) : UINT32_MAX;
	/* a thread's row is of its thread's process, whatever it says */
	r->pid = t ? s->prof->threads[t - 1].pid : (int32_t)pid;
}

/* Add to pw the rows the block implies: for each thread row of window w,
 * place 0 holds what the block's rows of that thread leave of it. */
static int imply_rest(struct rstate *s, struct pwin *pw, const struct lc_prof_window *w)
{
	uint32_t n = pw->n;

	if (lc_grow((void **)&s->psum, &s->psumcap, (size_t)s->prof->nthreads * LC_NCAT,
		    sizeof(*s->psum)) ||
	    lc_grow((void **)&pw->rows, &pw->cap, (size_t)n + w->nthreads + 1, sizeof(*pw->rows)))
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		for (int c = 0; c < LC_NCAT && pw->rows[i].thread != UINT32_MAX; c++)
			s->psum[(size_t)pw->rows[i].thread * LC_NCAT + c] += pw->rows[i].cat[c];
	for (uint32_t j = 0; j < w->nthreads; j++) {
		const struct lc_prof_trow *t = &w->threads[j];
		uint64_t *sum = &s->psum[(size_t)t->thread * LC_NCAT];
		struct lc_prof_place *r = &pw->rows[pw->n];
		uint64_t any = 0;

		*r = (struct lc_prof_place){ .source = w->source, .window = pw->index,
					     .thread = t->thread,
					     .pid = s->prof->threads[t->thread].pid };
		for (int c = 0; c < LC_NCAT; c++) {
			r->cat[c] = t->cat[c] > sum[c] ? t->cat[c] - sum[c] : 0;
			sum[c] = t->cat[c] > sum[c] ? t->cat[c] : sum[c];	/* once per thread */
			any |= r->cat[c];
		}
		pw->n += any != 0;
	}
	for (uint32_t i = 0; i < pw->n; i++)	/* leave psum zero */
		if (pw->rows[i].thread != UINT32_MAX)
			memset(&s->psum[(size_t)pw->rows[i].thread * LC_NCAT], 0,
			       LC_NCAT * sizeof(*s->psum));
	return 0;
}

/* n place rows of window x of source src into s->pext (c->why on error). */
int lc_rd_get_place_rows(struct rstate *s, struct cur *c, uint8_t src, uint32_t x)
{
	uint32_t n = lc_rd_getvcount(c, 5);
	struct pwin *pw = &s->pext;

	pw->n = 0;
	if (c->why || lc_grow((void **)&pw->rows, &pw->cap, n ? n : 1, sizeof(*pw->rows)))
		return c->why ? 0 : -ENOMEM;
	for (uint32_t i = 0; i < n && !c->why; i++) {
		struct lc_prof_place *r = &pw->rows[i];
		const struct lc_prof_place none = { 0 };

		*r = (struct lc_prof_place){ .source = src, .window = x };
		get_place_row(s, c, r, i ? &pw->rows[i - 1] : &none);
		if (!c->why)
			pw->n++;
	}
	return 0;
}

/* The rows in s->pext of window x of source src, the window read just
 * before, once: with the rows they imply (place 0: a thread's time they do
 * not place), into the ring, the totals and (every window kept) the
 * window. */
int lc_rd_places_commit(struct rstate *s, struct cur *c, uint8_t src, uint32_t x)
{
	struct lc_prof_window *h, *e;
	struct lc_prof_data *d;
	struct srcst *ss;
	struct pwin *pw, t;

	if (c->why || src >= LC_NSRC)
		return 0;
	ss = &s->src[src];
	d = &s->prof->data[src];
	if (!ss->any || x != ss->last_index || lc_rd_locate(s, src, x, &h, &e) || !e)
		return lc_rd_bad(c, "place rows not of the window read just before");
	if (ss->pany && x <= ss->plast)
		return lc_rd_bad(c, "second place block of a window");
	pw = pring_next(ss);
	t = *pw;	/* the parsed rows go in, the ring entry's arrays out */
	*pw = s->pext;
	s->pext = t;
	pw->index = x;
	if (imply_rest(s, pw, e)) {
		pw->n = 0;
		return -ENOMEM;
	}
	ss->pany = 1;
	ss->plast = x;
	for (uint32_t i = 0; i < pw->n; i++)
		if (add_place_total(d, ss, &pw->rows[i]))
			return -ENOMEM;
	e->places_ext = 1;
	if (s->lean || !pw->n)
		return 0;
	/* every window held whole: it keeps its place rows */
	e->places = malloc(pw->n * sizeof(*e->places));
	if (!e->places)
		return -ENOMEM;
	memcpy(e->places, pw->rows, pw->n * sizeof(*e->places));
	e->nplaces = pw->n;
	return 0;
}

/* A place block (type 14): source, window, rows. */
int lc_rd_parse_places(struct rstate *s, struct cur *c)
{
	uint8_t src = lc_rd_get8(c);
	uint32_t x = lc_rd_getuv32(c);

	if (c->why || lc_rd_get_place_rows(s, c, src, x))
		return c->why ? 0 : -ENOMEM;
	return lc_rd_places_commit(s, c, src, x);
}

/* Move a from x->from to x->to in place row r and (tot not NULL) in the
 * total row of its key in tot, each clamped at what `from` holds. */
static void place_shift(struct lc_prof_place *r, struct lc_prof_data *tot,
			const struct lc_prof_wasted *x, uint64_t a)
{
	struct lc_prof_place *t = tot ? place_total(tot, r) : NULL;

	lc_rd_shift(r->cat, x, a);
	if (t)
		lc_rd_shift(t->cat, x, a);
}

/* Move m (at most what they hold) from x->from to x->to over the rows of
 * thread x->thread among rows[0..n), each in proportion to its `from` time;
 * the ns that integer division leaves go to the first rows that still hold
 * `from` time.  tot: the totals to change alike, or NULL. */
static void spread(struct lc_prof_place *rows, uint32_t n, const struct lc_prof_wasted *x,
		   uint64_t m, struct lc_prof_data *tot)
{
	uint64_t f = 0, left;

	for (uint32_t i = 0; i < n; i++)
		if (rows[i].thread == x->thread && f <= UINT64_MAX - rows[i].cat[x->from])
			f += rows[i].cat[x->from];
	left = m < f ? m : f;
	m = left;
	for (int pass = 0; pass < 2 && left; pass++) {
		for (uint32_t i = 0; i < n && left; i++) {
			uint64_t have = rows[i].cat[x->from], a;

			if (rows[i].thread != x->thread || !have)
				continue;
			a = pass ? left : (uint64_t)((unsigned __int128)m * have / f);
			a = a < left ? a : left;
			a = a < have ? a : have;
			place_shift(&rows[i], tot, x, a);
			left -= a;
		}
	}
}

/* A correction of m ns that moved in the thread's row of window x->window:
 * the same m over that thread's place rows of that window (the window's
 * own when every window is kept, else from the ring of place blocks) and
 * their totals, or, for a window older than the ring, over the thread's
 * total place rows in proportion to their whole time. */
void lc_rd_place_move(struct rstate *s, const struct lc_prof_wasted *x, uint64_t m)
{
	struct lc_prof_data *d = &s->prof->data[x->source];
	struct pwin *pw = pring_find(&s->src[x->source], x->window);
	struct lc_prof_place key = { .thread = x->thread };
	struct lc_prof_window *h, *e;
	uint32_t i, j;

	if (!s->lean && !lc_rd_locate(s, x->source, x->window, &h, &e) && e && e->nplaces) {
		spread(e->places, e->nplaces, x, m, d);	/* the window keeps its rows */
		return;
	}
	if (pw) {
		spread(pw->rows, pw->n, x, m, d);
		return;
	}
	key.pid = INT32_MIN;
	i = place_pos(d, &key);
	for (j = i; j < d->nplaces && d->places[j].thread == x->thread; j++)
		;
	spread(&d->places[i], j - i, x, m, NULL);
}
