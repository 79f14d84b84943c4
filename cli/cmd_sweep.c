/*
 * cmd_sweep.c — "lostcycles sweep": run CMD under "lostcycles record" at
 * each point of a design over the external variables and append one runs
 * line per run (thesis Figure 5.4 step 1).  Runs are children: record and
 * then "report -l" of this executable (kmod-free-tools/sweep_run.c); the
 * profiles stay beside RUNS.
 */
#include <err.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lc_cmd.h"
#include "lc_opt.h"
#include "lc_runner.h"
#include "lc_sweep.h"
#include "lc_sweep_run.h"
#include "lc_abi.h"
#include "lc_emit.h"
#include "lc_util.h"
#include "lca_grid.h"
#include "lca_model.h"

static const char *const usage[] = {
	"lostcycles sweep -o RUNS -v NAME=V1,V2,... [-v ...] [--design full|edges|corners]",
	"                 [-r REPEATS] [--record-opts \"OPTS\"] [--fail-fast] [-n] [-q]",
	"                 -- CMD [ARGS...]",
	"lostcycles sweep -o RUNS -v NAME=V1,V2,... [-v ...] --suggest MODEL [--top N]",
	"                 [--at SPEC | --grid SPEC] [-x EXPR] [--format text|csv|json]",
	"",
	"Run CMD under 'lostcycles record' at every point of the design, {NAME} in the",
	"arguments replaced by the point's value (p is also record's --procs), and",
	"append one runs line per run to RUNS for 'lostcycles fit -f RUNS'.  Points",
	"already in RUNS are skipped, so an interrupted sweep resumes where it stopped.",
	NULL,
};

struct sweep {
	const char *runs;
	char profdir[4200];
	struct lc_sweep_var vars[LC_SWEEP_VARS];
	struct lc_sweep_spec sp;
	int nvars;
	int design, repeats, fail_fast, dry, quiet, tty;
	const char *suggest;		/* model file, or NULL */
	const char *at, *grid, *extract;	/* --suggest: where T is wanted, the fit's -x */
	size_t top;
	int format;			/* --suggest's table: LC_FMT_TEXT, _CSV, _JSON */
	size_t *pts, npts;
	struct lc_sweep_done *done;
	struct lc_sweep_done *fitted;	/* --suggest -x: the points the fit used */
	size_t total, todo, ran, failed;
	uint64_t t_start;
};

static volatile sig_atomic_t interrupted;

/* The closing line: what ran, and a fit command that works on RUNS (the
 * total time over the sweep's variables; -c another category). */
static void closing(const struct sweep *s)
{
	char vars[LC_SWEEP_VARS * 34] = "";
	size_t used = 0;

	for (int i = 0; i < s->nvars && used < sizeof(vars); i++)
		used += (size_t)snprintf(vars + used, sizeof(vars) - used, "%s%s", i ? " " : "",
					 s->vars[i].name);
	fprintf(stderr, "lostcycles sweep: %zu runs done, %zu failed; "
		"lostcycles fit -c tt -v \"%s\" -f '%s' --search models them\n", s->ran, s->failed,
		vars, s->runs);
}

static void on_signal(int sig)
{
	interrupted = sig;
	lc_runner_stop = 1;
}

static void progress(struct sweep *s, const char *what)
{
	double el = (double)(lc_clock_ns() - s->t_start) / 1e9;
	double left = s->ran ? el / (double)s->ran * (double)(s->todo - s->ran) : NAN;

	if (s->quiet)
		return;
	if (s->tty) {
		int w = 30, k = (int)(w * s->ran / (s->todo ? s->todo : 1));

		fprintf(stderr, "\r[%.*s%*s] %zu/%zu %-28.28s", k, "##############################",
			w - k, "", s->ran, s->todo, what);
		if (isfinite(left))
			fprintf(stderr, " %4.0f s left", left);
		if (s->ran == s->todo)
			fputc('\n', stderr);
	} else {
		fprintf(stderr, "lostcycles sweep: run %zu/%zu: %s", s->ran + 1, s->todo, what);
		if (isfinite(left))
			fprintf(stderr, " (%.0f s left)", left);
		fputc('\n', stderr);
	}
}

