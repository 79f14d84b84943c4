/*
 * comm — communication loss: compute / transfer phases.
 *
 * One parallel region of 10 ms rounds: both members compute for 6 ms, then
 * exchange data for 4 ms (a real copy into a shared buffer, padded to the
 * phase length), flagged COMM.  Ground truth: CL = 40 % of processor time,
 * PC = 60 %.
 */
#include "wl.h"

#define ROUNDS 40
#define ROUND_MS 10
#define COMPUTE_MS 6
#define BUF (64 * 1024)

static unsigned char local[WL_P][BUF];
static unsigned char shared[WL_P][BUF];

static void wl_body(int me, uint64_t t0)
{
	wl_region_begin(me, t0);
	for (int r = 0; r < ROUNDS; r++) {
		uint64_t start = t0 + (uint64_t)r * ROUND_MS * WL_MS;

		memset(local[me], r, BUF);
		wl_busy_until(start + COMPUTE_MS * WL_MS);
		LC_COMM_BEGIN();
		memcpy(shared[me], local[me], BUF);
		wl_sleep_until(start + ROUND_MS * WL_MS);
		LC_COMM_END();
	}
	wl_region_end(me);
}
