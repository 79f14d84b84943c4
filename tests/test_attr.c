/*
 * test_attr.c — attribution: the predicate→category table, and the
 * accumulator's charging, window splitting, slot scaling, fragment tags and
 * wasted-task corrections, checked through a written and re-read profile.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "lc_test.h"
#include "attr.h"
#include "lostcycles.h"
#include "prof_writer.h"

#define MS 1000000ull

static char path[256];

/* A writer on a fresh temporary file. */
static struct lc_pwriter *open_writer(uint32_t procs)
{
	struct lc_prof_info info = { .interval_ns = 100000, .window_ns = 10 * MS,
				     .procs_option = procs, .sampler_cpu = -1,
				     .hostname = "h", .command = "c", .session = "s" };

	snprintf(path, sizeof(path), "/tmp/lc-test-attr.%d.data", (int)getpid());
	return lc_test_new_writer(path, &info);
}

/* Finish the accumulator a into w with an end block and read the file back. */
static struct lc_profile *finish(struct lc_pwriter *w, struct lc_accum *a)
{
	struct lc_prof_end end = { .reason = "test", .exit_status = 0 };

	assert_int_equal(lc_accum_flush(a), 0);
	end.procs = lc_accum_procs(a, &end.procs_from);
	assert_int_equal(lc_pwriter_end(w, &end), 0);
	assert_int_equal(lc_pwriter_close(w), 0);
	return lc_test_read_back(path);
}

/* The categories of source 0 of prof. */
static void cats(const struct lc_profile *prof, uint64_t out[LC_NCAT])
{
	lc_profile_finish(prof, &prof->data[LC_SRC_SAMPLED].total, out);
}

/* Sum of out[]. */
static uint64_t sum(const uint64_t out[LC_NCAT])
{
	uint64_t s = 0;

	for (int c = 0; c < LC_NCAT; c++)
		s += out[c];
	return s;
}

/* A writer with an accumulator of p slots and n threads (ids 0..n-1 of
 * process 1, tids 10..) on it. */
struct rig {
	struct lc_pwriter *w;
	struct lc_accum *a;
	struct lc_threads *th;
};

static void rig_open(struct rig *r, uint32_t p, int n)
{
	r->w = open_writer(p);
	r->a = lc_accum_new(r->w, LC_SRC_SAMPLED, 10 * MS, p);
	r->th = lc_threads_new(r->w);
	for (int i = 0; i < n; i++)
		lc_threads_id(r->th, 1, 1, (uint32_t)i, 1, 10 + i, 0);
}

/* Finish r and read its profile back; the sampled categories into out. */
static struct lc_profile *rig_finish(struct rig *r, uint64_t out[LC_NCAT])
{
	struct lc_profile *prof = finish(r->w, r->a);

	cats(prof, out);
	return prof;
}

/* A rig of p slots and o's threads, charged once from t0 for dt: its
 * profile, the sampled categories in out. */
static struct lc_profile *charge_once(struct rig *r, uint32_t p, const struct lc_obs *o,
				      uint64_t t0, uint64_t dt, uint64_t out[LC_NCAT])
{
	rig_open(r, p, (int)o->nthreads);
	assert_int_equal(lc_accum_charge(r->a, t0, dt, o), 0);
	return rig_finish(r, out);
}

/* The state a letter of obs_of names: N(one) I(dle) B(usy) S(ync) C(omm). */
static uint32_t state_of(char c)
{
	return (uint32_t)(strchr("NIBSC", c) - "NIBSC");
}

/* The observation obs_of makes: its process and threads (which a test may
 * change between charges). */
static struct lc_obs_proc obs_pr;
static struct lc_obs_thread obs_t[8];
static struct lc_obs obs;

/* One process doing work (uid 1, work exists) whose threads 0.. are in the
 * states the letters of states name (state_of). */
static struct lc_obs *obs_of(const char *states)
{
	obs_pr = (struct lc_obs_proc){ .uid = 1, .we = 1 };
	for (uint32_t i = 0; states[i]; i++)
		obs_t[i] = (struct lc_obs_thread){ .thread = i, .state = state_of(states[i]) };
	obs = (struct lc_obs){ 1, &obs_pr, (uint32_t)strlen(states), obs_t };
	return &obs;
}

