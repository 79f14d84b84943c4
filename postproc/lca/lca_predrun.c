/*
 * lca_predrun.c — one run of "lostcycles predict" (see lca_predrun.h):
 * loading and checking, the point and grid tables, crossovers, the plot.
 */
#include "lca_predrun.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_profile.h"
#include "lc_util.h"
#include "lca_plot.h"
#include "plotout.h"

#define MAXCROSS 16

/* Read the model file at path into *m. */
static int read_model(const char *path, struct lc_model **m, char *msg, size_t len)
{
	char why[256];
	int line, rc = lc_model_read(path, m, &line, why, sizeof(why));

	if (rc == -EINVAL)
		return lc_fail(msg, len, rc, "%s:%d: %s", path, line, why);
	if (rc)
		return lc_fail(msg, len, rc, "%s: %s", path, strerror(-rc));
	return 0;
}

/* True when some model of pr uses variable name. */
static int known_var(const struct lc_predrun *pr, const char *name)
{
	return !strcmp(name, "p") || lc_model_var(pr->a, name) >= 0 ||
	       (pr->b && lc_model_var(pr->b, name) >= 0);
}

/* The variables of model m as "n p" into buf. */
static void var_list(const struct lc_model *m, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int v = 0; v < m->nvars && used < len; v++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", v ? " " : "", m->vars[v]);
}

/* The option of the grid: --at or --grid. */
static const char *grid_opt(const struct lc_predrun *pr)
{
	return pr->o.at ? "--at" : "--grid";
}

/* Parse --at/--grid into pr->g and check its variables. */
static int parse_grid(struct lc_predrun *pr, char *msg, size_t len)
{
	const char *spec = pr->o.at ? pr->o.at : pr->o.grid;
	char why[256], vars[256];

	if (!!pr->o.at == !!pr->o.grid)
		return lc_fail(msg, len, -EINVAL, "give one of --at or --grid");
	if (pr->o.best && !pr->o.grid)
		return lc_fail(msg, len, -EINVAL, "--best searches a grid: give --grid, not --at");
	for (int i = 0; i < pr->o.where.n; i++)
		if (lc_best_cond_parse(pr->o.where.v[i], pr->cond, &pr->ncond, LC_BEST_MAXCOND, msg,
				       len))
			return -EINVAL;
	if (lc_grid_parse(spec, &pr->g, why, sizeof(why)))
		return lc_fail(msg, len, -EINVAL, "%s '%s': %s", grid_opt(pr), spec, why);
	if (lc_best_fix(&pr->g, pr->cond, pr->ncond, msg, len))
		return -EINVAL;
	if (lc_grid_cap(&pr->g, pr->o.max_points, why, sizeof(why)))
		return lc_fail(msg, len, -E2BIG, "%s '%s': %s", grid_opt(pr), spec, why);
	for (int i = 0; i < pr->g.naxes; i++) {
		if (known_var(pr, pr->g.axis[i].name))
			continue;
		var_list(pr->a, vars, sizeof(vars));
		return lc_fail(msg, len, -EINVAL, "unknown variable '%s' (the model uses: %s)",
			       pr->g.axis[i].name, vars);
	}
	return 0;
}

/* Check that T(E) exists when an option needs it. */
static int check_total(struct lc_predrun *pr, char *msg, size_t len)
{
	const char *what = pr->o.best ? "--best" : pr->o.whatif.n ? "--what-if" :
			   pr->o.compare ? "--compare" : "--plot";
	int need = pr->o.best || pr->o.whatif.n || pr->o.compare || pr->o.plot;
	char vars[256];

	pr->pax = lc_grid_find(&pr->g, "p");
	pr->has_t = !lc_predict_needs(pr->a, pr->lacks, sizeof(pr->lacks)) && pr->pax >= 0;
	if (!pr->has_t && need && pr->lacks[0])
		return lc_fail(msg, len, -EINVAL, "%s needs T(E) = sum C(E)/p, but %s has no "
			       "model for %s", what, pr->o.model, pr->lacks);
	if (!pr->has_t && need)
		return lc_fail(msg, len, -EINVAL, "%s needs T(E) = sum C(E)/p, which needs p in %s",
			       what, grid_opt(pr));
	if (pr->b && lc_predict_needs(pr->b, vars, sizeof(vars)))
		return lc_fail(msg, len, -EINVAL, "--compare needs T(E), but %s has no model for %s",
			       pr->o.compare, vars);
	return 0;
}

