/*
 * lc_check.h — "will profiling work here, and how well?": probes of the
 * kernel, permissions, PMU, scheduler data, shared memory, CPUs and the
 * sampler's own tick loop, each returning a structured verdict (OK / WARN /
 * FAIL with the fix).  Nothing here prints; the cli formats the items.
 */
#ifndef LC_CHECK_H
#define LC_CHECK_H

#include <stddef.h>
#include <stdint.h>

enum lc_check_level { LC_CHECK_OK, LC_CHECK_WARN, LC_CHECK_FAIL };

#define LC_CHECK_TEXT 384

/* One verdict. */
struct lc_check_item {
	const char *key;		/* stable name for scripts: "kernel", "pmu", ... */
	const char *title;		/* what a person reads: "CPU PMU" */
	enum lc_check_level level;
	char value[LC_CHECK_TEXT];	/* what was found */
	char fix[LC_CHECK_TEXT];	/* what to do about it ("" when OK) */
	int err;			/* errno behind a WARN/FAIL, 0 none */
	double number;			/* a key number where one exists (NaN otherwise) */
};

/* Where and how to look. */
struct lc_check_cfg {
	const char *shm_dir;		/* default "/dev/shm" */
	uint64_t tick_probe_ns;		/* default 0.2 s */
	int cpu;			/* the sampler's CPU, -1: its default choice */
};

/* Run every probe; *items gets a malloc'd array of *n verdicts in report
 * order.  Returns 0 or -ENOMEM. */
int lc_check_run(const struct lc_check_cfg *cfg, struct lc_check_item **items, size_t *n);

/* The worst level among the items. */
enum lc_check_level lc_check_worst(const struct lc_check_item *items, size_t n);

/* Stale segments: lostcycles.S.PID.NONCE objects in dir whose PID is gone.
 * Counts them (and their bytes) and, when remove is set, unlinks them.
 * Returns the number found (removed, with remove) or -errno; *bytes gets
 * their size.  On a removal error *failed counts the ones left. */
int lc_check_stale(const char *dir, int remove, uint64_t *bytes, int *failed);

/* The achievable tick interval: run the sampler's tick loop with no target
 * for probe_ns at the shortest interval it allows, sleeping between ticks
 * (never busy-waiting: this is the sleep floor), on cpu (-1: default).
 * Fills the mean and longest real interval in ns and the tick count.
 * Returns 0 or -errno. */
int lc_check_tick_probe(uint64_t probe_ns, int cpu, double *mean_ns, double *max_ns,
			uint64_t *ticks);

/* errno name ("ENOENT") for e > 0, or "E?" when unknown. */
const char *lc_errno_name(int e);

#endif /* LC_CHECK_H */
