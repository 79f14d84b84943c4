/*
 * test_accuracy.c — ground-truth integration tests: every workload of
 * tests/workloads/ is profiled with "lostcycles record --trace -i 100us", and
 * the sampled profile is compared with the exact trace-mode profile of the
 * same run and with the workload's known shape:
 *
 *   (a) per available category, |sampled - trace| <= 2 % of p x wall;
 *   (b) each source sums to p x wall of its own accounting exactly, and that
 *       wall is the profile's window (end_ns) within one tick (max_gap_ns);
 *   (c) the workload's dominant category is the largest overhead in both
 *       sources and has a sane share of p x wall;
 *   (d) the control's overhead is below a few percent;
 *   (e) ML is unavailable with a reason (no counters are asked for), RC is
 *       available exactly when the profile names a run-queue source, every
 *       other category is available.
 *
 * Run from the top of the tree (LC_TOP, set by scripts/run-tests.sh, is used
 * when present).  Timing on a small VM is noisy, so the shares have wide
 * margins and a failing workload is run once more, saying so: a pass on the
 * second run prints NOTE lines with the first run's reasons, which the test
 * runner shows.  Each run prints its measured table; a failure also prints
 * both reports.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lc_profile.h"

extern char **environ;

#define SAMPLING_INTERVAL "100us"
#define AGREE_FRACTION 0.02	/* (a): of p x wall */
#define CONTROL_OVERHEAD 0.05	/* (d): of p x wall */

/* A workload and what its ground truth guarantees. */
struct workload {
	const char *name;
	int dominant;		/* enum lc_cat, or -1 for the control */
	double min_share;	/* of p x wall (ground truth share x ~0.6) */
	int also;		/* another category that must show, or -1 */
	double also_share;
};

static const struct workload workloads[] = {
	{ "control",   -1,        0.0,  -1,        0.0 },
	{ "serial",    LC_CAT_IP, 0.25, -1,        0.0 },	/* 37.5 % */
	{ "imbalance", LC_CAT_LI, 0.20, -1,        0.0 },	/* 33 % */
	{ "lock",      LC_CAT_SL, 0.15, -1,        0.0 },	/* ~33 % */
	{ "comm",      LC_CAT_CL, 0.25, -1,        0.0 },	/* 40 % */
	{ "search",    LC_CAT_WC, 0.22, LC_CAT_BL, 0.12 },	/* 37.5 %, 25 % */
};

static char tmpdir[] = "/tmp/lc-accuracy.XXXXXX";
static int have_tmpdir;

/* Workloads not judged because the machine was measured too busy, and the
 * last one's reason (the whole run then ends with SKIP and that reason). */
static int nbusy;
static char busy_why[512];

/* ---- running ---------------------------------------------------------------- */

/* Run argv (argv[0] is a path) and wait for it.  Returns its wait status, or
 * -1 when it could not be started. */
static int run(char *const argv[])
{
	pid_t pid;
	int st, e;

	e = posix_spawn(&pid, argv[0], NULL, NULL, argv, environ);
	if (e) {
		fprintf(stderr, "cannot start %s: %s\n", argv[0], strerror(e));
		return -1;
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return st;
}

/* Profile workload name into out with trace mode on.  Returns 0, or -1
 * after printing why. */
static int record(const char *name, const char *out)
{
	char path[256];
	char *argv[] = { "./lostcycles", "record", "--trace", "-i", SAMPLING_INTERVAL,
			 "--force", "-o", (char *)out, "--", path, NULL };
	int st;

	snprintf(path, sizeof(path), "build/workloads/%s", name);
	st = run(argv);
	if (st == -1)
		return -1;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "%s: lostcycles record: wait status 0x%x\n", name, (unsigned)st);
		return -1;
	}
	return 0;
}

