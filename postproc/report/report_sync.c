/*
 * report_sync.c — synchronization loss per synchronization object (see
 * report_sync.h).  A view of its own: text, CSV, or one JSON array.
 */
#include "report_sync.h"

#include <stdint.h>
#include <stdlib.h>

#include "lc_emit.h"
#include "lc_util.h"

static int by_ns_desc(const void *a, const void *b)
{
	const struct lc_prof_sync *x = *(const struct lc_prof_sync *const *)a;
	const struct lc_prof_sync *y = *(const struct lc_prof_sync *const *)b;

	return (x->ns < y->ns) - (x->ns > y->ns);
}

/* The table in text: largest first, with the share of all SL. */
static const struct lc_col text_cols[] = {
	{ .name = "seconds", .kind = LC_COL_FLOAT, .prec = 6, .width = 12 },
	{ .name = "%SL", .kind = LC_COL_PCT, .prec = 2, .width = 7 },
	{ .name = "pid", .kind = LC_COL_INT, .width = 10 },
	{ .name = "object", .kind = LC_COL_STR, .width = 18, .gap = 2 },
	{ .name = "name", .kind = LC_COL_STR, .gap = 2, .na = "-" },
};

/* ... and in CSV and JSON. */
static const struct lc_col data_cols[] = {
	{ .name = "pid", .kind = LC_COL_INT },
	{ .name = "object", .kind = LC_COL_STR },
	{ .name = "name", .kind = LC_COL_STR, .csv_na = "" },
	{ .name = "seconds", .kind = LC_COL_FLOAT, .prec = 9 },
	{ .name = "percent_of_sl", .kind = LC_COL_PCT, .prec = 4 },
};

/* One object's row. */
static void sync_row(struct lc_emit *e, int text, const struct lc_prof_sync *y, double pct)
{
	char obj[32];

	snprintf(obj, sizeof(obj), "0x%llx", (unsigned long long)y->obj);
	if (text) {
		lc_emit_num(e, (double)y->ns / 1e9);
		lc_emit_num(e, pct);
	}
	lc_emit_int(e, y->pid);
	lc_emit_str(e, obj);
	lc_emit_str(e, y->name);
	if (!text) {
		lc_emit_num(e, (double)y->ns / 1e9);
		lc_emit_num(e, pct);
	}
	lc_emit_row(e);
}

int lc_report_sync(FILE *out, const struct lc_profile *pr, enum lc_source src, int fmt,
		   char *msg, size_t len)
{
	const struct lc_prof_sync **v;
	struct lc_emit *e;
	uint64_t cats[LC_NCAT], sl;
	uint32_t n = 0;

	for (uint32_t i = 0; i < pr->nsync; i++)
		n += pr->sync[i].source == src;
	if (!n) {
		lc_fail(msg, len, 1, "no synchronization object was named in this profile "
			"(use LC_SYNC_BEGIN_ON(obj), or record --pthread)");
		return 1;
	}
	v = calloc(n, sizeof(*v));
	if (!v) {
		lc_fail(msg, len, 1, "out of memory");
		return 1;
	}
	n = 0;
	for (uint32_t i = 0; i < pr->nsync; i++)
		if (pr->sync[i].source == src)
			v[n++] = &pr->sync[i];
	qsort(v, n, sizeof(*v), by_ns_desc);
	lc_profile_finish(pr, &pr->data[src].total, cats);
	sl = cats[LC_CAT_SL];
	if (fmt == 0)
		fprintf(out, "** synchronization loss by object: %u object%s, %.6f s of SL in all\n",
			n, n == 1 ? "" : "s", (double)sl / 1e9);
	e = lc_emit_new(out, fmt == 0 ? LC_EMIT_TEXT : fmt == 1 ? LC_EMIT_CSV : LC_EMIT_JSON,
			fmt == 0 ? text_cols : data_cols, 5, LC_EMIT_COMPACT);
	for (uint32_t i = 0; i < n; i++)
		sync_row(e, fmt == 0, v[i], sl ? 100.0 * (double)v[i]->ns / (double)sl : 0.0);
	lc_emit_end(e);
	free(v);
	if (msg && len)
		msg[0] = 0;
	return 0;
}
