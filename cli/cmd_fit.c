/*
 * fit.c — "lostcycles fit": the thesis's lca.  Fits the typical forms of a
 * lost cycles category (or the user's formulae, or a search space) to the
 * runs in a runs file and ranks them; optionally writes gnuplot files and
 * appends the chosen model to a model file for "lostcycles predict".
 */
#include "lc_profile.h"
#include "lc_cmd.h"
#include "lc_util.h"
#include "lca_formula.h"
#include "lca_lsq.h"
#include "lca_model.h"
#include "lca_models.h"
#include "gp_quote.h"
#include "lca_plot.h"
#include "lca_runs.h"
#include "lca_search.h"

#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROG "lostcycles fit"
#define MAXVARS 8
#define MAXCANDS 8192

/* One candidate model and its fit. */
struct cand {
	char *text;			/* as given */
	struct lc_formula *f;		/* what was fitted (after pruning) */
	struct lc_fit fit;
	int ok, user, undefined;
	int ndropped;
	char dropped[256];		/* terms pruned away, as text */
	char also[384];			/* other candidates pruning made equal to this one */
	char why[256];			/* why the fit was refused */
};

/* Output formats (--format). */
enum { FMT_TEXT, FMT_FORMULA, FMT_JSON, FMT_CSV };

/* The command line. */
struct opts {
	const char *cat, *varlist, *runs, *extract, *plot, *emit, *models;
	int format;			/* FMT_* */
	int prune, nonneg, search, weights, absolute, log2, debug, top, pick, negative, negvalues;
	int emit_comment, drop_outliers, force;
	const char *forms[64];
	int nforms;
};

/* Everything a run of the command holds; freed by fitcmd_free. */
struct fitcmd {
	struct opts o;
	const struct lc_cat_info *cat;
	char *vars[MAXVARS];
	int nvars;
	struct lc_runs *runs;
	int varkey[MAXVARS], ykey;
	struct lc_expr *cond;
	struct lc_points pts;
	struct cand *cands;
	int ncands;
	int status;
	struct lc_select sel;
	struct lc_search_info search;
	int nundef;			/* default or search forms left out as undefined */
	char undef_at[64];		/* a point where one is undefined */
};

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
static int parse_opts(int argc, char **argv, struct opts *o)
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
		if (o->nforms == (int)(sizeof(o->forms) / sizeof(o->forms[0]))) {
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

/* Split the -v list into cmd->vars.  Prints and returns -1 on error. */
static int split_vars(struct fitcmd *cmd)
{
	const char *s = cmd->o.varlist, *w;
	size_t len;

	while ((w = lc_next_word(&s, NULL, ",", &len))) {
		if (cmd->nvars == MAXVARS) {
			warnx("at most %d variables", MAXVARS);
			return -1;
		}
		cmd->vars[cmd->nvars] = strndup(w, len);
		if (!cmd->vars[cmd->nvars])
			return -1;
		cmd->nvars++;
	}
	if (!cmd->nvars) {
		warnx("-v names no variable");
		return -1;
	}
	return 0;
}

/* Resolve a formula identifier: a -v variable's name or x<i>. */
static int resolve_var(void *ctx, const char *name, size_t len)
{
	const struct fitcmd *cmd = ctx;
	char *end;
	long i;

	for (int v = 0; v < cmd->nvars; v++)
		if (strlen(cmd->vars[v]) == len && !strncmp(cmd->vars[v], name, len))
			return v;
	if (len >= 2 && name[0] == 'x' && isdigit((unsigned char)name[1])) {
		i = strtol(name + 1, &end, 10);
		if (end == name + len && i < cmd->nvars)
			return (int)i;
	}
	return -1;
}

/* Resolve an extraction identifier: any name in the runs file. */
static int resolve_key(void *ctx, const char *name, size_t len)
{
	return lc_runs_find_key(ctx, name, len);
}

/* Print a parse error of text (what it is) with a caret under the column. */
static void parse_error(const char *what, const char *text, const struct lc_parse_error *pe)
{
	warnx("%s '%s': column %d: %s", what, text, pe->column, pe->msg);
	fprintf(stderr, "    %s\n    %*s^\n", text, pe->column - 1, "");
}

/* True (after saying where) when some run has a negative value of the
 * category. */
static int negative_value(const struct fitcmd *cmd)
{
	for (size_t i = 0; i < lc_runs_count(cmd->runs); i++) {
		double v;

		if (lc_runs_get(cmd->runs, i, cmd->ykey, &v) != LC_CELL_VALUE || v >= 0)
			continue;
		warnx("%s:%d: %s=%g is negative: a time cannot be "
			"(--allow-negative-values fits it anyway)", cmd->o.runs,
			lc_runs_line(cmd->runs, i), cmd->cat->key, v);
		return 1;
	}
	return 0;
}

/* Print every run skipped for lacking a value, as file:line and the key, to
 * f. */
static void print_skipped(const struct fitcmd *cmd, FILE *f)
{
	const struct lc_points *p = &cmd->pts;

	for (size_t i = 0; i < p->missing; i++)
		fprintf(f, "%sskipped %s:%d: no value for %s\n", f == stderr ? PROG ": " : "",
			cmd->o.runs, p->skip_line[i], lc_runs_keyname(cmd->runs, p->skip_key[i]));
}

/* The variables' values at point k as "n=256 p=4", into buf. */
static void point_text(const struct fitcmd *cmd, size_t k, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int v = 0; v < cmd->nvars && used < len; v++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%g", v ? " " : "",
					 cmd->vars[v], cmd->pts.x[k * (size_t)cmd->nvars + (size_t)v]);
}

