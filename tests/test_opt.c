/*
 * test_opt.c — option tables (cli/lc_opt.h): what lc_opt_parse sets from
 * each kind of row, operands in any order or after the options, "--", a
 * callback that takes the next word, lc_opt_given, the usage status on bad
 * input, and the generated --help and --list-opts.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_test.h"
#include "lc_opt.h"

/* The fields of the test table. */
static struct {
	int flag, mode, fmt;
	const char *out, *peeked;
	uint32_t count;
	size_t big;
	uint64_t ns;
	double real;
	struct lc_opt_at at;
} v;

static const struct lc_opt_word words[] = { { "text", 0 }, { "csv", 1 }, { NULL, 0 } };

/* A callback that takes the next word when it has an '='. */
static int peek(const struct lc_opt *opt, const char *arg)
{
	const char *next = lc_opt_peek();

	(void)opt;
	(void)arg;
	if (next && strchr(next, '=')) {
		v.peeked = next;
		lc_opt_take();
	}
	return 0;
}

static const struct lc_opt table[] = {
	LC_OPT_FLAG("flag", 'f', "a flag", &v.flag),
	LC_OPT_SET("fast", 0, "mode 2", &v.mode, 2),
	LC_OPT_FILENAME("output", 'o', "FILE", "where", &v.out),
	LC_OPT_NUMBER("count", 'n', "N", "a count\nof things", &v.count, 1, 9),
	LC_OPT_NUMBER("big", 0, "N", "a size", &v.big, 0, SIZE_MAX),
	LC_OPT_DURATION("interval", 'i', "TIME", "a time", &v.ns, 1000, 10000000000ull),
	LC_OPT_REAL("ratio", 0, "R", "a ratio", &v.real, 0, 1),
	LC_OPT_ENUM("format", 0, "FMT", "text or csv", &v.fmt, words),
	LC_OPT_CALLBACK("at", 0, "N=V...", "a point", &v.at, lc_opt_at),
	LC_OPT_CALLBACK_PEEK(NULL, 'l', "NOTE", "a line", NULL, peek),
	LC_OPT_FLAG("secret", 0, NULL, &v.flag),
	LC_OPT_END(),
};

static const char *const usage[] = { "lostcycles t [-f] [FILE...]", "", "A test.", NULL };

/* Parse the words of line (space-separated, argv[0] "t") against table
 * (stop: the END_AT_OPERAND variant); the operands joined into ops. */
