/*
 * lca_predict.c — total time, what-if and crossovers (see lca_predict.h).
 */
#include "lc_profile.h"
#include "lc_util.h"
#include "lca_predict.h"
#include "lca_models.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Words that stand for common what-if questions (which category, removed or
 * scaled, would buy the most). */
static const struct { const char *word, *expand; } aliases[] = {
	{ "balanced", "li=0" },
	{ "nowait", "sl=0" },
	{ "nocomm", "cl=0" },
	{ "nocontention", "rc=0" },
	{ "nospeculation", "wc=0" },
};

/* Parse one change "cat OP= value" (or an alias) s[0..len) into w. */
static int change(struct lc_whatif *w, const char *s, size_t len, char *msg, size_t ml)
{
	size_t c = 0;
	char cat[8], *end, num[64];
	double v;
	char op = '=';

	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (strlen(aliases[i].word) == len && !strncmp(aliases[i].word, s, len))
			return change(w, aliases[i].expand, strlen(aliases[i].expand), msg, ml);
	while (c < len && isalpha((unsigned char)s[c]))
		c++;
	if (!c || c >= sizeof(cat))
		return lc_fail(msg, ml, -EINVAL, "what-if '%.*s': expected CATEGORY=VALUE or CATEGORY*=FACTOR",
			   (int)len, s);
	snprintf(cat, sizeof(cat), "%.*s", (int)c, s);
	if (lc_key_lookup(cat) < 0)
		return lc_fail(msg, ml, -EINVAL, "what-if '%.*s': unknown category '%s'", (int)len, s, cat);
	if (c < len && strchr("*/+-", s[c]))
		op = s[c++];
	if (c >= len || s[c] != '=' || len - c - 1 >= sizeof(num) || len - c - 1 == 0)
		return lc_fail(msg, ml, -EINVAL, "what-if '%.*s': expected =, *=, /=, += or -= and a number",
			   (int)len, s);
	snprintf(num, sizeof(num), "%.*s", (int)(len - c - 1), s + c + 1);
	errno = 0;
	v = strtod(num, &end);
	if (end == num || *end || errno || !isfinite(v))
		return lc_fail(msg, ml, -EINVAL, "what-if '%.*s': '%s' is not a number", (int)len, s, num);
	if (w->n == LC_WHATIF_MAX)
		return lc_fail(msg, ml, -EINVAL, "what-if: more than %d changes", LC_WHATIF_MAX);
	snprintf(w->e[w->n].cat, sizeof(w->e[w->n].cat), "%s", lc_cat_info(lc_key_lookup(cat))->key);
	w->e[w->n].op = op;
	w->e[w->n].v = v;
	w->n++;
	return 0;
}

/* Parse a scenario.  See lca_predict.h. */
int lc_whatif_parse(const char *s, struct lc_whatif *w, char *msg, size_t len)
{
	memset(w, 0, sizeof(*w));
	snprintf(w->text, sizeof(w->text), "%s", s);
	const char *t;
	size_t tl;

	while ((t = lc_next_word(&s, NULL, ",", &tl))) {
		int rc = change(w, t, tl, msg, len);

		if (rc)
			return rc;
	}
	return w->n ? 0 : lc_fail(msg, len, -EINVAL, "what-if: empty scenario");
}

/* Apply the scenario's changes for category cat.  See lca_predict.h. */
void lc_whatif_apply(const struct lc_whatif *w, const char *cat, double *c, double *half)
{
	for (int i = 0; w && i < w->n; i++) {
		double v = w->e[i].v;

		if (strcmp(w->e[i].cat, cat))
			continue;
		switch (w->e[i].op) {
		case '=': *c = v; *half = 0; break;
		case '*': *c *= v; *half *= fabs(v); break;
		case '/': *c /= v; *half /= fabs(v); break;
		case '+': *c += v; break;
		case '-': *c -= v; break;
		}
	}
}

/* The value of name in env, or NaN. */
static double env_get(const struct lc_env *env, const char *name)
{
	for (int i = 0; i < env->n; i++)
		if (!strcmp(env->names[i], name))
			return env->vals[i];
	return NAN;
}

