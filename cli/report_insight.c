/*
 * report_insight.c — the insight options of "lostcycles report" (see
 * report_insight.h): their checks, the calls into postproc, the messages.
 */
#include "report_insight.h"

#include <err.h>
#include <errno.h>
#include <stdio.h>

#include "insight.h"
#include "perfetto.h"
#include "pop.h"
#include "report_plot.h"
#include "tagname.h"

/* A usage error: one line on stderr, status 2. */
static int usage(const char *what)
{
	warnx("%s (see 'lostcycles report --help')", what);
	return 2;
}

int lc_insight_wanted(const struct lc_insight *in)
{
	return in->advise || in->pop || in->perfetto || in->html || in->plot;
}

/* The options that take no other: what they refuse, or NULL. */
static const char *alone(const struct lc_insight *in, const struct lc_report_opts *o)
{
	if (o->lline || o->have_tag || o->per_thread || o->per_rank || o->counters ||
	    (o->timeline && !in->perfetto))
		return "--advise, --pop, --format perfetto, --html and --plot take no other "
		       "report option but -f and --source";
	if ((in->advise || in->html || in->plot) && o->format_set)
		return "--advise, --html and --plot take no --format";
	if (in->pop && o->format_set && o->fmt != LC_REPORT_TEXT && o->fmt != LC_REPORT_CSV)
		return "--pop prints text or csv";
	return NULL;
}

int lc_insight_check(const struct lc_insight *in, const struct lc_report_opts *o)
{
	int modes = in->advise + in->pop + in->perfetto + !!in->html + !!in->plot;
	const char *why;

	if ((in->rules || in->model || in->nat) && !in->advise && !in->html)
		return usage("--rules, --model and --at go with --advise or --html");
	if (in->perfetto && !o->timeline)
		return usage("--format perfetto writes the timeline: give --timeline");
	if (!modes)
		return -1;
	if (modes > 1)
		return usage("--advise, --pop, --format perfetto, --html and --plot are separate "
			     "reports: give one");
	return (why = alone(in, o)) ? usage(why) : -1;
}

int lc_insight_runs(const struct lc_insight *in, const struct lc_report_opts *o)
{
	char msg[1024];

	if (!in->pop || lc_insight_is_profile(o->file))
		return -1;
	if (!lc_insight_pop_runs(stdout, o->file, o->fmt == LC_REPORT_CSV, msg, sizeof(msg)))
		return 0;
	warnx("%s", msg);
	return 1;
}

/* A note of the page: one line on stderr. */
static void note(void *arg, const char *text)
{
	(void)arg;
	warnx("%s", text);
}

/* --advise or --html. */
static int advice(const struct lc_insight *in, const struct lc_profile *pr,
		  const struct lc_report_opts *o, const struct lc_tagnames *tn)
{
	struct lc_insight_req rq = { .file = o->file, .source = o->source, .rules = in->rules,
				     .model = in->model, .nat = in->nat, .at_names = in->at_names,
				     .at_vals = in->at_vals, .tag_name = tn ? lc_tagnames_get : NULL,
				     .tag_arg = tn, .note = note };
	char msg[1024];
	int rc = in->html ? lc_insight_html(in->html, in->force, pr, &rq, msg, sizeof(msg))
			  : lc_insight_advise(stdout, pr, &rq, msg, sizeof(msg));

	if (rc)
		warnx("%s", msg);
	return rc ? 1 : 0;
}

/* --plot: the PNG charts. */
static int plot(const struct lc_insight *in, const struct lc_profile *pr,
		const struct lc_report_opts *o)
{
	char msg[512];
	int rc = lc_report_plot(pr, o->source, in->plot, in->force ? LC_OUT_FORCE : LC_OUT_KEEP,
				msg, sizeof(msg));

	if (rc == -ENOENT)
		warnx("gnuplot is not installed: wrote the data and the script, no PNG");
	else if (rc)
		warnx("%s: %s", o->file, msg);
	return rc ? 1 : 0;
}

int lc_insight_run(const struct lc_insight *in, const struct lc_profile *pr,
		   const struct lc_report_opts *o, const struct lc_tagnames *tn)
{
	char msg[512];
	int rc = 0;

	if (in->advise || in->html)
		return advice(in, pr, o, tn);
	if (in->plot)
		return plot(in, pr, o);
	if (in->pop)
		rc = lc_pop_print(stdout, pr, o->source, o->fmt == LC_REPORT_CSV, msg, sizeof(msg));
	else if (in->perfetto)
		rc = lc_perfetto_write(stdout, pr, o->source, tn ? lc_tagnames_get : NULL, tn, msg,
				       sizeof(msg));
	if (rc)
		warnx("%s: %s", o->file, msg);
	return rc;
}
