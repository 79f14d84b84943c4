/*
 * test_places_run.c — places captured on real runs through the layers,
 * read back with lc_profile_read:
 *   - build/layers/pt_places (record --pthread): two mutexes locked at two
 *     call sites; each lock's waits are in one LC_PLACE_SYNC mutex place
 *     whose object is the lock, the two places differ, both have SL, the
 *     lock held longer has more, and the program's file is recorded as
 *     module 0 with its build id;
 *   - build/layers/omp_places (record --omp): a balanced and a skewed
 *     worksharing loop are two LC_PLACE_OMP_WORK places; the skewed one
 *     holds the load imbalance (within a loose bound of the waits the
 *     program measured), the balanced one far less;
 *   - in both, every thread's place rows add up to its thread row exactly,
 *     category by category.
 * Run from the top of the tree (make check does).  A test whose program or
 * layer is not built (or, for OpenMP, a sanitizer build), or whose program
 * measured no wait to judge, skips.
 */
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "lc_abi.h"
#include "lc_profile.h"

static char out[] = "/tmp/lc_test_places_runXXXXXX";
static char err[256];

/* Record prog with the layer option into out; its stdout into buf.
 * Returns 0, or -1 when it could not run. */
static int record(const char *layer, const char *prog, char *buf, size_t n)
{
	const char *top = getenv("LC_TOP");
	char cmd[1024];
	size_t got;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "'%s/lostcycles' record %s -q --force -o '%s' '%s/%s' 2>/dev/null",
		 top ? top : ".", layer, out, top ? top : ".", prog);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	got = fread(buf, 1, n - 1, p);
	buf[got] = 0;
	return pclose(p) == 0 ? 0 : -1;
}

/* Every thread's place rows of the sampled source add up to its row. */
static void assert_sums(const struct lc_profile *pr)
{
	const struct lc_prof_data *d = &pr->data[LC_SRC_SAMPLED];
	uint32_t nrows = 0;

	assert_true(d->nplaces > 0);
	for (uint32_t t = 0; t < pr->nthreads; t++) {
		uint64_t sum[LC_NCAT] = { 0 };

		for (uint32_t i = 0; i < d->nplaces; i++) {
			if (d->places[i].thread != t)
				continue;
			nrows++;
			for (int c = 0; c < LC_NCAT; c++)
				sum[c] += d->places[i].cat[c];
		}
		for (int c = 0; c < LC_NCAT; c++)
			if (sum[c] != d->threads[t].cat[c])
				fail_msg("thread %u %s: places %" PRIu64 " ns, thread row %" PRIu64,
					 t, lc_cat_info(c)->key, sum[c], d->threads[t].cat[c]);
	}
	assert_int_equal(nrows, d->nplaces);
}

/* SL of the mutex places of object obj and the one word they have; *other
 * gets the SL of the object's rows in other places (a tick between a
 * layer's store of the state and of the place). */
static uint64_t lock_sl(const struct lc_prof_data *d, uint64_t obj, uint64_t *word,
			uint64_t *other)
{
	uint64_t sl = 0;

	*word = UINT64_MAX;
	for (uint32_t i = 0; i < d->nplaces; i++) {
		const struct lc_prof_place *r = &d->places[i];

		if (r->obj != obj)
			continue;
		if (LC_PLACE_KIND(r->place) != LC_PLACE_SYNC ||
		    LC_PLACE_WHAT(r->place) != LC_WAIT_MUTEX) {
			*other += r->cat[LC_CAT_SL];
			continue;
		}
		if (*word != UINT64_MAX && *word != r->place)
			fail_msg("lock %#" PRIx64 " waited at two places", obj);
		*word = r->place;
		sl += r->cat[LC_CAT_SL];
	}
	return sl;
}

