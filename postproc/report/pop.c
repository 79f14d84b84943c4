/*
 * pop.c — POP efficiency metrics from lost cycles categories (see pop.h).
 */
#include "pop.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lc_emit.h"
#include "lc_util.h"
#include "lca_runs.h"
#include "report.h"

/* Useful computation: the categories the table marks useful (pop.h). */
static uint64_t useful(const uint64_t cat[LC_NCAT])
{
	uint64_t u = 0;

	for (int c = 0; c < LC_NCAT; c++)
		if (lc_cat_info(c)->useful)
			u += cat[c];
	return u;
}

/* Whether the waits of some rank were split into SL and CL by LogGP. */
static int loggp_split(const struct lc_profile *pr)
{
	for (uint32_t i = 0; i < pr->nranks; i++)
		if (pr->ranks[i].flags & LC_PROF_RANK_LOGGP)
			return 1;
	return 0;
}

/* The MPI rank of process pid, or -1. */
static int32_t rank_of(const struct lc_profile *pr, int32_t pid)
{
	for (uint32_t i = 0; i < pr->nranks; i++)
		if (pr->ranks[i].pid == pid)
			return pr->ranks[i].rank;
	return -1;
}

/* The entry of process pid in r[0..*n), added when new (r has room for
 * every thread). */
static struct lc_pop_rank *rank_entry(const struct lc_profile *pr, struct lc_pop_rank *r,
				      uint32_t *n, int32_t pid)
{
	for (uint32_t i = 0; i < *n; i++)
		if (r[i].pid == pid)
			return &r[i];
	r[*n] = (struct lc_pop_rank){ .pid = pid, .rank = rank_of(pr, pid) };
	return &r[(*n)++];
}

int lc_pop_ranks(const struct lc_profile *pr, enum lc_source src, uint32_t p,
		 struct lc_pop_rank **out, uint32_t *n)
{
	const struct lc_prof_data *d = &pr->data[src];
	struct lc_pop_rank *r = calloc(d->nthreads ? d->nthreads : 1, sizeof(*r));
	uint32_t nt = 0;

	*n = 0;
	*out = r;
	if (!r)
		return -ENOMEM;
	for (uint32_t t = 0; t < d->nthreads; t++) {
		double u = lc_sec(useful(d->threads[t].cat));
		struct lc_pop_rank *e;

		if (u <= 0)
			continue;
		e = rank_entry(pr, r, n, t < pr->nthreads ? pr->threads[t].pid : -1);
		e->nthreads++;
		e->useful += u;
		if (u > e->busiest)
			e->busiest = u;
	}
	for (uint32_t i = 0; i < *n; i++)
		nt += r[i].nthreads;
	for (uint32_t i = 0; i < *n; i++) {
		r[i].procs = (double)p * r[i].nthreads / nt;
		if (r[i].useful / r[i].procs > r[i].busiest)
			r[i].busiest = r[i].useful / r[i].procs;
	}
	return 0;
}

/* The hybrid model's sums over the ranks of pr (pop.h): sum U_r, sum p_r
 * M_r and the busiest M_r into out; its rank and the number of ranks.
 * Returns 0, or 1 with the reason. */
static int hybrid_sums(const struct lc_profile *pr, enum lc_source src, struct lc_pop *out,
		       double *sum_u, double *sum_pm, char *msg, size_t len)
{
	struct lc_pop_rank *r;
	uint32_t n, worst = 0;

	if (lc_pop_ranks(pr, src, pr->procs, &r, &n))
		return lc_fail(msg, len, 1, "out of memory");
	*sum_u = *sum_pm = 0;
	out->useful_max = 0;
	for (uint32_t i = 0; i < n; i++) {
		*sum_u += r[i].useful;
		*sum_pm += r[i].procs * r[i].busiest;
		if (r[i].busiest > out->useful_max) {
			out->useful_max = r[i].busiest;
			worst = i;
		}
		if (r[i].nthreads >= 2 && n >= 2)
			out->hybrid = 1;
	}
	out->nranks = n;
	if (n && out->useful_max > out->wall * (1 + 1e-6)) {
		lc_fail(msg, len, 1, "p = %u is fewer than the processors process %d computed on "
			"at once (%.6f s of computation on its %.2f processors in %.6f s): record "
			"with --procs or LC_TEAM", pr->procs, (int)r[worst].pid, r[worst].useful,
			r[worst].procs, out->wall);
		free(r);
		return 1;
	}
	free(r);
	return 0;
}

