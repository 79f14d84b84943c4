/*
 * cmd_record.c — "lostcycles record" and "lostcycles attach": parse the
 * options, run or find the targets, wait until they exit or a signal
 * arrives, and say what happened.  The session itself (profile, sampler,
 * end record) is sampler/session.c.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lc_abi.h"
#include "lc_calib.h"
#include "lc_cmd.h"
#include "lc_util.h"
#include "program.h"
#include "mpi_job.h"
#include "lc_profile.h"
#include "session.h"
#include "targets.h"
#include "tick.h"

#define ATTACH_WAIT_NS 1000000000u	/* how long attach waits for segments */
#define LC_TERM_WAIT_NS 5000000000ull	/* how long record waits for its command
					 * after passing a signal on */

/* Options shared by record and attach. */
struct opts {
	uint64_t interval_ns;
	uint64_t window_ns;
	int cpu;
	uint32_t procs;
	const char *out;
	int trace;
	int quiet;
	int omp;		/* --omp: load the OpenMP tool into the command */
	int pthread;		/* --pthread: preload the pthread layer */
	int mpi;		/* --mpi: LD_PRELOAD the MPI layer into the ranks */
	const char *loggp;	/* --loggp=FILE, NULL: the default */
	int sched;		/* --sched: enum lc_sched_source wanted */
	uint32_t jitter_pct;	/* --jitter: percent of the interval */
	const char *events;	/* -e */
	uint64_t counter_interval_ns;	/* --counter-interval */
	double miss_latency_ns;	/* --miss-latency */
	const char *counter_replay;	/* --counter-replay */
	int no_counters;	/* --no-counters */
	int force;		/* --force: replace an existing -o FILE */
	int out_given;		/* -o given: never rotate, refuse to overwrite */
	int window_given;	/* -w given (else the window follows the interval) */
	uint32_t window_grow;	/* the windows' growth (lc_window_span), 0 fixed */
	int grow_given;		/* --window-grow given */
	int spare_cpu;		/* --spare-cpu: keep the command off the sampler's CPU */
};

/* A run in progress: what both commands set up and tear down. */
struct run {
	struct opts o;
	char session[LC_SESSION_MAX];
	char trace_dir[4096];
	int own_trace_dir;
	char *command;
	struct lc_session *ses;
	char omp_lib[PATH_MAX];	/* the layers' libraries, when asked for */
	char pthread_lib[PATH_MAX];
	cpu_set_t cpus;		/* --spare-cpu: where the command may run */
	struct lc_mpi_setup mpi;
	const char *prog;	/* record: the command's program (argv[0]) */
	struct rlimit nofile;	/* the limit as found, for the command */
	char latency_from[4400];	/* where the miss latency came from, or why none */
};

/* Whether prog (a path) names an MPI or cluster launcher. */
static int is_launcher(const char *prog)
{
	const char *b = prog ? strrchr(prog, '/') : NULL;

	b = b ? b + 1 : prog;
	return b && (!strncmp(b, "mpiexec", 7) || !strncmp(b, "mpirun", 6) ||
		     !strcmp(b, "srun") || !strcmp(b, "orterun") || !strcmp(b, "prun"));
}