/* Print the repeats far from their point's other repeats, to f. */
static void print_outliers(const struct fitcmd *cmd, FILE *f)
{
	const struct lc_points *p = &cmd->pts;
	const char *pre = f == stderr ? PROG ": " : "";
	int kept = 0;
	char at[160];

	for (size_t i = 0; i < p->nout; i++) {
		const struct lc_outlier *o = &p->out[i];

		point_text(cmd, o->point, at, sizeof(at));
		fprintf(f, "%soutlier%s %s:%d: %s=%g at %s, where its repeats' median is %g: %.3g "
			"times the runs' noise (%.3g %%)%s\n", pre, o->dropped ? " left out" : "",
			cmd->o.runs, o->line, cmd->cat->key, o->y, at, o->median, o->dev,
			100 * p->noise, o->paired ? "; of two repeats, which is wrong cannot be told" : "");
		kept |= !o->dropped && !o->paired;
	}
	if (kept && !cmd->o.drop_outliers)
		fprintf(f, "%soutliers are averaged in; --drop-outliers leaves them out\n", pre);
	else if (kept)
		fprintf(f, "%soutliers are kept where half or more of a point's repeats are outliers\n",
			pre);
}

/* Read the runs and find the variables, category and extraction. */
static int load_runs(struct fitcmd *cmd)
{
	struct lc_runs_error re;
	struct lc_parse_error pe;
	int rc = lc_runs_read(cmd->o.runs, &cmd->runs, &re);

	if (rc == -EINVAL) {
		warnx("%s:%d: %s: '%s'", cmd->o.runs, re.line, re.msg, re.token);
		return -1;
	}
	if (rc) {
		warnx("%s: %s", cmd->o.runs, strerror(-rc));
		return -1;
	}
	if (lc_runs_count(cmd->runs) == 0) {
		warnx("%s: no runs: the file is empty or holds only comments and "
			"blank lines", cmd->o.runs);
		return -1;
	}
	for (int v = 0; v < cmd->nvars; v++) {
		cmd->varkey[v] = lc_runs_find_key(cmd->runs, cmd->vars[v], strlen(cmd->vars[v]));
		if (cmd->varkey[v] < 0) {
			warnx("unknown variable '%s': no run in %s has it",
				cmd->vars[v], cmd->o.runs);
			return -1;
		}
	}
	cmd->ykey = lc_runs_find_key(cmd->runs, cmd->cat->key, strlen(cmd->cat->key));
	if (cmd->ykey < 0) {
		warnx("category '%s' does not appear in %s", cmd->cat->key, cmd->o.runs);
		return -1;
	}
	if (!cmd->o.negvalues && negative_value(cmd))
		return -1;
	if (cmd->o.extract &&
	    lc_expr_parse_cond(cmd->o.extract, 0, resolve_key, cmd->runs, &cmd->cond, &pe)) {
		parse_error("extraction", cmd->o.extract, &pe);
		return -1;
	}
	return 0;
}

/* Build the points; explain and fail when none are left. */
static int build_points(struct fitcmd *cmd)
{
	struct lc_points *p = &cmd->pts;

	if (lc_points_build(cmd->runs, cmd->varkey, cmd->nvars, cmd->ykey, cmd->cond,
			    cmd->o.drop_outliers ? LC_POINTS_DROP_OUTLIERS : 0, p)) {
		warnx("out of memory");
		return -1;
	}
	if (p->n > 0)
		return 0;
	if (p->na > 0 && p->missing == 0)
		warnx("%s is 'na' in all %zu selected runs of %s "
			"(not measured on that machine); nothing to fit",
			cmd->cat->key, p->na, cmd->o.runs);
	else if (p->excluded && !p->na && !p->missing)
		warnx("-x '%s' selects none of the %zu runs in %s",
			cmd->o.extract, p->excluded, cmd->o.runs);
	else {
		char first[160] = "";

		if (p->missing)
			snprintf(first, sizeof(first), " (first %s:%d: no value for %s)", cmd->o.runs,
				 p->skip_line[0], lc_runs_keyname(cmd->runs, p->skip_key[0]));
		warnx("no run in %s has %s and all of -v \"%s\" "
			"(%zu with %s 'na', %zu lacking a value%s, %zu not selected)",
			cmd->o.runs, cmd->cat->key, cmd->o.varlist, p->na, cmd->cat->key,
			p->missing, first, p->excluded);
	}
	return -1;
}

/* The fit flags from the options. */
static unsigned fit_flags(const struct fitcmd *cmd)
{
	return (cmd->o.nonneg ? LC_FIT_NONNEG : 0) | (cmd->o.weights ? LC_FIT_WEIGHTS : 0) |
	       (cmd->o.absolute ? 0 : LC_FIT_RELATIVE);
}

/* Add a candidate with formula text (a copy is kept). */
static int add_cand(struct fitcmd *cmd, const char *text, size_t len, int user)
{
	struct cand *c;

	while (len && isspace((unsigned char)*text)) {
		text++;
		len--;
	}
	while (len && isspace((unsigned char)text[len - 1]))
		len--;
	if (!len)
		return 0;
	if (cmd->ncands == MAXCANDS) {
		warnx("more than %d models", MAXCANDS);
		return -1;
	}
	c = &cmd->cands[cmd->ncands];
	*c = (struct cand){ .user = user };
	c->text = strndup(text, len);
	if (!c->text)
		return -1;
	cmd->ncands++;
	return 0;
}

/* Add the formulae in one argument, split at top-level ',' and ';'. */
static int add_user_forms(struct fitcmd *cmd, const char *s)
{
	int depth = 0;
	const char *start = s;

	for (;; s++) {
		if (*s == '(')
			depth++;
		else if (*s == ')')
			depth--;
		if (*s && !(depth <= 0 && (*s == ',' || *s == ';')))
			continue;
		if (add_cand(cmd, start, (size_t)(s - start), 1))
			return -1;
		if (!*s)
			return 0;
		start = s + 1;
	}
}

