/*
 * fuzz.h — what the libFuzzer targets share: the input as a NUL-terminated
 * string (the text parsers take strings).
 */
#ifndef LC_FUZZ_H
#define LC_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A NUL-terminated copy of data[0..n) (NULL when out of memory). */
static inline char *fuzz_text(const uint8_t *data, size_t n)
{
	char *s = malloc(n + 1);

	if (s) {
		memcpy(s, data, n);
		s[n] = '\0';
	}
	return s;
}

#endif
