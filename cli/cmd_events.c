/*
 * cmd_events.c — "lostcycles events": list and describe the event names
 * libpfm4 knows and say whether each opens here, for this process and for
 * another one (kmod-free-tools/lc_events.h).
 */
#include <err.h>
#include <stdio.h>
#include <string.h>

#include "lc_cmd.h"
#include "lc_opt.h"
#include "lc_events.h"
#include "lc_events_run.h"

static const char *const usage[] = {
	"lostcycles events [-P PMU | -a] [--available] [--json] [PATTERN...]",
	"lostcycles events -d EVENT",
	"lostcycles events [--json] EVENT...",
	"",
	"List the event names libpfm4 knows (default: the generic perf events) and\n"
	"whether each opens here, on this process and on another (as record opens\n"
	"them on the program's threads), with the reason when not; describe one\n"
	"event; or check the named events (exit status 1 when one does not open).\n"
	"A PATTERN (with * ? or [) keeps the events whose name or PMU::name it\n"
	"matches, ignoring case.",
	NULL,
};

/* -a: the events of every PMU ("all" for lc_events). */
static int set_all(const struct lc_opt *opt, const char *arg)
{
	*(const char **)opt->field = "all";
	return 0;
}

/* Whether s is a pattern rather than an event name. */
static int is_pattern(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* Refuse operands and options that do not go together.  Returns 0 or 2. */
static int check_mix(const char *pmu, const char *desc, int available, int json, int n,
		     int npat)
{
	if (npat && npat != n) {
		warnx("patterns and event names do not mix: list with patterns, or check names");
		return 2;
	}
	if ((desc || pmu || available) && n && !npat) {
		warnx("event names do not combine with -P, -a, --available or -d");
		return 2;
	}
	if (desc && (pmu || available || json || npat)) {
		warnx("-d describes one event: it does not combine with -P, -a, --available, "
		      "--json or patterns");
		return 2;
	}
	return 0;
}

int lc_cmd_events(int argc, char **argv)
{
	const char *pmu = NULL, *desc = NULL;
	char msg[256], **rest;
	int available = 0, json = 0, npat = 0, n, rc;
	const struct lc_opt opts[] = {
		LC_OPT_STRING("pmu", 'P', "PMU", "the events of PMU (names as 'lostcycles check' "
			      "lists them)", &pmu),
		LC_OPT_CALLBACK("all", 'a', NULL, "the events of every PMU present", &pmu, set_all),
		LC_OPT_FLAG("available", 0, "only the events that open here", &available),
		LC_OPT_FLAG("json", 0, "one JSON array instead of the table", &json),
		LC_OPT_STRING("describe", 'd', "EV", "description, unit masks, encoding and status "
			      "of EV", &desc),
		LC_OPT_END(),
	};

	n = lc_opt_parse(argc, argv, opts, usage, &rest);
	if (n < 0)
		return LC_OPT_EXIT(n);
	for (int i = 0; i < n; i++)
		npat += is_pattern(rest[i]);
	if (check_mix(pmu, desc, available, json, n, npat))
		return 2;
	if (lc_events_init(msg, sizeof(msg)))
		return lc_cmd_fail(msg);
	lc_events_child_start();	/* without it, "another process" repeats "this" */
	if (desc)
		rc = lc_events_print_describe(stdout, desc, msg, sizeof(msg));
	else if (n && !npat)
		rc = lc_events_print_probe(stdout, n, rest, json);
	else
		rc = lc_events_print_list(stdout, &(struct lc_events_list_req){ pmu, available, json,
									 rest, npat }, msg, sizeof(msg));
	lc_events_child_stop();
	if (rc < 0 || (rc && !desc && (!n || npat)))
		warnx("%s", msg);
	return rc ? 1 : 0;
}