/* Add the default forms for the category and variables. */
static int add_defaults(struct fitcmd *cmd)
{
	char path[4096], **forms;
	int n, line, rc;

	if (cmd->o.models)
		snprintf(path, sizeof(path), "%s", cmd->o.models);
	else if (lc_models_path(path, sizeof(path))) {
		warnx("cannot find models.txt (set LOSTCYCLES_MODELS or use --models)");
		return -1;
	}
	rc = lc_models_load(path, cmd->cat->key, (const char *const *)cmd->vars, cmd->nvars,
			    &forms, &n, &line);
	if (rc == -EINVAL) {
		warnx("%s:%d: expected 'CATEGORY VARIABLE... : FORMULA'", path, line);
		return -1;
	}
	if (rc) {
		warnx("%s: %s", path, strerror(-rc));
		return -1;
	}
	for (int i = 0; i < n && !rc; i++)
		rc = add_cand(cmd, forms[i], strlen(forms[i]), 0);
	lc_strv_free(forms, n);
	if (!rc && n == 0 && cmd->ncands == 0) {
		warnx("no default models for %s over \"%s\" in %s; "
			"give formulae or use --search", cmd->cat->key, cmd->o.varlist, path);
		return -1;
	}
	return rc;
}

/* True when negative exponents are searched: --allow-negative, or a
 * category that can shrink as a variable grows (rt, the work each
 * processor does). */
static int negative_ok(const struct fitcmd *cmd)
{
	return cmd->o.negative || !strcmp(cmd->cat->key, "rt");
}

/* Add the --search hypotheses. */
static int add_search(struct fitcmd *cmd)
{
	char **h;
	int n, rc = lc_search_hypotheses((const char *const *)cmd->vars, cmd->nvars, &cmd->pts,
					 negative_ok(cmd) ? LC_SEARCH_NEGATIVE : 0,
					 fit_flags(cmd), &h, &n, &cmd->search);

	if (rc == -E2BIG) {
		warnx("--search handles one to three variables");
		return -1;
	}
	if (rc == -EDOM) {
		warnx("--search: no form is defined at every point (%s)",
			cmd->search.undefined_at);
		return -1;
	}
	if (rc) {
		warnx("out of memory");
		return -1;
	}
	for (int i = 0; i < n && !rc; i++)
		rc = add_cand(cmd, h[i], strlen(h[i]), 0);
	lc_strv_free(h, n);
	return rc;
}

/* Collect every candidate: the user's formulae, then defaults or search. */
static int collect(struct fitcmd *cmd)
{
	cmd->cands = calloc(MAXCANDS, sizeof(*cmd->cands));
	if (!cmd->cands)
		return -1;
	for (int i = 0; i < cmd->o.nforms; i++)
		if (add_user_forms(cmd, cmd->o.forms[i]))
			return -1;
	if (cmd->o.search)
		return add_search(cmd);
	if (cmd->o.nforms == 0)
		return add_defaults(cmd);
	return 0;
}

/* Parse every candidate; a syntax error in any formula is fatal. */
static int parse_cands(struct fitcmd *cmd)
{
	unsigned flags = LC_EXPR_LOG2;	/* one base everywhere */

	for (int i = 0; i < cmd->ncands; i++) {
		struct cand *c = &cmd->cands[i];
		struct lc_parse_error pe;
		int rc = lc_formula_parse(c->text, flags, resolve_var, cmd, &c->f, &pe);

		if (rc == -ENOMEM)
			return -1;
		if (rc) {
			parse_error(c->user ? "formula" : "default formula", c->text, &pe);
			return -1;
		}
	}
	return 0;
}

/* Note the terms of f that pruning dropped into c->dropped. */
static void note_dropped(struct cand *c, const struct lc_formula *f, const int *dropped,
			 const char *const *names)
{
	size_t used = 0;

	for (int t = 0; t < f->nterms; t++) {
		if (!dropped[t] || used >= sizeof(c->dropped))
			continue;
		if (used)
			used += (size_t)snprintf(c->dropped + used, sizeof(c->dropped) - used, ", ");
		if (used < sizeof(c->dropped))
			used += (size_t)lc_expr_print(f->term[t], names, 6, c->dropped + used,
						      sizeof(c->dropped) - used);
		c->ndropped++;
	}
}

/* Fit one candidate (pruning it with --prune). */
static int fit_cand(struct fitcmd *cmd, struct cand *c)
{
	const char *const *names = (const char *const *)cmd->vars;
	int rc, dropped[LC_LSQ_MAXK];
	struct lc_formula *g;

	if (!cmd->o.prune) {
		rc = lc_fit_formula(c->f, &cmd->pts, fit_flags(cmd) | LC_FIT_NOLOO, names, &c->fit,
				    c->why, sizeof(c->why));
	} else {
		rc = lc_fit_prune(c->f, &cmd->pts, fit_flags(cmd) | LC_FIT_NOLOO, names, &g, dropped,
				  &c->fit, c->why, sizeof(c->why));
		if (g != c->f) {
			note_dropped(c, c->f, dropped, names);
			lc_formula_free(c->f);
			c->f = g;
		}
	}
	c->ok = rc == 0;
	return rc == -ENOMEM ? -1 : 0;
}

/* Put the fitted candidates in the order of lc_fit_select, refused ones
 * last.  Returns 0 or -1 when out of memory. */
static int rank(struct fitcmd *cmd)
{
	int n = 0, m = 0, *order = malloc(sizeof(int) * (size_t)(cmd->ncands + 1)), rc = -1;
	const struct lc_formula **f = malloc(sizeof(*f) * (size_t)(cmd->ncands + 1));
	struct lc_fit **fit = malloc(sizeof(*fit) * (size_t)(cmd->ncands + 1));
	struct cand *sorted = malloc(sizeof(*sorted) * (size_t)(cmd->ncands + 1));
	int *idx = malloc(sizeof(int) * (size_t)(cmd->ncands + 1));

	if (!order || !f || !fit || !sorted || !idx)
		goto out;
	for (int i = 0; i < cmd->ncands; i++)
		if (cmd->cands[i].ok) {
			idx[n] = i;
			f[n] = cmd->cands[i].f;
			fit[n++] = &cmd->cands[i].fit;
		}
	if (lc_fit_select(f, fit, n, &cmd->pts, fit_flags(cmd), (const char *const *)cmd->vars,
			  order, &cmd->sel))
		goto out;
	for (int i = 0; i < n; i++)
		sorted[m++] = cmd->cands[idx[order[i]]];
	for (int i = 0; i < cmd->ncands; i++)
		if (!cmd->cands[i].ok)
			sorted[m++] = cmd->cands[i];
	if (cmd->sel.promoted >= 0) {	/* the rule moved model 2 of the order to the top */
		cmd->sel.promoted = 0;
		cmd->sel.promoted_over = 1;
	}
	memcpy(cmd->cands, sorted, sizeof(*sorted) * (size_t)m);
	rc = 0;
out:
	free(order);
	free(f);
	free(fit);
	free(sorted);
	free(idx);
	return rc;
}

