/*
 * serial — insufficient parallelism: a serial section dominates.
 *
 * Each 40 ms round has a 30 ms serial section, where member 0 computes and
 * member 1 waits outside any parallel region, then a 10 ms parallel section
 * where both compute.  Ground truth: IP = 30 / 80 = 37.5 % of processor time
 * (plus start-up), PC = 62.5 %, nothing else.
 */
#include "wl.h"

#define ROUNDS 10
#define SERIAL_MS 30
#define PARALLEL_MS 10
#define ROUND_MS (SERIAL_MS + PARALLEL_MS)

static void wl_body(int me, uint64_t t0)
{
	wl_idle_until(t0);
	for (int r = 0; r < ROUNDS; r++) {
		uint64_t t_par = t0 + ((uint64_t)r * ROUND_MS + SERIAL_MS) * WL_MS;
		uint64_t t_next = t0 + (uint64_t)(r + 1) * ROUND_MS * WL_MS;

		if (me == 0) {
			wl_busy_until(t_par);		/* the serial section */
			LC_PARALLEL_BEGIN();
			wl_busy_until(t_next);		/* the parallel section */
			LC_PARALLEL_END();
		} else {
			wl_idle_until(t_par);		/* nothing to do yet */
			wl_busy_until(t_next);
		}
	}
	LC_IDLE();
}
