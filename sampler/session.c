/*
 * session.c — one profiling session from the profile's first block to its
 * end record.  See session.h.
 */
#include "session.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "attr.h"
#include "counters.h"
#include "fdroom.h"
#include "lc_sched.h"
#include "lc_util.h"
#include "replay.h"
#include "tick.h"
#include "unslotted.h"

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
	struct lc_sched *sched;
	struct lc_machine *mach;		/* the machine's share */
	/* what the profile measures: the info block's word, and the end's */
	uint32_t unavailable;
	const char *reason[LC_NCAT];
	const char *method[LC_NCAT];
	char sched_why[256];
	char rc_method[1000];
	char ml_why[600];
	char warn[700];
	struct lc_ctr *ctr;
	const char *warning;
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

/* Why the counter-derived memory loss is not measured. */
static const char *counters_why(struct lc_session *s)
{
	const char *u = lc_ctr_unavailable(s->ctr);

	if (s->o.no_counters)
		return "not measured: counters were not asked for (record --no-counters)";
	if (u)
		return u;
	snprintf(s->ml_why, sizeof(s->ml_why), "not measured: the events counted give no "
		 "cycles and stall cycles (record -e EV=cycles,EV=stall)");
	return s->ml_why;
}

/* Whether the session counts events. */
static int counting(const struct lc_session *s)
{
	uint32_t n = 0;

	if (s->ctr)
		lc_ctr_events(s->ctr, &n);
	return n > 0;
}

const char *lc_session_warning(const struct lc_session *s)
{
	return s->warning;
}

/* Mark the categories whose source this session does not measure as
 * unavailable, with the source's reason or the category table's. */
static void mark_unmeasured(struct lc_session *s)
{
	for (int c = 0; c < LC_NCAT; c++) {
		const struct lc_cat_info *ci = lc_cat_info(c);

		if (ci->from == LC_FROM_FLAGS)
			continue;
		if (ci->from == LC_FROM_SCHED && lc_sched_source(s->sched) != LC_SCHED_NONE) {
			const char *m = lc_ctr_method(s->ctr, c);

			const char *ww = "";
			enum lc_wake_source ws = lc_sched_wake_source(s->sched, &ww);

			snprintf(s->rc_method, sizeof(s->rc_method),
				 "time a thread waited for a CPU (runnable but not running: BUSY, "
				 "woken from a wait, or a waiter whose event had happened), from %s%s%s%s%s%s",
				 lc_sched_source_name(lc_sched_source(s->sched)),
				 ws == LC_WAKE_TRACEPOINT ? " and sched:sched_wakeup tracepoints" :
				 ws == LC_WAKE_SCHEDSTAT ? " and schedstat run delay for wake-ups (the "
				 "sched_wakeup tracepoint: " : "",
				 ws == LC_WAKE_SCHEDSTAT ? ww : "", ws == LC_WAKE_SCHEDSTAT ? ")" : "",
				 m ? "; and " : "", m ? m : "");
			s->method[c] = s->rc_method;
			continue;
		}
		if (ci->from == LC_FROM_COUNTERS && lc_ctr_method(s->ctr, c)) {
			s->method[c] = lc_ctr_method(s->ctr, c);
			continue;
		}
		s->unavailable |= 1u << c;
		s->reason[c] = ci->from == LC_FROM_SCHED && s->sched_why[0] ? s->sched_why :
			       ci->from == LC_FROM_COUNTERS ? counters_why(s) : ci->unmeasured;
	}
	if (lc_ctr_method(s->ctr, LC_CAT_CL))
		s->method[LC_CAT_CL] = lc_ctr_method(s->ctr, LC_CAT_CL);
	for (int c = 0; c < LC_NCAT; c++)
		if (s->o.unavailable & (1u << c)) {
			s->unavailable |= 1u << c;
			s->reason[c] = s->o.unavailable_why;
			s->method[c] = NULL;
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
		.window_grow = s->o.window_grow,
		.procs_option = s->o.procs, .sampler_cpu = cpu, .sched_fifo = (uint32_t)fifo,
		.hostname = host, .command = (char *)s->o.command, .session = (char *)s->o.name,
	};
	mark_unmeasured(s);
	info.unavailable = s->unavailable;
	for (int c = 0; c < LC_NCAT; c++)
		info.reason[c] = (char *)s->reason[c];
	s->w = lc_pwriter_open(s->o.out, &info, &e);
	if (!s->w)
		return lc_fail(msg, len, e, "%s: %s", s->o.out, strerror(-e));
	/* the sampling thread must never wait for the disk */
	lc_pwriter_async(s->w);
	return 0;
}

