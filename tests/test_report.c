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
static char sample[256], errpath[256], v2[256], v2stall[256], v2old[256], v2cut[256];
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
	if (v2_write(v2, 0, 0) || v2_write(v2stall, 1, 0) || v2_write(v2old, 1, 1) ||
	    v2_write(v2cut, 1, 2))
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
 * from 8 ms, missing 249 ticks (151 taken); else every window has 100 ticks. */
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

	if (stall) {
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

	if (stall)
		ticks[0] = 80, ticks[1] = 0, ticks[2] = 0, ticks[3] = 71;
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
				 "bl=0 wc=0.002 cpus=2 rt=0.029 tt=0.08\n");
	assert_int_equal(run("-l '%s'", sample), 0);	/* no '=': the FILE */
	assert_string_equal(out, "p=4 li=0.015 ip=0.03 sl=0.004 cl=0 rc=na ml=na "
				 "bl=0 wc=0.002 cpus=2 rt=0.029 tt=0.08\n");
	assert_int_equal(run("-f '%s' -l n=8", sample), 0);
	assert_true(!strncmp(out, "n=8 p=4 li=", 11));
	assert_int_equal(run("-f '%s' -l -t 7", sample), 0);
	assert_string_equal(out, "p=4 li=0.005 ip=0.006 sl=0.003 cl=0 rc=na ml=na "
				 "bl=0 wc=0.002 cpus=2 rt=0.012 tt=0.028\n");
	assert_int_equal(run("-f '%s' -l 'n=1 x'", sample), 2);
	assert_int_equal(count_lines(errout), 1);
	assert_int_equal(run("-f '%s' -l '=3'", sample), 2);
}

/* A note naming a key of the line: merged when it agrees, an error when it
 * contradicts the profile; cpus= only when the profile recorded it; fit
 * reads such lines (cpus is recorded, not modeled). */
