/* fuzz_profile — the profile reader (lc_profile_parse) on any bytes. */
#include "lc_profile.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	struct lc_profile *p = NULL;
	char err[256];

	if (!lc_profile_parse(data, n, &p, err, sizeof(err)))
		lc_profile_free(p);
	return 0;
}
