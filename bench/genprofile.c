/*
 * genprofile.c — a synthetic profile of any length, written with the
 * profile writer exactly as the sampler writes one: THREADS threads in PROCS
 * processes, 100 us ticks, one window block per timeline window with a row
 * per thread (pure computation, synchronization, resource contention and
 * some load imbalance, varying from window to window) and two fragment tags,
 * then the end block.  The windows follow record's default schedule: WINDOW
 * (10 ms) for the first GROW (4096) windows, then doubling every GROW/2
 * (lc_window_span); GROW 0 gives fixed windows.  For timing "report" and
 * measuring file size and memory against the profile's length.
 *
 * Usage: genprofile FILE SECONDS [THREADS [PROCS [WINDOW_MS [GROW]]]]
 *        (defaults 256 threads, 16 processes, 10 ms windows, growth 4096)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_profile.h"

static uint64_t rng = 88172645463325252ull;

/* xorshift64: a deterministic spread of values. */
static uint64_t rnd(uint64_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng % n;
}

/* Fill window k's rows and totals: every thread lives the whole window. */
static void fill(struct lc_prof_window *w, uint64_t win_ns, uint32_t nth)
{
	memset(&w->acct, 0, sizeof(w->acct));
	for (uint32_t i = 0; i < nth; i++) {
		struct lc_prof_trow *r = &w->threads[i];
		uint64_t sl = win_ns / 100 * rnd(20), rc = win_ns / 100 * rnd(5);
		uint64_t li = rnd(4) ? 0 : win_ns / 100 * rnd(10);

		memset(r, 0, sizeof(*r));
		r->thread = i;
		r->cat[LC_CAT_SL] = sl;
		r->cat[LC_CAT_RC] = rc;
		r->cat[LC_CAT_LI] = li;
		r->cat[LC_CAT_PC] = win_ns - sl - rc - li;
		for (int c = 0; c < LC_NCAT; c++)
			w->acct.cat[c] += r->cat[c];
	}
	w->acct.t_we = win_ns;
	w->acct.n_we = (uint64_t)nth * win_ns;
	for (uint32_t t = 0; t < w->ntags; t++) {
		w->tags[t].acct = w->acct;
		w->tags[t].acct.cat[LC_CAT_PC] /= 2;
		w->tags[t].acct.cat[LC_CAT_SL] = w->acct.cat[LC_CAT_SL] + w->acct.cat[LC_CAT_PC] / 2;
	}
}

int main(int argc, char **argv)
{
	double secs = argc > 2 ? strtod(argv[2], NULL) : 0;
	long nth = argc > 3 ? strtol(argv[3], NULL, 10) : 256;
	long nproc = argc > 4 ? strtol(argv[4], NULL, 10) : 16;
	double wms = argc > 5 ? strtod(argv[5], NULL) : 10;
	long grow = argc > 6 ? strtol(argv[6], NULL, 10) : LC_WINDOW_GROW_DEFAULT;
	struct lc_prof_info info = { .interval_ns = 100000, .sampler_cpu = 1, .sched_fifo = 1,
				     .hostname = "bench", .command = "genprofile", .session = "bench" };
	struct lc_prof_tagrow tags[2] = { { .tag = 1 }, { .tag = 2 } };
	struct lc_prof_window w = { .source = LC_SRC_SAMPLED, .tags = tags, .ntags = 2 };
	struct lc_prof_end e = { .procs_from = LC_PROCS_TEAM, .exit_status = 0,
				 .reason = "command exited", .ext = 1, .shared_cpu = -1, .ncpus = 2 };
	struct lc_pwriter *pw;
	uint64_t win_ns, end_ns, start, len, ticks = 0;
	int err = 0;

	if (argc < 3 || secs <= 0 || nth < 1 || nproc < 1 || nproc > nth || wms <= 0 ||
	    grow < 0 || grow == 1 || grow % 2 || grow > (long)UINT32_MAX) {
		fprintf(stderr, "usage: genprofile FILE SECONDS [THREADS [PROCS [WINDOW_MS [GROW]]]]\n");
		return 2;
	}
	win_ns = (uint64_t)(wms * 1e6);
	end_ns = (uint64_t)(secs * 1e9);
	info.window_ns = win_ns;
	info.window_grow = (uint32_t)grow;
	info.unavailable = 1u << LC_CAT_ML;
	info.reason[LC_CAT_ML] = "not measured: no counters";
	w.threads = calloc((size_t)nth, sizeof(*w.threads));
	pw = lc_pwriter_open(argv[1], &info, &err);
	if (!pw || !w.threads) {
		fprintf(stderr, "genprofile: %s: %s\n", argv[1], strerror(pw ? ENOMEM : -err));
		return 1;
	}
	for (long p = 0; p < nproc && !err; p++)
		err = lc_pwriter_process(pw, &(struct lc_prof_process){
			.pid = (int32_t)(1000 + p), .comm = "genprofile" });
	for (long i = 0; i < nth && !err; i++)
		err = lc_pwriter_thread(pw, &(struct lc_prof_thread){
			.idx = (uint32_t)i, .pid = (int32_t)(1000 + i % nproc),
			.tid = (int32_t)(2000 + i), .slot = (uint32_t)(i / nproc) });
	w.nthreads = (uint32_t)nth;
	w.max_n = w.team = (uint32_t)nth;
	for (uint32_t k = 0; !err; k++) {
		lc_window_span(win_ns, (uint32_t)grow, k, &start, &len);
		if (start >= end_ns)
			break;
		if (len > end_ns - start)
			len = end_ns - start;	/* the last window ends with the run */
		w.index = k;
		w.start_ns = start;
		w.len_ns = len;
		w.ticks = (uint32_t)(len / info.interval_ns);
		ticks += w.ticks;
		fill(&w, len, (uint32_t)nth);
		err = lc_pwriter_window(pw, &w);
	}
	e.end_ns = end_ns;
	e.procs = (uint32_t)nth;
	e.ticks = (uint32_t)ticks;
	e.max_gap_ns = info.interval_ns;
	if (!err)
		err = lc_pwriter_end(pw, &e);
	if (lc_pwriter_close(pw) && !err)
		err = -EIO;
	free(w.threads);
	if (err) {
		fprintf(stderr, "genprofile: %s: %s\n", argv[1], strerror(-err));
		return 1;
	}
	return 0;
}