/* Remove later candidates whose fitted formula prints the same as an
 * earlier one (pruning can make two candidates equal). */
static void dedupe(struct fitcmd *cmd)
{
	const char *const *names = (const char *const *)cmd->vars;
	char a[512], b[512];
	int n = 0;

	for (int i = 0; i < cmd->ncands; i++) {
		int dup = 0, j;

		lc_formula_print(cmd->cands[i].f, NULL, names, 6, a, sizeof(a));
		for (j = 0; j < n && !dup && cmd->cands[i].ok; j++) {
			lc_formula_print(cmd->cands[j].f, NULL, names, 6, b, sizeof(b));
			dup = cmd->cands[j].ok && !strcmp(a, b);
		}
		if (dup) {
			struct cand *k = &cmd->cands[j - 1], *c = &cmd->cands[i];
			size_t used = strlen(k->also);

			if (c->ndropped && used < sizeof(k->also))
				snprintf(k->also + used, sizeof(k->also) - used, "%s'%s' (dropped %s)",
					 used ? ", " : "", c->text, c->dropped);
			lc_formula_free(cmd->cands[i].f);
			free(cmd->cands[i].text);
			continue;
		}
		cmd->cands[n++] = cmd->cands[i];
	}
	cmd->ncands = n;
}

/* True when some term of c is not finite at some point; the first such
 * point goes to cmd->undef_at. */
static int undefined(struct fitcmd *cmd, const struct cand *c)
{
	const struct lc_points *p = &cmd->pts;

	for (size_t i = 0; i < p->n; i++)
		for (int t = 0; t < c->f->nterms; t++) {
			const double *x = &p->x[i * (size_t)p->nvars];
			size_t used = 0;

			if (isfinite(lc_expr_eval(c->f->term[t], x)))
				continue;
			for (int v = 0; v < cmd->nvars && !cmd->undef_at[0]; v++)
				used += (size_t)snprintf(cmd->undef_at + used, sizeof(cmd->undef_at) - used,
							 "%s%s=%g", v ? " " : "", cmd->vars[v], x[v]);
			(void)used;
			return 1;
		}
	return 0;
}

/* Fit all candidates, report refusals, rank.  Default and search forms
 * that are not defined at every point are left out (and counted). */
static int fit_all(struct fitcmd *cmd)
{
	int nok = 0;

	for (int i = 0; i < cmd->ncands; i++) {
		struct cand *c = &cmd->cands[i];

		if (!c->user && undefined(cmd, c)) {
			c->undefined = 1;
			cmd->nundef++;
			continue;
		}
		if (fit_cand(cmd, c))
			return -1;
		nok += c->ok;
		if (!c->ok && (c->user || !cmd->o.search)) {
			warnx("model '%s' refused: %s", c->text, c->why);
			if (c->user)
				cmd->status = 1;
		}
	}
	if (!nok) {
		if ((cmd->nundef || cmd->search.undefined) && !cmd->o.nforms)
			warnx("every form is undefined at some point (%s)",
				cmd->undef_at);
		else if (cmd->o.search)	/* otherwise each refusal was reported above */
			warnx("no model could be fitted to the %zu points", cmd->pts.n);
		return -1;
	}
	if (cmd->o.prune)
		dedupe(cmd);
	if (rank(cmd)) {
		warnx("out of memory");
		return -1;
	}
	return 0;
}

/* Free everything cmd holds. */
static void fitcmd_free(struct fitcmd *cmd)
{
	for (int i = 0; i < cmd->ncands; i++) {
		free(cmd->cands[i].text);
		lc_formula_free(cmd->cands[i].f);
	}
	free(cmd->cands);
	for (int v = 0; v < cmd->nvars; v++)
		free(cmd->vars[v]);
	lc_points_free(&cmd->pts);
	lc_expr_free(cmd->cond);
	lc_runs_free(cmd->runs);
}

/* How many candidates to show: --top, else all (10 with --search). */
static int shown(const struct fitcmd *cmd)
{
	int n = 0, top = cmd->o.top ? cmd->o.top : cmd->o.search ? 10 : MAXCANDS;

	while (n < cmd->ncands && cmd->cands[n].ok && n < top)
		n++;
	return n;
}

/* Write the coefficient terms [from, to) of a fit as "(c +/- h) * term"
 * joined by " + " into the buffer at *used. */
static void model_sum(const struct cand *c, int from, int to, const char *const *names,
		      char *buf, size_t len, size_t *used)
{
	const struct lc_fit *fit = &c->fit;

	if (from == to && *used < len)
		*used += (size_t)snprintf(buf + *used, len - *used, "0");
	for (int t = from; t < to && *used < len; t++) {
		char term[256];
		int one;

		lc_expr_print(c->f->term[t], names, 6, term, sizeof(term));
		one = !strcmp(term, "1");
		if (fit->zero[t])
			*used += (size_t)snprintf(buf + *used, len - *used, "%s(0, held)%s%s",
						  t > from ? " + " : "", one ? "" : " * ", one ? "" : term);
		else
			*used += (size_t)snprintf(buf + *used, len - *used, "%s(%.4g +/- %.4g)%s%s%s",
						  t > from ? " + " : "", fit->coef[t], fit->half[t],
						  fit->flagged[t] ? "?" : "", one ? "" : " * ",
						  one ? "" : term);
	}
}

