/*
 * lca_fitout.c — the outputs of a fit (see lca_fitrun.h): the ranked table
 * as text (lca's layout with more columns), JSON, CSV or one formula; the
 * gnuplot files of -g; the model-file line of --emit and the lcm: comment
 * of --emit-comment.  These print: that is their job.
 */
#include "lca_fitrun.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_emit.h"
#include "lc_profile.h"
#include "lc_util.h"
#include "lca_model.h"
#include "lca_plot.h"
#include "lca_runs.h"
#include "plotout.h"

#define PROG "lostcycles fit"

/* Print every run skipped for lacking a value, as file:line and the key, to
 * f. */
static void print_skipped(const struct lc_fitrun *fr, FILE *f, const char *pre)
{
	const struct lc_points *p = &fr->pts;

	for (size_t i = 0; i < p->missing; i++)
		fprintf(f, "%sskipped %s:%d: no value for %s\n", pre,
			fr->o.runs, p->skip_line[i], lc_runs_keyname(fr->runs, p->skip_key[i]));
}

/* The variables' values at point k as "n=256 p=4", into buf. */
static void point_text(const struct lc_fitrun *fr, size_t k, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int v = 0; v < fr->nvars && used < len; v++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%g", v ? " " : "",
					 fr->vars[v], fr->pts.x[k * (size_t)fr->nvars + (size_t)v]);
}

/* The line of one outlier, to f. */
static void outlier_line(const struct lc_fitrun *fr, const struct lc_outlier *o, FILE *f,
			 const char *pre)
{
	char at[160];

	point_text(fr, o->point, at, sizeof(at));
	fprintf(f, "%soutlier%s %s:%d: %s=%g at %s, where its repeats' median is %g: %.3g "
		"times the runs' noise (%.3g %%)%s\n", pre, o->dropped ? " left out" : "",
		fr->o.runs, o->line, fr->cat->key, o->y, at, o->median, o->dev,
		100 * fr->pts.noise, o->paired ? "; of two repeats, which is wrong cannot be told" : "");
}

/* Print the repeats far from their point's other repeats, to f. */
static void print_outliers(const struct lc_fitrun *fr, FILE *f, const char *pre)
{
	const struct lc_points *p = &fr->pts;
	int kept = 0;

	for (size_t i = 0; i < p->nout; i++) {
		outlier_line(fr, &p->out[i], f, pre);
		kept |= !p->out[i].dropped && !p->out[i].paired;
	}
	if (kept && !fr->o.drop_outliers)
		fprintf(f, "%soutliers are averaged in; --drop-outliers leaves them out\n", pre);
	else if (kept)
		fprintf(f, "%soutliers are kept where half or more of a point's repeats are outliers\n",
			pre);
}


/* Print the fitted points (-d). */
static void print_points(const struct lc_fitrun *fr, FILE *out)
{
	const struct lc_points *p = &fr->pts;

	fprintf(out, "points:");
	for (int v = 0; v < fr->nvars; v++)
		fprintf(out, " %10s", fr->vars[v]);
	fprintf(out, " %12s %12s %12s %12s %5s\n", fr->cat->key, "spread", "smallest", "largest",
		"runs");
	for (size_t i = 0; i < p->n; i++) {
		fprintf(out, "       ");
		for (int v = 0; v < fr->nvars; v++)
			fprintf(out, " %10g", p->x[i * (size_t)fr->nvars + (size_t)v]);
		fprintf(out, " %12.6g %12.4g %12.6g %12.6g %5d\n", p->y[i], p->sd[i], p->lo[i], p->hi[i],
			p->count[i]);
	}
}

/* What --no-load did, and the runs measured under load (file:line). */
static void print_load(const struct lc_fitrun *fr, FILE *f, const char *pre)
{
	if (fr->o.noload)
		fprintf(f, "%snote: --no-load: the model is of the program on a machine without other "
			"load (%s)\n", pre, fr->cat->from == LC_FROM_SUM ? "tt less rc, the time "
			"runnable but not running" : "rc, the time runnable but not running, is apart "
			"from this category");
	for (int i = 0; i < fr->nloaded && i < LC_FIT_LOADED_SHOWN; i++)
		fprintf(f, "%sloaded run %s:%d: load=%.3g%% of the program's CPUs went to other "
			"processes (over %.0f%%)\n", pre, fr->o.runs, fr->loaded_line[i],
			fr->loaded_pct[i], LC_FIT_LOADED_PCT);
	if (fr->nloaded > LC_FIT_LOADED_SHOWN)
		fprintf(f, "%s... and %d more loaded runs\n", pre, fr->nloaded - LC_FIT_LOADED_SHOWN);
	if (fr->nloaded)
		fprintf(f, "%sloaded runs distort the categories (rt too, when the load took CPUs "
			"it needed); --max-load PCT leaves them out%s\n", pre,
			fr->o.noload ? "" : ", --no-load fits tt without rc");
}

