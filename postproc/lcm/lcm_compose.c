/*
 * lcm_compose.c — one run of "lostcycles compose" (see lcm_compose.h):
 * loading and binding, the point, grid and tuning tables, the plot.
 */
#include "lcm_compose.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_profile.h"
#include "lc_util.h"
#include "lca_model.h"
#include "lca_plot.h"
#include "plotout.h"
#include "lca_predict.h"
#include "lca_runs.h"
#include "lcm.h"

/* The name of structure a: the file, or the first source extracted. */
static const char *a_name(const struct lc_compose *c)
{
	return c->o.structure ? c->o.structure : c->o.src[0];
}

/* Read --compare: a structure file, or else a model file (a whole-program
 * model from fit --emit); the structure's error when it is neither. */
static int read_compare(struct lc_compose *c, char *msg, size_t len)
{
	char smsg[512], mmsg[256];
	int line;

	if (!lcm_read(c->o.compare, &c->b, smsg, sizeof(smsg)))
		return 0;
	if (!lc_model_read(c->o.compare, &c->bm, &line, mmsg, sizeof(mmsg)))
		return 0;
	return lc_fail(msg, len, -EINVAL, "--compare %s: neither a structure (%s) nor a model "
		       "file (line %d: %s)", c->o.compare, smsg, line, mmsg);
}

/* Write the extracted structure to -o FILE or out. */
static int write_text(struct lc_compose *c, FILE *out, char *msg, size_t len)
{
	enum lc_out_mode how = c->o.force ? LC_OUT_FORCE : LC_OUT_KEEP;
	FILE *f = c->o.output ? lc_out_open(c->o.output, how, msg, len) : out;

	if (!f)
		return -EEXIST;
	if (fputs(c->text, f) < 0 || (f != out && fclose(f)))
		return lc_fail(msg, len, -errno, "%s: %s", c->o.output, strerror(errno));
	return 0;
}

