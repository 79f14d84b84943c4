/*
 * phase — a program whose phases are locked to the sampling interval: one
 * thread is BUSY for the first half of every millisecond of CLOCK_MONOTONIC
 * and IDLE (parallel work existing) for the second half, for 2 s.  Sampled
 * every 1 ms on a fixed grid, every tick would land in the same half and
 * see the same state; the truth is half computation, half load imbalance.
 */
#include <stdint.h>
#include <time.h>

#include "lostcycles.h"
#include "wl_clock.h"

/* Spin until the monotonic time t (sleeping would blur the phase). */
static void until(uint64_t t)
{
	while (now_ns() < t)
		;
}

int main(void)
{
	uint64_t ms = 1000000, t = (now_ns() / ms + 1) * ms, end = t + 2000 * ms;

	LC_TEAM(1);
	LC_IDLE();
	LC_PARALLEL_BEGIN();
	until(t);
	for (; t < end; t += ms) {
		LC_BUSY();
		until(t + ms / 2);
		LC_IDLE();
		until(t + ms);
	}
	LC_PARALLEL_END();
	return 0;
}
