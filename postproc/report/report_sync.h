/*
 * report_sync.h — "report --sync": synchronization loss per synchronization
 * object (LC_SYNC_BEGIN_ON, the pthread layer's locks, barriers and
 * conditions), largest first.
 */
#ifndef LC_REPORT_SYNC_H
#define LC_REPORT_SYNC_H

#include <stddef.h>
#include <stdio.h>

#include "lc_profile.h"

/* How to print: 0 text, 1 CSV, 2 JSON (enum lc_report_fmt's values). */

/* Print the objects of source src of pr to out.  Returns 0, or 1 with the
 * reason in msg when the profile names no object (nothing printed then). */
int lc_report_sync(FILE *out, const struct lc_profile *pr, enum lc_source src, int fmt,
		   char *msg, size_t len);

#endif /* LC_REPORT_SYNC_H */
