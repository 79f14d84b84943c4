/*
 * cmd_calibrate_mpi.c — "lostcycles calibrate --mpi": run the ping-pong
 * (lostcycles-pingpong) under the MPI launcher, fit the LogGP parameters
 * L, o and G (and S, Ls, Gs past a protocol switch), and write them where "record --mpi" looks for them.  The
 * measurement is kmod-free-tools/mpi/pingpong.c, the fit and the file
 * kmod-free-tools/mpi_job.c.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lc_cmd.h"
#include "lc_util.h"
#include "mpi_job.h"

#define MAX_POINTS 32

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

static const struct option opts[] = {
	{ "mpi", no_argument, NULL, 'M' },
	{ "output", required_argument, NULL, 'o' },
	{ "force", no_argument, NULL, 'F' },
	{ "max", required_argument, NULL, 'm' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The measurement: the ping-pong's points. */
struct points {
	double o;
	int have_o;
	int n;
	double bytes[MAX_POINTS], t[MAX_POINTS];
};

/* Run argv with stdout into a pipe and parse the ping-pong's lines.
 * Returns the command's shell status, or -1 when it could not run. */
static int measure(char **argv, struct points *p)
{
	int fd[2], ws;
	pid_t pid;
	FILE *f;
	char line[256];

	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execvp(argv[0], argv);
		warn("%s", argv[0]);
		_exit(127);
	}
	close(fd[1]);
	f = fdopen(fd[0], "r");
	while (f && fgets(line, sizeof(line), f)) {
		double a, b;

		if (sscanf(line, "overhead_ns %lf", &a) == 1) {
			p->o = a;
			p->have_o = 1;
		} else if (sscanf(line, "size %lf oneway_ns %lf", &a, &b) == 2 &&
			   p->n < MAX_POINTS) {
			p->bytes[p->n] = a;
			p->t[p->n++] = b;
		}
	}
	if (f)
		fclose(f);
	else
		close(fd[0]);
	if (waitpid(pid, &ws, 0) != pid)
		return -1;
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

int lc_cmd_calibrate_mpi(int argc, char **argv)
{
	char out[4096], prog[4096], maxs[32] = "1048576", msg[512], note[256];
	const char *o_path = NULL;
	struct points p = { 0 };
	struct lc_loggp lg;
	char **cmd;
	int c, mpi = 0, n = 0, st, clamped, force = 0;
	double worst = 0;
	uint64_t v;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+o:m:h", opts, NULL)) != -1) {
		switch (c) {
		case 'M':
			mpi = 1;
			break;
		case 'o':
			o_path = optarg;
			break;
		case 'F':
			force = 1;
			break;
		case 'm':
			if (lc_parse_u64(optarg, 1024, 1u << 28, &v)) {
				warnx("bad --max '%s' (1024..268435456 bytes)", optarg);
				return 2;
			}
			snprintf(maxs, sizeof(maxs), "%llu", (unsigned long long)v);
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			warnx("unknown or incomplete option '%s'", argv[optind - 1]);
			fputs(usage, stderr);
			return 2;
		}
	}
	if (!mpi) {
		warnx("this build calibrates only the MPI transfer model: give --mpi");
		fputs(usage, stderr);
		return 2;
	}
	if (lc_mpi_find("lostcycles-pingpong", NULL, prog, sizeof(prog), msg, sizeof(msg))) {
		warnx("%s", msg);
		return 1;
	}
	if (o_path && !force && lc_out_prepare(o_path, LC_OUT_KEEP, msg, sizeof(msg))) {
		warnx("%s", msg);
		return 1;
	}
	if (o_path)
		snprintf(out, sizeof(out), "%s", o_path);
	else
		lc_loggp_default_path(out, sizeof(out));
	cmd = calloc((size_t)(argc - optind + 6), sizeof(*cmd));
	if (!cmd)
		return 1;
	if (optind < argc) {
		for (int i = optind; i < argc; i++)
			cmd[n++] = argv[i];
	} else {
		cmd[n++] = "mpiexec";
		cmd[n++] = "-n";
		cmd[n++] = "2";
	}
	cmd[n++] = prog;
	cmd[n++] = maxs;
	st = measure(cmd, &p);
	free(cmd);
	if (st != 0) {
		warnx("the ping-pong failed (%s %d)", st < 0 ? "could not run:" : "exit status",
		      st < 0 ? errno : st);
		return 1;
	}
	if (!p.have_o || lc_loggp_fit(p.bytes, p.t, p.n, p.o, &lg, &clamped, msg, sizeof(msg))) {
		warnx("%s", p.have_o ? msg : "the ping-pong printed no measurement");
		return 1;
	}
	snprintf(note, sizeof(note), "from a ping-pong of %d sizes up to %s bytes", p.n, maxs);
	if (lc_loggp_write(out, &lg, note, msg, sizeof(msg))) {
		warnx("%s", msg);
		return 1;
	}
	printf("%12s %14s %14s %8s\n", "bytes", "measured(us)", "model(us)", "ratio");
	for (int i = 0; i < p.n; i++) {
		double m = lc_loggp_time(&lg, p.bytes[i]), r = p.t[i] > 0 ? m / p.t[i] : 1;

		printf("%12.0f %14.3f %14.3f %8.3f\n", p.bytes[i], p.t[i] / 1e3, m / 1e3, r);
		r = r < 1 ? 1 / r : r;
		if (r > worst)
			worst = r;
	}
	printf("L = %.1f ns, o = %.1f ns, G = %.4f ns/byte (%.2f GB/s)", lg.L, lg.o, lg.G,
	       lg.G > 0 ? 1 / lg.G : 0.0);
	if (lg.S > 0)
		printf("; from %.0f bytes on (protocol switch): Ls = %.1f ns, Gs = %.4f ns/byte "
		       "(%.2f GB/s)", lg.S, lg.Ls, lg.Gs, lg.Gs > 0 ? 1 / lg.Gs : 0.0);
	printf("\nworst size off the model by a factor %.2f; written to %s\n", worst, out);
	if (clamped)
		warnx("warning: the measured overhead o (%.1f ns) is above the time of an empty "
		      "message of a fitted line (%.1f ns%s%s): that line's latency is 0 (a busy "
		      "machine? calibrate on a quiet one)", p.o, lg.L + lg.o,
		      lg.S > 0 ? ", and from the switch on " : "",
		      lg.S > 0 ? (snprintf(note, sizeof(note), "%.1f ns", lg.Ls + lg.o), note) : "");
	return 0;
}
