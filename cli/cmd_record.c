/*
 * record.c — "lostcycles record" and "lostcycles attach": run or find the
 * targets, sample them until they exit or a signal arrives, and write the
 * profile.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "attr.h"
#include "lc_cmd.h"
#include "lc_util.h"
#include "replay.h"
#include "targets.h"
#include "tick.h"

#define DEFAULT_INTERVAL_NS 100000u	/* 100 us */
#define DEFAULT_WINDOW_NS 10000000u	/* 10 ms */
#define ATTACH_WAIT_NS 1000000000u	/* how long attach waits for segments */

/* Categories this version cannot measure, and why. */
static const struct {
	enum lc_cat cat;
	const char *reason;
} unmeasured[] = {
	{ LC_CAT_RC, "not measured: needs scheduler run-queue data, which this version does not collect" },
	{ LC_CAT_ML, "not measured: needs hardware stall counters, which this version does not read" },
};

/* Options shared by record and attach. */
struct opts {
	uint64_t interval_ns;
	uint64_t window_ns;
	int cpu;
	uint32_t procs;
	const char *out;
	int trace;
	int quiet;
};

/* A run in progress: what both commands set up and tear down. */
struct run {
	struct opts o;
	char session[LC_SESSION_MAX];
	char trace_dir[4096];
	int own_trace_dir;
	char *command;
	struct lc_pwriter *w;
	struct lc_threads *threads;
	struct lc_accum *acc;
	struct lc_registry *reg;
	struct lc_sampler *smp;
	uint64_t t0;
	struct lc_sampler_stats st;
};

static const char record_usage[] =
	"usage: lostcycles record [-i INTERVAL] [-w WINDOW] [-C CPU] [-p PROCS] [-o FILE]\n"
	"                         [--trace] [-q] [--] CMD [ARGS...]\n"
	"Run CMD in a new profiling session, sample its flags every INTERVAL, write\n"
	"the predicate profile to FILE, and exit with CMD's exit status.\n\n"
	"  -i, --interval=TIME  sampling interval (default 100us; units ns us ms s)\n"
	"  -w, --window=TIME    timeline window (default 10ms)\n"
	"  -C, --cpu=CPU        pin the sampler to CPU (default: the last allowed CPU)\n"
	"  -p, --procs=P        processor slots (default: LC_TEAM, else most threads)\n"
	"  -o, --output=FILE    profile file (default lostcycles.data)\n"
	"      --trace          also log every transition and add the exact profile\n"
	"  -q, --quiet          no summary line on stderr\n"
	"  -h, --help           this text\n";

static const char attach_usage[] =
	"usage: lostcycles attach [-i INTERVAL] [-w WINDOW] [-C CPU] [-p PROCS] [-o FILE]\n"
	"                         [-q] PID...\n"
	"Sample running processes that use liblostcycles (started with\n"
	"LOSTCYCLES_SESSION set) until they all exit or SIGINT/SIGTERM arrives.\n"
	"Options as for 'lostcycles record'.\n";

static const struct option long_opts[] = {
	{ "interval", required_argument, NULL, 'i' },
	{ "window", required_argument, NULL, 'w' },
	{ "cpu", required_argument, NULL, 'C' },
	{ "procs", required_argument, NULL, 'p' },
	{ "output", required_argument, NULL, 'o' },
	{ "trace", no_argument, NULL, 'T' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Parse the options into o; returns the index of the first operand,
 * -1 after --help, or -2 on a usage error (message printed). */
static int parse_opts(const char *usage, int argc, char **argv, struct opts *o)
{
	uint64_t v;
	int c;

	*o = (struct opts){ DEFAULT_INTERVAL_NS, DEFAULT_WINDOW_NS, -1, 0, "lostcycles.data",
			    0, 0 };
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+i:w:C:p:o:qh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'i':
		case 'w':
			if (lc_parse_duration(optarg, c == 'i' ? &o->interval_ns : &o->window_ns)) {
				warnx("bad %s '%s' (try 100us, 1ms)",
				      c == 'i' ? "interval" : "window", optarg);
				return -2;
			}
			break;
		case 'C':
			if (lc_parse_u64(optarg, 0, CPU_SETSIZE - 1, &v)) {
				warnx("bad CPU '%s'", optarg);
				return -2;
			}
			o->cpu = (int)v;
			break;
		case 'p':
			if (lc_parse_u64(optarg, 1, LC_SLOTS_MAX, &v)) {
				warnx("bad processor count '%s' (1..%u)", optarg, LC_SLOTS_MAX);
				return -2;
			}
			o->procs = (uint32_t)v;
			break;
		case 'o':
			o->out = optarg;
			break;
		case 'T':
			o->trace = 1;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return -1;
		default:
			warnx("unknown or incomplete option '%s'", argv[optind - 1]);
			fputs(usage, stderr);
			return -2;
		}
	}
	if (o->interval_ns < 1000 || o->interval_ns > 10000000000ull) {
		warnx("interval must be between 1us and 10s");
		return -2;
	}
	if (o->window_ns < o->interval_ns) {
		warnx("the window must not be shorter than the interval");
		return -2;
	}
	return optind;
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

/* A fresh session name: "lc" + our pid + random hex. */
static void new_session(char *buf, size_t len)
{
	uint32_t r = 0;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r))
		r = (uint32_t)lc_now_ns();
	snprintf(buf, len, "lc%d-%08x", (int)getpid(), r);
}

