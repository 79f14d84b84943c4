/*
 * sweep.c — variables, designs, placeholders and the runs file of
 * "lostcycles sweep" (see lc_sweep.h).
 */
#include "lc_sweep.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lc_util.h"
#include "lca_grid.h"
#include "lca_predict.h"
#include "lca_runs.h"

/* ---- variables ---------------------------------------------------------------- */

static int is_name(const char *s, size_t n)
{
	if (!n || n >= 32 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return 0;
	for (size_t i = 1; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return 0;
	return 1;
}

void lc_sweep_var_free(struct lc_sweep_var *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->values[i]);
	v->n = 0;
}

int lc_sweep_var_parse(const char *spec, struct lc_sweep_var *v, char *why, size_t len)
{
	const char *eq = strchr(spec, '='), *s;

	*v = (struct lc_sweep_var){ .n = 0 };
	if (!eq || !is_name(spec, (size_t)(eq - spec)))
		return lc_fail(why, len, -EINVAL, "'%s': expected NAME=V1,V2,...", spec);
	memcpy(v->name, spec, (size_t)(eq - spec));
	for (s = eq + 1;;) {
		size_t n = strcspn(s, ",");

		if (!n || strcspn(s, " \t\n={}") < n) {
			lc_sweep_var_free(v);
			return lc_fail(why, len, -EINVAL, "'%s': empty value or one with a space, "
				       "'=', '{' or '}'", spec);
		}
		if (v->n == LC_SWEEP_VALUES) {
			lc_sweep_var_free(v);
			return lc_fail(why, len, -EINVAL, "'%s': more than %d values", spec,
				       LC_SWEEP_VALUES);
		}
		v->values[v->n] = strndup(s, n);
		if (!v->values[v->n]) {
			lc_sweep_var_free(v);
			return -ENOMEM;
		}
		for (size_t k = 0; k < v->n; k++)
			if (!strcmp(v->values[k], v->values[v->n])) {
				v->n++;
				lc_sweep_var_free(v);
				return lc_fail(why, len, -EINVAL, "'%s': a value appears twice", spec);
			}
		v->n++;
		if (!s[n])
			break;
		s += n + 1;
	}
	return 0;
}

/* ---- designs ---------------------------------------------------------------------- */

int lc_sweep_design_parse(const char *s)
{
	return !strcmp(s, "full") ? LC_DESIGN_FULL : !strcmp(s, "edges") ? LC_DESIGN_EDGES :
	       !strcmp(s, "corners") ? LC_DESIGN_CORNERS : -1;
}

int lc_sweep_points(const struct lc_sweep_var *vars, int nvars, enum lc_sweep_design d,
		    size_t **idx, size_t *npoints)
{
	size_t total = 1, k = 0, row[LC_SWEEP_VARS] = { 0 };
	size_t *out;

	for (int i = 0; i < nvars; i++)
		total *= vars[i].n;
	out = malloc((total ? total : 1) * (size_t)(nvars ? nvars : 1) * sizeof(*out));
	if (!out)
		return -ENOMEM;
	for (size_t p = 0; p < total; p++) {
		int interior = 0;

		for (int i = nvars - 1, q = (int)p; i >= 0; i--) {	/* last varies fastest */
			row[i] = (size_t)q % vars[i].n;
			q /= (int)vars[i].n;
		}
		for (int i = 0; i < nvars; i++)
			interior += row[i] != 0 && row[i] != vars[i].n - 1;
		if ((d == LC_DESIGN_EDGES && interior > 1) || (d == LC_DESIGN_CORNERS && interior))
			continue;
		memcpy(out + k * (size_t)nvars, row, (size_t)nvars * sizeof(*row));
		k++;
	}
	*idx = out;
	*npoints = k;
	return 0;
}

/* ---- placeholders --------------------------------------------------------------- */

int lc_sweep_subst(const char *arg, const struct lc_sweep_var *vars, int nvars,
		   const size_t *row, char **out, char *why, size_t len)
{
	size_t cap = strlen(arg) + 1, n = 0;
	char *s = malloc(cap);

	if (!s)
		return -ENOMEM;
	for (const char *p = arg; *p;) {
		const char *val = NULL, *end;
		size_t vl, need;

		if (*p != '{') {
			s[n++] = *p++;
			continue;
		}
		end = strchr(p, '}');
		if (!end) {
			free(s);
			return lc_fail(why, len, -EINVAL, "'%s': '{' without '}'", arg);
		}
		for (int i = 0; i < nvars; i++)
			if (strlen(vars[i].name) == (size_t)(end - p - 1) &&
			    !memcmp(vars[i].name, p + 1, (size_t)(end - p - 1)))
				val = vars[i].values[row[i]];
		if (!val) {
			free(s);
			return lc_fail(why, len, -EINVAL, "'%s': {%.*s} is not a variable (-v)", arg,
				       (int)(end - p - 1), p + 1);
		}
		vl = strlen(val);
		need = n + vl + strlen(end + 1) + 1;
		if (need > cap) {
			char *t = realloc(s, need);

			if (!t) {
				free(s);
				return -ENOMEM;
			}
			s = t;
			cap = need;
		}
		memcpy(s + n, val, vl);
		n += vl;
		p = end + 1;
	}
	s[n] = 0;
	*out = s;
	return 0;
}

/* ---- the runs file ------------------------------------------------------------------- */

struct lc_sweep_done {
	int nvars;
	size_t n, cap;
	size_t *rows;		/* n rows of nvars indices */
	int *reps;
};

/* Whether two values are the same: equal text, or equal numbers. */
static int same_value(const char *a, size_t alen, const char *b)
{
	char ta[64], *ea, *eb;
	double x, y;

	if (strlen(b) == alen && !memcmp(a, b, alen))
		return 1;
	if (alen >= sizeof(ta))
		return 0;
	memcpy(ta, a, alen);
	ta[alen] = 0;
	x = strtod(ta, &ea);
	y = strtod(b, &eb);
	return ea != ta && !*ea && eb != b && !*eb && x == y;
}

/* The value of name on the line, or NULL; *vlen its length. */
static const char *find_pair(const char *line, const char *name, size_t *vlen)
{
	size_t nl = strlen(name);

	for (const char *s = line; *s;) {
		const char *tok;

		while (isspace((unsigned char)*s))
			s++;
		tok = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		if ((size_t)(s - tok) > nl && !memcmp(tok, name, nl) && tok[nl] == '=') {
			*vlen = (size_t)(s - tok) - nl - 1;
			return tok + nl + 1;
		}
	}
	return NULL;
}

static int done_add(struct lc_sweep_done *d, const size_t *row, int rep);

/* Note the line if it is one of the sweep's points. */
static int note_line(struct lc_sweep_done *d, const char *line, const struct lc_sweep_var *vars)
{
	size_t row[LC_SWEEP_VARS], vlen;
	const char *v = find_pair(line, "rep", &vlen);
	char rep[16];

	if (v && (vlen == 0 || vlen >= sizeof(rep)))
		return 0;
	memcpy(rep, v ? v : "0", v ? vlen : 1);	/* no rep=: not a sweep's line, rep 0 */
	rep[v ? vlen : 1] = 0;
	for (int i = 0; i < d->nvars; i++) {
		size_t k;

		v = find_pair(line, vars[i].name, &vlen);
		if (!v)
			return 0;
		for (k = 0; k < vars[i].n && !same_value(v, vlen, vars[i].values[k]); k++)
			;
		if (k == vars[i].n)
			return 0;
		row[i] = k;
	}
	return done_add(d, row, atoi(rep));
}

/* Add row (repeat rep) to d.  0 or -ENOMEM. */
static int done_add(struct lc_sweep_done *d, const size_t *row, int rep)
{
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 16;
		size_t *r = realloc(d->rows, cap * (size_t)(d->nvars ? d->nvars : 1) * sizeof(*r));
		int *p;

		if (!r)
			return -ENOMEM;
		d->rows = r;
		p = realloc(d->reps, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		d->reps = p;
		d->cap = cap;
	}
	memcpy(d->rows + d->n * (size_t)d->nvars, row, (size_t)d->nvars * sizeof(*row));
	d->reps[d->n++] = rep;
	return 0;
}

/* Cut a last line that lacks its newline.  0 or -errno. */
static int cut_partial(const char *path, int *cut)
{
	int fd = open(path, O_RDWR | O_CLOEXEC), e = 0;
	struct stat st;
	off_t end;
	char c;

	*cut = 0;
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (fstat(fd, &st)) {
		e = -errno;
		goto out;
	}
	for (end = st.st_size; end > 0; end--) {
		if (pread(fd, &c, 1, end - 1) != 1) {
			e = -EIO;
			goto out;
		}
		if (c == '\n')
			break;
	}
	if (end != st.st_size) {
		if (ftruncate(fd, end) || fsync(fd))
			e = -errno;
		else
			*cut = 1;
	}
out:
	close(fd);
	return e;
}

int lc_sweep_done_load(const char *path, const struct lc_sweep_var *vars, int nvars,
		       struct lc_sweep_done **out, int *cut)
{
	struct lc_sweep_done *d = calloc(1, sizeof(*d));
	char *line = NULL;
	size_t cap = 0;
	FILE *f;
	int e;

	if (!d)
		return -ENOMEM;
	d->nvars = nvars;
	e = cut_partial(path, cut);
	if (e) {
		free(d);
		return e;
	}
	f = fopen(path, "re");
	if (!f) {
		if (errno != ENOENT) {
			e = -errno;
			free(d);
			return e;
		}
		*out = d;
		return 0;
	}
	while (getline(&line, &cap, f) > 0) {
		if (line[0] == '#')
			continue;
		e = note_line(d, line, vars);
		if (e)
			break;
	}
	free(line);
	fclose(f);
	if (e) {
		lc_sweep_done_free(d);
		return e;
	}
	*out = d;
	return 0;
}

int lc_sweep_done_has(const struct lc_sweep_done *d, const size_t *row, int rep)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->reps[i] == rep &&
		    !memcmp(d->rows + i * (size_t)d->nvars, row, (size_t)d->nvars * sizeof(*row)))
			return 1;
	return 0;
}