static const char record_usage[] =
	"usage: lostcycles record [-i INTERVAL] [-w WINDOW] [--window-grow=N] [-C CPU]\n"
	"                         [-p PROCS] [-o FILE] [--force] [-e EVENTS] [--sched=SOURCE]\n"
	"                         [--jitter=PCT] [--trace] [--omp] [--pthread]\n"
	"                         [--mpi [--loggp=FILE]] [-q]\n"
	"                         [--] CMD [ARGS...]\n"
	"Run CMD in a new profiling session, sample its flags every INTERVAL, write\n"
	"the predicate profile to FILE, and exit with CMD's exit status.\n\n"
	"  -i, --interval=TIME  sampling interval (default 100us; units ns us ms s)\n"
	"  -w, --window=TIME    timeline window: every window TIME long (default:\n"
	"                       10ms, or the interval when that is longer, doubling\n"
	"                       after 4096 windows, so that long runs stay small)\n"
	"      --window-grow=N  after the first N windows (N even), the window doubles\n"
	"                       every N/2 windows; 0: fixed (default 4096 without -w,\n"
	"                       0 with -w)\n"
	"  -C, --cpu=CPU        pin the sampler to CPU (default: the last allowed CPU)\n"
	"      --spare-cpu      run CMD on the other CPUs only, so that the sampler\n"
	"                       has its CPU to itself (for programs with fewer threads\n"
	"                       than CPUs: the kernel may otherwise place one on it)\n"
	"  -p, --procs=P        processor slots (default: the team declared, else most\n"
	"                       threads runnable at once, capped by their affinity)\n"
	"  -o, --output=FILE    profile file (default lostcycles.data, whose previous\n"
	"                       file is kept as lostcycles.data.old)\n"
	"      --force          replace FILE when it exists (else it is refused)\n"
	"      --trace          also log every transition and add the exact profile\n"
	"      --omp            set the flags of an unmodified OpenMP program built\n"
	"                       with clang -fopenmp (LLVM's libomp, through OMPT);\n"
	"                       GCC's libgomp has no OMPT: use clang or the macros\n"
	"      --pthread        set the flags of an unmodified pthread program\n"
	"                       (locks, barriers, conditions, semaphores, join)\n"
	"      --mpi            profile an unmodified MPI job (CMD is e.g. mpiexec -n 4 ./app):\n"
	"                       LD_PRELOAD liblostcycles-mpi into every rank\n"
	"      --loggp=FILE     LogGP parameters for communication loss (default: the file\n"
	"                       of 'lostcycles calibrate --mpi'; none: CL is na)\n"
	"      --sched=SOURCE   run-queue data for resource contention: switch (context-\n"
	"                       switch records, else schedstat; the default), schedstat,\n"
	"                       or none (RC is na)\n"
	"      --jitter=PCT     make each interval PCT % longer or shorter at random\n"
	"                       (default 10; 0: a fixed grid)\n"
	"  -e, --events=EV,...  counters, libpfm4 names with modifiers, each optionally\n"
	"                       =cycles|stall|miss|miss-stall|instr|other (default: the\n"
	"                       set for this CPU in events.txt; see lostcycles events)\n"
	"      --counter-interval=TIME  read each thread's counters this often (10ms)\n"
	"      --miss-latency=NS  ideal latency of one miss: CL = misses x NS (default:\n"
	"                       transfer_ns of the file of 'lostcycles calibrate --memory')\n"
	"      --no-counters    no counters (memory loss is na)\n"
	"  -q, --quiet          no summary line on stderr\n"
	"  -h, --help           this text\n";

static const char attach_usage[] =
	"usage: lostcycles attach [-i INTERVAL] [-w WINDOW] [--window-grow=N] [-C CPU]\n"
	"                         [-p PROCS] [-o FILE] [--force] [-q] PID...\n"
	"Sample running processes that use liblostcycles (started with\n"
	"LOSTCYCLES_SESSION set) until they all exit or SIGINT/SIGTERM arrives.\n"
	"Options as for 'lostcycles record'.\n";