/* The waits for a CPU of the busiest thread of d (the most useful
 * computation), s: what the machine's load added to the critical
 * processor's time. */
static double busiest_rc(const struct lc_prof_data *d)
{
	uint64_t best = 0, rc = 0;

	for (uint32_t t = 0; t < d->nthreads; t++) {
		uint64_t u = useful(d->threads[t].cat);

		if (u > best) {
			best = u;
			rc = d->threads[t].cat[LC_CAT_RC];
		}
	}
	return lc_sec(rc);
}

/* Whether and how the machine's load is left out of the metrics of out
 * (pop.h: load, own, cannot). */
static void machine_out(const struct lc_profile *pr, const struct lc_prof_data *d,
			struct lc_pop *out)
{
	uint32_t dis = lc_machine_distorts(pr);
	uint32_t cpus = pr->machine_total.ncpus ? pr->machine_total.ncpus : pr->end.ncpus;

	out->own = out->wall;
	if (!dis)
		return;
	out->load = -1;
	if ((dis >> LC_CAT_PC) & 1)
		out->cannot = "without run-queue data (record --sched) the time threads waited for "
			      "a CPU is not told apart from their computation";
	else if (cpus && pr->procs > cpus)
		out->cannot = "p is above the CPUs the program could use, so its waits for a CPU "
			      "are partly its own";
	if (out->cannot)
		return;
	out->load = 1;
	out->own = out->wall - busiest_rc(d);
	if (out->own < out->useful_max)
		out->own = out->useful_max;
	if (out->own > out->wall || out->own <= 0)
		out->own = out->wall;
}

int lc_pop_compute(const struct lc_profile *pr, enum lc_source src, struct lc_pop *out,
		   char *msg, size_t len)
{
	const struct lc_prof_data *d = &pr->data[src];
	uint64_t cat[LC_NCAT], total = 0, clmax = 0;
	double sum_u = 0, sum_pm = 0;

	memset(out, 0, sizeof(*out));
	if (!d->present || !pr->procs)
		return lc_fail(msg, len, 1, "the profile holds no %s data",
			       src == LC_SRC_TRACE ? "trace" : "sampled");
	total = lc_profile_finish(pr, &d->total, cat);
	for (uint32_t t = 0; t < d->nthreads; t++)
		if (d->threads[t].cat[LC_CAT_CL] > clmax)
			clmax = d->threads[t].cat[LC_CAT_CL];
	if (!total)
		return lc_fail(msg, len, 1, "the profile holds no computation");
	out->wall = lc_sec(total) / pr->procs;
	if (hybrid_sums(pr, src, out, &sum_u, &sum_pm, msg, len))
		return 1;
	if (out->useful_max <= 0)
		return lc_fail(msg, len, 1, "the profile holds no computation");
	machine_out(pr, d, out);
	out->useful_avg = lc_sec(useful(cat)) / pr->procs;
	out->lb = out->useful_avg / out->useful_max;
	out->comm = out->useful_max / out->own;
	out->pe = out->useful_avg / out->own;
	out->omp_pe = sum_pm > 0 ? sum_u / sum_pm : NAN;
	out->mpi_lb = sum_pm / (pr->procs * out->useful_max);
	out->mpi_pe = out->mpi_lb * out->comm;
	out->have_transfer = loggp_split(pr);
	if (out->have_transfer) {
		out->te = (out->own - lc_sec(clmax)) / out->own;
		out->ser = out->te > 0 ? out->comm / out->te : NAN;
	}
	return 0;
}

