/*
 * test_extrap_regions.c — the region of a run (postproc/lca/lca_runs.c,
 * lca_runs_region.c, extrap.c): Extra-P's REGION lines become the runs'
 * region= notes, kept as text; the regions are listed in the order of
 * their first runs and selected one by one with their file lines.
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

static const char two[] = "PARAMETER p\nPOINTS 1 2\nREGION b->c\nMETRIC rt\nDATA 1 2\n"
			  "DATA 3\nREGION a\nDATA 5\nDATA 6\n";

/* Read the text format into *r. */
static struct lc_runs *read_text(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct lc_runs *r = NULL;
	struct lc_runs_error e;

	assert_non_null(f);
	assert_int_equal(lc_extrap_parse(f, 1, &r, &e), 0);
	fclose(f);
	return r;
}

static void test_regions(void **state)
{
	struct lc_runs *r = read_text(two), *a = NULL;
	const char *names[4];
	int line = 0, key;
	double v;

	(void)state;
	assert_int_equal(lc_runs_count(r), 5);
	assert_int_equal(lc_runs_regions(r, names, 4, &line), 2);
	assert_string_equal(names[0], "b->c");
	assert_string_equal(names[1], "a");
	assert_int_equal(lc_runs_regions(r, names, 1, &line), -E2BIG);
	key = lc_runs_find_key(r, LC_RUNS_REGION, strlen(LC_RUNS_REGION));
	assert_int_equal(lc_runs_get(r, 0, key, &v), LC_CELL_TEXT);
	assert_int_equal(lc_runs_select(r, "a", &a), 0);
	assert_int_equal(lc_runs_count(a), 2);
	assert_int_equal(lc_runs_line(a, 1), 5);
	assert_int_equal(lc_runs_get(a, 1, lc_runs_find_key(a, "rt", 2), &v), LC_CELL_VALUE);
	assert_true(v == 6);
	assert_string_equal(lc_runs_text(a, 0, lc_runs_find_key(a, "region", 6)), "a");
	lc_runs_free(a);
	lc_runs_free(r);
}

/* A runs file: region=NAME is text even as a number; a run without one
 * among runs with one is named; bad names are refused. */
static void test_runs_file(void **state)
{
	const char *text = "region=7 p=1 rt=1\np=2 rt=2\n";
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct lc_runs *r = NULL;
	struct lc_runs_error e;
	const char *names[4];
	int line = 0;

	(void)state;
	assert_int_equal(lc_runs_parse(f, &r, &e), 0);
	fclose(f);
	assert_string_equal(lc_runs_text(r, 0, lc_runs_find_key(r, "region", 6)), "7");
	assert_int_equal(lc_runs_regions(r, names, 4, &line), -EINVAL);
	assert_int_equal(line, 2);
	assert_int_equal(lc_runs_add_text(r, LC_RUNS_REGION, "a b"), -EINVAL);
	assert_int_equal(lc_runs_add_text(r, LC_RUNS_REGION, "x"), 0);
	assert_int_equal(lc_runs_add_text(r, LC_RUNS_REGION, "y"), -EEXIST);
	lc_runs_free(r);
	assert_false(lc_runs_region_ok("a b", 3));
	assert_false(lc_runs_region_ok("a=b", 3));
	assert_false(lc_runs_region_ok("", 0));
	assert_true(lc_runs_region_ok("main->solve", 11));
}

LC_TEST_MAIN(NULL, NULL, LC_T(test_regions), LC_T(test_runs_file))
