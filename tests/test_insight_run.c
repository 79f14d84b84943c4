/*
 * test_insight_run.c — the insight outputs that assemble several modules
 * (postproc/report/insight.c): a runs file is not taken for a profile, POP of a
 * runs file prints a table, and the refusals name the file and the reason
 * (rules that cannot be read, a model file that does not exist, a file
 * that is neither a profile nor runs).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lc_test.h"
#include "insight.h"

#define RUNS "tests/data/fit/runfast.runs"

static void test_is_profile(void **state)
{
	(void)state;
	assert_int_equal(lc_insight_is_profile(RUNS), 0);
	assert_int_equal(lc_insight_is_profile("/nonexistent/x.data"), 1);	/* the reader says why */
}

static void test_pop_runs(void **state)
{
	char msg[512], *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	(void)state;
	assert_int_equal(lc_insight_pop_runs(f, RUNS, 1, msg, sizeof(msg)), 0);
	fclose(f);
	assert_true(strlen(buf) > 0 && strchr(buf, ','));	/* CSV */
	free(buf);
	assert_int_equal(lc_insight_pop_runs(stdout, "/nonexistent/r", 0, msg, sizeof(msg)),
			 -ENOENT);
	assert_string_equal(msg, "/nonexistent/r: neither a profile nor a runs file: "
				 "No such file or directory");
}

static void test_advise_refusals(void **state)
{
	struct lc_insight_req rq = { .file = "p.data", .rules = "/nonexistent/advice.txt" };
	char msg[512];

	(void)state;
	assert_true(lc_insight_advise(stdout, NULL, &rq, msg, sizeof(msg)) < 0);
	assert_non_null(strstr(msg, "/nonexistent/advice.txt: "));
	rq.rules = "share/advice.txt";
	rq.model = "/nonexistent/m.model";
	assert_int_equal(lc_insight_advise(stdout, NULL, &rq, msg, sizeof(msg)), -ENOENT);
	assert_string_equal(msg, "/nonexistent/m.model: No such file or directory");
}

LC_TEST_MAIN(NULL, NULL,
	     LC_T(test_is_profile), LC_T(test_pop_runs), LC_T(test_advise_refusals))
