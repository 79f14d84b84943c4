/*
 * report_rank.c — the views of a message-passing job: categories per rank
 * (the threads of each rank's process summed) and the late arrivers at
 * synchronization.  See report.h and docs/mpi.md.
 */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_emit.h"
#include "lc_util.h"

/* One rank's sums. */
struct rank_row {
	int32_t rank;
	int32_t pid;
	const char *host;
	uint32_t nthreads;
	uint64_t cat[LC_NCAT];
	uint64_t last;		/* windows in which it waited least */
	uint64_t caused;	/* the others' waiting beyond its own there, ns */
};

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static int by_rank(const void *a, const void *b)
{
	const struct rank_row *x = a, *y = b;

	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* The row of the thread's process, or NULL when it is no rank. */
static struct rank_row *row_of(const struct lc_profile *pr, struct rank_row *rows, uint32_t n,
			       uint32_t thread)
{
	int32_t pid;

	if (thread >= pr->nthreads)
		return NULL;
	pid = pr->threads[thread].pid;
	for (uint32_t i = 0; i < n; i++)
		if (rows[i].pid == pid)
			return &rows[i];
	return NULL;
}

/* Build one row per process that has a rank record; *n rows. */
static struct rank_row *collect(const struct lc_profile *pr, const struct lc_prof_data *d,
				uint32_t *n)
{
	struct rank_row *rows = calloc(pr->nranks ? pr->nranks : 1, sizeof(*rows));
	uint32_t k = 0;

	if (!rows)
		return NULL;
	for (uint32_t i = 0; i < pr->nranks; i++) {
		const struct lc_prof_rank *r = &pr->ranks[i];
		uint32_t j;

		for (j = 0; j < k && rows[j].pid != r->pid; j++)
			;
		rows[j] = (struct rank_row){ .rank = r->rank, .pid = r->pid, .host = r->host };
		if (j == k)
			k++;
	}
	for (uint32_t t = 0; t < d->nthreads && t < pr->nthreads; t++) {
		struct rank_row *r = row_of(pr, rows, k, t);

		if (!r)
			continue;
		r->nthreads++;
		for (int c = 0; c < LC_NCAT; c++)
			r->cat[c] += d->threads[t].cat[c];
	}
	*n = k;
	return rows;
}

/*
 * Late arrivers: in every timeline window where some rank waited (SL), the
 * rank that waited least arrived last (windows where several ranks waited
 * equally little are left out); the others' waiting beyond its own is
 * what it caused.  A window-grained view of "wait at group
 * synchronization": exact when one synchronization falls in a window.
 */
static void late_arrivers(const struct lc_profile *pr, const struct lc_prof_data *d,
			  struct rank_row *rows, uint32_t n, uint64_t *nwin)
{
	uint64_t *sl = calloc(n ? n : 1, sizeof(*sl));
	uint8_t *seen = calloc(n ? n : 1, 1);

	*nwin = 0;
	if (!sl || !seen)
		goto out;
	for (uint32_t w = 0; w < d->nwindows; w++) {
		const struct lc_prof_window *win = &d->windows[w];
		uint64_t max = 0, min = UINT64_MAX;
		uint32_t who = 0, nmin = 0, nseen = 0;

		memset(sl, 0, n * sizeof(*sl));
		memset(seen, 0, n);
		for (uint32_t i = 0; i < win->nthreads; i++) {
			struct rank_row *r = row_of(pr, rows, n, win->threads[i].thread);

			if (!r)
				continue;
			sl[r - rows] += win->threads[i].cat[LC_CAT_SL];
			seen[r - rows] = 1;
		}
		for (uint32_t i = 0; i < n; i++) {
			if (!seen[i])
				continue;
			nseen++;
			if (sl[i] > max)
				max = sl[i];
			if (sl[i] < min)
				min = sl[i], who = i, nmin = 0;
			nmin += sl[i] == min;
		}
		if (max == 0 || nmin != 1 || nseen < 2)
			continue;	/* nobody waited, no single rank was last, or alone */
		(*nwin)++;
		rows[who].last++;
		for (uint32_t i = 0; i < n; i++)
			if (seen[i] && i != who)
				rows[who].caused += sl[i] - min;
	}
out:
	free(sl);
	free(seen);
}

static int unavailable(const struct lc_profile *pr, int c)
{
	return (pr->info.unavailable >> c) & 1;
}

/* The host of a row: "?" in text, an empty field in CSV when unknown. */
#define HOST_COL { .name = "host", .kind = LC_COL_STR, .width = 12, .flags = LC_COL_CLIP, \
		   .na = "?", .csv_na = "" }

/* Append the category columns (seconds) to cols[*n]. */
static void cat_cols(struct lc_col *cols, int *n)
{
	for (int c = 0; c < LC_NCAT; c++)
		cols[(*n)++] = (struct lc_col){ .name = lc_cat_info(c)->key, .kind = LC_COL_FLOAT,
						.prec = 6, .data_prec = 9, .width = 10,
						.hex = lc_cat_info(c)->colour };
}

