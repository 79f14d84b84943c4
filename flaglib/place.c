/*
 * place.c — where each thread is (ABI 1.4, docs/shm-abi.md "Places"): a
 * per-thread stack of place words whose innermost entry is stored, with
 * one relaxed store, into the thread's place cell of the segment, and the
 * module field and link-time address of a code address, which the layers
 * put into the words they push.
 */
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>

#include "lc_auto.h"
#include "lc_internal.h"

#define SITE_CACHE 64u		/* per-thread code addresses, direct-mapped */

/* The calling thread's places: only it touches this.  cell is the place
 * cell of its slot, or own while it has none (no session, no free slot,
 * trace mode's threads too: their cells are read by the live sampler);
 * stamp its stamp, NULL when it has none, changes the changes stamped in
 * it, group the time of the first store of the last one and kinds what it
 * changed (LC_STAMP_STATE, LC_STAMP_PLACE). */
static __thread struct lc_places {
	uint64_t *cell;
	struct lc_stamp *stamp;
	uint64_t changes, group;
	uint32_t kinds;
	uint32_t depth;		/* pushed and not popped (may exceed the stack) */
	uint64_t stack[LC_PLACE_DEPTH];
	uint64_t own;
} places;

static __thread struct site_cache {
	const void *ra;
	uint64_t site;
} sites[SITE_CACHE];

/* Whether segment h (mapped with lc_priv_g.seg_size bytes) has the cells
 * of layout flag f for its slot i. */
static int has_cells(const struct lc_seg_hdr *h, uint32_t f, uint32_t i)
{
	return h && (h->flags & f) && i < h->nslots &&
	       lc_priv_g.seg_size >= lc_seg_size_of(h->flags & (LC_SEG_PLACES | LC_SEG_STAMPS),
						    h->nslots);
}

/* Point the calling thread at the place cell and stamp of slot i of h (h
 * NULL, or without them: its private cell and no stamp), in no place,
 * leaving the cell it had at 0.  Called when the thread gets or gives up
 * a slot. */
void lc_priv_place_bind(struct lc_seg_hdr *h, uint32_t i)
{
	if (places.cell)
		__atomic_store_n(places.cell, 0, __ATOMIC_RELAXED);
	places.cell = has_cells(h, LC_SEG_PLACES, i) ? &lc_seg_places(h)[i] : &places.own;
	places.stamp = has_cells(h, LC_SEG_STAMPS, i) ? &lc_seg_stamps(h)[i] : NULL;
	places.depth = 0;
	places.changes = 0;
	__atomic_store_n(places.cell, 0, __ATOMIC_RELAXED);
	if (places.stamp)
		__atomic_store_n(&places.stamp->head, 0, __ATOMIC_RELEASE);
}

/* Forget the calling thread's places (fork child, test hook). */
void lc_priv_place_forget(void)
{
	places.cell = NULL;
	places.stamp = NULL;
	places.depth = 0;
}

void lc_priv_stamp(uint32_t kind)
{
	struct lc_stamp *c = places.stamp;
	const struct lc_slot *sl = lc_priv_thr.sp;
	struct lc_stamp_entry *e;
	uint64_t now, n;

	if (!c || !sl)
		return;
	now = lc_clock_ns();
	n = places.changes;
	if (n && now - places.group < LC_STAMP_GROUP_NS && !(places.kinds & kind)) {
		places.kinds |= kind;	/* the same change: its time moves on */
		__atomic_store_n(&c->e[(n - 1) % LC_STAMP_DEPTH].t_ns, now ? now : 1,
				 __ATOMIC_RELEASE);
		return;
	}
	places.group = now;
	places.kinds = kind;
	places.changes = n + 1;
	e = &c->e[n % LC_STAMP_DEPTH];
	__atomic_store_n(&c->head, n + 1, __ATOMIC_RELEASE);
	__atomic_store_n(&e->t_ns, 0, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&e->state, __atomic_load_n(&sl->state, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
	__atomic_store_n(&e->flags, __atomic_load_n(&sl->flags, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
	__atomic_store_n(&e->place, __atomic_load_n(places.cell, __ATOMIC_RELAXED),
			 __ATOMIC_RELAXED);
	__atomic_store_n(&e->t_ns, now ? now : 1, __ATOMIC_RELEASE);
}

/* The cell the calling thread stores into, registering it first. */
static uint64_t *cell(void)
{
	if (LC_UNLIKELY(!places.cell)) {
		lc_priv_thread_ensure();
		if (!places.cell)
			lc_priv_place_bind(NULL, 0);
	}
	return places.cell;
}

LC_API void lc_auto_place_push(uint64_t word)
{
	uint64_t *c = cell();

	if (places.depth >= LC_PLACE_DEPTH) {
		places.depth++;
		if (lc_priv_g.hdr && c != &places.own)
			__atomic_fetch_add(&lc_priv_g.hdr->places_deep, 1, __ATOMIC_RELAXED);
		return;
	}
	places.stack[places.depth++] = word;
	lc_priv_stamp(LC_STAMP_PLACE);
	__atomic_store_n(c, word, __ATOMIC_RELAXED);
}

LC_API void lc_auto_place_pop(void)
{
	uint64_t *c = cell();

	if (!places.depth)
		return;
	if (--places.depth >= LC_PLACE_DEPTH)
		return;	/* an overflowed level: the outer place stayed */
	lc_priv_stamp(LC_STAMP_PLACE);
	__atomic_store_n(c, places.depth ? places.stack[places.depth - 1] : 0, __ATOMIC_RELAXED);
}

/* The module field for the object described by lm (lc_abi.h). */
static uint32_t module_of(const struct link_map *lm)
{
	char path[PATH_MAX];

	if (!lm->l_name || !lm->l_name[0])
		return LC_TAG_MODULE_MAIN;	/* the main program has no name */
	if (!realpath(lm->l_name, path))
		return lc_tag_module_hash(lm->l_name);
	return lc_tag_module_hash(path);
}

/* The site of ra (cache miss): ask the dynamic loader which object holds
 * it and at which load bias. */
static uint64_t site_compute(const void *ra)
{
	struct link_map *lm = NULL;
	uint64_t vaddr = (uintptr_t)ra;
	uint32_t module = LC_TAG_MODULE_UNKNOWN;
	Dl_info info;

	if (dladdr1(ra, &info, (void **)&lm, RTLD_DL_LINKMAP) && lm) {
		module = module_of(lm);
		vaddr -= lm->l_addr;
	}
	return lc_place_omp(0, module, vaddr);
}

LC_API uint64_t lc_auto_code_site(const void *ra)
{
	struct site_cache *c;

	if (!ra)
		return 0;
	c = &sites[((uintptr_t)ra >> 2) % SITE_CACHE];
	if (c->ra != ra) {
		c->site = site_compute(ra);
		c->ra = ra;
	}
	return c->site;
}

LC_API uint64_t lc_auto_site_word(uint32_t kind, uint32_t what, const void *ra)
{
	uint64_t s = lc_auto_code_site(ra);

	if (!s)
		return lc_place_site(kind, what, LC_TAG_MODULE_UNKNOWN, LC_PLACE_NOADDR);
	return lc_place_site(kind, what, (uint32_t)(s >> 40) & 0xffffu, s & 0xffffffffffull);
}
