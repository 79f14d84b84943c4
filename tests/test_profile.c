/*
 * test_profile.c — categories, accounting arithmetic, and the profile file:
 * writer -> reader round trip of every field, truncation at every byte,
 * corruption of every byte, random files, crafted invalid blocks, and write
 * errors.
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

#include "lc_profile.h"
#include "prof_sample.h"
#include "profile_format.h"

static char dir[] = "/tmp/lc_test_profileXXXXXX";
static char path[256], path2[256];
static char err[256];

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/p.data", dir);
	snprintf(path2, sizeof(path2), "%s/q.data", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	unlink(path2);
	rmdir(dir);
	return 0;
}

/* Contents of path into a new buffer; *n its size. */
static uint8_t *load(const char *p, size_t *n)
{
	FILE *f = fopen(p, "rb");
	uint8_t *b;
	long sz;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	sz = ftell(f);
	rewind(f);
	b = malloc((size_t)sz + 1);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)sz, f), (size_t)sz);
	fclose(f);
	*n = (size_t)sz;
	return b;
}

/* Write b[0..n) to a fresh file p (unlinked first: truncating a file in
 * place makes ext4 flush it on close, which slows the every-byte loops). */
static void store(const char *p, const uint8_t *b, size_t n)
{
	int fd;

	unlink(p);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	if (n)
		assert_int_equal(write(fd, b, n), (ssize_t)n);
	close(fd);
}

/* Append one block with a correct CRC. */
static void append_block(const char *p, uint16_t type, const uint8_t *pl, uint32_t len)
{
	uint8_t *b = malloc(len + 12);
	int fd = open(p, O_WRONLY | O_APPEND);

	assert_non_null(b);
	assert_true(fd >= 0);
	lc_pf_put16(b, type);
	lc_pf_put16(b + 2, 0);
	lc_pf_put32(b + 4, len);
	memcpy(b + 8, pl, len);
	lc_pf_put32(b + 8 + len, lc_crc32(0, b, 8 + len));
	assert_int_equal(write(fd, b, len + 12), (ssize_t)(len + 12));
	close(fd);
	free(b);
}

static void test_categories(void **state)
{
	static const char *const keys[] = { "li", "ip", "sl", "cl", "rc", "ml", "bl", "wc", "rt" };

	(void)state;
	for (int c = 0; c < LC_NCAT; c++) {
		assert_string_equal(lc_cat_info(c)->key, keys[c]);
		assert_int_equal(lc_cat_by_key(keys[c]), c);
	}
	assert_string_equal(lc_cat_info(LC_CAT_IP)->name, "Insuff Parallelism");
	assert_string_equal(lc_cat_info(LC_CAT_PC)->name, "Remaining Time");
	assert_string_equal(lc_cat_info(LC_KEY_TT)->key, "tt");
	assert_null(lc_cat_info(LC_NKEY));
	assert_null(lc_cat_info(-1));
	assert_int_equal(lc_cat_by_key("pc"), -1);
	assert_int_equal(lc_cat_by_key("tt"), -1);
	assert_int_equal(lc_cat_by_key(NULL), -1);
	assert_int_equal(lc_key_lookup("pc"), LC_CAT_PC);
	assert_int_equal(lc_key_lookup("tt"), LC_KEY_TT);
	assert_int_equal(lc_key_lookup("sl"), LC_CAT_SL);
	assert_int_equal(lc_key_lookup("xx"), -1);
	assert_int_equal(lc_key_lookup(NULL), -1);
	for (int c = 0; c < LC_NCAT; c++)	/* what a sampler lacks has a reason */
		assert_true((lc_cat_info(c)->from == LC_FROM_FLAGS) ==
			    (lc_cat_info(c)->unmeasured == NULL));
	{
		char buf[64], small[6];

		assert_string_equal(lc_key_list(buf, sizeof(buf)), "li ip sl cl rc ml bl wc rt tt");
		assert_string_equal(lc_key_list(small, sizeof(small)), "li ip");
	}
	assert_int_equal(lc_crc32(0, "123456789", 9), 0xcbf43926u);
}

