/*
 * lca_runs.c — read runs files and turn runs into fitting points.
 *
 * Runs are stored as one flat array of (key, state, value) cells; each run
 * is a slice of it.  Lookups scan the slice, which holds a dozen cells.
 */
#include "lc_util.h"
#include "lc_profile.h"
#include "lca_runs.h"
#include "lca_formula.h"
#include "lca_models.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct cell {
	int key;
	enum lc_cell state;
	double v;
	char *text;		/* a LC_CELL_TEXT value's text, else NULL */
};

struct run {
	size_t first, n;	/* slice of cells */
	int line;
};

struct lc_runs {
	char **keys;
	int nkeys, capkeys;
	struct cell *cells;
	size_t ncells, capcells;
	struct run *runs;
	size_t nruns, capruns;
};

/* The number of a name, or -1.  See lca_runs.h. */
int lc_runs_find_key(const struct lc_runs *r, const char *name, size_t len)
{
	for (int i = 0; i < r->nkeys; i++)
		if (strlen(r->keys[i]) == len && !memcmp(r->keys[i], name, len))
			return i;
	return -1;
}

/* The number of name[0..len), added when new; -ENOMEM on failure. */
static int intern_key(struct lc_runs *r, const char *name, size_t len)
{
	int k = lc_runs_find_key(r, name, len);
	size_t cap = (size_t)r->capkeys;
	char *s;

	if (k >= 0)
		return k;
	if (lc_grow((void **)&r->keys, &cap, (size_t)r->nkeys + 1, sizeof(*r->keys)))
		return -ENOMEM;
	r->capkeys = (int)cap;
	s = strndup(name, len);
	if (!s)
		return -ENOMEM;
	r->keys[r->nkeys] = s;
	return r->nkeys++;
}

