/* fuzz_formula — the formula and expression parsers, printing and
 * evaluating what they accept; identifiers n and p are known. */
#include "lca_formula.h"

#include "fuzz.h"

/* n is slot 0, p slot 1, anything else unknown. */
static int resolve(void *ctx, const char *name, size_t len)
{
	(void)ctx;
	if (len == 1 && (name[0] == 'n' || name[0] == 'p'))
		return name[0] == 'n' ? 0 : 1;
	return -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	static const char *const names[] = { "n", "p" };
	double vals[2] = { 1024, 4 };
	struct lc_parse_error pe;
	struct lc_formula *fm = NULL;
	struct lc_expr *e = NULL;
	char *s = fuzz_text(data, n), buf[512];

	if (!s)
		return 0;
	if (!lc_formula_parse(s, LC_EXPR_LOG2, resolve, NULL, &fm, &pe)) {
		lc_formula_print(fm, NULL, names, 6, buf, sizeof(buf));
		lc_formula_free(fm);
	}
	if (!lc_expr_parse_cond(s, 0, resolve, NULL, &e, &pe)) {
		(void)lc_expr_eval(e, vals);
		lc_expr_free(e);
	}
	free(s);
	return 0;
}
