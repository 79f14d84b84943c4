/*
 * cmd_record.c — "lostcycles record" and "lostcycles attach": the options,
 * a call to start the command or find the processes (kmod-free-tools/
 * launch.c) and the session (sampler/session.c), and what happened.
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_abi.h"
#include "lc_cmd.h"
#include "lc_launch.h"
#include "lc_opt_session.h"
#include "lc_profile.h"
#include "lc_util.h"
#include "mpi_job.h"
#include "session.h"
#include "targets.h"
#include "tick.h"

#define LC_RECORD_OUT "lostcycles.data"	/* -o's default */
#define ATTACH_WAIT_NS 1000000000u	/* how long attach waits for segments */
#define LC_GONE_NS 50000000u	/* how long the command's end may take to be seen */
#define LC_TERM_WAIT_NS 5000000000ull	/* how long record waits for its command
					 * after passing a signal on */

/* Options of record and attach: the session's (s, handed to the sampler)
 * and the command's own. */
struct opts {
	struct lc_session_opts s;	/* -i -w --window-grow --jitter -C -p -o
					 * --sched -e --counter-interval
					 * --miss-latency --counter-replay
					 * --no-counters */
	int trace;
	int quiet;
	int omp;		/* --omp: load the OpenMP tool into the command */
	int pthread;		/* --pthread: preload the pthread layer */
	int mpi;		/* --mpi: LD_PRELOAD the MPI layer into the ranks */
	const char *loggp;	/* --loggp=FILE, NULL: the default */
	int force;		/* --force: replace an existing -o FILE */
	int spare_cpu;		/* --spare-cpu: keep the command off the sampler's CPU */
	int no_wait;		/* --no-wait: end with the command, leaving its live processes */
	uint32_t slots;		/* --slots: LOSTCYCLES_SLOTS of the command, 0 inherited */
};

/* A run in progress: what both commands set up and tear down. */
struct run {
	struct opts o;
	struct lc_launch l;
	char *command;
	struct lc_session *ses;
	struct lc_mpi_setup mpi;
	const char *prog;	/* record: the command's program (argv[0]) */
	char latency_from[4400];	/* where the miss latency came from, or why none */
};

static const char *const record_usage[] = {
	"lostcycles record [-i INTERVAL] [-w WINDOW] [--window-grow=N] [-C CPU]",
	"                  [--spare-cpu] [-p PROCS] [-o FILE] [--force] [-e EVENTS]",
	"                  [--sched=SOURCE] [--jitter=PCT] [--trace] [--omp] [--pthread]",
	"                  [--mpi [--loggp=FILE]] [--slots=N] [--no-wait] [-q] [--] CMD",
	"                  [ARGS...]",
	"",
	"Run CMD in a new profiling session, sample its flags every INTERVAL, write",
	"the predicate profile to FILE, and exit with CMD's exit status.",
	NULL,
};

static const char *const attach_usage[] = {
	"lostcycles attach [-i INTERVAL] [-w WINDOW] [--window-grow=N] [-C CPU]",
	"                  [-p PROCS] [-o FILE] [--force] [-e EVENTS] [--sched=SOURCE]",
	"                  [--jitter=PCT] [-q] PID...",
	"",
	"Sample running processes that use liblostcycles (started with",
	"LOSTCYCLES_SESSION set) until they all exit or SIGINT/SIGTERM arrives.",
	NULL,
};

/* The options' defaults: the session's (LC_SESSION_OPTS_DEFAULT, as exec's). */
static const struct opts defaults = {
	.s = LC_SESSION_OPTS_DEFAULT,
};

/* Parse the options of record (attach 0) or attach into o (which holds
 * the defaults): the operands in *rest; returns their count, or
 * LC_OPT_HELP / LC_OPT_USAGE. */
