/*
 * cmd_predict.c — "lostcycles predict": its options; the prediction, its
 * tables and its plot are postproc/lca_predrun.c, the predicate profile
 * chart of --profile postproc/lca_ppchart.c.
 */
#include "lc_cmd.h"
#include "lc_util.h"
#include "lca_grid.h"
#include "lca_ppchart.h"
#include "lca_predrun.h"

#include <err.h>
#include <getopt.h>
#include <stdio.h>

#define PROG "lostcycles predict"

/* Print the usage text to f. */
static void usage(FILE *f)
{
	fprintf(f,
"usage: lostcycles predict -m MODEL (--at \"VAR=V ...\" | --grid \"VAR=LIST ...\") [options]\n"
"       lostcycles predict --profile RUNS --plot FILE.png [-x EXPR]\n"
"\n"
"Predict each category's C(E) from a model file written by 'lostcycles fit\n"
"--emit' (or by hand), and T(E) = sum over categories C(E)/p with a 90%%\n"
"prediction interval when the file has rt li ip sl cl rc (or tt alone) and p\n"
"is given.  Only the variables the models use are needed.\n"
"\n"
"  -m, --model FILE       the model file\n"
"  -a, --at \"n=1024 p=26\"  one point: each category's C(E), T(E), speedup\n"
"  -G, --grid \"n=64,128,...,1024 p=1..26\"\n"
"                         every combination: each C(E), and T(E) when it exists;\n"
"                         LIST items: numbers, A..B[:STEP], ...\n"
"  -w, --what-if SCENARIO e.g. \"li=0\", \"sl*=0.5\", \"li=0 sl*=0.5\", balanced,\n"
"                         nowait, nocomm, nocontention (repeatable)\n"
"  -C, --compare MODEL_B  where B beats the model, and the crossover points\n"
"                         along the first grid variable\n"
"  -P, --plot FILE.png    plot T (or speedup) over the first grid variable, one\n"
"                         curve per value of the second (FILE.gp, FILE.data too)\n"
"      --speedup          plot speedup instead of time\n"
"      --profile RUNS     with --plot: the stacked-bar predicate profile of the\n"
"                         runs in RUNS (seconds per category over p)\n"
"  -x, --extract EXPR     with --profile: only runs where EXPR holds\n"
"      --max-points N     refuse a grid of more than N points (default 1000000)\n"
"      --force            replace plot files that exist (else they are refused)\n"
"  -h, --help             this text\n"
"\n"
"See lostcycles-predict(1).\n");
}

enum { O_SPEEDUP = 256, O_PROFILE, O_FORCE, O_MAXPOINTS };

/* Parse the command line into o.  Returns 0, 1 after --help, -1 on error. */
static int parse_opts(int argc, char **argv, struct lc_predrun_opts *o)
{
	static const struct option lo[] = {
		{ "model", required_argument, 0, 'm' }, { "at", required_argument, 0, 'a' },
		{ "grid", required_argument, 0, 'G' }, { "what-if", required_argument, 0, 'w' },
		{ "compare", required_argument, 0, 'C' }, { "plot", required_argument, 0, 'P' },
		{ "speedup", no_argument, 0, O_SPEEDUP }, { "profile", required_argument, 0, O_PROFILE },
		{ "extract", required_argument, 0, 'x' }, { "help", no_argument, 0, 'h' },
		{ "force", no_argument, 0, O_FORCE }, { "max-points", required_argument, 0, O_MAXPOINTS },
		{ 0, 0, 0, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	o->max_points = LC_GRID_DEFAULT_MAX_POINTS;
	while ((c = getopt_long(argc, argv, "m:a:G:w:C:P:x:h", lo, NULL)) != -1) {
		switch (c) {
		case 'm': o->model = optarg; break;
		case 'a': o->at = optarg; break;
		case 'G': o->grid = optarg; break;
		case 'C': o->compare = optarg; break;
		case 'P': o->plot = optarg; break;
		case 'x': o->extract = optarg; break;
		case O_SPEEDUP: o->speedup = 1; break;
		case O_PROFILE: o->profile = optarg; break;
		case O_FORCE: o->force = 1; break;
		case O_MAXPOINTS:
			if (lc_opt_max_points(optarg, &o->max_points))
				return -1;
			break;
		case 'h': usage(stdout); return 1;
		case 'w':
			if (o->nwhatif == LC_WHATIF_MAX) {
				warnx("at most %d --what-if scenarios", LC_WHATIF_MAX);
				return -1;
			}
			o->whatif[o->nwhatif++] = optarg;
			break;
		default:
			warnx("unknown option or missing value '%s'; see '" PROG " --help'",
				argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc) {
		warnx("unexpected argument '%s'; see '" PROG " --help'", argv[optind]);
		return -1;
	}
	return 0;
}

/* --profile RUNS --plot PNG: the stacked-bar predicate profile chart. */
static int profile_chart(const struct lc_predrun_opts *o)
{
	char why[512];

	if (!lc_ppchart_write(o->profile, o->extract, o->plot, o->force ? LC_OUT_FORCE : LC_OUT_KEEP,
			      stdout, why, sizeof(why)))
		return 0;
	warnx("%s", why);
	return 1;
}

/* Load, print, plot.  The exit status. */
static int run(struct lc_predrun *pr)
{
	char msg[1024];

	if (lc_predrun_load(pr, msg, sizeof(msg)) || lc_predrun_print(pr, stdout, msg, sizeof(msg)) ||
	    (pr->o.plot && lc_predrun_plot(pr, stdout, msg, sizeof(msg)))) {
		warnx("%s", msg);
		return 1;
	}
	return 0;
}

/* "lostcycles predict".  See lc_cmd.h. */
int lc_cmd_predict(int argc, char **argv)
{
	struct lc_predrun pr = { .pax = -1 };
	int r = parse_opts(argc, argv, &pr.o);

	if (r)
		return r > 0 ? 0 : 2;
	if (pr.o.profile && !pr.o.plot) {
		warnx("--profile needs --plot FILE.png");
		return 2;
	}
	if (pr.o.profile)
		return profile_chart(&pr.o);
	if (!pr.o.model) {
		warnx("-m MODEL is required; see '" PROG " --help'");
		return 2;
	}
	r = run(&pr);
	lc_predrun_free(&pr);
	return r;
}
