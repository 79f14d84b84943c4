/*
 * imbalance — load imbalance: a skewed parallel loop.
 *
 * One parallel region; in each 12 ms round the iterations are split
 * statically and member 0's share costs 12 ms while member 1's costs 4 ms,
 * after which member 1 is idle until the round ends (it waits at the end of
 * the loop).  Ground truth: LI = 8 / 24 = 33 % of processor time, PC = 67 %.
 */
#include "wl.h"

#define ROUNDS 30
#define ROUND_MS 12
#define SHORT_MS 4

static void wl_body(int me, uint64_t t0)
{
	wl_region_begin(me, t0);
	for (int r = 0; r < ROUNDS; r++) {
		uint64_t start = t0 + (uint64_t)r * ROUND_MS * WL_MS;
		uint64_t t_next = start + ROUND_MS * WL_MS;

		if (me == 0) {
			wl_busy_until(t_next);
		} else {
			wl_busy_until(start + SHORT_MS * WL_MS);
			wl_idle_until(t_next);		/* done early: imbalance */
		}
	}
	wl_region_end(me);
}
