/*
 * timeline.h — the one layout of a profile's timeline that the exports
 * share (perfetto.h's Chrome trace JSON, otf2.h's OTF2 archive): a
 * thread's runs of categories, and the runs of the places it was in.
 *
 * The profile holds times per window, not the order of states inside a
 * window: a thread's categories of a window are laid end to end from the
 * window's start, the category of the previous window's last run first, so
 * that a run spanning windows is one run; a window that holds more than
 * fits before the next one starts (a merged job's window may hold a node
 * window that began before it) is shrunk in proportion, so that a thread's
 * runs never overlap.
 *
 * When threads were in places (where.h) and the windows keep their place
 * rows, each thread also has place runs: a run per stretch of windows that
 * one place held most of that thread's time in (its name as report --where
 * prints it, "(elsewhere)" for none), each window spanning what
 * lc_timeline_runs spans of it.  Nothing here prints.
 */
#ifndef LC_TIMELINE_H
#define LC_TIMELINE_H

#include <stdint.h>

#include "lc_profile.h"

/* Called with each run of one category of a thread: [start_ns, end_ns)
 * after t0.  Returns 0 to go on, else stops the walk with that value. */
typedef int (*lc_run_fn)(void *arg, int cat, uint64_t start_ns, uint64_t end_ns);

/* The runs of thread t (its index in the profile) in the timeline of d,
 * laid out as above, in time order: fn(arg, ...) once per run, never two
 * adjacent runs of one category.  Returns 0 or the first non-zero return
 * of fn. */
int lc_timeline_runs(const struct lc_prof_data *d, uint32_t t, lc_run_fn fn, void *arg);

/* The empty processor slots (p slots less the threads at a tick; report
 * --per-thread's "(empty slots)" row, Load Imbalance while work existed,
 * Insufficient Parallelism otherwise) as tracks: how many tracks d needs
 * (at most p), so that in every window its slots' time, laid end to end
 * over the tracks, fits. */
uint32_t lc_timeline_empty_slots(const struct lc_profile *pr, const struct lc_prof_data *d);

/* The runs of empty-slot track slot (0 .. lc_timeline_empty_slots - 1) of
 * d, in time order: per window, the slots' time of each category laid end
 * to end from the first track's start to the last's, track slot holding
 * its share, so that the tracks' time per category sums to the empty
 * slots' (report --per-thread's row).  0 or fn's first non-zero return. */
int lc_timeline_empty_runs(const struct lc_profile *pr, const struct lc_prof_data *d,
			   uint32_t slot, lc_run_fn fn, void *arg);

/* Whether the place runs of source src need pr read again whole (a
 * profile read in bounded memory drops each window's place rows): 0 no (no
 * thread of pr was in a place), 1 yes, -1 they cannot be had (windows were
 * merged). */
int lc_timeline_needs_places(const struct lc_profile *pr, enum lc_source src);

/* The places of a profile laid out as place runs.  Places are named once,
 * when made. */
struct lc_places;

/* The places of source src of pr into *out: NULL when there are none to
 * lay out (no thread was in a place, or the windows were read without
 * their place rows: lc_read_opts not all 0).  0, or -ENOMEM. */
int lc_places_new(const struct lc_profile *pr, enum lc_source src, struct lc_places **out);

/* How many places pl holds, numbered from 0 ("(elsewhere)" last). */
uint32_t lc_places_count(const struct lc_places *pl);

/* The name of place i of pl. */
const char *lc_places_name(const struct lc_places *pl, uint32_t i);

/* Called with each place run of a thread: [start_ns, end_ns) after t0,
 * held most by place.  Returns 0 to go on, else stops the walk. */
typedef int (*lc_place_fn)(void *arg, const struct lc_places *pl, uint32_t place,
			   uint64_t start_ns, uint64_t end_ns);

/* Inside an lc_place_fn: the (at most n) places with the most of the
 * thread's time in the run into place[] and ns[], most first; how many. */
uint32_t lc_places_top(const struct lc_places *pl, uint32_t n, uint32_t *place, uint64_t *ns);

/* The place runs of thread t in d (the data pl was made from), in time
 * order, never two adjacent runs of one place.  0 or fn's return. */
int lc_place_runs(struct lc_places *pl, const struct lc_prof_data *d, uint32_t t, lc_place_fn fn,
		  void *arg);

/* Free pl; accepts NULL. */
void lc_places_free(struct lc_places *pl);

#endif
