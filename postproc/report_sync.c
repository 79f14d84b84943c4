/*
 * report_sync.c — synchronization loss per synchronization object (see
 * report_sync.h).  A view of its own: text, CSV, or one JSON array.
 */
#include "report_sync.h"

#include <stdint.h>
#include <stdlib.h>

#include "lc_util.h"

static int by_ns_desc(const void *a, const void *b)
{
	const struct lc_prof_sync *x = *(const struct lc_prof_sync *const *)a;
	const struct lc_prof_sync *y = *(const struct lc_prof_sync *const *)b;

	return (x->ns < y->ns) - (x->ns > y->ns);
}

/* name as a JSON or CSV string body: quotes and control characters out. */
static void put_clean(FILE *out, const char *name)
{
	for (const char *p = name; *p; p++)
		fputc(*p == '"' || *p == '\\' || *p == ',' || (unsigned char)*p < 0x20 ? '_' : *p,
		      out);
}

int lc_report_sync(FILE *out, const struct lc_profile *pr, enum lc_source src, int fmt,
		   char *msg, size_t len)
{
	const struct lc_prof_sync **v;
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
		fprintf(out, "** synchronization loss by object: %u object%s, %.6f s of SL in all\n"
			     "     seconds    %%SL        pid  object              name\n",
			n, n == 1 ? "" : "s", (double)sl / 1e9);
	else if (fmt == 1)
		fprintf(out, "pid,object,name,seconds,percent_of_sl\n");
	else
		fprintf(out, "[");
	for (uint32_t i = 0; i < n; i++) {
		const struct lc_prof_sync *y = v[i];
		double pct = sl ? 100.0 * (double)y->ns / (double)sl : 0.0;

		if (fmt == 0) {
			fprintf(out, "%12.6f %6.2f%% %10d  0x%-16llx  %s\n", (double)y->ns / 1e9, pct,
				(int)y->pid, (unsigned long long)y->obj, y->name ? y->name : "-");
		} else if (fmt == 1) {
			fprintf(out, "%d,0x%llx,", (int)y->pid, (unsigned long long)y->obj);
			put_clean(out, y->name ? y->name : "");
			fprintf(out, ",%.9f,%.4f\n", (double)y->ns / 1e9, pct);
		} else {
			fprintf(out, "%s{\"pid\":%d,\"object\":\"0x%llx\",\"name\":", i ? "," : "",
				(int)y->pid, (unsigned long long)y->obj);
			if (y->name) {
				fputc('"', out);
				put_clean(out, y->name);
				fputc('"', out);
			} else {
				fputs("null", out);
			}
			fprintf(out, ",\"seconds\":%.9f,\"percent_of_sl\":%.4f}", (double)y->ns / 1e9,
				pct);
		}
	}
	if (fmt == 2)
		fprintf(out, "]\n");
	free(v);
	if (msg && len)
		msg[0] = 0;
	return 0;
}