static int parse_opts(int attach, int argc, char **argv, struct opts *o, char ***rest)
{
	/* record's own options: hidden for attach, which refuses them */
#define REC(h) (attach ? NULL : (h))
	const struct lc_opt opts[] = {
		LC_OPT_ROWS_SESSION(&o->s),
		LC_OPT_NUMBER("cpu", 'C', "CPU", "pin the sampler to CPU (default: the last "
			      "allowed CPU)", &o->s.cpu, 0, CPU_SETSIZE - 1),
		LC_OPT_FLAG("spare-cpu", 0, REC("run CMD on the other CPUs only, so that the "
			    "sampler\nhas its CPU to itself (for programs with fewer threads\n"
			    "than CPUs: the kernel may otherwise place one on it)"), &o->spare_cpu),
		LC_OPT_NUMBER("procs", 'p', "P", "processor slots (default: the team declared, "
			      "else most threads runnable at once, capped by their affinity)",
			      &o->s.procs, 1, LC_SLOTS_MAX),
		LC_OPT_FILENAME("output", 'o', "FILE", "profile file (default lostcycles.data, whose "
				"previous\nfile is kept as lostcycles.data.old)", &o->s.out),
		LC_OPT_FLAG("force", 0, "replace FILE when it exists (else it is refused)",
			    &o->force),
		LC_OPT_FLAG("trace", 0, REC("also log every transition and add the exact "
			    "profile"), &o->trace),
		LC_OPT_FLAG("omp", 0, REC("set the flags of an unmodified OpenMP program built\n"
			    "with clang -fopenmp (LLVM's libomp, through OMPT);\nGCC's libgomp "
			    "has no OMPT: use clang or the macros"), &o->omp),
		LC_OPT_FLAG("pthread", 0, REC("set the flags of an unmodified pthread program\n"
			    "(locks, barriers, conditions, semaphores, join)"), &o->pthread),
		LC_OPT_FLAG("mpi", 0, REC("profile an unmodified MPI job (CMD is e.g. mpiexec "
			    "-n 4 ./app):\nLD_PRELOAD liblostcycles-mpi into every rank"), &o->mpi),
		LC_OPT_FILENAME("loggp", 0, "FILE", REC("LogGP parameters for communication loss "
				"(default: the file\nof 'lostcycles calibrate --mpi'; none: CL is "
				"na)"), &o->loggp),
		LC_OPT_ROWS_SOURCES(&o->s),
		LC_OPT_NUMBER("slots", 0, "N", REC("flag slots per process of CMD (LOSTCYCLES_SLOTS;"
			      "\ndefault 256): a thread beyond them is not profiled"), &o->slots, 1,
			      LC_SLOTS_MAX),
		LC_OPT_FLAG("no-wait", 0, REC("end when CMD ends (say how many processes of the "
			    "session\nit left running) instead of waiting for them"), &o->no_wait),
		LC_OPT_FLAG("quiet", 'q', "no summary line on stderr", &o->quiet),
		LC_OPT_COLOR(),
		LC_OPT_END_AT_OPERAND(),
	};
#undef REC
	int n = lc_opt_parse(argc, argv, opts, attach ? attach_usage : record_usage, rest);

	if (n < 0)
		return n;
	if (!o->s.out)
		o->s.out = LC_RECORD_OUT;
	return lc_opt_session_settle(&o->s) ? LC_OPT_USAGE : n;
}

/* The session options of record's (attach 1: attach's) argv.  See
 * lc_opt_session.h. */
int lc_opt_record_session(int attach, int argc, char **argv, struct lc_session_opts *so)
{
	struct opts o = defaults;
	char **rest;
	int n = parse_opts(attach, argc, argv, &o, &rest);

	*so = o.s;
	return n;
}

/* Check the options against each other.  Returns 0 or 2 (printed). */
static int check_opts(const struct opts *o)
{
	if (o->s.no_counters && (o->s.events || o->s.counter_replay || o->s.miss_latency_ns > 0)) {
		warnx("--no-counters does not combine with -e, --miss-latency or --counter-replay");
		return 2;
	}
	if (o->loggp && !o->mpi) {
		warnx("--loggp needs --mpi");
		return 2;
	}
	return 0;
}