/* Mark slot as read (lc_expr_slots callback). */
static void mark_slot(void *ctx, int slot)
{
	if (slot >= 0 && slot < LC_MODEL_MAXVARS)
		((int *)ctx)[slot] = 1;
}

/* Predict one category.  See lca_predict.h. */
int lc_predict_cat(const struct lc_model *m, const char *cat, const struct lc_env *env,
		   double *c, double *half, const char **missing)
{
	return lc_predict_cat_clip(m, cat, env, NULL, c, half, missing);
}

/* Predict one category, counting a clip.  See lca_predict.h. */
int lc_predict_cat_clip(const struct lc_model *m, const char *cat, const struct lc_env *env,
			struct lc_clip *clip, double *c, double *half, const char **missing)
{
	const struct lc_catmodel *cm = lc_model_cat(m, cat);
	double vals[LC_MODEL_MAXVARS];
	int used[LC_MODEL_MAXVARS] = { 0 };

	if (!cm)
		return -ENOENT;
	lc_expr_slots(cm->expr, mark_slot, used);
	for (int v = 0; v < m->nvars; v++) {
		vals[v] = env_get(env, m->vars[v]);
		if (!used[v])
			continue;	/* declared but not read: not needed */
		if (isnan(vals[v])) {
			if (missing)
				*missing = m->vars[v];
			return -EINVAL;
		}
	}
	lc_model_eval(cm, vals, c, half);
	if (*c < 0) {
		if (clip && !clip->n++) {
			snprintf(clip->cat, sizeof(clip->cat), "%s", cat);
			clip->value = *c;
		}
		*c = 0;
	}
	return 0;
}

#define PAST_STEPS 48

/* The values of m's variables at env into vals (NaN where env lacks one). */
static void model_vals(const struct lc_model *m, const struct lc_env *env, double *vals)
{
	for (int v = 0; v < m->nvars; v++)
		vals[v] = env_get(env, m->vars[v]);
}

/* Point i of steps on the way from a to b (log-spaced where both are
 * positive) into x, for every ranged variable of cm. */
static void way_at(const struct lc_catmodel *cm, const double *a, const double *b, int nv,
		   int i, double *x)
{
	double t = (double)i / (PAST_STEPS - 1);

	for (int v = 0; v < nv; v++)
		x[v] = !cm->ranged[v] || a[v] == b[v] ? b[v] :
		       a[v] > 0 && b[v] > 0 ? a[v] * pow(b[v] / a[v], t) : a[v] + (b[v] - a[v]) * t;
}

/* "p=64" of the ranged variables of cm at x into buf. */
static void place_text(const struct lc_model *m, const struct lc_catmodel *cm, const double *x,
		       char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int v = 0; v < m->nvars && used < len; v++)
		if (cm->ranged[v])
			used += (size_t)snprintf(buf + used, len - used, "%s%s=%.3g", used ? " " : "",
						 m->vars[v], x[v]);
}

/* The walk's values from the range's nearest point a to b into y; 1 when
 * b lies outside the range. */
static int walk(const struct lc_model *m, const struct lc_catmodel *cm, const double *b,
		double *a, double *y)
{
	double x[LC_MODEL_MAXVARS];
	int out = 0;

	for (int v = 0; v < m->nvars; v++) {
		a[v] = !cm->ranged[v] ? b[v] : fmin(fmax(b[v], cm->lo[v]), cm->hi[v]);
		out |= a[v] != b[v];
	}
	for (int i = 0; out && i < PAST_STEPS; i++) {
		way_at(cm, a, b, m->nvars, i, x);
		y[i] = lc_expr_eval(cm->expr, x);
	}
	return out;
}