/* Record one point and append its line (or a failure comment).  0, 1 for a
 * failed run, -1 when the sweep cannot go on. */
static int run_point(struct sweep *s, const size_t *row, int rep)
{
	struct lc_sweep_run r;
	char line[8192], why[512];
	int rc, e;

	if (lc_sweep_run_prepare(&r, &s->sp, row, rep, why, sizeof(why))) {
		warnx("%s", why);
		return -1;
	}
	if (s->dry) {
		printf("%s:", r.note);
		for (int i = r.first; r.argv[i]; i++)
			printf(" %s", r.argv[i]);
		printf("\n");
		lc_sweep_run_free(&r);
		return 0;
	}
	progress(s, r.label);
	rc = lc_sweep_run_exec(&r, line, sizeof(line));
	lc_sweep_run_free(&r);
	if (rc < 0)
		warnx("cannot run record: %s", strerror(-rc));
	if (rc < 0 || rc == 2)
		return rc < 0 ? -1 : 0;
	s->failed += rc == 1;
	e = lc_sweep_append(s->runs, line);
	if (e) {
		warnx("%s: %s", s->runs, strerror(-e));
		rc = -1;
	}
	s->ran++;
	return rc;
}

/* Everything: repeats outermost, so the first repeat of every point comes
 * first.  Returns the exit status. */
static int sweep(struct sweep *s)
{
	for (int rep = 1; rep <= s->repeats && !interrupted; rep++)
		for (size_t p = 0; p < s->npts && !interrupted; p++) {
			const size_t *row = s->pts + p * (size_t)s->nvars;
			int rc;

			if (lc_sweep_done_has(s->done, row, rep))
				continue;
			rc = run_point(s, row, rep);
			if (rc < 0)
				return 1;
			if (rc && s->fail_fast) {
				warnx("stopping at the first failure (--fail-fast)");
				return 1;
			}
		}
	if (!s->dry && !s->quiet && s->tty && s->ran != s->todo)
		fputc('\n', stderr);
	if (interrupted) {
		fprintf(stderr, "lostcycles sweep: interrupted after %zu of %zu runs; run the "
				"same command again to go on\n", s->ran, s->todo);
		return 128 + interrupted;
	}
	return s->failed ? 1 : 0;
}

/* -v NAME=VALUES: one more variable. */
static int opt_var(const struct lc_opt *opt, const char *arg)
{
	struct sweep *s = opt->field;
	struct lc_sweep_var *v = &s->vars[s->nvars];
	char why[512];

	if (s->nvars == LC_SWEEP_VARS) {
		warnx("at most %d variables", LC_SWEEP_VARS);
		return -1;
	}
	if (lc_sweep_var_parse(arg, v, why, sizeof(why))) {
		warnx("-v %s", why);
		return -1;
	}
	for (int i = 0; i < s->nvars; i++)
		if (!strcmp(s->vars[i].name, v->name)) {
			warnx("variable '%s' given twice", v->name);
			return -1;
		}
	if (lc_sweep_reserved(v->name)) {
		warnx("'%s' is a name the runs file uses itself", v->name);
		return -1;
	}
	s->nvars++;
	return 0;
}

/* --record-opts "OPTS". */
static int opt_record_opts(const struct lc_opt *opt, const char *arg)
{
	struct sweep *s = opt->field;
	char why[512], *text = strdup(arg);	/* kept: ropts point into it */

	if (!text || lc_sweep_record_opts(&s->sp, text, why, sizeof(why))) {
		warnx("%s", text ? why : "out of memory");
		return -1;
	}
	return 0;
}

static const struct lc_opt_word formats[] = {
	{ "text", LC_FMT_TEXT }, { "csv", LC_FMT_CSV }, { "json", LC_FMT_JSON }, { NULL, 0 },
};