/* The text of a fitted candidate as lca printed it, into buf. */
static void model_text(const struct fitcmd *cmd, const struct cand *c, char *buf, size_t len)
{
	const char *const *names = (const char *const *)cmd->vars;
	size_t used = 0;

	buf[0] = '\0';
	if (!c->f->is_max) {
		model_sum(c, 0, c->f->nterms, names, buf, len, &used);
		return;
	}
	used = (size_t)snprintf(buf, len, "max(");
	model_sum(c, 0, c->f->na, names, buf, len, &used);
	if (used < len)
		used += (size_t)snprintf(buf + used, len - used, ", ");
	model_sum(c, c->f->na, c->f->nterms, names, buf, len, &used);
	if (used < len)
		snprintf(buf + used, len - used, ")  [threshold %s ~ %.4g]", names[0], c->fit.threshold);
}

/* Print the fitted points (-d). */
static void print_points(const struct fitcmd *cmd)
{
	const struct lc_points *p = &cmd->pts;

	printf("points:");
	for (int v = 0; v < cmd->nvars; v++)
		printf(" %10s", cmd->vars[v]);
	printf(" %12s %12s %5s\n", cmd->cat->key, "spread", "runs");
	for (size_t i = 0; i < p->n; i++) {
		printf("       ");
		for (int v = 0; v < cmd->nvars; v++)
			printf(" %10g", p->x[i * (size_t)cmd->nvars + (size_t)v]);
		printf(" %12.6g %12.4g %5d\n", p->y[i], p->sd[i], p->count[i]);
	}
}

/* Print the header lines: what was fitted to what. */
static void print_header(const struct fitcmd *cmd)
{
	const struct lc_points *p = &cmd->pts;
	int weighted = cmd->cands[0].fit.weighted;

	printf("lostcycles fit %s\n", LC_TOOL_VERSION);
	printf("Datafile: %s, Variable%s: %s, Category: %s (%s), Constraints: %s\n", cmd->o.runs,
	       cmd->nvars > 1 ? "s" : "", cmd->o.varlist, cmd->cat->key, cmd->cat->desc,
	       cmd->o.extract ? cmd->o.extract : "none");
	printf("%zu point%s from %zu run%s", p->n, p->n == 1 ? "" : "s", p->used,
	       p->used == 1 ? "" : "s");
	if (p->used > p->n)
		printf(" (repeats averaged%s)", weighted == 1 ? ", weighted by count/spread^2" : "");
	if (p->na)
		printf("; %zu run%s with %s=na skipped", p->na, p->na == 1 ? "" : "s", cmd->cat->key);
	if (p->missing)
		printf("; %zu run%s lacking a value skipped (below)", p->missing,
		       p->missing == 1 ? "" : "s");
	if (p->excluded)
		printf("; %zu not selected by -x", p->excluded);
	printf("%s\n", weighted == 2 ? "; relative errors (weights 1/y^2)" :
		       weighted == 1 ? "" : cmd->o.absolute ? "; plain least squares" :
		       "; plain least squares (a value is 0)");
	print_skipped(cmd, stdout);
	print_outliers(cmd, stdout);
}

/* True when some candidate has a finite AICc. */
static int any_aicc(const struct fitcmd *cmd)
{
	for (int i = 0; i < cmd->ncands; i++)
		if (isfinite(cmd->cands[i].fit.aicc))
			return 1;
	return 0;
}

/* Print what was tried and how it was ranked. */
static void print_rule(const struct fitcmd *cmd)
{
	static const char *const crit[] = {
		[LC_CRIT_LOO] = "leave-one-out SMAPE",
		[LC_CRIT_AICC] = "AICc (too few points to leave one out)",
		[LC_CRIT_R2] = "R2 (too few points for leave-one-out or AICc)",
	};
	int tried = cmd->ncands;

	if (cmd->o.search && cmd->nvars == 1)
		printf("search: %d hypotheses: c0, and c0 + c1*f and c1*f for f = %s^i*log2(%s)^j, "
		       "i in %s..3, j in 0..2\n", tried, cmd->vars[0], cmd->vars[0],
		       negative_ok(cmd) ? "-2" : "0");
	else if (cmd->o.search)
		printf("search: %d hypotheses: sums of up to two products of the best %d factors "
		       "v^i*log2(v)^j (i in %s..3) of each variable, found along lines of the others\n",
		       tried, cmd->search.kept[0], negative_ok(cmd) ? "-2" : "0");
	if (cmd->search.undefined)
		printf("note: %d factor%s v^i*log2(v)^j undefined at %s (log of 0, or a negative power "
		       "of 0) left out\n", cmd->search.undefined, cmd->search.undefined == 1 ? "" : "s",
		       cmd->search.undefined_at);
	if (cmd->nundef)
		printf("note: %d form%s undefined at %s (log of 0, or a negative power of 0) left out\n",
		       cmd->nundef, cmd->nundef == 1 ? "" : "s", cmd->undef_at);
	if (cmd->sel.crit == LC_CRIT_LOO)
		printf("ranked by leave-one-out SMAPE over the %d best by %s; '?' and '!' "
		       "models last; the simplest within one standard error first\n", cmd->sel.shortlist,
		       any_aicc(cmd) ? "AICc (then R2)" : "R2 (too few points for AICc)");
	else
		printf("ranked by %s; '?' and '!' models last%s\n", crit[cmd->sel.crit],
		       cmd->sel.crit == LC_CRIT_AICC ? "; the simplest within 2 of the best first" : "");
	if (cmd->sel.promoted >= 0)
		printf("note: model 1 has fewer parameters or simpler terms than model 2 and is within "
		       "one standard error of it\n");
}