static void test_acct_finish(void **state)
{
	struct lc_acct a = { .cat = { [LC_CAT_PC] = 100, [LC_CAT_SL] = 20, [LC_CAT_LI] = 5 },
			     .t_we = 50, .n_we = 125, .t_nwe = 30, .n_nwe = 30 };
	struct lc_acct b = a, sum = { 0 };
	uint64_t out[LC_NCAT];

	(void)state;
	lc_acct_finish(&a, 4, out);
	assert_int_equal(out[LC_CAT_LI], 5 + 4 * 50 - 125);
	assert_int_equal(out[LC_CAT_IP], 4 * 30 - 30);
	assert_int_equal(out[LC_CAT_PC], 100);
	assert_int_equal(out[LC_CAT_SL], 20);
	assert_int_equal(lc_acct_wall(&a), 80);
	/* more live threads than slots: the empty-slot terms clamp at 0 */
	lc_acct_finish(&a, 1, out);
	assert_int_equal(out[LC_CAT_LI], 5);
	assert_int_equal(out[LC_CAT_IP], 0);
	lc_acct_add(&sum, &a);
	lc_acct_add(&sum, &b);
	assert_int_equal(sum.cat[LC_CAT_PC], 200);
	assert_int_equal(sum.n_we, 250);
	assert_int_equal(sum.t_nwe, 60);
}

/* Simulated ticks: each tick some n <= p threads are live and each is charged
 * to one category; the finished categories sum to p * wall exactly. */
static void test_completeness(void **state)
{
	const uint32_t p = 6;
	struct lc_acct a = { 0 };
	uint64_t out[LC_NCAT], sum = 0;

	(void)state;
	srand(7);
	for (int t = 0; t < 100000; t++) {
		uint64_t dt = 20000 + (uint64_t)(rand() % 200000);
		uint32_t n = (uint32_t)(rand() % (p + 1));
		int we = rand() % 3 != 0;

		for (uint32_t i = 0; i < n; i++)
			a.cat[rand() % LC_NCAT] += dt;
		if (we) {
			a.t_we += dt;
			a.n_we += n * dt;
		} else {
			a.t_nwe += dt;
			a.n_nwe += n * dt;
		}
	}
	lc_acct_finish(&a, p, out);
	for (int c = 0; c < LC_NCAT; c++)
		sum += out[c];
	assert_int_equal(sum, (uint64_t)p * lc_acct_wall(&a));
}