static const struct lc_opt_word designs[] = {
	{ "full", LC_DESIGN_FULL }, { "edges", LC_DESIGN_EDGES }, { "corners", LC_DESIGN_CORNERS },
	{ NULL, 0 },
};

/* Parse the options into s; the number of words of CMD, or LC_OPT_HELP /
 * LC_OPT_USAGE. */
static int parse(struct sweep *s, int argc, char **argv)
{
	const struct lc_opt opts[] = {
		LC_OPT_FILENAME("output", 'o', "RUNS", "the runs file (profiles go to "
				"RUNS.profiles/)", &s->runs),
		LC_OPT_CALLBACK("var", 'v', "NAME=VALUES", "an external variable and its values "
				"(repeatable)", s, opt_var),
		LC_OPT_ENUM("design", 'd', "DESIGN", "full (default), edges (at most one variable "
			    "off its\nfirst or last value), corners (extremes only)", &s->design,
			    designs),
		LC_OPT_NUMBER("repeats", 'r', "N", "runs per point (default 1)", &s->repeats, 1,
			      1000),
		LC_OPT_CALLBACK("record-opts", 0, "OPTS", "more options for record, e.g. "
				"\"-i 50us\"", s, opt_record_opts),
		LC_OPT_FLAG("fail-fast", 0, "stop at the first failing run", &s->fail_fast),
		LC_OPT_FLAG("dry-run", 'n', "print the points and the commands, run nothing",
			    &s->dry),
		LC_OPT_FILENAME("suggest", 0, "MODEL", "run nothing: name the points of the -v "
				"grid not in RUNS\nwhere MODEL (fit --emit) predicts least surely",
				&s->suggest),
		LC_OPT_NUMBER("top", 0, "N", "how many points --suggest names (default 3)", &s->top,
			      1, 1000),
		LC_OPT_STRING("at", 0, "SPEC", "--suggest: where the prediction is wanted, e.g.\n"
			      "\"n=4096 p=64\" (default: every point of the grid)", &s->at),
		LC_OPT_STRING("grid", 0, "SPEC", "--suggest: where it is wanted, a grid as "
			      "predict's", &s->grid),
		LC_OPT_STRING("extract", 'x', "EXPR", "--suggest: the runs the model was fitted "
			      "to (fit's -x);\nthe others count as not measured", &s->extract),
		LC_OPT_ENUM("format", 0, "FMT", "--suggest: the table as text (default), csv or "
			    "json", &s->format, formats),
		LC_OPT_FLAG("quiet", 'q', "no progress on stderr", &s->quiet),
		LC_OPT_END_AT_OPERAND(),
	};
	char **cmd;
	int n = lc_opt_parse(argc, argv, opts, usage, &cmd);

	if (n < 0)
		return n;
	if (!s->runs || !s->nvars || (n == 0 && !s->suggest)) {
		warnx("%s (see 'lostcycles sweep --help')", !s->runs ? "no runs file (-o RUNS)" :
		      !s->nvars ? "no variable (-v)" : "no command given");
		return LC_OPT_USAGE;
	}
	if (!s->suggest && lc_opt_given("format", 0)) {
		warnx("--format goes with --suggest (see 'lostcycles sweep --help')");
		return LC_OPT_USAGE;
	}
	s->sp.vars = s->vars;
	s->sp.nvars = s->nvars;
	s->sp.cmd = cmd;
	s->sp.ncmd = n;
	return n;
}

/* --suggest's targets (--at/--grid into g) and, with -x, the points the
 * fit used (s->fitted).  0 or -errno with the reason. */
