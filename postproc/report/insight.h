/*
 * insight.h — the insight outputs of "lostcycles report" that assemble
 * several modules: the advice with its rules file and an optional model
 * (advise.c), the HTML page with that advice and model (html.c), POP over
 * a runs file (pop.c).  Each returns 0 or -errno with the reason (lc_fail);
 * what does not stop the output (the page without its advice) goes to the
 * note callback.  The outputs print to the stream they are given.
 */
#ifndef LC_INSIGHT_LIB_H
#define LC_INSIGHT_LIB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lc_profile.h"

/* What the advice and the page are made from. */
struct lc_insight_req {
	const char *file;		/* the profile's name, for reasons */
	enum lc_source source;
	const char *rules;		/* the rules file; NULL: share/advice.txt */
	const char *model;		/* a model file (fit --emit), or NULL */
	int nat;			/* --at NAME=VALUE pairs for the model */
	const char *const *at_names;
	const double *at_vals;
	/* Names for fragment tags, or NULL (as in lc_report_opts). */
	const char *(*tag_name)(const void *tag_arg, int64_t tag);
	const void *tag_arg;
	void (*note)(void *arg, const char *text);	/* NULL: dropped */
	void *note_arg;
};

/* --advise: the evidence and fixes of the rules for pr, ranked by the
 * model's predicted gain when a model is given, to out. */
int lc_insight_advise(FILE *out, const struct lc_profile *pr, const struct lc_insight_req *rq,
		      char *msg, size_t len);

/* --html: the self-contained page of pr, with the advice when the rules
 * can be read and the model when it can, written to path (an existing file
 * only with force). */
int lc_insight_html(const char *path, int force, const struct lc_profile *pr,
		    const struct lc_insight_req *rq, char *msg, size_t len);

/* Whether path starts with the profile magic (a file that cannot be read
 * counts as a profile: the profile reader then says why). */
int lc_insight_is_profile(const char *path);

/* --pop of the runs file at path (text, or CSV with csv) to out. */
int lc_insight_pop_runs(FILE *out, const char *path, int csv, char *msg, size_t len);

#endif /* LC_INSIGHT_LIB_H */
