/*
 * test_cattable.c — every row of the category table appears in every
 * output that shows categories: the report's text table, per-thread and
 * timeline tables, its CSV and JSON, the -l line and a runs file read back
 * from it, the Perfetto trace and the HTML page.  A synthetic profile in
 * memory (one thread, one window, a different time in every category) is
 * given to the writers, and each output is searched for the key and name
 * of each row of lc_cat_info.
 *
 * The Makefile builds this test twice: as test_cattable against the tool,
 * and as test_cattable_xcat against util/, profile/ and postproc/ compiled
 * with LC_TEST_EXTRA_CAT, which gives the table one more row after
 * Remaining Time (lc_profile.h): an output that walks a fixed list or
 * stops at a known category instead of the table misses that row there.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "html.h"
#include "lc_profile.h"
#include "lca_runs.h"
#include "perfetto.h"
#include "report.h"

#define MS 1000000ull

static char command[] = "./synthetic";
static struct lc_prof_thread thread = { .idx = 0, .pid = 10, .tid = 11 };
static struct lc_prof_trow trow;
static struct lc_prof_window window;
static struct lc_profile pr;

/* The profile: p = 1, one thread whose one window spends (c + 1) ms in
 * category c. */
static int setup(void **state)
{
	uint64_t wall = 0;

	(void)state;
	for (int c = 0; c < LC_NCAT; c++) {
		trow.cat[c] = (uint64_t)(c + 1) * MS;
		wall += trow.cat[c];
	}
	window = (struct lc_prof_window){ .len_ns = wall, .nmerged = 1, .ticks = 100, .max_n = 1,
					  .nthreads = 1, .threads = &trow };
	memcpy(window.acct.cat, trow.cat, sizeof(trow.cat));
	window.acct.t_we = wall;
	window.acct.n_we = wall;
	pr = (struct lc_profile){ .nthreads = 1, .threads = &thread, .procs = 1,
				  .procs_from = LC_PROCS_OPTION };
	pr.info = (struct lc_prof_info){ .interval_ns = MS / 10, .window_ns = wall,
					 .command = command };
	pr.data[LC_SRC_SAMPLED] = (struct lc_prof_data){ .present = 1, .nwindows = 1,
							 .windows = &window, .total = window.acct,
							 .max_n = 1, .nthreads = 1, .threads = &trow };
	return 0;
}

/* What f holds, as a string to free. */
static char *slurp(FILE *f)
{
	long n;
	char *s;

	fflush(f);
	n = ftell(f);
	assert_true(n > 0);
	s = calloc(1, (size_t)n + 1);
	assert_non_null(s);
	rewind(f);
	assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return s;
}

/* The report's standard output under options o. */
static char *report(const struct lc_report_opts *o)
{
	FILE *f = tmpfile();
	char msg[512];
	int saved, rc;

	assert_non_null(f);
	fflush(stdout);
	saved = dup(1);
	assert_true(saved >= 0 && dup2(fileno(f), 1) == 1);
	rc = lc_report_print(&pr, o, msg, sizeof(msg));
	fflush(stdout);
	assert_int_equal(dup2(saved, 1), 1);
	close(saved);
	assert_int_equal(rc, 0);
	return slurp(f);
}

/* pattern with each "@k" as key and each "@n" as name, into buf. */
static void expand(char *buf, size_t len, const char *pattern, const char *key, const char *name)
{
	size_t at = 0;

	for (const char *p = pattern; *p && at + 1 < len; p++)
		if (p[0] == '@' && (p[1] == 'k' || p[1] == 'n'))
			at += (size_t)snprintf(buf + at, len - at, "%s", *++p == 'k' ? key : name);
		else
			buf[at++] = *p;
	buf[at < len ? at : len - 1] = '\0';
}

/* Each row appears in out as pattern makes it of its key and name (see
 * expand); the first one missing is named. */
static void every_row(const char *what, const char *out, const char *pattern)
{
	for (int c = 0; c < LC_NCAT; c++) {
		const struct lc_cat_info *ci = lc_cat_info(c);
		char want[256];

		expand(want, sizeof(want), pattern, ci->key, ci->name);
		if (!out || !strstr(out, want))
			fail_msg("%s: row %d of the category table (%s) is missing: no '%s' in\n%s",
				 what, c, ci->key, want, out);
	}
}

/* The report in format fmt with its per-thread and timeline tables. */
static char *report_tables(enum lc_report_fmt fmt)
{
	struct lc_report_opts o = { .file = "synthetic", .fmt = fmt, .per_thread = 1,
				    .timeline = 1 };

	return report(&o);
}

static void test_text(void **state)
{
	char *out = report_tables(LC_REPORT_TEXT), *tables;

	(void)state;
	every_row("text table", out, "\n@n ");
	tables = strstr(out, "** per thread");
	assert_non_null(tables);
	every_row("text per-thread and timeline", tables, " @k");
	free(out);
}

/* CSV and JSON: the summary, per-thread and timeline rows of each. */
static void test_csv_json(void **state)
{
	char *csv = report_tables(LC_REPORT_CSV), *json = report_tables(LC_REPORT_JSON);

	(void)state;
	every_row("CSV summary", csv, "\n@k,@n,");
	every_row("CSV tables", csv, ",@k,");
	every_row("JSON categories", json, "\"@k\": {\"name\": \"@n\"");
	every_row("JSON per_thread", strstr(json, "\"per_thread\""), "\"@k\": ");
	every_row("JSON timeline", strstr(json, "\"timeline\""), "\"@k\": ");
	free(csv);
	free(json);
}

/* The -l line, and the runs file it makes read back with every key. */
static void test_lline(void **state)
{
	struct lc_report_opts o = { .file = "synthetic", .lline = 1, .note = "n=1" };
	char *out = report(&o), path[] = "/tmp/lc_test_cattableXXXXXX";
	struct lc_runs_error err = { 0 };
	struct lc_runs *r = NULL;
	int fd = mkstemp(path);

	(void)state;
	every_row("-l line", out, " @k=");
	assert_true(fd >= 0);
	assert_int_equal(write(fd, out, strlen(out)), (ssize_t)strlen(out));
	close(fd);
	assert_int_equal(lc_runs_read(path, &r, &err), 0);
	for (int c = 0; c < LC_NCAT; c++)
		if (lc_runs_find_key(r, lc_cat_info(c)->key, strlen(lc_cat_info(c)->key)) < 0)
			fail_msg("runs file: no key %s in %s", lc_cat_info(c)->key, out);
	lc_runs_free(r);
	unlink(path);
	free(out);
}

/* The Perfetto timeline and the HTML page. */
static void test_perfetto_html(void **state)
{
	FILE *f = tmpfile(), *g = tmpfile();
	char msg[256], *out;

	(void)state;
	assert_true(f && g);
	assert_int_equal(lc_perfetto_write(f, &pr, LC_SRC_SAMPLED, NULL, NULL, msg, sizeof(msg)), 0);
	out = slurp(f);
	every_row("perfetto slices", out, "\"name\":\"@n\",\"cat\":\"@k\"");
	every_row("perfetto counter track", strstr(out, "\"processors\""), "\"@k\":");
	free(out);
	assert_int_equal(lc_html_write(g, &pr, LC_SRC_SAMPLED, "synthetic", NULL, NULL, msg,
				       sizeof(msg)), 0);
	out = slurp(g);
	every_row("html page", out, "@n");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_csv_json),
		cmocka_unit_test(test_lline),
		cmocka_unit_test(test_perfetto_html),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
