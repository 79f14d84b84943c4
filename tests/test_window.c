/*
 * test_window.c — the growing window schedule end to end in the sampler's
 * accumulator: windows follow lc_window_span (start and length), an
 * interval that crosses growing windows is split exactly at their
 * boundaries, nothing is lost or counted twice, the sampled and trace
 * sources get the same windows, and a growth the schedule does not define,
 * or one set after charging began, is refused.  lostcycles merge places
 * node windows by time on the first file's schedule: by their midpoint,
 * finer node windows adding up inside a coarser job window, with the job's
 * totals the sums of the nodes'; a node window coarser than the job window
 * it would go into is refused.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "lc_test.h"
#include "attr.h"
#include "lostcycles.h"
#include "merge.h"
#include "node_file.h"
#include "prof_writer.h"

#define MS 1000000ull

static char path[256];

static struct lc_pwriter *open_writer(uint64_t base, uint32_t grow)
{
	struct lc_prof_info info = { .interval_ns = 100000, .window_ns = base,
				     .window_grow = grow, .procs_option = 1,
				     .sampler_cpu = -1, .hostname = "h", .command = "c",
				     .session = "s" };

	snprintf(path, sizeof(path), "/tmp/lc-test-window.%d.data", (int)getpid());
	return lc_test_new_writer(path, &info);
}

static struct lc_profile *finish(struct lc_pwriter *w, struct lc_accum **acc, int n)
{
	struct lc_prof_end end = { .reason = "test", .procs = 1,
				   .procs_from = LC_PROCS_OPTION };

	for (int i = 0; i < n; i++)
		assert_int_equal(lc_accum_flush(acc[i]), 0);
	assert_int_equal(lc_pwriter_end(w, &end), 0);
	assert_int_equal(lc_pwriter_close(w), 0);
	return lc_test_read_back(path);
}

/* Charge [0, until) in steps of step to one busy thread. */
static void charge_run(struct lc_accum *a, uint64_t until, uint64_t step)
{
	struct lc_obs_proc pr = { .uid = 1, .we = 1 };
	struct lc_obs_thread th = { .thread = 0, .state = LC_ST_BUSY };
	struct lc_obs o = { 1, &pr, 1, &th };

	for (uint64_t t = 0; t < until; t += step)
		assert_int_equal(lc_accum_charge(a, t, t + step > until ? until - t : step, &o), 0);
}

/* Every window of d, busy throughout a run of run ns, starts where the
 * schedule of base and grow puts its index and holds its span (the last
 * one the rest of the run); the sum of their time. */
static uint64_t on_schedule(const struct lc_prof_data *d, uint64_t base, uint32_t grow,
			    uint64_t run)
{
	uint64_t sum = 0;

	for (uint32_t i = 0; i < d->nwindows; i++) {
		uint64_t st, len, wall = lc_acct_wall(&d->windows[i].acct);

		lc_window_span(base, grow, i, &st, &len);
		assert_int_equal(d->windows[i].index, i);
		assert_int_equal(d->windows[i].start_ns, st);
		assert_int_equal(wall, i + 1 < d->nwindows ? len : run - st);
		assert_int_equal(d->windows[i].acct.cat[LC_CAT_PC], wall);
		sum += wall;
	}
	return sum;
}

/* Windows of base 1 ms, growth 8: 8 of 1 ms, then 4 of 2 ms, 4 of 4 ms,
 * ...  Each written window starts where the schedule says, holds the time
 * of its span (the last one the rest), and the whole is the run. */
