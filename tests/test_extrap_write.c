/*
 * test_extrap_write.c — Extra-P's formats written from the table
 * (postproc/export/extrap_write.c, common/extrap_table.c) without lca:
 * the text format exactly, a metric some point lacks dropped from it and
 * kept in JSON lines, names escaped in JSON lines, a write error said, and
 * a file read back (lca/extrap.c) and written again is the same file.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_test.h"
#include "extrap.h"
#include "extrap_write.h"

/* Two points of n, region "program": metric tt at both (two repetitions
 * at the first), metric li at the first only. */
static struct lc_xp_table *sample(const char *par)
{
	struct lc_xp_table *t = lc_xp_new();
	double x1 = 16, x2 = 1024.5;
	int g, tt, li;
	long p1, p2;

	assert_non_null(t);
	snprintf(t->par[t->npar++], LC_XP_NAMELEN, "%s", par);
	g = lc_xp_region(t, "program", 7);
	tt = lc_xp_slot(t, g, "tt", 2);
	li = lc_xp_slot(t, g, "li", 2);
	p1 = lc_xp_point(t, &x1);
	p2 = lc_xp_point(t, &x2);
	assert_true(g == 0 && tt == 0 && li == 1 && p1 == 0 && p2 == 1);
	assert_int_equal(lc_xp_point(t, &x1), 0);	/* found, not added */
	assert_int_equal(lc_xp_value(t, lc_xp_cell(t, tt, 0), 0.1), 0);
	assert_int_equal(lc_xp_value(t, lc_xp_cell(t, tt, 0), 0.25), 0);
	assert_int_equal(lc_xp_value(t, lc_xp_cell(t, tt, 1), 3), 0);
	assert_int_equal(lc_xp_value(t, lc_xp_cell(t, li, 0), 1e-9), 0);
	return t;
}

/* t written as jsonl or text into a new string (free it). */
static char *written(const struct lc_xp_table *t, int jsonl, int *dropped)
{
	char *buf = NULL, msg[128];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(lc_extrap_write(f, t, jsonl, dropped, msg, sizeof(msg)), 0);
	fclose(f);
	return buf;
}

static void test_text(void **state)
{
	struct lc_xp_table *t = sample("n");
	int dropped = -1;
	char *s = written(t, 0, &dropped);

	(void)state;
	assert_string_equal(s, "# lostcycles export --extrap: one metric per lost cycles category, "
			    "in seconds summed over the processors\n"
			    "PARAMETER n\nPOINTS (16) (1024.5)\nREGION program\n"
			    "METRIC tt\nDATA 0.1 0.25\nDATA 3\n");
	assert_int_equal(dropped, 1);	/* li lacks the second point */
	free(s);
	lc_xp_free(t);
}

static void test_jsonl(void **state)
{
	struct lc_xp_table *t = sample("n");
	int dropped = -1;
	char *s = written(t, 1, &dropped);

	(void)state;
	assert_string_equal(s,
		"{\"params\":{\"n\":16},\"callpath\":\"program\",\"metric\":\"tt\",\"value\":[0.1,0.25]}\n"
		"{\"params\":{\"n\":16},\"callpath\":\"program\",\"metric\":\"li\",\"value\":[0.000000001]}\n"
		"{\"params\":{\"n\":1024.5},\"callpath\":\"program\",\"metric\":\"tt\",\"value\":[3]}\n");
	assert_int_equal(dropped, 0);
	free(s);
	lc_xp_free(t);
}

/* A name that would end a JSON string early is escaped. */
static void test_jsonl_escaped(void **state)
{
	struct lc_xp_table *t = sample("a\"b\\");
	int dropped;
	char *s = written(t, 1, &dropped);

	(void)state;
	assert_non_null(strstr(s, "{\"params\":{\"a\\\"b\\\\\":16},"));
	free(s);
	lc_xp_free(t);
}

static void test_write_error(void **state)
{
	struct lc_xp_table *t = sample("n");
	FILE *f = fopen("/dev/full", "w");
	char msg[128] = "";
	int dropped;

	(void)state;
	if (!f) {
		lc_xp_free(t);
		skip();
	}
	assert_int_equal(lc_extrap_write(f, t, 0, &dropped, msg, sizeof(msg)), -EIO);
	assert_non_null(strstr(msg, "cannot write"));
	fclose(f);
	lc_xp_free(t);
}

/* Text read back into runs, made a table again and written: the same. */
static void test_round_trip(void **state)
{
	struct lc_xp_table *t = sample("n"), *back = NULL;
	struct lc_runs *r = NULL;
	struct lc_runs_error e;
	int dropped;
	char *s = written(t, 0, &dropped), *again, msg[256];
	FILE *f = fmemopen(s, strlen(s), "r");

	(void)state;
	assert_non_null(f);
	assert_int_equal(lc_extrap_parse(f, 1, &r, &e), 0);
	fclose(f);
	assert_int_equal(lc_extrap_from_runs(r, &back, msg, sizeof(msg)), 0);
	again = written(back, 0, &dropped);
	assert_string_equal(again, s);
	free(again);
	free(s);
	lc_xp_free(back);
	lc_xp_free(t);
	lc_runs_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_jsonl),
		cmocka_unit_test(test_jsonl_escaped),
		cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
