/*
 * lock — synchronization loss: a contended mutex.
 *
 * One parallel region; each member repeats: compute 1 ms, wait for the lock
 * (flagged SYNC), compute 3 ms holding it.  The lock is the bottleneck: each
 * cycle takes 6 ms per member of which 2 ms are spent waiting.  Ground
 * truth: SL about 2 / 6 = 33 % of processor time, PC about 67 %; the
 * measured share varies with wake-up latency, so tests only rely on SL being
 * the largest overhead by far.
 */
#include "wl.h"

#define CYCLES 60
#define OUTSIDE_MS 1
#define HOLD_MS 3

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void wl_body(int me, uint64_t t0)
{
	wl_region_begin(me, t0);
	for (int c = 0; c < CYCLES; c++) {
		wl_busy_until(wl_now() + OUTSIDE_MS * WL_MS);
		LC_SYNC_BEGIN();
		wl_lock(&lock);
		LC_SYNC_END();
		wl_busy_until(wl_now() + HOLD_MS * WL_MS);
		wl_unlock(&lock);
	}
	wl_region_end(me);
}
