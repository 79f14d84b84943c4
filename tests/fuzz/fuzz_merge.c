/* fuzz_merge — merge's node-file checks (lc_merge_check) on two node
 * files made of any bytes: the input is a 4-byte little-endian length n,
 * then the first file's n bytes, then the second's.  When both read as
 * profiles, the checks either refuse with a one-line reason or accept
 * files whose ranks agree on one job size, lie below it, appear once and
 * name a process of their own file. */
#include "lc_profile.h"
#include "merge.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Whether pid is one of pr's processes. */
static int has_pid(const struct lc_profile *pr, int32_t pid)
{
	for (uint32_t i = 0; i < pr->nprocesses; i++)
		if (pr->processes[i].pid == pid)
			return 1;
	return 0;
}

/* What an accepted pair must hold. */
static void accepted(struct lc_profile *const *pr)
{
	uint32_t size = pr[0]->ranks[0].size;

	for (int f = 0; f < 2; f++)
		for (uint32_t i = 0; i < pr[f]->nranks; i++) {
			const struct lc_prof_rank *r = &pr[f]->ranks[i];

			if (r->size != size || r->rank < 0 || (uint32_t)r->rank >= size ||
			    !has_pid(pr[f], r->pid))
				__builtin_trap();
			for (int g = 0; g <= f; g++)
				for (uint32_t k = 0; k < (g == f ? i : pr[g]->nranks); k++)
					if (pr[g]->ranks[k].rank == r->rank)
						__builtin_trap();
		}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	static const char *const names[2] = { "a.data", "b.data" };
	struct lc_profile *pr[2] = { NULL, NULL };
	char msg[512];
	size_t n1;

	if (n < 4)
		return 0;
	n1 = (size_t)data[0] | (size_t)data[1] << 8 | (size_t)data[2] << 16 |
	     (size_t)data[3] << 24;
	data += 4;
	n -= 4;
	if (n1 > n)
		return 0;
	if (!lc_profile_parse(data, n1, &pr[0], msg, sizeof(msg)) &&
	    !lc_profile_parse(data + n1, n - n1, &pr[1], msg, sizeof(msg))) {
		if (!lc_merge_check(pr, names, 2, msg, sizeof(msg)))
			accepted(pr);
		else if (strchr(msg, '\n'))
			__builtin_trap();
	}
	lc_profile_free(pr[0]);
	lc_profile_free(pr[1]);
	return 0;
}