size_t lc_sweep_done_count(const struct lc_sweep_done *d)
{
	return d->n;
}

void lc_sweep_done_free(struct lc_sweep_done *d)
{
	if (!d)
		return;
	free(d->rows);
	free(d->reps);
	free(d);
}

int lc_sweep_append(const char *path, const char *line)
{
	size_t n = strlen(line);
	int fd = lc_append_open(path), e = 0;
	ssize_t w;

	if (fd < 0)
		return fd;
	w = write(fd, line, n);
	if (w < 0)
		e = -errno;
	else if ((size_t)w != n)
		e = -ENOSPC;	/* a short write: cut it off again below */
	if (e && w > 0) {
		struct stat st;

		if (!fstat(fd, &st) && ftruncate(fd, st.st_size - w))
			e = -errno;
	}
	if (!e && fsync(fd))
		e = -errno;
	close(fd);
	return e;
}

/* ---- suggesting points ------------------------------------------------------------- */

/* Resolve a condition's name: a key of the runs ctx. */
static int resolve_run_key(void *ctx, const char *name, size_t len)
{
	return lc_runs_find_key(ctx, name, len);
}

/* Add run i of r to d when cond holds for it and its values are a point of
 * the -v grid.  0 or -ENOMEM. */
static int add_selected(struct lc_sweep_done *d, const struct lc_runs *r, size_t i,
			const struct lc_sweep_var *vars, int nvars, const struct lc_expr *cond)
{
	double *all = malloc(((size_t)lc_runs_nkeys(r) + 1) * sizeof(*all)), v, c;
	size_t row[LC_SWEEP_VARS];
	int rep = 0, e = 0, ok;

	if (!all)
		return -ENOMEM;
	for (int k = 0; k < lc_runs_nkeys(r); k++)
		lc_runs_get(r, i, k, &all[k]);
	c = lc_expr_eval(cond, all);
	ok = c != 0 && !isnan(c);
	for (int a = 0; ok && a < nvars; a++) {
		size_t k;

		int key = lc_runs_find_key(r, vars[a].name, strlen(vars[a].name));

		ok = key >= 0 && lc_runs_get(r, i, key, &v) == LC_CELL_VALUE;
		for (k = 0; ok && k < vars[a].n && strtod(vars[a].values[k], NULL) != v; k++)
			;
		ok = ok && k < vars[a].n;
		row[a] = k;
	}
	if (ok && lc_runs_find_key(r, "rep", 3) >= 0 &&
	    lc_runs_get(r, i, lc_runs_find_key(r, "rep", 3), &v) == LC_CELL_VALUE)
		rep = (int)v;
	if (ok)
		e = done_add(d, row, rep);
	free(all);
	return e;
}

