/* fuzz_grid — the --at/--grid parser, with the point cap and indexing of
 * the first and last points, as predict does. */
#include "lca_grid.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	struct lc_grid g = { 0 };
	int idx[LC_GRID_MAXAXES];
	char msg[256];
	char *s = fuzz_text(data, n);

	if (!s)
		return 0;
	if (!lc_grid_parse(s, &g, msg, sizeof(msg))) {
		size_t count = lc_grid_count(&g);

		if (!lc_grid_cap(&g, LC_GRID_DEFAULT_MAX_POINTS, msg, sizeof(msg))) {
			lc_grid_index(&g, 0, idx);
			lc_grid_index(&g, count - 1, idx);
		}
	}
	lc_grid_free(&g);
	free(s);
	return 0;
}
