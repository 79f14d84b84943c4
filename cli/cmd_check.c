/*
 * cmd_check.c — "lostcycles check": will profiling work here, and how well?
 * One line per probe (kmod-free-tools/lc_check.h), OK / WARN / FAIL with the
 * fix, or JSON for scripts.
 */
#include <err.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_check.h"
#include "lc_cmd.h"
#include "lc_util.h"

/* Tests point the shared-memory probes at another directory with this. */
#define ENV_SHM_DIR "LOSTCYCLES_CHECK_SHM_DIR"

static const char check_usage[] =
	"usage: lostcycles check [--json] [--clean] [-C CPU]\n"
	"Tell whether profiling works on this machine and how well: one line per\n"
	"probe, OK / WARN / FAIL with the fix.  Exit status 0 when profiling works\n"
	"(possibly degraded), 1 when it cannot.\n\n"
	"  -j, --json     one JSON object on stdout instead of the table\n"
	"      --clean    first remove the shared-memory segments of dead processes\n"
	"  -C, --cpu=CPU  probe CPU as the sampler's (default: the one record takes)\n"
	"  -h, --help     this text\n";

static const char *const level_names[] = { "OK", "WARN", "FAIL" };

static void print_json(const struct lc_check_item *it, size_t n, enum lc_check_level worst,
		       int cleaned)
{
	printf("{\"status\":\"%s\",\"works\":%s,\"cleaned\":%d,\"checks\":[",
	       worst == LC_CHECK_OK ? "ok" : worst == LC_CHECK_WARN ? "degraded" : "fail",
	       worst == LC_CHECK_FAIL ? "false" : "true", cleaned);
	for (size_t i = 0; i < n; i++) {
		printf("%s\n {\"name\":", i ? "," : "");
		lc_json_str(stdout, it[i].key);
		printf(",\"level\":\"%s\",\"value\":", level_names[it[i].level]);
		lc_json_str(stdout, it[i].value);
		printf(",\"fix\":");
		lc_json_str(stdout, it[i].fix);
		printf(",\"errno\":");
		if (it[i].err)
			lc_json_str(stdout, lc_errno_name(it[i].err));
		else
			printf("null");
		printf(",\"number\":");
		if (isfinite(it[i].number))
			printf("%.6g", it[i].number);
		else
			printf("null");
		printf("}");
	}
	printf("\n]}\n");
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
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "clean", no_argument, NULL, 'c' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct lc_check_cfg cfg = { .cpu = -1, .shm_dir = getenv(ENV_SHM_DIR) };
	struct lc_check_item *it = NULL;
	enum lc_check_level worst;
	int c, json = 0, do_clean = 0, cleaned = 0;
	uint64_t v;
	size_t n;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "jC:h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 'c':
			do_clean = 1;
			break;
		case 'C':
			if (lc_parse_u64(optarg, 0, CPU_SETSIZE - 1, &v)) {
				warnx("bad CPU '%s'", optarg);
				return 2;
			}
			cfg.cpu = (int)v;
			break;
		case 'h':
			fputs(check_usage, stdout);
			return 0;
		default:
			warnx("unknown or incomplete option '%s'", argv[optind - 1]);
			fputs(check_usage, stderr);
			return 2;
		}
	}
	if (optind < argc) {
		warnx("unexpected argument '%s'", argv[optind]);
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
