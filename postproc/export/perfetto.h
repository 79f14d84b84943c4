/*
 * perfetto.h — "report --timeline --format perfetto": the timeline as
 * Chrome trace event JSON, which Perfetto's UI (ui.perfetto.dev) and
 * chrome://tracing open without conversion.
 *
 * One process per profiled process (named by its rank and host when it is
 * part of a message-passing job), one track per thread with one slice per
 * run of a category, and a process "lostcycles" holding a counter track of
 * the processors in each category per window and one track per fragment
 * tag with a slice while the tag was open.  A thread's slices are its runs
 * as lc_timeline_runs lays them out (timeline.h).  When threads were in
 * places (where.h) and the windows keep their place rows, each thread also
 * has a place track (its tid + 2^22): a slice per lc_place_runs run, named
 * as report --where names it, args the seconds of its top places.  The
 * document goes through the one document writer (lc_emit.h's lc_doc_*) as
 * it is made, so its memory does not grow with the timeline's length.
 * Timestamps are microseconds with three decimals (exact ns); a
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

#endif
