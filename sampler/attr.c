/*
 * attr.c — the predicate→category table and the accumulator (see attr.h).
 */
#include "attr.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_util.h"
#include "lostcycles.h"
#include "place.h"
#include "tidy.h"

#define TASK_BUCKETS 65536u

/* The category of one processor tick from its thread's state and the
 * process-wide predicates we (work exists) and sf (solution found): the
 * predicate definitions of Crovella 1994, section 4.1, posed on the flag
 * variables of section 4.2.1 (lostcycles(1) lists them). */
enum lc_cat lc_attr_category(uint32_t state, int we, int sf)
{
	switch (state) {
	case LC_ST_SYNC:
		return we ? LC_CAT_SL : LC_CAT_IP;
	case LC_ST_COMM:
		return LC_CAT_CL;
	case LC_ST_BUSY:
		return sf ? LC_CAT_BL : LC_CAT_PC;
	default:
		return we ? LC_CAT_LI : LC_CAT_IP;
	}
}

/* ---- thread identities ---------------------------------------------------- */

struct thread_key {
	int32_t pid;
	uint32_t slot;
	uint64_t nonce;
	uint32_t gen;
};

struct lc_threads {
	struct lc_pwriter *w;
	struct thread_key *keys;
	uint32_t n, cap;
};

struct lc_threads *lc_threads_new(struct lc_pwriter *w)
{
	struct lc_threads *t = calloc(1, sizeof(*t));

	if (t)
		t->w = w;
	return t;
}

void lc_threads_free(struct lc_threads *t)
{
	if (!t)
		return;
	free(t->keys);
	free(t);
}

int64_t lc_threads_id(struct lc_threads *t, int32_t pid, uint64_t nonce, uint32_t slot,
		      uint32_t gen, int32_t tid, uint64_t first_ns)
{
	struct lc_prof_thread th;

	for (uint32_t i = 0; i < t->n; i++) {
		const struct thread_key *k = &t->keys[i];

		if (k->pid == pid && k->nonce == nonce && k->slot == slot && k->gen == gen)
			return i;
	}
	if (t->n == t->cap) {
		uint32_t cap = t->cap ? 2 * t->cap : 64;
		struct thread_key *k = realloc(t->keys, cap * sizeof(*k));

		if (!k)
			return -ENOMEM;
		t->keys = k;
		t->cap = cap;
	}
	t->keys[t->n] = (struct thread_key){ .pid = pid, .slot = slot, .nonce = nonce, .gen = gen };
	th = (struct lc_prof_thread){ .idx = t->n, .pid = pid, .tid = tid, .slot = slot,
				      .first_ns = first_ns };
	lc_pwriter_thread(t->w, &th);	/* a write error resurfaces at close */
	return t->n++;
}

/* ---- tasks: pure computation that may later be declared wasted ------------ */

struct task_run {
	uint32_t window;
	uint32_t thread;
	uint32_t tagset;
	uint64_t ns;
};

struct task {
	struct task *next;
	uint32_t uid;
	uint64_t id;
	uint32_t nruns;
	size_t cap;
	struct task_run *runs;
};

/* An interned set of open fragment tags. */
struct tagset {
	uint32_t n;
	int64_t *tags;
};

/* Pure computation of one thread in one window under one tag set, not yet
 * covered by a counter read. */
struct busy_run {
	uint32_t window;
	uint32_t tagset;
	uint64_t ns;
};

/* Synchronization loss of one synchronization object of one process. */
struct sync_tot {
	uint32_t uid, sync;
	int32_t pid;
	uint64_t obj, ns;
	char name[48];
};

struct busy_list {
	struct busy_run *runs;
	uint32_t n;
	size_t cap;
};

struct lc_accum {
	struct lc_pwriter *w;
	enum lc_source src;
	uint64_t window_ns;	/* the schedule's base length */
	uint32_t window_grow;	/* and growth (lc_window_span) */
	uint32_t procs_opt;
	uint32_t team_max;
	uint32_t max_n_all;
	uint32_t max_runnable;	/* most threads runnable at once */
	uint32_t cpus;		/* CPUs the threads' affinity allows, 0 unknown */
	int run_known;		/* lc_accum_runnable was told of this interval */
	uint32_t run_next;	/* ... and what it said */
	uint64_t ticks;
	uint64_t run_cat[LC_NCAT];	/* the threads' time so far, by category */
	uint64_t run_slots;	/* p x time so far (the threads' time while p
				 * is not known) */
	uint64_t wasted_lost;
	uint64_t charge_dt;	/* the interval lc_accum_charge is charging */
	int err;

	/* the current window */
	int win_open;
	uint32_t win_index;
	uint64_t win_start, win_len;	/* its span under the schedule */
	uint32_t win_ticks;
	uint32_t win_max_n;
	struct lc_acct win_acct;
	struct lc_prof_trow *rows;	/* indexed by thread */
	uint8_t *touched;		/* rows[i] has data */
	uint32_t rows_cap;
	uint32_t *touched_list;
	uint32_t ntouched;
	struct lc_prof_tagrow *tagrows;
	uint32_t ntagrows;
	size_t tagrows_cap;

	/* the tags open now (union over processes) */
	int64_t *cur_tags;
	uint32_t ncur_tags;
	size_t cur_tags_cap;

