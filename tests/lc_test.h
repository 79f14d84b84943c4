/*
 * lc_test.h — what the cmocka test files share; include it after
 * <cmocka.h>.
 *
 *   LC_TEST_MAIN(SETUP, TEARDOWN, TEST...)  main(): run the TESTs
 *       (cmocka_unit_test(...) entries) as one group with the group's
 *       SETUP and TEARDOWN (NULL for none); its status is cmocka's.
 *   LC_T(TEST)  the entry of the test function TEST (cmocka_unit_test).
 *   lc_test_popen(CMD, OUT, SIZE)  run the shell command CMD, its standard
 *       output in OUT; its exit status.
 *   lc_test_shell(OUT, SIZE, FMT, ...)  the same for the command printf
 *       makes of FMT and what follows.
 *   lc_test_slurp(PATH, BUF, SIZE)  the start of the file PATH in BUF.
 *   lc_test_write(PATH, LEN, DIR, NAME, TEXT)  a new file DIR/NAME holding
 *       TEXT; its path in PATH (LEN bytes).
 *   lc_test_has(TEXT, WANT), lc_test_lacks(TEXT, LACKS)  TEXT holds every
 *       string of WANT, none of LACKS (arrays ending in NULL; LC_STRS(...)
 *       makes one): else the test fails naming the string.
 * Each fails the test when it cannot do its job (no shell, no file, a
 * command killed by a signal); OUT and BUF hold at most SIZE - 1 bytes,
 * terminated.
 */
#ifndef LC_TEST_H
#define LC_TEST_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#define LC_T(test) cmocka_unit_test(test)
#define LC_STRS(...) ((const char *const[]){ __VA_ARGS__, NULL })

#define LC_TEST_MAIN(setup, teardown, ...)                                  \
	int main(void)                                                      \
	{                                                                   \
		const struct CMUnitTest tests[] = { __VA_ARGS__ };          \
		return cmocka_run_group_tests(tests, setup, teardown);      \
	}

static inline int lc_test_popen(const char *cmd, char *out, size_t size)
{
	FILE *p = popen(cmd, "r");
	int st;

	assert_non_null(p);
	out[fread(out, 1, size - 1, p)] = 0;
	st = pclose(p);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

__attribute__((format(printf, 3, 4)))
static inline int lc_test_shell(char *out, size_t size, const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return lc_test_popen(cmd, out, size);
}

static inline void lc_test_slurp(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	buf[fread(buf, 1, size - 1, f)] = 0;
	fclose(f);
}

static inline void lc_test_write(char *path, size_t len, const char *dir, const char *name,
				 const char *text)
{
	FILE *f;

	snprintf(path, len, "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static inline void lc_test_has(const char *text, const char *const *want)
{
	for (; *want; want++)
		if (!strstr(text, *want))
			fail_msg("no '%s' in:\n%s", *want, text);
}

static inline void lc_test_lacks(const char *text, const char *const *lacks)
{
	for (; *lacks; lacks++)
		if (strstr(text, *lacks))
			fail_msg("'%s' in:\n%s", *lacks, text);
}

#endif
