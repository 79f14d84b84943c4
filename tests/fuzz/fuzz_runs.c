/* fuzz_runs — the runs-file parser (lc_runs_parse) on any text. */
#include "lca_runs.h"

#include <stdio.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	struct lc_runs *r = NULL;
	struct lc_runs_error e = { 0 };
	FILE *f = n ? fmemopen((void *)data, n, "r") : NULL;

	if (!f)
		return 0;
	if (!lc_runs_parse(f, &r, &e))
		lc_runs_free(r);
	fclose(f);
	return 0;
}
