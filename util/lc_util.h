/*
 * lc_util.h — small helpers shared by the subcommands: number and duration
 * parsing with full error checks, and monotonic time.
 */
#ifndef LC_UTIL_H
#define LC_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Parse a duration such as "100us", "2ms", "1.5s", "250ns" or "100" (no unit
 * means microseconds) into nanoseconds.  Returns 0 on success, -EINVAL when the
 * text is not a positive duration, -ERANGE when it does not fit. */
int lc_parse_duration(const char *s, uint64_t *ns);

/* Parse a whole unsigned decimal number in [min, max].  Returns 0 or -EINVAL
 * (not a number, trailing characters) or -ERANGE (outside [min, max]). */
int lc_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* Parse a whole floating-point number.  Returns 0 or -EINVAL/-ERANGE. */
int lc_parse_double(const char *s, double *out);

/* Grow the array *p of *cap elements of size sz to hold at least need
 * elements (doubling, zero-filling the new ones).  0, or -ENOMEM with *p
 * and *cap unchanged. */
int lc_grow(void **p, uint32_t *cap, uint32_t need, size_t sz);

/* Format a one-line reason into msg[len] and return err (a -errno), for
 * library functions that explain their refusals. */
int lc_fail(char *msg, size_t len, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t lc_now_ns(void);

#endif
