/*
 * lc_emit.h — the one table emitter: columns and rows in, aligned text, CSV
 * (RFC 4180) or JSON out.  It alone escapes what it writes:
 *
 *   text  control characters (C0, DEL, C1) and bytes that are not UTF-8
 *         become '?', so nothing from a profile reaches a terminal as a
 *         command; widths count characters, not bytes; columns are
 *         separated by one blank and no line ends in blanks;
 *   CSV   a field holding a comma, a double quote, CR or LF is quoted and
 *         its quotes doubled; a text field a spreadsheet would take for a
 *         formula (it starts with '=', '+', '-', '@', a tab or CR and is
 *         not a number such as -1.5) is quoted with a single quote put
 *         before it (OWASP's rule against CSV injection); everything else
 *         is written as it is, so such a field reads back byte for byte
 *         but for that quote, and every other byte for byte;
 *   JSON  '"', '\\' and control characters are escaped, bytes that are not
 *         UTF-8 become U+FFFD; NaN and infinities are null.
 *
 * Use: lc_emit_new with the columns, one cell call per column and
 * lc_emit_row per row, lc_emit_end to write the table and free it.  The
 * table is written at lc_emit_end (text widths may depend on every row), so
 * the caller writes nothing to the same stream in between.  An emitter is
 * used by one thread.
 */
#ifndef LC_EMIT_H
#define LC_EMIT_H

#include <stdint.h>
#include <stdio.h>

enum lc_emit_format {
	LC_EMIT_TEXT,		/* aligned columns under a header line */
	LC_EMIT_CSV,		/* a header line, then one line per row */
	LC_EMIT_JSON,		/* an array of objects keyed by column name */
};

enum lc_col_kind {
	LC_COL_STR,		/* a string */
	LC_COL_INT,		/* a signed or unsigned integer */
	LC_COL_FLOAT,		/* a number with prec digits after the point */
	LC_COL_PCT,		/* a percentage: text appends '%', CSV/JSON the number */
	LC_COL_SIG,		/* a number with prec significant digits (%g) */
};

enum lc_col_align {
	LC_ALIGN_AUTO,		/* strings left, numbers right */
	LC_ALIGN_LEFT,
	LC_ALIGN_RIGHT,
};

/* Column flags. */
#define LC_COL_CLIP	1u	/* text: cut a longer cell to width characters */

/* data_prec: digits in CSV and JSON; 0 means "as prec", LC_PREC_ZERO none. */
#define LC_PREC_ZERO	(-1)

/* One column.  Tables are usually const arrays of these. */
struct lc_col {
	const char *name;	/* header in text and CSV, key in JSON */
	enum lc_col_kind kind;
	int prec;		/* FLOAT, PCT: digits after the point in text;
				 * SIG: significant digits (0: 6) */
	int data_prec;		/* the same in CSV and JSON (see above) */
	int width;		/* text: this many characters (or the header's,
				 * when wider); a longer cell overflows its
				 * row, as printf's width does; 0: fit the
				 * widest cell */
	enum lc_col_align align;
	unsigned flags;		/* LC_COL_* */
	const char *na;		/* text of a missing value (NULL: "na") */
	const char *csv_na;	/* CSV field of a missing value (NULL: "na");
				 * JSON writes null */
	int gap;		/* text: blanks before this column (0: one) */
	const char *hex;	/* text: the header's colour, "#rrggbb", on a
				 * terminal (lc_color.h); NULL: none */
};

/* Table flags. */
#define LC_EMIT_NO_HEADER 1u	/* text and CSV: no header line */
#define LC_EMIT_COMPACT	  2u	/* JSON: no blanks or line breaks but the last */

struct lc_emit;

/* A new table of ncols columns (cols is used until lc_emit_end, not
 * copied) to be written to out as fmt.  NULL when out of memory. */
struct lc_emit *lc_emit_new(FILE *out, enum lc_emit_format fmt, const struct lc_col *cols,
			    int ncols, unsigned flags);

/* The next cell of the current row.  A cell beyond the last column is
 * ignored; a row ended early ends in empty cells.  s NULL and v NaN are
 * missing values (the column's na). */
void lc_emit_str(struct lc_emit *e, const char *s);
void lc_emit_int(struct lc_emit *e, int64_t v);
void lc_emit_uint(struct lc_emit *e, uint64_t v);
void lc_emit_num(struct lc_emit *e, double v);
void lc_emit_na(struct lc_emit *e);
/* An empty cell: text blanks, CSV an empty field, JSON null. */
void lc_emit_empty(struct lc_emit *e);

/* One string over the next n columns: text writes it left-aligned across
 * their widths and separators; CSV and JSON put it in the first and leave
 * the others empty (null). */
void lc_emit_span(struct lc_emit *e, int n, const char *s);

/* The next cell's colour ("#rrggbb", used until lc_emit_end): text only,
 * and only where lc_color gives out colour (a terminal; lc_color.h); the
 * width of the cell is that of its text. */
void lc_emit_color(struct lc_emit *e, const char *hex);