	struct tagset *tagsets;
	uint32_t ntagsets;
	size_t tagsets_cap;
	uint32_t cur_tagset;		/* tagset_id of cur_tags, UINT32_MAX: not yet */

	/* the distinct tags of the run, at most LC_TAGS_CAP (open addressing
	 * over TAG_HASH cells; kept[i] marks a cell in use); a later tag is
	 * charged to LC_TAG_OTHER and the tick counted in tags_over */
	int64_t *known;
	uint8_t *kept;
	uint32_t nknown;
	uint64_t tags_over;

	struct task **buckets;

	uint64_t ntasks;		/* tasks in the table (its free walks no further) */
	struct lc_prof_wasted *pending;	/* wasted and move records */
	uint32_t npending;
	size_t pending_cap;

	/* counters: events and, per thread, its computation since its last read */
	uint32_t nev;
	struct busy_list *busy_runs;	/* NULL: not counting */
	size_t busy_cap;
	struct lc_prof_counts *pcounts;	/* counts records for after the window */
	uint32_t npcounts;
	size_t pcounts_cap;

	struct sync_tot *syncs;		/* per synchronization object */
	uint32_t nsyncs;
	size_t syncs_cap;

	/* the sampled source's place rows of the window (NULL: none) */
	struct lc_placeacc *places;
};

struct lc_accum *lc_accum_new(struct lc_pwriter *w, enum lc_source src, uint64_t window_ns,
			      uint32_t procs)
{
	struct lc_accum *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->buckets = calloc(TASK_BUCKETS, sizeof(*a->buckets));
	if (src == LC_SRC_SAMPLED)
		a->places = lc_placeacc_new();
	if (!a->buckets || (src == LC_SRC_SAMPLED && !a->places)) {
		lc_placeacc_free(a->places);
		free(a->buckets);
		free(a);
		return NULL;
	}
	a->w = w;
	a->src = src;
	a->window_ns = window_ns ? window_ns : 10000000u;
	a->procs_opt = procs;
	a->cur_tagset = UINT32_MAX;
	return a;
}

int lc_accum_window_grow(struct lc_accum *a, uint32_t grow)
{
	if (grow == 1 || grow % 2)
		return -EINVAL;
	/* a window already written fixed the schedule of the windows so far */
	if (a->win_open || a->ticks)
		return -EBUSY;
	a->window_grow = grow;
	return 0;
}

/* Free the tasks of a bucket's chain from t; how many there were. */
static uint64_t chain_free(struct task *t)
{
	uint64_t n = 0;

	for (struct task *next; t; t = next, n++) {
		next = t->next;
		free(t->runs);
		free(t);
	}
	return n;
}

/* The tag sets' and the pending computations' own lists. */
static void lists_free(struct lc_accum *a)
{
	for (uint32_t i = 0; i < a->ntagsets; i++)
		free(a->tagsets[i].tags);
	for (size_t i = 0; i < a->busy_cap; i++)
		free(a->busy_runs[i].runs);
}

/* Free every task of the table: the buckets up to the last task only (a
 * table without tasks, the usual case, is never touched: its 512 kB are
 * pages the kernel has not even given it). */
static void tasks_free(struct lc_accum *a)
{
	for (uint32_t b = 0; a->ntasks && b < TASK_BUCKETS; b++) {
		a->ntasks -= chain_free(a->buckets[b]);
		a->buckets[b] = NULL;
	}
}

void lc_accum_free(struct lc_accum *a)
{
	if (!a)
		return;
	tasks_free(a);
	lists_free(a);
	lc_placeacc_free(a->places);
	LC_FREE_ALL(a->buckets, a->tagsets, a->rows, a->touched, a->touched_list, a->tagrows,
		    a->cur_tags, a->pending, a->busy_runs, a->pcounts, a->syncs, a->known, a->kept,
		    a);
}

/* The window row of thread i, marking it touched; NULL on ENOMEM. */
static struct lc_prof_trow *row(struct lc_accum *a, uint32_t i)
{
	if (i >= a->rows_cap) {
		uint32_t cap = a->rows_cap ? a->rows_cap : 64;
		void *p;

		while (cap <= i)
			cap *= 2;
		if (!(p = realloc(a->rows, cap * sizeof(*a->rows))))
			return NULL;
		a->rows = p;
		if (!(p = realloc(a->touched_list, cap * sizeof(uint32_t))))
			return NULL;
		a->touched_list = p;
		if (!(p = realloc(a->touched, cap)))
			return NULL;
		a->touched = p;
		memset(a->touched + a->rows_cap, 0, cap - a->rows_cap);
		a->rows_cap = cap;
	}
	if (!a->touched[i]) {
		a->touched[i] = 1;
		a->touched_list[a->ntouched++] = i;
		a->rows[i] = (struct lc_prof_trow){ .thread = i };
	}
	return &a->rows[i];
}

