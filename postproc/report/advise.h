/*
 * advise.h — "report --advise": the dominant lost cycles categories of a
 * profile, the evidence for each and the likely fix, from a table of rules
 * kept as data (share/advice.txt, user-editable; its header documents the
 * format).  Categories are ranked by the predicted gain of halving them
 * when a model is given, else by their share.
 *
 * Loading returns 0 or -errno with a reason; lc_advise_print prints the
 * advice to the stream it is given.
 */
#ifndef LC_ADVISE_H
#define LC_ADVISE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lc_profile.h"

struct lc_model;
struct lc_rules;

/* Find the rules file: $LOSTCYCLES_ADVICE, then <exe dir>/share/advice.txt,
 * <exe dir>/../share/lostcycles/advice.txt and LC_DATADIR/advice.txt.
 * Writes the path into buf.  Returns 0 or -ENOENT. */
int lc_rules_path(char *buf, size_t len);

/* Read the rules file at path.  Returns 0, -errno from reading, -EINVAL for
 * a malformed line (msg names the line and why), -ENOMEM. */
int lc_rules_load(const char *path, struct lc_rules **out, char *msg, size_t len);

/* The number of rules. */
int lc_rules_count(const struct lc_rules *r);

/* Free r; NULL is fine. */
void lc_rules_free(struct lc_rules *r);

/* What to advise on. */
struct lc_advise_opts {
	enum lc_source source;
	const char *rules_name;		/* the rules file, for the header */
	/* Names for fragment tags, or NULL (as in lc_report_opts). */
	const char *(*tag_name)(const void *tag_arg, int64_t tag);
	const void *tag_arg;
	/* A model to rank by predicted gain, or NULL to rank by share; the
	 * environment is p (the profile's unless at gives it) and at. */
	const struct lc_model *model;
	const char *model_name;
	int nat;
	const char *const *at_names;
	const double *at_vals;
};

/* Print the advice for pr to out.  Returns 0, or 1 with the reason in msg
 * (no data for the source, the model lacks a variable, out of memory). */
int lc_advise_print(FILE *out, const struct lc_profile *pr, const struct lc_rules *r,
		    const struct lc_advise_opts *o, char *msg, size_t len);

#endif