/* --mpi: put the MPI layer and the LogGP file into the environment the
 * launcher passes on to the ranks.  Returns 0 or 1 after a message. */
static int mpi_setup(struct run *r)
{
	char msg[512];

	if (lc_mpi_setup(&r->mpi, r->o.loggp, msg, sizeof(msg))) {
		warnx("--mpi: %s", msg);
		return 1;
	}
	if (r->mpi.warning[0])
		warnx("%s", r->mpi.warning);
	return 0;
}

/* The ideal miss latency for CL = misses x latency: --miss-latency, else
 * the file of "calibrate --memory", else none; r->latency_from says which,
 * or why there is none, for the profile's CL method line. */
static void miss_latency(struct run *r)
{
	char why[512];

	if (r->o.s.no_counters)
		return;
	if (r->o.s.miss_latency_ns > 0) {
		snprintf(r->latency_from, sizeof(r->latency_from), "--miss-latency");
		return;
	}
	if (lc_launch_miss_latency(&r->o.s.miss_latency_ns, r->latency_from,
				   sizeof(r->latency_from), why, sizeof(why)) < 0 && !r->o.quiet)
		warnx("%swarning%s: %s: misses are not charged to communication loss",
		      lc_color(stderr, LC_COLOR_WARNING), lc_color(stderr, NULL), why);
}

/* Make room for the profile before anything runs: an existing -o FILE is
 * refused without --force, the default name's previous file is kept as
 * .old.  Returns 0 or 1 after a message. */
static int prepare_output(const struct opts *o)
{
	char msg[4400];

	if (!lc_out_prepare(o->s.out, o->force ? LC_OUT_FORCE : lc_opt_given("output", 'o') ?
			    LC_OUT_KEEP : LC_OUT_ROTATE, msg, sizeof(msg)))
		return 0;
	warnx("%s", msg);
	return 1;
}

/* The session's options: the command line's, and what the run set up. */
static struct lc_session_opts session_opts(const struct run *r)
{
	struct lc_session_opts so = r->o.s;

	so.trace = r->l.trace;
	so.trace_dir = r->l.trace_dir;
	so.own_trace_dir = r->l.own_trace_dir;
	so.name = r->l.session;
	so.command = r->command;
	so.unavailable = r->o.mpi && !r->mpi.have_loggp ? 1u << LC_CAT_CL : 0;
	so.unavailable_why = LC_MPI_NO_LOGGP;
	so.miss_latency_from = r->latency_from[0] ? r->latency_from : NULL;
	return so;
}

/* Create the session over reg (which it then owns) and start sampling.
 * Returns 0 or 1 after a message. */
static int start_run(struct run *r, struct lc_registry *reg)
{
	struct lc_session_opts so;
	char msg[512];

	miss_latency(r);
	so = session_opts(r);
	r->ses = lc_session_new(&so, reg);
	if (!r->ses) {
		lc_registry_stop(reg);
		lc_registry_free(reg);
		warnx("out of memory");
		return 1;
	}
	if (lc_session_start(r->ses, msg, sizeof(msg))) {
		warnx("%s", msg);
		return 1;
	}
	if (lc_session_warning(r->ses) && !r->o.quiet)
		warnx("%swarning%s: %s", lc_color(stderr, LC_COLOR_WARNING), lc_color(stderr, NULL),
		      lc_session_warning(r->ses));
	return 0;
}