/* How the repeats of a point were made one value. */
static const char *agg_text(const struct lc_fitrun *fr)
{
	switch (fr->o.aggregate) {
	case LC_POINTS_MEAN:
		return "repeats averaged";
	case LC_POINTS_MEDIAN:
		return "the median of each point's repeats";
	case LC_POINTS_MIN:
		return "the smallest of each point's repeats";
	default:
		return fr->pts.agg_auto == LC_POINTS_MIN ? "the smallest of each point's repeats" :
		       "repeats averaged";
	}
}

/* Say which aggregate the repeats chose, and why (--aggregate not given). */
static void print_agg_choice(const struct lc_fitrun *fr, FILE *out)
{
	const struct lc_points *p = &fr->pts;

	if (!p->agg_auto)
		return;
	fprintf(out, "aggregate: %s, chosen from the repeats: %s (their upper half-ranges %.3gx "
		"the lower over %d point%s; above %g is right-skewed, as a loaded machine's slowed "
		"runs make it); --aggregate overrides\n", p->agg_auto == LC_POINTS_MIN ?
		"the smallest repeat" : "the mean", p->agg_auto == LC_POINTS_MIN ? "right-skewed" :
		"a symmetric spread", p->skew, p->skew_n, p->skew_n == 1 ? "" : "s",
		LC_AGG_SKEW_RATIO);
}

/* The spread of the repeats: the least and largest (hi - lo) / value over
 * the points with repeats, where the largest is, and the runs' noise. */
static void print_spread(const struct lc_fitrun *fr, FILE *out)
{
	const struct lc_points *p = &fr->pts;
	double lo = INFINITY, hi = -INFINITY;
	size_t at = 0;

	for (size_t i = 0; i < p->n; i++) {
		double s = p->y[i] != 0 ? (p->hi[i] - p->lo[i]) / fabs(p->y[i]) : 0;

		if (p->count[i] < 2)
			continue;
		lo = fmin(lo, s);
		if (s > hi) {
			hi = s;
			at = i;
		}
	}
	if (!isfinite(hi))
		return;
	fprintf(out, "repeats: spread (largest - smallest) / value %.3g%% .. %.3g%% (the largest at ",
		100 * lo, 100 * hi);
	for (int v = 0; v < fr->nvars; v++)
		fprintf(out, "%s%s=%g", v ? " " : "", fr->vars[v], p->x[at * (size_t)fr->nvars + (size_t)v]);
	fprintf(out, "); the runs' noise %.3g%% (from the repeats: their pooled "
		"standard deviation, unbiased)\n", 100 * p->noise);
}

/* The line of points and runs: how many, which were left out, and the
 * weights. */
static void print_counts(const struct lc_fitrun *fr, FILE *out)
{
	const struct lc_points *p = &fr->pts;
	int weighted = fr->cands[0].fit.weighted;

	fprintf(out, "%zu point%s from %zu run%s", p->n, p->n == 1 ? "" : "s", p->used,
	       p->used == 1 ? "" : "s");
	if (p->used > p->n)
		fprintf(out, " (%s%s)", agg_text(fr), weighted == 1 ? ", weighted by count/spread^2" :
			"");
	if (p->na)
		fprintf(out, "; %zu run%s with %s=na skipped", p->na, p->na == 1 ? "" : "s", fr->cat->key);
	if (p->missing)
		fprintf(out, "; %zu run%s lacking a value skipped (below)", p->missing,
		       p->missing == 1 ? "" : "s");
	if (p->excluded)
		fprintf(out, "; %zu not selected by %s", p->excluded, fr->o.max_load > 0 ?
			(fr->o.extract ? "-x or --max-load" : "--max-load") : "-x");
	fprintf(out, "%s\n", weighted == 2 ? "; relative errors (weights 1/y^2)" :
		       weighted == 1 ? "" : fr->o.absolute ? "; plain least squares" :
		       "; plain least squares (a value is 0)");
	print_agg_choice(fr, out);
}

/* Print the header lines: what was fitted to what. */
static void print_header(const struct lc_fitrun *fr, FILE *out)
{
	fprintf(out, "lostcycles fit %s\n", LC_TOOL_VERSION);
	fprintf(out, "Datafile: %s, Variable%s: %s, Category: %s (%s), Constraints: %s\n",
		fr->o.runs, fr->nvars > 1 ? "s" : "", fr->o.varlist, fr->cat->key, fr->cat->desc,
		fr->o.extract ? fr->o.extract : "none");
	if (fr->o.region)
		fprintf(out, "Region: %s (%zu of the file's runs)\n", fr->o.region,
			lc_runs_count(fr->runs));
	print_counts(fr, out);
	if (fr->allzero)
		fprintf(out, "note: %s is 0 in all %zu runs: its model is 0 (--emit writes it, and "
			"predict's T(E) counts it)\n", fr->cat->key, fr->pts.used);
	print_load(fr, out, "");
	print_spread(fr, out);
	print_skipped(fr, out, "");
	print_outliers(fr, out, "");
}

