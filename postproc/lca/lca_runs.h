/*
 * lca_runs.h — read a runs file: one profiled run per line, as written by
 * "lostcycles report -l NOTE" (name=value pairs in any order, including the
 * thesis's Figure 5.1 form "d=32 v=4.5 p=2 li=... tt=... rt=...") or as CSV
 * with a header row.  Values are numbers or "na" (not measured); a note's
 * value may also be a word (impl=task), but a category's (li ip sl cl rc ml
 * bl wc rt tt) must be a number or na.  Blank lines and lines starting with
 * '#' are ignored.
 *
 * The note region=NAME says which region of the program (Extra-P's REGION
 * or "callpath") a run measured; its value is always a name, even when it
 * looks like a number (see lc_runs_region_ok), and is kept as text.
 *
 * Then turn the runs into fitting points: pick the variables and the
 * category, keep the runs an extraction condition selects, and average the
 * runs that share the same variable values, keeping their spread.
 *
 * Nothing here prints; errors come back as -errno with a line and a token.
 */
#ifndef LCA_RUNS_H
#define LCA_RUNS_H

#include <stddef.h>
#include <stdio.h>

struct lc_expr;
struct lc_runs;

/* What a run holds for a name. */
enum lc_cell {
	LC_CELL_ABSENT,		/* the name does not appear on the run's line */
	LC_CELL_NA,		/* the value was "na": not measured */
	LC_CELL_VALUE,
	LC_CELL_TEXT,		/* a note's value that is not a number, e.g. impl=task */
};

/* Where and why reading failed: line is 1-based (0: not about a line). */
struct lc_runs_error {
	int line;
	char token[96];
	char msg[160];
};

/* Read the file at path into *out: a runs file, or Extra-P's text or
 * JSON-lines format.  Returns 0, -errno from opening or reading, -EINVAL
 * for a malformed line (err says which and why), -ENOMEM.  (Defined in
 * extrap.c, which reads the other formats through the builder below, so
 * that nothing here depends on them.) */
int lc_runs_read(const char *path, struct lc_runs **out, struct lc_runs_error *err);

/* The reason of lc_runs_read's failure rc for path, as one line into msg:
 * "PATH:LINE: WHY: 'TOKEN'" (LINE and TOKEN only when known; WHY the
 * error's text when there is none).  Returns rc.  (Defined in extrap.c.) */
int lc_runs_fail(const char *path, int rc, const struct lc_runs_error *e, char *msg,
		 size_t len);

/* A runs file (not the other formats) from an open stream. */
int lc_runs_parse(FILE *f, struct lc_runs **out, struct lc_runs_error *err);

/* Building runs one by one, for readers of other formats: a new empty set
 * (NULL: out of memory; lc_runs_free frees it), a run started for file
 * line `line` (0 or -ENOMEM), and name=v added to the run started last:
 * NaN is na.  lc_runs_add returns 0, -EEXIST when the run has name
 * already, -EINVAL when no run was started, name is not a name (a letter
 * or '_', then letters, digits, '_' or '.') or v is infinite, -ENOMEM. */
struct lc_runs *lc_runs_new(void);
int lc_runs_start(struct lc_runs *r, int line);
int lc_runs_add(struct lc_runs *r, const char *name, double v);

/* lc_runs_add of a note's text (an LC_CELL_TEXT cell): -EINVAL also for an
 * empty text, or a region name lc_runs_region_ok refuses. */
int lc_runs_add_text(struct lc_runs *r, const char *name, const char *text);

/* The key of a run's region, and the longest region name + 1. */
#define LC_RUNS_REGION "region"
#define LC_REGION_MAX 128

/* True when s[0..len) can name a region: 1..LC_REGION_MAX-1 bytes, none a
 * blank, a control character, '=', ',', '"' or a backslash (so that it is
 * one word of a runs line, one CSV field and a JSON string as it is). */
int lc_runs_region_ok(const char *s, size_t len);

/* The number of runs, and the number of distinct names seen. */
size_t lc_runs_count(const struct lc_runs *r);
int lc_runs_nkeys(const struct lc_runs *r);

/* The name numbered key, and the number of a name (-1 when never seen). */
const char *lc_runs_keyname(const struct lc_runs *r, int key);
int lc_runs_find_key(const struct lc_runs *r, const char *name, size_t len);

/* What run holds for key; *v gets the value (NaN unless LC_CELL_VALUE). */
enum lc_cell lc_runs_get(const struct lc_runs *r, size_t run, int key, double *v);

/* The text of run's note key (LC_CELL_TEXT), else NULL. */
const char *lc_runs_text(const struct lc_runs *r, size_t run, int key);

/* The regions of r (lca_runs_region.c): their names in the order of their
 * first runs into names[0..max), pointing into r.  The count (0: no run
 * names a region), -E2BIG beyond max, or -EINVAL when some runs name a
 * region and run *line (its file line) does not. */
int lc_runs_regions(const struct lc_runs *r, const char **names, int max, int *line);

/* A new set of the runs of r whose region is region (all of them when
 * region is NULL), with their file lines: 0 or -ENOMEM. */
int lc_runs_select(const struct lc_runs *r, const char *region, struct lc_runs **out);

/* The file line run came from. */
int lc_runs_line(const struct lc_runs *r, size_t run);

/* Free r; NULL is fine. */
void lc_runs_free(struct lc_runs *r);

