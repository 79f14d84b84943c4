/*
 * cmd_predict.c — "lostcycles predict": its options; the prediction, its
 * tables and its plot are postproc/lca/lca_predrun.c, the predicate profile
 * chart of --profile postproc/lca/lca_ppchart.c.
 */
#include "lc_cmd.h"
#include "lc_opt.h"
#include "lc_util.h"
#include "lca_best.h"
#include "lca_grid.h"
#include "lca_ppchart.h"
#include "lca_predrun.h"

#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#define PROG "lostcycles predict"

static const char *const usage[] = {
	"lostcycles predict -m MODEL (--at \"VAR=V ...\" | --grid \"VAR=LIST ...\") [options]",
	"lostcycles predict -m MODEL --grid \"VAR=LIST ...\" --best [GOAL] [--where COND]",
	"                   [--min-efficiency E] [--top N] [--format FMT]",
	"lostcycles predict --profile RUNS --plot FILE.png [-x EXPR]",
	"",
	"Predict each category's C(E) from a model file written by 'lostcycles fit",
	"--emit' (or by hand), and T(E) = sum over categories C(E)/p with a 90%",
	"prediction interval when the file has rt li ip sl cl rc (or tt alone) and p",
	"is given.  Only the variables the models use are needed.  --best searches",
	"the grid for the point of least T(E) (or most speedup, or most speedup per",
	"processor) under the constraints, with the runner-up points.",
	NULL,
};

/* The options, into these (file-scope data, as perf's builtins have it). */
static struct lc_predrun_opts opt = { .max_points = LC_GRID_DEFAULT_MAX_POINTS, .top = 5 };

static const struct lc_opt_word formats[] = {
	{ "text", LC_FMT_TEXT }, { "csv", LC_FMT_CSV }, { "json", LC_FMT_JSON }, { NULL, 0 },
};

/* --best [GOAL]: the next word is its goal when it is one of lc_best_words. */
static int opt_best(const struct lc_opt *o, const char *arg)
{
	const char *w = arg ? arg : lc_opt_peek();

	opt.best = 1;
	for (int i = 0; w && lc_best_words[i].word; i++)
		if (!strcmp(w, lc_best_words[i].word)) {
			opt.goal = (int)lc_best_words[i].goal;
			if (!arg)
				lc_opt_take();
			return 0;
		}
	if (arg || (w && w[0] != '-'))
		return lc_opt_bad(o, w, "a goal: time (the default), speedup or speedup-per-p");
	return 0;
}

/* --where COND (repeatable). */
static int opt_where(const struct lc_opt *o, const char *arg)
{
	if (opt.where.n == LC_BEST_MAXCOND)
		return lc_opt_bad(o, arg, "at most 16 --where");
	opt.where.v[opt.where.n++] = arg;
	return 0;
}

