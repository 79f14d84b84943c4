/*
 * html.h — "report --html": one self-contained page (no script, no font,
 * no request leaves the file): the category table with shares, a stacked
 * bar per thread and the timeline as inline SVG, the advice, and with a
 * model the predicted run time and categories over p.
 */
#ifndef LC_HTML_H
#define LC_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "lc_profile.h"

struct lc_model;

/* A fitted model to draw: T(p) and each category's C(p)/p over p, with
 * the profile's wall time at its p marked.  at gives the model's other
 * variables. */
struct lc_html_model {
	const struct lc_model *model;
	const char *name;
	int nat;
	const char *const *at_names;
	const double *at_vals;
};

/* Write the page for source src of pr to out.  name is the profile's name
 * for the title; advice is the text of "report --advise" (NULL: none); hm
 * a model to draw (NULL: none).  Returns 0, or 1 with the reason in msg
 * (no data for the source). */
int lc_html_write(FILE *out, const struct lc_profile *pr, enum lc_source src, const char *name,
		  const char *advice, const struct lc_html_model *hm, char *msg, size_t len);

#endif