/* The text columns of seconds and of percentages. */
#define SECONDS_COL(n) { .name = (n), .kind = LC_COL_FLOAT, .prec = 6, .width = 12 }
#define PCT_COL(n) { .name = (n), .kind = LC_COL_PCT, .prec = 1, .width = 9 }

/* The metrics in text: name, value, what it is built from. */
static const struct lc_col text_cols[] = {
	{ .name = "metric", .kind = LC_COL_STR, .width = 28 },
	{ .name = "value", .kind = LC_COL_PCT, .prec = 1, .width = 8 },
	{ .name = "built from", .kind = LC_COL_STR, .gap = 3 },
};

/* ... and in CSV: one row (the last four columns for hybrid jobs only). */
static const struct lc_col csv_cols[] = {
	{ .name = "wall", .kind = LC_COL_FLOAT, .prec = 9 },
	{ .name = "useful_avg", .kind = LC_COL_FLOAT, .prec = 9 },
	{ .name = "useful_max", .kind = LC_COL_FLOAT, .prec = 9 },
	{ .name = "load_balance", .kind = LC_COL_FLOAT, .prec = 6 },
	{ .name = "communication_efficiency", .kind = LC_COL_FLOAT, .prec = 6 },
	{ .name = "serialisation_efficiency", .kind = LC_COL_FLOAT, .prec = 6 },
	{ .name = "transfer_efficiency", .kind = LC_COL_FLOAT, .prec = 6 },
	{ .name = "parallel_efficiency", .kind = LC_COL_FLOAT, .prec = 6 },
	{ .name = "mpi_parallel_efficiency", .kind = LC_COL_FLOAT, .prec = 6 },
	{ .name = "mpi_load_balance", .kind = LC_COL_FLOAT, .prec = 6 },
	{ .name = "openmp_parallel_efficiency", .kind = LC_COL_FLOAT, .prec = 6 },
	{ .name = "ranks", .kind = LC_COL_INT },
};

/* The hybrid model's row per rank. */
static const struct lc_col rank_cols[] = {
	{ .name = "rank", .kind = LC_COL_STR, .width = 6, .align = LC_ALIGN_RIGHT },
	{ .name = "pid", .kind = LC_COL_INT, .width = 8 },
	{ .name = "threads", .kind = LC_COL_INT, .width = 8 },
	{ .name = "procs", .kind = LC_COL_FLOAT, .prec = 2, .width = 6 },
	SECONDS_COL("U(s)"), SECONDS_COL("M(s)"), PCT_COL("OpenMP"), PCT_COL("M/maxM"),
};

/* The categories a metric is built from: the times against T, and the
 * useful computation U. */
#define TIME_CATS (1u << LC_CAT_LI | 1u << LC_CAT_IP | 1u << LC_CAT_SL | 1u << LC_CAT_CL | \
		   1u << LC_CAT_RC)
#define USEFUL_CATS (1u << LC_CAT_PC | 1u << LC_CAT_ML | 1u << LC_CAT_WC | 1u << LC_CAT_BL)

/* One text row: name, value (NaN: na), what it is built from, and the
 * report's mark " *" when the machine's load distorts one of cats (bits)
 * of pr. */
static void text_metric(struct lc_emit *e, const struct lc_profile *pr, const char *name,
			double v, const char *from, uint32_t cats)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s%s", from, lc_machine_distorts(pr) & cats ? " *" : "");
	lc_emit_str(e, name);
	lc_emit_num(e, 100 * v);
	lc_emit_str(e, buf);
	lc_emit_row(e);
}

/* The CSV columns of a loaded machine, after the others. */
static const struct lc_col csv_load_cols[] = {
	{ .name = "machine_load_pct", .kind = LC_COL_FLOAT, .prec = 2 },
	{ .name = "own_time", .kind = LC_COL_FLOAT, .prec = 9, .na = "na", .csv_na = "na" },
};