/* Fill err with line, token and a printf message; returns -EINVAL. */
static int bad(struct lc_runs_error *err, int line, const char *tok, size_t toklen,
	       const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -EINVAL;
	err->line = line;
	snprintf(err->token, sizeof(err->token), "%.*s", (int)toklen, tok);
	va_start(ap, fmt);
	lc_vfail(err->msg, sizeof(err->msg), -EINVAL, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* True when s[0..len) spells "not available". */
static int is_na(const char *s, size_t len)
{
	static const char *const words[] = { "na", "NA", "n/a", "N/A", "-", "" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == len && !memcmp(words[i], s, len))
			return 1;
	return 0;
}

/* Parse the value s[0..len) into *state and *v.  Returns 0 or -EINVAL. */
static int parse_value(const char *s, size_t len, enum lc_cell *state, double *v)
{
	char buf[64], *end;

	if (is_na(s, len)) {
		*state = LC_CELL_NA;
		*v = NAN;
		return 0;
	}
	if (len >= sizeof(buf) || !(isdigit((unsigned char)s[0]) || strchr("+-.", s[0])))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*v = strtod(buf, &end);
	if (end == buf || *end || errno == ERANGE || !isfinite(*v))
		return -EINVAL;
	*state = LC_CELL_VALUE;
	return 0;
}

/* True when s[0..len) is a valid name: a letter or '_', then letters,
 * digits, '_' or '.'. */
static int is_name(const char *s, size_t len)
{
	if (!len || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return 0;
	for (size_t i = 1; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '.')
			return 0;
	return 1;
}

/* Append a cell to the run being built (the last one); rejects a name the
 * run already has.  Returns 0, -EEXIST or -ENOMEM. */
static int add_cell(struct lc_runs *r, int key, enum lc_cell state, double v)
{
	struct run *run = &r->runs[r->nruns - 1];

	for (size_t i = run->first; i < run->first + run->n; i++)
		if (r->cells[i].key == key)
			return -EEXIST;
	if (lc_grow((void **)&r->cells, &r->capcells, r->ncells + 1, sizeof(*r->cells)))
		return -ENOMEM;
	r->cells[r->ncells++] = (struct cell){ key, state, v, NULL };
	run->n++;
	return 0;
}

/* add_cell of a text value s[0..len) (LC_CELL_TEXT, kept). */
static int add_text_cell(struct lc_runs *r, int key, const char *s, size_t len)
{
	char *t = strndup(s, len);
	int rc = t ? add_cell(r, key, LC_CELL_TEXT, NAN) : -ENOMEM;

	if (rc)
		free(t);
	else
		r->cells[r->ncells - 1].text = t;
	return rc;
}

/* True when s[0..len) can name a region: 1..LC_REGION_MAX-1 bytes, none
 * a blank, a control character, '=', ',', '"' or a backslash.  See
 * lca_runs.h. */
int lc_runs_region_ok(const char *s, size_t len)
{
	if (!len || len >= LC_REGION_MAX)
		return 0;
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] <= ' ' || s[i] == 0x7f || strchr("=,\\\"", s[i]))
			return 0;
	return 1;
}

/* Start a new run for file line `line`.  Returns 0 or -ENOMEM. */
static int start_run(struct lc_runs *r, int line)
{
	if (lc_grow((void **)&r->runs, &r->capruns, r->nruns + 1, sizeof(*r->runs)))
		return -ENOMEM;
	r->runs[r->nruns++] = (struct run){ .first = r->ncells, .n = 0, .line = line };
	return 0;
}

/* Add the value s[0..len) under key to the current run, reporting errors
 * against token tok[0..toklen) of line `line`. */
static int add_value(struct lc_runs *r, int key, const char *s, size_t len, int line,
		     const char *tok, size_t toklen, struct lc_runs_error *err)
{
	enum lc_cell state;
	double v;
	int rc;

	if (!strcmp(r->keys[key], LC_RUNS_REGION) && !lc_runs_region_ok(s, len))
		return bad(err, line, tok, toklen, "a region name is 1..%d characters, none a "
			   "blank, '=', ',', '\"' or '\\'", LC_REGION_MAX - 1);
	if (!strcmp(r->keys[key], LC_RUNS_REGION) || parse_value(s, len, &state, &v)) {
		if (!len || lc_key_lookup(r->keys[key]) >= 0)
			return bad(err, line, tok, toklen, len ? "value is not a number or 'na'"
								 : "empty value");
		rc = add_text_cell(r, key, s, len);	/* a note such as impl=task */
	} else {
		rc = add_cell(r, key, state, v);
	}
	if (rc == -EEXIST)
		return bad(err, line, tok, toklen, "'%s' appears twice on the line", r->keys[key]);
	return rc;
}

/* Parse one name=value line into a new run. */
static int parse_pairs(struct lc_runs *r, const char *s, int line, struct lc_runs_error *err)
{
	int rc = start_run(r, line);

	while (!rc) {
		const char *tok, *eq;
		size_t len;
		int key;

		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		tok = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		len = (size_t)(s - tok);
		eq = memchr(tok, '=', len);
		if (!eq || !is_name(tok, (size_t)(eq - tok)))
			return bad(err, line, tok, len, "expected NAME=VALUE");
		key = intern_key(r, tok, (size_t)(eq - tok));
		if (key < 0)
			return key;
		rc = add_value(r, key, eq + 1, len - (size_t)(eq - tok) - 1, line, tok, len, err);
	}
	return rc;
}

/* Split a CSV line at commas into at most max fields, trimming blanks and
 * double quotes; starts[i]/lens[i] describe field i.  Returns the count. */
static int split_csv(const char *s, const char **starts, size_t *lens, int max)
{
	int n = 0;

	for (;;) {
		const char *f = s, *e;

		while (*s && *s != ',')
			s++;
		e = s;
		while (f < e && (isspace((unsigned char)*f) || *f == '"'))
			f++;
		while (e > f && (isspace((unsigned char)e[-1]) || e[-1] == '"'))
			e--;
		if (n < max) {
			starts[n] = f;
			lens[n] = (size_t)(e - f);
		}
		n++;
		if (!*s)
			return n;
		s++;
	}
}

#define MAXCOLS 256

/* Parse a CSV header line into column keys. */
static int parse_header(struct lc_runs *r, const char *s, int line, int *cols, int *ncols,
			struct lc_runs_error *err)
{
	const char *st[MAXCOLS];
	size_t ln[MAXCOLS];
	int n = split_csv(s, st, ln, MAXCOLS);

	if (n > MAXCOLS)
		return bad(err, line, "", 0, "more than %d columns", MAXCOLS);
	for (int i = 0; i < n; i++) {
		if (!is_name(st[i], ln[i]))
			return bad(err, line, st[i], ln[i], "column name is not a NAME");
		cols[i] = intern_key(r, st[i], ln[i]);
		if (cols[i] < 0)
			return cols[i];
		for (int j = 0; j < i; j++)
			if (cols[j] == cols[i])
				return bad(err, line, st[i], ln[i], "column named twice");
	}
	*ncols = n;
	return 0;
}

/* Parse one CSV data line into a new run. */
static int parse_csv_row(struct lc_runs *r, const char *s, int line, const int *cols,
			 int ncols, struct lc_runs_error *err)
{
	const char *st[MAXCOLS];
	size_t ln[MAXCOLS];
	int n = split_csv(s, st, ln, MAXCOLS), rc;

	if (n != ncols)
		return bad(err, line, s, strcspn(s, "\n"), "expected %d fields, got %d", ncols, n);
	rc = start_run(r, line);
	for (int i = 0; i < n && !rc; i++)
		rc = add_value(r, cols[i], st[i], ln[i], line, st[i], ln[i], err);
	return rc;
}

/* True when the line looks like a CSV header: commas and no '='. */
static int looks_csv(const char *s)
{
	return strchr(s, ',') && !strchr(s, '=');
}

/* Read runs from f.  See lca_runs.h. */
int lc_runs_parse(FILE *f, struct lc_runs **out, struct lc_runs_error *err)
{
	struct lc_runs *r = calloc(1, sizeof(*r));
	char *buf = NULL, *s;
	size_t cap = 0;
	int line = 0, csv = -1, ncols = 0, rc = 0;
	int *cols = malloc(MAXCOLS * sizeof(*cols));

	*out = NULL;
	if (err)
		*err = (struct lc_runs_error){ 0 };
	if (!r || !cols) {
		rc = -ENOMEM;
		goto out;
	}
	while (!rc && getline(&buf, &cap, f) >= 0) {
		line++;
		buf[strcspn(buf, "\r\n")] = '\0';
		for (s = buf; isspace((unsigned char)*s); s++)
			;
		if (!*s || *s == '#')
			continue;
		if (csv < 0) {
			csv = looks_csv(s);
			if (csv) {
				rc = parse_header(r, s, line, cols, &ncols, err);
				continue;
			}
		}
		rc = csv ? parse_csv_row(r, s, line, cols, ncols, err) : parse_pairs(r, s, line, err);
	}
	if (!rc && ferror(f))
		rc = -EIO;
out:
	free(buf);
	free(cols);
	if (rc)
		lc_runs_free(r);
	else
		*out = r;
	return rc;
}

/* ---- building runs one by one (readers of other formats) ---------------------- */

struct lc_runs *lc_runs_new(void)
{
	return calloc(1, sizeof(struct lc_runs));
}

int lc_runs_start(struct lc_runs *r, int line)
{
	return start_run(r, line);
}

int lc_runs_add(struct lc_runs *r, const char *name, double v)
{
	size_t len = strlen(name);
	int key;

	if (!r->nruns || !is_name(name, len) || isinf(v))
		return -EINVAL;
	key = intern_key(r, name, len);
	if (key < 0)
		return key;
	return add_cell(r, key, isnan(v) ? LC_CELL_NA : LC_CELL_VALUE, v);
}

int lc_runs_add_text(struct lc_runs *r, const char *name, const char *text)
{
	size_t len = strlen(name);
	int key;

	if (!r->nruns || !is_name(name, len) || !*text ||
	    (!strcmp(name, LC_RUNS_REGION) && !lc_runs_region_ok(text, strlen(text))))
		return -EINVAL;
	key = intern_key(r, name, len);
	if (key < 0)
		return key;
	return add_text_cell(r, key, text, strlen(text));
}

/* Counts and names.  See lca_runs.h. */
size_t lc_runs_count(const struct lc_runs *r) { return r->nruns; }
int lc_runs_nkeys(const struct lc_runs *r) { return r->nkeys; }
int lc_runs_line(const struct lc_runs *r, size_t run) { return r->runs[run].line; }

const char *lc_runs_keyname(const struct lc_runs *r, int key)
{
	return key >= 0 && key < r->nkeys ? r->keys[key] : NULL;
}

/* Look up a cell.  See lca_runs.h. */
enum lc_cell lc_runs_get(const struct lc_runs *r, size_t run, int key, double *v)
{
	const struct run *rn = &r->runs[run];

	*v = NAN;
	for (size_t i = rn->first; i < rn->first + rn->n; i++)
		if (r->cells[i].key == key) {
			*v = r->cells[i].v;
			return r->cells[i].state;
		}
	return LC_CELL_ABSENT;
}

const char *lc_runs_text(const struct lc_runs *r, size_t run, int key)
{
	const struct run *rn = &r->runs[run];

	for (size_t i = rn->first; i < rn->first + rn->n; i++)
		if (r->cells[i].key == key)
			return r->cells[i].text;
	return NULL;
}

/* Free r.  See lca_runs.h. */
void lc_runs_free(struct lc_runs *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->nkeys; i++)
		free(r->keys[i]);
	free(r->keys);
	for (size_t i = 0; i < r->ncells; i++)
		free(r->cells[i].text);
	free(r->cells);
	free(r->runs);
	free(r);
}

