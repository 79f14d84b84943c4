/*
 * pop.h — "report --pop": the POP Centre of Excellence efficiency metrics
 * from lost cycles categories, for one profile (load balance,
 * communication efficiency and its serialisation and transfer parts,
 * parallel efficiency) and across runs (computation scalability, global
 * efficiency).
 *
 * Useful computation is the time threads compute outside waiting:
 * U = rt + ml + wc + bl (the thesis's categories li ip sl cl rc are the
 * time lost outside computation).  With T the wall time and p processors:
 *
 *   parallel efficiency        PE   = (sum U_i / p) / T = LB x CommE
 *   load balance               LB   = (sum U_i / p) / max M_r
 *   communication efficiency   CommE = max M_r / T
 *   transfer efficiency        TE   = (T - max CL_i) / T   (LogGP-split waits)
 *   serialisation efficiency   SerE = CommE / TE
 *   computation scalability    CompScal = U(run of fewest p) / U(run)
 *
 * Hybrid jobs (POP's multiplicative model: PE = MPI PE x OpenMP PE).  The
 * processes that computed are the ranks r = 1..R, each with its threads'
 * useful computation U_r and p_r processors, p's share in proportion to
 * the rank's threads that computed (p / R for ranks of equal teams: a
 * hybrid job's p is its ranks times a rank's team); M_r is the busiest
 * processor of rank r:
 * its busiest thread's U, or U_r / p_r if more threads than p_r shared the
 * rank's processors (the busiest processor did at least the average).
 *
 *   OpenMP parallel efficiency OmpPE = sum U_r / sum (p_r M_r)
 *                                     (per rank: U_r / (p_r M_r))
 *   MPI parallel efficiency    MpiPE = sum (p_r M_r) / (p T) = MpiLB x CommE
 *   MPI load balance           MpiLB = sum (p_r M_r) / (p max M_r)
 *   and LB = OmpPE x MpiLB.  One process: M = max(max U_i, sum U_i / p),
 *   OmpPE = LB, MpiLB = 1.  None exceeds 1: sum U_r <= p_r M_r by M_r's
 *   definition, sum p_r = p, and max M_r <= T unless p is fewer than the
 *   processors the job computed on at once, which is then the reason given
 *   (record with --procs, or LC_TEAM).
 *   global efficiency          GE   = PE x CompScal
 *
 * On a busy machine (other processes and steal above 10 % of the
 * program's CPUs) the time threads waited for a CPU (rc, measured from
 * run-queue data) is the machine's, not the program's: the metrics then
 * take T' = T - RC_b, the wall time less the waits for a CPU of the
 * busiest processor b (the thread with the most useful computation, whose
 * time sets the run's), never below max M_r, in place of T (PE = avg U /
 * T', CommE = max M_r / T'), and say so.  A wait of another thread for a
 * partner that waited for a CPU stays in its sl (the sampler's rule makes
 * it rc where it can tell), and the mark says sl is distorted.  Without run-queue data,
 * or with p above the CPUs (where rc is partly the program's own), they
 * cannot leave the load out, and say that.  The text output opens with the
 * report's line on the machine's share, and marks (" *") each metric built
 * from a category the load distorts.
 *
 * Everything prints to the stream given; failures return 1 with a reason.
 */
#ifndef LC_POP_H
#define LC_POP_H

#include <stddef.h>
#include <stdio.h>

#include "lc_profile.h"

struct lc_runs;

/* The metrics of one profile. */
struct lc_pop {
	double wall;		/* T, s */
	double useful_avg;	/* sum U_i / p, s */
	double useful_max;	/* max U_i, s */
	double lb, comm, pe;
	int have_transfer;	/* TE and SerE known */
	double te, ser;
	uint32_t nranks;	/* processes that computed (R) */
	int hybrid;		/* R >= 2 and a rank computed on 2 threads or more */
	double omp_pe, mpi_pe, mpi_lb;
	/* The machine's load (lc_machine_distorts): 0 none; 1 above the
	 * threshold and left out: the metrics are over own, the program's
	 * time without the waits for a CPU (see below); -1 above it but
	 * not separable (no run-queue data, or p above the CPUs: the wait
	 * for a CPU is then partly the program's own), the metrics over T
	 * count it, and cannot names why. */
	int load;
	double own;		/* T', s (load 1), else T */
	const char *cannot;
};

/* One rank's (process's) share of the hybrid model. */
struct lc_pop_rank {
	int32_t pid;
	int32_t rank;		/* MPI rank, -1 when the process has none */
	uint32_t nthreads;	/* its threads that computed */
	double procs;		/* p_r */
	double useful;		/* U_r, s */
	double busiest;		/* M_r, s */
};

/* Compute the metrics of source src of pr.  Returns 0, or 1 with the
 * reason in msg (no data, no time). */
int lc_pop_compute(const struct lc_profile *pr, enum lc_source src, struct lc_pop *out,
		   char *msg, size_t len);

/* The ranks of the hybrid model of source src of pr into *out (malloc'ed,
 * *n entries, in order of first appearance), for p processors.  Returns 0,
 * or -ENOMEM. */
int lc_pop_ranks(const struct lc_profile *pr, enum lc_source src, uint32_t p,
		 struct lc_pop_rank **out, uint32_t *n);

/* Print them (csv: one header line and one row; else text).  Returns as
 * lc_pop_compute. */
int lc_pop_print(FILE *out, const struct lc_profile *pr, enum lc_source src, int csv,
		 char *msg, size_t len);

/* Print PE, CompScal and GE of every run of r that has p, tt and rt
 * (csv or text); the reference of each run is the run with the fewest
 * processors among those with the same values of the other numeric
 * variables.  Returns 0, or 1 with the reason in msg (no usable run). */
int lc_pop_runs_print(FILE *out, const struct lc_runs *r, int csv, char *msg, size_t len);

#endif