static void csv_metrics(FILE *out, const struct lc_profile *pr, const struct lc_pop *m,
			double ser, double te)
{
	int n = m->hybrid ? 12 : 8, k = n;
	struct lc_col cols[14];
	struct lc_emit *e;
	const double v[] = { m->wall, m->useful_avg, m->useful_max, m->lb, m->comm, ser, te, m->pe,
			     m->mpi_pe, m->mpi_lb, m->omp_pe };

	memcpy(cols, csv_cols, (size_t)n * sizeof(*cols));
	if (m->load) {
		cols[k++] = csv_load_cols[0];
		cols[k++] = csv_load_cols[1];
	}
	e = lc_emit_new(out, LC_EMIT_CSV, cols, k, 0);
	for (int i = 0; i < n && i < 11; i++)
		lc_emit_num(e, v[i]);
	if (m->hybrid)
		lc_emit_uint(e, m->nranks);
	if (m->load) {
		lc_emit_num(e, lc_machine_pct(&pr->machine_total, LC_SHARE_LOAD));
		if (m->load > 0)
			lc_emit_num(e, m->own);
		else
			lc_emit_na(e);
	}
	lc_emit_row(e);
	lc_emit_end(e);
}

/* The rows of the ranks of the hybrid model. */
static void rank_rows(FILE *out, const struct lc_profile *pr, enum lc_source src,
		      const struct lc_pop *m)
{
	struct lc_emit *e;
	struct lc_pop_rank *r;
	char rank[16];
	uint32_t n;

	if (lc_pop_ranks(pr, src, pr->procs, &r, &n))
		return;
	e = lc_emit_new(out, LC_EMIT_TEXT, rank_cols, 8, 0);
	for (uint32_t i = 0; i < n; i++) {
		snprintf(rank, sizeof(rank), r[i].rank >= 0 ? "%d" : "-", (int)r[i].rank);
		lc_emit_str(e, rank);
		lc_emit_int(e, r[i].pid);
		lc_emit_uint(e, r[i].nthreads);
		lc_emit_num(e, r[i].procs);
		lc_emit_num(e, r[i].useful);
		lc_emit_num(e, r[i].busiest);
		lc_emit_num(e, 100 * r[i].useful / (r[i].procs * r[i].busiest));
		lc_emit_num(e, 100 * r[i].busiest / m->useful_max);
		lc_emit_row(e);
	}
	lc_emit_end(e);
	free(r);
}

/* The hybrid block of the text output: the two levels and a row per
 * rank. */
static void hybrid_print(FILE *out, const struct lc_profile *pr, enum lc_source src,
			 const struct lc_pop *m)
{
	struct lc_emit *e;

	fprintf(out, "** hybrid MPI + OpenMP (%u ranks; POP's multiplicative model: "
		"parallel efficiency = MPI PE x OpenMP PE)\n", m->nranks);
	e = lc_emit_new(out, LC_EMIT_TEXT, text_cols, 3, LC_EMIT_NO_HEADER);
	text_metric(e, pr, "MPI parallel efficiency", m->mpi_pe, "sum p_r M_r / (p T): M_r the "
		    "busiest processor of rank r", TIME_CATS | USEFUL_CATS);
	text_metric(e, pr, "  MPI load balance", m->mpi_lb, "avg M_r / max M_r", USEFUL_CATS);
	text_metric(e, pr, "  MPI communication eff.", m->comm, "max M_r / T",
		    TIME_CATS | USEFUL_CATS);
	text_metric(e, pr, "OpenMP parallel efficiency", m->omp_pe, "sum U_r / sum p_r M_r: "
		    "threads against their rank's busiest", USEFUL_CATS);
	lc_emit_end(e);
	rank_rows(out, pr, src, m);
}

/* The header of the text output: the machine's share as the report says
 * it, what T is, and whether the load is left out. */
