/*
 * lca_fitrun.h — one fit of "lostcycles fit" (the thesis's lca): read the
 * runs, build the points, collect the candidate models (the user's
 * formulae, the default forms of models.txt, or an Extra-P style search
 * space), fit, prune and rank them (lca_fitrun.c); and the outputs of the
 * result: the ranked table as text, JSON, CSV or a bare formula, the
 * gnuplot files, the model-file line of --emit and the lcm: comment of
 * --emit-comment (lca_fitout.c).
 *
 * The fit returns 0 or -errno with a one-line reason (lc_fail) and never
 * prints; reasons that do not stop the fit (a formula refused) go to the
 * note callback.  The outputs print the result tables, their job.
 */
#ifndef LCA_FITRUN_H
#define LCA_FITRUN_H

#include <stddef.h>
#include <stdio.h>

#include "lca_formula.h"
#include "lca_lsq.h"
#include "lca_search.h"

#define LC_FITRUN_MAXVARS 8
#define LC_FITRUN_MAXCANDS 8192
#define LC_FITRUN_MAXFORMS 64
/* --search keeps this many of its fitted hypotheses, the best by
 * lc_fit_rank_cmp: the ranking's shortlist (LC_SELECT_SHORTLIST) and every
 * model shown come from them, and memory does not grow with the number of
 * hypotheses (a fit record is 3.6 kB). */
#define LC_FITRUN_KEEP 256

/* The key of a run's machine load: the percent of the CPU time of the
 * program's CPUs that went to other processes and the hypervisor. */
#define LC_FIT_LOAD_KEY "load"

/* A run measured above this load is flagged (the load report marks as
 * distorting the categories). */
#define LC_FIT_LOADED_PCT 10.0
#define LC_FIT_LOADED_SHOWN 8
#define LC_FIT_ALSO_SHOWN 2

/* Output formats (--format). */
enum lc_fitrun_format { LC_FITFMT_TEXT, LC_FITFMT_FORMULA, LC_FITFMT_JSON, LC_FITFMT_CSV };

/* What to fit and how (the options of "lostcycles fit"). */
struct lc_fitrun_opts {
	const char *cat, *varlist, *runs, *extract, *plot, *emit, *models;
	int format;			/* enum lc_fitrun_format */
	int prune, nonneg, search, weights, absolute, log2, debug, top, pick, negative, negvalues;
	int emit_comment, drop_outliers, force;
	int aggregate;			/* LC_POINTS_DEFAULT, _MEAN, _MEDIAN or _MIN */
	const char *upto;		/* --upto "p=1024": the range that must stay >= 0 */
	int noload;			/* --no-load: model the program on a machine without other load */
	double max_load;		/* --max-load: drop runs above this load (%); 0: keep all */
	const char *forms[LC_FITRUN_MAXFORMS];	/* the user's formula arguments */
	int nforms;
	const struct lc_runs *from;	/* the runs, read already (NULL: read o.runs) */
	const char *region;		/* fit the runs of this region (NULL: all runs) */
	int region_files;		/* several regions: -g and --emit files get
					 * ".REGION" after their names */
};

/* One candidate model and its fit. */
struct lc_fitcand {
	char *text;			/* as given */
	struct lc_formula *f;		/* what was fitted (after pruning) */
	struct lc_fit fit;
	int ok, user, undefined;
	int mixed;			/* non-constant terms of opposite signs */
	int turns;			/* turns between the data and --upto */
	char turn_at[48];		/* where it turns */
	int seq;			/* --search: the hypothesis' number */
	int ndropped;
	char dropped[256];		/* terms pruned away, as text */
	char also[384];			/* other candidates pruning made equal to this one */
	int nalso;			/* how many (also names the first LC_FIT_ALSO_SHOWN) */
	char why[256];			/* why the fit was refused */
};

struct lc_runs;
struct lc_expr;
struct lc_runs_error;

/* A fit and its result; zero it, fill o (and note), then lc_fitrun_cat
 * and lc_fitrun_run; free with lc_fitrun_free. */