/* One selected run while building points: its x row and y value. */
struct sel {
	const double *x;
	double y;
	int nvars;
	int line;
};

/* Order selected runs by their x rows, lexicographically. */
static int cmp_sel(const void *a, const void *b)
{
	const struct sel *p = a, *q = b;

	for (int i = 0; i < p->nvars; i++)
		if (p->x[i] != q->x[i])
			return p->x[i] < q->x[i] ? -1 : 1;
	return 0;
}

/* Order selected runs by their x rows, then by line (file order within a
 * point). */
static int cmp_sel_line(const void *a, const void *b)
{
	const struct sel *p = a, *q = b;
	int c = cmp_sel(a, b);

	return c ? c : (p->line > q->line) - (p->line < q->line);
}

/* Fill vals[0..nkeys) with the values of run i (NaN when absent or na). */
static void run_values(const struct lc_runs *r, size_t i, double *vals)
{
	for (int k = 0; k < r->nkeys; k++)
		lc_runs_get(r, i, k, &vals[k]);
}

/* Take the value of key less of run i off *y; 0 when the run lacks it. */
static int less_value(const struct lc_runs *r, size_t i, int less, double *y)
{
	double v;

	if (lc_runs_get(r, i, less, &v) != LC_CELL_VALUE)
		return 0;
	*y -= v;
	return 1;
}

