/*
 * where_print.c — the where table through the one emitter (see where.h):
 * text shows each category's seconds and the lost time's share of the
 * total; CSV and JSON add each category's share.
 */
#include "where_print.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lc_emit.h"
#include "lc_util.h"
#include "placename.h"

#define MAX_COLS (6 + 2 * LC_NCAT + 8)

static int unavailable(const struct lc_profile *pr, int c)
{
	return (pr->info.unavailable >> c) & 1;
}

static double pct(uint64_t ns, uint64_t total)
{
	return total ? 100.0 * (double)ns / (double)total : 0.0;
}

static uint64_t grand_total(const struct lc_where *w)
{
	return lc_cat_sum(w->total);
}

static void add(struct lc_col *cols, int *n, struct lc_col c)
{
	cols[(*n)++] = c;
}

/* The columns: place, kind, function, then each category (and in CSV and
 * JSON its share), the lost time and its share, the threads and the
 * slowest of them. */
static int columns(struct lc_col *cols, int text)
{
	int n = 0;

	add(cols, &n, (struct lc_col){ .name = "place", .kind = LC_COL_STR });
	add(cols, &n, (struct lc_col){ .name = "kind", .kind = LC_COL_STR, .na = "",
				       .csv_na = "" });
	if (!text)
		add(cols, &n, (struct lc_col){ .name = "function", .kind = LC_COL_STR });
	for (int c = 0; c < LC_NCAT; c++) {
		add(cols, &n, (struct lc_col){ .name = lc_cat_info(c)->key, .kind = LC_COL_FLOAT,
					       .prec = 3, .data_prec = 9, .width = 7 });
		if (!text)
			add(cols, &n, (struct lc_col){ .name = NULL, .kind = LC_COL_PCT,
						       .prec = 4, .data_prec = 6 });
	}
	add(cols, &n, (struct lc_col){ .name = "lost", .kind = LC_COL_FLOAT, .prec = 3,
				       .data_prec = 9, .width = 7 });
	add(cols, &n, (struct lc_col){ .name = text ? "%total" : "lost_pct", .kind = LC_COL_PCT,
				       .prec = 1, .data_prec = 6, .width = 6 });
	add(cols, &n, (struct lc_col){ .name = "threads", .kind = LC_COL_INT, .width = 3 });
	add(cols, &n, (struct lc_col){ .name = "slowest", .kind = LC_COL_STR, .na = "-",
				       .csv_na = "" });
	add(cols, &n, (struct lc_col){ .name = text ? "its_s" : "slowest_s",
				       .kind = LC_COL_FLOAT, .prec = 3, .data_prec = 9, .na = "-",
				       .csv_na = "" });
	add(cols, &n, (struct lc_col){ .name = text ? "vs_mean" : "slowest_vs_mean_pct",
				       .kind = LC_COL_PCT, .prec = 1, .data_prec = 3, .na = "-",
				       .csv_na = "" });
	return n;
}

/* The names of the share columns: "li_pct", ... (static storage). */
static void pct_names(struct lc_col *cols, int n)
{
	static char names[LC_NCAT][16];

	for (int i = 0, c = 0; i < n; i++)
		if (!cols[i].name && c < LC_NCAT) {
			snprintf(names[c], sizeof(names[c]), "%s_pct", lc_cat_info(c)->key);
			cols[i].name = names[c++];
		}
}

/* Rename column from of cols[n] to to. */
static void rename_col(struct lc_col *cols, int n, const char *from, const char *to)
{
	for (int i = 0; i < n; i++)
		if (cols[i].name && !strcmp(cols[i].name, from))
			cols[i].name = to;
}

/* Who the slowest thread of r is: "tid 812", "rank 1", and " last" when
 * it is the one that waited least. */
static void slowest_who(const struct lc_where_row *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s %" PRId32 "%s", r->slow_is_rank ? "rank" : "tid", r->slow_id,
		 r->slow_late ? " last" : "");
}

/* The slowest thread's cells: who, its computation (or wait) there, and
 * how much more (less) that is than the mean of the threads there. */
