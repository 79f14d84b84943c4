/*
 * test_places.c — the place and module blocks of a profile (format minor 5):
 * written with lc_pwriter_places / lc_pwriter_module and read back, summed
 * over windows into one row per (thread, pid, place, obj); wasted and move
 * corrections spread over a thread's place rows so that they still add up
 * to its thread row, category by category, for a recent window and for one
 * older than the reader's ring; a thread's time no row places is read as
 * place 0; the same totals with no_rows; a module
 * replaced by a later block; hostile blocks refused with a reason; an
 * older profile read with no place rows.
 */
#include <errno.h>
#include <fcntl.h>
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
#include "prof_sample.h"
#include "prof_writer.h"
#include "profile_format.h"

static char path[] = "/tmp/lc_test_placesXXXXXX";
static char err[256];

#define PA ((uint64_t)LC_PLACE_SYNC << 56 | (uint64_t)1 << 48 | 0x1234)
#define PB ((uint64_t)LC_PLACE_OMP_WORK << 56 | 0x4321)

/* The profile's name, made once; every test writes it anew. */
static int setup(void **state)
{
	int fd = mkstemp(path);

	(void)state;
	return fd < 0 ? -1 : close(fd);
}

static int teardown(void **state)
{
	(void)state;
	return unlink(path);
}

/* A window of source 0 with one row per given thread row. */
static void put_window(struct lc_pwriter *w, uint32_t idx, uint32_t n, struct lc_prof_trow *r)
{
	struct lc_prof_window win = { .source = LC_SRC_SAMPLED, .index = idx,
				      .start_ns = idx * 10000000ull, .len_ns = 10000000,
				      .ticks = 100, .max_n = 2, .nthreads = n, .threads = r };

	for (uint32_t i = 0; i < n; i++)
		for (int c = 0; c < LC_NCAT; c++)
			win.acct.cat[c] += r[i].cat[c];
	assert_int_equal(lc_pwriter_window(w, &win), 0);
}

/* A place row of window idx. */
static struct lc_prof_place prow(uint32_t idx, uint32_t t, uint64_t place, uint64_t pc,
				 uint64_t sl)
{
	return (struct lc_prof_place){ .source = LC_SRC_SAMPLED, .window = idx, .thread = t,
				       .pid = 100, .place = place, .obj = place == PA ? 0xabc : 0,
				       .cat = { [LC_CAT_PC] = pc, [LC_CAT_SL] = sl } };
}

/* Open path with a process of pid 100 and threads 0 and 1. */
static struct lc_pwriter *open_two(void)
{
	struct lc_prof_info in = sample_info();
	struct lc_prof_process p = { .pid = 100, .comm = sample_comm };

	return lc_test_pwriter(path, &in, &p, 2, 200);
}

/* Each thread's place rows of source 0 add up to its thread row. */
static void assert_sums(const struct lc_profile *pr)
{
	const struct lc_prof_data *d = &pr->data[LC_SRC_SAMPLED];

	for (uint32_t t = 0; t < pr->nthreads; t++) {
		uint64_t sum[LC_NCAT] = { 0 };

		for (uint32_t i = 0; i < d->nplaces; i++)
			if (d->places[i].thread == t)
				for (int c = 0; c < LC_NCAT; c++)
					sum[c] += d->places[i].cat[c];
		for (int c = 0; c < LC_NCAT; c++)
			assert_int_equal(sum[c], d->threads[t].cat[c]);
	}
	for (uint32_t i = 1; i < d->nplaces; i++)
		assert_true(d->places[i - 1].thread < d->places[i].thread ||
			    (d->places[i - 1].thread == d->places[i].thread &&
			     d->places[i - 1].place < d->places[i].place));
}

