/*
 * diff.h — "lostcycles diff": two profiles, or two sets of repeats, compared
 * per category, per place (report --where's rows) and per thread; the change
 * in seconds and in share of the total, and whether it is beyond noise (the
 * sampling error of the report's ± column and, with repeats, their spread).
 * Also the scaling factor per place over profiles of different p
 * (diff_scale.c).  Builds rows; diff_print.c writes them.  Never prints
 * anything but the tables it is asked for; reasons come back in msg.
 */
#ifndef LC_DIFF_H
#define LC_DIFF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lc_emit.h"
#include "lc_profile.h"

/* A row's cat when it is every category of its place (its whole time). */
#define LC_DIFF_ALL (-1)

struct lc_diff_opts {
	enum lc_source source;
	double z;		/* beyond noise: |change| > z standard errors ... */
	double min;		/* ... and |change| >= min x the larger total time */
	int threads;		/* rows per thread too (matched by their order) */
};

#define LC_DIFF_OPTS_DEFAULT { .source = LC_SRC_SAMPLED, .z = 3.0, .min = 0.05 }

struct lc_diff_row {
	char *place;		/* "(total)", a place's name (A's), "thread 2" */
	char *what;		/* the place's kind ("omp loop", "MPI_Recv"), "" */
	char *b_name;		/* B's name when matched by function and kind, else NULL */
	int cat;		/* a category, or LC_DIFF_ALL */
	double a, b;		/* seconds (per processor when per_proc): each side's mean */
	double share_a, share_b;	/* of each side's total time, 0..1 */
	double se;		/* standard error of b - a, seconds */
	double z;		/* (b - a) / se; +-INFINITY when se is 0 and b != a */
	int beyond;		/* beyond noise (opts z and min) */
};

struct lc_diff {
	int na, nb;		/* profiles on each side */
	uint32_t pa, pb;	/* p of each side */
	int per_proc;		/* p differs: seconds per processor */
	int repeats;		/* either side has more than one profile */
	double total_a, total_b;	/* total time, seconds (per processor when per_proc) */
	struct lc_diff_opts o;
	uint32_t n;		/* rows: (total) first, then places by their change */
	struct lc_diff_row *rows;
	uint32_t nunmatched;	/* places found on one side only */
	char **unmatched;	/* "A: loop.c:40 (omp loop in f, 1.2 s)" */
	char note[1024];	/* what the comparison means, "" */
};

/* Compare the na profiles a (repeats of one configuration) with the nb
 * profiles b under o.  Returns 0 with *out (free with lc_diff_free), or
 * -EINVAL with the reason in msg (a side's profiles of different p, a
 * source without data), -ENOMEM. */
int lc_diff_build(struct lc_profile *const *a, int na, struct lc_profile *const *b, int nb,
		  const struct lc_diff_opts *o, struct lc_diff **out, char *msg, size_t len);

void lc_diff_free(struct lc_diff *d);

/* The one line: total time, what got faster and slower beyond noise. */
void lc_diff_summary(const struct lc_diff *d, char *buf, size_t len);

/* Print d to out as fmt: the sides, the note, the table (every row when
 * all, else the rows beyond noise or holding 1 % of a side's total), the
 * unmatched places and the summary line.  0, or -EIO / -ENOMEM. */
int lc_diff_print(FILE *out, const struct lc_diff *d, enum lc_emit_format fmt, int all,
		  const char *name_a, const char *name_b);

/* The same as a self-contained HTML page, the two sides side by side. */
int lc_diff_html(FILE *out, const struct lc_diff *d, const char *name_a, const char *name_b);

/* --fail-if: [PLACE@]METRIC OP CHANGE (diff.1 "FAIL CONDITIONS"). */
struct lc_diff_cond {
	char text[256];		/* as given */
	char place[256];	/* "" the whole profile */
	int cat;		/* a category or LC_DIFF_ALL ("total") */
	char op;		/* '>' or '<' */
	double v;		/* signed */
	char unit;		/* '%' relative to A, 's' seconds, 'p' points of share */
};

/* Parse s into *c.  0, or -EINVAL with the reason in msg. */
int lc_diff_cond_parse(const char *s, struct lc_diff_cond *c, char *msg, size_t len);

/* Whether c holds in d (its change compares with c's as c says and is
 * beyond noise): 1 with the figures in why, 0, or -ENOENT with the reason
 * when no row of d is c's place. */
int lc_diff_cond_eval(const struct lc_diff *d, const struct lc_diff_cond *c, char *why,
		      size_t len);

/* ---- scaling (diff_scale.c) --------------------------------------------- */

/* The scaling factor per place and category over n profiles of different
 * p (or sizes given in size[]; NULL: each profile's p): with T the
 * seconds per processor of a place (or of one of its categories) and m
 * the smallest size, SF_k = (T_m / T_k) / (size_k / size_m); 1 is ideal.
 * Printed as a table (rows place x category, a column per profile).  0, or
 * -EINVAL with the reason (fewer than two profiles, two of one size). */
int lc_diff_scaling(FILE *out, struct lc_profile *const *prs, int n, const double *size,
		    enum lc_source src, enum lc_emit_format fmt, char *msg, size_t len);

#endif /* LC_DIFF_H */
