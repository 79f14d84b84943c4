/*
 * lca_fitrun.c — one fit of "lostcycles fit" (see lca_fitrun.h): the runs,
 * the points, the candidates, their fits and their ranking.
 */
#include "lca_fitrun.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_profile.h"
#include "lc_util.h"
#include "lca_models.h"
#include "lca_runs.h"

/* The variable names as the formula printers want them. */
static const char *const *names_of(const struct lc_fitrun *fr)
{
	return (const char *const *)fr->vars;
}

/* A parse error of text (what it is) as the reason: the column, then the
 * text and a caret under the column on two more lines. */
static int parse_fail(char *msg, size_t len, const char *what, const char *text,
		      const struct lc_parse_error *pe)
{
	if (strlen(text) > 200)	/* no echo of a long text, nor a caret under it */
		return lc_fail(msg, len, -EINVAL, "%s '%.40s...' (%zu characters): column %d: %s",
			       what, text, strlen(text), pe->column, pe->msg);
	return lc_fail(msg, len, -EINVAL, "%s '%s': column %d: %s\n    %s\n    %*s^", what, text,
		       pe->column, pe->msg, text, pe->column - 1, "");
}

int lc_fitrun_cat(struct lc_fitrun *fr, char *msg, size_t len)
{
	char keys[64];

	fr->cat = lc_cat_info(lc_key_lookup(fr->o.cat));
	if (fr->cat)
		return 0;
	return lc_fail(msg, len, -ENOENT, "unknown category '%s' (known: %s)", fr->o.cat,
		       lc_key_list(keys, sizeof(keys)));
}

/* Split the -v list into fr->vars. */
static int split_vars(struct lc_fitrun *fr, char *msg, size_t len)
{
	const char *s = fr->o.varlist, *w;
	size_t n;

	while ((w = lc_next_word(&s, NULL, ",", &n))) {
		if (fr->nvars == LC_FITRUN_MAXVARS)
			return lc_fail(msg, len, -E2BIG, "at most %d variables", LC_FITRUN_MAXVARS);
		fr->vars[fr->nvars] = strndup(w, n);
		if (!fr->vars[fr->nvars])
			return lc_fail(msg, len, -ENOMEM, "out of memory");
		fr->nvars++;
	}
	if (!fr->nvars)
		return lc_fail(msg, len, -EINVAL, "-v names no variable");
	return 0;
}

/* Resolve a formula identifier: a -v variable's name or x<i>. */
static int resolve_var(void *ctx, const char *name, size_t len)
{
	const struct lc_fitrun *fr = ctx;
	char *end;
	long i;

	for (int v = 0; v < fr->nvars; v++)
		if (strlen(fr->vars[v]) == len && !strncmp(fr->vars[v], name, len))
			return v;
	if (len >= 2 && name[0] == 'x' && isdigit((unsigned char)name[1])) {
		i = strtol(name + 1, &end, 10);
		if (end == name + len && i < fr->nvars)
			return (int)i;
	}
	return -1;
}

/* Parse --upto "VAR=VALUE ..." into fr->upto (NaN for a variable not named). */
static int parse_upto(struct lc_fitrun *fr, char *msg, size_t len)
{
	const char *s = fr->o.upto, *w;
	size_t n;

	for (int v = 0; v < LC_FITRUN_MAXVARS; v++)
		fr->upto[v] = NAN;
	while (s && (w = lc_next_word(&s, NULL, ",", &n))) {
		const char *eq = memchr(w, '=', n);
		char num[64], *end;
		int v = eq ? resolve_var(fr, w, (size_t)(eq - w)) : -1;

		if (v < 0 || n - (size_t)(eq - w) - 1 >= sizeof(num))
			return lc_fail(msg, len, -EINVAL, "--upto wants VAR=VALUE with a -v variable, "
				       "not '%.*s'", (int)n, w);
		snprintf(num, sizeof(num), "%.*s", (int)(n - (size_t)(eq - w) - 1), eq + 1);
		fr->upto[v] = strtod(num, &end);
		if (end == num || *end || !isfinite(fr->upto[v]))
			return lc_fail(msg, len, -EINVAL, "--upto %s: '%s' is not a number",
				       fr->vars[v], num);
	}
	return 0;
}

/* Resolve an extraction identifier: any name in the runs file. */
static int resolve_key(void *ctx, const char *name, size_t len)
{
	return lc_runs_find_key(ctx, name, len);
}

/* -EINVAL with the place when some run has a negative value of the
 * category, else 0. */
static int negative_value(const struct lc_fitrun *fr, char *msg, size_t len)
{
	for (size_t i = 0; i < lc_runs_count(fr->runs); i++) {
		double v;

		if (lc_runs_get(fr->runs, i, fr->ykey, &v) != LC_CELL_VALUE || v >= 0)
			continue;
		return lc_fail(msg, len, -EINVAL, "%s:%d: %s=%g is negative: a time cannot be "
			       "(--allow-negative-values fits it anyway)", fr->o.runs,
			       lc_runs_line(fr->runs, i), fr->cat->key, v);
	}
	return 0;
}

