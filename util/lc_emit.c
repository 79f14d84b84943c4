/*
 * lc_emit.c — the one table emitter and the escaping it alone does.  See
 * lc_emit.h.
 */
#include "lc_emit.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lc_color.h"
#include "lc_util.h"

/* ---- UTF-8 -------------------------------------------------------------- */

/* The length of the well-formed UTF-8 sequence s begins with (1 to 4) and
 * its code point in *cp, or 0 when s does not begin with one (a stray
 * continuation byte, an overlong form, a surrogate, beyond U+10FFFF, a
 * sequence cut short). */
static int utf8_seq(const unsigned char *s, uint32_t *cp)
{
	static const uint32_t min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	int n = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 :
		s[0] >= 0xe0 && s[0] < 0xf0 ? 3 : s[0] >= 0xf0 && s[0] < 0xf5 ? 4 : 0;
	uint32_t c;

	if (n <= 1) {
		*cp = s[0];
		return n;
	}
	c = s[0] & (0x7f >> n);
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min[n] || c > 0x10ffff || (c >= 0xd800 && c < 0xe000))
		return 0;
	*cp = c;
	return n;
}

/* Whether code point c is a control character (C0, DEL, C1). */
static int is_control(uint32_t c)
{
	return c < 0x20 || (c >= 0x7f && c < 0xa0);
}

/* ---- the escaping ------------------------------------------------------- */

/* At most max characters of s, each control character or byte that is
 * not UTF-8 as '?'; with gnuplot set, a single quote doubled. */
static void put_clean(FILE *out, const char *str, size_t max, int gnuplot)
{
	const unsigned char *s = (const unsigned char *)str;

	for (size_t w = 0; s && *s && w < max; w++) {
		uint32_t c;
		int n = utf8_seq(s, &c);

		if (n == 0 || is_control(c))
			fputc('?', out);
		else if (gnuplot && c == '\'')
			fputs("''", out);
		else
			fwrite(s, 1, (size_t)n, out);
		s += n ? n : 1;
	}
}

void lc_emit_text_fix(char *str, int keep_nl)
{
	unsigned char *s = (unsigned char *)str, *d = s;

	while (s && *s) {
		uint32_t c;
		int n = utf8_seq(s, &c);

		if (n == 0 || (is_control(c) && !(keep_nl && c == '\n'))) {
			*d++ = '?';
			s += n ? n : 1;
		} else {
			memmove(d, s, (size_t)n);
			d += n;
			s += n;
		}
	}
	if (d)
		*d = '\0';
}

void lc_emit_text_str(FILE *out, const char *s)
{
	put_clean(out, s, SIZE_MAX, 0);
}

void lc_emit_gnuplot_str(FILE *out, const char *s)
{
	fputc('\'', out);
	put_clean(out, s, SIZE_MAX, 1);
	fputc('\'', out);
}

