/*
 * report_machine.c — the machine's share of the program's CPUs in the
 * report's header and its JSON (see report.h and docs/format.md, machine
 * block).
 */
#include "report.h"

#include <inttypes.h>
#include <stdio.h>

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
static void json_span(FILE *out, const struct lc_prof_machine *m)
{
	fprintf(out, "{\"start\": %.9f, \"len\": %.9f, \"cpus\": %u, \"partial\": %s, "
		"\"other\": %.4f, \"steal\": %.4f, \"sampler\": %.4f, \"program\": %.4f}",
		lc_sec(m->start_ns), lc_sec(m->len_ns), m->ncpus,
		m->flags & LC_MACH_PARTIAL ? "true" : "false", lc_machine_pct(m, LC_SHARE_OTHER),
		lc_machine_pct(m, LC_SHARE_STEAL), lc_machine_pct(m, LC_SHARE_SAMPLER),
		lc_machine_pct(m, LC_SHARE_PROGRAM));
}

void lc_report_machine_json(FILE *out, const struct lc_profile *pr, int spans)
{
	const struct lc_prof_machine *m = &pr->machine_total;
	uint32_t dis = lc_machine_distorts(pr);
	int first = 1;

	fprintf(out, "  \"machine\": ");
	if (!pr->nmachine || !m->total_ns) {
		fprintf(out, "null,\n");
		return;
	}
	fprintf(out, "{\"percent\": ");
	json_span(out, m);
	fprintf(out, ", \"threshold\": %.1f, \"loaded\": %s, \"distorts\": [", LC_MACHINE_LOAD_PCT,
		dis ? "true" : "false");
	for (int c = 0; c < LC_NCAT; c++)
		if ((dis >> c) & 1) {
			fprintf(out, "%s\"%s\"", first ? "" : ", ", lc_cat_info(c)->key);
			first = 0;
		}
	fprintf(out, "]");
	if (spans) {
		fprintf(out, ",\n    \"spans\": [");
		for (uint32_t i = 0; i < pr->nmachine; i++) {
			fprintf(out, "%s\n      ", i ? "," : "");
			json_span(out, &pr->machine[i]);
		}
		fprintf(out, "]");
	}
	fprintf(out, "},\n");
}
