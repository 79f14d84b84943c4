/*
 * lc_calib_run.h — one run of "lostcycles calibrate" (thesis Figure 4.2):
 * the command itself (the time baseline) and "lostcycles record" at each
 * sampling interval, timing runs and trace-mode accuracy runs interleaved
 * round by round; the table of overhead against accuracy, the
 * recommendation and the graph; and --memory, the cache-line transfer and
 * memory latencies written to the per-machine file.  The arithmetic is
 * calib.c (lc_calib.h).
 *
 * Everything returns 0 or -errno with a one-line reason (lc_fail); a run
 * that goes wrong without stopping the calibration goes to the note
 * callback, progress to the progress callback.  The result tables print,
 * their job.  lc_runner_stop (a signal) ends the measurement early.
 */
#ifndef LC_CALIB_RUN_H
#define LC_CALIB_RUN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define LC_CALIB_MAX_INTERVALS 32
#define LC_CALIB_MAX_REPEATS 64
#define LC_CALIB_DEFAULT_INTERVALS "10us,25us,50us,100us,250us,1ms"

/* What the runs at one interval gave. */
struct lc_calib_point {
	uint64_t interval_ns;
	size_t n, nacc;			/* timing runs, accuracy runs */
	double wall[LC_CALIB_MAX_REPEATS];	/* timing runs: wall, ns */
	double cpu[LC_CALIB_MAX_REPEATS];	/* and the sampler thread's CPU, ns */
	double err_max[LC_CALIB_MAX_REPEATS], err_sum[LC_CALIB_MAX_REPEATS];
	double est[LC_CALIB_MAX_REPEATS], ticks_pct[LC_CALIB_MAX_REPEATS];
	int err_cat[LC_CALIB_MAX_REPEATS];
	double max_gap;			/* ns, over all runs */
};

/* A calibration: the caller sets the fields above the line (zero the rest),
 * then lc_calib_intervals, lc_calib_builtin (or cmd), lc_calib_open,
 * lc_calib_measure, lc_calib_report, lc_calib_close. */
struct lc_calib_run {
	char **cmd;			/* the command (NULL-terminated) */
	int repeats;			/* runs per interval and kind, 1..64 */
	double budget;			/* overhead budget, % */
	const char *graph;		/* the graph's PNG, or NULL */
	const char *keep;		/* the folder that keeps the profiles, or NULL */
	int allow_busy;			/* --allow-busy-wait */
	void (*note)(void *arg, const char *text);
	void (*progress)(void *arg, const struct lc_calib_run *c, const char *what);
	void *arg;			/* of note and progress */
	/* ---- the run's own */
	int builtin;			/* cmd is the built-in workload */
	char dir[4096];			/* where the profiles go */
	size_t npts;
	struct lc_calib_point pts[LC_CALIB_MAX_INTERVALS];
	size_t nbase;
	double base_wall[LC_CALIB_MAX_REPEATS];
	size_t done, total;		/* runs */
	uint64_t t_start;		/* lc_clock_ns() at the first run */
	char session[64];
	char builtin_arg[4300];
	char *builtin_cmd[4];
};

/* Parse "10us,25us,..." (ascending, 1us..1s, at most 32) into c->pts.  0,
 * or -EINVAL with the reason. */
int lc_calib_intervals(struct lc_calib_run *c, const char *list, char *msg, size_t len);

/* Make c->cmd the built-in workload with known truth: this executable's
 * hidden "calibrate --workload-child=LOOPS,LIBRARY".  0, or -ENOENT with
 * the reason when the flag library is not found. */
int lc_calib_builtin(struct lc_calib_run *c, char *msg, size_t len);

/* Make the folder of the profiles (c->keep, else a new temporary one) and
 * the session name.  0, or -errno with the reason. */
int lc_calib_open(struct lc_calib_run *c, char *msg, size_t len);

/* Every run, interleaved round by round, until done or lc_runner_stop.
 * 0, or -errno with the reason when a run cannot be started or its
 * profile cannot be read. */
int lc_calib_measure(struct lc_calib_run *c, char *msg, size_t len);

/* Print the table, the notes and the recommendation to out; draw the
 * graph when c->graph is set. */
void lc_calib_report(const struct lc_calib_run *c, FILE *out);

/* Remove the folder of the profiles unless it is c->keep. */
void lc_calib_close(struct lc_calib_run *c);

/* The last two CPUs this thread may run on, for --memory.  0, or -ENODEV
 * when there are fewer than two. */
int lc_calib_two_cpus(int *a, int *b);

/* --memory: measure between CPUs a and b, print the latencies to out, and
 * write them to path.  0, or -errno with the reason. */
int lc_calib_memory(int a, int b, const char *path, FILE *out, char *msg, size_t len);

#endif /* LC_CALIB_RUN_H */