/* The sample read back: every field. */
static void check_sample(const struct lc_profile *pr)
{
	const struct lc_prof_data *d = &pr->data[LC_SRC_SAMPLED];
	const struct lc_prof_data *t = &pr->data[LC_SRC_TRACE];
	uint64_t out[LC_NCAT], sum = 0;

	assert_int_equal(pr->version, 1);
	assert_int_equal(pr->info.start_realtime_ns, 1700000000000000000ull);
	assert_int_equal(pr->info.t0_ns, 123456789);
	assert_int_equal(pr->info.interval_ns, 100000);
	assert_int_equal(pr->info.window_ns, 10000000);
	assert_int_equal(pr->info.procs_option, 0);
	assert_int_equal(pr->info.sampler_cpu, 1);
	assert_int_equal(pr->info.sched_fifo, 1);
	assert_int_equal(pr->info.unavailable, (1u << LC_CAT_RC) | (1u << LC_CAT_ML));
	assert_string_equal(pr->info.reason[LC_CAT_RC], "no hardware PMU");
	assert_string_equal(pr->info.reason[LC_CAT_ML], "no hardware PMU");
	assert_null(pr->info.reason[LC_CAT_LI]);
	assert_string_equal(pr->info.hostname, "host");
	assert_string_equal(pr->info.command, "./demo 4");
	assert_string_equal(pr->info.session, "s1");
	assert_int_equal(pr->nprocesses, 1);
	assert_int_equal(pr->processes[0].pid, 100);
	assert_int_equal(pr->processes[0].attach_ns, 5);
	assert_string_equal(pr->processes[0].comm, "demo");
	assert_int_equal(pr->nthreads, 3);
	for (uint32_t i = 0; i < 3; i++) {
		assert_int_equal(pr->threads[i].idx, i);
		assert_int_equal(pr->threads[i].pid, 100);
		assert_int_equal(pr->threads[i].tid, 100 + i);
		assert_int_equal(pr->threads[i].slot, i);
		assert_int_equal(pr->threads[i].first_ns, 10 * i);
	}
	/* windows, with the wasted record applied to window 0 */
	assert_true(d->present);
	assert_int_equal(d->nwindows, 2);
	assert_int_equal(d->windows[0].index, 0);
	assert_int_equal(d->windows[1].index, 1);
	assert_int_equal(d->windows[1].start_ns, 10000000);
	assert_int_equal(d->windows[0].ticks, 100);
	assert_int_equal(d->windows[0].max_n, 3);
	assert_int_equal(d->windows[0].team, 4);
	assert_int_equal(d->windows[0].acct.cat[LC_CAT_PC], 19000000);
	assert_int_equal(d->windows[0].acct.cat[LC_CAT_WC], 2000000);
	assert_int_equal(d->windows[0].acct.li_qempty, 1000000);
	assert_int_equal(d->windows[0].acct.n_we, 30000000);
	assert_int_equal(d->windows[0].nthreads, 3);
	assert_int_equal(d->windows[0].threads[1].cat[LC_CAT_PC], 8000000);
	assert_int_equal(d->windows[0].threads[1].cat[LC_CAT_WC], 2000000);
	assert_int_equal(d->windows[0].threads[2].li_qempty, 1000000);
	assert_int_equal(d->windows[0].ntags, 1);
	assert_int_equal(d->windows[0].tags[0].acct.cat[LC_CAT_WC], 2000000);
	assert_int_equal(d->windows[1].ntags, 2);
	assert_int_equal(d->windows[1].tags[1].tag, -3);
	assert_int_equal(d->windows[1].acct.t_nwe, 10000000);
	/* totals */
	assert_int_equal(pr->procs, 4);
	assert_int_equal(pr->procs_from, LC_PROCS_TEAM);
	lc_profile_finish(pr, &d->total, out);
	assert_int_equal(out[LC_CAT_LI], 15000000);
	assert_int_equal(out[LC_CAT_IP], 30000000);
	assert_int_equal(out[LC_CAT_SL], 4000000);
	assert_int_equal(out[LC_CAT_WC], 2000000);
	assert_int_equal(out[LC_CAT_PC], 29000000);
	for (int c = 0; c < LC_NCAT; c++)
		sum += out[c];
	assert_int_equal(sum, 4 * lc_acct_wall(&d->total));
	assert_int_equal(d->max_n, 3);
	assert_int_equal(d->team, 4);
	assert_int_equal(d->nthreads, 3);
	assert_int_equal(d->threads[0].cat[LC_CAT_PC], 16000000);
	assert_int_equal(d->threads[1].cat[LC_CAT_PC], 8000000);
	assert_int_equal(d->threads[1].cat[LC_CAT_WC], 2000000);
	assert_int_equal(d->threads[2].cat[LC_CAT_LI], 5000000);
	/* tags, sorted: -3 then 7 */
	assert_int_equal(d->ntags, 2);
	assert_int_equal(d->tags[0].tag, -3);
	assert_int_equal(d->tags[1].tag, 7);
	lc_profile_finish(pr, &d->tags[1].acct, out);
	assert_int_equal(out[LC_CAT_PC], 12000000);
	assert_int_equal(out[LC_CAT_WC], 2000000);
	assert_int_equal(out[LC_CAT_SL], 3000000);
	assert_int_equal(out[LC_CAT_LI], 5000000);
	assert_int_equal(out[LC_CAT_IP], 6000000);
	/* trace source */
	assert_true(t->present);
	assert_int_equal(t->nwindows, 1);
	assert_int_equal(t->total.cat[LC_CAT_SL], 5000000);
	assert_int_equal(t->ntags, 0);
	/* end */
	assert_true(pr->ended);
	assert_false(pr->cut);
	assert_int_equal(pr->end.end_ns, 20000000);
	assert_int_equal(pr->end.exit_status, 0);
	assert_int_equal(pr->end.ticks, 200);
	assert_int_equal(pr->end.max_gap_ns, 300000);
	assert_int_equal(pr->end.wasted_lost, 1);
	assert_int_equal(pr->end.bad_reads, 2);
	assert_string_equal(pr->end.reason, "command exited");
	assert_int_equal(pr->end.ext, 1);
	assert_int_equal(pr->end.sampler_cpu_ns, 7000000);
	assert_int_equal(pr->end.max_gap_at_ns, 15000000);
	assert_int_equal(pr->end.missed_ticks, 2);
	assert_int_equal(pr->end.shared_cpu, -1);
	assert_int_equal(pr->end.ncpus, 2);
}

