/*
 * test_fitrun.c — one run of fit, predict and compose without the command
 * line (postproc/lca/lca_fitrun.c, lca_fitout.c, lca_predrun.c, lcm_compose.c):
 * a fit recovers exact coefficients and ranks the true form first, a
 * refused formula reaches the note callback while the others fit, every
 * refusal comes back as -errno with its one-line reason (a syntax error
 * with its caret), the tables in each format, --emit and --emit-comment
 * round trips, predict's point and grid tables and its refusals, compose's
 * point table, tuning search against brute force, and --transfer parsing.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "lc_test.h"
#include "lc_profile.h"
#include "lca_fitrun.h"
#include "lca_model.h"
#include "lca_predict.h"
#include "lca_predrun.h"
#include "lcm_compose.h"

static char dir[] = "/tmp/lc-test_fitrun.XXXXXX";
static char runs[256];

/* The notes a run gave, one per line. */
static char notes[2048];

static void take_note(void *arg, const char *text)
{
	(void)arg;
	strncat(notes, text, sizeof(notes) - strlen(notes) - 2);
	strcat(notes, "\n");
}

/* The runs' text: rt = 2 + 3p exactly, three repeats of p = 1..8, and
 * li = 1 where p > 1 (na at p = 1). */
static void runs_text(char *text, size_t len)
{
	text[0] = '\0';
	for (int r = 0; r < 3; r++)
		for (int p = 1; p <= 8; p++)
			snprintf(text + strlen(text), len - strlen(text), "p=%d rt=%g li=%s\n", p,
				 2.0 + 3.0 * p, p > 1 ? "1" : "na");
}

/* The group's folder and its runs file (runs_text). */
static int setup(void **state)
{
	char text[4096];

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	runs_text(text, sizeof(text));
	lc_test_write(runs, sizeof(runs), dir, "r.runs", text);
	return 0;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* A fit of rt over p in runs with the formulae forms. */
static void fit_init(struct lc_fitrun *fr, const char *const *forms, int n)
{
	*fr = (struct lc_fitrun){ .note = take_note };
	fr->o.cat = "rt";
	fr->o.varlist = "p";
	fr->o.runs = runs;
	for (fr->o.nforms = 0; fr->o.nforms < n; fr->o.nforms++)
		fr->o.forms[fr->o.nforms] = forms[fr->o.nforms];
	notes[0] = '\0';
}

/* Run fr; 0 or the error, its reason into msg. */
static int fit_run(struct lc_fitrun *fr, char *msg, size_t len)
{
	int rc = lc_fitrun_cat(fr, msg, len);

	return rc ? rc : lc_fitrun_run(fr, msg, len);
}

/* What print writes in format fmt, in a new string (free it). */
static char *printed(struct lc_fitrun *fr, int fmt)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n), *err = fopen("/dev/null", "w");

	fr->o.format = fmt;
	lc_fitrun_print(fr, f, err);
	fclose(f);
	fclose(err);
	return buf;
}

/* fr: a fit of rt over p with the formulae forms, run; it must succeed. */
static void fitted(struct lc_fitrun *fr, const char *const *forms, int n)
{
	char msg[256] = "";

	fit_init(fr, forms, n);
	if (fit_run(fr, msg, sizeof(msg)))
		fail_msg("%s", msg);
}

static const char *const three_forms[] = { "p^2", "1 + p", "p" };

static void test_fit_ranks_the_true_form(void **state)
{
	struct lc_fitrun fr;

	(void)state;
	fitted(&fr, three_forms, 3);
	assert_int_equal(lc_fitrun_fitted(&fr), 3);
	assert_string_equal(fr.cands[0].text, "1 + p");
	assert_true(fabs(fr.cands[0].fit.coef[0] - 2) < 1e-9);
	assert_true(fabs(fr.cands[0].fit.coef[1] - 3) < 1e-9);
	lc_fitrun_free(&fr);
}

/* ... over every point, with nothing refused or noted. */
static void test_fit_takes_every_point(void **state)
{
	struct lc_fitrun fr;

	(void)state;
	fitted(&fr, three_forms, 3);
	assert_int_equal(fr.pts.n, 8);
	assert_int_equal(fr.user_refused, 0);
	assert_string_equal(notes, "");
	lc_fitrun_free(&fr);
}

static void test_fit_refusal_is_a_note(void **state)
{
	static const char *const forms[] = { "1 + p, p + p" };
	struct lc_fitrun fr;

	(void)state;
	fitted(&fr, forms, 1);
	assert_int_equal(lc_fitrun_fitted(&fr), 1);
	assert_int_equal(fr.user_refused, 1);
	assert_non_null(strstr(notes, "model 'p + p' refused: "));
	lc_fitrun_free(&fr);
}