/* The session's counters: an unknown event is an error; counters that
 * cannot be opened here are a warning and ML is then unavailable. */
static int open_counters(struct lc_session *s, char *msg, size_t len)
{
	struct lc_ctr_cfg cc = {
		.events = s->o.events, .events_file = s->o.events_file,
		.interval_ns = s->o.counter_interval_ns, .tick_ns = s->o.interval_ns,
		.miss_latency_ns = s->o.miss_latency_ns,
		.latency_from = s->o.miss_latency_from, .replay = s->o.counter_replay,
		.off = s->o.no_counters,
		.exclude_kernel = 0,	/* per target: the kernel too only for root ones */
	};
	int e = lc_ctr_open(&cc, &s->ctr, msg, len);

	if (e)
		return e;
	if (!s->o.no_counters && lc_ctr_unavailable(s->ctr)) {
		const char *u = lc_ctr_unavailable(s->ctr);

		if (!strncmp(u, "not measured: ", 14))
			u += 14;
		snprintf(s->warn, sizeof(s->warn), "memory loss will be na: %s", u);
		s->warning = s->warn;
	}
	return 0;
}

/* The adaptive interval's top: never longer than a window. */
static uint64_t interval_max(const struct lc_session_opts *o)
{
	return o->window_ns && o->interval_max_ns > o->window_ns ? o->window_ns : o->interval_max_ns;
}

/* The adaptive rule's CPU budget and error goal (tick.h's defaults unless
 * asked). */
static uint32_t budget_ppm(const struct lc_session_opts *o)
{
	return o->budget_ppm ? o->budget_ppm : LC_TICK_BUDGET_PPM;
}

static uint32_t goal_ppm(const struct lc_session_opts *o)
{
	return o->goal_ppm ? o->goal_ppm : LC_TICK_GOAL_PPM;
}

/* The slot observations after which no category's standard error exceeds
 * the goal: the binomial error sqrt(f (1 - f) / n) is largest at f = 1/2. */
static uint64_t goal_obs(const struct lc_session_opts *o)
{
	double g = goal_ppm(o) / 1e6;

	return (uint64_t)(0.25 / (g * g) + 0.5);
}

/* Start the sampler thread (placed, not ticking), open the profile, and set
 * the sampler ticking from t0. */