/* The window row of tag, created when new; NULL on ENOMEM. */
static struct lc_prof_tagrow *tagrow(struct lc_accum *a, int64_t tag)
{
	for (uint32_t i = 0; i < a->ntagrows; i++)
		if (a->tagrows[i].tag == tag)
			return &a->tagrows[i];
	if (lc_grow((void **)&a->tagrows, &a->tagrows_cap, a->ntagrows + 1, sizeof(*a->tagrows)))
		return NULL;
	a->tagrows[a->ntagrows] = (struct lc_prof_tagrow){ .tag = tag };
	return &a->tagrows[a->ntagrows++];
}

/* Remember the first error of the writer. */
static int note(struct lc_accum *a, int rc)
{
	if (rc < 0 && !a->err)
		a->err = rc;
	return rc;
}

/* Write the corrections and counts that wait for their window to be out. */
static void write_pending(struct lc_accum *a)
{
	for (uint32_t i = 0; i < a->npending; i++) {
		const struct lc_prof_wasted *x = &a->pending[i];

		note(a, x->to == LC_CAT_WC ? lc_pwriter_wasted(a->w, x) : lc_pwriter_move(a->w, x));
	}
	a->npending = 0;
	for (uint32_t i = 0; i < a->npcounts; i++)
		note(a, lc_pwriter_counts(a->w, &a->pcounts[i]));
	a->npcounts = 0;
}

/* Write the current window and the corrections that follow it, and start an
 * empty one. */
static int flush_window(struct lc_accum *a)
{
	struct lc_prof_window win;

	struct lc_prof_trow *out;

	if (!a->win_open) {
		write_pending(a);
		return a->err;
	}
	/* rows go out in order of first touch */
	out = malloc((a->ntouched ? a->ntouched : 1) * sizeof(*out));
	if (!out)
		return note(a, -ENOMEM);
	for (uint32_t i = 0; i < a->ntouched; i++) {
		out[i] = a->rows[a->touched_list[i]];
		a->touched[a->touched_list[i]] = 0;
	}
	win = (struct lc_prof_window){
		.source = (uint8_t)a->src, .index = a->win_index,
		.start_ns = a->win_start, .len_ns = a->win_len, .ticks = a->win_ticks,
		.max_n = a->win_max_n, .team = a->team_max, .acct = a->win_acct,
		.nthreads = a->ntouched, .threads = out,
		.ntags = a->ntagrows, .tags = a->tagrows,
	};
	if (a->places) {	/* the window's place rows go in its block */
		int n = lc_placeacc_take(a->places, (uint8_t)a->src, a->win_index, &win.places);

		win.places_ext = n >= 0;
		win.nplaces = n > 0 ? (uint32_t)n : 0;
		note(a, n < 0 ? n : 0);
	}
	note(a, lc_pwriter_window(a->w, &win));
	free(out);
	write_pending(a);
	a->ntouched = 0;
	a->ntagrows = 0;
	a->win_ticks = 0;
	a->win_max_n = 0;
	memset(&a->win_acct, 0, sizeof(a->win_acct));
	a->win_open = 0;
	return a->err;
}

/* Cells of the table of the run's distinct tags: twice the cap, a power
 * of two. */
#define TAG_HASH (2u * LC_TAGS_CAP)

/* tag as the profile keeps it: itself when it is one of the run's first
 * LC_TAGS_CAP distinct tags (entered when new), else LC_TAG_OTHER, with
 * *over set.  A run that opens a new tag for every request would
 * otherwise grow the profile by a row per tag and window, and the
 * accumulator's tag sets without end. */
static int64_t keep_tag(struct lc_accum *a, int64_t tag, int *over)
{
	uint32_t h;

	if (tag == LC_TAG_OTHER)
		return tag;
	if (!a->known && (!(a->known = malloc(TAG_HASH * sizeof(*a->known))) ||
			  !(a->kept = calloc(TAG_HASH, 1)))) {
		free(a->known);
		a->known = NULL;
		*over = 1;
		return LC_TAG_OTHER;
	}
	h = (uint32_t)(((uint64_t)tag * 0x9e3779b97f4a7c15ull) >> 40) & (TAG_HASH - 1);
	for (; a->kept[h]; h = (h + 1) & (TAG_HASH - 1))
		if (a->known[h] == tag)
			return tag;
	if (a->nknown == LC_TAGS_CAP) {
		*over = 1;
		return LC_TAG_OTHER;
	}
	a->kept[h] = 1;
	a->known[h] = tag;
	a->nknown++;
	return tag;
}

/* Collect the union of the open tags of all processes into a->cur_tags
 * (each as keep_tag keeps it), counting a tick with a tag over the cap. */
static void collect_tags(struct lc_accum *a, const struct lc_obs *o)
{
	int over = 0;

	a->ncur_tags = 0;
	a->cur_tagset = UINT32_MAX;
	for (uint32_t p = 0; p < o->nprocs; p++) {
		for (uint32_t k = 0; k < o->procs[p].ntags; k++) {
			int64_t tag = keep_tag(a, o->procs[p].tags[k], &over);
			uint32_t j;

			for (j = 0; j < a->ncur_tags && a->cur_tags[j] != tag; j++)
				;
			if (j < a->ncur_tags)
				continue;
			if (lc_grow((void **)&a->cur_tags, &a->cur_tags_cap, a->ncur_tags + 1,
				 sizeof(int64_t)))
				return;
			a->cur_tags[a->ncur_tags++] = tag;
		}
	}
	a->tags_over += over;
}