static const struct lc_opt opts[] = {
	LC_OPT_FILENAME("model", 'm', "FILE", "the model file", &opt.model),
	LC_OPT_STRING("at", 'a', "\"n=1024 p=26\"", "one point: each category's C(E), T(E), "
		      "speedup", &opt.at),
	LC_OPT_STRING("grid", 'G', "\"n=64,128,...,1024 p=1..26\"", "every combination: each "
		      "C(E), and T(E) when it exists;\nLIST items: numbers, A..B[:STEP], ...",
		      &opt.grid),
	LC_OPT_CALLBACK("what-if", 'w', "SCENARIO", "e.g. \"li=0\", \"sl*=0.5\", \"li=0 "
			"sl*=0.5\", balanced,\nnowait, nocomm, nocontention (repeatable)", &opt.whatif,
			lc_opt_whatif),
	LC_OPT_FILENAME("compare", 'C', "MODEL_B", "where B beats the model, and the "
			"crossover points\nalong the first grid variable", &opt.compare),
	LC_OPT_FILENAME("plot", 'P', "FILE.png", "plot T (or speedup) over the first grid "
			"variable that\nvaries (or --x), a curve per value of the next (FILE.gp,"
			"\nFILE.data too)", &opt.plot),
	LC_OPT_STRING("x", 0, "VAR", "with --plot: the --grid variable on x (default: the first "
		      "that varies)", &opt.plot_x),
	LC_OPT_FLAG("speedup", 0, "plot speedup instead of time", &opt.speedup),
	LC_OPT_FILENAME("profile", 0, "RUNS", "with --plot: the stacked-bar predicate profile "
			"of the\nruns in RUNS (seconds per category over p)", &opt.profile),
	LC_OPT_STRING("extract", 'x', "EXPR", "with --profile: only runs where EXPR holds",
		      &opt.extract),
	LC_OPT_MAX_POINTS("refuse a grid of more than N points (default 1000000)",
			  &opt.max_points),
	LC_OPT_FLAG("force", 0, "replace plot files that exist (else they are refused)",
		    &opt.force),
	LC_OPT_CALLBACK_PEEK("best", 0, "GOAL", "search --grid for the best point: GOAL time "
			     "(least T(E),\nthe default), speedup or speedup-per-p; with its "
			     "interval\nand the runner-up points", &opt, opt_best),
	LC_OPT_CALLBACK("where", 0, "COND", "with --best: a constraint VAR OP NUMBER (OP <= < "
			">= > = !=),\ne.g. \"p<=64\"; \"n=4096\" fixes a variable --grid lacks "
			"(repeatable)", &opt, opt_where),
	LC_OPT_REAL("min-efficiency", 0, "E", "with --best: only points of efficiency T(p=1)/"
		    "(p T) >= E", &opt.min_eff, 0, 1),
	LC_OPT_NUMBER("top", 0, "N", "with --best: list the best N points (default 5, at most "
		      "100)", &opt.top, 1, LC_BEST_MAXTOP),
	LC_OPT_ENUM("format", 0, "FMT", "with --best: text (default), csv or json",
		    &opt.format, formats),
	LC_OPT_END(),
};

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

/* The options --best takes, and those only --best takes: -1 when they
 * agree, else 2 after the message. */
static int best_usage(const struct lc_predrun_opts *o)
{
	const char *only = o->where.n ? "--where" : o->min_eff > 0 ? "--min-efficiency" :
			   lc_opt_given("top", 0) ? "--top" : lc_opt_given("format", 0) ?
			   "--format" : NULL;

	if (!o->best && only) {
		warnx("%s needs --best", only);
		return 2;
	}
	if (o->best && (o->compare || o->whatif.n || o->plot)) {
		warnx("--best takes no --compare, --what-if or --plot");
		return 2;
	}
	return -1;
}

/* Load, print, plot.  The exit status. */
static int run(struct lc_predrun *pr)
{
	char msg[1024];

	if (lc_predrun_load(pr, msg, sizeof(msg)) ||
	    (pr->o.plot_x && lc_grid_find(&pr->g, pr->o.plot_x) < 0 &&
	     lc_fail(msg, sizeof(msg), -EINVAL, "--x %s: not a variable of --grid", pr->o.plot_x)) ||
	    lc_predrun_print(pr, stdout, msg, sizeof(msg)) ||
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
	int r = lc_opt_parse_only(argc, argv, opts, usage);

	if (r >= 0)
		return r;
	pr.o = opt;
	if (pr.o.plot_x && !pr.o.plot) {
		warnx("--x needs --plot FILE.png");
		return 2;
	}
	if (pr.o.profile && !pr.o.plot) {
		warnx("--profile needs --plot FILE.png");
		return 2;
	}
	if (pr.o.profile)
		return profile_chart(&pr.o);
	if ((r = best_usage(&pr.o)) >= 0)
		return r;
	if (!pr.o.model) {
		warnx("-m MODEL is required; see '" PROG " --help'");
		return 2;
	}
	r = run(&pr);
	lc_predrun_free(&pr);
	return r;
}
