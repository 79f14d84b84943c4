/*
 * test_slotsweep.c — the slots the tick loop reads per tick (sampler/slotsweep.c):
 * a 65536-slot segment of free slots costs LC_SLOTSWEEP_MIN reads per tick, not
 * 65536; every slot holding an accepted thread is read at every tick, once;
 * a new thread anywhere below the mark is found within mark / window
 * ticks; below the window every slot is read at every tick, in order; and
 * the lineage of a process (sampler/lineage.c) is followed to its roots;
 * a slot is read as it was when the tick was due, from its stamps
 * (sampler/place.c, lc_slot_before).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "lc_test.h"
#include "lineage.h"
#include "place.h"
#include "slotsweep.h"

#define NSLOTS 65536u

/* A target of n slots, none holding a thread yet. */
static struct lc_target *new_target(uint32_t n)
{
	struct lc_target *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	t->nslots = n;
	t->cache = calloc(n, sizeof(*t->cache));
	assert_non_null(t->cache);
	for (uint32_t i = 0; i < n; i++)
		t->cache[i].thread = -1;
	return t;
}

static void free_target(struct lc_target *t)
{
	lc_slotsweep_free(t);
	free(t->cache);
	free(t);
}

/* A segment of NSLOTS slots: the target, which slots hold an accepted
 * thread, and how often a tick read each. */
struct seg {
	struct lc_target *t;
	uint8_t *holds, *reads;
};

static void seg_new(struct seg *g)
{
	g->t = new_target(NSLOTS);
	g->holds = calloc(NSLOTS, 1);
	g->reads = calloc(NSLOTS, 1);
	assert_true(g->holds && g->reads);
}

static void seg_free(struct seg *g)
{
	free(g->holds);
	free(g->reads);
	free_target(g->t);
}

/* One tick over g below hwm, where g->holds[i] says slot i holds an
 * accepted thread: reads are counted in g->reads[i] (cleared first);
 * returns how many slots were read. */
static uint32_t tick(struct seg *g, uint32_t hwm)
{
	struct lc_slotsweep_it it;
	uint32_t i, n = 0;

	memset(g->reads, 0, g->t->nslots);
	for (lc_slotsweep_begin(&it, g->t, hwm); lc_slotsweep_next(&it, &i);) {
		assert_true(i < hwm);
		g->reads[i]++;
		n++;
		g->t->cache[i].thread = g->holds[i] ? (int64_t)i : -1;
	}
	return n;
}

/* A 65536-slot segment, all free: LC_SLOTSWEEP_MIN reads per tick, and the
 * window covers every slot in NSLOTS / LC_SLOTSWEEP_MIN ticks. */
static void test_free_segment(void **state)
{
	struct seg g;
	uint8_t *seen = calloc(NSLOTS, 1);

	(void)state;
	seg_new(&g);
	for (uint32_t k = 0; k < NSLOTS / LC_SLOTSWEEP_MIN; k++) {
		assert_int_equal(tick(&g, NSLOTS), LC_SLOTSWEEP_MIN);
		for (uint32_t i = 0; i < NSLOTS; i++) {
			assert_true(g.reads[i] <= 1);
			seen[i] |= g.reads[i];
		}
	}
	for (uint32_t i = 0; i < NSLOTS; i++)
		assert_int_equal(seen[i], 1);
	free(seen);
	seg_free(&g);
}

/* Threads in slots 3, 40000 and 65535 of a 65536-slot segment: each is
 * found within NSLOTS / LC_SLOTSWEEP_MIN ticks, then read at every tick, once;
 * a tick reads at most the threads plus the window. */
static void test_threads_found(void **state)
{
	static const uint32_t at[] = { 3, 40000, 65535 };
	struct seg g;

	(void)state;
	seg_new(&g);
	for (size_t j = 0; j < 3; j++)
		g.holds[at[j]] = 1;
	for (uint32_t k = 0; k < NSLOTS / LC_SLOTSWEEP_MIN; k++)
		assert_true(tick(&g, NSLOTS) <= LC_SLOTSWEEP_MIN + 3);
	assert_int_equal(g.t->nactive, 3);
	for (uint32_t k = 0; k < 10; k++) {
		assert_true(tick(&g, NSLOTS) <= LC_SLOTSWEEP_MIN + 3);
		for (size_t j = 0; j < 3; j++)
			assert_int_equal(g.reads[at[j]], 1);
		for (uint32_t i = 0; i < NSLOTS; i++)
			assert_true(g.reads[i] <= 1);
	}
	g.holds[40000] = 0;	/* its thread left: read once more, then unlisted */
	tick(&g, NSLOTS);
	assert_int_equal(g.reads[40000], 1);
	assert_int_equal(g.t->nactive, 2);
	seg_free(&g);
}

