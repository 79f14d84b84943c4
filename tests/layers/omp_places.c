/*
 * omp_places — an unmodified OpenMP program with two worksharing loops in
 * two functions, for the places the OpenMP tool records
 * (tests/test_places_run.c): balanced_loop() gives every thread the same
 * work, skewed_loop() gives thread 0's iterations 3 ms and the others' 1 ms
 * (schedule(static)), so the others wait at that loop's implicit barrier.
 * 2 threads, 30 rounds of both.  Work is a sleep (layer_wl.h).  Prints
 * what the threads measured of their own waits at each loop's barrier,
 * summed:
 *   skew_wait=SECONDS balanced_wait=SECONDS
 */
#define LW_NAME "omp_places"
#include <omp.h>
#include "layer_wl.h"

#define ROUNDS 30
#define NITER 4

static double skew_wait, balanced_wait;

static __attribute__((noinline)) void balanced_loop(void)
{
	unsigned long long last = now();

#pragma omp for schedule(static)
	for (int i = 0; i < NITER; i++) {
		work(1);
		last = now();
	}
#pragma omp atomic
	balanced_wait += (double)(now() - last) / 1e9;
}

static __attribute__((noinline)) void skewed_loop(void)
{
	unsigned long long last = now();

#pragma omp for schedule(static)
	for (int i = 0; i < NITER; i++) {
		work(i < NITER / 2 ? 3 : 1);
		last = now();
	}
	/* after the loop's implicit barrier */
#pragma omp atomic
	skew_wait += (double)(now() - last) / 1e9;
}

int main(void)
{
	omp_set_num_threads(2);
#pragma omp parallel
	for (int r = 0; r < ROUNDS; r++) {
		balanced_loop();
		skewed_loop();
	}
	printf("skew_wait=%.6f balanced_wait=%.6f\n", skew_wait, balanced_wait);
	return 0;
}
