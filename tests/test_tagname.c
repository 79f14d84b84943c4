/*
 * test_tagname.c — a program's facts and the names of fragment tags
 * (postproc/common/program.c, postproc/report/tagname.c): the tag layout constants of
 * tagname.h against lc_abi.h, raw names, names read from this test's own
 * debug information through libdw (a function's file, line and name, the
 * program found through "env VAR=..."), lookup by name, DT_NEEDED entries
 * (this test needs libcmocka), and refusals (not ELF, no such program).
 */
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "lc_test.h"
#include "lc_abi.h"
#include "lc_program.h"
#include "tagname.h"

/* The lines of probe, from its opening to its end: the debug information
 * gives its first instruction one of them (which one, the compiler
 * chooses: the opening without optimization, the body with). */
static const int probe_line = __LINE__ + 3, probe_end = __LINE__ + 6;

/* A function whose own address is named from the debug information. */
__attribute__((noinline)) static int probe(int x)
{
	return x * 3 + 1;
}

/* The load bias of the main program (its first dl_iterate_phdr entry). */
static int first_bias(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	*(uintptr_t *)arg = (uintptr_t)info->dlpi_addr;
	return 1;
}

/* This test's file. */
static void self_path(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);

	assert_true(n > 0);
	buf[n] = '\0';
}

/* The OpenMP tag of the main program for probe (the tool stores the
 * return address, the construct's line is that of the address - 1). */
static int64_t probe_tag(void)
{
	uintptr_t bias = 0;

	dl_iterate_phdr(first_bias, &bias);
	return LC_TAG_OMP | (int64_t)((uintptr_t)probe - bias + 1);
}

/* Skip when this test was built without debug information. */
static void need_debug_info(const char *self)
{
	struct lc_program_dbg *d = lc_program_dbg_open(self);

	lc_program_dbg_close(d);
	if (!d)
		skip();
}

static void test_layout_matches_abi(void **state)
{
	int64_t t = LC_TAG_OMP | ((int64_t)0x1234 << 40) | 0xabcdef;

	(void)state;
	assert_int_equal(LC_TAGN_KIND(t), LC_TAG_KIND(LC_TAG_OMP));
	assert_int_equal(LC_TAGN_KIND_OMP, LC_TAG_KIND(LC_TAG_OMP));
	assert_int_equal(LC_TAGN_MODULE(t), LC_TAG_MODULE(t));
	assert_int_equal(LC_TAGN_VADDR(t), LC_TAG_VADDR(t));
	assert_int_equal(LC_TAGN_MODULE_MAIN, LC_TAG_MODULE_MAIN);
}

/* A lookup is not a scan: 100,000 tags (the report of a run that tagged
 * every request), each looked up once as report --tags does, in well under
 * a second of CPU (a linear lookup took about 5 s here), every name right. */
