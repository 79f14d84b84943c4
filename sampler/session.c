/*
 * session.c — one profiling session from the profile's first block to its
 * end record.  See session.h.
 */
#include "session.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "attr.h"
#include "lc_util.h"
#include "replay.h"
#include "tick.h"

/* A session.  Written by the owning thread only, except acc, threads and w,
 * which the sampling thread uses between start and finish (see session.h). */
struct lc_session {
	struct lc_session_opts o;
	struct lc_registry *reg;
	struct lc_pwriter *w;
	struct lc_threads *threads;
	struct lc_accum *acc;
	struct lc_sampler *smp;
	uint64_t t0;
	struct lc_sampler_stats st;
	int started;
};

/* A fresh session name: "lc" + our pid + random hex. */
void lc_session_name(char *buf, size_t len)
{
	uint32_t r = 0;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r))
		r = (uint32_t)lc_clock_ns();
	snprintf(buf, len, "lc%d-%08x", (int)getpid(), r);
}

struct lc_session *lc_session_new(const struct lc_session_opts *o, struct lc_registry *reg)
{
	struct lc_session *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->o = *o;
	s->reg = reg;
	return s;
}

struct lc_registry *lc_session_registry(struct lc_session *s)
{
	return s->reg;
}

/* Mark the categories whose source this sampler does not measure as
 * unavailable, with the category table's reason. */
static void mark_unmeasured(struct lc_prof_info *info)
{
	for (int c = 0; c < LC_NCAT; c++) {
		const struct lc_cat_info *ci = lc_cat_info(c);

		if (ci->from == LC_FROM_FLAGS)
			continue;
		info->unavailable |= 1u << c;
		info->reason[c] = (char *)ci->unmeasured;
	}
}

