/*
 * place.c — place cells read per tick, place rows per window, and the
 * names of the words met (see place.h; their modules are module.c's).
 */
#include "place.h"

#include <errno.h>
#include <stdlib.h>

#include "lc_abi.h"
#include "lc_util.h"
#include "module.h"
#include "tidy.h"

void lc_slot_read(const struct lc_target *t, uint32_t i, struct lc_slot_view *v)
{
	const struct lc_slot *sl = lc_seg_slot((struct lc_seg_hdr *)t->hdr, i);

	v->state = __atomic_load_n(&sl->state, __ATOMIC_ACQUIRE);
	v->flags = __atomic_load_n(&sl->flags, __ATOMIC_RELAXED);
	v->place = t->places ? __atomic_load_n(&t->places[i], __ATOMIC_RELAXED) : 0;
}

/* Entry j of stamp c into *v; its time, or 0 when it is being written. */
static uint64_t entry_read(const struct lc_stamp *c, uint64_t j, struct lc_slot_view *v)
{
	const struct lc_stamp_entry *e = &c->e[j % LC_STAMP_DEPTH];
	uint64_t t = __atomic_load_n(&e->t_ns, __ATOMIC_ACQUIRE);

	v->state = __atomic_load_n(&e->state, __ATOMIC_RELAXED);
	v->flags = __atomic_load_n(&e->flags, __ATOMIC_RELAXED);
	v->place = __atomic_load_n(&e->place, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&e->t_ns, __ATOMIC_RELAXED) == t ? t : 0;
}

/* The changes newest first: the state at the instant at is what the slot
 * showed before the oldest change after it (before the oldest one kept,
 * when all LC_STAMP_DEPTH came after it). */
int lc_slot_before(const struct lc_target *t, uint32_t i, uint64_t at, struct lc_slot_view *v)
{
	const struct lc_stamp *c = t->stamps ? &t->stamps[i] : NULL;
	struct lc_slot_view b, e;
	uint64_t head, j;
	int found = 0;

	if (!c || !at)
		return 0;
	head = __atomic_load_n(&c->head, __ATOMIC_ACQUIRE);
	for (j = head; j > 0 && head - j < LC_STAMP_DEPTH; j--) {
		uint64_t when = entry_read(c, j - 1, &e);

		if (!when)
			return 0;	/* being written: now, ambiguous */
		if (when <= at)
			break;
		b = e;
		found = 1;
	}
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (!found || __atomic_load_n(&c->head, __ATOMIC_RELAXED) != head)
		return 0;
	*v = b;
	return 1;
}

int lc_slot_change(const struct lc_target *t, uint32_t i, uint64_t last, uint64_t at,
		   uint32_t st, uint64_t *cut, uint32_t *prev)
{
	const struct lc_stamp *c = t->stamps ? &t->stamps[i] : NULL;
	struct lc_slot_view e;
	uint64_t head, j, when = 0;
	uint32_t after = st, n = 0;

	if (!c || !at)
		return 0;
	head = __atomic_load_n(&c->head, __ATOMIC_ACQUIRE);
	for (j = head; j > 0 && head - j < LC_STAMP_DEPTH; j--) {
		if (!(when = entry_read(c, j - 1, &e)))
			return 0;	/* being written */
		if (when <= last)
			break;		/* before the span */
		if (when > at || (e.state & 0xff) == after)
			continue;	/* after the instant, or a change of place */
		if (++n > 1)
			return 0;	/* two changes of state: no one cut */
		*cut = when;
		*prev = after = e.state & 0xff;
	}
	/* the ring ended inside the span: an older change may be lost */
	if (!n || (j > 0 && when > last))
		return 0;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&c->head, __ATOMIC_RELAXED) == head;
}

uint64_t lc_place_of(const struct lc_target *t, uint64_t w, uint32_t st, uint32_t sync,
		     uint64_t *obj)
{
	*obj = 0;
	if (!sync)
		return w;
	*obj = __atomic_load_n(&t->hdr->sync[sync - 1].obj, __ATOMIC_RELAXED);
	if (st == LC_ST_SYNC && LC_PLACE_KIND(w) != LC_PLACE_SYNC)
		w = lc_place_site(LC_PLACE_SYNC, LC_WAIT_USER, LC_TAG_MODULE_MAIN, LC_PLACE_NOADDR);
	return w;
}

/* ---- the rows of a window: an open-addressing table ---------------------- */

struct prow {
	struct lc_prof_place r;	/* window and source set when written */
	int used;
};

struct lc_placeacc {
	struct prow *tab;	/* cap entries, a power of 2 */
	uint32_t cap, n, nplaced;	/* rows, rows with a place other than 0 */
	uint32_t *order;	/* the used entries, in order of first use */
	struct lc_prof_place *out;	/* the rows of a block */
	uint64_t folded;
	struct lc_modres *mods;	/* the modules of the words met */
	uint8_t seen[2][256];	/* the "what" fields met, of MPI and sync words */
};

struct lc_placeacc *lc_placeacc_new(void)
{
	struct lc_placeacc *pa = calloc(1, sizeof(*pa));

	if (!pa)
		return NULL;
	pa->cap = 64;
	pa->tab = calloc(pa->cap, sizeof(*pa->tab));
	pa->order = calloc(pa->cap, sizeof(*pa->order));
	pa->mods = lc_modres_new();
	if (!pa->tab || !pa->order || !pa->mods) {
		lc_placeacc_free(pa);
		return NULL;
	}
	return pa;
}

void lc_placeacc_free(struct lc_placeacc *pa)
{
	if (!pa)
		return;
	lc_modres_free(pa->mods);
	LC_FREE_ALL(pa->tab, pa->order, pa->out, pa);
}

