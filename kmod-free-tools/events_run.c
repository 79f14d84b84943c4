/*
 * events_run.c — the outputs of "lostcycles events": the table (or JSON
 * array) of the events libpfm4 knows with whether each opens here, for this
 * process and for another one, one event described, named events checked.
 */
#include "lc_events_run.h"
#include "lc_emit.h"
#include "lc_events.h"
#include "lc_check.h"
#include "lc_util.h"
#include "counters.h"

#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

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

/* One event as a table line. */
static void show_text(FILE *out, const struct lc_event_info *e, const char *full)
{
	char st[64], ch[64], rs[256];

	fprintf(out, "%-44s %-9s %-22s %-22s %s\n", full,
		e->encode_err ? "-" : lc_event_kind_name(e->kind),
		status(e, e->open_err, st, sizeof(st)), status(e, e->child_err, ch, sizeof(ch)),
		why(e, rs, sizeof(rs)));
}

/* One event as a JSON object of the list d. */
static void show_json(struct lc_doc *d, const struct lc_event_info *e, const char *full)
{
	char rs[256];

	lc_doc_obj(d, NULL, 0);
	lc_doc_str(d, "event", full);
	lc_doc_str(d, "kind", e->encode_err ? "unknown" : lc_event_kind_name(e->kind));
	lc_doc_bool(d, "opens", !e->encode_err && !e->open_err);
	lc_doc_bool(d, "opens_in_child", !e->encode_err && !e->child_err);
	lc_doc_str(d, "reason", *why(e, rs, sizeof(rs)) ? rs : NULL);
	lc_doc_end(d);
}

/* One event: text, or (json) an object of the list d. */
static void show(FILE *out, struct lc_doc *d, const struct lc_event_info *e, const char *full,
		 int json)
{
	if (json)
		show_json(d, e, full);
	else
		show_text(out, e, full);
}

/* The table's header, or the start of the JSON list d. */
static void header(FILE *out, struct lc_doc *d, int json)
{
	lc_doc_init(d, out, 2);
	if (json)
		lc_doc_arr(d, NULL, LC_DOC_LINES);
	else
		fprintf(out, "%-44s %-9s %-22s %-22s %s\n", "EVENT", "KIND", "THIS PROCESS",
			"ANOTHER PROCESS", "WHY NOT");
}

/* Whether full (PMU::name) or its name part matches one of the patterns. */
static int matches(const char *full, const char *name, char *const *pat, int npat)
{
	if (!npat)
		return 1;
	for (int i = 0; i < npat; i++)
		if (!fnmatch(pat[i], full, FNM_CASEFOLD) || !fnmatch(pat[i], name, FNM_CASEFOLD))
			return 1;
	return 0;
}

/* The n events ev of which rq keeps some, to out; how many were shown. */
static size_t show_kept(FILE *out, const struct lc_events_list_req *rq,
			const struct lc_event_info *ev, size_t n)
{
	size_t nopen = 0, shown = 0;
	struct lc_doc d;

	header(out, &d, rq->json);
	for (size_t i = 0; i < n; i++) {
		char full[200];

		snprintf(full, sizeof(full), "%s::%s", ev[i].pmu, ev[i].name);
		if (!matches(full, ev[i].name, rq->pat, rq->npat) || (rq->available && ev[i].open_err))
			continue;
		nopen += !ev[i].open_err;
		show(out, &d, &ev[i], full, rq->json);
		shown++;
	}
	if (rq->json)
		lc_doc_end(&d);
	else
		fprintf(out, "\n%zu events, %zu open here\n", shown, nopen);
	return shown;
}

int lc_events_print_list(FILE *out, const struct lc_events_list_req *rq, char *msg, size_t len)
{
	struct lc_event_info *ev;
	size_t n, shown;
	int rc = lc_events_list(rq->pmu, &ev, &n);

	if (rc == -ENOENT)
		return lc_fail(msg, len, 1, "no PMU '%s' is present here (see 'lostcycles check')",
			       rq->pmu);
	if (rc)
		return lc_fail(msg, len, 1, "%s", strerror(-rc));
	shown = show_kept(out, rq, ev, n);
	free(ev);
	if (rq->npat && !shown)
		return lc_fail(msg, len, 1, "no event matches%s%s", rq->npat == 1 ? " " : "",
			       rq->npat == 1 ? rq->pat[0] : " the patterns");
	return 0;
}

/* The unit masks and modifiers of event name, when it has any. */
static void describe_attrs(FILE *out, const char *name)
{
	struct lc_event_attr *at;
	size_t n;

	if (lc_event_attrs(name, &at, &n) || !n)
		return;
	fprintf(out, "attributes:\n");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "  %-30s %-8s %s%s\n", at[i].name, at[i].is_umask ? "umask" : "modifier",
			at[i].desc, at[i].is_default ? " (default)" : "");
	free(at);
}

/* How e is encoded for perf_event_open, or why it is not. */
static void describe_encoding(FILE *out, const struct lc_event_info *e)
{
	if (e->encode_err)
		fprintf(out, "encoding:    none (%s)\n", lc_event_encode_error(e->encode_err));
	else
		fprintf(out, "encoding:    perf_event_attr type %" PRIu32 " config 0x%" PRIx64 "\n",
			e->type, e->config);
}

int lc_events_print_describe(FILE *out, const char *name, char *msg, size_t len)
{
	struct lc_event_info e;
	char st[64], rs[256];

	if (lc_event_probe(name, &e))
		return lc_fail(msg, len, -ENOENT, "'%s' is not an event libpfm4 knows (see "
			       "'lostcycles events -a')", name);
	fprintf(out, "event:       %s::%s\ndescription: %s\n", e.pmu, e.name, e.desc);
	if (*e.equiv)
		fprintf(out, "same as:     %s\n", e.equiv);
	fprintf(out, "kind:        %s\n", lc_event_kind_name(e.kind));
	describe_encoding(out, &e);
	fprintf(out, "here:        %s\n", status(&e, e.open_err, st, sizeof(st)));
	fprintf(out, "in another:  %s\n", status(&e, e.child_err, st, sizeof(st)));
	if (*why(&e, rs, sizeof(rs)))
		fprintf(out, "why not:     %s\n", rs);
	describe_attrs(out, name);
	return e.open_err ? 1 : 0;
}

int lc_events_print_probe(FILE *out, int n, char *const *names, int json)
{
	struct lc_doc d;
	int bad = 0;

	header(out, &d, json);
	for (int i = 0; i < n; i++) {
		struct lc_event_info e;

		lc_event_probe(names[i], &e);
		show(out, &d, &e, names[i], json);
		bad |= e.open_err != 0;
	}
	if (json)
		lc_doc_end(&d);
	return bad;
}