static void test_growing_windows(void **state)
{
	struct lc_pwriter *w = open_writer(1 * MS, 8);
	struct lc_threads *th = lc_threads_new(w);
	struct lc_accum *a = lc_accum_new(w, LC_SRC_SAMPLED, 1 * MS, 1);
	const uint64_t run = 100 * MS + 300000;	/* ends inside a window */
	const struct lc_prof_data *d;
	struct lc_profile *prof;

	assert_int_equal(lc_threads_id(th, 1, 1, 0, 1, 11, 0), 0);
	assert_int_equal(lc_accum_window_grow(a, 8), 0);
	/* a step that does not divide the windows: splits inside charges */
	charge_run(a, run, 300000);
	prof = finish(w, &a, 1);
	d = &prof->data[LC_SRC_SAMPLED];
	/* 100.3 ms: 8 x 1 ms, 4 x 2, 4 x 4 (to 32 ms), 4 x 8 (to 64), then
	 * 16 ms windows from 64: 64, 80, 96 — 23 windows */
	assert_int_equal(d->nwindows, 23);
	assert_int_equal(on_schedule(d, 1 * MS, 8, run), run);
	assert_int_equal(d->windows[8].start_ns, 8 * MS);
	assert_int_equal(d->windows[12].start_ns, 16 * MS);
	assert_int_equal(d->windows[22].start_ns, 96 * MS);
	assert_int_equal(d->total.cat[LC_CAT_PC], run);
	lc_profile_free(prof);
	lc_accum_free(a);
	lc_threads_free(th);
}

/* One long charge across many growing windows is split at each boundary;
 * a gap with no charges leaves the windows in it out. */
static void test_long_charge_and_gap(void **state)
{
	struct lc_pwriter *w = open_writer(1 * MS, 4);
	struct lc_accum *a = lc_accum_new(w, LC_SRC_SAMPLED, 1 * MS, 1);
	struct lc_obs_proc pr = { .uid = 1, .we = 1 };
	struct lc_obs o = { 1, &pr, 0, NULL };
	const struct lc_prof_data *d;
	struct lc_profile *prof;

	assert_int_equal(lc_accum_window_grow(a, 4), 0);
	/* [0, 4) 1 ms each, [4, 8) 2 ms each, [8, 16) 4 ms each */
	assert_int_equal(lc_accum_charge(a, 500000, 11 * MS, &o), 0);
	/* nothing in [11.5, 40): then [40, 41) lies in the 16 ms window of
	 * [32, 48), index 4 + 2 + 2 + 2 = 10 (level 3, [16, 32), stays out) */
	assert_int_equal(lc_accum_charge(a, 40 * MS, 1 * MS, &o), 0);
	prof = finish(w, &a, 1);
	d = &prof->data[LC_SRC_SAMPLED];
	assert_int_equal(d->nwindows, 8);
	assert_int_equal(lc_acct_wall(&d->windows[0].acct), 500000);
	assert_int_equal(lc_acct_wall(&d->windows[3].acct), 1 * MS);
	assert_int_equal(d->windows[4].start_ns, 4 * MS);
	assert_int_equal(lc_acct_wall(&d->windows[4].acct), 2 * MS);
	assert_int_equal(d->windows[6].start_ns, 8 * MS);
	assert_int_equal(lc_acct_wall(&d->windows[6].acct), 3 * MS + 500000);
	assert_int_equal(d->windows[7].index, 10);
	assert_int_equal(d->windows[7].start_ns, 32 * MS);
	assert_int_equal(lc_acct_wall(&d->windows[7].acct), 1 * MS);
	assert_int_equal(lc_acct_wall(&d->total), 12 * MS);
	lc_profile_free(prof);
	lc_accum_free(a);
}

/* Growth 0 is today's fixed windows. */
static void test_fixed(void **state)
{
	struct lc_pwriter *w = open_writer(10 * MS, 0);
	struct lc_accum *a = lc_accum_new(w, LC_SRC_SAMPLED, 10 * MS, 1);
	struct lc_obs_proc pr = { .uid = 1 };
	struct lc_obs o = { 1, &pr, 0, NULL };
	const struct lc_prof_data *d;
	struct lc_profile *prof;

	assert_int_equal(lc_accum_window_grow(a, 0), 0);
	assert_int_equal(lc_accum_charge(a, 0, 95 * MS, &o), 0);
	prof = finish(w, &a, 1);
	d = &prof->data[LC_SRC_SAMPLED];
	assert_int_equal(d->nwindows, 10);
	for (uint32_t i = 0; i < 10; i++)
		assert_int_equal(d->windows[i].start_ns, i * 10 * MS);
	assert_int_equal(lc_acct_wall(&d->windows[9].acct), 5 * MS);
	lc_profile_free(prof);
	lc_accum_free(a);
}

