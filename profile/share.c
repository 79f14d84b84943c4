/*
 * share.c — the machine's share of the program's CPUs, as analysis reads
 * it (lc_profile.h; the sampler side is sampler/machine.c).
 */
#include "lc_profile.h"

double lc_machine_pct(const struct lc_prof_machine *m, enum lc_share what)
{
	double v;	/* a sum of two u64 can pass 2^64: summed as doubles */

	if (!m || !m->total_ns)
		return -1;
	switch (what) {
	case LC_SHARE_OTHER:
		v = (double)m->other_ns;
		break;
	case LC_SHARE_SAMPLER:
		v = (double)m->sampler_ns;
		break;
	case LC_SHARE_STEAL:
		v = (double)m->steal_ns;
		break;
	case LC_SHARE_LOAD:
		v = (double)m->other_ns + (double)m->steal_ns;
		break;
	case LC_SHARE_PROGRAM:
		v = (double)m->program_ns;
		break;
	default:
		return -1;
	}
	return 100.0 * v / (double)m->total_ns;
}

uint32_t lc_machine_distorts(const struct lc_profile *pr)
{
	uint32_t mask = 1u << LC_CAT_RC | 1u << LC_CAT_SL | 1u << LC_CAT_LI | 1u << LC_CAT_IP;

	if (!pr || lc_machine_pct(&pr->machine_total, LC_SHARE_LOAD) < LC_MACHINE_LOAD_PCT)
		return 0;
	if (!pr->ended || !pr->end.ext || pr->end.sched_source == LC_SCHED_NONE)
		mask |= 1u << LC_CAT_PC;
	return mask;
}