/* Window 0 and 1 with places, a module twice, and corrections. */
static void write_places(uint32_t nextra)
{
	struct lc_pwriter *w = open_two();
	struct lc_prof_trow r[2] = {
		{ .thread = 0, .cat = { [LC_CAT_PC] = 6000000, [LC_CAT_SL] = 4000000 } },
		{ .thread = 1, .cat = { [LC_CAT_PC] = 10000000 } },
	};
	struct lc_prof_place pl[5] = {
		prow(0, 0, PA, 3000000, 4000000), prow(0, 0, 0, 3000000, 0),
		prow(0, 1, PB, 7000000, 0), prow(0, 1, 0, 3000000, 0),
		{ .window = 0, .thread = UINT32_MAX, .pid = 100, .cat = { [LC_CAT_LI] = 5 } },
	};
	struct lc_prof_module m = { .pid = 100, .hash = 0, .path = sample_comm,
				    .build_id = sample_host, .size = 1, .mtime_ns = 2,
				    .based = 1, .bias = 0x555555554000ull };
	struct lc_prof_wasted x = { .source = LC_SRC_SAMPLED, .window = 0, .thread = 0,
				    .ns = 1000001, .task = 9 };
	struct lc_prof_end e = { .end_ns = 20000000, .procs = 2 };

	put_window(w, 0, 2, r);
	assert_int_equal(lc_pwriter_places(w, 5, pl), 0);
	r[0].cat[LC_CAT_SL] = 0;
	r[0].cat[LC_CAT_PC] = 5000000;
	put_window(w, 1, 1, r);
	pl[0] = prow(1, 0, PB, 5000000, 0);
	assert_int_equal(lc_pwriter_places(w, 1, pl), 0);
	for (uint32_t i = 0; i < nextra; i++) {	/* push windows 0 and 1 out of the ring */
		/* no row: the thread's time is in place 0; the rows in the
		 * window's block (as the sampler writes them) or after it */
		struct lc_prof_window win = { .source = LC_SRC_SAMPLED, .index = 2 + i,
					      .len_ns = 10000000, .nthreads = 1, .threads = &r[1],
					      .places_ext = i % 2 };

		win.acct = (struct lc_acct){ .cat = { [LC_CAT_PC] = 10000000 } };
		assert_int_equal(lc_pwriter_window(w, &win), 0);
		if (!win.places_ext)
			assert_int_equal(lc_pwriter_places_of(w, LC_SRC_SAMPLED, 2 + i, 0, NULL), 0);
	}
	assert_int_equal(lc_pwriter_module(w, &m), 0);
	m.path = sample_cmd;
	assert_int_equal(lc_pwriter_module(w, &m), 0);
	{
		struct lc_prof_place_name nm[2] = { { LC_PLACE_SYNC, 1, sample_host },
						    { LC_PLACE_MPI, 5, sample_comm } };

		assert_int_equal(lc_pwriter_place_names(w, 1, nm), 0);
		assert_int_equal(lc_pwriter_place_names(w, 2, nm), 0);	/* replaces */
	}
	assert_int_equal(lc_pwriter_wasted(w, &x), 0);
	x.window = 1;
	x.from = LC_CAT_PC;
	x.to = LC_CAT_ML;
	x.ns = 2000000;
	assert_int_equal(lc_pwriter_move(w, &x), 0);
	x.window = 0;
	x.ns = 2500001;
	assert_int_equal(lc_pwriter_move(w, &x), 0);
	assert_int_equal(lc_pwriter_end(w, &e), 0);
	assert_int_equal(lc_pwriter_close(w), 0);
}

/* The windows' place rows (kept by a default reading) add up to the
 * totals, row by row; with options they keep none. */
static void assert_windows(const struct lc_profile *pr, int kept)
{
	const struct lc_prof_data *d = &pr->data[LC_SRC_SAMPLED];

	for (uint32_t i = 0; i < d->nplaces; i++) {
		uint64_t sum[LC_NCAT] = { 0 };

		for (uint32_t k = 0; k < d->nwindows; k++) {
			const struct lc_prof_window *w = &d->windows[k];

			assert_true(kept || (!w->nplaces && !w->places));
			for (uint32_t j = 0; j < w->nplaces; j++)
				if (w->places[j].thread == d->places[i].thread &&
				    w->places[j].place == d->places[i].place &&
				    w->places[j].obj == d->places[i].obj) {
					assert_int_equal(w->places[j].window, w->index);
					for (int c = 0; c < LC_NCAT; c++)
						sum[c] += w->places[j].cat[c];
				}
		}
		for (int c = 0; kept && c < LC_NCAT; c++)
			assert_int_equal(sum[c], d->places[i].cat[c]);
	}
}

