/*
 * timeline.c — the layout of a profile's timeline that the exports share
 * (see timeline.h): a thread's runs of categories and of places.
 */
#include "timeline.h"

#include <errno.h>
#include <stdlib.h>

#include "where.h"

/* An open run of one category. */
struct run {
	int open;
	int cat;
	uint64_t start, end;	/* ns after t0 */
};

/* The runs being laid out for lc_timeline_runs. */
struct lay {
	struct run r;
	lc_run_fn fn;
	void *arg;
	int rc;			/* the first non-zero return of fn */
};

/* Extend the open run with [start, start + ns) of category cat, handing
 * the run it closes to the callback. */
static void extend(struct lay *l, int cat, uint64_t start, uint64_t ns)
{
	struct run *r = &l->r;

	if (r->open && r->cat == cat && r->end == start) {
		r->end += ns;
		return;
	}
	if (r->open && !l->rc)
		l->rc = l->fn(l->arg, r->cat, r->start, r->end);
	*r = (struct run){ .open = 1, .cat = cat, .start = start, .end = start + ns };
}

/* The row of thread t in window w, or NULL. */
static const struct lc_prof_trow *row(const struct lc_prof_window *w, uint32_t t)
{
	for (uint32_t i = 0; i < w->nthreads; i++)
		if (w->threads[i].thread == t)
			return &w->threads[i];
	return NULL;
}

/* Window i's categories of row tr in ns[], shrunk in proportion when
 * they hold more than fits before the next window starts: a merged job's
 * window may hold a node window that began before it, and a track must
 * never overlap itself. */
static void fit_window(const struct lc_prof_data *d, uint32_t i, const struct lc_prof_trow *tr,
		       uint64_t ns[LC_NCAT])
{
	uint64_t at = d->windows[i].start_ns, sum = 0, room;

	room = i + 1 < d->nwindows && d->windows[i + 1].start_ns > at ?
	       d->windows[i + 1].start_ns - at : UINT64_MAX;
	sum = lc_cat_sum(tr->cat);
	for (int c = 0; c < LC_NCAT; c++)
		ns[c] = sum <= room ? tr->cat[c] :
			(uint64_t)((double)tr->cat[c] * (double)room / (double)sum);
}

int lc_timeline_runs(const struct lc_prof_data *d, uint32_t t, lc_run_fn fn, void *arg)
{
	struct lay l = { .fn = fn, .arg = arg };

	for (uint32_t i = 0; i < d->nwindows && !l.rc; i++) {
		const struct lc_prof_trow *tr = row(&d->windows[i], t);
		uint64_t at = d->windows[i].start_ns, ns[LC_NCAT];
		int lead = l.r.open ? l.r.cat : -1;

		if (!tr)
			continue;
		fit_window(d, i, tr, ns);
		if (lead >= 0 && ns[lead]) {
			extend(&l, lead, at, ns[lead]);
			at += ns[lead];
		}
		for (int c = 0; c < LC_NCAT; c++) {
			if (c == lead || !ns[c])
				continue;
			extend(&l, c, at, ns[c]);
			at += ns[c];
		}
	}
	if (l.r.open && !l.rc)
		l.rc = fn(arg, l.r.cat, l.r.start, l.r.end);
	return l.rc;
}

/* ---- the empty processor slots --------------------------------------------- */

/* Window i's time of the empty processor slots per category in ns[]
 * (the window's categories for p slots less its threads' rows), and the
 * span the window lays them out in (its wall time, less when the next
 * window starts sooner); returns their sum. */
static uint64_t empty_window(const struct lc_profile *pr, const struct lc_prof_data *d, uint32_t i,
			     uint64_t ns[LC_NCAT], uint64_t *span)
{
	const struct lc_prof_window *w = &d->windows[i];
	uint64_t room = i + 1 < d->nwindows && d->windows[i + 1].start_ns > w->start_ns ?
			d->windows[i + 1].start_ns - w->start_ns : UINT64_MAX;
	uint64_t sum = 0;

	lc_profile_finish(pr, &w->acct, ns);
	for (uint32_t j = 0; j < w->nthreads; j++)
		for (int c = 0; c < LC_NCAT; c++)
			ns[c] = ns[c] > w->threads[j].cat[c] ? ns[c] - w->threads[j].cat[c] : 0;
	for (int c = 0; c < LC_NCAT; c++)
		sum += ns[c];
	*span = lc_acct_wall(&w->acct) < room ? lc_acct_wall(&w->acct) : room;
	return sum;
}

uint32_t lc_timeline_empty_slots(const struct lc_profile *pr, const struct lc_prof_data *d)
{
	uint64_t ns[LC_NCAT], span, sum, most = 0;

	for (uint32_t i = 0; i < d->nwindows; i++) {
		sum = empty_window(pr, d, i, ns, &span);
		if (sum && span) {
			uint64_t k = (sum + span - 1) / span;

			most = k > most ? k : most;
		}
	}
	return most < pr->procs ? (uint32_t)most : pr->procs;
}