/* Whether row has a line in done with any repeat. */
static int done_any(const struct lc_sweep_done *d, const size_t *row)
{
	for (size_t i = 0; i < d->n; i++)
		if (!memcmp(d->rows + i * (size_t)d->nvars, row, (size_t)d->nvars * sizeof(*row)))
			return 1;
	return 0;
}

/* The values of row into vals (numbers), or -EINVAL with the reason. */
static int row_values(const struct lc_sweep_var *vars, int nvars, const size_t *row, double *vals,
		      char *why, size_t len)
{
	for (int i = 0; i < nvars; i++) {
		char *end;

		vals[i] = strtod(vars[i].values[row[i]], &end);
		if (*end || end == vars[i].values[row[i]])
			return lc_fail(why, len, -EINVAL, "%s=%s is not a number", vars[i].name,
				       vars[i].values[row[i]]);
	}
	return 0;
}

/* Where the prediction is wanted: the targets grid's points (or, without
 * one, the -v grid's) as environments over tn/tv.  Their count, or -errno. */
static int target_points(const struct lc_sweep_var *vars, int nvars, const struct lc_grid *g,
			 const size_t *pts, size_t npts, double **tv, char *why, size_t len)
{
	size_t n = g ? lc_grid_count(g) : npts, w = g ? (size_t)g->naxes : (size_t)nvars;

	if (n > 100000)
		return lc_fail(why, len, -E2BIG, "more than 100000 target points");
	*tv = malloc((n * w + 1) * sizeof(**tv));
	if (!*tv)
		return lc_fail(why, len, -ENOMEM, "out of memory");
	for (size_t k = 0; k < n; k++) {
		int idx[LC_GRID_MAXAXES];

		if (!g) {
			if (row_values(vars, nvars, pts + k * (size_t)nvars, *tv + k * w, why, len))
				return -EINVAL;
			continue;
		}
		lc_grid_index(g, k, idx);
		for (size_t a = 0; a < w; a++)
			(*tv)[k * w + a] = g->axis[a].v[idx[a]];
	}
	return (int)n;
}