/* The interned id of the current tag set, entered when new; UINT32_MAX
 * on ENOMEM. */
static uint32_t find_tagset(struct lc_accum *a)
{
	for (uint32_t i = 0; i < a->ntagsets; i++) {
		const struct tagset *s = &a->tagsets[i];

		/* (no memcmp of n == 0: cur_tags may be NULL then) */
		if (s->n == a->ncur_tags &&
		    (!s->n || !memcmp(s->tags, a->cur_tags, s->n * sizeof(int64_t))))
			return i;
	}
	if (lc_grow((void **)&a->tagsets, &a->tagsets_cap, a->ntagsets + 1, sizeof(*a->tagsets)))
		return UINT32_MAX;
	struct tagset *s = &a->tagsets[a->ntagsets];

	s->n = a->ncur_tags;
	s->tags = malloc((s->n ? s->n : 1) * sizeof(int64_t));
	if (!s->tags)
		return UINT32_MAX;
	if (s->n)
		memcpy(s->tags, a->cur_tags, s->n * sizeof(int64_t));
	return a->ntagsets++;
}

/* The interned id of the current tag set (found once per tick); UINT32_MAX
 * on ENOMEM. */
static uint32_t tagset_id(struct lc_accum *a)
{
	if (a->cur_tagset != UINT32_MAX)
		return a->cur_tagset;
	a->cur_tagset = find_tagset(a);
	return a->cur_tagset;
}

/* Hash bucket of (uid, task). */
static uint32_t task_bucket(uint32_t uid, uint64_t id)
{
	uint64_t h = (id ^ ((uint64_t)uid << 32)) * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(h >> 48) & (TASK_BUCKETS - 1);
}

/* The task (uid, id), created when create is set; NULL if absent or ENOMEM. */
static struct task *task_find(struct lc_accum *a, uint32_t uid, uint64_t id, int create)
{
	struct task **b = &a->buckets[task_bucket(uid, id)], *t;

	for (t = *b; t; t = t->next)
		if (t->uid == uid && t->id == id)
			return t;
	if (!create || !(t = calloc(1, sizeof(*t))))
		return NULL;
	t->uid = uid;
	t->id = id;
	t->next = *b;
	*b = t;
	a->ntasks++;
	return t;
}

/* Add ns of pure computation of task (uid, id) by thread in the current
 * window under the current tag set. */
static void task_charge(struct lc_accum *a, uint32_t uid, uint64_t id, uint32_t thread,
			uint64_t ns)
{
	struct task *t = task_find(a, uid, id, 1);
	uint32_t ts = tagset_id(a);
	struct task_run *r;

	if (!t || ts == UINT32_MAX)
		return;
	r = t->nruns ? &t->runs[t->nruns - 1] : NULL;
	if (r && r->window == a->win_index && r->thread == thread && r->tagset == ts) {
		r->ns += ns;
		return;
	}
	if (lc_grow((void **)&t->runs, &t->cap, t->nruns + 1, sizeof(*t->runs)))
		return;
	t->runs[t->nruns++] = (struct task_run){ a->win_index, thread, ts, ns };
}

void lc_accum_wasted(struct lc_accum *a, uint32_t uid, uint64_t id)
{
	struct task **b = &a->buckets[task_bucket(uid, id)], *t;

	for (; (t = *b); b = &t->next)
		if (t->uid == uid && t->id == id)
			break;
	if (!t)
		return;
	*b = t->next;
	for (uint32_t i = 0; i < t->nruns; i++) {
		const struct task_run *r = &t->runs[i];

		if (lc_grow((void **)&a->pending, &a->pending_cap, a->npending + 1,
			 sizeof(*a->pending)))
			break;
		a->pending[a->npending++] = (struct lc_prof_wasted){
			.source = (uint8_t)a->src, .window = r->window, .thread = r->thread,
			.ns = r->ns, .task = id, .ntags = a->tagsets[r->tagset].n,
			.tags = a->tagsets[r->tagset].tags, .from = LC_CAT_PC, .to = LC_CAT_WC,
		};
	}
	free(t->runs);
	free(t);
}

void lc_accum_wasted_lost(struct lc_accum *a, uint64_t n)
{
	a->wasted_lost += n;
}

void lc_accum_wasted_forget(struct lc_accum *a, uint64_t n)
{
	a->wasted_lost -= n < a->wasted_lost ? n : a->wasted_lost;
}

/* ---- counters ---------------------------------------------------------------- */

int lc_accum_events(struct lc_accum *a, uint32_t n, const struct lc_prof_event *ev)
{
	if (n > LC_PROF_MAX_EVENTS)
		return -EINVAL;
	a->nev = n;
	if (!a->busy_runs && !(a->busy_runs = calloc(64, sizeof(*a->busy_runs))))
		return -ENOMEM;
	if (!a->busy_cap)
		a->busy_cap = 64;
	return note(a, lc_pwriter_events(a->w, n, ev));
}

/* The pending computation of thread (grown zeroed), NULL on ENOMEM. */
static struct busy_list *busy_of(struct lc_accum *a, uint32_t thread)
{
	if (lc_grow((void **)&a->busy_runs, &a->busy_cap, (size_t)thread + 1, sizeof(*a->busy_runs)))
		return NULL;
	return &a->busy_runs[thread];
}

