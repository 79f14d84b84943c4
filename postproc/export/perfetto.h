/*
 * perfetto.h — "report --timeline --format perfetto": the timeline as
 * Chrome trace event JSON, which Perfetto's UI (ui.perfetto.dev) and
 * chrome://tracing open without conversion.
 *
 * One process per profiled process (named by its rank and host when it is
 * part of a message-passing job), one track per thread with one slice per
 * run of a category, and a process "lostcycles" holding a counter track of
 * the processors in each category per window and one track per fragment
 * tag with a slice while the tag was open.  When threads were in places
 * (where.h) and the windows keep their place rows, each thread also has a
 * place track (its tid + 2^22): a slice per run of windows that one place
 * held most of the thread's time in, named as report --where names it,
 * spanning what the thread's own slices span, args the seconds of its top
 * places.  The profile holds times per
 * window, not the order of states inside a window: a thread's slices of a
 * window are laid end to end from the window's start, the category of the
 * previous window's last slice first, so that a run spanning windows is one
 * slice.  Timestamps are microseconds with three decimals (exact ns); a
 * slice's duration is the double that, added to its ts as a reader parses
 * both, gives exactly the ts of the slice that follows it (within far less
 * than 1 ns of the exact duration), so that readers that sum in doubles
 * (Chrome's trace parser) see slices meet instead of overlap.
 */
#ifndef LC_PERFETTO_H
#define LC_PERFETTO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lc_profile.h"

/* Write source src of pr to out.  tag_name(tag_arg, tag) names a fragment
 * tag or returns NULL (tag_name may be NULL).  Returns 0, or 1 with the
 * reason in msg (no data for the source, out of memory). */
int lc_perfetto_write(FILE *out, const struct lc_profile *pr, enum lc_source src,
		      const char *(*tag_name)(const void *, int64_t), const void *tag_arg,
		      char *msg, size_t len);

/* Called with each run of one category of a thread: [start_ns, end_ns)
 * after t0.  Returns 0 to go on, else stops the walk with that value. */
typedef int (*lc_run_fn)(void *arg, int cat, uint64_t start_ns, uint64_t end_ns);

/* The runs of thread t (its index in the profile) in the timeline of d,
 * laid out as above (the windows' categories end to end, the previous
 * run's category first, shrunk where a window holds more than fits before
 * the next one), in time order: fn(arg, ...) once per run, never two
 * adjacent runs of one category.  The one layout of the Chrome JSON and
 * the OTF2 export.  Returns 0 or the first non-zero return of fn. */
int lc_timeline_runs(const struct lc_prof_data *d, uint32_t t, lc_run_fn fn, void *arg);

/* The places of a profile laid out as place tracks: per thread, a run per
 * stretch of windows that one place held most of that thread's time in
 * (its name as report --where prints it, "(elsewhere)" for none), each
 * window spanning what lc_timeline_runs spans of it.  Places are named
 * once, when made. */
/* Whether the place tracks of source src need pr read again whole (a
 * profile read in bounded memory drops each window's place rows): 0 no (no
 * thread of pr was in a place), 1 yes, -1 they cannot be had (windows were
 * merged). */
int lc_perfetto_needs_places(const struct lc_profile *pr, enum lc_source src);

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