/* Read the runs file. */
static int read_runs(struct lc_fitrun *fr, char *msg, size_t len)
{
	struct lc_runs_error re;
	int rc = fr->o.from ? lc_runs_select(fr->o.from, fr->o.region, &fr->runs) :
			      lc_runs_read(fr->o.runs, &fr->runs, &re);

	if (rc && fr->o.from)
		return lc_fail(msg, len, rc, "out of memory");
	if (rc)
		return lc_runs_fail(fr->o.runs, rc, &re, msg, len);
	if (lc_runs_count(fr->runs) == 0)
		return lc_fail(msg, len, -ENODATA, "%s: no runs: the file is empty or holds only "
			       "comments and blank lines", fr->o.runs);
	return 0;
}

/* Find the variables, the category and the extraction in the runs. */
static int find_keys(struct lc_fitrun *fr, char *msg, size_t len)
{
	struct lc_parse_error pe;

	for (int v = 0; v < fr->nvars; v++) {
		fr->varkey[v] = lc_runs_find_key(fr->runs, fr->vars[v], strlen(fr->vars[v]));
		if (fr->varkey[v] < 0)
			return lc_fail(msg, len, -ENOENT, "unknown variable '%s': no run in %s has it",
				       fr->vars[v], fr->o.runs);
	}
	fr->ykey = lc_runs_find_key(fr->runs, fr->cat->key, strlen(fr->cat->key));
	if (fr->ykey < 0)
		return lc_fail(msg, len, -ENOENT, "category '%s' does not appear in %s",
			       fr->cat->key, fr->o.runs);
	if (!fr->o.negvalues && negative_value(fr, msg, len))
		return -EINVAL;
	if (fr->o.extract &&
	    lc_expr_parse_cond(fr->o.extract, 0, resolve_key, fr->runs, &fr->cond, &pe))
		return parse_fail(msg, len, "extraction", fr->o.extract, &pe);
	return 0;
}

/* Why no point is left to fit. */
static int no_points(const struct lc_fitrun *fr, char *msg, size_t len)
{
	const struct lc_points *p = &fr->pts;
	char first[160] = "";

	if (p->na > 0 && p->missing == 0)
		return lc_fail(msg, len, -ENODATA, "%s is 'na' in all %zu selected runs of %s "
			       "(not measured on that machine); nothing to fit",
			       fr->cat->key, p->na, fr->o.runs);
	if (p->excluded && !p->na && !p->missing)
		return lc_fail(msg, len, -ENODATA, "-x '%s' selects none of the %zu runs in %s",
			       fr->o.extract, p->excluded, fr->o.runs);
	if (p->missing)
		snprintf(first, sizeof(first), " (first %s:%d: no value for %s)", fr->o.runs,
			 p->skip_line[0], lc_runs_keyname(fr->runs, p->skip_key[0]));
	return lc_fail(msg, len, -ENODATA, "no run in %s has %s and all of -v \"%s\" "
		       "(%zu with %s 'na', %zu lacking a value%s, %zu not selected)",
		       fr->o.runs, fr->cat->key, fr->o.varlist, p->na, fr->cat->key,
		       p->missing, first, p->excluded);
}

/* --no-load: the key taken off the category (rc off tt), -1 for none;
 * -EINVAL with the reason for rc itself or runs without rc. */
static int noload_less(const struct lc_fitrun *fr, int *less, char *msg, size_t len)
{
	*less = -1;
	if (!fr->o.noload)
		return 0;
	if (fr->cat->from == LC_FROM_SCHED)
		return lc_fail(msg, len, -EINVAL, "--no-load: rc is the time runnable but not running, "
			       "which other load adds; without other load predict with -w nocontention "
			       "(or fit rc without --no-load)");
	if (fr->cat->from != LC_FROM_SUM)
		return 0;
	*less = lc_runs_find_key(fr->runs, lc_cat_info(LC_CAT_RC)->key, 2);
	if (*less < 0)
		return lc_fail(msg, len, -ENOENT, "--no-load: no run in %s has rc (resource "
			       "contention) to take off tt", fr->o.runs);
	return 0;
}

/* Whether selected run i is in the fit's selection (the -x condition). */
static int selected(const struct lc_fitrun *fr, size_t i, double *vals)
{
	for (int k = 0; k < lc_runs_nkeys(fr->runs); k++)
		lc_runs_get(fr->runs, i, k, &vals[k]);
	return !fr->cond || (lc_expr_eval(fr->cond, vals) != 0 && !isnan(lc_expr_eval(fr->cond, vals)));
}

/* Note the runs measured under load (the "load" key) among the selected
 * ones with a value of the category. */
static int find_loaded(struct lc_fitrun *fr, char *msg, size_t len)
{
	double *vals = malloc(((size_t)lc_runs_nkeys(fr->runs) + 1) * sizeof(*vals)), v, y;

	if (!vals)
		return lc_fail(msg, len, -ENOMEM, "out of memory");
	fr->load_max = -1;
	for (size_t i = 0; fr->loadkey >= 0 && i < lc_runs_count(fr->runs); i++) {
		if (lc_runs_get(fr->runs, i, fr->ykey, &y) != LC_CELL_VALUE || !selected(fr, i, vals) ||
		    lc_runs_get(fr->runs, i, fr->loadkey, &v) != LC_CELL_VALUE)
			continue;
		fr->load_max = fmax(fr->load_max, v);
		if (v <= LC_FIT_LOADED_PCT)
			continue;
		if (fr->nloaded < LC_FIT_LOADED_SHOWN) {
			fr->loaded_line[fr->nloaded] = lc_runs_line(fr->runs, i);
			fr->loaded_pct[fr->nloaded] = v;
		}
		fr->nloaded++;
	}
	free(vals);
	return 0;
}

