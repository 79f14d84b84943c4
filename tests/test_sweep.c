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

/* The k variables of specs into v. */
static void vars(struct lc_sweep_var *v, const char *const *specs, int k)
{
	for (int i = 0; i < k; i++)
		var(&v[i], specs[i]);
}

static void vars_free(struct lc_sweep_var *v, int k)
{
	for (int i = 0; i < k; i++)
		lc_sweep_var_free(&v[i]);
}

/* The points of design over the k variables at v; their count in *n. */
static size_t *points(struct lc_sweep_var *v, int k, int design, size_t *n)
{
	size_t *pts;

	assert_int_equal(lc_sweep_points(v, k, design, &pts, n), 0);
	return pts;
}

static const char *const p_n[] = { "p=1,2,4,8", "n=256,512,1024" };
static const char *const cube[] = { "a=1,2,3", "b=1,2,3", "c=1,2,3" };
static const char *const flat[] = { "a=1,2,3", "b=7", "c=1,2,3" };

/* How many points each design has: in 2-D every point has at most 2
 * interior coordinates, and only (1..2, 1) has two, so the edges are
 * everything but p=2,4 at n=512; a cube's 12 edges of 3 points share its
 * 8 corners: 8 + 12 = 20; one value gives a single point in every design. */
static const struct { const char *const *specs; int k, design; size_t n; } counts[] = {
	{ p_n, 2, LC_DESIGN_FULL, 12 }, { p_n, 2, LC_DESIGN_EDGES, 10 },
	{ p_n, 2, LC_DESIGN_CORNERS, 4 }, { cube, 3, LC_DESIGN_FULL, 27 },
	{ cube, 3, LC_DESIGN_EDGES, 20 }, { cube, 3, LC_DESIGN_CORNERS, 8 },
	{ flat, 3, LC_DESIGN_CORNERS, 4 },
};

/* The points of design over the k variables of specs; their count in *n. */
static size_t *design_points(const char *const *specs, int k, int design, size_t *n)
{
	struct lc_sweep_var v[3] = { 0 };
	size_t *pts;

	vars(v, specs, k);
	pts = points(v, k, design, n);
	vars_free(v, k);
	return pts;
}

/* How many points design has over the k variables of specs. */
static size_t design_count(const char *const *specs, int k, int design)
{
	size_t n;

	free(design_points(specs, k, design, &n));
	return n;
}

static void test_design_counts(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		assert_int_equal(design_count(counts[i].specs, counts[i].k, counts[i].design),
				 counts[i].n);
}

/* Whether (a, b) is among the points of a 2-variable design. */
static int has2(const size_t *pts, size_t n, size_t a, size_t b)
{
	for (size_t i = 0; i < n; i++)
		if (pts[2 * i] == a && pts[2 * i + 1] == b)
			return 1;
	return 0;
}

/* The full design varies the last variable fastest; the edges leave out
 * the interior points. */
static void test_designs_2d(void **state)
{
	size_t n, *pts = design_points(p_n, 2, LC_DESIGN_FULL, &n);

	(void)state;
	assert_true(pts[0] == 0 && pts[1] == 0 && pts[2] == 0 && pts[3] == 1);
	free(pts);
	pts = design_points(p_n, 2, LC_DESIGN_EDGES, &n);
	assert_true(!has2(pts, n, 1, 1) && !has2(pts, n, 2, 1));
	assert_true(has2(pts, n, 1, 0) && has2(pts, n, 3, 1) && has2(pts, n, 0, 1));
	free(pts);
}

/* The corners are the four extremes. */
static void test_corners_2d(void **state)
{
	size_t n, *pts = design_points(p_n, 2, LC_DESIGN_CORNERS, &n);

	(void)state;
	assert_true(has2(pts, n, 0, 0) && has2(pts, n, 0, 2) && has2(pts, n, 3, 0) &&
		    has2(pts, n, 3, 2));
	free(pts);
}

/* A cube's edge points have at most one interior coordinate. */
static void test_designs_3d(void **state)
{
	size_t n, *pts = design_points(cube, 3, LC_DESIGN_EDGES, &n);

	(void)state;
	for (size_t i = 0; i < n; i++)
		assert_true((pts[3 * i] == 1) + (pts[3 * i + 1] == 1) + (pts[3 * i + 2] == 1) <= 1);
	free(pts);
}

/* A design by its name. */
static void test_design_parse(void **state)
{
	(void)state;
	assert_int_equal(lc_sweep_design_parse("edges"), LC_DESIGN_EDGES);
	assert_int_equal(lc_sweep_design_parse("half"), -1);
}

/* A variable: its name and values. */
static void test_var_parse(void **state)
{
	struct lc_sweep_var v;

	(void)state;
	var(&v, "n=1,10,x");
	assert_int_equal(v.n, 3);
	assert_string_equal(v.name, "n");
	assert_string_equal(v.values[2], "x");
	lc_sweep_var_free(&v);
}

/* Variables refused, with a word of the reason where it matters. */
static const struct { const char *text, *why; } bad_vars[] = {
	{ "n=1,,2", "" }, { "2n=1", "" }, { "n=a b", "" }, { "n", "" }, { "n=1,1", "twice" },
};

static void test_var_refusals(void **state)
{
	struct lc_sweep_var v;
	char why[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad_vars) / sizeof(bad_vars[0]); i++) {
		assert_int_equal(lc_sweep_var_parse(bad_vars[i].text, &v, why, sizeof(why)), -EINVAL);
		assert_non_null(strstr(why, bad_vars[i].why));
	}
}

static const char *const n_p[] = { "n=256,512", "p=4" };

/* lc_sweep_subst of text at the point (n=512, p=4) of n_p: its status;
 * the result in *out (free it) or the reason in why. */
static int subst(const char *text, char **out, char *why, size_t len)
{
	struct lc_sweep_var v[2];
	size_t row[2] = { 1, 0 };
	int rc;

	vars(v, n_p, 2);
	rc = lc_sweep_subst(text, v, 2, row, out, why, len);
	vars_free(v, 2);
	return rc;
}

/* Placeholders take the values of the row's point. */
static void test_subst(void **state)
{
	char why[256], *out;

	(void)state;
	assert_int_equal(subst("-n{n}x{p}{n}", &out, why, sizeof(why)), 0);
	assert_string_equal(out, "-n512x4512");
	free(out);
}

/* An unknown or unclosed placeholder is refused, an unknown one named. */
static void test_subst_refusals(void **state)
{
	static const struct { const char *text, *why; } bad[] = { { "{q}", "{q}" }, { "{n", "" } };
	char why[256], *out;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(subst(bad[i].text, &out, why, sizeof(why)), -EINVAL);
		assert_non_null(strstr(why, bad[i].why));
	}
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
	     LC_T(test_design_counts), LC_T(test_designs_2d), LC_T(test_corners_2d),
	     LC_T(test_designs_3d), LC_T(test_design_parse), LC_T(test_var_parse),
	     LC_T(test_var_refusals), LC_T(test_subst), LC_T(test_subst_refusals),
	     LC_T(test_done))
