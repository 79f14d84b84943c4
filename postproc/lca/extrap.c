/*
 * extrap.c — runs and Extra-P's text and JSON-lines formats (see extrap.h):
 * runs into the table that export/extrap_write.c writes, and both formats
 * read back into runs.  Both directions go through one table
 * (extrap_table.h): parameters, points (their coordinates), metrics, and
 * for each metric and point the list of values (the repetitions).
 */
#include "extrap.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lc_profile.h"
#include "lc_util.h"

/* The table's limits by shorter names. */
#define MAXPAR LC_XP_MAXPAR
#define NAMELEN LC_XP_NAMELEN
#define MAXREG LC_XP_MAXREG
#define MAXSLOT LC_XP_MAXSLOT
#define MAXPT_TEXT LC_XP_MAXPT_TEXT
#define MAXCELLS_TEXT LC_XP_MAXCELLS_TEXT
#define MAXVALS_TEXT LC_XP_MAXVALS_TEXT
/* The longest line of a JSON-lines file (json-c builds a tree of the whole
 * line: about 80 bytes per number in it). */
#define JSONL_LINE_MAX (1 << 20)
#define JSONL_LINE_MAX_TEXT "1 MiB"

_Static_assert(LC_XP_REGLEN == LC_REGION_MAX, "a region of the table is a runs region");

/* The region named s[0..n), added when new; -EINVAL when not a region
 * name or too many. */
static int region(struct lc_xp_table *t, const char *s, size_t n)
{
	return lc_runs_region_ok(s, n) ? lc_xp_region(t, s, n) : -EINVAL;
}

/* ---- runs to table ------------------------------------------------------------ */

/* The parameters: variables every run gives a number. */
static void find_params(struct lc_xp_table *t, const struct lc_runs *r, int *pkey)
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

/* The region of run i: its region= note, else "program". */
static const char *run_region(const struct lc_runs *r, int rkey, size_t i)
{
	const char *s = rkey >= 0 ? lc_runs_text(r, i, rkey) : NULL;

	return s ? s : "program";
}

/* The keys of the categories in r (-1 where absent) into mkey. */
static void cat_keys(const struct lc_runs *r, int *mkey)
{
	for (int c = 0; c < LC_NKEY; c++) {
		const char *key = lc_cat_info(c)->key;

		mkey[c] = lc_runs_find_key(r, key, strlen(key));
	}
}

/* The slots: for each region (in the order of its first run) each
 * category some run of it gives a number, in the category table's order;
 * map[region * LC_NKEY + category] gets the slot, -1 for none. */
static int make_slots(struct lc_xp_table *t, const struct lc_runs *r, const int *mkey, int *map)
{
	int rkey = lc_runs_find_key(r, LC_RUNS_REGION, strlen(LC_RUNS_REGION));
	double v;

	for (size_t i = 0; i < lc_runs_count(r); i++) {
		const char *name = run_region(r, rkey, i);
		int g = region(t, name, strlen(name));

		if (g < 0)
			return -E2BIG;
		for (int c = 0; c < LC_NKEY; c++)
			if (mkey[c] >= 0 && lc_runs_get(r, i, mkey[c], &v) == LC_CELL_VALUE)
				map[g * LC_NKEY + c] = -2;
	}
	for (int g = 0; g < t->nreg; g++)
		for (int c = 0; c < LC_NKEY; c++) {
			const char *key = lc_cat_info(c)->key;
			int *m = &map[g * LC_NKEY + c];

			if (*m == -2 && (*m = lc_xp_slot(t, g, key, strlen(key))) < 0)
				return *m == -ENOMEM ? -ENOMEM : -E2BIG;
		}
	return 0;
}