/* Past the runs.  See lca_predict.h. */
int lc_predict_past(const struct lc_model *m, const char *cat, const struct lc_env *env,
		    char *msg, size_t len)
{
	const struct lc_catmodel *cm = lc_model_cat(m, cat);
	double a[LC_MODEL_MAXVARS], b[LC_MODEL_MAXVARS], x[LC_MODEL_MAXVARS], y[PAST_STEPS];
	double ymax = 0, c, h;
	char from[96], to[96], at[96];
	int k = -1, neg = -1;

	if (!cm || lc_predict_cat(m, cat, env, &c, &h, NULL))
		return cm ? -EINVAL : 0;
	model_vals(m, env, b);
	if (!walk(m, cm, b, a, y))
		return 0;
	for (int i = 0; i < PAST_STEPS; i++)
		ymax = fmax(ymax, fabs(y[i]));
	for (int i = 0; i < PAST_STEPS && neg < 0; i++)
		neg = y[i] < -1e-9 * ymax ? i : -1;
	if (neg < 0 && (cm->turns_ok || (k = lc_turn_index(y, PAST_STEPS, 1e-9 * ymax)) < 0))
		return 0;
	way_at(cm, a, b, m->nvars, neg >= 0 ? neg : k, x);
	place_text(m, cm, a, from, sizeof(from));
	place_text(m, cm, b, to, sizeof(to));
	place_text(m, cm, x, at, sizeof(at));
	return lc_fail(msg, len, -EDOM, "the model of %s %s at %s, between its runs (the nearest at %s) and "
		       "%s: it holds only inside them; refit with fit --upto \"%s\" (a form that %s "
		       "is then kept only when the data demand it)", cat,
		       neg >= 0 ? "goes below zero" : "turns (is not monotone)", at, from, to, to,
		       neg >= 0 ? "goes below zero" : "turns");
}

/* Past the runs: how far.  See lca_predict.h. */
double lc_predict_reach(const struct lc_model *m, const struct lc_env *env, char *buf,
			size_t len)
{
	double vals[LC_MODEL_MAXVARS], r = 1;
	size_t used = 0;

	buf[0] = '\0';
	model_vals(m, env, vals);
	for (int v = 0; v < m->nvars; v++) {
		double hi = 0;

		for (int i = 0; i < m->ncats; i++)
			if (m->cats[i].ranged[v])
				hi = fmax(hi, m->cats[i].hi[v]);
		if (!(hi > 0 && vals[v] > hi) || used >= len)
			continue;
		r = fmax(r, vals[v] / hi);
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%g is %.3gx the largest "
					 "measured (%g)", used ? "; " : "", m->vars[v], vals[v],
					 vals[v] / hi, hi);
	}
	return r;
}

double lc_predict_lower(double t, double half)
{
	return t - half > 0 ? t - half : 0;
}

/* True when the model's only category is tt. */
static int only_tt(const struct lc_model *m)
{
	return m->ncats == 1 && lc_key_lookup(m->cats[0].cat) == LC_KEY_TT;
}

/* The categories (with needed: only those T(E) needs) that m has no model
 * of, as "li sl" into buf, with needed the computation (rt) first; how many.  None for a model of tt
 * alone. */
static int missing_cats(const struct lc_model *m, int needed, char *buf, size_t len)
{
	size_t used = 0;
	int n = 0;

	if (len)
		buf[0] = '\0';
	if (only_tt(m))
		return 0;
	for (int i = 0; i < 2 * LC_NCAT; i++) {	/* with needed: computation first */
		int c = i % LC_NCAT, first = !needed || lc_cat_info(c)->computation;
		const char *key = lc_cat_info(c)->key;

		if ((i < LC_NCAT) != first || (needed && !lc_cat_info(c)->needed) ||
		    lc_model_cat(m, key))
			continue;
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", n ? " " : "", key);
		n++;
	}
	return n;
}

/* What T(E) needs.  See lca_predict.h. */
int lc_predict_needs(const struct lc_model *m, char *buf, size_t len)
{
	return missing_cats(m, 1, buf, len);
}

/* What T(E) leaves out.  See lca_predict.h. */
int lc_predict_excluded(const struct lc_model *m, char *buf, size_t len)
{
	return missing_cats(m, 0, buf, len);
}

