/*
 * test_sys.c — the file and process helpers of util/ (lc_util.h, lc_sys.c):
 * configuration paths, mkdir -p, atomic replacement, append-opens,
 * lc_spawn and lc_wait_status, and the seconds and duration helpers.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lc_test.h"
#include "lc_util.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/lc-test_sys.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* The text of file path (at most 255 bytes) into buf. */
static const char *slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;

	buf[n] = 0;
	if (f)
		fclose(f);
	return buf;
}

static void test_config_path(void **state)
{
	char buf[PATH_MAX];

	(void)state;
	setenv("LC_TEST_FILE", "/x/y", 1);
	setenv("XDG_CONFIG_HOME", "/cfg", 1);
	setenv("HOME", "/home/u", 1);
	assert_int_equal(lc_config_path("loggp", "LC_TEST_FILE", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/x/y");
	assert_int_equal(lc_config_path("loggp", NULL, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/cfg/lostcycles/loggp");
	unsetenv("XDG_CONFIG_HOME");
	assert_int_equal(lc_config_path("memory", "LC_TEST_UNSET", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/home/u/.config/lostcycles/memory");
	unsetenv("HOME");
	assert_int_equal(lc_config_path("memory", NULL, buf, sizeof(buf)), -ENOENT);
	assert_string_equal(buf, "./.config/lostcycles/memory");
	assert_int_equal(lc_config_path("memory", NULL, buf, 8), -ENAMETOOLONG);
}

/* What lc_replace_file's writer writes, or the error it returns. */
static int writer(FILE *f, void *arg)
{
	if (!arg)
		return -EPERM;
	fputs(arg, f);
	return 0;
}

/* Folders made with their parents; one that exists is fine. */
static void test_mkdir_p(void **state)
{
	char path[256];
	struct stat st;

	(void)state;
	snprintf(path, sizeof(path), "%s/a/b/c", dir);
	assert_int_equal(lc_mkdir_p(path, 0755), 0);
	assert_int_equal(lc_mkdir_p(path, 0755), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
}

/* Atomic replacement: folders made, the old text kept on failure. */
static void test_replace_file(void **state)
{
	char path[256], buf[256];

	(void)state;
	snprintf(path, sizeof(path), "%s/new/dir/file", dir);
	assert_int_equal(lc_replace_file(path, writer, "one\n"), 0);
	assert_string_equal(slurp(path, buf, sizeof(buf)), "one\n");
	assert_int_equal(lc_replace_file(path, writer, NULL), -EPERM);
	assert_string_equal(slurp(path, buf, sizeof(buf)), "one\n");
	assert_int_equal(lc_replace_file(path, writer, "two\n"), 0);
	assert_string_equal(slurp(path, buf, sizeof(buf)), "two\n");
}

/* Appending: created, appended to, a link refused. */
static void test_append(void **state)
{
	char path[256], buf[256];
	FILE *f;
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "%s/log", dir);
	fd = lc_append_open(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "a\n", 2), 2);
	close(fd);
	f = lc_append_fopen(path);
	assert_non_null(f);
	fputs("b\n", f);
	fclose(f);
	assert_string_equal(slurp(path, buf, sizeof(buf)), "a\nb\n");
	snprintf(buf, sizeof(buf), "%s/link", dir);
	assert_int_equal(symlink(path, buf), 0);
	assert_int_equal(lc_append_open(buf), -ELOOP);
	assert_null(lc_append_fopen(buf));
	assert_int_equal(errno, ELOOP);
}

/* lc_spawn's hooks: a refusal, a change of folder. */
static int refuse(void *arg)
{
	(void)arg;
	return -EACCES;
}

static int go_to(void *arg)
{
	return chdir(arg) ? -errno : 0;
}

static void test_spawn_hooks(void **state)
{
	char out[128], buf[256], want[128];
	char *pwd[] = { "sh", "-c", "pwd; kill -USR1 $$; echo survived", NULL };
	sigset_t mask, old;
	struct lc_spawn_io io = { .out = out, .prepare = go_to, .arg = dir, .sigmask = &mask };
	pid_t pid;

	(void)state;
	snprintf(out, sizeof(out), "%s/pwd", dir);
	snprintf(want, sizeof(want), "%s\nsurvived\n", dir);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);	/* blocked in the child only */
	sigprocmask(SIG_SETMASK, NULL, &old);
	pid = lc_spawn(pwd, &io);
	assert_true(pid > 0);
	assert_int_equal(lc_wait_status(pid, 0, NULL), 0);
	assert_string_equal(slurp(out, buf, sizeof(buf)), want);
	assert_false(sigismember(&old, SIGUSR1));
	io.prepare = refuse;
	assert_int_equal(lc_spawn(pwd, &io), -EACCES);
}

/* A command's output, exit status and environment of its own; a missing
 * program. */
static void test_spawn(void **state)
{
	char out[128], buf[256];
	char *echo[] = { "sh", "-c", "echo $LC_TEST_VAR; echo oops >&2; exit 3", NULL };
	char *env[] = { "LC_TEST_VAR=hello", NULL };
	char *none[] = { "lostcycles-no-such-program", NULL };
	struct lc_spawn_io io = { .out = out, .err = "/dev/null", .env = env };
	pid_t pid;

	(void)state;
	snprintf(out, sizeof(out), "%s/out", dir);
	pid = lc_spawn(echo, &io);
	assert_true(pid > 0);
	assert_int_equal(lc_wait_status(pid, 0, NULL), 3);
	assert_string_equal(slurp(out, buf, sizeof(buf)), "hello\n");
	assert_null(getenv("LC_TEST_VAR"));	/* only the child's */
	assert_int_equal(lc_spawn(none, NULL), -ENOENT);
}

/* Waiting without blocking, a signal's status, lc_spawn_end. */
static void test_spawn_waits(void **state)
{
	char *sleeper[] = { "sleep", "10", NULL };
	pid_t pid;

	(void)state;
	pid = lc_spawn(sleeper, NULL);
	assert_true(pid > 0);
	assert_int_equal(lc_wait_status(pid, WNOHANG, NULL), -EAGAIN);
	kill(pid, SIGTERM);
	assert_int_equal(lc_wait_status(pid, 0, NULL), 128 + SIGTERM);
	pid = lc_spawn(NULL, NULL);	/* waits to be killed */
	assert_true(pid > 0);
	assert_int_equal(lc_wait_status(pid, WNOHANG, NULL), -EAGAIN);
	lc_spawn_end(pid);
	assert_int_equal(kill(pid, 0), -1);
	lc_spawn_end(0);
	assert_int_equal(lc_wait_status(pid, 0, NULL), -ECHILD);
}

static void test_durations(void **state)
{
	char b[32];

	(void)state;
	assert_true(lc_sec(1500000000u) == 1.5);
	assert_string_equal(lc_fmt_duration(29600000000u, 0, b, sizeof(b)), "29.6 s");
	assert_string_equal(lc_fmt_duration(1250000u, 0, b, sizeof(b)), "1.25 ms");
	assert_string_equal(lc_fmt_duration(350000u, 0, b, sizeof(b)), "350 us");
	assert_string_equal(lc_fmt_duration(2000000u, 1, b, sizeof(b)), "2ms");
	assert_string_equal(lc_fmt_duration(250000u, 1, b, sizeof(b)), "250us");
	assert_string_equal(lc_fmt_duration(3000000000u, 1, b, sizeof(b)), "3s");
	assert_string_equal(lc_fmt_duration(1500u, 1, b, sizeof(b)), "1500ns");
	for (uint64_t ns = 1; ns < 20000000000u; ns = ns * 7 + 3) {	/* exact reads back */
		uint64_t back = 0;

		assert_int_equal(lc_parse_duration(lc_fmt_duration(ns, 1, b, sizeof(b)), &back), 0);
		assert_int_equal(back, ns);
	}
}

LC_TEST_MAIN(setup, teardown,
	     LC_T(test_config_path), LC_T(test_mkdir_p), LC_T(test_replace_file), LC_T(test_append),
	     LC_T(test_spawn), LC_T(test_spawn_waits), LC_T(test_spawn_hooks), LC_T(test_durations))