/* Hand each line of the extraction's notes to the note callback. */
static void give_notes(const struct lc_compose *c, char *notes)
{
	char text[600], *save = NULL;

	for (char *l = strtok_r(notes, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (c->note && snprintf(text, sizeof(text), "note: %s", l) >= 0)
			c->note(c->note_arg, text);
}

/* --extract: the structure text, written to -o or out when nothing is to
 * be evaluated; then read it. */
static int extract(struct lc_compose *c, FILE *out, char *msg, size_t len)
{
	char notes[4096] = "", *copy;
	int rc, evaluate = c->o.at || c->o.grid;

	if ((rc = lcm_extract(c->o.src, c->o.nsrc, &c->text, notes, sizeof(notes), msg, len)))
		return rc;
	give_notes(c, notes);
	if ((c->o.output || !evaluate) && (rc = write_text(c, out, msg, len)))
		return rc;
	if (!evaluate)
		return 0;
	copy = strdup(c->o.src[0]);
	if (!copy)
		return lc_fail(msg, len, -ENOMEM, "%s", strerror(ENOMEM));
	rc = lcm_read_text(c->text, c->o.src[0], dirname(copy), &c->a, msg, len);
	free(copy);
	return rc;
}

/* --critical-path: read the trace and give it to structure a. */
static int read_trace(struct lc_compose *c, char *msg, size_t len)
{
	char why[512];
	int rc;

	if ((rc = lc_strace_read(c->o.critical, &c->trace, why, sizeof(why))) ||
	    (rc = lcm_set_trace(c->a, &c->trace, c->o.critical, why, sizeof(why))))
		return lc_fail(msg, len, rc, "--critical-path %s", why);
	return 0;
}

/* Read the --measured runs. */
static int read_runs(struct lc_compose *c, char *msg, size_t len)
{
	struct lc_runs_error e = { 0 };
	int rc = lc_runs_read(c->o.measured, &c->runs, &e);

	return rc ? lc_runs_fail(c->o.measured, rc, &e, msg, len) : 0;
}

int lc_compose_transfer(const char *s, double *lat, double *bw, char *msg, size_t len)
{
	const char *l = strstr(s, "latency="), *b = strstr(s, "bandwidth=");
	char *e1, *e2;

	if (l && b) {
		errno = 0;
		*lat = strtod(l + 8, &e1);
		*bw = strtod(b + 10, &e2);
		if (e1 != l + 8 && e2 != b + 10 && !errno && *lat >= 0 && *bw > 0)
			return 0;
	}
	return lc_fail(msg, len, -EINVAL, "--transfer wants \"latency=SECONDS "
		       "bandwidth=BYTES_PER_SECOND\", not '%s'", s);
}

/* Parse --at or --grid, and --tune, each capped at --max-points. */
static int parse_grids(struct lc_compose *c, char *msg, size_t len)
{
	int rc;

	if (!!c->o.at == !!c->o.grid)
		return lc_fail(msg, len, -EINVAL, "give one of --at or --grid");
	if (c->o.tune && !c->o.at)
		return lc_fail(msg, len, -EINVAL, "--tune works at one point: give --at");
	if ((rc = lc_grid_parse(c->o.at ? c->o.at : c->o.grid, &c->g, msg, len)) ||
	    (rc = lc_grid_cap(&c->g, c->o.max_points, msg, len)))
		return rc;
	if (c->o.tune && ((rc = lc_grid_parse(c->o.tune, &c->tg, msg, len)) ||
			  (rc = lc_grid_cap(&c->tg, c->o.max_points, msg, len))))
		return rc;
	return 0;
}

/* The variable names: the grid's, then the tuning grid's. */
static int set_names(struct lc_compose *c, char *msg, size_t len)
{
	for (int i = 0; i < c->g.naxes; i++)
		c->names[c->nnames++] = c->g.axis[i].name;
	for (int i = 0; i < c->tg.naxes; i++) {
		if (lc_grid_find(&c->g, c->tg.axis[i].name) >= 0)
			return lc_fail(msg, len, -EINVAL, "'%s' is in both --at and --tune",
				       c->tg.axis[i].name);
		c->names[c->nnames++] = c->tg.axis[i].name;
	}
	if (lc_grid_find(&c->g, "p") < 0 && lc_grid_find(&c->tg, "p") < 0)
		return lc_fail(msg, len, -EINVAL, "T(E) = sum C(E)/p needs p (the number of "
			       "processors) in %s", c->o.at ? "--at" : "--grid");
	return 0;
}

/* --transfer or --memory: the transfer parameters of the structures. */
static int set_transfer(struct lc_compose *c, char *msg, size_t len)
{
	double lat, bw;
	int rc;

	if (c->o.transfer && c->o.memory)
		return lc_fail(msg, len, -EINVAL, "give --transfer or --memory, not both");
	if (!c->o.transfer && !c->o.memory)
		return 0;
	if (c->o.memory && !c->memory)
		return lc_fail(msg, len, -ENOTSUP, "--memory is not available here");
	rc = c->o.transfer ? lc_compose_transfer(c->o.transfer, &lat, &bw, msg, len)
			   : c->memory(c->o.memory, &lat, &bw, msg, len);
	if (rc)
		return rc;
	lcm_set_transfer(c->a, lat, bw);
	if (c->b)
		lcm_set_transfer(c->b, lat, bw);
	return 0;
}

/* Parse the --what-if scenarios; --tune has no place for them. */
static int parse_whatif(struct lc_compose *c, char *msg, size_t len)
{
	int rc;

	if (c->o.whatif.n && c->o.tune)
		return lc_fail(msg, len, -EINVAL, "--what-if and --tune: give one of them");
	for (int i = 0; i < c->o.whatif.n; i++)
		if ((rc = lc_whatif_parse(c->o.whatif.v[i], &c->w[i], msg, len)))
			return rc;
	return 0;
}

/* Parse the grids and bind the structures to their variables. */
static int setup(struct lc_compose *c, char *msg, size_t len)
{
	int rc;

	if ((rc = parse_whatif(c, msg, len)) || (rc = parse_grids(c, msg, len)) ||
	    (rc = set_names(c, msg, len)) ||
	    (rc = set_transfer(c, msg, len)) ||
	    (rc = lcm_bind(c->a, c->names, c->nnames, msg, len)))
		return rc;
	return c->b ? lcm_bind(c->b, c->names, c->nnames, msg, len) : 0;
}

/* Read the structure: extracted, or from its file. */
static int read_structure(struct lc_compose *c, FILE *out, char *msg, size_t len)
{
	if (c->o.extract)
		return extract(c, out, msg, len);
	return lcm_read(c->o.structure, &c->a, msg, len);
}

int lc_compose_load(struct lc_compose *c, FILE *out, char *msg, size_t len)
{
	int rc;

	if ((rc = read_structure(c, out, msg, len)) || !c->a)
		return rc;
	if ((c->o.critical && (rc = read_trace(c, msg, len))) ||
	    (c->o.compare && (rc = read_compare(c, msg, len))) ||
	    (c->o.measured && (rc = read_runs(c, msg, len))))
		return rc;
	return setup(c, msg, len);
}

/* Set c->vals to point i of grid g, from slot off on. */
static void set_point(struct lc_compose *c, const struct lc_grid *g, size_t i, int off)
{
	int idx[LC_GRID_MAXAXES];

	lc_grid_index(g, i, idx);
	for (int a = 0; a < g->naxes; a++)
		c->vals[off + a] = g->axis[a].v[idx[a]];
}

/* -1 when ta is less than tb, 1 when more, 0 when they are equal to a
 * rounding error. */
static int faster(double ta, double tb)
{
	if (fabs(ta - tb) <= 1e-9 * fmax(fabs(ta), fabs(tb)))
		return 0;
	return ta < tb ? -1 : 1;
}

/* T of the --compare structure or model file at the current point. */
static int eval_b(struct lc_compose *c, struct lcm_result *rb, char *msg, size_t len)
{
	struct lc_env env = { c->names, c->vals, c->nnames };
	const char *missing = "?";

	if (c->b)
		return lcm_eval(c->b, c->vals, rb, NULL, msg, len);
	memset(rb, 0, sizeof(*rb));
	if (lc_predict_total(c->bm, &env, NULL, &rb->t, &rb->half, &missing))
		return lc_fail(msg, len, -EINVAL, "%s: the model uses '%s'; give it in --at or "
			       "--grid", c->o.compare, missing);
	return 0;
}

/* Compose a (and b with --compare) at the current point. */
static int eval_ab(struct lc_compose *c, struct lcm_result *r, struct lcm_result *rb,
		   FILE *explain, char *msg, size_t len)
{
	int rc = lcm_eval(c->a, c->vals, r, explain, msg, len);

	if (!rc && c->o.compare)
		rc = eval_b(c, rb, msg, len);
	return rc;
}

/* Print the point as "n=1024 p=4". */
static void print_point(const struct lc_compose *c, FILE *f)
{
	for (int a = 0; a < c->nnames; a++)
		fprintf(f, "%s%s=%g", a ? " " : "", c->names[a], c->vals[a]);
}

/* Whether run r of the measured runs is at the current point; its p into
 * *p. */
static int run_matches(const struct lc_compose *c, size_t r, const int *key, double *p)
{
	int ok = 1;
	double v;

	for (int a = 0; a < c->g.naxes && ok; a++) {
		ok = key[a] >= 0 && lc_runs_get(c->runs, r, key[a], &v) == LC_CELL_VALUE &&
		     fabs(v - c->vals[a]) <= 1e-9 * fmax(1, fabs(v));
		if (!strcmp(c->g.axis[a].name, "p"))
			*p = v;
	}
	return ok;
}

double lc_compose_measured(const struct lc_compose *c, int *count)
{
	int tt = lc_runs_find_key(c->runs, "tt", 2), key[LC_GRID_MAXAXES];
	double sum = 0;

	*count = 0;
	for (int a = 0; a < c->g.naxes; a++)
		key[a] = lc_runs_find_key(c->runs, c->g.axis[a].name, strlen(c->g.axis[a].name));
	for (size_t r = 0; tt >= 0 && r < lc_runs_count(c->runs); r++) {
		double p = NAN, t;

		if (lc_runs_get(c->runs, r, tt, &t) == LC_CELL_VALUE && run_matches(c, r, key, &p) &&
		    p > 0) {
			sum += t / p;
			(*count)++;
		}
	}
	return *count ? sum / *count : NAN;
}

/* The note of fragment models that were below zero (counted as 0). */
static void clip_note(const struct lc_clip *clip, FILE *out)
{
	if (clip->n)
		fprintf(out, "note: %d fragment model%s below zero here, counted as 0 (a time cannot "
			"be negative; the first: %s = %.4g s): %s past the range %s fitted over\n",
			clip->n, clip->n == 1 ? " is" : "s are", clip->cat, clip->value,
			clip->n == 1 ? "it goes" : "they go", clip->n == 1 ? "it was" : "they were");
}

/* The category table of one point. */
static void print_cats(const struct lcm_result *r, FILE *out)
{
	fprintf(out, "\n%-4s %-34s %14s %12s %12s\n", "cat", "", "C(E) seconds", "+/- (90%)",
		"C(E)/p");
	for (int k = 0; k < LC_NCAT; k++)
		if (r->c[k] != 0 || r->hc[k] != 0)
			fprintf(out, "%-4s %-34s %14.6g %12.4g %12.6g\n", lc_cat_info(k)->key,
				lc_cat_info(k)->desc, r->c[k], r->hc[k], r->c[k] / r->p);
	fprintf(out, "T(E) = sum C(E)/p = %.6g s  (90%% prediction interval %.6g .. %.6g%s)\n",
		r->t, lc_predict_lower(r->t, r->half), r->t + r->half,
		r->t - r->half < 0 ? "; its lower end clipped at 0: a time cannot be negative" : "");
	clip_note(&r->clip, out);
}

/* T of the composed result r after scenario w: each category changed as
 * w says, T = sum C / p. */
static double whatif_t(const struct lcm_result *r, const struct lc_whatif *w)
{
	double sum = 0;

	for (int k = 0; k < LC_NCAT; k++) {
		double ck = r->c[k], hk = r->hc[k];

		lc_whatif_apply(w, lc_cat_info(k)->key, &ck, &hk);
		sum += ck;
	}
	return sum / r->p;
}

/* The what-if lines of one point. */
static void print_whatifs(const struct lc_compose *c, const struct lcm_result *r, FILE *out)
{
	for (int i = 0; i < c->o.whatif.n; i++) {
		double tw = whatif_t(r, &c->w[i]);

		fprintf(out, "what-if %-20s T = %.6g s  gain %.4g s (%.1f%%)\n", c->w[i].text, tw,
			r->t - tw, r->t > 0 ? 100 * (r->t - tw) / r->t : 0.0);
	}
}

/* The comparison line of one point. */
static void print_compare(const struct lc_compose *c, double ta, double tb, FILE *out)
{
	fprintf(out, "compare: T = %.6g s with %s, %.6g s with %s: ", ta, a_name(c), tb,
		c->o.compare);
	if (faster(ta, tb))
		fprintf(out, "%s is faster by %.1f%%\n", faster(ta, tb) > 0 ? c->o.compare : a_name(c),
			100 * fabs(ta - tb) / fmax(ta, tb));
	else
		fprintf(out, "equal\n");
}

/* The measurement line of one point. */
static void print_measured(const struct lc_compose *c, double t, FILE *out)
{
	int n;
	double m = lc_compose_measured(c, &n);

	if (n)
		fprintf(out, "measured: %.6g s (mean of %d run%s); prediction error %+.1f%%\n", m, n,
			n == 1 ? "" : "s", 100 * (t - m) / m);
	else
		fprintf(out, "measured: no run in %s at this point\n", c->o.measured);
}

/* --at: the categories, T(E), comparison, measurement. */
static int compose_one(struct lc_compose *c, FILE *out, char *msg, size_t len)
{
	struct lcm_result r, rb;
	int rc;

	set_point(c, &c->g, 0, 0);
	if (c->o.explain) {
		fprintf(out, "composition of %s at ", a_name(c));
		print_point(c, out);
		fprintf(out, ":\n");
	}
	if ((rc = lcm_eval(c->a, c->vals, &r, c->o.explain ? out : NULL, msg, len)))
		return rc;
	fprintf(out, "lostcycles compose: %s at ", a_name(c));
	print_point(c, out);
	print_cats(&r, out);
	print_whatifs(c, &r, out);
	if (c->o.compare && (rc = eval_b(c, &rb, msg, len)))
		return rc;
	if (c->o.compare)
		print_compare(c, r.t, rb.t, out);
	if (c->runs)
		print_measured(c, r.t, out);
	return 0;
}

/* The header of the grid table. */
static void grid_header(const struct lc_compose *c, FILE *out)
{
	fprintf(out, "lostcycles compose: %s over %s", a_name(c), c->o.grid);
	if (c->o.compare)
		fprintf(out, " (A), compared with %s (B)", c->o.compare);
	fprintf(out, "\n");
	for (int a = 0; a < c->g.naxes; a++)
		fprintf(out, "%10s ", c->names[a]);
	fprintf(out, "%12s %10s", "T(E) s", "+/-");
	for (int i = 0; i < c->o.whatif.n; i++)
		fprintf(out, "  %12.12s %6s", c->w[i].text, "gain%");
	if (c->o.compare)
		fprintf(out, " %12s %6s", "T_B s", "faster");
	if (c->runs)
		fprintf(out, " %12s %8s", "measured s", "error");
	fprintf(out, "\n");
}

/* The prediction errors against the measured runs over the grid. */
struct errsum {
	double sum, max;
	int n, wrong;
	struct lc_clip clip;	/* fragment models below zero: in how many rows */
};

/* The measured columns of a grid row, adding to the error summary. */
static void grid_measured(const struct lc_compose *c, const struct lcm_result *r,
			  struct errsum *es, FILE *out)
{
	int cnt;
	double m = lc_compose_measured(c, &cnt), e = (r->t - m) / m;

	if (!cnt) {
		fprintf(out, " %12s %8s", "-", "-");
		return;
	}
	fprintf(out, " %12.6g %+7.1f%%", m, 100 * e);
	es->sum += fabs(e);
	es->max = fmax(es->max, fabs(e));
	es->n++;
	if (r->t - r->half > m || r->t + r->half < m)
		es->wrong++;
}

/* One row of the grid table at point i. */
static int grid_row(struct lc_compose *c, size_t i, struct errsum *es, FILE *out, char *msg,
		    size_t len)
{
	struct lcm_result r, rb;
	int rc;

	set_point(c, &c->g, i, 0);
	if ((rc = eval_ab(c, &r, &rb, c->o.explain ? out : NULL, msg, len)))
		return rc;
	for (int a = 0; a < c->g.naxes; a++)
		fprintf(out, "%10g ", c->vals[a]);
	fprintf(out, "%12.6g %10.4g", r.t, r.half);
	for (int w = 0; w < c->o.whatif.n; w++) {
		double tw = whatif_t(&r, &c->w[w]);

		fprintf(out, "  %12.6g %6.1f", tw, r.t > 0 ? 100 * (r.t - tw) / r.t : 0.0);
	}
	if (c->o.compare)
		fprintf(out, " %12.6g %6s", rb.t, faster(r.t, rb.t) < 0 ? "A" :
			faster(r.t, rb.t) > 0 ? "B" : "equal");
	if (c->runs)
		grid_measured(c, &r, es, out);
	fprintf(out, "\n");
	if (r.clip.n && !es->clip.n++) {
		snprintf(es->clip.cat, sizeof(es->clip.cat), "%s", r.clip.cat);
		es->clip.value = r.clip.value;
	}
	return 0;
}

/* --grid: one row per point; with --measured, the mean relative error. */
static int compose_grid(struct lc_compose *c, FILE *out, char *msg, size_t len)
{
	size_t n = lc_grid_count(&c->g);
	struct errsum es = { 0 };
	int rc;

	grid_header(c, out);
	for (size_t i = 0; i < n; i++)
		if ((rc = grid_row(c, i, &es, out, msg, len)))
			return rc;
	if (es.clip.n)
		fprintf(out, "note: in %d row%s a fragment model is below zero, counted as 0 (a time "
			"cannot be negative; the first: %s = %.4g s)\n", es.clip.n,
			es.clip.n == 1 ? "" : "s", es.clip.cat, es.clip.value);
	if (c->runs && es.n)
		fprintf(out, "mean relative error %.1f%%, largest %.1f%% over %d measured points; %d "
			"outside the 90%% prediction interval\n", 100 * es.sum / es.n, 100 * es.max,
			es.n, es.wrong);
	return 0;
}

/* T of structure a at the current point with the tuning values of point
 * i. */
static int tune_at(struct lc_compose *c, size_t i, struct lcm_result *r, char *msg, size_t len)
{
	set_point(c, &c->tg, i, c->g.naxes);
	return lcm_eval(c->a, c->vals, r, NULL, msg, len);
}

/* The flat index of the tuning point with indices idx. */
static size_t tune_flat(const struct lc_grid *g, const int *idx)
{
	size_t i = 0;

	for (int a = 0; a < g->naxes; a++)
		i = i * (size_t)g->axis[a].n + (size_t)idx[a];
	return i;
}

/* The state of the coordinate search. */
struct search {
	int idx[LC_GRID_MAXAXES];
	double tbest;
	size_t evals;
	int changed;
};

/* Scan tuning axis a with the others fixed; keep the best value. */
static int scan_axis(struct lc_compose *c, struct search *s, int a, char *msg, size_t len)
{
	struct lcm_result r;
	int keep = s->idx[a], rc;

	for (int j = 0; j < c->tg.axis[a].n; j++) {
		s->idx[a] = j;
		s->evals++;
		if ((rc = tune_at(c, tune_flat(&c->tg, s->idx), &r, msg, len)))
			return rc;
		if (r.t < s->tbest) {
			s->tbest = r.t;
			keep = j;
			s->changed = 1;
		}
	}
	s->idx[a] = keep;
	return 0;
}

/* Coordinate search: scan one tuning axis at a time with the others
 * fixed, until no axis improves. */
static int tune_search(struct lc_compose *c, struct search *s, char *msg, size_t len)
{
	struct lcm_result r;
	int rc;

	*s = (struct search){ .evals = 1, .changed = 1 };
	if ((rc = tune_at(c, 0, &r, msg, len)))
		return rc;
	s->tbest = r.t;
	while (s->changed) {
		s->changed = 0;
		for (int a = 0; a < c->tg.naxes; a++)
			if ((rc = scan_axis(c, s, a, msg, len)))
				return rc;
	}
	return 0;
}

/* Brute force: the tuning point of least T into *best, its T *tb. */
static int tune_brute(struct lc_compose *c, size_t *best, double *tb, char *msg, size_t len)
{
	struct lcm_result r;
	int rc;

	*tb = INFINITY;
	*best = 0;
	for (size_t i = 0; i < lc_grid_count(&c->tg); i++) {
		if ((rc = tune_at(c, i, &r, msg, len)))
			return rc;
		if (r.t < *tb) {
			*tb = r.t;
			*best = i;
		}
	}
	return 0;
}

/* Print one line of the tuning result: what found tuning point i. */
static int tune_line(struct lc_compose *c, const char *what, size_t i, FILE *out, char *msg,
		     size_t len)
{
	struct lcm_result r;
	int rc;

	if ((rc = tune_at(c, i, &r, msg, len)))
		return rc;
	fprintf(out, "%s", what);
	print_point(c, out);
	fprintf(out, ": T = %.6g s  (90%% prediction interval %.6g .. %.6g)\n", r.t,
		lc_predict_lower(r.t, r.half), r.t + r.half);
	clip_note(&r.clip, out);
	return 0;
}

/* --tune: the search's minimum, checked against every point. */
static int tune(struct lc_compose *c, FILE *out, char *msg, size_t len)
{
	struct search s;
	size_t bbest;
	double tb;
	char what[64];
	int rc;

	set_point(c, &c->g, 0, 0);
	if ((rc = tune_search(c, &s, msg, len)) || (rc = tune_brute(c, &bbest, &tb, msg, len)))
		return rc;
	fprintf(out, "lostcycles compose: %s at %s, tuning %s\n", a_name(c), c->o.at, c->o.tune);
	snprintf(what, sizeof(what), "search (%zu compositions): ", s.evals);
	if ((rc = tune_line(c, what, tune_flat(&c->tg, s.idx), out, msg, len)))
		return rc;
	snprintf(what, sizeof(what), "brute force (%zu points):  ", lc_grid_count(&c->tg));
	if ((rc = tune_line(c, what, bbest, out, msg, len)))
		return rc;
	fprintf(out, "%s\n", s.tbest <= tb ? "the search found the brute-force minimum"
		: "the search stopped in a local minimum: take the brute-force point");
	return 0;
}

/* The file name of path without its folders. */
static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* One block of the plot data: the first axis at value b of the second. */
static int plot_block(struct lc_compose *c, FILE *f, int b, char *msg, size_t len)
{
	const struct lc_axis *x = &c->g.axis[0];
	int rc;

	if (c->g.naxes > 1)
		c->vals[1] = c->g.axis[1].v[b];
	fprintf(f, "%s# %s=%g\n", b ? "\n\n" : "", c->g.naxes > 1 ? c->names[1] : "all",
		c->g.naxes > 1 ? c->vals[1] : 0.0);
	for (int i = 0; i < x->n; i++) {
		struct lcm_result r, rb = { .t = NAN };
		int cnt = 0;
		double m = NAN;

		c->vals[0] = x->v[i];
		if ((rc = eval_ab(c, &r, &rb, NULL, msg, len)))
			return rc;
		if (c->runs)
			m = lc_compose_measured(c, &cnt);
		c->nclip += r.t - r.half < 0;
		fprintf(f, "%.10g %.10g %.10g %.10g %.10g %.10g %.10g\n", x->v[i], r.t, r.half, rb.t,
			m, fmax(r.t - r.half, 0), r.t + r.half);
	}
	return 0;
}

/* Write the plot data: one block per value of the second axis, rows of
 * x, T, its half width, T of --compare, the measurement, and the 90 %
 * interval's bounds, the lower one clipped at 0 (counted in c->nclip). */
static int plot_data(struct lc_compose *c, const char *data, int nb, char *msg, size_t len)
{
	FILE *f = lc_out_fopen(data);
	int rc = 0;

	if (!f)
		return lc_fail(msg, len, -errno, "--plot %s: %s", c->o.plot, strerror(errno));
	set_point(c, &c->g, 0, 0);
	for (int b = 0; b < nb && !rc; b++)
		rc = plot_block(c, f, b, msg, len);
	if (fclose(f) && !rc)
		rc = lc_fail(msg, len, -errno, "--plot %s: %s", c->o.plot, strerror(errno));
	return rc;
}

/* The plot lines of block b of the data file. */
static void plot_lines(const void *arg, FILE *f, const char *data, int b)
{
	const struct lc_compose *c = arg;
	const char *na = base_name(a_name(c));
	const char *nbn = c->o.compare ? base_name(c->o.compare) : "";
	char label[64] = "";

	if (c->g.naxes > 1)
		snprintf(label, sizeof(label), " %s=%g", c->names[1], c->g.axis[1].v[b]);
	lc_plotout_curve(f, !b, data, b, "using 1:2:6:7 with yerrorlines lw 2", "%s predicted%s",
			 na, label);
	if (c->o.compare)
		lc_plotout_curve(f, 0, data, b, "using 1:4 with linespoints dt 2", "%s predicted%s",
				 nbn, label);
	if (c->runs)
		lc_plotout_curve(f, 0, data, b, "using 1:5 with points pt 7 ps 1.5", "%s measured%s",
				 na, label);
}

int lc_compose_plot(struct lc_compose *c, FILE *out, char *msg, size_t len)
{
	struct lc_plotout_script s = {
		.who = "compose", .xlabel = c->names[0],
		.yaxis = "set ylabel \"T (seconds)\"\nset logscale y", .title = a_name(c),
		.ncurves = c->g.naxes > 1 ? c->g.axis[1].n : 1, .curve = plot_lines, .arg = c,
	};
	struct lc_plotout po;
	int rc;

	c->nclip = 0;
	if ((rc = lc_plotout_open(&po, c->o.plot, c->o.force, msg, len)) ||
	    (rc = plot_data(c, po.data, s.ncurves, msg, len)) ||
	    (rc = lc_plotout_script(&po, &s, msg, len)) ||
	    (rc = lc_plotout_finish(&po, out, msg, len)))
		return rc;
	lc_plotout_clipped(out, c->nclip, "the 90% prediction interval");
	return 0;
}

int lc_compose_print(struct lc_compose *c, FILE *out, char *msg, size_t len)
{
	if (c->o.tune)
		return tune(c, out, msg, len);
	if (lc_grid_count(&c->g) == 1)
		return compose_one(c, out, msg, len);
	return compose_grid(c, out, msg, len);
}

void lc_compose_free(struct lc_compose *c)
{
	lcm_free(c->a);
	lcm_free(c->b);
	lc_model_free(c->bm);
	free(c->text);
	lc_grid_free(&c->g);
	lc_grid_free(&c->tg);
	lc_runs_free(c->runs);
	lc_strace_free(&c->trace);
}
