/*
 * report_machine.c — the machine's share of the program's CPUs in the
 * report's header and its JSON (see report.h and docs/format.md, machine
 * block).
 */
#include "report.h"

#include <inttypes.h>
#include <stdio.h>

#include "lc_emit.h"
#include "lc_util.h"

int lc_report_machine_text(FILE *out, const struct lc_profile *pr)
{
	const struct lc_prof_machine *m = &pr->machine_total;
	uint32_t dis = lc_machine_distorts(pr);

	if (!pr->nmachine)
		return 0;
	if (!m->total_ns) {
		fprintf(out, "** the machine: no complete measuring span\n");
		return 0;
	}
	fprintf(out, "** the machine: other processes %.1f %%, steal %.1f %%, the sampler %.1f %% "
		"of the %u CPUs the program could use (/proc/stat over %.3f s)\n",
		lc_machine_pct(m, LC_SHARE_OTHER), lc_machine_pct(m, LC_SHARE_STEAL),
		lc_machine_pct(m, LC_SHARE_SAMPLER), m->ncpus, lc_sec(m->len_ns));
	if (dis)
		fprintf(out, "** note: other processes and the hypervisor held %.1f %% of the "
			"program's CPUs (above %.0f %%): the categories marked * are distorted "
			"by that load\n", lc_machine_pct(m, LC_SHARE_LOAD), LC_MACHINE_LOAD_PCT);
	return 1;
}

const char *lc_report_mark(const struct lc_profile *pr, int c)
{
	return (lc_machine_distorts(pr) >> c) & 1 ? " *" : "";
}

/* {"start": s, "len": s, "other": %, ...} of one span. */
static void json_span(struct lc_doc *j, const char *key, const struct lc_prof_machine *m)
{
	lc_doc_obj(j, key, 0);
	lc_doc_num(j, "start", lc_sec(m->start_ns), 9);
	lc_doc_num(j, "len", lc_sec(m->len_ns), 9);
	lc_doc_uint(j, "cpus", m->ncpus);
	lc_doc_bool(j, "partial", m->flags & LC_MACH_PARTIAL);
	lc_doc_num(j, "other", lc_machine_pct(m, LC_SHARE_OTHER), 4);
	lc_doc_num(j, "steal", lc_machine_pct(m, LC_SHARE_STEAL), 4);
	lc_doc_num(j, "sampler", lc_machine_pct(m, LC_SHARE_SAMPLER), 4);
	lc_doc_num(j, "program", lc_machine_pct(m, LC_SHARE_PROGRAM), 4);
	lc_doc_end(j);
}

void lc_report_machine_json(struct lc_doc *j, const struct lc_profile *pr, int spans)
{
	const struct lc_prof_machine *m = &pr->machine_total;
	uint32_t dis = lc_machine_distorts(pr);

	if (!pr->nmachine || !m->total_ns) {
		lc_doc_null(j, "machine");
		return;
	}
	lc_doc_obj(j, "machine", 0);
	json_span(j, "percent", m);
	lc_doc_num(j, "threshold", LC_MACHINE_LOAD_PCT, 1);
	lc_doc_bool(j, "loaded", dis != 0);
	lc_doc_arr(j, "distorts", 0);
	for (int c = 0; c < LC_NCAT; c++)
		if ((dis >> c) & 1)
			lc_doc_str(j, NULL, lc_cat_info(c)->key);
	lc_doc_end(j);
	if (spans) {
		lc_doc_break(j);
		lc_doc_arr(j, "spans", LC_DOC_HANG);
		for (uint32_t i = 0; i < pr->nmachine; i++)
			json_span(j, NULL, &pr->machine[i]);
		lc_doc_end(j);
	}
	lc_doc_end(j);
}
