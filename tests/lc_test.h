/*
 * lc_test.h — what the cmocka test files share: a main() from the list of
 * their tests, commands run through the shell, files read and written,
 * and checks of a text against lists of strings.  Include it after
 * <cmocka.h>; each helper fails the test when it cannot do its job.
 */
#ifndef LC_TEST_H
#define LC_TEST_H

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Run the shell command cmd, its standard output (at most size - 1 bytes,
 * terminated) in out; its exit status.  A command killed by a signal
 * fails the test. */
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

/* lc_test_popen of the command printf makes of fmt and what follows. */
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

/* The start of the file path (at most size - 1 bytes, terminated) in buf. */
static inline void lc_test_slurp(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	buf[fread(buf, 1, size - 1, f)] = 0;
	fclose(f);
}

/* A new file dir/name holding text; its path in path (len bytes). */
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

/* text holds every string of want, an array ending in NULL (LC_STRS makes
 * one; NULL: none); else the test fails naming the string. */
static inline void lc_test_has(const char *text, const char *const *want)
{
	for (; want && *want; want++)
		if (!strstr(text, *want))
			fail_msg("no '%s' in:\n%s", *want, text);
}

/* text holds no string of lacks (as want above). */
static inline void lc_test_lacks(const char *text, const char *const *lacks)
{
	for (; lacks && *lacks; lacks++)
		if (strstr(text, *lacks))
			fail_msg("'%s' in:\n%s", *lacks, text);
}

/* The array of the strings given, ending in NULL. */
#define LC_STRS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* The entry of the test function test. */
#define LC_T(test) cmocka_unit_test(test)

/* main(): run the tests (LC_T or cmocka_unit_test entries) as one group
 * with the group's setup and teardown (NULL for none); its status is
 * cmocka's. */
#define LC_TEST_MAIN(setup, teardown, ...)                                  \
	int main(void)                                                      \
	{                                                                   \
		const struct CMUnitTest tests[] = { __VA_ARGS__ };          \
		return cmocka_run_group_tests(tests, setup, teardown);      \
	}

/* Remove the files in the folder dir, then dir. */
static inline void lc_test_rmdir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[4200];

	while (d && (e = readdir(d)))
		if (snprintf(p, sizeof(p), "%s/%s", dir, e->d_name) < (int)sizeof(p))
			unlink(p);	/* "." and "..": EISDIR */
	if (d)
		closedir(d);
	rmdir(dir);
}

/* main() as LC_TEST_MAIN, the group run with the folder dir (a mkdtemp
 * template, e.g. static char dir[] = "/tmp/lc_test_XXXXXX") made before
 * and removed with its files after. */
#define LC_TEST_MAIN_IN_DIR(dir, ...)                                       \
	static int lc_test_dir_up_(void **state)                            \
	{                                                                   \
		(void)state;                                                \
		return mkdtemp(dir) ? 0 : -1;                               \
	}                                                                   \
	static int lc_test_dir_down_(void **state)                          \
	{                                                                   \
		(void)state;                                                \
		lc_test_rmdir(dir);                                         \
		return 0;                                                   \
	}                                                                   \
	LC_TEST_MAIN(lc_test_dir_up_, lc_test_dir_down_, __VA_ARGS__)

#endif
