/*
 * slotsweep.c — the slots of a target read at a tick (see slotsweep.h).
 */
#include "slotsweep.h"

#include <stdlib.h>

#include "lc_util.h"

/* Add slot i to t's active list (it holds an accepted thread). */
static void list_add(struct lc_target *t, uint32_t i)
{
	if (lc_grow((void **)&t->active, &t->active_cap, (size_t)t->nactive + 1,
		    sizeof(*t->active)))
		return;		/* out of memory: found again by the window */
	t->active[t->nactive++] = i;
	t->listed[i] = 1;
}

/* Settle the slot read last: list it when it now holds an accepted thread.
 * Entries that no longer do leave the list at the end of the walk. */
static void settle(struct lc_slotsweep_it *it)
{
	struct lc_target *t = it->t;

	if (it->prev != UINT32_MAX && t->listed && t->cache[it->prev].thread >= 0 &&
	    !t->listed[it->prev])
		list_add(t, it->prev);
	it->prev = UINT32_MAX;
}

/* Drop the entries that hold no accepted thread any more, or lie at or
 * above the mark (they are read again when the window finds them). */
static void compact(struct lc_slotsweep_it *it)
{
	struct lc_target *t = it->t;
	uint32_t k = 0;

	for (uint32_t j = 0; j < t->nactive; j++) {
		uint32_t i = t->active[j];

		if (i < it->hwm && t->cache[i].thread >= 0)
			t->active[k++] = i;
		else
			t->listed[i] = 0;
	}
	t->nactive = k;
}

void lc_slotsweep_begin(struct lc_slotsweep_it *it, struct lc_target *t, uint32_t hwm)
{
	uint64_t window = (uint64_t)LC_SLOTSWEEP_PER_THREAD * t->nactive;

	if (window < LC_SLOTSWEEP_MIN)
		window = LC_SLOTSWEEP_MIN;
	if (!t->listed)		/* without it (out of memory), every slot */
		t->listed = calloc(t->nslots, 1);
	if (!t->listed)
		window = UINT32_MAX;
	*it = (struct lc_slotsweep_it){ .t = t, .hwm = hwm, .prev = UINT32_MAX,
				    .nlisted = t->nactive, .full = hwm <= window,
				    .left = hwm <= window ? hwm : (uint32_t)window };
	if (t->cursor >= hwm)
		t->cursor = 0;
}

int lc_slotsweep_next(struct lc_slotsweep_it *it, uint32_t *i)
{
	struct lc_target *t = it->t;

	settle(it);
	if (it->full) {		/* every slot, in order: 0 .. hwm-1 */
		if (!it->left)
			goto done;
		*i = it->hwm - it->left--;
		it->prev = *i;
		return 1;
	}
	while (it->k < it->nlisted) {	/* phase 1: the threads found */
		uint32_t j = t->active[it->k++];

		if (j < it->hwm && t->cache[j].thread >= 0) {
			*i = it->prev = j;
			return 1;
		}
	}
	while (it->left) {	/* phase 2: the window over the others */
		uint32_t j = t->cursor;

		t->cursor = j + 1 < it->hwm ? j + 1 : 0;
		it->left--;
		if (t->listed[j])
			continue;	/* read in phase 1 */
		*i = it->prev = j;
		return 1;
	}
done:
	if (t->listed)
		compact(it);
	return 0;
}

void lc_slotsweep_free(struct lc_target *t)
{
	free(t->active);
	free(t->listed);
	t->active = NULL;
	t->listed = NULL;
	t->nactive = 0;
}
