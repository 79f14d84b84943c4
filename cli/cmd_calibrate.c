/*
 * cmd_calibrate.c — "lostcycles calibrate": the sampling interval's
 * overhead against its accuracy (thesis Figure 4.2), --memory (the ideal
 * memory latencies of this machine) and --mpi (the LogGP parameters of
 * MPI).  Its options, progress and messages; the runs, the table and the
 * recommendation are kmod-free-tools/calib_run.c, the ping-pong calib_mpi.c
 * (the measurement kmod-free-tools/mpi/pingpong.c, the fit mpi_job.c).
 */
#include <err.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_abi.h"
#include "lc_calib.h"
#include "lc_calib_mpi.h"
#include "lc_calib_run.h"
#include "lc_cmd.h"
#include "lc_opt.h"
#include "lc_runner.h"
#include "lc_util.h"

static const char *const usage[] = {
	"lostcycles calibrate [-i LIST] [-r REPEATS] [--max-overhead PCT] [--allow-busy-wait]",
	"                     [-g FILE.png] [-k DIR] [-q] [-- CMD [ARGS...]]",
	"lostcycles calibrate --memory [-C CPU,CPU] [-o FILE] [--force]",
	"lostcycles calibrate --mpi [-o FILE] [--force] [-m MAXBYTES] [-- LAUNCHER...]",
	"",
	"Measure, for each sampling interval, the running-time increase of CMD under",
	"the sampler and the attribution error against the exact trace-mode profile",
	"of the same run; recommend the smallest interval shown within the overhead",
	"budget despite the run-to-run noise.",
	"Without CMD a built-in workload with known truth (31 % load imbalance) runs.",
	"",
	"--memory measures the cache-line transfer latency between two CPUs and the",
	"memory latency, for 'compose --memory' and counters' CL = misses x latency.",
	"",
	"--mpi measures the LogGP parameters of this machine's MPI with a ping-pong",
	"between two ranks (LAUNCHER, default 'mpiexec -n 2', starts them; the",
	"ping-pong program is appended) and writes them where 'record --mpi' finds",
	"them: L + o + k*G for a message of k bytes, and a second line Ls + o + k*Gs",
	"from the size S at which the MPI library switches protocol, when one line",
	"does not fit.",
	NULL,
};

/* The command line. */
struct calopts {
	const char *intervals, *cpus, *out, *graph, *keep, *workload;
	int repeats, quiet, mem, mpi, force, allow_busy;
	double budget;
	uint64_t max;			/* --mpi's largest message, bytes */
	int ncmd;
	char **cmd;			/* CMD [ARGS...] (or LAUNCHER), ncmd words */
};

/* Where progress goes. */
struct ui {
	int quiet, tty;
};

static volatile sig_atomic_t interrupted;

/* SIGINT, SIGTERM: stop the runs, report what was measured. */
static void on_signal(int sig)
{
	interrupted = sig;
	lc_runner_stop = 1;
}

/* A usage error: the message, and 2. */
static int usage_error(const char *fmt, const char *a, const char *b)
{
	warnx(fmt, a, b);
	return 2;
}

/* The timing option of the calibration given with --mpi or --memory, or
 * NULL. */
static const char *timing_given(void)
{
	static const char *const timing[] = { "intervals", "repeats", "max-overhead",
					      "allow-busy-wait", "graph", "keep", "quiet", NULL };

	for (int i = 0; timing[i]; i++)
		if (lc_opt_given(timing[i], 0))
			return timing[i];
	return NULL;
}

/* Whether an option of a mode not chosen was given: a usage message, and
 * 2; else -1 to go on. */
static int check_modes(const struct calopts *o)
{
	const char *mode = o->mpi ? "mpi" : "memory", *t = timing_given();

	if (o->mpi && o->mem)
		return usage_error("give --mpi or --memory, not both", NULL, NULL);
	if ((o->mpi || o->mem) && t)
		return usage_error("--%s does not go with --%s", t, mode);
	if (!o->mpi && lc_opt_given("max", 0))
		return usage_error("-m goes with --mpi", NULL, NULL);
	if (o->mpi && o->cpus)
		return usage_error("-C goes with --memory", NULL, NULL);
	if (!o->mem && !o->mpi && (o->cpus || o->out))
		return usage_error("-C and -o go with --memory", NULL, NULL);
	return -1;
}

/* The options, into these (file-scope data, as perf's builtins have it). */
static struct calopts opt = { .intervals = LC_CALIB_DEFAULT_INTERVALS, .repeats = 3,
			      .budget = 1.0, .max = 1048576 };
