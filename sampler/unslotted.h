/*
 * unslotted.h — the threads of a target that have no slot.
 *
 * A segment has nslots slots (LOSTCYCLES_SLOTS, default 256); a thread that
 * finds none is refused (the header's slots_full counts it) and is never
 * profiled.  The discovery thread (targets.c) looks at each target whose
 * slots_full is not 0 at most every LC_UNSLOTTED_EVERY_NS: it lists
 * /proc/PID/task, leaves out the threads that hold a slot, and keeps, per
 * thread left, the largest run time its /proc/PID/task/TID/schedstat
 * showed.  A thread that lived and died between two looks is not seen, and
 * the time after the last look is not counted: the CPU time is a lower
 * bound.  Threads of the process that never set a flag (and so never asked
 * for a slot) are counted with them while slots are full: the process's
 * own segment cannot tell them apart.
 *
 * Every field is the discovery thread's alone (the writer of the registry);
 * nothing here is read by the tick loop.
 */
#ifndef LC_UNSLOTTED_H
#define LC_UNSLOTTED_H

#include <stdint.h>

struct lc_target;

#define LC_UNSLOTTED_EVERY_NS 200000000ull	/* a look per target at most every 200 ms */
#define LC_UNSLOTTED_MAX 65536u			/* threads kept per target */

/* What one target's threads without a slot came to. */
struct lc_unslotted {
	uint32_t refused;	/* the segment's slots_full, largest seen */
	uint32_t seen;		/* threads found in /proc without a slot */
	uint64_t cpu_ns;	/* their run time, at least */
};

/* Look at target t now (its process may be gone: then nothing is found).
 * force: look even when the last look was recent.  Returns 0, or -ENOMEM
 * (the threads not kept are not counted). */
int lc_unslotted_look(struct lc_target *t, uint64_t now, int force);

/* What t's looks found so far, added into *sum. */
void lc_unslotted_add(const struct lc_target *t, struct lc_unslotted *sum);

/* Free what t's looks keep (with the target). */
void lc_unslotted_free(struct lc_target *t);

#endif /* LC_UNSLOTTED_H */