static void test_round_trip(void **state)
{
	uint64_t bounds[SAMPLE_NBLOCKS];
	struct lc_profile *pr = NULL;

	(void)state;
	assert_int_equal(sample_write(path, bounds), 0);
	assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), 0);
	check_sample(pr);
	assert_int_equal(pr->cut_offset, bounds[SAMPLE_NBLOCKS - 1]);
	lc_profile_free(pr);
	lc_profile_free(NULL);
}

/* A cut at every byte: an error before the info block is complete, else
 * cut = 1 and exactly the blocks before the cut. */
static void test_truncation(void **state)
{
	uint64_t bounds[SAMPLE_NBLOCKS];
	uint8_t *b;
	size_t n;

	(void)state;
	assert_int_equal(sample_write(path, bounds), 0);
	b = load(path, &n);
	assert_int_equal(n, bounds[SAMPLE_NBLOCKS - 1]);
	for (size_t len = 0; len <= n; len++) {
		struct lc_profile *pr = NULL;
		int k = 0, r;

		store(path2, b, len);
		while (k < SAMPLE_NBLOCKS && bounds[k] <= len)
			k++;
		r = lc_profile_read(path2, &pr, err, sizeof(err));
		if (k == 0) {
			assert_true(r < 0);
			assert_null(pr);
			assert_true(strlen(err) > 0);
			continue;
		}
		assert_int_equal(r, 0);
		assert_int_equal(pr->cut, len != n);
		assert_int_equal(pr->cut_offset, bounds[k - 1]);
		assert_int_equal(pr->nprocesses, k >= 2);
		assert_int_equal(pr->nthreads, k >= 5 ? 3 : k >= 2 ? k - 2 : 0);
		assert_int_equal(pr->data[0].nwindows, (k >= 6) + (k >= 7));
		if (k >= 6)
			assert_int_equal(pr->data[0].windows[0].acct.cat[LC_CAT_WC],
					 k >= 8 ? 2000000 : 0);
		assert_int_equal(pr->data[1].nwindows, k >= 9);
		assert_int_equal(pr->ended, k >= 10);
		if (k < 10)
			assert_int_equal(pr->procs, k >= 6 ? 4 : 1);	/* team, else 1 */
		lc_profile_free(pr);
	}
	free(b);
}

/* Every single-byte change is detected: an error in the header or info
 * block, else a cut at the start of the damaged block. */
static void test_corruption(void **state)
{
	uint64_t bounds[SAMPLE_NBLOCKS];
	uint8_t *b;
	size_t n;

	(void)state;
	assert_int_equal(sample_write(path, bounds), 0);
	b = load(path, &n);
	for (size_t i = 0; i < n; i++) {
		static const uint8_t flips[] = { 0x01, 0x80, 0xff };

		for (size_t f = 0; f < sizeof(flips); f++) {
			struct lc_profile *pr = NULL;
			int k = 0, r;

			b[i] ^= flips[f];
			store(path2, b, n);
			b[i] ^= flips[f];
			while (k < SAMPLE_NBLOCKS && bounds[k] <= i)
				k++;
			r = lc_profile_read(path2, &pr, err, sizeof(err));
			if (k == 0) {
				assert_true(r < 0);
				continue;
			}
			assert_int_equal(r, 0);
			assert_true(pr->cut);
			assert_int_equal(pr->cut_offset, bounds[k - 1]);
			lc_profile_free(pr);
		}
	}
	free(b);
}