static void slowest_cells(struct lc_emit *e, const struct lc_where_row *r)
{
	char who[48];

	if (r->slow_id < 0) {
		lc_emit_na(e);
		lc_emit_na(e);
		lc_emit_na(e);
		return;
	}
	slowest_who(r, who, sizeof(who));
	lc_emit_str(e, who);
	lc_emit_num(e, lc_sec(r->slow_busy));
	if (r->mean_busy > 0)
		lc_emit_num(e, 100.0 * ((double)r->slow_busy / r->mean_busy - 1.0));
	else
		lc_emit_na(e);
}

/* The kind column: "MPI" for an MPI call (its function is in the name),
 * else the row's kind; NULL for none. */
static const char *kind_of(const struct lc_where_row *r)
{
	if (r->place >> 56 == LC_PLN_MPI)
		return "MPI";
	return r->what && r->what[0] ? r->what : NULL;
}

/* One row. */
static void row(struct lc_emit *e, const struct lc_profile *pr, const struct lc_where *w,
		const struct lc_where_row *r, int text)
{
	uint64_t tt = grand_total(w);
	char name[1200];

	if (text && r->what && !strcmp(r->what, "tag") && r->func && r->func[0]) {
		/* "tag NUMBER" of a name several tags have: the name beside it */
		snprintf(name, sizeof(name), "%s = %s", r->name, r->func);
		lc_emit_str(e, name);
	} else {
		lc_emit_str(e, r->name);
	}
	lc_emit_str(e, kind_of(r));
	if (!text)
		lc_emit_str(e, r->func);
	for (int c = 0; c < LC_NCAT; c++) {
		if (unavailable(pr, c))
			lc_emit_na(e);
		else
			lc_emit_num(e, lc_sec(r->cat[c]));
		if (!text && unavailable(pr, c))
			lc_emit_na(e);
		else if (!text)
			lc_emit_num(e, pct(r->cat[c], tt));
	}
	lc_emit_num(e, lc_sec(lc_cat_lost(r->cat, w->rank_cat)));
	lc_emit_num(e, pct(lc_cat_lost(r->cat, w->rank_cat), tt));
	if (w->inclusive == 1)	/* a sum of places: threads are counted per place */
		lc_emit_na(e);
	else
		lc_emit_uint(e, r->nthreads);
	slowest_cells(e, r);
	lc_emit_row(e);
}

/* The text table's last row: the report's totals. */
static void total_row(struct lc_emit *e, const struct lc_profile *pr, const struct lc_where *w)
{
	struct lc_where_row t = { .name = (char *)"(total)", .slow_id = -1 };

	memcpy(t.cat, w->total, sizeof(t.cat));
	row(e, pr, w, &t, 1);
}

/* The text header: what the rows are and what they are ranked by. */
static void text_head(FILE *out, const struct lc_where *w)
{
	const char *by = w->rank_cat >= 0 ? lc_cat_info(w->rank_cat)->desc
					  : "lost time (every category but PC)";

	fprintf(out, "** where (%s), ranked by %s; seconds", w->inclusive ?
		"inclusive: rows overlap, and do not add up to the totals" :
		"exclusive: each tick is charged to the innermost place; the rows add up "
		"to the totals", by);
	if (w->rank_cat >= 0)
		fprintf(out, "; lost = %s", lc_cat_info(w->rank_cat)->key);
	fprintf(out, "\n");
}

