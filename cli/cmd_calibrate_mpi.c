/*
 * cmd_calibrate_mpi.c — "lostcycles calibrate --mpi": its options and
 * messages.  The ping-pong, its table and the fit are
 * kmod-free-tools/calib_mpi.c and mpi_job.c; the measurement is
 * kmod-free-tools/mpi/pingpong.c.
 */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_calib_mpi.h"
#include "lc_cmd.h"
#include "lc_util.h"

static const char usage[] =
	"usage: lostcycles calibrate --mpi [-o FILE] [--force] [-m MAXBYTES] [-- LAUNCHER...]\n"
	"Measure the LogGP parameters of this machine's MPI with a ping-pong between\n"
	"two ranks and write them to FILE, where 'record --mpi' finds them: L + o + k*G\n"
	"for a message of k bytes, and a second line Ls + o + k*Gs from the size S at\n"
	"which the MPI library switches protocol, when one line does not fit.\n\n"
	"  --mpi                the MPI ping-pong (required)\n"
	"  -o, --output=FILE    the LogGP file (default $XDG_CONFIG_HOME/lostcycles/loggp,\n"
	"                       or ~/.config/lostcycles/loggp; $LOSTCYCLES_LOGGP if set)\n"
	"      --force          replace -o FILE when it exists (else it is refused; the\n"
	"                       default file is replaced by each calibration)\n"
	"  -m, --max=BYTES      largest message (default 1048576)\n"
	"  LAUNCHER             how to start 2 ranks (default: mpiexec -n 2); the\n"
	"                       ping-pong program is appended\n"
	"  -h, --help           this text\n";

/* The command line. */
struct mpiopts {
	const char *out;
	int mpi, force, nlaunch;
	char max[32];
	char **launch;
};

/* Take option c.  0, 1 after --help, -1 after a usage message. */
static int take_opt(struct mpiopts *o, int c, const char *arg, const char *word)
{
	uint64_t v;

	switch (c) {
	case 'M': o->mpi = 1; return 0;
	case 'o': o->out = arg; return 0;
	case 'F': o->force = 1; return 0;
	case 'h': fputs(usage, stdout); return 1;
	case 'm':
		if (!lc_parse_u64(arg, 1024, 1u << 28, &v)) {
			snprintf(o->max, sizeof(o->max), "%llu", (unsigned long long)v);
			return 0;
		}
		warnx("bad --max '%s' (1024..268435456 bytes)", arg);
		return -1;
	}
	warnx("unknown or incomplete option '%s'", word);
	fputs(usage, stderr);
	return -1;
}

/* Parse the command line into o.  0, 1 after --help, -1 on error. */
static int parse_opts(int argc, char **argv, struct mpiopts *o)
{
	static const struct option opts[] = {
		{ "mpi", no_argument, NULL, 'M' },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'F' },
		{ "max", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, r;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+o:m:h", opts, NULL)) != -1)
		if ((r = take_opt(o, c, optarg, argv[optind - 1])))
			return r;
	if (!o->mpi) {
		warnx("this build calibrates only the MPI transfer model: give --mpi");
		fputs(usage, stderr);
		return -1;
	}
	o->launch = argv + optind;
	o->nlaunch = argc - optind;
	return 0;
}

/* The ping-pong program and the LogGP file.  0, or -1 after a message. */
static int paths(const struct mpiopts *o, char *prog, char *out, size_t len)
{
	char msg[512];

	if (lc_mpi_find("lostcycles-pingpong", NULL, prog, len, msg, sizeof(msg)) ||
	    (o->out && !o->force && lc_out_prepare(o->out, LC_OUT_KEEP, msg, sizeof(msg)))) {
		warnx("%s", msg);
		return -1;
	}
	if (o->out)
		snprintf(out, len, "%s", o->out);
	else
		lc_loggp_default_path(out, len);
	return 0;
}

/* Run the ping-pong program prog.  0, or -1 after a message. */
static int measure(const struct mpiopts *o, const char *prog, struct lc_pingpong *p)
{
	char **cmd = lc_pingpong_argv(o->launch, o->nlaunch, prog, o->max);
	int st = cmd ? lc_pingpong_run(cmd, p) : -1;

	free(cmd);
	if (st != 0)
		warnx("the ping-pong failed (%s %d)", st < 0 ? "could not run:" : "exit status",
		      st < 0 ? -st : st);
	return st ? -1 : 0;
}

/* The warning of a fitted line whose latency was clamped to 0. */
static void clamped_warning(const struct lc_pingpong *p, const struct lc_loggp *lg)
{
	char sw[64] = "";

	if (lg->S > 0)
		snprintf(sw, sizeof(sw), ", and from the switch on %.1f ns", lg->Ls + lg->o);
	warnx("warning: the measured overhead o (%.1f ns) is above the time of an empty message of "
	      "a fitted line (%.1f ns%s): that line's latency is 0 (a busy machine? calibrate on a "
	      "quiet one)", p->o, lg->L + lg->o, sw);
}

/* Measure, fit, write, print.  The exit status. */
static int calibrate(const struct mpiopts *o)
{
	char out[4096], prog[4096], msg[512], note[256];
	struct lc_pingpong p = { 0 };
	struct lc_loggp lg;
	int clamped;

	if (paths(o, prog, out, sizeof(out)) || measure(o, prog, &p))
		return 1;
	snprintf(note, sizeof(note), "from a ping-pong of %d sizes up to %s bytes", p.n, o->max);
	if (lc_pingpong_fit(&p, &lg, &clamped, msg, sizeof(msg)) ||
	    lc_loggp_write(out, &lg, note, msg, sizeof(msg))) {
		warnx("%s", msg);
		return 1;
	}
	lc_pingpong_print(stdout, &p, &lg, out);
	if (clamped)
		clamped_warning(&p, &lg);
	return 0;
}

/* "lostcycles calibrate --mpi".  See lc_cmd.h. */
int lc_cmd_calibrate_mpi(int argc, char **argv)
{
	struct mpiopts o = { .max = "1048576" };
	int r = parse_opts(argc, argv, &o);

	if (r)
		return r > 0 ? 0 : 2;
	return calibrate(&o);
}
