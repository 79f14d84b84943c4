/*
 * test_profile.c — categories, accounting arithmetic, and the profile file:
 * writer -> reader round trip of every field, truncation at every byte,
 * corruption of every byte, random files, crafted invalid blocks, and write
 * errors.
 */
#include <errno.h>
#include <fcntl.h>
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
#include "lc_profile.h"
#include "prof_sample.h"
#include "prof_writer.h"
#include "profile_format.h"
#include "rng.h"
#include "tmpdir_test.h"

static char err[256];

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

/* The sample profile written to path and read back into a new buffer; *n
 * its size, bounds the offsets where its blocks end. */
static uint8_t *sample_load(uint64_t *bounds, size_t *n)
{
	assert_int_equal(sample_write(path, bounds), 0);
	return load(path, n);
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
	/* minor 4: what each rule for p gave */
	assert_int_equal(pr->end.p_rules, 1);
	assert_int_equal(pr->end.max_threads, 4);
	assert_int_equal(pr->end.max_runnable, 3);
	assert_int_equal(pr->end.affinity_cpus, 2);
}

static void test_round_trip(void **state)
{
	uint64_t bounds[SAMPLE_NBLOCKS];
	struct lc_profile *pr = sample_read(path, bounds);

	(void)state;
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
	b = sample_load(bounds, &n);
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
	b = sample_load(bounds, &n);
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
	head = sample_load(bounds, &n);
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
	sample_append_block(path, 99, (const uint8_t *)"future", 6);
	assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), 0);
	check_sample(pr);
	lc_profile_free(pr);

	/* a window row naming a thread never declared */
	b = sample_load(bounds, &n);
	store(path, b, (size_t)bounds[1]);	/* header, info, process: no threads */
	pl[0] = LC_SRC_SAMPLED;			/* source, index 0, start, ticks... */
	lc_pf_put32(pl + 27, 1);		/* after 1+4+8+4+4+4 + empty acct mask */
	lc_pf_put32(pl + 31, 0);		/* thread 0, empty mask, no tags */
	sample_append_block(path, LC_PF_WINDOW, pl, 31 + 4 + 2 + 4);
	assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "undeclared thread"));

	/* a huge count in a short block */
	store(path, b, (size_t)bounds[4]);
	memset(pl, 0, sizeof(pl));
	lc_pf_put32(pl + 27, 0xffffffffu);
	sample_append_block(path, LC_PF_WINDOW, pl, 40);
	assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "count"));

	/* a string longer than LC_PROF_TEXT_MAX */
	store(path, b, (size_t)bounds[4]);
	memset(pl, 0, sizeof(pl));
	lc_pf_put32(pl + 12, LC_PROF_TEXT_MAX + 1);
	sample_append_block(path, LC_PF_PROCESS, pl, 20);
	assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "string"));

	/* the first block is not info */
	store(path, b, LC_PF_HDR_SIZE);
	sample_append_block(path, LC_PF_END, pl, 48);
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

/* The profile's share sums every span that is not partial as long as the
 * sums of lengths and totals fit 64 bits: a span of 2^63 ns is followed by
 * one of 0.1 s (the reader left that out, and the fuzz target's check,
 * which summed what it was not told to leave out, trapped), and a third of
 * 2^63 ns that would wrap the sum of lengths is left out. */
static void test_machine_sums(void **state)
{
	struct lc_prof_info in = sample_info();
	const uint64_t half = 1ull << 63;
	struct lc_prof_machine m[3] = {
		{ .len_ns = half, .ncpus = 2, .total_ns = 200000000, .other_ns = 100000000 },
		{ .start_ns = 100000000, .len_ns = 100000000, .ncpus = 2, .total_ns = 200000000 },
		{ .len_ns = half, .ncpus = 2, .total_ns = 200000000, .other_ns = 200000000 },
	};
	struct lc_profile *pr = NULL;
	struct lc_pwriter *w;

	(void)state;
	w = lc_test_new_writer(path, &in);
	for (int i = 0; i < 3; i++)
		assert_int_equal(lc_pwriter_machine(w, &m[i]), 0);
	assert_int_equal(lc_pwriter_close(w), 0);
	assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), 0);
	assert_int_equal(pr->nmachine, 3);
	assert_true(pr->machine_total.len_ns == half + 100000000);
	assert_int_equal(pr->machine_total.total_ns, 400000000);
	assert_int_equal(pr->machine_total.other_ns, 100000000);
	assert_true(fabs(lc_machine_pct(&pr->machine_total, LC_SHARE_LOAD) - 25.0) < 1e-9);
	lc_profile_free(pr);
}

/* Machine blocks (minor 4): read back, summed without partial spans, the
 * shares and the categories they distort; a profile without them reads
 * as unmeasured; a block whose parts exceed its total, that names no CPU
 * or that is short, is corrupt. */
