/*
 * replay.h — the exact profile from trace files: replay every logged
 * transition of a session in time order and charge the exact intervals
 * between them through the same accumulator as the sampler.
 */
#ifndef LC_REPLAY_H
#define LC_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "attr.h"
#include "lc_sched.h"
#include "targets.h"

struct lc_replay_stats {
	uint32_t files;		/* trace files read */
	uint64_t records;	/* records replayed */
	uint64_t bad;		/* records or files rejected */
};

/* Replay the trace files of session in dir over [t0, t_end) (CLOCK_MONOTONIC)
 * into acc, naming threads through threads.  A process's threads end at its
 * departure in dep (or at t_end).  The run-queue time (RC) comes from the
 * spans sched kept during the run (lc_sched_keep_spans), by the sampler's
 * rules; sched NULL or without a source: none.  Returns 0 or -errno with a
 * reason in err. */
int lc_replay(const char *dir, const char *session, uint64_t t0, uint64_t t_end,
	      const struct lc_departure *dep, uint32_t ndep, struct lc_accum *acc,
	      struct lc_threads *threads, const struct lc_sched *sched, struct lc_replay_stats *st,
	      char *err, size_t errlen);

/* Remove the trace files of session in dir.  Returns how many were removed. */
int lc_replay_cleanup(const char *dir, const char *session);

#endif /* LC_REPLAY_H */
