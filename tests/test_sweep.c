/*
 * test_sweep.c — the experiment designs of "lostcycles sweep" (full, edges,
 * corners), variable parsing, placeholders, and the runs-file bookkeeping
 * that makes a sweep resumable (which points are done, a cut last line).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_test.h"
#include "lc_sweep.h"

static void var(struct lc_sweep_var *v, const char *spec)
{
	char why[256];

	assert_int_equal(lc_sweep_var_parse(spec, v, why, sizeof(why)), 0);
}

/* Whether (a, b) is among the points of a 2-variable design. */
static int has2(const size_t *pts, size_t n, size_t a, size_t b)
{
	for (size_t i = 0; i < n; i++)
		if (pts[2 * i] == a && pts[2 * i + 1] == b)
			return 1;
	return 0;
}

static void test_designs_2d(void **state)
{
	struct lc_sweep_var v[2];
	size_t *pts, n;

	(void)state;
	var(&v[0], "p=1,2,4,8");
	var(&v[1], "n=256,512,1024");
	assert_int_equal(lc_sweep_points(v, 2, LC_DESIGN_FULL, &pts, &n), 0);
	assert_int_equal(n, 12);
	assert_true(pts[0] == 0 && pts[1] == 0 && pts[2] == 0 && pts[3] == 1);	/* last fastest */
	free(pts);
	assert_int_equal(lc_sweep_points(v, 2, LC_DESIGN_EDGES, &pts, &n), 0);
	/* in 2-D every point has at most 2 interior coordinates: only (1..2, 1)
	 * has two, so the edges are everything but p=2,4 at n=512 */
	assert_int_equal(n, 10);
	assert_false(has2(pts, n, 1, 1));
	assert_false(has2(pts, n, 2, 1));
	assert_true(has2(pts, n, 1, 0) && has2(pts, n, 3, 1) && has2(pts, n, 0, 1));
	free(pts);
	assert_int_equal(lc_sweep_points(v, 2, LC_DESIGN_CORNERS, &pts, &n), 0);
	assert_int_equal(n, 4);
	assert_true(has2(pts, n, 0, 0) && has2(pts, n, 0, 2) && has2(pts, n, 3, 0) &&
		    has2(pts, n, 3, 2));
	free(pts);
	lc_sweep_var_free(&v[0]);
	lc_sweep_var_free(&v[1]);
}

static void test_designs_3d(void **state)
{
	struct lc_sweep_var v[3];
	size_t *pts, n;

	(void)state;
	var(&v[0], "a=1,2,3");
	var(&v[1], "b=1,2,3");
	var(&v[2], "c=1,2,3");
	assert_int_equal(lc_sweep_points(v, 3, LC_DESIGN_FULL, &pts, &n), 0);
	assert_int_equal(n, 27);
	free(pts);
	/* a cube's 12 edges of 3 points share its 8 corners: 8 + 12 = 20 */
	assert_int_equal(lc_sweep_points(v, 3, LC_DESIGN_EDGES, &pts, &n), 0);
	assert_int_equal(n, 20);
	for (size_t i = 0; i < n; i++) {
		int interior = 0;

		for (int k = 0; k < 3; k++)
			interior += pts[3 * i + k] == 1;
		assert_true(interior <= 1);
	}
	free(pts);
	assert_int_equal(lc_sweep_points(v, 3, LC_DESIGN_CORNERS, &pts, &n), 0);
	assert_int_equal(n, 8);
	free(pts);
	/* one value: a single point in every design */
	lc_sweep_var_free(&v[1]);
	var(&v[1], "b=7");
	assert_int_equal(lc_sweep_points(v, 3, LC_DESIGN_CORNERS, &pts, &n), 0);
	assert_int_equal(n, 4);
	free(pts);
	for (int k = 0; k < 3; k++)
		lc_sweep_var_free(&v[k]);
	assert_int_equal(lc_sweep_design_parse("edges"), LC_DESIGN_EDGES);
	assert_int_equal(lc_sweep_design_parse("half"), -1);
}

