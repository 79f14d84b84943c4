/*
 * report.c — "lostcycles report": print a profile the way the thesis's pp
 * does (Figure 4.3), or as a pp -l line for a runs file, per thread, per
 * window, per fragment tag, as text, CSV or JSON.
 */
#include "lc_cmd.h"
#include "lc_profile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum fmt { FMT_TEXT, FMT_CSV, FMT_JSON };

struct opts {
	const char *file;
	int have_tag;
	int64_t tag;
	int per_thread, timeline, lline, source_set, format_set;
	const char *note;
	enum fmt fmt;
	enum lc_source source;
};

/* What is printed: one acct finished for p, with its derived numbers. */
struct view {
	uint64_t cat[LC_NCAT];
	uint64_t qempty;
	uint64_t total;
	double wall;		/* seconds: total / p */
};

static const char usage_text[] =
	"usage: lostcycles report [-f FILE] [-t TAG] [--per-thread] [--timeline]\n"
	"                         [--format text|csv|json] [-l [NOTE]]\n"
	"                         [--source sampled|trace] [FILE]\n"
	"\n"
	"Print the predicate profile in FILE (default lostcycles.data): the time\n"
	"lost to each overhead category, summed over the processors.\n"
	"\n"
	"  -f FILE            the profile to read\n"
	"  -t TAG             only the time while fragment TAG was open\n"
	"  --per-thread       a table of threads x categories\n"
	"  --timeline         one row per timeline window\n"
	"  --format FMT       text (default), csv or json\n"
	"  -l [NOTE]          one pp -l line for a runs file; NOTE is var=value pairs\n"
	"  --source SRC       sampled (default) or trace (exact event log)\n"
	"  --help             this text; see also lostcycles-report(1)\n";

static double sec(uint64_t ns)
{
	return (double)ns / 1e9;
}

static double pct(uint64_t ns, uint64_t total)
{
	return total ? 100.0 * (double)ns / (double)total : 0.0;
}

/* A usage error: one line on stderr, status 2. */
static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "lostcycles report: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (see 'lostcycles report --help')\n");
	return 2;
}