/* Select the usable runs into sel[] and their x rows into xs; counts the
 * skipped ones in out.  Returns how many were selected. */
static size_t select_runs(const struct lc_runs *r, const int *vars, int nvars, int ykey,
			  int less, const struct lc_expr *cond, double *vals, double *xs,
			  struct sel *sel, struct lc_points *out)
{
	size_t m = 0;

	for (size_t i = 0; i < r->nruns; i++) {
		enum lc_cell yc;
		double y;
		int ok = 1, lack = -1;

		run_values(r, i, vals);
		if (cond && !(lc_expr_eval(cond, vals) != 0 && !isnan(lc_expr_eval(cond, vals)))) {
			out->excluded++;
			continue;
		}
		for (int v = 0; v < nvars; v++)
			if (lc_runs_get(r, i, vars[v], &xs[m * (size_t)nvars + (size_t)v]) != LC_CELL_VALUE &&
			    ok) {
				ok = 0;
				lack = vars[v];
			}
		yc = lc_runs_get(r, i, ykey, &y);
		if (less >= 0 && yc == LC_CELL_VALUE && ok && !less_value(r, i, less, &y)) {
			ok = 0;
			lack = less;
		}
		if (yc == LC_CELL_NA) {
			out->na++;
			continue;
		}
		if (!ok || yc != LC_CELL_VALUE) {
			out->skip_line[out->missing] = r->runs[i].line;
			out->skip_key[out->missing] = ok ? ykey : lack;
			out->missing++;
			continue;
		}
		sel[m] = (struct sel){ &xs[m * (size_t)nvars], y, nvars, r->runs[i].line };
		m++;
	}
	return m;
}

/* Order doubles. */
static int cmp_double(const void *a, const void *b)
{
	double p = *(const double *)a, q = *(const double *)b;

	return p < q ? -1 : p > q;
}