int lc_timeline_empty_runs(const struct lc_profile *pr, const struct lc_prof_data *d,
			   uint32_t slot, lc_run_fn fn, void *arg)
{
	struct lay l = { .fn = fn, .arg = arg };
	uint32_t nslots = lc_timeline_empty_slots(pr, d);

	for (uint32_t i = 0; i < d->nwindows && !l.rc && slot < nslots; i++) {
		uint64_t ns[LC_NCAT], span, sum = empty_window(pr, d, i, ns, &span), x = 0;
		uint64_t lo = slot * span, hi = lo + span, at = d->windows[i].start_ns;

		if (!sum || !span)
			continue;
		for (int c = 0; c < LC_NCAT; c++) {	/* the slots' time laid end to end */
			uint64_t n = sum <= nslots * span ? ns[c] :
				     (uint64_t)((double)ns[c] * (double)(nslots * span) / (double)sum);
			uint64_t a = x > lo ? x : lo, b = x + n < hi ? x + n : hi;

			if (b > a)
				extend(&l, c, at + (a - lo), b - a);
			x += n;
		}
	}
	if (l.r.open && !l.rc)
		l.rc = fn(arg, l.r.cat, l.r.start, l.r.end);
	return l.rc;
}

/* ---- place runs ----------------------------------------------------------- */

/* The places of a profile for place tracks: report --where's rows (each
 * place named once, as the table prints it), found by key, and the time
 * of each in the open run. */
struct pkey {
	uint64_t place, obj;	/* a key of a row (a row merges several) */
	uint32_t row;		/* its row in w */
};

struct lc_places {
	struct lc_where *w;
	struct pkey *keys;	/* every key of w's rows, by (place, obj) */
	uint32_t nkeys;
	uint64_t *acc;		/* ns of each row of w in the open run */
	uint32_t *held, nheld;	/* the rows of acc not 0 */
};

static int by_place_key(const void *a, const void *b)
{
	const struct pkey *x = a, *y = b;

	if (x->place != y->place)
		return x->place < y->place ? -1 : 1;
	return x->obj < y->obj ? -1 : x->obj > y->obj;
}

/* The row of place row p in pl->w: its place's, else (elsewhere), last. */
static uint32_t place_row(const struct lc_places *pl, const struct lc_prof_place *p)
{
	struct pkey key = { .place = p->place, .obj = p->obj };
	const struct pkey *hit = NULL;

	if (p->place)
		hit = bsearch(&key, pl->keys, pl->nkeys, sizeof(*pl->keys), by_place_key);
	return hit ? hit->row : pl->w->n - 1;
}

/* The keys of pl->w's rows into pl->keys, sorted.  0 or -ENOMEM. */
static int place_keys(struct lc_places *pl)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < pl->w->n; i++)
		n += pl->w->rows[i].nkeys;
	if (!(pl->keys = calloc(n + 1, sizeof(*pl->keys))))
		return -ENOMEM;
	for (uint32_t i = 0; i < pl->w->n; i++)
		for (uint32_t k = 0; k < pl->w->rows[i].nkeys; k++)
			pl->keys[pl->nkeys++] = (struct pkey){ pl->w->rows[i].keys[2 * k],
							       pl->w->rows[i].keys[2 * k + 1], i };
	qsort(pl->keys, pl->nkeys, sizeof(*pl->keys), by_place_key);
	return 0;
}

void lc_places_free(struct lc_places *pl)
{
	if (pl) {
		lc_where_free(pl->w);
		free(pl->keys);
		free(pl->acc);
		free(pl->held);
	}
	free(pl);
}

/* Whether a window of d keeps its place rows. */
static int windows_placed(const struct lc_prof_data *d)
{
	for (uint32_t i = 0; i < d->nwindows; i++)
		if (d->windows[i].nplaces)
			return 1;
	return 0;
}

int lc_places_new(const struct lc_profile *pr, enum lc_source src, struct lc_places **out)
{
	struct lc_places *pl;
	char msg[512];
	int r;

	*out = NULL;
	if (!windows_placed(&pr->data[src]))
		return 0;
	if (!(pl = calloc(1, sizeof(*pl))))
		return -ENOMEM;
	r = lc_where_build(pr, src, -1, &pl->w, msg, sizeof(msg));
	if (r || pl->w->n < 2) {	/* no places; or all elsewhere */
		lc_places_free(pl);
		return r == -ENOMEM ? r : 0;
	}
	pl->acc = calloc(pl->w->n, sizeof(*pl->acc));
	pl->held = malloc(pl->w->n * sizeof(*pl->held));
	if (place_keys(pl) || !pl->acc || !pl->held) {
		lc_places_free(pl);
		return -ENOMEM;
	}
	*out = pl;
	return 0;
}