/* How the sampler shared its CPU, or the hint to spare one. */
static void cpu_notes(const struct run *r, const char *cmd, const struct lc_session_result *res)
{
	double cpu_s = (double)res->sampler_cpu_ns / 1e9;

	if (res->shared_cpu >= 0 && res->busy_wait)
		fprintf(stderr, "lostcycles %s: the sampler busy-waited on CPU %d, which the program "
				"also used (no CPU was spare): it took %.3f s of that CPU from the "
				"program; use -i 30us or longer, or free a CPU for it (-C)\n",
			cmd, res->shared_cpu, cpu_s);
	else if (res->shared_cpu >= 0)
		fprintf(stderr, "lostcycles %s: the sampler shared CPU %d with the program (no CPU was "
				"spare) and used %.3f s of CPU: the program ran slower than alone\n",
			cmd, res->shared_cpu, cpu_s);
	else if (r->prog && !r->o.spare_cpu && lc_launch_spare_hint(r->o.s.cpu, res))
		fprintf(stderr, "lostcycles %s: hint: the program had fewer threads (p = %u) than "
				"CPUs, and the kernel may have placed one on the sampler's CPU, which "
				"slows it: --spare-cpu keeps the program off that CPU\n", cmd, res->procs);
}

/* A warning when the sampler fell behind. */
static void gap_note(const struct run *r, const char *cmd, const struct lc_session_result *res)
{
	uint64_t all = res->ticks + res->missed_ticks;

	if (res->max_gap_ns <= 10 * res->interval_max_ns && res->missed_ticks * 100 <= all)
		return;
	fprintf(stderr, "lostcycles %s: %swarning%s: the sampler fell behind: its longest tick gap "
			"was %.1f ms (ending at %.3f s), and %llu ticks (%.1f %%) were missed; "
			"the time of a gap is charged to one state seen in it\n", cmd,
		lc_color(stderr, LC_COLOR_WARNING), lc_color(stderr, NULL),
		(double)res->max_gap_ns / 1e6, (double)res->max_gap_at_ns / 1e9,
		(unsigned long long)res->missed_ticks,
		100.0 * (double)res->missed_ticks / (double)(all + !res->ticks));
}

/* No thread set a flag, and no layer was asked for: the layer that would
 * profile the program (by the runtime it links, or the threads it ran). */
static void layer_note(const struct run *r, const char *cmd, const struct lc_session_result *res)
{
	const char *l = lc_launch_layer_of(r->prog);
	const char *head = "no thread set a flag (the program has no macros and no layer was "
			   "loaded): the profile is all insufficient parallelism";

	if (l && !strcmp(l, "omp"))
		warnx("%s; the program links an OpenMP runtime: record it with --omp", head);
	else if (l && !strcmp(l, "gomp"))
		warnx("%s; the program links GCC's libgomp, which --omp cannot see: build it with "
		      "clang -fopenmp and record it with --omp, or use the flag macros", head);
	else if (l && !strcmp(l, "mpi"))
		warnx("%s; the program links an MPI library: record it with --mpi", head);
	else if (res->proc_threads > 1)
		warnx("%s; the program ran %u threads: record it with --pthread", head,
		      res->proc_threads);
	else
		warnx("%s; is the program linked with liblostcycles (lostcycles(3))?", head);
	(void)cmd;
}

/* A hint when nothing instrumented appeared. */
static void unseen_note(const struct run *r, const char *cmd, const struct lc_session_result *res)
{
	if (r->o.omp || r->o.pthread)
		fprintf(stderr, "lostcycles %s: no instrumented process appeared: did the "
				"layer load (%s)?\n", cmd, r->o.omp ? "--omp needs LLVM's libomp" :
				"LD_PRELOAD needs a dynamically linked program");
	else if (!r->o.mpi && lc_launch_is_mpi_launcher(r->prog))
		fprintf(stderr, "lostcycles %s: no instrumented process appeared: for an MPI "
				"job use 'lostcycles %s --mpi -- %s ...', which puts the MPI layer "
				"into every rank\n", cmd, cmd, r->prog);
	else
		layer_note(r, cmd, res);
}

/* The interval rule, the error bars it bought and what the sampler cost:
 * its CPU share (of the process, and of its thread) and the slowdown of
 * the program that share stands for (lc_cost_slowdown). */
