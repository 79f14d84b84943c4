/*
 * cmd_calibrate.c — "lostcycles calibrate": the sampling interval's
 * overhead against its accuracy (thesis Figure 4.2), --memory (the ideal
 * memory latencies of this machine) and --mpi (the LogGP parameters,
 * cmd_calibrate_mpi.c).  Its options, progress and messages; the runs, the
 * table and the recommendation are kmod-free-tools/calib_run.c.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_abi.h"
#include "lc_calib.h"
#include "lc_calib_run.h"
#include "lc_cmd.h"
#include "lc_runner.h"
#include "lc_util.h"

static const char calibrate_usage[] =
	"usage: lostcycles calibrate [-i LIST] [-r REPEATS] [--max-overhead PCT]\n"
	"                            [--allow-busy-wait] [-g FILE.png] [-k DIR] [-q]\n"
	"                            [-- CMD [ARGS...]]\n"
	"       lostcycles calibrate --memory [-C CPU,CPU] [-o FILE]\n"
	"       lostcycles calibrate --mpi [-o FILE] [--force] [-m MAXBYTES] [-- LAUNCHER...]\n"
	"Measure, for each sampling interval, the running-time increase of CMD under\n"
	"the sampler and the attribution error against the exact trace-mode profile\n"
	"of the same run; recommend the smallest interval shown within the overhead\n"
	"budget despite the run-to-run noise.\n"
	"Without CMD a built-in workload with known truth (31 % load imbalance) runs.\n\n"
	"  -i, --intervals=LIST    intervals to try (default " LC_CALIB_DEFAULT_INTERVALS ")\n"
	"  -r, --repeats=N         runs per interval and kind (default 3)\n"
	"      --max-overhead=PCT  overhead budget in % (default 1); an interval is\n"
	"                          recommended when its median overhead plus half its\n"
	"                          noise (the larger spread of its runs and of the\n"
	"                          baseline's) is within it, and that noise is too\n"
	"                          (else the default 100us, with the reason)\n"
	"      --allow-busy-wait   an interval below 30us (the sampler busy-waits,\n"
	"                          taking a whole CPU) may be recommended\n"
	"  -g, --graph=FILE.png    draw overhead and error against interval (gnuplot)\n"
	"  -k, --keep=DIR          keep the profiles in DIR\n"
	"  -q, --quiet             no progress on stderr\n"
	"      --memory            measure the cache-line transfer latency between two\n"
	"                          CPUs and the memory latency; write them to FILE\n"
	"  -C, --cpus=A,B          the two CPUs of --memory (default: the last two allowed)\n"
	"  -o, --output=FILE       --memory's file (default ~/.config/lostcycles/memory,\n"
	"                          which each calibration replaces); with --mpi, the\n"
	"                          LogGP file\n"
	"      --force             replace -o FILE or the -g graph when it exists\n"
	"  -h, --help              this text\n"
	"\n"
	"--mpi: measure the LogGP parameters of this machine's MPI with a ping-pong\n"
	"between two ranks and write them where 'record --mpi' finds them: L + o + k*G\n"
	"for a message of k bytes, and a second line Ls + o + k*Gs from the size S at\n"
	"which the MPI library switches protocol, when one line does not fit.\n"
	"      --mpi               the MPI ping-pong (its options follow)\n"
	"  -o, --output=FILE       the LogGP file (default $XDG_CONFIG_HOME/lostcycles/\n"
	"                          loggp, or ~/.config/lostcycles/loggp; $LOSTCYCLES_LOGGP\n"
	"                          if set)\n"
	"      --force             replace -o FILE when it exists (else it is refused; the\n"
	"                          default file is replaced by each calibration)\n"
	"  -m, --max=BYTES         largest message (default 1048576)\n"
	"  LAUNCHER                how to start 2 ranks (default: mpiexec -n 2); the\n"
	"                          ping-pong program is appended\n";

/* The command line. */
struct calopts {
	const char *intervals, *cpus, *out, *graph, *keep, *workload;
	int repeats, quiet, mem, force, allow_busy;
	double budget;
	int ncmd;
	char **cmd;			/* CMD [ARGS...], ncmd words */
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

/* A whole floating-point number: 0, or -1 when s is not one. */
static int parse_number(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return end == s || *end || errno ? -1 : 0;
}

/* The value options.  0, or -1 after a message. */
static int value_opt(struct calopts *o, int ch, const char *arg)
{
	uint64_t v;

	if (ch == 'r' && lc_parse_u64(arg, 1, LC_CALIB_MAX_REPEATS, &v)) {
		warnx("bad repeat count '%s' (1..64)", arg);
		return -1;
	}
	if (ch == 'r')
		o->repeats = (int)v;
	if (ch == 'M' && (parse_number(arg, &o->budget) || o->budget < 0)) {
		warnx("bad overhead budget '%s' (a percentage)", arg);
		return -1;
	}
	return 0;
}

/* Take option ch.  0, 1 after --help, -1 after a usage message. */
static int take_opt(struct calopts *o, int ch, char *arg, const char *word)
{
	switch (ch) {
	case 'i': o->intervals = arg; return 0;
	case 'r': case 'M': return value_opt(o, ch, arg);
	case 'g': o->graph = arg; return 0;
	case 'F': o->force = 1; return 0;
	case 'k': o->keep = arg; return 0;
	case 'q': o->quiet = 1; return 0;
	case 'm': o->mem = 1; return 0;
	case 'C': o->cpus = arg; return 0;
	case 'o': o->out = arg; return 0;
	case 'B': o->allow_busy = 1; return 0;
	case 'W': o->workload = arg; return 0;
	case 'h': fputs(calibrate_usage, stdout); return 1;
	}
	warnx("unknown or incomplete option '%s'", word);
	fputs(calibrate_usage, stderr);
	return -1;
}

/* Parse the command line into o.  0, 1 after --help, -1 on error. */
static int parse_opts(int argc, char **argv, struct calopts *o)
{
	static const struct option opts[] = {
		{ "intervals", required_argument, NULL, 'i' },
		{ "repeats", required_argument, NULL, 'r' },
		{ "max-overhead", required_argument, NULL, 'M' },
		{ "graph", required_argument, NULL, 'g' },
		{ "keep", required_argument, NULL, 'k' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "memory", no_argument, NULL, 'm' },
		{ "cpus", required_argument, NULL, 'C' },
		{ "output", required_argument, NULL, 'o' },
		{ "allow-busy-wait", no_argument, NULL, 'B' },
		{ "force", no_argument, NULL, 'F' },
		{ "workload-child", required_argument, NULL, 'W' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch, r;

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+i:r:g:k:qC:o:h", opts, NULL)) != -1)
		if ((r = take_opt(o, ch, optarg, argv[optind - 1])) || o->workload)
			return r;
	o->cmd = argv + optind;
	o->ncmd = argc - optind;
	return 0;
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
	if (lc_calib_workload(end + 1, loops, why, sizeof(why))) {
		warnx("%s", why);
		return 1;
	}
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

/* --memory. */
static int memory(const struct calopts *o)
{
	char path[4096], msg[4400];
	int a, b, rc;

	if (o->ncmd) {
		warnx("--memory takes no command");
		return 2;
	}
	if ((rc = memory_cpus(o->cpus, &a, &b)))
		return rc;
	if (o->out && !o->force && lc_out_prepare(o->out, LC_OUT_KEEP, msg, sizeof(msg))) {
		warnx("%s", msg);
		return 1;
	}
	if (o->out)
		snprintf(path, sizeof(path), "%s", o->out);
	else if (lc_memlat_default_path(path, sizeof(path))) {
		warnx("no HOME: give the file with -o");
		return 2;
	}
	if (lc_calib_memory(a, b, path, stdout, msg, sizeof(msg))) {
		warnx("%s", msg);
		return 1;
	}
	return 0;
}

/* A run that went wrong without stopping the calibration. */
static void note(void *arg, const char *text)
{
	(void)arg;
	warnx("%s", text);
}

/* Progress: a bar on a terminal, a line per run otherwise. */
static void progress(void *arg, const struct lc_calib_run *c, const char *what)
{
	const struct ui *ui = arg;
	double el = (double)(lc_clock_ns() - c->t_start) / 1e9;
	double left = c->done ? el / (double)c->done * (double)(c->total - c->done) : NAN;
	int w = 30, k = (int)(w * c->done / (c->total ? c->total : 1));

	if (ui->quiet)
		return;
	if (!ui->tty) {
		fprintf(stderr, "lostcycles calibrate: run %zu/%zu: %s\n", c->done, c->total, what);
		return;
	}
	fprintf(stderr, "\r[%.*s%*s] %zu/%zu %-24s", k, "##############################", w - k, "",
		c->done, c->total, what);
	if (isfinite(left))
		fprintf(stderr, " %3.0f s left", left);
	if (c->done == c->total)
		fputc('\n', stderr);
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
	    (!o->ncmd && lc_calib_builtin(c, msg, sizeof(msg))) || lc_calib_open(c, msg, sizeof(msg))) {
		warnx("%s", msg);
		return 1;
	}
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

/* Whether the command line asks for --mpi (before any "--"). */
static int wants_mpi(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--mpi"))
			return 1;
	return 0;
}

/* "lostcycles calibrate".  See lc_cmd.h. */
int lc_cmd_calibrate(int argc, char **argv)
{
	struct calopts o = { .intervals = LC_CALIB_DEFAULT_INTERVALS, .repeats = 3, .budget = 1.0 };
	int r;

	if (wants_mpi(argc, argv))	/* the LogGP ping-pong: its own options */
		return lc_cmd_calibrate_mpi(argc, argv);
	if ((r = parse_opts(argc, argv, &o)))
		return r > 0 ? 0 : 2;
	if (o.workload)
		return workload_child(o.workload);
	if (o.mem)
		return memory(&o);
	if (o.cpus || o.out) {
		warnx("-C and -o go with --memory");
		return 2;
	}
	return calibrate(&o);
}