/* The trace source, replayed by the same accumulator with the same growth,
 * gets the sampled source's windows, however its charges are cut. */
static void test_sources_line_up(void **state)
{
	struct lc_pwriter *w = open_writer(1 * MS, 8);
	struct lc_threads *th = lc_threads_new(w);
	struct lc_accum *acc[2];
	struct lc_profile *prof;

	assert_int_equal(lc_threads_id(th, 1, 1, 0, 1, 11, 0), 0);
	acc[0] = lc_accum_new(w, LC_SRC_SAMPLED, 1 * MS, 1);
	acc[1] = lc_accum_new(w, LC_SRC_TRACE, 1 * MS, 1);
	assert_int_equal(lc_accum_window_grow(acc[0], 8), 0);
	assert_int_equal(lc_accum_window_grow(acc[1], 8), 0);
	charge_run(acc[0], 70 * MS, 100000);
	charge_run(acc[1], 70 * MS, 1700000);
	prof = finish(w, acc, 2);
	assert_int_equal(prof->data[0].nwindows, prof->data[1].nwindows);
	for (uint32_t i = 0; i < prof->data[0].nwindows; i++) {
		assert_int_equal(prof->data[0].windows[i].start_ns,
				 prof->data[1].windows[i].start_ns);
		assert_int_equal(lc_acct_wall(&prof->data[0].windows[i].acct),
				 lc_acct_wall(&prof->data[1].windows[i].acct));
	}
	lc_profile_free(prof);
	lc_accum_free(acc[0]);
	lc_accum_free(acc[1]);
	lc_threads_free(th);
}

/* Growths the schedule does not define are refused ... */
static void test_refused(void **state)
{
	struct lc_accum *a = lc_accum_new(NULL, LC_SRC_SAMPLED, 1 * MS, 1);

	(void)state;
	assert_int_equal(lc_accum_window_grow(a, 1), -EINVAL);
	assert_int_equal(lc_accum_window_grow(a, 7), -EINVAL);
	assert_int_equal(lc_accum_window_grow(a, 2), 0);
	assert_int_equal(lc_accum_window_grow(a, 0), 0);
	lc_accum_free(a);
}

/* ... and any, once the accumulator has charged time. */
static void test_refused_busy(void **state)
{
	struct lc_accum *a = lc_accum_new(NULL, LC_SRC_SAMPLED, 1 * MS, 1);
	struct lc_obs_proc pr = { .uid = 1 };
	struct lc_obs o = { 1, &pr, 0, NULL };

	(void)state;
	lc_accum_charge(a, 0, 1 * MS, &o);
	assert_int_equal(lc_accum_window_grow(a, 8), -EBUSY);
	lc_accum_free(a);
}

/* ---- merge -------------------------------------------------------------- */

#define T0 (1000 * 1000 * MS)	/* node A's t0: any time */

static char npath[2][256], jpath[256];

/* Node file k: host "node<k>", t0, one process (pid) of rank k of a job of
 * two, one thread busy for run ns, windows of base and growth grow. */
static void node_file(int k, uint64_t t0, uint64_t base, uint32_t grow, uint64_t run)
{
	struct lc_prof_rank rk = { .pid = 100 + k, .rank = k, .size = 2, .job_id = 42 };
	struct node_spec s = { .k = k, .t0_ns = t0, .window_ns = base, .run_ns = run,
			       .grow = grow, .pid0 = 100 + k, .nproc = 1, .ranks = &rk,
			       .nranks = 1 };

	snprintf(npath[k], sizeof(npath[k]), "/tmp/lc-test-window.%d.node%d.data", (int)getpid(),
		 k);
	node_file_write(npath[k], &s);
}

