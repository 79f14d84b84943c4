/*
 * cmd_events.c — "lostcycles events": list and describe the event names
 * libpfm4 knows and say whether each opens here, for this process and for
 * another one (kmod-free-tools/lc_events.h).
 */
#include <err.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_check.h"
#include "lc_cmd.h"
#include "lc_opt.h"
#include "lc_util.h"
#include "counters.h"
#include "lc_events.h"

static const char *const usage[] = {
	"lostcycles events [-P PMU | -a] [--available] [--json] [PATTERN...]",
	"lostcycles events -d EVENT",
	"lostcycles events [--json] EVENT...",
	"",
	"List the event names libpfm4 knows (default: the generic perf events) and",
	"whether each opens here, on this process and on another (as record opens",
	"them on the program's threads), with the reason when not; describe one",
	"event; or check the named events (exit status 1 when one does not open).",
	"A PATTERN (with * ? or [) keeps the events whose name or PMU::name it",
	"matches, ignoring case.",
	NULL,
};

/* "opens" or "unavailable (ENOENT)". */
static const char *status(const struct lc_event_info *e, int err, char *buf, size_t len)
{
	if (e->encode_err)
		snprintf(buf, len, "cannot encode: %s", lc_event_encode_error(e->encode_err));
	else if (!err)
		snprintf(buf, len, "opens");
	else
		snprintf(buf, len, "unavailable (%s)", lc_errno_name(-err));
	return buf;
}

/* The reason an event does not open, "" when it does (both ways). */
static const char *why(const struct lc_event_info *e, char *buf, size_t len)
{
	if (e->encode_err)
		snprintf(buf, len, "libpfm4: %s", lc_event_encode_error(e->encode_err));
	else if (e->open_err || e->child_err)
		lc_ctr_reason(e->open_err ? e->open_err : e->child_err, buf, len);
	else
		buf[0] = 0;
	return buf;
}

/* One event: a table line, or a JSON object (first: no comma before). */
static void show(const struct lc_event_info *e, const char *full, int json, int first)
{
	char st[64], ch[64], rs[256];

	if (!json) {
		printf("%-44s %-9s %-22s %-22s %s\n", full,
		       e->encode_err ? "-" : lc_event_kind_name(e->kind),
		       status(e, e->open_err, st, sizeof(st)), status(e, e->child_err, ch, sizeof(ch)),
		       why(e, rs, sizeof(rs)));
		return;
	}
	printf("%s\n  {\"event\": ", first ? "" : ",");
	lc_json_str(stdout, full);
	printf(", \"kind\": ");
	lc_json_str(stdout, e->encode_err ? "unknown" : lc_event_kind_name(e->kind));
	printf(", \"opens\": %s, \"opens_in_child\": %s, \"reason\": ",
	       !e->encode_err && !e->open_err ? "true" : "false",
	       !e->encode_err && !e->child_err ? "true" : "false");
	why(e, rs, sizeof(rs));
	if (*rs)
		lc_json_str(stdout, rs);
	else
		printf("null");
	putchar('}');
}

static void header(int json)
{
	if (json)
		printf("[");
	else
		printf("%-44s %-9s %-22s %-22s %s\n", "EVENT", "KIND", "THIS PROCESS", "ANOTHER PROCESS",
		       "WHY NOT");
}

/* Whether full (PMU::name) or its name part matches one of the patterns. */
static int matches(const char *full, const char *name, char **pat, int npat)
{
	if (!npat)
		return 1;
	for (int i = 0; i < npat; i++)
		if (!fnmatch(pat[i], full, FNM_CASEFOLD) || !fnmatch(pat[i], name, FNM_CASEFOLD))
			return 1;
	return 0;
}

static int list(const char *pmu, int available, int json, char **pat, int npat)
{
	struct lc_event_info *ev;
	size_t n, nopen = 0, shown = 0;
	int rc = lc_events_list(pmu, &ev, &n);

	if (rc == -ENOENT) {
		warnx("no PMU '%s' is present here (see 'lostcycles check')", pmu);
		return 1;
	}
	if (rc) {
		warnx("%s", strerror(-rc));
		return 1;
	}
	header(json);
	for (size_t i = 0; i < n; i++) {
		char full[200];

		snprintf(full, sizeof(full), "%s::%s", ev[i].pmu, ev[i].name);
		if (!matches(full, ev[i].name, pat, npat) || (available && ev[i].open_err))
			continue;
		nopen += !ev[i].open_err;
		show(&ev[i], full, json, !shown);
		shown++;
	}
	if (json)
		printf("\n]\n");
	else
		printf("\n%zu events, %zu open here\n", shown, nopen);
	free(ev);
	if (npat && !shown) {
		warnx("no event matches%s%s", npat == 1 ? " " : "", npat == 1 ? pat[0] : " the patterns");
		return 1;
	}
	return 0;
}

static int describe(const char *name)
{
	struct lc_event_info e;
	struct lc_event_attr *at;
	size_t n;
	char st[64], rs[256];

	if (lc_event_probe(name, &e)) {
		warnx("'%s' is not an event libpfm4 knows (see 'lostcycles events -a')", name);
		return 1;
	}
	printf("event:       %s::%s\n", e.pmu, e.name);
	printf("description: %s\n", e.desc);
	if (*e.equiv)
		printf("same as:     %s\n", e.equiv);
	printf("kind:        %s\n", lc_event_kind_name(e.kind));
	if (e.encode_err)
		printf("encoding:    none (%s)\n", lc_event_encode_error(e.encode_err));
	else
		printf("encoding:    perf_event_attr type %" PRIu32 " config 0x%" PRIx64 "\n",
		       e.type, e.config);
	printf("here:        %s\n", status(&e, e.open_err, st, sizeof(st)));
	printf("in another:  %s\n", status(&e, e.child_err, st, sizeof(st)));
	if (*why(&e, rs, sizeof(rs)))
		printf("why not:     %s\n", rs);
	if (!lc_event_attrs(name, &at, &n) && n) {
		printf("attributes:\n");
		for (size_t i = 0; i < n; i++)
			printf("  %-30s %-8s %s%s\n", at[i].name, at[i].is_umask ? "umask" : "modifier",
			       at[i].desc, at[i].is_default ? " (default)" : "");
		free(at);
	}
	return e.open_err ? 1 : 0;
}

/* Check each name: one line (or object) each; 1 when any does not open. */
static int probe(int argc, char **argv, int json)
{
	int bad = 0;

	header(json);
	for (int i = 0; i < argc; i++) {
		struct lc_event_info e;

		lc_event_probe(argv[i], &e);
		show(&e, argv[i], json, i == 0);
		bad |= e.open_err != 0;
	}
	if (json)
		printf("\n]\n");
	return bad;
}

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
	if (lc_events_init(msg, sizeof(msg))) {
		warnx("%s", msg);
		return 1;
	}
	lc_events_child_start();	/* without it, "another process" repeats "this" */
	if (desc)
		rc = describe(desc);
	else if (n && !npat)
		rc = probe(n, rest, json);
	else
		rc = list(pmu, available, json, rest, npat);
	lc_events_child_stop();
	return rc;
}