static void test_pthread_locks(void **state)
{
	char buf[512];
	unsigned long long a = 0, b = 0;
	double wa = 0, wb = 0;
	struct lc_profile *pr = NULL;
	const struct lc_prof_data *d;
	uint64_t pa, pb, sla, slb, other = 0;
	const char *w;
	int found = 0;

	(void)state;
	if (access("build/layers/pt_places", X_OK) || access("build/liblostcycles-pthread.so", R_OK))
		skip();
	assert_int_equal(record("--pthread", "build/layers/pt_places", buf, sizeof(buf)), 0);
	assert_int_equal(sscanf(buf, "a %llx\nb %llx\n", &a, &b), 2);
	w = strstr(buf, "waited ");
	assert_non_null(w);
	assert_int_equal(sscanf(w, "waited a=%lf b=%lf", &wa, &wb), 2);
	assert_int_equal(lc_profile_read(out, &pr, err, sizeof(err)), 0);
	assert_sums(pr);
	d = &pr->data[LC_SRC_SAMPLED];
	sla = lock_sl(d, a, &pa, &other);
	slb = lock_sl(d, b, &pb, &other);
	printf("lock a: %.4f s SL at %#" PRIx64 " (waited %.4f s); lock b: %.4f s at %#" PRIx64
	       " (waited %.4f s)\n", sla / 1e9, pa, wa, slb / 1e9, pb, wb);
	if (wa < 0.02 || wb < 0.002) {
		lc_profile_free(pr);
		printf("SKIP: the program hardly waited (a %.4f s, b %.4f s): nothing to judge\n",
		       wa, wb);
		exit(77);
	}
	assert_true(sla > 0 && slb > 0);
	assert_true(pa != pb);
	assert_true(LC_PLACE_SITE_VADDR(pa) != LC_PLACE_NOADDR);
	assert_int_equal(LC_PLACE_SITE_MODULE(pa), LC_TAG_MODULE_MAIN);
	assert_true(sla > slb);
	assert_true(other * 50 < sla + slb);	/* the place stored before the state */
	for (uint32_t i = 0; i < pr->nmodules; i++) {
		const struct lc_prof_module *m = &pr->modules[i];

		if (m->hash != LC_TAG_MODULE_MAIN || !m->path || !strstr(m->path, "pt_places"))
			continue;
		found = 1;
		assert_non_null(m->build_id);
		assert_true(m->size > 0 && m->mtime_ns > 0);
	}
	assert_true(found);
	assert_string_equal(lc_profile_place_what(pr, pa), "mutex");
	lc_profile_free(pr);
}

/* LI of the OpenMP worksharing places, the largest first (at most 2). */
static uint32_t loop_li(const struct lc_prof_data *d, uint64_t li[2])
{
	uint64_t words[2] = { 0 };
	uint32_t n = 0, k;

	li[0] = li[1] = 0;
	for (uint32_t i = 0; i < d->nplaces; i++) {
		const struct lc_prof_place *r = &d->places[i];

		if (LC_PLACE_KIND(r->place) != LC_PLACE_OMP_WORK)
			continue;
		for (k = 0; k < n && words[k] != r->place; k++)
			;
		if (k == n && n++ == 2)
			fail_msg("more than two worksharing places");
		words[k] = r->place;
		li[k] += r->cat[LC_CAT_LI];
	}
	if (li[1] > li[0]) {
		uint64_t t = li[0];

		li[0] = li[1];
		li[1] = t;
	}
	return n;
}

static void test_omp_loops(void **state)
{
	char buf[256];
	double skew = 0, bal = 0, tol;
	struct lc_profile *pr = NULL;
	uint64_t li[2];
	uint32_t n;
	const char *w;

	(void)state;
	if (access("build/layers/omp_places", X_OK) || access("build/liblostcycles-omp.so", R_OK))
		skip();
	if (getenv("LC_SAN") && *getenv("LC_SAN")) {
		printf("skipped: under a sanitizer build the OpenMP program and tool are clang's, "
		       "whose sanitizer runtime cannot share a process with GCC's in liblostcycles\n");
		skip();
	}
	assert_int_equal(record("--omp", "build/layers/omp_places", buf, sizeof(buf)), 0);
	w = strstr(buf, "skew_wait=");
	assert_non_null(w);
	assert_int_equal(sscanf(w, "skew_wait=%lf balanced_wait=%lf", &skew, &bal), 2);
	assert_int_equal(lc_profile_read(out, &pr, err, sizeof(err)), 0);
	assert_sums(pr);
	n = loop_li(&pr->data[LC_SRC_SAMPLED], li);
	printf("loops: %u places; LI %.4f s and %.4f s; the program waited %.4f s (skewed) "
	       "and %.4f s (balanced)\n", n, li[0] / 1e9, li[1] / 1e9, skew, bal);
	lc_profile_free(pr);
	if (skew < 0.02 || bal * 2 > skew) {
		printf("SKIP: the skewed loop's threads waited %.4f s, the balanced loop's %.4f s: "
		       "the machine delayed the threads too much to tell the loops apart\n", skew, bal);
		exit(77);
	}
	/* each loop's LI is the wait its threads measured, within a tenth of
	 * the two (ticks, and the moments a thread is seen at either end) */
	tol = 0.1 * (skew + bal) + 0.005;
	assert_int_equal(n, 2);
	if (fabs(li[0] / 1e9 - skew) > tol || fabs(li[1] / 1e9 - bal) > tol)
		fail_msg("loop LI %.4f / %.4f s against measured %.4f / %.4f s (tolerance %.4f s)",
			 li[0] / 1e9, li[1] / 1e9, skew, bal, tol);
}

static int setup(void **state)
{
	int fd;

	(void)state;
	fd = mkstemp(out);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(out);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pthread_locks),
		cmocka_unit_test(test_omp_loops),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