/* Merge the two node files; the job profile, or NULL with msg set. */
static struct lc_profile *merge2(char *msg, size_t len)
{
	char *paths[2] = { npath[0], npath[1] };
	struct lc_merge_stats st;
	struct lc_profile *prof = NULL;
	char err[256];

	snprintf(jpath, sizeof(jpath), "/tmp/lc-test-window.%d.job.data", (int)getpid());
	unlink(jpath);
	if (lc_merge(paths, 2, jpath, &st, msg, len))
		return NULL;
	assert_int_equal(lc_profile_read(jpath, &prof, err, sizeof(err)), 0);
	return prof;
}

static void merge_cleanup(void)
{
	unlink(npath[0]);
	unlink(npath[1]);
	unlink(jpath);
}

/* The job window that holds node thread row `thread` first, or -1. */
static int64_t first_with_thread(const struct lc_prof_data *d, uint32_t thread)
{
	for (uint32_t i = 0; i < d->nwindows; i++)
		for (uint32_t r = 0; r < d->windows[i].nthreads; r++)
			if (d->windows[i].threads[r].thread == thread)
				return d->windows[i].index;
	return -1;
}

/* Equal fixed windows: a node window goes to w + round(offset / window),
 * as merge always did. */
static void test_merge_equal_fixed(void **state)
{
	struct lc_profile *prof;
	char msg[512] = "";

	node_file(0, T0, 1 * MS, 0, 10 * MS);
	node_file(1, T0 + 2400000, 1 * MS, 0, 10 * MS);
	prof = merge2(msg, sizeof(msg));
	assert_non_null(prof);
	assert_int_equal(first_with_thread(&prof->data[0], 1), 2);
	lc_profile_free(prof);
	node_file(1, T0 + 2600000, 1 * MS, 0, 10 * MS);
	prof = merge2(msg, sizeof(msg));
	assert_non_null(prof);
	assert_int_equal(first_with_thread(&prof->data[0], 1), 3);
	assert_int_equal(prof->data[0].total.cat[LC_CAT_PC], 20 * MS);
	lc_profile_free(prof);
	merge_cleanup();
}

/* Finer windows into the first file's coarser ones: each by its midpoint,
 * two of them adding up in one job window, which is as long as its
 * longest node's time; the totals are the nodes' sums. */
static void test_merge_finer_into_coarser(void **state)
{
	const struct lc_prof_data *d;
	struct lc_profile *prof;
	uint64_t out[LC_NCAT], sum = 0;
	char msg[512] = "";

	node_file(0, T0, 2 * MS, 0, 20 * MS);
	/* node 1 starts 3.4 ms later with 1 ms windows: its window i has its
	 * midpoint at i + 3.9 ms, in job window (i + 3.9) / 2 */
	node_file(1, T0 + 3400000, 1 * MS, 0, 10 * MS);
	prof = merge2(msg, sizeof(msg));
	assert_non_null(prof);
	d = &prof->data[0];
	assert_int_equal(d->nwindows, 10);
	assert_int_equal(first_with_thread(d, 1), 1);
	for (uint32_t i = 0; i < d->nwindows; i++) {
		const struct lc_prof_window *w = &d->windows[i];
		uint64_t b = 0;	/* node 1's computation here */

		assert_int_equal(w->index, i);
		assert_int_equal(w->start_ns, i * 2 * MS);
		assert_int_equal(lc_acct_wall(&w->acct), 2 * MS);
		for (uint32_t r = 0; r < w->nthreads; r++)
			if (w->threads[r].thread == 1)
				b = w->threads[r].cat[LC_CAT_PC];
		/* 0 -> 1; 1, 2 -> 2; 3, 4 -> 3; 5, 6 -> 4; 7, 8 -> 5; 9 -> 6 */
		assert_int_equal(b, i == 1 || i == 6 ? 1 * MS : i >= 2 && i <= 5 ? 2 * MS : 0);
		/* one row per thread, however many node windows came in */
		assert_true(w->nthreads <= 2);
	}
	lc_profile_finish(prof, &d->total, out);
	for (int c = 0; c < LC_NCAT; c++)
		sum += out[c];
	/* the nodes' totals: 20 ms and 10 ms of computation, nothing else
	 * (the job's p adds no slots of its own) */
	assert_int_equal(out[LC_CAT_PC], 30 * MS);
	assert_int_equal(sum, 30 * MS);
	assert_int_equal(lc_acct_wall(&d->total), 20 * MS);
	lc_profile_free(prof);
	merge_cleanup();
}