/* The median of v[0..n) (sorted in place); NaN when n is 0. */
static double median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The end of the group of equal x that starts at sel[i]. */
static size_t group_end(const struct sel *sel, size_t m, size_t i)
{
	size_t j = i;

	while (j < m && !cmp_sel(&sel[i], &sel[j]))
		j++;
	return j;
}

/* The scale a repeat's distance from its point's median is relative to:
 * the median's size, or for a median of 0 a thousandth of the typical
 * value of all runs (so that 0, 0, 1e-9 is not far). */
static double scale_of(double med, double typical)
{
	double s = fabs(med);

	return s > 0 ? s : typical > 0 ? 1e-3 * typical : 1;
}

/* c4(n): the mean of the sample standard deviation of n normal values over
 * their sigma, which an unbiased estimate divides by. */
static double c4(double n)
{
	return n > 1 ? sqrt(2 / (n - 1)) * exp(lgamma(n / 2) - lgamma((n - 1) / 2)) : 1;
}

/* Each selected run's relative distance from the median of its group into
 * dev[], the group medians into med[] (per run). */
static void run_devs(const struct sel *sel, size_t m, double *dev, double *med, double *tmp)
{
	size_t i = 0;
	double typical;

	for (size_t r = 0; r < m; r++)
		tmp[r] = fabs(sel[r].y);
	typical = median(tmp, m);
	while (i < m) {
		size_t j = group_end(sel, m, i);
		double md;

		for (size_t r = i; r < j; r++)
			tmp[r - i] = sel[r].y;
		md = median(tmp, j - i);
		for (size_t r = i; r < j; r++) {
			med[r] = md;
			dev[r] = fabs(sel[r].y - md) / scale_of(md, typical);
		}
		i = j;
	}
}

/* The relative sums of squares about their mean of the runs of group
 * [i, j) whose dev[] is at most lim, into *ss, and how many runs, into *c. */
static void group_ss(const struct sel *sel, size_t i, size_t j, const double *dev,
		     const double *med, double lim, double *ss, size_t *c)
{
	double sum = 0, mean, s;

	*ss = 0;
	*c = 0;
	for (size_t r = i; r < j; r++)
		if (dev[r] <= lim) {
			sum += sel[r].y;
			(*c)++;
		}
	if (*c < 2)
		return;
	mean = sum / (double)*c;
	s = fabs(med[i]) > 0 ? fabs(med[i]) : fabs(mean) > 0 ? fabs(mean) : 1;
	for (size_t r = i; r < j; r++)
		if (dev[r] <= lim)
			*ss += (sel[r].y - mean) * (sel[r].y - mean) / (s * s);
}

/*
 * The runs' relative noise, unbiased for normal repeats however few: the
 * pooled standard deviation of the repeats about their point's mean,
 * sqrt(sum of squares / sum of (count - 1)), over c4 of the pooled degrees
 * of freedom plus one.  A repeat whose distance from its point's median is
 * more than LC_OUTLIER_K times a first, robust estimate (the median over
 * the points of their unbiased standard deviations) is left out of it, so
 * that one stalled run does not make the others' noise.  (The median
 * absolute deviation this replaces counted the median run's own zero
 * distance and was 35-60 % low with 3-5 repeats.)
 */
static double run_noise(const struct sel *sel, size_t m, double *dev, double *med, double *tmp)
{
	size_t k = 0, c, dof = 0;
	double ss, pooled = 0, first;

	run_devs(sel, m, dev, med, tmp);
	for (size_t i = 0, j; i < m; i = j) {
		j = group_end(sel, m, i);
		group_ss(sel, i, j, dev, med, INFINITY, &ss, &c);
		if (c > 1)
			tmp[k++] = sqrt(ss / (double)(c - 1)) / c4((double)c);
	}
	if (!k)
		return LC_OUTLIER_FLOOR;
	first = median(tmp, k);
	for (size_t i = 0, j; i < m; i = j) {
		j = group_end(sel, m, i);
		group_ss(sel, i, j, dev, med, LC_OUTLIER_K * first, &ss, &c);
		if (c > 1) {
			pooled += ss;
			dof += c - 1;
		}
	}
	pooled = dof ? sqrt(pooled / (double)dof) / c4((double)dof + 1) : first;
	return fmax(pooled, LC_OUTLIER_FLOOR);
}

