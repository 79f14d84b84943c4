/*
 * wl_args.h — a workload's numeric arguments: one parser for the programs
 * that do not use wl.h's main.
 */
#ifndef WL_ARGS_H
#define WL_ARGS_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* A number in 1..max from s, or def when s is NULL; prog's message and
 * exit status 2 on anything else. */
static inline unsigned long wl_arg_num(const char *prog, const char *s, unsigned long def,
				       unsigned long max)
{
	char *end;
	unsigned long v;

	if (!s)
		return def;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v == 0 || v > max) {
		fprintf(stderr, "%s: bad number '%s' (1..%lu)\n", prog, s, max);
		exit(2);
	}
	return v;
}

#endif