static const struct option long_opts[] = {
	{ "interval", required_argument, NULL, 'i' },
	{ "window", required_argument, NULL, 'w' },
	{ "window-grow", required_argument, NULL, 'W' },
	{ "cpu", required_argument, NULL, 'C' },
	{ "procs", required_argument, NULL, 'p' },
	{ "output", required_argument, NULL, 'o' },
	{ "force", no_argument, NULL, 'F' },
	{ "trace", no_argument, NULL, 'T' },
	{ "omp", no_argument, NULL, 'O' },
	{ "pthread", no_argument, NULL, 'P' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "mpi", no_argument, NULL, 'M' },
	{ "loggp", required_argument, NULL, 'G' },
	{ "sched", required_argument, NULL, 'S' },
	{ "jitter", required_argument, NULL, 'J' },
	{ "events", required_argument, NULL, 'e' },
	{ "counter-interval", required_argument, NULL, 'I' },
	{ "miss-latency", required_argument, NULL, 'L' },
	{ "counter-replay", required_argument, NULL, 'R' },
	{ "no-counters", no_argument, NULL, 'N' },
	{ "spare-cpu", no_argument, NULL, 'U' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Set option c (a getopt_long result) from arg.  Returns 0, 1 after
 * --help, or -1 on a usage error (message printed). */
static int set_opt(struct opts *o, int c, const char *arg, const char *usage)
{
	uint64_t v;

	switch (c) {
	case 'i':
	case 'w':
		o->window_given |= c == 'w';
		if (!lc_parse_duration(arg, c == 'i' ? &o->interval_ns : &o->window_ns))
			return 0;
		warnx("bad %s '%s' (try 100us, 1ms)", c == 'i' ? "interval" : "window", arg);
		return -1;
	case 'W':
		o->grow_given = 1;
		return lc_opt_window_grow(arg, &o->window_grow);
	case 'C':
		if (lc_parse_u64(arg, 0, CPU_SETSIZE - 1, &v)) {
			warnx("bad CPU '%s'", arg);
			return -1;
		}
		o->cpu = (int)v;
		return 0;
	case 'p':
		if (lc_parse_u64(arg, 1, LC_SLOTS_MAX, &v)) {
			warnx("bad processor count '%s' (1..%u)", arg, LC_SLOTS_MAX);
			return -1;
		}
		o->procs = (uint32_t)v;
		return 0;
	case 'o':
		o->out = arg;
		o->out_given = 1;
		return 0;
	case 'F':
		o->force = 1;
		return 0;
	case 'T':
		o->trace = 1;
		return 0;
	case 'O':
		o->omp = 1;
		return 0;
	case 'P':
		o->pthread = 1;
		return 0;
	case 'q':
		o->quiet = 1;
		return 0;
	case 'M':
		o->mpi = 1;
		return 0;
	case 'G':
		o->loggp = arg;
		return 0;
	case 'S':
		if (!strcmp(arg, "switch") || !strcmp(arg, "auto"))
			o->sched = LC_SCHED_SWITCH;
		else if (!strcmp(arg, "schedstat"))
			o->sched = LC_SCHED_SCHEDSTAT;
		else if (!strcmp(arg, "none"))
			o->sched = LC_SCHED_NONE;
		else {
			warnx("bad --sched '%s' (switch, schedstat or none)", arg);
			return -1;
		}
		return 0;
	case 'e':
		o->events = arg;
		return 0;
	case 'I':
		if (!lc_parse_duration(arg, &o->counter_interval_ns) &&
		    o->counter_interval_ns >= 100000)
			return 0;
		warnx("bad --counter-interval '%s' (100us or more, e.g. 10ms)", arg);
		return -1;
	case 'L': {
		char *end;

		o->miss_latency_ns = strtod(arg, &end);
		if (end != arg && !*end && o->miss_latency_ns > 0 && o->miss_latency_ns < 1e6)
			return 0;
		warnx("bad --miss-latency '%s' (nanoseconds, e.g. 90)", arg);
		return -1;
	}
	case 'R':
		o->counter_replay = arg;
		return 0;
	case 'N':
		o->no_counters = 1;
		return 0;
	case 'U':
		o->spare_cpu = 1;
		return 0;
	case 'J':
		if (lc_parse_u64(arg, 0, 50, &v)) {
			warnx("bad --jitter '%s' (a percentage, 0..50)", arg);
			return -1;
		}
		o->jitter_pct = (uint32_t)v;
		return 0;
	case 'h':
		fputs(usage, stdout);
		return 1;
	}
	return -1;
}

/* Check the options against each other.  Returns 0 or -1 (printed). */
static int check_opts(const struct opts *o)
{
	if (o->interval_ns < 1000 || o->interval_ns > 10000000000ull) {
		warnx("interval must be between 1us and 10s");
		return -1;
	}
	if (o->no_counters && (o->events || o->counter_replay || o->miss_latency_ns > 0)) {
		warnx("--no-counters does not combine with -e, --miss-latency or --counter-replay");
		return -1;
	}
	if (o->loggp && !o->mpi) {
		warnx("--loggp needs --mpi");
		return -1;
	}
	if (o->window_ns < o->interval_ns) {
		warnx("the window (-w) must not be shorter than the interval");
		return -1;
	}
	return 0;
}

/* Parse the options into o; returns the index of the first operand,
 * -1 after --help, or -2 on a usage error (message printed). */
static int parse_opts(const char *usage, int argc, char **argv, struct opts *o)
{
	int c, r;

	*o = (struct opts){ .interval_ns = LC_SESSION_DEFAULT_INTERVAL_NS,
			    .window_ns = LC_SESSION_DEFAULT_WINDOW_NS, .cpu = -1,
			    .out = "lostcycles.data", .sched = LC_SCHED_SWITCH, .jitter_pct = 10 };
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+i:w:C:p:o:e:qh", long_opts, NULL)) != -1) {
		r = c == '?' || c == ':' ? -1 : set_opt(o, c, optarg, usage);
		if (r > 0)
			return -1;
		if (r < 0 && (c == '?' || c == ':')) {
			warnx("unknown or incomplete option '%s'", argv[optind - 1]);
			fputs(usage, stderr);
		}
		if (r < 0)
			return -2;
	}
	if (!o->window_given && o->window_ns < o->interval_ns)
		o->window_ns = o->interval_ns;	/* the default follows a long interval */
	/* -w asks for that resolution over the whole run; without it the
	 * windows grow, so that an hour's profile stays small */
	if (!o->grow_given)
		o->window_grow = o->window_given ? 0 : LC_WINDOW_GROW_DEFAULT;
	return check_opts(o) ? -2 : optind;
}

/* Join argv into one space-separated string (NULL on ENOMEM). */
static char *join(int argc, char **argv)
{
	size_t len = 1;
	char *s;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	if (!s)
		return NULL;
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
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
 * transfer_ns of the per-machine file of "calibrate --memory"
 * (docs/memory-latency.md), else none; r->latency_from says which, or why
 * there is none, for the profile's CL method line. */
static void miss_latency(struct run *r)
{
	char path[4096], why[512];
	struct lc_memlat m;
	int e;

	if (r->o.no_counters)
		return;
	if (r->o.miss_latency_ns > 0) {
		snprintf(r->latency_from, sizeof(r->latency_from), "--miss-latency");
		return;
	}
	if (lc_memlat_default_path(path, sizeof(path))) {
		snprintf(r->latency_from, sizeof(r->latency_from), "no --miss-latency, and no "
			 "memory file (neither LOSTCYCLES_MEMORY_FILE nor HOME is set)");
		return;
	}
	e = lc_memlat_read(path, &m, why, sizeof(why));
	if (e == -ENOENT) {
		snprintf(r->latency_from, sizeof(r->latency_from), "no --miss-latency, and no "
			 "memory file %s (run lostcycles calibrate --memory)", path);
		return;
	}
	if (!e && !(m.transfer_ns > 0 && m.transfer_ns < 1e6))
		e = lc_fail(why, sizeof(why), -EINVAL, "%s: transfer_ns %g is not a latency",
			    path, m.transfer_ns);
	if (e) {
		snprintf(r->latency_from, sizeof(r->latency_from), "no --miss-latency, and %s", why);
		if (!r->o.quiet)
			warnx("warning: %s: misses are not charged to communication loss", why);
		return;
	}
	r->o.miss_latency_ns = m.transfer_ns;
	snprintf(r->latency_from, sizeof(r->latency_from), "%s (transfer_ns, lostcycles "
		 "calibrate --memory)", path);
}

/* Make room for the profile before anything runs: an existing -o FILE is
 * refused without --force, the default name's previous file is kept as
 * .old.  Returns 0 or 1 after a message. */
static int prepare_output(const struct opts *o)
{
	char msg[4400];

	if (!lc_out_prepare(o->out, o->force ? LC_OUT_FORCE : o->out_given ? LC_OUT_KEEP :
			    LC_OUT_ROTATE, msg, sizeof(msg)))
		return 0;
	warnx("%s", msg);
	return 1;
}

/* Create the session over reg (which it then owns) and start sampling.
 * Returns 0 or 1 after a message. */
static int start_run(struct run *r, struct lc_registry *reg)
{
	miss_latency(r);

	struct lc_session_opts so = {
		.interval_ns = r->o.interval_ns, .window_ns = r->o.window_ns,
		.window_grow = r->o.window_grow, .cpu = r->o.cpu,
		.procs = r->o.procs, .out = r->o.out, .trace = r->o.trace,
		.trace_dir = r->trace_dir, .own_trace_dir = r->own_trace_dir, .name = r->session, .command = r->command,
		.unavailable = r->o.mpi && !r->mpi.have_loggp ? 1u << LC_CAT_CL : 0,
		.unavailable_why = LC_MPI_NO_LOGGP,
		.sched = r->o.sched, .jitter_ns = r->o.interval_ns * r->o.jitter_pct / 100,
		.events = r->o.events, .counter_interval_ns = r->o.counter_interval_ns,
		.miss_latency_ns = r->o.miss_latency_ns, .counter_replay = r->o.counter_replay,
		.miss_latency_from = r->latency_from[0] ? r->latency_from : NULL,
		.no_counters = r->o.no_counters,
	};
	char msg[512];

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
		warnx("warning: %s", lc_session_warning(r->ses));
	return 0;
}

/* Whether to suggest --spare-cpu: record started the command without it,
 * the sampler had a CPU of its own to be pinned to, the program never had
 * as many threads as this process has CPUs, and the sampler's process used
 * more than 5 % of a CPU (a thread the kernel placed beside the sampler lost
 * about that much, plus a cache refill per tick: 17-20 % of a compute-bound
 * thread at 100us on the machine of docs/performance.md). */
static int spare_hint(const struct run *r, const struct lc_session_result *res)
{
	cpu_set_t set;

	if (r->o.spare_cpu || !r->prog || !res->procs || res->shared_cpu >= 0 ||
	    (r->o.cpu < 0 && lc_sampler_spare_cpu() < 0) || sched_getaffinity(0, sizeof(set), &set))
		return 0;
	return res->procs < (uint32_t)CPU_COUNT(&set) && res->sampler_cpu_ns * 20 > res->wall_ns;
}

/* The summary line on stderr, and a hint when nothing was instrumented. */
static void summary(const struct run *r, const char *cmd, const struct lc_session_result *res)
{
	if (r->o.quiet)
		return;
	char why[200];

	lc_procs_text(why, sizeof(why), res->procs, res->procs_from, res->max_threads,
		      res->max_runnable, res->affinity_cpus);
	fprintf(stderr, "lostcycles %s: %s: %.3f s, %llu ticks, %u process%s, p = %s\n", cmd,
		r->o.out, (double)res->wall_ns / 1e9, (unsigned long long)res->ticks, res->seen,
		res->seen == 1 ? "" : "es", why);
	if (res->shared_cpu >= 0 && res->busy_wait)
		fprintf(stderr, "lostcycles %s: the sampler busy-waited on CPU %d, which the program "
				"also used (no CPU was spare): it took %.3f s of that CPU from the "
				"program; use -i 30us or longer, or free a CPU for it (-C)\n",
			cmd, res->shared_cpu, (double)res->sampler_cpu_ns / 1e9);
	else if (res->shared_cpu >= 0)
		fprintf(stderr, "lostcycles %s: the sampler shared CPU %d with the program (no CPU was "
				"spare) and used %.3f s of CPU: the program ran slower than alone\n",
			cmd, res->shared_cpu, (double)res->sampler_cpu_ns / 1e9);
	else if (spare_hint(r, res))
		fprintf(stderr, "lostcycles %s: hint: the program had fewer threads (p = %u) than "
				"CPUs, and the kernel may have placed one on the sampler's CPU, which "
				"slows it: --spare-cpu keeps the program off that CPU\n", cmd, res->procs);
	if (res->max_gap_ns > 10 * r->o.interval_ns ||
	    res->missed_ticks * 100 > res->ticks + res->missed_ticks)
		fprintf(stderr, "lostcycles %s: warning: the sampler fell behind: its longest tick gap "
				"was %.1f ms (ending at %.3f s), and %llu ticks (%.1f %%) were missed; "
				"the time of a gap is charged to the state seen at its end\n", cmd,
			(double)res->max_gap_ns / 1e6, (double)res->max_gap_at_ns / 1e9,
			(unsigned long long)res->missed_ticks,
			100.0 * (double)res->missed_ticks / (double)(res->ticks + res->missed_ticks + !res->ticks));
	if (!res->seen && (r->o.omp || r->o.pthread))
		fprintf(stderr, "lostcycles %s: no instrumented process appeared: did the "
				"layer load (%s)?\n", cmd, r->o.omp ? "--omp needs LLVM's libomp" :
				"LD_PRELOAD needs a dynamically linked program");
	else if (!res->seen && !r->o.mpi && is_launcher(r->prog))
		fprintf(stderr, "lostcycles %s: no instrumented process appeared: for an MPI "
				"job use 'lostcycles %s --mpi -- %s ...', which puts the MPI layer "
				"into every rank\n", cmd, cmd, r->prog);
	else if (!res->seen)
		fprintf(stderr, "lostcycles %s: no instrumented process appeared: is the "
				"program linked with liblostcycles?\n", cmd);
}

/* Print each line of the session's notes as a warning. */
static void print_notes(const char *notes)
{
	while (*notes) {
		const char *nl = strchr(notes, '\n');
		int n = nl ? (int)(nl - notes) : (int)strlen(notes);

		warnx("%.*s", n, notes);
		notes += n + (nl != NULL);
	}
}

/* Finish the session: write the rest of the profile, say what happened,
 * release everything.  Returns 0, or 1 when the profile is incomplete. */
static int finish_run(struct run *r, const char *cmd, int status, const char *reason)
{
	struct lc_session_result res;
	int rc = 0;

	if (r->ses) {
		lc_session_finish(r->ses, status, reason, &res);
		print_notes(res.notes);
		if (res.write_err) {
			warnx("%s: write failed: %s (the profile holds what was written before)",
			      r->o.out, strerror(-res.write_err));
			rc = 1;
		} else if (res.opened) {
			summary(r, cmd, &res);
		}
		if (res.untracked)
			warnx("%u process%s of the session could not be tracked for want of file "
			      "descriptors (raise ulimit -n): %s missing from the profile",
			      res.untracked, res.untracked == 1 ? "" : "es",
			      res.untracked == 1 ? "it is" : "they are");
		if (res.rejected > LC_SESSION_REASONS_SHOWN)
			warnx("%u invalid shared-memory segments ignored in all",
			      res.rejected);
	}
	lc_session_free(r->ses);
	r->ses = NULL;
	free(r->command);
	return rc;
}

/* Raise the soft limit of open files to the hard one (a target costs the
 * sampler a descriptor), keeping the old limit in *old for the command. */
static void raise_nofile(struct rlimit *old)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, old)) {
		old->rlim_cur = old->rlim_max = RLIM_INFINITY;	/* the child keeps its own */
		return;
	}
	rl = *old;
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
}

