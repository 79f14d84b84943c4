/*
 * cmd_fit.c — "lostcycles fit": the thesis's lca.  Its options; the fit
 * (postproc/lca/lca_fitrun.c) and its outputs (postproc/lca/lca_fitout.c).
 */
#include "lc_profile.h"
#include "lc_cmd.h"
#include "lc_opt.h"
#include "lc_util.h"
#include "lca_fitrun.h"
#include "lca_runs.h"

#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "lostcycles fit"

static const char *const usage[] = {
	"lostcycles fit -c CATEGORY -v \"VAR [VAR...]\" -f RUNS [options] [FORMULA...]",
	"",
	"Fit models of one lost cycles category to the runs in RUNS (lines written by",
	"'lostcycles report -l', or CSV with a header) and rank them: models with a",
	"'?' coefficient or a '!' lack of fit last, then by leave-one-out SMAPE, the",
	"simplest model within one standard error of the best first.",
	"",
	"FORMULA is a sum of terms in the variables' names or x0, x1, ...; each term",
	"gets a coefficient.  Several formulae: separate arguments, or ',' or ';'.",
	NULL,
};

/* --top N and --pick N: a whole number in 1..100000 into the int field. */
static int opt_rank(const struct lc_opt *opt, const char *arg)
{
	uint64_t v;

	if (lc_parse_u64(arg, 1, 100000, &v)) {
		warnx("%s wants a whole number in 1..100000, not '%s'", lc_opt_name(opt), arg);
		return -1;
	}
	*(int *)opt->field = (int)v;
	return 0;
}

/* The words of --format (enum lc_fitrun_format) and --aggregate (LC_POINTS_*). */
static const struct lc_opt_word format_words[] = {
	{ "text", LC_FITFMT_TEXT }, { "formula", LC_FITFMT_FORMULA }, { "json", LC_FITFMT_JSON },
	{ "csv", LC_FITFMT_CSV }, { NULL, 0 },
};
static const struct lc_opt_word agg_words[] = {
	{ "mean", LC_POINTS_MEAN }, { "median", LC_POINTS_MEDIAN }, { "min", LC_POINTS_MIN },
	{ NULL, 0 },
};

/* --max-load PCT: a percentage in (0, 100]. */
static int opt_pct(const struct lc_opt *opt, const char *arg)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end || !(v > 0 && v <= 100)) {
		warnx("%s wants a percentage above 0 and at most 100, not '%s'", lc_opt_name(opt), arg);
		return -1;
	}
	*(double *)opt->field = v;
	return 0;
}

