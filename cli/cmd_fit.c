/*
 * cmd_fit.c — "lostcycles fit": the thesis's lca.  Its options; the fit
 * (postproc/lca_fitrun.c) and its outputs (postproc/lca_fitout.c).
 */
#include "lc_profile.h"
#include "lc_cmd.h"
#include "lc_util.h"
#include "lca_fitrun.h"

#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#define PROG "lostcycles fit"

/* Print the usage text to f. */
static void usage(FILE *f)
{
	char keys[64];

	fprintf(f,
"usage: lostcycles fit -c CATEGORY -v \"VAR [VAR...]\" -f RUNS [options] [FORMULA...]\n"
"\n"
"Fit models of one lost cycles category to the runs in RUNS (lines written by\n"
"'lostcycles report -l', or CSV with a header) and rank them: models with a\n"
"'?' coefficient or a '!' lack of fit last, then by leave-one-out SMAPE, the\n"
"simplest model within one standard error of the best first.\n"
"\n"
"  -c, --category CAT   one of: %s\n"
"                       (rt is pure computation, tt the total p x wall)\n"
"  -v, --vars \"VARS\"    the variable(s) to fit over, e.g. \"p\" or \"n p\"\n"
"  -f, --file RUNS      the runs file\n"
"  -x, --extract EXPR   use only runs where EXPR holds, e.g. \"n=1024\", \"p>=4 d=32\"\n"
"  -g, --gnuplot NAME   write NAME.gp and NAME.data (and NAME.png with gnuplot)\n"
"      --force          with -g: replace those files when they exist\n"
"      --emit FILE      append the best model to the model file FILE\n"
"      --pick N         emit the model ranked N instead of the best\n"
"      --emit-comment   print the best (or --pick) model as a C comment of\n"
"                       lcm: lines for lostcycles compose --extract\n"
"      --prune          refit without terms whose 90%% interval contains zero\n"
"      --nonneg         forbid negative coefficients\n"
"      --search         search c0 + c1*v^i*log2(v)^j (Extra-P normal form), and\n"
"                       for several variables sums of products of the best\n"
"                       factors of each, instead of the default forms\n"
"      --allow-negative search negative exponents too (always for rt)\n"
"      --top N          show the N best models (default: all; 10 with --search)\n"
"      --format FMT     text (default); formula: only the chosen model (or\n"
"                       --pick N) as an expression predict and Python both read;\n"
"                       json or csv: models with coefficients, intervals, R2,\n"
"                       adjusted R2, AICc, leave-one-out and in-sample SMAPE\n"
"      --weights        weight averaged points by count/spread^2\n"
"      --absolute       plain least squares (lca's); the default weights points\n"
"                       by 1/y^2, fitting relative errors, unless some y is 0\n"
"      --log2           accepted for old scripts: log() always means log2\n"
"                       (write ln() for the natural logarithm)\n"
"      --models FILE    default forms from FILE instead of models.txt\n"
"      --allow-negative-values  fit a category with negative values (refused\n"
"                       by default: times are not negative)\n"
"      --drop-outliers  leave out a repeat far from its point's other repeats\n"
"                       (more than 5x the runs' relative noise from their\n"
"                       median; listed either way, with file:line)\n"
"  -d, --debug          print the points that were fitted\n"
"  -h, --help           this text\n"
"\n"
"FORMULA is a sum of terms in the variables' names or x0, x1, ...; each term\n"
"gets a coefficient.  Several formulae: separate arguments, or ',' or ';'.\n"
"See lostcycles-fit(1).\n", lc_key_list(keys, sizeof(keys)));
}

/* Parse a whole number option in [lo, hi]; prints and returns -1 on error. */
static int opt_int(const char *name, const char *s, int lo, int hi, int *out)
{
	uint64_t v;

	if (lc_parse_u64(s, (uint64_t)lo, (uint64_t)hi, &v)) {
		warnx("%s wants a whole number in %d..%d, not '%s'", name, lo, hi, s);
		return -1;
	}
	*out = (int)v;
	return 0;
}

/* Parse --format; prints and returns -1 on error. */
static int opt_format(const char *s, int *out)
{
	static const char *const names[] = { "text", "formula", "json", "csv" };

	for (int i = 0; i < 4; i++)
		if (!strcmp(s, names[i])) {
			*out = i;
			return 0;
		}
	warnx("--format wants text, formula, json or csv, not '%s'", s);
	return -1;
}