/* How a point's repeats make its value (lc_points.agg). */
enum lc_agg { LC_AGG_MEAN, LC_AGG_MEDIAN, LC_AGG_MIN };

/*
 * Fitting points: x has n rows of nvars values, y the value of the category
 * at that x from its runs (their mean, median or minimum: agg[i]), sd the
 * runs' sample standard deviation (0 for a single run), lo and hi their
 * smallest and largest value, and count how many runs went in.
 */
struct lc_points {
	size_t n;
	int nvars;
	double *x;
	double *y;
	double *sd;
	int *count;
	double *lo, *hi;	/* the smallest and largest repeat of each point */
	unsigned char *agg;	/* enum lc_agg of each point */
	size_t used;		/* runs that went into the points */
	size_t na;		/* runs skipped: category is "na" */
	size_t missing;		/* runs skipped: a variable or the category absent/na */
	size_t excluded;	/* runs the extraction condition rejected */
	int *skip_line;		/* for each of the missing runs: its line in the file, */
	int *skip_key;		/* and the first key it lacks (NULL when not built) */
	double noise;		/* the runs' relative noise: the pooled standard
				 * deviation of the repeats about their point's
				 * mean over its value, unbiased for normal
				 * repeats (c4), far repeats left out, at least
				 * LC_OUTLIER_FLOOR */
	int agg_auto;		/* the aggregate was chosen from the repeats
				 * (LC_POINTS_DEFAULT): LC_POINTS_MEAN or _MIN;
				 * 0: not chosen (given, or fewer than
				 * LC_AGG_MEDIAN_MIN repeats at every point) */
	double skew;		/* the repeats' skew ratio (LC_POINTS_AGG) */
	int skew_n;		/* over how many points */
	size_t nout;		/* repeats far from their point: */
	struct lc_outlier *out;	/* each one (lines in file order per point) */
};

/*
 * A repeat whose value is more than LC_OUTLIER_K x noise (relative) from the
 * median of its point's repeats.  With two repeats both are far from their
 * mean and which one is wrong cannot be told: both are listed, paired.
 * With three or more, LC_POINTS_DROP_OUTLIERS leaves a far repeat out of
 * the point, unless half or more of the point's repeats are far.
 */
struct lc_outlier {
	int line;		/* the run's line in the file */
	size_t point;		/* the point it belongs to (index into x, y) */
	double y;		/* its value */
	double median;		/* the median of the point's repeats */
	double dev;		/* |y - median| / scale, in units of noise */
	int paired;		/* the point has two repeats */
	int dropped;		/* left out of the point */
};

#define LC_OUTLIER_K 5.0	/* how many noise units make a repeat far */
#define LC_OUTLIER_FLOOR 0.01	/* the smallest relative noise assumed */
#define LC_POINTS_DROP_OUTLIERS 1u

/* The aggregation of repeats (flags & LC_POINTS_AGG).  By default it is
 * chosen from the repeats themselves: over the points with
 * LC_AGG_MEDIAN_MIN or more repeats, the skew ratio is the sum of their
 * upper half-ranges (largest - median) over the sum of their lower ones
 * (median - smallest), each relative to the median: about 1 for a
 * symmetric spread.  Above LC_AGG_SKEW_RATIO (over two points or more) the
 * spread is right-skewed (a loaded machine: some runs slowed a lot) and
 * every point is its smallest repeat; else, or with fewer repeats, the
 * mean.  (On Gaussian repeats, 3-5 at 6 points, the ratio passes 2 in 5 %
 * of the cases; on repeats 3 in 10 of which are slowed 1.3-3 times, in
 * 95 %.) */
#define LC_POINTS_AGG 0x6u
#define LC_POINTS_DEFAULT 0x0u
#define LC_POINTS_MEAN 0x2u
#define LC_POINTS_MEDIAN 0x4u
#define LC_POINTS_MIN 0x6u
#define LC_AGG_MEDIAN_MIN 3
#define LC_AGG_SKEW_RATIO 2.0

/* The variance of a point's value over the variance of one run divided by
 * its count: 1 for a mean, pi/2 for a median of normal runs, 0 (unknown)
 * for a minimum. */
double lc_points_var_factor(const struct lc_points *p, size_t i);

/* Build points from r for the variables vars[0..nvars) and category ykey
 * (key numbers), keeping only runs where cond (slots are key numbers; NULL:
 * all runs) is true; far repeats are listed in out->out and, with
 * LC_POINTS_DROP_OUTLIERS in flags, left out where that can be decided;
 * the repeats of a point are aggregated as flags & LC_POINTS_AGG says.
 * Returns 0 (possibly with n == 0) or -ENOMEM. */
int lc_points_build(const struct lc_runs *r, const int *vars, int nvars, int ykey,
		    const struct lc_expr *cond, unsigned flags, struct lc_points *out);

/* lc_points_build of the value of key ykey less that of key less (when
 * less >= 0): e.g. tt less rc, the time without contention.  A run that
 * lacks less is skipped as missing it. */
int lc_points_build_less(const struct lc_runs *r, const int *vars, int nvars, int ykey,
			 int less, const struct lc_expr *cond, unsigned flags,
			 struct lc_points *out);

/* Free the arrays of p (not p itself); NULL is fine. */
void lc_points_free(struct lc_points *p);

#endif
