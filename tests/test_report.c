/*
 * test_report.c — "lostcycles report" end to end: profiles written with the
 * real writer into a temporary directory, the built ./lostcycles run on them
 * (from the top of the tree), and its output, errors and exit status checked.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "lc_profile.h"
#include "prof_sample.h"
#include "profile_format.h"

static char dir[] = "/tmp/lc_test_reportXXXXXX";
static char sample[256], errpath[256];
static uint64_t bounds[SAMPLE_NBLOCKS];
static char out[65536], errout[4096];

/* Path of name in the temporary directory (a static buffer per call site). */
static const char *tmp(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
	return buf;
}

static int setup(void **state)
{
	(void)state;
	if (access("./lostcycles", X_OK) || !mkdtemp(dir))
		return -1;
	tmp(sample, sizeof(sample), "s.data");
	tmp(errpath, sizeof(errpath), "stderr");
	return sample_write(sample, bounds);
}

static int teardown(void **state)
{
	char cmd[512];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

/* Run "./lostcycles report ARGS"; stdout into out[], stderr into errout[].
 * Returns the exit status. */
static int run(const char *fmt, ...)
{
	char args[2048], cmd[4096];
	size_t n;
	va_list ap;
	FILE *p;
	int st;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof(cmd), "./lostcycles report %s 2>'%s'", args, errpath);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = 0;
	st = pclose(p);
	p = fopen(errpath, "r");
	assert_non_null(p);
	n = fread(errout, 1, sizeof(errout) - 1, p);
	errout[n] = 0;
	fclose(p);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

/* The line of out[] that starts with prefix, or fail. */
static const char *line(const char *prefix)
{
	size_t n = strlen(prefix);

	for (const char *s = out; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL)
		if (!strncmp(s, prefix, n))
			return s;
	fail_msg("no line starting with '%s' in:\n%s", prefix, out);
	return NULL;
}

/* The line starting with prefix holds each of the words. */
static void line_has(const char *prefix, const char *w1, const char *w2)
{
	const char *l = line(prefix);
	const char *e = strchr(l, '\n');
	char buf[512];
	size_t n = e ? (size_t)(e - l) : strlen(l);

	snprintf(buf, sizeof(buf), "%.*s", (int)n, l);
	if (w1 && !strstr(buf, w1))
		fail_msg("'%s' lacks '%s'", buf, w1);
	if (w2 && !strstr(buf, w2))
		fail_msg("'%s' lacks '%s'", buf, w2);
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void write_bytes(const char *p, const void *b, size_t n)
{
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	if (n)
		assert_int_equal(write(fd, b, n), (ssize_t)n);
	close(fd);
}

/* The first n bytes of the sample into path p. */
static void write_prefix(const char *p, size_t n)
{
	FILE *f = fopen(sample, "rb");
	char *b = malloc(n + 1);

	assert_non_null(f);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, n, f), n);
	fclose(f);
	write_bytes(p, b, n);
	free(b);
}

static void test_text(void **state)
{
	(void)state;
	assert_int_equal(run("-f '%s'", sample), 0);
	assert_string_equal(errout, "");
	assert_non_null(strstr(out, "./demo 4"));
	line_has("** processors: 4 (LC_TEAM)", NULL, NULL);
	line_has("Load Imbalance ", "0.015000", "18.75%");
	line_has("  of which queue empty", "0.001000", "1.25%");
	line_has("Insuff Parallelism ", "0.030000", "37.50%");
	line_has("Synchronization Loss ", "0.004000", "5.00%");
	line_has("Communication Loss ", "0.000000", "0.00%");
	line_has("Resource Contention ", " na ", "(no hardware PMU)");
	line_has("Memory Loss ", " na ", "(no hardware PMU)");
	line_has("Braking Loss ", "0.000000", NULL);
	line_has("Wasted Computation ", "0.002000", "2.50%");
	line_has("Total Time ", "0.080000", "100.00%");
	line_has("Remaining Time ", "0.029000", "36.25%");
	line_has("** wall time: 0.020000 s", NULL, NULL);
	line_has("** note: 1 LC_TASK_WASTED", NULL, NULL);
	line_has("** note: 2 invalid", NULL, NULL);
	/* Total Time comes before Remaining Time, as in pp */
	assert_true(strstr(out, "Total Time") < strstr(out, "Remaining Time"));
	/* FILE as an argument gives the same output */
	{
		char first[sizeof(out)];

		strcpy(first, out);
		assert_int_equal(run("'%s'", sample), 0);
		assert_string_equal(first, out);
	}
}