/* Parse the --what-if scenarios. */
static int parse_whatif(struct lc_predrun *pr, char *msg, size_t len)
{
	int rc;

	for (int i = 0; i < pr->o.whatif.n; i++)
		if ((rc = lc_whatif_parse(pr->o.whatif.v[i], &pr->w[i], msg, len)))
			return rc;
	return 0;
}

int lc_predrun_load(struct lc_predrun *pr, char *msg, size_t len)
{
	int rc;

	pr->pax = -1;
	if ((rc = read_model(pr->o.model, &pr->a, msg, len)) ||
	    (pr->o.compare && (rc = read_model(pr->o.compare, &pr->b, msg, len))) ||
	    (rc = parse_grid(pr, msg, len)) || (rc = check_total(pr, msg, len)))
		return rc;
	for (int i = 0; i < pr->g.naxes; i++)
		pr->names[i] = pr->g.axis[i].name;
	pr->env = (struct lc_env){ pr->names, pr->vals, pr->g.naxes };
	return parse_whatif(pr, msg, len);
}

/* Set pr->vals to grid point i. */
static void set_point(struct lc_predrun *pr, size_t i)
{
	int idx[LC_GRID_MAXAXES];

	lc_grid_index(&pr->g, i, idx);
	for (int a = 0; a < pr->g.naxes; a++)
		pr->vals[a] = pr->g.axis[a].v[idx[a]];
}

void lc_predrun_point_text(const struct lc_predrun *pr, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int a = 0; a < pr->g.naxes && used < len; a++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%g", a ? " " : "",
					 pr->names[a], pr->vals[a]);
}

/* T of model m at the current point, with the what-if w (NULL: none).  A
 * model whose T is not positive there (its categories below zero, each
 * counted as 0) is refused: a run takes time, and a speedup over it would
 * be meaningless. */
static int total(const struct lc_predrun *pr, const struct lc_model *m,
		 const struct lc_whatif *w, double *t, double *half, char *msg, size_t len)
{
	const char *missing = "?";
	int rc = lc_predict_total(m, &pr->env, w, t, half, &missing);
	char at[160];

	if (rc == -EINVAL && !strcmp(missing, "p"))
		return lc_fail(msg, len, rc, "p must be positive");
	if (rc)
		return lc_fail(msg, len, rc, "the model uses '%s'; give it in --at or --grid",
			       missing);
	if (w || *t > 0)
		return 0;
	lc_predrun_point_text(pr, at, sizeof(at));
	return lc_fail(msg, len, -EDOM, "T(E) of %s is not positive at %s: its models are zero "
		       "or below zero there (past the range they were fitted over; a time cannot "
		       "be negative); refit with fit --search --upto", m == pr->a ? pr->o.model :
		       pr->o.compare, at);
}

/* T of m at the current point with p replaced by pv (for speedup and
 * SF). */
static int total_at_p(struct lc_predrun *pr, const struct lc_model *m, double pv, double *t,
		      char *msg, size_t len)
{
	double save = pr->vals[pr->pax], h;
	int rc;

	pr->vals[pr->pax] = pv;
	rc = total(pr, m, NULL, t, &h, msg, len);
	pr->vals[pr->pax] = save;
	return rc;
}

/* Say which category predictions were below zero and counted as 0. */
static void note_clipped(struct lc_predrun *pr, FILE *out)
{
	if (pr->clip.n)
		fprintf(out, "note: a category's model below zero counts as 0 (a time cannot be "
			"negative; %s = %.4g s%s): it goes below zero past the range it was fitted "
			"over (refit with fit --search --upto)\n", pr->clip.cat, pr->clip.value,
			pr->g.naxes && lc_grid_count(&pr->g) > 1 ? " at the first such point" : "");
	pr->clip.n = 0;
}