/* Random files, bare and behind a valid header and info block: never a
 * crash, and whatever loads is consistent. */
static void test_random(void **state)
{
	uint64_t bounds[SAMPLE_NBLOCKS];
	uint8_t *b, *head, buf[4096];
	size_t n;

	(void)state;
	assert_int_equal(sample_write(path, bounds), 0);
	head = load(path, &n);
	srand(11);
	for (int it = 0; it < 3000; it++) {
		struct lc_profile *pr = NULL;
		size_t len = (size_t)(rand() % (int)sizeof(buf)), pre = 0;
		int r;

		for (size_t i = 0; i < len; i++)
			buf[i] = (uint8_t)rand();
		if (it % 2) {
			pre = (size_t)bounds[it % 4 == 1 ? 0 : 4];
			b = malloc(pre + len);
			assert_non_null(b);
			memcpy(b, head, pre);
			memcpy(b + pre, buf, len);
			store(path2, b, pre + len);
			free(b);
		} else {
			store(path2, buf, len);
		}
		r = lc_profile_read(path2, &pr, err, sizeof(err));
		if (!pre) {
			assert_true(r < 0);
			continue;
		}
		assert_int_equal(r, 0);
		assert_true(pr->cut);
		assert_int_equal(pr->cut_offset, pre);
		lc_profile_free(pr);
	}
	free(head);
}

/* Blocks with a valid CRC but invalid content are rejected; unknown block
 * types are skipped. */
static void test_crafted(void **state)
{
	uint64_t bounds[SAMPLE_NBLOCKS];
	struct lc_profile *pr = NULL;
	uint8_t pl[64] = { 0 }, *b;
	size_t n;

	(void)state;
	/* an unknown block type after the end block: skipped */
	assert_int_equal(sample_write(path, bounds), 0);
	append_block(path, 99, (const uint8_t *)"future", 6);
	assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), 0);
	check_sample(pr);
	lc_profile_free(pr);

	/* a window row naming a thread never declared */
	assert_int_equal(sample_write(path, bounds), 0);
	b = load(path, &n);
	store(path, b, (size_t)bounds[1]);	/* header, info, process: no threads */
	pl[0] = LC_SRC_SAMPLED;			/* source, index 0, start, ticks... */
	lc_pf_put32(pl + 27, 1);		/* after 1+4+8+4+4+4 + empty acct mask */
	lc_pf_put32(pl + 31, 0);		/* thread 0, empty mask, no tags */
	append_block(path, LC_PF_WINDOW, pl, 31 + 4 + 2 + 4);
	assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "undeclared thread"));

	/* a huge count in a short block */
	store(path, b, (size_t)bounds[4]);
	memset(pl, 0, sizeof(pl));
	lc_pf_put32(pl + 27, 0xffffffffu);
	append_block(path, LC_PF_WINDOW, pl, 40);
	assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "count"));

	/* a string longer than LC_PROF_TEXT_MAX */
	store(path, b, (size_t)bounds[4]);
	memset(pl, 0, sizeof(pl));
	lc_pf_put32(pl + 12, LC_PROF_TEXT_MAX + 1);
	append_block(path, LC_PF_PROCESS, pl, 20);
	assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "string"));

	/* the first block is not info */
	store(path, b, LC_PF_HDR_SIZE);
	append_block(path, LC_PF_END, pl, 48);
	assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), -EBADMSG);

	/* a newer major version, with a valid header checksum */
	lc_pf_put16(b + 8, 7);
	lc_pf_put32(b + 20, lc_crc32(0, b, 20));
	store(path, b, n);
	assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), -ENOTSUP);
	assert_string_equal(err, "version 7 is newer than this tool (1)");

	/* not a profile; empty; missing; header only */
	store(path, (const uint8_t *)"hello, world\n", 13);
	assert_true(lc_profile_read(path, &pr, err, sizeof(err)) < 0);
	assert_string_equal(err, "not a lostcycles profile");
	store(path, b, 0);
	assert_true(lc_profile_read(path, &pr, err, sizeof(err)) < 0);
	assert_string_equal(err, "empty file");
	assert_int_equal(lc_profile_read("/nonexistent/x", &pr, err, sizeof(err)), -ENOENT);
	lc_pf_put16(b + 8, 1);
	lc_pf_put32(b + 20, lc_crc32(0, b, 20));
	store(path, b, LC_PF_HDR_SIZE);
	assert_true(lc_profile_read(path, &pr, err, sizeof(err)) < 0);
	assert_string_equal(err, "no complete block");
	store(path, b, 10);
	assert_true(lc_profile_read(path, &pr, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "truncated header"));
	assert_null(pr);
	free(b);
}