static void test_lline(void **state)
{
	(void)state;
	assert_int_equal(run("-l 'n=1024 d=32' '%s'", sample), 0);
	assert_string_equal(out, "n=1024 d=32 p=4 li=0.015 ip=0.03 sl=0.004 cl=0 rc=na ml=na "
				 "bl=0 wc=0.002 rt=0.029 tt=0.08\n");
	assert_int_equal(run("-l '%s'", sample), 0);	/* no '=': the FILE */
	assert_string_equal(out, "p=4 li=0.015 ip=0.03 sl=0.004 cl=0 rc=na ml=na "
				 "bl=0 wc=0.002 rt=0.029 tt=0.08\n");
	assert_int_equal(run("-f '%s' -l n=8", sample), 0);
	assert_true(!strncmp(out, "n=8 p=4 li=", 11));
	assert_int_equal(run("-f '%s' -l -t 7", sample), 0);
	assert_string_equal(out, "p=4 li=0.005 ip=0.006 sl=0.003 cl=0 rc=na ml=na "
				 "bl=0 wc=0.002 rt=0.012 tt=0.028\n");
	assert_int_equal(run("-f '%s' -l 'n=1 x'", sample), 2);
	assert_int_equal(count_lines(errout), 1);
	assert_int_equal(run("-f '%s' -l '=3'", sample), 2);
}

static void test_tag(void **state)
{
	(void)state;
	assert_int_equal(run("-f '%s' -t 7", sample), 0);
	line_has("** fragment tag 7", NULL, NULL);
	line_has("Load Imbalance ", "0.005000", "17.86%");
	line_has("Insuff Parallelism ", "0.006000", NULL);
	line_has("Wasted Computation ", "0.002000", NULL);
	line_has("Total Time ", "0.028000", "100.00%");
	line_has("Remaining Time ", "0.012000", NULL);
	assert_int_equal(run("-f '%s' -t -3", sample), 0);
	line_has("Insuff Parallelism ", "0.024000", "75.00%");
	line_has("Total Time ", "0.032000", NULL);
	assert_int_equal(run("-f '%s' -t 99", sample), 1);
	assert_string_equal(out, "");
	assert_non_null(strstr(errout, "tag 99 never appears (tags present: -3 7)"));
	assert_int_equal(count_lines(errout), 1);
	assert_int_equal(run("-f '%s' -t abc", sample), 2);
	assert_int_equal(run("-f '%s' -t 7 --per-thread", sample), 2);
}

static void test_per_thread(void **state)
{
	(void)state;
	assert_int_equal(run("-f '%s' --per-thread", sample), 0);
	line_has("     100      100", "0.004000", "0.016000");
	line_has("     100      101", "0.002000", "0.008000");
	line_has("     100      102", "0.005000", "0.010000");
	line_has("(empty slots)", "0.010000   0.030000", "0.040000");
	assert_int_equal(run("-f '%s' --timeline", sample), 0);
	line_has("      0   0.000000   0.010000", "0.375", "0.475");
	line_has("      1   0.010000   0.010000", "0.750", "0.250");
}

static void test_csv(void **state)
{
	(void)state;
	assert_int_equal(run("-f '%s' --format csv --per-thread --timeline", sample), 0);
	line_has("key,name,seconds,percent,available,reason", NULL, NULL);
	line_has("p,processors,4,", NULL, NULL);
	line_has("li,Load Imbalance,0.015000000,18.7500,1,", NULL, NULL);
	line_has("rc,Resource Contention,,,0,no hardware PMU", NULL, NULL);
	line_has("rt,Remaining Time,0.029000000,36.2500,1,", NULL, NULL);
	line_has("tt,Total Time,0.080000000,100.0000,1,", NULL, NULL);
	line_has("thread,pid,tid,li,ip,sl,cl,rc,ml,bl,wc,rt,total", NULL, NULL);
	line_has("1,100,101,", ",0.002000000,0.008000000,0.010000000", NULL);
	line_has("empty,,,0.010000000,0.030000000,", NULL, NULL);
	line_has("window,start,wall,", NULL, NULL);
	line_has("1,0.010000000,0.010000000,0.000000000,0.030000000", NULL, NULL);
	/* every row of a section has as many fields as its header */
	for (const char *s = line("thread,"); *s && *s != '\n'; s = strchr(s, '\n') + 1) {
		int commas = 0;

		for (const char *c = s; *c && *c != '\n'; c++)
			commas += *c == ',';
		assert_int_equal(commas, 12);
	}
}

static void test_json(void **state)
{
	char jpath[256], cmd[600];
	double v;
	const char *p;

	(void)state;
	assert_int_equal(run("-f '%s' --format json --per-thread --timeline", sample), 0);
	assert_non_null(strstr(out, "\"procs\": 4,"));
	assert_non_null(strstr(out, "\"procs_from\": \"LC_TEAM\""));
	assert_non_null(strstr(out, "\"wall\": 0.020000000"));
	assert_non_null(strstr(out, "\"total\": 0.080000000"));
	p = strstr(out, "\"li\": {\"name\": \"Load Imbalance\", \"seconds\": ");
	assert_non_null(p);
	v = strtod(strchr(p, ':') + 1 + strlen(" {\"name\": \"Load Imbalance\", \"seconds\":"), NULL);
	assert_true(v > 0.01499 && v < 0.01501);
	assert_non_null(strstr(out, "\"available\": false, \"reason\": \"no hardware PMU\""));
	assert_non_null(strstr(out, "\"per_thread\": ["));
	assert_non_null(strstr(out, "\"empty_slots\": {\"li\": 0.010000000, \"ip\": 0.030000000"));
	assert_non_null(strstr(out, "\"timeline\": ["));
	assert_non_null(strstr(out, "\"cut\": null"));
	/* a JSON parser accepts it, when one is installed */
	if (system("command -v python3 >/dev/null 2>&1") == 0) {
		write_bytes(tmp(jpath, sizeof(jpath), "r.json"), out, strlen(out));
		snprintf(cmd, sizeof(cmd), "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); "
			 "assert d[\"categories\"][\"rt\"][\"seconds\"] == 0.029' '%s'", jpath);
		assert_int_equal(system(cmd), 0);
	}
}

