/*
 * control — the control workload: no overhead at all.
 *
 * Both members are busy inside one parallel region for the whole run, as a
 * sequence of 4 ms tasks that all contribute to the answer.  Ground truth:
 * everything is pure computation (PC), except the few milliseconds of
 * process start-up and exit, which are insufficient parallelism (IP).
 */
#include "wl.h"

#define NTASKS 100
#define TASK_MS 4

static void wl_body(int me, uint64_t t0)
{
	uint64_t t_end = t0 + NTASKS * TASK_MS * WL_MS;

	wl_region_begin(me, t0);
	for (int k = 0; k < NTASKS; k++) {
		uint64_t id = 1 + (uint64_t)me * 1000 + (uint64_t)k;

		LC_TASK_BEGIN(id);
		wl_busy_until(t0 + (uint64_t)(k + 1) * TASK_MS * WL_MS);
		LC_TASK_END(id);
	}
	LC_IDLE();
	if (me == 0) {
		wl_sleep_until(t_end);
		LC_PARALLEL_END();
	}
}
