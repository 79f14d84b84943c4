/*
 * extrap.c — Extra-P's text and JSON-lines formats (see extrap.h).
 *
 * Both directions go through one table: parameters, points (their
 * coordinates), metrics, and for each metric and point the list of values
 * (the repetitions).
 */
#include "extrap.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lc_profile.h"
#include "lc_util.h"

#define MAXPAR 16
#define MAXMET 64
#define NAMELEN 64

struct vals {
	size_t n, cap;
	double *v;
};

struct table {
	int npar, nmet;
	char par[MAXPAR][NAMELEN];
	char met[MAXMET][NAMELEN];
	size_t npt, cappt;
	double *pt;			/* npt x npar coordinates */
	struct vals *val;		/* [metric][point], nmet x cappt */
	size_t capval;
};

static void table_free(struct table *t)
{
	for (size_t i = 0; t->val && i < t->capval; i++)
		free(t->val[i].v);
	free(t->val);
	free(t->pt);
}

/* The values of metric m at point p. */
static struct vals *cell(struct table *t, int m, size_t p)
{
	return &t->val[(size_t)m * t->cappt + p];
}

/* Make room for point n (and the value lists of MAXMET metrics). */
static int grow_points(struct table *t, size_t n)
{
	size_t old = t->cappt, cap = old ? old : 8;
	struct vals *nv;

	if (n < old)
		return 0;
	while (cap <= n)
		cap *= 2;
	if (!(t->pt = realloc(t->pt, cap * MAXPAR * sizeof(*t->pt))))
		return -ENOMEM;
	nv = calloc(cap * MAXMET, sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	for (size_t m = 0; old && m < MAXMET; m++)
		memcpy(&nv[m * cap], &t->val[m * old], old * sizeof(*nv));
	free(t->val);
	t->val = nv;
	t->cappt = cap;
	t->capval = cap * MAXMET;
	return 0;
}

/* The point with coordinates x, added when new; -ENOMEM. */
static long point(struct table *t, const double *x)
{
	for (size_t i = 0; i < t->npt; i++)
		if (!memcmp(&t->pt[i * MAXPAR], x, (size_t)t->npar * sizeof(*x)))
			return (long)i;
	if (grow_points(t, t->npt))
		return -ENOMEM;
	memcpy(&t->pt[t->npt * MAXPAR], x, (size_t)t->npar * sizeof(*x));
	return (long)t->npt++;
}

static int add_value(struct vals *c, double v)
{
	if (lc_grow((void **)&c->v, &c->cap, c->n + 1, sizeof(*c->v)))
		return -ENOMEM;
	c->v[c->n++] = v;
	return 0;
}

/* The metric named s[0..n), added when new; -EINVAL when too many. */
static int metric(struct table *t, const char *s, size_t n)
{
	for (int i = 0; i < t->nmet; i++)
		if (strlen(t->met[i]) == n && !strncmp(t->met[i], s, n))
			return i;
	if (t->nmet == MAXMET || n >= NAMELEN)
		return -EINVAL;
	snprintf(t->met[t->nmet], NAMELEN, "%.*s", (int)n, s);
	return t->nmet++;
}

/* ---- runs to table ------------------------------------------------------------ */

/* The parameters: variables every run gives a number. */
static void find_params(struct table *t, const struct lc_runs *r, int *pkey)
{
	for (int k = 0; k < lc_runs_nkeys(r) && t->npar < MAXPAR; k++) {
		size_t i, n = lc_runs_count(r);
		double v;

		if (lc_key_lookup(lc_runs_keyname(r, k)) >= 0 ||
		    strlen(lc_runs_keyname(r, k)) >= NAMELEN)
			continue;
		for (i = 0; i < n && lc_runs_get(r, i, k, &v) == LC_CELL_VALUE; i++)
			;
		if (i < n || !n)
			continue;
		pkey[t->npar] = k;
		snprintf(t->par[t->npar++], NAMELEN, "%s", lc_runs_keyname(r, k));
	}
}

/* Whether some run gives key k a number. */
static int any_value(const struct lc_runs *r, int k)
{
	double v;

	for (size_t i = 0; i < lc_runs_count(r); i++)
		if (lc_runs_get(r, i, k, &v) == LC_CELL_VALUE)
			return 1;
	return 0;
}

static int from_runs(struct table *t, const struct lc_runs *r, char *msg, size_t len)
{
	int pkey[MAXPAR], mkey[LC_NKEY];
	double x[MAXPAR], v;

	find_params(t, r, pkey);
	if (!t->npar)
		return lc_fail(msg, len, -EINVAL, "no variable has a number in every run");
	for (int c = 0; c < LC_NKEY; c++) {
		const char *key = lc_cat_info(c)->key;
		int k = lc_runs_find_key(r, key, strlen(key));

		if (k >= 0 && any_value(r, k))
			mkey[metric(t, key, strlen(key))] = k;
	}
	if (!t->nmet)
		return lc_fail(msg, len, -EINVAL, "the runs hold no category");
	for (size_t i = 0; i < lc_runs_count(r); i++) {
		long p;

		for (int j = 0; j < t->npar; j++)
			lc_runs_get(r, i, pkey[j], &x[j]);
		p = point(t, x);
		if (p < 0)
			return lc_fail(msg, len, -ENOMEM, "out of memory");
		for (int m = 0; m < t->nmet; m++)
			if (lc_runs_get(r, i, mkey[m], &v) == LC_CELL_VALUE &&
			    add_value(cell(t, m, (size_t)p), v))
				return lc_fail(msg, len, -ENOMEM, "out of memory");
	}
	return 0;
}

/* ---- writing ---------------------------------------------------------------- */

/* v in plain decimal notation, with the fewest digits that read back as v. */
static void num(FILE *out, double v)
{
	char b[512];

	for (int prec = 0; prec < 340; prec++) {
		snprintf(b, sizeof(b), "%.*f", prec, v);
		if (strtod(b, NULL) == v)
			break;
	}
	fputs(b, out);
}

/* Whether metric m has values at every point. */
static int complete(struct table *t, int m)
{
	for (size_t p = 0; p < t->npt; p++)
		if (!cell(t, m, p)->n)
			return 0;
	return 1;
}

static void write_text(FILE *out, struct table *t, int *dropped)
{
	fputs("# lostcycles export --extrap: one metric per lost cycles category, in seconds "
	      "summed over the processors\n", out);
	for (int j = 0; j < t->npar; j++)
		fprintf(out, "PARAMETER %s\n", t->par[j]);
	fputs("POINTS", out);
	for (size_t p = 0; p < t->npt; p++) {
		fputs(" (", out);
		for (int j = 0; j < t->npar; j++) {
			fputs(j ? " " : "", out);
			num(out, t->pt[p * MAXPAR + j]);
		}
		fputc(')', out);
	}
	fputs("\nREGION program\n", out);
	for (int m = 0; m < t->nmet; m++) {
		if (!complete(t, m)) {
			(*dropped)++;
			continue;
		}
		fprintf(out, "METRIC %s\n", t->met[m]);
		for (size_t p = 0; p < t->npt; p++) {
			fputs("DATA", out);
			for (size_t k = 0; k < cell(t, m, p)->n; k++) {
				fputc(' ', out);
				num(out, cell(t, m, p)->v[k]);
			}
			fputc('\n', out);
		}
	}
}

static void write_jsonl(FILE *out, struct table *t)
{
	for (size_t p = 0; p < t->npt; p++)
		for (int m = 0; m < t->nmet; m++) {
			struct vals *c = cell(t, m, p);

			if (!c->n)
				continue;
			fputs("{\"params\":{", out);
			for (int j = 0; j < t->npar; j++) {
				fprintf(out, "%s\"%s\":", j ? "," : "", t->par[j]);
				num(out, t->pt[p * MAXPAR + j]);
			}
			fprintf(out, "},\"callpath\":\"program\",\"metric\":\"%s\",\"value\":[",
				t->met[m]);
			for (size_t k = 0; k < c->n; k++) {
				fputs(k ? "," : "", out);
				num(out, c->v[k]);
			}
			fputs("]}\n", out);
		}
}

int lc_extrap_write(FILE *out, const struct lc_runs *r, int jsonl, int *dropped, char *msg,
		    size_t len)
{
	struct table t;
	int rc;

	memset(&t, 0, sizeof(t));
	*dropped = 0;
	rc = grow_points(&t, 0);
	if (!rc)
		rc = from_runs(&t, r, msg, len);
	else
		lc_fail(msg, len, rc, "out of memory");
	if (!rc && jsonl)
		write_jsonl(out, &t);
	else if (!rc)
		write_text(out, &t, dropped);
	table_free(&t);
	return rc;
}

/* ---- reading ---------------------------------------------------------------- */

int lc_extrap_sniff(FILE *f)
{
	char line[256];
	int kind = 0;

	while (fgets(line, sizeof(line), f)) {
		char *s = line;

		while (isspace((unsigned char)*s))
			s++;
		if (!*s || *s == '#')
			continue;
		if (*s == '{')
			kind = 2;
		else if (!strncmp(s, "PARAMETER", 9) && isspace((unsigned char)s[9]))
			kind = 1;
		break;
	}
	rewind(f);
	return kind;
}

/* Fill err for line ln; returns -EINVAL. */
static int bad(struct lc_runs_error *err, int ln, const char *what)
{
	if (err) {
		memset(err, 0, sizeof(*err));
		err->line = ln;
		snprintf(err->msg, sizeof(err->msg), "%s", what);
	}
	return -EINVAL;
}

/* A number at *s (advanced past it); -EINVAL when there is none. */
static int read_num(const char **s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(*s, &end);
	if (end == *s || errno || !isfinite(*v))
		return -EINVAL;
	*s = end;
	return 0;
}

/* POINTS s: "(a b) (c d)", "((a) (b))" or, with one parameter, "a b". */
static int text_points(struct table *t, const char *s, int ln, struct lc_runs_error *err)
{
	double x[MAXPAR];
	int depth = 0, k = 0;

	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		if (*s == '(' || *s == ')') {
			depth += *s == '(' ? 1 : -1;
			s++;
			if (depth < 0)
				return bad(err, ln, "unbalanced ')' in POINTS");
			if (*(s - 1) == '(' || depth)
				continue;
		} else {
			if (k == MAXPAR || read_num(&s, &x[k++]))
				return bad(err, ln, "POINTS: expected a number");
			if (depth)
				continue;
		}
		if (k != t->npar)
			return bad(err, ln, "POINTS: a point has not one coordinate per PARAMETER");
		if (point(t, x) < 0)
			return -ENOMEM;
		k = 0;
	}
	return depth ? bad(err, ln, "unbalanced '(' in POINTS") : 0;
}

