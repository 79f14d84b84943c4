/*
 * test_fitrun.c — one run of fit, predict and compose without the command
 * line (postproc/lca_fitrun.c, lca_fitout.c, lca_predrun.c, lcm_compose.c):
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

/* Write text to dir/name; its path into path. */
static void write_file(const char *name, const char *text, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* rt = 2 + 3p exactly, three repeats of p = 1..8, and li = p where p > 1. */
static int setup(void **state)
{
	char text[4096] = "";

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	for (int r = 0; r < 3; r++)
		for (int p = 1; p <= 8; p++)
			snprintf(text + strlen(text), sizeof(text) - strlen(text),
				 "p=%d rt=%g li=%s\n", p, 2.0 + 3.0 * p, p > 1 ? "1" : "na");
	write_file("r.runs", text, runs, sizeof(runs));
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

static void test_fit_ranks_the_true_form(void **state)
{
	static const char *const forms[] = { "p^2", "1 + p", "p" };
	struct lc_fitrun fr;
	char msg[256] = "";

	(void)state;
	fit_init(&fr, forms, 3);
	assert_int_equal(fit_run(&fr, msg, sizeof(msg)), 0);
	assert_int_equal(lc_fitrun_fitted(&fr), 3);
	assert_string_equal(fr.cands[0].text, "1 + p");
	assert_true(fabs(fr.cands[0].fit.coef[0] - 2) < 1e-9);
	assert_true(fabs(fr.cands[0].fit.coef[1] - 3) < 1e-9);
	assert_int_equal(fr.pts.n, 8);
	assert_int_equal(fr.user_refused, 0);
	assert_string_equal(notes, "");
	lc_fitrun_free(&fr);
}

static void test_fit_refusal_is_a_note(void **state)
{
	static const char *const forms[] = { "1 + p, p + p" };
	struct lc_fitrun fr;
	char msg[256] = "";

	(void)state;
	fit_init(&fr, forms, 1);
	assert_int_equal(fit_run(&fr, msg, sizeof(msg)), 0);
	assert_int_equal(lc_fitrun_fitted(&fr), 1);
	assert_int_equal(fr.user_refused, 1);
	assert_non_null(strstr(notes, "model 'p + p' refused: "));
	lc_fitrun_free(&fr);
}

/* The reason fit gives for forms (with variable list vars, category cat). */
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

static void test_fit_refusals(void **state)
{
	char msg[512];

	(void)state;
	assert_int_equal(fit_reason("zz", "p", "p", msg, sizeof(msg)), -ENOENT);
	assert_non_null(strstr(msg, "unknown category 'zz' (known: "));
	assert_int_equal(fit_reason("rt", "q", "q", msg, sizeof(msg)), -ENOENT);
	assert_non_null(strstr(msg, "unknown variable 'q': no run in "));
	assert_int_equal(fit_reason("rt", "p", "p*(1", msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "formula 'p*(1': column "));
	assert_non_null(strstr(msg, "\n    p*(1\n    "));
	assert_int_equal(msg[strlen(msg) - 1], '^');
	assert_int_equal(fit_reason("tt", "p", "p", msg, sizeof(msg)), -ENOENT);
	assert_non_null(strstr(msg, "category 'tt' does not appear in "));
}

static void test_fit_outputs(void **state)
{
	static const char *const forms[] = { "1 + p", "p" };
	struct lc_fitrun fr;
	char msg[256], *out;

	(void)state;
	fit_init(&fr, forms, 2);
	assert_int_equal(fit_run(&fr, msg, sizeof(msg)), 0);
	out = printed(&fr, LC_FITFMT_TEXT);
	assert_non_null(strstr(out, "Datafile: "));
	assert_non_null(strstr(out, "\n 1. (2 +/- "));
	free(out);
	out = printed(&fr, LC_FITFMT_CSV);
	assert_memory_equal(out, "rank,formula,r2,", 16);
	assert_non_null(strstr(out, "\n1,2 + 3*p,1,1,"));	/* quoted only when it must be */
	assert_non_null(strstr(out, "\n2,"));
	free(out);
	out = printed(&fr, LC_FITFMT_JSON);
	assert_memory_equal(out, "{\"file\": ", 9);
	assert_non_null(strstr(out, "\"rank\": 2"));
	free(out);
	out = printed(&fr, LC_FITFMT_FORMULA);
	assert_int_equal(strchr(out, '\n') - out + 1, (long)strlen(out));	/* one line */
	assert_non_null(strstr(out, "*p"));
	free(out);
	lc_fitrun_free(&fr);
}

static void test_fit_emit_round_trip(void **state)
{
	static const char *const forms[] = { "1 + p" };
	struct lc_fitrun fr;
	struct lc_model *m = NULL;
	struct lc_env env;
	const char *names[] = { "p" }, *missing = NULL;
	double vals[] = { 4 }, c, h;
	char msg[256], path[256], *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	int line;

	(void)state;
	fit_init(&fr, forms, 1);
	snprintf(path, sizeof(path), "%s/m.model", dir);
	fr.o.emit = path;
	fr.o.emit_comment = 1;
	assert_int_equal(fit_run(&fr, msg, sizeof(msg)), 0);
	assert_int_equal(lc_fitrun_emit(&fr, f, f, msg, sizeof(msg)), 0);
	assert_int_equal(lc_fitrun_comment(&fr, f, msg, sizeof(msg)), 0);
	fclose(f);
	assert_non_null(strstr(buf, "appended model 1 to "));
	assert_non_null(strstr(buf, "/* lcm: model: rt(p) = "));
	assert_memory_equal(buf + strlen(buf) - 4, " */\n", 4);
	free(buf);
	assert_int_equal(lc_model_read(path, &m, &line, msg, sizeof(msg)), 0);
	env = (struct lc_env){ names, vals, 1 };
	assert_int_equal(lc_predict_cat(m, "rt", &env, &c, &h, &missing), 0);
	assert_true(fabs(c - 14) < 1e-6);
	lc_model_free(m);
	fr.o.pick = 5;
	assert_int_equal(lc_fitrun_emit(&fr, stdout, stdout, msg, sizeof(msg)), -ERANGE);
	assert_string_equal(msg, "--pick 5: only 1 model fitted");
	lc_fitrun_free(&fr);
}

/* A model file of every category T(E) needs, over p and n. */
static void write_model(char *path, size_t len)
{
	write_file("t.model", "rt(n,p) = 8*n\nli(n,p) = p - 1\nip(n,p) = 0\nsl(n,p) = 0\n"
		   "cl(n,p) = 0\nrc(n,p) = 0\n", path, len);
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

/* What predict prints for o, or NULL after a refusal (reason in msg). */
static char *predicted(struct lc_predrun_opts *o, char *msg, size_t len)
{
	return captured(predict_run, o, msg, len);
}

static void test_predict_tables(void **state)
{
	char model[256], msg[256], *out;
	struct lc_predrun_opts o = { .at = "n=1 p=4", .max_points = 1000 };

	(void)state;
	write_model(model, sizeof(model));
	o.model = model;
	o.whatif[o.nwhatif++] = "li=0";
	out = predicted(&o, msg, sizeof(msg));
	assert_non_null(out);
	/* T = (8 + 3) / 4; at p=1, 8: speedup 8 / 2.75 */
	assert_non_null(strstr(out, "T(E) = sum C(E)/p = 2.75 s"));
	assert_non_null(strstr(out, "speedup over p=1: 2.909"));
	assert_non_null(strstr(out, "what-if li=0"));
	free(out);
	o = (struct lc_predrun_opts){ .model = model, .grid = "n=1 p=1,2,4", .max_points = 1000 };
	out = predicted(&o, msg, sizeof(msg));
	assert_non_null(out);
	assert_non_null(strstr(out, "over n=1 p=1,2,4"));
	assert_non_null(strstr(out, "\n         1          4"));
	free(out);
}

static void test_predict_refusals(void **state)
{
	char model[256], msg[256];
	struct lc_predrun_opts o = { .at = "n=1 q=4", .max_points = 1000 };

	(void)state;
	write_model(model, sizeof(model));
	o.model = model;
	assert_null(predicted(&o, msg, sizeof(msg)));
	assert_string_equal(msg, "unknown variable 'q' (the model uses: n p)");
	o.at = "n=1";
	o.whatif[o.nwhatif++] = "li=0";
	assert_null(predicted(&o, msg, sizeof(msg)));
	assert_string_equal(msg, "--what-if needs T(E) = sum C(E)/p, which needs p in --at");
	o = (struct lc_predrun_opts){ .model = model, .max_points = 1000 };
	assert_null(predicted(&o, msg, sizeof(msg)));
	assert_string_equal(msg, "give one of --at or --grid");
	o.model = "/nonexistent/m";
	o.at = "p=1";
	assert_null(predicted(&o, msg, sizeof(msg)));
	assert_string_equal(msg, "/nonexistent/m: No such file or directory");
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

/* What compose prints for o, or NULL after a refusal (reason in msg). */
static char *composed(struct lc_compose_opts *o, char *msg, size_t len)
{
	return captured(compose_run, o, msg, len);
}

static void test_compose_point_and_tuning(void **state)
{
	struct lc_compose_opts o = { .structure = "tests/data/compose/split.lcm",
				     .at = "n=10 p=4 q=1", .max_points = 1000 };
	char msg[512], *out;

	(void)state;
	out = composed(&o, msg, sizeof(msg));
	if (!out)
		fail_msg("%s", msg);
	assert_non_null(strstr(out, "T(E) = sum C(E)/p = "));
	assert_non_null(strstr(out, "\nrt   "));
	free(out);
	/* Ta = (60 + 0.5 (q-1)) / q, Tb = (20 + 0.5 (p-q-1)) / (p-q): least at q=3 */
	o.at = "n=10 p=4";
	o.tune = "q=1,2,3";
	out = composed(&o, msg, sizeof(msg));
	if (!out)
		fail_msg("%s", msg);
	assert_non_null(strstr(out, "search ("));
	assert_non_null(strstr(out, "n=10 p=4 q=3: T = "));
	assert_non_null(strstr(out, "the search found the brute-force minimum"));
	free(out);
}

static void test_compose_refusals(void **state)
{
	struct lc_compose_opts o = { .structure = "tests/data/compose/split.lcm",
				     .at = "n=10 q=1", .max_points = 1000 };
	char msg[512];
	double lat, bw;

	(void)state;
	assert_null(composed(&o, msg, sizeof(msg)));
	assert_string_equal(msg, "T(E) = sum C(E)/p needs p (the number of processors) in --at");
	o.at = "n=10 p=4";
	o.tune = "p=1,2";
	assert_null(composed(&o, msg, sizeof(msg)));
	assert_string_equal(msg, "'p' is in both --at and --tune");
	o.tune = NULL;
	o.memory = "";
	assert_null(composed(&o, msg, sizeof(msg)));	/* no memory callback given */
	assert_string_equal(msg, "--memory is not available here");
	assert_int_equal(lc_compose_transfer("latency=1e-6 bandwidth=1e9", &lat, &bw, msg,
					     sizeof(msg)), 0);
	assert_true(lat == 1e-6 && bw == 1e9);
	assert_int_equal(lc_compose_transfer("speed=3", &lat, &bw, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--transfer wants "));
}

LC_TEST_MAIN(setup, teardown,
	     LC_T(test_fit_ranks_the_true_form), LC_T(test_fit_refusal_is_a_note),
	     LC_T(test_fit_refusals), LC_T(test_fit_outputs), LC_T(test_fit_emit_round_trip),
	     LC_T(test_predict_tables), LC_T(test_predict_refusals),
	     LC_T(test_compose_point_and_tuning), LC_T(test_compose_refusals))
