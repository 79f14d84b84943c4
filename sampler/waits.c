/*
 * waits.c — the waits of threads for the waiters' rule (waits.h).
 */
#include "waits.h"

#include <errno.h>
#include <stdlib.h>

#include "lc_abi.h"
#include "lc_util.h"
#include "tidy.h"

/* Room for thread th in every array of w; 0 or -ENOMEM. */
static int waits_room(struct lc_waits *w, uint32_t th)
{
	size_t c1 = w->cap, c2 = w->cap;

	if (th < w->cap)
		return 0;
	if (lc_grow((void **)&w->since, &c1, (size_t)th + 1, sizeof(uint64_t)) ||
	    lc_grow((void **)&w->key, &c2, c1, sizeof(uint32_t)) ||
	    lc_grow((void **)&w->at, &w->cap, c1, sizeof(uint64_t)))
		return -ENOMEM;
	return 0;
}

int lc_waits_note(struct lc_waits *w, uint32_t th, uint32_t st, uint32_t key, uint64_t t)
{
	if (waits_room(w, th))
		return -ENOMEM;
	if (st != LC_ST_SYNC && st != LC_ST_IDLE) {
		w->since[th] = 0;
		return 0;
	}
	if (!w->since[th] || w->key[th] != key)
		w->since[th] = t;
	w->key[th] = key;
	w->at[th] = t;
	return 0;
}

void lc_waits_free(struct lc_waits *w)
{
	LC_FREE_ALL(w->since, w->at, w->key);
}
