/*
 * names.h — a variable-name resolver for formula tests: ctx is a
 * NULL-terminated array of names; returns the index of name[0..len) or -1.
 */
#ifndef LC_TEST_NAMES_H
#define LC_TEST_NAMES_H

#include <string.h>

static inline int resolve(void *ctx, const char *name, size_t len)
{
	const char *const *names = ctx;

	for (int i = 0; names[i]; i++)
		if (strlen(names[i]) == len && !strncmp(names[i], name, len))
			return i;
	return -1;
}

#endif