/* Remember ns of pure computation of thread in this window and tag set. */
static void busy_charge(struct lc_accum *a, uint32_t thread, uint64_t ns)
{
	struct busy_list *b = busy_of(a, thread);
	uint32_t ts = tagset_id(a);
	struct busy_run *r;

	if (!b || ts == UINT32_MAX)
		return;
	r = b->n ? &b->runs[b->n - 1] : NULL;
	if (r && r->window == a->win_index && r->tagset == ts) {
		r->ns += ns;
		return;
	}
	if (lc_grow((void **)&b->runs, &b->cap, b->n + 1, sizeof(*b->runs)))
		return;
	b->runs[b->n++] = (struct busy_run){ a->win_index, ts, ns };
}

uint64_t lc_accum_busy_pending(const struct lc_accum *a, uint32_t thread)
{
	uint64_t sum = 0;

	if (!a->busy_runs || thread >= a->busy_cap)
		return 0;
	for (uint32_t i = 0; i < a->busy_runs[thread].n; i++)
		sum += a->busy_runs[thread].runs[i].ns;
	return sum;
}

/* x * num / den without overflow (den > 0). */
static uint64_t muldiv(uint64_t x, uint64_t num, uint64_t den)
{
	return (uint64_t)((unsigned __int128)x * num / den);
}

int lc_accum_counters(struct lc_accum *a, uint32_t thread, const uint64_t *delta,
		      const uint64_t move[LC_NCAT])
{
	static const int targets[] = { LC_CAT_ML, LC_CAT_CL, LC_CAT_RC };
	struct busy_list *b;
	uint64_t total;

	if (!a->busy_runs || !(b = busy_of(a, thread)))
		return a->err;
	total = lc_accum_busy_pending(a, thread);
	for (uint32_t i = 0; i < b->n && total; i++) {
		const struct busy_run *r = &b->runs[i];
		const struct tagset *ts = &a->tagsets[r->tagset];
		struct lc_prof_counts ct = { .source = (uint8_t)a->src, .window = r->window,
					     .thread = thread, .ntags = ts->n, .tags = ts->tags,
					     .nev = a->nev };

		for (uint32_t e = 0; e < a->nev; e++)
			ct.v[e] = muldiv(delta[e], r->ns, total);
		if (a->nev && !lc_grow((void **)&a->pcounts, &a->pcounts_cap, a->npcounts + 1,
				       sizeof(ct)))
			a->pcounts[a->npcounts++] = ct;
		for (size_t k = 0; k < sizeof(targets) / sizeof(targets[0]); k++) {
			uint64_t ns = move ? muldiv(move[targets[k]], r->ns, total) : 0;

			if (!ns || lc_grow((void **)&a->pending, &a->pending_cap, a->npending + 1,
					   sizeof(*a->pending)))
				continue;
			a->pending[a->npending++] = (struct lc_prof_wasted){
				.source = (uint8_t)a->src, .window = r->window, .thread = thread,
				.ns = ns, .ntags = ts->n, .tags = ts->tags,
				.from = LC_CAT_PC, .to = (uint8_t)targets[k],
			};
		}
	}
	b->n = 0;
	return a->err;
}

/* Communication loss from a transfer model (LogGP, docs/mpi.md): of ns
 * charged to SL over part of an interval of dt, the thread's ideal transfer
 * time xfer for the interval, in proportion to part (at most ns), is
 * communication; the rest stays waiting for a partner. */
static uint64_t split_transfer(uint64_t cat[LC_NCAT], uint64_t *row_cat, uint64_t ns,
			       uint64_t xfer, uint64_t part, uint64_t dt)
{
	uint64_t cl = dt > part ? (uint64_t)((unsigned __int128)xfer * part / dt) : xfer;

	if (cl > ns)
		cl = ns;

	cat[LC_CAT_SL] -= cl;
	cat[LC_CAT_CL] += cl;
	if (row_cat) {
		row_cat[LC_CAT_SL] -= cl;
		row_cat[LC_CAT_CL] += cl;
	}
	return cl;
}

/* The totals of synchronization object sync of process uid; NULL on ENOMEM. */
static struct sync_tot *sync_of(struct lc_accum *a, uint32_t uid, uint32_t sync)
{
	for (uint32_t i = 0; i < a->nsyncs; i++)
		if (a->syncs[i].uid == uid && a->syncs[i].sync == sync)
			return &a->syncs[i];
	if (lc_grow((void **)&a->syncs, &a->syncs_cap, a->nsyncs + 1, sizeof(*a->syncs)))
		return NULL;
	a->syncs[a->nsyncs] = (struct sync_tot){ .uid = uid, .sync = sync };
	return &a->syncs[a->nsyncs++];
}

void lc_accum_sync_name(struct lc_accum *a, uint32_t uid, int32_t pid, uint32_t sync,
			uint64_t obj, const char *name)
{
	struct sync_tot *y = sync_of(a, uid, sync);

	if (!y)
		return;
	y->pid = pid;
	y->obj = obj;
	if (name)
		snprintf(y->name, sizeof(y->name), "%s", name);
}

