/*
 * test_extrap.c — Extra-P's JSON lines read with json-c into runs through
 * the runs builder (postproc/lca/extrap.c, lca_runs.h): what a valid file
 * holds, and a clear one-line reason, never a crash, for hostile lines.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lc_test.h"
#include "extrap.h"
#include "lca_runs.h"

/* Read text as format (2 JSON lines, 1 Extra-P text) into *r. */
static int parse(const char *text, int format, struct lc_runs **r, struct lc_runs_error *e)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	assert_non_null(f);
	rc = lc_extrap_parse(f, format, r, e);
	fclose(f);
	return rc;
}

static void test_valid(void **state)
{
	const char *text = "{\"params\":{\"p\":1,\"n\":64},\"value\":3.25,\"metric\":\"rt\"}\n"
			   "\n"
			   "{\"params\":{\"n\":64,\"p\":2},\"metric\":\"rt\",\"value\":[1.5,1.75],"
			   "\"extra\":{\"ignored\":[1,2]}}\n";
	struct lc_runs *r = NULL;
	struct lc_runs_error e;
	double v;

	(void)state;
	assert_int_equal(parse(text, 2, &r, &e), 0);
	assert_int_equal(lc_runs_count(r), 3);	/* one run per repetition */
	assert_int_equal(lc_runs_get(r, 0, lc_runs_find_key(r, "rt", 2), &v), LC_CELL_VALUE);
	assert_true(v == 3.25);
	assert_int_equal(lc_runs_get(r, 2, lc_runs_find_key(r, "p", 1), &v), LC_CELL_VALUE);
	assert_true(v == 2);
	assert_int_equal(lc_runs_get(r, 2, lc_runs_find_key(r, "rt", 2), &v), LC_CELL_VALUE);
	assert_true(v == 1.75);
	assert_int_equal(lc_runs_line(r, 2), 3);
	lc_runs_free(r);
}

/* Each hostile line is refused with its line number and the reason. */
static void test_hostile(void **state)
{
	static const struct { const char *text, *why; int line; } cases[] = {
		{ "{\"params\":{\"p\":1},\"value\":}\n", "not JSON", 1 },
		{ "{\"params\":{\"p\":1},\"value\":1}\n[1,2]\n", "not a JSON object", 2 },
		{ "{\"params\":{\"p\":1},\"value\":[1,\n2]}\n", "does not end on its line", 1 },
		{ "{\"value\":1}\n", "expected {\"params\"", 1 },
		{ "{\"params\":[1],\"value\":1}\n", "not an object of numbers", 1 },
		{ "{\"params\":{\"p\":\"x\"},\"value\":1}\n", "not a number", 1 },
		{ "{\"params\":{\"p\":1},\"value\":\"1\"}\n", "not a number or a list", 1 },
		{ "{\"params\":{\"p\":1},\"value\":[]}\n", "empty list", 1 },
		{ "{\"params\":{\"p\":1},\"value\":1e999}\n", "not a number", 1 },
		{ "{\"params\":{\"p\":1},\"value\":1,\"metric\":7}\n", "not a string", 1 },
		{ "{\"params\":{\"p\":1},\"value\":1}\n{\"params\":{\"q\":1},\"value\":1}\n",
		  "the first line does not have", 2 },
		{ "{\"params\":{\"p\":1},\"value\":1,\"callpath\":\"a\"}\n"
		  "{\"params\":{\"p\":2},\"value\":1,\"callpath\":\"b c\"}\n", "not a region name", 2 },
		{ "{\"params\":{\"p q\":1},\"value\":1}\n", "not a runs-file name", 0 },
		{ "{\"params\":{\"p\":1},\"value\":1,\"metric\":\"a\\nb\"}\n", "not a runs-file name", 0 },
		{ "\n\n", "holds no measurement", 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lc_runs *r = (struct lc_runs *)1;
		struct lc_runs_error e;

		if (parse(cases[i].text, 2, &r, &e) != -EINVAL || !strstr(e.msg, cases[i].why) ||
		    e.line != cases[i].line || r)
			fail_msg("case %zu: line %d: %s", i, e.line, e.msg);
	}
}

/* The builder: runs made one by one, with the checks a runs file has. */
static void test_builder(void **state)
{
	struct lc_runs *r = lc_runs_new();
	double v;

	(void)state;
	assert_non_null(r);
	assert_int_equal(lc_runs_add(r, "p", 1), -EINVAL);	/* no run started */
	assert_int_equal(lc_runs_start(r, 7), 0);
	assert_int_equal(lc_runs_add(r, "p", 4), 0);
	assert_int_equal(lc_runs_add(r, "li", NAN), 0);
	assert_int_equal(lc_runs_add(r, "p", 4), -EEXIST);
	assert_int_equal(lc_runs_add(r, "1x", 1), -EINVAL);
	assert_int_equal(lc_runs_add(r, "rt", INFINITY), -EINVAL);
	assert_int_equal(lc_runs_count(r), 1);
	assert_int_equal(lc_runs_line(r, 0), 7);
	assert_int_equal(lc_runs_get(r, 0, lc_runs_find_key(r, "li", 2), &v), LC_CELL_NA);
	lc_runs_free(r);
}

LC_TEST_MAIN(NULL, NULL,
	     LC_T(test_valid), LC_T(test_hostile), LC_T(test_builder))