static void cost_line(const char *cmd, const struct lc_session_result *res)
{
	struct lc_prof_end e = { .interval_rule = 1, .rule = res->rule,
				 .interval_min_ns = res->interval_min_ns,
				 .interval_max_ns = res->interval_max_ns,
				 .mean_interval_ns = res->mean_interval_ns, .goal_ppm = res->goal_ppm,
				 .budget_ppm = res->budget_ppm, .goal_at_ns = res->goal_at_ns };
	double wall = res->wall_ns ? (double)res->wall_ns : 1;
	char rule[256], slow[160];

	fprintf(stderr, "lostcycles %s: interval %s; error bars (one standard error) at most "
			"\u00b1%.2f %% of p x wall\n", cmd, lc_cost_rule_text(&e, rule, sizeof(rule)),
		100 * res->err_bound);
	fprintf(stderr, "lostcycles %s: sampler CPU %.3f s, %.1f %% of one CPU (its thread "
			"%.1f %%); estimated slowdown of the program %s\n", cmd,
		(double)res->sampler_cpu_ns / 1e9, 100 * (double)res->sampler_cpu_ns / wall,
		100 * (double)res->thread_cpu_ns / wall,
		lc_cost_slowdown_text(res->sampler_cpu_ns, res->wall_ns, res->procs, res->shared_cpu,
				      slow, sizeof(slow)));
}

/* LC_TICK_BREAKDOWN=1: where the sampling thread's CPU time went, per tick. */
static void breakdown_line(const char *cmd, const struct lc_session_result *res)
{
	double n = res->ticks ? (double)res->ticks : 1;

	if (!res->timed)
		return;
	fprintf(stderr, "lostcycles %s: per tick (us of the sampling thread's CPU):", cmd);
	for (int i = 0; i < LC_NPHASES; i++)
		fprintf(stderr, " %s %.2f%s", lc_tick_phase_name(i), (double)res->phase_ns[i] / n / 1e3,
			i + 1 < LC_NPHASES ? "," : "");
	fprintf(stderr, "; other threads of the process %.2f\n",
		(double)(res->sampler_cpu_ns > res->thread_cpu_ns ?
				 res->sampler_cpu_ns - res->thread_cpu_ns : 0) / n / 1e3);
}

/* The summary line on stderr, and the notes and hints after it. */
static void summary(const struct run *r, const char *cmd, const struct lc_session_result *res)
{
	char why[200];

	if (r->o.quiet)
		return;
	lc_procs_text(why, sizeof(why), res->procs, res->procs_from, res->max_threads,
		      res->max_runnable, res->affinity_cpus);
	fprintf(stderr, "lostcycles %s: %s: %.3f s, %llu ticks, %u process%s, p = %s\n", cmd,
		r->o.s.out, (double)res->wall_ns / 1e9, (unsigned long long)res->ticks, res->seen,
		res->seen == 1 ? "" : "es", why);
	cost_line(cmd, res);
	breakdown_line(cmd, res);
	cpu_notes(r, cmd, res);
	gap_note(r, cmd, res);
	if (!res->seen)
		unseen_note(r, cmd, res);
}

