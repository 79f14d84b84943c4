/* fuzz_gpquote — the gnuplot string writer of the plot scripts
 * (lc_emit_gnuplot_str in util/lc_emit.c, and lc_plotout_str in
 * postproc/lca/plotout.c, which formats first): for any
 * input the output is one single-quoted gnuplot string, which gnuplot
 * expands in no way (no back-quotes, macros or escapes inside): it starts
 * and ends with a quote, every quote inside is doubled, no byte in it is a
 * control character; read back as gnuplot reads it, it is the input where
 * the input is printable ASCII; and the formatting variant writes the same.
 * A violation aborts. */
#include <stdio.h>

#include "lc_emit.h"
#include "plotout.h"

#include "fuzz.h"

/* The string written for s, in a malloc'ed buffer of *n bytes. */
static char *quoted(const char *s, int fmt, size_t *n)
{
	char *m = NULL;
	FILE *f = open_memstream(&m, n);

	if (!f)
		return NULL;
	if (fmt)
		lc_plotout_str(f, "%s", s);
	else
		lc_emit_gnuplot_str(f, s);
	if (fclose(f)) {
		free(m);
		return NULL;
	}
	return m;
}

/* Check the string q[0..n) written for s; abort on a violation. */
static void check(const char *q, size_t n, const char *s)
{
	int ascii = 1;
	size_t k = 0;

	if (n < 2 || q[0] != '\'' || q[n - 1] != '\'')
		abort();
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		ascii &= *p >= 0x20 && *p < 0x7f;
	for (size_t i = 1; i < n - 1; i++, k++) {
		unsigned char c = (unsigned char)q[i];

		if (c < 0x20 || c == 0x7f)
			abort();
		if (c == '\'' && (i + 1 >= n - 1 || q[++i] != '\''))
			abort();	/* a lone quote would end the string */
		if (ascii && (unsigned char)s[k] != c)
			abort();
	}
	if (ascii && s[k])
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	char *s = fuzz_text(data, n), *a, *b;
	size_t na = 0, nb = 0;

	if (!s)
		return 0;
	a = quoted(s, 0, &na);
	b = n < 8000 ? quoted(s, 1, &nb) : NULL;	/* plotout formats into 8 kB */
	if (a)
		check(a, na, s);
	if (a && b && (na != nb || memcmp(a, b, na)))
		abort();
	free(a);
	free(b);
	free(s);
	return 0;
}