/* Note the runs without a load value that --max-load keeps (too short
 * for the machine's share to be measured: their load is unknown). */
static void note_unknown_load(struct lc_fitrun *fr)
{
	int n = 0, first = 0;

	for (size_t i = 0; i < lc_runs_count(fr->runs); i++)
		if (lc_runs_get(fr->runs, i, fr->loadkey, &(double){ 0 }) != LC_CELL_VALUE &&
		    !n++)
			first = lc_runs_line(fr->runs, i);
	if (n)
		lc_note(fr->note, fr->note_arg, "note: --max-load: %d run%s carr%s no %s= (%s:%d%s: "
			"a run too short for the machine's share to be measured); %s load is "
			"unknown, and %s kept", n, n == 1 ? "" : "s", n == 1 ? "ies" : "y",
			LC_FIT_LOAD_KEY, fr->o.runs, first, n > 1 ? " and more" : "",
			n == 1 ? "its" : "their", n == 1 ? "it is" : "they are");
}

/* --max-load: add "(load>PCT)==0" to the -x condition: a run above PCT
 * is left out, one whose load is unknown (no load= value) is kept, with a
 * note.  Some run must carry its load. */
static int max_load_cond(struct lc_fitrun *fr, char *msg, size_t len)
{
	char text[1024];
	struct lc_parse_error pe;

	if (!(fr->o.max_load > 0))
		return 0;
	if (fr->loadkey < 0)
		return lc_fail(msg, len, -ENOENT, "--max-load: no run in %s has %s= (the machine's "
			       "load share, as report -l writes it)", fr->o.runs, LC_FIT_LOAD_KEY);
	note_unknown_load(fr);
	snprintf(text, sizeof(text), "%s%s(" LC_FIT_LOAD_KEY ">%.17g)==0",
		 fr->o.extract ? fr->o.extract : "", fr->o.extract ? " " : "", fr->o.max_load);
	lc_expr_free(fr->cond);
	fr->cond = NULL;
	if (lc_expr_parse_cond(text, 0, resolve_key, fr->runs, &fr->cond, &pe))
		return parse_fail(msg, len, "extraction", text, &pe);
	return 0;
}

/* Build the points; fail with the reason when none are left. */
static int build_points(struct lc_fitrun *fr, char *msg, size_t len)
{
	int less, rc;

	fr->loadkey = lc_runs_find_key(fr->runs, LC_FIT_LOAD_KEY, strlen(LC_FIT_LOAD_KEY));
	if ((rc = noload_less(fr, &less, msg, len)) || (rc = max_load_cond(fr, msg, len)) ||
	    (rc = find_loaded(fr, msg, len)))
		return rc;
	if (lc_points_build_less(fr->runs, fr->varkey, fr->nvars, fr->ykey, less, fr->cond,
				 (fr->o.drop_outliers ? LC_POINTS_DROP_OUTLIERS : 0) |
				 (unsigned)fr->o.aggregate, &fr->pts))
		return lc_fail(msg, len, -ENOMEM, "out of memory");
	fr->allzero = fr->pts.n > 1;
	for (size_t i = 0; i < fr->pts.n; i++)
		fr->allzero &= fr->pts.lo[i] == 0 && fr->pts.hi[i] == 0;
	return fr->pts.n > 0 ? 0 : no_points(fr, msg, len);
}

/* The fit flags from the options. */
static unsigned fit_flags(const struct lc_fitrun *fr)
{
	return (fr->o.nonneg ? LC_FIT_NONNEG : 0) | (fr->o.weights ? LC_FIT_WEIGHTS : 0) |
	       (fr->o.absolute ? 0 : LC_FIT_RELATIVE) |
	       (fr->o.search && fr->nvars == 1 ? LC_FIT_RANK_AICC : 0);
}

/* Trim the blanks around text[0..n): moves *text, returns the length. */
static size_t trim(const char **text, size_t n)
{
	while (n && isspace((unsigned char)**text)) {
		(*text)++;
		n--;
	}
	while (n && isspace((unsigned char)(*text)[n - 1]))
		n--;
	return n;
}

/* Add a candidate with formula text (a copy is kept, trimmed). */
static int add_cand(struct lc_fitrun *fr, const char *text, size_t n, int user, char *msg,
		    size_t len)
{
	struct lc_fitcand *c;

	if (!(n = trim(&text, n)))
		return 0;
	if (fr->ncands == LC_FITRUN_MAXCANDS)
		return lc_fail(msg, len, -E2BIG, "more than %d models", LC_FITRUN_MAXCANDS);
	c = &fr->cands[fr->ncands];
	*c = (struct lc_fitcand){ .user = user };
	c->text = strndup(text, n);
	if (!c->text)
		return lc_fail(msg, len, -ENOMEM, "out of memory");
	fr->ncands++;
	return 0;
}

/* Add the formulae in one argument, split at top-level ',' and ';'. */
static int add_user_forms(struct lc_fitrun *fr, const char *s, char *msg, size_t len)
{
	int depth = 0;
	const char *start = s;

	for (;; s++) {
		if (*s == '(')
			depth++;
		else if (*s == ')')
			depth--;
		if (*s && !(depth <= 0 && (*s == ',' || *s == ';')))
			continue;
		if (add_cand(fr, start, (size_t)(s - start), 1, msg, len))
			return -EINVAL;
		if (!*s)
			return 0;
		start = s + 1;
	}
}

