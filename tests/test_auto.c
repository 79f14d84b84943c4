/*
 * test_auto.c — liblostcycles' interface for the automatic layers
 * (lc_auto.h): marked state words and their nesting, the precedence of the
 * program's macros (per thread, in normal and trace mode), the layers'
 * share of work_exists and of the team size and its withdrawal, the look-up
 * of the program's references, no-session behaviour, and the tag helpers
 * of lc_abi.h.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "lc_test.h"
#include "lc_auto.h"
#include "lc_internal.h"
#include "session_test.h"

/* Start a session with a fresh name; trace may be NULL. */
static void start(const char *trace)
{
	lc_test_session("ta", NULL, trace, lc_test_dir);
}

/* End any session: no session or trace in the environment, the library
 * reset. */
static void end_session(void)
{
	unsetenv(LC_ENV_SESSION);
	unsetenv(LC_ENV_TRACE);
	lc_priv_reinit_for_tests();
}

/* End any session (and remove its trace file, if any). */
static int stop(void **state)
{
	const char *t = lc_priv_trace_file();
	char path[PATH_MAX];

	(void)state;
	snprintf(path, sizeof(path), "%s", t ? t : "");
	end_session();
	if (path[0])
		unlink(path);
	return 0;
}

/* The calling thread's state word. */
static uint32_t word(void)
{
	assert_non_null(lc_priv_thr.sp);
	return __atomic_load_n(&lc_priv_thr.sp->state, __ATOMIC_ACQUIRE);
}

/* A new session whose thread a layer set BUSY, then entered SYNC, then
 * IDLE: each state marked as the layer's. */
static void layer_nest(void)
{
	start(NULL);
	assert_true(lc_auto_active());
	lc_auto_set(LC_ST_BUSY);
	assert_int_equal(word(), LC_AUTO_MARK | LC_ST_BUSY);
	lc_auto_enter(LC_ST_SYNC);
	assert_int_equal(word(), LC_AUTO_MARK | LC_ST_SYNC);
	lc_auto_enter(LC_ST_IDLE);
	assert_int_equal(word() & 0xff, LC_ST_IDLE);
}

/* Layer states are marked, nest, and restore. */
static void test_layer_states(void **state)
{
	(void)state;
	layer_nest();
	lc_auto_leave();
	assert_int_equal(word(), LC_AUTO_MARK | LC_ST_SYNC);
	lc_auto_leave();
	assert_int_equal(word(), LC_AUTO_MARK | LC_ST_BUSY);
	lc_auto_leave();	/* nothing entered: no change */
	assert_int_equal(word(), LC_AUTO_MARK | LC_ST_BUSY);
}

/* Deeper than LC_AUTO_DEPTH: counted, and the levels come back out. */
static void test_deep_nesting(void **state)
{
	(void)state;
	start(NULL);
	lc_auto_set(LC_ST_IDLE);
	for (unsigned i = 0; i < LC_AUTO_DEPTH + 5; i++)
		lc_auto_enter(i % 2 ? LC_ST_SYNC : LC_ST_BUSY);
	for (unsigned i = 0; i < LC_AUTO_DEPTH + 5; i++)
		lc_auto_leave();
	assert_int_equal(word(), LC_AUTO_MARK | LC_ST_IDLE);
}

/* Run the macro with index k (0..3) of the precedence cases. */
static void macro(int k)
{
	switch (k) {
	case 0: LC_BUSY(); break;
	case 1: LC_IDLE(); break;
	case 2: LC_SYNC_BEGIN(); break;
	default: LC_SYNC_END(); break;
	}
}

/* After any macro, the layers keep out of the thread for good.  LC_BUSY()
 * over a layer's BUSY is told apart too (the mark). */
