/*
 * lca_model.c — read and append model files (see lca_model.h).
 */
#include "lc_util.h"
#include "lc_profile.h"
#include "lca_model.h"
#include "lca_models.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>

/* Reader state: the model, the current log flags, the line, the error. */
struct reader {
	struct lc_model *m;
	struct lc_catmodel *cur;	/* the model being defined (for "#:") */
	unsigned logflags;
	int line;
	char *msg;
	size_t len;
	int decl[LC_MODEL_MAXVARS];	/* declared slots of the line being parsed */
	int ndecl;
};

/* Set the error message; returns -EINVAL. */
static int bad(struct reader *rd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lc_vfail(rd->msg, rd->len, -EINVAL, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* The slot of a variable name.  See lca_model.h. */
int lc_model_var(const struct lc_model *m, const char *name)
{
	for (int i = 0; i < m->nvars; i++)
		if (!strcmp(m->vars[i], name))
			return i;
	return -1;
}

/* The slot of name[0..len), added when new; -1 when the table is full or
 * out of memory. */
static int intern_var(struct lc_model *m, const char *name, size_t len)
{
	char *s = strndup(name, len);
	int i;

	if (!s)
		return -1;
	i = lc_model_var(m, s);
	if (i >= 0 || m->nvars == LC_MODEL_MAXVARS) {
		free(s);
		return i;
	}
	m->vars[m->nvars] = s;
	return m->nvars++;
}

/* Resolve an identifier of a model expression: only declared variables. */
static int resolve_decl(void *ctx, const char *name, size_t len)
{
	struct reader *rd = ctx;

	for (int i = 0; i < rd->ndecl; i++) {
		const char *v = rd->m->vars[rd->decl[i]];

		if (strlen(v) == len && !strncmp(v, name, len))
			return rd->decl[i];
	}
	return -1;
}

/* Parse "(n,p)" at *s into rd->decl.  Returns 0 or -EINVAL. */
static int parse_decl(struct reader *rd, const char **s)
{
	const char *p = *s + 1;

	rd->ndecl = 0;
	for (;;) {
		const char *w;
		int slot;

		while (isspace((unsigned char)*p) || *p == ',')
			p++;
		if (*p == ')')
			break;
		w = p;
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		if (p == w)
			return bad(rd, "expected a variable name or ')' in the declaration");
		if (rd->ndecl == LC_MODEL_MAXVARS || (slot = intern_var(rd->m, w, (size_t)(p - w))) < 0)
			return bad(rd, "too many variables");
		rd->decl[rd->ndecl++] = slot;
	}
	*s = p + 1;
	return 0;
}

/* Find or make the entry for category cat (a later line replaces). */
static struct lc_catmodel *cat_entry(struct lc_model *m, const char *cat)
{
	struct lc_catmodel *cm = (struct lc_catmodel *)lc_model_cat(m, cat);

	if (cm) {
		lc_expr_free(cm->expr);
		for (int t = 0; t < cm->nterms; t++)
			lc_expr_free(cm->terms[t].basis);
	} else if (m->ncats < LC_MODEL_MAXCATS) {
		cm = &m->cats[m->ncats++];
	}
	if (cm)
		*cm = (struct lc_catmodel){ .expr = NULL };
	return cm;
}

/* The category name at the start of s into name[16], s moved past it and
 * its blanks.  0 or the reader's -EINVAL. */
static int model_name(struct reader *rd, const char **s, char *name)
{
	size_t n = 0;

	while (isalnum((unsigned char)(*s)[n]) || (*s)[n] == '_')
		n++;
	if (!n || n >= 16)
		return bad(rd, "expected 'CATEGORY(VARS) = FORMULA'");
	memcpy(name, *s, n);
	name[n] = '\0';
	if (lc_key_lookup(name) < 0)
		return bad(rd, "unknown category '%s'", name);
	*s += n;
	while (isspace((unsigned char)**s))
		(*s)++;
	return 0;
}

/* Parse the formula after '=' at p (s: the line, for columns) into cm. */
static int model_expr(struct reader *rd, const char *s, const char *p, struct lc_catmodel *cm)
{
	struct lc_parse_error pe;
	int rc = lc_expr_parse(p + 1, rd->logflags, resolve_decl, rd, &cm->expr, &pe);

	if (rc == -EINVAL)
		return bad(rd, "column %d: %s", (int)(p + 1 - s) + pe.column, pe.msg);
	if (rc)
		return rc;
	rc = lc_expr_terms(cm->expr, cm->terms, LC_FORMULA_MAXTERMS);
	if (rc < 0)
		return rc == -E2BIG ? bad(rd, "more than %d terms", LC_FORMULA_MAXTERMS) : rc;
	cm->nterms = rc;
	return 0;
}

/* Parse a model line "cat(vars) = expr  # comment". */
static int model_line(struct reader *rd, char *s)
{
	char name[16], *hash = strchr(s, '#');
	const char *p = s, *key;
	struct lc_catmodel *cm;
	int rc;

	if (hash)
		*hash = '\0';
	if ((rc = model_name(rd, &p, name)))
		return rc;
	rd->ndecl = 0;
	if (*p == '(' && (rc = parse_decl(rd, &p)))
		return rc;
	while (isspace((unsigned char)*p))
		p++;
	if (*p != '=')
		return bad(rd, "expected '=' after %s(...)", name);
	key = lc_cat_info(lc_key_lookup(name))->key;
	if (!(cm = cat_entry(rd->m, key)))
		return bad(rd, "too many categories");
	snprintf(cm->cat, sizeof(cm->cat), "%s", key);
	cm->line = rd->line;
	cm->nvars = rd->ndecl;
	memcpy(cm->vars, rd->decl, sizeof(rd->decl));
	if ((rc = model_expr(rd, s, p, cm)))
		return rc;
	rd->cur = cm;
	return 0;
}

/* Parse a double from "key=value" text at s; returns 0 or -EINVAL. */
static int num_after(const char *s, const char *key, double *v)
{
	const char *p = strstr(s, key);
	char *end;

	if (!p)
		return -EINVAL;
	errno = 0;
	*v = strtod(p + strlen(key), &end);
	return end == p + strlen(key) || errno ? -EINVAL : 0;
}

/* Parse "#: cat dof=D s2=S [rel=1] cov=a,b,..." for the model above.
 * Every field is checked: dof a whole number 1..LC_MODEL_MAXDOF, s2 finite
 * and not negative, rel 0 or 1, the k*k covariances finite. */
static int cov_line(struct reader *rd, const char *s)
{
	struct lc_catmodel *cm = rd->cur;
	const char *p = strstr(s, "cov=");
	double dof, rel = 0;
	int k;

	if (!cm)
		return bad(rd, "'#:' line without a model line above it");
	if (num_after(s, "dof=", &dof) || num_after(s, "s2=", &cm->s2) || !p)
		return bad(rd, "malformed '#:' line: expected dof=, s2= and cov=");
	if (!(dof >= 1 && dof <= LC_MODEL_MAXDOF) || dof != floor(dof))
		return bad(rd, "'#:' line: dof must be a whole number 1..%d", LC_MODEL_MAXDOF);
	if (!isfinite(cm->s2) || cm->s2 < 0)
		return bad(rd, "'#:' line: s2 must be a finite number, 0 or more");
	if (strstr(s, "rel=") && (num_after(s, "rel=", &rel) || (rel != 0 && rel != 1)))
		return bad(rd, "'#:' line: rel must be 0 or 1");
	cm->dof = (int)dof;
	cm->relative = rel != 0;
	p += 4;
	k = cm->nterms;
	for (int i = 0; i < k * k; i++) {
		char *end;

		errno = 0;
		cm->cov[i] = strtod(p, &end);
		if (end == p || errno)
			return bad(rd, "'#:' line needs %d covariance values", k * k);
		if (!isfinite(cm->cov[i]))
			return bad(rd, "'#:' line: covariance %d is not a finite number", i + 1);
		p = *end == ',' ? end + 1 : end;
	}
	cm->has_cov = 1;
	return 0;
}

/* Parse "%log e|2|10". */
static int log_line(struct reader *rd, const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	if (!strncmp(s, "e", 1) && !s[1 + strspn(s + 1, " \t")])
		rd->logflags = 0;
	else if (!strncmp(s, "2", 1) && !s[1 + strspn(s + 1, " \t")])
		rd->logflags = LC_EXPR_LOG2;
	else if (!strncmp(s, "10", 2) && !s[2 + strspn(s + 2, " \t")])
		rd->logflags = LC_EXPR_LOG10;
	else
		return bad(rd, "'%%log' wants e, 2 or 10");
	return 0;
}

/* Parse "%cpus N" or "%pmax N" (what) into *field: the model keeps the
 * largest. */
static int count_line(struct reader *rd, const char *s, const char *what, unsigned *field)
{
	uint64_t v;
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strcspn(s, " \t\r\n");
	if (s[n + strspn(s + n, " \t\r\n")] || n >= 16)
		return bad(rd, "'%%%s' wants a whole number (1..16777216)", what);
	{
		char num[16];

		memcpy(num, s, n);
		num[n] = '\0';
		if (lc_parse_u64(num, 1, 1u << 24, &v))
			return bad(rd, "'%%%s' wants a whole number (1..16777216)", what);
	}
	if (v > *field)
		*field = (unsigned)v;
	return 0;
}

/* Parse one "v=lo..hi" of a "%range" line at *s into cm. */
static int range_item(struct reader *rd, struct lc_catmodel *cm, const char **s)
{
	char name[64], *end;
	const char *dots;
	size_t n = strcspn(*s, "=");
	int v;

	if (!(*s)[n] || n >= sizeof(name))
		return bad(rd, "'%%range' wants VAR=LO..HI");
	memcpy(name, *s, n);
	name[n] = '\0';
	if ((v = lc_model_var(rd->m, name)) < 0)
		return bad(rd, "'%%range': '%s' is not a variable of the models above", name);
	*s += n + 1;
	dots = strstr(*s, "..");
	if (!dots || dots == *s || (size_t)(dots - *s) >= sizeof(name))
		return bad(rd, "'%%range' wants VAR=LO..HI");
	memcpy(name, *s, (size_t)(dots - *s));
	name[dots - *s] = '\0';
	errno = 0;
	cm->lo[v] = strtod(name, &end);
	if (errno || *end)
		return bad(rd, "'%%range' wants VAR=LO..HI");
	*s = dots + 2;
	cm->hi[v] = strtod(*s, &end);
	if (errno || end == *s || !isfinite(cm->lo[v]) || !isfinite(cm->hi[v]) ||
	    cm->hi[v] < cm->lo[v])
		return bad(rd, "'%%range' wants VAR=LO..HI, LO <= HI, finite");
	cm->ranged[v] = 1;
	*s = end;
	return 0;
}

/* Parse "%range cat v=lo..hi ... [turns]" for the model of cat above (a
 * line whose model is not in the file is ignored). */
static int range_line(struct reader *rd, const char *s)
{
	char name[16];
	struct lc_catmodel *cm;
	int rc;

	while (isspace((unsigned char)*s))
		s++;
	if ((rc = model_name(rd, &s, name)))
		return rc;
	cm = (struct lc_catmodel *)lc_model_cat(rd->m, lc_cat_info(lc_key_lookup(name))->key);
	if (!cm)
		return 0;	/* its model was taken out of the file: nothing to say */
	while (*s && !rc) {
		if (!strncmp(s, "turns", 5) && (!s[5] || isspace((unsigned char)s[5]))) {
			cm->turns_ok = 1;
			s += 5;
		} else {
			rc = range_item(rd, cm, &s);
		}
		while (!rc && isspace((unsigned char)*s))
			s++;
	}
	return rc;
}

/* Handle one line of a model file. */
static int read_line(struct reader *rd, char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	if (!strncmp(s, "#:", 2))
		return cov_line(rd, s + 2);
	if (!*s || *s == '#')
		return 0;
	if (!strncmp(s, "%log", 4))
		return log_line(rd, s + 4);
	if (!strncmp(s, "%cpus", 5))
		return count_line(rd, s + 5, "cpus", &rd->m->cpus);
	if (!strncmp(s, "%pmax", 5))
		return count_line(rd, s + 5, "pmax", &rd->m->pmax);
	if (!strncmp(s, "%range", 6))
		return range_line(rd, s + 6);
	return model_line(rd, s);
}

/* Read a model file from the open stream f (closed here). */
static int read_stream(FILE *f, struct lc_model **out, int *line, char *msg, size_t len)
{
	struct reader rd = { .msg = msg, .len = len, .logflags = LC_EXPR_LOG2 };
	char *buf = NULL;
	size_t cap = 0;
	int rc = 0;

	rd.m = calloc(1, sizeof(*rd.m));
	if (!rd.m)
		rc = -ENOMEM;
	while (!rc && getline(&buf, &cap, f) >= 0) {
		rd.line++;
		buf[strcspn(buf, "\r\n")] = '\0';
		rc = read_line(&rd, buf);
	}
	if (!rc && rd.m->ncats == 0)
		rc = bad(&rd, "no model lines");
	free(buf);
	fclose(f);
	*line = rd.line;
	if (rc)
		lc_model_free(rd.m);
	else
		*out = rd.m;
	return rc;
}

/* Read a model file.  See lca_model.h. */
int lc_model_read(const char *path, struct lc_model **out, int *line, char *msg, size_t len)
{
	FILE *f = fopen(path, "r");

	*out = NULL;
	*line = 0;
	if (len)
		msg[0] = '\0';
	return f ? read_stream(f, out, line, msg, len) : -errno;
}

/* Read model lines from text.  See lca_model.h. */
int lc_model_read_text(const char *text, struct lc_model **out, int *line, char *msg, size_t len)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	*out = NULL;
	*line = 0;
	if (len)
		msg[0] = '\0';
	return f ? read_stream(f, out, line, msg, len) : -errno;
}

/* Free m.  See lca_model.h. */
void lc_model_free(struct lc_model *m)
{
	if (!m)
		return;
	for (int c = 0; c < m->ncats; c++) {
		lc_expr_free(m->cats[c].expr);
		for (int t = 0; t < m->cats[c].nterms; t++)
			lc_expr_free(m->cats[c].terms[t].basis);
	}
	for (int v = 0; v < m->nvars; v++)
		free(m->vars[v]);
	free(m);
}

/* Find a category's model.  See lca_model.h. */
const struct lc_catmodel *lc_model_cat(const struct lc_model *m, const char *cat)
{
	for (int c = 0; c < m->ncats; c++)
		if (!strcmp(m->cats[c].cat, cat))
			return &m->cats[c];
	return NULL;
}

/* The active group of a threshold model at vals: 1 or 2 (0: no max). */
static int active_group(const struct lc_catmodel *cm, const double *vals)
{
	double s[3] = { 0, 0, 0 };

	for (int t = 0; t < cm->nterms; t++)
		s[cm->terms[t].group] += cm->terms[t].sign * cm->terms[t].coef *
					  lc_expr_eval(cm->terms[t].basis, vals);
	if (!cm->terms[0].group)
		return 0;
	return s[1] >= s[2] ? 1 : 2;
}

/* The terms' values at vals (those of the active branch of a threshold
 * model; 0 for the other) into g. */
static void basis_at(const struct lc_catmodel *cm, const double *vals, double *g)
{
	int grp = active_group(cm, vals);

	for (int t = 0; t < cm->nterms; t++)
		g[t] = cm->terms[t].group == grp ? lc_expr_eval(cm->terms[t].basis, vals) : 0;
}

/* a' C b over the model's covariance C. */
static double cov_form(const struct lc_catmodel *cm, const double *a, const double *b)
{
	double s = 0;
	int k = cm->nterms;

	for (int i = 0; i < k; i++)
		for (int j = 0; j < k; j++)
			s += a[i] * cm->cov[i * k + j] * b[j];
	return s;
}

/* The fitted value's variance.  See lca_model.h. */
double lc_model_var_fit(const struct lc_catmodel *cm, const double *at)
{
	double g[LC_FORMULA_MAXTERMS];

	if (!cm->has_cov)
		return 0;
	basis_at(cm, at, g);
	return cov_form(cm, g, g);
}

/* The gain of one more run.  See lca_model.h. */
double lc_model_gain(const struct lc_catmodel *cm, const double *at, const double *x)
{
	double gt[LC_FORMULA_MAXTERMS], gx[LC_FORMULA_MAXTERMS], y, c, noise;

	if (!cm->has_cov)
		return 0;
	basis_at(cm, at, gt);
	basis_at(cm, x, gx);
	y = lc_expr_eval(cm->expr, x);
	noise = cm->relative ? cm->s2 * y * y : cm->s2;
	c = cov_form(cm, gt, gx);
	return noise + cov_form(cm, gx, gx) > 0 ? c * c / (noise + cov_form(cm, gx, gx)) : 0;
}

/* Evaluate with a prediction interval.  See lca_model.h. */
void lc_model_eval(const struct lc_catmodel *cm, const double *vals, double *value, double *half)
{
	double g[LC_FORMULA_MAXTERMS], var;

	*value = lc_expr_eval(cm->expr, vals);
	*half = 0;
	if (!cm->has_cov)
		return;
	basis_at(cm, vals, g);
	var = cov_form(cm, g, g);
	var += cm->relative ? cm->s2 * *value * *value : cm->s2;
	*half = gsl_cdf_tdist_Pinv(0.5 + LC_LSQ_LEVEL / 2, cm->dof) * sqrt(fmax(var, 0));
	*half *= 1 + log2(lc_model_reach(cm, vals, NULL));
}

/* How far past its runs.  See lca_model.h. */
double lc_model_reach(const struct lc_catmodel *cm, const double *vals, int *slot)
{
	double r = 1;

	if (slot)
		*slot = -1;
	for (int v = 0; v < LC_MODEL_MAXVARS; v++)
		if (cm->ranged[v] && cm->hi[v] > 0 && vals[v] / cm->hi[v] > r) {
			r = vals[v] / cm->hi[v];
			if (slot)
				*slot = v;
		}
	return r;
}

/* What log() means in the file at path after its last "%log" line:
 * 0, LC_EXPR_LOG2 or LC_EXPR_LOG10.  Without one (or a file) it is log2. */
static unsigned file_logflags(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;
	unsigned flags = LC_EXPR_LOG2;
	struct reader rd = { .msg = (char[64]){ 0 }, .len = 64 };

	if (!f)
		return flags;
	while (getline(&buf, &cap, f) >= 0)
		if (!strncmp(buf, "%log", 4)) {
			buf[strcspn(buf, "\r\n")] = '\0';
			if (!log_line(&rd, buf + 4))
				flags = rd.logflags;
		}
	free(buf);
	fclose(f);
	return flags;
}

/* Write the coefficient intervals and statistics as the line's comment. */
static void write_comment(FILE *f, const struct lc_formula *fm, const struct lc_fit *fit,
			  const char *const *vars, const char *note)
{
	fprintf(f, "   # 90%%:");
	for (int t = 0; t < fm->nterms; t++)
		fprintf(f, "%s k%d in [%.4g, %.4g]%s", t ? ";" : "", t + 1,
			fit->coef[t] - fit->half[t], fit->coef[t] + fit->half[t],
			fit->flagged[t] ? " (contains 0)" : "");
	if (fm->is_max)
		fprintf(f, "; threshold %s ~ %.4g", vars[0], fit->threshold);
	fprintf(f, "; R2 %.4f; %d points%s%s\n", fit->r2, fit->n, note ? "; " : "", note ? note : "");
}

/* Append a fitted model.  See lca_model.h. */
int lc_model_append(const char *path, const char *cat, const char *const *vars, int nvars,
		    const struct lc_formula *fm, const struct lc_fit *fit, unsigned logflags,
		    const char *note)
{
	unsigned cur = file_logflags(path);
	char *text;
	int need, k = fm->nterms, rc = 0, fresh;
	FILE *f;

	need = lc_formula_print(fm, fit->coef, vars, 10, NULL, 0);
	text = malloc((size_t)need + 1);
	if (!text)
		return -ENOMEM;
	lc_formula_print(fm, fit->coef, vars, 10, text, (size_t)need + 1);
	f = lc_append_fopen(path);
	if (!f) {
		rc = -errno;
		free(text);
		return rc;
	}
	fresh = ftell(f) == 0;
	if (fresh)
		fprintf(f, "# lostcycles model file: one model per category (lostcycles fit --emit)\n");
	if (cur != logflags)
		fprintf(f, "%%log %s\n", logflags & LC_EXPR_LOG2 ? "2" : logflags & LC_EXPR_LOG10 ? "10" : "e");
	fprintf(f, "%s(", cat);
	for (int v = 0; v < nvars; v++)
		fprintf(f, "%s%s", v ? "," : "", vars[v]);
	fprintf(f, ") = %s", text);
	write_comment(f, fm, fit, vars, note);
	if (k == 0)
		goto close;	/* the zero model has nothing to vary */
	fprintf(f, "#: %s dof=%d s2=%.10g%s cov=", cat, fit->dof, fit->s2,
		fit->weighted == 2 ? " rel=1" : "");
	for (int i = 0; i < k * k; i++)
		fprintf(f, "%s%.10g", i ? "," : "", fit->cov[i]);
	fprintf(f, "\n");
close:
	free(text);
	if (fclose(f))
		rc = -errno;
	return rc;
}

/* Append "%what v" unless the file holds as much (pmax: the "%pmax" line,
 * else "%cpus"). */
static int append_count(const char *path, const char *what, unsigned v, int pmax)
{
	struct lc_model *m = NULL;
	char msg[8];
	int line, said;
	FILE *f;

	said = !lc_model_read(path, &m, &line, msg, sizeof(msg)) && (pmax ? m->pmax : m->cpus) >= v;
	lc_model_free(m);
	if (said)
		return 0;
	f = lc_append_fopen(path);
	if (!f)
		return -errno;
	fprintf(f, "%%%s %u\n", what, v);
	return fclose(f) ? -errno : 0;
}

/* Append a "%cpus" line.  See lca_model.h. */
int lc_model_append_cpus(const char *path, unsigned cpus)
{
	return append_count(path, "cpus", cpus, 0);
}

/* Append a "%range" line.  See lca_model.h. */
int lc_model_append_range(const char *path, const char *cat, const char *const *vars,
			  int nvars, const double *lo, const double *hi, int turns)
{
	FILE *f = lc_append_fopen(path);

	if (!f)
		return -errno;
	fprintf(f, "%%range %s", cat);
	for (int v = 0; v < nvars; v++)
		fprintf(f, " %s=%.10g..%.10g", vars[v], lo[v], hi[v]);
	fprintf(f, "%s\n", turns ? " turns" : "");
	return fclose(f) ? -errno : 0;
}

/* Append a "%pmax" line.  See lca_model.h. */
int lc_model_append_pmax(const char *path, unsigned pmax)
{
	return append_count(path, "pmax", pmax, 1);
}