/* List the far repeats of group [i, j) (point n) in out; mark in keep[]
 * the runs that stay (all of them unless drop allows leaving some out). */
static void group_outliers(const struct sel *sel, size_t i, size_t j, size_t n,
			   const double *dev, const double *med, int drop,
			   struct lc_points *out, char *keep)
{
	size_t far = 0, cnt = j - i;

	for (size_t r = i; r < j; r++) {
		keep[r] = 1;
		far += cnt > 1 && dev[r] > LC_OUTLIER_K * out->noise;
	}
	if (!far)
		return;
	for (size_t r = i; r < j; r++) {
		if (!(dev[r] > LC_OUTLIER_K * out->noise))
			continue;
		keep[r] = !(drop && cnt > 2 && 2 * far < cnt);
		out->out[out->nout++] = (struct lc_outlier){
			.line = sel[r].line, .point = n, .y = sel[r].y, .median = med[r],
			.dev = dev[r] / out->noise, .paired = cnt == 2, .dropped = !keep[r],
		};
	}
}

/* Choose the aggregate from the kept repeats of sel[0..m) (work: m
 * values): LC_POINTS_MIN for a right-skewed spread, else LC_POINTS_MEAN;
 * the skew ratio goes to out.  See LC_POINTS_AGG. */
static unsigned choose_agg(const struct sel *sel, size_t m, const char *keep, double *work,
			   struct lc_points *out)
{
	double up = 0, down = 0;
	size_t i = 0, k = 0, j;

	while (i < m) {
		size_t c = 0;
		double med;

		j = group_end(sel, m, i);
		for (size_t r = i; r < j; r++)
			if (keep[r])
				work[c++] = sel[r].y;
		med = c >= LC_AGG_MEDIAN_MIN ? median(work, c) : 0;
		if (med != 0) {
			up += (work[c - 1] - med) / fabs(med);
			down += (med - work[0]) / fabs(med);
			k++;
		}
		i = j;
	}
	if (!k)
		return LC_POINTS_MEAN;
	out->skew_n = (int)k;
	out->skew = down > 0 ? up / down : up > 0 ? INFINITY : 1;
	out->agg_auto = k > 1 && out->skew > LC_AGG_SKEW_RATIO ? LC_POINTS_MIN : LC_POINTS_MEAN;
	return (unsigned)out->agg_auto;
}

/* The aggregation of a point of c kept runs under flags. */
static enum lc_agg agg_of(unsigned flags, size_t c)
{
	switch (flags & LC_POINTS_AGG) {
	case LC_POINTS_MEAN:
		return LC_AGG_MEAN;
	case LC_POINTS_MEDIAN:
		return LC_AGG_MEDIAN;
	case LC_POINTS_MIN:
		return LC_AGG_MIN;
	default:
		return c >= LC_AGG_MEDIAN_MIN ? LC_AGG_MEDIAN : LC_AGG_MEAN;
	}
}

/* Point n from the kept runs v[0..c) (sorted here). */
static void make_point(struct lc_points *out, size_t n, double *v, size_t c, unsigned flags)
{
	double sum = 0, ss = 0, mean;
	enum lc_agg a = agg_of(flags, c);

	for (size_t k = 0; k < c; k++)
		sum += v[k];
	mean = sum / (double)c;
	for (size_t k = 0; k < c; k++)
		ss += (v[k] - mean) * (v[k] - mean);
	qsort(v, c, sizeof(*v), cmp_double);
	out->y[n] = a == LC_AGG_MEAN ? mean : a == LC_AGG_MIN ? v[0] : median(v, c);
	out->sd[n] = c > 1 ? sqrt(ss / (double)(c - 1)) : 0;
	out->lo[n] = v[0];
	out->hi[n] = v[c - 1];
	out->agg[n] = (unsigned char)a;
	out->count[n] = (int)c;
}

/* Aggregate the kept runs of equal x in the sorted sel[0..m) into out's
 * arrays, after finding the far repeats (and, by default, choosing the
 * aggregate from the kept ones). */