static int suggest_done(struct sweep *s, struct lc_grid *g, char *why, size_t len)
{
	const char *spec = s->at ? s->at : s->grid;
	char msg[256];
	int e;

	if (s->at && s->grid)
		return lc_fail(why, len, -EINVAL, "give --at or --grid, not both");
	if (spec && lc_grid_parse(spec, g, msg, sizeof(msg)))
		return lc_fail(why, len, -EINVAL, "%s '%s': %s", s->at ? "--at" : "--grid", spec, msg);
	if (!s->extract)
		return 0;
	e = lc_sweep_done_where(s->runs, s->vars, s->nvars, s->extract, &s->fitted, why, len);
	return e == -ENOENT ? 0 : e;
}

/* The columns of --suggest's table after one per variable (its value):
 * how much one run there narrows the 90 % interval of T(E) where it is
 * wanted, T(E) there and the interval's half width, absolute and of T. */
static const struct lc_col suggest_cols[] = {
	{ .name = "narrows_pct", .kind = LC_COL_PCT, .prec = 1, .data_prec = 4 },
	{ .name = "T", .kind = LC_COL_SIG, .prec = 6, .data_prec = 9 },
	{ .name = "half90", .kind = LC_COL_SIG, .prec = 3, .data_prec = 9 },
	{ .name = "half90_pct", .kind = LC_COL_PCT, .prec = 1, .data_prec = 4 },
};
#define NSUGGEST_COLS (int)(sizeof(suggest_cols) / sizeof(suggest_cols[0]))

/* The text format's line above the table: what the rows are (the names
 * given as text for a terminal). */
static void suggest_heading(const struct sweep *s)
{
	fputs("points of the grid not in ", stdout);
	lc_emit_text_str(stdout, s->runs);
	if (s->extract) {
		fputs(" (or left out by -x '", stdout);
		lc_emit_text_str(stdout, s->extract);
		fputs("')", stdout);
	}
	fputs(" where one more run narrows ", stdout);
	lc_emit_text_str(stdout, s->suggest);
	fputs("'s 90 % prediction interval of T(E) most at ", stdout);
	lc_emit_text_str(stdout, s->at ? s->at : s->grid ? s->grid : "every point of the grid");
	fputs(", on average:\n", stdout);
}

/* The n suggestions of out as --format says: a row per point, the most
 * narrowing first.  With none, text says so; CSV and JSON write an empty
 * table and say it on standard error.  Exit status. */
static int suggest_print(const struct sweep *s, const struct lc_suggestion *out, size_t n)
{
	struct lc_col cols[LC_SWEEP_VARS + NSUGGEST_COLS];
	struct lc_emit *e;
	int nc = 0;

	if (!n && s->format == LC_FMT_TEXT) {
		fputs("no point to suggest: every point of the grid is in ", stdout);
		lc_emit_text_str(stdout, s->runs);
		fputc('\n', stdout);
		return 0;
	}
	if (!n)
		warnx("no point to suggest: every point of the grid is in %s", s->runs);
	else if (s->format == LC_FMT_TEXT)
		suggest_heading(s);
	for (int i = 0; i < s->nvars; i++)
		cols[nc++] = (struct lc_col){ .name = s->vars[i].name, .kind = LC_COL_SIG,
					      .prec = 15 };
	for (int i = 0; i < NSUGGEST_COLS; i++)
		cols[nc++] = suggest_cols[i];
	e = lc_emit_new(stdout, s->format == LC_FMT_CSV ? LC_EMIT_CSV : s->format == LC_FMT_JSON ?
			LC_EMIT_JSON : LC_EMIT_TEXT, cols, nc, 0);
	for (size_t k = 0; k < n; k++) {
		for (int i = 0; i < s->nvars; i++)
			lc_emit_num(e, strtod(s->vars[i].values[out[k].row[i]], NULL));
		lc_emit_num(e, 100 * out[k].narrow);
		lc_emit_num(e, out[k].t);
		lc_emit_num(e, out[k].half);
		lc_emit_num(e, 100 * out[k].half / out[k].t);
		lc_emit_row(e);
	}
	if (!e || lc_emit_end(e)) {
		warnx("--suggest: %s", e ? "cannot write the table" : "out of memory");
		return 1;
	}
	return 0;
}