static void check_read(const struct lc_read_opts *o, uint32_t nextra)
{
	struct lc_profile *pr = NULL;
	const struct lc_prof_data *d;

	if (lc_profile_read_opts(path, o, &pr, err, sizeof(err)))
		fail_msg("%s", err);
	d = &pr->data[LC_SRC_SAMPLED];
	assert_int_equal(pr->version, LC_PF_MAJOR);
	assert_int_equal(d->nplaces, 6);
	assert_int_equal(d->places[0].thread, 0);
	assert_int_equal(d->places[0].place, 0);
	assert_int_equal(d->places[1].place, PA);
	assert_int_equal(d->places[1].obj, 0xabc);
	assert_int_equal(d->places[1].window, UINT32_MAX);
	assert_int_equal(d->places[2].place, PB);
	assert_int_equal(d->places[4].thread, 1);
	assert_int_equal(d->places[4].place, PB);
	assert_int_equal(d->places[3].cat[LC_CAT_PC], 3000000 + nextra * 10000000ull);
	assert_int_equal(d->places[5].thread, UINT32_MAX);
	assert_int_equal(d->places[5].cat[LC_CAT_LI], 5);
	/* thread 0: PC 11e6 - 1000001 (WC) - 4500001 (ML); SL stays */
	assert_int_equal(d->threads[0].cat[LC_CAT_WC], 1000001);
	assert_int_equal(d->threads[0].cat[LC_CAT_ML], 4500001);
	assert_int_equal(d->places[1].cat[LC_CAT_SL], 4000000);
	assert_sums(pr);
	assert_windows(pr, !o);
	if (!nextra || !o) {	/* window 0's wasted ns split half and half (+1 ns) */
		assert_int_equal(d->places[0].cat[LC_CAT_WC] + d->places[1].cat[LC_CAT_WC],
				 1000001);
		assert_true(d->places[1].cat[LC_CAT_WC] >= 500000);
		assert_true(d->places[0].cat[LC_CAT_WC] >= 500000);
		/* window 1's move only from its one place */
		assert_int_equal(d->places[2].cat[LC_CAT_PC], 3000000);
		assert_int_equal(d->places[2].cat[LC_CAT_ML], 2000000);
	}
	assert_int_equal(pr->nmodules, 1);
	assert_string_equal(pr->modules[0].path, sample_cmd);
	assert_string_equal(pr->modules[0].build_id, sample_host);
	assert_int_equal(pr->modules[0].mtime_ns, 2);
	assert_int_equal(pr->modules[0].based, 1);
	assert_int_equal(pr->modules[0].bias, 0x555555554000ull);
	assert_int_equal(pr->nplace_names, 2);
	assert_string_equal(lc_profile_place_what(pr, PA), sample_host);
	assert_string_equal(lc_profile_place_what(pr, (uint64_t)LC_PLACE_MPI << 56 | 5ull << 48),
			    sample_comm);
	assert_null(lc_profile_place_what(pr, PB));
	lc_profile_free(pr);
}

static void test_round_trip(void **state)
{
	struct lc_read_opts lean = { .no_rows = 1 }, few = { .max_windows = 2 };

	(void)state;
	write_places(0);
	check_read(NULL, 0);
	check_read(&lean, 0);
	write_places(70);
	check_read(NULL, 70);
	check_read(&few, 70);
}

/* A file of threads 0 and 1 and window 0, then the block: refused. */
static void refused(uint16_t type, const uint8_t *pl, uint32_t n, const char *why)
{
	struct lc_prof_trow r = { .thread = 0, .cat = { [LC_CAT_PC] = 1 } };
	struct lc_pwriter *w = open_two();
	struct lc_profile *pr = NULL;

	put_window(w, 0, 1, &r);
	assert_int_equal(lc_pwriter_close(w), 0);
	sample_append_block(path, type, pl, n);
	assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), -EBADMSG);
	assert_null(pr);
	if (!strstr(err, why))
		fail_msg("\"%s\" does not say \"%s\"", err, why);
}