/* The options, into these (file-scope data, as perf's builtins have it). */
static struct lc_fitrun_opts opt;
static char cat_help[160];
static const struct lc_opt opts[] = {
	LC_OPT_STRING("category", 'c', "CAT", cat_help, &opt.cat),
	LC_OPT_STRING("vars", 'v', "\"VARS\"", "the variable(s) to fit over, e.g. \"p\" or "
		      "\"n p\"", &opt.varlist),
	LC_OPT_FILENAME("file", 'f', "RUNS", "the runs file", &opt.runs),
	LC_OPT_STRING("extract", 'x', "EXPR", "use only runs where EXPR holds, e.g. "
		      "\"n=1024\", \"p>=4 d=32\"", &opt.extract),
	LC_OPT_FILENAME("gnuplot", 'g', "NAME", "write NAME.gp and NAME.data (and NAME.png "
			"with gnuplot)", &opt.plot),
	LC_OPT_FLAG("force", 0, "with -g: replace those files when they exist", &opt.force),
	LC_OPT_FILENAME("emit", 0, "FILE", "append the best model to the model file FILE",
			&opt.emit),
	LC_OPT_CALLBACK("pick", 0, "N", "emit the model ranked N instead of the best",
			&opt.pick, opt_rank),
	LC_OPT_FLAG("emit-comment", 0, "print the best (or --pick) model as a C comment "
		    "of\nlcm: lines for lostcycles compose --extract", &opt.emit_comment),
	LC_OPT_FLAG("prune", 0, "refit without terms whose 90% interval contains zero",
		    &opt.prune),
	LC_OPT_FLAG("nonneg", 0, "forbid negative coefficients", &opt.nonneg),
	LC_OPT_FLAG("search", 0, "search c0 + c1*v^i*log2(v)^j (Extra-P normal form), "
		    "and\nfor several variables sums of products of the best\nfactors of "
		    "each, instead of the default forms", &opt.search),
	LC_OPT_FLAG("allow-negative", 0, "search negative exponents too (always for rt)",
		    &opt.negative),
	LC_OPT_CALLBACK("top", 0, "N", "show the N best models (default: all; 10 with "
			"--search)", &opt.top, opt_rank),
	LC_OPT_ENUM("format", 0, "FMT", "text (default); formula: only the chosen model "
		    "(or\n--pick N) as an expression predict and Python both read;\njson "
		    "or csv: models with coefficients, intervals, R2,\nadjusted R2, AICc, "
		    "leave-one-out and in-sample SMAPE", &opt.format, format_words),
	LC_OPT_FLAG("weights", 0, "weight averaged points by count/spread^2", &opt.weights),
	LC_OPT_FLAG("absolute", 0, "plain least squares (lca's); the default weights "
		    "points\nby 1/y^2, fitting relative errors, unless some y is 0",
		    &opt.absolute),
	LC_OPT_FLAG("log2", 0, "accepted for old scripts: log() always means log2\n(write "
		    "ln() for the natural logarithm)", &opt.log2),
	LC_OPT_FILENAME("models", 0, "FILE", "default forms from FILE instead of models.txt",
			&opt.models),
	LC_OPT_FLAG("allow-negative-values", 0, "fit a category with negative values "
		    "(refused\nby default: times are not negative)", &opt.negvalues),
	LC_OPT_FLAG("drop-outliers", 0, "leave out a repeat far from its point's other "
		    "repeats\n(more than 5x the runs' relative noise from their\nmedian; "
		    "listed either way, with file:line)", &opt.drop_outliers),
	LC_OPT_ENUM("aggregate", 0, "HOW", "a point's repeats: mean, median or min "
		    "(default:\nchosen from them: the mean of a symmetric spread,\nthe "
		    "smallest of a right-skewed one)",
		    &opt.aggregate, agg_words),
	LC_OPT_STRING("upto", 0, "\"VAR=V...\"", "the range where a model must not go "
		      "below zero\nreaches V (e.g. the --at of a prediction); the\nmeasured "
		      "range always counts", &opt.upto),
	LC_OPT_FLAG("no-load", 0, "model the program on a machine without other load:\ntt "
		    "less rc (the time runnable but not running);\nthe other categories as "
		    "measured, rc refused", &opt.noload),
	LC_OPT_CALLBACK("max-load", 0, "PCT", "leave out runs whose load= (the share of "
			"the\nprogram's CPUs other processes took, as sweep\nwrites it) exceeds PCT",
			&opt.max_load, opt_pct),
	LC_OPT_STRING("region", 0, "NAME", "fit the runs of region NAME (region=NAME, "
		      "Extra-P's\nREGION or callpath); all (the default): each region\nof "
		      "the runs in turn, its name on each model", &opt.region),
	LC_OPT_FLAG("debug", 'd', "print the points that were fitted", &opt.debug),
	LC_OPT_END(),
};

/* Parse the command line into opt.  -1 to go on, or the exit status (0
 * after --help, 2 after a usage message). */
static int parse_opts(int argc, char **argv)
{
	char keys[64], **forms;
	int n;

	snprintf(cat_help, sizeof(cat_help), "one of: %s\n(rt is pure computation, tt the "
		 "total p x wall), or all:\nevery category the runs give, one after the other",
		 lc_key_list(keys, sizeof(keys)));
	if ((n = lc_opt_parse(argc, argv, opts, usage, &forms)) < 0)
		return LC_OPT_EXIT(n);
	if (n > LC_FITRUN_MAXFORMS) {
		warnx("too many formula arguments");
		return 2;
	}
	for (opt.nforms = 0; opt.nforms < n; opt.nforms++)
		opt.forms[opt.nforms] = forms[opt.nforms];
	if (opt.cat && opt.varlist && opt.runs)
		return -1;
	warnx("-c CATEGORY, -v VARS and -f RUNS are required; see '" PROG " --help'");
	return 2;
}

