/*
 * test_diff.c — "lostcycles diff" on synthetic profiles written with the
 * real writer: a fixed imbalanced loop shows its load imbalance fall beyond
 * noise, the total fall, and the other place stay within noise; the same
 * profile twice changes nothing beyond noise; the standard error is the
 * report's binomial one, and with repeats their spread; different p
 * compares seconds per processor; the scaling factor is the definition on
 * the profiles' own numbers; --fail-if parses its grammar and refuses
 * what is not in it.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "lc_test.h"

#include "lc_abi.h"
#include "lc_profile.h"
#include "prof_writer.h"
#include "diff.h"

#define PA ((uint64_t)LC_PLACE_OMP_WORK << 56 | 0x1111)
#define PB ((uint64_t)LC_PLACE_OMP_WORK << 56 | 0x2222)
#define E 200000000ull		/* elsewhere, ns */
#define TICKS 10000ull

static char dir[] = "/tmp/lc_test_diffXXXXXX";
static char cmd[] = "./no-such-program";
static char comm[] = "synthetic";

/* A profile of p threads over one window: each thread spends pa ns at
 * place A, of which li is load imbalance (thread 0 only), pb at B and
 * 0.2 s elsewhere; computation otherwise.  The window is as long. */
static struct lc_profile *make(uint32_t p, uint64_t pa, uint64_t li, uint64_t pb)
{
	uint64_t L = pa + pb + E;
	struct lc_prof_info in = { .interval_ns = 100000, .window_ns = L, .command = cmd };
	struct lc_prof_process pc = { .pid = 100, .comm = comm };
	struct lc_prof_end e = { .end_ns = L, .procs = p, .procs_from = LC_PROCS_OPTION };
	struct lc_prof_trow r[8] = { { 0 } };
	struct lc_prof_place pl[24];
	struct lc_prof_window win = { .source = LC_SRC_SAMPLED, .len_ns = L, .ticks = TICKS,
				      .max_n = p, .nthreads = p, .threads = r,
				      .acct = { .t_we = L, .n_we = L * p } };
	char path[300];
	struct lc_pwriter *w;
	uint32_t n = 0;

	snprintf(path, sizeof(path), "%s/p.data", dir);
	w = lc_test_pwriter(path, &in, &pc, p, 300);
	for (uint32_t t = 0; t < p; t++) {
		uint64_t l = t ? 0 : li;

		r[t].thread = t;
		r[t].cat[LC_CAT_PC] = L - l;
		r[t].cat[LC_CAT_LI] = l;
		pl[n++] = (struct lc_prof_place){ .source = LC_SRC_SAMPLED, .thread = t, .pid = 100,
						  .place = PA, .cat = { [LC_CAT_PC] = pa - l,
									[LC_CAT_LI] = l } };
		pl[n++] = (struct lc_prof_place){ .source = LC_SRC_SAMPLED, .thread = t, .pid = 100,
						  .place = PB, .cat = { [LC_CAT_PC] = pb } };
		pl[n++] = (struct lc_prof_place){ .source = LC_SRC_SAMPLED, .thread = t, .pid = 100,
						  .cat = { [LC_CAT_PC] = E } };
		for (int c = 0; c < LC_NCAT; c++)
			win.acct.cat[c] += r[t].cat[c];
	}
	assert_int_equal(lc_pwriter_window(w, &win), 0);
	assert_int_equal(lc_pwriter_places(w, n, pl), 0);
	assert_int_equal(lc_pwriter_end(w, &e), 0);
	assert_int_equal(lc_pwriter_close(w), 0);
	return lc_test_read_back(path);
}

static struct lc_diff *diff(struct lc_profile **a, int na, struct lc_profile **b, int nb)
{
	struct lc_diff_opts o = LC_DIFF_OPTS_DEFAULT;
	struct lc_diff *d = NULL;
	char msg[512];

	if (lc_diff_build(a, na, b, nb, &o, &d, msg, sizeof(msg)))
		fail_msg("%s", msg);
	return d;
}

/* The row of d at the place whose name contains part (NULL: (total)) and
 * category c. */
static const struct lc_diff_row *row(const struct lc_diff *d, const char *part, int c)
{
	for (uint32_t i = 0; i < d->n; i++)
		if (d->rows[i].cat == c &&
		    (part ? strstr(d->rows[i].place, part) != NULL
			  : !strcmp(d->rows[i].place, "(total)")))
			return &d->rows[i];
	return NULL;
}