/* Print both sources of the profile at path with "lostcycles report". */
static void print_reports(const char *path)
{
	char *sampled[] = { "./lostcycles", "report", "-f", (char *)path, "--source", "sampled",
			    NULL };
	char *trace[] = { "./lostcycles", "report", "-f", (char *)path, "--source", "trace",
			  NULL };

	fflush(stdout);
	printf("---- lostcycles report --source sampled\n");
	fflush(stdout);
	run(sampled);
	printf("---- lostcycles report --source trace\n");
	fflush(stdout);
	run(trace);
	fflush(stdout);
}

/* ---- checking ----------------------------------------------------------------- */

/* Append a formatted reason to why (a buffer of len bytes) and count it. */
static void complain(char *why, size_t len, int *nbad, const char *fmt, ...)
{
	size_t used = strlen(why);
	va_list ap;

	va_start(ap, fmt);
	if (used < len)
		vsnprintf(why + used, len - used, fmt, ap);
	va_end(ap);
	used = strlen(why);
	if (used + 1 < len)
		strcat(why, "\n");
	(*nbad)++;
}

/* Sum of out[] over every category. */
static uint64_t sum(const uint64_t out[LC_NCAT])
{
	uint64_t s = 0;

	for (int c = 0; c < LC_NCAT; c++)
		s += out[c];
	return s;
}

/* The largest overhead (any category but PC) among the available ones. */
static int largest_overhead(const struct lc_profile *prof, const uint64_t out[LC_NCAT])
{
	int best = -1;

	for (int c = 0; c < LC_NCAT; c++) {
		if (c == LC_CAT_PC || (prof->info.unavailable & (1u << c)))
			continue;
		if (best < 0 || out[c] > out[best])
			best = c;
	}
	return best;
}

/* Print the two sources side by side, in ms and as shares of p x wall. */
static void print_table(const struct workload *w, const struct lc_profile *prof,
			const uint64_t s[LC_NCAT], const uint64_t t[LC_NCAT], double total)
{
	printf("%s: p=%u wall=%.4f s ticks=%u max_gap=%.3f ms wasted_lost=%llu\n", w->name,
	       prof->procs, prof->end.end_ns / 1e9, prof->end.ticks, prof->end.max_gap_ns / 1e6,
	       (unsigned long long)prof->end.wasted_lost);
	printf("  cat   sampled ms  share    trace ms  share   |s-t| %% of p*wall\n");
	for (int c = 0; c < LC_NCAT; c++) {
		if (prof->info.unavailable & (1u << c)) {
			printf("  %-4s %11s %12s\n", lc_cat_info(c)->key, "na", "na");
			continue;
		}
		printf("  %-4s %11.3f %5.1f%% %11.3f %5.1f%%   %6.3f%%\n", lc_cat_info(c)->key,
		       s[c] / 1e6, 100.0 * s[c] / total, t[c] / 1e6, 100.0 * t[c] / total,
		       100.0 * llabs((long long)s[c] - (long long)t[c]) / total);
	}
}

/* Check completeness (b) of one source: its categories sum to p x its own
 * wall exactly, and that wall is the profile's window within one tick. */
static void check_complete(const struct lc_profile *prof, const char *src,
			   const struct lc_acct *a, const uint64_t out[LC_NCAT],
			   char *why, size_t len, int *nbad)
{
	uint64_t p = prof->procs, wall = lc_acct_wall(a), tick = prof->end.max_gap_ns;
	uint64_t end = prof->end.end_ns;

	if (sum(out) != p * wall)
		complain(why, len, nbad, "%s: categories sum to %llu ns, p x wall = %llu ns", src,
			 (unsigned long long)sum(out), (unsigned long long)(p * wall));
	if (wall > end + tick || wall + tick < end)
		complain(why, len, nbad,
			 "%s: accounted wall %llu ns is more than one tick (%llu ns) from the "
			 "window %llu ns", src, (unsigned long long)wall, (unsigned long long)tick,
			 (unsigned long long)end);
}