/* Write the sync block: every object that was named to the accumulator. */
static void write_sync(struct lc_accum *a)
{
	struct lc_prof_sync *out;
	uint32_t n = 0;

	if (!a->nsyncs)
		return;
	out = calloc(a->nsyncs, sizeof(*out));
	if (!out) {
		note(a, -ENOMEM);
		return;
	}
	for (uint32_t i = 0; i < a->nsyncs; i++) {
		const struct sync_tot *y = &a->syncs[i];

		if (!y->pid)
			continue;	/* never described by the sampler */
		out[n++] = (struct lc_prof_sync){ .source = (uint8_t)a->src, .pid = y->pid,
						  .obj = y->obj, .ns = y->ns,
						  .name = y->name[0] ? (char *)y->name : NULL };
	}
	note(a, lc_pwriter_sync(a->w, (uint8_t)a->src, n, out));
	free(out);
}

/* The claim tiers of processor slots (lostcycles(1), "Processor slots"):
 * a tick's p slots go first to threads that are running (BUSY), then to
 * threads that wait for a processor (RC: runnable but not running, and
 * BUSY, woken, or a waiter whose event happened; the sampler says how
 * long), then to threads in COMM, SYNC and IDLE, in that order; each tier
 * shares what is left in proportion to its demand. */
enum { TIER_RUN, TIER_RQ, TIER_COMM, TIER_SYNC, TIER_IDLE, NTIERS };

/* The tier of a thread's time in state st other than its run-queue part. */
static int state_tier(uint32_t st)
{
	return st == LC_ST_BUSY ? TIER_RUN : st == LC_ST_COMM ? TIER_COMM :
	       st == LC_ST_SYNC ? TIER_SYNC : TIER_IDLE;
}

/* x of an interval of dt, in proportion to part of it (at most part). */
static uint64_t scaled(uint64_t x, uint64_t part, uint64_t dt)
{
	if (!x || !dt)
		return 0;
	return x >= dt ? part : (uint64_t)((unsigned __int128)x * part / dt);
}

/* Of the ns a waiting thread th was granted for the own part (own ns of
 * part, the rest being its run-queue time and its previous state's) of an
 * interval of dt, the time the partners' rule makes resource contention:
 * its partner_ns in proportion to part, at most own, shared as the grant
 * was. */
static uint64_t partner_part(const struct lc_obs_thread *th, uint64_t ns, uint64_t own,
			     uint64_t part, uint64_t dt)
{
	uint64_t w;

	if (!th->partner_ns || !ns || !own || !dt)
		return 0;
	w = (uint64_t)((unsigned __int128)th->partner_ns * part / dt);
	if (w >= own)
		return ns;
	return (uint64_t)((unsigned __int128)w * ns / own);
}

/* A thread's time in part of an interval of dt as demands on the claim
 * tiers: [0] in its state, [1] in the state it left at a change inside
 * the interval (prev_ns of it), [2] its run-queue time that is RC. */
struct pieces {
	uint64_t ns[3];
	int tier[3];
	enum lc_cat cat[3];
};

static void pieces_of(const struct lc_obs_thread *th, const struct lc_obs_proc *pr, uint64_t part,
		      uint64_t dt, struct pieces *pc)
{
	uint64_t before = th->prev_ns ? scaled(th->prev_ns, part, dt) : 0, qb, q;

	qb = scaled(th->prev_runq_ns, part, dt);
	qb = qb < before ? qb : before;
	q = scaled(th->runq_ns, part, dt);
	q = q < part - before ? q : part - before;
	pc->ns[0] = part - before - q;
	pc->tier[0] = state_tier(th->state);
	pc->cat[0] = lc_attr_category(th->state, pr->we, pr->sf);
	pc->ns[1] = before - qb;
	pc->tier[1] = state_tier(th->prev_state);
	pc->cat[1] = lc_attr_category(th->prev_state, pr->we, pr->sf);
	pc->ns[2] = q + qb;
	pc->tier[2] = TIER_RQ;
	pc->cat[2] = LC_CAT_RC;
}

/* Charge ns of thread th (in category cat) to the window, its row r (NULL
 * on ENOMEM), its place row pc (NULL: none, or ENOMEM) exactly as its row,
 * its task and its transfer credit. */
static void charge_thread(struct lc_accum *a, struct lc_acct *c, const struct lc_obs_thread *th,
			  const struct lc_obs_proc *pr, struct lc_prof_trow *r, uint64_t *pc,
			  enum lc_cat cat, uint64_t ns, uint64_t part)
{
	if (!ns)
		return;
	c->cat[cat] += ns;
	a->run_cat[cat] += ns;
	if (cat == LC_CAT_LI && th->qempty)
		c->li_qempty += ns;
	if (r) {
		r->cat[cat] += ns;
		if (cat == LC_CAT_LI && th->qempty)
			r->li_qempty += ns;
	}
	if (pc)
		pc[cat] += ns;
	if (cat == LC_CAT_PC && th->task)
		task_charge(a, pr->uid, th->task, th->thread, ns);
	if (cat == LC_CAT_PC && a->busy_runs)
		busy_charge(a, th->thread, ns);
	if (cat == LC_CAT_SL && th->xfer_ns) {
		uint64_t cl = split_transfer(c->cat, r ? r->cat : NULL, ns, th->xfer_ns, part,
					     a->charge_dt);

		if (pc) {
			pc[LC_CAT_SL] -= cl;
			pc[LC_CAT_CL] += cl;
		}
		ns -= cl;
	}
	if (cat == LC_CAT_SL && th->sync) {
		struct sync_tot *y = sync_of(a, pr->uid, th->sync);

		if (y)
			y->ns += ns;
	}
}

