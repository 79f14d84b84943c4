/*
 * cmd_compose.c — "lostcycles compose": lost cycles modeling (the thesis's
 * lcm, chapter 6).  Its options; the composition, its tables and its plot
 * are postproc/lcm_compose.c.
 */
#include "lc_cmd.h"
#include "lc_calib.h"
#include "lc_util.h"
#include "lcm_compose.h"

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#define PROG "lostcycles compose"

/* Print the usage text to f. */
static void usage(FILE *f)
{
	fprintf(f,
"usage: lostcycles compose -s STRUCTURE (--at \"VAR=V ...\" | --grid \"VAR=LIST ...\") [options]\n"
"       lostcycles compose --extract SOURCE.c... [-o STRUCTURE] [--at ... | --grid ...]\n"
"       lostcycles compose -s STRUCTURE --at \"VAR=V ...\" --tune \"VAR=LIST ...\"\n"
"\n"
"Compose the lost cycles models of a program's fragments into a model of the\n"
"whole program along its parallel structure (docs/structure.md), and predict\n"
"T(E) = sum C(E)/p with a 90%% prediction interval, like 'lostcycles predict'.\n"
"\n"
"  -s, --structure FILE   the structure file\n"
"  -a, --at \"n=1024 p=4\"   one point: per-category values and T(E)\n"
"  -G, --grid \"n=64,...,1024 p=1,2\"\n"
"                         every combination (LIST as in lostcycles predict)\n"
"  -e, --explain          each node's variables, time and categories, and what\n"
"                         each rule added\n"
"  -C, --compare FILE     a second structure, or a model file: which is faster\n"
"                         at each point\n"
"  -m, --measured RUNS    compare with measured runs (tt/p of the runs at each\n"
"                         grid point, 'lostcycles report -l' lines) and give\n"
"                         the relative error\n"
"  -P, --plot FILE.png    T over the first grid variable, one curve per value\n"
"                         of the second (with --compare and --measured too)\n"
"      --transfer \"latency=S bandwidth=B\"\n"
"                         the machine's transfer parameters (seconds, bytes/s)\n"
"                         for data traces; overrides the structure's line\n"
"      --memory[=FILE]    transfer parameters from 'lostcycles calibrate --memory'\n"
"                         (its default file without FILE): B bytes cost B/64\n"
"                         remote cache-line transfers\n"
"      --critical-path TRACE\n"
"                         synchronization by critical path analysis over a\n"
"                         recorded trace (a trace file of 'record --trace', or\n"
"                         the LOSTCYCLES_TRACE_DIR folder holding them), using\n"
"                         the fragments' 'tag:' lines, instead of the pipeline\n"
"                         rule of 'after:'\n"
"      --tune \"VAR=LIST ...\"\n"
"                         the values of tuning variables that minimise T at\n"
"                         --at, by coordinate search checked by brute force\n"
"  -x, --extract          build the structure from the SOURCE files' OpenMP\n"
"                         pragmas, LC_FRAGMENT tags and lcm: comments; a\n"
"                         name that is taken gets _2, _3, ... (with a note)\n"
"  -o, --output FILE      with --extract: write the structure to FILE\n"
"      --force            replace -o FILE and plot files that exist (else refused)\n"
"      --max-points N     refuse a grid (or --tune grid) of more than N points\n"
"                         (default 1000000)\n"
"  -h, --help             this text\n"
"\n"
"See lostcycles-compose(1).\n");
}

enum { O_TRANSFER = 256, O_TUNE, O_MEMORY, O_CRITICAL, O_FORCE, O_MAXPOINTS };