static void test_machine_blocks(void **state)
{
	struct lc_prof_info in = sample_info();
	struct lc_prof_machine m[3] = {
		{ .start_ns = 0, .len_ns = 100000000, .ncpus = 2, .total_ns = 200000000,
		  .program_ns = 100000000, .sampler_ns = 10000000, .other_ns = 60000000,
		  .steal_ns = 10000000 },
		{ .start_ns = 100000000, .len_ns = 100000000, .ncpus = 2, .total_ns = 200000000,
		  .program_ns = 180000000, .sampler_ns = 10000000, .other_ns = 10000000 },
		{ .start_ns = 200000000, .len_ns = 50000000, .ncpus = 2, .total_ns = 100000000,
		  .other_ns = 100000000, .flags = LC_MACH_PARTIAL },
	};
	struct lc_prof_end e = { .end_ns = 250000000, .procs = 2, .procs_from = LC_PROCS_THREADS,
				 .sched_source = LC_SCHED_SWITCH, .ext = 1, .shared_cpu = -1 };
	struct lc_profile *pr = NULL;
	struct lc_pwriter *w;
	uint64_t bounds[SAMPLE_NBLOCKS];
	uint8_t pl[72] = { 0 };

	(void)state;
	w = lc_test_new_writer(path, &in);
	for (int i = 0; i < 3; i++)
		assert_int_equal(lc_pwriter_machine(w, &m[i]), 0);
	assert_int_equal(lc_pwriter_end(w, &e), 0);
	assert_int_equal(lc_pwriter_close(w), 0);
	assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), 0);
	assert_int_equal(pr->nmachine, 3);
	assert_memory_equal(&pr->machine[1], &m[1], sizeof(m[1]));
	assert_int_equal(pr->machine_total.len_ns, 200000000);
	assert_int_equal(pr->machine_total.total_ns, 400000000);
	assert_int_equal(pr->machine_total.other_ns, 70000000);
	assert_int_equal(pr->machine_total.ncpus, 2);
	assert_true(fabs(lc_machine_pct(&pr->machine_total, LC_SHARE_OTHER) - 17.5) < 1e-9);
	assert_true(fabs(lc_machine_pct(&pr->machine_total, LC_SHARE_LOAD) - 20.0) < 1e-9);
	assert_true(fabs(lc_machine_pct(&pr->machine_total, LC_SHARE_SAMPLER) - 5.0) < 1e-9);
	assert_true(lc_machine_pct(&pr->machine_total, LC_NSHARE) < 0);
	assert_true(lc_machine_pct(NULL, LC_SHARE_OTHER) < 0);
	assert_int_equal(lc_machine_distorts(pr), 1u << LC_CAT_RC | 1u << LC_CAT_SL |
					       1u << LC_CAT_LI | 1u << LC_CAT_IP);
	lc_profile_free(pr);

	/* below the threshold: nothing distorted; without blocks: unmeasured */
	assert_int_equal(sample_write(path, bounds), 0);
	assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), 0);
	assert_int_equal(pr->nmachine, 0);
	assert_true(lc_machine_pct(&pr->machine_total, LC_SHARE_OTHER) < 0);
	assert_int_equal(lc_machine_distorts(pr), 0);
	lc_profile_free(pr);

	/* parts above the total; no CPU; too short */
	lc_pf_put64(pl + 0, 0);
	lc_pf_put64(pl + 8, 100);
	lc_pf_put32(pl + 16, 1);
	lc_pf_put64(pl + 24, 100);		/* total */
	lc_pf_put64(pl + 32, 60);		/* program */
	lc_pf_put64(pl + 48, 60);		/* other */
	sample_append_block(path, LC_PF_MACHINE, pl, 64);
	assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "machine"));
	assert_int_equal(sample_write(path, bounds), 0);
	lc_pf_put64(pl + 48, 40);
	lc_pf_put32(pl + 16, 0);
	sample_append_block(path, LC_PF_MACHINE, pl, 64);
	assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), -EBADMSG);
	assert_int_equal(sample_write(path, bounds), 0);
	lc_pf_put32(pl + 16, 1);
	sample_append_block(path, LC_PF_MACHINE, pl, 63);
	assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "short"));
	assert_int_equal(sample_write(path, bounds), 0);
	lc_pf_put64(pl + 32, UINT64_MAX);	/* overflowing parts */
	lc_pf_put64(pl + 24, UINT64_MAX);
	lc_pf_put64(pl + 40, UINT64_MAX);
	sample_append_block(path, LC_PF_MACHINE, pl, 72);	/* longer: the rest ignored */
	assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), -EBADMSG);
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
	w = sample_open(path, &in, &e);
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

	(void)state;
	e.reason_na[LC_CAT_RC] = why;
	e.method[LC_CAT_ML] = how;
	w = lc_test_new_writer(path, &in);
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
	w = lc_test_new_writer(path, &in);
	assert_int_equal(lc_pwriter_thread(w, &th), 0);
	assert_int_equal(lc_pwriter_events(w, 1, ev), 0);
	assert_int_equal(lc_pwriter_counts(w, &ct), 0);
	assert_int_equal(lc_pwriter_close(w), 0);
	pr = NULL;
	assert_true(lc_profile_read(path, &pr, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "corrupt counts block"));
	assert_null(pr);
	/* a move to an unknown category is corrupt */
	w = lc_test_new_writer(path, &in);
	assert_int_equal(lc_pwriter_thread(w, &th), 0);
	mv.to = LC_NCAT;
	assert_int_equal(lc_pwriter_move(w, &mv), 0);
	assert_int_equal(lc_pwriter_close(w), 0);
	assert_true(lc_profile_read(path, &pr, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "unknown category"));
}

/* ---- format minor 3: varint windows, the streaming reader, options ------- */

/* The payload of the info block at byte LC_PF_HDR_SIZE of b: *len its
 * length.  Returns a pointer to it. */
static uint8_t *info_payload(uint8_t *b, uint32_t *len)
{
	*len = lc_pf_get32(b + LC_PF_HDR_SIZE + 4);
	return b + LC_PF_HDR_SIZE + LC_PF_BLK_HDR;
}

/* Every field of a varint window (type 12), and info's window_grow, come
 * back as written; a window's len_ns 0 is written as info's window_ns. */