/* Add each of the n strings of v as a candidate that is not the user's. */
static int add_strv(struct lc_fitrun *fr, char **v, int n, char *msg, size_t len)
{
	int rc = 0;

	for (int i = 0; i < n && !rc; i++)
		rc = add_cand(fr, v[i], strlen(v[i]), 0, msg, len);
	lc_strv_free(v, n);
	return rc;
}

/* The file of default forms: --models, else models.txt. */
static int models_file(const struct lc_fitrun *fr, char *path, size_t plen, char *msg,
		       size_t len)
{
	if (fr->o.models)
		snprintf(path, plen, "%s", fr->o.models);
	else if (lc_models_path(path, plen))
		return lc_fail(msg, len, -ENOENT, "cannot find models.txt "
			       "(set LOSTCYCLES_MODELS or use --models)");
	return 0;
}

/* Add the default forms for the category and variables. */
static int add_defaults(struct lc_fitrun *fr, char *msg, size_t len)
{
	char path[4096], **forms;
	int n, line, rc;

	if ((rc = models_file(fr, path, sizeof(path), msg, len)))
		return rc;
	rc = lc_models_load(path, fr->cat->key, names_of(fr), fr->nvars, &forms, &n, &line);
	if (rc == -EINVAL)
		return lc_fail(msg, len, rc, "%s:%d: expected 'CATEGORY VARIABLE... : FORMULA'",
			       path, line);
	if (rc)
		return lc_fail(msg, len, rc, "%s: %s", path, strerror(-rc));
	if ((rc = add_strv(fr, forms, n, msg, len)))
		return rc;
	if (n == 0 && fr->ncands == 0)
		return lc_fail(msg, len, -ENOENT, "no default models for %s over \"%s\" in %s; "
			       "give formulae or use --search", fr->cat->key, fr->o.varlist, path);
	return 0;
}

int lc_fitrun_negative_ok(const struct lc_fitrun *fr)
{
	return fr->o.negative || fr->cat->computation;
}

/* Add the --search hypotheses. */
static int add_search(struct lc_fitrun *fr, char *msg, size_t len)
{
	char **h;
	int n, rc = lc_search_hypotheses(names_of(fr), fr->nvars, &fr->pts,
					 lc_fitrun_negative_ok(fr) ? LC_SEARCH_NEGATIVE : 0,
					 fit_flags(fr), &h, &n, &fr->search);

	if (rc == -E2BIG)
		return lc_fail(msg, len, rc, "--search handles one to three variables");
	if (rc == -EDOM)
		return lc_fail(msg, len, rc, "--search: no form is defined at every point (%s)",
			       fr->search.undefined_at);
	if (rc)
		return lc_fail(msg, len, rc, "out of memory");
	fr->hyp = h;	/* fitted one at a time (fit_hypotheses) */
	fr->nhyp = n;
	return 0;
}

/* Collect every candidate: the user's formulae, then defaults or search. */
static int collect(struct lc_fitrun *fr, char *msg, size_t len)
{
	fr->cands = calloc(LC_FITRUN_MAXCANDS, sizeof(*fr->cands));
	if (!fr->cands)
		return lc_fail(msg, len, -ENOMEM, "out of memory");
	if (fr->allzero)	/* 0 in every run: the model is 0, nothing to choose */
		return add_cand(fr, "1", 1, 0, msg, len);
	for (int i = 0; i < fr->o.nforms; i++)
		if (add_user_forms(fr, fr->o.forms[i], msg, len))
			return -EINVAL;
	if (fr->o.search)
		return add_search(fr, msg, len);
	if (fr->o.nforms == 0)
		return add_defaults(fr, msg, len);
	return 0;
}

/* Parse every candidate; a syntax error in any formula is fatal. */
static int parse_cands(struct lc_fitrun *fr, char *msg, size_t len)
{
	for (int i = 0; i < fr->ncands; i++) {
		struct lc_fitcand *c = &fr->cands[i];
		struct lc_parse_error pe;
		int rc = lc_formula_parse(c->text, LC_EXPR_LOG2, resolve_var, fr, &c->f, &pe);

		if (rc == -ENOMEM)
			return lc_fail(msg, len, rc, "out of memory");
		if (rc)
			return parse_fail(msg, len, c->user ? "formula" : "default formula", c->text,
					  &pe);
	}
	return 0;
}

/* Note the terms of f that pruning dropped into c->dropped. */
static void note_dropped(struct lc_fitcand *c, const struct lc_formula *f, const int *dropped,
			 const char *const *names)
{
	size_t used = 0;

	for (int t = 0; t < f->nterms; t++) {
		if (!dropped[t] || used >= sizeof(c->dropped))
			continue;
		if (used)
			used += (size_t)snprintf(c->dropped + used, sizeof(c->dropped) - used, ", ");
		if (used < sizeof(c->dropped))
			used += (size_t)lc_expr_print(f->term[t], names, 6, c->dropped + used,
						      sizeof(c->dropped) - used);
		c->ndropped++;
	}
}

