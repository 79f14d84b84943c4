/*
 * prof_sample.h — a small, fully known profile written with the real writer,
 * shared by test_profile.c and test_report.c.
 *
 * p = 4 (end block, LC_TEAM), two sampled windows of 10 ms and one trace
 * window, three threads, tags 7 and -3, one wasted record.  After the wasted
 * record is applied the sampled categories (ns, summed over the 4 slots) are
 * LI 15e6, IP 30e6, SL 4e6, WC 2e6, PC 29e6: total 80e6 = 4 x 20 ms.
 */
#ifndef PROF_SAMPLE_H
#define PROF_SAMPLE_H

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lc_profile.h"
#include "profile_format.h"

#define SAMPLE_NBLOCKS 10

static char sample_reason[] = "no hardware PMU";
static char sample_host[] = "host";
static char sample_cmd[] = "./demo 4";
static char sample_sess[] = "s1";
static char sample_comm[] = "demo";
static char sample_endr[] = "command exited";

/* The info block of the sample. */
static struct lc_prof_info sample_info(void)
{
	struct lc_prof_info in = {
		.start_realtime_ns = 1700000000000000000ull, .t0_ns = 123456789,
		.interval_ns = 100000, .window_ns = 10000000, .procs_option = 0,
		.sampler_cpu = 1, .sched_fifo = 1,
		.unavailable = (1u << LC_CAT_RC) | (1u << LC_CAT_ML),
		.hostname = sample_host, .command = sample_cmd, .session = sample_sess,
	};

	in.reason[LC_CAT_RC] = sample_reason;
	in.reason[LC_CAT_ML] = sample_reason;
	return in;
}

/* Size of the file at path, or 0. */
static uint64_t sample_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (uint64_t)st.st_size;
}

/* A writer of in on a new file at path (an old one removed first: the
 * writer creates the file); NULL with *err set. */
static struct lc_pwriter *sample_open(const char *path, const struct lc_prof_info *in, int *err)
{
	unlink(path);
	return lc_pwriter_open(path, in, err);
}

/* Write the sample to path; bounds[i] receives the file size after block i
 * (bounds[0] = header + info).  Returns 0 or the writer's error. */