/* The mean relative shrinking of T's variance at the targets by a run at x. */
static int narrowing(const struct lc_model *m, const struct lc_env *x, const struct lc_env *t0,
		     const double *tv, int nt, size_t w, double *score, const char **missing)
{
	double sum = 0;
	int used = 0;

	for (int k = 0; k < nt; k++) {
		struct lc_env t = *t0;
		double var, gain;
		int rc;

		t.vals = tv + (size_t)k * w;
		if ((rc = lc_predict_gain(m, &t, x, &var, &gain, missing)))
			return rc;
		if (var > 0) {
			sum += fmin(gain / var, 1);
			used++;
		}
	}
	*score = used ? sum / used : 0;
	return 0;
}

/* Insert sg into out[0..*kept) (at most max), the most narrowing first. */
static void keep_best(struct lc_suggestion *out, size_t *kept, size_t max,
		      const struct lc_suggestion *sg)
{
	size_t at;

	for (at = *kept; at > 0 && out[at - 1].narrow < sg->narrow; at--)
		if (at < max)
			out[at] = out[at - 1];
	if (at < max) {
		out[at] = *sg;
		if (*kept < max)
			(*kept)++;
	}
}

int lc_sweep_suggest(const struct lc_model *m, const struct lc_sweep_var *vars, int nvars,
		     const struct lc_sweep_done *done, const struct lc_grid *targets,
		     struct lc_suggestion *out, size_t max, char *why, size_t len)
{
	const char *names[LC_SWEEP_VARS], *tnames[LC_GRID_MAXAXES], *missing = NULL;
	double vals[LC_SWEEP_VARS], *tv = NULL;
	struct lc_env env = { names, vals, nvars }, t0;
	size_t *pts, npts, kept = 0;
	int e, nt;

