/*
 * report.c — print a profile the way the thesis's pp does (Figure 4.3), or
 * as a pp -l line for a runs file, per thread, per window, per fragment tag,
 * as text, CSV or JSON.  See report.h.
 */
#include "report.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lc_util.h"

/* What is printed: one acct finished for p, with its derived numbers. */
struct view {
	uint64_t cat[LC_NCAT];
	uint64_t qempty;
	uint64_t total;
	double wall;		/* seconds: total / p */
};

static double sec(uint64_t ns)
{
	return (double)ns / 1e9;
}

static double pct(uint64_t ns, uint64_t total)
{
	return total ? 100.0 * (double)ns / (double)total : 0.0;
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

static void text_summary(const struct lc_profile *pr, const struct lc_report_opts *o,
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

/* The category cells of one table row and its total: fixed-width text
 * columns, or CSV fields when csv is set.  na for what was not measured. */
static void table_cells(const struct lc_profile *pr, const uint64_t cat[LC_NCAT], int csv)
{
	for (int c = 0; c < LC_NCAT; c++)
		if (unavailable(pr, c))
			printf(csv ? ",%s" : " %10s", "na");
		else
			printf(csv ? ",%.9f" : " %10.6f", sec(cat[c]));
	printf(csv ? ",%.9f\n" : " %10.6f\n", sec(row_total(cat)));
}

/* The header of such a table: lead, the category keys, "total". */
static void table_header(const char *lead, int csv)
{
	printf("%s", lead);
	for (int c = 0; c < LC_NCAT; c++)
		printf(csv ? ",%s" : " %10s", lc_cat_info(c)->key);
	printf(csv ? ",%s\n" : " %10s\n", "total");
}

static void text_per_thread(const struct lc_profile *pr, const struct lc_prof_data *d,
			    const struct view *v)
{
	uint64_t empty[LC_NCAT];

	printf("\n** per thread (seconds)\n");
	table_header("     pid      tid", 0);
	for (uint32_t i = 0; i < d->nthreads; i++) {
		printf("%8d %8d", pr->threads[i].pid, pr->threads[i].tid);
		table_cells(pr, d->threads[i].cat, 0);
	}
	empty_row(d, v, empty);
	printf("%-17s", "(empty slots)");
	table_cells(pr, empty, 0);
}

/* The acct a timeline row shows: the window's, or its row for the tag. */
static const struct lc_acct *window_acct(const struct lc_prof_window *w, const struct lc_report_opts *o)
{
	if (!o->have_tag)
		return &w->acct;
	for (uint32_t i = 0; i < w->ntags; i++)
		if (w->tags[i].tag == o->tag)
			return &w->tags[i].acct;
	return NULL;
}

static void text_timeline(const struct lc_profile *pr, const struct lc_prof_data *d,
			  const struct lc_report_opts *o)
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

static void lline(const struct lc_profile *pr, const struct lc_report_opts *o, const struct view *v)
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

static void csv_per_thread(const struct lc_profile *pr, const struct lc_prof_data *d,
			   const struct view *v)
{
	uint64_t empty[LC_NCAT];

	printf("\n");
	table_header("thread,pid,tid", 1);
	for (uint32_t i = 0; i < d->nthreads; i++) {
		printf("%u,%d,%d", i, pr->threads[i].pid, pr->threads[i].tid);
		table_cells(pr, d->threads[i].cat, 1);
	}
	empty_row(d, v, empty);
	printf("empty,,");
	table_cells(pr, empty, 1);
}

static void csv_timeline(const struct lc_profile *pr, const struct lc_prof_data *d,
			 const struct lc_report_opts *o)
{
	printf("\n");
	table_header("window,start,wall", 1);
	for (uint32_t i = 0; i < d->nwindows; i++) {
		const struct lc_acct *a = window_acct(&d->windows[i], o);
		struct view v;

		if (!a)
			continue;
		make_view(pr, a, &v);
		printf("%u,%.9f,%.9f", d->windows[i].index, sec(d->windows[i].start_ns), v.wall);
		table_cells(pr, v.cat, 1);
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

static void json_head(const struct lc_profile *pr, const struct lc_report_opts *o, const struct view *v)
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
			  const struct lc_report_opts *o)
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

static void json_report(const struct lc_profile *pr, const struct lc_report_opts *o,
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

/* Print the report.  See report.h. */
int lc_report_print(const struct lc_profile *pr, const struct lc_report_opts *o, char *msg,
		    size_t len)
{
	const struct lc_prof_data *d = &pr->data[o->source];
	const struct lc_acct *a = &d->total;
	char note[256], tags[512];
	struct view v;

	*msg = 0;
	if (o->source_set && o->source == LC_SRC_TRACE && !d->present)
		return lc_fail(msg, len, 1, "no trace-mode data (record with --trace)");
	if (o->have_tag) {
		const struct lc_prof_tagrow *t = find_tag(d, o->tag);

		if (!t) {
			list_tags(d, tags, sizeof(tags));
			return lc_fail(msg, len, 1, "tag %" PRId64 " never appears (%s)", o->tag,
				       tags);
		}
		a = &t->acct;
	}
	make_view(pr, a, &v);
	cut_note(pr, d, note, sizeof(note));
	snprintf(msg, len, "%s", note);
	if (o->lline) {
		lline(pr, o, &v);
	} else if (o->fmt == LC_REPORT_JSON) {
		json_report(pr, o, d, &v);
	} else if (o->fmt == LC_REPORT_CSV) {
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

