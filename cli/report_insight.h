/*
 * report_insight.h — the insight options of "lostcycles report": --advise,
 * --pop, --timeline --format perfetto, --html and --plot.  cmd_report.c
 * hands them the options it does not know and, once the profile is read,
 * the run.
 */
#ifndef LC_REPORT_INSIGHT_H
#define LC_REPORT_INSIGHT_H

#include <getopt.h>

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
	char at_buf[512];
};

/* getopt_long codes of the insight options. */
enum {
	LC_INS_ADVISE = 0x1100, LC_INS_POP, LC_INS_RULES, LC_INS_MODEL, LC_INS_AT,
	LC_INS_HTML, LC_INS_PLOT, LC_INS_FORCE,
};

/* The rows of long_opts for them. */
#define LC_INSIGHT_LONG_OPTS \
	{ "advise", no_argument, NULL, LC_INS_ADVISE }, \
	{ "pop", no_argument, NULL, LC_INS_POP }, \
	{ "rules", required_argument, NULL, LC_INS_RULES }, \
	{ "model", required_argument, NULL, LC_INS_MODEL }, \
	{ "at", required_argument, NULL, LC_INS_AT }, \
	{ "html", required_argument, NULL, LC_INS_HTML }, \
	{ "plot", required_argument, NULL, LC_INS_PLOT }, \
	{ "force", no_argument, NULL, LC_INS_FORCE }

/* Take option c (with arg) when it is an insight option, or "--format
 * perfetto".  Returns -2 when it is not one, -1 when taken, 2 after a usage
 * message. */
int lc_insight_opt(struct lc_insight *in, int c, const char *arg);

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