/* The values of run i, at its point, into its region's slots. */
static int run_values(struct lc_xp_table *t, const struct lc_runs *r, size_t i, const int *pkey,
		      const int *mkey, const int *map)
{
	int rkey = lc_runs_find_key(r, LC_RUNS_REGION, strlen(LC_RUNS_REGION));
	const char *name = run_region(r, rkey, i);
	const int *row = &map[region(t, name, strlen(name)) * LC_NKEY];
	double x[MAXPAR], v;
	long p;

	for (int j = 0; j < t->npar; j++)
		lc_runs_get(r, i, pkey[j], &x[j]);
	p = lc_xp_point(t, x);
	if (p < 0)
		return (int)p;
	for (int c = 0; c < LC_NKEY; c++) {
		int rc = row[c] >= 0 && lc_runs_get(r, i, mkey[c], &v) == LC_CELL_VALUE ?
			 lc_xp_value(t, lc_xp_cell(t, row[c], (size_t)p), v) : 0;

		if (rc)
			return rc;
	}
	return 0;
}

/* The table of r into t: 0, or -EINVAL / -E2BIG / -ENOMEM with the reason
 * in msg. */
static int from_runs(struct lc_xp_table *t, const struct lc_runs *r, char *msg, size_t len)
{
	int pkey[MAXPAR], mkey[LC_NKEY], *map = malloc(MAXREG * LC_NKEY * sizeof(*map)), rc;

	if (!map)
		return lc_fail(msg, len, -ENOMEM, "out of memory");
	for (int i = 0; i < MAXREG * LC_NKEY; i++)
		map[i] = -1;
	find_params(t, r, pkey);
	cat_keys(r, mkey);
	rc = t->npar ? make_slots(t, r, mkey, map) : -EINVAL;
	for (size_t i = 0; !rc && i < lc_runs_count(r); i++)
		rc = run_values(t, r, i, pkey, mkey, map);
	free(map);
	if (rc == -EINVAL)
		return lc_fail(msg, len, rc, "no variable has a number in every run");
	if (rc == -E2BIG)
		return lc_fail(msg, len, rc, "more than %d regions, %d metrics of regions, "
			       MAXPT_TEXT " points, " MAXCELLS_TEXT " points x metrics of regions or "
			       MAXVALS_TEXT " values", MAXREG, MAXSLOT);
	if (!rc && !t->nslot)
		return lc_fail(msg, len, -EINVAL, "the runs hold no category");
	return rc ? lc_fail(msg, len, rc, "out of memory") : 0;
}