/* The number of rows beyond noise. */
static int beyond(const struct lc_diff *d)
{
	int k = 0;

	for (uint32_t i = 0; i < d->n; i++)
		k += d->rows[i].beyond;
	return k;
}

static void free_all(struct lc_profile **p, int n)
{
	for (int i = 0; i < n; i++)
		lc_profile_free(p[i]);
}

/* The second build fixes place A's imbalance (0.4 s of LI on thread 0 to
 * 0.01 s; the thread's time there falls by as much, so does the total). */
static void test_fixed_loop(void **state)
{
	struct lc_profile *a = make(2, 600000000, 400000000, 200000000);
	struct lc_profile *b = make(2, 210000000, 10000000, 200000000);
	struct lc_diff *d;
	const struct lc_diff_row *r;
	char sum[2048];

	(void)state;
	d = diff(&a, 1, &b, 1);
	assert_non_null(r = row(d, "1111", LC_CAT_LI));
	assert_true(r->beyond);
	assert_true(r->b < r->a);
	assert_true(fabs(r->a - 0.4) < 1e-9 && fabs(r->b - 0.01) < 1e-9);
	/* every row beyond noise is place A's, or (total)'s */
	for (uint32_t i = 0; i < d->n; i++)
		if (d->rows[i].beyond)
			assert_true(strstr(d->rows[i].place, "1111") ||
				    !strcmp(d->rows[i].place, "(total)") ||
				    !strcmp(d->rows[i].place, "(elsewhere)"));
	assert_non_null(r = row(d, "2222", LC_CAT_PC));
	assert_false(r->beyond);
	assert_true(d->rows[0].cat == LC_DIFF_ALL && !strcmp(d->rows[0].place, "(total)"));
	lc_diff_summary(d, sum, sizeof(sum));
	assert_non_null(strstr(sum, "li -0.390 s"));
	assert_non_null(strstr(sum, "slower beyond noise: nothing"));
	lc_diff_free(d);
	free_all((struct lc_profile *[]){ a, b }, 2);
}

/* One profile against itself: nothing beyond noise; the standard error
 * of a row is sqrt(2) times the report's binomial one. */
static void test_same(void **state)
{
	struct lc_profile *a = make(2, 600000000, 400000000, 200000000);
	struct lc_diff *d;
	const struct lc_diff_row *r;
	double f = 0.4 / 2.0, nobs = 2.0 * TICKS;

	(void)state;
	d = diff(&a, 1, &a, 1);
	assert_int_equal(beyond(d), 0);
	assert_non_null(r = row(d, "1111", LC_CAT_LI));
	assert_true(fabs(r->se - sqrt(2) * 2.0 * sqrt(f * (1 - f) / nobs)) < 1e-12);
	assert_true(fabs(r->share_a - 0.2) < 1e-12);
	lc_diff_free(d);
	lc_profile_free(a);
}

/* Repeats: the spread of A's two profiles (0.40 s and 0.44 s of LI)
 * becomes the noise, larger than their sampling error. */
static void test_repeats(void **state)
{
	struct lc_profile *a[2] = { make(2, 600000000, 400000000, 200000000),
				    make(2, 640000000, 440000000, 200000000) };
	struct lc_profile *b = make(2, 620000000, 420000000, 200000000);
	struct lc_diff *d;
	const struct lc_diff_row *r;
	double var_a, se_b2, f = 0.42 / 2.04;

	(void)state;
	d = diff(a, 2, &b, 1);
	assert_true(d->repeats);
	assert_non_null(r = row(d, "1111", LC_CAT_LI));
	var_a = 0.02 * 0.02 * 2 / 1 / 2;	/* sample variance over k, k = 2 */
	se_b2 = 2.04 * 2.04 * f * (1 - f) / (2.0 * TICKS);
	assert_true(fabs(r->se - sqrt(var_a + se_b2)) < 1e-9);
	assert_false(r->beyond);
	assert_true(fabs(r->a - 0.42) < 1e-9);
	lc_diff_free(d);
	free_all((struct lc_profile *[]){ a[0], a[1], b }, 3);
}

