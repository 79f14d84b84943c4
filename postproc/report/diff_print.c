/*
 * diff_print.c — the outputs of "lostcycles diff" (diff.h): the table as
 * text, CSV or JSON through the emitter, the one-line summary, the
 * side-by-side HTML page, and the --fail-if conditions.
 */
#include "diff.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_util.h"

static const char *cat_key(int c)
{
	return c == LC_DIFF_ALL ? "all" : lc_cat_info(c)->key;
}

static const struct lc_col cols[] = {
	{ .name = "place", .kind = LC_COL_STR },
	{ .name = "what", .kind = LC_COL_STR },
	{ .name = "cat", .kind = LC_COL_STR },
	{ .name = "a_s", .kind = LC_COL_FLOAT, .prec = 4, .data_prec = 9 },
	{ .name = "b_s", .kind = LC_COL_FLOAT, .prec = 4, .data_prec = 9 },
	{ .name = "change_s", .kind = LC_COL_FLOAT, .prec = 4, .data_prec = 9 },
	{ .name = "change", .kind = LC_COL_PCT, .prec = 1, .data_prec = 3 },
	{ .name = "a_share", .kind = LC_COL_PCT, .prec = 1, .data_prec = 3 },
	{ .name = "b_share", .kind = LC_COL_PCT, .prec = 1, .data_prec = 3 },
	{ .name = "se_s", .kind = LC_COL_FLOAT, .prec = 4, .data_prec = 9 },
	{ .name = "z", .kind = LC_COL_FLOAT, .prec = 1, .data_prec = 2 },
	{ .name = "verdict", .kind = LC_COL_STR },
	{ .name = "b_place", .kind = LC_COL_STR, .na = "", .csv_na = "" },
};

#define NCOLS ((int)(sizeof(cols) / sizeof(cols[0])))

/* "faster", "slower" beyond noise, else "". */
static const char *verdict(const struct lc_diff_row *r)
{
	return !r->beyond ? "" : r->b < r->a ? "faster" : "slower";
}

/* Whether the table shows r without --all: beyond noise, or 1 % of a
 * side's total. */
static int shown(const struct lc_diff_row *r)
{
	return r->beyond || r->share_a >= 0.01 || r->share_b >= 0.01;
}

static void emit_row(struct lc_emit *e, const struct lc_diff_row *r)
{
	lc_emit_str(e, r->place);
	lc_emit_str(e, r->what);
	lc_emit_str(e, cat_key(r->cat));
	lc_emit_num(e, r->a);
	lc_emit_num(e, r->b);
	lc_emit_num(e, r->b - r->a);
	lc_emit_num(e, r->a > 0 ? 100 * (r->b - r->a) / r->a : NAN);
	lc_emit_num(e, 100 * r->share_a);
	lc_emit_num(e, 100 * r->share_b);
	lc_emit_num(e, r->se);
	lc_emit_num(e, isfinite(r->z) ? r->z : NAN);
	lc_emit_str(e, verdict(r));
	lc_emit_str(e, r->b_name);
	lc_emit_row(e);
}

/* Append "place cat change" of r to buf at *n. */
static void item(char *buf, size_t len, size_t *n, const struct lc_diff_row *r, int first)
{
	if (*n >= len)
		return;
	*n += (size_t)snprintf(buf + *n, len - *n, "%s%s %s %+.3f s", first ? "" : ", ", r->place,
			       cat_key(r->cat), r->b - r->a);
}

/* The rows beyond noise in direction sign (-1 faster, 1 slower), places'
 * categories only (not (total)'s, not a place's whole time), at most 5. */
static void list(const struct lc_diff *d, int sign, char *buf, size_t len, size_t *n)
{
	int k = 0, more = 0;

	for (uint32_t i = 0; i < d->n; i++) {
		const struct lc_diff_row *r = &d->rows[i];

		if (!r->beyond || r->cat == LC_DIFF_ALL || !strcmp(r->place, "(total)") ||
		    (sign < 0) != (r->b < r->a))
			continue;
		if (k < 5)
			item(buf, len, n, r, k == 0);
		else
			more++;
		k++;
	}
	if (!k && *n < len)
		*n += (size_t)snprintf(buf + *n, len - *n, "nothing");
	if (more && *n < len)
		*n += (size_t)snprintf(buf + *n, len - *n, " and %d more", more);
}