int lc_extrap_from_runs(const struct lc_runs *r, struct lc_xp_table **out, char *msg, size_t len)
{
	struct lc_xp_table *t = lc_xp_new();
	int rc;

	*out = NULL;
	if (!t)
		return lc_fail(msg, len, -ENOMEM, "out of memory");
	rc = from_runs(t, r, msg, len);
	if (rc)
		lc_xp_free(t);
	else
		*out = t;
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

/* Fill err for line ln, the offending text at tok (its first word, NULL:
 * none); returns -EINVAL. */
static int bad_at(struct lc_runs_error *err, int ln, const char *tok, const char *what)
{
	if (err) {
		memset(err, 0, sizeof(*err));
		err->line = ln;
		snprintf(err->msg, sizeof(err->msg), "%s", what);
		if (tok)
			snprintf(err->token, sizeof(err->token), "%.*s",
				 (int)strcspn(tok, " \t\r\n"), tok);
	}
	return -EINVAL;
}

/* bad_at without an offending word. */
static int bad(struct lc_runs_error *err, int ln, const char *what)
{
	return bad_at(err, ln, NULL, what);
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
static int text_points(struct lc_xp_table *t, const char *s, int ln, struct lc_runs_error *err)
{
	double x[MAXPAR];
	int depth = 0, k = 0;
	long p;

	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		if (*s == '(' || *s == ')') {
			depth += *s == '(' ? 1 : -1;
			s++;
			if (depth < 0)
				return bad_at(err, ln, s - 1, "unbalanced ')' in POINTS");
			if (*(s - 1) == '(' || depth)
				continue;
		} else {
			if (k == MAXPAR || read_num(&s, &x[k++]))
				return bad_at(err, ln, s, "POINTS: expected a number");
			if (depth)
				continue;
		}
		if (k != t->npar)
			return bad_at(err, ln, s - 1, "POINTS: a point has not one coordinate per "
				      "PARAMETER");
		p = lc_xp_point(t, x);
		if (p == -E2BIG)
			return bad(err, ln, "POINTS: more than " MAXPT_TEXT " points, or than "
				   MAXCELLS_TEXT " points x metrics of regions");
		if (p < 0)
			return -ENOMEM;
		k = 0;
	}
	return depth ? bad(err, ln, "unbalanced '(' in POINTS") : 0;
}

/* The reader's position in a text file. */
struct tstate {
	int reg;		/* current region, -1 none */
	int met;		/* current slot (region and metric), -1 none */
	char mname[NAMELEN];	/* current metric's name, "" none */
	size_t next;		/* the point the next DATA line belongs to */
};

/* The end of a METRIC's DATA lines (at a REGION or METRIC line, or at the
 * end of the file, line ln): one per point or none.  Fitting on the points
 * that have data would fit another set of runs than the file's.  0 or
 * -EINVAL. */
static int data_end(const struct lc_xp_table *t, const struct tstate *st, int ln,
		    struct lc_runs_error *err)
{
	char why[160];

	if (!st->next || st->next == t->npt || st->met < 0)
		return 0;
	snprintf(why, sizeof(why), "METRIC %s has %zu DATA lines for %zu POINTS (one per point)",
		 t->met[st->met], st->next, t->npt);
	return bad_at(err, ln, "", why);	/* the reason names the metric */
}

/* One DATA line s for the current metric. */
static int text_data(struct lc_xp_table *t, struct tstate *st, const char *s, int ln,
		     struct lc_runs_error *err)
{
	double v;

	if (st->met < 0)
		return bad(err, ln, "DATA before REGION and METRIC");
	if (st->next >= t->npt)
		return bad(err, ln, "more DATA lines than POINTS");
	if (!st->next && lc_xp_cell(t, st->met, 0)->n)
		return bad_at(err, ln, t->reg[st->reg], "a second METRIC block of one REGION's "
			      "metric (its DATA would count twice)");
	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		if (read_num(&s, &v))
			return bad_at(err, ln, s, "DATA: expected numbers");
		int r = lc_xp_value(t, lc_xp_cell(t, st->met, st->next), v);

		if (r == -E2BIG)
			return bad(err, ln, "DATA: more than " MAXVALS_TEXT " values in the file");
		if (r)
			return r;
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

/* The slot of the current region and metric (when both are known). */
static int text_slot(struct lc_xp_table *t, struct tstate *st, int ln, struct lc_runs_error *err)
{
	st->met = -1;
	if (st->reg < 0 || !st->mname[0])
		return 0;
	st->met = lc_xp_slot(t, st->reg, st->mname, strlen(st->mname));
	if (st->met == -ENOMEM)
		return -ENOMEM;
	return st->met < 0 ? bad(err, ln, "more than 4096 metrics of regions, or than "
				 MAXCELLS_TEXT " points x metrics of regions") : 0;
}

/* A REGION line's name w[0..n). */
static int text_region(struct lc_xp_table *t, struct tstate *st, const char *w, size_t n, int ln,
		       struct lc_runs_error *err)
{
	if (!n)
		return bad(err, ln, "REGION: no name");
	if (!lc_runs_region_ok(w, n))
		return bad_at(err, ln, w, "REGION: a region name is one word of at most 127 "
			      "characters, none '=', ',', '\"' or '\\'");
	st->reg = region(t, w, n);
	if (st->reg < 0)
		return bad(err, ln, "REGION: more than 1024 regions");
	if (!st->mname[0])
		snprintf(st->mname, sizeof(st->mname), "time");
	return text_slot(t, st, ln, err);
}

/* A METRIC line's name w[0..n). */
static int text_metric(struct lc_xp_table *t, struct tstate *st, const char *w, size_t n, int ln,
		       struct lc_runs_error *err)
{
	if (!n || n >= NAMELEN)
		return bad(err, ln, "METRIC: no name, or a name too long");
	snprintf(st->mname, sizeof(st->mname), "%.*s", (int)n, w);
	return text_slot(t, st, ln, err);
}

/* One line of the text format. */
static int text_line(struct lc_xp_table *t, struct tstate *st, char *s, int ln,
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
	if (strncmp(s, "REGION", 6) && strncmp(s, "METRIC", 6))
		return bad_at(err, ln, s, "expected PARAMETER, POINTS, REGION, METRIC or DATA");
	if (data_end(t, st, ln, err))
		return -EINVAL;
	w = rest(s + 6, &n);
	st->next = 0;
	return s[0] == 'M' ? text_metric(t, st, w, n, ln, err) : text_region(t, st, w, n, ln, err);
}

/* The longest line of a text file: a POINTS line of a million points of
 * four coordinates fits (docs/models.md, Extra-P). */
#define TEXT_LINE_MAX ((ssize_t)64 << 20)

static int read_text(FILE *f, struct lc_xp_table *t, struct lc_runs_error *err)
{
	struct tstate st = { .reg = -1, .met = -1 };
	char *line = NULL, why[160];
	size_t cap = 0;
	ssize_t got;
	int ln = 0, rc = 0;

	while (!rc && (got = getline(&line, &cap, f)) >= 0) {
		char *s = line;

		ln++;
		if (got > TEXT_LINE_MAX || (size_t)got != strlen(line)) {
			snprintf(why, sizeof(why), "a line of %zd bytes%s (at most %zd, no NUL "
				 "byte)", got, got > TEXT_LINE_MAX ? "" : " holds a NUL byte",
				 TEXT_LINE_MAX);
			rc = bad(err, ln, why);
			break;
		}
		while (isspace((unsigned char)*s))
			s++;
		if (*s && *s != '#')
			rc = text_line(t, &st, s, ln, err);
	}
	free(line);
	if (!rc && ferror(f))
		rc = -EIO;
	return rc ? rc : data_end(t, &st, ln, err);
}

/* ---- JSON lines (json-c) ------------------------------------------------------ */

/* A JSON number, finite, into *v. */
static int jnum(struct json_object *o, double *v)
{
	if (!json_object_is_type(o, json_type_double) && !json_object_is_type(o, json_type_int))
		return -EINVAL;
	*v = json_object_get_double(o);
	return isfinite(*v) ? 0 : -EINVAL;
}

/* The parameters of one line's "params" object into x: the first line
 * names them, later lines must give the same.  NULL or a reason. */
static const char *jparams(struct lc_xp_table *t, struct json_object *o, double *x, int first)
{
	int k = 0;

	if (!json_object_is_type(o, json_type_object))
		return "\"params\" is not an object of numbers";
	json_object_object_foreach(o, name, v) {
		int j;

		for (j = 0; j < t->npar && strcmp(t->par[j], name); j++)
			;
		if (j == t->npar && (!first || t->npar == MAXPAR || strlen(name) >= NAMELEN))
			return first ? "too many parameters, or a name too long" :
				       "a parameter the first line does not have";
		if (j == t->npar)
			snprintf(t->par[t->npar++], NAMELEN, "%s", name);
		if (jnum(v, &x[j]))
			return "a parameter's value is not a number";
		k++;
	}
	return k == t->npar ? NULL : "not the parameters of the first line";
}

/* "value": a number or a list of numbers, added to cell c of t. */
static const char *jvalues(struct lc_xp_table *t, struct json_object *o, struct lc_xp_vals *c)
{
	size_t n = json_object_is_type(o, json_type_array) ? json_object_array_length(o) : 1;
	double v;

	if (!n)
		return "\"value\" is an empty list";
	for (size_t k = 0; k < n; k++) {
		if (jnum(json_object_is_type(o, json_type_array) ? json_object_array_get_idx(o, k) : o,
			 &v))
			return "\"value\" is not a number or a list of numbers";
		int r = lc_xp_value(t, c, v);

		if (r)
			return r == -E2BIG ? "more than " MAXVALS_TEXT " values in the file" :
			       "out of memory";
	}
	return NULL;
}

/* A string member key of o, or def when absent; NULL when not a string. */
static const char *jstr(struct json_object *o, const char *key, const char *def)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return def;
	return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

/* One line's object into the table.  NULL or a reason. */
static const char *jline(struct lc_xp_table *t, struct json_object *o)
{
	struct json_object *params, *value;
	const char *met = jstr(o, "metric", "time"), *callpath = jstr(o, "callpath", "program");
	double x[MAXPAR] = { 0 };
	const char *why;
	long p;
	int m, g;

	if (!json_object_is_type(o, json_type_object))
		return "a line is not a JSON object";
	if (!json_object_object_get_ex(o, "params", &params) ||
	    !json_object_object_get_ex(o, "value", &value))
		return "expected {\"params\": {...}, \"value\": ...}";
	if (!met || !callpath)
		return "\"metric\" or \"callpath\" is not a string";
	why = jparams(t, params, x, !t->npt);
	if (why)
		return why;
	if ((g = region(t, callpath, strlen(callpath))) < 0)
		return lc_runs_region_ok(callpath, strlen(callpath)) ? "more than 1024 callpaths" :
		       "\"callpath\" is not a region name (one word of at most 127 characters, "
		       "none '=', ',', '\"' or '\\')";
	m = lc_xp_slot(t, g, met, strlen(met));
	p = m < 0 ? -1 : lc_xp_point(t, x);
	if (p == -E2BIG)
		return "more than " MAXPT_TEXT " points, or than " MAXCELLS_TEXT " points x "
		       "metrics of regions";
	if (m < 0 || p < 0)
		return "too many metrics, a metric name too long, or out of memory";
	return jvalues(t, value, lc_xp_cell(t, m, (size_t)p));
}

static int read_jsonl(FILE *f, struct lc_xp_table *t, struct lc_runs_error *err)
{
	char *line = NULL, why[160];
	struct json_tokener *tok = json_tokener_new();
	size_t cap = 0;
	ssize_t got;
	int ln = 0, rc = tok ? 0 : -ENOMEM;

	while (!rc && (got = getline(&line, &cap, f)) >= 0) {
		struct json_object *o;
		const char *reason;

		ln++;
		if (got > JSONL_LINE_MAX) {
			rc = bad(err, ln, "a line longer than " JSONL_LINE_MAX_TEXT " (a measurement "
				 "is one object of one line)");
			break;
		}
		if (!line[strspn(line, " \t\r\n")])
			continue;
		json_tokener_reset(tok);
		o = json_tokener_parse_ex(tok, line, (int)strlen(line));
		if (!o) {
			snprintf(why, sizeof(why), "not JSON: %s",
				 json_tokener_get_error(tok) == json_tokener_continue ?
				 "the object does not end on its line" :
				 json_tokener_error_desc(json_tokener_get_error(tok)));
			rc = bad(err, ln, why);
			break;
		}
		reason = jline(t, o);
		if (reason)
			rc = bad(err, ln, reason);
		json_object_put(o);
	}
	if (tok)
		json_tokener_free(tok);
	free(line);
	return rc;
}

/* ---- table to runs -------------------------------------------------------------- */

/* The runs of region g at point p: one per repetition, its region, the
 * point's coordinates and the region's metrics there. */
static int point_runs(struct lc_xp_table *t, int g, size_t p, struct lc_runs *r, int *line)
{
	size_t reps = 0;
	int rc = 0;

	for (int m = 0; m < t->nslot; m++)
		if (t->mreg[m] == g && lc_xp_cell(t, m, p)->n > reps)
			reps = lc_xp_cell(t, m, p)->n;
	for (size_t k = 0; !rc && k < reps; k++) {
		rc = lc_runs_start(r, ++*line);
		if (!rc)
			rc = lc_runs_add_text(r, LC_RUNS_REGION, t->reg[g]);
		for (int j = 0; !rc && j < t->npar; j++)
			rc = lc_runs_add(r, t->par[j], t->pt[p * MAXPAR + j]);
		for (int m = 0; !rc && m < t->nslot; m++)
			if (t->mreg[m] == g && k < lc_xp_cell(t, m, p)->n)
				rc = lc_runs_add(r, t->met[m], lc_xp_cell(t, m, p)->v[k]);
	}
	return rc;
}

/* The table as runs: for each region, point and repetition one, their
 * lines numbered from 1 in that order; a name that cannot be a runs-file
 * name is refused. */
static int table_runs(struct lc_xp_table *t, struct lc_runs *r, struct lc_runs_error *err)
{
	int rc = 0, line = 0;

	for (int g = 0; !rc && g < t->nreg; g++)
		for (size_t p = 0; !rc && p < t->npt; p++)
			rc = point_runs(t, g, p, r, &line);
	if (rc == -EINVAL || rc == -EEXIST)
		return bad(err, 0, "a parameter or metric name is not a runs-file name (a letter "
			   "or '_', then letters, digits, '_' or '.'), or names one twice (\""
			   LC_RUNS_REGION "\" is the region's)");
	return rc;
}

int lc_extrap_parse(FILE *f, int format, struct lc_runs **out, struct lc_runs_error *err)
{
	struct lc_xp_table *t = lc_xp_new();
	int rc = t ? 0 : -ENOMEM;

	*out = NULL;
	if (err)
		*err = (struct lc_runs_error){ 0 };
	if (!rc)
		rc = format == 2 ? read_jsonl(f, t, err) : read_text(f, t, err);
	if (!rc && !t->npt)
		rc = bad(err, 0, "the Extra-P file holds no measurement");
	if (!rc && !(*out = lc_runs_new()))
		rc = -ENOMEM;
	if (!rc)
		rc = table_runs(t, *out, err);
	if (rc) {
		lc_runs_free(*out);
		*out = NULL;
	}
	lc_xp_free(t);
	return rc;
}

/* The reason of a failed read.  See lca_runs.h. */
int lc_runs_fail(const char *path, int rc, const struct lc_runs_error *e, char *msg,
		 size_t len)
{
	char at[16] = "";

	if (rc != -EINVAL || !e || !e->msg[0])
		return lc_fail(msg, len, rc, "%s: %s", path, e && e->msg[0] ? e->msg : strerror(-rc));
	if (e->line > 0)
		snprintf(at, sizeof(at), ":%d", e->line);
	if (e->token[0])
		return lc_fail(msg, len, rc, "%s%s: %s: '%s'", path, at, e->msg, e->token);
	return lc_fail(msg, len, rc, "%s%s: %s", path, at, e->msg);
}

/* Read any runs file.  See lca_runs.h. */
int lc_runs_read(const char *path, struct lc_runs **out, struct lc_runs_error *err)
{
	FILE *f;
	int rc, fmt;

	*out = NULL;
	if (err)
		*err = (struct lc_runs_error){ 0 };
	f = fopen(path, "r");
	if (!f)
		return -errno;
	fmt = lc_extrap_sniff(f);
	rc = fmt ? lc_extrap_parse(f, fmt, out, err) : lc_runs_parse(f, out, err);
	fclose(f);
	return rc;
}