/* Check the workload's shape (c, d) in one source. */
static void check_shape(const struct workload *w, const struct lc_profile *prof,
			const char *src, const uint64_t out[LC_NCAT], double total,
			char *why, size_t len, int *nbad)
{
	int big = largest_overhead(prof, out);

	if (w->dominant < 0) {
		double over = (double)(sum(out) - out[LC_CAT_PC]) / total;

		if (over > CONTROL_OVERHEAD)
			complain(why, len, nbad, "%s: control overhead %.1f%% > %.0f%%", src,
				 100 * over, 100 * CONTROL_OVERHEAD);
		return;
	}
	if (big < 0)
		complain(why, len, nbad, "%s: no overhead category is available", src);
	else if (big != w->dominant)
		complain(why, len, nbad, "%s: largest overhead is %s, expected %s", src,
			 lc_cat_info(big)->key, lc_cat_info(w->dominant)->key);
	if (out[w->dominant] < w->min_share * total)
		complain(why, len, nbad, "%s: %s is %.1f%% of p x wall, expected >= %.0f%%", src,
			 lc_cat_info(w->dominant)->key, 100.0 * out[w->dominant] / total,
			 100 * w->min_share);
	if (w->also >= 0 && out[w->also] < w->also_share * total)
		complain(why, len, nbad, "%s: %s is %.1f%% of p x wall, expected >= %.0f%%", src,
			 lc_cat_info(w->also)->key, 100.0 * out[w->also] / total,
			 100 * w->also_share);
}

/* The run itself: p from LC_TEAM(2), exit status 0, no wasted task lost. */
static void check_run(const struct lc_profile *prof, char *why, size_t len, int *nbad)
{
	if (prof->procs != 2 || prof->procs_from != LC_PROCS_TEAM)
		complain(why, len, nbad, "p = %u (from %u), expected LC_TEAM(2)", prof->procs,
			 prof->procs_from);
	if (prof->end.exit_status != 0)
		complain(why, len, nbad, "workload exit status %d", prof->end.exit_status);
	if (prof->end.wasted_lost)
		complain(why, len, nbad, "%llu LC_TASK_WASTED calls missed by the sampler",
			 (unsigned long long)prof->end.wasted_lost);
}

/* (e) Only ML (no PMU) and RC without a scheduler source are unavailable,
 * each with its reason. */
static void check_available(const struct lc_profile *prof, char *why, size_t len, int *nbad)
{
	for (int c = 0; c < LC_NCAT; c++) {
		int want_na = c == LC_CAT_ML ||
			      (c == LC_CAT_RC && prof->end.sched_source == LC_SCHED_NONE);
		int na = !!(prof->info.unavailable & (1u << c));

		if (na != want_na)
			complain(why, len, nbad, "%s is %s, expected %s", lc_cat_info(c)->key,
				 na ? "unavailable" : "available", want_na ? "unavailable" : "available");
		if (na && (!prof->info.reason[c] || !prof->info.reason[c][0]))
			complain(why, len, nbad, "%s is unavailable without a reason",
				 lc_cat_info(c)->key);
	}
}

/* (a) The sampled categories s agree with the trace's t within
 * AGREE_FRACTION of p x wall (total). */
static void check_agree(const struct lc_profile *prof, const uint64_t s[LC_NCAT],
			const uint64_t t[LC_NCAT], double total, char *why, size_t len, int *nbad)
{
	for (int c = 0; c < LC_NCAT; c++) {
		double d = fabs((double)s[c] - (double)t[c]);

		if (!(prof->info.unavailable & (1u << c)) && d > AGREE_FRACTION * total)
			complain(why, len, nbad, "%s: sampled %.3f ms vs trace %.3f ms: %.2f%% > %.0f%%",
				 lc_cat_info(c)->key, s[c] / 1e6, t[c] / 1e6, 100 * d / total,
				 100 * AGREE_FRACTION);
	}
}

/* Check the profile at path against workload w.  Returns the number of
 * failed checks; their reasons are in why. */
