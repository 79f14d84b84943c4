/*
 * report_limits.c — what a recording could not keep apart (the end
 * block's limits, docs/format.md): threads that found no flag slot, and
 * fragment tags beyond the cap.  Lines of the text report and fields of
 * its JSON.
 */
#include "report.h"

#include <inttypes.h>
#include <stdio.h>

#include "lc_emit.h"
#include "lc_profile.h"

/* The unslotted threads' CPU time as a share of p x wall, or -1. */
static double unslotted_share(const struct lc_profile *pr)
{
	double pw = (double)pr->end.procs * (double)pr->end.end_ns;

	return pw > 0 ? 100.0 * (double)pr->end.unslotted_cpu_ns / pw : -1;
}

void lc_report_limits(const struct lc_profile *pr)
{
	const struct lc_prof_end *e = &pr->end;

	if (!pr->ended || !e->limits)
		return;
	if (e->unslotted || e->unslotted_seen) {
		printf("** warning: %" PRIu32 " thread(s) were not profiled: their process's flag "
		       "slots were full (record --slots N gives more); %" PRIu32 " thread(s) "
		       "without a slot were seen, their CPU time at least %.3f s",
		       e->unslotted, e->unslotted_seen, (double)e->unslotted_cpu_ns / 1e9);
		if (unslotted_share(pr) >= 0)
			printf(" (%.1f %% of p x wall)", unslotted_share(pr));
		printf("\n");
	}
	if (e->tags_over)
		printf("** note: fragment tags beyond the first %" PRIu32 " distinct ones were open "
		       "at %" PRIu64 " tick(s): their time is in the row of 'other tags' "
		       "(tag %" PRId64 ")\n", e->tags_cap, e->tags_over, (int64_t)LC_TAG_OTHER);
}

void lc_report_limits_json(struct lc_doc *j, const struct lc_profile *pr)
{
	const struct lc_prof_end *e = &pr->end;

	if (!pr->ended || !e->limits)
		return;
	lc_doc_uint(j, "threads_not_profiled", e->unslotted);
	lc_doc_uint(j, "threads_without_slot_seen", e->unslotted_seen);
	lc_doc_num(j, "threads_without_slot_cpu", (double)e->unslotted_cpu_ns / 1e9, 9);
	lc_doc_uint(j, "tags_cap", e->tags_cap);
	lc_doc_uint(j, "tags_over_ticks", e->tags_over);
}
