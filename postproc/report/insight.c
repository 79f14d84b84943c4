/*
 * insight.c — the advice, the page and POP of a runs file for "lostcycles
 * report" (see insight.h).
 */
#include "insight.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "html.h"
#include "lc_util.h"
#include "lca_model.h"
#include "lca_runs.h"
#include "pop.h"

/* Read the rules file of rq into *rules; its path into path. */
static int load_rules(const struct lc_insight_req *rq, struct lc_rules **rules, char *path,
		      size_t plen, char *msg, size_t len)
{
	char why[512];
	int rc;

	if (rq->rules)
		snprintf(path, plen, "%s", rq->rules);
	else if (lc_rules_path(path, plen))
		return lc_fail(msg, len, -ENOENT, "cannot find advice.txt (set LOSTCYCLES_ADVICE "
			       "or use --rules)");
	if ((rc = lc_rules_load(path, rules, why, sizeof(why))))
		return lc_fail(msg, len, rc < 0 ? rc : -EINVAL, "%s: %s", path, why);
	return 0;
}

/* Read the model file of rq (none: *m NULL). */
static int load_model(const struct lc_insight_req *rq, struct lc_model **m, char *msg,
		      size_t len)
{
	char why[512];
	int line = 0, rc;

	*m = NULL;
	why[0] = '\0';
	if (!rq->model || !(rc = lc_model_read(rq->model, m, &line, why, sizeof(why))))
		return 0;
	if (!why[0])	/* the file could not be read: no line to name */
		return lc_fail(msg, len, rc, "%s: %s", rq->model, strerror(-rc));
	return lc_fail(msg, len, rc < 0 ? rc : -EINVAL, "%s:%d: %s", rq->model, line, why);
}

/* The advice options of rq with the rules' path and the model. */
static struct lc_advise_opts advise_opts(const struct lc_insight_req *rq, const char *path,
					 const struct lc_model *m)
{
	return (struct lc_advise_opts){ .source = rq->source, .rules_name = path,
					.tag_name = rq->tag_name, .tag_arg = rq->tag_arg,
					.model = m, .model_name = rq->model, .nat = rq->nat,
					.at_names = rq->at_names, .at_vals = rq->at_vals };
}

int lc_insight_advise(FILE *out, const struct lc_profile *pr, const struct lc_insight_req *rq,
		      char *msg, size_t len)
{
	struct lc_rules *rules = NULL;
	struct lc_model *m = NULL;
	struct lc_advise_opts ao;
	char path[4096], why[512];
	int rc;

	if ((rc = load_rules(rq, &rules, path, sizeof(path), msg, len)))
		return rc;
	if (!(rc = load_model(rq, &m, msg, len))) {
		ao = advise_opts(rq, path, m);
		if ((rc = lc_advise_print(out, pr, rules, &ao, why, sizeof(why))))
			rc = lc_fail(msg, len, rc < 0 ? rc : -EINVAL, "%s: %s", rq->file, why);
	}
	lc_model_free(m);
	lc_rules_free(rules);
	return rc;
}

/* The advice as text (free it), or NULL with notes saying why. */
static char *advice_text(const struct lc_profile *pr, const struct lc_insight_req *rq)
{
	char *advice = NULL, msg[1024];
	size_t n = 0;
	FILE *mem = open_memstream(&advice, &n);
	int rc;

	if (!mem) {
		lc_note(rq->note, rq->note_arg, "out of memory");
		return NULL;
	}
	rc = lc_insight_advise(mem, pr, rq, msg, sizeof(msg));
	fclose(mem);
	if (!rc)
		return advice;
	lc_note(rq->note, rq->note_arg, "%s", msg);
	lc_note(rq->note, rq->note_arg, "the page goes without the advice");
	free(advice);
	return NULL;
}

/* Write the page to out. */
static int write_page(FILE *out, const struct lc_profile *pr, const struct lc_insight_req *rq,
		      const char *advice, char *msg, size_t len)
{
	struct lc_html_model hm = { .name = rq->model, .nat = rq->nat, .at_names = rq->at_names,
				    .at_vals = rq->at_vals };
	struct lc_model *m = NULL;
	char why[512];
	int rc;

	if (load_model(rq, &m, why, sizeof(why)))
		lc_note(rq->note, rq->note_arg, "%s: the page goes without the model", why);
	hm.model = m;
	rc = lc_html_write(out, pr, rq->source, rq->file, advice, &hm, why, sizeof(why));
	lc_model_free(m);
	return rc ? lc_fail(msg, len, rc < 0 ? rc : -EINVAL, "%s: %s", rq->file, why) : 0;
}

int lc_insight_html(const char *path, int force, const struct lc_profile *pr,
		    const struct lc_insight_req *rq, char *msg, size_t len)
{
	char *advice = advice_text(pr, rq);
	FILE *out = lc_out_open(path, force ? LC_OUT_FORCE : LC_OUT_KEEP, msg, len);
	int rc;

	if (!out) {
		free(advice);
		return -EEXIST;
	}
	rc = write_page(out, pr, rq, advice, msg, len);
	if (fclose(out) && !rc)
		rc = lc_fail(msg, len, -errno, "%s: %s", path, strerror(errno));
	free(advice);
	return rc;
}

int lc_insight_is_profile(const char *path)
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

int lc_insight_pop_runs(FILE *out, const char *path, int csv, char *msg, size_t len)
{
	struct lc_runs *r = NULL;
	struct lc_runs_error e = { 0 };
	char why[256];
	int rc = lc_runs_read(path, &r, &e);

	if (rc && e.line)
		return lc_fail(msg, len, rc, "%s:%d: %s", path, e.line, e.msg);
	if (rc)
		return lc_fail(msg, len, rc, "%s: neither a profile nor a runs file: %s", path,
			       e.msg[0] ? e.msg : strerror(-rc));
	rc = lc_pop_runs_print(out, r, csv, why, sizeof(why));
	if (rc)
		rc = lc_fail(msg, len, rc < 0 ? rc : -EINVAL, "%s: %s", path, why);
	lc_runs_free(r);
	return rc;
}