static void text_head(FILE *out, const struct lc_profile *pr, const struct lc_pop *m)
{
	lc_report_machine_text(out, pr);
	fprintf(out, "** POP efficiency metrics (useful computation U = rt + ml + wc + bl; ");
	if (m->load > 0)
		fprintf(out, "T = the program's own time %.6f s: wall %.6f s less the busiest "
			"processor's waits for a CPU, which the machine's load caused; p = %u)\n",
			m->own, m->wall, pr->procs);
	else
		fprintf(out, "T = wall %.6f s; p = %u)\n", m->wall, pr->procs);
	if (m->load < 0)
		fprintf(out, "** note: these metrics count the machine's load (their T is the wall "
			"time): %s\n", m->cannot);
}

int lc_pop_print(FILE *out, const struct lc_profile *pr, enum lc_source src, int csv,
		 char *msg, size_t len)
{
	struct lc_emit *e;
	struct lc_pop m;
	double te, ser;

	if (lc_pop_compute(pr, src, &m, msg, len))
		return 1;
	te = m.have_transfer ? m.te : NAN;
	ser = m.have_transfer ? m.ser : NAN;
	if (csv) {
		csv_metrics(out, pr, &m, ser, te);
		return 0;
	}
	text_head(out, pr, &m);
	e = lc_emit_new(out, LC_EMIT_TEXT, text_cols, 3, 0);
	text_metric(e, pr, "parallel efficiency", m.pe, m.load > 0 ?
		    "avg U / T (T less the busiest processor's rc)" : "avg U / T = 1 - (li+ip+sl+cl+rc)/tt",
		    TIME_CATS | USEFUL_CATS);
	text_metric(e, pr, "  load balance", m.lb, "avg U / max U of a processor (li, ip: idle "
		    "slots count as U = 0)", USEFUL_CATS);
	text_metric(e, pr, "  communication efficiency", m.comm, m.load > 0 ?
		    "max U / T (sl, cl of the busiest processor; rc left out)" :
		    "max U / T (sl, cl, rc of the busiest processor)", TIME_CATS | USEFUL_CATS);
	text_metric(e, pr, "    serialisation efficiency", ser, m.have_transfer ?
		    "CommE / TE: the waiting (sl) left on an ideal network" :
		    "na: waits not split into transfer and waiting (MPI with LogGP, docs/mpi.md)",
		    m.have_transfer ? TIME_CATS | USEFUL_CATS : 0);
	text_metric(e, pr, "    transfer efficiency", te, m.have_transfer ?
		    "(T - max cl) / T: cl is LogGP transfer time" : "na: as above",
		    m.have_transfer ? TIME_CATS : 0);
	lc_emit_end(e);
	fprintf(out, "average useful %.6f s per processor, most useful %.6f s (one processor)\n",
		m.useful_avg, m.useful_max);
	if (m.hybrid)
		hybrid_print(out, pr, src, &m);
	return 0;
}

/* ---- across runs -------------------------------------------------------------- */

/* Useful computation and total of run i, or -1 when it lacks p, tt or rt. */
static double run_useful(const struct lc_runs *r, size_t i, int kp, double *p, double *tt)
{
	double u = 0, v;

	if (lc_runs_get(r, i, kp, p) != LC_CELL_VALUE ||
	    lc_runs_get(r, i, lc_runs_find_key(r, "tt", 2), tt) != LC_CELL_VALUE || *tt <= 0)
		return -1;
	for (int c = 0; c < LC_NCAT; c++) {
		const char *key = lc_cat_info(c)->key;

		if (!lc_cat_info(c)->useful)
			continue;
		if (lc_runs_get(r, i, lc_runs_find_key(r, key, strlen(key)), &v) == LC_CELL_VALUE)
			u += v;
		else if (c == LC_CAT_PC)
			return -1;	/* no rt; na ml stays in rt */
	}
	return u;
}

