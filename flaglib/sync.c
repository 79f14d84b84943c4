/*
 * sync.c — the table of synchronization objects in the segment header
 * (LC_SYNC_BEGIN_ON, LC_NAME; docs/shm-abi.md, line 14).
 *
 * Lookups run on every LC_SYNC_BEGIN_ON, so each thread remembers the last
 * objects it named; a miss scans the published entries (at most
 * LC_MAX_SYNC) and enters a new object under the process lock.  Entries are
 * never removed: obj is written before sync_n counts it (release), so a
 * reader that loads sync_n with acquire sees every obj below it.
 */
#include <string.h>

#include "lc_internal.h"

#define SYNC_CACHE 4u

/* The calling thread's last objects and their ids (round robin), valid for
 * the segment hdr (a fork child or a new session has another table), once
 * ready: the thread has seen the library initialised with that segment, or
 * with none (hdr NULL: every id is 0). */
static __thread struct sync_cache {
	const struct lc_seg_hdr *hdr;
	uint64_t obj[SYNC_CACHE];
	uint32_t id[SYNC_CACHE];
	uint32_t next;
	uint32_t ready;
} cache;

/* The index + 1 of obj among the first n entries, or 0. */
static uint32_t find(const struct lc_seg_hdr *h, uint32_t n, uint64_t obj)
{
	for (uint32_t i = 0; i < n; i++)
		if (__atomic_load_n(&h->sync[i].obj, __ATOMIC_RELAXED) == obj)
			return i + 1;
	return 0;
}

/* Enter obj (under plock); its index + 1, or 0 when the table is full. */
static uint32_t enter(struct lc_seg_hdr *h, uint64_t obj)
{
	uint32_t n, id;

	pthread_mutex_lock(&lc_priv_g.plock);
	n = __atomic_load_n(&h->sync_n, __ATOMIC_RELAXED);
	id = find(h, n, obj);
	if (!id && n < LC_MAX_SYNC) {
		__atomic_store_n(&h->sync[n].obj, obj, __ATOMIC_RELAXED);
		__atomic_store_n(&h->sync_n, n + 1, __ATOMIC_RELEASE);
		id = n + 1;
	} else if (!id) {
		__atomic_fetch_add(&h->sync_full, 1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&lc_priv_g.plock);
	return id;
}

/* lc_sync_id past the thread's cache: initialise the library, then find
 * or enter obj and remember it. */
static __attribute__((noinline)) uint32_t sync_id_slow(struct sync_cache *c, uint64_t obj)
{
	struct lc_seg_hdr *h;
	uint32_t id;

	lc_priv_init();
	h = lc_priv_g.hdr;
	if (c->hdr != h || !c->ready) {
		memset(c, 0, sizeof(*c));
		c->hdr = h;
		c->ready = 1;
	}
	if (!h)
		return 0;
	id = find(h, __atomic_load_n(&h->sync_n, __ATOMIC_ACQUIRE), obj);
	if (!id)
		id = enter(h, obj);
	if (id) {
		c->obj[c->next] = obj;
		c->id[c->next] = id;
		c->next = (c->next + 1) % SYNC_CACHE;
	}
	return id;
}

/*
 * Every LC_SYNC_BEGIN_ON calls this, so its common case is the thread's
 * cache alone.  In a PIC library each use of a __thread variable may cost a
 * __tls_get_addr call, and gcc makes the call again for each use rather
 * than keep the address (twice per lookup: most of what a BEGIN_ON cost):
 * the empty asm hands it the address as a value it must keep, so a lookup
 * makes one call.  The slow path, out of line, does not make the common
 * case save registers either.
 */
LC_API uint32_t lc_sync_id(uint64_t obj)
{
	struct sync_cache *c = &cache;

	__asm__("" : "+r"(c));
	if (LC_UNLIKELY(!c->ready || c->hdr != lc_priv_g.hdr))
		return sync_id_slow(c, obj);
	if (!c->hdr)
		return 0;	/* no session */
	for (uint32_t i = 0; i < SYNC_CACHE; i++)
		if (c->id[i] && c->obj[i] == obj)
			return c->id[i];
	return sync_id_slow(c, obj);
}

/* Forget the calling thread's cache (test hook: a new segment may be mapped
 * where the old one was). */
void lc_priv_sync_forget(void)
{
	memset(&cache, 0, sizeof(cache));
}

LC_API void lc_sync_name(uint64_t obj, const char *name)
{
	uint32_t id = lc_sync_id(obj), seq;
	struct lc_sync_entry *e;
	size_t n;

	if (!id || !name)
		return;
	e = &lc_priv_g.hdr->sync[id - 1];
	n = strnlen(name, sizeof(e->name) - 1);
	pthread_mutex_lock(&lc_priv_g.plock);
	seq = __atomic_load_n(&e->seq, __ATOMIC_RELAXED);
	__atomic_store_n(&e->seq, seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	for (size_t i = 0; i < sizeof(e->name); i++)
		__atomic_store_n(&e->name[i], i < n ? name[i] : 0, __ATOMIC_RELAXED);
	__atomic_store_n(&e->seq, seq + 2, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&lc_priv_g.plock);
}
