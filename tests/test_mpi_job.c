/*
 * test_mpi_job.c — the tool side of MPI jobs without MPI: the rank block
 * of the profile (round trip, the last block of a pid wins, an invalid rank
 * refused), LogGP files (read, refusals with the line,
 * write and read back) and the fit (an exact line is recovered), and the
 * sampler's LogGP split (ideal transfer time moves from SL to CL, never
 * more than the waiting), and merge (exact sums, aligned windows, refusals).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "lc_test.h"
#include "attr.h"
#include "lostcycles.h"
#include "lc_profile.h"
#include "merge.h"
#include "mpi_job.h"
#include "tmpdir_test.h"

static char msg[512];

static struct lc_pwriter *open_profile(void)
{
	struct lc_prof_info info = { .window_ns = 10000000, .hostname = "h" };
	int e = 0;
	struct lc_pwriter *w;

	unlink(path);	/* the writer creates a new file */
	w = lc_pwriter_open(path, &info, &e);

	assert_non_null(w);
	return w;
}

static void test_rank_block(void **state)
{
	struct lc_prof_rank r = { .pid = 42, .rank = 3, .size = 4, .flags = LC_PROF_RANK_LOGGP,
				  .clock_offset_ns = -1234567, .job_id = 0x1122334455667788ull,
				  .host = "node7" };
	struct lc_prof_process p = { .pid = 42, .comm = "app" };
	struct lc_pwriter *w = open_profile();
	struct lc_profile *pr;
	const struct lc_prof_rank *got;

	(void)state;
	assert_int_equal(lc_pwriter_process(w, &p), 0);
	assert_int_equal(lc_pwriter_rank(w, &r), 0);
	r.rank = 2;	/* a later block for the same pid replaces it */
	assert_int_equal(lc_pwriter_rank(w, &r), 0);
	assert_int_equal(lc_pwriter_close(w), 0);
	assert_int_equal(lc_profile_read(path, &pr, msg, sizeof(msg)), 0);
	assert_int_equal(pr->nranks, 2);
	got = lc_profile_rank_of(pr, 42);
	assert_non_null(got);
	assert_int_equal(got->rank, 2);
	assert_int_equal(got->size, 4);
	assert_int_equal(got->flags, LC_PROF_RANK_LOGGP);
	assert_true(got->clock_offset_ns == -1234567);
	assert_true(got->job_id == 0x1122334455667788ull);
	assert_string_equal(got->host, "node7");
	assert_null(lc_profile_rank_of(pr, 43));
	assert_int_equal(pr->nprocesses, 1);
	lc_profile_free(pr);
}

static void test_rank_outside_size(void **state)
{
	struct lc_prof_rank r = { .pid = 1, .rank = 4, .size = 4, .host = "x" };
	struct lc_pwriter *w = open_profile();
	struct lc_profile *pr = NULL;

	(void)state;
	lc_pwriter_rank(w, &r);
	lc_pwriter_close(w);
	assert_int_not_equal(lc_profile_read(path, &pr, msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "rank outside the job's size"));
}