/* What the session's end says besides the summary. */
static void end_warnings(const struct lc_session_result *res)
{
	if (res->untracked)
		warnx("%u process%s of the session could not be tracked for want of file "
		      "descriptors (raise ulimit -n): %s missing from the profile",
		      res->untracked, res->untracked == 1 ? "" : "es",
		      res->untracked == 1 ? "it is" : "they are");
	if (res->fds_short)
		warnx("file descriptors ran out (ulimit -n): processes were tracked first, and "
		      "threads that appeared after that have no scheduler or counter source");
	if (res->unslotted || res->unslotted_seen)
		warnx("%u thread%s %s not profiled: %s process's flag slots were full (give "
		      "record --slots N, or LOSTCYCLES_SLOTS=N; default %u); %u thread%s without a "
		      "slot seen, their CPU time at least %.3f s", res->unslotted,
		      res->unslotted == 1 ? "" : "s", res->unslotted == 1 ? "was" : "were",
		      res->unslotted == 1 ? "its" : "their", LC_SLOTS_DEFAULT, res->unslotted_seen,
		      res->unslotted_seen == 1 ? "" : "s", (double)res->unslotted_cpu_ns / 1e9);
	if (res->tags_over)
		warnx("fragment tags beyond the first %u distinct ones were open at %llu tick%s: "
		      "their time is in the row of 'other tags' (tag %lld)", LC_TAGS_CAP,
		      (unsigned long long)res->tags_over, res->tags_over == 1 ? "" : "s",
		      (long long)LC_TAG_OTHER);
	if (res->rejected > LC_SESSION_REASONS_SHOWN)
		warnx("%u invalid shared-memory segments ignored in all", res->rejected);
}

/* Say how many processes joined the session's name from outside the
 * command's tree and were refused (their reasons are among the notes). */
static void outsiders(struct run *r)
{
	uint32_t n = lc_registry_outsiders(lc_session_registry(r->ses));

	if (n)
		warnx("%u process%s refused: not started by the recorded command (%s the "
		      "session's name from outside it)", n, n == 1 ? "" : "es",
		      n == 1 ? "it used" : "they used");
}

/* Finish the session: write the rest of the profile, say what happened,
 * release everything.  Returns 0, or 1 when the profile is incomplete. */
static int finish_run(struct run *r, const char *cmd, int status, const char *reason)
{
	struct lc_session_result res;
	int rc = 0;

	if (r->ses) {
		lc_session_finish(r->ses, status, reason, &res);
		lc_cmd_notes(res.notes);
		if (res.write_err) {
			warnx("%s: write failed: %s (the profile holds what was written before)",
			      r->o.s.out, strerror(-res.write_err));
			rc = 1;
		} else if (res.opened) {
			summary(r, cmd, &res);
		}
		end_warnings(&res);
		outsiders(r);
	}
	lc_session_free(r->ses);
	r->ses = NULL;
	free(r->command);
	return rc;
}

/* The library of a layer, with a warning when it was not found. */
static void find_layer(const char *name, const char *env, char *out, size_t len)
{
	char msg[512];

	if (lc_launch_layer(name, env, out, len, msg, sizeof(msg)))
		warnx("%s; leaving it to the dynamic loader's search", msg);
}

/* --omp and --pthread: find the layers, and warn when the program (if it
 * can be read) uses GCC's libgomp, which has no OMPT interface. */
static void setup_layers(struct run *r, const char *program)
{
	if (r->o.omp) {
		find_layer("liblostcycles-omp", "LOSTCYCLES_OMP_LIB", r->l.omp_lib,
			   sizeof(r->l.omp_lib));
		if (lc_launch_uses_libgomp(program))
			warnx("%s uses GCC's libgomp, which has no OMPT interface: --omp sees "
			      "none of its parallel regions (build it with clang -fopenmp, or "
			      "use the flag macros)", program);
	}
	if (r->o.pthread)
		find_layer("liblostcycles-pthread", "LOSTCYCLES_PTHREAD_LIB", r->l.pthread_lib,
			   sizeof(r->l.pthread_lib));
}

/* Everything record does before the command starts.  Returns 0, or the
 * exit status after a message. */