/* Free r and prof. */
static void rig_close(struct rig *r, struct lc_profile *prof)
{
	lc_profile_free(prof);
	lc_accum_free(r->a);
	lc_threads_free(r->th);
}

/* The predicate -> category table (Crovella 1994, section 4.1), row by row. */
static void test_table(void **state)
{
	for (int we = 0; we <= 1; we++) {
		for (int sf = 0; sf <= 1; sf++) {
			assert_int_equal(lc_attr_category(LC_ST_NONE, we, sf), we ? LC_CAT_LI : LC_CAT_IP);
			assert_int_equal(lc_attr_category(LC_ST_IDLE, we, sf), we ? LC_CAT_LI : LC_CAT_IP);
			assert_int_equal(lc_attr_category(LC_ST_SYNC, we, sf), we ? LC_CAT_SL : LC_CAT_IP);
			assert_int_equal(lc_attr_category(LC_ST_COMM, we, sf), LC_CAT_CL);
			assert_int_equal(lc_attr_category(LC_ST_BUSY, we, sf), sf ? LC_CAT_BL : LC_CAT_PC);
			assert_int_equal(lc_attr_category(99, we, sf), we ? LC_CAT_LI : LC_CAT_IP);
		}
	}
}

/* Live threads by state, empty slots by work_exists; sum = p * wall. */
static void test_slots_and_completeness(void **state)
{
	struct rig r;
	struct lc_obs *o = obs_of("BI");
	uint64_t out[LC_NCAT];
	struct lc_profile *prof;

	obs_t[1].qempty = 1;
	rig_open(&r, 4, 2);
	assert_int_equal(lc_accum_charge(r.a, 0, 1 * MS, o), 0);
	obs_pr.we = 0;
	obs_t[0].state = LC_ST_SYNC;
	assert_int_equal(lc_accum_charge(r.a, 1 * MS, 2 * MS, o), 0);
	prof = rig_finish(&r, out);
	assert_int_equal(prof->procs, 4);
	assert_int_equal(out[LC_CAT_PC], 1 * MS);
	assert_int_equal(out[LC_CAT_LI], 3 * MS);		/* idle thread + 2 empty slots */
	assert_int_equal(out[LC_CAT_IP], 2 * MS + 2 * MS + 4 * MS); /* sync, idle, empty */
	assert_int_equal(sum(out), 4 * 3 * MS);
	assert_int_equal(prof->data[0].total.li_qempty, 1 * MS);
	assert_int_equal(prof->data[0].nthreads, 2);
	assert_int_equal(prof->data[0].threads[0].cat[LC_CAT_PC], 1 * MS);
	assert_int_equal(prof->data[0].threads[1].cat[LC_CAT_IP], 2 * MS);
	rig_close(&r, prof);
}

/* The run's spread: the largest f (1 - f) of its categories and of the
 * slots no thread claimed, each share moved toward 1/2 by the margin. */
static void test_spread(void **state)
{
	struct rig r;
	struct lc_obs *o = obs_of("BBBI");
	uint64_t out[LC_NCAT];

	(void)state;
	rig_open(&r, 4, 4);
	assert_true(lc_accum_spread(r.a, 0) == 0.25);	/* nothing charged yet */
	assert_int_equal(lc_accum_charge(r.a, 0, 1 * MS, o), 0);
	/* PC 3/4, LI 1/4: 3/16 */
	assert_true(fabs(lc_accum_spread(r.a, 0) - 0.1875) < 1e-12);
	assert_true(fabs(lc_accum_spread(r.a, 0.125) - 0.375 * 0.625) < 1e-12);
	assert_true(lc_accum_spread(r.a, 0.5) == 0.25);	/* never past 1/2 */
	o = obs_of("B");	/* 1 thread of 4 slots: 3 slots no thread claimed */
	assert_int_equal(lc_accum_charge(r.a, 1 * MS, 3 * MS, o), 0);
	/* PC (3 + 3) / 16, LI 1/16, unclaimed 9/16 */
	assert_true(fabs(lc_accum_spread(r.a, 0) - 9.0 / 16 * 7.0 / 16) < 1e-12);
	lc_profile_free(rig_finish(&r, out));
	lc_accum_free(r.a);
	lc_threads_free(r.th);
}