static void test_var_parse(void **state)
{
	static const char *const bad[] = { "n=1,,2", "2n=1", "n=a b", "n" };
	struct lc_sweep_var v;
	char why[256];

	(void)state;
	var(&v, "n=1,10,x");
	assert_int_equal(v.n, 3);
	assert_string_equal(v.name, "n");
	assert_string_equal(v.values[2], "x");
	lc_sweep_var_free(&v);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(lc_sweep_var_parse(bad[i], &v, why, sizeof(why)), -EINVAL);
	assert_int_equal(lc_sweep_var_parse("n=1,1", &v, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "twice"));
}

static void test_subst(void **state)
{
	struct lc_sweep_var v[2];
	size_t row[2] = { 1, 0 };
	char why[256], *out;

	(void)state;
	var(&v[0], "n=256,512");
	var(&v[1], "p=4");
	assert_int_equal(lc_sweep_subst("-n{n}x{p}{n}", v, 2, row, &out, why, sizeof(why)), 0);
	assert_string_equal(out, "-n512x4512");
	free(out);
	assert_int_equal(lc_sweep_subst("{q}", v, 2, row, &out, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "{q}"));
	assert_int_equal(lc_sweep_subst("{n", v, 2, row, &out, why, sizeof(why)), -EINVAL);
	lc_sweep_var_free(&v[0]);
	lc_sweep_var_free(&v[1]);
}

static void test_done(void **state)
{
	char path[] = "/tmp/lc-test-sweep.XXXXXX";
	struct lc_sweep_var v[2];
	struct lc_sweep_done *d;
	size_t r00[2] = { 0, 0 }, r10[2] = { 1, 0 }, r01[2] = { 0, 1 };
	int fd = mkstemp(path), cut;
	FILE *f;
	char buf[512];

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	var(&v[0], "n=256,512");
	var(&v[1], "p=1,2");
	/* a line per point; p from report comes after the note; numbers compare
	 * as numbers (512.0 = 512); failures and other notes do not count */
	assert_int_equal(lc_sweep_append(path, "n=256 rep=1 p=1 li=0 tt=1\n"), 0);
	assert_int_equal(lc_sweep_append(path, "n=512.0 rep=2 p=1 li=0 tt=1\n"), 0);
	assert_int_equal(lc_sweep_append(path, "# failed: n=256 rep=1 p=2 status=3\n"), 0);
	assert_int_equal(lc_sweep_append(path, "n=256 p=2 li=0 tt=1\n"), 0);	/* no rep */
	f = fopen(path, "a");
	fputs("n=256 rep=1 p=2 li=0.5 t", f);	/* cut by a crash */
	fclose(f);
	assert_int_equal(lc_sweep_done_load(path, v, 2, &d, &cut), 0);
	assert_int_equal(cut, 1);
	assert_int_equal(lc_sweep_done_count(d), 3);	/* the line without rep: rep 0 */
	assert_true(lc_sweep_done_has(d, r00, 1));
	assert_false(lc_sweep_done_has(d, r00, 2));
	assert_true(lc_sweep_done_has(d, r10, 2));
	assert_false(lc_sweep_done_has(d, r01, 1));
	assert_true(lc_sweep_done_has(d, r01, 0));
	lc_sweep_done_free(d);
	f = fopen(path, "r");
	while (fgets(buf, sizeof(buf), f))
		assert_non_null(strchr(buf, '\n'));	/* the half line is gone */
	fclose(f);
	unlink(path);
	assert_int_equal(lc_sweep_done_load(path, v, 2, &d, &cut), 0);	/* absent: none */
	assert_int_equal(lc_sweep_done_count(d), 0);
	lc_sweep_done_free(d);
	lc_sweep_var_free(&v[0]);
	lc_sweep_var_free(&v[1]);
}

LC_TEST_MAIN(NULL, NULL,
	     LC_T(test_designs_2d), LC_T(test_designs_3d), LC_T(test_var_parse), LC_T(test_subst),
	     LC_T(test_done))