static int check(const struct workload *w, const char *path, char *why, size_t len)
{
	struct lc_profile *prof = NULL;
	const struct lc_prof_data *sd, *td;
	uint64_t s[LC_NCAT], t[LC_NCAT];
	char err[256] = "";
	double total;
	int nbad = 0;

	why[0] = '\0';
	if (lc_profile_read(path, &prof, err, sizeof(err))) {
		complain(why, len, &nbad, "cannot read %s: %s", path, err);
		return nbad;
	}
	sd = &prof->data[LC_SRC_SAMPLED];
	td = &prof->data[LC_SRC_TRACE];
	if (!prof->ended || prof->cut || !sd->present || !td->present) {
		complain(why, len, &nbad, "incomplete profile: ended=%d cut=%d sampled=%d trace=%d",
			 prof->ended, prof->cut, sd->present, td->present);
		goto out;
	}
	check_run(prof, why, len, &nbad);
	lc_profile_finish(prof, &sd->total, s);
	lc_profile_finish(prof, &td->total, t);
	total = (double)prof->procs * (double)prof->end.end_ns;
	if (total <= 0) {
		complain(why, len, &nbad, "empty window");
		goto out;
	}
	print_table(w, prof, s, t, total);

	check_available(prof, why, len, &nbad);	/* (e) */
	check_agree(prof, s, t, total, why, len, &nbad);	/* (a) */
	/* (b) */
	check_complete(prof, "sampled", &sd->total, s, why, len, &nbad);
	check_complete(prof, "trace", &td->total, t, why, len, &nbad);
	/* (c), (d) */
	check_shape(w, prof, "sampled", s, total, why, len, &nbad);
	check_shape(w, prof, "trace", t, total, why, len, &nbad);
out:
	lc_profile_free(prof);
	return nbad;
}

/* Whether the machine was measured too busy to judge the run at path, with
 * the measures that say so in buf: the sampler fell behind (record's rule:
 * a tick gap over 10 intervals, or over 1 % of the ticks missed), or the
 * 1-minute load of /proc/loadavg was over the CPUs. */
static int too_busy(const char *path, char *buf, size_t len)
{
	struct lc_profile *prof = NULL;
	char err[256];
	double load = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	FILE *f;

	buf[0] = '\0';
	if (!lc_profile_read(path, &prof, err, sizeof(err))) {
		const struct lc_prof_end *e = &prof->end;
		uint64_t all = e->ticks + e->missed_ticks;

		if (e->max_gap_ns > 10 * prof->info.interval_ns || e->missed_ticks * 100 > all)
			snprintf(buf, len, "missed ticks: the sampler fell behind (longest tick gap "
				 "%.1f ms, %llu of %llu ticks missed); ", e->max_gap_ns / 1e6,
				 (unsigned long long)e->missed_ticks, (unsigned long long)all);
		lc_profile_free(prof);
	}
	f = fopen("/proc/loadavg", "r");
	if (f && fscanf(f, "%lf", &load) == 1 && ncpu > 0 && load > (double)ncpu)
		snprintf(buf + strlen(buf), len - strlen(buf),
			 "load: %.2f runnable on %ld CPUs (/proc/loadavg); ", load, ncpu);
	if (f)
		fclose(f);
	if (strlen(buf) >= 2)
		buf[strlen(buf) - 2] = '\0';	/* the last "; " */
	return buf[0] != '\0';
}

/* ---- the tests ----------------------------------------------------------------- */

/* Print, as NOTE lines that scripts/run-tests.sh shows even when the test
 * passes, that workload name passed only on its second run and why its
 * first run failed (why: one reason per line). */
static void note_retry(const char *name, const char *why)
{
	const char *p = why, *nl;

	printf("NOTE: %s passed on its second run; the first run failed:\n", name);
	for (; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p) - 1;
		printf("NOTE:   %.*s\n", (int)(nl - p + (*nl != '\n')), p);
	}
}