static void test_hostile(void **state)
{
	/* source, window, count, then rows: thread+1, pid (zigzag), place, obj, mask */
	const uint8_t undeclared[] = { 0, 0, 1, 3, 200, 1, 0, 0, 0 };
	/* thread + 1 = 2^32: the reader went on to that thread's pid (a crash) */
	const uint8_t far[] = { 0, 0, 1, 0x80, 0x80, 0x80, 0x80, 0x10, 200, 1, 0, 0, 0 };
	const uint8_t wrongpid[] = { 0, 0, 1, 1, 202, 1, 0, 0, 0 };	/* read as its thread's */
	const uint8_t bigpid[] = { 0, 0, 1, 0, 0x80, 0x80, 0x80, 0x80, 0x10, 0, 0, 0 };
	const uint8_t count[] = { 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f, 1, 200, 1, 0, 0, 0 };
	const uint8_t unread[] = { 0, 1, 1, 1, 200, 1, 0, 0, 0 };
	const uint8_t mask[] = { 0, 0, 1, 1, 200, 1, 0, 0, 0x80, 0x04, 1 };
	uint8_t mod[32] = { 0 };

	(void)state;
	refused(LC_PF_PLACES, undeclared, sizeof(undeclared), "undeclared thread");
	refused(LC_PF_PLACES, far, sizeof(far), "undeclared thread");
	refused(LC_PF_PLACES, count, sizeof(count), "count larger");
	refused(LC_PF_PLACES, bigpid, sizeof(bigpid), "pid out of range");
	refused(LC_PF_PLACES, unread, sizeof(unread), "not of the window read");
	refused(LC_PF_PLACES, mask, sizeof(mask), "unknown field");
	refused(LC_PF_PLACES, wrongpid, 8, "short");
	lc_pf_put32(mod + 4, 0x10000);
	refused(LC_PF_MODULE, mod, sizeof(mod), "module hash");
	refused(LC_PF_MODULE, mod, 10, "short");
}

/* A second place block of one window would count it twice: refused. */
static void test_twice(void **state)
{
	struct lc_prof_trow r = { .thread = 0, .cat = { [LC_CAT_PC] = 1 } };
	struct lc_prof_place pl = prow(0, 0, 0, 1, 0);
	struct lc_pwriter *w = open_two();
	struct lc_profile *pr = NULL;

	(void)state;
	put_window(w, 0, 1, &r);
	assert_int_equal(lc_pwriter_places(w, 1, &pl), 0);
	assert_int_equal(lc_pwriter_places(w, 1, &pl), 0);
	assert_int_equal(lc_pwriter_close(w), 0);
	assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "second place block"));
	/* rows of two windows in one block are the writer's error */
	w = open_two();
	{
		struct lc_prof_place two[2] = { prow(0, 0, 0, 1, 0), prow(1, 0, 0, 1, 0) };

		assert_int_equal(lc_pwriter_places(w, 2, two), -EINVAL);
		assert_int_equal(lc_pwriter_places(w, 0, two), 0);
	}
	assert_int_equal(lc_pwriter_close(w), 0);
}

/* A profile of minor 4 and before has no place rows. */
static void test_older(void **state)
{
	uint64_t bounds[SAMPLE_NBLOCKS];
	struct lc_profile *pr = sample_read(path, bounds);

	(void)state;
	for (int s = 0; s < LC_NSRC; s++)
		assert_int_equal(pr->data[s].nplaces, 0);
	assert_int_equal(pr->nmodules, 0);
	assert_null(lc_profile_place_what(pr, PA));
	lc_profile_free(pr);
}

LC_TEST_MAIN(setup, teardown,
	     LC_T(test_round_trip), LC_T(test_hostile), LC_T(test_twice), LC_T(test_older))