/* A node window longer than the job window it would go into is refused,
 * and no job file is left. */
static void test_merge_coarser_refused(void **state)
{
	char msg[512] = "";

	node_file(0, T0, 1 * MS, 0, 10 * MS);
	node_file(1, T0, 2 * MS, 0, 10 * MS);
	assert_null(merge2(msg, sizeof(msg)));
	assert_non_null(strstr(msg, "2 ms windows"));
	assert_non_null(strstr(msg, "--window-grow"));
	assert_int_equal(access(jpath, F_OK), -1);
	merge_cleanup();
}

/* Two growing files, the second started 2.5 ms later: every job window
 * follows the schedule; node 1's windows lie where their midpoints fall
 * (a job window may so hold up to half a window more at either end than
 * its length); the totals are the nodes' sums.  Needs a reader that reads
 * the window schedule back. */
static void test_merge_growing(void **state)
{
	const uint64_t off = 2500000, run1 = 150 * MS;
	uint64_t out[LC_NCAT], want[64] = { 0 }, placed = 0;
	const struct lc_prof_data *d;
	struct lc_profile *prof;
	char msg[512] = "";

	node_file(0, T0, 1 * MS, 4, 200 * MS);
	node_file(1, T0 + off, 1 * MS, 4, run1);
	prof = merge2(msg, sizeof(msg));
	assert_non_null(prof);
	if (prof->info.window_grow != 4) {
		lc_profile_free(prof);
		merge_cleanup();
		skip();	/* this reader does not read the schedule back yet */
	}
	/* where node 1's computation belongs, by the rule */
	for (uint32_t i = 0;; i++) {
		uint64_t st, len;
		uint32_t j;

		lc_window_span(1 * MS, 4, i, &st, &len);
		if (st >= run1)
			break;
		j = lc_window_at(1 * MS, 4, st + off + len / 2);
		assert_true(j < 64);
		want[j] += st + len > run1 ? run1 - st : len;
	}
	d = &prof->data[0];
	for (uint32_t i = 0; i < d->nwindows; i++) {
		const struct lc_prof_window *w = &d->windows[i];
		uint64_t st, len, got = 0;

		lc_window_span(1 * MS, 4, w->index, &st, &len);
		assert_int_equal(w->start_ns, st);
		assert_int_equal(w->len_ns, len);
		assert_true(lc_acct_wall(&w->acct) <= 2 * len);
		for (uint32_t r = 0; r < w->nthreads; r++)
			if (w->threads[r].thread == 1)
				got = w->threads[r].cat[LC_CAT_PC];
		assert_int_equal(got, want[w->index]);
		placed += got;
	}
	assert_int_equal(placed, run1);
	lc_profile_finish(prof, &d->total, out);
	assert_int_equal(out[LC_CAT_PC], 350 * MS);
	lc_profile_free(prof);
	merge_cleanup();
}

LC_TEST_MAIN(NULL, NULL,
	     LC_T(test_growing_windows), LC_T(test_long_charge_and_gap), LC_T(test_fixed),
	     LC_T(test_sources_line_up), LC_T(test_refused), LC_T(test_refused_busy),
	     LC_T(test_merge_equal_fixed), LC_T(test_merge_finer_into_coarser),
	     LC_T(test_merge_coarser_refused), LC_T(test_merge_growing))
