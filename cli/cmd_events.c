/*
 * cmd_events.c — "lostcycles events": list and describe the event names
 * libpfm4 knows and say whether each opens here (kmod-free-tools/lc_events.h).
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_check.h"
#include "lc_cmd.h"
#include "lc_events.h"

static const char events_usage[] =
	"usage: lostcycles events [-P PMU | -a] [--available]\n"
	"       lostcycles events -d EVENT\n"
	"       lostcycles events EVENT...\n"
	"List the event names libpfm4 knows (default: the generic perf events) and\n"
	"whether each opens here; describe one event; or check the named events\n"
	"(exit status 1 when one of them does not open).\n\n"
	"  -P, --pmu=PMU      the events of PMU (names as 'lostcycles check' lists them)\n"
	"  -a, --all          the events of every PMU present\n"
	"      --available    only the events that open here\n"
	"  -d, --describe=EV  description, unit masks, encoding and status of EV\n"
	"  -h, --help         this text\n";

/* "opens" or "unavailable (ENOENT)". */
static const char *status(const struct lc_event_info *e, char *buf, size_t len)
{
	if (e->encode_err)
		snprintf(buf, len, "cannot encode: %s", lc_event_encode_error(e->encode_err));
	else if (!e->open_err)
		snprintf(buf, len, "opens");
	else
		snprintf(buf, len, "unavailable (%s)", lc_errno_name(-e->open_err));
	return buf;
}

static int list(const char *pmu, int available)
{
	struct lc_event_info *ev;
	size_t n, nopen = 0;
	char st[64];
	int rc = lc_events_list(pmu, &ev, &n);

	if (rc == -ENOENT) {
		warnx("no PMU '%s' is present here (see 'lostcycles check')", pmu);
		return 1;
	}
	if (rc) {
		warnx("%s", strerror(-rc));
		return 1;
	}
	printf("%-44s %-9s %s\n", "EVENT", "KIND", "HERE");
	for (size_t i = 0; i < n; i++) {
		char full[200];

		nopen += !ev[i].open_err;
		if (available && ev[i].open_err)
			continue;
		snprintf(full, sizeof(full), "%s::%s", ev[i].pmu, ev[i].name);
		printf("%-44s %-9s %s\n", full, lc_event_kind_name(ev[i].kind),
		       status(&ev[i], st, sizeof(st)));
	}
	printf("\n%zu events, %zu open here\n", n, nopen);
	free(ev);
	return 0;
}

static int describe(const char *name)
{
	struct lc_event_info e;
	struct lc_event_attr *at;
	size_t n;
	char st[64];

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
	printf("here:        %s\n", status(&e, st, sizeof(st)));
	if (!lc_event_attrs(name, &at, &n) && n) {
		printf("attributes:\n");
		for (size_t i = 0; i < n; i++)
			printf("  %-30s %-8s %s%s\n", at[i].name, at[i].is_umask ? "umask" : "modifier",
			       at[i].desc, at[i].is_default ? " (default)" : "");
		free(at);
	}
	return e.open_err ? 1 : 0;
}

/* Check each name: one line each; 1 when any does not open. */
static int probe(int argc, char **argv)
{
	int bad = 0;
	char st[64];

	for (int i = 0; i < argc; i++) {
		struct lc_event_info e;

		lc_event_probe(argv[i], &e);
		printf("%-44s %-9s %s\n", argv[i], e.encode_err ? "-" : lc_event_kind_name(e.kind),
		       status(&e, st, sizeof(st)));
		bad |= e.open_err != 0;
	}
	return bad;
}

int lc_cmd_events(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pmu", required_argument, NULL, 'P' },
		{ "all", no_argument, NULL, 'a' },
		{ "available", no_argument, NULL, 'A' },
		{ "describe", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *pmu = NULL, *desc = NULL;
	char msg[256];
	int c, available = 0;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "P:ad:h", opts, NULL)) != -1) {
		switch (c) {
		case 'P':
			pmu = optarg;
			break;
		case 'a':
			pmu = "all";
			break;
		case 'A':
			available = 1;
			break;
		case 'd':
			desc = optarg;
			break;
		case 'h':
			fputs(events_usage, stdout);
			return 0;
		default:
			warnx("unknown or incomplete option '%s'", argv[optind - 1]);
			fputs(events_usage, stderr);
			return 2;
		}
	}
	if ((desc || pmu || available) && optind < argc) {
		warnx("event names do not combine with -P, -a, --available or -d");
		return 2;
	}
	if (desc && (pmu || available)) {
		warnx("-d describes one event: it does not combine with -P, -a or --available");
		return 2;
	}
	if (lc_events_init(msg, sizeof(msg))) {
		warnx("%s", msg);
		return 1;
	}
	if (desc)
		return describe(desc);
	if (optind < argc)
		return probe(argc - optind, argv + optind);
	return list(pmu, available);
}
