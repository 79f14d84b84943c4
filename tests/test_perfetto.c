/*
 * test_perfetto.c — the Chrome trace JSON of a timeline (postproc/export/perfetto.h)
 * as a reader that sums in doubles sees it: a synthetic profile of one
 * thread whose windows hold random nanoseconds per category, at small
 * times (the first slices near 0, where tn - t is not exact in doubles)
 * and an hour into a run, is written, and every "ts" and "dur" is parsed
 * with strtod: wherever two slices meet in ns, ts + dur of the first is
 * exactly the ts of the next as doubles; no slice overlaps the next; and
 * the durations per category, in ns, sum to the profile's exactly.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_test.h"
#include "lc_profile.h"
#include "perfetto.h"
#include "rng.h"

#define NWIN 400

static struct lc_prof_window win[NWIN];
static struct lc_prof_trow rows[NWIN];
static struct lc_prof_thread thr = { .idx = 0, .pid = 10, .tid = 11 };

/* A profile of one thread: NWIN windows of 10 ms from t0 + base_ns, each
 * filled by random times of random categories (the first slice of the
 * first window 1 ns long). */
static void make(struct lc_profile *pr, uint64_t base_ns, uint64_t seed, uint64_t want[LC_NCAT])
{
	rng_seed(seed);
	memset(want, 0, LC_NCAT * sizeof(*want));
	for (uint32_t i = 0; i < NWIN; i++) {
		uint64_t left = 10000000;

		rows[i] = (struct lc_prof_trow){ .thread = 0 };
		for (int c = 0; c < LC_NCAT && left; c++) {
			uint64_t ns = i == 0 && c == 0 ? 1 : (uint64_t)(rng_uniform() * (double)left);

			if (rng_uniform() < 0.4)
				continue;
			rows[i].cat[c] = ns;
			want[c] += ns;
			left -= ns;
		}
		win[i] = (struct lc_prof_window){ .index = i, .start_ns = base_ns + i * 10000000ull,
						  .len_ns = 10000000, .nmerged = 1, .nthreads = 1,
						  .threads = &rows[i] };
	}
	*pr = (struct lc_profile){ .nthreads = 1, .threads = &thr, .procs = 1 };
	pr->data[LC_SRC_SAMPLED] = (struct lc_prof_data){ .present = 1, .nwindows = NWIN,
							  .windows = win };
}

/* The number after key in s (NULL: absent), with strtod. */
static const char *num(const char *s, const char *key, double *v)
{
	const char *p = strstr(s, key);

	if (!p)
		return NULL;
	*v = strtod(p + strlen(key), NULL);
	return p;
}

/* Write pr, then check every slice of the thread as a reader sums them. */
static void check(const struct lc_profile *pr, const uint64_t want[LC_NCAT])
{
	char *buf = NULL, msg[128];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	uint64_t got[LC_NCAT] = { 0 };
	double end = -1;
	int nmeet = 0;

	assert_int_equal(lc_perfetto_write(f, pr, LC_SRC_SAMPLED, NULL, NULL, msg, sizeof(msg)), 0);
	fclose(f);
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		double ts, dur;
		char key[8] = "";
		const char *cat = strstr(line, "\"cat\":\"");

		if (!strstr(line, "\"ph\":\"X\"") || !num(line, "\"ts\":", &ts) ||
		    !num(line, "\"dur\":", &dur) || !cat)
			continue;
		sscanf(cat + 7, "%7[a-z]", key);
		assert_true(ts >= end);			/* no overlap as parsed */
		if (end >= 0 && llround(end * 1000) == llround(ts * 1000)) {
			assert_true(ts == end);		/* a meet is exact */
			nmeet++;
		}
		end = ts + dur;
		got[lc_cat_by_key(key)] += (uint64_t)llround(dur * 1000);
	}
	for (int c = 0; c < LC_NCAT; c++)
		assert_int_equal(got[c], want[c]);
	assert_true(nmeet > NWIN);
	free(buf);
}

static void test_near_zero(void **state)
{
	struct lc_profile pr;
	uint64_t want[LC_NCAT];

	make(&pr, 0, 1, want);
	check(&pr, want);
}

static void test_an_hour_in(void **state)
{
	struct lc_profile pr;
	uint64_t want[LC_NCAT];

	for (uint64_t seed = 2; seed < 6; seed++) {
		make(&pr, 3600000000000ull + seed * 7, seed, want);
		check(&pr, want);
	}
}

LC_TEST_MAIN(NULL, NULL,
	     LC_T(test_near_zero), LC_T(test_an_hour_in))
