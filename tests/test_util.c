/*
 * test_util.c — the helpers every tool layer shares (util/lc_util.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_test.h"
#include "lc_util.h"

/* Durations with units (none: microseconds), refusals. */
static void test_durations(void **state)
{
	static const struct { const char *text; int rc; uint64_t ns; } cases[] = {
		{ "100us", 0, 100000 }, { "2ms", 0, 2000000 }, { "1.5s", 0, 1500000000 },
		{ "250ns", 0, 250 }, { "7", 0, 7000 }, { "0", -EINVAL, 0 },
		{ "-1ms", -EINVAL, 0 }, { "1 ms", -EINVAL, 0 }, { "1h", -EINVAL, 0 },
		{ "", -EINVAL, 0 }, { "1e30s", -ERANGE, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t ns = 0;

		assert_int_equal(lc_parse_duration(cases[i].text, &ns), cases[i].rc);
		assert_int_equal(ns, cases[i].ns);	/* untouched on a refusal */
	}
}

/* Whole numbers within [min, max]. */
static void test_numbers(void **state)
{
	static const struct { const char *text; uint64_t min, max; int rc; } cases[] = {
		{ "42", 1, 100, 0 }, { "0", 1, 100, -ERANGE }, { "101", 1, 100, -ERANGE },
		{ "-3", 0, 100, -EINVAL }, { "4x", 0, 100, -EINVAL },
		{ "99999999999999999999999", 0, UINT64_MAX, -ERANGE },
	};
	uint64_t v = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(lc_parse_u64(cases[i].text, cases[i].min, cases[i].max, &v),
				 cases[i].rc);
	assert_int_equal(lc_parse_u64("42", 1, 100, &v), 0);
	assert_int_equal(v, 42);
}

static void test_grow(void **state)
{
	int *a = NULL;
	size_t cap = 0;

	(void)state;
	assert_int_equal(lc_grow((void **)&a, &cap, 3, sizeof(*a)), 0);
	assert_true(cap >= 3);
	for (size_t i = 0; i < cap; i++)
		assert_int_equal(a[i], 0);	/* new elements are zeroed */
	a[0] = 7;
	assert_int_equal(lc_grow((void **)&a, &cap, 1000, sizeof(*a)), 0);
	assert_true(cap >= 1000);
	assert_int_equal(a[0], 7);
	assert_int_equal(a[999], 0);
	/* a count whose bytes overflow size_t is refused, the array kept */
	assert_int_equal(lc_grow((void **)&a, &cap, SIZE_MAX / 2, 64), -ENOMEM);
	assert_int_equal(a[0], 7);
	free(a);
}

static void test_words(void **state)
{
	const char *s = "  n, p;;  dd ", *w, *text = "a b c";
	const char *end = text + 3;	/* "a b" */
	size_t len = 0;

	(void)state;
	w = lc_next_word(&s, NULL, ",;", &len);
	assert_non_null(w);
	assert_int_equal(len, 1);
	assert_memory_equal(w, "n", 1);
	w = lc_next_word(&s, NULL, ",;", &len);
	assert_memory_equal(w, "p", 1);
	w = lc_next_word(&s, NULL, ",;", &len);
	assert_int_equal(len, 2);
	assert_memory_equal(w, "dd", 2);
	assert_null(lc_next_word(&s, NULL, ",;", &len));
	s = text;
	assert_non_null(lc_next_word(&s, end, NULL, &len));
	w = lc_next_word(&s, end, NULL, &len);
	assert_memory_equal(w, "b", 1);
	assert_null(lc_next_word(&s, end, NULL, &len));	/* "c" is past end */
}

static void test_strv(void **state)
{
	char **v = NULL;
	int n = 0;
	char word[] = "abc";

	(void)state;
	assert_int_equal(lc_strv_push(&v, &n, word), 0);
	assert_int_equal(lc_strv_push(&v, &n, "de"), 0);
	word[0] = 'X';	/* the vector holds copies */
	assert_int_equal(n, 2);
	assert_string_equal(v[0], "abc");
	assert_string_equal(v[1], "de");
	lc_strv_free(v, n);
	lc_strv_free(NULL, 0);
}

static void test_reasons(void **state)
{
	char msg[16] = "", notes[12] = "";

	(void)state;
	assert_int_equal(lc_fail(msg, sizeof(msg), -EINVAL, "bad %d", 42), -EINVAL);
	assert_string_equal(msg, "bad 42");
	assert_int_equal(lc_fail(NULL, 0, -ENOENT, "nobody reads %s", "this"), -ENOENT);
	lc_fail(msg, sizeof(msg), -1, "%s", "a reason much longer than the room");
	assert_int_equal(strlen(msg), sizeof(msg) - 1);	/* cut, terminated */
	lc_append_line(notes, sizeof(notes), "one");
	lc_append_line(notes, sizeof(notes), "two");
	assert_string_equal(notes, "one\ntwo\n");
	lc_append_line(notes, sizeof(notes), "three");	/* only what fits */
	assert_true(strlen(notes) < sizeof(notes));
	assert_int_equal(strncmp(notes, "one\ntwo\n", 8), 0);
}

/* lc_read_num: the number a file begins with; -errno or -EINVAL else. */
static void test_read_num(void **state)
{
	char path[] = "/tmp/lc-test-num.XXXXXX";
	long long v = 7;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "-950000\n", 8), 8);
	assert_int_equal(lc_read_num(path, &v), 0);
	assert_true(v == -950000);
	assert_int_equal(ftruncate(fd, 0), 0);
	assert_int_equal(pwrite(fd, "max\n", 4, 0), 4);
	assert_int_equal(lc_read_num(path, &v), -EINVAL);
	close(fd);
	unlink(path);
	assert_int_equal(lc_read_num(path, &v), -ENOENT);
}

/* lc_read_text: the start of a file, cut to the buffer and terminated;
 * -ENODATA when empty, -errno when missing. */
static void test_read_text(void **state)
{
	char path[] = "/tmp/lc-test-text.XXXXXX", buf[5];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(lc_read_text(path, buf, sizeof(buf)), -ENODATA);
	assert_int_equal(write(fd, "123456789", 9), 9);
	assert_int_equal(lc_read_text(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1234");
	close(fd);
	unlink(path);
	assert_int_equal(lc_read_text(path, buf, sizeof(buf)), -ENOENT);
}

static void test_write_all(void **state)
{
	int fd[2];
	char buf[8] = "";

	(void)state;
	assert_int_equal(pipe(fd), 0);
	assert_int_equal(lc_write_all(fd[1], "hello", 5), 0);
	assert_int_equal(read(fd[0], buf, sizeof(buf)), 5);
	assert_memory_equal(buf, "hello", 5);
	close(fd[0]);
	assert_int_equal(lc_write_all(-1, "x", 1), -EBADF);
	close(fd[1]);
}

LC_TEST_MAIN(NULL, NULL,
	     LC_T(test_durations), LC_T(test_numbers), LC_T(test_grow), LC_T(test_words),
	     LC_T(test_strv), LC_T(test_reasons), LC_T(test_write_all), LC_T(test_read_num),
	     LC_T(test_read_text))