static int record_setup(struct run *r, int argc, char **argv)
{
	char msg[512];

	if (r->o.spare_cpu && lc_launch_spare_cpus(&r->l, r->o.s.cpu, msg, sizeof(msg))) {
		warnx("--spare-cpu: %s", msg);
		return 2;
	}
	if (prepare_output(&r->o))
		return 1;
	r->l.trace = r->o.trace;
	r->l.slots = r->o.slots;
	if (lc_launch_trace(&r->l, msg, sizeof(msg))) {
		warnx("%s", msg);
		return 1;
	}
	setup_layers(r, argv[0]);
	if (r->o.mpi && mpi_setup(r))
		return 1;
	lc_session_name(r->l.session, sizeof(r->l.session));
	r->command = lc_launch_command_line(r->o.omp, argc, argv);
	r->prog = argv[0];
	return 0;
}

/* Why a recording ended, for the profile. */
static const char *end_reason(int sig, int status)
{
	if (sig)
		return sig == SIGINT ? "interrupted (SIGINT)" : sig == SIGTERM ?
		       "terminated (SIGTERM)" : "hung up (SIGHUP)";
	return status > 128 ? "command killed by a signal" : "command exited";
}

/* After the command: the session's processes still alive (a daemon, a
 * background child) are waited for until they exit or a signal arrives,
 * saying so; with --no-wait, counted and left.  Returns the signal that
 * ended the wait, or 0. */
static int wait_session(const struct run *r, struct lc_registry *reg)
{
	uint32_t n;
	int sig;

	n = lc_launch_settle(&r->l, reg, LC_GONE_NS, &sig);
	if (sig || !n)
		return sig;
	if (r->o.no_wait) {
		warnx("--no-wait: left %u process%s of the session running: %s work from now "
		      "on is not in the profile", n, n == 1 ? "" : "es", n == 1 ? "its" : "their");
		return 0;
	}
	if (!r->o.quiet)
		warnx("the command ended; waiting for %u process%s of the session still running "
		      "(a daemon or background child; --no-wait ends with the command)", n,
		      n == 1 ? "" : "es");
	sig = lc_launch_wait_session(&r->l, reg);
	if (sig) {
		n = lc_registry_live(reg);
		warnx("stopped waiting: left %u process%s of the session running", n,
		      n == 1 ? "" : "es");
	}
	return sig;
}

int lc_cmd_record(int argc, char **argv)
{
	struct run r = { .o = defaults };
	struct lc_registry *reg;
	int n, status, sig = 0, rc;
	char **cmd;
	pid_t child;

	n = parse_opts(0, argc, argv, &r.o, &cmd);
	if (n < 0)
		return LC_OPT_EXIT(n);
	if (n == 0 || check_opts(&r.o)) {
		if (n == 0)
			warnx("no command given (see 'lostcycles record --help')");
		return 2;
	}
	rc = record_setup(&r, n, cmd);
	if (rc)
		return rc;
	lc_launch_begin(&r.l);
	reg = lc_registry_start_lineage(r.l.session, &rc);	/* the command's tree only */
	if (!reg) {
		warnx("cannot start discovery: %s", strerror(-rc));
		return 1;
	}
	if (start_run(&r, reg)) {
		finish_run(&r, "record", -1, "could not start");
		return 1;
	}
	lc_launch_subreaper();
	child = lc_launch_spawn(&r.l, cmd, &sig);
	if (child < 0 && sig) {
		finish_run(&r, "record", 128 + sig, end_reason(sig, 128 + sig));
		return 128 + sig;
	}
	if (child < 0) {
		warnx("%s: %s", cmd[0], strerror((int)-child));
		r.o.quiet = 1;	/* the reason was just given */
		finish_run(&r, "record", 127, "command could not be started");
		return 127;
	}
	/* the command, and this process, whose children its orphans become */
	lc_registry_set_roots(reg, (pid_t[]){ child, getpid() }, 2);
	status = lc_launch_wait_child(&r.l, child, LC_TERM_WAIT_NS, &sig);
	if (!sig)
		sig = wait_session(&r, reg);
	if (finish_run(&r, "record", status, end_reason(sig, status)))
		return 1;
	return status;
}

/* The PID operands.  Returns 0, or 2 (1: no such process, or not ours)
 * after a message. */
