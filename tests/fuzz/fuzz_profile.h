/*
 * fuzz_profile.h — what the profile targets (fuzz_profile on any bytes,
 * fuzz_profile_blocks on blocks whose CRCs are repaired) check of one
 * input: read once keeping everything and once with each of two options
 * (rows folded into the totals, windows merged), which must agree on
 * whether the bytes are a profile and where it ends, and whose merged
 * windows must add up; machine spans fit their totals and sum to the
 * profile's share.
 */
#ifndef LC_FUZZ_PROFILE_H
#define LC_FUZZ_PROFILE_H

#include "lc_profile.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* What a lean reading holds adds up to its totals and to the whole
 * reading's windows. */
static inline void check_lean(const struct lc_profile *all, const struct lc_profile *p, uint32_t max)
{
	if (all->cut != p->cut || all->cut_offset != p->cut_offset || all->procs != p->procs ||
	    all->ended != p->ended)
		__builtin_trap();
	for (int k = 0; k < LC_NSRC; k++) {
		const struct lc_prof_data *d = &p->data[k];
		struct lc_acct sum = { 0 };
		uint64_t nm = 0;

		if (d->nwindows > max || d->present != all->data[k].present)
			__builtin_trap();
		for (uint32_t i = 0; i < d->nwindows; i++) {
			lc_acct_add(&sum, &d->windows[i].acct);
			nm += d->windows[i].nmerged;
		}
		if (nm != all->data[k].nwindows || memcmp(&sum, &d->total, sizeof(sum)))
			__builtin_trap();
	}
}

/* The machine spans a reading kept fit their totals, and the profile's
 * share is the sum of those without the partial flag (as long as the
 * sums of lengths and totals fit 64 bits), a load of at most 100 %. */
static inline void check_machine(const struct lc_profile *p)
{
	struct lc_prof_machine t = { 0 };

	for (uint32_t i = 0; i < p->nmachine; i++) {
		const struct lc_prof_machine *m = &p->machine[i];

		if (m->program_ns + m->sampler_ns + m->other_ns + m->steal_ns > m->total_ns ||
		    !m->ncpus || lc_machine_pct(m, LC_SHARE_LOAD) > 100.0 + 1e-9)
			__builtin_trap();
		if (m->flags & LC_MACH_PARTIAL || t.total_ns > UINT64_MAX - m->total_ns ||
		    t.len_ns > UINT64_MAX - m->len_ns)
			continue;
		t.len_ns += m->len_ns;
		t.total_ns += m->total_ns;
		t.other_ns += m->other_ns;
		t.steal_ns += m->steal_ns;
	}
	if (t.total_ns != p->machine_total.total_ns || t.other_ns != p->machine_total.other_ns ||
	    t.len_ns != p->machine_total.len_ns || t.steal_ns != p->machine_total.steal_ns ||
	    (p->nmachine && !(lc_machine_pct(&p->machine_total, LC_SHARE_LOAD) <= 100.0 + 1e-9)))
		__builtin_trap();
}

/* Read data[0..n) in the three ways and check what each kept. */
static inline void fuzz_profile_check(const uint8_t *data, size_t n)
{
	static const struct lc_read_opts opts[2] = { { .no_rows = 1, .max_windows = 3 },
						     { .no_rows = 0, .max_windows = 2 } };
	struct lc_profile *all = NULL, *p = NULL;
	char err[256];
	int r = lc_profile_parse(data, n, &all, err, sizeof(err));

	if (!r)
		check_machine(all);

	for (int k = 0; k < 2; k++) {
		int r2 = lc_profile_parse_opts(data, n, &opts[k], &p, err, sizeof(err));

		if ((r == 0) != (r2 == 0))
			__builtin_trap();
		if (!r2) {
			check_lean(all, p, opts[k].max_windows);
			lc_profile_free(p);
		}
	}
	lc_profile_free(all);
}

#endif
