/*
 * node_file.h — one node's profile of an MPI job, written with the real
 * writer and accumulator: host "node<k>", the processes pid0, pid0 + 1, ...,
 * the given rank blocks, and one busy thread (of pid0) for run_ns; shared by
 * test_merge_trust.c and test_window.c.  Include after cmocka.h.
 */
#ifndef NODE_FILE_H
#define NODE_FILE_H

#include <stdint.h>
#include <unistd.h>

#include "attr.h"
#include "lostcycles.h"

struct node_spec {
	int k;				/* node index: host "node<k>" */
	uint64_t t0_ns, window_ns, run_ns;
	uint32_t grow;			/* window growth (0: fixed windows) */
	int32_t pid0;
	int nproc;
	const struct lc_prof_rank *ranks;	/* their host is the node's */
	int nranks;
};

/* Charge the thread of pid0 busy from 0 to run_ns in 100 us ticks. */
static void node_charge(struct lc_pwriter *w, const struct node_spec *s)
{
	struct lc_obs_proc op = { .uid = 1, .we = 1 };
	struct lc_obs_thread th = { .thread = 0, .state = LC_ST_BUSY };
	struct lc_obs o = { 1, &op, 1, &th };
	struct lc_threads *ts = lc_threads_new(w);
	struct lc_accum *a = lc_accum_new(w, LC_SRC_SAMPLED, s->window_ns, 1);

	assert_int_equal(lc_threads_id(ts, s->pid0, 1, 0, 1, s->pid0, 0), 0);
	assert_int_equal(lc_accum_window_grow(a, s->grow), 0);
	for (uint64_t t = 0; t < s->run_ns; t += 100000)
		assert_int_equal(lc_accum_charge(a, t, t + 100000 > s->run_ns ? s->run_ns - t : 100000,
						 &o), 0);
	assert_int_equal(lc_accum_flush(a), 0);
	lc_accum_free(a);
	lc_threads_free(ts);
}

/* Write the node file s to path (replacing any). */
static void node_file_write(const char *path, const struct node_spec *s)
{
	struct lc_prof_info info = { .t0_ns = s->t0_ns, .interval_ns = 100000,
				     .window_ns = s->window_ns, .window_grow = s->grow,
				     .procs_option = 1, .sampler_cpu = -1,
				     .hostname = s->k ? "node1" : "node0", .command = "c",
				     .session = "s" };
	struct lc_prof_end end = { .reason = "test", .procs = 1, .procs_from = LC_PROCS_OPTION };
	struct lc_pwriter *w;
	int e = 0;

	unlink(path);
	w = lc_pwriter_open(path, &info, &e);
	assert_non_null(w);
	for (int i = 0; i < s->nproc; i++) {
		struct lc_prof_process pr = { .pid = s->pid0 + i, .comm = "app" };

		assert_int_equal(lc_pwriter_process(w, &pr), 0);
	}
	for (int i = 0; i < s->nranks; i++) {
		struct lc_prof_rank r = s->ranks[i];

		r.host = info.hostname;
		assert_int_equal(lc_pwriter_rank(w, &r), 0);
	}
	node_charge(w, s);
	assert_int_equal(lc_pwriter_end(w, &end), 0);
	assert_int_equal(lc_pwriter_close(w), 0);
}

#endif
