/*
 * pop.c — POP efficiency metrics from lost cycles categories (see pop.h).
 */
#include "pop.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lc_util.h"
#include "lca_runs.h"

/* The categories that make up useful computation (pop.h). */
static const int useful_cats[] = { LC_CAT_PC, LC_CAT_ML, LC_CAT_WC, LC_CAT_BL };
#define NUSEFUL (sizeof(useful_cats) / sizeof(useful_cats[0]))

static double sec(uint64_t ns)
{
	return (double)ns / 1e9;
}

static uint64_t useful(const uint64_t cat[LC_NCAT])
{
	uint64_t u = 0;

	for (size_t i = 0; i < NUSEFUL; i++)
		u += cat[useful_cats[i]];
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
		double u = sec(useful(d->threads[t].cat));
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
	lc_profile_finish(pr, &d->total, cat);
	for (int c = 0; c < LC_NCAT; c++)
		total += cat[c];
	for (uint32_t t = 0; t < d->nthreads; t++)
		if (d->threads[t].cat[LC_CAT_CL] > clmax)
			clmax = d->threads[t].cat[LC_CAT_CL];
	if (!total)
		return lc_fail(msg, len, 1, "the profile holds no computation");
	out->wall = sec(total) / pr->procs;
	if (hybrid_sums(pr, src, out, &sum_u, &sum_pm, msg, len))
		return 1;
	if (out->useful_max <= 0)
		return lc_fail(msg, len, 1, "the profile holds no computation");
	out->useful_avg = sec(useful(cat)) / pr->procs;
	out->lb = out->useful_avg / out->useful_max;
	out->comm = out->useful_max / out->wall;
	out->pe = out->useful_avg / out->wall;
	out->omp_pe = sum_pm > 0 ? sum_u / sum_pm : NAN;
	out->mpi_lb = sum_pm / (pr->procs * out->useful_max);
	out->mpi_pe = out->mpi_lb * out->comm;
	out->have_transfer = loggp_split(pr);
	if (out->have_transfer) {
		out->te = (out->wall - sec(clmax)) / out->wall;
		out->ser = out->te > 0 ? out->comm / out->te : NAN;
	}
	return 0;
}

/* One text line: name, value, what it is built from. */
static void text_metric(FILE *out, const char *name, double v, const char *from)
{
	if (isnan(v))
		fprintf(out, "%-28s %8s   %s\n", name, "na", from);
	else
		fprintf(out, "%-28s %7.1f%%   %s\n", name, 100 * v, from);
}

/* The hybrid block of the text output: the two levels and a row per
 * rank. */
static void hybrid_print(FILE *out, const struct lc_profile *pr, enum lc_source src,
			 const struct lc_pop *m)
{
	struct lc_pop_rank *r;
	uint32_t n;

	fprintf(out, "** hybrid MPI + OpenMP (%u ranks; POP's multiplicative model: "
		"parallel efficiency = MPI PE x OpenMP PE)\n", m->nranks);
	text_metric(out, "MPI parallel efficiency", m->mpi_pe, "sum p_r M_r / (p T): M_r the "
		    "busiest processor of rank r");
	text_metric(out, "  MPI load balance", m->mpi_lb, "avg M_r / max M_r");
	text_metric(out, "  MPI communication eff.", m->comm, "max M_r / T");
	text_metric(out, "OpenMP parallel efficiency", m->omp_pe, "sum U_r / sum p_r M_r: "
		    "threads against their rank's busiest");
	if (lc_pop_ranks(pr, src, pr->procs, &r, &n))
		return;
	fprintf(out, "%6s %8s %8s %6s %12s %12s %9s %9s\n", "rank", "pid", "threads", "procs",
		"U(s)", "M(s)", "OpenMP", "M/maxM");
	for (uint32_t i = 0; i < n; i++) {
		if (r[i].rank >= 0)
			fprintf(out, "%6d ", (int)r[i].rank);
		else
			fprintf(out, "%6s ", "-");
		fprintf(out, "%8d %8u %6.2f %12.6f %12.6f %8.1f%% %8.1f%%\n", (int)r[i].pid,
			r[i].nthreads, r[i].procs, r[i].useful, r[i].busiest,
			100 * r[i].useful / (r[i].procs * r[i].busiest),
			100 * r[i].busiest / m->useful_max);
	}
	free(r);
}

