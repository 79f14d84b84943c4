/*
 * where_print.h — the views of "report --where" (docs/where.md): the
 * places' table as text, CSV or JSON, the HTML report's where table, and
 * what report --where asks.  The rows themselves are built by where.h.
 */
#ifndef LC_WHERE_PRINT_H
#define LC_WHERE_PRINT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "where.h"

/* Print w (fmt: 0 text, 1 CSV, 2 JSON, as enum lc_report_fmt) with
 * unavailable categories na.  Returns 0, or -EIO. */
int lc_where_print(FILE *out, const struct lc_profile *pr, const struct lc_where *w, int fmt);

/* w (exclusive rows) as the HTML report's where table: sortable by each
 * column without a script (one copy per sort key, shown by CSS); the copy
 * ranked as w is <table id="where">, seconds with nine decimals; beyond
 * 200 places the rest are one "(N more places)" row.  0 or -ENOMEM. */
int lc_where_html(FILE *out, const struct lc_profile *pr, const struct lc_where *w);

/* What report --where asks. */
struct lc_where_req {
	enum lc_source src;
	int fmt;		/* 0 text, 1 CSV, 2 JSON */
	int rank_cat;		/* a category, -1 all but PC */
	int inclusive;
	const char *place;	/* -t NAME: that place's threads, or NULL */
	const char *(*tag_name)(const void *arg, int64_t tag);
	const void *tag_arg;
};

/* Print the where table rq asks for to out.  Returns 0, or 1 with the
 * reason in msg (no places; no place of that name; out of memory). */
int lc_where_report(FILE *out, const struct lc_profile *pr, const struct lc_where_req *rq,
		    char *msg, size_t len);

/* Whether name names a place of source src of pr (for -t): 1 yes, 0 no
 * (reason in msg, the candidates when it is ambiguous). */
int lc_where_names(const struct lc_profile *pr, enum lc_source src, const char *name,
		   char *msg, size_t len);

#endif /* LC_WHERE_PRINT_H */