/* The claims of a part on the tiers: demand[] of o's threads' pieces,
 * grant[] of p slots (0: every demand), and first[], the claims of a
 * tier shared in proportion that get one more ns of its rounding
 * remainder.  Returns the slot time used. */
static uint64_t tiers_claim(const struct lc_accum *a, uint64_t part, const struct lc_obs *o,
			    uint32_t p, uint64_t demand[NTIERS], uint64_t grant[NTIERS],
			    uint32_t first[NTIERS])
{
	uint64_t left = p ? (uint64_t)p * part : UINT64_MAX, used = 0, sum[NTIERS] = { 0 };
	struct pieces pc;

	memset(demand, 0, NTIERS * sizeof(*demand));
	for (uint32_t i = 0; i < o->nthreads; i++) {
		pieces_of(&o->threads[i], &o->procs[o->threads[i].proc], part, a->charge_dt, &pc);
		for (int j = 0; j < 3; j++)
			demand[pc.tier[j]] += pc.ns[j];
	}
	for (int k = 0; k < NTIERS; k++) {
		grant[k] = demand[k] < left ? demand[k] : left;
		left -= grant[k];
		used += grant[k];
	}
	/* A tier that gets less than its demand shares it in proportion; the
	 * rounding remainder goes, one ns each, to its first claims. */
	for (uint32_t i = 0; i < o->nthreads; i++) {
		pieces_of(&o->threads[i], &o->procs[o->threads[i].proc], part, a->charge_dt, &pc);
		for (int j = 0; j < 3; j++) {
			int k = pc.tier[j];

			if (pc.ns[j] && grant[k] < demand[k])
				sum[k] += (uint64_t)((unsigned __int128)pc.ns[j] * grant[k] / demand[k]);
		}
	}
	for (int k = 0; k < NTIERS; k++)
		first[k] = grant[k] < demand[k] ? (uint32_t)(grant[k] - sum[k]) : 0;
	return used;
}

/* Charge thread th's pieces of part, each scaled by its tier's grant
 * (done[] counts the remainders given out), the partners' rule's share of
 * its wait to RC. */
static void charge_pieces(struct lc_accum *a, struct lc_acct *c, const struct lc_obs_thread *th,
			  const struct lc_obs_proc *pr, uint64_t part, const uint64_t demand[NTIERS],
			  const uint64_t grant[NTIERS], const uint32_t first[NTIERS],
			  uint32_t done[NTIERS])
{
	struct pieces pc;
	uint64_t own, w, *cells;
	struct lc_prof_trow *r;

	pieces_of(th, pr, part, a->charge_dt, &pc);
	own = pc.ns[0];
	for (int j = 0; j < 3; j++) {
		int k = pc.tier[j];

		if (!pc.ns[j] || grant[k] >= demand[k])
			continue;
		pc.ns[j] = (uint64_t)((unsigned __int128)pc.ns[j] * grant[k] / demand[k]);
		if (done[k] < first[k]) {
			pc.ns[j]++;
			done[k]++;
		}
	}
	/* the row once per thread, even when it gets nothing: every thread
	 * seen in a window has a row in it */
	r = row(a, th->thread);
	cells = r && a->places ? lc_placeacc_row(a->places, th->thread, pr->pid, th->place, th->obj)
			       : NULL;
	if (r && a->places && !cells)
		note(a, -ENOMEM);
	w = partner_part(th, pc.ns[0], own, part, a->charge_dt);
	pc.ns[0] -= w;
	pc.ns[2] += w;
	for (int j = 0; j < 3; j++)
		charge_thread(a, c, th, pr, r, cells, pc.cat[j], pc.ns[j], part);
}

/* Charge part ns of the current window to the state in o, with p slots
 * known (0 = not yet: every thread gets its whole demand). */
static void charge_part(struct lc_accum *a, uint64_t part, const struct lc_obs *o,
			uint32_t p, int we_any)
{
	uint64_t demand[NTIERS], grant[NTIERS], used;
	uint32_t first[NTIERS], done[NTIERS] = { 0 };
	struct lc_acct c = { 0 };

	used = tiers_claim(a, part, o, p, demand, grant, first);
	for (uint32_t i = 0; i < o->nthreads; i++)
		charge_pieces(a, &c, &o->threads[i], &o->procs[o->threads[i].proc], part, demand,
			      grant, first, done);
	a->run_slots += p ? (uint64_t)p * part : used;
	if (we_any) {
		c.t_we = part;
		c.n_we = used;
	} else {
		c.t_nwe = part;
		c.n_nwe = used;
	}
	lc_acct_add(&a->win_acct, &c);
	for (uint32_t k = 0; k < a->ncur_tags; k++) {
		struct lc_prof_tagrow *tr = tagrow(a, a->cur_tags[k]);

		if (tr)
			lc_acct_add(&tr->acct, &c);
	}
}