uint32_t lc_places_count(const struct lc_places *pl)
{
	return pl->w->n;
}

const char *lc_places_name(const struct lc_places *pl, uint32_t place)
{
	return pl->w->rows[place].name;
}

uint32_t lc_places_top(const struct lc_places *pl, uint32_t n, uint32_t *place, uint64_t *ns)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < pl->nheld; i++) {
		uint32_t r = pl->held[i], j;
		uint64_t v = pl->acc[r];

		if (k == n && (!n || v <= ns[n - 1]))
			continue;
		j = k < n ? k++ : n - 1;	/* the slot it takes, then moves up */
		for (; j > 0 && ns[j - 1] < v; j--) {
			place[j] = place[j - 1];
			ns[j] = ns[j - 1];
		}
		place[j] = r;
		ns[j] = v;
	}
	return k;
}

/* Add ns to row r's time in the open run. */
static void hold_ns(struct lc_places *pl, uint32_t r, uint64_t ns)
{
	if (!pl->acc[r] && ns)
		pl->held[pl->nheld++] = r;
	pl->acc[r] += ns;
}

/* The row of the place holding most of thread t's time in window w (the
 * first of equals; (elsewhere) when t has no place row there). */
static uint32_t top_place(const struct lc_places *pl, const struct lc_prof_window *w, uint32_t t)
{
	uint32_t best = pl->w->n - 1;
	uint64_t most = 0;

	for (uint32_t i = 0; i < w->nplaces; i++)
		if (w->places[i].thread == t && lc_cat_sum(w->places[i].cat) > most) {
			most = lc_cat_sum(w->places[i].cat);
			best = place_row(pl, &w->places[i]);
		}
	return best;
}

/* Add thread t's times per place in window w (span ns on its track) to
 * the open run's. */
static void add_places(struct lc_places *pl, const struct lc_prof_window *w, uint32_t t,
		       uint64_t span)
{
	uint64_t placed = 0;

	for (uint32_t i = 0; i < w->nplaces; i++)
		if (w->places[i].thread == t) {
			hold_ns(pl, place_row(pl, &w->places[i]), lc_cat_sum(w->places[i].cat));
			placed += lc_cat_sum(w->places[i].cat);
		}
	if (!placed)
		hold_ns(pl, pl->w->n - 1, span);
}

/* The open run of a thread's places. */
struct prun {
	int open;
	uint32_t place;		/* a row of pl->w */
	uint64_t start, end;
};

/* Hand the open run r to fn (unless NULL) and clear its times. */
static int close_run(struct lc_places *pl, struct prun *r, lc_place_fn fn, void *arg)
{
	int rc = fn ? fn(arg, pl, r->place, r->start, r->end) : 0;

	for (uint32_t i = 0; i < pl->nheld; i++)
		pl->acc[pl->held[i]] = 0;
	pl->nheld = 0;
	r->open = 0;
	return rc;
}

/* The span of thread row tr of window i on its track (lc_timeline_runs'). */
static uint64_t span_of(const struct lc_prof_data *d, uint32_t i, const struct lc_prof_trow *tr)
{
	uint64_t ns[LC_NCAT], span = 0;

	fit_window(d, i, tr, ns);
	for (int c = 0; c < LC_NCAT; c++)
		span += ns[c];
	return span;
}

int lc_place_runs(struct lc_places *pl, const struct lc_prof_data *d, uint32_t t, lc_place_fn fn,
		  void *arg)
{
	struct prun r = { 0 };
	int rc = 0;

	for (uint32_t i = 0; i < d->nwindows && !rc; i++) {
		const struct lc_prof_window *w = &d->windows[i];
		const struct lc_prof_trow *tr = row(w, t);
		uint64_t span = tr ? span_of(d, i, tr) : 0;
		uint32_t top;

		if (!span)
			continue;
		top = top_place(pl, w, t);
		if (r.open && (r.place != top || r.end != w->start_ns))
			rc = close_run(pl, &r, fn, arg);
		if (!r.open)
			r = (struct prun){ .open = 1, .place = top, .start = w->start_ns,
					   .end = w->start_ns };
		r.end += span;
		add_places(pl, w, t, span);
	}
	if (r.open && !rc)
		rc = close_run(pl, &r, fn, arg);
	if (r.open)	/* stopped: leave no times behind */
		close_run(pl, &r, NULL, NULL);
	return rc;
}

int lc_timeline_needs_places(const struct lc_profile *pr, enum lc_source src)
{
	const struct lc_prof_data *d = &pr->data[src];
	uint32_t placed = 0;

	for (uint32_t i = 0; i < d->nplaces && !placed; i++)
		placed = d->places[i].place != 0;
	if (!placed)
		return 0;
	for (uint32_t i = 0; i < d->nwindows; i++)
		if (d->windows[i].nmerged > 1)
			return -1;
	return 1;
}