/* Below the window, every slot at every tick, in order, as before. */
static void test_small_full(void **state)
{
	struct seg g;
	struct lc_slotsweep_it it;
	uint32_t i, next = 0;

	(void)state;
	seg_new(&g);
	g.holds[5] = g.holds[100] = 1;
	for (uint32_t k = 0; k < 3; k++) {
		assert_int_equal(tick(&g, 200), 200);
		for (uint32_t j = 0; j < 200; j++)
			assert_int_equal(g.reads[j], 1);
	}
	for (lc_slotsweep_begin(&it, g.t, 200); lc_slotsweep_next(&it, &i); next++)
		assert_int_equal(i, next);
	seg_free(&g);
}

/* The window grows with the threads found: 1000 threads in a 65536-slot
 * segment are read at every tick, and the window is 4000 slots. */
static void test_window_grows(void **state)
{
	struct seg g;
	uint32_t n;

	(void)state;
	seg_new(&g);
	for (uint32_t i = 0; i < 1000; i++)
		g.holds[i * 64] = 1;
	for (uint32_t k = 0; k < NSLOTS / LC_SLOTSWEEP_MIN; k++)
		tick(&g, NSLOTS);
	assert_int_equal(g.t->nactive, 1000);
	n = tick(&g, NSLOTS);
	assert_true(n <= 1000 + LC_SLOTSWEEP_PER_THREAD * 1000);
	for (uint32_t i = 0; i < 1000; i++)
		assert_int_equal(g.reads[i * 64], 1);
	seg_free(&g);
}

/* Lineage: a child and a grandchild descend from this process; this process
 * does not descend from its child; init descends from nothing here. */
/* Stamp c of a thread: change n at time t, before which the slot showed
 * state st in place pl. */
static void stamp_put(struct lc_stamp *c, uint64_t n, uint64_t t, uint32_t st, uint64_t pl)
{
	c->e[n % LC_STAMP_DEPTH] = (struct lc_stamp_entry){ .t_ns = t, .state = st, .place = pl };
	if (n + 1 > c->head)
		c->head = n + 1;
}

/* The state before the oldest change after the tick's due time; nothing
 * without stamps, changes or a due time, or while an entry is written;
 * the oldest kept when every kept change came after it. */
static void test_slot_before(void **state)
{
	struct lc_target *t = new_target(2);
	struct lc_stamp st[2];
	struct lc_slot_view v = { .state = LC_ST_IDLE, .place = 7 };

	(void)state;
	memset(st, 0, sizeof(st));
	assert_int_equal(lc_slot_before(t, 0, 100, &v), 0);	/* a segment of ABI 1.4 */
	t->stamps = st;
	assert_int_equal(lc_slot_before(t, 0, 100, &v), 0);	/* no change yet */
	stamp_put(&st[0], 0, 50, LC_ST_IDLE, 1);	/* IDLE until 50, */
	stamp_put(&st[0], 1, 120, LC_ST_BUSY, 2);	/* BUSY until 120, */
	stamp_put(&st[0], 2, 130, LC_ST_SYNC, 3);	/* SYNC until 130 */
	assert_int_equal(lc_slot_before(t, 0, 130, &v), 0);
	assert_int_equal(lc_slot_before(t, 0, 0, &v), 0);	/* the last tick: as read */
	assert_int_equal(v.state, LC_ST_IDLE);
	assert_int_equal(lc_slot_before(t, 0, 125, &v), 1);
	assert_int_equal(v.state, LC_ST_SYNC);
	assert_int_equal(v.place, 3);
	assert_int_equal(lc_slot_before(t, 0, 100, &v), 1);
	assert_int_equal(v.state, LC_ST_BUSY);
	assert_int_equal(v.place, 2);
	assert_int_equal(lc_slot_before(t, 0, 10, &v), 1);
	assert_int_equal(v.state, LC_ST_IDLE);
	stamp_put(&st[0], 3, 140, LC_ST_BUSY, 4);
	stamp_put(&st[0], 4, 150, LC_ST_IDLE, 5);	/* change 0 is overwritten */
	assert_int_equal(lc_slot_before(t, 0, 10, &v), 1);
	assert_int_equal(v.state, LC_ST_BUSY);	/* before change 1, the oldest kept */
	st[0].e[3].t_ns = 0;	/* change 3 being written */
	v.state = LC_ST_COMM;
	assert_int_equal(lc_slot_before(t, 0, 135, &v), 0);
	assert_int_equal(v.state, LC_ST_COMM);
	assert_int_equal(lc_slot_before(t, 1, 10, &v), 0);	/* another slot's */
	free_target(t);
}