/* An interval across window boundaries is split exactly. */
static void test_window_split(void **state)
{
	struct lc_pwriter *w = open_writer(1);
	struct lc_accum *a = lc_accum_new(w, LC_SRC_SAMPLED, 10 * MS, 1);
	struct lc_obs_proc pr = { .uid = 1 };
	struct lc_obs o = { 1, &pr, 0, NULL };
	struct lc_profile *prof;
	const struct lc_prof_data *d;

	assert_int_equal(lc_accum_charge(a, 0, 5 * MS, &o), 0);
	assert_int_equal(lc_accum_charge(a, 5 * MS, 22 * MS, &o), 0);
	prof = finish(w, a);
	d = &prof->data[LC_SRC_SAMPLED];
	assert_int_equal(d->nwindows, 3);
	assert_int_equal(lc_acct_wall(&d->windows[0].acct), 10 * MS);
	assert_int_equal(lc_acct_wall(&d->windows[1].acct), 10 * MS);
	assert_int_equal(lc_acct_wall(&d->windows[2].acct), 7 * MS);
	assert_int_equal(d->windows[2].start_ns, 20 * MS);
	assert_int_equal(d->windows[0].ticks, 1);
	lc_profile_free(prof);
	lc_accum_free(a);
}

/* More live threads than slots: each gets its share, the sum stays p * dt. */
static void test_scaling(void **state)
{
	struct rig r;
	uint64_t out[LC_NCAT];
	struct lc_profile *prof = charge_once(&r, 2, obs_of("BBS"), 0, 1000001, out);

	(void)state;
	assert_int_equal(sum(out), 2 * 1000001);
	assert_int_equal(out[LC_CAT_LI], 0);
	/* both running threads claim both slots: nothing lost to the waiting one */
	assert_int_equal(out[LC_CAT_PC], 2 * 1000001);
	assert_int_equal(out[LC_CAT_SL], 0);
	rig_close(&r, prof);
}

/* The claim tiers: running, then run queue, then COMM, SYNC, IDLE, each
 * sharing what is left in proportion; the sums stay exact. */
static void test_tiers(void **state)
{
	struct rig r;
	/* three BUSY threads: 1 ms each; thread 1 waited 0.4 ms in the run
	 * queue, thread 2 0.6 ms; one SYNC and one IDLE thread */
	struct lc_obs *o = obs_of("BBBSI");
	struct lc_obs_thread *t = obs_t;
	uint64_t out[LC_NCAT];
	struct lc_profile *prof;

	t[1].runq_ns = 400000;
	t[2].runq_ns = 600000;
	rig_open(&r, 2, 5);
	/* running demand 1 + 0.6 + 0.4 = 2 ms fills the 2 slots exactly */
	assert_int_equal(lc_accum_charge(r.a, 0, MS, o), 0);
	/* p = 2 again, but two threads only half running: 1 ms running, the
	 * run queue claims 1 ms, nothing is left for SYNC and IDLE */
	t[0].runq_ns = 500000;
	t[1].runq_ns = 500000;
	t[2].state = LC_ST_SYNC;
	t[2].runq_ns = 0;
	assert_int_equal(lc_accum_charge(r.a, MS, MS, o), 0);
	/* now 0.5 ms running (thread 0), 0.5 ms run queue of thread 0 and
	 * 0.5 ms of thread 1, which is IDLE but was woken (the sampler says
	 * so by its runq_ns: RC whatever the state), and 0.5 ms left that
	 * threads 2 and 3 (SYNC) share before thread 4 (IDLE) gets any */
	t[1].state = LC_ST_IDLE;
	assert_int_equal(lc_accum_charge(r.a, 2 * MS, MS, o), 0);
	prof = rig_finish(&r, out);
	assert_int_equal(sum(out), 2 * 3 * MS);
	assert_int_equal(out[LC_CAT_PC], 2 * MS + MS + MS / 2);
	assert_int_equal(out[LC_CAT_RC], 0 + MS + MS);
	assert_int_equal(out[LC_CAT_SL], MS / 2);
	assert_int_equal(out[LC_CAT_LI], 0);
	assert_int_equal(prof->data[0].threads[3].cat[LC_CAT_SL], MS / 4);
	assert_int_equal(prof->data[0].threads[1].cat[LC_CAT_RC], MS);
	rig_close(&r, prof);
}