/* The hash of a row's key. */
static uint64_t key_hash(uint32_t thread, int32_t pid, uint64_t place, uint64_t obj)
{
	uint64_t h = ((uint64_t)thread << 32 | (uint32_t)pid) * 0x9e3779b97f4a7c15ull;

	h ^= place * 0xc2b2ae3d27d4eb4full;
	h ^= obj * 0x165667b19e3779f9ull;
	return h ^ (h >> 29);
}

/* The entry of the key in tab (cap a power of 2): its own, or the free one
 * where it goes. */
static struct prow *probe(struct prow *tab, uint32_t cap, uint32_t thread, int32_t pid,
			  uint64_t place, uint64_t obj)
{
	uint32_t i = (uint32_t)key_hash(thread, pid, place, obj) & (cap - 1);

	for (;; i = (i + 1) & (cap - 1)) {
		struct prow *e = &tab[i];

		if (!e->used || (e->r.thread == thread && e->r.pid == pid && e->r.place == place &&
				 e->r.obj == obj))
			return e;
	}
}

/* Double the table (and the order list); 0 or -ENOMEM. */
static int grow(struct lc_placeacc *pa)
{
	uint32_t cap = pa->cap * 2;
	struct prow *tab = calloc(cap, sizeof(*tab));
	uint32_t *order = calloc(cap, sizeof(*order));

	if (!tab || !order) {
		free(tab);
		free(order);
		return -ENOMEM;
	}
	for (uint32_t k = 0; k < pa->n; k++) {
		const struct prow *o = &pa->tab[pa->order[k]];
		struct prow *e = probe(tab, cap, o->r.thread, o->r.pid, o->r.place, o->r.obj);

		*e = *o;
		order[k] = (uint32_t)(e - tab);
	}
	free(pa->tab);
	free(pa->order);
	pa->tab = tab;
	pa->order = order;
	pa->cap = cap;
	return 0;
}

uint64_t *lc_placeacc_row(struct lc_placeacc *pa, uint32_t thread, int32_t pid, uint64_t place,
			  uint64_t obj)
{
	struct prow *e = probe(pa->tab, pa->cap, thread, pid, place, obj);

	if (e->used)
		return e->r.cat;
	if (place && pa->nplaced >= LC_PLACE_ROWS_MAX) {
		pa->folded++;
		return lc_placeacc_row(pa, thread, pid, 0, 0);
	}
	if (2 * (pa->n + 1) > pa->cap) {
		if (grow(pa))
			return NULL;
		e = probe(pa->tab, pa->cap, thread, pid, place, obj);
	}
	*e = (struct prow){ .used = 1,
			    .r = { .thread = thread, .pid = pid, .place = place, .obj = obj } };
	pa->order[pa->n++] = (uint32_t)(e - pa->tab);
	pa->nplaced += place != 0;
	if (LC_PLACE_KIND(place) == LC_PLACE_MPI || LC_PLACE_KIND(place) == LC_PLACE_SYNC)
		pa->seen[LC_PLACE_KIND(place) == LC_PLACE_SYNC][LC_PLACE_WHAT(place)] = 1;
	lc_modres_note(pa->mods, pid, place);
	return e->r.cat;
}

/* qsort order of rows: place word, object, thread. */
static int by_place(const void *x, const void *y)
{
	const struct lc_prof_place *a = x, *b = y;

	return a->place != b->place ? lc_cmp_u64(a->place, b->place) :
	       a->obj != b->obj     ? lc_cmp_u64(a->obj, b->obj) :
				      lc_cmp_u64(a->thread, b->thread);
}

int lc_placeacc_take(struct lc_placeacc *pa, uint8_t src, uint32_t window,
		     struct lc_prof_place **rows)
{
	uint32_t n = 0;
	void *p = realloc(pa->out, (pa->n ? pa->n : 1) * sizeof(*pa->out));

	if (p)
		pa->out = p;
	for (uint32_t k = 0; k < pa->n; k++) {
		struct prow *e = &pa->tab[pa->order[k]];

		e->used = 0;
		if (!p || (!e->r.place && !e->r.obj))
			continue;	/* the reader's: what the others leave */
		pa->out[n] = e->r;
		pa->out[n].source = src;
		pa->out[n++].window = window;
	}
	pa->n = 0;
	pa->nplaced = 0;
	if (!p)
		return -ENOMEM;
	qsort(pa->out, n, sizeof(*pa->out), by_place);	/* equal words in a row */
	*rows = pa->out;
	return (int)n;
}

uint64_t lc_placeacc_folded(const struct lc_placeacc *pa)
{
	return pa->folded;
}

/* ---- names and modules ----------------------------------------------------- */

/* The names block: the names lc_abi.h gives the "what" fields of the MPI
 * and sync place words met (none met: no block). */
static int write_names(const struct lc_placeacc *pa, struct lc_pwriter *w)
{
	static const uint8_t kinds[] = { LC_PLACE_MPI, LC_PLACE_SYNC };
	struct lc_prof_place_name names[2 * 256];
	uint32_t n = 0;

	for (size_t k = 0; k < sizeof(kinds); k++)
		for (uint32_t what = 0; what < 256; what++) {
			const char *name = lc_place_what_name(kinds[k], what);

			if (name && pa->seen[k][what])
				names[n++] = (struct lc_prof_place_name){ .kind = kinds[k],
									  .what = (uint8_t)what,
									  .name = (char *)name };
		}
	return n ? lc_pwriter_place_names(w, n, names) : 0;
}

int lc_placeacc_modules(struct lc_placeacc *pa, struct lc_pwriter *w)
{
	int r = write_names(pa, w);

	return r ? r : lc_modres_write(pa->mods, w, LC_PLACE_MODULES_WAIT_NS);
}
