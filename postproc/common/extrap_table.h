/*
 * extrap_table.h — the table both directions of Extra-P's formats go
 * through: parameters, points (their coordinates), regions, metrics of
 * regions ("slots") and, for each slot and point, the list of values (the
 * repetitions).  lca/extrap.c fills it from runs or from an Extra-P file
 * and turns it into runs; export/extrap_write.c writes it.  It lives here,
 * below both rooms, so that the writer needs nothing of lca.  Names are
 * stored as given: whether a name may be a region is the caller's rule
 * (lc_runs_region_ok).  Used by one thread; nothing here prints.
 */
#ifndef LC_EXTRAP_TABLE_H
#define LC_EXTRAP_TABLE_H

#include <stddef.h>

#define LC_XP_MAXPAR 16		/* parameters */
#define LC_XP_NAMELEN 64	/* a parameter's or a metric's name + 1 */
#define LC_XP_REGLEN 128	/* a region's name + 1 (LC_REGION_MAX) */
/* The most regions, and region-metric pairs ("slots"), a file may hold. */
#define LC_XP_MAXREG 1024
#define LC_XP_MAXSLOT 4096
/* The most points a file may hold (a fit's runs; a point is found by a
 * linear search): documented with the formats (lostcycles-export(1)). */
#define LC_XP_MAXPT 10000
#define LC_XP_MAXPT_TEXT "10000"
/* The most points x slots (the table's memory: 24 bytes each, and up to
 * twice that while it grows). */
#define LC_XP_MAXCELLS 4000000
#define LC_XP_MAXCELLS_TEXT "4000000"
/* The most values (repetitions of all metrics at all points) a file may
 * hold: each becomes part of a run, about 160 bytes of the runs, so a
 * file cannot make the reader take more than a few hundred MB (a 16 MB
 * DATA line of 8 million values took 1.3 GB). */
#define LC_XP_MAXVALS 1000000
#define LC_XP_MAXVALS_TEXT "1000000"

/* The values of one slot at one point. */
struct lc_xp_vals {
	size_t n, cap;
	double *v;
};

/* Regions share the points; each slot is one metric of one region, with
 * the values at each point.  On the heap: it is large. */
struct lc_xp_table {
	int npar, nslot, nreg;
	size_t nval;				/* values in all cells */
	char par[LC_XP_MAXPAR][LC_XP_NAMELEN];
	char met[LC_XP_MAXSLOT][LC_XP_NAMELEN];	/* the slot's metric */
	int mreg[LC_XP_MAXSLOT];		/* the slot's region */
	char reg[LC_XP_MAXREG][LC_XP_REGLEN];
	size_t npt, cappt;
	double *pt;				/* npt x LC_XP_MAXPAR coordinates */
	struct lc_xp_vals *val[LC_XP_MAXSLOT];	/* [slot][point], cappt each */
};

/* A new empty table, or NULL. */
struct lc_xp_table *lc_xp_new(void);

/* Free t; accepts NULL. */
void lc_xp_free(struct lc_xp_table *t);

/* The values of slot m at point p (both below t's counts). */
struct lc_xp_vals *lc_xp_cell(const struct lc_xp_table *t, int m, size_t p);

/* The point with coordinates x (t->npar of them), added when new: its
 * index, -E2BIG beyond LC_XP_MAXPT points or LC_XP_MAXCELLS cells,
 * -ENOMEM. */
long lc_xp_point(struct lc_xp_table *t, const double *x);

/* Add value v to cell c of t: 0, -E2BIG beyond LC_XP_MAXVALS values,
 * -ENOMEM. */
int lc_xp_value(struct lc_xp_table *t, struct lc_xp_vals *c, double v);

/* The region named s[0..n), added when new: its index, or -EINVAL when
 * there are LC_XP_MAXREG already or the name is too long. */
int lc_xp_region(struct lc_xp_table *t, const char *s, size_t n);

/* The slot of metric s[0..n) in region reg, added when new: its index,
 * -EINVAL when too many or the name is too long, -ENOMEM. */
int lc_xp_slot(struct lc_xp_table *t, int reg, const char *s, size_t n);

#endif
