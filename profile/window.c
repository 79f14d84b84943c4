/*
 * window.c — the timeline's window schedule (docs/format.md, "Window
 * schedule"): with growth 0 every window is base long; with growth B (even,
 * at least 2) windows 0..B-1 are base long, and from then on each level k
 * (k = 1, 2, ...) holds B/2 windows of base * 2^k, starting at B * base *
 * 2^(k-1).  So a run of length T holds about B + B/2 * log2(T / (B * base))
 * windows: the file and the reader's memory grow with the logarithm of the
 * run's length, not with the length.  The length stops doubling at
 * LC_WINDOW_MAX_NS.
 */
#include "lc_profile.h"

/* Level k's first window index and start time, for k >= 1, or 0 when the
 * level lies beyond what the types hold. */
static int level(uint64_t base, uint32_t grow, uint32_t k, uint64_t *first, uint64_t *start)
{
	uint64_t half = grow / 2;

	if (k > 62 || base > (UINT64_MAX >> k) / grow)
		return 0;
	*first = grow + (uint64_t)(k - 1) * half;
	*start = (uint64_t)grow * (base << (k - 1));
	return *first <= UINT32_MAX;
}

/* The last level whose windows are at most LC_WINDOW_MAX_NS long (>= 1). */
static uint32_t top_level(uint64_t base)
{
	uint32_t k = 1;

	while (k < 62 && (base << (k + 1)) <= LC_WINDOW_MAX_NS && (base << (k + 1)) >> (k + 1) == base)
		k++;
	return k;
}

void lc_window_span(uint64_t base, uint32_t grow, uint32_t i, uint64_t *start, uint64_t *len)
{
	uint64_t first, st, half = grow / 2, k, top;

	if (!base)
		base = 1;
	if (grow < 2 || i < grow) {
		*start = (uint64_t)i * base;
		*len = base;
		return;
	}
	top = top_level(base);
	k = 1 + (i - grow) / half;
	if (k > top)
		k = top;
	if (!level(base, grow, (uint32_t)k, &first, &st)) {
		*start = UINT64_MAX;
		*len = 0;
		return;
	}
	*len = base << k;
	if (i - first > (UINT64_MAX - st) / *len) {
		*start = UINT64_MAX;
		return;
	}
	*start = st + (i - first) * *len;
}

uint32_t lc_window_at(uint64_t base, uint32_t grow, uint64_t t)
{
	uint64_t first, st, k, top, i;

	if (!base)
		base = 1;
	if (grow < 2 || t / base < grow)
		return t / base > UINT32_MAX ? UINT32_MAX : (uint32_t)(t / base);
	top = top_level(base);
	for (k = 1; k < top; k++)
		if (!level(base, grow, (uint32_t)k + 1, &first, &st) || t < st)
			break;
	if (!level(base, grow, (uint32_t)k, &first, &st))
		return UINT32_MAX;
	i = first + (t - st) / (base << k);
	return i > UINT32_MAX ? UINT32_MAX : (uint32_t)i;
}
