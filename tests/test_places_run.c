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
 *   - build/mpi/places (record --mpi, 2 ranks): rank 0's wait in MPI_Recv
 *     and rank 1's in MPI_Allreduce are in the LC_PLACE_MPI places of
 *     those functions, named so by the profile, each within a tenth of
 *     the time the rank measured in the call;
 *   - in all, every thread's place rows add up to its thread row exactly,
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
static char busy[256];	/* why a test could not judge: the run exits 77 */

/* Record prog (started by launcher pre, "" none) with the layer option
 * into out; its stdout into buf.  Returns 0, or -1 when it could not run. */
static int record(const char *layer, const char *pre, const char *prog, char *buf, size_t n)
{
	const char *top = getenv("LC_TOP");
	char cmd[1024];
	size_t got;
	FILE *p;

	/* a fixed 100 us tick: the bounds below are for its sampling error */
	snprintf(cmd, sizeof(cmd),
		 "'%s/lostcycles' record %s -i 100us -q --force -o '%s' -- %s '%s/%s' 2>/dev/null",
		 top ? top : ".", layer, out, pre, top ? top : ".", prog);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	got = fread(buf, 1, n - 1, p);
	buf[got] = 0;
	return pclose(p) == 0 ? 0 : -1;
}

/* Whether the machine was too busy to judge the times of profile pr: its
 * sampler missed more than a tenth of its ticks, or (load) other processes
 * took more than a quarter of the CPUs (a thread woken at a barrier then
 * waits for a CPU: RC, not the idle time the program measured); says
 * which in busy. */
