/*
 * test_emit.c — the one table emitter (util/lc_emit.h): aligned text, CSV
 * and JSON of the same table, and hostile strings (comma, quote, newline,
 * ESC, invalid UTF-8) in each.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_test.h"
#include "lc_emit.h"
#include "lc_util.h"

/* What one table of two columns (a host name, a number) looks like. */
static const struct lc_col cols[] = {
	{ .name = "host", .kind = LC_COL_STR, .width = 6, .flags = LC_COL_CLIP },
	{ .name = "sec", .kind = LC_COL_FLOAT, .prec = 2, .data_prec = 4, .width = 6 },
	{ .name = "share", .kind = LC_COL_PCT, .prec = 1, .width = 6 },
};

/* An output captured in memory. */
struct cap {
	char *buf;
	size_t len;
	FILE *f;
};

static FILE *cap_open(struct cap *c)
{
	*c = (struct cap){ 0 };
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
	return c->f;
}

/* End table e (NULL: none, which lc_emit_end accepts), then compare what was written with want. */
static void cap_check(struct cap *c, struct lc_emit *e, const char *want)
{
	assert_int_equal(lc_emit_end(e), 0);
	fclose(c->f);
	assert_string_equal(c->buf, want);
	free(c->buf);
}

/* Rows of (host, seconds, share) for each host to e: the first row's
 * seconds not a number. */
static void emit_rows(struct lc_emit *e, const char *const *hosts, int n)
{
	for (int i = 0; i < n; i++) {
		lc_emit_str(e, hosts[i]);
		lc_emit_num(e, i ? 1.5 * i : NAN);
		lc_emit_num(e, 12.25 * i);
		lc_emit_row(e);
	}
}

/* The table of rows of (host, seconds, share) written as fmt, as a string
 * (the caller frees it). */
static char *render(enum lc_emit_format fmt, const char *const *hosts, int n, unsigned flags)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct lc_emit *e = f ? lc_emit_new(f, fmt, cols, 3, flags) : NULL;

	assert_non_null(e);
	emit_rows(e, hosts, n);
	assert_int_equal(lc_emit_end(e), 0);
	fclose(f);
	return buf;
}

/* Tables of hosts in each format, and exactly what is written: text cut
 * to its columns (also without a header); CSV quoted where it must be;
 * JSON escaped, invalid UTF-8 replaced, valid kept; and nothing that could
 * steer a terminal reaches text: ESC, CR, LF, C1 as UTF-8, invalid bytes
 * all become '?', and widths count characters. */
static const struct {
	enum lc_emit_format fmt;
	const char *const *hosts;
	int n;
	unsigned flags;
	const char *want;
} renders[] = {
	{ LC_EMIT_TEXT, LC_STRS("a", "longhostname", "b"), 3, 0,
	  "host      sec  share\n"
	  "a          na   0.0%\n"
	  "longho   1.50  12.2%\n"
	  "b        3.00  24.5%\n" },
	{ LC_EMIT_TEXT, LC_STRS("a"), 1, LC_EMIT_NO_HEADER, "a          na   0.0%\n" },
	{ LC_EMIT_CSV, LC_STRS("plain", "a,b", "say \"hi\"", "two\nlines", "cr\rx"), 5, 0,
	  "host,sec,share\n"
	  "plain,na,0.0\n"
	  "\"a,b\",1.5000,12.2\n"
	  "\"say \"\"hi\"\"\",3.0000,24.5\n"
	  "\"two\nlines\",4.5000,36.8\n"
	  "\"cr\rx\",6.0000,49.0\n" },
	{ LC_EMIT_JSON, LC_STRS("q\"\\", "esc\x1b[2J", "bad\xff\xc3(", "caf\xc3\xa9"), 4, 0,
	  "[\n"
	  "  {\"host\": \"q\\\"\\\\\", \"sec\": null, \"share\": 0.0},\n"
	  "  {\"host\": \"esc\\u001b[2J\", \"sec\": 1.5000, \"share\": 12.2},\n"
	  "  {\"host\": \"bad\\ufffd\\ufffd(\", \"sec\": 3.0000, \"share\": 24.5},\n"
	  "  {\"host\": \"caf\xc3\xa9\", \"sec\": 4.5000, \"share\": 36.8}\n"
	  "]\n" },
	{ LC_EMIT_TEXT, LC_STRS("\x1b[2J", "a\nb", "\xc2\x9b" "1m", "\xff\xfe", "\xc3\xa9t\xc3\xa9"), 5,
	  LC_EMIT_NO_HEADER,
	  "?[2J       na   0.0%\n"
	  "a?b      1.50  12.2%\n"
	  "?1m      3.00  24.5%\n"
	  "??       4.50  36.8%\n"
	  "\xc3\xa9t\xc3\xa9      6.00  49.0%\n" },
};