/* Fit one candidate (pruning it with --prune).  0, or -ENOMEM. */
static int fit_cand(struct lc_fitrun *fr, struct lc_fitcand *c)
{
	int rc, dropped[LC_LSQ_MAXK];
	unsigned flags = fit_flags(fr) | LC_FIT_NOLOO;
	struct lc_formula *g = NULL;

	if (!fr->o.prune)
		rc = lc_fit_formula(c->f, &fr->pts, flags, names_of(fr), &c->fit, c->why,
				    sizeof(c->why));
	else
		rc = lc_fit_prune(c->f, &fr->pts, flags, names_of(fr), &g, dropped, &c->fit,
				  c->why, sizeof(c->why));
	if (fr->o.prune && g != c->f) {
		note_dropped(c, c->f, dropped, names_of(fr));
		lc_formula_free(c->f);
		c->f = g;
	}
	c->ok = rc == 0;
	return rc == -ENOMEM ? rc : 0;
}

/* Scratch arrays of the ranking: src[j] is the candidate that goes to
 * place j. */
struct rank_tmp {
	int *order, *idx, *src;
	const struct lc_formula **f;
	struct lc_fit **fit;
};

/* Allocate the scratch arrays for n candidates.  0 or -ENOMEM. */
static int rank_alloc(struct rank_tmp *t, int n)
{
	size_t k = (size_t)n + 1;

	t->order = malloc(sizeof(int) * k);
	t->idx = malloc(sizeof(int) * k);
	t->f = malloc(sizeof(*t->f) * k);
	t->fit = malloc(sizeof(*t->fit) * k);
	t->src = malloc(sizeof(*t->src) * k);
	return t->order && t->idx && t->f && t->fit && t->src ? 0 : -ENOMEM;
}

/* Free the scratch arrays. */
static void rank_free(struct rank_tmp *t)
{
	free(t->order);
	free(t->idx);
	free(t->f);
	free(t->fit);
	free(t->src);
}

/* Put the candidates in the order src (a permutation of 0..n) in place,
 * following its cycles: each moves once, with one candidate aside (a copy
 * of every candidate would double the search's memory). */
static void permute(struct lc_fitcand *c, int *src, int n)
{
	for (int start = 0; start < n; start++) {
		struct lc_fitcand tmp;
		int j = start;

		if (src[start] < 0 || src[start] == start)
			continue;
		tmp = c[start];
		while (src[j] != start) {
			int k = src[j];

			c[j] = c[k];
			src[j] = -1;
			j = k;
		}
		c[j] = tmp;
		src[j] = -1;
	}
}

/* Put the fitted candidates in the order of lc_fit_select, refused ones
 * last.  0 or -ENOMEM. */
static int rank(struct lc_fitrun *fr)
{
	struct rank_tmp t;
	int n = 0, m = 0, rc = rank_alloc(&t, fr->ncands);

	for (int i = 0; !rc && i < fr->ncands; i++)
		if (fr->cands[i].ok) {
			t.idx[n] = i;
			t.f[n] = fr->cands[i].f;
			t.fit[n++] = &fr->cands[i].fit;
		}
	if (!rc && lc_fit_select(t.f, t.fit, n, &fr->pts, fit_flags(fr), names_of(fr), t.order,
				 &fr->sel))
		rc = -ENOMEM;
	for (int i = 0; !rc && i < n; i++)
		t.src[m++] = t.idx[t.order[i]];
	for (int i = 0; !rc && i < fr->ncands; i++)
		if (!fr->cands[i].ok)
			t.src[m++] = i;
	if (!rc && fr->sel.promoted >= 0) {	/* the rule moved model 2 of the order to the top */
		fr->sel.promoted = 0;
		fr->sel.promoted_over = 1;
	}
	if (!rc)
		permute(fr->cands, t.src, m);
	rank_free(&t);
	return rc;
}

/* The index of an earlier fitted candidate of cands[0..n) whose formula
 * prints as text, or -1. */
static int same_as(const struct lc_fitrun *fr, int n, const char *text)
{
	char b[512];

	for (int j = 0; j < n; j++) {
		lc_formula_print(fr->cands[j].f, NULL, names_of(fr), 6, b, sizeof(b));
		if (fr->cands[j].ok && !strcmp(text, b))
			return j;
	}
	return -1;
}

/* Fold candidate c into k, which prints the same: note it, free it. */
static void fold(struct lc_fitcand *k, struct lc_fitcand *c)
{
	size_t used = strlen(k->also);

	if (c->ndropped && k->nalso++ < LC_FIT_ALSO_SHOWN && used < sizeof(k->also))
		snprintf(k->also + used, sizeof(k->also) - used, "%s'%s' (dropped %s)",
			 used ? ", " : "", c->text, c->dropped);
	lc_formula_free(c->f);
	free(c->text);
}

/* Remove later candidates whose fitted formula prints the same as an
 * earlier one (pruning can make two candidates equal). */
static void dedupe(struct lc_fitrun *fr)
{
	char a[512];
	int n = 0, j;

	for (int i = 0; i < fr->ncands; i++) {
		lc_formula_print(fr->cands[i].f, NULL, names_of(fr), 6, a, sizeof(a));
		j = fr->cands[i].ok ? same_as(fr, n, a) : -1;
		if (j >= 0)
			fold(&fr->cands[j], &fr->cands[i]);
		else
			fr->cands[n++] = fr->cands[i];
	}
	fr->ncands = n;
}

/* True when some term of c is not finite at some point; the first such
 * point goes to fr->undef_at. */