static void test_lline_note(void **state)
{
	char runs[256], cmd[1024];

	(void)state;
	assert_int_equal(run("-f '%s' -l 'p=4 n=8'", sample), 0);
	assert_string_equal(out, "p=4 n=8 li=0.015 ip=0.03 sl=0.004 cl=0 rc=na ml=na "
				 "bl=0 wc=0.002 cpus=2 rt=0.029 tt=0.08\n");
	assert_int_equal(run("-f '%s' -l 'n=8 p=4.0 cpus=2 rc=na rt=0.029'", sample), 0);
	assert_string_equal(out, "n=8 p=4.0 cpus=2 rc=na rt=0.029 li=0.015 ip=0.03 sl=0.004 "
				 "cl=0 ml=na bl=0 wc=0.002 tt=0.08\n");
	assert_int_equal(run("-f '%s' -l 'n=8 p=2'", sample), 1);
	refused("-l: the note says p=2 but the profile's p is 4");
	assert_int_equal(run("-f '%s' -l 'cpus=8'", sample), 1);
	refused("the note says cpus=8 but the profile's cpus is 2");
	assert_int_equal(run("-f '%s' -l 'rc=0.5'", sample), 1);
	refused("the note says rc=0.5 but the profile's rc is na");
	/* a file of an older sampler has no CPU count */
	assert_int_equal(run("-f '%s' -l 'n=1'", v2old), 0);
	assert_null(strstr(out, "cpus="));
	/* fit takes lines with cpus= and models only -v */
	tmp(runs, sizeof(runs), "runs");
	for (int n = 1; n <= 3; n++) {
		snprintf(cmd, sizeof(cmd), "./lostcycles report -f '%s' -l 'n=%d' >>'%s' 2>/dev/null",
			 sample, n, runs);
		assert_int_equal(system(cmd), 0);
	}
	snprintf(cmd, sizeof(cmd), "./lostcycles fit -c li -v n -f '%s' >/dev/null 2>&1", runs);
	assert_int_equal(system(cmd), 0);
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
	refused("tag 99 never appears (tags present: -3 7)");
	/* a word is a place's or tag's name: refused once the profile shows
	 * it names neither */
	assert_int_equal(run("-f '%s' -t abc", sample), 1);
	assert_non_null(strstr(errout, "no fragment tag or place is named 'abc'"));
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
	char p[256], want[128];

	(void)state;
	write_prefix(tmp(p, sizeof(p), "cut.data"), (size_t)bounds[6] + 5);
	assert_int_equal(run("-f '%s'", p), 0);
	/* the cut keeps every block before the one it splits */
	snprintf(want, sizeof(want), "** profile cut at byte %zu: shows the first 2 windows (0.020000 s)",
		 (size_t)bounds[6]);
	line_has(want, NULL, NULL);
	assert_non_null(strstr(errout, want + 3));
	assert_int_equal(count_lines(errout), 1);
	/* window 0's wasted record came after the cut: its time stays in rt */
	line_has("Wasted Computation ", "0.000000", NULL);
	assert_int_equal(run("-f '%s' -l", p), 0);
	assert_int_equal(count_lines(out), 1);
	assert_non_null(strstr(errout, "cut at byte"));
	assert_int_equal(run("-f '%s' --format json", p), 0);
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

/* Item: how counter- and scheduler-derived categories were measured, once
 * each under the table; the end block's say on what was measured. */
static void test_methods(void **state)
{
	(void)state;
	assert_int_equal(run("-f '%s'", v2), 0);
	line_has("** Resource Contention: BUSY time runnable but off CPU, per tick "
		 "(run queue from context-switch records)", NULL, NULL);
	line_has("** Memory Loss: busy time x stall cycles / cycles", NULL, NULL);
	assert_int_equal(occurrences("Resource Contention"), 2);	/* row and method */
	assert_int_equal(occurrences("no miss counter"), 1);
	line_has("Communication Loss ", " na ", "(no miss counter)");
	line_has("Resource Contention ", "0.002000", "2.50%");
	assert_null(strstr(out, "** Communication Loss:"));
	assert_null(strstr(out, "** Load Imbalance:"));
	assert_int_equal(run("-f '%s' -l", v2), 0);
	assert_string_equal(out, "p=2 li=0 ip=0 sl=0.008 cl=na rc=0.002 ml=0.002 bl=0 wc=0 "
				 "cpus=2 rt=0.068 tt=0.08\n");
	assert_int_equal(run("-f '%s' --format csv", v2), 0);
	line_has("rc,Resource Contention,0.002000000,2.5000,1,,", "run queue from context-switch", NULL);
	line_has("cl,Communication Loss,,,0,no miss counter,,\n", NULL, NULL);
	assert_int_equal(run("-f '%s' --format json", v2), 0);
	assert_non_null(strstr(out, "\"method\": \"busy time x stall cycles / cycles\"}"));
	assert_non_null(strstr(out, "\"sched_source\": \"context-switch records\""));
	/* older files have no methods */
	assert_int_equal(run("-f '%s'", sample), 0);
	assert_null(strstr(out, "** Resource Contention:"));
}

/* Item: the binomial standard error of each sampled category, a column in
 * text and a field in CSV and JSON; none for the trace source. */
static void test_std_err(void **state)
{
	(void)state;
	/* N = 200 ticks x 4 slots; LI: f = 15/80, 0.08 s x sqrt(f(1-f)/800) */
	assert_int_equal(run("-f '%s'", sample), 0);
	line_has("Load Imbalance ", "18.75%  \u00b10.001104", NULL);
	line_has("  of which queue empty", "\u00b10.000314", NULL);
	line_has("Remaining Time ", "\u00b10.001360", NULL);
	line_has("** \u00b1: one standard error of the tick sampling", "800 slot observations", NULL);
	line_lacks("Total Time ", "\u00b1");
	/* one column: the ± of every row and the reason of an na row line up */
	assert_int_equal(column("Load Imbalance ", "\u00b1"), column("Wasted Computation ", "\u00b1"));
	assert_int_equal(column("Load Imbalance ", "\u00b1"), column("Resource Contention ", "("));
	assert_int_equal(column("Load Imbalance ", "\u00b1"), column("  of which queue", "\u00b1"));
	/* a tag holds its share of the ticks: 800 x 28/80 */
	assert_int_equal(run("-f '%s' -t 7", sample), 0);
	line_has("** \u00b1:", "280 slot observations", NULL);
	assert_int_equal(run("-f '%s' --format csv", sample), 0);
	line_has("key,name,seconds,percent,available,reason,se,method", NULL, NULL);
	line_has("li,Load Imbalance,0.015000000,18.7500,1,,0.001103970,\n", NULL, NULL);
	line_has("rc,Resource Contention,,,0,no hardware PMU,,\n", NULL, NULL);
	assert_int_equal(run("-f '%s' --format json", sample), 0);
	assert_non_null(strstr(out, "\"observations\": 800,"));
	assert_non_null(strstr(out, "\"se\": 0.001103970"));
	/* v2: RC, f = 2/80 over 800 observations */
	assert_int_equal(run("-f '%s'", v2), 0);
	line_has("Resource Contention ", "\u00b10.000442", NULL);
	/* the exact trace has no sampling error */
	assert_int_equal(run("-f '%s' --source trace", sample), 0);
	assert_null(strstr(out, "\u00b1"));
	assert_int_equal(run("-f '%s' --source trace --format json", sample), 0);
	assert_non_null(strstr(out, "\"observations\": null"));
	assert_non_null(strstr(out, "\"se\": null"));
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

/* Item: a stalled sampler is said once on stderr, when and how long, with
 * the same numbers in JSON; estimated from the windows for older files. */
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
	assert_int_equal(run("-f '%s' --format json", v2stall), 0);
	assert_non_null(strstr(out, "\"sampler\": {\"ticks\": 151, \"max_gap_s\": 0.025000000, "
				    "\"max_gap_at_s\": 0.008000000, \"missed_ticks\": 249, "
				    "\"estimated\": false, \"stalled\": true, \"cpu_s\": 0.004000000, "
				    "\"shared_cpu\": 1, \"sched_source\": \"context-switch records\", "
				    "\"ncpus\": 2}"));
	/* a file before minor 2: 400 ticks' worth of windows hold 151 */
	assert_int_equal(run("-f '%s'", v2old), 0);
	assert_int_equal(count_lines(errout), 1);
	assert_non_null(strstr(errout, "the sampler stalled for 25 ms at about 0.01 s; 248 ticks "
				       "(62 %) were missed (estimated from the windows' tick counts)"));
	assert_int_equal(run("-f '%s' --format json", v2old), 0);
	assert_non_null(strstr(out, "\"missed_ticks\": 248, \"estimated\": true, \"stalled\": true, "
				    "\"cpu_s\": null, \"shared_cpu\": null, \"sched_source\": null, "
				    "\"ncpus\": null}"));
	/* a sampler on time: no word (gap 1.5 intervals; 2 of 202 ticks is < 1 %) */
	assert_int_equal(run("-f '%s'", v2), 0);
	assert_string_equal(errout, "");
	assert_int_equal(run("-f '%s' --format json", sample), 0);
	assert_string_equal(errout, "");
	assert_non_null(strstr(out, "\"stalled\": false"));
}

/* Item: the sampler's CPU time beside the wall time, and a CPU it shared. */
static void test_sampler_cpu(void **state)
{
	(void)state;
	assert_int_equal(run("-f '%s'", sample), 0);
	line_has("** wall time: 0.020000 s (Total Time / 4); sampler CPU 0.007 s (35.0 % of the run's 0.020 s)\n",
		 NULL, NULL);
	assert_null(strstr(out, "shared CPU"));
	assert_int_equal(run("-f '%s'", v2), 0);
	line_has("** wall time: 0.040000 s (Total Time / 2); sampler CPU 0.004 s (10.0 % of the run's 0.040 s)\n",
		 NULL, NULL);
	line_has("** note: the sampler shared CPU 1 with the program", NULL, NULL);
	assert_int_equal(run("-f '%s'", v2old), 0);
	line_has("** wall time: 0.040000 s (Total Time / 2)\n", NULL, NULL);
	assert_null(strstr(out, "shared CPU"));
}

/* Item: report --counters, in text, CSV and JSON; plainly none without. */
static void test_counters(void **state)
{
	char jpath[256], cmd[800];

	(void)state;
	assert_int_equal(run("-f '%s' --counters", v2), 0);
	line_has("cycles                       cycles                             4000\n",
		 NULL, NULL);
	line_has("instructions                 instructions                       3000\n",
		 NULL, NULL);
	line_has("LLC-misses                   misses                               30\n",
		 NULL, NULL);
	line_has("stalled-cycles-backend       stall cycles                        400\n",
		 NULL, NULL);
	line_has("** IPC 0.750 (instructions / cycles)", NULL, NULL);
	line_has("** 10.000 misses per 1000 instructions", NULL, NULL);
	line_has("** counters per thread", NULL, NULL);
	line_has("     200      200", " 1000 ", "2.000     5.000");
	line_has("     200      201", " 3000 ", "0.333    20.000");
	line_has("** counters per fragment tag", NULL, NULL);
	line_has("               5 ", " 1000 ", " 2.000");
	assert_int_equal(run("-f '%s' --counters -t 5", v2), 0);
	line_has("** counters while fragment tag 5 was open", NULL, NULL);
	line_has("cycles                       cycles                             1000\n",
		 NULL, NULL);
	line_has("** IPC 2.000", NULL, NULL);
	assert_null(strstr(out, "per thread"));
	assert_int_equal(run("-f '%s' --counters --format csv", v2), 0);
	line_has("event,role,total\ncycles,cycles,4000\n", NULL, NULL);
	line_has("ipc,derived,0.750000\n", NULL, NULL);
	line_has("mpki,derived,10.000000\n", NULL, NULL);
	line_has("thread,pid,tid,cycles,instructions,LLC-misses,stalled-cycles-backend,ipc,mpki\n",
		 NULL, NULL);
	line_has("0,200,200,1000,2000,10,100,2.000000,5.000000\n", NULL, NULL);
	line_has("tag,cycles,", NULL, NULL);
	line_has("5,1000,2000,10,100,2.000000,5.000000\n", NULL, NULL);
	assert_int_equal(run("-f '%s' --counters --format json", v2), 0);
	assert_non_null(strstr(out, "\"counters\": {\"recorded\": true"));
	assert_non_null(strstr(out, "{\"name\": \"cycles\", \"role\": \"cycles\", \"total\": 4000}"));
	if (system("command -v python3 >/dev/null 2>&1") == 0) {
		write_bytes(tmp(jpath, sizeof(jpath), "c.json"), out, strlen(out));
		snprintf(cmd, sizeof(cmd), "python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))"
			 "[\"counters\"]; assert c[\"ipc\"] == 0.75 and c[\"mpki\"] == 10, c; "
			 "assert c[\"per_thread\"][1][\"counts\"] == [3000, 1000, 20, 300]; "
			 "assert c[\"per_tag\"][0][\"tag\"] == 5' '%s'", jpath);
		assert_int_equal(system(cmd), 0);
	}
	/* none recorded: said plainly in every format */
	assert_int_equal(run("-f '%s' --counters", sample), 0);
	line_has("** counters: no counters recorded", NULL, NULL);
	assert_int_equal(run("-f '%s' --counters --format csv", sample), 0);
	line_has("no counters recorded", NULL, NULL);
	assert_int_equal(run("-f '%s' --counters --format json", sample), 0);
	assert_non_null(strstr(out, "\"counters\": {\"recorded\": false, \"note\": \"no counters "
				    "recorded\"}"));
	assert_int_equal(run("-f '%s' --counters -l", sample), 2);
	assert_int_equal(run("-f '%s' --counters --tags", sample), 2);
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
	refused("unknown option '--bogus'");
	assert_int_equal(run("-f"), 2);
	assert_int_equal(run("--format xml '%s'", sample), 2);
	assert_int_equal(run("'%s' '%s'", sample, sample), 2);
	assert_int_equal(run("--help"), 0);
	assert_non_null(strstr(out, "usage: lostcycles report"));
}

LC_TEST_MAIN(setup, teardown,
	     LC_T(test_text), LC_T(test_lline), LC_T(test_lline_note), LC_T(test_tag),
	     LC_T(test_per_thread), LC_T(test_csv), LC_T(test_json), LC_T(test_source),
	     LC_T(test_cut), LC_T(test_methods), LC_T(test_std_err), LC_T(test_stall),
	     LC_T(test_stall_cut), LC_T(test_sampler_cpu), LC_T(test_counters),
	     LC_T(test_bad_inputs))