/* Say which categories T(E) leaves out for want of a model. */
static void note_excluded(const struct lc_predrun *pr, FILE *out)
{
	char ex[128];
	int n = lc_predict_excluded(pr->a, ex, sizeof(ex));

	if (pr->has_t && n)
		fprintf(out, "note: T(E) excludes %s: %s has no model for %s (not measured in the "
			"runs, e.g. without counters, or not fitted), so T counts %s as 0\n", ex,
			pr->o.model, n == 1 ? "it" : "them", n == 1 ? "it" : "them");
}

/* Say when p goes beyond the CPUs of any machine the runs were measured
 * on (the model file's "%cpus"): an extrapolation past anything
 * measured. */
static void note_cpus(const struct lc_predrun *pr, double pmax, FILE *out)
{
	if (pr->a->cpus && pmax > pr->a->cpus && pmax > pr->a->pmax)
		fprintf(out, "note: p up to %g exceeds the %u CPUs of the machine the runs were "
			"measured on%s: the prediction extrapolates past anything measured\n", pmax,
			pr->a->cpus, pr->a->pmax > pr->a->cpus ? " and the largest p measured" : "");
}

/* Say how far past the runs the farthest point asked goes, and that the
 * intervals are widened for it. */
static void note_reach(struct lc_predrun *pr, FILE *out)
{
	if (pr->reach > 1)
		fprintf(out, "past the data: %s; the 90%% intervals are widened %.3gx (1 + log2 of "
			"the ratio, per model)\n", pr->reach_text, 1 + log2(pr->reach));
	pr->reach = 0;
}

/* Say why T(E) is not printed: categories missing, or no p. */
static void no_total(const struct lc_predrun *pr, FILE *out)
{
	if (pr->lacks[0])
		fprintf(out, "T(E) not computed: %s has no model for %s (T = sum C(E)/p needs rt "
			"li ip sl cl, or tt alone)\n", pr->o.model, pr->lacks);
	else
		fprintf(out, "T(E) = sum C(E)/p not computed: give p\n");
}

/* Every point asked, every category of the model and of --compare's:
 * refuse a model that goes below zero or turns between its runs and the
 * point (lc_predict_past), before any table is printed. */
static int past_all(struct lc_predrun *pr, char *msg, size_t len)
{
	size_t n = lc_grid_count(&pr->g);
	int rc;

	for (size_t i = 0; i < n; i++) {
		set_point(pr, i);
		for (int c = 0; c < pr->a->ncats; c++)
			if ((rc = lc_predict_past(pr->a, pr->a->cats[c].cat, &pr->env, msg, len)) ==
			    -EDOM)
				return rc;
		for (int c = 0; pr->b && c < pr->b->ncats; c++)
			if ((rc = lc_predict_past(pr->b, pr->b->cats[c].cat, &pr->env, msg, len)) ==
			    -EDOM)
				return rc;
	}
	return 0;
}

/* Predict category cat at the current point. */
static int category(struct lc_predrun *pr, const char *cat, double *c, double *h,
		    char *msg, size_t len)
{
	const char *missing = "?";
	char far[sizeof(pr->reach_text)];
	double r;

	if (!lc_predict_cat_clip(pr->a, cat, &pr->env, &pr->clip, c, h, &missing)) {
		if ((r = lc_predict_reach(pr->a, &pr->env, far, sizeof(far))) > pr->reach) {
			pr->reach = r;
			snprintf(pr->reach_text, sizeof(pr->reach_text), "%s", far);
		}
		return 0;
	}
	return lc_fail(msg, len, -EINVAL, "the model of %s uses '%s'; give it in %s", cat,
		       missing, grid_opt(pr));
}

/* Print the point as "n=1024 p=26". */
static void print_point(const struct lc_predrun *pr, FILE *out)
{
	for (int a = 0; a < pr->g.naxes; a++)
		fprintf(out, "%s%s=%g", a ? " " : "", pr->names[a], pr->vals[a]);
}

