/*
 * where.h — "report --where": the places of a profile (OpenMP constructs,
 * MPI calls, synchronization waits; docs/where.md) ranked by the time they
 * lost.  Rows are exclusive: each ns of a thread is charged to the
 * innermost place it was in, and an "(elsewhere)" row (no place, the empty
 * processor slots) makes the rows add up to the report's totals exactly.
 * The inclusive view groups the rows by the function holding each place
 * and adds the fragment tags, whose rows overlap.
 */
#ifndef LC_WHERE_H
#define LC_WHERE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lc_profile.h"

/* One place's row (or, inclusive, one function's or tag's). */
struct lc_where_row {
	uint64_t place, obj;	/* the key (0, 0: elsewhere) */
	uint32_t nkeys;		/* exclusive rows: the keys merged into it (one
				 * name and kind met at several addresses) */
	uint64_t *keys;		/* nkeys (place, obj) pairs, the first its own */
	int32_t pid;		/* the first process seen there */
	char *name;		/* unique among the rows: "loop.c:12#2" */
	char *what;		/* "omp loop", "MPI_Recv", "mutex", "function", "tag" */
	char *func;		/* the function holding it, "" unknown */
	uint64_t cat[LC_NCAT];
	uint32_t nthreads;	/* threads (or processor slots) charged there */
	/* The slowest thread there (-1 none): with the most computation, or
	 * where the threads mostly waited, the one that waited least (it came
	 * last: slow_late) */
	int32_t slow_id;	/* its tid, or its rank */
	int slow_is_rank;
	int slow_late;
	uint64_t slow_busy;	/* its computation there (slow_late: its wait) */
	double mean_busy;	/* the mean of the same over the threads there */
};

struct lc_where {
	uint32_t n;		/* rows, ranked; the (elsewhere) row last */
	struct lc_where_row *rows;
	uint64_t total[LC_NCAT];	/* the report's totals (rows add up to them) */
	int rank_cat;		/* ranked by this category, -1: all but PC */
	int inclusive;		/* 1 the inclusive view, 2 one place's threads */
	char note[4096];	/* why some names are addresses, "" */
};

/* The places of source src of pr, exclusive rows, ranked by rank_cat (a
 * category, or -1 for every category but PC).  Returns 0; -ENOENT with the
 * reason in msg when the source has no place rows (a profile recorded
 * before places, or a program with none); -ENOMEM. */
int lc_where_build(const struct lc_profile *pr, enum lc_source src, int rank_cat,
		   struct lc_where **out, char *msg, size_t len);

/* The inclusive view of the same: one row per function holding places
 * (the sum of its places' rows) and one per fragment tag (all processor
 * slots while it was open, as report -t counts it); rows overlap and do
 * not add up to the totals. */
int lc_where_inclusive(const struct lc_profile *pr, enum lc_source src, int rank_cat,
		       const char *(*tag_name)(const void *arg, int64_t tag),
		       const void *tag_arg, struct lc_where **out, char *msg, size_t len);

/* The row named name: a name the table prints, or (when exactly one row
 * has it) the name without its "#N" suffix, or the name of a source line
 * with its directories.  A name that several constructs of one source line
 * share ("loop.c:12" and "loop.c:12#2": a region and its loop without
 * their directive's source) gives the one holding more than twice the
 * others' time together (else the row of that name).  NULL when none or
 * several: the reason, with the candidates, in msg. */
const struct lc_where_row *lc_where_find(const struct lc_where *w, const char *name, char *msg,
					 size_t len);

/* The rows of the threads at row r's place (one per thread or rank),
 * largest first, in *out (free with lc_where_free).  r may be a row of the
 * exclusive rows ex, or an inclusive function or MPI function row (its
 * places found in ex).  0 or -ENOMEM. */
int lc_where_threads(const struct lc_profile *pr, enum lc_source src, const struct lc_where *ex,
		     const struct lc_where_row *r, struct lc_where **out);

/* The row of w with the most of category c (not elsewhere), its share of
 * c's total into *share (0..1); NULL when no place holds any. */
const struct lc_where_row *lc_where_top(const struct lc_where *w, int c, double *share);

/* Free w; accepts NULL. */
void lc_where_free(struct lc_where *w);

#endif /* LC_WHERE_H */