/* True when some candidate has a finite AICc. */
static int any_aicc(const struct lc_fitrun *fr)
{
	for (int i = 0; i < fr->ncands; i++)
		if (isfinite(fr->cands[i].fit.aicc))
			return 1;
	return 0;
}

/* The search's line: how many hypotheses of which shape. */
static void print_search(const struct lc_fitrun *fr, FILE *out)
{
	const char *lo = lc_fitrun_negative_ok(fr) ? "-2" : "0";

	if (fr->nvars == 1)
		fprintf(out, "search: %d hypotheses: c0, and c0 + c1*f and c1*f for f = "
			"%s^i*log2(%s)^j, i in %s..3, j in 0..2\n", fr->ntried, fr->vars[0],
			fr->vars[0], lo);
	else
		fprintf(out, "search: %d hypotheses: sums of up to two products of the best %d "
			"factors v^i*log2(v)^j (i in %s..3) of each variable, found along lines of "
			"the others\n", fr->ntried, fr->search.kept[0], lo);
}

/* The notes of forms left out as undefined at some point. */
static void print_undefined(const struct lc_fitrun *fr, FILE *out)
{
	if (fr->search.undefined)
		fprintf(out, "note: %d factor%s v^i*log2(v)^j undefined at %s (log of 0, or a "
			"negative power of 0) left out\n", fr->search.undefined,
			fr->search.undefined == 1 ? "" : "s", fr->search.undefined_at);
	if (fr->nundef)
		fprintf(out, "note: %d form%s undefined at %s (log of 0, or a negative power of 0) "
			"left out\n", fr->nundef, fr->nundef == 1 ? "" : "s", fr->undef_at);
	if (fr->nmixed)
		fprintf(out, "note: %d form%s with opposite-signed terms left out (they cancel past "
			"the data; a model without them fits): the first %s\n", fr->nmixed,
			fr->nmixed == 1 ? "" : "s", fr->mixed_first);
	if (fr->nturn)
		fprintf(out, "note: %d form%s that turn%s (not monotone) between the data and --upto "
			"left out (a model that does not turn fits): the first %s\n", fr->nturn,
			fr->nturn == 1 ? "" : "s", fr->nturn == 1 ? "s" : "", fr->turn_first);
	if (fr->turn_kept)
		fprintf(out, "note: every model that fits turns between the data and --upto: the "
			"data demand it, and --emit says so (predict then allows it)\n");
	if (fr->nneg)
		fprintf(out, "note: %d form%s whose fitted curve goes below zero in the %s left out "
			"(the first at %s)\n", fr->nneg, fr->nneg == 1 ? "" : "s",
			fr->o.upto ? "measured range or up to --upto" : "measured range", fr->neg_at);
}

/* Print what was tried and how it was ranked. */
static void print_rule(const struct lc_fitrun *fr, FILE *out)
{
	static const char *const crit[] = {
		[LC_CRIT_LOO] = "leave-one-out SMAPE",
		[LC_CRIT_AICC] = "AICc (too few points to leave one out)",
		[LC_CRIT_R2] = "R2 (too few points for leave-one-out or AICc)",
	};

	if (fr->o.search)
		print_search(fr, out);
	print_undefined(fr, out);
	if (fr->o.search && fr->nvars == 1 && fr->sel.crit == LC_CRIT_AICC && fr->sel.shortlist > 0 &&
	    isfinite(fr->cands[0].fit.smape))
		fprintf(out, "ranked by AICc (the hypotheses c0 + c1*f differ in the shape of f "
			"alone: the best weighted fit first); '?', '!' and '<0' models last\n");
	else if (fr->sel.crit == LC_CRIT_LOO)
		fprintf(out, "ranked by leave-one-out SMAPE over the %d best by %s; '?' and '!' "
			"models last; the simplest within one standard error first\n",
			fr->sel.shortlist, any_aicc(fr) ? "AICc (then R2)" :
			"R2 (too few points for AICc)");
	else
		fprintf(out, "ranked by %s; '?' and '!' models last%s\n", crit[fr->sel.crit],
			fr->sel.crit == LC_CRIT_AICC ? "; the simplest within 2 of the best first" :
			"");
	if (fr->sel.extrap)
		fprintf(out, "extrapolation first: the largest level of each variable (then the two "
			"largest) held out and predicted from the others; errors within %.3g%% of "
			"the best's are ties, which the rule above orders\n", fr->sel.band);
	if (fr->sel.promoted >= 0)
		fprintf(out, "note: model 1 has fewer parameters or simpler terms than model 2 and "
			"is within one standard error of it\n");
}