static void test_vwindow_round_trip(void **state)
{
	struct lc_prof_info in = sample_info();
	struct lc_prof_thread th = { .pid = 1, .tid = 1 };
	struct lc_prof_trow rows[3] = {
		{ .thread = 2, .cat = { [LC_CAT_PC] = UINT64_MAX, [LC_CAT_IP] = 1 },
		  .li_qempty = 127 },
		{ .thread = 0, .cat = { 1, 2, 3, 4, 5, 6, 7, 8, 9 }, .li_qempty = 128 },
		{ .thread = 1 },
	};
	struct lc_prof_tagrow tags[3] = {
		{ .tag = INT64_MIN, .acct = { .cat = { [LC_CAT_WC] = 5 }, .n_nwe = UINT64_MAX } },
		{ .tag = INT64_MAX, .acct = { .li_qempty = 3, .t_we = 4, .n_we = 5, .t_nwe = 6 } },
		{ .tag = -1 },
	};
	struct lc_prof_window w0 = {
		.source = LC_SRC_SAMPLED, .index = 7, .start_ns = 70000000, .len_ns = 20000000,
		.ticks = 200, .max_n = 3, .team = 8,
		.acct = { .cat = { 10, 20, 30, 40, 50, 60, 70, 80, 90 }, .li_qempty = 1,
			  .t_we = 2, .n_we = 3, .t_nwe = 4, .n_nwe = 1ull << 63 },
		.nthreads = 3, .threads = rows, .ntags = 3, .tags = tags,
	};
	struct lc_prof_window w1 = { .source = LC_SRC_TRACE, .index = UINT32_MAX,
				     .start_ns = UINT64_MAX, .ticks = UINT32_MAX };
	struct lc_profile *pr = NULL;
	struct lc_pwriter *w;
	const struct lc_prof_window *a;
	uint8_t *b;
	size_t n;

	(void)state;
	in.window_grow = 4096;
	w = lc_test_new_writer(path, &in);
	for (uint32_t i = 0; i < 3; i++) {
		th.idx = i;
		assert_int_equal(lc_pwriter_thread(w, &th), 0);
	}
	assert_int_equal(lc_pwriter_window(w, &w0), 0);
	assert_int_equal(lc_pwriter_window(w, &w1), 0);
	assert_int_equal(lc_pwriter_close(w), 0);
	/* the header says minor 5 (3 brought the type 12 windows), the window blocks are type 12 */
	b = load(path, &n);
	assert_int_equal(lc_pf_get16(b + 10), 5);
	{
		uint32_t len, off = LC_PF_HDR_SIZE;

		info_payload(b, &len);
		off += LC_PF_BLK_HDR + len + LC_PF_BLK_CRC;
		for (int k = 0; k < 3; k++)	/* the thread blocks */
			off += LC_PF_BLK_HDR + lc_pf_get32(b + off + 4) + LC_PF_BLK_CRC;
		assert_int_equal(lc_pf_get16(b + off), LC_PF_VWINDOW);
	}
	free(b);
	assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), 0);
	assert_int_equal(pr->info.window_grow, 4096);
	assert_int_equal(pr->info.window_ns, 10000000);
	assert_int_equal(pr->data[0].nwindows, 1);
	a = &pr->data[0].windows[0];
	assert_int_equal(a->source, LC_SRC_SAMPLED);
	assert_int_equal(a->index, 7);
	assert_int_equal(a->start_ns, 70000000);
	assert_int_equal(a->len_ns, 20000000);
	assert_int_equal(a->nmerged, 1);
	assert_int_equal(a->ticks, 200);
	assert_int_equal(a->max_n, 3);
	assert_int_equal(a->team, 8);
	assert_memory_equal(&a->acct, &w0.acct, sizeof(a->acct));
	assert_int_equal(a->nthreads, 3);
	for (uint32_t i = 0; i < 3; i++) {	/* in the order written, not sorted */
		assert_int_equal(a->threads[i].thread, rows[i].thread);
		assert_memory_equal(a->threads[i].cat, rows[i].cat, sizeof(rows[i].cat));
		assert_int_equal(a->threads[i].li_qempty, rows[i].li_qempty);
	}
	assert_int_equal(a->ntags, 3);
	for (uint32_t i = 0; i < 3; i++) {
		assert_int_equal(a->tags[i].tag, tags[i].tag);
		assert_memory_equal(&a->tags[i].acct, &tags[i].acct, sizeof(tags[i].acct));
	}
	assert_int_equal(pr->data[1].nwindows, 1);
	a = &pr->data[1].windows[0];
	assert_int_equal(a->index, UINT32_MAX);
	assert_int_equal(a->start_ns, UINT64_MAX);
	assert_int_equal(a->len_ns, 10000000);	/* 0: the info's */
	assert_int_equal(a->ticks, UINT32_MAX);
	assert_int_equal(a->nthreads, 0);
	assert_null(a->threads);
	lc_profile_free(pr);
}

/* Test-only encoder of the fixed-width blocks of format minor 0-2. */
struct enc {
	uint8_t b[4096];
	uint32_t n;
};

static void e8(struct enc *e, uint8_t v)
{
	e->b[e->n++] = v;
}

static void e16(struct enc *e, uint16_t v)
{
	lc_pf_put16(e->b + e->n, v);
	e->n += 2;
}

static void e32(struct enc *e, uint32_t v)
{
	lc_pf_put32(e->b + e->n, v);
	e->n += 4;
}

static void e64(struct enc *e, uint64_t v)
{
	lc_pf_put64(e->b + e->n, v);
	e->n += 8;
}

static void emasked(struct enc *e, const uint64_t *v, int nbits)
{
	uint16_t m = 0;

	for (int i = 0; i < nbits; i++)
		if (v[i])
			m |= (uint16_t)(1u << i);
	e16(e, m);
	for (int i = 0; i < nbits; i++)
		if (v[i])
			e64(e, v[i]);
}

static void eacct(struct enc *e, const struct lc_acct *a)
{
	uint64_t v[14];

	memcpy(v, a->cat, sizeof(a->cat));
	v[9] = a->li_qempty;
	v[10] = a->t_we;
	v[11] = a->n_we;
	v[12] = a->t_nwe;
	v[13] = a->n_nwe;
	emasked(e, v, 14);
}

/* A window block of type 4 for w. */
static void ewindow4(struct enc *e, const struct lc_prof_window *w)
{
	e->n = 0;
	e8(e, w->source);
	e32(e, w->index);
	e64(e, w->start_ns);
	e32(e, w->ticks);
	e32(e, w->max_n);
	e32(e, w->team);
	eacct(e, &w->acct);
	e32(e, w->nthreads);
	for (uint32_t i = 0; i < w->nthreads; i++) {
		uint64_t v[10];

		memcpy(v, w->threads[i].cat, sizeof(w->threads[i].cat));
		v[9] = w->threads[i].li_qempty;
		e32(e, w->threads[i].thread);
		emasked(e, v, 10);
	}
	e32(e, w->ntags);
	for (uint32_t i = 0; i < w->ntags; i++) {
		e64(e, (uint64_t)w->tags[i].tag);
		eacct(e, &w->tags[i].acct);
	}
}

/* A file of format minor 2, built by hand: an info block without
 * window_grow, type-4 windows and a wasted block.  It reads as before:
 * window_grow 0, len_ns the info's window_ns, nmerged 1; the same with
 * options. */
