/*
 * lc_sweep.h — the pieces of "lostcycles sweep" (thesis Figure 5.4 step 1:
 * measure a few values of each external variable and collect one runs-file
 * line per run): variables, the experiment designs, placeholders, and the
 * resumable runs file.  Nothing here prints.
 */
#ifndef LC_SWEEP_H
#define LC_SWEEP_H

#include <stddef.h>

#define LC_SWEEP_VARS 8		/* variables in one sweep */
#define LC_SWEEP_VALUES 64	/* values of one variable */

/* An external variable and the values to measure, in the order given. */
struct lc_sweep_var {
	char name[32];
	size_t n;
	char *values[LC_SWEEP_VALUES];
};

/* Parse "name=v1,v2,..." (name as in a runs file: a letter or '_', then
 * letters, digits, '_'; values without spaces, '=', '{' or '}', distinct).
 * 0, or -EINVAL with the reason in why.  Free with lc_sweep_var_free. */
int lc_sweep_var_parse(const char *spec, struct lc_sweep_var *v, char *why, size_t len);
void lc_sweep_var_free(struct lc_sweep_var *v);

/*
 * Which points of the parameter space to measure:
 *   FULL     every combination (the full factorial design);
 *   EDGES    the points on the edges of the space: every variable but at most
 *            one at its first or last value, the free one at all its values
 *            (the thesis's reduced design: give at least 3 values each);
 *   CORNERS  the extreme points only (every variable at its first or last
 *            value; section 5.3.1).
 */
enum lc_sweep_design { LC_DESIGN_FULL, LC_DESIGN_EDGES, LC_DESIGN_CORNERS };

/* "full", "edges", "corners" -> the design, or -1. */
int lc_sweep_design_parse(const char *s);

/* The points of design d: *idx gets npoints rows of nvars value indices (the
 * first variable varies slowest), malloc'd.  0 or -ENOMEM. */
int lc_sweep_points(const struct lc_sweep_var *vars, int nvars, enum lc_sweep_design d,
		    size_t **idx, size_t *npoints);

/* Replace every {name} in arg by the value of variable name at row.  *out is
 * malloc'd.  0, -EINVAL (an unknown {name}, or an unclosed '{'; why says
 * which) or -ENOMEM. */
int lc_sweep_subst(const char *arg, const struct lc_sweep_var *vars, int nvars,
		   const size_t *row, char **out, char *why, size_t len);

/* ---- the runs file ---------------------------------------------------------- */

struct lc_sweep_done;

/* Read the runs file at path (absent: nothing done) and note which points of
 * the sweep (same values of every variable, and the same rep=) have a line;
 * a line without rep= counts as repeat 0, which a sweep never runs.
 * A last line without its newline (a write cut by a crash) is removed from
 * the file first; *cut says so.  0 or -errno.  Free with lc_sweep_done_free. */
int lc_sweep_done_load(const char *path, const struct lc_sweep_var *vars, int nvars,
		       struct lc_sweep_done **out, int *cut);

/* Whether the point row (nvars value indices) with repeat rep has a line. */
int lc_sweep_done_has(const struct lc_sweep_done *d, const size_t *row, int rep);

/* Lines of the runs file that matched a point. */
size_t lc_sweep_done_count(const struct lc_sweep_done *d);

void lc_sweep_done_free(struct lc_sweep_done *d);

/* Append line (which must end in '\n') to path with one write(2) on an
 * O_APPEND descriptor, then fsync: the file holds the whole line or none
 * of it.  0 or -errno. */
int lc_sweep_append(const char *path, const char *line);

/* ---- suggesting points ----------------------------------------------------------- */

struct lc_model;
struct lc_grid;

/* A point worth measuring next. */
struct lc_suggestion {
	size_t row[LC_SWEEP_VARS];	/* value indices */
	double t, half;			/* predicted T(E) and its 90 % half width */
	double narrow;			/* how much one run there narrows the interval
					 * of T where asked, on average (0..1) */
};

/*
 * Rank the points of the full grid of vars that RUNS has no line for (done,
 * any repeat) by how much one more run there would narrow the 90 %
 * prediction interval of T(E) at the targets (the points of the grid
 * `targets`, in the variables' names; NULL: every point of the -v grid),
 * on average over them, and keep up to max of them in out, the most first.
 * The narrowing comes from the model's covariance (lc_predict_gain): a run
 * near where the prediction is wanted, or that pins a term the prediction
 * there leans on, narrows it most.  Every value must be a number and the
 * model must know p.  Returns the number kept, or -EINVAL with the reason
 * in why.
 */
int lc_sweep_suggest(const struct lc_model *m, const struct lc_sweep_var *vars, int nvars,
		     const struct lc_sweep_done *done, const struct lc_grid *targets,
		     struct lc_suggestion *out, size_t max, char *why, size_t len);

/* Load the points of the runs file at path that the fit used: the runs
 * where the extraction cond_text (fit's -x) holds, as lc_sweep_done_load
 * does for all of them.  0, -ENOENT for a missing file (an empty set),
 * -EINVAL (why says which) for a bad file or condition, -ENOMEM. */
int lc_sweep_done_where(const char *path, const struct lc_sweep_var *vars, int nvars,
			const char *cond_text, struct lc_sweep_done **out, char *why, size_t len);

#endif /* LC_SWEEP_H */
