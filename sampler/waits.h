/*
 * waits.h — the waits of threads, by profile thread, as the tick loop and
 * the trace replay both keep them for the waiters' rule (a waiter whose
 * event has happened waits for a CPU, not for a partner: DESIGN.md) and
 * for the partners' rule (a wait for a partner that waits for a CPU is
 * resource contention: lc_waits_partners).
 * Written and read by one thread (the sampling thread, or the replay).
 */
#ifndef LC_WAITS_H
#define LC_WAITS_H

#include <stddef.h>
#include <stdint.h>

#include "attr.h"

struct lc_awaited;

struct lc_waits {
	uint64_t *since;	/* when the thread's wait began, 0: not waiting */
	uint64_t *at;		/* when it was last seen waiting */
	uint32_t *key;		/* the state and work_exists of that wait */
	uint8_t *began;		/* it was idle when work began and still is:
				 * a worker the fork has not reached yet */
	size_t cap;
	/* the partners' rule, by profile thread (lc_waits_partners) */
	uint64_t *rq;		/* run-queue time since it last left a wait */
	uint64_t *base;		/* while it waits: its rq when the wait began */
	uint64_t *used;		/* ... and the wait's time charged to RC so far */
	uint64_t *late;		/* ... and its run-queue time that was RC (its
				 * event had happened): where its next rq starts */
	uint8_t *waited;	/* it was waiting at the previous interval */
	size_t pcap;
	struct lc_awaited *aw;	/* by process of the interval (waits.c) */
	int on;			/* the partners' rule and the two-part charge
				 * are on (lc_waits_rule_asked) */
	uint32_t ncpus;		/* the machine's CPUs (0: not known): with the
				 * program's own computing threads filling
				 * them, the partners' rule does not apply */
	size_t awcap;
};

/* Note thread th seen at t in state st, key its state and work_exists
 * (st | we << 8): a wait in another state, or after work began or ended
 * (a worker idle at a loop's end, then between regions), waits for another
 * event and begins anew.  0, or -ENOMEM. */
int lc_waits_note(struct lc_waits *w, uint32_t th, uint32_t st, uint32_t key, uint64_t t);

/*
 * The partners' rule (lostcycles(1), "Waits for a partner that waits for a
 * CPU").  A thread that waits (SYNC or IDLE while work exists) waits for
 * someone: the other BUSY threads of its process, and those idle since
 * work began (members the fork has not reached: lc_waits_work_began); an
 * MPI rank, the BUSY threads of the other ranks on this node.  Over an interval of dt in which
 * o's thread i was runnable but not running for rq[i] (whatever its state),
 * set each waiter's partner_ns, the part of its wait that is the machine's:
 *   (a) while every awaited thread waits in a run queue (the least of their
 *       run-queue times in the interval), and
 *   (b) beyond that, what the awaited threads' own run-queue time since
 *       they last left a wait explains: the largest of them, less the
 *       waiter's own run-queue time before its wait began (both were slowed
 *       alike: only the difference makes it late), less what this wait was
 *       already charged.
 * Only the rest of a wait (the awaited thread's extra computation) stays
 * load imbalance or synchronization loss.  A thread whose prev_state (a
 * change inside the interval) was a wait left a wait there: rq[] is then
 * its run-queue time after the change.  Call after lc_waits_note of the
 * same interval at the same t.  0, or -ENOMEM (partner_ns left 0).
 */
int lc_waits_partners(struct lc_waits *w, const struct lc_obs *o, struct lc_obs_thread *th,
		      const uint64_t *rq, uint64_t t, uint64_t dt);

/* Whether thread th (noted) was idle when work began and is still idle:
 * the event it waits for (the work) has happened, and the time it spends
 * in a run queue is waiting for a CPU. */
static inline int lc_waits_work_began(const struct lc_waits *w, uint32_t th)
{
	return th < w->cap && w->began[th];
}

/* Free w's arrays (not w). */
void lc_waits_free(struct lc_waits *w);

/* Whether LC_PARTNER_RULE=1 asks for the partners' rule (a wait for a
 * partner that waits for a CPU is resource contention) and the two-part
 * charge of a tick with one change of state.  Off by default: on a quiet
 * 2-CPU machine without a spare CPU the sampler's own ticks queue the
 * program's threads, and the rule then moved lock and barrier waits out of
 * SL and LI (docs/openmp-pthreads.md). */
int lc_waits_rule_asked(void);

#endif /* LC_WAITS_H */