struct lc_fitrun {
	struct lc_fitrun_opts o;
	void (*note)(void *arg, const char *text);	/* a reason that does not stop
							 * the fit; NULL: dropped */
	void *note_arg;
	const struct lc_cat_info *cat;
	char *vars[LC_FITRUN_MAXVARS];
	int nvars;
	struct lc_runs *runs;
	int varkey[LC_FITRUN_MAXVARS], ykey;
	struct lc_expr *cond;
	struct lc_points pts;
	struct lc_fitcand *cands;	/* ranked: fitted ones first, refused ones last */
	int ncands;
	int user_refused;		/* a formula the user gave was refused */
	struct lc_select sel;
	struct lc_search_info search;
	int nundef;			/* default or search forms left out as undefined */
	char undef_at[64];		/* a point where one is undefined */
	double upto[LC_FITRUN_MAXVARS];	/* --upto per variable, NaN where not given */
	int loadkey;			/* the runs' "load" key (the machine's load share, %), or -1 */
	int nloaded;			/* selected runs measured above LC_FIT_LOADED_PCT */
	int loaded_line[LC_FIT_LOADED_SHOWN];	/* the first ones' lines, */
	double loaded_pct[LC_FIT_LOADED_SHOWN];	/* and their load */
	double load_max;		/* the largest load of a selected run (-1: none known) */
	int nneg;			/* default or search forms left out: below zero */
	int allzero;			/* the category is 0 in every selected run: its model is 0 */
	char neg_at[64];		/* where the first one went below zero */
	int nmixed;			/* default or search forms left out: opposite-
					 * signed terms while a model without fits */
	char mixed_first[160];		/* the first of them, as fitted */
	int nturn;			/* default or search forms left out: they turn
					 * between the data and --upto while a model
					 * that does not fits */
	char turn_first[224];		/* the first of them, as fitted, and where */
	int turn_kept;			/* every model that fits turns: the data
					 * demand it (noted; --emit says so) */
	char **hyp;			/* --search: the hypotheses not fitted yet */
	int nhyp;			/* how many --search built */
	int ntried;			/* candidates collected: the user's, defaults, hypotheses */
	char *emit_path, *plot_path;	/* o.emit and o.plot with ".REGION" */
};

/* Look up o.cat in the category table.  0, or -ENOENT with the reason. */
int lc_fitrun_cat(struct lc_fitrun *fr, char *msg, size_t len);

/* Read the runs, build the points, collect, parse, fit and rank the
 * candidates.  0, or -errno with the reason (a formula's syntax error
 * comes with the formula and a caret under the column, on two more
 * lines). */
int lc_fitrun_run(struct lc_fitrun *fr, char *msg, size_t len);

/* The categories (keys of the category table, in its order) that some run
 * of r in region (NULL: any) gives a number for, space-separated into buf;
 * how many. */
int lc_fitrun_present_cats(const struct lc_runs *r, const char *region, char *buf, size_t len);

/* ---- regions (lca_fitregion.c) ------------------------------------------------ */

/* The most regions one call fits. */
#define LC_FITRUN_MAXREGIONS 1024

/* Read the runs file at path into *r (freed with lc_runs_free).  0, or
 * -errno with the reason. */
int lc_fitrun_load(const char *path, struct lc_runs **r, char *msg, size_t len);

/* The regions to fit of r (read from path) into names[0..LC_FITRUN_MAXREGIONS):
 * want "all": every region; NULL: every region when there are several;
 * else the region named want.  The count, 0 when none is to be told
 * apart (fit the runs as one), or -errno with the reason (a region no run has, runs
 * with and without a region). */
int lc_fitrun_regions(const struct lc_runs *r, const char *path, const char *want,
		      const char **names, char *msg, size_t len);

/* o.emit and o.plot with ".REGION" when o.region_files (a '/' of the name
 * becomes '_').  0 or -ENOMEM. */
int lc_fitrun_region_paths(struct lc_fitrun *fr, char *msg, size_t len);

/* Free what fr holds (not fr); accepts a zeroed fr. */
void lc_fitrun_free(struct lc_fitrun *fr);

/* How many candidates the table shows: o.top, else all (10 with
 * o.search). */
int lc_fitrun_shown(const struct lc_fitrun *fr);

/* True when negative exponents are searched: --allow-negative, or a
 * category that can shrink as a variable grows (rt, the work each
 * processor does). */
int lc_fitrun_negative_ok(const struct lc_fitrun *fr);

/* The number of candidates that fitted. */
int lc_fitrun_fitted(const struct lc_fitrun *fr);

/* The fitted model c as lca printed it ("(c +/- h) * term + ...") into
 * buf. */
void lc_fitrun_model_text(const struct lc_fitrun *fr, const struct lc_fitcand *c, char *buf,
			  size_t len);

/* The fitted model c as an expression predict and Python both evaluate
 * (coefficients with 10 digits, ** for powers) into buf. */
void lc_fitrun_formula(const struct lc_fitrun *fr, const struct lc_fitcand *c, char *buf,
		       size_t len);

/* ---- outputs (lca_fitout.c) ------------------------------------------------ */

/* Print the result in o.format to out; for the machine formats the notes,
 * skipped runs and outliers go to err, one line each. */
void lc_fitrun_print(const struct lc_fitrun *fr, FILE *out, FILE *err);

/* -g NAME (o.plot): write NAME.data and NAME.gp, and NAME.png when gnuplot
 * exists, saying so on out.  0, or -errno with the reason. */
int lc_fitrun_plot(const struct lc_fitrun *fr, FILE *out, char *msg, size_t len);

/* --emit FILE (o.emit): append the best (or o.pick) model to the model
 * file, saying so on out (text) or err (the machine formats).  0, or
 * -errno with the reason. */
int lc_fitrun_emit(const struct lc_fitrun *fr, FILE *out, FILE *err, char *msg, size_t len);

/* --emit-comment: print the best (or o.pick) model to out as the lcm:
 * lines of a C comment, exactly what --emit appends.  0, or -errno with
 * the reason. */
int lc_fitrun_comment(const struct lc_fitrun *fr, FILE *out, char *msg, size_t len);

#endif /* LCA_FITRUN_H */