static int undefined(struct lc_fitrun *fr, const struct lc_fitcand *c)
{
	const struct lc_points *p = &fr->pts;

	for (size_t i = 0; i < p->n; i++)
		for (int t = 0; t < c->f->nterms; t++) {
			const double *x = &p->x[i * (size_t)p->nvars];
			size_t used = 0;

			if (isfinite(lc_expr_eval(c->f->term[t], x)))
				continue;
			for (int v = 0; v < fr->nvars && !fr->undef_at[0]; v++)
				used += (size_t)snprintf(fr->undef_at + used, sizeof(fr->undef_at) - used,
							 "%s%s=%g", v ? " " : "", fr->vars[v], x[v]);
			return 1;
		}
	return 0;
}

/* A fitted curve below zero in the range: a default or search form is left
 * out (counted, the first place kept), the user's is marked (it ranks
 * last, with a note). */
static void below_zero(struct lc_fitrun *fr, struct lc_fitcand *c)
{
	char where[64];

	if (!c->ok || fr->o.negvalues ||
	    !lc_fit_below_zero(c->f, &c->fit, &fr->pts, fr->upto, names_of(fr), where,
			       sizeof(where)))
		return;
	if (c->user) {
		lc_note(fr->note, fr->note_arg, "model '%s' goes below zero at %s: a time cannot",
			c->text, where);
		return;
	}
	if (!fr->nneg++)
		snprintf(fr->neg_at, sizeof(fr->neg_at), "%s", where);
	c->ok = 0;
	snprintf(c->why, sizeof(c->why), "below zero at %s", where);
}

/* True when the fitted c has two non-constant terms of opposite signs: a
 * positive term less a faster-growing one cancels past the data. */
static int opposite_signed(const struct lc_fitrun *fr, const struct lc_fitcand *c)
{
	int pos = 0, neg = 0;

	for (int t = 0; t < c->f->nterms; t++) {
		double a = lc_expr_eval(c->f->term[t], &fr->pts.x[0]);
		int konst = 1;

		for (size_t i = 1; i < fr->pts.n && konst; i++)
			konst = lc_expr_eval(c->f->term[t], &fr->pts.x[i * (size_t)fr->nvars]) == a;
		if (konst || c->fit.zero[t] || c->fit.coef[t] == 0)
			continue;
		pos |= c->fit.coef[t] * a > 0 || (a == 0 && c->fit.coef[t] > 0);
		neg |= c->fit.coef[t] * a < 0 || (a == 0 && c->fit.coef[t] < 0);
	}
	return pos && neg;
}

/* Leave out the default and search forms with opposite-signed terms
 * unless the data demand them: when some fitted model without such terms
 * is not doubtful (every coefficient clear of 0, no lack of fit), they
 * are refused, counted, the first named. */
static void refuse_mixed(struct lc_fitrun *fr)
{
	int plain = 0;

	for (int i = 0; i < fr->ncands; i++) {
		struct lc_fitcand *c = &fr->cands[i];

		c->mixed = c->ok && !c->user && opposite_signed(fr, c);
		plain |= c->ok && !c->mixed && !lc_fit_doubtful(&c->fit);
	}
	for (int i = 0; plain && i < fr->ncands; i++) {
		struct lc_fitcand *c = &fr->cands[i];

		if (!c->mixed)
			continue;
		if (!fr->nmixed++)
			lc_fitrun_model_text(fr, c, fr->mixed_first, sizeof(fr->mixed_first));
		c->ok = 0;
		snprintf(c->why, sizeof(c->why), "opposite-signed terms: they cancel past the data, "
			 "and a model without them fits");
	}
}

/* Whether --upto reaches past the data in some variable. */
static int upto_past(const struct lc_fitrun *fr)
{
	for (int v = 0; v < fr->nvars; v++)
		for (size_t i = 0; !isnan(fr->upto[v]) && i < fr->pts.n; i++)
			if (fr->upto[v] > fr->pts.x[i * (size_t)fr->nvars + (size_t)v])
				return 1;
	return 0;
}

/* Refuse candidate c, which turns at c->turn_at: counted, the first named. */
static void refuse_turn(struct lc_fitrun *fr, struct lc_fitcand *c)
{
	char text[160];

	if (!fr->nturn++) {
		lc_fitrun_model_text(fr, c, text, sizeof(text));
		snprintf(fr->turn_first, sizeof(fr->turn_first), "%s (turns at %s)", text,
			 c->turn_at);
	}
	c->ok = 0;
	snprintf(c->why, sizeof(c->why), "turns at %s, between the data and --upto: it holds "
		 "only inside the data, and a model that does not turn fits", c->turn_at);
}

/* Leave out the default and search forms that turn (are not monotone)
 * between the data and --upto unless the data demand it: when some fitted
 * model that does not turn is not doubtful, they are refused; else they
 * stay, and fr->turn_kept says so.  The user's forms get a note. */
static void refuse_turning(struct lc_fitrun *fr)
{
	int plain = 0, nturns = 0;

	if (!upto_past(fr))
		return;
	for (int i = 0; i < fr->ncands; i++) {
		struct lc_fitcand *c = &fr->cands[i];

		c->turns = c->ok && lc_fit_turns(c->f, &c->fit, &fr->pts, fr->upto, names_of(fr),
						 c->turn_at, sizeof(c->turn_at));
		nturns += c->turns;
		plain |= c->ok && !c->turns && !c->user && !lc_fit_doubtful(&c->fit);
		if (c->turns && c->user)
			lc_note(fr->note, fr->note_arg, "model '%s' turns at %s, between the data "
				"and --upto: it may hold only inside the data", c->text, c->turn_at);
	}
	for (int i = 0; plain && i < fr->ncands; i++)
		if (fr->cands[i].turns && !fr->cands[i].user)
			refuse_turn(fr, &fr->cands[i]);
	fr->turn_kept = !plain && nturns;
}