int lc_session_start(struct lc_session *s, char *msg, size_t len)
{
	struct lc_sampler_cfg cfg = { .cpu = s->o.cpu };
	int e = 0, cpu, fifo;

	/* refused before anything is started or created */
	if (s->o.window_grow == 1 || s->o.window_grow % 2)
		return lc_fail(msg, len, -EINVAL,
			       "window growth %u: must be 0 (fixed windows) or even and at least 2",
			       s->o.window_grow);
	s->smp = lc_sampler_start(&cfg, &e);
	if (!s->smp)
		return lc_fail(msg, len, e, "cannot start the sampler on CPU %d: %s", s->o.cpu,
			       strerror(-e));
	lc_sampler_placement(s->smp, &cpu, &fifo);
	s->sched = lc_sched_new(s->o.sched, s->sched_why, sizeof(s->sched_why));
	if (!s->sched)
		return lc_fail(msg, len, -ENOMEM, "out of memory");
	if (s->o.trace)
		lc_sched_keep_spans(s->sched);	/* the replay's run-queue time */
	e = open_counters(s, msg, len);
	if (e)
		return e;
	s->t0 = lc_clock_ns();
	e = open_profile(s, cpu, fifo, msg, len);
	if (e)
		return e;
	s->threads = lc_threads_new(s->w);
	s->acc = lc_accum_new(s->w, LC_SRC_SAMPLED, s->o.window_ns, s->o.procs);
	s->mach = lc_machine_new(s->w, s->reg, s->t0, s->o.window_ns, s->o.window_grow, cpu);
	if (!s->threads || !s->acc || !s->mach)
		return lc_fail(msg, len, -ENOMEM, "out of memory");
	lc_accum_window_grow(s->acc, s->o.window_grow);	/* checked above */
	{
		uint32_t nev;
		const struct lc_prof_event *ev = lc_ctr_events(s->ctr, &nev);

		if (nev && lc_accum_events(s->acc, nev, ev))
			return lc_fail(msg, len, -ENOMEM, "out of memory");
	}
	cfg = (struct lc_sampler_cfg){ .interval_ns = s->o.interval_ns, .cpu = s->o.cpu,
				       .t0 = s->t0, .reg = s->reg, .acc = s->acc,
				       .threads = s->threads, .w = s->w, .sched = s->sched,
				       .ctr = counting(s) ? s->ctr : NULL,
				       .jitter_ns = s->o.interval_ns * s->o.jitter_pct / 100, .mach = s->mach,
				       .interval_max_ns = interval_max(&s->o),
				       .budget_ppm = budget_ppm(&s->o), .goal_obs = goal_obs(&s->o),
				       .window_ns = s->o.window_ns, .window_grow = s->o.window_grow };
	lc_sampler_go(s->smp, &cfg);
	s->started = 1;
	return 0;
}

/* Name each process whose trace stopped early (its program took over the
 * trace descriptor and the file could not be opened again). */
static void note_trace_cuts(const struct lc_departure *dep, uint32_t ndep,
			    struct lc_session_result *res)
{
	for (uint32_t i = 0; i < ndep; i++)
		if (dep[i].seg_flags & LC_SEG_TRACE_CUT)
			lc_append_line(res->notes, sizeof(res->notes), "trace: process %d: its "
				       "trace was cut (the program closed the trace file's descriptor "
				       "and it could not be opened again): the trace profile lacks "
				       "its last transitions", (int)dep[i].pid);
}

/* Replay the trace files into the profile's second source, with the
 * sampled source's p (*procs) and its run-queue spans. */
static void add_trace(struct lc_session *s, uint32_t *procs, struct lc_session_result *res)
{
	struct lc_replay_stats rs;
	const struct lc_departure *dep;
	struct lc_accum *acc;
	uint32_t ndep;
	char why[512] = "";

	/* the trace source has the sampled source's p, so that both sum to
	 * the same p x wall time */
	acc = lc_accum_new(s->w, LC_SRC_TRACE, s->o.window_ns, *procs);
	/* the sampled source's schedule, so that the windows of both line up
	 * (its growth was accepted at the start) */
	if (acc)
		lc_accum_window_grow(acc, s->o.window_grow);
	if (!acc) {
		lc_append_line(res->notes, sizeof(res->notes), "out of memory for the trace profile");
		return;
	}
	dep = lc_registry_departures(s->reg, &ndep);
	if (lc_replay(s->o.trace_dir, s->o.name, s->t0, s->st.t_end, dep, ndep, acc, s->threads,
		      s->sched, &rs, why, sizeof(why)))
		lc_append_line(res->notes, sizeof(res->notes), "trace: %s", why);
	else if (!rs.files)
		lc_append_line(res->notes, sizeof(res->notes), "trace mode: no trace file appeared in %s", s->o.trace_dir);
	if (rs.bad)
		lc_append_line(res->notes, sizeof(res->notes), "trace: %llu invalid records or files ignored", (unsigned long long)rs.bad);
	note_trace_cuts(dep, ndep, res);
	lc_accum_flush(acc);
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

/* CPU time of this process (the sampler, discovery and the command's
 * thread; not the program, which is a child or another process). */
static uint64_t self_cpu_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000u +
	       ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000u;
}