/* More running demand than slots: shared in proportion, to the ns. */
static void test_tiers_proportion(void **state)
{
	struct rig r;
	uint64_t out[LC_NCAT];
	struct lc_profile *prof = charge_once(&r, 2, obs_of("BBB"), 0, 1000001, out);

	(void)state;
	assert_int_equal(out[LC_CAT_PC], 2 * 1000001);
	for (int i = 0; i < 3; i++) {
		uint64_t v = prof->data[0].threads[i].cat[LC_CAT_PC];

		assert_true(v >= 666667 && v <= 666668);
	}
	rig_close(&r, prof);
}

/* The partners' rule's time of a waiter (partner_ns) is resource
 * contention, the rest of its wait its wait's category, across a window
 * boundary too, and the categories still sum to p x wall. */
static void test_partner_charge(void **state)
{
	struct rig r;
	uint64_t out[LC_NCAT];
	struct lc_obs *o = obs_of("BIS");
	struct lc_profile *prof;

	(void)state;
	obs_t[0].runq_ns = 4 * MS;		/* the partner, queued */
	obs_t[1].partner_ns = 6 * MS;		/* 6 of its 10 ms */
	obs_t[2].runq_ns = 2 * MS;		/* woken: its own RC */
	obs_t[2].partner_ns = 8 * MS;		/* all the rest of it */
	/* 5 ms before the first window's end, 5 ms after it */
	prof = charge_once(&r, 3, o, 5 * MS, 10 * MS, out);
	assert_int_equal(sum(out), 3 * 10 * MS);
	assert_int_equal(out[LC_CAT_PC], 6 * MS);
	assert_int_equal(out[LC_CAT_LI], 4 * MS);
	assert_int_equal(out[LC_CAT_SL], 0);
	assert_int_equal(out[LC_CAT_RC], 4 * MS + 6 * MS + 10 * MS);
	assert_int_equal(prof->data[0].threads[1].cat[LC_CAT_RC], 6 * MS);
	assert_int_equal(prof->data[0].threads[2].cat[LC_CAT_RC], 10 * MS);
	rig_close(&r, prof);
}

/* A thread whose state changed inside the interval is charged in two
 * parts: before the change in the state it left (with that part's
 * run-queue time), after it in its state. */
static void test_two_parts(void **state)
{
	struct rig r;
	uint64_t out[LC_NCAT];
	struct lc_obs *o = obs_of("BB");
	struct lc_profile *prof;

	(void)state;
	/* thread 1: idle 4 ms (3 of them queued), then busy 6 ms (1 queued) */
	obs_t[1].prev_state = LC_ST_IDLE;
	obs_t[1].prev_ns = 4 * MS;
	obs_t[1].prev_runq_ns = 3 * MS;
	obs_t[1].runq_ns = MS;
	prof = charge_once(&r, 2, o, 5 * MS, 10 * MS, out);
	assert_int_equal(sum(out), 2 * 10 * MS);
	assert_int_equal(prof->data[0].threads[1].cat[LC_CAT_PC], 5 * MS);
	assert_int_equal(prof->data[0].threads[1].cat[LC_CAT_RC], 4 * MS);
	assert_int_equal(prof->data[0].threads[1].cat[LC_CAT_LI], MS);
	assert_int_equal(out[LC_CAT_PC], 15 * MS);
	rig_close(&r, prof);
}

/* Open tags of all processes (union) collect every slot's time. */
static void test_tags(void **state)
{
	struct rig r;
	int64_t tags1[] = { 5, 9 }, tags2[] = { 9 };
	struct lc_obs_proc pr[2] = { { .uid = 1, .we = 1, .ntags = 2, .tags = tags1 },
				     { .uid = 2, .ntags = 1, .tags = tags2 } };
	struct lc_obs_thread t[1] = { { .thread = 0, .proc = 0, .state = LC_ST_BUSY } };
	struct lc_obs o = { 2, pr, 1, t };
	uint64_t out[LC_NCAT];
	struct lc_profile *prof;

	rig_open(&r, 2, 1);
	assert_int_equal(lc_accum_charge(r.a, 0, 3 * MS, &o), 0);
	pr[0].ntags = 0;
	pr[1].ntags = 0;
	assert_int_equal(lc_accum_charge(r.a, 3 * MS, 1 * MS, &o), 0);
	prof = rig_finish(&r, out);
	assert_int_equal(prof->data[0].ntags, 2);
	for (uint32_t i = 0; i < 2; i++) {
		lc_profile_finish(prof, &prof->data[0].tags[i].acct, out);
		assert_int_equal(sum(out), 2 * 3 * MS);
		assert_int_equal(out[LC_CAT_PC], 3 * MS);
		assert_int_equal(out[LC_CAT_LI], 3 * MS);
	}
	rig_close(&r, prof);
}