/* --at: the table of every category's C(E). */
static int point_cats(struct lc_predrun *pr, FILE *out, char *msg, size_t len)
{
	double c, ch, p = pr->pax >= 0 ? pr->vals[pr->pax] : NAN;
	int rc;

	fprintf(out, "lostcycles predict: %s at ", pr->o.model);
	print_point(pr, out);
	fprintf(out, "\n%-4s %-34s %14s %12s", "cat", "", "C(E) seconds", "+/- (90%)");
	fprintf(out, pr->pax >= 0 ? " %12s\n" : "\n", "C(E)/p");
	for (int i = 0; i < pr->a->ncats; i++) {
		const char *cat = pr->a->cats[i].cat;
		const struct lc_cat_info *info = lc_cat_info(lc_key_lookup(cat));

		if ((rc = category(pr, cat, &c, &ch, msg, len)))
			return rc;
		fprintf(out, "%-4s %-34s %14.6g %12.4g", cat, info ? info->desc : "", c, ch);
		if (pr->pax >= 0)
			fprintf(out, " %12.6g", c / p);
		fprintf(out, "\n");
	}
	if (pr->pax >= 0)
		note_cpus(pr, p, out);
	note_reach(pr, out);
	return 0;
}

/* --at: the what-if lines against T = t, T(p=1) = t1. */
static int point_whatifs(struct lc_predrun *pr, double t, double t1, FILE *out, char *msg,
			 size_t len)
{
	double tw, hw;
	int rc;

	for (int i = 0; i < pr->o.whatif.n; i++) {
		if ((rc = total(pr, pr->a, &pr->w[i], &tw, &hw, msg, len)))
			return rc;
		fprintf(out, "what-if %-20s T = %.6g s  gain %.4g s (%.1f%%)  speedup %.4g\n",
			pr->w[i].text, tw, t - tw, 100 * (t - tw) / t, t1 / tw);
	}
	return 0;
}

/* --at: the comparison line against T = t. */
static int point_compare(struct lc_predrun *pr, double t, FILE *out, char *msg, size_t len)
{
	double tb, hb;
	int rc;

	if ((rc = total(pr, pr->b, NULL, &tb, &hb, msg, len)))
		return rc;
	fprintf(out, "compare: T = %.6g s with %s, %.6g s with %s: %s is faster by %.1f%%\n", t,
		pr->o.model, tb, pr->o.compare, tb < t ? pr->o.compare : pr->o.model,
		100 * fabs(t - tb) / fmax(t, tb));
	return 0;
}

/* --at: every category; T(E), speedup and efficiency when the model has
 * what T needs; what-ifs, comparison. */
static int predict_one(struct lc_predrun *pr, FILE *out, char *msg, size_t len)
{
	double t, h, t1, p;
	int rc;

	set_point(pr, 0);
	p = pr->pax >= 0 ? pr->vals[pr->pax] : NAN;
	if ((rc = point_cats(pr, out, msg, len)))
		return rc;
	note_clipped(pr, out);
	if (!pr->has_t) {
		no_total(pr, out);
		return 0;
	}
	if ((rc = total(pr, pr->a, NULL, &t, &h, msg, len)) ||
	    (rc = total_at_p(pr, pr->a, 1, &t1, msg, len)))
		return rc;
	fprintf(out, "T(E) = sum C(E)/p = %.6g s  (90%% prediction interval %.6g .. %.6g%s)\n", t,
		lc_predict_lower(t, h), t + h,
		t - h < 0 ? "; its lower end clipped at 0: a time cannot be negative" : "");
	pr->clip.n = 0;
	fprintf(out, "speedup over p=1: %.4g  efficiency: %.4g\n", t1 / t, t1 / t / p);
	note_excluded(pr, out);
	if ((rc = point_whatifs(pr, t, t1, out, msg, len)))
		return rc;
	return pr->b ? point_compare(pr, t, out, msg, len) : 0;
}