static void test_type4_file(void **state)
{
	uint64_t bounds[SAMPLE_NBLOCKS];
	struct lc_prof_trow rows[2] = {
		{ .thread = 1, .cat = { [LC_CAT_PC] = 9000000, [LC_CAT_SL] = 1000000 } },
		{ .thread = 0, .cat = { [LC_CAT_PC] = 10000000 }, .li_qempty = 5 },
	};
	struct lc_prof_tagrow tag = { .tag = -9, .acct = { .cat = { [LC_CAT_PC] = 4000000 },
						      .t_we = 2000000, .n_we = 4000000 } };
	struct lc_prof_window w = { .source = LC_SRC_SAMPLED, .start_ns = 0, .ticks = 100,
				    .max_n = 2, .team = 2,
				    .acct = { .cat = { [LC_CAT_PC] = 19000000,
						       [LC_CAT_SL] = 1000000 },
					      .t_we = 10000000, .n_we = 20000000 },
				    .nthreads = 2, .threads = rows, .ntags = 1, .tags = &tag };
	struct lc_read_opts lean = { .no_rows = 1, .max_windows = 1 };
	struct lc_profile *pr = NULL;
	struct enc e;
	uint32_t len;
	uint8_t *b, *pl;
	size_t n;

	(void)state;
	b = sample_load(bounds, &n);
	/* header minor 2, info without its last field (window_grow) */
	lc_pf_put16(b + 10, 2);
	lc_pf_put32(b + 20, lc_crc32(0, b, 20));
	pl = info_payload(b, &len);
	assert_int_equal(lc_pf_get32(pl + len - 4), 0);	/* the sample's window_grow */
	len -= 4;
	lc_pf_put32(b + LC_PF_HDR_SIZE + 4, len);
	lc_pf_put32(pl + len, lc_crc32(0, b + LC_PF_HDR_SIZE, LC_PF_BLK_HDR + len));
	/* header, info, process and the three threads */
	memmove(b + LC_PF_HDR_SIZE + LC_PF_BLK_HDR + len + LC_PF_BLK_CRC,
		b + LC_PF_HDR_SIZE + LC_PF_BLK_HDR + len + 4 + LC_PF_BLK_CRC,
		(size_t)bounds[4] - (LC_PF_HDR_SIZE + LC_PF_BLK_HDR + len + 4 + LC_PF_BLK_CRC));
	store(path, b, (size_t)bounds[4] - 4);
	free(b);
	ewindow4(&e, &w);
	sample_append_block(path, LC_PF_WINDOW, e.b, e.n);
	w.index = 1;
	w.start_ns = 10000000;
	rows[0].cat[LC_CAT_SL] = 0;
	ewindow4(&e, &w);
	sample_append_block(path, LC_PF_WINDOW, e.b, e.n);
	/* wasted: 2 ms of thread 1 in window 0, tag -9 */
	e.n = 0;
	e8(&e, LC_SRC_SAMPLED);
	e32(&e, 0);
	e32(&e, 1);
	e64(&e, 2000000);
	e64(&e, 77);
	e32(&e, 1);
	e64(&e, (uint64_t)-9);
	sample_append_block(path, LC_PF_WASTED, e.b, e.n);
	for (int k = 0; k < 2; k++) {
		const struct lc_prof_data *d;

		pr = NULL;
		assert_int_equal(lc_profile_read_opts(path, k ? &lean : NULL, &pr, err, sizeof(err)),
				 0);
		d = &pr->data[LC_SRC_SAMPLED];
		assert_int_equal(pr->info.window_grow, 0);
		assert_string_equal(pr->info.session, "s1");
		assert_int_equal(pr->nthreads, 3);
		assert_true(pr->cut);	/* no end block */
		assert_int_equal(d->nwindows, k ? 1 : 2);
		assert_int_equal(d->windows[0].len_ns, k ? 20000000 : 10000000);
		assert_int_equal(d->windows[0].nmerged, k ? 2 : 1);
		assert_int_equal(d->windows[0].ticks, k ? 200 : 100);
		if (!k) {
			assert_int_equal(d->windows[1].index, 1);
			assert_int_equal(d->windows[1].start_ns, 10000000);
			assert_int_equal(d->windows[1].nmerged, 1);
			assert_int_equal(d->windows[0].nthreads, 2);
			assert_int_equal(d->windows[0].threads[0].cat[LC_CAT_WC], 2000000);
			assert_int_equal(d->windows[0].threads[1].li_qempty, 5);
		} else {
			assert_null(d->windows[0].threads);
		}
		assert_int_equal(d->total.cat[LC_CAT_WC], 2000000);
		assert_int_equal(d->total.cat[LC_CAT_PC], 36000000);
		assert_int_equal(d->threads[1].cat[LC_CAT_PC], 16000000);
		assert_int_equal(d->threads[1].cat[LC_CAT_WC], 2000000);
		assert_int_equal(d->threads[0].li_qempty, 10);
		assert_int_equal(d->ntags, 1);
		assert_int_equal(d->tags[0].tag, -9);
		assert_int_equal(d->tags[0].acct.cat[LC_CAT_PC], 6000000);
		assert_int_equal(d->tags[0].acct.cat[LC_CAT_WC], 2000000);
		lc_profile_free(pr);
	}
}

/* Deterministic test values below n (tests/rng.h). */
static uint64_t trand(uint64_t n)
{
	return (uint64_t)(rng_uniform() * (double)n);
}

#define MANY_NTH 5
#define MANY_OLD_AT 250		/* after this window, a move for window MANY_OLD */
#define MANY_OLD 41		/* older than the ring of 64, no other correction's */

/* A profile of nwin windows of 10 ms written with the writer: MANY_NTH
 * threads whose rows come in varying order (thread 4 missing from every
 * third window), tag 3 in every window, -4 in even and 9 in every fifth,
 * two events.  After window k: a wasted or move record for window k - k % 4
 * (within the ring) whose ns may exceed what the row holds, so that the
 * clamp matters; a counts record for window k - 1; after MANY_OLD_AT, a
 * small move for window MANY_OLD.  With gaps, every tenth index is skipped. */
