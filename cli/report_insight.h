/*
 * report_insight.h — the insight options of "lostcycles report": --advise,
 * --pop, --timeline --format perfetto, --html and --plot: their checks
 * against the other options, and the calls into postproc (insight.c,
 * pop.c, perfetto.c, report_plot.c) with their messages.  cmd_report.c's
 * option table fills struct lc_insight.
 */
#ifndef LC_REPORT_INSIGHT_H
#define LC_REPORT_INSIGHT_H

#include "report.h"

struct lc_tagnames;

#define LC_INSIGHT_MAXAT 16

/* The insight options given. */
struct lc_insight {
	int advise;		/* --advise */
	int pop;		/* --pop */
	int perfetto;		/* --format perfetto */
	const char *rules;	/* --rules FILE */
	const char *model;	/* --model FILE */
	const char *html;	/* --html OUT.html */
	const char *plot;	/* --plot OUT.png */
	int force;		/* --force: replace existing output files */
	int nat;		/* --at NAME=VALUE ... */
	const char *at_names[LC_INSIGHT_MAXAT];
	double at_vals[LC_INSIGHT_MAXAT];
};

/* Check the insight options against the others.  Returns -1 to go on, or 2
 * after a usage message. */
int lc_insight_check(const struct lc_insight *in, const struct lc_report_opts *o);

/* Whether an insight output was asked for. */
int lc_insight_wanted(const struct lc_insight *in);

/* --pop on a runs file rather than a profile: returns the exit status when
 * o->file is not a profile (it was read as runs), or -1 when it is one. */
int lc_insight_runs(const struct lc_insight *in, const struct lc_report_opts *o);

/* Write what in asks for from profile pr (tn names its tags, may be NULL).
 * Returns the exit status. */
int lc_insight_run(const struct lc_insight *in, const struct lc_profile *pr,
		   const struct lc_report_opts *o, const struct lc_tagnames *tn);

#endif