/* The reader's position in a text file. */
struct tstate {
	int met;		/* current metric, -1 none */
	size_t next;		/* the point the next DATA line belongs to */
	char region[128];
};

/* One DATA line s for the current metric. */
static int text_data(struct table *t, struct tstate *st, const char *s, int ln,
		     struct lc_runs_error *err)
{
	double v;

	if (st->met < 0 || !st->region[0])
		return bad(err, ln, "DATA before REGION and METRIC");
	if (st->next >= t->npt)
		return bad(err, ln, "more DATA lines than POINTS");
	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		if (read_num(&s, &v))
			return bad(err, ln, "DATA: expected numbers");
		if (add_value(cell(t, st->met, st->next), v))
			return -ENOMEM;
	}
	st->next++;
	return 0;
}

/* The word after a keyword, up to the end of the line. */
static const char *rest(const char *s, size_t *n)
{
	while (isspace((unsigned char)*s))
		s++;
	*n = strcspn(s, "\r\n");
	while (*n && isspace((unsigned char)s[*n - 1]))
		(*n)--;
	return s;
}

/* One line of the text format. */
static int text_line(struct table *t, struct tstate *st, char *s, int ln,
		     struct lc_runs_error *err)
{
	size_t n;
	const char *w;

	if (!strncmp(s, "PARAMETER", 9)) {
		for (char *tok = strtok(s + 9, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
			if (t->npar == MAXPAR || strlen(tok) >= NAMELEN || t->npt)
				return bad(err, ln, "PARAMETER: too many, too long, or after POINTS");
			snprintf(t->par[t->npar++], NAMELEN, "%s", tok);
		}
		return 0;
	}
	if (!strncmp(s, "POINTS", 6))
		return t->npar ? text_points(t, s + 6, ln, err) : bad(err, ln, "POINTS before PARAMETER");
	if (!strncmp(s, "DATA", 4))
		return text_data(t, st, s + 4, ln, err);
	if (!strncmp(s, "REGION", 6) || !strncmp(s, "METRIC", 6)) {
		w = rest(s + 6, &n);
		st->next = 0;
		if (s[0] == 'M') {
			st->met = n ? metric(t, w, n) : -1;
			return st->met < 0 ? bad(err, ln, "METRIC: no name, or too many metrics") : 0;
		}
		if (!n || n >= sizeof(st->region))
			return bad(err, ln, "REGION: no name");
		if (st->region[0] && (strlen(st->region) != n || strncmp(st->region, w, n)))
			return bad(err, ln, "more than one REGION: export one region to fit it");
		snprintf(st->region, sizeof(st->region), "%.*s", (int)n, w);
		if (st->met < 0)
			st->met = metric(t, "time", 4);
		return 0;
	}
	return bad(err, ln, "expected PARAMETER, POINTS, REGION, METRIC or DATA");
}

static int read_text(FILE *f, struct table *t, struct lc_runs_error *err)
{
	struct tstate st = { .met = -1 };
	char line[65536];
	int ln = 0, rc = 0;

	while (!rc && fgets(line, sizeof(line), f)) {
		char *s = line;

		ln++;
		while (isspace((unsigned char)*s))
			s++;
		if (*s && *s != '#')
			rc = text_line(t, &st, s, ln, err);
	}
	return rc;
}

/* ---- JSON lines ---------------------------------------------------------------- */

static void skip_ws(const char **s)
{
	while (isspace((unsigned char)**s))
		(*s)++;
}

/* A JSON string at *s (no escapes but \" and \\) into buf. */
static int jstring(const char **s, char *buf, size_t len)
{
	size_t n = 0;

	skip_ws(s);
	if (**s != '"')
		return -EINVAL;
	for ((*s)++; **s && **s != '"'; (*s)++) {
		if (**s == '\\' && (*s)[1])
			(*s)++;
		if (n + 1 >= len)
			return -EINVAL;
		buf[n++] = **s;
	}
	buf[n] = 0;
	if (**s != '"')
		return -EINVAL;
	(*s)++;
	return 0;
}

/* Expect character c at *s. */
static int expect(const char **s, char c)
{
	skip_ws(s);
	if (**s != c)
		return -EINVAL;
	(*s)++;
	return 0;
}

/* "params": {"name": number, ...} into the table's parameters (the first
 * line names them; later lines must give the same) and x. */
static int jparams(struct table *t, const char **s, double *x, int first)
{
	char name[NAMELEN];
	int k = 0;

	if (expect(s, '{'))
		return -EINVAL;
	skip_ws(s);
	while (**s != '}') {
		int j;

		if (jstring(s, name, sizeof(name)) || expect(s, ':'))
			return -EINVAL;
		skip_ws(s);
		for (j = 0; j < t->npar && strcmp(t->par[j], name); j++)
			;
		if (j == t->npar) {
			if (!first || t->npar == MAXPAR)
				return -EINVAL;
			snprintf(t->par[t->npar++], NAMELEN, "%s", name);
		}
		if (read_num(s, &x[j]))
			return -EINVAL;
		k++;
		skip_ws(s);
		if (**s == ',')
			(*s)++, skip_ws(s);
	}
	(*s)++;
	return k == t->npar ? 0 : -EINVAL;
}

/* "value": a number or [numbers] into v[], *n of them (at most max). */
static int jvalues(const char **s, double *v, size_t *n, size_t max)
{
	int list;

	*n = 0;
	skip_ws(s);
	list = **s == '[';
	if (list)
		(*s)++;
	do {
		skip_ws(s);
		if (list && **s == ']')
			break;
		if (*n == max || read_num(s, &v[(*n)++]))
			return -EINVAL;
		skip_ws(s);
	} while (list && **s == ',' && (*s)++);
	return list ? expect(s, ']') : 0;
}

/* Skip a JSON value we do not use (a string or a number). */
static int jskip(const char **s)
{
	char buf[4096];
	double v;

	skip_ws(s);
	return **s == '"' ? jstring(s, buf, sizeof(buf)) : read_num(s, &v);
}

/* The fields of one JSON line: params, value, metric, callpath. */
struct jline {
	double x[MAXPAR];
	double v[256];
	size_t nv;
	char metric[NAMELEN], callpath[128];
	int have_params;
};

static int jfields(struct table *t, const char *s, int first, struct jline *j)
{
	char key[64];

	if (expect(&s, '{'))
		return -EINVAL;
	skip_ws(&s);
	while (*s != '}') {
		int rc;

		if (jstring(&s, key, sizeof(key)) || expect(&s, ':'))
			return -EINVAL;
		if (!strcmp(key, "params"))
			rc = jparams(t, &s, j->x, first), j->have_params = !rc;
		else if (!strcmp(key, "value"))
			rc = jvalues(&s, j->v, &j->nv, sizeof(j->v) / sizeof(j->v[0]));
		else if (!strcmp(key, "metric"))
			rc = jstring(&s, j->metric, sizeof(j->metric));
		else if (!strcmp(key, "callpath"))
			rc = jstring(&s, j->callpath, sizeof(j->callpath));
		else
			rc = jskip(&s);
		if (rc)
			return rc;
		skip_ws(&s);
		if (*s == ',')
			s++, skip_ws(&s);
		else if (*s != '}')
			return -EINVAL;
	}
	return j->have_params && j->nv ? 0 : -EINVAL;
}

static int read_jsonl(FILE *f, struct table *t, struct lc_runs_error *err)
{
	char line[65536], region[128] = "";
	int ln = 0;

	while (fgets(line, sizeof(line), f)) {
		struct jline j;
		long p;
		int m;

		ln++;
		if (!line[strspn(line, " \t\r\n")])
			continue;
		memset(&j, 0, sizeof(j));
		if (jfields(t, line, !t->npt, &j))
			return bad(err, ln, "expected {\"params\": {...}, \"value\": ...} with the "
				   "parameters of the first line");
		if (region[0] && strcmp(region, j.callpath))
			return bad(err, ln, "more than one callpath: export one region to fit it");
		snprintf(region, sizeof(region), "%s", j.callpath);
		m = metric(t, j.metric[0] ? j.metric : "time", strlen(j.metric[0] ? j.metric : "time"));
		p = point(t, j.x);
		if (m < 0 || p < 0)
			return bad(err, ln, "too many metrics, or out of memory");
		for (size_t k = 0; k < j.nv; k++)
			if (add_value(cell(t, m, (size_t)p), j.v[k]))
				return -ENOMEM;
	}
	return 0;
}

/* The table as runs-file text: one line per point and repetition. */
static void table_runs(struct table *t, FILE *out)
{
	for (size_t p = 0; p < t->npt; p++) {
		size_t reps = 0;

		for (int m = 0; m < t->nmet; m++)
			reps = cell(t, m, p)->n > reps ? cell(t, m, p)->n : reps;
		for (size_t k = 0; k < reps; k++) {
			for (int j = 0; j < t->npar; j++)
				fprintf(out, "%s%s=%.17g", j ? " " : "", t->par[j], t->pt[p * MAXPAR + j]);
			for (int m = 0; m < t->nmet; m++)
				if (k < cell(t, m, p)->n)
					fprintf(out, " %s=%.17g", t->met[m], cell(t, m, p)->v[k]);
			fputc('\n', out);
		}
	}
}

int lc_extrap_parse(FILE *f, int format, struct lc_runs **out, struct lc_runs_error *err)
{
	struct table t;
	char *buf = NULL;
	size_t n = 0;
	FILE *mem = NULL;
	int rc;

	memset(&t, 0, sizeof(t));
	*out = NULL;
	rc = grow_points(&t, 0);
	if (!rc)
		rc = format == 2 ? read_jsonl(f, &t, err) : read_text(f, &t, err);
	if (!rc && !t.npt)
		rc = bad(err, 0, "the Extra-P file holds no measurement");
	if (!rc && !(mem = open_memstream(&buf, &n)))
		rc = -ENOMEM;
	if (!rc) {
		table_runs(&t, mem);
		fclose(mem);
		mem = fmemopen(buf, n, "r");
		rc = mem ? lc_runs_parse(mem, out, err) : -ENOMEM;
		if (mem)
			fclose(mem);
	}
	free(buf);
	table_free(&t);
	return rc;
}
