/*
 * test_calib_run.c — one run of "lostcycles calibrate" without the command
 * line (kmod-free-tools/calib_run.c, calib_mpi.c): interval lists and their
 * refusals, the table and the recommendation of synthetic runs (the same
 * rule test_calibrate checks on rows), the ping-pong's command line, its
 * output read through a pipe (a shell stands in for mpiexec), the fit's
 * refusal without a measurement, and the LogGP table.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lc_test.h"
#include "lc_calib_mpi.h"
#include "lc_calib_run.h"

static void test_intervals(void **state)
{
	static struct lc_calib_run c;
	char msg[256];

	(void)state;
	assert_int_equal(lc_calib_intervals(&c, "10us,25us,1ms", msg, sizeof(msg)), 0);
	assert_int_equal(c.npts, 3);
	assert_int_equal(c.pts[2].interval_ns, 1000000);
	assert_int_equal(lc_calib_intervals(&c, "25us,10us", msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "intervals must ascend: '10us'");
	assert_int_equal(lc_calib_intervals(&c, "2s", msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "bad interval '2s' (1us..1s, at most 32 of them)");
	assert_int_equal(lc_calib_intervals(&c, ",", msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "no interval given");
}

/* Three runs of wall w (ns) spread by +-d. */
static void three(double *v, double w, double d)
{
	v[0] = w - d;
	v[1] = w;
	v[2] = w + d;
}

/* What lc_calib_report prints for c, in a new string (free it). */
static char *report(const struct lc_calib_run *c)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	lc_calib_report(c, f);
	fclose(f);
	return buf;
}

static void test_report_recommends(void **state)
{
	static struct lc_calib_run c;
	char *out;

	(void)state;
	c = (struct lc_calib_run){ .repeats = 3, .budget = 1.0 };
	c.nbase = 3;
	three(c.base_wall, 1e9, 1e6);			/* spread 0.2 % */
	c.npts = 2;
	c.pts[0] = (struct lc_calib_point){ .interval_ns = 50000, .n = 3, .nacc = 3 };
	three(c.pts[0].wall, 1.03e9, 1e6);		/* 3 % over budget */
	c.pts[1] = (struct lc_calib_point){ .interval_ns = 100000, .n = 3, .nacc = 3 };
	three(c.pts[1].wall, 1.004e9, 1e6);		/* 0.4 % + 0.1 % */
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 3; k++) {
			c.pts[i].err_cat[k] = 0;
			c.pts[i].cpu[k] = 1e7;
		}
	out = report(&c);
	assert_non_null(strstr(out, "baseline: 1.000 s (median of 3 runs, spread 0.20 %"));
	assert_non_null(strstr(out, "\n       50      3.00 "));
	assert_non_null(strstr(out, "recommended: -i 100us (the smallest interval shown under "
				    "the 1 % budget: overhead 0.40 % + noise 0.20 % / 2 = 0.50 %)"));
	free(out);
	c.nbase = 0;
	out = report(&c);
	assert_string_equal(out, "nothing measured\n");
	free(out);
}

static void test_pingpong_argv(void **state)
{
	char *launch[] = { "srun", "-n", "2", "-N", "2" };
	char **a = lc_pingpong_argv(NULL, 0, "pp", "4096");

	(void)state;
	assert_string_equal(a[0], "mpiexec");
	assert_string_equal(a[2], "2");
	assert_string_equal(a[3], "pp");
	assert_string_equal(a[4], "4096");
	assert_null(a[5]);
	free(a);
	a = lc_pingpong_argv(launch, 5, "pp", "1024");
	assert_string_equal(a[4], "2");
	assert_string_equal(a[5], "pp");
	assert_null(a[7]);
	free(a);
}

static void test_pingpong_run_and_print(void **state)
{
	char *ok[] = { "sh", "-c", "echo overhead_ns 500; echo junk; "
		       "for k in 8 64 512 4096; do echo size $k oneway_ns $((2000 + k)); done", NULL };
	char *bad[] = { "sh", "-c", "echo size 8 oneway_ns 10; exit 3", NULL };
	char *none[] = { "/nonexistent/launcher", NULL };
	struct lc_pingpong p = { 0 }, q = { 0 }, r = { 0 };
	struct lc_loggp lg;
	char msg[256], *buf = NULL;
	size_t n = 0;
	FILE *f;
	int clamped;

	(void)state;
	assert_int_equal(lc_pingpong_run(ok, &p), 0);
	assert_true(p.have_o && p.o == 500 && p.n == 4);
	assert_true(p.bytes[3] == 4096 && p.t[3] == 6096);
	assert_int_equal(lc_pingpong_run(bad, &q), 3);
	assert_int_equal(q.n, 1);
	assert_int_equal(lc_pingpong_fit(&q, &lg, &clamped, msg, sizeof(msg)), -ENODATA);
	assert_string_equal(msg, "the ping-pong printed no measurement");
	assert_int_equal(lc_pingpong_run(none, &r), -ENOENT);	/* could not run */
	assert_int_equal(lc_pingpong_fit(&p, &lg, &clamped, msg, sizeof(msg)), 0);
	assert_true(fabs(lg.G - 1) < 1e-6);	/* one ns per byte */
	f = open_memstream(&buf, &n);
	lc_pingpong_print(f, &p, &lg, "/x/loggp");
	fclose(f);
	assert_non_null(strstr(buf, "       bytes   measured(us)      model(us)    ratio\n"));
	assert_non_null(strstr(buf, "\nL = "));
	assert_non_null(strstr(buf, "written to /x/loggp\n"));
	free(buf);
}

static void test_two_cpus(void **state)
{
	int a, b, rc = lc_calib_two_cpus(&a, &b);

	(void)state;
	if (rc == -ENODEV)
		skip();
	assert_int_equal(rc, 0);
	assert_true(a > b && b >= 0);
}

LC_TEST_MAIN(NULL, NULL,
	     LC_T(test_intervals), LC_T(test_report_recommends), LC_T(test_pingpong_argv),
	     LC_T(test_pingpong_run_and_print), LC_T(test_two_cpus))
