/*
 * report_insight.c — the insight options of "lostcycles report" (see
 * report_insight.h): parsing them, and calling advise, pop and perfetto.
 */
#include "report_insight.h"

#include <err.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "html.h"
#include "lca_model.h"
#include "lca_runs.h"
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

int lc_insight_check(const struct lc_insight *in, const struct lc_report_opts *o)
{
	int modes = in->advise + in->pop + in->perfetto + !!in->html + !!in->plot;

	if ((in->rules || in->model || in->nat) && !in->advise && !in->html)
		return usage("--rules, --model and --at go with --advise or --html");
	if (in->perfetto && !o->timeline)
		return usage("--format perfetto writes the timeline: give --timeline");
	if (!modes)
		return -1;
	if (modes > 1)
		return usage("--advise, --pop, --format perfetto, --html and --plot are separate "
			     "reports: give one");
	if (o->lline || o->have_tag || o->per_thread || o->per_rank || o->counters ||
	    (o->timeline && !in->perfetto))
		return usage("--advise, --pop, --format perfetto, --html and --plot take no other "
			     "report option but -f and --source");
	if ((in->advise || in->html || in->plot) && o->format_set)
		return usage("--advise, --html and --plot take no --format");
	if (in->pop && o->format_set && o->fmt != LC_REPORT_TEXT && o->fmt != LC_REPORT_CSV)
		return usage("--pop prints text or csv");
	return -1;
}

/* Whether path starts with the profile magic (a file that cannot be read
 * counts as a profile: the profile reader then says why). */
static int is_profile(const char *path)
{
	char b[8] = { 0 };
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return 1;
	n = fread(b, 1, sizeof(b), f);
	fclose(f);
	return n == sizeof(b) && !memcmp(b, "LCPROF01", 8);
}

int lc_insight_runs(const struct lc_insight *in, const struct lc_report_opts *o)
{
	struct lc_runs *r = NULL;
	struct lc_runs_error e = { 0 };
	char msg[256];
	int rc;

	if (!in->pop || is_profile(o->file))
		return -1;
	rc = lc_runs_read(o->file, &r, &e);
	if (rc) {
		if (e.line)
			warnx("%s:%d: %s", o->file, e.line, e.msg);
		else
			warnx("%s: neither a profile nor a runs file: %s", o->file,
			      e.msg[0] ? e.msg : strerror(-rc));
		return 1;
	}
	rc = lc_pop_runs_print(stdout, r, o->fmt == LC_REPORT_CSV, msg, sizeof(msg));
	if (rc)
		warnx("%s: %s", o->file, msg);
	lc_runs_free(r);
	return rc;
}

/* --advise: load the rules and the model, then advise to out. */
static int advise(FILE *out, const struct lc_insight *in, const struct lc_profile *pr,
		  const struct lc_report_opts *o, const struct lc_tagnames *tn)
{
	struct lc_advise_opts ao = { .source = o->source, .tag_name = tn ? lc_tagnames_get : NULL,
				     .tag_arg = tn, .model_name = in->model, .nat = in->nat,
				     .at_names = in->at_names, .at_vals = in->at_vals };
	struct lc_rules *rules = NULL;
	struct lc_model *m = NULL;
	char path[4096], msg[512];
	int line = 0, rc = 1;

	if (in->rules)
		snprintf(path, sizeof(path), "%s", in->rules);
	else if (lc_rules_path(path, sizeof(path))) {
		warnx("cannot find advice.txt (set LOSTCYCLES_ADVICE or use --rules)");
		return 1;
	}
	if (lc_rules_load(path, &rules, msg, sizeof(msg))) {
		warnx("%s: %s", path, msg);
		return 1;
	}
	if (in->model && lc_model_read(in->model, &m, &line, msg, sizeof(msg))) {
		warnx("%s:%d: %s", in->model, line, msg);
		goto out;
	}
	ao.rules_name = path;
	ao.model = m;
	rc = lc_advise_print(out, pr, rules, &ao, msg, sizeof(msg));
	if (rc)
		warnx("%s: %s", o->file, msg);
out:
	lc_model_free(m);
	lc_rules_free(rules);
	return rc;
}

/* --html: the page, with the advice when the rules can be read. */
static int html(const struct lc_insight *in, const struct lc_profile *pr,
		const struct lc_report_opts *o, const struct lc_tagnames *tn)
{
	struct lc_html_model hm = { .name = in->model, .nat = in->nat, .at_names = in->at_names,
				    .at_vals = in->at_vals };
	struct lc_model *m = NULL;
	char *advice = NULL, msg[512];
	size_t n = 0;
	FILE *mem = open_memstream(&advice, &n), *out;
	int rc, line = 0;

	if (!mem) {
		warnx("out of memory");
		return 1;
	}
	rc = advise(mem, in, pr, o, tn);
	fclose(mem);
	if (rc)
		warnx("the page goes without the advice");
	if (in->model && lc_model_read(in->model, &m, &line, msg, sizeof(msg)))
		warnx("%s:%d: %s: the page goes without the model", in->model, line, msg);
	hm.model = m;
	out = lc_out_open(in->html, in->force ? LC_OUT_FORCE : LC_OUT_KEEP, msg, sizeof(msg));
	if (!out) {
		warnx("%s", msg);
		lc_model_free(m);
		free(advice);
		return 1;
	}
	rc = lc_html_write(out, pr, o->source, o->file, rc ? NULL : advice, &hm, msg, sizeof(msg));
	lc_model_free(m);
	if (rc)
		warnx("%s: %s", o->file, msg);
	if (fclose(out) && !rc) {
		warn("%s", in->html);
		rc = 1;
	}
	free(advice);
	return rc;
}

int lc_insight_run(const struct lc_insight *in, const struct lc_profile *pr,
		   const struct lc_report_opts *o, const struct lc_tagnames *tn)
{
	char msg[512];
	int rc = 0;

	if (in->advise)
		return advise(stdout, in, pr, o, tn);
	if (in->html)
		return html(in, pr, o, tn);
	if (in->plot) {
		rc = lc_report_plot(pr, o->source, in->plot, in->force ? LC_OUT_FORCE : LC_OUT_KEEP,
				    msg, sizeof(msg));
		if (rc == -ENOENT)
			warnx("gnuplot is not installed: wrote the data and the script, no PNG");
		else if (rc)
			warnx("%s: %s", o->file, msg);
		return rc ? 1 : 0;
	}
	if (in->pop)
		rc = lc_pop_print(stdout, pr, o->source, o->fmt == LC_REPORT_CSV, msg, sizeof(msg));
	else if (in->perfetto)
		rc = lc_perfetto_write(stdout, pr, o->source, tn ? lc_tagnames_get : NULL, tn, msg,
				       sizeof(msg));
	if (rc)
		warnx("%s: %s", o->file, msg);
	return rc;
}