/* A reason that does not stop the fit: one line on stderr. */
static void note(void *arg, const char *text)
{
	(void)arg;
	warnx("%s", text);
}

/* Say why a step failed (nothing when the reason was given already). */
static int failed(const char *msg)
{
	if (msg[0])
		warnx("%s", msg);
	return 1;
}

/* Fit, print, then the files the options ask for.  The exit status. */
static int run(struct lc_fitrun *fr)
{
	char msg[1024] = "";

	if (lc_fitrun_run(fr, msg, sizeof(msg)))
		return failed(msg);
	lc_fitrun_print(fr, stdout, stderr);
	if (lc_fitrun_plot(fr, stdout, msg, sizeof(msg)) ||
	    lc_fitrun_emit(fr, stdout, stderr, msg, sizeof(msg)) ||
	    lc_fitrun_comment(fr, stdout, msg, sizeof(msg)))
		return failed(msg);
	return fr->user_refused;
}

/* Fit one category (o.cat); the exit status. */
static int fit_one(void)
{
	struct lc_fitrun fr = { .note = note };
	char msg[256];
	int r;

	fr.o = opt;
	if (lc_fitrun_cat(&fr, msg, sizeof(msg))) {
		warnx("%s", msg);
		return 2;
	}
	r = run(&fr);
	lc_fitrun_free(&fr);
	return r;
}

/* -c all: every category some run (of the region) gives a number for,
 * one after the other (a blank line between), but tt when there are
 * others (T(E) is their sum) and rc with --no-load; the exit status is
 * the worst. */
static int fit_all(void)
{
	char cats[128], *save = NULL;
	int n = lc_fitrun_present_cats(opt.from, opt.region, cats, sizeof(cats)), worst = 0, i = 0;

	if (n <= 0) {
		warnx("%s: %s", opt.runs, n ? strerror(-n) : "no run gives a number for any category");
		return 1;
	}
	for (char *c = strtok_r(cats, " ", &save); c; c = strtok_r(NULL, " ", &save), i++) {
		int r;

		if ((opt.noload && !strcmp(c, "rc")) || (!strcmp(c, "tt") && n > 1))
			continue;	/* rc is the load's; tt is the others' sum */
		if (i && opt.format == LC_FITFMT_TEXT)
			printf("\n");
		opt.cat = c;
		r = fit_one();
		worst = r > worst ? r : worst;
	}
	return worst;
}

/* Fit the category (or -c all) in each region of names[0..n) (none: all
 * runs as one); the exit status is the worst. */
static int fit_regions(const char **names, int n)
{
	const char *cat = opt.cat;
	int worst = 0;

	opt.region_files = n > 1;
	for (int i = 0; i < (n ? n : 1); i++) {
		int r;

		if (i && opt.format == LC_FITFMT_TEXT)
			printf("\n");
		opt.region = n ? names[i] : NULL;
		opt.cat = cat;
		r = strcmp(cat, "all") ? fit_one() : fit_all();
		worst = r > worst ? r : worst;
	}
	return worst;
}

/* "lostcycles fit".  See lc_cmd.h. */
int lc_cmd_fit(int argc, char **argv)
{
	static const char *names[LC_FITRUN_MAXREGIONS];
	struct lc_runs *runs;
	char msg[1024];
	int r = parse_opts(argc, argv), n;

	if (r >= 0)
		return r;
	if (lc_fitrun_load(opt.runs, &runs, msg, sizeof(msg)))
		return failed(msg);
	n = lc_fitrun_regions(runs, opt.runs, opt.region, names, msg, sizeof(msg));
	opt.from = runs;
	r = n < 0 ? failed(msg) : fit_regions(names, n);
	lc_runs_free(runs);
	return r;
}