/* --suggest: print the points where one run narrows the prediction most.
 * Exit status. */
static int suggest(struct sweep *s)
{
	struct lc_suggestion out[1000];
	struct lc_grid g = { 0 };
	struct lc_model *m = NULL;
	char why[512];
	int line = 0, n;

	if (lc_model_read(s->suggest, &m, &line, why, sizeof(why))) {
		if (line)
			warnx("%s:%d: %s", s->suggest, line, why);
		else
			warnx("%s: %s", s->suggest, why);
		return 1;
	}
	n = suggest_done(s, &g, why, sizeof(why));
	if (!n)
		n = lc_sweep_suggest(m, s->vars, s->nvars, s->fitted ? s->fitted : s->done,
				     g.naxes ? &g : NULL, out, s->top, why, sizeof(why));
	lc_model_free(m);
	lc_grid_free(&g);
	if (n < 0) {
		warnx("--suggest: %s", why);
		return 1;
	}
	return suggest_print(s, out, (size_t)n);
}

/* Free what the sweep holds. */
static void sweep_free(struct sweep *s)
{
	lc_sweep_done_free(s->done);
	lc_sweep_done_free(s->fitted);
	free(s->pts);
	for (int i = 0; i < s->nvars; i++)
		lc_sweep_var_free(&s->vars[i]);
}

/* The design's points and what RUNS already has.  Returns 0, or the exit
 * status after a message. */
static int load(struct sweep *s)
{
	char why[512];
	int cut = 0, e;

	if (lc_sweep_check(&s->sp, why, sizeof(why))) {
		warnx("%s", why);
		return 2;
	}
	if (lc_sweep_points(s->vars, s->nvars, s->design, &s->pts, &s->npts)) {
		warnx("out of memory");
		return 1;
	}
	e = lc_sweep_done_load(s->runs, s->vars, s->nvars, &s->done, &cut);
	if (e) {
		warnx("%s: %s", s->runs, strerror(-e));
		return 1;
	}
	if (cut)
		warnx("%s: removed a last line cut short by an earlier crash", s->runs);
	return 0;
}

/* Count the runs to go, make RUNS.profiles, say what is coming.  Returns 0,
 * or 1 after a message. */
static int start(struct sweep *s)
{
	char msg[4400];

	s->total = s->npts * (size_t)s->repeats;
	for (int rep = 1; rep <= s->repeats; rep++)
		for (size_t p = 0; p < s->npts; p++)
			s->todo += !lc_sweep_done_has(s->done, s->pts + p * (size_t)s->nvars, rep);
	snprintf(s->profdir, sizeof(s->profdir), "%s.profiles", s->runs);
	s->sp.profdir = s->profdir;
	if (!s->dry && lc_safe_dir(s->profdir, 0755, msg, sizeof(msg))) {
		warnx("%s", msg);
		return 1;
	}
	s->tty = isatty(2);
	s->t_start = lc_clock_ns();
	if (!s->quiet)
		fprintf(stderr, "lostcycles sweep: %zu points x %d repeat%s = %zu runs, %zu already "
				"in %s, %zu to go\n", s->npts, s->repeats, s->repeats == 1 ? "" : "s",
			s->total, s->total - s->todo, s->runs, s->todo);
	return 0;
}

int lc_cmd_sweep(int argc, char **argv)
{
	static struct sweep s;
	struct sigaction sa = { .sa_handler = on_signal };
	int n, rc;

	s = (struct sweep){ .repeats = 1, .design = LC_DESIGN_FULL, .top = 3 };
	n = parse(&s, argc, argv);
	if (n < 0)
		return LC_OPT_EXIT(n);
	rc = load(&s);
	if (!rc && s.suggest)
		rc = suggest(&s);
	else if (!rc && !(rc = start(&s))) {
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		rc = sweep(&s);
		if (!s.quiet && !interrupted && !s.dry)
			closing(&s);
	}
	sweep_free(&s);
	return rc;
}
