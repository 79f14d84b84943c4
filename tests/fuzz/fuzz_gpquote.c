/* fuzz_gpquote — the gnuplot string literal writer (gp_quote.c): for any
 * input the literal is one single-quoted string that gnuplot reads back as
 * the input with control characters replaced: it starts and ends with a
 * quote, every quote inside is doubled, no byte in it is a control
 * character, and the buffer and stream writers agree.  A violation
 * aborts. */
#include "gp_quote.h"

#include "fuzz.h"

/* Check that lit[0..n) is the literal of s; abort otherwise. */
static void check_literal(const char *lit, size_t n, const char *s)
{
	size_t i = 1;

	if (n < 2 || lit[0] != '\'' || lit[n - 1] != '\'')
		abort();
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		unsigned char want = *p < 0x20 || *p == 0x7f ? '?' : *p;

		if (i >= n - 1 || (unsigned char)lit[i] != want)
			abort();
		if (want == '\'' && (i + 1 >= n - 1 || lit[++i] != '\''))
			abort();
		i++;
	}
	if (i != n - 1)
		abort();
	for (i = 0; i < n; i++)
		if ((unsigned char)lit[i] < 0x20 || lit[i] == 0x7f)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	char *s = fuzz_text(data, n), *buf, *mem = NULL;
	size_t need, len, memlen = 0;
	FILE *f;

	if (!s)
		return 0;
	need = lc_gp_quote(NULL, 0, s);
	len = n ? data[0] % (need + 2) : 0;	/* also too small, to the byte */
	buf = malloc(need + 2);
	if (buf && lc_gp_quote(buf, len, s) != need)
		abort();
	if (buf && len > need && (strlen(buf) != need || (check_literal(buf, need, s), 0)))
		abort();
	if (buf && len && len <= need && strcmp(buf, len >= 3 ? "''" : ""))
		abort();
	f = open_memstream(&mem, &memlen);
	if (f && !lc_gp_fputs(f, s) && !fclose(f)) {
		check_literal(mem, memlen, s);
		if (buf && lc_gp_quote(buf, need + 1, s) == need && memcmp(buf, mem, need + 1))
			abort();
	} else if (f) {
		fclose(f);
	}
	free(mem);
	free(buf);
	free(s);
	return 0;
}
