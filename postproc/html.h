/*
 * html.h — "report --html": one self-contained page (no script, no font,
 * no request leaves the file): the category table with shares, a stacked
 * bar per thread and the timeline as inline SVG, and the advice.
 */
#ifndef LC_HTML_H
#define LC_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "lc_profile.h"

/* Write the page for source src of pr to out.  name is the profile's name
 * for the title; advice is the text of "report --advise" (NULL: none).
 * Returns 0, or 1 with the reason in msg (no data for the source). */
int lc_html_write(FILE *out, const struct lc_profile *pr, enum lc_source src, const char *name,
		  const char *advice, char *msg, size_t len);

#endif