static void test_render(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(renders) / sizeof(renders[0]); i++) {
		char *s = render(renders[i].fmt, renders[i].hosts, renders[i].n, renders[i].flags);

		assert_string_equal(s, renders[i].want);
		free(s);
	}
}

/* Auto widths, spans, empty cells, unsigned and signed integers, the
 * missing-value texts. */
static void test_layout(void **state)
{
	static const struct lc_col c[] = {
		{ .name = "pid", .kind = LC_COL_INT, .width = 4 },
		{ .name = "tid", .kind = LC_COL_INT, .width = 4 },
		{ .name = "x", .kind = LC_COL_FLOAT, .prec = 1, .na = "-", .csv_na = "" },
		{ .name = "name", .kind = LC_COL_STR },
	};
	struct cap out;
	struct lc_emit *e = lc_emit_new(cap_open(&out), LC_EMIT_TEXT, c, 4, 0);

	(void)state;
	lc_emit_int(e, -12);
	lc_emit_uint(e, 18446744073709551615ull);
	lc_emit_num(e, 2.25);
	lc_emit_str(e, "wide name");
	lc_emit_row(e);
	lc_emit_span(e, 2, "(empty)");
	lc_emit_na(e);
	lc_emit_empty(e);
	lc_emit_row(e);
	lc_emit_int(e, 1);	/* a short row: the rest empty */
	cap_check(&out, e, " pid  tid   x name\n"
			   " -12 18446744073709551615 2.2 wide name\n"
			   "(empty)     -\n"
			   "   1\n");
	e = lc_emit_new(cap_open(&out), LC_EMIT_CSV, c, 4, 0);
	lc_emit_span(e, 2, "(empty)");
	lc_emit_na(e);
	lc_emit_empty(e);
	lc_emit_row(e);
	cap_check(&out, e, "pid,tid,x,name\n(empty),,,\n");
}

/* A wider gap before a column, and compact JSON. */
static void test_gap_compact(void **state)
{
	static const struct lc_col c[] = {
		{ .name = "a", .kind = LC_COL_INT, .width = 3 },
		{ .name = "b", .kind = LC_COL_STR, .width = 2, .gap = 3 },
		{ .name = "c", .kind = LC_COL_SIG, .data_prec = 9, .gap = 2 },
	};
	struct cap out;
	struct lc_emit *e = lc_emit_new(cap_open(&out), LC_EMIT_TEXT, c, 3, 0);

	(void)state;
	lc_emit_int(e, 7);
	lc_emit_str(e, "x");
	lc_emit_str(e, "y");
	lc_emit_row(e);
	lc_emit_span(e, 2, "spanned");
	lc_emit_num(e, 1.0 / 3);
	lc_emit_row(e);
	cap_check(&out, e, "  a   b          c\n  7   x          y\nspanned   0.333333\n");
	e = lc_emit_new(cap_open(&out), LC_EMIT_JSON, c, 3, LC_EMIT_COMPACT);
	lc_emit_int(e, 7);
	lc_emit_str(e, "x");
	lc_emit_na(e);
	lc_emit_row(e);
	lc_emit_int(e, 8);
	lc_emit_empty(e);
	lc_emit_num(e, 2.0 / 3);
	lc_emit_row(e);
	cap_check(&out, e, "[{\"a\":7,\"b\":\"x\",\"c\":null},"
			   "{\"a\":8,\"b\":null,\"c\":0.666666667}]\n");
}

/* The escaping functions for documents that are not tables. */
static void test_escapes(void **state)
{
	struct cap out;
	FILE *f = cap_open(&out);

	(void)state;
	lc_emit_json_str(f, NULL);
	fputc(' ', f);
	lc_emit_json_str(f, "\t\x7f\xed\xa0\x80\xf4\x90\x80\x80\xe2\x82");	/* surrogate, > U+10FFFF, cut */
	fputc(' ', f);
	lc_emit_json_num(f, INFINITY, 3);
	fputc(' ', f);
	lc_emit_json_num(f, 0.5, 3);
	fputc(' ', f);
	lc_emit_csv_str(f, "x\"");
	fputc(' ', f);
	lc_emit_text_str(f, "ok\x07");
	fputc(' ', f);
	lc_emit_gnuplot_str(f, "it's\"; system(\"x\")\n");
	fputc(' ', f);
	lc_emit_gnuplot_str(f, NULL);
	cap_check(&out, NULL, "null \"\\u0009\\u007f\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd"
			      "\\ufffd\\ufffd\" null 0.500 \"x\"\"\" ok? "
			      "'it''s\"; system(\"x\")?' ''");
	assert_null(lc_emit_new(stdout, LC_EMIT_TEXT, cols, 0, 0));
}