/* Block the signals the main thread waits for; returns the old mask. */
static void block_signals(sigset_t *set, sigset_t *old)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGCHLD);
	sigprocmask(SIG_BLOCK, set, old);
}

/* Shell-style exit status of a wait status. */
static int shell_status(int ws)
{
	if (WIFEXITED(ws))
		return WEXITSTATUS(ws);
	if (WIFSIGNALED(ws))
		return 128 + WTERMSIG(ws);
	return 1;
}

/* Put path first in the colon-separated list of environment variable var
 * (in the child, before exec; on failure the variable is left alone). */
static void env_prepend(const char *var, const char *path)
{
	const char *old = getenv(var);
	char *v;

	if (!old || !*old) {
		setenv(var, path, 1);
		return;
	}
	if (asprintf(&v, "%s:%s", path, old) < 0)
		return;
	setenv(var, v, 1);
	free(v);
}

/* Find the library of layer name (e.g. "liblostcycles-omp") for the
 * command: $env when set, else beside this program or installed (as for
 * the MPI layer, lc_mpi_find); else the bare file name, for the dynamic
 * loader to search (with a warning).  The file name is NAME.so.ABI_MAJOR,
 * the SONAME. */
static void find_layer(const char *name, const char *env, char *out, size_t len)
{
	char file[256], msg[512];

	snprintf(file, sizeof(file), "%s.so.%u", name, (unsigned)LC_ABI_MAJOR);
	if (!lc_mpi_find(file, env, out, len, msg, sizeof(msg)))
		return;
	snprintf(out, len, "%s", file);
	warnx("%s; leaving it to the dynamic loader's search", msg);
}