/* Print the column headers of the grid table. */
static void grid_header(const struct lc_predrun *pr, FILE *out)
{
	for (int a = 0; a < pr->g.naxes; a++)
		fprintf(out, "%s%10s", a ? " " : "", pr->names[a]);
	for (int i = 0; i < pr->a->ncats; i++)
		fprintf(out, " %12s", pr->a->cats[i].cat);
	if (pr->has_t)
		fprintf(out, " %12s %10s %9s %7s %7s", "T(E) s", "+/-", "speedup", "effic", "SF");
	for (int i = 0; i < pr->o.whatif.n; i++)
		fprintf(out, "  %12.12s %6s", pr->w[i].text, "gain%");
	if (pr->b)
		fprintf(out, " %12s %s", "T_B s", "faster");
	fprintf(out, "\n");
}

/* The smallest (sign 1) or largest (sign -1) p of the grid. */
static double end_p(const struct lc_predrun *pr, double sign)
{
	const struct lc_axis *ax = &pr->g.axis[pr->pax];
	double m = ax->v[0];

	for (int i = 1; i < ax->n; i++)
		m = sign * ax->v[i] < sign * m ? ax->v[i] : m;
	return m;
}

/* The what-if and comparison columns of a grid row, against T = t. */
static int grid_extra(struct lc_predrun *pr, double t, FILE *out, char *msg, size_t len)
{
	double tw, hw, tb, hb;
	int rc;

	for (int i = 0; i < pr->o.whatif.n; i++) {
		if ((rc = total(pr, pr->a, &pr->w[i], &tw, &hw, msg, len)))
			return rc;
		fprintf(out, "  %12.6g %6.1f", tw, 100 * (t - tw) / t);
	}
	if (!pr->b)
		return 0;
	if ((rc = total(pr, pr->b, NULL, &tb, &hb, msg, len)))
		return rc;
	fprintf(out, " %12.6g %s", tb, tb < t ? "B" : tb > t ? "A" : "equal");
	return 0;
}

/* Print T(E), its interval, speedup, efficiency and SF at the current
 * point, then the what-ifs and the comparison. */
static int grid_total(struct lc_predrun *pr, double pmin, FILE *out, char *msg, size_t len)
{
	double t, h, t1, tmin, p = pr->vals[pr->pax];
	int rc;

	if ((rc = total(pr, pr->a, NULL, &t, &h, msg, len)) ||
	    (rc = total_at_p(pr, pr->a, 1, &t1, msg, len)) ||
	    (rc = total_at_p(pr, pr->a, pmin, &tmin, msg, len)))
		return rc;
	fprintf(out, " %12.6g %10.4g %9.4g %7.4f %7.4f", t, h, t1 / t, t1 / t / p,
		(tmin / t) / (p / pmin));
	return grid_extra(pr, t, out, msg, len);
}

/* Print one row of the grid table at the current point: the variables,
 * each category's C(E), then T(E) and what follows when it exists. */
static int grid_row(struct lc_predrun *pr, double pmin, FILE *out, char *msg, size_t len)
{
	double c, h;
	int rc;

	for (int a = 0; a < pr->g.naxes; a++)
		fprintf(out, "%s%10g", a ? " " : "", pr->vals[a]);
	for (int i = 0; i < pr->a->ncats; i++) {
		if ((rc = category(pr, pr->a->cats[i].cat, &c, &h, msg, len)))
			return rc;
		fprintf(out, " %12.6g", c);
	}
	if (pr->has_t && (rc = grid_total(pr, pmin, out, msg, len)))
		return rc;
	fprintf(out, "\n");
	return 0;
}

/* The crossovers along the first axis at the other axes' current values;
 * their number, or -errno. */
static int crossings(struct lc_predrun *pr, FILE *out, char *msg, size_t len)
{
	const struct lc_axis *ax = &pr->g.axis[0];
	double at[MAXCROSS];
	int below[MAXCROSS], k;
	const char *missing = "?";

	k = lc_predict_crossovers(pr->a, pr->b, &pr->env, 0, ax->v, ax->n, at, below, MAXCROSS,
				  &missing);
	if (k < 0)
		return lc_fail(msg, len, -EINVAL, "the models use '%s'; give it in --grid", missing);
	for (int j = 0; j < k && j < MAXCROSS; j++) {
		fprintf(out, "  %s = %.6g", ax->name, at[j]);
		for (int a = 1; a < pr->g.naxes; a++)
			fprintf(out, " %s=%g", pr->names[a], pr->vals[a]);
		fprintf(out, ": %s faster below, %s faster above\n", below[j] ? "B" : "A",
			below[j] ? "A" : "B");
	}
	return k;
}