static int sample_write(const char *path, uint64_t bounds[SAMPLE_NBLOCKS])
{
	struct lc_prof_info in = sample_info();
	struct lc_prof_process pr = { .pid = 100, .attach_ns = 5, .comm = sample_comm };
	struct lc_prof_trow r0[3] = {
		{ .thread = 0, .cat = { [LC_CAT_PC] = 6000000, [LC_CAT_SL] = 4000000 } },
		{ .thread = 1, .cat = { [LC_CAT_PC] = 10000000 } },
		{ .thread = 2, .cat = { [LC_CAT_PC] = 5000000, [LC_CAT_LI] = 5000000 },
		  .li_qempty = 1000000 },
	};
	struct lc_prof_tagrow g0[1] = {
		{ .tag = 7, .acct = { .cat = { [LC_CAT_PC] = 12000000, [LC_CAT_SL] = 3000000 },
				      .t_we = 5000000, .n_we = 15000000 } },
	};
	struct lc_prof_window w0 = {
		.source = LC_SRC_SAMPLED, .index = 0, .start_ns = 0, .ticks = 100,
		.max_n = 3, .team = 4,
		.acct = { .cat = { [LC_CAT_PC] = 21000000, [LC_CAT_SL] = 4000000,
				   [LC_CAT_LI] = 5000000 },
			  .li_qempty = 1000000, .t_we = 10000000, .n_we = 30000000 },
		.nthreads = 3, .threads = r0, .ntags = 1, .tags = g0,
	};
	struct lc_prof_trow r1[1] = { { .thread = 0, .cat = { [LC_CAT_PC] = 10000000 } } };
	struct lc_prof_tagrow g1[2] = {
		{ .tag = 7, .acct = { .cat = { [LC_CAT_PC] = 2000000 },
				      .t_nwe = 2000000, .n_nwe = 2000000 } },
		{ .tag = -3, .acct = { .cat = { [LC_CAT_PC] = 8000000 },
				       .t_nwe = 8000000, .n_nwe = 8000000 } },
	};
	struct lc_prof_window w1 = {
		.source = LC_SRC_SAMPLED, .index = 1, .start_ns = 10000000, .ticks = 100,
		.max_n = 1, .team = 4,
		.acct = { .cat = { [LC_CAT_PC] = 10000000 }, .t_nwe = 10000000,
			  .n_nwe = 10000000 },
		.nthreads = 1, .threads = r1, .ntags = 2, .tags = g1,
	};
	int64_t wtags[1] = { 7 };
	struct lc_prof_wasted x = { .source = LC_SRC_SAMPLED, .window = 0, .thread = 1,
				    .ns = 2000000, .task = 42, .ntags = 1, .tags = wtags };
	struct lc_prof_window wt = {
		.source = LC_SRC_TRACE, .index = 0, .start_ns = 0, .ticks = 0, .max_n = 3,
		.team = 4,
		.acct = { .cat = { [LC_CAT_PC] = 20000000, [LC_CAT_SL] = 5000000,
				   [LC_CAT_LI] = 5000000 },
			  .t_we = 10000000, .n_we = 30000000 },
		.nthreads = 3, .threads = r0,
	};
	struct lc_prof_end e = { .end_ns = 20000000, .procs = 4, .procs_from = LC_PROCS_TEAM,
				 .exit_status = 0, .ticks = 200, .max_gap_ns = 300000,
				 .wasted_lost = 1, .bad_reads = 2, .reason = sample_endr,
				 .sampler_cpu_ns = 7000000, .max_gap_at_ns = 15000000,
				 .missed_ticks = 2, .sched_source = LC_SCHED_NONE,
				 .shared_cpu = -1, .unavailable = in.unavailable, .ncpus = 2,
				 .max_threads = 4, .max_runnable = 3, .affinity_cpus = 2 };
	struct lc_pwriter *w;
	int err = 0, k = 0, r = 0;

	e.reason_na[LC_CAT_RC] = sample_reason;
	e.reason_na[LC_CAT_ML] = sample_reason;
	w = sample_open(path, &in, &err);
	if (!w)
		return err;
	bounds[k++] = sample_size(path);
/* write one block unless an earlier one failed, and note where it ends */
#define SAMPLE_BLOCK(call) (r = r ? r : (call), bounds[k++] = sample_size(path))
	SAMPLE_BLOCK(lc_pwriter_process(w, &pr));
	for (int32_t i = 0; i < 3; i++) {
		struct lc_prof_thread t = { .idx = (uint32_t)i, .pid = 100, .tid = 100 + i,
					    .slot = (uint32_t)i, .first_ns = 10 * (uint64_t)i };

		SAMPLE_BLOCK(lc_pwriter_thread(w, &t));
	}
	SAMPLE_BLOCK(lc_pwriter_window(w, &w0));
	SAMPLE_BLOCK(lc_pwriter_window(w, &w1));
	SAMPLE_BLOCK(lc_pwriter_wasted(w, &x));
	SAMPLE_BLOCK(lc_pwriter_window(w, &wt));
	SAMPLE_BLOCK(lc_pwriter_end(w, &e));
#undef SAMPLE_BLOCK
	err = lc_pwriter_close(w);
	return r ? r : err;
}

/* The sample written to path (bounds as sample_write) and read back; the
 * test fails when either cannot be done.  Include cmocka.h before. */
static inline struct lc_profile *sample_read(const char *path, uint64_t bounds[SAMPLE_NBLOCKS])
{
	struct lc_profile *pr = NULL;
	char why[256];

	assert_int_equal(sample_write(path, bounds), 0);
	if (lc_profile_read(path, &pr, why, sizeof(why)))
		fail_msg("%s", why);
	return pr;
}

/* A block in b: its header (type, len), the payload pl[0..len) and its CRC;
 * len + 12 bytes. */
static inline void sample_block(uint8_t *b, uint16_t type, const uint8_t *pl, uint32_t len)
{
	lc_pf_put16(b, type);
	lc_pf_put16(b + 2, 0);
	lc_pf_put32(b + 4, len);
	memcpy(b + 8, pl, len);
	lc_pf_put32(b + 8 + len, lc_crc32(0, b, 8 + len));
}

/* Append to the file at path a block of type with the payload pl[0..len). */
static inline void sample_append_block(const char *path, uint16_t type, const uint8_t *pl,
				       uint32_t len)
{
	uint8_t *b = malloc(len + 12);
	int fd = open(path, O_WRONLY | O_APPEND);

	assert_true(b && fd >= 0);
	sample_block(b, type, pl, len);
	assert_int_equal(write(fd, b, len + 12), (ssize_t)(len + 12));
	close(fd);
	free(b);
}

#endif
