/* fuzz_extrap — Extra-P's text and JSON-lines readers (lc_extrap_sniff,
 * lc_extrap_parse) on any bytes, and the reason lc_runs_fail writes. */
#include "extrap.h"

#include <stdio.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	struct lc_runs *r = NULL;
	struct lc_runs_error e = { 0 };
	FILE *f = n ? fmemopen((void *)data, n, "r") : NULL;
	char msg[512];
	int fmt, rc;

	if (!f)
		return 0;
	fmt = lc_extrap_sniff(f);
	rc = lc_extrap_parse(f, fmt ? fmt : 1, &r, &e);
	if (rc)
		lc_runs_fail("fuzz", rc, &e, msg, sizeof(msg));
	lc_runs_free(r);
	fclose(f);
	return 0;
}
