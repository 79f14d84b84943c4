/*
 * test_merge_trust.c — "lostcycles merge" checks node files like any
 * untrusted input: forged files whose ranks repeat (0, 0, 1, 1), whose
 * ranks disagree on the job's size (5 against 4, 0xffffffff against 4),
 * whose rank block names another node's pid, or whose clock offset is
 * hostile (INT64_MIN, INT64_MAX) are refused with a one-line reason naming
 * the file and the rank, leaving no job profile behind; two honest node
 * files still merge.  With an argument DIR, it leaves a pair of honest
 * node files there (DIR/a.data, DIR/b.data) and exits: the seeds of the
 * fuzz target's corpus.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "attr.h"
#include "lostcycles.h"
#include "merge.h"
#include "node_file.h"

/* One rank block of a forged node file. */
struct frank {
	int32_t pid, rank;
	uint32_t size;
	int64_t offset;
};

static char dir[256], npath[2][300], jpath[300];

/* The ranks of two honest nodes: 0 and 1 on A, 2 and 3 on B (5 us ahead). */
#define HONEST_A { { 100, 0, 4, 0 }, { 101, 1, 4, 0 } }
static const struct frank honest_a[2] = HONEST_A;
static const struct frank honest_b[2] = { { 110, 2, 4, 5000 }, { 111, 3, 4, 5000 } };

/* Write node file k (host "node<k>") with nproc processes (pids
 * 100 + 10 k, ...) and the ranks rk[0..nr), one busy thread for 10 ms. */
static void node_file(const char *path, int k, int nproc, const struct frank *rk, int nr)
{
	struct lc_prof_rank r[8];
	struct node_spec s = { .k = k, .t0_ns = 1000000000000ull, .window_ns = 1000000,
			       .run_ns = 10000000, .pid0 = 100 + 10 * k, .nproc = nproc,
			       .ranks = r, .nranks = nr };

	assert_true(nr <= 8);
	for (int i = 0; i < nr; i++)
		r[i] = (struct lc_prof_rank){ .pid = rk[i].pid, .rank = rk[i].rank,
					      .size = rk[i].size, .clock_offset_ns = rk[i].offset,
					      .job_id = 42 };
	node_file_write(path, &s);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/lc-test-merge-trust.%d", (int)getpid());
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(npath[0], sizeof(npath[0]), "%s/A.data", dir);
	snprintf(npath[1], sizeof(npath[1]), "%s/B.data", dir);
	snprintf(jpath, sizeof(jpath), "%s/J.data", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(npath[0]);
	unlink(npath[1]);
	unlink(jpath);
	rmdir(dir);
	return 0;
}

/* Merge A and B (written from a[na], b[nb]); 0 or the error, msg set. */
static int merge(const struct frank *a, int na, const struct frank *b, int nb, char *msg,
		 size_t len)
{
	char *paths[2] = { npath[0], npath[1] };
	struct lc_merge_stats st;
	int r;

	node_file(npath[0], 0, 2, a, na);
	node_file(npath[1], 1, 2, b, nb);
	unlink(jpath);
	msg[0] = 0;
	r = lc_merge(paths, 2, jpath, &st, msg, len);
	if (r)
		print_message("      refused: %s\n", msg);
	return r;
}

/* A refusal: -EINVAL, one line naming the file and "rank N", no output. */
static void refused(int r, const char *msg, const char *file, const char *rank)
{
	assert_int_equal(r, -EINVAL);
	assert_null(strchr(msg, '\n'));
	if (file)
		assert_non_null(strstr(msg, file));
	if (rank)
		assert_non_null(strstr(msg, rank));
	assert_int_equal(access(jpath, F_OK), -1);
}

static void test_honest(void **state)
{
	struct lc_profile *prof = NULL;
	char msg[512];

	(void)state;
	assert_int_equal(merge(honest_a, 2, honest_b, 2, msg, sizeof(msg)), 0);
	assert_int_equal(lc_profile_read(jpath, &prof, msg, sizeof(msg)), 0);
	assert_int_equal(prof->nranks, 4);
	lc_profile_free(prof);
}

/* Forged node files: node A's ranks a, node B's ranks b; the refusal names
 * file and rank (and also, when set). */
static const struct forged {
	struct frank a[2], b[2];
	const char *file, *rank, *also;
} forged[] = {
	/* ranks 0 and 1 twice, rank 2 twice on one node */
	{ HONEST_A, { { 110, 0, 4, 0 }, { 111, 1, 4, 0 } }, "B.data", "rank 0", "A.data" },
	{ HONEST_A, { { 110, 2, 4, 0 }, { 111, 2, 4, 0 } }, "B.data", "rank 2", NULL },
	/* the job's size: 5 against 4, 0xffffffff against 4, 4 against 0xffffffff */
	{ HONEST_A, { { 110, 2, 5, 0 }, { 111, 3, 5, 0 } }, "B.data", "rank 2", NULL },
	{ HONEST_A, { { 110, 2, 0xffffffffu, 0 }, { 111, 3, 4, 0 } }, "B.data", "rank 2", NULL },
	{ { { 100, 0, 0xffffffffu, 0 }, { 101, 1, 0xffffffffu, 0 } },
	  { { 110, 2, 4, 0 }, { 111, 3, 4, 0 } }, "B.data", "rank 2", NULL },
	/* B's rank 3 names node A's pid 100 (whose rank 0 it would relabel),
	 * or a pid that is on no node */
	{ HONEST_A, { { 110, 2, 4, 0 }, { 100, 3, 4, 0 } }, "B.data", "rank 3", "pid 100" },
	{ HONEST_A, { { 110, 2, 4, 0 }, { 999, 3, 4, 0 } }, "B.data", "rank 3", NULL },
	/* hostile clock offsets */
	{ HONEST_A, { { 110, 2, 4, INT64_MIN }, { 111, 3, 4, INT64_MIN } }, "B.data", "rank 2", NULL },
	{ HONEST_A, { { 110, 2, 4, INT64_MAX }, { 111, 3, 4, INT64_MAX } }, "A.data", "rank 0", NULL },
};

static void test_forged(void **state)
{
	char msg[512];

	(void)state;
	for (size_t i = 0; i < sizeof(forged) / sizeof(forged[0]); i++) {
		const struct forged *f = &forged[i];

		refused(merge(f->a, 2, f->b, 2, msg, sizeof(msg)), msg, f->file, f->rank);
		if (f->also)
			assert_non_null(strstr(msg, f->also));
	}
}

/* Leave an honest pair in d for the fuzz corpus. */
static void seeds(void **state)
{
	char p[300];

	snprintf(p, sizeof(p), "%s/a.data", (const char *)*state);
	node_file(p, 0, 2, honest_a, 2);
	snprintf(p, sizeof(p), "%s/b.data", (const char *)*state);
	node_file(p, 1, 2, honest_b, 2);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_honest),
		cmocka_unit_test(test_forged),
	};

	if (argc == 2) {
		const struct CMUnitTest s[] = { cmocka_unit_test_prestate(seeds, argv[1]) };

		return cmocka_run_group_tests(s, NULL, NULL);
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