/* The command line for the profile: argv joined; with --omp the program's
 * word becomes its absolute path, so that report can find its debug
 * information from any directory to name the OpenMP tool's tags.  NULL on
 * ENOMEM. */
static char *command_line(const struct run *r, int argc, char **argv)
{
	char path[PATH_MAX], real[PATH_MAX], *first = argv[0], *s;

	if (r->o.omp && !lc_program_find(argv[0], path, sizeof(path)) && realpath(path, real))
		argv[0] = real;
	s = join(argc, argv);
	argv[0] = first;
	return s;
}

/* --omp and --pthread: find the layers, and warn when the program (if it
 * can be read) uses GCC's libgomp, which has no OMPT interface. */
static void setup_layers(struct run *r, const char *program)
{
	char path[PATH_MAX];

	if (r->o.omp) {
		find_layer("liblostcycles-omp", "LOSTCYCLES_OMP_LIB", r->omp_lib,
			   sizeof(r->omp_lib));
		if (!lc_program_find(program, path, sizeof(path)) &&
		    lc_program_needs(path, "libgomp.so") == 1)
			warnx("%s uses GCC's libgomp, which has no OMPT interface: --omp sees "
			      "none of its parallel regions (build it with clang -fopenmp, or "
			      "use the flag macros)", program);
	}
	if (r->o.pthread)
		find_layer("liblostcycles-pthread", "LOSTCYCLES_PTHREAD_LIB", r->pthread_lib,
			   sizeof(r->pthread_lib));
}

