/*
 * extrap_write.h — "export --extrap": an Extra-P table (extrap_table.h) in
 * Extra-P's input formats: the text format (PARAMETER, POINTS, REGION,
 * METRIC, DATA lines) or JSON lines (one object per line with "params",
 * "callpath", "metric" and "value", through the document writer of
 * lc_emit.h).  lca/extrap.c makes the table from runs (lc_extrap_from_runs)
 * and reads both formats back.  Numbers are written in plain decimal
 * notation with as many digits as the double needs to read back exactly,
 * so a file read back and written again is the same file.
 */
#ifndef LC_EXTRAP_WRITE_H
#define LC_EXTRAP_WRITE_H

#include <stddef.h>
#include <stdio.h>

#include "extrap_table.h"

/* Write t to out: JSON lines when jsonl, else the text format.  In the text
 * format a metric that some point lacks cannot be written: it is left out
 * and *dropped counts it.  Returns 0, or -EIO with the reason in msg when
 * out reported a write error. */
int lc_extrap_write(FILE *out, const struct lc_xp_table *t, int jsonl, int *dropped, char *msg,
		    size_t len);

#endif