/* The width of the model column: the longest shown model, 20 to 72. */
static int model_width(const struct lc_fitrun *fr, int n)
{
	char text[1024];
	int width = 20;

	for (int i = 0; i < n; i++) {
		lc_fitrun_model_text(fr, &fr->cands[i], text, sizeof(text));
		if ((int)strlen(text) > width)
			width = (int)strlen(text) < 72 ? (int)strlen(text) : 72;
	}
	return width;
}

/* Print row i of the ranked models, lca style, with the extra columns. */
static void model_row(const struct lc_fitrun *fr, int i, int width, FILE *out)
{
	const struct lc_fitcand *c = &fr->cands[i];
	const struct lc_fit *f = &c->fit;
	char text[1024];

	lc_fitrun_model_text(fr, c, text, sizeof(text));
	fprintf(out, "%2d. %-*s  R2 : %.4f  adjR2 : %.4f  AICc : ", i + 1, width, text, f->r2,
		f->adjr2);
	if (isfinite(f->aicc))
		fprintf(out, "%9.3f", f->aicc);
	else
		fprintf(out, "%9s", "-");
	fprintf(out, "  LOO-SMAPE : ");
	if (isnan(f->smape))
		fprintf(out, "   -");
	else
		fprintf(out, "%.3g%%", f->smape);
	fprintf(out, "  in-sample SMAPE : %.3g%%%s%s\n", f->smape_in, f->lof ? "  !" : "",
		f->negative ? "  <0" : "");
	if (c->ndropped)
		fprintf(out, "    pruned from '%s': dropped %s\n", c->text, c->dropped);
	if (c->also[0] && c->nalso > LC_FIT_ALSO_SHOWN)
		fprintf(out, "    also what pruning left of %s and %d more\n", c->also,
			c->nalso - LC_FIT_ALSO_SHOWN);
	else if (c->also[0])
		fprintf(out, "    also what pruning left of %s\n", c->also);
}

/* Print the legend of the marks that the n shown rows carry. */
static void legend(const struct lc_fitrun *fr, int n, FILE *out)
{
	int anyflag = 0, anylof = 0, anyinf = 0, anyneg = 0;

	for (int i = 0; i < n; i++) {
		anyneg |= fr->cands[i].fit.negative;
		anyflag |= fr->cands[i].fit.nflagged > 0;
		anylof |= fr->cands[i].fit.lof;
		anyinf |= !isfinite(fr->cands[i].fit.aicc);
	}
	if (anyflag)
		fprintf(out, "? the 90%% interval contains zero: the term cannot be told from zero; "
			"drop it (--prune)\n");
	if (anylof)
		fprintf(out, "! lack of fit: the misfit exceeds the spread of the repeated runs "
			"(F test, p < %g)\n", LC_LOF_LEVEL);
	if (anyneg)
		fprintf(out, "<0 the fitted curve goes below zero in the range: a time cannot, the "
			"model is not physical\n");
	if (anyinf)
		fprintf(out, "AICc - : too few points (AICc needs more points than the coefficients "
			"plus the variance, plus one)\n");
}

/* --format text: the header, the rule, the ranked models, the legend. */
static void text_table(const struct lc_fitrun *fr, FILE *out)
{
	int n = lc_fitrun_shown(fr), width = model_width(fr, n);

	print_header(fr, out);
	if (fr->o.debug)
		print_points(fr, out);
	print_rule(fr, out);
	for (int i = 0; i < n; i++)
		model_row(fr, i, width, out);
	legend(fr, n, out);
}

/* A JSON number with 10 significant digits, null when not finite. */
#define json_num(d, key, v) lc_doc_sig(d, key, v, 10)

/* The name of the ranking criterion, for json and csv. */
static const char *crit_name(enum lc_crit c)
{
	return c == LC_CRIT_LOO ? "loo_smape" : c == LC_CRIT_AICC ? "aicc" : "r2";
}

/* The terms of c as JSON objects: term, coefficient, 90% interval. */
static void json_terms(const struct lc_fitrun *fr, const struct lc_fitcand *c, struct lc_doc *d)
{
	const struct lc_fit *f = &c->fit;
	char text[2048];

	lc_doc_arr(d, "terms", 0);
	for (int t = 0; t < c->f->nterms; t++) {
		lc_expr_print(c->f->term[t], (const char *const *)fr->vars, 10, text, sizeof(text));
		lc_doc_obj(d, NULL, 0);
		lc_doc_str(d, "term", text);
		json_num(d, "coef", f->coef[t]);
		lc_doc_arr(d, "interval90", 0);
		json_num(d, NULL, f->coef[t] - f->half[t]);
		json_num(d, NULL, f->coef[t] + f->half[t]);
		lc_doc_end(d);
		lc_doc_bool(d, "contains_zero", f->flagged[t]);
		lc_doc_bool(d, "held_at_zero", f->zero[t]);
		lc_doc_end(d);
	}
	lc_doc_end(d);
}