static void test_many_tags(void **state)
{
	enum { N = 100000 };
	int64_t *tags = malloc(N * sizeof(*tags));
	struct lc_tagnames *tn;
	struct timespec a, b;
	uint32_t named = 0;

	(void)state;
	assert_non_null(tags);
	for (int i = 0; i < N; i++)	/* program tags, in no order, and OpenMP ones */
		tags[i] = i % 10 ? (int64_t)((uint64_t)i * 2654435761u % 1000003u) :
				   (int64_t)(LC_TAG_OMP | ((int64_t)0x1234 << 40) | i);
	tn = lc_tagnames_new(NULL, tags, N);
	assert_non_null(tn);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	for (int i = 0; i < N; i++)
		named += lc_tagnames_get(tn, tags[i]) != NULL;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	assert_int_equal(named, N / 10);
	assert_string_equal(lc_tagnames_get(tn, tags[10]), "omp:1234+0xa");
	assert_null(lc_tagnames_get(tn, -5));
	assert_true((double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9 < 1.0);
	lc_tagnames_free(tn);
	free(tags);
}

static void test_raw_names(void **state)
{
	int64_t tags[] = { LC_TAG_OMP | ((int64_t)0x1234 << 40) | 0x40, LC_TAG_OMP | 0x10, 7 };
	struct lc_tagnames *tn = lc_tagnames_new(NULL, tags, 3);

	(void)state;
	assert_non_null(tn);
	assert_string_equal(lc_tagnames_get(tn, tags[0]), "omp:1234+0x40");
	assert_string_equal(lc_tagnames_get(tn, tags[1]), "omp:main+0x10");
	assert_null(lc_tagnames_get(tn, 7));	/* a program's own tag */
	assert_null(lc_tagnames_get(tn, 8));	/* not a tag of the profile */
	lc_tagnames_free(tn);
	lc_tagnames_free(NULL);
}

/* Check the name of probe's tag, "test_tagname.c:LINE (probe)"; its
 * line. */
static int check_probe_name(const char *name)
{
	int line = 0, end = 0;

	assert_non_null(name);
	if (sscanf(name, "test_tagname.c:%d (probe)%n", &line, &end) != 1 ||
	    end != (int)strlen(name) || line < probe_line || line > probe_end)
		fail_msg("name '%s', want 'test_tagname.c:%d..%d (probe)'", name, probe_line,
			 probe_end);
	return line;
}

static void test_names_from_debug_info(void **state)
{
	char self[PATH_MAX], cmd[PATH_MAX + 64];
	int64_t tag = probe_tag(), found = 0;
	struct lc_tagnames *tn;
	int line;

	(void)state;
	self_path(self, sizeof(self));
	need_debug_info(self);
	assert_int_equal(probe(1), 4);
	snprintf(cmd, sizeof(cmd), "env -u HOME LC_X=1 %s --flag", self);
	tn = lc_tagnames_new(cmd, &tag, 1);
	line = check_probe_name(lc_tagnames_get(tn, tag));
	snprintf(cmd, sizeof(cmd), "test_tagname.c:%d", line);
	assert_int_equal(lc_tagnames_find(tn, cmd, &found), 0);	/* file:line */
	assert_int_equal(found, tag);
	found = 0;
	snprintf(cmd, sizeof(cmd), "src/tests/test_tagname.c:%d (probe)", line);
	assert_int_equal(lc_tagnames_find(tn, cmd, &found), 0);	/* a path: its base */
	assert_int_equal(found, tag);
	assert_int_equal(lc_tagnames_find(tn, "test_tagname.c:1", &found), -1);
	lc_tagnames_free(tn);
}

static void test_srcline(void **state)
{
	char self[PATH_MAX], file[PATH_MAX], func[64];
	struct lc_program_dbg *d;
	int line = 0;

	(void)state;
	self_path(self, sizeof(self));
	need_debug_info(self);
	d = lc_program_dbg_open(self);
	assert_int_equal(lc_program_srcline(d, (uint64_t)LC_TAG_VADDR(probe_tag()) - 1, file,
					    sizeof(file), &line, func, sizeof(func)), 0);
	assert_non_null(strstr(file, "test_tagname.c"));
	assert_in_range(line, probe_line, probe_end);
	assert_string_equal(func, "probe");
	assert_int_equal(lc_program_srcline(d, 0x10, file, sizeof(file), &line, func,
					    sizeof(func)), -ENOENT);
	lc_program_dbg_close(d);
}

static void test_needs(void **state)
{
	char self[PATH_MAX];

	(void)state;
	self_path(self, sizeof(self));
	assert_int_equal(lc_program_needs(self, "libcmocka.so"), 1);
	assert_int_equal(lc_program_needs(self, "libnothing-such.so"), 0);
	assert_int_equal(lc_program_needs("tests/test_tagname.c", "lib"), -1);	/* not ELF */
	assert_int_equal(lc_program_needs("/nonexistent/prog", "lib"), -1);
	assert_null(lc_program_dbg_open("tests/test_tagname.c"));
}

static void test_find(void **state)
{
	char path[PATH_MAX];

	(void)state;
	assert_int_equal(lc_program_find("sh", path, sizeof(path)), 0);
	assert_int_equal(access(path, X_OK), 0);
	assert_int_equal(lc_program_find("lostcycles-no-such-program", path, sizeof(path)), -1);
	assert_int_equal(lc_program_find("/nonexistent/prog", path, sizeof(path)), -1);
}

LC_TEST_MAIN(NULL, NULL,
	     LC_T(test_layout_matches_abi), LC_T(test_raw_names), LC_T(test_many_tags),
	     LC_T(test_names_from_debug_info),
	     LC_T(test_srcline), LC_T(test_needs), LC_T(test_find))