enum { O_EMIT = 256, O_PRUNE, O_NONNEG, O_SEARCH, O_MODELS, O_TOP, O_PICK, O_WEIGHTS,
       O_ABSOLUTE, O_LOG2, O_NEGATIVE, O_FORMAT, O_NEGVALUES, O_EMIT_COMMENT,
       O_DROP_OUTLIERS, O_FORCE };

/* Parse the command line into o.  Returns 0, 1 after --help, -1 on error. */
static int parse_opts(int argc, char **argv, struct lc_fitrun_opts *o)
{
	static const struct option lo[] = {
		{ "category", required_argument, 0, 'c' }, { "vars", required_argument, 0, 'v' },
		{ "file", required_argument, 0, 'f' }, { "extract", required_argument, 0, 'x' },
		{ "gnuplot", required_argument, 0, 'g' }, { "emit", required_argument, 0, O_EMIT },
		{ "prune", no_argument, 0, O_PRUNE }, { "nonneg", no_argument, 0, O_NONNEG },
		{ "search", no_argument, 0, O_SEARCH }, { "models", required_argument, 0, O_MODELS },
		{ "top", required_argument, 0, O_TOP }, { "pick", required_argument, 0, O_PICK },
		{ "weights", no_argument, 0, O_WEIGHTS }, { "absolute", no_argument, 0, O_ABSOLUTE },
		{ "log2", no_argument, 0, O_LOG2 }, { "debug", no_argument, 0, 'd' },
		{ "allow-negative", no_argument, 0, O_NEGATIVE },
		{ "format", required_argument, 0, O_FORMAT },
		{ "allow-negative-values", no_argument, 0, O_NEGVALUES },
		{ "emit-comment", no_argument, 0, O_EMIT_COMMENT },
		{ "drop-outliers", no_argument, 0, O_DROP_OUTLIERS },
		{ "force", no_argument, 0, O_FORCE },
		{ "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "c:v:f:x:g:dh", lo, NULL)) != -1) {
		switch (c) {
		case 'c': o->cat = optarg; break;
		case 'v': o->varlist = optarg; break;
		case 'f': o->runs = optarg; break;
		case 'x': o->extract = optarg; break;
		case 'g': o->plot = optarg; break;
		case 'd': o->debug = 1; break;
		case 'h': usage(stdout); return 1;
		case O_EMIT: o->emit = optarg; break;
		case O_PRUNE: o->prune = 1; break;
		case O_NONNEG: o->nonneg = 1; break;
		case O_SEARCH: o->search = 1; break;
		case O_MODELS: o->models = optarg; break;
		case O_WEIGHTS: o->weights = 1; break;
		case O_ABSOLUTE: o->absolute = 1; break;
		case O_LOG2: o->log2 = 1; break;
		case O_NEGATIVE: o->negative = 1; break;
		case O_NEGVALUES: o->negvalues = 1; break;
		case O_FORMAT: if (opt_format(optarg, &o->format)) return -1; break;
		case O_EMIT_COMMENT: o->emit_comment = 1; break;
		case O_DROP_OUTLIERS: o->drop_outliers = 1; break;
		case O_FORCE: o->force = 1; break;
		case O_TOP: if (opt_int("--top", optarg, 1, 100000, &o->top)) return -1; break;
		case O_PICK: if (opt_int("--pick", optarg, 1, 100000, &o->pick)) return -1; break;
		default:
			if (optopt && optopt < 256 && strchr("cvfxg", optopt))
				warnx("option -%c needs a value; see '" PROG " --help'", optopt);
			else
				warnx("unknown option '%s'; see '" PROG " --help'",
					argv[optind - 1]);
			return -1;
		}
	}
	for (; optind < argc; optind++) {
		if (o->nforms == LC_FITRUN_MAXFORMS) {
			warnx("too many formula arguments");
			return -1;
		}
		o->forms[o->nforms++] = argv[optind];
	}
	if (!o->cat || !o->varlist || !o->runs) {
		warnx("-c CATEGORY, -v VARS and -f RUNS are required; see '" PROG " --help'");
		return -1;
	}
	return 0;
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

/* "lostcycles fit".  See lc_cmd.h. */
int lc_cmd_fit(int argc, char **argv)
{
	struct lc_fitrun fr = { .note = note };
	char msg[256];
	int r = parse_opts(argc, argv, &fr.o);

	if (r)
		return r > 0 ? 0 : 2;
	if (lc_fitrun_cat(&fr, msg, sizeof(msg))) {
		warnx("%s", msg);
		return 2;
	}
	r = run(&fr);
	lc_fitrun_free(&fr);
	return r;
}