/* A fit of category cat over vars with the formula form: 0 or the error,
 * its reason into msg. */
static int fit_reason(const char *cat, const char *vars, const char *form, char *msg,
		      size_t len)
{
	struct lc_fitrun fr;
	int rc;

	fit_init(&fr, &form, form ? 1 : 0);
	fr.o.cat = cat;
	fr.o.varlist = vars;
	rc = fit_run(&fr, msg, len);
	lc_fitrun_free(&fr);
	return rc;
}

/* Fits refused, with the start of their reasons. */
static const struct { const char *cat, *vars, *form; int rc; const char *why; } fit_refusals[] = {
	{ "zz", "p", "p", -ENOENT, "unknown category 'zz' (known: " },
	{ "rt", "q", "q", -ENOENT, "unknown variable 'q': no run in " },
	{ "rt", "p", "p*(1", -EINVAL, "formula 'p*(1': column " },
	{ "tt", "p", "p", -ENOENT, "category 'tt' does not appear in " },
};

static void test_fit_refusals(void **state)
{
	char msg[512];

	(void)state;
	for (size_t i = 0; i < sizeof(fit_refusals) / sizeof(fit_refusals[0]); i++) {
		assert_int_equal(fit_reason(fit_refusals[i].cat, fit_refusals[i].vars,
					    fit_refusals[i].form, msg, sizeof(msg)), fit_refusals[i].rc);
		assert_non_null(strstr(msg, fit_refusals[i].why));
	}
}

/* A formula's syntax error shows the formula and a caret under it. */
static void test_fit_refusal_caret(void **state)
{
	char msg[512];

	(void)state;
	assert_int_equal(fit_reason("rt", "p", "p*(1", msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "\n    p*(1\n    "));
	assert_int_equal(msg[strlen(msg) - 1], '^');
}

/* What a fit of "1 + p" and "p" prints in format fmt, in a new string. */
static char *fit_printed(int fmt)
{
	static const char *const forms[] = { "1 + p", "p" };
	struct lc_fitrun fr;
	char *out;

	fitted(&fr, forms, 2);
	out = printed(&fr, fmt);
	lc_fitrun_free(&fr);
	return out;
}

/* Each format of that fit: how it begins (or NULL) and what it holds; CSV
 * quotes a formula only when it must. */
static const struct { int fmt; const char *start; const char *const *has; } fit_formats[] = {
	{ LC_FITFMT_TEXT, NULL, LC_STRS("Datafile: ", "\n 1. (2 +/- ") },
	{ LC_FITFMT_CSV, "rank,formula,r2,", LC_STRS("\n1,2 + 3*p,1,1,", "\n2,") },
	{ LC_FITFMT_JSON, "{\"file\": ", LC_STRS("\"rank\": 2") },
	{ LC_FITFMT_FORMULA, NULL, LC_STRS("*p") },
};

static void test_fit_formats(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(fit_formats) / sizeof(fit_formats[0]); i++) {
		char *out = fit_printed(fit_formats[i].fmt);

		if (fit_formats[i].start)
			assert_memory_equal(out, fit_formats[i].start, strlen(fit_formats[i].start));
		lc_test_has(out, fit_formats[i].has);
		free(out);
	}
}

/* The formula format is one line. */
static void test_fit_formula(void **state)
{
	char *out = fit_printed(LC_FITFMT_FORMULA);

	(void)state;
	assert_int_equal(strchr(out, '\n') - out + 1, (long)strlen(out));
	free(out);
}

/* A model file of every category T(E) needs, over p and n. */
static void write_model(char *path, size_t len)
{
	lc_test_write(path, len, dir, "t.model", "rt(n,p) = 8*n\nli(n,p) = p - 1\nip(n,p) = 0\n"
		      "sl(n,p) = 0\ncl(n,p) = 0\nrc(n,p) = 0\n");
}

/* What run(arg, f, msg, len) writes to f, in a new string (free it), or
 * NULL when it refused (reason in msg). */
static char *captured(int (*run)(void *arg, FILE *f, char *msg, size_t len), void *arg,
		      char *msg, size_t len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	int rc = run(arg, f, msg, len);

	fclose(f);
	if (rc)
		free(buf);
	return rc ? NULL : buf;
}

/* One run of predict for the options at o, printed to f. */
static int predict_run(void *o, FILE *f, char *msg, size_t len)
{
	struct lc_predrun pr = { .o = *(struct lc_predrun_opts *)o };
	int rc = lc_predrun_load(&pr, msg, len);

	if (!rc)
		rc = lc_predrun_print(&pr, f, msg, len);
	lc_predrun_free(&pr);
	return rc;
}