static void *precedence_thread(void *arg)
{
	int k = *(int *)arg;
	uint32_t w;

	lc_auto_set(LC_ST_BUSY);
	lc_auto_enter(LC_ST_SYNC);
	if (k == 3)
		lc_auto_leave();	/* SYNC_END pops the layer's word */
	macro(k);
	w = word();
	assert_int_equal(w & LC_AUTO_MARK, 0);
	lc_auto_enter(LC_ST_IDLE);
	lc_auto_leave();
	lc_auto_set(LC_ST_SYNC);
	assert_int_equal(word(), w);
	return NULL;
}

static void run_precedence(void)
{
	for (int k = 0; k < 4; k++) {
		pthread_t t;

		assert_int_equal(pthread_create(&t, NULL, precedence_thread, &k), 0);
		assert_int_equal(pthread_join(t, NULL), 0);
	}
}

static void test_precedence(void **state)
{
	(void)state;
	start(NULL);
	run_precedence();
}

static void test_precedence_trace(void **state)
{
	(void)state;
	start("1");
	run_precedence();
}

/* A thread whose first flag comes from a layer registers, and a thread the
 * program flagged before any layer did is the program's. */
static void *first_macro_thread(void *arg)
{
	(void)arg;
	LC_IDLE();
	lc_auto_set(LC_ST_BUSY);
	assert_int_equal(word(), LC_ST_IDLE);
	return NULL;
}