static void write_many(const char *p, uint32_t nwin, int gaps)
{
	struct lc_prof_info in = sample_info();
	char c0[] = "cycles", c1[] = "instructions";
	struct lc_prof_event ev[2] = { { c0, LC_EVR_CYCLES }, { c1, LC_EVR_INSTR } };
	struct lc_prof_end end = { .procs = 8, .procs_from = LC_PROCS_OPTION,
				   .reason = sample_endr, .ext = 1, .shared_cpu = -1 };
	struct lc_prof_trow rows[MANY_NTH];
	struct lc_prof_tagrow tags[3];
	int64_t xt[2] = { 3, -4 };
	struct lc_pwriter *w;
	uint32_t idx = 0;
	int rc = 0;

	rng_seed(12);
	unlink(p);
	w = lc_pwriter_open(p, &in, &rc);
	assert_non_null(w);
	for (uint32_t i = 0; i < MANY_NTH; i++) {
		struct lc_prof_thread t = { .idx = i, .pid = 1, .tid = (int32_t)(10 + i) };

		assert_int_equal(lc_pwriter_thread(w, &t), 0);
	}
	assert_int_equal(lc_pwriter_events(w, 2, ev), 0);
	for (uint32_t k = 0; k < nwin; k++, idx++) {
		struct lc_prof_window win = { .source = LC_SRC_SAMPLED, .ticks = 100,
					      .threads = rows, .tags = tags };

		if (gaps && k && k % 10 == 0)
			idx++;
		win.index = idx;
		win.start_ns = (uint64_t)idx * 10000000;
		win.len_ns = k % 2 ? 10000000 : 0;
		for (uint32_t i = 0; i < MANY_NTH; i++) {
			uint32_t t = k % 2 ? MANY_NTH - 1 - i : (i + k) % MANY_NTH;
			struct lc_prof_trow *r = &rows[win.nthreads];

			if (t == 4 && k % 3 == 0)
				continue;
			memset(r, 0, sizeof(*r));
			r->thread = t;
			r->cat[LC_CAT_SL] = trand(3000000);
			r->cat[LC_CAT_LI] = trand(2) ? trand(1000000) : 0;
			r->cat[LC_CAT_PC] = 10000000 - r->cat[LC_CAT_SL] - r->cat[LC_CAT_LI];
			r->li_qempty = r->cat[LC_CAT_LI] / 2;
			for (int c = 0; c < LC_NCAT; c++)
				win.acct.cat[c] += r->cat[c];
			win.acct.li_qempty += r->li_qempty;
			win.nthreads++;
		}
		win.max_n = win.nthreads;
		win.team = k > 100 ? 6 : 0;
		win.acct.t_we = 10000000;
		win.acct.n_we = (uint64_t)win.nthreads * 10000000;
		for (int64_t g = 0; g < 3; g++) {
			static const int64_t tg[3] = { 3, -4, 9 };

			if ((g == 1 && k % 2) || (g == 2 && k % 5))
				continue;
			tags[win.ntags].tag = tg[g];
			tags[win.ntags].acct = win.acct;
			tags[win.ntags].acct.cat[LC_CAT_PC] = win.acct.cat[LC_CAT_PC] / (2 + (uint64_t)g);
			win.ntags++;
		}
		assert_int_equal(lc_pwriter_window(w, &win), 0);
		{
			uint32_t back = k % 4, tw = idx - back - (gaps && (k - back) / 10 != k / 10);
			struct lc_prof_wasted x = { .source = LC_SRC_SAMPLED, .window = tw,
						    .thread = (k * 3) % MANY_NTH,
						    .ns = trand(12000000), .task = k,
						    .ntags = 1 + k % 2, .tags = xt,
						    .from = LC_CAT_PC,
						    .to = k % 3 ? LC_CAT_ML : LC_CAT_WC };

			if (k % 3)
				assert_int_equal(lc_pwriter_move(w, &x), 0);
			else
				assert_int_equal(lc_pwriter_wasted(w, &x), 0);
		}
		if (k) {
			struct lc_prof_counts ct = { .source = LC_SRC_SAMPLED,
						     .window = idx - 1 - (gaps && k % 10 == 0),
						     .thread = k % MANY_NTH, .ntags = 1 + k % 2,
						     .tags = xt, .nev = 2, .v = { k, 2 * k + 1 } };

			assert_int_equal(lc_pwriter_counts(w, &ct), 0);
		}
		if (k == MANY_OLD_AT) {
			struct lc_prof_wasted x = { .source = LC_SRC_SAMPLED,
						    .window = MANY_OLD + (gaps ? MANY_OLD / 10 : 0),
						    .thread = 1, .ns = 1000, .ntags = 1,
						    .tags = xt, .from = LC_CAT_PC, .to = LC_CAT_CL };

			assert_int_equal(lc_pwriter_move(w, &x), 0);
		}
	}
	end.end_ns = (uint64_t)idx * 10000000;
	assert_int_equal(lc_pwriter_end(w, &end), 0);
	assert_int_equal(lc_pwriter_close(w), 0);
}

/* The results of a and b are the same to the nanosecond: totals whole,
 * per thread, per tag and of the counters, p, the end, the cut. */
static void same_results(const struct lc_profile *a, const struct lc_profile *b)
{
	assert_int_equal(a->procs, b->procs);
	assert_int_equal(a->procs_from, b->procs_from);
	assert_int_equal(a->cut, b->cut);
	assert_int_equal(a->cut_offset, b->cut_offset);
	assert_int_equal(a->ended, b->ended);
	assert_int_equal(a->end.end_ns, b->end.end_ns);
	assert_int_equal(a->nevents, b->nevents);
	for (int k = 0; k < LC_NSRC; k++) {
		const struct lc_prof_data *x = &a->data[k], *y = &b->data[k];
		size_t ne = a->nevents;

		assert_int_equal(x->present, y->present);
		assert_memory_equal(&x->total, &y->total, sizeof(x->total));
		assert_int_equal(x->max_n, y->max_n);
		assert_int_equal(x->team, y->team);
		assert_int_equal(x->nthreads, y->nthreads);
		for (uint32_t i = 0; i < x->nthreads; i++) {
			assert_int_equal(x->threads[i].thread, y->threads[i].thread);
			assert_memory_equal(x->threads[i].cat, y->threads[i].cat,
					    sizeof(x->threads[i].cat));
			assert_int_equal(x->threads[i].li_qempty, y->threads[i].li_qempty);
		}
		assert_int_equal(x->ntags, y->ntags);
		for (uint32_t i = 0; i < x->ntags; i++) {
			assert_int_equal(x->tags[i].tag, y->tags[i].tag);
			assert_memory_equal(&x->tags[i].acct, &y->tags[i].acct,
					    sizeof(x->tags[i].acct));
		}
		assert_memory_equal(x->ev_total, y->ev_total, sizeof(x->ev_total));
		if (ne && x->present) {
			assert_memory_equal(x->ev_thread, y->ev_thread,
					    x->nthreads * ne * sizeof(uint64_t));
			assert_memory_equal(x->ev_tag, y->ev_tag, x->ntags * ne * sizeof(uint64_t));
		}
	}
}