static int parse(const char *line, int stop, char *ops, size_t len)
{
	static char buf[512];
	static struct lc_opt stop_table[sizeof(table) / sizeof(table[0])];
	char *argv[32], **rest, *save = NULL;
	int argc = 0, n;

	memset(&v, 0, sizeof(v));
	snprintf(buf, sizeof(buf), "t %s", line);
	for (char *w = strtok_r(buf, " ", &save); w && argc < 31; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	memcpy(stop_table, table, sizeof(table));
	stop_table[sizeof(table) / sizeof(table[0]) - 1].flags = LC_OPT_STOP;
	n = lc_opt_parse(argc, argv, stop ? stop_table : table, usage, &rest);
	ops[0] = 0;
	for (int i = 0; i < n; i++)
		snprintf(ops + strlen(ops), len - strlen(ops), "%s%s", i ? " " : "", rest[i]);
	return n;
}

static void test_kinds(void **state)
{
	char ops[256];

	(void)state;
	assert_int_equal(parse("-f --fast -o x -n 3 --big=123456789012 -i 2ms --ratio 0.5 "
			       "--format csv --at n=4,p=2", 0, ops, sizeof(ops)), -2);
	assert_int_equal(parse("-f --fast -o x -n 3 --big=123456789012 -i 2ms --ratio 0.5 "
			       "--format csv --at n=4", 0, ops, sizeof(ops)), 0);
	assert_int_equal(v.flag, 1);
	assert_int_equal(v.mode, 2);
	assert_string_equal(v.out, "x");
	assert_int_equal(v.count, 3);
	assert_true(v.big == 123456789012ull);
	assert_true(v.ns == 2000000);
	assert_true(v.real == 0.5);
	assert_int_equal(v.fmt, 1);
	assert_int_equal(v.at.n, 1);
	assert_string_equal(v.at.names[0], "n");
	assert_true(v.at.vals[0] == 4);
	assert_true(lc_opt_given("count", 0));
	assert_true(lc_opt_given(NULL, 'o'));
	assert_false(lc_opt_given("secret", 0));
}

static void test_operands(void **state)
{
	char ops[256];

	(void)state;
	assert_int_equal(parse("a -f b -o x c", 0, ops, sizeof(ops)), 3);
	assert_string_equal(ops, "a b c");
	assert_int_equal(v.flag, 1);
	assert_int_equal(parse("a -- -f b", 0, ops, sizeof(ops)), 3);
	assert_string_equal(ops, "a -f b");
	assert_int_equal(v.flag, 0);
	/* at the first operand the options end: the command's own -f */
	assert_int_equal(parse("-o x cmd -f y", 1, ops, sizeof(ops)), 3);
	assert_string_equal(ops, "cmd -f y");
	assert_int_equal(v.flag, 0);
	assert_int_equal(parse("-l k=v file", 0, ops, sizeof(ops)), 1);
	assert_string_equal(v.peeked, "k=v");
	assert_string_equal(ops, "file");
	assert_int_equal(parse("-l file", 0, ops, sizeof(ops)), 1);
	assert_null(v.peeked);
}

static void test_refusals(void **state)
{
	static const char *const bad[] = {
		"-n 0", "-n 10", "-n x", "-n", "--ratio 2", "--ratio nan", "-i 20s", "-i 5ns",
		"-i soon", "--format xml", "--bogus", "--flag=1", "-z", "--at n",
	};
	char ops[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (parse(bad[i], 0, ops, sizeof(ops)) != LC_OPT_USAGE)
			fail_msg("'%s' was not refused", bad[i]);
}

/* What f wrote, in a static buffer. */
static const char *written(FILE *f)
{
	static char buf[4096];
	size_t n;

	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static void test_help(void **state)
{
	FILE *f = tmpfile();
	const char *h, *c;
	size_t col;

	(void)state;
	assert_non_null(f);
	lc_opt_help(f, table, usage);
	h = written(f);
	assert_non_null(strstr(h, "usage: lostcycles t [-f] [FILE...]\n\nA test.\n"));
	assert_non_null(strstr(h, "  -f, --flag  "));
	assert_non_null(strstr(h, "  -n, --count=N"));
	/* a second help line starts in the column of the first */
	c = strstr(h, "a count\n");
	assert_non_null(c);
	for (col = 0; c - (ptrdiff_t)col > h && c[-(ptrdiff_t)col - 1] != '\n'; col++)
		;
	assert_int_equal(strspn(c + 8, " "), col);
	assert_int_equal(strncmp(c + 8 + col, "of things\n", 10), 0);
	assert_non_null(strstr(h, "  -l [NOTE]"));
	assert_null(strstr(h, "secret"));
	assert_non_null(strstr(h, "  -h, --help"));
	f = tmpfile();
	assert_non_null(f);
	lc_opt_dump(f, table);
	h = written(f);
	assert_non_null(strstr(h, "--output\t-o\tFILE\tfile\t-\n"));
	assert_non_null(strstr(h, "--format\t-\tFMT\tenum:text|csv\t-\n"));
	assert_non_null(strstr(h, "-\t-l\t[NOTE]\tcallback\t-\n"));
	assert_non_null(strstr(h, "--secret\t-\t-\tflag\thidden\n"));
	assert_non_null(strstr(h, "--help\t-h\t-\tflag\t-\n"));
}

LC_TEST_MAIN(NULL, NULL,
	     LC_T(test_kinds), LC_T(test_operands), LC_T(test_refusals), LC_T(test_help))