void lc_diff_summary(const struct lc_diff *d, char *buf, size_t len)
{
	const struct lc_diff_row *t = d->n ? &d->rows[0] : NULL;
	size_t n;

	n = (size_t)snprintf(buf, len, "total %.3f s -> %.3f s (%+.1f %%, %s); faster beyond "
			     "noise: ", d->total_a, d->total_b,
			     d->total_a > 0 ? 100 * (d->total_b - d->total_a) / d->total_a : 0.0,
			     t && t->beyond ? "beyond noise" : "within noise");
	list(d, -1, buf, len, &n);
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, "; slower beyond noise: ");
	list(d, 1, buf, len, &n);
}

/* The text header: the two sides and the note. */
static void header(FILE *out, const struct lc_diff *d, const char *na, const char *nb)
{
	fputs("A: ", out);
	lc_emit_text_str(out, na);
	fprintf(out, " (p = %u, %d profile%s)\nB: ", d->pa, d->na, d->na == 1 ? "" : "s");
	lc_emit_text_str(out, nb);
	fprintf(out, " (p = %u, %d profile%s)\n", d->pb, d->nb, d->nb == 1 ? "" : "s");
	fprintf(out, "Beyond noise: |change| > %g standard errors and >= %g %% of the total.\n",
		d->o.z, 100 * d->o.min);
	if (d->note[0])
		fprintf(out, "%s\n", d->note);
	fputc('\n', out);
}

/* The JSON document's head and tail around the rows' array. */
static void json_head(FILE *out, const struct lc_diff *d, const char *na, const char *nb)
{
	fputs("{\"a\": ", out);
	lc_emit_json_str(out, na);
	fprintf(out, ", \"b\": ");
	lc_emit_json_str(out, nb);
	fprintf(out, ", \"pa\": %u, \"pb\": %u, \"na\": %d, \"nb\": %d, \"per_processor\": %s, "
		"\"z\": %g, \"min\": %g,\n\"total_a\": ", d->pa, d->pb, d->na, d->nb,
		d->per_proc ? "true" : "false", d->o.z, d->o.min);
	lc_emit_json_num(out, d->total_a, 9);
	fputs(", \"total_b\": ", out);
	lc_emit_json_num(out, d->total_b, 9);
	fputs(", \"note\": ", out);
	lc_emit_json_str(out, d->note);
	fputs(",\n\"rows\": ", out);
}

static void json_tail(FILE *out, const struct lc_diff *d, const char *sum)
{
	fputs(", \"unmatched\": [", out);
	for (uint32_t i = 0; i < d->nunmatched; i++) {
		fputs(i ? ", " : "", out);
		lc_emit_json_str(out, d->unmatched[i]);
	}
	fputs("], \"summary\": ", out);
	lc_emit_json_str(out, sum);
	fputs("}\n", out);
}

int lc_diff_print(FILE *out, const struct lc_diff *d, enum lc_emit_format fmt, int all,
		  const char *name_a, const char *name_b)
{
	struct lc_emit *e;
	char sum[2048];

	lc_diff_summary(d, sum, sizeof(sum));
	if (fmt == LC_EMIT_TEXT)
		header(out, d, name_a, name_b);
	else if (fmt == LC_EMIT_JSON)
		json_head(out, d, name_a, name_b);
	if (!(e = lc_emit_new(out, fmt, cols, NCOLS, 0)))
		return -ENOMEM;
	for (uint32_t i = 0; i < d->n; i++)
		if (all || shown(&d->rows[i]))
			emit_row(e, &d->rows[i]);
	if (lc_emit_end(e))
		return -EIO;
	if (fmt == LC_EMIT_JSON) {
		json_tail(out, d, sum);
	} else if (fmt == LC_EMIT_TEXT) {
		for (uint32_t i = 0; i < d->nunmatched; i++) {
			fputs(i ? "\n  " : "\nNot matched (on one side only):\n  ", out);
			lc_emit_text_str(out, d->unmatched[i]);
		}
		fputs(d->nunmatched ? "\n\n" : "\n", out);
		lc_emit_text_str(out, sum);
		fputc('\n', out);
	}
	return ferror(out) ? -EIO : 0;
}