int lc_where_print(FILE *out, const struct lc_profile *pr, const struct lc_where *w, int fmt)
{
	struct lc_col cols[MAX_COLS];
	int text = fmt == 0, n = columns(cols, text);
	struct lc_emit *e;

	pct_names(cols, n);
	if (w->inclusive == 2)	/* per thread: the places of the name it was in */
		rename_col(cols, n, "threads", "places");
	if (text && w->inclusive != 2)
		text_head(out, w);
	e = lc_emit_new(out, fmt == 1 ? LC_EMIT_CSV : fmt == 2 ? LC_EMIT_JSON : LC_EMIT_TEXT,
			cols, n, 0);
	if (!e)
		return -ENOMEM;
	for (uint32_t i = 0; i < w->n; i++)
		row(e, pr, w, &w->rows[i], text);
	if (text && !w->inclusive)
		total_row(e, pr, w);
	if (lc_emit_end(e))
		return -EIO;
	if (text && (lc_machine_distorts(pr) >> LC_CAT_SL & 1))
		fprintf(out, "** slowest: under the machine's load (%.1f %% of the program's CPUs) "
			"judged by computation, and at waits by the wait for partners alone: a "
			"wait for a CPU is the load's, not lateness%s\n",
			lc_machine_pct(&pr->machine_total, LC_SHARE_LOAD),
			lc_machine_distorts(pr) >> LC_CAT_PC & 1 ?
			" (without run-queue data computation counts it too: record --sched)" : "");
	if (text && w->note[0]) {
		fprintf(out, "** names: ");
		lc_emit_text_str(out, w->note);
		fprintf(out, "\n");
	}
	return 0;
}

/* The row named rq->place: of the exclusive rows ex, else one of the
 * inclusive ones (built into *inc) of exactly that name; NULL with the
 * reason (of the exclusive rows: none, or the candidates) in msg. */
static const struct lc_where_row *named(const struct lc_profile *pr, const struct lc_where *ex,
					const struct lc_where_req *rq, struct lc_where **inc,
					char *msg, size_t len)
{
	const struct lc_where_row *r = lc_where_find(ex, rq->place, msg, len);
	char m2[256];

	if (r || lc_where_inclusive(pr, rq->src, -1, rq->tag_name, rq->tag_arg, inc, m2,
				    sizeof(m2)))
		return r;
	for (uint32_t i = 0; i < (*inc)->n; i++)	/* "MPI_Recv": all its call sites */
		if (!strcmp((*inc)->rows[i].name, rq->place) && strcmp((*inc)->rows[i].what, "tag"))
			return &(*inc)->rows[i];
	return NULL;
}

/* One place's threads (-t NAME). */
static int place_threads(FILE *out, const struct lc_profile *pr, const struct lc_where *w,
			 const struct lc_where_req *rq, char *msg, size_t len)
{
	struct lc_where *t = NULL, *inc = NULL;
	const struct lc_where_row *r = named(pr, w, rq, &inc, msg, len);
	int ret = 1;

	if (r && lc_where_threads(pr, rq->src, w, r, &t))
		snprintf(msg, len, "out of memory");
	else if (r) {
		if (!rq->fmt) {
			fprintf(out, "** place ");
			lc_emit_text_str(out, r->name);
			fprintf(out, " (%s%s%s), per thread; seconds\n",
				r->what[0] ? r->what : "no place", r->func[0] ? ", in " : "",
				r->func);
		}
		ret = lc_where_print(out, pr, t, rq->fmt) ? 1 : 0;
	}
	lc_where_free(t);
	lc_where_free(inc);
	return ret;
}

int lc_where_report(FILE *out, const struct lc_profile *pr, const struct lc_where_req *rq,
		    char *msg, size_t len)
{
	struct lc_where *w = NULL;
	int r;

	if (rq->inclusive && !rq->place)
		r = lc_where_inclusive(pr, rq->src, rq->rank_cat, rq->tag_name, rq->tag_arg, &w,
				       msg, len);
	else
		r = lc_where_build(pr, rq->src, rq->rank_cat, &w, msg, len);
	if (r) {
		if (r == -ENOMEM)
			snprintf(msg, len, "out of memory");
		return 1;
	}
	if (rq->place)
		r = place_threads(out, pr, w, rq, msg, len);
	else if (lc_where_print(out, pr, w, rq->fmt))
		r = (snprintf(msg, len, "cannot write the table"), 1);
	lc_where_free(w);
	return r;
}

int lc_where_names(const struct lc_profile *pr, enum lc_source src, const char *name,
		   char *msg, size_t len)
{
	struct lc_where_req rq = { .src = src, .place = name };
	struct lc_where *w = NULL, *inc = NULL;
	int r;

	if (lc_where_build(pr, src, -1, &w, msg, len))
		return 0;
	r = named(pr, w, &rq, &inc, msg, len) != NULL;
	lc_where_free(w);
	lc_where_free(inc);
	return r;
}