/* Report crossovers along the first axis for every combination of the
 * other axes (first axis index fixed at 0 in the enumeration). */
static int crossovers(struct lc_predrun *pr, FILE *out, char *msg, size_t len)
{
	size_t stride = lc_grid_count(&pr->g) / (size_t)pr->g.axis[0].n;
	int found = 0, k;

	fprintf(out, "crossovers along %s (A = %s, B = %s):\n", pr->g.axis[0].name, pr->o.model,
		pr->o.compare);
	for (size_t i = 0; i < stride; i++) {
		set_point(pr, i);
		if ((k = crossings(pr, out, msg, len)) < 0)
			return k;
		found += k;
	}
	if (!found)
		fprintf(out, "  none in the grid\n");
	return 0;
}

/* The title lines of the grid table. */
static void grid_title(const struct lc_predrun *pr, double pmin, FILE *out)
{
	fprintf(out, "lostcycles predict: %s over %s", pr->o.model, pr->o.grid);
	if (pr->b)
		fprintf(out, " (A), compared with %s (B)", pr->o.compare);
	fprintf(out, "\nC(E) in seconds per category");
	if (pr->has_t)
		fprintf(out, "; T(E) = sum C(E)/p; speedup and efficiency against p=1; "
			"SF = (T(p=%g)/T)/(p/%g)\n", pmin, pmin);
	else
		fprintf(out, "\n");
}

/* --grid: the table, then the crossovers with --compare. */
static int predict_grid(struct lc_predrun *pr, FILE *out, char *msg, size_t len)
{
	size_t n = lc_grid_count(&pr->g);
	double pmin = pr->has_t ? end_p(pr, 1) : NAN;
	int rc;

	grid_title(pr, pmin, out);
	grid_header(pr, out);
	for (size_t i = 0; i < n; i++) {
		set_point(pr, i);
		if ((rc = grid_row(pr, pmin, out, msg, len)))
			return rc;
	}
	if (!pr->has_t)
		no_total(pr, out);
	note_clipped(pr, out);
	note_excluded(pr, out);
	if (pr->pax >= 0)
		note_cpus(pr, end_p(pr, -1), out);
	note_reach(pr, out);
	return pr->b && pr->g.axis[0].n > 1 ? crossovers(pr, out, msg, len) : 0;
}

int lc_predrun_print(struct lc_predrun *pr, FILE *out, char *msg, size_t len)
{
	int rc = pr->o.best ? lc_best_print(pr, out, msg, len) : past_all(pr, msg, len);

	if (rc || pr->o.best)
		return rc;
	if (lc_grid_count(&pr->g) == 1)
		return predict_one(pr, out, msg, len);
	return predict_grid(pr, out, msg, len);
}

/* One row of the plot data at first-axis value x: x, T (or speedup), its
 * half width, T (or speedup) of B. */
static int plot_row(struct lc_predrun *pr, FILE *f, double x, char *msg, size_t len)
{
	double t, h, t1 = 1, tb = NAN, hb;
	int rc;

	pr->vals[0] = x;
	rc = total(pr, pr->a, NULL, &t, &h, msg, len);
	if (!rc && pr->o.speedup)
		rc = total_at_p(pr, pr->a, 1, &t1, msg, len);
	if (!rc && pr->b)
		rc = total(pr, pr->b, NULL, &tb, &hb, msg, len);
	if (pr->b && pr->o.speedup && !rc)
		tb = t1 / tb;
	fprintf(f, "%.10g %.10g %.10g %.10g\n", x, pr->o.speedup ? t1 / t : t, h, tb);
	return rc;
}