/* ---- HTML ------------------------------------------------------------------ */

/* A bar of width share (0..1) of 200 px in colour hex. */
static void bar(FILE *out, double share, const char *hex)
{
	fprintf(out, "<td class=\"bar\"><span style=\"width:%.0fpx;background:%s\"></span>"
		"</td>", 200 * fmin(fmax(share, 0), 1), hex);
}

static void html_row(FILE *out, const struct lc_diff_row *r)
{
	const char *hex = r->cat == LC_DIFF_ALL ? "#888888" : lc_cat_info(r->cat)->colour;

	fprintf(out, "<tr class=\"%s\"><td>", r->beyond ? verdict(r) : "same");
	lc_emit_html_str(out, r->place);
	fprintf(out, "</td><td>%s</td><td>%.4f</td>", cat_key(r->cat), r->a);
	bar(out, r->share_a, hex);
	fprintf(out, "<td>%.4f</td>", r->b);
	bar(out, r->share_b, hex);
	fprintf(out, "<td>%+.4f</td><td>%.1f</td><td>%s</td></tr>\n", r->b - r->a,
		isfinite(r->z) ? r->z : (r->z > 0 ? 999.0 : -999.0), verdict(r));
}

int lc_diff_html(FILE *out, const struct lc_diff *d, const char *name_a, const char *name_b)
{
	char sum[2048];

	lc_diff_summary(d, sum, sizeof(sum));
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<title>lostcycles diff</title>\n<style>\nbody{font-family:sans-serif;margin:2em;"
	      "color:#222}\ntable{border-collapse:collapse}td,th{padding:2px 10px;text-align:"
	      "right}td:first-child,th:first-child{text-align:left}\n.bar{text-align:left;"
	      "width:200px}.bar span{display:inline-block;height:.9em}\n.faster{background:"
	      "#e3f6e3}.slower{background:#fbe3e3}\n</style></head><body>\n<h1>A: <code>", out);
	lc_emit_html_str(out, name_a);
	fputs("</code> against B: <code>", out);
	lc_emit_html_str(out, name_b);
	fprintf(out, "</code></h1>\n<p>p = %u against %u; %d and %d profiles. ", d->pa, d->pb,
		d->na, d->nb);
	lc_emit_html_str(out, d->note);
	fputs("</p>\n<p id=\"summary\"><strong>", out);
	lc_emit_html_str(out, sum);
	fputs("</strong></p>\n<table>\n<tr><th>place</th><th>cat</th><th>A s</th><th>A share"
	      "</th><th>B s</th><th>B share</th><th>change s</th><th>z</th><th></th></tr>\n", out);
	for (uint32_t i = 0; i < d->n; i++)
		if (d->rows[i].beyond || d->rows[i].share_a >= 0.01 || d->rows[i].share_b >= 0.01)
			html_row(out, &d->rows[i]);
	fputs("</table>\n", out);
	for (uint32_t i = 0; i < d->nunmatched; i++) {
		fputs(i ? "<br>" : "<p>Not matched:<br>", out);
		lc_emit_html_str(out, d->unmatched[i]);
	}
	fputs(d->nunmatched ? "</p>\n</body></html>\n" : "</body></html>\n", out);
	return ferror(out) ? -EIO : 0;
}

/* ---- --fail-if ------------------------------------------------------------- */