/* Whether runs i and j agree on every numeric variable but p. */
static int same_group(const struct lc_runs *r, size_t i, size_t j, int kp)
{
	for (int k = 0; k < lc_runs_nkeys(r); k++) {
		double a, b;
		enum lc_cell ca, cb;

		if (k == kp || lc_key_lookup(lc_runs_keyname(r, k)) >= 0)
			continue;
		ca = lc_runs_get(r, i, k, &a);
		cb = lc_runs_get(r, j, k, &b);
		if (ca != cb || (ca == LC_CELL_VALUE && a != b))
			return 0;
	}
	return 1;
}

/* The fewest processors of a run of run i's group (INFINITY: none). */
static double group_pmin(const struct lc_runs *r, size_t i, int kp)
{
	double pmin = INFINITY, p, tt;

	for (size_t j = 0; j < lc_runs_count(r); j++)
		if (run_useful(r, j, kp, &p, &tt) >= 0 && same_group(r, i, j, kp) && p < pmin)
			pmin = p;
	return pmin;
}

/* The useful computation of the reference of run i: the run of its group
 * with the fewest processors (the mean of such runs). */
static double reference(const struct lc_runs *r, size_t i, int kp)
{
	size_t n = lc_runs_count(r);
	double pmin = group_pmin(r, i, kp), sum = 0, p, tt, u;
	int k = 0;

	for (size_t j = 0; j < n; j++) {
		u = run_useful(r, j, kp, &p, &tt);
		if (u >= 0 && p == pmin && same_group(r, i, j, kp))
			sum += u, k++;
	}
	return k ? sum / k : NAN;
}

/* Across runs in text: percentages. */
static const struct lc_col runs_text[] = {
	{ .name = "line", .kind = LC_COL_INT, .width = 6 },
	{ .name = "p", .kind = LC_COL_SIG, .width = 6 },
	SECONDS_COL("U(s)"), SECONDS_COL("tt(s)"),
	PCT_COL("PE"), PCT_COL("CompScal"), PCT_COL("GE"),
};

/* ... and in CSV: fractions. */
static const struct lc_col runs_csv[] = {
	{ .name = "line", .kind = LC_COL_INT },
	{ .name = "p", .kind = LC_COL_SIG },
	{ .name = "useful", .kind = LC_COL_SIG, .prec = 9 },
	{ .name = "tt", .kind = LC_COL_SIG, .prec = 9 },
	{ .name = "parallel_efficiency", .kind = LC_COL_FLOAT, .prec = 6 },
	{ .name = "computation_scalability", .kind = LC_COL_FLOAT, .prec = 6 },
	{ .name = "global_efficiency", .kind = LC_COL_FLOAT, .prec = 6 },
};

int lc_pop_runs_print(FILE *out, const struct lc_runs *r, int csv, char *msg, size_t len)
{
	int kp = lc_runs_find_key(r, "p", 1), printed = 0;
	double scale = csv ? 1 : 100;
	struct lc_emit *e;

	if (kp < 0)
		return lc_fail(msg, len, 1, "the runs have no variable p");
	if (!csv)
		fprintf(out, "** POP efficiency across runs (U = rt + ml + wc + bl summed over the "
			"processors; reference: the run with the fewest p of the same other "
			"variables)\n");
	e = lc_emit_new(out, csv ? LC_EMIT_CSV : LC_EMIT_TEXT, csv ? runs_csv : runs_text, 7, 0);
	for (size_t i = 0; i < lc_runs_count(r); i++) {
		double p, tt, u = run_useful(r, i, kp, &p, &tt), pe, cs;

		if (u < 0)
			continue;
		pe = u / tt;
		cs = u > 0 ? reference(r, i, kp) / u : NAN;
		lc_emit_int(e, lc_runs_line(r, i));
		lc_emit_num(e, p);
		lc_emit_num(e, u);
		lc_emit_num(e, tt);
		lc_emit_num(e, scale * pe);
		lc_emit_num(e, scale * cs);
		lc_emit_num(e, scale * pe * cs);
		lc_emit_row(e);
		printed++;
	}
	lc_emit_end(e);
	return printed ? 0 : lc_fail(msg, len, 1, "no run has p, tt and rt");
}