/* One model as a JSON object. */
static void json_model(const struct lc_fitrun *fr, const struct lc_fitcand *c, int rank,
		       struct lc_doc *d)
{
	const struct lc_fit *f = &c->fit;
	const struct { const char *key; double v; } num[] = {
		{ "threshold", c->f->is_max ? f->threshold : NAN }, { "r2", f->r2 },
		{ "adj_r2", f->adjr2 }, { "aicc", f->aicc }, { "loo_smape_percent", f->smape },
		{ "loo_smape_se", f->smape_se }, { "insample_smape_percent", f->smape_in },
		{ "lack_of_fit_p", f->lof_p },
	};
	char text[2048];

	lc_fitrun_formula(fr, c, text, sizeof(text));
	lc_doc_obj(d, NULL, 0);
	lc_doc_int(d, "rank", rank);
	lc_doc_str(d, "formula", text);
	json_terms(fr, c, d);
	lc_doc_break(d);
	for (size_t i = 0; i < sizeof(num) / sizeof(num[0]); i++)
		json_num(d, num[i].key, num[i].v);
	lc_doc_bool(d, "lack_of_fit", f->lof);
	lc_doc_bool(d, "below_zero", f->negative);
	lc_doc_int(d, "dof", f->dof);
	lc_doc_end(d);
}

/* The JSON header of what was fitted to what. */
static void json_data(const struct lc_fitrun *fr, struct lc_doc *d)
{
	lc_doc_str(d, "file", fr->o.runs);
	if (fr->o.region)
		lc_doc_str(d, "region", fr->o.region);
	lc_doc_str(d, "category", fr->cat->key);
	lc_doc_arr(d, "variables", 0);
	for (int v = 0; v < fr->nvars; v++)
		lc_doc_str(d, NULL, fr->vars[v]);
	lc_doc_end(d);
	lc_doc_str(d, "extract", fr->o.extract);
}

/* The points and runs behind the fit, and how the models were ranked. */
static void json_rule(const struct lc_fitrun *fr, struct lc_doc *d)
{
	const struct lc_points *p = &fr->pts;
	int w = fr->cands[0].fit.weighted;

	lc_doc_break(d);
	lc_doc_uint(d, "points", p->n);
	lc_doc_uint(d, "runs", p->used);
	lc_doc_uint(d, "runs_na", p->na);
	lc_doc_uint(d, "runs_missing", p->missing);
	lc_doc_str(d, "weights", w == 2 ? "relative" : w == 1 ? "spread" : "none");
	lc_doc_int(d, "hypotheses", fr->ntried);
	lc_doc_int(d, "undefined_left_out", fr->nundef + fr->search.undefined);
	lc_doc_break(d);
	lc_doc_str(d, "ranked_by", crit_name(fr->sel.crit));
	lc_doc_int(d, "cross_validated", fr->sel.shortlist);
	lc_doc_bool(d, "simpler_promoted", fr->sel.promoted >= 0);
}

/* --format json: the data, the rule and the shown models. */
static void report_json(const struct lc_fitrun *fr, FILE *out)
{
	int n = lc_fitrun_shown(fr);
	struct lc_doc d;

	lc_doc_init(&d, out, 2);
	lc_doc_obj(&d, NULL, 0);
	json_data(fr, &d);
	json_rule(fr, &d);
	lc_doc_break(&d);
	lc_doc_arr(&d, "models", LC_DOC_LINES);
	for (int i = 0; i < n; i++)
		json_model(fr, &fr->cands[i], i + 1, &d);
	lc_doc_end(&d);
	lc_doc_end(&d);
}

/* The columns of --format csv: numbers with 10 significant digits, empty
 * when not finite. */
#define SIG10(n) { .name = (n), .kind = LC_COL_SIG, .prec = 10, .data_prec = 10, .csv_na = "" }
static const struct lc_col csv_cols[] = {
	{ .name = "region", .kind = LC_COL_STR }, /* only when a region is fitted */
	{ .name = "rank", .kind = LC_COL_INT }, { .name = "formula", .kind = LC_COL_STR },
	SIG10("r2"), SIG10("adj_r2"), SIG10("aicc"), SIG10("loo_smape_percent"),
	SIG10("loo_smape_se"), SIG10("insample_smape_percent"),
	{ .name = "contains_zero", .kind = LC_COL_INT }, SIG10("lack_of_fit_p"),
	{ .name = "ranked_by", .kind = LC_COL_STR },
};
#undef SIG10

/* One CSV row: model c ranked i + 1. */
static void csv_row(const struct lc_fitrun *fr, const struct lc_fitcand *c, int i,
		    struct lc_emit *e)
{
	const struct lc_fit *f = &c->fit;
	const double num[] = { f->r2, f->adjr2, f->aicc, f->smape, f->smape_se, f->smape_in };
	char text[2048];