typedef int (*runner)(void *o, FILE *f, char *msg, size_t len);

/* What run prints for the options at o, in a new string (free it); the
 * test fails when it refuses. */
static char *output_of(runner run, void *o)
{
	char msg[512];
	char *out = captured(run, o, msg, sizeof(msg));

	if (!out)
		fail_msg("%s", msg);
	return out;
}

/* What run prints for the options at o holds every string of want (up to
 * its NULL). */
static void shows(runner run, void *o, const char *const *want)
{
	char *out = output_of(run, o);

	lc_test_has(out, want);
	free(out);
}

/* run refuses the options at o with the reason want. */
static void refused(runner run, void *o, const char *want)
{
	char msg[512];

	assert_null(captured(run, o, msg, sizeof(msg)));
	assert_string_equal(msg, want);
}

/* fr: a fit of "1 + p" to emit, with a comment, to dir/m.model (its path
 * in path). */
static void fit_for_emit(struct lc_fitrun *fr, char *path, size_t len)
{
	static const char *const forms[] = { "1 + p" };
	char msg[256];

	fit_init(fr, forms, 1);
	snprintf(path, len, "%s/m.model", dir);
	fr->o.emit = path;
	fr->o.emit_comment = 1;
	assert_int_equal(fit_run(fr, msg, sizeof(msg)), 0);
}

/* A runner: --emit, then --emit-comment, of the fit at fr, to f. */
static int emit_run(void *fr, FILE *f, char *msg, size_t len)
{
	int rc = lc_fitrun_emit(fr, f, f, msg, len);

	return rc ? rc : lc_fitrun_comment(fr, f, msg, len);
}

/* --emit says where the model went; --emit-comment prints it as a C
 * comment. */
static void test_fit_emit(void **state)
{
	struct lc_fitrun fr;
	char path[256], *buf;

	(void)state;
	fit_for_emit(&fr, path, sizeof(path));
	buf = output_of(emit_run, &fr);
	assert_non_null(strstr(buf, "appended model 1 to "));
	assert_non_null(strstr(buf, "/* lcm: model: rt(p) = "));
	assert_memory_equal(buf + strlen(buf) - 4, " */\n", 4);
	free(buf);
	lc_fitrun_free(&fr);
}

/* The emitted model reads back and predicts rt(4) = 2 + 3 * 4. */
static void test_fit_emit_round_trip(void **state)
{
	const char *names[] = { "p" }, *missing = NULL;
	double vals[] = { 4 }, c, h;
	struct lc_env env = { names, vals, 1 };
	struct lc_model *m = NULL;
	struct lc_fitrun fr;
	char path[256], msg[256];
	int line;

	(void)state;
	fit_for_emit(&fr, path, sizeof(path));
	free(output_of(emit_run, &fr));
	lc_fitrun_free(&fr);
	assert_int_equal(lc_model_read(path, &m, &line, msg, sizeof(msg)), 0);
	assert_int_equal(lc_predict_cat(m, "rt", &env, &c, &h, &missing), 0);
	assert_true(fabs(c - 14) < 1e-6);
	lc_model_free(m);
}

/* --pick past the models fitted is refused. */
static void test_fit_pick(void **state)
{
	struct lc_fitrun fr;
	char path[256], msg[256];

	(void)state;
	fit_for_emit(&fr, path, sizeof(path));
	fr.o.pick = 5;
	assert_int_equal(lc_fitrun_emit(&fr, stdout, stdout, msg, sizeof(msg)), -ERANGE);
	assert_string_equal(msg, "--pick 5: only 1 model fitted");
	lc_fitrun_free(&fr);
}

/* predict's options for a new model file (write_model) at path. */
static struct lc_predrun_opts predict_opts(char *path, size_t len)
{
	write_model(path, len);
	return (struct lc_predrun_opts){ .model = path, .max_points = 1000 };
}

/* A point: T(E), the speedup and a what-if. */
static void test_predict_point(void **state)
{
	char model[256];
	struct lc_predrun_opts o = predict_opts(model, sizeof(model));

	(void)state;
	o.at = "n=1 p=4";
	o.whatif.v[o.whatif.n++] = "li=0";
	/* T = (8 + 3) / 4; at p=1, 8: speedup 8 / 2.75 */
	shows(predict_run, &o, LC_STRS("T(E) = sum C(E)/p = 2.75 s",
		"speedup over p=1: 2.909", "what-if li=0"));
}