static int parse_pids(int argc, char **argv, pid_t **pids)
{
	char msg[256];
	int e = lc_launch_pids(argc, argv, pids, msg, sizeof(msg));

	if (e)
		warnx("%s", msg);
	return !e ? 0 : e == -EINVAL || e == -ENOMEM ? 2 : 1;
}

/* attach's refusals of record's options.  Returns 0 or 2 after a message. */
static int attach_refuse(const struct opts *o)
{
	if (o->omp || o->pthread || o->trace || o->mpi || o->loggp) {
		warnx("--omp, --pthread, --trace, --mpi and --loggp set up the command when it "
		      "starts: they are options of 'lostcycles record' only");
		return 2;
	}
	if (o->spare_cpu) {
		warnx("--spare-cpu places the command when it starts: it is an option of "
		      "'lostcycles record' only (taskset(1) moves running processes)");
		return 2;
	}
	return check_opts(o);
}

/* attach's options and PIDs, and the registry that watches them.  Returns
 * 0 with *reg, or the exit status after a message (or 0 after --help, *reg
 * left NULL). */
static int attach_setup(struct run *r, int argc, char **argv, struct lc_registry **reg)
{
	char **ops;
	pid_t *pids = NULL;
	int n = parse_opts(1, argc, argv, &r->o, &ops), rc;

	if (n < 0)
		return LC_OPT_EXIT(n);
	if (n == 0) {
		warnx("no process id given (see 'lostcycles attach --help')");
		return 2;
	}
	rc = attach_refuse(&r->o);
	if (!rc)
		rc = parse_pids(n, ops, &pids);
	if (!rc && prepare_output(&r->o))
		rc = 1;
	if (!rc) {
		snprintf(r->l.session, sizeof(r->l.session), "attach");
		r->command = lc_launch_join(n, ops);
		lc_launch_begin(&r->l);
		*reg = lc_registry_start(NULL, pids, n, &rc);
		if (!*reg)
			warnx("cannot start discovery: %s", strerror(-rc));
		rc = *reg ? 0 : 1;
	}
	free(pids);
	return rc;
}

/* Say why the segments of the given processes were refused (a reused pid,
 * another user's segment ...), each reason once.  Returns how many were. */
static uint32_t refusals(struct lc_registry *reg)
{
	struct lc_rejection rej[LC_SESSION_REASONS_SHOWN];
	uint32_t n = lc_registry_rejections(reg, rej, LC_SESSION_REASONS_SHOWN);

	for (uint32_t i = 0; i < n && i < LC_SESSION_REASONS_SHOWN; i++)
		warnx("%s", rej[i].reason);
	if (n > LC_SESSION_REASONS_SHOWN)
		warnx("%u segments of the given processes refused in all", n);
	return n;
}

int lc_cmd_attach(int argc, char **argv)
{
	struct run r = { .o = defaults };
	struct lc_registry *reg = NULL;
	int rc, sig;

	rc = attach_setup(&r, argc, argv, &reg);
	if (rc || !reg) {	/* !reg: --help */
		free(r.command);
		return rc;
	}
	sig = lc_launch_wait_targets(&r.l, reg, 0, ATTACH_WAIT_NS);
	if (sig) {
		if (sig == -ENOENT && !refusals(reg))
			warnx("no lostcycles segment for the given processes (were they started "
			      "with LOSTCYCLES_SESSION set and linked with liblostcycles?)");
		lc_registry_stop(reg);
		lc_registry_free(reg);
		free(r.command);
		return sig > 0 ? 128 + sig : 1;
	}
	if (start_run(&r, reg)) {
		finish_run(&r, "attach", -1, "could not start");
		return 1;
	}
	sig = lc_launch_wait_targets(&r.l, reg, 1, ATTACH_WAIT_NS);
	if (finish_run(&r, "attach", -1, sig ? "interrupted" : "targets exited"))
		return 1;
	return sig ? 128 + sig : 0;
}