	lc_fitrun_formula(fr, c, text, sizeof(text));
	if (fr->o.region)
		lc_emit_str(e, fr->o.region);
	lc_emit_int(e, i + 1);
	lc_emit_str(e, text);
	for (size_t k = 0; k < sizeof(num) / sizeof(num[0]); k++)
		lc_emit_num(e, isfinite(num[k]) ? num[k] : NAN);
	lc_emit_int(e, f->nflagged);
	lc_emit_num(e, isfinite(f->lof_p) ? f->lof_p : NAN);
	lc_emit_str(e, crit_name(fr->sel.crit));
	lc_emit_row(e);
}

/* --format csv: one row per shown model, through the table emitter. */
static void report_csv(const struct lc_fitrun *fr, FILE *out)
{
	int n = lc_fitrun_shown(fr), skip = !fr->o.region;
	struct lc_emit *e = lc_emit_new(out, LC_EMIT_CSV, csv_cols + skip,
					(int)(sizeof(csv_cols) / sizeof(csv_cols[0])) - skip, 0);

	for (int i = 0; e && i < n; i++)
		csv_row(fr, &fr->cands[i], i, e);
	lc_emit_end(e);
}

/* Notes for the machine formats go to err, one line each. */
static void notes_err(const struct lc_fitrun *fr, FILE *err)
{
	if (fr->search.undefined)
		fprintf(err, PROG ": note: %d factor%s undefined at %s left out\n",
			fr->search.undefined, fr->search.undefined == 1 ? "" : "s",
			fr->search.undefined_at);
	if (fr->nundef)
		fprintf(err, PROG ": note: %d form%s undefined at %s left out\n", fr->nundef,
			fr->nundef == 1 ? "" : "s", fr->undef_at);
}

/* The candidate of o.pick (default 1), or NULL when fewer fitted. */
static const struct lc_fitcand *picked(const struct lc_fitrun *fr)
{
	int pick = fr->o.pick ? fr->o.pick : 1;

	return pick <= lc_fitrun_fitted(fr) ? &fr->cands[pick - 1] : NULL;
}

void lc_fitrun_print(const struct lc_fitrun *fr, FILE *out, FILE *err)
{
	char text[2048];

	if (fr->o.format == LC_FITFMT_TEXT) {
		text_table(fr, out);
		return;
	}
	notes_err(fr, err);
	print_skipped(fr, err, PROG ": ");
	print_load(fr, err, PROG ": ");
	print_outliers(fr, err, PROG ": ");
	if (fr->o.format == LC_FITFMT_JSON) {
		report_json(fr, out);
	} else if (fr->o.format == LC_FITFMT_CSV) {
		report_csv(fr, out);
	} else if (picked(fr)) {
		if (fr->o.region_files)
			fprintf(out, "# region %s\n", fr->o.region);
		lc_fitrun_formula(fr, picked(fr), text, sizeof(text));
		fprintf(out, "%s\n", text);
	}
}

/* The second block of the data file: the n best models sampled at 201
 * values of the variable from lo to hi. */
static void plot_models(const struct lc_fitrun *fr, FILE *f, double lo, double hi, int n)
{
	fprintf(f, "\n\n# %s and the models in rank order\n", fr->vars[0]);
	for (int s = 0; s <= 200; s++) {
		double x = lo + (hi - lo) * s / 200;

		fprintf(f, "%.10g", x);
		for (int i = 0; i < n; i++)
			fprintf(f, " %.10g", lc_fit_eval(fr->cands[i].f, fr->cands[i].fit.coef, &x));
		fprintf(f, "\n");
	}
}

/* Write the gnuplot data file: the points (their spread's bars clipped at
 * 0: a time is not negative), then every shown model sampled over the
 * range of the variable. */
static int plot_data(const struct lc_fitrun *fr, const char *path, int n)
{
	const struct lc_points *p = &fr->pts;
	double lo = INFINITY, hi = -INFINITY;
	FILE *f = lc_out_fopen(path);

	if (!f)
		return -errno;
	fprintf(f, "# %s %s spread runs low high\n", fr->vars[0], fr->cat->key);
	for (size_t i = 0; i < p->n; i++) {
		fprintf(f, "%.10g %.10g %.10g %d %.10g %.10g\n", p->x[i], p->y[i], p->sd[i],
			p->count[i], fmax(p->y[i] - p->sd[i], 0), p->y[i] + p->sd[i]);
		lo = fmin(lo, p->x[i]);
		hi = fmax(hi, p->x[i]);
	}
	plot_models(fr, f, lo, hi, n);
	return fclose(f) ? -errno : 0;
}