/* Print the ranked models, lca style, with the extra columns. */
static void report(const struct fitcmd *cmd)
{
	int n = shown(cmd), width = 20, anyflag = 0, anylof = 0, anyinf = 0;
	char text[1024];

	print_header(cmd);
	if (cmd->o.debug)
		print_points(cmd);
	print_rule(cmd);
	for (int i = 0; i < n; i++) {
		model_text(cmd, &cmd->cands[i], text, sizeof(text));
		if ((int)strlen(text) > width)
			width = (int)strlen(text) < 72 ? (int)strlen(text) : 72;
	}
	for (int i = 0; i < n; i++) {
		const struct cand *c = &cmd->cands[i];
		const struct lc_fit *f = &c->fit;

		model_text(cmd, c, text, sizeof(text));
		anyflag |= f->nflagged > 0;
		printf("%2d. %-*s  R2 : %.4f  adjR2 : %.4f  AICc : ", i + 1, width, text, f->r2,
		       f->adjr2);
		if (isfinite(f->aicc))
			printf("%9.3f", f->aicc);
		else
			printf("%9s", "-"), anyinf = 1;
		printf("  LOO-SMAPE : ");
		if (isnan(f->smape))
			printf("   -");
		else
			printf("%.3g%%", f->smape);
		printf("  in-sample SMAPE : %.3g%%%s\n", f->smape_in, f->lof ? "  !" : "");
		anylof |= f->lof;
		if (c->ndropped)
			printf("    pruned from '%s': dropped %s\n", c->text, c->dropped);
		if (c->also[0])
			printf("    also what pruning left of %s\n", c->also);
	}
	if (anyflag)
		printf("? the 90%% interval contains zero: the term cannot be told from zero; "
		       "drop it (--prune)\n");
	if (anylof)
		printf("! lack of fit: the misfit exceeds the spread of the repeated runs "
		       "(F test, p < %g)\n", LC_LOF_LEVEL);
	if (anyinf)
		printf("AICc - : too few points (AICc needs more points than the coefficients "
		       "plus the variance, plus one)\n");
}

/* The fitted model c as an expression predict and Python both evaluate
 * (coefficients with 10 digits, ** for powers), into buf. */
static void model_formula(const struct fitcmd *cmd, const struct cand *c, char *buf, size_t len)
{
	char tmp[2048];
	size_t used = 0;

	lc_formula_print(c->f, c->fit.coef, (const char *const *)cmd->vars, 10, tmp, sizeof(tmp));
	for (const char *q = tmp; *q && used + 3 < len; q++) {
		if (*q == '^') {
			buf[used++] = '*';
			buf[used++] = '*';
		} else {
			buf[used++] = *q;
		}
	}
	buf[used] = '\0';
}

/* Print a JSON number, null when not finite. */
static void json_num(double v)
{
	if (isfinite(v))
		printf("%.10g", v);
	else
		printf("null");
}

/* The name of the ranking criterion, for json and csv. */
static const char *crit_name(enum lc_crit c)
{
	return c == LC_CRIT_LOO ? "loo_smape" : c == LC_CRIT_AICC ? "aicc" : "r2";
}

/* One model as a JSON object. */
static void json_model(const struct fitcmd *cmd, const struct cand *c, int rank)
{
	const struct lc_fit *f = &c->fit;
	char text[2048];

	model_formula(cmd, c, text, sizeof(text));
	printf("    {\"rank\": %d, \"formula\": ", rank);
	lc_json_str(stdout, text);
	printf(", \"terms\": [");
	for (int t = 0; t < c->f->nterms; t++) {
		lc_expr_print(c->f->term[t], (const char *const *)cmd->vars, 10, text, sizeof(text));
		printf("%s{\"term\": ", t ? ", " : "");
		lc_json_str(stdout, text);
		printf(", \"coef\": ");
		json_num(f->coef[t]);
		printf(", \"interval90\": [");
		json_num(f->coef[t] - f->half[t]);
		printf(", ");
		json_num(f->coef[t] + f->half[t]);
		printf("], \"contains_zero\": %s, \"held_at_zero\": %s}", f->flagged[t] ? "true" : "false",
		       f->zero[t] ? "true" : "false");
	}
	printf("],\n     \"threshold\": ");
	json_num(c->f->is_max ? f->threshold : NAN);
	printf(", \"r2\": ");
	json_num(f->r2);
	printf(", \"adj_r2\": ");
	json_num(f->adjr2);
	printf(", \"aicc\": ");
	json_num(f->aicc);
	printf(", \"loo_smape_percent\": ");
	json_num(f->smape);
	printf(", \"loo_smape_se\": ");
	json_num(f->smape_se);
	printf(", \"insample_smape_percent\": ");
	json_num(f->smape_in);
	printf(", \"lack_of_fit_p\": ");
	json_num(f->lof_p);
	printf(", \"lack_of_fit\": %s", f->lof ? "true" : "false");
	printf(", \"dof\": %d}", f->dof);
}

/* --format json: the data, the rule and the shown models. */
static void report_json(const struct fitcmd *cmd)
{
	const struct lc_points *p = &cmd->pts;
	int n = shown(cmd);

	printf("{\"file\": ");
	lc_json_str(stdout, cmd->o.runs);
	printf(", \"category\": ");
	lc_json_str(stdout, cmd->cat->key);
	printf(", \"variables\": [");
	for (int v = 0; v < cmd->nvars; v++) {
		printf("%s", v ? ", " : "");
		lc_json_str(stdout, cmd->vars[v]);
	}
	printf("], \"extract\": ");
	if (cmd->o.extract)
		lc_json_str(stdout, cmd->o.extract);
	else
		printf("null");
	printf(",\n  \"points\": %zu, \"runs\": %zu, \"runs_na\": %zu, \"runs_missing\": %zu, "
	       "\"weights\": \"%s\", \"hypotheses\": %d, \"undefined_left_out\": %d,\n",
	       p->n, p->used, p->na, p->missing,
	       cmd->cands[0].fit.weighted == 2 ? "relative" : cmd->cands[0].fit.weighted == 1 ?
	       "spread" : "none", cmd->ncands, cmd->nundef + cmd->search.undefined);
	printf("  \"ranked_by\": \"%s\", \"cross_validated\": %d, \"simpler_promoted\": %s,\n",
	       crit_name(cmd->sel.crit), cmd->sel.shortlist, cmd->sel.promoted >= 0 ? "true" : "false");
	printf("  \"models\": [\n");
	for (int i = 0; i < n; i++) {
		json_model(cmd, &cmd->cands[i], i + 1);
		printf("%s\n", i + 1 < n ? "," : "");
	}
	printf("  ]}\n");
}

