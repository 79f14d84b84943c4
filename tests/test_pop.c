/*
 * test_pop.c — the POP metrics of hand-made profiles held in memory
 * (postproc/report/pop.c): the hybrid model's levels against their definitions
 * (pop.h), no efficiency above 1 when p is fewer than the threads that
 * computed, and the reason given when a rank computed on more processors
 * than p gives it.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "lc_test.h"
#include "pop.h"

#define MS 1000000ull
#define MAXT 8

/* A profile of n threads over wall ms, p slots: thread i of process
 * pid[i] computed pc[i] ms and was idle (while work existed) the rest. */
struct mk {
	struct lc_profile pr;
	struct lc_prof_thread th[MAXT];
	struct lc_prof_trow row[MAXT];
};

static void make(struct mk *m, uint32_t p, uint64_t wall, uint32_t n, const int32_t *pid,
		 const uint64_t *pc)
{
	struct lc_prof_data *d = &m->pr.data[LC_SRC_SAMPLED];

	memset(m, 0, sizeof(*m));
	m->pr.procs = p;
	m->pr.nthreads = n;
	m->pr.threads = m->th;
	d->present = 1;
	d->nthreads = n;
	d->threads = m->row;
	for (uint32_t i = 0; i < n; i++) {
		m->th[i] = (struct lc_prof_thread){ .idx = i, .pid = pid[i], .tid = pid[i] + (int)i };
		m->row[i].thread = i;
		m->row[i].cat[LC_CAT_PC] = pc[i] * MS;
		m->row[i].cat[LC_CAT_LI] = (wall - pc[i]) * MS;
		d->total.cat[LC_CAT_PC] += pc[i] * MS;
		d->total.cat[LC_CAT_LI] += (wall - pc[i]) * MS;
	}
	d->total.t_we = wall * MS;
	d->total.n_we = (uint64_t)n * wall * MS;
}

/* The POP metrics of make()'s profile over 100 ms; computing them succeeds. */
static struct lc_pop pop_of(uint32_t p, uint32_t n, const int32_t *pid, const uint64_t *pc)
{
	struct mk m;
	struct lc_pop o;
	char msg[256];

	make(&m, p, 100, n, pid, pc);
	assert_int_equal(lc_pop_compute(&m.pr, LC_SRC_SAMPLED, &o, msg, sizeof(msg)), 0);
	return o;
}

/* 2 ranks x 2 threads, p = 4, wall 100 ms: rank 0 threads 40 and 60 ms,
 * rank 1 threads 60 and 90 ms.  M = 60, 90; sum U = 250; sum p_r M_r =
 * 2 x 60 + 2 x 90 = 300: OpenMP PE 250/300, MPI LB 300/360, CommE 0.9,
 * PE 250/400 = their product. */
static void test_hybrid(void **state)
{
	struct lc_pop o = pop_of(4, 4, (const int32_t[]){ 10, 10, 20, 20 },
				 (const uint64_t[]){ 40, 60, 60, 90 });

	(void)state;
	assert_true(o.hybrid);
	assert_int_equal(o.nranks, 2);
	assert_true(fabs(o.omp_pe - 250.0 / 300) < 1e-9);
	assert_true(fabs(o.mpi_lb - 300.0 / 360) < 1e-9);
	assert_true(fabs(o.comm - 0.9) < 1e-9);
	assert_true(fabs(o.pe - 250.0 / 400) < 1e-9);
	assert_true(fabs(o.pe - o.omp_pe * o.mpi_pe) < 1e-9);
	assert_true(fabs(o.lb - o.omp_pe * o.mpi_lb) < 1e-9);
}

/* The hybrid run with p = 2 (the team of one rank): 4 threads shared 2
 * slots, each charged half its time.  The old load balance (avg over p /
 * busiest thread) was 1.375; every level now stays at most 1. */
static void test_p_too_small(void **state)
{
	struct lc_pop o = pop_of(2, 4, (const int32_t[]){ 10, 10, 20, 20 },
				 (const uint64_t[]){ 50, 50, 50, 70 });

	(void)state;
	assert_true(o.lb <= 1 && o.comm <= 1 && o.pe <= 1);
	assert_true(o.omp_pe <= 1 && o.mpi_lb <= 1 && o.mpi_pe <= 1);
	assert_true(o.lb > 0 && o.omp_pe > 0);
}

/* One rank computed on three threads, the other on one, p = 4: the ranks'
 * shares follow their threads (3 and 1), so nothing exceeds 1. */
static void test_unequal_ranks(void **state)
{
	struct lc_pop o = pop_of(4, 4, (const int32_t[]){ 10, 10, 10, 20 },
				 (const uint64_t[]){ 90, 90, 90, 60 });

	(void)state;
	assert_true(fabs(o.mpi_lb - (3 * 90.0 + 60) / (4 * 90.0)) < 1e-9);
	assert_true(fabs(o.omp_pe - 1) < 1e-9);
}

/* One process: the hybrid levels are the classic ones (MPI LB 1). */
static void test_one_process(void **state)
{
	struct lc_pop o = pop_of(2, 2, (const int32_t[]){ 10, 10 },
				 (const uint64_t[]){ 80, 40 });

	(void)state;
	assert_false(o.hybrid);
	assert_true(fabs(o.lb - 120.0 / 160) < 1e-9);
	assert_true(fabs(o.mpi_lb - 1) < 1e-9);
	assert_true(fabs(o.omp_pe - o.lb) < 1e-9);
}

LC_TEST_MAIN(NULL, NULL,
	     LC_T(test_hybrid), LC_T(test_p_too_small), LC_T(test_unequal_ranks),
	     LC_T(test_one_process))