void lc_emit_json_str(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	if (!s) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	while (*s) {
		uint32_t c;
		int n = utf8_seq(s, &c);

		if (n == 0)
			fputs("\\ufffd", out);
		else if (c == '"' || c == '\\')
			fprintf(out, "\\%c", (int)c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\u%04x", (unsigned)c);
		else
			fwrite(s, 1, (size_t)n, out);
		s += n ? n : 1;
	}
	fputc('"', out);
}

void lc_emit_json_num(FILE *out, double v, int prec)
{
	if (isfinite(v))
		fprintf(out, "%.*f", prec, v);
	else
		fputs("null", out);
}

/* The replacement character U+FFFD, in UTF-8: what a byte that is not
 * UTF-8 becomes in a machine-readable output. */
#define REPLACEMENT "\xef\xbf\xbd"

/* s with each byte that is not UTF-8 as U+FFFD, a '"' doubled when quoted
 * is set (CSV). */
static void put_utf8(FILE *out, const char *str, int quoted)
{
	const unsigned char *s = (const unsigned char *)str;

	while (*s) {
		uint32_t c;
		int n = utf8_seq(s, &c);

		if (n == 0)
			fputs(REPLACEMENT, out);
		else if (quoted && c == '"')
			fputs("\"\"", out);
		else
			fwrite(s, 1, (size_t)n, out);
		s += n ? n : 1;
	}
}

/* Whether a spreadsheet would read CSV field s as a formula: it starts
 * with '=', '+', '-', '@', a tab or a carriage return (OWASP's list) and
 * is not a plain number such as -1.5. */
static int csv_formula(const char *s)
{
	char *end;

	if (!*s || !strchr("=+-@\t\r", *s))
		return 0;
	(void)strtod(s, &end);
	return end == s || *end;
}

void lc_emit_csv_str(FILE *out, const char *s)
{
	int quoted, formula;

	if (!s)
		return;
	formula = csv_formula(s);
	quoted = formula || s[strcspn(s, ",\"\r\n")] != '\0';
	if (quoted)
		fputc('"', out);
	if (formula)
		fputc('\'', out);	/* text, never a formula */
	put_utf8(out, s, quoted);
	if (quoted)
		fputc('"', out);
}

void lc_emit_html_str(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	while (s && *s) {
		uint32_t c;
		int n = utf8_seq(s, &c);

		if (n == 0 || (is_control(c) && c != '\n' && c != '\t'))
			fputs(REPLACEMENT, out);
		else if (c == '&' || c == '<' || c == '>' || c == '"' || c == '\'')
			fprintf(out, "&#%u;", (unsigned)c);
		else
			fwrite(s, 1, (size_t)n, out);
		s += n ? n : 1;
	}
}

/* The characters s takes on a terminal as lc_emit_text_str writes it. */
static size_t text_width(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t w = 0;

	while (s && *s) {
		uint32_t c;
		int n = utf8_seq(s, &c);

		s += n ? n : 1;
		w++;
	}
	return w;
}

/* ---- the table ---------------------------------------------------------- */

enum cell_kind {
	CELL_NA,	/* missing: the column's na, JSON null */
	CELL_EMPTY,	/* blank, empty field, null */
	CELL_STR,	/* a string */
	CELL_NUM,	/* a number: text and data forms */
	CELL_SPAN,	/* a string over span columns */
	CELL_COVERED,	/* a column under the span before it */
};

struct cell {
	enum cell_kind kind;
	int span;
	char *text;	/* CELL_STR, CELL_SPAN: the string; CELL_NUM: text form */
	char *data;	/* CELL_NUM: CSV and JSON form */
	const char *hex;	/* text: its colour on a terminal (lc_emit_color) */
};

struct lc_emit {
	FILE *out;
	enum lc_emit_format fmt;
	const struct lc_col *cols;
	int ncols;
	unsigned flags;
	struct cell *cells;	/* rows x ncols */
	size_t cap;		/* cells allocated */
	size_t rows;		/* rows ended */
	int col;		/* next column of the current row */
	int err;		/* -ENOMEM once a cell could not be stored */
	const char *hex;	/* the next cell's colour (lc_emit_color) */
};

struct lc_emit *lc_emit_new(FILE *out, enum lc_emit_format fmt, const struct lc_col *cols,
			    int ncols, unsigned flags)
{
	struct lc_emit *e;

	if (ncols <= 0)
		return NULL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	*e = (struct lc_emit){ .out = out, .fmt = fmt, .cols = cols, .ncols = ncols,
			       .flags = flags };
	return e;
}

/* The next cell of the current row, or NULL (beyond the last column, or no
 * memory: then e->err says so). */
static struct cell *next_cell(struct lc_emit *e)
{
	size_t at;

	if (!e || e->err || e->col >= e->ncols)
		return NULL;
	at = e->rows * (size_t)e->ncols + (size_t)e->col;
	if (lc_grow((void **)&e->cells, &e->cap, at + 1, sizeof(*e->cells))) {
		e->err = -ENOMEM;
		return NULL;
	}
	e->col++;
	e->cells[at].hex = e->hex;
	e->hex = NULL;
	return &e->cells[at];
}

void lc_emit_color(struct lc_emit *e, const char *hex)
{
	if (e)
		e->hex = hex;
}

/* A copy of s into the cell as kind k. */
static void put_str(struct lc_emit *e, enum cell_kind k, const char *s)
{
	struct cell *c = next_cell(e);

	if (!c)
		return;
	c->kind = k;
	c->text = strdup(s);
	if (!c->text) {
		c->kind = CELL_NA;
		e->err = -ENOMEM;
	}
}

void lc_emit_str(struct lc_emit *e, const char *s)
{
	if (!s)
		lc_emit_na(e);
	else
		put_str(e, CELL_STR, s);
}

/* A number cell with text form t and data form d. */
static void put_num(struct lc_emit *e, const char *t, const char *d)
{
	struct cell *c = next_cell(e);

	if (!c)
		return;
	c->kind = CELL_NUM;
	c->text = strdup(t);
	c->data = strdup(d);
	if (!c->text || !c->data)
		e->err = -ENOMEM;
}

void lc_emit_int(struct lc_emit *e, int64_t v)
{
	char b[32];

	snprintf(b, sizeof(b), "%" PRId64, v);
	put_num(e, b, b);
}

void lc_emit_uint(struct lc_emit *e, uint64_t v)
{
	char b[32];

	snprintf(b, sizeof(b), "%" PRIu64, v);
	put_num(e, b, b);
}

/* The column of the next cell, or NULL. */
static const struct lc_col *next_col(const struct lc_emit *e)
{
	return e && e->col < e->ncols ? &e->cols[e->col] : NULL;
}

void lc_emit_num(struct lc_emit *e, double v)
{
	const struct lc_col *col = next_col(e);
	char t[64], d[64];
	int dp;

	if (!col)
		return;
	if (!isfinite(v)) {
		lc_emit_na(e);
		return;
	}
	if (col->kind == LC_COL_INT || col->kind == LC_COL_STR) {
		lc_emit_int(e, (int64_t)llround(v));
		return;
	}
	dp = col->data_prec == 0 ? col->prec : col->data_prec < 0 ? 0 : col->data_prec;
	if (col->kind == LC_COL_SIG) {
		snprintf(t, sizeof(t), "%.*g", col->prec ? col->prec : 6, v);
		snprintf(d, sizeof(d), "%.*g", dp ? dp : 6, v);
	} else {
		snprintf(t, sizeof(t), "%.*f%s", col->prec, v, col->kind == LC_COL_PCT ? "%" : "");
		snprintf(d, sizeof(d), "%.*f", dp, v);
	}
	put_num(e, t, d);
}

void lc_emit_na(struct lc_emit *e)
{
	struct cell *c = next_cell(e);

	if (c)
		c->kind = CELL_NA;
}

void lc_emit_empty(struct lc_emit *e)
{
	struct cell *c = next_cell(e);

	if (c)
		c->kind = CELL_EMPTY;
}

void lc_emit_span(struct lc_emit *e, int n, const char *s)
{
	struct cell *c;

	if (!e || n < 1 || e->err || e->col >= e->ncols)
		return;
	if (n > e->ncols - e->col)
		n = e->ncols - e->col;
	put_str(e, CELL_SPAN, s ? s : "");
	if (e->err)
		return;
	e->cells[e->rows * (size_t)e->ncols + (size_t)e->col - 1].span = n;
	for (int i = 1; i < n; i++) {
		c = next_cell(e);
		if (c)
			c->kind = CELL_COVERED;
	}
}

void lc_emit_row(struct lc_emit *e)
{
	if (!e || e->err)
		return;
	while (e->col < e->ncols)
		lc_emit_empty(e);
	if (e->err)
		return;
	e->rows++;
	e->col = 0;
}

/* ---- writing ------------------------------------------------------------ */

/* A column's text of a missing value and its CSV field. */
static const char *na_text(const struct lc_col *c)
{
	return c->na ? c->na : "na";
}

static const char *na_csv(const struct lc_col *c)
{
	return c->csv_na ? c->csv_na : "na";
}

static int left_aligned(const struct lc_col *c)
{
	return c->align == LC_ALIGN_LEFT || (c->align == LC_ALIGN_AUTO && c->kind == LC_COL_STR);
}

/* The text a cell shows (NULL: blank). */
static const char *cell_text(const struct lc_col *col, const struct cell *c)
{
	switch (c->kind) {
	case CELL_NA:
		return na_text(col);
	case CELL_STR:
	case CELL_NUM:
	case CELL_SPAN:
		return c->text;
	default:
		return "";
	}
}

/* The width of each column in text: its own or its header's, whichever is
 * wider; with no width of its own the widest of header and cells (spans
 * are not counted). */
static void text_widths(const struct lc_emit *e, size_t *w)
{
	for (int j = 0; j < e->ncols; j++) {
		const struct lc_col *col = &e->cols[j];

		w[j] = (size_t)(col->width > 0 ? col->width : 0);
		if (!(e->flags & LC_EMIT_NO_HEADER) && text_width(col->name) > w[j])
			w[j] = text_width(col->name);
		if (col->width > 0)
			continue;
		for (size_t r = 0; r < e->rows; r++) {
			const struct cell *c = &e->cells[r * (size_t)e->ncols + (size_t)j];
			size_t cw = c->kind == CELL_SPAN || c->kind == CELL_COVERED ? 0 :
				    text_width(cell_text(col, c));

			if (cw > w[j])
				w[j] = cw;
		}
	}
}

/* s padded to width w (clipped when clip), left or right; in colour
 * between on and off. */
static void text_cell(FILE *out, const char *s, size_t w, int left, int clip, const char *on,
		      const char *off)
{
	size_t n = text_width(s);

	if (clip && n > w)
		n = w;
	if (!left)
		for (size_t i = n; i < w; i++)
			fputc(' ', out);
	fputs(on, out);
	put_clean(out, s, n, 0);
	fputs(off, out);
	if (left)
		for (size_t i = n; i < w; i++)
			fputc(' ', out);
}

/* The blanks before column j. */
static void text_gap(const struct lc_emit *e, FILE *out, int j)
{
	for (int i = 0; j && i < (e->cols[j].gap > 0 ? e->cols[j].gap : 1); i++)
		fputc(' ', out);
}

/* The blanks before column j when it is covered by a span. */
static size_t gap_width(const struct lc_emit *e, int j)
{
	return (size_t)(e->cols[j].gap > 0 ? e->cols[j].gap : 1);
}

static void text_header(const struct lc_emit *e, FILE *out, const size_t *w)
{
	for (int j = 0; j < e->ncols; j++) {
		text_gap(e, out, j);
		text_cell(out, e->cols[j].name, w[j], left_aligned(&e->cols[j]), 0,
			  e->cols[j].hex ? lc_color(e->out, e->cols[j].hex) : "",
			  e->cols[j].hex ? lc_color(e->out, NULL) : "");
	}
}

static void text_row(const struct lc_emit *e, FILE *out, const struct cell *row, const size_t *w)
{
	for (int j = 0; j < e->ncols; j++) {
		const struct lc_col *col = &e->cols[j];
		size_t sw = w[j];

		if (row[j].kind == CELL_COVERED)
			continue;
		text_gap(e, out, j);
		for (int k = 1; row[j].kind == CELL_SPAN && k < row[j].span; k++)
			sw += gap_width(e, j + k) + w[j + k];
		text_cell(out, cell_text(col, &row[j]), sw,
			  row[j].kind == CELL_SPAN || left_aligned(col),
			  (col->flags & LC_COL_CLIP) != 0,
			  row[j].hex ? lc_color(e->out, row[j].hex) : "",
			  row[j].hex ? lc_color(e->out, NULL) : "");
	}
}

/* Write the line in buf[n] without its trailing blanks, and a newline. */
static void text_line(FILE *out, const char *buf, size_t n)
{
	while (n && buf[n - 1] == ' ')
		n--;
	fwrite(buf, 1, n, out);
	fputc('\n', out);
}

/* Each line is made in memory first so that it ends without blanks (a
 * left-aligned last column, empty cells at the end). */
static int write_text(const struct lc_emit *e)
{
	size_t *w = calloc((size_t)e->ncols, sizeof(*w)), n = 0;
	char *line = NULL;
	FILE *m = open_memstream(&line, &n);
	int err = w && m ? 0 : -ENOMEM;

	if (err)
		goto out;
	text_widths(e, w);
	for (size_t r = 0; r <= e->rows; r++) {
		if (r == 0 && (e->flags & LC_EMIT_NO_HEADER))
			continue;
		rewind(m);
		if (r == 0)
			text_header(e, m, w);
		else
			text_row(e, m, &e->cells[(r - 1) * (size_t)e->ncols], w);
		if (fflush(m)) {
			err = -ENOMEM;
			break;
		}
		text_line(e->out, line, (size_t)ftell(m));
	}
out:
	if (m)
		fclose(m);
	free(line);
	free(w);
	return err;
}

static void write_csv(const struct lc_emit *e)
{
	if (!(e->flags & LC_EMIT_NO_HEADER)) {
		for (int j = 0; j < e->ncols; j++) {
			if (j)
				fputc(',', e->out);
			lc_emit_csv_str(e->out, e->cols[j].name);
		}
		fputc('\n', e->out);
	}
	for (size_t r = 0; r < e->rows; r++) {
		const struct cell *row = &e->cells[r * (size_t)e->ncols];

		for (int j = 0; j < e->ncols; j++) {
			if (j)
				fputc(',', e->out);
			if (row[j].kind == CELL_NA)
				lc_emit_csv_str(e->out, na_csv(&e->cols[j]));
			else if (row[j].kind == CELL_NUM)
				fputs(row[j].data, e->out);
			else if (row[j].kind == CELL_STR || row[j].kind == CELL_SPAN)
				lc_emit_csv_str(e->out, row[j].text);
		}
		fputc('\n', e->out);
	}
}

static void json_cell(FILE *out, const struct cell *c)
{
	if (c->kind == CELL_NUM)
		fputs(c->data, out);
	else if (c->kind == CELL_STR || c->kind == CELL_SPAN)
		lc_emit_json_str(out, c->text);
	else
		fputs("null", out);
}

/* One row per line, or (LC_EMIT_COMPACT) all on one line. */
static void write_json(const struct lc_emit *e)
{
	int compact = (e->flags & LC_EMIT_COMPACT) != 0;

	fputc('[', e->out);
	for (size_t r = 0; r < e->rows; r++) {
		const struct cell *row = &e->cells[r * (size_t)e->ncols];

		fputs(compact ? (r ? ",{" : "{") : (r ? ",\n  {" : "\n  {"), e->out);
		for (int j = 0; j < e->ncols; j++) {
			if (j)
				fputs(compact ? "," : ", ", e->out);
			lc_emit_json_str(e->out, e->cols[j].name);
			fputs(compact ? ":" : ": ", e->out);
			json_cell(e->out, &row[j]);
		}
		fputc('}', e->out);
	}
	fputs(e->rows && !compact ? "\n]\n" : "]\n", e->out);
}

static void free_cells(struct lc_emit *e)
{
	for (size_t i = 0; i < e->cap; i++) {
		free(e->cells[i].text);
		free(e->cells[i].data);
	}
	free(e->cells);
}

int lc_emit_end(struct lc_emit *e)
{
	int err;

	if (!e)
		return 0;
	err = e->err;
	if (!err && e->col)
		lc_emit_row(e);
	err = e->err;
	if (!err) {
		if (e->fmt == LC_EMIT_CSV)
			write_csv(e);
		else if (e->fmt == LC_EMIT_JSON)
			write_json(e);
		else
			err = write_text(e);
		if (!err && ferror(e->out))
			err = -EIO;
	}
	free_cells(e);
	free(e);
	return err;
}

/* ---- documents ------------------------------------------------------------ */

void lc_doc_init(struct lc_doc *d, FILE *out, int indent)
{
	*d = (struct lc_doc){ .out = out, .indent = indent };
}

/* A new line indented for level open containers. */
static void doc_line(const struct lc_doc *d, int level)
{
	fputc('\n', d->out);
	for (int i = 0; i < d->indent * level; i++)
		fputc(' ', d->out);
}

/* The layout of the innermost container (0 at the top). */
static unsigned doc_layout(const struct lc_doc *d)
{
	return d->depth ? d->layout[(d->depth > LC_DOC_DEPTH ? LC_DOC_DEPTH : d->depth) - 1] : 0;
}

/* The separator, line and key before a member. */
static void doc_member(struct lc_doc *d, const char *key)
{
	unsigned l = doc_layout(d);
	unsigned *n = d->depth && d->depth <= LC_DOC_DEPTH ? &d->n[d->depth - 1] : NULL;
	int first = n && !*n;

	if (!d->depth)
		return;
	if (!first)
		fputc(',', d->out);
	if (d->brk || (l & (LC_DOC_LINES | LC_DOC_HANG)))
		doc_line(d, d->depth);
	else if (!first && !(l & LC_DOC_TIGHT))
		fputc(' ', d->out);
	d->brk = 0;
	if (n)
		(*n)++;
	if (key) {
		lc_emit_json_str(d->out, key);
		fputs(l & LC_DOC_TIGHT ? ":" : ": ", d->out);
	}
}

static void doc_open(struct lc_doc *d, const char *key, unsigned layout, char open, char close)
{
	doc_member(d, key);
	fputc(open, d->out);
	if (d->depth < LC_DOC_DEPTH) {
		d->layout[d->depth] = layout;
		d->n[d->depth] = 0;
		d->close[d->depth] = close;
	}
	d->depth++;
}

void lc_doc_obj(struct lc_doc *d, const char *key, unsigned layout)
{
	doc_open(d, key, layout, '{', '}');
}

void lc_doc_arr(struct lc_doc *d, const char *key, unsigned layout)
{
	doc_open(d, key, layout, '[', ']');
}

void lc_doc_end(struct lc_doc *d)
{
	int k = d->depth - 1;

	if (k < 0)
		return;
	if (doc_layout(d) & LC_DOC_LINES)
		doc_line(d, k);
	fputc(k < LC_DOC_DEPTH ? d->close[k] : '}', d->out);
	d->depth--;
	d->brk = 0;
	if (!d->depth)
		fputc('\n', d->out);
}

void lc_doc_break(struct lc_doc *d)
{
	d->brk = 1;
}

void lc_doc_raw(struct lc_doc *d, const char *key, const char *text)
{
	doc_member(d, key);
	fputs(text, d->out);
}

void lc_doc_str(struct lc_doc *d, const char *key, const char *s)
{
	doc_member(d, key);
	lc_emit_json_str(d->out, s);
}

void lc_doc_num(struct lc_doc *d, const char *key, double v, int prec)
{
	doc_member(d, key);
	lc_emit_json_num(d->out, v, prec);
}

void lc_doc_sig(struct lc_doc *d, const char *key, double v, int digits)
{
	doc_member(d, key);
	if (isfinite(v))
		fprintf(d->out, "%.*g", digits, v);
	else
		fputs("null", d->out);
}

void lc_doc_int(struct lc_doc *d, const char *key, int64_t v)
{
	doc_member(d, key);
	fprintf(d->out, "%" PRId64, v);
}

void lc_doc_uint(struct lc_doc *d, const char *key, uint64_t v)
{
	doc_member(d, key);
	fprintf(d->out, "%" PRIu64, v);
}

void lc_doc_bool(struct lc_doc *d, const char *key, int v)
{
	lc_doc_raw(d, key, v ? "true" : "false");
}

void lc_doc_null(struct lc_doc *d, const char *key)
{
	lc_doc_raw(d, key, "null");
}