static const struct lc_opt opts[] = {
	LC_OPT_STRING("intervals", 'i', "LIST", "intervals to try (default "
		      LC_CALIB_DEFAULT_INTERVALS ")", &opt.intervals),
	LC_OPT_NUMBER("repeats", 'r', "N", "runs per interval and kind (default 3)",
		      &opt.repeats, 1, LC_CALIB_MAX_REPEATS),
	LC_OPT_REAL("max-overhead", 0, "PCT", "overhead budget in % (default 1); an "
		    "interval is\nrecommended when its median overhead plus half its\n"
		    "noise (the larger spread of its runs and of the\nbaseline's) is "
		    "within it, and that noise is too\n(else the default 100us, with the "
		    "reason)", &opt.budget, 0, 1e9),
	LC_OPT_FLAG("allow-busy-wait", 0, "an interval below 30us (the sampler "
		    "busy-waits,\ntaking a whole CPU) may be recommended", &opt.allow_busy),
	LC_OPT_FILENAME("graph", 'g', "FILE.png", "draw overhead and error against "
			"interval (gnuplot)", &opt.graph),
	LC_OPT_FILENAME("keep", 'k', "DIR", "keep the profiles in DIR", &opt.keep),
	LC_OPT_FLAG("quiet", 'q', "no progress on stderr", &opt.quiet),
	LC_OPT_FLAG("memory", 0, "measure the cache-line transfer latency between two\n"
		    "CPUs and the memory latency; write them to FILE", &opt.mem),
	LC_OPT_STRING("cpus", 'C', "A,B", "the two CPUs of --memory (default: the last two "
		      "allowed)", &opt.cpus),
	LC_OPT_FLAG("mpi", 0, "measure the LogGP parameters of MPI with a ping-pong\n"
		    "(two ranks under LAUNCHER); write them to FILE", &opt.mpi),
	LC_OPT_NUMBER("max", 'm', "BYTES", "--mpi's largest message (default 1048576)",
		      &opt.max, 1024, 1u << 28),
	LC_OPT_FILENAME("output", 'o', "FILE", "--memory's file (default "
			"~/.config/lostcycles/memory),\nor --mpi's LogGP file (default "
			"$LOSTCYCLES_LOGGP, else\n$XDG_CONFIG_HOME/lostcycles/loggp or "
			"~/.config/lostcycles/loggp);\nthe default files are replaced by "
			"each calibration", &opt.out),
	LC_OPT_FLAG("force", 0, "replace -o FILE or the -g graph when it exists", &opt.force),
	LC_OPT_STRING("workload-child", 0, "LOOPS,LIBRARY", NULL, &opt.workload),
	LC_OPT_END_AT_OPERAND(),
};

/* Parse the command line into o.  -1 to go on, or the exit status (0
 * after --help, 2 after a usage message). */
static int parse_opts(int argc, char **argv, struct calopts *o)
{
	int n = lc_opt_parse(argc, argv, opts, usage, &o->cmd);

	if (n < 0)
		return LC_OPT_EXIT(n);
	o->ncmd = n;
	return o->workload ? -1 : check_modes(o);
}

/* The hidden child mode: run the built-in workload ("LOOPS,LIBRARY"). */
static int workload_child(const char *arg)
{
	char why[512], *end;
	unsigned long long loops = strtoull(arg, &end, 10);

	if (*end != ',' || !loops) {
		warnx("bad workload argument");
		return 2;
	}
	if (lc_calib_workload(end + 1, loops, why, sizeof(why)))
		return lc_cmd_fail(why);
	return 0;
}

/* The CPUs of --memory: -C A,B, else the last two allowed.  0, or the exit
 * status after a message. */
static int memory_cpus(const char *cpus, int *a, int *b)
{
	if (!cpus && lc_calib_two_cpus(a, b)) {
		warnx("--memory needs two CPUs");
		return 1;
	}
	if (cpus && (sscanf(cpus, "%d,%d", a, b) != 2 || *a < 0 || *b < 0 || *a == *b)) {
		warnx("-C wants two different CPUs: A,B");
		return 2;
	}
	return 0;
}

/* The file of --memory: -o FILE (refused when it exists, unless
 * --force), else the default one.  0, or the exit status after a
 * message. */
static int memory_path(const struct calopts *o, char *path, size_t len)
{
	char msg[4400];

	if (o->out && !o->force && lc_out_prepare(o->out, LC_OUT_KEEP, msg, sizeof(msg)))
		return lc_cmd_fail(msg);
	if (o->out)
		snprintf(path, len, "%s", o->out);
	else if (lc_memlat_default_path(path, len)) {
		warnx("no HOME: give the file with -o");
		return 2;
	}
	return 0;
}

/* --memory. */
static int memory(const struct calopts *o)
{
	char path[4096], msg[4400];
	int a, b, rc;

	if (o->ncmd) {
		warnx("--memory takes no command");
		return 2;
	}
	if ((rc = memory_cpus(o->cpus, &a, &b)) || (rc = memory_path(o, path, sizeof(path))))
		return rc;
	if (lc_calib_memory(a, b, path, stdout, msg, sizeof(msg)))
		return lc_cmd_fail(msg);
	return 0;
}