/* Print a CSV number (empty when not finite). */
static void csv_num(double v)
{
	if (isfinite(v))
		printf(",%.10g", v);
	else
		printf(",");
}

/* --format csv: one row per shown model. */
static void report_csv(const struct fitcmd *cmd)
{
	int n = shown(cmd);
	char text[2048];

	printf("rank,formula,r2,adj_r2,aicc,loo_smape_percent,loo_smape_se,insample_smape_percent,"
	       "contains_zero,lack_of_fit_p,ranked_by\n");
	for (int i = 0; i < n; i++) {
		const struct lc_fit *f = &cmd->cands[i].fit;

		model_formula(cmd, &cmd->cands[i], text, sizeof(text));
		printf("%d,\"%s\"", i + 1, text);
		csv_num(f->r2);
		csv_num(f->adjr2);
		csv_num(f->aicc);
		csv_num(f->smape);
		csv_num(f->smape_se);
		csv_num(f->smape_in);
		printf(",%d", f->nflagged);
		csv_num(f->lof_p);
		printf(",%s\n", crit_name(cmd->sel.crit));
	}
}

/* Notes for the machine formats go to stderr, one line each. */
static void notes_stderr(const struct fitcmd *cmd)
{
	if (cmd->search.undefined)
		warnx("note: %d factor%s undefined at %s left out",
			cmd->search.undefined, cmd->search.undefined == 1 ? "" : "s",
			cmd->search.undefined_at);
	if (cmd->nundef)
		warnx("note: %d form%s undefined at %s left out", cmd->nundef,
			cmd->nundef == 1 ? "" : "s", cmd->undef_at);
}

/* Print the result in the chosen --format. */
static void output(const struct fitcmd *cmd)
{
	char text[2048];
	int pick = cmd->o.pick ? cmd->o.pick : 1;

	if (cmd->o.format == FMT_TEXT) {
		report(cmd);
		return;
	}
	notes_stderr(cmd);
	print_skipped(cmd, stderr);
	print_outliers(cmd, stderr);
	if (cmd->o.format == FMT_JSON) {
		report_json(cmd);
	} else if (cmd->o.format == FMT_CSV) {
		report_csv(cmd);
	} else if (pick <= cmd->ncands && cmd->cands[pick - 1].ok) {
		model_formula(cmd, &cmd->cands[pick - 1], text, sizeof(text));
		printf("%s\n", text);
	}
}

/* Write the gnuplot data file: the points, then every shown model sampled
 * over the range of the variable. */
static int plot_data(const struct fitcmd *cmd, const char *path, int n)
{
	const struct lc_points *p = &cmd->pts;
	double lo = INFINITY, hi = -INFINITY;
	FILE *f = lc_out_fopen(path);

	if (!f)
		return -errno;
	fprintf(f, "# %s %s spread runs\n", cmd->vars[0], cmd->cat->key);
	for (size_t i = 0; i < p->n; i++) {
		fprintf(f, "%.10g %.10g %.10g %d\n", p->x[i], p->y[i], p->sd[i], p->count[i]);
		lo = fmin(lo, p->x[i]);
		hi = fmax(hi, p->x[i]);
	}
	fprintf(f, "\n\n# %s and the models in rank order\n", cmd->vars[0]);
	for (int s = 0; s <= 200; s++) {
		double x = lo + (hi - lo) * s / 200;

		fprintf(f, "%.10g", x);
		for (int i = 0; i < n; i++)
			fprintf(f, " %.10g", lc_fit_eval(cmd->cands[i].f, cmd->cands[i].fit.coef, &x));
		fprintf(f, "\n");
	}
	return fclose(f) ? -errno : 0;
}

/* Write the gnuplot script for the data file dpath. */
static int plot_script(const struct fitcmd *cmd, const char *path, const char *dpath, int n)
{
	char text[1024];
	FILE *f = lc_out_fopen(path);

	if (!f)
		return -errno;
	/* names, titles and paths reach gnuplot only as quoted literals */
	fprintf(f, "# written by lostcycles fit; in gnuplot, load ");
	lc_gp_fputs(f, path);
	fprintf(f, " shows the fits\nset title ");
	lc_gp_fprintf(f, "%s over %s (%s)", cmd->cat->key, cmd->vars[0], cmd->o.runs);
	fprintf(f, " noenhanced\nset xlabel ");
	lc_gp_fputs(f, cmd->vars[0]);
	fprintf(f, "\nset ylabel ");
	lc_gp_fprintf(f, "%s (seconds)", cmd->cat->key);
	fprintf(f, "\nset key left top noenhanced\nplot ");
	lc_gp_fputs(f, dpath);
	fprintf(f, " index 0 using 1:2:3 with yerrorbars pt 7 title 'measured'");
	for (int i = 0; i < n; i++) {
		model_text(cmd, &cmd->cands[i], text, sizeof(text));
		fprintf(f, ", \\\n     ");
		lc_gp_fputs(f, dpath);
		fprintf(f, " index 1 using 1:%d with lines title ", i + 2);
		lc_gp_fprintf(f, "%d: %s", i + 1, text);
	}
	fprintf(f, "\n");
	return fclose(f) ? -errno : 0;
}

