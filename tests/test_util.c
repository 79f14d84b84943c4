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

/* A new temporary file from the template path holding text. */
static void scratch(char *path, const char *text)
{
	int fd = mkstemp(path);
	ssize_t n = (ssize_t)strlen(text);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, n), n);
	close(fd);
}

/* Durations with units (none: microseconds), refusals. */
static const struct { const char *text; int rc; uint64_t ns; } durations[] = {
	{ "100us", 0, 100000 }, { "2ms", 0, 2000000 }, { "1.5s", 0, 1500000000 },
	{ "250ns", 0, 250 }, { "7", 0, 7000 }, { "0", -EINVAL, 0 },
	{ "-1ms", -EINVAL, 0 }, { "1 ms", -EINVAL, 0 }, { "1h", -EINVAL, 0 },
	{ "", -EINVAL, 0 }, { "1e30s", -ERANGE, 0 },
};

static void test_durations(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(durations) / sizeof(durations[0]); i++) {
		uint64_t ns = 0;

		assert_int_equal(lc_parse_duration(durations[i].text, &ns), durations[i].rc);
		assert_int_equal(ns, durations[i].ns);	/* untouched on a refusal */
	}
}

/* Whole numbers within [min, max]. */
static const struct { const char *text; uint64_t min, max; int rc; } numbers[] = {
	{ "42", 1, 100, 0 }, { "0", 1, 100, -ERANGE }, { "101", 1, 100, -ERANGE },
	{ "-3", 0, 100, -EINVAL }, { "4x", 0, 100, -EINVAL },
	{ "99999999999999999999999", 0, UINT64_MAX, -ERANGE },
};

static void test_numbers(void **state)
{
	uint64_t v = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++)
		assert_int_equal(lc_parse_u64(numbers[i].text, numbers[i].min, numbers[i].max, &v),
				 numbers[i].rc);
	assert_int_equal(lc_parse_u64("42", 1, 100, &v), 0);
	assert_int_equal(v, 42);
}

/* Grow the array *a of *cap ints to hold n: every new element is zeroed. */
static void grow_to(int **a, size_t *cap, size_t n)
{
	size_t old = *cap;

	assert_int_equal(lc_grow((void **)a, cap, n, sizeof(**a)), 0);
	assert_true(*cap >= n);
	for (size_t i = old; i < *cap; i++)
		assert_int_equal((*a)[i], 0);
}

/* An array grows zeroed and keeps what it held; a count whose bytes
 * overflow size_t is refused, the array kept. */
static void test_grow(void **state)
{
	int *a = NULL;
	size_t cap = 0;

	(void)state;
	grow_to(&a, &cap, 3);
	a[0] = 7;
	grow_to(&a, &cap, 1000);
	assert_int_equal(lc_grow((void **)&a, &cap, SIZE_MAX / 2, 64), -ENOMEM);
	assert_int_equal(a[0], 7);
	free(a);
}

/* The next word of *s is want (of its length): the word, its length. */
static void next_word_is(const char **s, const char *end, const char *seps, const char *want)
{
	size_t len = 0;
	const char *w = lc_next_word(s, end, seps, &len);

	assert_non_null(w);
	assert_int_equal(len, strlen(want));
	assert_memory_equal(w, want, len);
}

/* Words between separators and blanks, then none. */
static void test_words(void **state)
{
	const char *s = "  n, p;;  dd ";
	size_t len = 0;

	(void)state;
	next_word_is(&s, NULL, ",;", "n");
	next_word_is(&s, NULL, ",;", "p");
	next_word_is(&s, NULL, ",;", "dd");
	assert_null(lc_next_word(&s, NULL, ",;", &len));
}

/* A word past the end pointer is not read. */
static void test_words_end(void **state)
{
	const char *text = "a b c", *s = text;
	const char *end = text + 3;	/* "a b" */
	size_t len = 0;

	(void)state;
	next_word_is(&s, end, NULL, "a");
	next_word_is(&s, end, NULL, "b");
	assert_null(lc_next_word(&s, end, NULL, &len));	/* "c" is past end */
}

/* A string vector holds copies; freeing NULL is nothing. */
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

/* A reason goes to msg, cut to its room and terminated, and is returned. */
static void test_reasons(void **state)
{
	char msg[16] = "";

	(void)state;
	assert_int_equal(lc_fail(msg, sizeof(msg), -EINVAL, "bad %d", 42), -EINVAL);
	assert_string_equal(msg, "bad 42");
	assert_int_equal(lc_fail(NULL, 0, -ENOENT, "nobody reads %s", "this"), -ENOENT);
	lc_fail(msg, sizeof(msg), -1, "%s", "a reason much longer than the room");
	assert_int_equal(strlen(msg), sizeof(msg) - 1);	/* cut, terminated */
}

/* Lines appended to notes, as far as they fit. */
static void test_append_line(void **state)
{
	char notes[12] = "";

	(void)state;
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

	(void)state;
	scratch(path, "-950000\n");
	assert_int_equal(lc_read_num(path, &v), 0);
	assert_true(v == -950000);
	unlink(path);
	assert_int_equal(lc_read_num(path, &v), -ENOENT);
}

/* ... -EINVAL for a file that holds no number. */
static void test_read_num_bad(void **state)
{
	char path[] = "/tmp/lc-test-num.XXXXXX";
	long long v = 7;

	(void)state;
	scratch(path, "max\n");
	assert_int_equal(lc_read_num(path, &v), -EINVAL);
	unlink(path);
}

/* lc_read_text: the start of a file, cut to the buffer and terminated;
 * -errno when missing ... */
static void test_read_text(void **state)
{
	char path[] = "/tmp/lc-test-text.XXXXXX", buf[5];

	(void)state;
	scratch(path, "123456789");
	assert_int_equal(lc_read_text(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1234");
	unlink(path);
	assert_int_equal(lc_read_text(path, buf, sizeof(buf)), -ENOENT);
}

/* ... and -ENODATA when empty. */
static void test_read_text_empty(void **state)
{
	char path[] = "/tmp/lc-test-text.XXXXXX", buf[5];

	(void)state;
	scratch(path, "");
	assert_int_equal(lc_read_text(path, buf, sizeof(buf)), -ENODATA);
	unlink(path);
}

/* All bytes written to a descriptor. */
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
	close(fd[1]);
}

/* A bad descriptor refused. */
static void test_write_all_bad(void **state)
{
	(void)state;
	assert_int_equal(lc_write_all(-1, "x", 1), -EBADF);
}

LC_TEST_MAIN(NULL, NULL,
	     LC_T(test_durations), LC_T(test_numbers), LC_T(test_grow),
	     LC_T(test_words), LC_T(test_words_end), LC_T(test_strv), LC_T(test_reasons),
	     LC_T(test_append_line), LC_T(test_write_all), LC_T(test_write_all_bad), LC_T(test_read_num),
	     LC_T(test_read_num_bad), LC_T(test_read_text), LC_T(test_read_text_empty))
