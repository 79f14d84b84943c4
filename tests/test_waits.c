/*
 * test_waits.c — the partners' rule of sampler/waits.c: a wait for a
 * partner that waits for a CPU is resource contention, (a) while every
 * awaited thread is in a run queue and (b) as far as the awaited thread's
 * own run-queue time since its last wait explains the wait; the rest (its
 * extra computation) stays the wait's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lc_test.h"
#include "lostcycles.h"
#include "waits.h"

#define MS 1000000ull

/* Two processes of two threads each (threads 0, 1 in process 0; 2, 3 in
 * process 1), a clock of intervals and the rule's state. */
struct rig {
	struct lc_obs_proc procs[2];
	struct lc_obs_thread th[4];
	uint64_t rq[4];
	struct lc_obs o;
	struct lc_waits w;
	uint64_t t;
};

static void rig_open(struct rig *r, uint32_t nthreads, int ranks)
{
	memset(r, 0, sizeof(*r));
	r->w.on = 1;	/* the rule as LC_PARTNER_RULE=1 asks for it */
	for (uint32_t p = 0; p < 2; p++)
		r->procs[p] = (struct lc_obs_proc){ .uid = p, .pid = 100 + (int32_t)p, .we = 1,
						    .rank = ranks };
	for (uint32_t i = 0; i < 4; i++)
		r->th[i] = (struct lc_obs_thread){ .thread = i, .proc = i / 2,
						   .state = LC_ST_BUSY };
	r->o = (struct lc_obs){ .nprocs = nthreads > 2 ? 2 : 1, .procs = r->procs,
				.nthreads = nthreads, .threads = r->th };
}

/* One interval of dt with the states st ("B" busy, "I" idle, "S" sync)
 * and run-queue times rq[]; the waiters' partner_ns are in r->th. */
static void step(struct rig *r, const char *st, const uint64_t *rq, uint64_t dt)
{
	r->t++;
	for (uint32_t i = 0; i < r->o.nthreads; i++) {
		r->th[i].state = st[i] == 'B' ? LC_ST_BUSY : st[i] == 'S' ? LC_ST_SYNC : LC_ST_IDLE;
		r->rq[i] = rq[i];
		assert_int_equal(lc_waits_note(&r->w, i, r->th[i].state,
					       r->th[i].state | 1u << 8, r->t), 0);
	}
	assert_int_equal(lc_waits_partners(&r->w, &r->o, r->th, r->rq, r->t, dt), 0);
}

/* The rig of most tests: two threads of one process, no ranks; its rule's
 * state freed after the test, passed or not. */
static struct rig rig2;

static int rig2_open(void **state)
{
	rig_open(&rig2, 2, 0);
	*state = &rig2;
	return 0;
}

static int rig2_free(void **state)
{
	lc_waits_free(&((struct rig *)*state)->w);
	return 0;
}

/* The entry of a test on rig2 (in *state). */
#define RIG2_T(test) cmocka_unit_test_setup_teardown(test, rig2_open, rig2_free)

/* (a) A waiter whose only partner sits in a run queue the whole interval
 * waits for the machine; for half of it, half. */
static void test_partner_in_runq(void **state)
{
	struct rig *r = *state;

	step(r, "IB", (uint64_t[]){ 0, 10 * MS }, 10 * MS);
	assert_int_equal(r->th[0].partner_ns, 10 * MS);
	assert_int_equal(r->th[1].partner_ns, 0);
	step(r, "IB", (uint64_t[]){ 0, 4 * MS }, 10 * MS);
	/* (b) adds nothing: the 14 ms of run queue were charged already */
	assert_int_equal(r->th[0].partner_ns, 4 * MS);
}

/* (b) A balanced partner preempted 5 ms before the waiter arrived arrives
 * 5 ms late while back on a CPU: 5 ms of the wait are the machine's, and
 * the waiter's own 2 ms of run queue before its wait are taken off. */
static void test_partner_debt(void **state)
{
	struct rig *r = *state;

	step(r, "BB", (uint64_t[]){ 0, 5 * MS }, 20 * MS);
	step(r, "IB", (uint64_t[]){ 0, 0 }, 3 * MS);
	assert_int_equal(r->th[0].partner_ns, 3 * MS);
	step(r, "IB", (uint64_t[]){ 0, 0 }, 4 * MS);
	assert_int_equal(r->th[0].partner_ns, 2 * MS);
	step(r, "IB", (uint64_t[]){ 0, 0 }, 4 * MS);
	assert_int_equal(r->th[0].partner_ns, 0);	/* its extra work: LI */

	/* both at the barrier, then both leave it: a new phase, the old
	 * debt is gone */
	step(r, "II", (uint64_t[]){ 0, 0 }, MS);
	assert_int_equal(r->th[0].partner_ns, 0);	/* nobody is awaited */
	step(r, "BB", (uint64_t[]){ 2 * MS, 5 * MS }, 20 * MS);
	step(r, "SB", (uint64_t[]){ 0, 0 }, 10 * MS);
	assert_int_equal(r->th[0].partner_ns, 3 * MS);
}

/* The brief's mixed case: the waiter was preempted 5 ms before its wait,
 * the partner computes 5 ms more and is preempted 2 ms during the wait:
 * (a) gives those 2 ms, (b) nothing more, and the work stays LI. */
static void test_partner_mixed(void **state)
{
	struct rig *r = *state;

	step(r, "BB", (uint64_t[]){ 5 * MS, 0 }, 20 * MS);
	step(r, "IB", (uint64_t[]){ 0, 2 * MS }, 4 * MS);
	assert_int_equal(r->th[0].partner_ns, 2 * MS);
	step(r, "IB", (uint64_t[]){ 0, 0 }, 3 * MS);
	assert_int_equal(r->th[0].partner_ns, 0);
}

