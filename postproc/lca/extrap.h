/*
 * extrap.h — runs in Extra-P's input formats, both ways: the text format
 * (PARAMETER, POINTS, REGION, METRIC, DATA lines) and JSON lines (one
 * object per line with "params", "metric", "callpath" and "value").
 *
 * Writing: the parameters are the runs' variables that every run gives a
 * number (notes such as impl=task are left out), the metrics are the
 * categories and tt (one metric per category, in seconds summed over the
 * processors), one region per region= note of the runs ("program" for
 * runs without one).  Runs with the same parameter values (and region)
 * are repetitions of one point.  Numbers are written in plain
 * decimal notation with as many digits as the double needs to read back
 * exactly, so a file read back and written again is the same file.
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

#include "lca_runs.h"

/* Write r to out: JSON lines when jsonl, else the text format.  In the text
 * format a metric that some point lacks cannot be written: it is left out
 * and *dropped counts it.  Returns 0, or -EINVAL / -ENOMEM with the reason
 * in msg (no parameter, no metric). */
int lc_extrap_write(FILE *out, const struct lc_runs *r, int jsonl, int *dropped, char *msg,
		    size_t len);

/* Which format the text in f starts with: 1 Extra-P text, 2 JSON lines,
 * 0 neither (a runs file).  Leaves f at its start. */
int lc_extrap_sniff(FILE *f);

/* Read an Extra-P file (format as lc_extrap_sniff says) from f into runs.
 * Returns 0 or -EINVAL / -ENOMEM with err set as lc_runs_parse sets it. */
int lc_extrap_parse(FILE *f, int format, struct lc_runs **out, struct lc_runs_error *err);

#endif