static void group_runs(const struct sel *sel, size_t m, int nvars, unsigned flags, double *work,
		       char *keep, struct lc_points *out)
{
	size_t i = 0, n = 0;
	double *dev = work, *med = work + m, *v = work + 2 * m;

	out->noise = run_noise(sel, m, dev, med, work + 2 * m);
	for (i = 0; i < m; i = group_end(sel, m, i))
		group_outliers(sel, i, group_end(sel, m, i), n++, dev, med,
			       !!(flags & LC_POINTS_DROP_OUTLIERS), out, keep);
	if (!(flags & LC_POINTS_AGG))
		flags |= choose_agg(sel, m, keep, v, out);
	out->used = 0;
	for (i = 0, n = 0; i < m; n++) {
		size_t j = group_end(sel, m, i), c = 0;

		for (size_t k = i; k < j; k++)
			if (keep[k])
				v[c++] = sel[k].y;
		memcpy(&out->x[n * (size_t)nvars], sel[i].x, (size_t)nvars * sizeof(double));
		make_point(out, n, v, c, flags);
		out->used += c;
		i = j;
	}
	out->n = n;
}

double lc_points_var_factor(const struct lc_points *p, size_t i)
{
	if (!p->agg || p->agg[i] == LC_AGG_MEAN)
		return 1;
	return p->agg[i] == LC_AGG_MEDIAN ? M_PI / 2 : 0;
}

/* Build fitting points.  See lca_runs.h. */
int lc_points_build(const struct lc_runs *r, const int *vars, int nvars, int ykey,
		    const struct lc_expr *cond, unsigned flags, struct lc_points *out)
{
	return lc_points_build_less(r, vars, nvars, ykey, -1, cond, flags, out);
}

/* Build fitting points of one key less another.  See lca_runs.h. */
int lc_points_build_less(const struct lc_runs *r, const int *vars, int nvars, int ykey,
			 int less, const struct lc_expr *cond, unsigned flags,
			 struct lc_points *out)
{
	size_t cap = r->nruns ? r->nruns : 1, m;
	double *vals = malloc(((size_t)r->nkeys + 1) * sizeof(*vals));
	double *xs = malloc(cap * ((size_t)nvars + 1) * sizeof(*xs));
	double *work = malloc(3 * cap * sizeof(*work));
	char *keep = malloc(cap);
	struct sel *sel = malloc(cap * sizeof(*sel));
	int rc = -ENOMEM;

	*out = (struct lc_points){ .nvars = nvars };
	out->x = malloc(cap * ((size_t)nvars + 1) * sizeof(double));
	out->y = malloc(cap * sizeof(double));
	out->sd = malloc(cap * sizeof(double));
	out->count = malloc(cap * sizeof(int));
	out->lo = malloc(cap * sizeof(double));
	out->hi = malloc(cap * sizeof(double));
	out->agg = malloc(cap);
	out->skip_line = malloc(cap * sizeof(int));
	out->skip_key = malloc(cap * sizeof(int));
	out->out = malloc(cap * sizeof(*out->out));
	if (!vals || !xs || !work || !keep || !sel || !out->x || !out->y || !out->sd ||
	    !out->count || !out->lo || !out->hi || !out->agg || !out->skip_line || !out->skip_key || !out->out) {
		lc_points_free(out);
		goto out;
	}
	m = select_runs(r, vars, nvars, ykey, less, cond, vals, xs, sel, out);
	qsort(sel, m, sizeof(*sel), cmp_sel_line);
	group_runs(sel, m, nvars, flags, work, keep, out);
	rc = 0;
out:
	free(vals);
	free(xs);
	free(work);
	free(keep);
	free(sel);
	return rc;
}

/* Free the arrays of p.  See lca_runs.h. */
void lc_points_free(struct lc_points *p)
{
	if (!p)
		return;
	free(p->x);
	free(p->y);
	free(p->sd);
	free(p->count);
	free(p->lo);
	free(p->hi);
	free(p->agg);
	free(p->skip_line);
	free(p->skip_key);
	free(p->out);
	p->x = p->y = p->sd = p->lo = p->hi = NULL;
	p->agg = NULL;
	p->count = p->skip_line = p->skip_key = NULL;
	p->out = NULL;
	p->n = p->nout = 0;
}