/* --spare-cpu: the CPUs the command may use, which are record's own
 * without the sampler's (the CPU lc_sampler_start pins it to).  Returns 0,
 * or 1 after a message when that leaves none. */
static int spare_cpu_set(const struct run *r, cpu_set_t *set)
{
	int cpu = r->o.cpu >= 0 ? r->o.cpu : lc_sampler_spare_cpu();

	if (sched_getaffinity(0, sizeof(*set), set)) {
		warnx("--spare-cpu: cannot read the allowed CPUs: %s", strerror(errno));
		return 1;
	}
	if (cpu >= 0 && cpu < CPU_SETSIZE)
		CPU_CLR(cpu, set);
	if (cpu < 0 || !CPU_COUNT(set)) {
		warnx("--spare-cpu: no CPU is left for the command besides the sampler's "
		      "(this process may use one CPU only)");
		return 1;
	}
	return 0;
}

/* Fork and exec argv in the session.  Returns the child's pid, or -errno of
 * a failed exec/fork (the child, if any, has been reaped). */
static pid_t spawn(struct run *r, char **argv, const sigset_t *old)
{
	int pfd[2], e = 0;
	pid_t pid;
	ssize_t n;
	if (pipe2(pfd, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		e = -errno;
		close(pfd[0]);
		close(pfd[1]);
		return e;
	}
	if (pid == 0) {
		setenv(LC_ENV_SESSION, r->session, 1);
		if (r->o.trace) {
			setenv(LC_ENV_TRACE, "1", 1);
			setenv(LC_ENV_TRACE_DIR, r->trace_dir, 1);
		}
		if (r->omp_lib[0])
			env_prepend("OMP_TOOL_LIBRARIES", r->omp_lib);
		if (r->pthread_lib[0])
			env_prepend("LD_PRELOAD", r->pthread_lib);
		sigprocmask(SIG_SETMASK, old, NULL);
		setrlimit(RLIMIT_NOFILE, &r->nofile);
		if (!r->o.spare_cpu || !sched_setaffinity(0, sizeof(r->cpus), &r->cpus))
			execvp(argv[0], argv);
		e = errno;
		if (write(pfd[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pfd[1]);
	n = read(pfd[0], &e, sizeof(e));
	close(pfd[0]);
	if (n == (ssize_t)sizeof(e)) {
		waitpid(pid, NULL, 0);
		return -e;
	}
	return pid;
}

/* Prepare the trace directory when trace mode is on. */
static int setup_trace(struct run *r)
{
	const char *env = getenv(LC_ENV_TRACE), *dir = getenv(LC_ENV_TRACE_DIR);

	if (env && !strcmp(env, "1"))
		r->o.trace = 1;
	if (!r->o.trace)
		return 0;
	if (dir && *dir) {
		snprintf(r->trace_dir, sizeof(r->trace_dir), "%s", dir);
		return 0;
	}
	snprintf(r->trace_dir, sizeof(r->trace_dir), "%s/lostcycles-trace.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(r->trace_dir)) {
		warnx("cannot create a trace directory: %s", strerror(errno));
		return 1;
	}
	r->own_trace_dir = 1;
	return 0;
}

/* Wait for the child until the monotonic time deadline (0: for ever) or
 * until one of the signals of set arrives.  Returns the child's shell-style
 * status, or -1 with the signal in *sig, or -1 with *sig 0 at the deadline. */
static int wait_child_until(pid_t child, const sigset_t *set, uint64_t deadline, int *sig)
{
	struct timespec ts = { 0, 20000000 };
	siginfo_t si;
	int ws;

	*sig = 0;
	for (;;) {
		int s = sigtimedwait(set, &si, &ts);

		if (s == SIGINT || s == SIGTERM || s == SIGHUP) {
			*sig = s;
			return -1;
		}
		if (waitpid(child, &ws, WNOHANG) == child)
			return shell_status(ws);
		if (deadline && lc_clock_ns() >= deadline)
			return -1;
	}
}

/* Wait for the child or a signal.  A signal is passed on to the child,
 * which then has LC_TERM_WAIT_NS to end (a second signal stops the wait),
 * so that its segment is gone or reapable when the session ends.  Returns
 * the child's shell-style status (128 + the signal when it has not ended)
 * and sets *sig when a signal ended the wait. */
static int wait_child(pid_t child, const sigset_t *set, int *sig)
{
	int st = wait_child_until(child, set, 0, sig), again;

	if (!*sig)
		return st;
	kill(child, *sig);
	st = wait_child_until(child, set, lc_clock_ns() + LC_TERM_WAIT_NS, &again);
	return st < 0 ? 128 + *sig : st;
}

int lc_cmd_record(int argc, char **argv)
{
	struct run r = { 0 };
	struct lc_registry *reg;
	sigset_t set, old;
	int first, status, sig = 0, rc;
	pid_t child;
	const char *reason;

	first = parse_opts(record_usage, argc, argv, &r.o);
	if (first < 0)
		return first == -1 ? 0 : 2;
	if (first >= argc) {
		warnx("no command given");
		fputs(record_usage, stderr);
		return 2;
	}
	if (r.o.spare_cpu && spare_cpu_set(&r, &r.cpus))
		return 2;
	if (prepare_output(&r.o) || setup_trace(&r))
		return 1;
	setup_layers(&r, argv[first]);
	if (r.o.mpi && mpi_setup(&r))
		return 1;
	lc_session_name(r.session, sizeof(r.session));
	r.command = command_line(&r, argc - first, argv + first);
	r.prog = argv[first];
	block_signals(&set, &old);
	raise_nofile(&r.nofile);
	reg = lc_registry_start(r.session, NULL, 0, &rc);
	if (!reg) {
		warnx("cannot start discovery: %s", strerror(-rc));
		return 1;
	}
	if (start_run(&r, reg)) {
		finish_run(&r, "record", -1, "could not start");
		return 1;
	}
	child = spawn(&r, argv + first, &old);
	if (child < 0) {
		warnx("%s: %s", argv[first], strerror((int)-child));
		r.o.quiet = 1;	/* the reason was just given */
		finish_run(&r, "record", 127, "command could not be started");
		return 127;
	}
	status = wait_child(child, &set, &sig);
	reason = sig ? (sig == SIGINT ? "interrupted (SIGINT)" : sig == SIGTERM ?
			"terminated (SIGTERM)" : "hung up (SIGHUP)") :
		 status > 128 ? "command killed by a signal" : "command exited";
	rc = finish_run(&r, "record", status, reason);
	if (rc)
		return 1;
	return status;
}

/* Parse the PID operands.  Returns 0 or 2 after a message. */
static int parse_pids(int argc, char **argv, pid_t **pids)
{
	uint64_t v;

	*pids = calloc((size_t)argc, sizeof(**pids));
	if (!*pids)
		return 2;
	for (int i = 0; i < argc; i++) {
		if (lc_parse_u64(argv[i], 1, INT32_MAX, &v)) {
			warnx("'%s' is not a process id", argv[i]);
			return 2;
		}
		if (kill((pid_t)v, 0) && errno == ESRCH) {
			warnx("no process %s", argv[i]);
			return 1;
		}
		if (kill((pid_t)v, 0) && errno == EPERM) {
			warnx("process %s: permission denied (it is another user's; only its "
			      "owner or root may attach to it)", argv[i]);
			return 1;
		}
		(*pids)[i] = (pid_t)v;
	}
	return 0;
}

/* Wait until a target appears (-ENOENT after ATTACH_WAIT_NS), then until
 * every target has left or a signal arrives.  Returns the signal or 0. */
static int attach_wait(struct lc_registry *reg, const sigset_t *set, int started)
{
	struct timespec ts = { 0, 5000000 };
	uint64_t start = lc_clock_ns();
	siginfo_t si;

	for (;;) {
		int s = sigtimedwait(set, &si, &ts);

		if (s == SIGINT || s == SIGTERM || s == SIGHUP)
			return s;
		if (!started && lc_registry_seen(reg))
			return 0;
		if (started && !lc_registry_live(reg))
			return 0;
		if (!lc_registry_seen(reg) && lc_clock_ns() - start > ATTACH_WAIT_NS)
			return -ENOENT;
	}
}

int lc_cmd_attach(int argc, char **argv)
{
	struct run r = { 0 };
	struct lc_registry *reg;
	sigset_t set, old;
	pid_t *pids = NULL;
	int first, rc, sig;

	first = parse_opts(attach_usage, argc, argv, &r.o);
	if (first < 0)
		return first == -1 ? 0 : 2;
	if (first >= argc) {
		warnx("no process id given");
		fputs(attach_usage, stderr);
		return 2;
	}
	if (r.o.omp || r.o.pthread) {
		warnx("--omp and --pthread load a layer when the command starts: "
		      "they are options of 'lostcycles record' only");
		return 2;
	}
	if (r.o.spare_cpu) {
		warnx("--spare-cpu places the command when it starts: it is an option of "
		      "'lostcycles record' only (taskset(1) moves running processes)");
		return 2;
	}
	rc = parse_pids(argc - first, argv + first, &pids);
	if (!rc && prepare_output(&r.o))
		rc = 1;
	if (rc) {
		free(pids);
		return rc;
	}
	snprintf(r.session, sizeof(r.session), "attach");
	r.command = join(argc - first, argv + first);
	block_signals(&set, &old);
	raise_nofile(&r.nofile);
	reg = lc_registry_start(NULL, pids, argc - first, &rc);
	free(pids);
	if (!reg) {
		warnx("cannot start discovery: %s", strerror(-rc));
		return 1;
	}
	sig = attach_wait(reg, &set, 0);
	if (sig) {
		if (sig == -ENOENT)
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
	sig = attach_wait(reg, &set, 1);
	rc = finish_run(&r, "attach", -1, sig ? "interrupted" : "targets exited");
	if (rc)
		return 1;
	return sig ? 128 + sig : 0;
}