/* The category cells of cat[] (na where not measured); returns their sum. */
static uint64_t cat_cells(struct lc_emit *e, const struct lc_profile *pr, const uint64_t *cat)
{
	uint64_t t = 0;

	for (int c = 0; c < LC_NCAT; c++) {
		t += cat[c];
		if (unavailable(pr, c))
			lc_emit_na(e);
		else
			lc_emit_num(e, lc_sec(cat[c]));
	}
	return t;
}

/* Ranks x categories: in text with the rank's total and its share of SL,
 * in CSV with the late-arriver counts. */
static void ranks_table(const struct lc_profile *pr, struct rank_row *rows, uint32_t n,
			enum lc_emit_format f)
{
	struct lc_col cols[3 + LC_NCAT + 2] = {
		{ .name = "rank", .kind = LC_COL_INT, .width = 5 },
		HOST_COL,
		{ .name = "pid", .kind = LC_COL_INT, .width = 8 },
	};
	int k = 3, csv = f == LC_EMIT_CSV;
	struct lc_emit *e;

	cat_cols(cols, &k);
	cols[k++] = csv ? (struct lc_col){ .name = "late_windows", .kind = LC_COL_INT } :
			  (struct lc_col){ .name = "total", .kind = LC_COL_FLOAT, .prec = 6, .width = 10 };
	cols[k++] = csv ? (struct lc_col){ .name = "others_wait", .kind = LC_COL_FLOAT, .prec = 9 } :
			  (struct lc_col){ .name = "%sl", .kind = LC_COL_PCT, .prec = 1, .width = 6 };
	e = lc_emit_new(stdout, f, cols, k, 0);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t t;

		lc_emit_int(e, rows[i].rank);
		lc_emit_str(e, rows[i].host);
		lc_emit_int(e, rows[i].pid);
		t = cat_cells(e, pr, rows[i].cat);
		if (csv) {
			lc_emit_uint(e, rows[i].last);
			lc_emit_num(e, lc_sec(rows[i].caused));
		} else {
			lc_emit_num(e, lc_sec(t));
			lc_emit_num(e, t ? 100.0 * (double)rows[i].cat[LC_CAT_SL] / (double)t : 0.0);
		}
		lc_emit_row(e);
	}
	lc_emit_end(e);
}

static const struct lc_col late_cols[] = {
	{ .name = "rank", .kind = LC_COL_INT, .width = 5 },
	HOST_COL,
	{ .name = "last", .kind = LC_COL_INT, .width = 8 },
	{ .name = "share", .kind = LC_COL_PCT, .prec = 1, .width = 8 },
	{ .name = "others_wait(s)", .kind = LC_COL_FLOAT, .prec = 6, .width = 14 },
};

/* The ranks that arrived last, of nwin windows in which ranks waited. */
static void late_table(struct rank_row *rows, uint32_t n, uint64_t nwin)
{
	struct lc_emit *e = lc_emit_new(stdout, LC_EMIT_TEXT, late_cols, 5, 0);

	for (uint32_t i = 0; i < n; i++) {
		if (!rows[i].last)
			continue;
		lc_emit_int(e, rows[i].rank);
		lc_emit_str(e, rows[i].host);
		lc_emit_uint(e, rows[i].last);
		lc_emit_num(e, 100.0 * (double)rows[i].last / (double)nwin);
		lc_emit_num(e, lc_sec(rows[i].caused));
		lc_emit_row(e);
	}
	lc_emit_end(e);
}

static void text_ranks(const struct lc_profile *pr, struct rank_row *rows, uint32_t n,
		       uint64_t nwin)
{
	printf("\n** per rank (seconds; %%sl of the rank's time)\n");
	ranks_table(pr, rows, n, LC_EMIT_TEXT);
	printf("\n** late arrivers (of %" PRIu64 " windows in which ranks waited: the rank "
	       "that waited least)\n", nwin);
	late_table(rows, n, nwin);
}

/* Whether rows a and b are of the same host (unknown hosts are one). */
static int same_host(const struct rank_row *a, const struct rank_row *b)
{
	return !strcmp(a->host ? a->host : "?", b->host ? b->host : "?");
}

/* Per host: the ranks of each host summed (rows sorted by rank; hosts in
 * order of their first rank).  Only when the job spans several hosts. */