/* Write errors reach the caller and stick. */
static void test_write_errors(void **state)
{
	struct lc_prof_info in = sample_info();
	struct lc_prof_process p = { .pid = 1 };
	struct lc_pwriter *w;
	int e = 0;

	(void)state;
	/* a device of root's is a stream the writer may write into */
	w = lc_pwriter_open("/dev/full", &in, &e);
	assert_null(w);
	assert_int_equal(e, -ENOSPC);
	w = lc_pwriter_open("/nonexistent/dir/x", &in, &e);
	assert_null(w);
	assert_int_equal(e, -ENOENT);
	assert_int_equal(lc_pwriter_close(NULL), 0);
	/* a writer whose fd goes bad after open */
	unlink(path);	/* the writer creates a new file */
	w = lc_pwriter_open(path, &in, &e);
	assert_non_null(w);
	assert_int_equal(lc_pwriter_process(w, &p), 0);
	{
		int fd = open("/dev/full", O_WRONLY);

		assert_true(fd >= 0);
		/* the writer's fd is the lowest free one opened after path: find it
		 * by replacing every fd that refers to path */
		for (int i = 3; i < 64; i++) {
			char link[64], target[512];
			ssize_t l;

			snprintf(link, sizeof(link), "/proc/self/fd/%d", i);
			l = readlink(link, target, sizeof(target) - 1);
			if (l > 0 && (target[l] = 0, !strcmp(target, path)))
				dup2(fd, i);
		}
		close(fd);
	}
	assert_int_equal(lc_pwriter_process(w, &p), -ENOSPC);
	assert_int_equal(lc_pwriter_process(w, &p), -ENOSPC);
	assert_int_equal(lc_pwriter_close(w), -ENOSPC);
}

/* Move, events and counts blocks, and an end block that changes what was
 * measured (format minor 2). */
