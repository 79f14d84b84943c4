/*
 * test_opt_session.c — the session options on the command line
 * (cli/lc_opt_session.h): record, attach and exec give their samplers the
 * same settings for the same options (interval and whether it is fixed or
 * adaptive, windows and their growth, jitter, CPU, run-queue source,
 * counters), each as expected: the defaults (adaptive 100us..1ms, 10ms
 * windows growing after 4096, +-50 % jitter), -i fixing the interval and a
 * long one moving the default window, -w fixing the windows, --window-grow,
 * --jitter; and all three refuse a window shorter than the interval.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lc_test.h"
#include "lc_opt_session.h"

#define ARGS_MAX 16

/* The session options cmd ("record", "attach", "exec") gives for the
 * options opts (NULL-ended) and one operand; the parse's result in *rc. */
static struct lc_session_opts parse(const char *cmd, const char *const *opts, int *rc)
{
	char *argv[ARGS_MAX + 3];
	struct lc_session_opts so;
	int argc = 0;

	argv[argc++] = (char *)cmd;
	for (int i = 0; opts[i]; i++) {
		assert_true(i < ARGS_MAX);
		argv[argc++] = (char *)opts[i];
	}
	argv[argc++] = (char *)(strcmp(cmd, "attach") ? "prog" : "1");
	argv[argc] = NULL;
	memset(&so, 0xa5, sizeof(so));
	*rc = !strcmp(cmd, "exec") ? lc_opt_exec_session(argc, argv, &so) :
	      lc_opt_record_session(!strcmp(cmd, "attach"), argc, argv, &so);
	return so;
}

/* The settings of so that the sampler gets from the command line, equal. */
static void same_settings(const struct lc_session_opts *a, const struct lc_session_opts *b)
{
#define SAME_(f) assert_int_equal(a->f, b->f);
	SAME_(interval_ns) SAME_(interval_max_ns) SAME_(budget_ppm) SAME_(goal_ppm)
	SAME_(window_ns) SAME_(window_grow) SAME_(jitter_pct) SAME_(cpu) SAME_(procs)
	SAME_(sched) SAME_(no_counters) SAME_(counter_interval_ns)
#undef SAME_
	assert_true(a->events == b->events);
	assert_true(a->miss_latency_ns == b->miss_latency_ns);
}

/* record's settings for opts, checked equal to attach's and exec's. */
static struct lc_session_opts all_three(const char *const *opts)
{
	static const char *const cmds[] = { "attach", "exec" };
	int rc;
	struct lc_session_opts r = parse("record", opts, &rc);

	assert_int_equal(rc, 1);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		struct lc_session_opts o = parse(cmds[i], opts, &rc);

		assert_int_equal(rc, 1);
		same_settings(&r, &o);
	}
	return r;
}

static void test_defaults(void **state)
{
	struct lc_session_opts so = all_three((const char *const[]){ NULL });

	(void)state;
	assert_int_equal(so.interval_ns, LC_SESSION_DEFAULT_INTERVAL_NS);
	assert_int_equal(so.interval_max_ns, LC_SESSION_ADAPT_MAX_NS);	/* adaptive */
	assert_int_equal(so.window_ns, LC_SESSION_DEFAULT_WINDOW_NS);
	assert_int_equal(so.window_grow, LC_WINDOW_GROW_DEFAULT);
	assert_int_equal(so.jitter_pct, 50);
	assert_int_equal(so.cpu, -1);
	assert_int_equal(so.sched, LC_SCHED_SWITCH);
	assert_int_equal(so.no_counters, 0);
}

static void test_interval(void **state)
{
	struct lc_session_opts so = all_three((const char *const[]){ "-i", "200us", NULL });

	(void)state;
	assert_int_equal(so.interval_ns, 200000);
	assert_int_equal(so.interval_max_ns, 0);	/* fixed */
	assert_int_equal(so.window_ns, LC_SESSION_DEFAULT_WINDOW_NS);
	so = all_three((const char *const[]){ "--interval=20ms", NULL });
	assert_int_equal(so.interval_ns, 20000000);
	assert_int_equal(so.interval_max_ns, 0);
	assert_int_equal(so.window_ns, 20000000);	/* the default window follows */
	assert_int_equal(so.window_grow, LC_WINDOW_GROW_DEFAULT);
}

static void test_windows_jitter(void **state)
{
	struct lc_session_opts so = all_three((const char *const[]){ "-w", "5ms", NULL });

	(void)state;
	assert_int_equal(so.window_ns, 5000000);
	assert_int_equal(so.window_grow, 0);	/* -w: fixed windows */
	assert_int_equal(so.interval_max_ns, LC_SESSION_ADAPT_MAX_NS);
	so = all_three((const char *const[]){ "--window-grow=8", "--jitter=0", NULL });
	assert_int_equal(so.window_grow, 8);
	assert_int_equal(so.jitter_pct, 0);
	so = all_three((const char *const[]){ "--jitter", "10", "-i", "1ms", "-w", "2ms",
					      "--window-grow", "4", NULL });
	assert_int_equal(so.jitter_pct, 10);
	assert_int_equal(so.interval_ns, 1000000);
	assert_int_equal(so.interval_max_ns, 0);
	assert_int_equal(so.window_ns, 2000000);
	assert_int_equal(so.window_grow, 4);
}

static void test_refusals(void **state)
{
	static const char *const cmds[] = { "record", "attach", "exec" };
	int rc;

	(void)state;
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		parse(cmds[i], (const char *const[]){ "-i", "5ms", "-w", "1ms", NULL }, &rc);
		assert_int_equal(rc, LC_OPT_USAGE);
		parse(cmds[i], (const char *const[]){ "--jitter=51", NULL }, &rc);
		assert_int_equal(rc, LC_OPT_USAGE);
		parse(cmds[i], (const char *const[]){ "-i", "0.5us", NULL }, &rc);
		assert_int_equal(rc, LC_OPT_USAGE);
	}
}

LC_TEST_MAIN(NULL, NULL,
	     LC_T(test_defaults), LC_T(test_interval), LC_T(test_windows_jitter),
	     LC_T(test_refusals))
