/*
 * slotsweep.h — which slots of a target the tick loop reads at a tick.
 *
 * A segment declares up to 65536 slots and its high-water mark says how
 * many were ever claimed; both are the program's to write.  Reading every
 * slot below the mark at every tick would let a segment of free slots cost
 * the tick loop 65536 reads per tick.  So the work per tick follows the
 * threads found, not the slots declared: every slot that holds a thread
 * the sampler accepted (the active list) is read at every tick, and the
 * other slots below the mark are swept in a window of at most
 * max(LC_SLOTSWEEP_MIN, LC_SLOTSWEEP_PER_THREAD x active) slots per tick that goes
 * round; where the mark is within that window, as for any program with a
 * few hundred threads or fewer, every slot is read at every tick, as
 * before.  The library claims the first free slot, so a new thread lands
 * low and is found at once there; in a segment swept by windows a thread
 * is found within mark / window ticks.  The tick loop's alone.
 */
#ifndef LC_SLOTSWEEP_H
#define LC_SLOTSWEEP_H

#include <stdint.h>

#include "targets.h"

#define LC_SLOTSWEEP_MIN 256u		/* slots read per tick, at least */
#define LC_SLOTSWEEP_PER_THREAD 4u		/* more per active thread */

/* One tick's walk over a target's slots. */
struct lc_slotsweep_it {
	struct lc_target *t;
	uint32_t hwm;		/* slots below it may be read */
	uint32_t prev;		/* the slot returned last, UINT32_MAX none */
	uint32_t k;		/* next entry of the active list (phase 1) */
	uint32_t nlisted;	/* active entries at the start of the tick */
	uint32_t left;		/* window slots still to read (phase 2) */
	int full;		/* every slot below hwm, in order */
};

/* Start the walk of target t's slots below hwm (already bounded by its
 * nslots) for this tick. */
void lc_slotsweep_begin(struct lc_slotsweep_it *it, struct lc_target *t, uint32_t hwm);

/* The next slot to read into *i; returns 0 when the tick's walk is over.
 * Each slot comes at most once per tick.  Between two calls the caller
 * reads slot *i and updates t->cache[*i] (thread >= 0 once accepted); the
 * next call lists or unlists the slot accordingly. */
int lc_slotsweep_next(struct lc_slotsweep_it *it, uint32_t *i);

/* Release the sweep state of t (its active list). */
void lc_slotsweep_free(struct lc_target *t);

#endif
