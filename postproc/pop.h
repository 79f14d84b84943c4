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
 *   load balance               LB   = (sum U_i / p) / max U_i
 *   communication efficiency   CommE = max U_i / T
 *   transfer efficiency        TE   = (T - max CL_i) / T   (LogGP-split waits)
 *   serialisation efficiency   SerE = CommE / TE
 *   computation scalability    CompScal = U(run of fewest p) / U(run)
 *   global efficiency          GE   = PE x CompScal
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
};

/* Compute the metrics of source src of pr.  Returns 0, or 1 with the
 * reason in msg (no data, no time). */
int lc_pop_compute(const struct lc_profile *pr, enum lc_source src, struct lc_pop *out,
		   char *msg, size_t len);

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