/* Predict T(E).  See lca_predict.h. */
int lc_predict_total(const struct lc_model *m, const struct lc_env *env, const struct lc_whatif *w,
		     double *t, double *half, const char **missing)
{
	double p = env_get(env, "p"), sum = 0, var = 0;

	if (isnan(p) || p <= 0) {
		if (missing)
			*missing = "p";
		return -EINVAL;
	}
	for (int i = 0; i < m->ncats; i++) {
		const char *cat = m->cats[i].cat;
		double c, h;
		int rc;

		if (lc_key_lookup(cat) == LC_KEY_TT && !only_tt(m))
			continue;
		rc = lc_predict_cat(m, cat, env, &c, &h, missing);
		if (rc)
			return rc;
		lc_whatif_apply(w, cat, &c, &h);
		sum += c;
		var += h * h;
	}
	*t = sum / p;
	*half = sqrt(var) / p;
	return 0;
}

/* Prediction variance and gain.  See lca_predict.h. */
int lc_predict_gain(const struct lc_model *m, const struct lc_env *at, const struct lc_env *x,
		    double *var, double *gain, const char **missing)
{
	double t, half, p = env_get(at, "p"), va[LC_MODEL_MAXVARS], vx[LC_MODEL_MAXVARS];
	int rc = lc_predict_total(m, at, NULL, &t, &half, missing);

	*var = *gain = 0;
	if (rc || (rc = lc_predict_total(m, x, NULL, &t, &half, missing)))
		return rc;
	model_vals(m, at, va);
	model_vals(m, x, vx);
	for (int i = 0; i < m->ncats; i++) {
		const struct lc_catmodel *cm = &m->cats[i];

		if (lc_key_lookup(cm->cat) == LC_KEY_TT && !only_tt(m))
			continue;
		*var += lc_model_var_fit(cm, va);
		*gain += lc_model_gain(cm, va, vx);
	}
	*var /= p * p;
	*gain /= p * p;
	return 0;
}

/* T_a - T_b at env with the axis variable set to x (vals is writable). */
static int diff_at(const struct lc_model *a, const struct lc_model *b, const struct lc_env *env,
		   double *vals, int axis, double x, double *d, const char **missing)
{
	double ta, tb, h;
	int rc;

	vals[axis] = x;
	rc = lc_predict_total(a, env, NULL, &ta, &h, missing);
	if (!rc)
		rc = lc_predict_total(b, env, NULL, &tb, &h, missing);
	*d = ta - tb;
	return rc;
}

/* Find crossovers.  See lca_predict.h. */
int lc_predict_crossovers(const struct lc_model *a, const struct lc_model *b,
			  const struct lc_env *env, int axis, const double *xs, int nx,
			  double *out, int *below, int max, const char **missing)
{
	double vals[64], prev = 0, d;
	struct lc_env e = *env;
	int n = 0, rc;

	if (env->n > 64)
		return -EINVAL;
	if (env->n)	/* env->vals may be NULL without variables */
		memcpy(vals, env->vals, sizeof(double) * (size_t)env->n);
	e.vals = vals;
	for (int i = 0; i < nx; i++, prev = d) {
		double lo, hi, dlo;

		rc = diff_at(a, b, &e, vals, axis, xs[i], &d, missing);
		if (rc)
			return rc;
		if (i == 0 || (prev < 0) == (d < 0) || prev == 0)
			continue;
		lo = xs[i - 1];
		hi = xs[i];
		dlo = prev;
		for (int it = 0; it < 200 && hi - lo > 1e-12 * fabs(hi); it++) {
			double mid = (lo + hi) / 2, dm;

			if ((rc = diff_at(a, b, &e, vals, axis, mid, &dm, missing)))
				return rc;
			if ((dm < 0) == (dlo < 0)) {
				lo = mid;
				dlo = dm;
			} else {
				hi = mid;
			}
		}
		if (n < max) {
			out[n] = (lo + hi) / 2;
			below[n] = prev < 0 ? 0 : 1;
		}
		n++;
	}
	return n;
}
