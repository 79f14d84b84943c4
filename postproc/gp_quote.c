/*
 * gp_quote.c — gnuplot string literals that cannot run anything (see
 * gp_quote.h).
 */
#include "gp_quote.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>

/* The byte c as it may appear inside a single-quoted literal. */
static char safe_byte(unsigned char c)
{
	return c < 0x20 || c == 0x7f ? '?' : (char)c;
}

/* Quote s into buf[len].  See gp_quote.h. */
size_t lc_gp_quote(char *buf, size_t len, const char *s)
{
	size_t n = 0;

#define PUT(ch) do { if (n + 1 < len) buf[n] = (ch); n++; } while (0)
	PUT('\'');
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if (*p == '\'')
			PUT('\'');
		PUT(safe_byte(*p));
	}
	PUT('\'');
#undef PUT
	if (n < len)
		buf[n] = '\0';
	else if (len >= 3)
		buf[0] = buf[1] = '\'', buf[2] = '\0';
	else if (len)
		buf[0] = '\0';
	return n;
}

/* Write s as one literal.  See gp_quote.h. */
int lc_gp_fputs(FILE *f, const char *s)
{
	putc('\'', f);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if (*p == '\'')
			putc('\'', f);
		putc(safe_byte(*p), f);
	}
	putc('\'', f);
	return ferror(f) ? -EIO : 0;
}

/* Format, then write as one literal.  See gp_quote.h. */
int lc_gp_fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int n, rc;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	rc = lc_gp_fputs(f, s);
	free(s);
	return rc;
}