/* p = 1 against p = 2: seconds per processor, and the note says so. */
static void test_other_p(void **state)
{
	struct lc_profile *a = make(1, 500000000, 0, 200000000);
	struct lc_profile *b = make(2, 500000000, 0, 200000000);
	struct lc_diff *d;
	const struct lc_diff_row *r;

	(void)state;
	d = diff(&a, 1, &b, 1);
	assert_true(d->per_proc);
	assert_non_null(strstr(d->note, "per processor"));
	assert_non_null(r = row(d, "1111", LC_DIFF_ALL));
	assert_true(fabs(r->a - 0.5) < 1e-9 && fabs(r->b - 0.5) < 1e-9);
	assert_false(r->beyond);
	lc_diff_free(d);
	free_all((struct lc_profile *[]){ a, b }, 2);
}

/* --scaling over p = 1, 2: SF of place A = (T_1 / T_2) / (2 / 1), T the
 * place's seconds per processor: 0.8 s at p = 1, 0.5 s at p = 2. */
static void test_scaling(void **state)
{
	struct lc_profile *p[2] = { make(1, 800000000, 0, 100000000),
				    make(2, 500000000, 100000000, 100000000) };
	char *buf = NULL, msg[256], *line;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	double tmin, sf1, sf2;
	int found = 0;

	(void)state;
	assert_int_equal(lc_diff_scaling(f, p, 2, NULL, LC_SRC_SAMPLED, LC_EMIT_CSV, msg,
					 sizeof(msg)), 0);
	fclose(f);
	assert_non_null(strstr(buf, "place,cat,t_min_s,sf_n1,sf_n2"));
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		char *c = strstr(line, ",all,");

		if (!strstr(line, "1111") || !c)
			continue;
		assert_int_equal(sscanf(c + 5, "%lf,%lf,%lf", &tmin, &sf1, &sf2), 3);
		assert_true(fabs(tmin - 0.8) < 1e-9);
		assert_true(fabs(sf1 - 1) < 1e-6);
		assert_true(fabs(sf2 - (0.8 / 0.5) / 2) < 1e-6);
		found = 1;
	}
	assert_true(found);
	free(buf);
	assert_int_equal(lc_diff_scaling(stdout, p, 1, NULL, LC_SRC_SAMPLED, LC_EMIT_CSV, msg,
					 sizeof(msg)), -EINVAL);
	free_all(p, 2);
}

/* --fail-if: its grammar, its refusals, and a condition that holds only
 * beyond noise. */
static void test_fail_if(void **state)
{
	struct lc_profile *a = make(2, 210000000, 10000000, 200000000);
	struct lc_profile *b = make(2, 600000000, 400000000, 200000000);
	struct lc_diff_cond c;
	struct lc_diff *d;
	char msg[512];

	(void)state;
	assert_int_equal(lc_diff_cond_parse("li>+5%", &c, msg, sizeof(msg)), 0);
	assert_true(c.cat == LC_CAT_LI && c.op == '>' && c.v == 5 && c.unit == '%' &&
		    !c.place[0]);
	assert_int_equal(lc_diff_cond_parse("a.c:12@total<-0.5s", &c, msg, sizeof(msg)), 0);
	assert_true(c.cat == LC_DIFF_ALL && c.op == '<' && c.v == -0.5 && c.unit == 's');
	assert_string_equal(c.place, "a.c:12");
	assert_int_equal(lc_diff_cond_parse("li+5%", &c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "no operator"));
	assert_int_equal(lc_diff_cond_parse("xx>5%", &c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "not a category key"));
	assert_int_equal(lc_diff_cond_parse("li>5kg", &c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "unit"));
	d = diff(&a, 1, &b, 1);
	assert_int_equal(lc_diff_cond_parse("li>+5%", &c, msg, sizeof(msg)), 0);
	assert_int_equal(lc_diff_cond_eval(d, &c, msg, sizeof(msg)), 1);
	assert_int_equal(lc_diff_cond_parse("tt<-5%", &c, msg, sizeof(msg)), 0);
	assert_int_equal(lc_diff_cond_eval(d, &c, msg, sizeof(msg)), 0);
	assert_int_equal(lc_diff_cond_parse("nowhere@li>1s", &c, msg, sizeof(msg)), 0);
	assert_int_equal(lc_diff_cond_eval(d, &c, msg, sizeof(msg)), -ENOENT);
	lc_diff_free(d);
	free_all((struct lc_profile *[]){ a, b }, 2);
}

LC_TEST_MAIN_IN_DIR(dir, LC_T(test_fixed_loop), LC_T(test_same), LC_T(test_repeats),
		    LC_T(test_other_p), LC_T(test_scaling), LC_T(test_fail_if))