	for (int i = 0; i < nvars; i++)
		names[i] = vars[i].name;
	for (int a = 0; targets && a < targets->naxes; a++)
		tnames[a] = targets->axis[a].name;
	t0 = targets ? (struct lc_env){ tnames, NULL, targets->naxes } : env;
	e = lc_sweep_points(vars, nvars, LC_DESIGN_FULL, &pts, &npts);
	if (e)
		return lc_fail(why, len, e, "out of memory");
	nt = target_points(vars, nvars, targets, pts, npts, &tv, why, len);
	for (size_t k = 0; nt >= 0 && k < npts; k++) {
		const size_t *row = pts + k * (size_t)nvars;
		struct lc_suggestion sg = { .t = 0 };

		if (done_any(done, row))
			continue;
		if ((e = row_values(vars, nvars, row, vals, why, len)))
			break;
		e = lc_predict_total(m, &env, NULL, &sg.t, &sg.half, &missing);
		if (!e)
			e = narrowing(m, &env, &t0, tv, nt, (size_t)t0.n, &sg.narrow, &missing);
		if (e) {
			e = lc_fail(why, len, -EINVAL, "the model needs %s, which is not a variable of "
				    "the sweep (-v)%s", missing ? missing : "p", targets ? " or of the "
				    "targets" : "");
			break;
		}
		if (!(sg.t > 0) || !(sg.half >= 0))
			continue;
		sg.narrow = 1 - sqrt(1 - sg.narrow);
		memcpy(sg.row, row, (size_t)nvars * sizeof(*row));
		keep_best(out, &kept, max, &sg);
	}
	free(pts);
	free(tv);
	return nt < 0 ? nt : e ? e : (int)kept;
}

int lc_sweep_done_where(const char *path, const struct lc_sweep_var *vars, int nvars,
			const char *cond_text, struct lc_sweep_done **out, char *why, size_t len)
{
	struct lc_sweep_done *d = calloc(1, sizeof(*d));
	struct lc_runs *r = NULL;
	struct lc_runs_error re;
	struct lc_expr *cond = NULL;
	struct lc_parse_error pe;
	int e = d ? lc_runs_read(path, &r, &re) : -ENOMEM;

	if (e == -EINVAL)
		lc_fail(why, len, e, "%s:%d: %s: '%s'", path, re.line, re.msg, re.token);
	if (!e && lc_expr_parse_cond(cond_text, 0, resolve_run_key, r, &cond, &pe))
		e = lc_fail(why, len, -EINVAL, "-x '%s': column %d: %s", cond_text, pe.column, pe.msg);
	if (d)
		d->nvars = nvars;
	for (size_t i = 0; !e && i < lc_runs_count(r); i++)
		e = add_selected(d, r, i, vars, nvars, cond);
	lc_expr_free(cond);
	lc_runs_free(r);
	if (e && e != -ENOENT) {
		lc_sweep_done_free(d);
		return e;
	}
	*out = d;
	return e;
}