/* Open the profile file with the session's first block. */
static int open_profile(struct lc_session *s, int cpu, int fifo, char *msg, size_t len)
{
	struct lc_prof_info info;
	struct timespec rt;
	char host[256] = "";
	int e = 0;

	if (s->o.host || getenv(LC_ENV_HOST))
		snprintf(host, sizeof(host), "%s", s->o.host ? s->o.host : getenv(LC_ENV_HOST));
	else
		gethostname(host, sizeof(host) - 1);
	clock_gettime(CLOCK_REALTIME, &rt);
	info = (struct lc_prof_info){
		.start_realtime_ns = (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec,
		.t0_ns = s->t0, .interval_ns = s->o.interval_ns, .window_ns = s->o.window_ns,
		.procs_option = s->o.procs, .sampler_cpu = cpu, .sched_fifo = (uint32_t)fifo,
		.hostname = host, .command = (char *)s->o.command, .session = (char *)s->o.name,
	};
	mark_unmeasured(&info);
	for (int c = 0; c < LC_NCAT; c++)
		if (s->o.unavailable & (1u << c)) {
			info.unavailable |= 1u << c;
			info.reason[c] = (char *)s->o.unavailable_why;
		}
	s->w = lc_pwriter_open(s->o.out, &info, &e);
	if (!s->w)
		return lc_fail(msg, len, e, "%s: %s", s->o.out, strerror(-e));
	return 0;
}

/* Start the sampler thread (placed, not ticking), open the profile, and set
 * the sampler ticking from t0. */
int lc_session_start(struct lc_session *s, char *msg, size_t len)
{
	struct lc_sampler_cfg cfg = { .cpu = s->o.cpu };
	int e = 0, cpu, fifo;

	s->smp = lc_sampler_start(&cfg, &e);
	if (!s->smp)
		return lc_fail(msg, len, e, "cannot start the sampler on CPU %d: %s", s->o.cpu,
			       strerror(-e));
	lc_sampler_placement(s->smp, &cpu, &fifo);
	s->t0 = lc_clock_ns();
	e = open_profile(s, cpu, fifo, msg, len);
	if (e)
		return e;
	s->threads = lc_threads_new(s->w);
	s->acc = lc_accum_new(s->w, LC_SRC_SAMPLED, s->o.window_ns, s->o.procs);
	if (!s->threads || !s->acc)
		return lc_fail(msg, len, -ENOMEM, "out of memory");
	cfg = (struct lc_sampler_cfg){ .interval_ns = s->o.interval_ns, .cpu = s->o.cpu,
				       .t0 = s->t0, .reg = s->reg, .acc = s->acc,
				       .threads = s->threads, .w = s->w };
	lc_sampler_go(s->smp, &cfg);
	s->started = 1;
	return 0;
}

/* Replay the trace files into the profile's second source; raise *procs to
 * the trace's thread count when p was taken from the threads seen. */
static void add_trace(struct lc_session *s, uint32_t *procs, struct lc_session_result *res)
{
	struct lc_replay_stats rs;
	const struct lc_departure *dep;
	struct lc_accum *acc;
	uint32_t ndep, p, from;
	char why[512] = "";

	acc = lc_accum_new(s->w, LC_SRC_TRACE, s->o.window_ns, s->o.procs);
	if (!acc) {
		lc_append_line(res->notes, sizeof(res->notes), "out of memory for the trace profile");
		return;
	}
	dep = lc_registry_departures(s->reg, &ndep);
	if (lc_replay(s->o.trace_dir, s->o.name, s->t0, s->st.t_end, dep, ndep, acc, s->threads,
		      &rs, why, sizeof(why)))
		lc_append_line(res->notes, sizeof(res->notes), "trace: %s", why);
	else if (!rs.files)
		lc_append_line(res->notes, sizeof(res->notes), "trace mode: no trace file appeared in %s", s->o.trace_dir);
	if (rs.bad)
		lc_append_line(res->notes, sizeof(res->notes), "trace: %llu invalid records or files ignored", (unsigned long long)rs.bad);
	lc_accum_flush(acc);
	p = lc_accum_procs(acc, &from);
	if (from == LC_PROCS_THREADS && p > *procs)
		*procs = p;
	lc_accum_free(acc);
	if (s->o.own_trace_dir) {
		lc_replay_cleanup(s->o.trace_dir, s->o.name);
		rmdir(s->o.trace_dir);
	}
}

/* Stop the sampling thread and discovery; the sampler's last tick is now. */
static void stop_sampling(struct lc_session *s)
{
	if (s->smp)
		lc_sampler_stop(s->smp, &s->st);
	s->smp = NULL;
	if (s->reg)
		lc_registry_stop(s->reg);
}

/* Write the end record: p, the sampler's statistics, status and reason. */
static void write_end(struct lc_session *s, int status, const char *reason,
		      struct lc_session_result *res)
{
	struct lc_prof_end end = { 0 };
	uint32_t from = 0;

	lc_accum_flush(s->acc);
	end.procs = lc_accum_procs(s->acc, &from);
	if (s->o.trace)
		add_trace(s, &end.procs, res);
	end.end_ns = s->st.t_end - s->t0;
	end.procs_from = from;
	end.exit_status = status;
	end.ticks = (uint32_t)s->st.ticks;
	end.max_gap_ns = s->st.max_gap_ns;
	end.wasted_lost = lc_accum_wasted_lost_count(s->acc);
	end.bad_reads = s->st.bad_reads;
	end.reason = (char *)reason;
	lc_pwriter_end(s->w, &end);
	res->procs = end.procs;
	res->wall_ns = end.end_ns;
	res->ticks = s->st.ticks;
}

/* Add the reason of each segment the registry refused (the first few) to
 * the notes, e.g. "target 1234 speaks segment ABI 2, this sampler 1:
 * skipped". */
static void note_rejections(struct lc_registry *reg, struct lc_session_result *res)
{
	struct lc_rejection rej[LC_SESSION_REASONS_SHOWN];
	uint32_t n = reg ? lc_registry_rejections(reg, rej, LC_SESSION_REASONS_SHOWN) : 0;

	for (uint32_t i = 0; i < n && i < LC_SESSION_REASONS_SHOWN; i++)
		lc_append_line(res->notes, sizeof(res->notes), "%s", rej[i].reason);
}

int lc_session_finish(struct lc_session *s, int status, const char *reason,
		      struct lc_session_result *res)
{
	*res = (struct lc_session_result){ 0 };
	stop_sampling(s);
	if (s->started)
		write_end(s, status, reason, res);
	res->opened = s->w != NULL;
	res->write_err = lc_pwriter_close(s->w);
	s->w = NULL;
	res->seen = s->reg ? lc_registry_seen(s->reg) : 0;
	res->rejected = s->reg ? lc_registry_rejected(s->reg) : 0;
	note_rejections(s->reg, res);
	return res->write_err;
}

void lc_session_free(struct lc_session *s)
{
	if (!s)
		return;
	if (s->smp) {
		lc_sampler_stop(s->smp, &s->st);
		s->smp = NULL;
	}
	lc_pwriter_close(s->w);
	lc_accum_free(s->acc);
	lc_threads_free(s->threads);
	lc_registry_stop(s->reg);
	lc_registry_free(s->reg);
	free(s);
}
