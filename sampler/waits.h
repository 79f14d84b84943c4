/*
 * waits.h — the waits of threads, by profile thread, as the tick loop and
 * the trace replay both keep them for the waiters' rule (a waiter whose
 * event has happened waits for a CPU, not for a partner: DESIGN.md).
 * Written and read by one thread (the sampling thread, or the replay).
 */
#ifndef LC_WAITS_H
#define LC_WAITS_H

#include <stddef.h>
#include <stdint.h>

struct lc_waits {
	uint64_t *since;	/* when the thread's wait began, 0: not waiting */
	uint64_t *at;		/* when it was last seen waiting */
	uint32_t *key;		/* the state and work_exists of that wait */
	size_t cap;
};

/* Note thread th seen at t in state st, key its state and work_exists
 * (st | we << 8): a wait in another state, or after work began or ended
 * (a worker idle at a loop's end, then between regions), waits for another
 * event and begins anew.  0, or -ENOMEM. */
int lc_waits_note(struct lc_waits *w, uint32_t th, uint32_t st, uint32_t key, uint64_t t);

/* Free w's arrays (not w). */
void lc_waits_free(struct lc_waits *w);

#endif /* LC_WAITS_H */