/* A run that went wrong without stopping the calibration. */
static void note(void *arg, const char *text)
{
	(void)arg;
	warnx("%s", text);
}

/* The progress bar on a terminal, with the time left at this pace. */
static void bar(const struct lc_calib_run *c, const char *what)
{
	double el = (double)(lc_clock_ns() - c->t_start) / 1e9;
	double left = c->done ? el / (double)c->done * (double)(c->total - c->done) : NAN;
	int w = 30, k = (int)(w * c->done / (c->total ? c->total : 1));

	fprintf(stderr, "\r[%.*s%*s] %zu/%zu %-24s", k, "##############################", w - k, "",
		c->done, c->total, what);
	if (isfinite(left))
		fprintf(stderr, " %3.0f s left", left);
	if (c->done == c->total)
		fputc('\n', stderr);
}

/* Progress: a bar on a terminal, a line per run otherwise. */
static void progress(void *arg, const struct lc_calib_run *c, const char *what)
{
	const struct ui *ui = arg;

	if (ui->quiet)
		return;
	if (ui->tty)
		bar(c, what);
	else
		fprintf(stderr, "lostcycles calibrate: run %zu/%zu: %s\n", c->done, c->total, what);
}

/* What the calibration runs: CMD, or the built-in workload.  0, or the
 * exit status after a message. */
static int prepare(struct lc_calib_run *c, const struct calopts *o)
{
	char msg[4400];

	if (lc_calib_intervals(c, o->intervals, msg, sizeof(msg))) {
		warnx("%s", msg);
		return 2;
	}
	if ((c->graph && lc_out_prepare(c->graph, o->force ? LC_OUT_FORCE : LC_OUT_KEEP, msg,
					sizeof(msg))) ||
	    (!o->ncmd && lc_calib_builtin(c, msg, sizeof(msg))) || lc_calib_open(c, msg, sizeof(msg)))
		return lc_cmd_fail(msg);
	return 0;
}

/* Measure and report; the exit status. */
static int calibrate(const struct calopts *o)
{
	static struct lc_calib_run c;
	struct ui ui = { .quiet = o->quiet, .tty = isatty(2) };
	struct sigaction sa = { .sa_handler = on_signal };
	char msg[4400];
	int rc;

	c = (struct lc_calib_run){ .cmd = o->ncmd ? o->cmd : NULL, .repeats = o->repeats,
				   .budget = o->budget, .graph = o->graph, .keep = o->keep,
				   .allow_busy = o->allow_busy, .note = note, .progress = progress,
				   .arg = &ui };
	if ((rc = prepare(&c, o)))
		return rc;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (!o->quiet)
		fprintf(stderr, "lostcycles calibrate: %s, %d repeat%s of %zu intervals\n",
			c.builtin ? "built-in workload" : c.cmd[0], c.repeats,
			c.repeats == 1 ? "" : "s", c.npts);
	if ((rc = lc_calib_measure(&c, msg, sizeof(msg))))
		warnx("%s", msg);
	if (ui.tty && !o->quiet && interrupted)
		fputc('\n', stderr);
	lc_calib_report(&c, stdout);
	lc_calib_close(&c);
	return rc ? 1 : interrupted ? 128 + interrupted : 0;
}

/* The warning of a fitted line whose latency was clamped to 0. */
static void clamped_warning(const struct lc_pingpong *p, const struct lc_loggp *lg)
{
	char sw[64] = "";

	if (lg->S > 0)
		snprintf(sw, sizeof(sw), ", and from the switch on %.1f ns", lg->Ls + lg->o);
	warnx("%swarning%s: the measured overhead o (%.1f ns) is above the time of an empty message of "
	      "a fitted line (%.1f ns%s): that line's latency is 0 (a busy machine? calibrate on a "
	      "quiet one)", lc_color(stderr, LC_COLOR_WARNING), lc_color(stderr, NULL), p->o,
	      lg->L + lg->o, sw);
}

/* --mpi: measure, fit, write, print.  The exit status. */
static int mpi(const struct calopts *o)
{
	const struct lc_calib_mpi_req rq = { o->cmd, o->ncmd, o->max, o->out, o->force };
	struct lc_pingpong p = { 0 };
	struct lc_loggp lg;
	char msg[4400];
	int clamped;

	if (lc_calib_mpi(&rq, stdout, &p, &lg, &clamped, msg, sizeof(msg)))
		return lc_cmd_fail(msg);
	if (clamped)
		clamped_warning(&p, &lg);
	return 0;
}

/* "lostcycles calibrate".  See lc_cmd.h. */
int lc_cmd_calibrate(int argc, char **argv)
{
	int r = parse_opts(argc, argv, &opt);

	if (r >= 0)
		return r;
	if (opt.workload)
		return workload_child(opt.workload);
	if (opt.mpi)
		return mpi(&opt);
	if (opt.mem)
		return memory(&opt);
	return calibrate(&opt);
}