/* The metric at s (up to the operator) into c: "total" or a category key. */
static int cond_metric(const char *s, size_t n, struct lc_diff_cond *c, char *msg, size_t len)
{
	char key[32];

	if (!n || n >= sizeof(key))
		return lc_fail(msg, len, -EINVAL, "--fail-if '%s': no metric before the operator "
			       "(a category key such as li, or total)", c->text);
	memcpy(key, s, n);
	key[n] = 0;
	if (!strcmp(key, "total")) {
		c->cat = LC_DIFF_ALL;
		return 0;
	}
	if ((c->cat = lc_key_lookup(key)) >= 0) {
		if (c->cat >= LC_NCAT)	/* tt: every category */
			c->cat = LC_DIFF_ALL;
		return 0;
	}
	return lc_fail(msg, len, -EINVAL, "--fail-if '%s': '%s' is not a category key or "
		       "'total'", c->text, key);
}

/* The change after the operator: a signed number and its unit. */
static int cond_change(const char *s, struct lc_diff_cond *c, char *msg, size_t len)
{
	char *end;

	errno = 0;
	c->v = strtod(s, &end);
	if (end == s || errno || !isfinite(c->v))
		return lc_fail(msg, len, -EINVAL, "--fail-if '%s': '%s' is not a number with a "
			       "unit (%%, s or pp)", c->text, s);
	if (!strcmp(end, "%"))
		c->unit = '%';
	else if (!strcmp(end, "s"))
		c->unit = 's';
	else if (!strcmp(end, "pp"))
		c->unit = 'p';
	else
		return lc_fail(msg, len, -EINVAL, "--fail-if '%s': unit '%s' is not %% (relative "
			       "to A), s (seconds) or pp (points of share)", c->text, end);
	return 0;
}

int lc_diff_cond_parse(const char *s, struct lc_diff_cond *c, char *msg, size_t len)
{
	const char *op = strpbrk(s, "<>"), *at;
	size_t n;

	*c = (struct lc_diff_cond){ 0 };
	snprintf(c->text, sizeof(c->text), "%s", s);
	if (!op)
		return lc_fail(msg, len, -EINVAL, "--fail-if '%s': no operator: write "
			       "[PLACE@]METRIC>CHANGE or <CHANGE, e.g. \"li>+5%%\"", s);
	c->op = *op;
	at = NULL;
	for (const char *q = s; q < op; q++)	/* the last '@' before the operator */
		if (*q == '@')
			at = q;
	if (at) {
		n = (size_t)(at - s);
		if (!n || n >= sizeof(c->place))
			return lc_fail(msg, len, -EINVAL, "--fail-if '%s': an empty or too long "
				       "place before '@'", s);
		memcpy(c->place, s, n);
	}
	at = at ? at + 1 : s;
	if (cond_metric(at, (size_t)(op - at), c, msg, len))
		return -EINVAL;
	return cond_change(op + 1, c, msg, len);
}

int lc_diff_cond_eval(const struct lc_diff *d, const struct lc_diff_cond *c, char *why,
		      size_t len)
{
	const char *place = c->place[0] ? c->place : "(total)";
	const struct lc_diff_row *r = NULL;
	double ch;
	int found = 0, holds;

	for (uint32_t i = 0; i < d->n; i++) {
		if (strcmp(d->rows[i].place, place))
			continue;
		found = 1;
		if (d->rows[i].cat == c->cat)
			r = &d->rows[i];
	}
	if (!found)
		return lc_fail(why, len, -ENOENT, "--fail-if '%s': no place '%s' on both sides",
			       c->text, place);
	if (!r)
		return 0;	/* zero on both sides: no change */
	ch = c->unit == 's' ? r->b - r->a
	     : c->unit == 'p' ? 100 * (r->share_b - r->share_a)
	     : r->a > 0 ? 100 * (r->b - r->a) / r->a : r->b > 0 ? INFINITY : 0;
	holds = r->beyond && (c->op == '>' ? ch > c->v : ch < c->v);
	snprintf(why, len, "%s: %s %s changed %+.3g%s (%.4f s -> %.4f s, z %.1f, %s)", c->text,
		 place, cat_key(r->cat), ch, c->unit == 's' ? " s" : c->unit == 'p' ? " pp" : " %",
		 r->a, r->b, r->z, r->beyond ? "beyond noise" : "within noise");
	return holds;
}
