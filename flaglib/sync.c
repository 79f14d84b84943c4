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
 * the segment hdr (a fork child or a new session has another table). */
static __thread struct {
	const struct lc_seg_hdr *hdr;
	uint64_t obj[SYNC_CACHE];
	uint32_t id[SYNC_CACHE];
	uint32_t next;
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

LC_API uint32_t lc_sync_id(uint64_t obj)
{
	struct lc_seg_hdr *h;
	uint32_t id;

	if (cache.hdr && cache.hdr == lc_priv_g.hdr)
		for (uint32_t i = 0; i < SYNC_CACHE; i++)
			if (cache.id[i] && cache.obj[i] == obj)
				return cache.id[i];
	lc_priv_init();
	h = lc_priv_g.hdr;
	if (!h)
		return 0;
	if (cache.hdr != h) {
		memset(&cache, 0, sizeof(cache));
		cache.hdr = h;
	}
	id = find(h, __atomic_load_n(&h->sync_n, __ATOMIC_ACQUIRE), obj);
	if (!id)
		id = enter(h, obj);
	if (id) {
		cache.obj[cache.next] = obj;
		cache.id[cache.next] = id;
		cache.next = (cache.next + 1) % SYNC_CACHE;
	}
	return id;
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