/* Parse the command line into o.  Returns 0, 1 after --help, -1 on error. */
static int parse_opts(int argc, char **argv, struct lc_compose_opts *o)
{
	static const struct option lo[] = {
		{ "structure", required_argument, 0, 's' }, { "at", required_argument, 0, 'a' },
		{ "grid", required_argument, 0, 'G' }, { "explain", no_argument, 0, 'e' },
		{ "compare", required_argument, 0, 'C' }, { "measured", required_argument, 0, 'm' },
		{ "plot", required_argument, 0, 'P' }, { "transfer", required_argument, 0, O_TRANSFER },
		{ "tune", required_argument, 0, O_TUNE }, { "extract", no_argument, 0, 'x' },
		{ "memory", optional_argument, 0, O_MEMORY },
		{ "critical-path", required_argument, 0, O_CRITICAL },
		{ "output", required_argument, 0, 'o' }, { "help", no_argument, 0, 'h' },
		{ "force", no_argument, 0, O_FORCE }, { "max-points", required_argument, 0, O_MAXPOINTS },
		{ 0, 0, 0, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	o->max_points = LC_GRID_DEFAULT_MAX_POINTS;
	while ((c = getopt_long(argc, argv, "s:a:G:eC:m:P:xo:h", lo, NULL)) != -1) {
		switch (c) {
		case 's': o->structure = optarg; break;
		case 'a': o->at = optarg; break;
		case 'G': o->grid = optarg; break;
		case 'e': o->explain = 1; break;
		case 'C': o->compare = optarg; break;
		case 'm': o->measured = optarg; break;
		case 'P': o->plot = optarg; break;
		case 'x': o->extract = 1; break;
		case 'o': o->output = optarg; break;
		case O_TRANSFER: o->transfer = optarg; break;
		case O_TUNE: o->tune = optarg; break;
		case O_MEMORY: o->memory = optarg ? optarg : ""; break;
		case O_CRITICAL: o->critical = optarg; break;
		case O_FORCE: o->force = 1; break;
		case O_MAXPOINTS:
			if (lc_opt_max_points(optarg, &o->max_points))
				return -1;
			break;
		case 'h': usage(stdout); return 1;
		default:
			warnx("unknown option or missing value '%s'; see '" PROG " --help'", argv[optind - 1]);
			return -1;
		}
	}
	for (; optind < argc; optind++) {
		if (!o->extract) {
			warnx("unexpected argument '%s'; see '" PROG " --help'", argv[optind]);
			return -1;
		}
		if (o->nsrc == LC_COMPOSE_MAXSRC) {
			warnx("at most %d source files", LC_COMPOSE_MAXSRC);
			return -1;
		}
		o->src[o->nsrc++] = argv[optind];
	}
	if (o->extract && !o->nsrc) {
		warnx("--extract needs SOURCE files");
		return -1;
	}
	if (!o->extract && !o->structure) {
		warnx("-s STRUCTURE (or --extract SOURCE...) is required; see '" PROG " --help'");
		return -1;
	}
	return 0;
}

/* --memory: latency 0 and one 64-byte cache line per transfer_ns of the
 * per-machine file of "lostcycles calibrate --memory". */
static int memory_transfer(const char *path, double *lat, double *bw, char *msg, size_t len)
{
	char def[4096], why[256] = "";
	struct lc_memlat m;
	int rc;

	if (!*path) {
		if ((rc = lc_memlat_default_path(def, sizeof(def))))
			return lc_fail(msg, len, rc, "--memory: no default memory file: %s",
				       strerror(-rc));
		path = def;
	}
	rc = lc_memlat_read(path, &m, why, sizeof(why));
	if (rc)
		return lc_fail(msg, len, rc, "--memory %s: %s%s", path,
			       rc == -EINVAL ? why : strerror(-rc),
			       rc == -ENOENT ? " (run 'lostcycles calibrate --memory')" : "");
	*lat = 0;
	*bw = 64 / (m.transfer_ns * 1e-9);
	return 0;
}

/* A note of the extraction: one line on stderr. */
static void note(void *arg, const char *text)
{
	(void)arg;
	warnx("%s", text);
}

/* Load, print, plot.  0 or -1 after the reason. */
static int run(struct lc_compose *c)
{
	char msg[1024] = "";

	if (lc_compose_load(c, stdout, msg, sizeof(msg)) ||
	    (c->a && lc_compose_print(c, stdout, msg, sizeof(msg))) ||
	    (c->a && c->o.plot && lc_compose_plot(c, stdout, msg, sizeof(msg)))) {
		warnx("%s", msg);
		return -1;
	}
	return 0;
}

/* "lostcycles compose".  See lc_cmd.h. */
int lc_cmd_compose(int argc, char **argv)
{
	struct lc_compose c = { .note = note, .memory = memory_transfer };
	int r = parse_opts(argc, argv, &c.o), rc;

	if (r)
		return r > 0 ? 0 : 2;
	rc = run(&c);
	lc_compose_free(&c);
	return rc ? 1 : 0;
}
