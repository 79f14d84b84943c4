/*
 * test_cost.c — what the sampler cost, in the profile (docs/performance.md):
 * the end block's interval rule (format minor 5) written and read back,
 * an end block without it (older files) read as "no rule", the rule in
 * words, and the slowdown model's bounds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "lc_test.h"
#include "lc_profile.h"
#include "prof_writer.h"

static char path[] = "/tmp/lc_test_cost.XXXXXX";

/* A fresh name for the profile (the writer refuses an existing one). */
static int setup(void **state)
{
	int fd = mkstemp(path);

	(void)state;
	if (fd < 0)
		return -1;
	close(fd);
	return unlink(path);
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

/* Write a profile with only an info block and end block e, and read it. */
static struct lc_profile *write_read(const struct lc_prof_end *e)
{
	struct lc_prof_info info = { .interval_ns = 100000, .window_ns = 10000000 };
	struct lc_pwriter *w = lc_test_new_writer(path, &info);

	assert_int_equal(lc_pwriter_end(w, e), 0);
	assert_int_equal(lc_pwriter_close(w), 0);
	return lc_test_read_back(path);
}

/* The adaptive rule's fields come back, and read as the record line says. */
static void test_rule_round_trip(void **state)
{
	struct lc_prof_end e = { .end_ns = 2000000000, .procs = 2, .ticks = 3000,
				 .reason = "command exited", .shared_cpu = 1,
				 .sampler_cpu_ns = 60000000, .rule = LC_RULE_ADAPTIVE,
				 .interval_min_ns = 100000, .interval_max_ns = 1000000,
				 .mean_interval_ns = 666666, .goal_ppm = 10000,
				 .budget_ppm = 20000, .goal_at_ns = 130000000,
				 .thread_cpu_ns = 45000000 };
	struct lc_profile *pr;
	char buf[256];

	(void)state;
	pr = write_read(&e);
	assert_true(pr->ended);
	assert_int_equal(pr->end.interval_rule, 1);
	assert_int_equal(pr->end.rule, LC_RULE_ADAPTIVE);
	assert_int_equal(pr->end.interval_min_ns, 100000);
	assert_int_equal(pr->end.interval_max_ns, 1000000);
	assert_int_equal(pr->end.mean_interval_ns, 666666);
	assert_int_equal(pr->end.goal_ppm, 10000);
	assert_int_equal(pr->end.budget_ppm, 20000);
	assert_int_equal(pr->end.goal_at_ns, 130000000);
	assert_int_equal(pr->end.thread_cpu_ns, 45000000);
	lc_cost_rule_text(&pr->end, buf, sizeof(buf));
	assert_string_equal(buf, "adaptive 100 us..1 ms (100 us until the error goal 1 % at "
				 "0.130 s, then within 2 % of a CPU), mean 667 us");
	lc_profile_free(pr);
}

/* A fixed interval says -i; a goal never reached says so. */
static void test_rule_text(void **state)
{
	struct lc_prof_end e = { .interval_rule = 1, .rule = LC_RULE_FIXED,
				 .interval_min_ns = 250000, .interval_max_ns = 250000,
				 .mean_interval_ns = 251000 };
	char buf[256];

	(void)state;
	assert_string_equal(lc_cost_rule_text(&e, buf, sizeof(buf)), "fixed 250 us (-i), mean 251 us");
	e = (struct lc_prof_end){ .interval_rule = 1, .rule = LC_RULE_ADAPTIVE,
				  .interval_min_ns = 100000, .interval_max_ns = 1000000,
				  .mean_interval_ns = 100000, .goal_ppm = 10000, .budget_ppm = 20000 };
	lc_cost_rule_text(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "error goal 1 %, not reached"));
	e.rule = LC_RULE_ADAPTIVE_START;	/* the top after the goal in the range */
	e.goal_at_ns = 500000000;
	lc_cost_rule_text(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "adaptive 100 us..4 ms (100 us until the error goal 1 % "
				    "(reached at 0.500 s) or 64 ticks, then record within 2 % of a "
				    "CPU up to 1 ms, from the goal on within 1 %), mean "));
	e.interval_rule = 0;	/* an older file: nothing to say */
	assert_string_equal(lc_cost_rule_text(&e, buf, sizeof(buf)), "");
}

/* The slowdown: ~0 with a CPU of its own; else from s/p/(1-s/p) to s/(1-s). */
static void test_slowdown(void **state)
{
	double lo, hi;

	(void)state;
	lc_cost_slowdown(50000000, 1000000000, 2, -1, &lo, &hi);
	assert_true(lo == 0 && hi == 0);
	lc_cost_slowdown(50000000, 1000000000, 2, 1, &lo, &hi);
	assert_true(hi > 0.0526 && hi < 0.0527);	/* 0.05 / 0.95 */
	assert_true(lo > 0.0256 && lo < 0.0257);	/* 0.025 / 0.975 */
	lc_cost_slowdown(50000000, 0, 2, 1, &lo, &hi);	/* no wall time */
	assert_true(lo == 0 && hi == 0);
	lc_cost_slowdown(2000000000, 1000000000, 1, 0, &lo, &hi);	/* more than a CPU */
	assert_true(hi >= lo && lo >= 0 && hi < 100);
}

LC_TEST_MAIN(setup, teardown,
	     LC_T(test_rule_round_trip), LC_T(test_rule_text), LC_T(test_slowdown))