/* ---- the HTML table ---------------------------------------------------------
 * The page has no script: the table is written once per sort key, and radio
 * buttons (the column headers are their labels) show one copy with CSS. */

/* The sort keys of the HTML table: the lost time, each category, the name. */
#define HTML_KEYS (LC_NCAT + 2)
#define KEY_LOST LC_NCAT
#define KEY_NAME (LC_NCAT + 1)

/* s for HTML text: the one escaping of lc_emit (markup as character
 * references, control characters and bytes that are not UTF-8 as U+FFFD). */
static void html_str(FILE *out, const char *s)
{
	lc_emit_html_str(out, s);
}

/* The key and table that qsort compares by (it takes no argument). */
static int html_key;
static const struct lc_where *html_w;

static int by_html_key(const void *a, const void *b)
{
	const struct lc_where_row *x = *(const struct lc_where_row *const *)a;
	const struct lc_where_row *y = *(const struct lc_where_row *const *)b;
	uint64_t vx, vy;

	if (html_key == KEY_NAME)
		return strcmp(x->name, y->name);
	vx = html_key == KEY_LOST ? lc_cat_lost(x->cat, html_w->rank_cat) : x->cat[html_key];
	vy = html_key == KEY_LOST ? lc_cat_lost(y->cat, html_w->rank_cat) : y->cat[html_key];
	return vx != vy ? (vx > vy ? -1 : 1) : strcmp(x->name, y->name);
}

/* The header row: each header is the label of its key's radio button. */
static void html_head(FILE *out)
{
	fputs("<tr><th><label for=\"ws-name\">place</label></th><th>kind</th>", out);
	for (int c = 0; c < LC_NCAT; c++)
		fprintf(out, "<th><label for=\"ws-%s\">%s</label></th>", lc_cat_info(c)->key,
			lc_cat_info(c)->key);
	fputs("<th><label for=\"ws-lost\">lost</label></th><th>% total</th><th>threads</th>"
	      "<th>slowest</th></tr>\n", out);
}

/* One row: seconds to the ms, each cell's title the ns (as in CSV), so
 * that the table fits a window of 1,400 px. */
static void html_row(FILE *out, const struct lc_profile *pr, const struct lc_where *w,
		     const struct lc_where_row *r)
{
	uint64_t l = lc_cat_lost(r->cat, w->rank_cat);

	fputs("<tr><td>", out);
	html_str(out, r->name);
	fputs("</td><td>", out);
	html_str(out, kind_of(r));
	fputs("</td>", out);
	for (int c = 0; c < LC_NCAT; c++)
		if (unavailable(pr, c))
			fputs("<td>na</td>", out);
		else
			fprintf(out, "<td title=\"%.9f s\">%.3f</td>", lc_sec(r->cat[c]),
				lc_sec(r->cat[c]));
	fprintf(out, "<td title=\"%.9f s\">%.3f</td><td>%.1f %%</td><td>%" PRIu32 "</td><td>",
		lc_sec(l), lc_sec(l), pct(l, grand_total(w)), r->nthreads);
	if (r->slow_id >= 0) {
		char who[48];

		slowest_who(r, who, sizeof(who));
		fprintf(out, "%s %.6f s", who, lc_sec(r->slow_busy));
		if (r->mean_busy > 0)
			fprintf(out, " (%+.1f %%)", 100.0 * ((double)r->slow_busy / r->mean_busy - 1));
	}
	fputs("</td></tr>\n", out);
}

/* The name of sort key k ("lost", "li", ..., "name"). */
static const char *key_name(int k)
{
	return k == KEY_LOST ? "lost" : k == KEY_NAME ? "name" : lc_cat_info(k)->key;
}

