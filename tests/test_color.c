/*
 * test_color.c — colour in terminal output (util/lc_color.h): when a
 * stream gets colour (--color, NO_COLOR, TERM=dumb, not a terminal), the
 * nearest terminal colour of each category's colour (16 standard colours,
 * the 256-colour cube), bad colours, and a coloured emitter cell whose
 * width is that of its text.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_test.h"
#include "lc_color.h"
#include "lc_emit.h"
#include "lc_profile.h"

/* A stream that is not a terminal. */
static FILE *not_tty(void)
{
	FILE *f = tmpfile();

	assert_non_null(f);
	return f;
}

static void test_when(void **state)
{
	FILE *f = not_tty();

	setenv("TERM", "xterm", 1);
	unsetenv("COLORTERM");
	unsetenv("NO_COLOR");
	lc_color_when = LC_COLOR_AUTO;
	assert_string_equal(lc_color(f, "#d62728"), "");	/* a file: never */
	assert_string_equal(lc_color(f, NULL), "");
	lc_color_when = LC_COLOR_ALWAYS;
	setenv("NO_COLOR", "1", 1);			/* always beats NO_COLOR */
	assert_string_equal(lc_color(f, "#d62728"), "\033[31m");
	assert_string_equal(lc_color(f, NULL), "\033[m");
	lc_color_when = LC_COLOR_NEVER;
	unsetenv("NO_COLOR");
	assert_string_equal(lc_color(f, "#d62728"), "");
	lc_color_when = LC_COLOR_AUTO;
	fclose(f);
}

/* Each category's colour, as 16 colours and as the 256-colour cube. */
static void test_nearest(void **state)
{
	static const char *const basic[LC_NCAT] = {
		"\033[31m", "\033[33m", "\033[35m", "\033[34m", "\033[95m",
		"\033[90m", "\033[92m", "\033[36m", "\033[32m",
	};
	static const int cube[LC_NCAT] = { 160, 208, 97, 95, 175, 102, 142, 38, 34 };
	FILE *f = not_tty();
	char want[32];

	lc_color_when = LC_COLOR_ALWAYS;
	unsetenv("COLORTERM");
	setenv("TERM", "xterm", 1);
	for (int c = 0; c < LC_NCAT; c++) {
		char mine[32];

		assert_string_equal(lc_color(f, lc_cat_info(c)->colour), basic[c]);
		snprintf(mine, sizeof(mine), "%s", lc_color(f, lc_cat_info(c)->colour));
		for (int k = 0; k < c; k++)	/* no two categories alike */
			assert_string_not_equal(mine, lc_color(f, lc_cat_info(k)->colour));
	}
	setenv("TERM", "xterm-256color", 1);
	for (int c = 0; c < LC_NCAT; c++) {
		snprintf(want, sizeof(want), "\033[38;5;%dm", cube[c]);
		assert_string_equal(lc_color(f, lc_cat_info(c)->colour), want);
	}
	setenv("TERM", "xterm", 1);
	setenv("COLORTERM", "truecolor", 1);
	assert_string_equal(lc_color(f, "#000000"), "\033[38;5;16m");
	assert_string_equal(lc_color(f, "#ffffff"), "\033[38;5;231m");
	unsetenv("COLORTERM");
	/* not "#rrggbb": no colour */
	assert_string_equal(lc_color(f, "d62728"), "");
	assert_string_equal(lc_color(f, "#d6272"), "");
	assert_string_equal(lc_color(f, "#d62728x"), "");
	assert_string_equal(lc_color(f, "#g62728"), "");
	lc_color_when = LC_COLOR_AUTO;
	fclose(f);
}

/* Two colours in one printf: both strings stay valid. */
static void test_two(void **state)
{
	FILE *f = not_tty();
	const char *a, *b;

	lc_color_when = LC_COLOR_ALWAYS;
	setenv("TERM", "xterm", 1);
	a = lc_color(f, "#d62728");
	b = lc_color(f, "#2ca02c");
	assert_string_equal(a, "\033[31m");
	assert_string_equal(b, "\033[32m");
	lc_color_when = LC_COLOR_AUTO;
	fclose(f);
}

/* A coloured cell: the escapes around its text, its column as wide as
 * the text; CSV never coloured. */
static void test_emit_cell(void **state)
{
	static const struct lc_col cols[] = {
		{ .name = "name", .kind = LC_COL_STR, .width = 6, .hex = "#2ca02c" },
		{ .name = "n", .kind = LC_COL_INT },
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct lc_emit *e;

	lc_color_when = LC_COLOR_ALWAYS;
	setenv("TERM", "xterm", 1);
	e = lc_emit_new(f, LC_EMIT_TEXT, cols, 2, 0);
	lc_emit_color(e, "#d62728");
	lc_emit_str(e, "li");
	lc_emit_int(e, 1);
	lc_emit_row(e);
	lc_emit_str(e, "plain");
	lc_emit_int(e, 22);
	lc_emit_row(e);
	assert_int_equal(lc_emit_end(e), 0);
	fflush(f);
	assert_string_equal(buf, "\033[32mname\033[m    n\n"
				 "\033[31mli\033[m      1\n"
				 "plain  22\n");
	rewind(f);
	len = 0;
	e = lc_emit_new(f, LC_EMIT_CSV, cols, 2, 0);
	lc_emit_color(e, "#d62728");
	lc_emit_str(e, "li");
	lc_emit_int(e, 1);
	lc_emit_row(e);
	assert_int_equal(lc_emit_end(e), 0);
	fflush(f);
	assert_null(memchr(buf, '\033', len));
	lc_color_when = LC_COLOR_AUTO;
	fclose(f);
	free(buf);
}

LC_TEST_MAIN(NULL, NULL,
	     LC_T(test_when), LC_T(test_nearest), LC_T(test_two), LC_T(test_emit_cell))