/* Open the profile and start the sampler (placed, then ticking from t0).
 * Returns 0 or 1 after a message. */
static int start_run(struct run *r)
{
	struct lc_prof_info info = { 0 };
	struct lc_sampler_cfg cfg = { .cpu = r->o.cpu };
	struct timespec rt;
	char host[256] = "";
	int e = 0, cpu, fifo;

	r->smp = lc_sampler_start(&cfg, &e);
	if (!r->smp) {
		warnx("cannot start the sampler on CPU %d: %s", r->o.cpu, strerror(-e));
		return 1;
	}
	lc_sampler_placement(r->smp, &cpu, &fifo);
	gethostname(host, sizeof(host) - 1);
	r->t0 = lc_now_ns();
	clock_gettime(CLOCK_REALTIME, &rt);
	info = (struct lc_prof_info){
		.start_realtime_ns = (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec,
		.t0_ns = r->t0, .interval_ns = r->o.interval_ns, .window_ns = r->o.window_ns,
		.procs_option = r->o.procs, .sampler_cpu = cpu, .sched_fifo = (uint32_t)fifo,
		.hostname = host, .command = r->command, .session = r->session,
	};
	for (size_t i = 0; i < sizeof(unmeasured) / sizeof(unmeasured[0]); i++) {
		info.unavailable |= 1u << unmeasured[i].cat;
		info.reason[unmeasured[i].cat] = (char *)unmeasured[i].reason;
	}
	r->w = lc_pwriter_open(r->o.out, &info, &e);
	if (!r->w) {
		warnx("%s: %s", r->o.out, strerror(-e));
		return 1;
	}
	r->threads = lc_threads_new(r->w);
	r->acc = lc_accum_new(r->w, LC_SRC_SAMPLED, r->o.window_ns, r->o.procs);
	if (!r->threads || !r->acc) {
		warnx("out of memory");
		return 1;
	}
	cfg = (struct lc_sampler_cfg){ .interval_ns = r->o.interval_ns, .cpu = r->o.cpu,
				       .t0 = r->t0, .reg = r->reg, .acc = r->acc,
				       .threads = r->threads, .w = r->w };
	lc_sampler_go(r->smp, &cfg);
	return 0;
}

/* Replay the trace files into a second source of the profile. */
static void add_trace(struct run *r, uint32_t *procs)
{
	struct lc_replay_stats rs;
	const struct lc_departure *dep;
	struct lc_accum *acc;
	uint32_t ndep, p, from;
	char why[512] = "";

	acc = lc_accum_new(r->w, LC_SRC_TRACE, r->o.window_ns, r->o.procs);
	if (!acc) {
		warnx("out of memory for the trace profile");
		return;
	}
	dep = lc_registry_departures(r->reg, &ndep);
	if (lc_replay(r->trace_dir, r->session, r->t0, r->st.t_end, dep, ndep, acc, r->threads,
		      &rs, why, sizeof(why)))
		warnx("trace: %s", why);
	else if (!rs.files)
		warnx("trace mode: no trace file appeared in %s", r->trace_dir);
	if (rs.bad)
		warnx("trace: %llu invalid records or files ignored",
		      (unsigned long long)rs.bad);
	lc_accum_flush(acc);
	p = lc_accum_procs(acc, &from);
	if (from == LC_PROCS_THREADS && p > *procs)
		*procs = p;
	lc_accum_free(acc);
	if (r->own_trace_dir) {
		lc_replay_cleanup(r->trace_dir, r->session);
		rmdir(r->trace_dir);
	}
}

/* Stop sampling, write the rest of the profile, and release everything.
 * Returns 0, or 1 when the profile could not be written completely. */
static int finish_run(struct run *r, const char *cmd, int status, const char *reason)
{
	struct lc_prof_end end = { 0 };
	uint32_t from = 0;
	int rc = 0, wrc;

	if (r->smp)
		lc_sampler_stop(r->smp, &r->st);
	r->smp = NULL;
	if (r->reg)
		lc_registry_stop(r->reg);
	if (r->acc && r->w) {
		lc_accum_flush(r->acc);
		end.procs = lc_accum_procs(r->acc, &from);
		if (r->o.trace)
			add_trace(r, &end.procs);
		end.end_ns = r->st.t_end - r->t0;
		end.procs_from = from;
		end.exit_status = status;
		end.ticks = (uint32_t)r->st.ticks;
		end.max_gap_ns = r->st.max_gap_ns;
		end.wasted_lost = lc_accum_wasted_lost_count(r->acc);
		end.bad_reads = r->st.bad_reads;
		end.reason = (char *)reason;
		lc_pwriter_end(r->w, &end);
	}
	wrc = lc_pwriter_close(r->w);
	if (r->w && wrc) {
		warnx("%s: write failed: %s (the profile holds what was written before)",
		      r->o.out, strerror(-wrc));
		rc = 1;
	}
	if (!rc && r->w && !r->o.quiet) {
		uint32_t seen = r->reg ? lc_registry_seen(r->reg) : 0;

		fprintf(stderr, "lostcycles %s: %s: %.3f s, %llu ticks, %u process%s, p = %u\n", cmd,
			r->o.out, (double)(r->st.t_end - r->t0) / 1e9,
			(unsigned long long)r->st.ticks, seen, seen == 1 ? "" : "es", end.procs);
		if (!seen)
			fprintf(stderr, "lostcycles %s: no instrumented process appeared: is the "
					"program linked with liblostcycles?\n", cmd);
	}
	if (r->reg && lc_registry_rejected(r->reg))
		warnx("%u invalid shared-memory segments ignored", lc_registry_rejected(r->reg));
	lc_accum_free(r->acc);
	lc_threads_free(r->threads);
	lc_registry_free(r->reg);
	free(r->command);
	return rc;
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
		sigprocmask(SIG_SETMASK, old, NULL);
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

/* Wait for the child or a signal.  Returns the shell-style status and sets
 * *sig when a signal ended the wait. */
static int wait_child(pid_t child, const sigset_t *set, int *sig)
{
	struct timespec ts = { 0, 100000000 };
	siginfo_t si;
	int ws;

	for (;;) {
		int s = sigtimedwait(set, &si, &ts);

		if (s == SIGINT || s == SIGTERM || s == SIGHUP) {
			kill(child, s);
			*sig = s;
			return 128 + s;
		}
		if (waitpid(child, &ws, WNOHANG) == child)
			return shell_status(ws);
	}
}

int lc_cmd_record(int argc, char **argv)
{
	struct run r = { 0 };
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
	if (setup_trace(&r))
		return 1;
	new_session(r.session, sizeof(r.session));
	r.command = join(argc - first, argv + first);
	block_signals(&set, &old);
	r.reg = lc_registry_start(r.session, NULL, 0, &rc);
	if (!r.reg) {
		warnx("cannot start discovery: %s", strerror(-rc));
		return 1;
	}
	if (start_run(&r)) {
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
	if (r.o.trace && r.own_trace_dir)
		rmdir(r.trace_dir);
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
		(*pids)[i] = (pid_t)v;
	}
	return 0;
}

/* Wait until a target appears (-ENOENT after ATTACH_WAIT_NS), then until
 * every target has left or a signal arrives.  Returns the signal or 0. */
static int attach_wait(struct run *r, const sigset_t *set, int started)
{
	struct timespec ts = { 0, 5000000 };
	uint64_t start = lc_now_ns();
	siginfo_t si;

	for (;;) {
		int s = sigtimedwait(set, &si, &ts);

		if (s == SIGINT || s == SIGTERM || s == SIGHUP)
			return s;
		if (!started && lc_registry_seen(r->reg))
			return 0;
		if (started && !lc_registry_live(r->reg))
			return 0;
		if (!lc_registry_seen(r->reg) && lc_now_ns() - start > ATTACH_WAIT_NS)
			return -ENOENT;
	}
}

int lc_cmd_attach(int argc, char **argv)
{
	struct run r = { 0 };
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
	rc = parse_pids(argc - first, argv + first, &pids);
	if (rc) {
		free(pids);
		return rc;
	}
	snprintf(r.session, sizeof(r.session), "attach");
	r.command = join(argc - first, argv + first);
	block_signals(&set, &old);
	r.reg = lc_registry_start(NULL, pids, argc - first, &rc);
	free(pids);
	if (!r.reg) {
		warnx("cannot start discovery: %s", strerror(-rc));
		return 1;
	}
	sig = attach_wait(&r, &set, 0);
	if (sig) {
		if (sig == -ENOENT)
			warnx("no lostcycles segment for the given processes (were they started "
			      "with LOSTCYCLES_SESSION set and linked with liblostcycles?)");
		lc_registry_stop(r.reg);
		lc_registry_free(r.reg);
		free(r.command);
		return sig > 0 ? 128 + sig : 1;
	}
	if (start_run(&r)) {
		finish_run(&r, "attach", -1, "could not start");
		return 1;
	}
	sig = attach_wait(&r, &set, 1);
	rc = finish_run(&r, "attach", -1, sig ? "interrupted" : "targets exited");
	if (rc)
		return 1;
	return sig ? 128 + sig : 0;
}