/* One copy of the table sorted by key k (the elsewhere row stays last). */
static void html_copy(FILE *out, const struct lc_profile *pr, const struct lc_where *w,
		      const struct lc_where_row **rows, int k)
{
	uint32_t n = w->n - (w->n && !w->rows[w->n - 1].place ? 1 : 0);

	html_key = k;
	html_w = w;
	qsort(rows, n, sizeof(*rows), by_html_key);
	fprintf(out, "<table id=\"%s%s\">\n", k == KEY_LOST ? "where" : "where-", k == KEY_LOST ?
		"" : key_name(k));
	html_head(out);
	for (uint32_t i = 0; i < w->n; i++)
		html_row(out, pr, w, rows[i]);
	fputs("</table>\n", out);
}

/* The most places the HTML table shows (it is written once per column). */
#define HTML_MAX_ROWS 200

/* w as the HTML table shows it, in *v: at most HTML_MAX_ROWS places, the
 * lower ranked rest summed into one "(N more places)" row (name[len] holds
 * its name), so that the rows still add up.  v's rows are w's (and one of
 * its own: v->rows is allocated when it differs from w->rows).  0 or
 * -ENOMEM. */
static int html_view(const struct lc_where *w, struct lc_where *v, char *name, size_t len)
{
	uint32_t np = w->n ? w->n - 1 : 0;	/* w's last row is (elsewhere) */
	struct lc_where_row *more;

	*v = *w;
	if (np <= HTML_MAX_ROWS)
		return 0;
	v->rows = calloc(HTML_MAX_ROWS + 2, sizeof(*v->rows));
	if (!v->rows)
		return -ENOMEM;
	memcpy(v->rows, w->rows, HTML_MAX_ROWS * sizeof(*v->rows));
	more = &v->rows[HTML_MAX_ROWS];
	snprintf(name, len, "(%" PRIu32 " more places)", np - HTML_MAX_ROWS);
	*more = (struct lc_where_row){ .place = UINT64_MAX, .name = name, .what = (char *)"",
				       .func = (char *)"", .slow_id = -1 };
	for (uint32_t i = HTML_MAX_ROWS; i < np; i++)
		for (int c = 0; c < LC_NCAT; c++)
			more->cat[c] += w->rows[i].cat[c];
	v->rows[HTML_MAX_ROWS + 1] = w->rows[np];
	v->n = HTML_MAX_ROWS + 2;
	return 0;
}

int lc_where_html(FILE *out, const struct lc_profile *pr, const struct lc_where *all)
{
	const struct lc_where_row **rows;
	struct lc_where view, *w = &view;
	char more[64];

	if (html_view(all, &view, more, sizeof(more)))
		return -ENOMEM;
	rows = calloc(w->n + 1, sizeof(*rows));
	if (!rows) {
		if (view.rows != all->rows)
			free(view.rows);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < w->n; i++)
		rows[i] = &w->rows[i];
	fputs("<h2>Where</h2>\n<p>Places ranked by lost time; exclusive rows: with "
	      "(elsewhere) they add up to the totals. A column's header sorts by it.</p>\n"
	      "<div id=\"where-tables\">\n<style>#where-tables input{display:none}"
	      "#where-tables table{display:none}#where-tables td:first-child{max-width:30em;"
	      "overflow-wrap:anywhere}", out);
	for (int k = 0; k < HTML_KEYS; k++)
		fprintf(out, "#ws-%s:checked~#where%s%s{display:table}", key_name(k),
			k == KEY_LOST ? "" : "-", k == KEY_LOST ? "" : key_name(k));
	fputs("</style>\n", out);
	for (int k = 0; k < HTML_KEYS; k++)
		fprintf(out, "<input type=\"radio\" name=\"where-sort\" id=\"ws-%s\"%s>\n",
			key_name(k), k == KEY_LOST ? " checked" : "");
	for (int k = KEY_LOST; k < KEY_LOST + HTML_KEYS; k++)
		html_copy(out, pr, w, rows, k % HTML_KEYS);
	if (w->note[0]) {
		fputs("<p class=\"warn\" id=\"where-names\">Names: ", out);
		html_str(out, w->note);
		fputs(".</p>\n", out);
	}
	fputs("</div>\n", out);
	free(rows);
	if (view.rows != all->rows)
		free(view.rows);
	return 0;
}