/* Write the plot data: one block per value of the second axis. */
static int plot_data(struct lc_predrun *pr, const char *path, int nb, char *msg, size_t len)
{
	const struct lc_axis *x = &pr->g.axis[0];
	FILE *f = lc_out_fopen(path);
	int rc = 0;

	if (!f)
		return lc_fail(msg, len, -errno, "--plot %s: %s", pr->o.plot, strerror(errno));
	set_point(pr, 0);
	for (int b = 0; b < nb && !rc; b++) {
		if (pr->g.naxes > 1)
			pr->vals[1] = pr->g.axis[1].v[b];
		fprintf(f, "%s# %s=%g\n", b ? "\n\n" : "", pr->g.naxes > 1 ? pr->names[1] : "all",
			pr->g.naxes > 1 ? pr->vals[1] : 0.0);
		for (int i = 0; i < x->n && !rc; i++)
			rc = plot_row(pr, f, x->v[i], msg, len);
	}
	if ((fclose(f) || rc) && !rc)
		rc = lc_fail(msg, len, -EIO, "--plot %s: %s", pr->o.plot, strerror(EIO));
	return rc;
}

/* The plot lines of block b of the data file: A's curve, and B's. */
static void plot_lines(const void *arg, FILE *f, const char *data, int b)
{
	const struct lc_predrun *pr = arg;
	char label[64] = "A";

	if (pr->g.naxes > 1)
		snprintf(label, sizeof(label), "%s=%g", pr->names[1], pr->g.axis[1].v[b]);
	lc_plotout_curve(f, !b, data, b, "using 1:2 with linespoints lw 2", "%s%s",
			 pr->b ? "A " : "", label);
	if (pr->b)
		lc_plotout_curve(f, 0, data, b, "using 1:4 with linespoints dt 2", "B %s", label);
}

int lc_predrun_plot(struct lc_predrun *pr, FILE *out, char *msg, size_t len)
{
	struct lc_plotout_script s = {
		.who = "predict", .yaxis = pr->o.speedup ? "set ylabel \"speedup\"" :
		"set ylabel \"predicted T(E) (seconds)\"", .title = pr->o.model,
		.curve = plot_lines, .arg = pr,
	};
	struct lc_plotout po;
	int rc;

	if ((rc = lc_plotout_axes(&pr->g, pr->o.plot_x, msg, len)))
		return rc;
	pr->pax = lc_grid_find(&pr->g, "p");	/* the axes were reordered */
	s.ncurves = pr->g.naxes > 1 ? pr->g.axis[1].n : 1;
	s.xlabel = pr->names[0];
	if ((rc = lc_plotout_open(&po, pr->o.plot, pr->o.force, msg, len)) ||
	    (rc = plot_data(pr, po.data, s.ncurves, msg, len)) ||
	    (rc = lc_plotout_script(&po, &s, msg, len)))
		return rc;
	return lc_plotout_finish(&po, out, msg, len);
}

/* The helpers of lca_best.c.  See lca_predrun.h. */
void lc_predrun_point(struct lc_predrun *pr, size_t i)
{
	set_point(pr, i);
}

int lc_predrun_total(struct lc_predrun *pr, double pv, double *t, double *half, char *msg,
		     size_t len)
{
	if (isnan(pv))
		return total(pr, pr->a, NULL, t, half, msg, len);
	*half = 0;
	return total_at_p(pr, pr->a, pv, t, msg, len);
}

int lc_predrun_past(struct lc_predrun *pr, char *msg, size_t len)
{
	int rc;

	for (int c = 0; c < pr->a->ncats; c++)
		if ((rc = lc_predict_past(pr->a, pr->a->cats[c].cat, &pr->env, msg, len)) == -EDOM)
			return rc;
	return 0;
}

void lc_predrun_notes(struct lc_predrun *pr, double pmax, FILE *out)
{
	char far[sizeof(pr->reach_text)];
	double r = lc_predict_reach(pr->a, &pr->env, far, sizeof(far));

	if (r > pr->reach) {
		pr->reach = r;
		snprintf(pr->reach_text, sizeof(pr->reach_text), "%s", far);
	}
	note_clipped(pr, out);
	note_excluded(pr, out);
	note_cpus(pr, pmax, out);
	note_reach(pr, out);
}

void lc_predrun_free(struct lc_predrun *pr)
{
	lc_model_free(pr->a);
	lc_model_free(pr->b);
	lc_grid_free(&pr->g);
}
