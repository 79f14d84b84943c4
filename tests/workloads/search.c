/*
 * search — wasted computation and braking loss: a speculative search.
 *
 * Tree parallelism as in the thesis's subgraph isomorphism: in each of 20
 * stages both members search a different subtree (one task each); the
 * member whose subtree yields the partial answer finishes after 12 ms, the
 * other learns then that its subtree was fruitless and declares its task
 * wasted.  The winner alternates.  After the last stage the solution is
 * found (LC_SOLUTION_FOUND), but work already dispatched keeps both members
 * busy for another 80 ms before they notice the stop flag.
 *
 * Ground truth over 2 x 320 ms: PC = 240 ms (winners), WC = 240 ms (losers,
 * 37.5 %), BL = 160 ms (25 %), nothing else.
 */
#include "wl.h"

#define STAGES 20
#define STAGE_MS 12
#define BRAKE_MS 80

static int stage_won;	/* stages completed; atomic */

static void wl_body(int me, uint64_t t0)
{
	uint64_t t_found = t0 + (uint64_t)STAGES * STAGE_MS * WL_MS;

	wl_region_begin(me, t0);
	for (int s = 0; s < STAGES; s++) {
		uint64_t id = 1 + 2 * (uint64_t)s + (uint64_t)me;
		uint64_t t_next = t0 + (uint64_t)(s + 1) * STAGE_MS * WL_MS;
		int last = s == STAGES - 1;

		LC_TASK_BEGIN(id);
		wl_busy_until(t_next);
		if (s % 2 == me) {			/* this subtree has it */
			LC_TASK_END(id);
			if (last)
				LC_SOLUTION_FOUND();
			__atomic_store_n(&stage_won, s + 1, __ATOMIC_RELEASE);
			continue;
		}
		/* The other member's subtree won: this one was fruitless.  The
		 * loser's last task was dispatched long before and runs on. */
		while (__atomic_load_n(&stage_won, __ATOMIC_ACQUIRE) <= s)
			wl_sleep_until(wl_now() + 50000);
		if (last)
			wl_busy_until(t_found + BRAKE_MS * WL_MS);
		LC_TASK_END(id);
		LC_TASK_WASTED(id);
	}
	/* The winner's own dispatched work also runs to completion. */
	wl_busy_until(t_found + BRAKE_MS * WL_MS);
	wl_region_end(me);
}