/* A grid: its table. */
static void test_predict_grid(void **state)
{
	char model[256];
	struct lc_predrun_opts o = predict_opts(model, sizeof(model));

	(void)state;
	o.grid = "n=1 p=1,2,4";
	shows(predict_run, &o, LC_STRS("over n=1 p=1,2,4", "\n         1          4"));
}

/* Refused: a variable the model lacks, a what-if without p ... */
static void test_predict_refusals(void **state)
{
	char model[256];
	struct lc_predrun_opts o = predict_opts(model, sizeof(model));

	(void)state;
	o.at = "n=1 q=4";
	refused(predict_run, &o, "unknown variable 'q' (the model uses: n p)");
	o.at = "n=1";
	o.whatif.v[o.whatif.n++] = "li=0";
	refused(predict_run, &o, "--what-if needs T(E) = sum C(E)/p, which needs p in --at");
}

/* ... neither a point nor a grid, a missing model file. */
static void test_predict_refusals_input(void **state)
{
	char model[256];
	struct lc_predrun_opts o = predict_opts(model, sizeof(model));

	(void)state;
	refused(predict_run, &o, "give one of --at or --grid");
	o.model = "/nonexistent/m";
	o.at = "p=1";
	refused(predict_run, &o, "/nonexistent/m: No such file or directory");
}

/* One run of compose for the options at o, printed to f. */
static int compose_run(void *o, FILE *f, char *msg, size_t len)
{
	struct lc_compose c = { .o = *(struct lc_compose_opts *)o };
	int rc = lc_compose_load(&c, f, msg, len);

	if (!rc)
		rc = lc_compose_print(&c, f, msg, len);
	lc_compose_free(&c);
	return rc;
}

/* compose's options for tests/data/compose/split.lcm at the point at. */
static struct lc_compose_opts split_opts(const char *at)
{
	return (struct lc_compose_opts){ .structure = "tests/data/compose/split.lcm", .at = at,
					 .max_points = 1000 };
}

/* A point: T(E) and the table. */
static void test_compose_point(void **state)
{
	struct lc_compose_opts o = split_opts("n=10 p=4 q=1");

	(void)state;
	shows(compose_run, &o, LC_STRS("T(E) = sum C(E)/p = ", "\nrt   "));
}

/* Tuning q: Ta = (60 + 0.5 (q-1)) / q, Tb = (20 + 0.5 (p-q-1)) / (p-q):
 * least at q=3, as brute force finds. */
static void test_compose_tuning(void **state)
{
	struct lc_compose_opts o = split_opts("n=10 p=4");

	(void)state;
	o.tune = "q=1,2,3";
	shows(compose_run, &o, LC_STRS("search (", "n=10 p=4 q=3: T = ",
		"the search found the brute-force minimum"));
}

/* Refused: no p, p both fixed and tuned, --memory without a source. */
static void test_compose_refusals(void **state)
{
	struct lc_compose_opts o = split_opts("n=10 q=1");

	(void)state;
	refused(compose_run, &o, "T(E) = sum C(E)/p needs p (the number of processors) in --at");
	o.at = "n=10 p=4";
	o.tune = "p=1,2";
	refused(compose_run, &o, "'p' is in both --at and --tune");
	o.tune = NULL;
	o.memory = "";
	refused(compose_run, &o, "--memory is not available here");	/* no memory callback */
}

/* --transfer: latency and bandwidth, or the reason. */
static void test_compose_transfer(void **state)
{
	char msg[512];
	double lat, bw;

	(void)state;
	assert_int_equal(lc_compose_transfer("latency=1e-6 bandwidth=1e9", &lat, &bw, msg,
					     sizeof(msg)), 0);
	assert_true(lat == 1e-6 && bw == 1e9);
	assert_int_equal(lc_compose_transfer("speed=3", &lat, &bw, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--transfer wants "));
}

LC_TEST_MAIN(setup, teardown,
	     LC_T(test_fit_ranks_the_true_form), LC_T(test_fit_takes_every_point),
	     LC_T(test_fit_refusal_is_a_note), LC_T(test_fit_refusals), LC_T(test_fit_refusal_caret),
	     LC_T(test_fit_formats), LC_T(test_fit_formula),
	     LC_T(test_fit_emit), LC_T(test_fit_emit_round_trip), LC_T(test_fit_pick),
	     LC_T(test_predict_point), LC_T(test_predict_grid), LC_T(test_predict_refusals),
	     LC_T(test_predict_refusals_input), LC_T(test_compose_point), LC_T(test_compose_tuning),
	     LC_T(test_compose_refusals), LC_T(test_compose_transfer))
