/*
 * lc_calib.h — the pieces of "lostcycles calibrate" (thesis Figure 4.2: the
 * attribution error and the running-time increase against the sampling
 * interval): the accuracy of one profile (its sampled source against the
 * exact trace source of the same run), summaries, the recommendation, the
 * built-in workload with known truth, and the memory latency probe with its
 * per-machine file (docs/memory-latency.md).  Nothing here prints.
 */
#ifndef LC_CALIB_H
#define LC_CALIB_H

#include <stddef.h>
#include <stdint.h>

struct lc_profile;

/* How far one profile's sampled categories are from its trace categories,
 * as shares of total processor time (p x wall of each source), in %. */
struct lc_calib_acc {
	double err_max;		/* largest |sampled - trace| over the categories */
	int err_cat;		/* enum lc_cat of err_max */
	double err_sum;		/* sum of |sampled - trace| over the categories */
	double est;		/* sampling-error estimate: 2 sqrt(f(1-f)/ticks), largest f */
	uint64_t ticks;		/* ticks taken */
	uint64_t expected;	/* wall / interval */
	uint64_t max_gap_ns;	/* longest real interval between ticks */
	uint64_t wall_ns;	/* the profile's end_ns: spawn to exit of the command */
};

/* Fill *a from prof, which must hold both sources.  0, or -EINVAL with the
 * reason in why (no trace source, empty profile). */
int lc_calib_accuracy(const struct lc_profile *prof, struct lc_calib_acc *a, char *why,
		      size_t len);

/* Median of v[0..n) (sorts v); NaN for n == 0. */
double lc_calib_median(double *v, size_t n);

/* The timing summary of one interval, for the recommendation. */
struct lc_calib_row {
	uint64_t interval_ns;
	double overhead;	/* median running-time increase over the baseline, % */
	double spread;		/* range of the timing runs, % of the baseline */
	size_t runs;		/* timing runs behind them */
	int busy_wait;		/* the interval is kept by busy-waiting (a whole CPU) */
};

/* Why no interval was recommended (lc_calib_rec.why). */
enum lc_calib_why {
	LC_CALIB_SHOWN,		/* rec.index is an interval shown under budget */
	LC_CALIB_NO_ROWS,	/* nothing measured */
	LC_CALIB_ONLY_BUSY,	/* only busy-wait intervals, not allowed */
	LC_CALIB_FEW_RUNS,	/* fewer than 2 baseline or timing runs: no spread */
	LC_CALIB_NOISY,		/* the noise exceeds the budget at every interval */
	LC_CALIB_OVER,		/* the overhead bound exceeds the budget everywhere */
};

struct lc_calib_rec {
	int index;		/* the row recommended, -1: none could be shown */
	enum lc_calib_why why;
	double bound;		/* index >= 0: its overhead bound; LC_CALIB_OVER: the
				 * least bound of the quiet rows; % */
	double noise;		/* LC_CALIB_NOISY: the least noise of the rows, % */
	int busy_skipped;	/* a busy-wait row would have been shown, but busy
				 * waiting was not allowed */
};

/* The recommendation (docs/man/lostcycles-calibrate.1): the smallest
 * interval (rows ascending) whose overhead is shown to be under budget (%)
 * despite the noise.  An interval's noise is the larger of its spread and
 * the baseline's (base_spread, the range of the baseline runs in % of their
 * median); it is shown under budget when both it and the baseline have at
 * least 2 runs, its noise is at most the budget, and its overhead bound,
 * median + noise / 2, is at most the budget.  Busy-wait intervals count only
 * with allow_busy.  Pure arithmetic. */
void lc_calib_recommend(const struct lc_calib_row *rows, size_t n, double base_spread,
			size_t base_runs, double budget, int allow_busy, struct lc_calib_rec *rec);

/* ---- the built-in workload ---------------------------------------------------
 * Two threads of one team in one parallel region, 160 rounds: member 0 does
 * 8 units of work, member 1 does 3 and waits (spinning, IDLE) at the end of
 * the round.  A unit is loops_per_ms / 4 iterations of a spin loop (about
 * 0.25 ms), so the run time grows when the sampler takes CPU from the
 * program, and the frequent transitions show the error of coarse intervals.  Truth:
 * load imbalance 5/16 = 31 % of processor time, pure computation 69 %.
 */
#define LC_CALIB_TRUTH_LI 31.25

/* The flag library for the workload (LOSTCYCLES_LIBRARY, else beside this
 * executable: build/, ../lib/, else the loader's search path).  Writes the
 * path into buf; 0 or -ENOENT. */
int lc_calib_find_library(char *buf, size_t len);

/* Spin-loop iterations per millisecond on this machine (~20 ms to measure). */
uint64_t lc_calib_loops_per_ms(void);

/* Run the workload in this process with the flag library at lib (loaded
 * with dlopen, so its constructor reads LOSTCYCLES_SESSION as in any
 * program).  0, or -errno with the reason in why. */
int lc_calib_workload(const char *lib, uint64_t loops_per_ms, char *why, size_t len);

/* ---- memory latency (for CL = misses x latency) ---------------------------- */

struct lc_memlat {
	int cpu_a, cpu_b;		/* the two CPUs of the transfer probe */
	double transfer_ns;		/* one cache-line transfer between them */
	double dram_ns;			/* a dependent load that misses every cache */
	uint64_t dram_bytes;		/* size of the pointer chain */
	int rounds;			/* ping-pong round trips measured */
};

/* Measure: a cache line passed back and forth between two threads pinned to
 * cpu_a and cpu_b (one-way latency = half the round trip, best of several
 * batches), and a pointer chase through a random cyclic permutation of
 * dram_bytes.  0 or -errno (-EINVAL: a CPU cannot be used). */
int lc_memlat_measure(int cpu_a, int cpu_b, uint64_t dram_bytes, struct lc_memlat *m);

/* The default per-machine file: $LOSTCYCLES_MEMORY_FILE, else
 * $XDG_CONFIG_HOME/lostcycles/memory, else ~/.config/lostcycles/memory. */
int lc_memlat_default_path(char *buf, size_t len);

/* Write m to path (creating its directory; atomically, by rename) / read it
 * back.  0 or -errno; a read of a malformed file is -EINVAL with the reason
 * in why. */
int lc_memlat_write(const char *path, const struct lc_memlat *m);
int lc_memlat_read(const char *path, struct lc_memlat *m, char *why, size_t len);

#endif /* LC_CALIB_H */