/* A wasted task's pure computation moves to WC in every window it ran. */
static void test_wasted(void **state)
{
	struct rig r;
	struct lc_obs_proc pr = { .uid = 3, .we = 1 };
	struct lc_obs_thread t = { .thread = 0, .state = LC_ST_BUSY, .task = 7 };
	struct lc_obs o = { 1, &pr, 1, &t };
	uint64_t out[LC_NCAT];
	struct lc_profile *prof;

	rig_open(&r, 1, 1);
	assert_int_equal(lc_accum_charge(r.a, 8 * MS, 4 * MS, &o), 0);	/* windows 0 and 1 */
	t.task = 8;
	assert_int_equal(lc_accum_charge(r.a, 12 * MS, 1 * MS, &o), 0);
	lc_accum_wasted(r.a, 3, 7);
	lc_accum_wasted(r.a, 3, 42);	/* unknown task: nothing moves */
	lc_accum_wasted(r.a, 4, 8);	/* same id, other process: nothing moves */
	prof = rig_finish(&r, out);
	assert_int_equal(out[LC_CAT_WC], 4 * MS);
	assert_int_equal(out[LC_CAT_PC], 1 * MS);
	assert_int_equal(prof->data[0].threads[0].cat[LC_CAT_WC], 4 * MS);
	assert_int_equal(prof->data[0].windows[0].acct.cat[LC_CAT_WC], 2 * MS);
	assert_int_equal(prof->data[0].windows[1].acct.cat[LC_CAT_WC], 2 * MS);
	rig_close(&r, prof);
}

/* p comes from the option, else the team, else the most threads runnable
 * at once (the scheduler's count, else the BUSY and COMM flags), capped by
 * the CPUs the threads' affinity allows. */
static void test_procs_from(void **state)
{
	struct lc_obs_proc pr = { .uid = 1 };
	struct lc_obs_thread t[3] = { { .thread = 0, .state = LC_ST_BUSY },
				      { .thread = 1, .state = LC_ST_COMM },
				      { .thread = 2, .state = LC_ST_SYNC } };
	struct lc_obs o = { 1, &pr, 3, t };
	struct lc_accum *a;
	uint32_t from, th, run, cpus;

	a = lc_accum_new(NULL, LC_SRC_SAMPLED, 1000 * MS, 0);
	lc_accum_charge(a, 0, 1 * MS, &o);
	assert_int_equal(lc_accum_procs(a, &from), 2);	/* BUSY and COMM */
	assert_int_equal(from, LC_PROCS_RUNNABLE);
	lc_accum_runnable(a, 3, 0);
	lc_accum_charge(a, 1 * MS, 1 * MS, &o);
	assert_int_equal(lc_accum_procs(a, &from), 3);
	lc_accum_runnable(a, 1, 0);			/* the most at once stays */
	lc_accum_charge(a, 2 * MS, 1 * MS, &o);
	assert_int_equal(lc_accum_procs(a, &from), 3);
	lc_accum_runnable(a, 5, 2);			/* capped by the affinity */
	lc_accum_charge(a, 3 * MS, 1 * MS, &o);
	assert_int_equal(lc_accum_procs(a, &from), 2);
	assert_int_equal(from, LC_PROCS_RUNNABLE);
	lc_accum_procs_rules(a, &th, &run, &cpus);
	assert_int_equal(th, 3);
	assert_int_equal(run, 5);
	assert_int_equal(cpus, 2);
	lc_accum_free(a);
	a = lc_accum_new(NULL, LC_SRC_SAMPLED, 1000 * MS, 0);
	pr.team = 8;
	lc_accum_charge(a, 1 * MS, 1 * MS, &o);
	assert_int_equal(lc_accum_procs(a, &from), 8);
	assert_int_equal(from, LC_PROCS_TEAM);
	lc_accum_free(a);
	a = lc_accum_new(NULL, LC_SRC_SAMPLED, 1000 * MS, 5);
	lc_accum_charge(a, 0, 1 * MS, &o);
	assert_int_equal(lc_accum_procs(a, &from), 5);
	assert_int_equal(from, LC_PROCS_OPTION);
	lc_accum_free(a);
}