static void test_source(void **state)
{
	char p[256];

	(void)state;
	assert_int_equal(run("-f '%s' --source trace", sample), 0);
	line_has("** source: trace mode", NULL, NULL);
	line_has("Synchronization Loss ", "0.005000", "12.50%");
	write_prefix(tmp(p, sizeof(p), "notrace.data"), (size_t)bounds[7]);
	assert_int_equal(run("-f '%s' --source=trace", p), 1);
	assert_non_null(strstr(errout, "no trace-mode data"));
	assert_int_equal(run("-f '%s' --source bogus", p), 2);
}

static void test_cut(void **state)
{
	char p[256];

	(void)state;
	write_prefix(tmp(p, sizeof(p), "cut.data"), (size_t)bounds[6] + 5);
	assert_int_equal(run("-f '%s'", p), 0);
	line_has("** profile cut at byte 673: shows the first 2 windows (0.020000 s)", NULL, NULL);
	assert_non_null(strstr(errout, "profile cut at byte 673: shows the first 2 windows"));
	assert_int_equal(count_lines(errout), 1);
	/* window 0's wasted record came after the cut: its time stays in rt */
	line_has("Wasted Computation ", "0.000000", NULL);
	assert_int_equal(run("-f '%s' -l", p), 0);
	assert_int_equal(count_lines(out), 1);
	assert_non_null(strstr(errout, "cut at byte"));
	assert_int_equal(run("-f '%s' --format json", p), 0);
	assert_non_null(strstr(out, "\"cut\": {\"offset\": 673, \"windows\": 2"));
}

/* Every bad input: one line on stderr naming the file, status 1 (2 for
 * usage errors), nothing on stdout. */
static void test_bad_inputs(void **state)
{
	static const struct { const char *name; const char *why; } cases[] = {
		{ "missing.data", "No such file or directory" },
		{ "empty.data", "empty file" },
		{ "random.data", "not a lostcycles profile" },
		{ "magic.data", "not a lostcycles profile" },
		{ "newer.data", "version 2 is newer than this tool (1)" },
		{ "header.data", "truncated header" },
		{ "noblock.data", "no complete block" },
	};
	char p[256], want[512];
	uint8_t b[4096];

	(void)state;
	write_bytes(tmp(p, sizeof(p), "empty.data"), "", 0);
	srand(3);
	for (size_t i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)rand();
	write_bytes(tmp(p, sizeof(p), "random.data"), b, sizeof(b));
	write_bytes(tmp(p, sizeof(p), "magic.data"), "LCPROF02 and so on.........", 27);
	{
		FILE *f = fopen(sample, "rb");

		assert_int_equal(fread(b, 1, 24, f), 24);
		fclose(f);
	}
	write_bytes(tmp(p, sizeof(p), "header.data"), b, 13);
	write_bytes(tmp(p, sizeof(p), "noblock.data"), b, 24);
	b[8] = 2;	/* major version 2, header checksum refreshed */
	lc_pf_put32(b + 20, lc_crc32(0, b, 20));
	write_bytes(tmp(p, sizeof(p), "newer.data"), b, 24);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		tmp(p, sizeof(p), cases[i].name);
		assert_int_equal(run("-f '%s'", p), 1);
		snprintf(want, sizeof(want), "lostcycles report: %s: %s", p, cases[i].why);
		if (strncmp(errout, want, strlen(want)))
			fail_msg("case %s: got '%s', want '%s'", cases[i].name, errout, want);
		assert_int_equal(count_lines(errout), 1);
		assert_string_equal(out, "");
	}
	assert_int_equal(run("--bogus '%s'", sample), 2);
	assert_non_null(strstr(errout, "unknown option '--bogus'"));
	assert_int_equal(count_lines(errout), 1);
	assert_int_equal(run("-f"), 2);
	assert_int_equal(run("--format xml '%s'", sample), 2);
	assert_int_equal(run("'%s' '%s'", sample, sample), 2);
	assert_int_equal(run("--help"), 0);
	assert_non_null(strstr(out, "usage: lostcycles report"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_lline),
		cmocka_unit_test(test_tag),
		cmocka_unit_test(test_per_thread),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_source),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_bad_inputs),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