static void write_file(const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_loggp_file(void **state)
{
	struct lc_loggp lg = { 0 }, back = { 0 };

	(void)state;
	write_file("# comment\nL 1500\n  o 250.5\nG 0.25\nextra 7\n");
	assert_int_equal(lc_loggp_read(path, &lg, msg, sizeof(msg)), 0);
	assert_true(lg.L == 1500 && lg.o == 250.5 && lg.G == 0.25);
	write_file("L 1\no 2\n");
	assert_int_equal(lc_loggp_read(path, &lg, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "L, o and G"));
	write_file("L 1\no -2\nG 1\n");
	assert_int_equal(lc_loggp_read(path, &lg, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, ":2:"));
	write_file("L nan\no 2\nG 1\n");
	assert_int_equal(lc_loggp_read(path, &lg, msg, sizeof(msg)), -EINVAL);
	unlink(path);
	assert_int_equal(lc_loggp_read(path, &lg, msg, sizeof(msg)), -ENOENT);
	lg = (struct lc_loggp){ 62.5, 47.25, 0.125, 0, 0, 0 };
	assert_int_equal(lc_loggp_write(path, &lg, "test", msg, sizeof(msg)), 0);
	assert_int_equal(lc_loggp_read(path, &back, msg, sizeof(msg)), 0);
	assert_true(back.L == 62.5 && back.o == 47.25 && back.G == 0.125 && back.S == 0);
	/* the second line, from the protocol switch on */
	lg = (struct lc_loggp){ 62.5, 47.25, 0.125, 16384, 2500, 0.0625 };
	assert_int_equal(lc_loggp_write(path, &lg, "test", msg, sizeof(msg)), 0);
	assert_int_equal(lc_loggp_read(path, &back, msg, sizeof(msg)), 0);
	assert_true(back.S == 16384 && back.Ls == 2500 && back.Gs == 0.0625);
	assert_true(lc_loggp_time(&back, 16383) == 62.5 + 47.25 + 16383 * 0.125);
	assert_true(lc_loggp_time(&back, 16384) == 2500 + 47.25 + 16384 * 0.0625);
	/* S, Ls and Gs only together */
	write_file("L 1\no 2\nG 1\nS 1024\nGs 0.5\n");
	assert_int_equal(lc_loggp_read(path, &lg, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "go together"));
	write_file("L 1\no 2\nG 1\nS 0\nLs 1\nGs 0.5\n");
	assert_int_equal(lc_loggp_read(path, &lg, msg, sizeof(msg)), -EINVAL);
}

static void test_loggp_fit(void **state)
{
	double k[] = { 0, 1024, 4096, 65536, 1048576 }, t[5];
	struct lc_loggp lg;
	int clamped;

	(void)state;
	for (int i = 0; i < 5; i++)
		t[i] = 300 + 0.5 * k[i];
	assert_int_equal(lc_loggp_fit(k, t, 5, 100, &lg, &clamped, msg, sizeof(msg)), 0);
	assert_true(lg.o == 100 && !clamped && lg.S == 0);
	assert_true(lg.L > 199.999 && lg.L < 200.001);
	assert_true(lg.G > 0.49999 && lg.G < 0.50001);
	/* o above the intercept: L is 0, o the intercept, and it says so */
	assert_int_equal(lc_loggp_fit(k, t, 5, 1000, &lg, &clamped, msg, sizeof(msg)), 0);
	assert_true(lg.L == 0 && lg.o > 299.99 && lg.o < 300.01 && clamped);
	assert_int_equal(lc_loggp_fit(k, t, 1, 100, &lg, &clamped, msg, sizeof(msg)), -EINVAL);
	for (int i = 0; i < 5; i++)
		t[i] = 1e6 - 0.5 * k[i];
	assert_int_equal(lc_loggp_fit(k, t, 5, 100, &lg, &clamped, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "noisy"));
}

/* An eager line below 16 KiB and a rendezvous line from it on (the shape of
 * MPICH's shared-memory ping-pong: 0.3 us + 0.15 ns/B, then 2.3 us + 0.083
 * ns/B): the fit finds the switch and both lines, where one line was off by
 * a factor 1.8 at 16 KiB. */
static void test_loggp_fit_switch(void **state)
{
	double k[12], t[12];
	struct lc_loggp lg;
	int clamped, n = 0;

	(void)state;
	for (double b = 0; b <= 1048576; b = b ? b * 2 : 1024) {
		k[n] = b;
		t[n++] = b < 16384 ? 300 + 0.15 * b : 2300 + 0.083 * b;
	}
	assert_int_equal(n, 12);
	assert_int_equal(lc_loggp_fit(k, t, n, 100, &lg, &clamped, msg, sizeof(msg)), 0);
	assert_true(lg.S == 16384 && !clamped);
	assert_true(lg.L > 199.99 && lg.L < 200.01 && lg.G > 0.14999 && lg.G < 0.15001);
	assert_true(lg.Ls > 2199.9 && lg.Ls < 2200.1 && lg.Gs > 0.08299 && lg.Gs < 0.08301);
	for (int i = 0; i < n; i++)
		assert_true(fabs(lc_loggp_time(&lg, k[i]) - t[i]) < 1e-6 * t[i] + 0.01);
}

/* Charge [t, t+dt) with one thread in state st carrying xfer of ideal
 * transfer time; return the profile's totals. */
static void charge_at(uint64_t t0, uint32_t st, uint64_t dt, uint64_t xfer, uint64_t out[LC_NCAT])
{
	struct lc_pwriter *w = open_profile();
	struct lc_threads *th = lc_threads_new(w);
	struct lc_accum *a = lc_accum_new(w, LC_SRC_SAMPLED, 10000000, 1);
	struct lc_obs_proc proc = { .uid = 1, .we = 1 };
	struct lc_obs_thread t = { .thread = (uint32_t)lc_threads_id(th, 7, 1, 0, 1, 7, 0),
				   .state = st, .xfer_ns = xfer };
	struct lc_obs o = { 1, &proc, 1, &t };
	struct lc_prof_end end = { .procs = 1, .procs_from = LC_PROCS_OPTION };
	struct lc_profile *pr;

	assert_int_equal(lc_accum_charge(a, t0, dt, &o), 0);
	assert_int_equal(lc_accum_flush(a), 0);
	lc_pwriter_end(w, &end);
	assert_int_equal(lc_pwriter_close(w), 0);
	lc_accum_free(a);
	lc_threads_free(th);
	assert_int_equal(lc_profile_read(path, &pr, msg, sizeof(msg)), 0);
	lc_profile_finish(pr, &pr->data[LC_SRC_SAMPLED].total, out);
	assert_int_equal(pr->data[LC_SRC_SAMPLED].threads[0].cat[LC_CAT_CL], out[LC_CAT_CL]);
	lc_profile_free(pr);
}

static void charge(uint32_t st, uint64_t dt, uint64_t xfer, uint64_t out[LC_NCAT])
{
	charge_at(0, st, dt, xfer, out);
}

static void test_transfer_split(void **state)
{
	uint64_t c[LC_NCAT];

	(void)state;
	charge(LC_ST_SYNC, 100000, 30000, c);	/* waiting, part of it transfer */
	assert_int_equal(c[LC_CAT_CL], 30000);
	assert_int_equal(c[LC_CAT_SL], 70000);
	charge(LC_ST_SYNC, 100000, 250000, c);	/* never more than the waiting */
	assert_int_equal(c[LC_CAT_CL], 100000);
	assert_int_equal(c[LC_CAT_SL], 0);
	charge(LC_ST_BUSY, 100000, 50000, c);	/* computing is not transfer */
	assert_int_equal(c[LC_CAT_CL], 0);
	assert_int_equal(c[LC_CAT_PC], 100000);
	/* across a window boundary: split in proportion, exactly the credit */
	charge_at(10000000 - 30000, LC_ST_SYNC, 100000, 50000, c);
	assert_int_equal(c[LC_CAT_CL], 50000);
	assert_int_equal(c[LC_CAT_SL], 50000);
}

/* A node file at p: host, t0, one rank (pid, rank, clock offset, job),
 * nwin windows of 10 ms where its one thread computed c ns and waited w ns. */
static void node_file(const char *p, const char *host, uint64_t t0, int32_t pid, int32_t rank,
		      int64_t off, uint64_t job, int nwin, uint64_t c, uint64_t w)
{
	struct lc_prof_info info = { .t0_ns = t0, .window_ns = 10000000, .hostname = (char *)host };
	struct lc_prof_process pr = { .pid = pid, .comm = "app" };
	struct lc_prof_rank r = { .pid = pid, .rank = rank, .size = 2, .clock_offset_ns = off,
				  .job_id = job, .host = (char *)host };
	struct lc_prof_thread th = { .idx = 0, .pid = pid, .tid = pid };
	struct lc_prof_end end = { .procs = 1, .procs_from = LC_PROCS_THREADS, .end_ns = 20000000 };
	int e = 0;
	struct lc_pwriter *wr;

	unlink(p);	/* the writer creates a new file */
	wr = lc_pwriter_open(p, &info, &e);

	assert_non_null(wr);
	lc_pwriter_process(wr, &pr);
	lc_pwriter_rank(wr, &r);
	lc_pwriter_thread(wr, &th);
	for (int i = 0; i < nwin; i++) {
		struct lc_prof_trow row = { .thread = 0 };
		struct lc_prof_window win = { .source = LC_SRC_SAMPLED, .index = (uint32_t)i,
					      .start_ns = (uint64_t)i * 10000000, .ticks = 100,
					      .max_n = 1, .nthreads = 1, .threads = &row };

		row.cat[LC_CAT_PC] = win.acct.cat[LC_CAT_PC] = c;
		row.cat[LC_CAT_SL] = win.acct.cat[LC_CAT_SL] = w;
		win.acct.t_we = 10000000;	/* one live thread: n = 1 */
		win.acct.n_we = 10000000;
		lc_pwriter_window(wr, &win);
	}
	lc_pwriter_end(wr, &end);
	assert_int_equal(lc_pwriter_close(wr), 0);
}

static void test_merge(void **state)
{
	char a[300], b[300], j[300], *paths[2] = { a, b };
	struct lc_merge_stats st;
	struct lc_profile *pr;
	uint64_t tot[LC_NCAT];

	(void)state;
	snprintf(a, sizeof(a), "%s/a", tdir);
	snprintf(b, sizeof(b), "%s/b", tdir);
	snprintf(j, sizeof(j), "%s/j", tdir);
	/* node B's clock runs 5 ms ahead of rank 0's and its sampler started
	 * 25 ms later by its own clock: 20 ms later on rank 0's, 2 windows */
	node_file(a, "nodeA", 1000000000, 100, 0, 0, 77, 2, 6000000, 4000000);
	node_file(b, "nodeB", 1025000000, 100, 1, 5000000, 77, 2, 9000000, 1000000);
	unlink(j);
	assert_int_equal(lc_merge(paths, 2, j, &st, msg, sizeof(msg)), 0);
	assert_int_equal(st.files, 2);
	assert_int_equal(st.ranks, 2);
	assert_int_equal(st.procs, 2);
	assert_non_null(strstr(st.notes, "pid + "));	/* both used pid 100 */
	assert_int_equal(lc_profile_read(j, &pr, msg, sizeof(msg)), 0);
	assert_int_equal(pr->procs, 2);
	assert_int_equal(pr->data[LC_SRC_SAMPLED].nwindows, 4);
	assert_int_equal(pr->data[LC_SRC_SAMPLED].windows[0].index, 0);
	assert_int_equal(pr->data[LC_SRC_SAMPLED].windows[2].index, 2);
	assert_int_equal(pr->data[LC_SRC_SAMPLED].windows[2].acct.cat[LC_CAT_PC], 9000000);
	lc_profile_finish(pr, &pr->data[LC_SRC_SAMPLED].total, tot);
	assert_int_equal(tot[LC_CAT_PC], 2 * 6000000 + 2 * 9000000);
	assert_int_equal(tot[LC_CAT_SL], 2 * 4000000 + 2 * 1000000);
	/* nodes A (windows 0-1) and B (2-3): each slot idle while the other
	 * node ran is not charged: the job's total is the sum of the nodes' */
	assert_int_equal(tot[LC_CAT_LI] + tot[LC_CAT_IP], 0);
	assert_int_equal(pr->nranks, 2);
	assert_non_null(lc_profile_rank_of(pr, 100));
	assert_int_equal(lc_profile_rank_of(pr, 100 + (1 << 22))->rank, 1);
	lc_profile_free(pr);
	/* another job, or one host twice: refused with the reason */
	node_file(b, "nodeB", 1025000000, 101, 1, 5000000, 78, 2, 9000000, 1000000);
	unlink(j);
	assert_int_equal(lc_merge(paths, 2, j, &st, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "different jobs"));
	node_file(b, "nodeA", 1025000000, 101, 1, 5000000, 77, 2, 9000000, 1000000);
	unlink(j);
	assert_int_equal(lc_merge(paths, 2, j, &st, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "both of host nodeA"));
	unlink(a);
	unlink(b);
	unlink(j);
}

LC_TEST_MAIN(tdir_setup, tdir_teardown,
	     LC_T(test_rank_block), LC_T(test_rank_outside_size), LC_T(test_loggp_file),
	     LC_T(test_loggp_fit), LC_T(test_loggp_fit_switch), LC_T(test_transfer_split),
	     LC_T(test_merge))
