/*
 * tidy.h — small helpers the sampler's files share: freeing a set of
 * buffers at once, and three-way comparison for qsort orders.
 */
#ifndef LC_TIDY_H
#define LC_TIDY_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* free() each of the n pointers of p (NULL ones too). */
static inline void lc_free_each(void *const *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i]);
}

/* free() each pointer given: LC_FREE_ALL(a->x, a->y, a). */
#define LC_FREE_ALL(...)                                                                        \
	lc_free_each((void *const[]){ __VA_ARGS__ },                                           \
		     sizeof((void *const[]){ __VA_ARGS__ }) / sizeof(void *))

/* -1, 0 or 1 as a is below, equal to or above b. */
static inline int lc_cmp_u64(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

#endif /* LC_TIDY_H */