/* Profile workload w and check it.  Timing noise on a small VM is allowed
 * one retry, and it is never silent: a failing first run is printed and run
 * once more; a pass on the second run is reported with the first run's
 * reasons (note_retry); a second failure prints both reports and fails,
 * unless the machine was measured too busy to judge it (too_busy): then the
 * workload is skipped, and the run ends with SKIP and the reason. */
static void test_workload(void **state)
{
	const struct workload *w = *state;
	char path[256], why[4096], first[4096] = "";
	int bad = 0, attempt;

	snprintf(path, sizeof(path), "%s/%s.data", tmpdir, w->name);
	for (attempt = 1; attempt <= 2; attempt++) {
		if (record(w->name, path)) {
			snprintf(why, sizeof(why), "lostcycles record failed\n");
			bad = 1;
		} else {
			bad = check(w, path, why, sizeof(why));
		}
		if (!bad)
			break;
		printf("%s: run %d failed:\n%s", w->name, attempt, why);
		if (attempt == 1) {
			snprintf(first, sizeof(first), "%s", why);
			printf("%s: running it once more (timing noise is allowed one retry)\n",
			       w->name);
		}
	}
	if (bad && too_busy(path, busy_why, sizeof(busy_why))) {
		printf("%s: not judged, the machine was too busy: %s\n", w->name, busy_why);
		nbusy++;
		unlink(path);
		skip();
	}
	if (bad) {
		print_reports(path);
		fail_msg("%s: %s", w->name, why);
	} else if (attempt == 2) {
		note_retry(w->name, first);
	}
	unlink(path);
}

/* Move to the top of the tree and make the scratch directory. */
static int setup(void **state)
{
	const char *top = getenv("LC_TOP");

	(void)state;
	if (top && chdir(top)) {
		fprintf(stderr, "cannot cd to LC_TOP=%s: %s\n", top, strerror(errno));
		return -1;
	}
	if (access("./lostcycles", X_OK)) {
		fprintf(stderr, "./lostcycles not found: run from the top of the tree\n");
		return -1;
	}
	for (size_t i = 0; i < sizeof(workloads) / sizeof(workloads[0]); i++) {
		char path[256];

		snprintf(path, sizeof(path), "build/workloads/%s", workloads[i].name);
		if (access(path, X_OK)) {
			fprintf(stderr, "%s not found: run 'make workloads'\n", path);
			return -1;
		}
	}
	if (!mkdtemp(tmpdir)) {
		fprintf(stderr, "mkdtemp: %s\n", strerror(errno));
		return -1;
	}
	have_tmpdir = 1;
	return 0;
}

/* Remove the scratch directory (empty unless a test failed). */
static int teardown(void **state)
{
	(void)state;
	if (!have_tmpdir)
		return 0;
	if (rmdir(tmpdir))
		printf("kept %s for inspection\n", tmpdir);
	return 0;
}

/* One test per workload, named after it. */
#define WL(i) { .name = workloads[i].name, .test_func = test_workload, \
		.initial_state = (void *)&workloads[i] }

int main(void)
{
	const struct CMUnitTest tests[] = { WL(0), WL(1), WL(2), WL(3), WL(4), WL(5) };
	const char *san = getenv("LC_SAN");
	int rc;

	if (san && strstr(san, "thread")) {
		printf("test_accuracy: skipped under SAN=thread: the sampled profiles are judged "
		       "against the exact ones within 2 %%, which ThreadSanitizer, slowing the "
		       "sampler and the workloads 5-15x, does not leave (run it without SAN=thread)\n");
		return 77;
	}

	_Static_assert(sizeof(workloads) / sizeof(workloads[0]) == 6, "one test per workload");
	rc = cmocka_run_group_tests_name("accuracy", tests, setup, teardown);
	if (!rc && nbusy) {
		printf("test_accuracy: SKIP: the machine was too busy to judge %d workload(s): %s\n",
		       nbusy, busy_why);
		return 77;
	}
	return rc;
}
