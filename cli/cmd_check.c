/*
 * cmd_check.c — "lostcycles check": will profiling work here, and how well?
 * One line per probe (kmod-free-tools/lc_check.h), OK / WARN / FAIL with the
 * fix, or JSON for scripts.
 */
#include <err.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_check.h"
#include "lc_cmd.h"
#include "lc_emit.h"
#include "lc_opt.h"
#include "lc_util.h"

/* Tests point the shared-memory probes at another directory with this. */
#define ENV_SHM_DIR "LOSTCYCLES_CHECK_SHM_DIR"

static const char *const usage[] = {
	"lostcycles check [--json] [--clean] [-C CPU]",
	"",
	"Tell whether profiling works on this machine and how well: one line per",
	"probe, OK / WARN / FAIL with the fix.  Exit status 0 when profiling works",
	"(possibly degraded), 1 when it cannot.",
	NULL,
};

static const char *const level_names[] = { "OK", "WARN", "FAIL" };

/* The checks as one JSON object: the verdict, then one line per check. */
static void print_json(const struct lc_check_item *it, size_t n, enum lc_check_level worst,
		       int cleaned)
{
	struct lc_doc d;

	lc_doc_init(&d, stdout, 0);
	lc_doc_obj(&d, NULL, LC_DOC_TIGHT);
	lc_doc_str(&d, "status", worst == LC_CHECK_OK ? "ok" : worst == LC_CHECK_WARN ? "degraded" :
			       "fail");
	lc_doc_bool(&d, "works", worst != LC_CHECK_FAIL);
	lc_doc_int(&d, "cleaned", cleaned);
	lc_doc_arr(&d, "checks", LC_DOC_TIGHT | LC_DOC_LINES);
	for (size_t i = 0; i < n; i++) {
		lc_doc_obj(&d, NULL, LC_DOC_TIGHT);
		lc_doc_str(&d, "name", it[i].key);
		lc_doc_str(&d, "level", level_names[it[i].level]);
		lc_doc_str(&d, "value", it[i].value);
		lc_doc_str(&d, "fix", it[i].fix);
		lc_doc_str(&d, "errno", it[i].err ? lc_errno_name(it[i].err) : NULL);
		lc_doc_sig(&d, "number", it[i].number, 6);
		lc_doc_end(&d);
	}
	lc_doc_end(&d);
	lc_doc_end(&d);
}

static void print_table(const struct lc_check_item *it, size_t n, enum lc_check_level worst)
{
	for (size_t i = 0; i < n; i++) {
		printf("%-4s  %-22s %s\n", level_names[it[i].level], it[i].title, it[i].value);
		if (*it[i].fix)
			printf("      %-22s fix: %s\n", "", it[i].fix);
	}
	printf("\n%s\n", worst == LC_CHECK_OK ? "Profiling works here." :
	       worst == LC_CHECK_WARN ? "Profiling works here, degraded as the warnings say." :
				       "Profiling cannot work here until the failures are fixed.");
}

/* --clean: remove stale segments, say so on stderr.  Returns the count. */
static int clean(const char *dir, int quiet)
{
	uint64_t bytes;
	int failed, k = lc_check_stale(dir, 1, &bytes, &failed);

	if (k < 0) {
		warnx("%s: %s", dir, strerror(-k));
		return 0;
	}
	if (failed)
		warnx("%d stale segment%s could not be removed (owned by another user?)", failed,
		      failed == 1 ? "" : "s");
	if (!quiet)
		fprintf(stderr, "lostcycles check: removed %d stale segment%s (%llu KiB) from %s\n",
			k - failed, k - failed == 1 ? "" : "s", (unsigned long long)(bytes >> 10),
			dir);
	return k - failed;
}

int lc_cmd_check(int argc, char **argv)
{
	struct lc_check_cfg cfg = { .cpu = -1, .shm_dir = getenv(ENV_SHM_DIR) };
	struct lc_check_item *it = NULL;
	enum lc_check_level worst;
	int json = 0, do_clean = 0, cleaned = 0, nrest;
	char **rest;
	size_t n;
	const struct lc_opt opts[] = {
		LC_OPT_FLAG("json", 'j', "one JSON object on stdout instead of the table", &json),
		LC_OPT_FLAG("clean", 0, "first remove the shared-memory segments of dead processes",
			    &do_clean),
		LC_OPT_NUMBER("cpu", 'C', "CPU", "probe CPU as the sampler's (default: the one "
			      "record takes)", &cfg.cpu, 0, CPU_SETSIZE - 1),
		LC_OPT_END(),
	};

	nrest = lc_opt_parse(argc, argv, opts, usage, &rest);
	if (nrest < 0)
		return LC_OPT_EXIT(nrest);
	if (nrest > 0) {
		warnx("unexpected argument '%s'", rest[0]);
		return 2;
	}
	if (!cfg.shm_dir || !*cfg.shm_dir)
		cfg.shm_dir = "/dev/shm";
	if (do_clean)
		cleaned = clean(cfg.shm_dir, json);
	if (lc_check_run(&cfg, &it, &n)) {
		warnx("out of memory");
		return 1;
	}
	worst = lc_check_worst(it, n);
	if (json)
		print_json(it, n, worst, cleaned);
	else
		print_table(it, n, worst);
	free(it);
	return worst == LC_CHECK_FAIL ? 1 : 0;
}