/* -g NAME: write NAME.data and NAME.gp, and NAME.png when gnuplot exists. */
static int plot(const struct fitcmd *cmd)
{
	char gp[4096], data[4096], png[4096], msg[4400];
	int n = shown(cmd), rc;

	if (!cmd->o.plot)
		return 0;
	if (cmd->nvars != 1) {
		warnx("-g plots single-variable fits only; skipped");
		return 0;
	}
	n = n > 12 ? 12 : n;
	snprintf(gp, sizeof(gp), "%s.gp", cmd->o.plot);
	snprintf(data, sizeof(data), "%s.data", cmd->o.plot);
	snprintf(png, sizeof(png), "%s.png", cmd->o.plot);
	if (lc_plot_prepare(gp, data, png, cmd->o.force ? LC_OUT_FORCE : LC_OUT_KEEP, msg,
			    sizeof(msg))) {
		warnx("-g: %s", msg);
		return -1;
	}
	rc = plot_data(cmd, data, n);
	if (!rc)
		rc = plot_script(cmd, gp, data, n);
	if (rc) {
		warnx("-g %s: %s", cmd->o.plot, strerror(-rc));
		return -1;
	}
	rc = lc_plot_png(gp, png);
	if (rc == -ENOENT)
		printf("wrote %s and %s (gnuplot not installed: no PNG)\n", gp, data);
	else if (rc)
		warnx("gnuplot failed on %s; %s and %s are there", gp, gp, data);
	else
		printf("wrote %s, %s and %s\n", gp, data, png);
	return 0;
}

/* The most CPUs a run in the file was measured on ("cpus=" of report -l),
 * or 0 when no run says. */
static unsigned runs_cpus(const struct fitcmd *cmd)
{
	int key = lc_runs_find_key(cmd->runs, "cpus", 4);
	double v, most = 0;

	for (size_t i = 0; key >= 0 && i < lc_runs_count(cmd->runs); i++)
		if (lc_runs_get(cmd->runs, i, key, &v) == LC_CELL_VALUE && v > most && v < 1 << 24)
			most = v;
	return (unsigned)most;
}

/* --emit FILE: append the best (or --pick) model to the model file. */
static int emit(const struct fitcmd *cmd)
{
	int pick = cmd->o.pick ? cmd->o.pick : 1, n = 0, rc;
	char note[512];

	if (!cmd->o.emit)
		return 0;
	while (n < cmd->ncands && cmd->cands[n].ok)
		n++;
	if (pick > n) {
		warnx("--pick %d: only %d model%s fitted", pick, n, n == 1 ? "" : "s");
		return -1;
	}
	snprintf(note, sizeof(note), "from %s%s%s", cmd->o.runs, cmd->o.extract ? " where " : "",
		 cmd->o.extract ? cmd->o.extract : "");
	rc = lc_model_append(cmd->o.emit, cmd->cat->key, (const char *const *)cmd->vars, cmd->nvars,
			     cmd->cands[pick - 1].f, &cmd->cands[pick - 1].fit,
			     LC_EXPR_LOG2, note);
	if (!rc && runs_cpus(cmd))
		rc = lc_model_append_cpus(cmd->o.emit, runs_cpus(cmd));
	if (rc) {
		warnx("--emit %s: %s", cmd->o.emit, strerror(-rc));
		return -1;
	}
	fprintf(cmd->o.format == FMT_TEXT ? stdout : stderr, "appended model %d to %s\n", pick,
		cmd->o.emit);
	return 0;
}

/* --emit-comment: the model as "/" "* lcm: model: ... *" "/" lines, written
 * through a scratch model file so that the text is exactly what --emit
 * appends. */
static int emit_comment(const struct fitcmd *cmd)
{
	int pick = cmd->o.pick ? cmd->o.pick : 1, n = 0, fd, rc, first = 1;
	char path[] = "/tmp/lostcycles-fit.XXXXXX", *line = NULL;
	size_t cap = 0;
	FILE *f;

	if (!cmd->o.emit_comment)
		return 0;
	while (n < cmd->ncands && cmd->cands[n].ok)
		n++;
	if (pick > n) {
		warnx("--pick %d: only %d model%s fitted", pick, n, n == 1 ? "" : "s");
		return -1;
	}
	if ((fd = mkstemp(path)) < 0) {
		warnx("--emit-comment: %s", strerror(errno));
		return -1;
	}
	close(fd);
	rc = lc_model_append(path, cmd->cat->key, (const char *const *)cmd->vars, cmd->nvars,
			     cmd->cands[pick - 1].f, &cmd->cands[pick - 1].fit,
			     LC_EXPR_LOG2, NULL);
	f = rc ? NULL : fopen(path, "r");
	unlink(path);
	if (!f) {
		warnx("--emit-comment: %s", strerror(rc ? -rc : errno));
		return -1;
	}
	while (getline(&line, &cap, f) >= 0) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' && line[1] != ':')
			continue;	/* the file's header */
		printf("%s lcm: model: %s\n", first ? "/*" : " *", line);
		first = 0;
	}
	printf(" */\n");
	free(line);
	fclose(f);
	return 0;
}

/* "lostcycles fit".  See lc_cmd.h. */
int lc_cmd_fit(int argc, char **argv)
{
	struct fitcmd cmd = { .status = 0 };
	int r = parse_opts(argc, argv, &cmd.o), ok;

	if (r)
		return r > 0 ? 0 : 2;
	cmd.cat = lc_cat_info(lc_key_lookup(cmd.o.cat));
	if (!cmd.cat) {
		char keys[64];

		warnx("unknown category '%s' (known: %s)", cmd.o.cat,
			lc_key_list(keys, sizeof(keys)));
		return 2;
	}
	ok = !split_vars(&cmd) && !load_runs(&cmd) && !build_points(&cmd) && !collect(&cmd) &&
	     !parse_cands(&cmd) && !fit_all(&cmd);
	if (ok) {
		output(&cmd);
		ok = !plot(&cmd) && !emit(&cmd) && !emit_comment(&cmd);
	}
	fitcmd_free(&cmd);
	return ok ? cmd.status : 1;
}