static int missed(const struct lc_profile *pr, int load)
{
	double other = lc_machine_pct(&pr->machine_total, LC_SHARE_LOAD);

	if (pr->end.missed_ticks * 10 > pr->end.ticks + pr->end.missed_ticks) {
		snprintf(busy, sizeof(busy), "missed ticks: the sampler missed %" PRIu64 " of %" PRIu64
			 " ticks: the machine was too busy to judge the times",
			 (uint64_t)pr->end.missed_ticks,
			 (uint64_t)pr->end.ticks + pr->end.missed_ticks);
		return 1;
	}
	if (load && other > 25) {
		snprintf(busy, sizeof(busy), "load: other processes and steal took %.0f %% of the CPUs "
			 "during the run (the profile's machine share): too busy to judge the times",
			 other);
		return 1;
	}
	return 0;
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
	assert_int_equal(record("--pthread", "", "build/layers/pt_places", buf, sizeof(buf)), 0);
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
	if (missed(pr, 0)) {
		lc_profile_free(pr);
		skip();
	}
	if (wa < 0.02 || wb < 0.002) {
		lc_profile_free(pr);
		snprintf(busy, sizeof(busy), "the program hardly waited (a %.4f s, b %.4f s): "
			 "nothing to judge", wa, wb);
		skip();
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
		assert_true(m->based);	/* its load bias, for naming its static objects */
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
	assert_int_equal(record("--omp", "", "build/layers/omp_places", buf, sizeof(buf)), 0);
	w = strstr(buf, "skew_wait=");
	assert_non_null(w);
	assert_int_equal(sscanf(w, "skew_wait=%lf balanced_wait=%lf", &skew, &bal), 2);
	assert_int_equal(lc_profile_read(out, &pr, err, sizeof(err)), 0);
	assert_sums(pr);
	n = loop_li(&pr->data[LC_SRC_SAMPLED], li);
	if (missed(pr, 1)) {
		lc_profile_free(pr);
		skip();
	}
	printf("loops: %u places; LI %.4f s and %.4f s; the program waited %.4f s (skewed) "
	       "and %.4f s (balanced)\n", n, li[0] / 1e9, li[1] / 1e9, skew, bal);
	lc_profile_free(pr);
	if (skew < 0.02 || bal * 2 > skew) {
		snprintf(busy, sizeof(busy), "the skewed loop's threads waited %.4f s, the balanced "
			 "loop's %.4f s: the machine delayed the threads too much to tell the loops "
			 "apart", skew, bal);
		skip();
	}
	/* each loop's LI is the wait its threads measured, within a tenth of
	 * the two (ticks, and the moments a thread is seen at either end) */
	tol = 0.1 * (skew + bal) + 0.005;
	assert_int_equal(n, 2);
	if (fabs(li[0] / 1e9 - skew) > tol || fabs(li[1] / 1e9 - bal) > tol)
		fail_msg("loop LI %.4f / %.4f s against measured %.4f / %.4f s (tolerance %.4f s)",
			 li[0] / 1e9, li[1] / 1e9, skew, bal, tol);
}

/* SL + RC of the thread of rank rank in MPI places of function f (one
 * word, named name by the profile). */
static double mpi_wait(const struct lc_profile *pr, int rank, uint32_t f, const char *name)
{
	const struct lc_prof_data *d = &pr->data[LC_SRC_SAMPLED];
	uint64_t ns = 0;

	for (uint32_t i = 0; i < d->nplaces; i++) {
		const struct lc_prof_place *r = &d->places[i];
		const struct lc_prof_rank *rk = lc_profile_rank_of(pr, r->pid);

		if (!rk || rk->rank != rank || LC_PLACE_KIND(r->place) != LC_PLACE_MPI ||
		    LC_PLACE_WHAT(r->place) != f)
			continue;
		assert_string_equal(lc_profile_place_what(pr, r->place), name);
		assert_true(LC_PLACE_SITE_VADDR(r->place) != LC_PLACE_NOADDR);
		ns += r->cat[LC_CAT_SL] + r->cat[LC_CAT_RC];
	}
	return ns / 1e9;
}

static void test_mpi_calls(void **state)
{
	char buf[512], *l;
	double recv[2] = { 0 }, all[2] = { 0 }, got_recv, got_all;
	struct lc_profile *pr = NULL;
	int n = 0;

	(void)state;
	if (access("build/mpi/places", X_OK) || access("build/liblostcycles-mpi.so", R_OK) ||
	    system("command -v mpiexec >/dev/null 2>&1"))
		skip();
	assert_int_equal(record("--mpi", "mpiexec -n 2", "build/mpi/places", buf, sizeof(buf)), 0);
	for (l = buf; (l = strstr(l, "rank ")); l++) {
		int r;
		double a, b;

		if (sscanf(l, "rank %d recv %lf allreduce %lf", &r, &a, &b) == 3 && r >= 0 && r < 2) {
			recv[r] = a;
			all[r] = b;
			n++;
		}
	}
	assert_int_equal(n, 2);
	assert_int_equal(lc_profile_read(out, &pr, err, sizeof(err)), 0);
	assert_sums(pr);
	got_recv = mpi_wait(pr, 0, LC_MPIF_RECV, "MPI_Recv");
	got_all = mpi_wait(pr, 1, LC_MPIF_ALLREDUCE, "MPI_Allreduce");
	if (missed(pr, 0)) {
		lc_profile_free(pr);
		skip();
	}
	printf("rank 0 in MPI_Recv: %.4f s (measured %.4f s); rank 1 in MPI_Allreduce: %.4f s "
	       "(measured %.4f s)\n", got_recv, recv[0], got_all, all[1]);
	lc_profile_free(pr);
	if (recv[0] < 0.05 || all[1] < 0.05) {
		snprintf(busy, sizeof(busy), "the ranks hardly waited (%.4f s, %.4f s): nothing to "
			 "judge", recv[0], all[1]);
		skip();
	}
	assert_true(fabs(got_recv - recv[0]) < 0.1 * recv[0] + 0.005);
	assert_true(fabs(got_all - all[1]) < 0.1 * all[1] + 0.005);
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
		cmocka_unit_test(test_mpi_calls),
	};

	int r = cmocka_run_group_tests(tests, setup, teardown);

	if (!r && busy[0]) {
		printf("SKIP: %s\n", busy);
		return 77;
	}
	return r;
}