static void text_hosts(const struct lc_profile *pr, const struct rank_row *rows, uint32_t n)
{
	struct lc_col cols[2 + LC_NCAT + 1] = {
		HOST_COL,
		{ .name = "ranks", .kind = LC_COL_INT, .width = 5 },
	};
	int several = 0, k = 2;
	struct lc_emit *e;

	for (uint32_t i = 1; i < n; i++)
		several |= !same_host(&rows[i], &rows[0]);
	if (!several)
		return;
	cat_cols(cols, &k);
	cols[k++] = (struct lc_col){ .name = "total", .kind = LC_COL_FLOAT, .prec = 6, .width = 10 };
	printf("\n** per host (seconds)\n");
	e = lc_emit_new(stdout, LC_EMIT_TEXT, cols, k, 0);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t cat[LC_NCAT] = { 0 };
		uint32_t m = 0, j;

		for (j = 0; j < i && !same_host(&rows[j], &rows[i]); j++)
			;
		if (j < i)
			continue;	/* counted with its first rank */
		for (j = i; j < n; j++) {
			if (!same_host(&rows[j], &rows[i]))
				continue;
			m++;
			for (int c = 0; c < LC_NCAT; c++)
				cat[c] += rows[j].cat[c];
		}
		lc_emit_str(e, rows[i].host);
		lc_emit_uint(e, m);
		lc_emit_num(e, lc_sec(cat_cells(e, pr, cat)));
		lc_emit_row(e);
	}
	lc_emit_end(e);
}

int lc_report_ranks(const struct lc_profile *pr, const struct lc_report_opts *o, char *msg,
		    size_t len)
{
	const struct lc_prof_data *d = &pr->data[o->source];
	struct rank_row *rows;
	uint32_t n = 0;
	uint64_t nwin = 0;

	if (!pr->nranks)
		return lc_fail(msg, len, 1, "no rank information (record an MPI job with "
			       "--mpi, or link liblostcycles-mpi)");
	rows = collect(pr, d, &n);
	if (!rows)
		return lc_fail(msg, len, 1, "out of memory");
	qsort(rows, n, sizeof(*rows), by_rank);
	late_arrivers(pr, d, rows, n, &nwin);
	if (o->fmt == LC_REPORT_CSV) {
		printf("\n");
		ranks_table(pr, rows, n, LC_EMIT_CSV);
	} else {
		text_ranks(pr, rows, n, nwin);
		text_hosts(pr, rows, n);
	}
	free(rows);
	return 0;
}

/* The median of the PC of rows[0..n) but skip (with threads only); 0 none. */
static double median_pc(const struct rank_row *rows, uint32_t n, uint32_t skip)
{
	uint64_t *pc = calloc(n ? n : 1, sizeof(*pc));
	uint32_t k = 0;
	double m = 0;

	if (!pc)
		return 0;
	for (uint32_t i = 0; i < n; i++)
		if (i != skip && rows[i].nthreads)
			pc[k++] = rows[i].cat[LC_CAT_PC];
	if (k) {
		qsort(pc, k, sizeof(*pc), by_u64);
		m = k % 2 ? (double)pc[k / 2] : ((double)pc[k / 2 - 1] + (double)pc[k / 2]) / 2;
	}
	free(pc);
	return m;
}

/* The rank that computed most (out->work): its computation, the others'
 * median, and the others' waits beyond its own. */
static void by_work(const struct rank_row *rows, uint32_t n, struct lc_late *out)
{
	uint32_t top = 0;

	for (uint32_t i = 1; i < n; i++)
		if (rows[i].nthreads && rows[i].cat[LC_CAT_PC] > rows[top].cat[LC_CAT_PC])
			top = i;
	out->work.rank = rows[top].rank;
	out->work.host = rows[top].host;
	out->work.pc = rows[top].cat[LC_CAT_PC];
	out->work.sl = rows[top].cat[LC_CAT_SL];
	out->work.last = rows[top].last;
	out->work.pc_others = median_pc(rows, n, top);
	for (uint32_t i = 0; i < n; i++)
		if (i != top && rows[i].nthreads && rows[i].cat[LC_CAT_SL] > out->work.sl)
			out->work.caused += rows[i].cat[LC_CAT_SL] - out->work.sl;
}

/* The rank that arrived last most often.  See report.h. */
int lc_report_late(const struct lc_profile *pr, enum lc_source src, struct lc_late *out)
{
	const struct lc_prof_data *d = &pr->data[src];
	struct rank_row *rows;
	uint32_t n = 0, best = 0;

	memset(out, 0, sizeof(*out));
	if (!pr->nranks)
		return -ENOENT;
	rows = collect(pr, d, &n);
	if (!rows)
		return -ENOMEM;
	late_arrivers(pr, d, rows, n, &out->nwin);
	for (uint32_t i = 1; i < n; i++)
		if (rows[i].last > rows[best].last)
			best = i;
	if (n && out->nwin) {
		out->rank = rows[best].rank;
		out->host = rows[best].host;
		out->last = rows[best].last;
		out->caused = rows[best].caused;
		for (uint32_t i = 0; i < n; i++)
			out->nranks += rows[i].nthreads > 0;
		out->pc = rows[best].cat[LC_CAT_PC];
		out->pc_others = median_pc(rows, n, best);
		by_work(rows, n, out);
	}
	free(rows);
	return n && out->nwin ? 0 : -ENOENT;
}