/* Write the gnuplot script for the data file dpath. */
static int plot_script(const struct lc_fitrun *fr, const char *path, const char *dpath, int n)
{
	char text[1024];
	FILE *f = lc_out_fopen(path);

	if (!f)
		return -errno;
	fprintf(f, "# written by lostcycles fit; in gnuplot, load it to show the fits\nset title ");
	lc_plotout_str(f, "%s over %s (%s)", fr->cat->key, fr->vars[0], fr->o.runs);
	fprintf(f, " noenhanced\nset xlabel ");
	lc_plotout_str(f, "%s", fr->vars[0]);
	fprintf(f, "\nset ylabel ");
	lc_plotout_str(f, "%s (seconds)", fr->cat->key);
	fprintf(f, "\nset key left top noenhanced\nplot ");
	lc_plotout_str(f, "%s", dpath);
	/* the category's colour of every chart */
	fprintf(f, " index 0 using 1:2:5:6 with yerrorbars pt 7 lc rgb '%s' title 'measured'",
		fr->cat->colour);
	for (int i = 0; i < n; i++) {
		lc_fitrun_model_text(fr, &fr->cands[i], text, sizeof(text));
		fprintf(f, ", \\\n     ");
		lc_plotout_str(f, "%s", dpath);
		fprintf(f, " index 1 using 1:%d with lines title ", i + 2);
		lc_plotout_str(f, "%d: %s", i + 1, text);
	}
	fprintf(f, "\n");
	return fclose(f) ? -errno : 0;
}

/* A warning that does not stop the output, through the note callback. */
static void say(const struct lc_fitrun *fr, const char *text)
{
	if (fr->note)
		fr->note(fr->note_arg, text);
}

/* The file names of -g NAME. */
struct plot_files {
	char gp[4096], data[4096], png[4096];
};

/* Say how many points' spread bars the plot stops at 0. */
static void say_clipped(const struct lc_fitrun *fr)
{
	char text[160];
	int n = 0;

	for (size_t i = 0; i < fr->pts.n; i++)
		n += fr->pts.y[i] - fr->pts.sd[i] < 0;
	snprintf(text, sizeof(text), "-g: at %d point%s the spread reaches below 0; its bar stops "
		 "at 0 (a time is not negative)", n, n == 1 ? "" : "s");
	if (n)
		say(fr, text);
}

/* Write the data and the script of -g for the n best models. */
static int plot_write(const struct lc_fitrun *fr, const struct plot_files *pf, int n, char *msg,
		      size_t len)
{
	int rc = plot_data(fr, pf->data, n);

	if (!rc)
		rc = plot_script(fr, pf->gp, pf->data, n);
	if (!rc)
		say_clipped(fr);
	return rc ? lc_fail(msg, len, rc, "-g %s: %s", fr->o.plot, strerror(-rc)) : 0;
}

/* Run gnuplot for the PNG and say what was written; a failure is a
 * note. */
static void plot_png(const struct lc_fitrun *fr, const struct plot_files *pf, FILE *out)
{
	char why[13000];
	int rc = lc_plot_png(pf->gp, pf->png);

	if (rc == -ENOENT) {
		fprintf(out, "wrote %s and %s (gnuplot not installed: no PNG)\n", pf->gp, pf->data);
	} else if (rc) {
		snprintf(why, sizeof(why), "gnuplot failed on %s; %s and %s are there", pf->gp,
			 pf->gp, pf->data);
		say(fr, why);
	} else {
		fprintf(out, "wrote %s, %s and %s\n", pf->gp, pf->data, pf->png);
	}
}

int lc_fitrun_plot(const struct lc_fitrun *fr, FILE *out, char *msg, size_t len)
{
	struct plot_files pf;
	char why[4400];
	int n = lc_fitrun_shown(fr), rc;

	if (!fr->o.plot)
		return 0;
	if (fr->nvars != 1) {
		say(fr, "-g plots single-variable fits only; skipped");
		return 0;
	}
	snprintf(pf.gp, sizeof(pf.gp), "%s.gp", fr->o.plot);
	snprintf(pf.data, sizeof(pf.data), "%s.data", fr->o.plot);
	snprintf(pf.png, sizeof(pf.png), "%s.png", fr->o.plot);
	if ((rc = lc_plot_prepare(pf.gp, pf.data, pf.png, fr->o.force ? LC_OUT_FORCE : LC_OUT_KEEP,
				  why, sizeof(why))))
		return lc_fail(msg, len, rc < 0 ? rc : -EEXIST, "-g: %s", why);
	if ((rc = plot_write(fr, &pf, n > 12 ? 12 : n, msg, len)))
		return rc;
	plot_png(fr, &pf, out);
	return 0;
}

/* The largest value of key name in the runs (a whole count below 2^24:
 * "cpus=" of report -l, p), or 0 when no run says. */