/* The one change of state in a tick's span (last, at]: its time and the
 * state it left; nothing when the span holds two changes of state (no one
 * cut splits it truly), none, or more than the ring keeps. */
static void test_slot_change(void **state)
{
	struct lc_target *t = new_target(1);
	struct lc_stamp st[1];
	uint64_t cut = 0;
	uint32_t prev = 0;

	(void)state;
	memset(st, 0, sizeof(st));
	t->stamps = st;
	stamp_put(&st[0], 0, 50, LC_ST_IDLE, 1);	/* IDLE until 50, */
	stamp_put(&st[0], 1, 120, LC_ST_BUSY, 2);	/* BUSY until 120, */
	stamp_put(&st[0], 2, 130, LC_ST_SYNC, 3);	/* SYNC until 130, then IDLE */
	assert_int_equal(lc_slot_change(t, 0, 100, 125, LC_ST_SYNC, &cut, &prev), 1);
	assert_int_equal(cut, 120);
	assert_int_equal(prev, LC_ST_BUSY);
	/* (40, 125]: IDLE -> BUSY at 50 and BUSY -> SYNC at 120 */
	assert_int_equal(lc_slot_change(t, 0, 40, 125, LC_ST_SYNC, &cut, &prev), 0);
	assert_int_equal(lc_slot_change(t, 0, 121, 125, LC_ST_SYNC, &cut, &prev), 0);
	/* changes of place only do not count: BUSY -> SYNC at 140, then three
	 * places in SYNC; the ring keeps the last four */
	memset(st, 0, sizeof(st));
	stamp_put(&st[0], 0, 140, LC_ST_BUSY, 1);
	stamp_put(&st[0], 1, 150, LC_ST_SYNC, 2);
	stamp_put(&st[0], 2, 160, LC_ST_SYNC, 3);
	assert_int_equal(lc_slot_change(t, 0, 100, 170, LC_ST_SYNC, &cut, &prev), 1);
	assert_int_equal(cut, 140);
	assert_int_equal(prev, LC_ST_BUSY);
	stamp_put(&st[0], 3, 170, LC_ST_SYNC, 4);
	stamp_put(&st[0], 4, 180, LC_ST_SYNC, 5);	/* the change at 140 is overwritten */
	assert_int_equal(lc_slot_change(t, 0, 100, 190, LC_ST_SYNC, &cut, &prev), 0);
	free_target(t);
}

static void test_lineage(void **state)
{
	struct lc_root self, kid;
	int fds[2], depth = -1;
	pid_t child, grand = 0;

	(void)state;
	assert_int_equal(lc_root_take(getpid(), &self), 0);
	assert_int_equal(pipe(fds), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {	/* fork a grandchild, tell its pid, wait */
		pid_t g = fork();

		if (g == 0) {
			pause();
			_exit(0);
		}
		if (write(fds[1], &g, sizeof(g)) != sizeof(g))
			_exit(1);
		pause();
		_exit(0);
	}
	assert_int_equal(read(fds[0], &grand, sizeof(grand)), sizeof(grand));
	assert_int_equal(lc_lineage_descends(child, &self, 1, NULL), 1);
	assert_int_equal(lc_lineage_descends(grand, &self, 1, &depth), 1);
	assert_int_equal(depth, 2);
	assert_int_equal(lc_root_take(child, &kid), 0);
	assert_int_equal(lc_lineage_descends(getpid(), &kid, 1, NULL), 0);
	assert_int_equal(lc_lineage_descends(1, &self, 1, NULL), 0);
	self.start++;	/* another process of the same pid: not a root */
	assert_int_equal(lc_lineage_descends(grand, &self, 1, NULL), 0);
	kill(grand, SIGKILL);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	close(fds[0]);
	close(fds[1]);
}

LC_TEST_MAIN(NULL, NULL,
	     LC_T(test_free_segment), LC_T(test_threads_found), LC_T(test_small_full),
	     LC_T(test_window_grows), LC_T(test_lineage), LC_T(test_slot_before),
	     LC_T(test_slot_change))
