/*
 * gp_quote.h — strings written into a gnuplot script as literals that
 * gnuplot cannot expand.
 *
 * Every string a plot script takes from a profile, a runs file, a model or
 * the command line (titles, labels, file names) goes through these.  The
 * literal is single-quoted, where gnuplot performs no back-quote command
 * substitution, no macro (@) substitution and no backslash escapes; a
 * single quote inside is doubled (gnuplot's own escape); a control
 * character (a byte below 0x20, or 0x7f), which could end the command
 * line, becomes '?'.  So the literal ends where the writer ends it and
 * nothing in it reaches gnuplot's command language.
 */
#ifndef LC_GP_QUOTE_H
#define LC_GP_QUOTE_H

#include <stddef.h>
#include <stdio.h>

/* Write s (NULL: the empty string) to buf[len] as a single-quoted gnuplot
 * string literal, NUL-terminated.  Returns the literal's length without
 * the NUL (like snprintf); when that is len or more, nothing usable was
 * written: buf holds the empty literal "''" when len >= 3, else "". */
size_t lc_gp_quote(char *buf, size_t len, const char *s);
/* (buf may be NULL when len is 0: the length alone.) */

/* Write s (NULL: the empty string) to f as one gnuplot string literal.
 * Returns 0, or -EIO when the stream failed. */
int lc_gp_fputs(FILE *f, const char *s);

/* Format like printf, then write the result to f as one gnuplot string
 * literal.  Returns 0, -ENOMEM, or -EIO when the stream failed. */
int lc_gp_fprintf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