/* End the current row. */
void lc_emit_row(struct lc_emit *e);

/* Write the table and free e (NULL: nothing).  Returns 0, -ENOMEM when a
 * cell could not be stored, or -EIO when out reported a write error. */
int lc_emit_end(struct lc_emit *e);

/* The escaping, for documents that are not tables (the report's JSON, the
 * HTML page's data): s as a JSON string, quoted; NULL writes null. */
void lc_emit_json_str(FILE *out, const char *s);

/* A JSON number with prec digits after the point; NaN and infinities
 * write null. */
void lc_emit_json_num(FILE *out, double v, int prec);

/* s as one CSV field (quoted when it needs to be), each byte that is not
 * UTF-8 as U+FFFD (control characters are data and stay, quoted when they
 * end a line), a text a spreadsheet would run as a formula ("=cmd|...",
 * "@SUM(...)", "-2+3") as "'=cmd|..." (never a number: "-1.5" stays);
 * NULL writes nothing. */
void lc_emit_csv_str(FILE *out, const char *s);

/* s as HTML text or an attribute value: &, <, >, " and ' as character
 * references, control characters but newline and tab and bytes that are
 * not UTF-8 as U+FFFD; NULL writes nothing. */
void lc_emit_html_str(FILE *out, const char *s);

/* s for a terminal: control characters and bytes that are not UTF-8
 * written as '?'. */
void lc_emit_text_str(FILE *out, const char *s);

/* The same in place (the string never grows), newlines kept when keep_nl
 * is set: for a message that quotes its input, e.g. every reason of
 * lc_fail (a few reasons span lines on purpose).  NULL is left alone. */
void lc_emit_text_fix(char *s, int keep_nl);

/* s as a gnuplot string, single-quoted: a quote doubled (gnuplot reads
 * nothing else inside such a string), control characters and bytes that
 * are not UTF-8 as '?', so no string ends a gnuplot command early or
 * starts one.  NULL writes ''. */
void lc_emit_gnuplot_str(FILE *out, const char *s);

/* ---- documents ---------------------------------------------------------------
 * Nested JSON (the report's document, fit's, the Perfetto trace, check's and
 * events' lists) written as it goes: the writer holds only its open
 * containers, so a document of any length takes the same memory.  Keys and
 * strings are escaped as lc_emit_json_str does; a number that is not finite
 * is null.  Each container chooses its layout, flags of:
 *
 *   LC_DOC_TIGHT  no blank after ',' and ':' ({"a":1,"b":2}); else one
 *   LC_DOC_LINES  each member on a line of its own, the close too
 *   LC_DOC_HANG   each member on a line of its own, the close after the last
 *
 * neither of the last two: the members on the current line.  A line begun
 * for a member is indented by indent blanks (lc_doc_init) per open
 * container.  lc_doc_break puts the next member on a line of its own in any
 * layout.  Use: lc_doc_init, then values (key NULL in an array; the first
 * value is the document), lc_doc_obj/lc_doc_arr ... lc_doc_end; the
 * document's last lc_doc_end writes a newline after it.  Used by one
 * thread; more than LC_DOC_DEPTH open containers are written flat. */
#define LC_DOC_TIGHT	1u
#define LC_DOC_LINES	2u
#define LC_DOC_HANG	4u
#define LC_DOC_DEPTH	16

struct lc_doc {
	FILE *out;
	int indent;		/* blanks per open container on a new line */
	int depth;		/* open containers */
	int brk;		/* the next member on a new line */
	unsigned layout[LC_DOC_DEPTH];
	unsigned n[LC_DOC_DEPTH];	/* members written into each */
	char close[LC_DOC_DEPTH];
};

void lc_doc_init(struct lc_doc *d, FILE *out, int indent);
/* Open an object or an array as member key (NULL: in an array, or the
 * document) with layout (LC_DOC_* flags). */
void lc_doc_obj(struct lc_doc *d, const char *key, unsigned layout);
void lc_doc_arr(struct lc_doc *d, const char *key, unsigned layout);
/* Close the innermost container. */
void lc_doc_end(struct lc_doc *d);
/* The next member on a line of its own. */
void lc_doc_break(struct lc_doc *d);

/* Members: a string (NULL: null), a number with prec digits after the
 * point, with digits significant digits (%g), integers, true or false,
 * null, and text written as it is (a number the caller formatted). */
void lc_doc_str(struct lc_doc *d, const char *key, const char *s);
void lc_doc_num(struct lc_doc *d, const char *key, double v, int prec);
void lc_doc_sig(struct lc_doc *d, const char *key, double v, int digits);
void lc_doc_int(struct lc_doc *d, const char *key, int64_t v);
void lc_doc_uint(struct lc_doc *d, const char *key, uint64_t v);
void lc_doc_bool(struct lc_doc *d, const char *key, int v);
void lc_doc_null(struct lc_doc *d, const char *key);
void lc_doc_raw(struct lc_doc *d, const char *key, const char *text);

#endif