static void test_counters_blocks(void **state)
{
	struct lc_prof_info in = sample_info();
	struct lc_prof_thread th = { .idx = 0, .pid = 1, .tid = 1 };
	struct lc_prof_trow r = { .thread = 0, .cat = { [LC_CAT_PC] = 10000000 } };
	struct lc_prof_tagrow g = { .tag = 5, .acct = { .cat = { [LC_CAT_PC] = 10000000 },
							.t_we = 10000000, .n_we = 10000000 } };
	struct lc_prof_window w0 = { .source = LC_SRC_SAMPLED, .ticks = 100, .max_n = 1,
				     .acct = g.acct, .nthreads = 1, .threads = &r,
				     .ntags = 1, .tags = &g };
	int64_t tag = 5;
	struct lc_prof_wasted mv = { .source = LC_SRC_SAMPLED, .thread = 0, .ns = 3000000,
				     .from = LC_CAT_PC, .to = LC_CAT_ML, .ntags = 1, .tags = &tag };
	char cyc[] = "cycles", stl[] = "stalls", why[] = "no PMU here", how[] = "busy x stalls/cycles";
	struct lc_prof_event ev[2] = { { cyc, LC_EVR_CYCLES }, { stl, LC_EVR_STALL } };
	struct lc_prof_counts ct = { .source = LC_SRC_SAMPLED, .thread = 0, .ntags = 1,
				     .tags = &tag, .nev = 2, .v = { 100, 30 } };
	struct lc_prof_end e = { .end_ns = 10000000, .procs = 1, .procs_from = LC_PROCS_THREADS,
				 .unavailable = 1u << LC_CAT_RC, .sched_source = LC_SCHED_NONE,
				 .shared_cpu = 0 };
	struct lc_profile *pr = NULL;
	struct lc_pwriter *w;
	int rc = 0;

	(void)state;
	e.reason_na[LC_CAT_RC] = why;
	e.method[LC_CAT_ML] = how;
	unlink(path);	/* the writer creates a new file */
	w = lc_pwriter_open(path, &in, &rc);
	assert_non_null(w);
	assert_int_equal(lc_pwriter_thread(w, &th), 0);
	assert_int_equal(lc_pwriter_events(w, 2, ev), 0);
	assert_int_equal(lc_pwriter_window(w, &w0), 0);
	assert_int_equal(lc_pwriter_move(w, &mv), 0);
	assert_int_equal(lc_pwriter_counts(w, &ct), 0);
	assert_int_equal(lc_pwriter_counts(w, &ct), 0);
	assert_int_equal(lc_pwriter_end(w, &e), 0);
	assert_int_equal(lc_pwriter_close(w), 0);
	assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), 0);
	assert_int_equal(pr->data[0].windows[0].acct.cat[LC_CAT_PC], 7000000);
	assert_int_equal(pr->data[0].windows[0].acct.cat[LC_CAT_ML], 3000000);
	assert_int_equal(pr->data[0].threads[0].cat[LC_CAT_ML], 3000000);
	assert_int_equal(pr->data[0].tags[0].acct.cat[LC_CAT_ML], 3000000);
	assert_int_equal(pr->nevents, 2);
	assert_string_equal(pr->events[1].name, "stalls");
	assert_int_equal(pr->events[1].role, LC_EVR_STALL);
	assert_int_equal(pr->data[0].ev_total[0], 200);
	assert_int_equal(pr->data[0].ev_total[1], 60);
	assert_int_equal(pr->data[0].ev_window[1], 60);
	assert_int_equal(pr->data[0].ev_thread[0], 200);
	assert_int_equal(pr->data[0].ev_tag[1], 60);
	/* the end block's say replaces the info block's: ML measured, RC not */
	assert_int_equal(pr->info.unavailable, 1u << LC_CAT_RC);
	assert_string_equal(pr->info.reason[LC_CAT_RC], "no PMU here");
	assert_null(pr->info.reason[LC_CAT_ML]);
	assert_string_equal(pr->end.method[LC_CAT_ML], "busy x stalls/cycles");
	assert_int_equal(pr->end.shared_cpu, 0);
	lc_profile_free(pr);

	/* counts that do not match the events block are corrupt */
	unlink(path);	/* the writer creates a new file */
	w = lc_pwriter_open(path, &in, &rc);
	assert_non_null(w);
	assert_int_equal(lc_pwriter_thread(w, &th), 0);
	assert_int_equal(lc_pwriter_events(w, 1, ev), 0);
	assert_int_equal(lc_pwriter_counts(w, &ct), 0);
	assert_int_equal(lc_pwriter_close(w), 0);
	pr = NULL;
	assert_true(lc_profile_read(path, &pr, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "corrupt counts block"));
	assert_null(pr);
	/* a move to an unknown category is corrupt */
	unlink(path);	/* the writer creates a new file */
	w = lc_pwriter_open(path, &in, &rc);
	assert_non_null(w);
	assert_int_equal(lc_pwriter_thread(w, &th), 0);
	mv.to = LC_NCAT;
	assert_int_equal(lc_pwriter_move(w, &mv), 0);
	assert_int_equal(lc_pwriter_close(w), 0);
	assert_true(lc_profile_read(path, &pr, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "unknown category"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_categories),
		cmocka_unit_test(test_acct_finish),
		cmocka_unit_test(test_completeness),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_corruption),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_crafted),
		cmocka_unit_test(test_write_errors),
		cmocka_unit_test(test_counters_blocks),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