/* Threads of another process are nobody's partners; another rank's on
 * this node are a rank's.  Nothing is charged while no work exists. */
static void test_partner_processes(void **state)
{
	struct rig r;

	(void)state;
	rig_open(&r, 4, 0);
	step(&r, "IIBB", (uint64_t[]){ 0, 0, 10 * MS, 10 * MS }, 10 * MS);
	assert_int_equal(r.th[0].partner_ns, 0);
	assert_int_equal(r.th[1].partner_ns, 0);
	lc_waits_free(&r.w);

	rig_open(&r, 4, 1);
	/* both partners queued 4 ms at once ((a)); one of them 6 ms, which
	 * explains 6 ms of the wait ((b)) */
	step(&r, "SIBB", (uint64_t[]){ 0, 0, 4 * MS, 6 * MS }, 10 * MS);
	assert_int_equal(r.th[0].partner_ns, 6 * MS);
	assert_int_equal(r.th[1].partner_ns, 6 * MS);
	lc_waits_free(&r.w);

	rig_open(&r, 2, 0);
	r.procs[0].we = 0;
	step(&r, "IB", (uint64_t[]){ 0, 10 * MS }, 10 * MS);
	assert_int_equal(r.th[0].partner_ns, 0);
	lc_waits_free(&r.w);
}

/* A waiter's own run-queue time (RC by the waiters' rule) is not charged
 * twice. */
static void test_partner_own_runq(void **state)
{
	struct rig *r = *state;

	r->th[0].runq_ns = 3 * MS;
	step(r, "IB", (uint64_t[]){ 3 * MS, 10 * MS }, 10 * MS);
	assert_int_equal(r->th[0].partner_ns, 7 * MS);
}

/* A thread idle when work began (a worker the fork has not reached) waits
 * for a CPU until it leaves its wait; one that began to wait after the work
 * did waits for a partner. */
static void test_work_began(void **state)
{
	struct lc_waits w = { 0 };

	(void)state;
	assert_int_equal(lc_waits_note(&w, 0, LC_ST_IDLE, LC_ST_IDLE, 1), 0);
	assert_int_equal(lc_waits_note(&w, 1, LC_ST_BUSY, LC_ST_BUSY | 1u << 8, 1), 0);
	assert_false(lc_waits_work_began(&w, 0));
	assert_int_equal(lc_waits_note(&w, 0, LC_ST_IDLE, LC_ST_IDLE | 1u << 8, 2), 0);
	assert_true(lc_waits_work_began(&w, 0));
	assert_int_equal(lc_waits_note(&w, 0, LC_ST_IDLE, LC_ST_IDLE | 1u << 8, 3), 0);
	assert_true(lc_waits_work_began(&w, 0));
	assert_int_equal(lc_waits_note(&w, 0, LC_ST_BUSY, LC_ST_BUSY | 1u << 8, 4), 0);
	assert_false(lc_waits_work_began(&w, 0));
	assert_int_equal(lc_waits_note(&w, 0, LC_ST_IDLE, LC_ST_IDLE | 1u << 8, 5), 0);
	assert_false(lc_waits_work_began(&w, 0));
	assert_false(lc_waits_work_began(&w, 7));
	lc_waits_free(&w);
}

/* A partner that passed a barrier between two observations (the stamps
 * say it came from a wait inside the interval) starts a new phase: its
 * old run-queue time explains nothing any more. */
static void test_partner_passed_wait(void **state)
{
	struct rig *r = *state;

	step(r, "BB", (uint64_t[]){ 0, 5 * MS }, 20 * MS);
	r->th[1].prev_state = LC_ST_IDLE;	/* it waited, then went on */
	r->th[1].prev_ns = MS;
	step(r, "BB", (uint64_t[]){ 0, 0 }, 10 * MS);
	r->th[1].prev_ns = 0;
	step(r, "IB", (uint64_t[]){ 0, 0 }, 5 * MS);
	assert_int_equal(r->th[0].partner_ns, 0);
}

/* A team member the fork has not reached yet (idle since before work
 * began) is awaited; it is no waiter of the rule itself. */
static void test_partner_not_started(void **state)
{
	struct rig *r = *state;

	/* no work: both idle; then work begins and thread 0 (the master)
	 * computes while thread 1 is not reached yet */
	for (uint32_t i = 0; i < 2; i++)
		assert_int_equal(lc_waits_note(&r->w, i, LC_ST_IDLE, LC_ST_IDLE, 1), 0);
	r->t = 1;
	step(r, "BI", (uint64_t[]){ 0, 6 * MS }, 6 * MS);
	assert_true(lc_waits_work_began(&r->w, 1));
	assert_int_equal(r->th[1].partner_ns, 0);
	/* the master arrives first and waits for the worker, still queued */
	step(r, "II", (uint64_t[]){ 0, 4 * MS }, 4 * MS);
	assert_int_equal(r->th[0].partner_ns, 4 * MS);
	assert_int_equal(r->th[1].partner_ns, 0);
}

LC_TEST_MAIN(NULL, NULL,
	     RIG2_T(test_partner_in_runq), RIG2_T(test_partner_debt), RIG2_T(test_partner_mixed),
	     LC_T(test_partner_processes), RIG2_T(test_partner_own_runq), LC_T(test_work_began),
	     RIG2_T(test_partner_passed_wait), RIG2_T(test_partner_not_started))
