/*
 * otf2.h — "export --otf2 DIR": a profile's timeline as an OTF2 archive
 * (Open Trace Format 2), which Vampir, Scalasca's tools and otf2-print read.
 *
 * The archive is DIR/traces.otf2 with its definitions (traces.def) and one
 * event file per location (traces/).  The system tree holds the machine,
 * its nodes (the hosts of a merged message-passing job's ranks, else the
 * recording's host) and one location group per process (named by its rank
 * in a job); each thread is a location (a CPU thread) of its process's
 * group.  Each category is a region (name "Load Imbalance", canonical
 * name its key "li", description its prose).  A thread's timeline is its
 * runs of categories as lc_timeline_runs lays them out (timeline.h): one
 * Enter and one Leave event per run, so that a thread's time in a region is
 * its time in that category to the nanosecond.  When threads were in
 * places (lc_places_new), each thread also has a place location (after
 * all the threads' locations) with a region per place (after the
 * categories' regions) and an Enter and a Leave per lc_place_runs run.
 * Timestamps are ns of
 * CLOCK_MONOTONIC (timer resolution 1e9); the global offset is the
 * recording's start (t0), the trace length reaches the last Leave, and the
 * realtime timestamp of the offset is the recording's wall-clock start.
 *
 * The library is optional at build time: without it, lc_otf2_supported()
 * is 0 and lc_otf2_write fails saying so.
 */
#ifndef LC_OTF2_H
#define LC_OTF2_H

#include <stddef.h>

#include "lc_profile.h"

/* 1 when this build writes OTF2 (libopen-trace-format2 found), else 0. */
int lc_otf2_supported(void);

/* Write source src of pr as the OTF2 archive DIR/traces.otf2.  DIR is
 * created when missing; an archive already there is not replaced.
 * Returns 0, or 1 with a one-line reason in msg (no data for the source,
 * an archive already in DIR, the library's error, no OTF2 support in this
 * build).  Prints nothing. */
int lc_otf2_write(const char *dir, const struct lc_profile *pr, enum lc_source src, char *msg,
		  size_t len);

#endif