/* Thread identities: same key, same index; a new generation, a new index. */
static void test_thread_ids(void **state)
{
	struct lc_pwriter *w = open_writer(1);
	struct lc_threads *th = lc_threads_new(w);

	assert_int_equal(lc_threads_id(th, 10, 1, 0, 1, 100, 0), 0);
	assert_int_equal(lc_threads_id(th, 10, 1, 1, 1, 101, 0), 1);
	assert_int_equal(lc_threads_id(th, 10, 1, 0, 1, 100, 5), 0);
	assert_int_equal(lc_threads_id(th, 10, 1, 0, 2, 102, 5), 2);
	assert_int_equal(lc_threads_id(th, 10, 2, 0, 1, 100, 5), 3);
	lc_threads_free(th);
	lc_pwriter_close(w);
	unlink(path);
}

/* Synchronization loss per synchronization object: only SL time counts,
 * after the transfer split; objects are kept per process. */
static void test_sync_objects(void **state)
{
	struct rig r;
	struct lc_obs_proc pr[2] = { { .uid = 1, .we = 1 }, { .uid = 2, .we = 1 } };
	struct lc_obs_thread t[4] = {
		{ .thread = 0, .proc = 0, .state = LC_ST_SYNC, .sync = 1 },
		{ .thread = 1, .proc = 0, .state = LC_ST_SYNC, .sync = 2 },
		{ .thread = 2, .proc = 1, .state = LC_ST_SYNC, .sync = 1 },
		{ .thread = 3, .proc = 0, .state = LC_ST_BUSY, .sync = 0 },
	};
	struct lc_obs o = { 2, pr, 4, t };
	uint64_t out[LC_NCAT], by[3] = { 0 };
	struct lc_profile *prof;

	(void)state;
	rig_open(&r, 4, 0);
	for (int i = 0; i < 4; i++)
		lc_threads_id(r.th, i < 3 ? 10 : 11, 1, (uint32_t)i, 1, 10 + i, 0);
	lc_accum_sync_name(r.a, 1, 100, 1, 0x1000, "queue lock");
	lc_accum_sync_name(r.a, 1, 100, 2, 0x2000, NULL);
	lc_accum_sync_name(r.a, 2, 200, 1, 0x1000, "");
	assert_int_equal(lc_accum_charge(r.a, 0, 2 * MS, &o), 0);
	/* thread 1 also had 0.5 ms of ideal transfer time: that part is CL */
	t[1].xfer_ns = MS / 2;
	t[0].state = LC_ST_BUSY;
	assert_int_equal(lc_accum_charge(r.a, 2 * MS, MS, &o), 0);
	prof = rig_finish(&r, out);
	assert_int_equal(prof->nsync, 3);
	for (uint32_t i = 0; i < prof->nsync; i++) {
		const struct lc_prof_sync *y = &prof->sync[i];

		if (y->pid == 100 && y->obj == 0x1000) {
			assert_string_equal(y->name, "queue lock");
			by[0] = y->ns;
		} else if (y->pid == 100 && y->obj == 0x2000) {
			assert_null(y->name);
			by[1] = y->ns;
		} else if (y->pid == 200) {
			by[2] = y->ns;
		}
	}
	assert_int_equal(by[0], 2 * MS);
	assert_int_equal(by[1], 2 * MS + MS / 2);
	assert_int_equal(by[2], 3 * MS);
	rig_close(&r, prof);
}

LC_TEST_MAIN(NULL, NULL,
	     LC_T(test_table), LC_T(test_slots_and_completeness), LC_T(test_window_split),
	     LC_T(test_scaling), LC_T(test_tiers), LC_T(test_tiers_proportion), LC_T(test_partner_charge), LC_T(test_two_parts),
	     LC_T(test_sync_objects), LC_T(test_tags),
	     LC_T(test_wasted), LC_T(test_procs_from), LC_T(test_thread_ids), LC_T(test_spread))
