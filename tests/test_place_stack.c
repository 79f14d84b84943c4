/*
 * test_place_stack.c — the place cells of a segment (ABI 1.4) and the
 * layers' place stack (lc_auto_place_push/pop): the cell of the thread's
 * slot holds the innermost place, leaving a place restores the outer one,
 * a stack deeper than LC_PLACE_DEPTH keeps the outer place and counts the
 * excess, a thread's cell is 0 again after it exits, a thread without a
 * session stores into a private cell; code sites are the module and
 * link-time address of an address; the layers' changes of state and
 * place are stamped with what the slot showed before them (ABI 1.5).
 */
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

static char tmpdir[] = "/tmp";

static int stop(void **state)
{
	(void)state;
	unsetenv(LC_ENV_SESSION);
	lc_priv_reinit_for_tests();
	return 0;
}

/* The calling thread's place cell in the segment. */
static uint64_t *my_cell(void)
{
	struct lc_seg_hdr *h = lc_priv_segment();

	LC_BUSY();
	assert_int_equal(lc_priv_thr.state, LC_T_SLOT);
	return &lc_seg_places(h)[lc_priv_thr.slot];
}

static void test_stack(void **state)
{
	struct lc_seg_hdr *h;
	uint64_t *c;

	(void)state;
	lc_test_session("tps", "8", NULL, tmpdir);
	h = lc_priv_segment();
	assert_true(h->flags & LC_SEG_PLACES);
	assert_int_equal(h->seg_size, lc_seg_size_of(h->flags, 8));
	c = my_cell();
	assert_int_equal(*c, 0);
	for (uint64_t i = 1; i <= LC_PLACE_DEPTH + 2; i++) {
		lc_auto_place_push(0x100 + i);
		assert_int_equal(*c, 0x100 + (i < LC_PLACE_DEPTH ? i : LC_PLACE_DEPTH));
	}
	assert_int_equal(h->places_deep, 2);
	for (uint64_t i = LC_PLACE_DEPTH + 2; i >= 2; i--) {
		lc_auto_place_pop();
		assert_int_equal(*c, 0x100 + (i - 1 < LC_PLACE_DEPTH ? i - 1 : LC_PLACE_DEPTH));
	}
	lc_auto_place_pop();
	assert_int_equal(*c, 0);
	lc_auto_place_pop();	/* one too many: nothing */
	assert_int_equal(*c, 0);
	lc_auto_place_push(7);
	assert_int_equal(*c, 7);
}

static uint64_t *thread_cell;

static void *in_place(void *arg)
{
	(void)arg;
	lc_auto_place_push(0x42);	/* registers the thread */
	thread_cell = my_cell();
	assert_int_equal(*thread_cell, 0x42);
	return NULL;
}