/* What a lean reading holds adds up: at most max windows, in file order,
 * spanning nwin file windows, whose sums are the totals. */
static void check_held(const struct lc_profile *pr, uint32_t max, uint32_t nwin, int rows)
{
	const struct lc_prof_data *d = &pr->data[LC_SRC_SAMPLED];
	struct lc_acct sum = { 0 };
	uint64_t ev[2] = { 0, 0 }, nm = 0;

	if (max)
		assert_true(d->nwindows <= max);
	for (uint32_t i = 0; i < d->nwindows; i++) {
		const struct lc_prof_window *w = &d->windows[i];

		if (i)
			assert_true(w->index > d->windows[i - 1].index);
		if (!rows) {
			assert_int_equal(w->nthreads, 0);
			assert_null(w->threads);
		}
		lc_acct_add(&sum, &w->acct);
		nm += w->nmerged;
		for (uint32_t e = 0; e < pr->nevents; e++)
			ev[e] += d->ev_window[(size_t)i * pr->nevents + e];
	}
	assert_int_equal(nm, nwin);
	assert_memory_equal(&sum, &d->total, sizeof(sum));
	for (uint32_t e = 0; e < pr->nevents; e++)
		assert_int_equal(ev[e], d->ev_total[e]);
}

/* lc_profile_read and lc_profile_read_opts(no_rows, max_windows 8) give the
 * same results on 300 windows with corrections (clamped, and one older
 * than the ring), counts and tags; so does the memory reader. */
static void test_opts_equal(void **state)
{
	struct lc_read_opts lean = { .no_rows = 1, .max_windows = 8 };
	struct lc_profile *all = NULL, *pr = NULL;
	uint8_t *b;
	size_t n;

	(void)state;
	for (int gaps = 0; gaps < 2; gaps++) {
		write_many(path, 300, gaps);
		assert_int_equal(lc_profile_read(path, &all, err, sizeof(err)), 0);
		assert_int_equal(all->data[0].nwindows, 300);
		assert_int_equal(all->nevents, 2);
		assert_int_equal(all->procs, 8);
		assert_false(all->cut);
		/* the corrections did move time, and some were clamped */
		assert_true(all->data[0].total.cat[LC_CAT_ML] > 0);
		assert_true(all->data[0].total.cat[LC_CAT_WC] > 0);
		assert_int_equal(all->data[0].total.cat[LC_CAT_CL], 1000);
		assert_int_equal(all->data[0].threads[1].cat[LC_CAT_CL], 1000);
		assert_int_equal(all->data[0].ntags, 3);
		assert_true(all->data[0].ev_total[0] > 0);
		assert_true(all->data[0].ev_tag[1 * 2 + 1] > 0);	/* tag 3 */
		assert_int_equal(lc_profile_read_opts(path, &lean, &pr, err, sizeof(err)), 0);
		same_results(all, pr);
		check_held(pr, 8, 300, 0);
		lc_profile_free(pr);
		b = load(path, &n);
		assert_int_equal(lc_profile_parse_opts(b, n, &lean, &pr, err, sizeof(err)), 0);
		same_results(all, pr);
		lc_profile_free(pr);
		/* cut inside the last window: the same blocks on both sides */
		assert_int_equal(lc_profile_parse_opts(b, n - 200, &lean, &pr, err, sizeof(err)), 0);
		lc_profile_free(all);
		assert_int_equal(lc_profile_parse(b, n - 200, &all, err, sizeof(err)), 0);
		assert_true(pr->cut);
		same_results(all, pr);
		lc_profile_free(pr);
		lc_profile_free(all);
		free(b);
	}
}

/* A correction for a window older than the ring is clamped against the
 * thread's total, not the thread's row of that window (docs/format.md). */
static void test_opts_old_clamp(void **state)
{
	struct lc_prof_info in = sample_info();
	struct lc_prof_thread th = { .pid = 1, .tid = 1 };
	struct lc_prof_trow r = { .thread = 0, .cat = { [LC_CAT_PC] = 10 } };
	struct lc_prof_window win = { .source = LC_SRC_SAMPLED, .nthreads = 1, .threads = &r,
				      .acct = { .cat = { [LC_CAT_PC] = 10 } } };
	struct lc_prof_wasted x = { .source = LC_SRC_SAMPLED, .window = 0, .ns = 500,
				    .task = 1, .from = LC_CAT_PC, .to = LC_CAT_WC };
	struct lc_read_opts lean = { .no_rows = 1 };
	struct lc_profile *pr = NULL;
	struct lc_pwriter *w;

	(void)state;
	w = lc_test_new_writer(path, &in);
	assert_int_equal(lc_pwriter_thread(w, &th), 0);
	for (win.index = 0; win.index < 100; win.index++)
		assert_int_equal(lc_pwriter_window(w, &win), 0);
	assert_int_equal(lc_pwriter_wasted(w, &x), 0);	/* window 0: 99 back */
	x.window = 99;
	assert_int_equal(lc_pwriter_wasted(w, &x), 0);	/* in the ring */
	assert_int_equal(lc_pwriter_close(w), 0);
	assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), 0);
	assert_int_equal(pr->data[0].threads[0].cat[LC_CAT_WC], 20);
	assert_int_equal(pr->data[0].total.cat[LC_CAT_WC], 20);
	lc_profile_free(pr);
	assert_int_equal(lc_profile_read_opts(path, &lean, &pr, err, sizeof(err)), 0);
	assert_int_equal(pr->data[0].threads[0].cat[LC_CAT_WC], 500 + 10);
	assert_int_equal(pr->data[0].total.cat[LC_CAT_WC], 20);	/* the window's acct */
	assert_int_equal(pr->data[0].windows[0].acct.cat[LC_CAT_WC], 10);
	assert_int_equal(pr->data[0].windows[99].acct.cat[LC_CAT_WC], 10);
	lc_profile_free(pr);
}