/* CSV and HTML replace bytes that are not UTF-8 with U+FFFD; HTML escapes
 * markup and control characters; a reason of lc_fail quotes its input
 * without control characters (newlines kept). */
static void test_replacement(void **state)
{
	struct cap out;
	FILE *f = cap_open(&out);
	char why[64];

	lc_emit_csv_str(f, "a\xff,\x1b");
	fputc(' ', f);
	lc_emit_html_str(f, "<b a='1'>&\x1b\xc0\x80\n");
	cap_check(&out, NULL, "\"a\xef\xbf\xbd,\x1b\" &#60;b a=&#39;1&#39;&#62;&#38;"
			      "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\n");
	assert_int_equal(lc_fail(why, sizeof(why), -EINVAL, "host %s\nnext",
				 "x\x1b[2J\xff\xe2\x82\xac"), -EINVAL);
	assert_string_equal(why, "host x?[2J?\xe2\x82\xac\nnext");
}

/* The document writer: each layout, breaks, empty containers, numbers
 * that are not finite as null, and strings escaped as the tables' JSON
 * (a byte that is not UTF-8 as U+FFFD, control characters as \u). */
static void test_doc(void **state)
{
	struct lc_doc d;
	struct cap c;

	(void)state;
	lc_doc_init(&d, cap_open(&c), 2);
	lc_doc_obj(&d, NULL, LC_DOC_LINES);
	lc_doc_str(&d, "s", "a\"\\\x01\xff");
	lc_doc_obj(&d, "in", 0);
	lc_doc_num(&d, "x", 1.5, 3);
	lc_doc_num(&d, "nan", NAN, 3);
	lc_doc_break(&d);
	lc_doc_sig(&d, "g", 0.000125, 2);
	lc_doc_end(&d);
	lc_doc_arr(&d, "hang", LC_DOC_HANG);
	lc_doc_int(&d, NULL, -3);
	lc_doc_uint(&d, NULL, 4);
	lc_doc_end(&d);
	lc_doc_arr(&d, "empty", LC_DOC_LINES);
	lc_doc_end(&d);
	lc_doc_obj(&d, "tight", LC_DOC_TIGHT);
	lc_doc_bool(&d, "t", 1);
	lc_doc_null(&d, "n");
	lc_doc_raw(&d, "r", "1.000");
	lc_doc_end(&d);
	lc_doc_end(&d);
	cap_check(&c, NULL, "{\n  \"s\": \"a\\\"\\\\\\u0001\\ufffd\",\n"
		  "  \"in\": {\"x\": 1.500, \"nan\": null,\n    \"g\": 0.00013},\n"
		  "  \"hang\": [\n    -3,\n    4],\n  \"empty\": [\n  ],\n"
		  "  \"tight\": {\"t\":true,\"n\":null,\"r\":1.000}\n}\n");
}

/* CSV: a text a spreadsheet would run as a formula gets a leading single
 * quote inside a quoted field; numbers (in text cells too) and other text
 * stay as they are. */
static void test_csv_formula(void **state)
{
	static const struct lc_col c2[] = {
		{ .name = "name", .kind = LC_COL_STR }, { .name = "v", .kind = LC_COL_FLOAT, .prec = 1 },
	};
	static const char *const in[] = {
		"=HYPERLINK(\"http://x\",\"y\")", "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)",
		"\tx", "\rx", "-1.5", "+3", "-", "a=b", "",
	};
	static const char *const want = "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\" "
		"\"'+1+cmd|' /C calc'!A0\" \"'-2+3\" \"'@SUM(A1)\" \"'\tx\" \"'\rx\" -1.5 +3 "
		"\"'-\" a=b  ";
	struct cap out;
	FILE *f = cap_open(&out);
	struct lc_emit *e;

	(void)state;
	for (size_t i = 0; i < sizeof(in) / sizeof(*in); i++) {
		lc_emit_csv_str(f, in[i]);
		fputc(' ', f);
	}
	cap_check(&out, NULL, want);
	f = cap_open(&out);
	e = lc_emit_new(f, LC_EMIT_CSV, c2, 2, 0);
	lc_emit_str(e, "=1+1");
	lc_emit_num(e, -1.5);
	lc_emit_row(e);
	assert_int_equal(lc_emit_end(e), 0);
	cap_check(&out, NULL, "name,v\n\"'=1+1\",-1.5\n");
}

LC_TEST_MAIN(NULL, NULL,
	     LC_T(test_render),
	     LC_T(test_layout), LC_T(test_escapes), LC_T(test_gap_compact), LC_T(test_replacement),
	     LC_T(test_doc), LC_T(test_csv_formula))