/* Fit every candidate, noting refusals; default and search forms that are
 * not defined at every point are left out (and counted).  Returns the
 * number fitted, or -ENOMEM. */
static int fit_each(struct lc_fitrun *fr)
{
	int nok = 0;

	for (int i = 0; i < fr->ncands; i++) {
		struct lc_fitcand *c = &fr->cands[i];

		if (!c->user && undefined(fr, c)) {
			c->undefined = 1;
			fr->nundef++;
			continue;
		}
		if (fit_cand(fr, c))
			return -ENOMEM;
		if (fr->allzero && c->ok)	/* exactly 0, not "cannot be told from 0" */
			c->fit.flagged[0] = c->fit.nflagged = 0;
		below_zero(fr, c);
		nok += c->ok;
		if (!c->ok && (c->user || !fr->o.search))
			lc_note(fr->note, fr->note_arg, "model '%s' refused: %s", c->text, c->why);
		fr->user_refused |= !c->ok && c->user;
	}
	return nok;
}

/* Free candidate c's text and formula. */
static void cand_free(struct lc_fitcand *c)
{
	free(c->text);
	lc_formula_free(c->f);
}

/* Whether kept candidate a ranks after b (lc_fit_rank_cmp, then the later
 * hypothesis): the order a stable sort of all of them gives. */
static int after(const struct lc_fitcand *a, const struct lc_fitcand *b)
{
	int r = lc_fit_rank_cmp(&a->fit, &b->fit);

	return r ? r > 0 : a->seq > b->seq;
}

/* The place of the worst of the n kept candidates k. */
static int worst_kept(const struct lc_fitcand *k, int n)
{
	int w = 0;

	for (int i = 1; i < n; i++)
		if (after(&k[i], &k[w]))
			w = i;
	return w;
}

/* Keep fitted candidate c among the *n best in k (at most LC_FITRUN_KEEP),
 * or free it. */
static void keep_best(struct lc_fitcand *k, int *n, struct lc_fitcand *c)
{
	int w;

	if (*n < LC_FITRUN_KEEP) {
		k[(*n)++] = *c;
		return;
	}
	w = worst_kept(k, *n);
	if (!after(c, &k[w])) {
		cand_free(&k[w]);
		k[w] = *c;
	} else {
		cand_free(c);
	}
}

/* Parse, check and fit hypothesis i into c.  1 when it fitted, 0 when it
 * is left out (undefined, refused: counted as fit_each does), or
 * -ENOMEM. */
static int fit_hypothesis(struct lc_fitrun *fr, int i, struct lc_fitcand *c)
{
	struct lc_parse_error pe;

	*c = (struct lc_fitcand){ .text = fr->hyp[i], .seq = i };
	fr->hyp[i] = NULL;
	if (lc_formula_parse(c->text, LC_EXPR_LOG2, resolve_var, fr, &c->f, &pe))
		return -ENOMEM;	/* the search writes only forms that parse */
	if (undefined(fr, c)) {
		fr->nundef++;
		return 0;
	}
	if (fit_cand(fr, c))
		return -ENOMEM;
	below_zero(fr, c);
	return c->ok;
}

