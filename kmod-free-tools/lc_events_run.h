/*
 * lc_events_run.h — the outputs of "lostcycles events" (lc_events.h finds
 * the events): the table or JSON array of events, one event's description,
 * the check of named events.  They print results to out; a refusal comes
 * back as a reason for the command to print.
 */
#ifndef LC_EVENTS_RUN_H
#define LC_EVENTS_RUN_H

#include <stddef.h>
#include <stdio.h>

/* What to list: the events of pmu (NULL: the generic perf events, "all":
 * every PMU present), only those that open here (available), those whose
 * name or PMU::name matches one of the npat patterns pat (fnmatch,
 * ignoring case; none: all), as a JSON array (json) or a table. */
struct lc_events_list_req {
	const char *pmu;
	int available;
	int json;
	char *const *pat;
	int npat;
};

/* List the events rq asks for to out.  Returns 0, or 1 with the reason in
 * msg (no such PMU, no event matches, libpfm4 failed). */
int lc_events_print_list(FILE *out, const struct lc_events_list_req *rq, char *msg, size_t len);

/* Describe event name (encoding, status here and in another process, its
 * unit masks and modifiers) to out.  Returns 0 when it opens here, 1 when
 * not, -ENOENT (reason in msg) when libpfm4 does not know it. */
int lc_events_print_describe(FILE *out, const char *name, char *msg, size_t len);

/* One line (or JSON object) for each of the n names to out.  Returns 1
 * when one does not open here, else 0. */
int lc_events_print_probe(FILE *out, int n, char *const *names, int json);

#endif