/* Merging keeps at most max_windows, evenly: every held window but the
 * last holds the same number of file windows, the spans are contiguous
 * (index + nmerged, start + len_ns), and the totals do not change; with
 * rows kept, they are merged by thread. */
static void test_coalescing(void **state)
{
	static const uint32_t maxes[] = { 1, 2, 3, 7, 8, 64, 299, 300, 301, 1000 };
	struct lc_profile *all = NULL;

	(void)state;
	write_many(path, 300, 0);
	assert_int_equal(lc_profile_read(path, &all, err, sizeof(err)), 0);
	for (size_t m = 0; m < sizeof(maxes) / sizeof(maxes[0]); m++) {
		for (int rows = 0; rows < 2; rows++) {
			struct lc_read_opts o = { .no_rows = !rows, .max_windows = maxes[m] };
			struct lc_profile *pr = NULL;
			const struct lc_prof_data *d;

			assert_int_equal(lc_profile_read_opts(path, &o, &pr, err, sizeof(err)), 0);
			d = &pr->data[0];
			same_results(all, pr);
			check_held(pr, maxes[m], 300, rows);
			assert_int_equal(d->nwindows, maxes[m] >= 300 ? 300 :
					 (300 + d->windows[0].nmerged - 1) / d->windows[0].nmerged);
			assert_true(maxes[m] >= 300 || d->nwindows > maxes[m] / 2);
			assert_int_equal(d->windows[0].index, 0);
			assert_int_equal(d->windows[0].start_ns, 0);
			for (uint32_t i = 0; i + 1 < d->nwindows; i++) {
				const struct lc_prof_window *w = &d->windows[i];

				assert_int_equal(w->nmerged, d->windows[0].nmerged);
				assert_int_equal(w->index + w->nmerged, w[1].index);
				assert_int_equal(w->start_ns + w->len_ns, w[1].start_ns);
				assert_int_equal(w->len_ns, 10000000ull * w->nmerged);
			}
			assert_true(d->windows[d->nwindows - 1].nmerged <= d->windows[0].nmerged);
			if (rows) {	/* the rows of thread 1 add up to its total */
				uint64_t pc = 0;

				for (uint32_t i = 0; i < d->nwindows; i++)
					for (uint32_t j = 0; j < d->windows[i].nthreads; j++)
						if (d->windows[i].threads[j].thread == 1)
							pc += d->windows[i].threads[j].cat[LC_CAT_PC];
				assert_int_equal(pc, d->threads[1].cat[LC_CAT_PC]);
				assert_true(d->windows[0].nthreads <= MANY_NTH);
			}
			lc_profile_free(pr);
		}
	}
	lc_profile_free(all);
}

/* A varint window block after the sample's threads, refused with msg. */
static void vwindow_refused(const uint8_t *b, uint64_t at, const uint8_t *pl, uint32_t n,
			    const char *msg)
{
	struct lc_profile *pr = NULL;
	char want[128];

	store(path, b, (size_t)at);
	sample_append_block(path, LC_PF_VWINDOW, pl, n);
	assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), -EBADMSG);
	assert_null(pr);
	snprintf(want, sizeof(want), "corrupt window block at byte %llu: %s",
		 (unsigned long long)at, msg);
	assert_string_equal(err, want);
}

/* Varints that are too long, overlong, past 64 or 32 bits, counts past
 * the block's end, unknown mask bits and undeclared threads are corrupt. */
static void test_corrupt_varints(void **state)
{
	uint64_t bounds[SAMPLE_NBLOCKS];
	struct lc_profile *pr = NULL;
	uint8_t *b;
	size_t n;

	(void)state;
	b = sample_load(bounds, &n);
	/* a good one first: source, index 0, start 0, len 5, ticks 1, max_n 1,
	 * team 0, acct {PC 3}, one row (thread 2: delta +2 = 4, mask PC, 3),
	 * one tag (-1: zigzag 1, empty acct) */
	{
		static const uint8_t ok[] = { 0, 0, 0, 5, 1, 1, 0, 1, 3, 1, 4, 1, 3, 1, 1, 0 };

		store(path, b, (size_t)bounds[4]);
		sample_append_block(path, LC_PF_VWINDOW, ok, sizeof(ok));
		assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), 0);
		assert_int_equal(pr->data[0].nwindows, 1);
		assert_int_equal(pr->data[0].windows[0].len_ns, 5);
		assert_int_equal(pr->data[0].windows[0].threads[0].thread, 2);
		assert_int_equal(pr->data[0].windows[0].threads[0].cat[LC_CAT_PC], 3);
		assert_int_equal(pr->data[0].windows[0].tags[0].tag, -1);
		lc_profile_free(pr);
	}
	{
		static const uint8_t overlong[] = { 0, 0x80, 0x00, 0, 5, 1, 1, 0, 0, 0, 0 };
		static const uint8_t eleven[] = { 0, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
						  0x80, 0x80, 0x80, 0x80, 0x01, 0, 0, 0 };
		static const uint8_t past64[] = { 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
						  0xff, 0xff, 0xff, 0x02, 0, 0, 0, 0 };
		static const uint8_t past32[] = { 0, 0x80, 0x80, 0x80, 0x80, 0x10, 0, 0, 0 };
		static const uint8_t count[] = { 0, 0, 0, 5, 1, 1, 0, 0, 0x80, 0x08, 0, 1 };
		static const uint8_t tcount[] = { 0, 0, 0, 5, 1, 1, 0, 0, 0, 0x7f, 0, 1 };
		static const uint8_t mask[] = { 0, 0, 0, 5, 1, 1, 0, 0x80, 0x80, 0x01, 0, 0 };
		static const uint8_t rmask[] = { 0, 0, 0, 5, 1, 1, 0, 0, 1, 2, 0x80, 0x08, 0 };
		static const uint8_t thread[] = { 0, 0, 0, 5, 1, 1, 0, 0, 1, 6, 0, 0 };
		static const uint8_t neg[] = { 0, 0, 0, 5, 1, 1, 0, 0, 1, 1, 0, 0 };
		static const uint8_t shortb[] = { 0, 0, 0, 5, 1, 1, 0, 0, 1, 2, 0x81 };
		static const uint8_t order[] = { 0, 0, 0, 5, 1, 1, 0, 0, 0, 0 };
		uint64_t at = bounds[4];

		vwindow_refused(b, at, overlong, sizeof(overlong), "overlong varint");
		vwindow_refused(b, at, eleven, sizeof(eleven), "varint longer than 10 bytes");
		vwindow_refused(b, at, past64, sizeof(past64), "varint past 64 bits");
		vwindow_refused(b, at, past32, sizeof(past32), "varint too large");
		vwindow_refused(b, at, count, sizeof(count), "count larger than the block");
		vwindow_refused(b, at, tcount, sizeof(tcount), "count larger than the block");
		vwindow_refused(b, at, mask, sizeof(mask), "unknown field in mask");
		vwindow_refused(b, at, rmask, sizeof(rmask), "unknown field in mask");
		vwindow_refused(b, at, thread, sizeof(thread), "row names an undeclared thread");
		vwindow_refused(b, at, neg, sizeof(neg), "row names an undeclared thread");
		vwindow_refused(b, at, shortb, sizeof(shortb), "block too short");
		/* two windows of the same index */
		store(path, b, (size_t)at);
		sample_append_block(path, LC_PF_VWINDOW, order, sizeof(order));
		sample_append_block(path, LC_PF_VWINDOW, order, sizeof(order));
		assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), -EBADMSG);
		{
			char want[128];

			snprintf(want, sizeof(want),
				 "corrupt window block at byte %llu: window index out of order",
				 (unsigned long long)(at + LC_PF_BLK_HDR + sizeof(order) +
						      LC_PF_BLK_CRC));
			assert_string_equal(err, want);
		}
	}
	free(b);
}