static unsigned runs_most(const struct lc_fitrun *fr, const char *name)
{
	int key = lc_runs_find_key(fr->runs, name, strlen(name));
	double v, most = 0;

	for (size_t i = 0; key >= 0 && i < lc_runs_count(fr->runs); i++)
		if (lc_runs_get(fr->runs, i, key, &v) == LC_CELL_VALUE && v > most && v < 1 << 24)
			most = v;
	return (unsigned)most;
}

/* The reason --pick names no fitted model. */
static int no_pick(const struct lc_fitrun *fr, char *msg, size_t len)
{
	int n = lc_fitrun_fitted(fr);

	return lc_fail(msg, len, -ERANGE, "--pick %d: only %d model%s fitted",
		       fr->o.pick ? fr->o.pick : 1, n, n == 1 ? "" : "s");
}

/* Append model c to the model file path with note (NULL: none). */
static int append(const struct lc_fitrun *fr, const struct lc_fitcand *c, const char *path,
		  const char *note)
{
	return lc_model_append(path, fr->cat->key, (const char *const *)fr->vars, fr->nvars, c->f,
			       &c->fit, LC_EXPR_LOG2, note);
}

/* Append the range of the points model c was fitted to (and whether it
 * turns past them, kept because the data demand it) to path. */
static int append_range(const struct lc_fitrun *fr, const struct lc_fitcand *c, const char *path)
{
	double lo[LC_FITRUN_MAXVARS], hi[LC_FITRUN_MAXVARS];

	if (!fr->pts.n)
		return 0;
	for (int v = 0; v < fr->nvars; v++) {
		lo[v] = INFINITY;
		hi[v] = -INFINITY;
		for (size_t i = 0; i < fr->pts.n; i++) {
			double x = fr->pts.x[i * (size_t)fr->nvars + (size_t)v];

			lo[v] = fmin(lo[v], x);
			hi[v] = fmax(hi[v], x);
		}
	}
	return lc_model_append_range(path, fr->cat->key, (const char *const *)fr->vars, fr->nvars,
				     lo, hi, c->turns);
}

int lc_fitrun_emit(const struct lc_fitrun *fr, FILE *out, FILE *err, char *msg, size_t len)
{
	const struct lc_fitcand *c = picked(fr);
	char note[512];
	int rc;

	if (!fr->o.emit)
		return 0;
	if (!c)
		return no_pick(fr, msg, len);
	snprintf(note, sizeof(note), "from %s%s%s%s%s", fr->o.runs,
		 fr->o.region ? " region " : "", fr->o.region ? fr->o.region : "",
		 fr->o.extract ? " where " : "", fr->o.extract ? fr->o.extract : "");
	rc = append(fr, c, fr->o.emit, note);
	if (!rc)
		rc = append_range(fr, c, fr->o.emit);
	if (!rc && runs_most(fr, "cpus"))
		rc = lc_model_append_cpus(fr->o.emit, runs_most(fr, "cpus"));
	if (!rc && runs_most(fr, "p"))
		rc = lc_model_append_pmax(fr->o.emit, runs_most(fr, "p"));
	if (rc)
		return lc_fail(msg, len, rc, "--emit %s: %s", fr->o.emit, strerror(-rc));
	fprintf(fr->o.format == LC_FITFMT_TEXT ? out : err, "appended model %d to %s\n",
		(int)(c - fr->cands) + 1, fr->o.emit);
	return 0;
}

/* Copy the model lines of model file f to out as the lines of a C
 * comment, "lcm: model: " before each. */
static void comment_lines(FILE *f, FILE *out)
{
	char *line = NULL;
	size_t cap = 0;
	int first = 1;

	while (getline(&line, &cap, f) >= 0) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' && line[1] != ':')
			continue;	/* the file's header */
		fprintf(out, "%s lcm: model: %s\n", first ? "/*" : " *", line);
		first = 0;
	}
	fprintf(out, " */\n");
	free(line);
}

/* The comment goes through a scratch model file, so that the text is
 * exactly what --emit appends. */
int lc_fitrun_comment(const struct lc_fitrun *fr, FILE *out, char *msg, size_t len)
{
	const struct lc_fitcand *c = picked(fr);
	char path[] = "/tmp/lostcycles-fit.XXXXXX";
	int fd, rc;
	FILE *f;

	if (!fr->o.emit_comment)
		return 0;
	if (!c)
		return no_pick(fr, msg, len);
	if ((fd = mkstemp(path)) < 0)
		return lc_fail(msg, len, -errno, "--emit-comment: %s", strerror(errno));
	close(fd);
	rc = append(fr, c, path, NULL);
	f = rc ? NULL : fopen(path, "r");
	rc = rc ? rc : f ? 0 : -errno;
	unlink(path);
	if (!f)
		return lc_fail(msg, len, rc, "--emit-comment: %s", strerror(-rc));
	comment_lines(f, out);
	fclose(f);
	return 0;
}