int lc_pop_print(FILE *out, const struct lc_profile *pr, enum lc_source src, int csv,
		 char *msg, size_t len)
{
	struct lc_pop m;
	double te, ser;

	if (lc_pop_compute(pr, src, &m, msg, len))
		return 1;
	te = m.have_transfer ? m.te : NAN;
	ser = m.have_transfer ? m.ser : NAN;
	if (csv) {
		fprintf(out, "wall,useful_avg,useful_max,load_balance,communication_efficiency,"
			"serialisation_efficiency,transfer_efficiency,parallel_efficiency%s\n",
			m.hybrid ? ",mpi_parallel_efficiency,mpi_load_balance,"
			"openmp_parallel_efficiency,ranks" : "");
		fprintf(out, "%.9f,%.9f,%.9f,%.6f,%.6f,", m.wall, m.useful_avg, m.useful_max, m.lb,
			m.comm);
		fprintf(out, isnan(ser) ? "na," : "%.6f,", ser);
		fprintf(out, isnan(te) ? "na," : "%.6f,", te);
		if (m.hybrid)
			fprintf(out, "%.6f,%.6f,%.6f,%.6f,%u\n", m.pe, m.mpi_pe, m.mpi_lb, m.omp_pe,
				m.nranks);
		else
			fprintf(out, "%.6f\n", m.pe);
		return 0;
	}
	fprintf(out, "** POP efficiency metrics (useful computation U = rt + ml + wc + bl; "
		"T = wall %.6f s; p = %u)\n", m.wall, pr->procs);
	fprintf(out, "%-28s %8s   %s\n", "metric", "value", "built from");
	text_metric(out, "parallel efficiency", m.pe, "avg U / T = 1 - (li+ip+sl+cl+rc)/tt");
	text_metric(out, "  load balance", m.lb, "avg U / max U of a processor (li, ip: idle "
		    "slots count as U = 0)");
	text_metric(out, "  communication efficiency", m.comm, "max U / T (sl, cl, rc of the "
		    "busiest processor)");
	text_metric(out, "    serialisation efficiency", ser, m.have_transfer ?
		    "CommE / TE: the waiting (sl) left on an ideal network" :
		    "na: waits not split into transfer and waiting (MPI with LogGP, docs/mpi.md)");
	text_metric(out, "    transfer efficiency", te, m.have_transfer ?
		    "(T - max cl) / T: cl is LogGP transfer time" :
		    "na: as above");
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
	static const char *const keys[] = { "rt", "ml", "wc", "bl" };
	double u = 0, v;

	if (lc_runs_get(r, i, kp, p) != LC_CELL_VALUE ||
	    lc_runs_get(r, i, lc_runs_find_key(r, "tt", 2), tt) != LC_CELL_VALUE || *tt <= 0)
		return -1;
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		enum lc_cell c = lc_runs_get(r, i, lc_runs_find_key(r, keys[k], strlen(keys[k])), &v);

		if (c == LC_CELL_VALUE)
			u += v;
		else if (!k)
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

/* The useful computation of the reference of run i: the run of its group
 * with the fewest processors (the mean of such runs). */
static double reference(const struct lc_runs *r, size_t i, int kp)
{
	size_t n = lc_runs_count(r);
	double pmin = INFINITY, sum = 0, p, tt, u;
	int k = 0;

	for (size_t j = 0; j < n; j++)
		if (run_useful(r, j, kp, &p, &tt) >= 0 && same_group(r, i, j, kp) && p < pmin)
			pmin = p;
	for (size_t j = 0; j < n; j++) {
		u = run_useful(r, j, kp, &p, &tt);
		if (u >= 0 && p == pmin && same_group(r, i, j, kp))
			sum += u, k++;
	}
	return k ? sum / k : NAN;
}

int lc_pop_runs_print(FILE *out, const struct lc_runs *r, int csv, char *msg, size_t len)
{
	int kp = lc_runs_find_key(r, "p", 1), printed = 0;

	if (kp < 0)
		return lc_fail(msg, len, 1, "the runs have no variable p");
	if (csv)
		fprintf(out, "line,p,useful,tt,parallel_efficiency,computation_scalability,"
			"global_efficiency\n");
	else
		fprintf(out, "** POP efficiency across runs (U = rt + ml + wc + bl summed over the "
			"processors; reference: the run with the fewest p of the same other "
			"variables)\n%6s %6s %12s %12s %9s %9s %9s\n", "line", "p", "U(s)", "tt(s)",
			"PE", "CompScal", "GE");
	for (size_t i = 0; i < lc_runs_count(r); i++) {
		double p, tt, u = run_useful(r, i, kp, &p, &tt), ref, pe, cs;

		if (u < 0)
			continue;
		ref = reference(r, i, kp);
		pe = u / tt;
		cs = u > 0 ? ref / u : NAN;
		if (csv)
			fprintf(out, "%d,%g,%.9g,%.9g,%.6f,%.6f,%.6f\n", lc_runs_line(r, i), p, u, tt,
				pe, cs, pe * cs);
		else
			fprintf(out, "%6d %6g %12.6f %12.6f %8.1f%% %8.1f%% %8.1f%%\n",
				lc_runs_line(r, i), p, u, tt, 100 * pe, 100 * cs, 100 * pe * cs);
		printed++;
	}
	if (!printed)
		return lc_fail(msg, len, 1, "no run has p, tt and rt");
	return 0;
}
