/*
 * extrap.h — runs in Extra-P's input formats, both ways: the text format
 * (PARAMETER, POINTS, REGION, METRIC, DATA lines) and JSON lines (one
 * object per line with "params", "metric", "callpath" and "value").
 *
 * Writing is two steps: runs into Extra-P's table here
 * (lc_extrap_from_runs), the table into a file by export's writer
 * (extrap_write.h), which needs nothing of lca.  The parameters are the runs' variables that every run gives a
 * number (notes such as impl=task are left out), the metrics are the
 * categories and tt (one metric per category, in seconds summed over the
 * processors), one region per region= note of the runs ("program" for
 * runs without one).  Runs with the same parameter values (and region)
 * are repetitions of one point.
 *
 * Reading turns each point's k-th values of every metric into one run, so
 * that "lostcycles fit -f X" reads Extra-P files as it reads runs files;
 * each run notes its REGION (text) or "callpath" (JSON lines; "program"
 * when absent) as region=NAME.  A region name must be one runs-file word
 * (lc_runs_region_ok).  Limits: 10000 points, 1024 regions, 4096 metrics
 * of regions, 4000000 points x metrics of regions.  Nothing here prints.
 */
#ifndef LC_EXTRAP_H
#define LC_EXTRAP_H

#include <stddef.h>
#include <stdio.h>

#include "extrap_table.h"
#include "lca_runs.h"

/* The table of r into *out (free it with lc_xp_free), for lc_extrap_write.
 * Returns 0, or -EINVAL / -E2BIG / -ENOMEM with the reason in msg (no
 * parameter, no metric, beyond the limits, out of memory). */
int lc_extrap_from_runs(const struct lc_runs *r, struct lc_xp_table **out, char *msg,
			size_t len);

/* Which format the text in f starts with: 1 Extra-P text, 2 JSON lines,
 * 0 neither (a runs file).  Leaves f at its start. */
int lc_extrap_sniff(FILE *f);

/* Read an Extra-P file (format as lc_extrap_sniff says) from f into runs.
 * Returns 0 or -EINVAL / -ENOMEM with err set as lc_runs_parse sets it. */
int lc_extrap_parse(FILE *f, int format, struct lc_runs **out, struct lc_runs_error *err);

#endif