/* By the original order of the hypotheses. */
static int by_seq(const void *a, const void *b)
{
	const struct lc_fitcand *x = a, *y = b;

	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Fit the --search hypotheses one at a time, keeping the LC_FITRUN_KEEP
 * best after the user's candidates, in the hypotheses' order.  Returns
 * how many fitted, or -ENOMEM. */
static int fit_hypotheses(struct lc_fitrun *fr)
{
	struct lc_fitcand *k = &fr->cands[fr->ncands], c;
	int n = 0, nok = 0, rc = 0;

	for (int i = 0; i < fr->nhyp && rc >= 0; i++) {
		rc = fit_hypothesis(fr, i, &c);
		if (rc > 0)
			keep_best(k, &n, &c);
		else
			cand_free(&c);
		nok += rc > 0;
	}
	qsort(k, (size_t)n, sizeof(*k), by_seq);
	fr->ncands += n;
	return rc < 0 ? rc : nok;
}

/* Fit all candidates, then rank them. */
static int fit_all(struct lc_fitrun *fr, char *msg, size_t len)
{
	int nok = fit_each(fr), nh = nok < 0 ? 0 : fit_hypotheses(fr);

	nok = nok < 0 || nh < 0 ? -ENOMEM : nok + nh;
	if (nok < 0)
		return lc_fail(msg, len, nok, "out of memory");
	if (!nok && (fr->nundef || fr->search.undefined) && !fr->o.nforms)
		return lc_fail(msg, len, -EDOM, "every form is undefined at some point (%s)",
			       fr->undef_at);
	if (!nok && fr->nneg)
		return lc_fail(msg, len, -EDOM, "every model that fits goes below zero in the range "
			       "(the first at %s): a time cannot", fr->neg_at);
	if (!nok && fr->o.search)
		return lc_fail(msg, len, -EDOM, "no model could be fitted to the %zu points",
			       fr->pts.n);
	if (!nok)	/* each refusal was noted */
		return lc_fail(msg, len, -EDOM, "%s", "");
	if (fr->o.prune)
		dedupe(fr);
	refuse_mixed(fr);
	refuse_turning(fr);
	return rank(fr) ? lc_fail(msg, len, -ENOMEM, "out of memory") : 0;
}

int lc_fitrun_run(struct lc_fitrun *fr, char *msg, size_t len)
{
	int rc;

	if ((rc = lc_fitrun_region_paths(fr, msg, len)) ||
	    (rc = split_vars(fr, msg, len)) || (rc = parse_upto(fr, msg, len)) ||
	    (rc = read_runs(fr, msg, len)) ||
	    (rc = find_keys(fr, msg, len)) || (rc = build_points(fr, msg, len)) ||
	    (rc = collect(fr, msg, len)) || (rc = parse_cands(fr, msg, len)))
		return rc;
	fr->ntried = fr->ncands + fr->nhyp;
	return fit_all(fr, msg, len);
}

/* True when some run of r has a number for key k. */
static int has_value(const struct lc_runs *r, int k)
{
	double v;

	for (size_t i = 0; k >= 0 && i < lc_runs_count(r); i++)
		if (lc_runs_get(r, i, k, &v) == LC_CELL_VALUE)
			return 1;
	return 0;
}

int lc_fitrun_present_cats(const struct lc_runs *runs, const char *region, char *buf,
			   size_t len)
{
	struct lc_runs *r = NULL;
	size_t used = 0;
	int n = 0;

	if (len)
		buf[0] = '\0';
	if (lc_runs_select(runs, region, &r))
		return -ENOMEM;
	for (int c = 0; c < LC_NKEY; c++) {
		const char *key = lc_cat_info(c)->key;

		if (!has_value(r, lc_runs_find_key(r, key, strlen(key))) || used >= len)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s", n ? " " : "", key);
		n++;
	}
	lc_runs_free(r);
	return n;
}

void lc_fitrun_free(struct lc_fitrun *fr)
{
	for (int i = 0; i < fr->ncands; i++)
		cand_free(&fr->cands[i]);
	free(fr->cands);
	lc_strv_free(fr->hyp, fr->nhyp);
	for (int v = 0; v < fr->nvars; v++)
		free(fr->vars[v]);
	lc_points_free(&fr->pts);
	lc_expr_free(fr->cond);
	lc_runs_free(fr->runs);
	free(fr->emit_path);
	free(fr->plot_path);
}

int lc_fitrun_shown(const struct lc_fitrun *fr)
{
	int n = 0, top = fr->o.top ? fr->o.top : fr->o.search ? 10 : LC_FITRUN_MAXCANDS;

	while (n < fr->ncands && fr->cands[n].ok && n < top)
		n++;
	return n;
}

int lc_fitrun_fitted(const struct lc_fitrun *fr)
{
	int n = 0;

	while (n < fr->ncands && fr->cands[n].ok)
		n++;
	return n;
}

/* Write the coefficient terms [from, to) of a fit as "(c +/- h) * term"
 * joined by " + " into the buffer at *used. */
static void model_sum(const struct lc_fitcand *c, int from, int to, const char *const *names,
		      char *buf, size_t len, size_t *used)
{
	const struct lc_fit *fit = &c->fit;

	if (from == to && *used < len)
		*used += (size_t)snprintf(buf + *used, len - *used, "0");
	for (int t = from; t < to && *used < len; t++) {
		char term[256];
		int one;

		lc_expr_print(c->f->term[t], names, 6, term, sizeof(term));
		one = !strcmp(term, "1");
		if (fit->zero[t])
			*used += (size_t)snprintf(buf + *used, len - *used, "%s(0, held)%s%s",
						  t > from ? " + " : "", one ? "" : " * ", one ? "" : term);
		else
			*used += (size_t)snprintf(buf + *used, len - *used, "%s(%.4g +/- %.4g)%s%s%s",
						  t > from ? " + " : "", fit->coef[t], fit->half[t],
						  fit->flagged[t] ? "?" : "", one ? "" : " * ",
						  one ? "" : term);
	}
}

void lc_fitrun_model_text(const struct lc_fitrun *fr, const struct lc_fitcand *c, char *buf,
			  size_t len)
{
	const char *const *names = names_of(fr);
	size_t used = 0;

	buf[0] = '\0';
	if (!c->f->is_max) {
		model_sum(c, 0, c->f->nterms, names, buf, len, &used);
		return;
	}
	used = (size_t)snprintf(buf, len, "max(");
	model_sum(c, 0, c->f->na, names, buf, len, &used);
	if (used < len)
		used += (size_t)snprintf(buf + used, len - used, ", ");
	model_sum(c, c->f->na, c->f->nterms, names, buf, len, &used);
	if (used < len)
		snprintf(buf + used, len - used, ")  [threshold %s ~ %.4g]", names[0], c->fit.threshold);
}

void lc_fitrun_formula(const struct lc_fitrun *fr, const struct lc_fitcand *c, char *buf,
		       size_t len)
{
	char tmp[2048];
	size_t used = 0;

	lc_formula_print(c->f, c->fit.coef, names_of(fr), 10, tmp, sizeof(tmp));
	for (const char *q = tmp; *q && used + 3 < len; q++) {
		if (*q == '^') {
			buf[used++] = '*';
			buf[used++] = '*';
		} else {
			buf[used++] = *q;
		}
	}
	buf[used] = '\0';
}
