/*
 * rng.h — a small seeded random number generator (xorshift64*) for tests
 * that generate data: the same seed gives the same numbers everywhere.
 */
#ifndef LC_TEST_RNG_H
#define LC_TEST_RNG_H

#include <stdint.h>

static uint64_t rng_state;

/* Start the sequence of seed s. */
static inline void rng_seed(uint64_t s)
{
	rng_state = s * 0x9E3779B97F4A7C15ull + 1;
}

/* The next number, uniform in [0, 1). */
static inline double rng_uniform(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (double)((rng_state * 2685821657736338717ull) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