void lc_accum_runnable(struct lc_accum *a, uint32_t runnable, uint32_t cpus)
{
	a->run_known = 1;
	a->run_next = runnable;
	if (cpus > a->cpus)
		a->cpus = cpus;
}

/* Threads runnable at once over the interval of o: the scheduler's count,
 * else the threads whose flags say they compute or communicate. */
static uint32_t runnable_of(struct lc_accum *a, const struct lc_obs *o)
{
	uint32_t n = 0;

	if (a->run_known) {
		a->run_known = 0;
		return a->run_next;
	}
	for (uint32_t i = 0; i < o->nthreads; i++)
		n += o->threads[i].state == LC_ST_BUSY || o->threads[i].state == LC_ST_COMM;
	return n;
}

/* p by the rule of the most threads runnable at once, capped by the CPUs
 * the threads may run on; at least 1. */
static uint32_t runnable_p(const struct lc_accum *a)
{
	uint32_t p = a->max_runnable;

	if (a->cpus && p > a->cpus)
		p = a->cpus;
	return p ? p : 1;
}

int lc_accum_charge(struct lc_accum *a, uint64_t t, uint64_t dt, const struct lc_obs *o)
{
	int we_any = 0;
	uint32_t p, r = runnable_of(a, o);

	for (uint32_t i = 0; i < o->nprocs; i++) {
		we_any |= o->procs[i].we;
		if (o->procs[i].team > a->team_max)
			a->team_max = o->procs[i].team;
	}
	if (o->nthreads > a->max_n_all)
		a->max_n_all = o->nthreads;
	if (r > a->max_runnable)
		a->max_runnable = r;
	/* p so far: a tick charged before p grew leaves the slots it did not
	 * know of empty, and the reader charges them as IDLE */
	p = a->procs_opt ? a->procs_opt : a->team_max ? a->team_max : runnable_p(a);
	collect_tags(a, o);
	a->charge_dt = dt;
	while (dt > 0) {
		uint64_t part;

		/* the schedule is looked up only when t leaves the open window,
		 * once per window rather than once per tick */
		if (a->win_open && (t < a->win_start || t - a->win_start >= a->win_len))
			flush_window(a);
		if (!a->win_open) {
			a->win_open = 1;
			a->win_index = lc_window_at(a->window_ns, a->window_grow, t);
			lc_window_span(a->window_ns, a->window_grow, a->win_index,
				       &a->win_start, &a->win_len);
			/* past what the schedule can number (lc_window_at
			 * saturates): the last window takes the rest of time,
			 * so that indices still only increase */
			if (a->win_start > t || a->win_len == 0)
				a->win_start = t;
			if (a->win_index == UINT32_MAX || a->win_len == 0)
				a->win_len = UINT64_MAX - a->win_start;
		}
		part = a->win_len - (t - a->win_start);
		if (part > dt)
			part = dt;
		charge_part(a, part, o, p, we_any);
		if (o->nthreads > a->win_max_n)
			a->win_max_n = o->nthreads;
		t += part;
		dt -= part;
	}
	a->win_ticks++;
	a->ticks++;
	return a->err;
}

int lc_accum_flush(struct lc_accum *a)
{
	flush_window(a);
	write_sync(a);
	if (a->places)
		note(a, lc_placeacc_modules(a->places, a->w));
	return a->err;
}

uint32_t lc_accum_procs(const struct lc_accum *a, uint32_t *from)
{
	uint32_t f = LC_PROCS_RUNNABLE, p = runnable_p(a);

	if (a->procs_opt) {
		f = LC_PROCS_OPTION;
		p = a->procs_opt;
	} else if (a->team_max) {
		f = LC_PROCS_TEAM;
		p = a->team_max;
	}
	if (from)
		*from = f;
	return p ? p : 1;
}

void lc_accum_procs_rules(const struct lc_accum *a, uint32_t *threads, uint32_t *runnable,
			  uint32_t *cpus)
{
	*threads = a->max_n_all;
	*runnable = a->max_runnable;
	*cpus = a->cpus;
}

uint32_t lc_accum_max_threads(const struct lc_accum *a)
{
	return a->max_n_all;
}

/* f (1 - f) of a share f of the slots' time, moved toward 1/2 by margin. */
static double spread_of(double f, double margin)
{
	f = f < 0.5 ? fmin(f + margin, 0.5) : fmax(f - margin, 0.5);
	return f * (1 - f);
}

double lc_accum_spread(const struct lc_accum *a, double margin)
{
	double all = (double)a->run_slots, v = 0, claimed = 0;

	if (!a->run_slots)
		return 0.25;
	for (int c = 0; c < LC_NCAT; c++) {
		claimed += (double)a->run_cat[c];
		v = fmax(v, spread_of((double)a->run_cat[c] / all, margin));
	}
	return fmax(v, spread_of(fmax(all - claimed, 0) / all, margin));
}

uint64_t lc_accum_ticks(const struct lc_accum *a)
{
	return a->ticks;
}

uint64_t lc_accum_tags_over(const struct lc_accum *a)
{
	return a->tags_over;
}

uint64_t lc_accum_wasted_lost_count(const struct lc_accum *a)
{
	return a->wasted_lost;
}