/* The CPU the sampler shared with the program, or -1: a target thread was
 * allowed on the sampler's CPU, and the program had at least as many
 * threads alive at once as this process has CPUs, so none was spare. */
static int shared_cpu(const struct lc_session *s)
{
	cpu_set_t set;

	if (s->st.cpu < 0 || !s->st.cpu_used || sched_getaffinity(0, sizeof(set), &set))
		return -1;
	return lc_accum_max_threads(s->acc) >= (uint32_t)CPU_COUNT(&set) ? s->st.cpu : -1;
}

/* The end block's interval rule: the rule, its range, the mean interval
 * achieved, and what it cost. */
static void end_rule(const struct lc_session *s, struct lc_prof_end *end)
{
	int adaptive = interval_max(&s->o) > s->o.interval_ns;

	end->rule = adaptive ? LC_RULE_ADAPTIVE_START : LC_RULE_FIXED;
	end->interval_min_ns = s->o.interval_ns;
	end->interval_max_ns = adaptive ? interval_max(&s->o) : s->o.interval_ns;
	end->mean_interval_ns = s->st.ticks ? end->end_ns / s->st.ticks : 0;
	end->goal_ppm = adaptive ? goal_ppm(&s->o) : 0;
	end->budget_ppm = adaptive ? budget_ppm(&s->o) : 0;
	end->goal_at_ns = s->st.goal_at > s->t0 ? s->st.goal_at - s->t0 : 0;
	end->thread_cpu_ns = s->st.thread_cpu_ns;
}

/* The result's interval rule, error bound and breakdown from the end block. */
static void result_rule(const struct lc_session *s, const struct lc_prof_end *end,
			struct lc_session_result *res)
{
	double n = (double)end->ticks * (end->procs ? end->procs : 1);

	_Static_assert(LC_SESSION_PHASES == LC_NPHASES, "a phase for each part of a tick");
	res->rule = end->rule;
	res->interval_min_ns = end->interval_min_ns;
	res->interval_max_ns = end->interval_max_ns;
	res->mean_interval_ns = end->mean_interval_ns;
	res->last_interval_ns = s->st.last_interval_ns;
	res->goal_ppm = end->goal_ppm;
	res->budget_ppm = end->budget_ppm;
	res->goal_at_ns = end->goal_at_ns;
	res->thread_cpu_ns = end->thread_cpu_ns;
	res->err_bound = n > 0 ? sqrt(lc_accum_spread(s->acc, 0) / n) : 0;
	res->timed = s->st.timed;
	memcpy(res->phase_ns, s->st.phase_ns, sizeof(res->phase_ns));
}

/* The limits of the end record (and the result): threads without a slot,
 * fragment tags beyond the cap. */
static void end_limits(struct lc_session *s, struct lc_prof_end *end,
		       struct lc_session_result *res)
{
	struct lc_unslotted u = { 0 };