/* A thread that exits inside a place leaves its cell at 0. */
static void test_thread_exit(void **state)
{
	pthread_t th;

	(void)state;
	lc_test_session("tps", "8", NULL, tmpdir);
	assert_int_equal(pthread_create(&th, NULL, in_place, NULL), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_non_null(thread_cell);
	assert_int_equal(*thread_cell, 0);
}

/* Without a session, places go to a private cell: nothing breaks. */
static void test_no_session(void **state)
{
	(void)state;
	unsetenv(LC_ENV_SESSION);
	lc_priv_reinit_for_tests();
	assert_null(lc_priv_segment());
	lc_auto_place_push(5);
	lc_auto_place_pop();
	lc_auto_place_pop();
}

static void test_sites(void **state)
{
	uint64_t s = lc_auto_code_site((const void *)test_sites), w;

	(void)state;
	assert_int_equal(lc_auto_code_site(NULL), 0);
	assert_int_equal(s >> 56, 0);
	assert_int_equal((s >> 40) & 0xffff, LC_TAG_MODULE_MAIN);	/* the test program */
	assert_true((s & 0xffffffffffull) != 0);
	assert_int_equal(lc_auto_code_site((const void *)test_sites), s);	/* cached */
	w = lc_auto_site_word(LC_PLACE_MPI, LC_MPIF_RECV, (const void *)test_sites);
	assert_int_equal(LC_PLACE_KIND(w), LC_PLACE_MPI);
	assert_int_equal(LC_PLACE_WHAT(w), LC_MPIF_RECV);
	assert_int_equal(LC_PLACE_SITE_MODULE(w), LC_TAG_MODULE_MAIN);
	assert_int_equal(LC_PLACE_SITE_VADDR(w), s & 0xffffffffu);
	/* a shared library's function: its module is the hash of its path */
	s = lc_auto_code_site((const void *)pthread_create);
	assert_true(((s >> 40) & 0xffff) != LC_TAG_MODULE_MAIN);
	w = lc_auto_site_word(LC_PLACE_SYNC, LC_WAIT_JOIN, NULL);
	assert_int_equal(LC_PLACE_SITE_MODULE(w), LC_TAG_MODULE_UNKNOWN);
	assert_int_equal(LC_PLACE_SITE_VADDR(w), LC_PLACE_NOADDR);
}

/* Spin for at least ns nanoseconds. */
static void spin_ns(uint64_t ns)
{
	uint64_t t = lc_clock_ns();

	while (lc_clock_ns() - t < ns)
		;
}

/* What the stamping thread found: its first failed check (cmocka's
 * assertions fail only in the test's own thread: one in another thread
 * ended the run with status 255 and no message), or why it could not
 * judge (busy). */
static char stamp_fail[256];
static char busy[256];

#define CHECK(cond)                                                                    \
	do {                                                                           \
		if (!(cond)) {                                                         \
			snprintf(stamp_fail, sizeof(stamp_fail), "line %d: %s", __LINE__, \
				 #cond);                                               \
			return NULL;                                                   \
		}                                                                      \
	} while (0)

/* Two stores after t0 are one change only when both fall within
 * LC_STAMP_GROUP_NS (2 us) of the first: a slower thread (ThreadSanitizer
 * slows it 5-15x, a loaded machine preempts it) makes two changes, and the
 * count of changes cannot be judged. */
#define GROUPED_OR_BUSY(t0, what)                                                      \
	do {                                                                           \
		uint64_t d_ = lc_clock_ns() - (t0);                                    \
		if (d_ >= LC_STAMP_GROUP_NS) {                                         \
			snprintf(busy, sizeof(busy), "%s took %.1f us, more than the "  \
				 "%.0f us a change may last: the thread ran too slowly " \
				 "(sanitizer or load) to judge the grouping", what,     \
				 (double)d_ / 1e3, LC_STAMP_GROUP_NS / 1e3);           \
			return NULL;                                                   \
		}                                                                      \
	} while (0)

/* A thread whose layers own its state: a wait (its place, then its state:
 * one change), its end (state, then place: one change), a place alone, and
 * two changes of state at once (two changes: one state each).  Failures go
 * to stamp_fail, an unjudgeable run to busy. */
static void *stamped(void *arg)
{
	struct lc_seg_hdr *h = lc_priv_segment();
	struct lc_stamp *c;
	const struct lc_stamp_entry *e;
	uint64_t t0;

	(void)arg;
	lc_auto_set(LC_ST_BUSY);	/* registers: nothing to stamp yet */
	CHECK(lc_priv_thr.state == LC_T_SLOT);
	c = &lc_seg_stamps(h)[lc_priv_thr.slot];
	CHECK(c->head == 0);
	spin_ns(3 * LC_STAMP_GROUP_NS);
	t0 = lc_clock_ns();
	lc_auto_place_push(0x51);
	lc_auto_enter(LC_ST_SYNC);
	GROUPED_OR_BUSY(t0, "a wait's place and state");
	e = &c->e[0];
	CHECK(c->head == 1);
	CHECK((e->state & 0xff) == LC_ST_BUSY);
	CHECK(e->place == 0);
	CHECK(e->t_ns >= t0 && e->t_ns <= lc_clock_ns());
	spin_ns(3 * LC_STAMP_GROUP_NS);
	t0 = lc_clock_ns();
	lc_auto_leave();
	lc_auto_place_pop();
	GROUPED_OR_BUSY(t0, "a wait's end");
	CHECK(c->head == 2);
	CHECK((c->e[1].state & 0xff) == LC_ST_SYNC);
	CHECK(c->e[1].place == 0x51);
	CHECK(c->e[1].t_ns > e->t_ns);
	spin_ns(3 * LC_STAMP_GROUP_NS);
	t0 = lc_clock_ns();
	lc_auto_place_push(0x52);
	CHECK(c->head == 3);
	CHECK((c->e[2].state & 0xff) == LC_ST_BUSY);
	CHECK(c->e[2].place == 0);
	lc_auto_enter(LC_ST_IDLE);	/* the same change as the place */
	GROUPED_OR_BUSY(t0, "a place and a state");
	CHECK(c->head == 3);
	lc_auto_leave();		/* a second state: a second change */
	CHECK(c->head == 4);
	CHECK((c->e[3].state & 0xff) == LC_ST_IDLE);
	CHECK(c->e[3].place == 0x52);
	spin_ns(3 * LC_STAMP_GROUP_NS);
	lc_auto_place_pop();		/* the ring wraps */
	CHECK(c->head == 5);
	CHECK(c->e[0].place == 0x52);
	lc_auto_set(LC_ST_BUSY);	/* no change of state: no stamp */
	CHECK(c->head == 5);
	return NULL;
}

static void test_stamps(void **state)
{
	pthread_t th;

	(void)state;
	lc_test_session("tst", "8", NULL, tmpdir);
	assert_true(lc_priv_segment()->flags & LC_SEG_STAMPS);
	assert_int_equal(pthread_create(&th, NULL, stamped, NULL), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	if (stamp_fail[0])
		fail_msg("the stamping thread: %s", stamp_fail);
	if (busy[0])
		skip();
}

/* The tests; a run that could not judge the stamps' grouping (and failed
 * nothing) exits 77 with the reason. */
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_stack, stop),
		cmocka_unit_test_teardown(test_thread_exit, stop),
		cmocka_unit_test_teardown(test_no_session, stop), LC_T(test_sites),
		cmocka_unit_test_teardown(test_stamps, stop),
	};
	int r = cmocka_run_group_tests(tests, NULL, NULL);

	if (!r && busy[0]) {
		printf("SKIP: %s\n", busy);
		return 77;
	}
	return r;
}