static void test_first_contact(void **state)
{
	pthread_t t;

	(void)state;
	start(NULL);
	assert_int_equal(pthread_create(&t, NULL, first_macro_thread, NULL), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	lc_auto_enter(LC_ST_SYNC);	/* main: never flagged before */
	assert_int_equal(word(), LC_AUTO_MARK | LC_ST_SYNC);
}

/* A new session: its segment header. */
static struct lc_seg_hdr *new_segment(void)
{
	start(NULL);
	return lc_priv_segment();
}

/* A step of the layers or the program on the segment, and what the
 * segment then holds: work_exists after a parallel step, team after a
 * team step. */
enum { LAYER_PARALLEL, PROGRAM_BEGIN, PROGRAM_END, LAYER_TEAM, PROGRAM_TEAM };

struct step {
	int op, arg;
	uint32_t want;
};

/* work_exists: the layers' share adds and never goes below 0; the
 * program's first LC_PARALLEL_BEGIN withdraws it for good. */
static const struct step parallel_steps[] = {
	{ LAYER_PARALLEL, -1, 0 }, { LAYER_PARALLEL, 1, 1 }, { LAYER_PARALLEL, 1, 2 },
	{ LAYER_PARALLEL, -1, 1 }, { PROGRAM_BEGIN, 0, 1 }, { LAYER_PARALLEL, 1, 1 },
	{ PROGRAM_END, 0, 0 }, { LAYER_PARALLEL, 1, 0 },
};

/* The team: the layers' largest, until the program declares its own. */
static const struct step team_steps[] = {
	{ LAYER_TEAM, 2, 2 }, { LAYER_TEAM, 4, 4 }, { LAYER_TEAM, 3, 4 },
	{ PROGRAM_TEAM, 8, 8 }, { LAYER_TEAM, 16, 8 },
};

static void do_step(const struct step *st)
{
	switch (st->op) {
	case LAYER_PARALLEL: lc_auto_parallel(st->arg); break;
	case PROGRAM_BEGIN: LC_PARALLEL_BEGIN(); break;
	case PROGRAM_END: LC_PARALLEL_END(); break;
	case LAYER_TEAM: lc_auto_team(st->arg); break;
	default: LC_TEAM(st->arg); break;
	}
}

/* A new session through the n steps at st, each checked. */
static void run_steps(const struct step *st, size_t n)
{
	struct lc_seg_hdr *h = new_segment();

	for (size_t i = 0; i < n; i++, st++) {
		do_step(st);
		assert_int_equal(st->op >= LAYER_TEAM ? h->team : h->work_exists, st->want);
	}
}

static void test_parallel_and_team(void **state)
{
	(void)state;
	run_steps(parallel_steps, sizeof(parallel_steps) / sizeof(parallel_steps[0]));
	stop(NULL);
	run_steps(team_steps, sizeof(team_steps) / sizeof(team_steps[0]));
}

/* No session in the environment: the library opens none. */
static void no_session(void)
{
	unsetenv(LC_ENV_SESSION);
	assert_int_equal(lc_priv_reinit_for_tests(), -ENOENT);
}

/* Without a session nothing happens: the layers are off ... */
static void test_no_session(void **state)
{
	(void)state;
	no_session();
	assert_false(lc_auto_active());
}

/* ... and the layers' calls register no thread. */
static void test_no_session_calls(void **state)
{
	(void)state;
	no_session();
	lc_auto_set(LC_ST_BUSY);
	lc_auto_enter(LC_ST_SYNC);
	lc_auto_leave();
	lc_auto_parallel(1);
	lc_auto_team(2);
	assert_int_equal(lc_priv_thr.state, LC_T_FRESH);
	assert_null(lc_self);
}

/* The symbol look-up behind "the program calls LC_PARALLEL_* anywhere":
 * this test binary refers to cmocka's and libc's functions, and defines
 * (statically) the library's own. */
static void test_program_refers(void **state)
{
	const char *const cm[] = { "no_such_function_here", "_cmocka_run_group_tests" };
	const char *const libc[] = { "pthread_create" };

	(void)state;
	assert_int_equal(lc_priv_program_refers(cm, 2), 1);
	assert_int_equal(lc_priv_program_refers(libc, 1), 1);
}

/* ... and refers to no function it lacks or defines. */
static void test_program_refers_not(void **state)
{
	const char *const none[] = { "no_such_function_here" };
	const char *const own[] = { "lc_parallel_begin", "lc_parallel_end" };

	(void)state;
	assert_int_equal(lc_priv_program_refers(none, 1), 0);
	assert_int_equal(lc_priv_program_refers(own, 2), 0);
}

/* Tag fields. */
static void test_tags(void **state)
{
	int64_t t = LC_TAG_OMP | (int64_t)((uint64_t)0x1234 << 40) | 0xabcdef;

	(void)state;
	assert_true(t > 0);
	assert_int_equal(LC_TAG_KIND(t), 0x4f);
	assert_int_equal(LC_TAG_MODULE(t), 0x1234);
	assert_int_equal(LC_TAG_VADDR(t), 0xabcdef);
}

/* The module hash's range: never the main program's, below "unknown",
 * the same for the same path. */
static void test_module_hash(void **state)
{
	(void)state;
	assert_int_not_equal(lc_tag_module_hash(""), LC_TAG_MODULE_MAIN);
	assert_true(lc_tag_module_hash("/usr/lib/libx.so") < LC_TAG_MODULE_UNKNOWN);
	assert_int_equal(lc_tag_module_hash("/a"), lc_tag_module_hash("/a"));
}

static int group_teardown(void **state)
{
	stop(state);
	return rmdir(lc_test_dir);
}

LC_TEST_MAIN(lc_test_tmpdir_setup, group_teardown,
	     cmocka_unit_test_teardown(test_layer_states, stop),
	     cmocka_unit_test_teardown(test_deep_nesting, stop),
	     cmocka_unit_test_teardown(test_precedence, stop),
	     cmocka_unit_test_teardown(test_precedence_trace, stop),
	     cmocka_unit_test_teardown(test_first_contact, stop),
	     cmocka_unit_test_teardown(test_parallel_and_team, stop),
	     cmocka_unit_test_teardown(test_no_session, stop),
	     cmocka_unit_test_teardown(test_no_session_calls, stop),
	     cmocka_unit_test_teardown(test_program_refers, stop),
	     cmocka_unit_test_teardown(test_program_refers_not, stop),
	     cmocka_unit_test_teardown(test_tags, stop),
	     cmocka_unit_test_teardown(test_module_hash, stop))
