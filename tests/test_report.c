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

#include "lc_test.h"
#include "lc_profile.h"
#include "prof_sample.h"
#include "profile_format.h"

static char dir[] = "/tmp/lc_test_reportXXXXXX";
static char sample[256], errpath[256], v2[256], v2stall[256], v2old[256], v2cut[256],
	    v2grown[256];
static uint64_t bounds[SAMPLE_NBLOCKS];
static char out[65536], errout[4096];

/* Path of name in the temporary directory (a static buffer per call site). */
static const char *tmp(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
	return buf;
}

static int v2_write(const char *path, int stall, int old);

static int setup(void **state)
{
	(void)state;
	if (access("./lostcycles", X_OK) || !mkdtemp(dir))
		return -1;
	tmp(sample, sizeof(sample), "s.data");
	tmp(errpath, sizeof(errpath), "stderr");
	tmp(v2, sizeof(v2), "v2.data");
	tmp(v2stall, sizeof(v2stall), "v2stall.data");
	tmp(v2old, sizeof(v2old), "v2old.data");
	tmp(v2cut, sizeof(v2cut), "v2cut.data");
	tmp(v2grown, sizeof(v2grown), "v2grown.data");
	if (v2_write(v2, 0, 0) || v2_write(v2stall, 1, 0) || v2_write(v2old, 1, 1) ||
	    v2_write(v2cut, 1, 2) || v2_write(v2grown, 2, 2))
		return -1;
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
static int report(const char *args)
{
	int st = lc_test_shell(out, sizeof(out), "./lostcycles report %s 2>'%s'", args, errpath);

	lc_test_slurp(errpath, errout, sizeof(errout));
	return st;
}

/* report() with the arguments printf makes of fmt and what follows. */
static int run(const char *fmt, ...)
{
	char args[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	return report(args);
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

/* The line starting with prefix holds the word w (none: NULL). */
static void line_holds(const char *prefix, const char *w)
{
	const char *l = line(prefix);
	const char *e = strchr(l, '\n');
	char buf[512];
	size_t n = e ? (size_t)(e - l) : strlen(l);

	snprintf(buf, sizeof(buf), "%.*s", (int)n, l);
	if (w && !strstr(buf, w))
		fail_msg("'%s' lacks '%s'", buf, w);
}

/* The line starting with prefix holds each of the words. */
static void line_has(const char *prefix, const char *w1, const char *w2)
{
	line_holds(prefix, w1);
	line_holds(prefix, w2);
}

/* The line starting with prefix does not hold w. */
static void line_lacks(const char *prefix, const char *w)
{
	const char *l = line(prefix), *e = strchr(l, '\n'), *p = strstr(l, w);

	if (p && (!e || p < e))
		fail_msg("line '%s' holds '%s'", prefix, w);
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* The last run was refused: nothing on standard output, one line on
 * standard error, and it says why. */
static void refused(const char *why)
{
	assert_string_equal(out, "");
	assert_non_null(strstr(errout, why));
	assert_int_equal(count_lines(errout), 1);
}

static void write_bytes(const char *p, const void *b, size_t n)
{
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	if (n)
		assert_int_equal(write(fd, b, n), (ssize_t)n);
	close(fd);
}

/* The first n bytes of the sample into b. */
static void read_sample(void *b, size_t n)
{
	FILE *f = fopen(sample, "rb");

	assert_non_null(f);
	assert_int_equal(fread(b, 1, n, f), n);
	fclose(f);
}

/* The first n bytes of the sample into path p. */
static void write_prefix(const char *p, size_t n)
{
	char *b = malloc(n + 1);

	assert_non_null(b);
	read_sample(b, n);
	write_bytes(p, b, n);
	free(b);
}

/* ---- a minor-2 profile: counters, methods, the sampler's own figures ------
 *
 * p = 2, interval 100 us, four 10 ms windows, two threads, tag 5 in window 0.
 * Categories (ns over both slots): PC 68e6, SL 8e6, RC 2e6, ML 2e6: total
 * 80e6.  The info block says RC and ML were not measured; the end block,
 * which has the final say, measured them (RC from context-switch records)
 * and not CL.  Counters: cycles, instructions, misses, stall cycles; totals
 * 4000, 3000, 30, 400 (IPC 0.75, 10 misses per 1000 instructions); tag 5
 * holds thread 0's 1000, 2000, 10, 100.
 * With stall set, windows 1 and 2 have no tick: the sampler stalled for 25 ms
 * from 8 ms, missing 249 ticks (151 taken); with stall 2 the interval grew
 * (100, 50, 25, 10 ticks: 0.1 to 1 ms) and none was missed; else every
 * window has 100 ticks. */
static char v2_cycles[] = "cycles", v2_instr[] = "instructions", v2_miss[] = "LLC-misses",
	    v2_stall[] = "stalled-cycles-backend", v2_nomiss[] = "no miss counter",
	    v2_rc[] = "BUSY time runnable but off CPU, per tick",
	    v2_ml[] = "busy time x stall cycles / cycles";

/* Rewrite the end block at byte at of path with only the fields of format
 * minor 0 (up to its reason string), as an older sampler wrote it, and cut
 * the file after it.  Returns 0 or -errno. */
static int cut_end(const char *path, uint64_t at)
{
	uint8_t b[8192];
	FILE *f = fopen(path, "r+b");
	size_t n, len;

	if (!f)
		return -errno;
	n = fread(b, 1, sizeof(b), f);
	if (n < at + 8 + 52 || n > sizeof(b) - 8) {
		fclose(f);
		return -EINVAL;
	}
	/* end_ns .. bad_reads (48 bytes), then the reason: u32 length, bytes */
	len = 52 + (b[at + 8 + 48] | (size_t)b[at + 8 + 49] << 8);
	lc_pf_put32(b + at + 4, (uint32_t)len);
	lc_pf_put32(b + at + 8 + len, lc_crc32(0, b + at, 8 + len));
	rewind(f);
	if (fwrite(b, 1, at + 12 + len, f) != at + 12 + len || fclose(f))
		return -EIO;
	return truncate(path, (off_t)(at + 12 + len)) ? -errno : 0;
}

/* v2's end block: 4 ticks of 100 ms, or with stall a sampler that missed
 * 249 of them. */
static struct lc_prof_end v2_end(int stall)
{
	struct lc_prof_end e = { .end_ns = 40000000, .procs = 2, .procs_from = LC_PROCS_TEAM,
				 .exit_status = 0, .ticks = 400, .max_gap_ns = 150000,
				 .reason = sample_endr, .sampler_cpu_ns = 4000000,
				 .max_gap_at_ns = 20000000, .sched_source = LC_SCHED_SWITCH,
				 .shared_cpu = 1, .unavailable = 1u << LC_CAT_CL, .ncpus = 2 };

	if (stall == 1) {
		e.ticks = 151, e.missed_ticks = 249, e.max_gap_ns = 25000000;
		e.max_gap_at_ns = 33000000;
	}
	e.reason_na[LC_CAT_CL] = v2_nomiss;
	e.method[LC_CAT_RC] = v2_rc;
	e.method[LC_CAT_ML] = v2_ml;
	return e;
}

/* Write v2's window k of 10 ms (ticks: its ticks) with its counts. */
static int v2_window(struct lc_pwriter *w, uint32_t k, uint32_t ticks)
{
	static const uint64_t pc[4] = { 12000000, 20000000, 20000000, 16000000 };
	struct lc_prof_tagrow g0[1] = {
		{ .tag = 5, .acct = { .cat = { [LC_CAT_PC] = 6000000 }, .t_we = 3000000,
				      .n_we = 6000000 } },
	};
	int64_t tag5 = 5;
	struct lc_prof_counts c0 = { .source = LC_SRC_SAMPLED, .window = 0, .thread = 0,
				     .ntags = 1, .tags = &tag5, .nev = 4,
				     .v = { 1000, 2000, 10, 100 } };
	struct lc_prof_counts c3 = { .source = LC_SRC_SAMPLED, .window = 3, .thread = 1,
				     .nev = 4, .v = { 3000, 1000, 20, 300 } };
	struct lc_prof_trow rows[2] = {
		{ .thread = 0, .cat = { [LC_CAT_PC] = pc[k] / 2 } },
		{ .thread = 1, .cat = { [LC_CAT_PC] = pc[k] / 2 } },
	};
	struct lc_prof_window win = {
		.source = LC_SRC_SAMPLED, .index = k, .start_ns = 10000000ull * k,
		.ticks = ticks, .max_n = 2, .team = 2,
		.acct = { .cat = { [LC_CAT_PC] = pc[k] }, .t_we = 10000000, .n_we = 20000000 },
		.nthreads = 2, .threads = rows, .ntags = k ? 0 : 1, .tags = g0,
	};
	int r;

	if (k == 0 || k == 3) {
		win.acct.cat[LC_CAT_SL] = 4000000;
		rows[0].cat[LC_CAT_SL] = 4000000;
	}
	if (k == 0) {
		win.acct.cat[LC_CAT_RC] = 2000000;
		win.acct.cat[LC_CAT_ML] = 2000000;
		rows[1].cat[LC_CAT_RC] = 2000000;
		rows[1].cat[LC_CAT_ML] = 2000000;
	}
	r = lc_pwriter_window(w, &win);
	if (!r && (k == 0 || k == 3))
		r = lc_pwriter_counts(w, k ? &c3 : &c0);
	return r;
}

/* Write it to path; with old 1, cut the end block back to its minor-0
 * fields (as a file of an older sampler); with old 2, cut the file before
 * its end block (as a sampler killed by SIGKILL leaves it).  Returns 0 or
 * the writer's error. */
static int v2_write(const char *path, int stall, int old)
{
	struct lc_prof_info in = sample_info();
	struct lc_prof_event ev[4] = {
		{ v2_cycles, LC_EVR_CYCLES }, { v2_instr, LC_EVR_INSTR },
		{ v2_miss, LC_EVR_MISS }, { v2_stall, LC_EVR_STALL },
	};
	uint32_t ticks[4] = { 100, 100, 100, 100 };
	struct lc_prof_end e = v2_end(stall);
	struct lc_pwriter *w;
	uint64_t end_at;
	int err = 0, r;

	if (stall == 1)
		ticks[0] = 80, ticks[1] = 0, ticks[2] = 0, ticks[3] = 71;
	else if (stall == 2)
		ticks[0] = 100, ticks[1] = 50, ticks[2] = 25, ticks[3] = 10;
	w = sample_open(path, &in, &err);
	if (!w)
		return err;
	r = lc_pwriter_events(w, 4, ev);
	for (int32_t i = 0; i < 2; i++) {
		struct lc_prof_thread t = { .idx = (uint32_t)i, .pid = 200, .tid = 200 + i,
					    .slot = (uint32_t)i };

		r = r ? r : lc_pwriter_thread(w, &t);
	}
	for (uint32_t k = 0; k < 4; k++)
		r = r ? r : v2_window(w, k, ticks[k]);
	end_at = sample_size(path);
	r = r ? r : lc_pwriter_end(w, &e);
	err = lc_pwriter_close(w);
	if (!r && !err && old == 2)
		r = truncate(path, (off_t)end_at) ? -errno : 0;
	else if (!r && !err && old)
		r = cut_end(path, end_at);
	return r ? r : err;
}

/* A line of out[] that must be there: its start and up to two words. */
struct want {
	const char *prefix, *w1, *w2;
};

/* Each line of want, up to a NULL prefix, is in out[] with its words
 * (none: NULL). */
static void lines_have(const struct want *want)
{
	for (; want && want->prefix; want++)
		line_has(want->prefix, want->w1, want->w2);
}

/* out[] has a line starting with each string of starts, up to its NULL
 * (none: NULL). */
static void lines_start(const char *const *starts)
{
	for (; starts && *starts; starts++)
		line(*starts);
}

#define LINES(...) ((const struct want[]){ __VA_ARGS__, { NULL, NULL, NULL } })

/* A run of report on a profile that exits 0, and what its output holds. */
struct output {
	const char *args;		/* report's arguments: %s is the file */
	const char *file;		/* the profile */
	const char *exact;		/* the whole output (or NULL) */
	const char *const *starts;	/* starts of lines there must be (or NULL) */
	const struct want *lines;	/* lines there must be (or NULL) */
	const char *const *has;		/* strings it must hold (or NULL) */
	const char *const *lacks;	/* strings it must not (or NULL) */
};

#include "report_outputs.h"

/* Run the case o: it exits 0, and its output holds what o says. */
static void check_output(const struct output *o)
{
	if (run(o->args, o->file))
		fail_msg("report %s: exit status not 0:\n%s", o->args, errout);
	if (o->exact)
		assert_string_equal(out, o->exact);
	lines_start(o->starts);
	lines_have(o->lines);
	lc_test_has(out, o->has);
	lc_test_lacks(out, o->lacks);
}

static void test_outputs(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++)
		check_output(&outputs[i]);
}

/* A JSON parser (python3's, when one is installed) reads out[], and the
 * python statements script (no single quote) hold of it, loaded from
 * sys.argv[1]. */
static void python_accepts(const char *name, const char *script)
{
	char path[256], cmd[1024];

	if (system("command -v python3 >/dev/null 2>&1"))
		return;
	write_bytes(tmp(path, sizeof(path), name), out, strlen(out));
	snprintf(cmd, sizeof(cmd), "python3 -c 'import json,sys; %s' '%s'", script, path);
	assert_int_equal(system(cmd), 0);
}

/* The JSON of the table and of the counters parses, with their figures. */
static void test_json_parses(void **state)
{
	(void)state;
	assert_int_equal(run("-f '%s' --format json --per-thread --timeline", sample), 0);
	python_accepts("r.json", "d=json.load(open(sys.argv[1])); "
		       "assert d[\"categories\"][\"rt\"][\"seconds\"] == 0.029");
	assert_int_equal(run("-f '%s' --counters --format json", v2), 0);
	python_accepts("c.json", "c=json.load(open(sys.argv[1]))[\"counters\"]; "
		       "assert c[\"ipc\"] == 0.75 and c[\"mpki\"] == 10, c; "
		       "assert c[\"per_thread\"][1][\"counts\"] == [3000, 1000, 20, 300]; "
		       "assert c[\"per_tag\"][0][\"tag\"] == 5");
}

/* The table: nothing on stderr; Total Time before Remaining Time, as in pp. */
static void test_text(void **state)
{
	(void)state;
	assert_int_equal(run("-f '%s'", sample), 0);
	assert_string_equal(errout, "");
	assert_true(strstr(out, "Total Time") < strstr(out, "Remaining Time"));
}

/* FILE as an argument gives the same output as -f FILE. */
static void test_text_file_arg(void **state)
{
	char first[sizeof(out)];

	(void)state;
	assert_int_equal(run("-f '%s'", sample), 0);
	strcpy(first, out);
	assert_int_equal(run("'%s'", sample), 0);
	assert_string_equal(first, out);
}

/* A note that is no list of key=value is a usage error. */
static void test_lline_bad(void **state)
{
	(void)state;
	assert_int_equal(run("-f '%s' -l 'n=1 x'", sample), 2);
	assert_int_equal(count_lines(errout), 1);
	assert_int_equal(run("-f '%s' -l '=3'", sample), 2);
}

/* A note naming a key of the line is an error when it contradicts the
 * profile (see outputs for one that agrees) ... */
static void test_lline_note_refusals(void **state)
{
	(void)state;
	assert_int_equal(run("-f '%s' -l 'n=8 p=2'", sample), 1);
	refused("-l: the note says p=2 but the profile's p is 4");
	assert_int_equal(run("-f '%s' -l 'cpus=8'", sample), 1);
	refused("the note says cpus=8 but the profile's cpus is 2");
	assert_int_equal(run("-f '%s' -l 'rc=0.5'", sample), 1);
	refused("the note says rc=0.5 but the profile's rc is na");
}

/* Fit reads such lines (cpus is recorded, not modeled): it takes lines
 * with cpus= and models only -v. */
static void test_lline_fit(void **state)
{
	char runs[256], none[8];

	(void)state;
	tmp(runs, sizeof(runs), "runs");
	for (int n = 1; n <= 3; n++)
		assert_int_equal(lc_test_shell(none, sizeof(none), "./lostcycles report -f '%s' "
					       "-l 'n=%d' >>'%s' 2>/dev/null", sample, n, runs), 0);
	assert_int_equal(lc_test_shell(none, sizeof(none), "./lostcycles fit -c li -v n -f '%s' "
				       ">/dev/null 2>&1", runs), 0);
}

/* A tag that never appears, a word that names neither a tag nor a place
 * (refused once the profile shows it), -t with --per-thread. */
static void test_tag_refusals(void **state)
{
	(void)state;
	assert_int_equal(run("-f '%s' -t 99", sample), 1);
	refused("tag 99 never appears (tags present: -3 7)");
	assert_int_equal(run("-f '%s' -t abc", sample), 1);
	assert_non_null(strstr(errout, "no fragment tag or place is named 'abc'"));
	assert_int_equal(run("-f '%s' -t 7 --per-thread", sample), 2);
}

/* Every row of the per-thread section has as many fields as its header. */
static void test_csv_fields(void **state)
{
	(void)state;
	assert_int_equal(run("-f '%s' --format csv --per-thread --timeline", sample), 0);
	for (const char *s = line("thread,"); *s && *s != '\n'; s = strchr(s, '\n') + 1) {
		int commas = 0;

		for (const char *c = s; *c && *c != '\n'; c++)
			commas += *c == ',';
		assert_int_equal(commas, 12);
	}
}

/* A category's seconds in JSON, as a number. */
static void test_json_number(void **state)
{
	const char *key = "\"li\": {\"name\": \"Load Imbalance\", \"seconds\": ", *p;
	double v;

	(void)state;
	assert_int_equal(run("-f '%s' --format json --per-thread --timeline", sample), 0);
	p = strstr(out, key);
	assert_non_null(p);
	v = strtod(p + strlen(key), NULL);
	assert_true(v > 0.01499 && v < 0.01501);
}

/* --source trace of a profile without it; an unknown source. */
static void test_source_refusals(void **state)
{
	char p[256];

	(void)state;
	write_prefix(tmp(p, sizeof(p), "notrace.data"), (size_t)bounds[7]);
	assert_int_equal(run("-f '%s' --source=trace", p), 1);
	assert_non_null(strstr(errout, "no trace-mode data"));
	assert_int_equal(run("-f '%s' --source bogus", p), 2);
}

/* The sample cut 5 bytes into its third window block: its path. */
static const char *cut_sample(void)
{
	static char p[256];

	write_prefix(tmp(p, sizeof(p), "cut.data"), (size_t)bounds[6] + 5);
	return p;
}

/* The cut keeps every block before the one it splits, and says so once. */
static void test_cut(void **state)
{
	char want[128];

	(void)state;
	assert_int_equal(run("-f '%s'", cut_sample()), 0);
	snprintf(want, sizeof(want), "** profile cut at byte %zu: shows the first 2 windows (0.020000 s)",
		 (size_t)bounds[6]);
	line_has(want, NULL, NULL);
	assert_non_null(strstr(errout, want + 3));
	assert_int_equal(count_lines(errout), 1);
}

/* Window 0's wasted record came after the cut: its time stays in rt. */
static void test_cut_wasted(void **state)
{
	(void)state;
	assert_int_equal(run("-f '%s'", cut_sample()), 0);
	line_has("Wasted Computation ", "0.000000", NULL);
}

/* -l of a cut profile: its line, and the cut said on stderr. */
static void test_cut_lline(void **state)
{
	(void)state;
	assert_int_equal(run("-f '%s' -l", cut_sample()), 0);
	assert_int_equal(count_lines(out), 1);
	assert_non_null(strstr(errout, "cut at byte"));
}

/* JSON of a cut profile: where, and the windows it shows. */
static void test_cut_json(void **state)
{
	char want[128];

	(void)state;
	assert_int_equal(run("-f '%s' --format json", cut_sample()), 0);
	snprintf(want, sizeof(want), "\"cut\": {\"offset\": %zu, \"windows\": 2", (size_t)bounds[6]);
	assert_non_null(strstr(out, want));
}

/* How many times needle occurs in out[]. */
static int occurrences(const char *needle)
{
	int n = 0;

	for (const char *s = strstr(out, needle); s; s = strstr(s + 1, needle))
		n++;
	return n;
}

/* The column at which needle starts on the line starting with prefix. */
static long column(const char *prefix, const char *needle)
{
	const char *l = line(prefix), *e = strchr(l, '\n'), *p = strstr(l, needle);

	if (!p || (e && p > e))
		fail_msg("no '%s' on line '%s'", needle, prefix);
	return (long)(p - l);
}

/* Item: how counter- and scheduler-derived categories were measured (see
 * outputs), each once under the table. */
static void test_methods_once(void **state)
{
	(void)state;
	assert_int_equal(run("-f '%s'", v2), 0);
	assert_int_equal(occurrences("Resource Contention"), 2);	/* row and method */
	assert_int_equal(occurrences("no miss counter"), 1);
}

/* The standard error is a column in text (see outputs): the ± of every
 * row and the reason of an na row line up; Total Time has none. */
static void test_std_err_column(void **state)
{
	(void)state;
	assert_int_equal(run("-f '%s'", sample), 0);
	line_lacks("Total Time ", "\u00b1");
	assert_int_equal(column("Load Imbalance ", "\u00b1"), column("Wasted Computation ", "\u00b1"));
	assert_int_equal(column("Load Imbalance ", "\u00b1"), column("Resource Contention ", "("));
	assert_int_equal(column("Load Imbalance ", "\u00b1"), column("  of which queue", "\u00b1"));
}

/* A profile cut before its end block (SIGKILL) does not know the longest
 * tick gap: the warning says so instead of "longest tick gap 0 us". */
static void test_stall_cut(void **state)
{
	(void)state;
	assert_int_equal(run("-f '%s'", v2cut), 0);
	assert_non_null(strstr(errout, "its longest tick gap is not known: the profile has no "
				       "end block; the worst span began at about 0.01 s); "));
	assert_null(strstr(errout, "gap 0"));
}

/* A recording cut short whose interval grew (the interval rule) missed
 * nothing: its windows hold 185 ticks where the nominal 0.1 ms would give
 * 400, which is no stall (it was read as 214 missed ticks, 54 %); the cut
 * note says the run was cut short. */
static void test_cut_grown(void **state)
{
	(void)state;
	assert_int_equal(run("-f '%s'", v2grown), 0);
	assert_int_equal(count_lines(errout), 1);
	assert_non_null(strstr(errout, "the recording was cut short (no end block)"));
	assert_null(strstr(errout, "missed"));
	assert_null(strstr(out, "missed"));
	line_has("** profile cut at byte", NULL, NULL);
}

/* Item: a stalled sampler is said once on stderr, when and how long ... */
static void test_stall(void **state)
{
	(void)state;
	assert_int_equal(run("-f '%s'", v2stall), 0);
	assert_int_equal(count_lines(errout), 1);
	assert_non_null(strstr(errout, "warning: "));
	assert_non_null(strstr(errout, "the sampler stalled for 25 ms at 0.008 s; 249 ticks "
				       "(62 %) were missed: times in"));
	assert_int_equal(run("-f '%s' -l", v2stall), 0);
	assert_int_equal(count_lines(errout), 1);
	assert_int_equal(count_lines(out), 1);
}

/* ... estimated from the windows for older files: a file before minor 2,
 * 400 ticks' worth of windows hold 151 ... */
static void test_stall_old(void **state)
{
	(void)state;
	assert_int_equal(run("-f '%s'", v2old), 0);
	assert_int_equal(count_lines(errout), 1);
	assert_non_null(strstr(errout, "the sampler stalled for 25 ms at about 0.01 s; 248 ticks "
				       "(62 %) were missed (estimated from the windows' tick counts)"));
}

/* ... and of a sampler on time, no word (gap 1.5 intervals; 2 of 202 ticks
 * is < 1 %). */
static void test_stall_none(void **state)
{
	(void)state;
	assert_int_equal(run("-f '%s'", v2), 0);
	assert_string_equal(errout, "");
	assert_int_equal(run("-f '%s' --format json", sample), 0);
	assert_string_equal(errout, "");	/* "stalled": false: see outputs */
}

/* --counters takes neither -l nor --tags. */
static void test_counters_refusals(void **state)
{
	(void)state;
	assert_int_equal(run("-f '%s' --counters -l", sample), 2);
	assert_int_equal(run("-f '%s' --counters --tags", sample), 2);
}

/* The bad profiles of test_bad_inputs, and what report says of each. */
static const struct { const char *name; const char *why; } bad_files[] = {
	{ "missing.data", "No such file or directory" },
	{ "empty.data", "empty file" },
	{ "random.data", "not a lostcycles profile" },
	{ "magic.data", "not a lostcycles profile" },
	{ "newer.data", "version 2 is newer than this tool (1)" },
	{ "header.data", "truncated header" },
	{ "noblock.data", "no complete block" },
};

/* newer.data: the sample's header, of major version 2, its checksum
 * refreshed. */
static void write_newer(void)
{
	char p[256];
	uint8_t b[24];

	read_sample(b, sizeof(b));
	b[8] = 2;
	lc_pf_put32(b + 20, lc_crc32(0, b, 20));
	write_bytes(tmp(p, sizeof(p), "newer.data"), b, 24);
}

/* random.data: 4 KiB of pseudo-random bytes. */
static void write_random(void)
{
	char p[256];
	uint8_t b[4096];

	srand(3);
	for (size_t i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)rand();
	write_bytes(tmp(p, sizeof(p), "random.data"), b, sizeof(b));
}

/* The files of bad_files but the missing one. */
static void write_bad_files(void)
{
	char p[256];

	write_bytes(tmp(p, sizeof(p), "empty.data"), "", 0);
	write_random();
	write_bytes(tmp(p, sizeof(p), "magic.data"), "LCPROF02 and so on.........", 27);
	write_prefix(tmp(p, sizeof(p), "header.data"), 13);
	write_prefix(tmp(p, sizeof(p), "noblock.data"), 24);
	write_newer();
}

/* report -f dir/name: status 1, nothing on stdout, one line on stderr,
 * "lostcycles report: PATH: why". */
static void bad_file_refused(const char *name, const char *why)
{
	char p[256], want[512];

	tmp(p, sizeof(p), name);
	assert_int_equal(run("-f '%s'", p), 1);
	snprintf(want, sizeof(want), "lostcycles report: %s: %s", p, why);
	if (strncmp(errout, want, strlen(want)))
		fail_msg("case %s: got '%s', want '%s'", name, errout, want);
	refused(want);
}

/* Every bad input: one line on stderr naming the file, status 1, nothing
 * on stdout ... */
static void test_bad_inputs(void **state)
{
	(void)state;
	write_bad_files();
	for (size_t i = 0; i < sizeof(bad_files) / sizeof(bad_files[0]); i++)
		bad_file_refused(bad_files[i].name, bad_files[i].why);
}

/* ... and usage errors status 2; --help its usage. */
static void test_bad_options(void **state)
{
	(void)state;
	assert_int_equal(run("--bogus '%s'", sample), 2);
	refused("unknown option '--bogus'");
	assert_int_equal(run("-f"), 2);
	assert_int_equal(run("--format xml '%s'", sample), 2);
	assert_int_equal(run("'%s' '%s'", sample, sample), 2);
	assert_int_equal(run("--help"), 0);
	assert_non_null(strstr(out, "usage: lostcycles report"));
}

LC_TEST_MAIN(setup, teardown,
	     LC_T(test_outputs), LC_T(test_json_parses), LC_T(test_text), LC_T(test_text_file_arg),
	     LC_T(test_lline_bad), LC_T(test_lline_note_refusals), LC_T(test_lline_fit),
	     LC_T(test_tag_refusals), LC_T(test_csv_fields), LC_T(test_json_number),
	     LC_T(test_source_refusals), LC_T(test_cut), LC_T(test_cut_wasted), LC_T(test_cut_lline),
	     LC_T(test_cut_json), LC_T(test_methods_once), LC_T(test_std_err_column),
	     LC_T(test_stall), LC_T(test_stall_old), LC_T(test_stall_none), LC_T(test_stall_cut),
	     LC_T(test_cut_grown),
	     LC_T(test_counters_refusals), LC_T(test_bad_inputs), LC_T(test_bad_options))