/* NOTE must be whitespace-separated var=value pairs. */
static int valid_note(const char *s)
{
	int pairs = 0;

	while (*s) {
		size_t name = 0, val = 0;

		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		if (!(*s == '_' || (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')))
			return 0;
		while (s[name] == '_' || s[name] == '.' || (s[name] >= '0' && s[name] <= '9') ||
		       (s[name] >= 'A' && s[name] <= 'Z') || (s[name] >= 'a' && s[name] <= 'z'))
			name++;
		if (s[name] != '=')
			return 0;
		s += name + 1;
		while (s[val] && s[val] != ' ' && s[val] != '\t' && s[val] != '=')
			val++;
		if (!val || s[val] == '=')
			return 0;
		s += val;
		pairs++;
	}
	return pairs > 0;
}

/* A whole signed decimal tag. */
static int parse_tag(const char *s, int64_t *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

/* If a is option name (short "-x" or long "--name"), its value: inline
 * ("-xVAL", "--name=VAL") or the next argument.  Returns 1 with *val set
 * (NULL when missing), or 0 when a is another option. */
static int match(const char *a, const char *name, int argc, char **argv, int *i,
		 const char **val)
{
	size_t n = strlen(name);

	if (strncmp(a, name, n))
		return 0;
	if (a[n] && name[1] == '-' && a[n] != '=')
		return 0;
	if (a[n])
		*val = a + n + (name[1] == '-');
	else
		*val = *i + 1 < argc ? argv[++*i] : NULL;
	return 1;
}

/* Set the format or source from v.  Returns 0, or 2. */
static int set_format(struct opts *o, const char *v)
{
	if (!strcmp(v, "text"))
		o->fmt = FMT_TEXT;
	else if (!strcmp(v, "csv"))
		o->fmt = FMT_CSV;
	else if (!strcmp(v, "json"))
		o->fmt = FMT_JSON;
	else
		return usage_error("unknown format '%s' (text, csv or json)", v);
	o->format_set = 1;
	return 0;
}

static int set_source(struct opts *o, const char *v)
{
	if (!strcmp(v, "sampled"))
		o->source = LC_SRC_SAMPLED;
	else if (!strcmp(v, "trace"))
		o->source = LC_SRC_TRACE;
	else
		return usage_error("unknown source '%s' (sampled or trace)", v);
	o->source_set = 1;
	return 0;
}

/* Options with a value: -f -t --format --source.  Returns -1 when a is none
 * of them, else 0 or 2. */
static int value_opt(struct opts *o, int argc, char **argv, int *i, const char *a)
{
	const char *v = NULL;

	if (match(a, "-f", argc, argv, i, &v)) {
		if (v)
			o->file = v;
	} else if (match(a, "-t", argc, argv, i, &v)) {
		if (v && parse_tag(v, &o->tag))
			return usage_error("bad tag '%s': not an integer", v);
		o->have_tag = 1;
	} else if (match(a, "--format", argc, argv, i, &v)) {
		if (v)
			return set_format(o, v);
	} else if (match(a, "--source", argc, argv, i, &v)) {
		if (v)
			return set_source(o, v);
	} else {
		return -1;
	}
	return v ? 0 : usage_error("option '%s' needs a value", a);
}

/* Parse argv into o.  Returns -1 to go on, else an exit status. */
static int parse_args(struct opts *o, int argc, char **argv)
{
	int only_files = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int r;

		if (only_files || a[0] != '-' || !a[1]) {
			if (o->file)
				return usage_error("more than one FILE ('%s')", a);
			o->file = a;
		} else if (!strcmp(a, "--")) {
			only_files = 1;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage_text, stdout);
			return 0;
		} else if (!strcmp(a, "-l")) {
			o->lline = 1;
			if (i + 1 < argc && argv[i + 1][0] != '-' && strchr(argv[i + 1], '='))
				o->note = argv[++i];
		} else if (!strcmp(a, "--per-thread")) {
			o->per_thread = 1;
		} else if (!strcmp(a, "--timeline")) {
			o->timeline = 1;
		} else {
			r = value_opt(o, argc, argv, &i, a);
			if (r == -1)
				return usage_error("unknown option '%s'", a);
			if (r)
				return r;
		}
	}
	if (o->note && !valid_note(o->note))
		return usage_error("-l: note '%s' is not var=value pairs", o->note);
	if (o->lline && (o->per_thread || o->timeline || o->format_set))
		return usage_error("%s", "-l prints one line: it does not combine with "
				   "--per-thread, --timeline or --format");
	if (o->have_tag && o->per_thread)
		return usage_error("%s", "--per-thread does not combine with -t");
	if (!o->file)
		o->file = "lostcycles.data";
	return -1;
}

/* Finish acct a for the profile's p into v. */
static void make_view(const struct lc_profile *pr, const struct lc_acct *a, struct view *v)
{
	lc_profile_finish(pr, a, v->cat);
	v->qempty = a->li_qempty;
	v->total = 0;
	for (int c = 0; c < LC_NCAT; c++)
		v->total += v->cat[c];
	v->wall = pr->procs ? sec(v->total) / pr->procs : sec(lc_acct_wall(a));
}

static int unavailable(const struct lc_profile *pr, int c)
{
	return (pr->info.unavailable >> c) & 1;
}

static const char *reason(const struct lc_profile *pr, int c)
{
	return pr->info.reason[c] ? pr->info.reason[c] : "not measured";
}

static const char *procs_from(uint32_t from)
{
	switch (from) {
	case LC_PROCS_OPTION:
		return "--procs";
	case LC_PROCS_TEAM:
		return "LC_TEAM";
	case LC_PROCS_THREADS:
		return "most threads alive at once";
	default:
		return "unknown";
	}
}

/* The tag row of d for tag, or NULL. */
static const struct lc_prof_tagrow *find_tag(const struct lc_prof_data *d, int64_t tag)
{
	for (uint32_t i = 0; i < d->ntags; i++)
		if (d->tags[i].tag == tag)
			return &d->tags[i];
	return NULL;
}

/* "tags present: 1 2 3" (or "no tags") into buf. */
static void list_tags(const struct lc_prof_data *d, char *buf, size_t len)
{
	size_t off;

	if (!d->ntags) {
		snprintf(buf, len, "the profile has no fragment tags");
		return;
	}
	off = (size_t)snprintf(buf, len, "tags present:");
	for (uint32_t i = 0; i < d->ntags && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, " %" PRId64, d->tags[i].tag);
}

/* The cut note, or "" when the profile is complete. */
static void cut_note(const struct lc_profile *pr, const struct lc_prof_data *d,
		     char *buf, size_t len)
{
	buf[0] = 0;
	if (pr->cut)
		snprintf(buf, len, "profile cut at byte %" PRIu64 ": shows the first %u "
			 "windows (%.6f s)", pr->cut_offset, d->nwindows,
			 sec(lc_acct_wall(&d->total)));
}

/* ---- text ---------------------------------------------------------------- */

static void text_line(const struct lc_profile *pr, const struct view *v, int c)
{
	const char *name = lc_cat_info(c)->name;

	if (unavailable(pr, c))
		printf("%-24s %12s            (%s)\n", name, "na", reason(pr, c));
	else
		printf("%-24s %12.6f  %7.2f%%\n", name, sec(v->cat[c]), pct(v->cat[c], v->total));
}

static void text_summary(const struct lc_profile *pr, const struct opts *o,
			 const struct view *v, const char *note)
{
	printf("lostcycles report %s: %s%s%s\n", LC_TOOL_VERSION, o->file,
	       pr->info.command ? ": " : "", pr->info.command ? pr->info.command : "");
	printf("** processors: %u (%s)\n", pr->procs, procs_from(pr->procs_from));
	if (o->source == LC_SRC_TRACE)
		printf("** source: trace mode (exact event log)\n");
	if (o->have_tag)
		printf("** fragment tag %" PRId64 "\n", o->tag);
	for (int c = 0; c < LC_CAT_PC; c++) {
		text_line(pr, v, c);
		if (c == LC_CAT_LI && v->qempty && !unavailable(pr, c))
			printf("  %-22s %12.6f  %7.2f%%\n", "of which queue empty",
			       sec(v->qempty), pct(v->qempty, v->total));
	}
	printf("%-24s %12.6f  %7.2f%%\n", "Total Time", sec(v->total), v->total ? 100.0 : 0.0);
	text_line(pr, v, LC_CAT_PC);
	printf("** wall time: %.6f s (Total Time / %u)\n", v->wall, pr->procs);
	if (pr->ended && pr->end.wasted_lost)
		printf("** note: %" PRIu64 " LC_TASK_WASTED call(s) missed by the sampler: "
		       "their time stays in Remaining Time\n", pr->end.wasted_lost);
	if (pr->ended && pr->end.bad_reads)
		printf("** note: %" PRIu64 " invalid value(s) read from shared memory were "
		       "ignored\n", pr->end.bad_reads);
	if (*note)
		printf("** %s\n", note);
}

/* The empty-slot row: total minus the sum of the threads, per category. */
static void empty_row(const struct lc_prof_data *d, const struct view *v, uint64_t out[LC_NCAT])
{
	for (int c = 0; c < LC_NCAT; c++) {
		uint64_t s = 0;

		for (uint32_t i = 0; i < d->nthreads; i++)
			s += d->threads[i].cat[c];
		out[c] = v->cat[c] > s ? v->cat[c] - s : 0;
	}
}

static uint64_t row_total(const uint64_t cat[LC_NCAT])
{
	uint64_t t = 0;

	for (int c = 0; c < LC_NCAT; c++)
		t += cat[c];
	return t;
}

static void text_cells(const struct lc_profile *pr, const uint64_t cat[LC_NCAT])
{
	for (int c = 0; c < LC_NCAT; c++)
		if (unavailable(pr, c))
			printf(" %10s", "na");
		else
			printf(" %10.6f", sec(cat[c]));
	printf(" %10.6f\n", sec(row_total(cat)));
}

static void text_header(const char *lead)
{
	printf("%s", lead);
	for (int c = 0; c < LC_NCAT; c++)
		printf(" %10s", lc_cat_info(c)->key);
	printf(" %10s\n", "total");
}

static void text_per_thread(const struct lc_profile *pr, const struct lc_prof_data *d,
			    const struct view *v)
{
	uint64_t empty[LC_NCAT];

	printf("\n** per thread (seconds)\n");
	text_header("     pid      tid");
	for (uint32_t i = 0; i < d->nthreads; i++) {
		printf("%8d %8d", pr->threads[i].pid, pr->threads[i].tid);
		text_cells(pr, d->threads[i].cat);
	}
	empty_row(d, v, empty);
	printf("%-17s", "(empty slots)");
	text_cells(pr, empty);
}

/* The acct a timeline row shows: the window's, or its row for the tag. */
static const struct lc_acct *window_acct(const struct lc_prof_window *w, const struct opts *o)
{
	if (!o->have_tag)
		return &w->acct;
	for (uint32_t i = 0; i < w->ntags; i++)
		if (w->tags[i].tag == o->tag)
			return &w->tags[i].acct;
	return NULL;
}

static void text_timeline(const struct lc_profile *pr, const struct lc_prof_data *d,
			  const struct opts *o)
{
	printf("\n** timeline (fraction of %u x window wall time)\n", pr->procs);
	printf("%7s %10s %10s", "window", "start(s)", "wall(s)");
	for (int c = 0; c < LC_NCAT; c++)
		printf(" %6s", lc_cat_info(c)->key);
	printf("\n");
	for (uint32_t i = 0; i < d->nwindows; i++) {
		const struct lc_prof_window *w = &d->windows[i];
		const struct lc_acct *a = window_acct(w, o);
		struct view v;

		if (!a)
			continue;
		make_view(pr, a, &v);
		printf("%7u %10.6f %10.6f", w->index, sec(w->start_ns), v.wall);
		for (int c = 0; c < LC_NCAT; c++)
			if (unavailable(pr, c))
				printf(" %6s", "na");
			else
				printf(" %6.3f", v.total ? (double)v.cat[c] / (double)v.total : 0.0);
		printf("\n");
	}
}

/* ---- -l ------------------------------------------------------------------ */

static void lline(const struct lc_profile *pr, const struct opts *o, const struct view *v)
{
	if (o->note)
		printf("%s ", o->note);
	printf("p=%u", pr->procs);
	for (int c = 0; c < LC_NCAT; c++)
		if (unavailable(pr, c))
			printf(" %s=na", lc_cat_info(c)->key);
		else
			printf(" %s=%.9g", lc_cat_info(c)->key, sec(v->cat[c]));
	printf(" tt=%.9g\n", sec(v->total));
}

/* ---- csv ----------------------------------------------------------------- */

/* A CSV field: quoted when it holds a comma, quote or newline. */
static void csv_str(const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

static void csv_summary(const struct lc_profile *pr, const struct view *v)
{
	printf("key,name,seconds,percent,available,reason\n");
	printf("p,processors,%u,,1,", pr->procs);
	csv_str(procs_from(pr->procs_from));
	printf("\n");
	for (int c = 0; c < LC_NCAT; c++) {
		printf("%s,%s,", lc_cat_info(c)->key, lc_cat_info(c)->name);
		if (unavailable(pr, c)) {
			printf(",,0,");
			csv_str(reason(pr, c));
			printf("\n");
		} else {
			printf("%.9f,%.4f,1,\n", sec(v->cat[c]), pct(v->cat[c], v->total));
		}
	}
	printf("qe,of which queue empty,%.9f,%.4f,1,\n", sec(v->qempty), pct(v->qempty, v->total));
	printf("tt,Total Time,%.9f,%.4f,1,\n", sec(v->total), v->total ? 100.0 : 0.0);
	printf("wall,Wall Time,%.9f,,1,\n", v->wall);
}

static void csv_cells(const struct lc_profile *pr, const uint64_t cat[LC_NCAT])
{
	for (int c = 0; c < LC_NCAT; c++)
		if (unavailable(pr, c))
			printf(",na");
		else
			printf(",%.9f", sec(cat[c]));
	printf(",%.9f\n", sec(row_total(cat)));
}

static void csv_header(const char *lead)
{
	printf("%s", lead);
	for (int c = 0; c < LC_NCAT; c++)
		printf(",%s", lc_cat_info(c)->key);
	printf(",total\n");
}

static void csv_per_thread(const struct lc_profile *pr, const struct lc_prof_data *d,
			   const struct view *v)
{
	uint64_t empty[LC_NCAT];

	printf("\n");
	csv_header("thread,pid,tid");
	for (uint32_t i = 0; i < d->nthreads; i++) {
		printf("%u,%d,%d", i, pr->threads[i].pid, pr->threads[i].tid);
		csv_cells(pr, d->threads[i].cat);
	}
	empty_row(d, v, empty);
	printf("empty,,");
	csv_cells(pr, empty);
}

static void csv_timeline(const struct lc_profile *pr, const struct lc_prof_data *d,
			 const struct opts *o)
{
	printf("\n");
	csv_header("window,start,wall");
	for (uint32_t i = 0; i < d->nwindows; i++) {
		const struct lc_acct *a = window_acct(&d->windows[i], o);
		struct view v;

		if (!a)
			continue;
		make_view(pr, a, &v);
		printf("%u,%.9f,%.9f", d->windows[i].index, sec(d->windows[i].start_ns), v.wall);
		csv_cells(pr, v.cat);
	}
}

/* ---- json ---------------------------------------------------------------- */

static void json_str(const char *s)
{
	if (!s) {
		printf("null");
		return;
	}
	putchar('"');
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

/* {"li": 0.1, ..., "rt": 0.2, "total": 0.3} with null for unavailable. */
static void json_cats(const struct lc_profile *pr, const uint64_t cat[LC_NCAT])
{
	printf("{");
	for (int c = 0; c < LC_NCAT; c++) {
		printf("\"%s\": ", lc_cat_info(c)->key);
		if (unavailable(pr, c))
			printf("null, ");
		else
			printf("%.9f, ", sec(cat[c]));
	}
	printf("\"total\": %.9f}", sec(row_total(cat)));
}

static void json_head(const struct lc_profile *pr, const struct opts *o, const struct view *v)
{
	printf("{\n  \"file\": ");
	json_str(o->file);
	printf(",\n  \"command\": ");
	json_str(pr->info.command);
	printf(",\n  \"source\": \"%s\",\n", o->source == LC_SRC_TRACE ? "trace" : "sampled");
	if (o->have_tag)
		printf("  \"tag\": %" PRId64 ",\n", o->tag);
	printf("  \"procs\": %u,\n  \"procs_from\": ", pr->procs);
	json_str(procs_from(pr->procs_from));
	printf(",\n  \"wall\": %.9f,\n  \"total\": %.9f,\n", v->wall, sec(v->total));
	printf("  \"li_queue_empty\": %.9f,\n", sec(v->qempty));
	printf("  \"wasted_lost\": %" PRIu64 ",\n  \"bad_reads\": %" PRIu64 ",\n",
	       pr->end.wasted_lost, pr->end.bad_reads);
}

static void json_categories(const struct lc_profile *pr, const struct view *v)
{
	printf("  \"categories\": {\n");
	for (int c = 0; c < LC_NCAT; c++) {
		int na = unavailable(pr, c);

		printf("    \"%s\": {\"name\": \"%s\", \"seconds\": ", lc_cat_info(c)->key,
		       lc_cat_info(c)->name);
		if (na)
			printf("null, \"percent\": null, \"available\": false, \"reason\": ");
		else
			printf("%.9f, \"percent\": %.4f, \"available\": true, \"reason\": ",
			       sec(v->cat[c]), pct(v->cat[c], v->total));
		json_str(na ? reason(pr, c) : NULL);
		printf("}%s\n", c + 1 < LC_NCAT ? "," : "");
	}
	printf("  }");
}

static void json_per_thread(const struct lc_profile *pr, const struct lc_prof_data *d,
			    const struct view *v)
{
	uint64_t empty[LC_NCAT];

	printf(",\n  \"per_thread\": [");
	for (uint32_t i = 0; i < d->nthreads; i++) {
		printf("%s\n    {\"thread\": %u, \"pid\": %d, \"tid\": %d, \"seconds\": ",
		       i ? "," : "", i, pr->threads[i].pid, pr->threads[i].tid);
		json_cats(pr, d->threads[i].cat);
		printf("}");
	}
	empty_row(d, v, empty);
	printf("\n  ],\n  \"empty_slots\": ");
	json_cats(pr, empty);
}

static void json_timeline(const struct lc_profile *pr, const struct lc_prof_data *d,
			  const struct opts *o)
{
	int first = 1;

	printf(",\n  \"timeline\": [");
	for (uint32_t i = 0; i < d->nwindows; i++) {
		const struct lc_acct *a = window_acct(&d->windows[i], o);
		struct view v;

		if (!a)
			continue;
		make_view(pr, a, &v);
		printf("%s\n    {\"window\": %u, \"start\": %.9f, \"wall\": %.9f, \"seconds\": ",
		       first ? "" : ",", d->windows[i].index, sec(d->windows[i].start_ns), v.wall);
		json_cats(pr, v.cat);
		printf("}");
		first = 0;
	}
	printf("\n  ]");
}

static void json_report(const struct lc_profile *pr, const struct opts *o,
			const struct lc_prof_data *d, const struct view *v)
{
	json_head(pr, o, v);
	printf("  \"cut\": ");
	if (pr->cut)
		printf("{\"offset\": %" PRIu64 ", \"windows\": %u, \"seconds\": %.9f},\n",
		       pr->cut_offset, d->nwindows, sec(lc_acct_wall(&d->total)));
	else
		printf("null,\n");
	json_categories(pr, v);
	if (o->per_thread)
		json_per_thread(pr, d, v);
	if (o->timeline)
		json_timeline(pr, d, o);
	printf("\n}\n");
}

/* ---- the command --------------------------------------------------------- */

/* Print the report of the loaded profile.  Returns the exit status. */
static int print_report(const struct lc_profile *pr, const struct opts *o)
{
	const struct lc_prof_data *d = &pr->data[o->source];
	const struct lc_acct *a = &d->total;
	char note[256], tags[512];
	struct view v;

	if (o->source_set && o->source == LC_SRC_TRACE && !d->present) {
		fprintf(stderr, "lostcycles report: %s: no trace-mode data (record with "
			"LOSTCYCLES_TRACE=1)\n", o->file);
		return 1;
	}
	if (o->have_tag) {
		const struct lc_prof_tagrow *t = find_tag(d, o->tag);

		if (!t) {
			list_tags(d, tags, sizeof(tags));
			fprintf(stderr, "lostcycles report: %s: tag %" PRId64 " never appears "
				"(%s)\n", o->file, o->tag, tags);
			return 1;
		}
		a = &t->acct;
	}
	make_view(pr, a, &v);
	cut_note(pr, d, note, sizeof(note));
	if (*note)
		fprintf(stderr, "lostcycles report: %s: %s\n", o->file, note);
	if (o->lline) {
		lline(pr, o, &v);
	} else if (o->fmt == FMT_JSON) {
		json_report(pr, o, d, &v);
	} else if (o->fmt == FMT_CSV) {
		csv_summary(pr, &v);
		if (o->per_thread)
			csv_per_thread(pr, d, &v);
		if (o->timeline)
			csv_timeline(pr, d, o);
	} else {
		text_summary(pr, o, &v, note);
		if (o->per_thread)
			text_per_thread(pr, d, &v);
		if (o->timeline)
			text_timeline(pr, d, o);
	}
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}

int lc_cmd_report(int argc, char **argv)
{
	struct opts o = { .fmt = FMT_TEXT, .source = LC_SRC_SAMPLED };
	struct lc_profile *pr = NULL;
	char err[256];
	int r;

	r = parse_args(&o, argc, argv);
	if (r >= 0)
		return r;
	if (lc_profile_read(o.file, &pr, err, sizeof(err))) {
		fprintf(stderr, "lostcycles report: %s: %s\n", o.file, err);
		return 1;
	}
	r = print_report(pr, &o);
	lc_profile_free(pr);
	return r;
}
