/*
 * omp_macros — an OpenMP program that also uses the flag macros, for the
 * precedence test of the OMPT layer: the program's macros win.
 *
 * One parallel region of ROUNDS rounds of uneven work before an explicit
 * barrier; the slow thread alternates, so each thread waits in every other
 * round.  The program
 *   - declares LC_TEAM(3) (the layer would say 2),
 *   - brackets only the first half of the rounds with LC_PARALLEL_BEGIN/END
 *     (the layer would say: the whole region),
 *   - marks thread 0 LC_BUSY() at the start of the region and never again,
 *     so that its barrier waits stay BUSY (the layer would say SYNC);
 *     thread 1 uses no macro: its waits are the layer's.
 * Expected: p = 3, SL = thread 1's barrier waits of the first half; its
 * waits of the second half are IP (no work), thread 0's are computation.
 * Prints "truth p=3 sl=... own=... late=... wall=..." (seconds): own is
 * thread 0's waits, late thread 1's waits of the second half.
 */
#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <time.h>

#include "lostcycles.h"
#include "layer_wl.h"

#define ROUNDS 40

int main(void)
{
	double waits[2][2] = { { 0, 0 }, { 0, 0 } };	/* [thread][half] */
	unsigned long long t0 = now();

	LC_TEAM(3);
	omp_set_num_threads(2);
#pragma omp parallel
	{
		int me = omp_get_thread_num();

		if (me == 0)
			LC_BUSY();
		for (int r = 0; r < ROUNDS && me < 2; r++) {
			int half = r >= ROUNDS / 2;
			unsigned long long t;

			if (me == 0 && r == 0)
				LC_PARALLEL_BEGIN();
			work(me == r % 2 ? 12 : 4);
			t = now();
#pragma omp barrier
			waits[me][half] += (double)(now() - t) / 1e9;
			if (me == 0 && r == ROUNDS / 2 - 1)
				LC_PARALLEL_END();
		}
	}
	printf("truth p=3 sl=%.6f own=%.6f late=%.6f wall=%.6f\n", waits[1][0],
	       waits[0][0] + waits[0][1], waits[1][1], (double)(now() - t0) / 1e9);
	return 0;
}