/* The window schedule: fixed windows with growth 0; with growth B, B
 * windows of base, then B/2 of each doubled length up to LC_WINDOW_MAX_NS;
 * contiguous, lc_window_at inverting lc_window_span, and saturating past
 * what the types hold. */
static void test_window_schedule(void **state)
{
	static const uint32_t grows[] = { 2, 4, 16, 4096 };
	uint64_t st, len, pst = 0, plen = 0;

	(void)state;
	for (uint32_t i = 0; i < 1000; i++) {
		lc_window_span(10000000, 0, i, &st, &len);
		assert_int_equal(st, (uint64_t)i * 10000000);
		assert_int_equal(len, 10000000);
		assert_int_equal(lc_window_at(10000000, 0, st + len - 1), i);
	}
	lc_window_span(0, 0, 5, &st, &len);	/* base 0 reads as 1 */
	assert_int_equal(st, 5);
	assert_int_equal(len, 1);
	assert_int_equal(lc_window_at(1, 0, UINT64_MAX), UINT32_MAX);
	assert_int_equal(lc_window_at(10000000, 0, 25000000), 2);
	for (size_t g = 0; g < sizeof(grows) / sizeof(grows[0]); g++) {
		uint32_t b = grows[g];

		for (uint32_t i = 0; i < 200000; i++) {
			lc_window_span(10000000, b, i, &st, &len);
			if (i) {
				assert_int_equal(st, pst + plen);
				assert_true(len == plen || len == 2 * plen);
			}
			if (i < b) {
				assert_int_equal(len, 10000000);
			} else {	/* level k, held at the last within the cap */
				uint64_t k = 1 + (i - b) / (b / 2);

				while (k > 1 && (k > 40 || (10000000ull << k) > LC_WINDOW_MAX_NS))
					k--;
				assert_int_equal(len, 10000000ull << k);
			}
			assert_int_equal(lc_window_at(10000000, b, st), i);
			assert_int_equal(lc_window_at(10000000, b, st + len - 1), i);
			pst = st;
			plen = len;
		}
		/* the longest window within the cap, reached and held */
		assert_true(plen <= LC_WINDOW_MAX_NS && 2 * plen > LC_WINDOW_MAX_NS);
	}
	/* an hour of the default schedule is about 17 000 windows */
	{
		uint32_t n = lc_window_at(10000000, LC_WINDOW_GROW_DEFAULT, 3600000000000ull);

		assert_true(n > 15000 && n < 19000);
	}
	/* past the types: the start saturates, the index too */
	lc_window_span(10000000, 4096, UINT32_MAX, &st, &len);
	assert_int_equal(st, UINT64_MAX);
	lc_window_span(UINT64_MAX / 2, 4, 6, &st, &len);
	assert_int_equal(st, UINT64_MAX);
	assert_int_equal(lc_window_at(3, 0, UINT64_MAX), UINT32_MAX);
	/* the last time there is lies in the window lc_window_at names */
	for (size_t g = 0; g < sizeof(grows) / sizeof(grows[0]); g++) {
		uint32_t i = lc_window_at(1, grows[g], UINT64_MAX);

		lc_window_span(1, grows[g], i, &st, &len);
		assert_true(st <= UINT64_MAX && len > 0);
		assert_true(st + len < st || UINT64_MAX < st + len);
		lc_window_span(1, grows[g], i + 1, &st, &len);
		assert_int_equal(st, UINT64_MAX);
	}
}

LC_TEST_MAIN(tdir_setup, tdir_teardown,
	     LC_T(test_categories), LC_T(test_acct_finish), LC_T(test_completeness),
	     LC_T(test_round_trip), LC_T(test_truncation), LC_T(test_corruption), LC_T(test_random),
	     LC_T(test_crafted), LC_T(test_write_errors), LC_T(test_counters_blocks),
	     LC_T(test_vwindow_round_trip), LC_T(test_type4_file), LC_T(test_opts_equal),
	     LC_T(test_opts_old_clamp), LC_T(test_coalescing), LC_T(test_corrupt_varints),
	     LC_T(test_window_schedule), LC_T(test_machine_blocks),
	     LC_T(test_machine_sums))