	if (s->reg)
		lc_registry_unslotted(s->reg, &u);
	end->unslotted = res->unslotted = u.refused;
	end->unslotted_seen = res->unslotted_seen = u.seen;
	end->unslotted_cpu_ns = res->unslotted_cpu_ns = u.cpu_ns;
	end->tags_cap = LC_TAGS_CAP;
	end->tags_over = res->tags_over = lc_accum_tags_over(s->acc);
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
	lc_accum_procs_rules(s->acc, &end.max_threads, &end.max_runnable, &end.affinity_cpus);
	res->max_threads = end.max_threads;
	res->max_runnable = end.max_runnable;
	res->affinity_cpus = end.affinity_cpus;
	res->procs_from = from;
	end.exit_status = status;
	end.ticks = (uint32_t)s->st.ticks;
	end.max_gap_ns = s->st.max_gap_ns;
	end.wasted_lost = lc_accum_wasted_lost_count(s->acc);
	end.bad_reads = s->st.bad_reads;
	end.reason = (char *)reason;
	end.sampler_cpu_ns = self_cpu_ns();
	end.max_gap_at_ns = s->st.max_gap_at > s->t0 ? s->st.max_gap_at - s->t0 : 0;
	end.missed_ticks = s->st.missed_ticks;
	end.sched_source = lc_sched_source(s->sched);
	end.ncpus = (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
	end.untracked = s->reg ? lc_registry_untracked(s->reg) : 0;
	end.fd_flags = s->reg && lc_fds_short() ? LC_END_FDS_SHORT : 0;
	end_limits(s, &end, res);
	end.shared_cpu = shared_cpu(s);
	end.unavailable = s->unavailable;
	for (int c = 0; c < LC_NCAT; c++) {
		end.reason_na[c] = (char *)s->reason[c];
		end.method[c] = (char *)s->method[c];
	}
	end_rule(s, &end);
	lc_pwriter_end(s->w, &end);
	result_rule(s, &end, res);
	res->procs = end.procs;
	res->wall_ns = end.end_ns;
	res->ticks = s->st.ticks;
	res->sampler_cpu_ns = end.sampler_cpu_ns;
	res->max_gap_ns = end.max_gap_ns;
	res->max_gap_at_ns = end.max_gap_at_ns;
	res->missed_ticks = end.missed_ticks;
	res->shared_cpu = end.shared_cpu;
	res->busy_wait = s->st.busy_wait;
	res->sched_source = (int)end.sched_source;
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
	res->proc_threads = lc_machine_max_threads(s->mach);
	res->seen = s->reg ? lc_registry_seen(s->reg) : 0;
	res->rejected = s->reg ? lc_registry_rejected(s->reg) : 0;
	res->untracked = s->reg ? lc_registry_untracked(s->reg) : 0;
	res->fds_short = s->reg && lc_fds_short();
	note_rejections(s->reg, res);
	return res->write_err;
}

const char *lc_session_holder;

/* Whether descriptor fd is a perf event. */
static int is_perf_fd(int fd)
{
	char path[64], link[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return 0;
	link[n] = 0;
	return !strcmp(link, "anon_inode:[perf_event]");
}

/* The perf event descriptors of this process into fds[max], ascending;
 * how many. */
static int perf_fds(int *fds, int max)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d)) && n < max) {
		int fd = atoi(de->d_name);

		if (fd > 2 && fd != dirfd(d) && is_perf_fd(fd))
			fds[n++] = fd;
	}
	if (d)
		closedir(d);
	for (int i = 1; i < n; i++)	/* ascending, for close_range's gaps */
		for (int j = i; j > 0 && fds[j - 1] > fds[j]; j--) {
			int t = fds[j];

			fds[j] = fds[j - 1];
			fds[j - 1] = t;
		}
	return n;
}

/* Hand this process's perf events to a holder process (lc_session_holder
 * run as "HOLDER --hold-perf PID") that keeps them until this process has
 * exited: the kernel's release of the last event of a tracepoint (the
 * scheduler's sched_wakeup) waits for an RCU grace period, 2-40 ms, which
 * record's exit then does not wait for.  The child keeps only those
 * descriptors, and dies with its parent (PR_SET_PDEATHSIG).  Nothing
 * happens without a holder, or when fork fails. */
static void hand_off_perf(void)
{
	int fds[64], n;
	unsigned lo = 0;
	char ps[24];
	pid_t parent = getpid();

	if (!lc_session_holder || !(n = perf_fds(fds, 64)))
		return;
	snprintf(ps, sizeof(ps), "%d", (int)parent);
	if (fork() != 0)
		return;
	for (int i = 0; i < n; i++) {	/* async-signal-safe from here on */
		if ((unsigned)fds[i] > lo)
			close_range(lo, (unsigned)fds[i] - 1, 0);
		fcntl(fds[i], F_SETFD, 0);
		lo = (unsigned)fds[i] + 1;
	}
	close_range(lo, ~0u, 0);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(0);
	execl(lc_session_holder, "lostcycles", "--hold-perf", ps, (char *)NULL);
	_exit(0);
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
	if (s->sched)
		hand_off_perf();
	lc_sched_free(s->sched);
	lc_machine_free(s->mach);
	lc_ctr_close(s->ctr);
	lc_registry_stop(s->reg);
	lc_registry_free(s->reg);
	free(s);
}
