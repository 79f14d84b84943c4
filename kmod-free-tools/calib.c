/*
 * calib.c — accuracy of a profile, summaries, the recommendation and the
 * built-in workload of "lostcycles calibrate" (see lc_calib.h).
 */
#include "lc_calib.h"

#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_profile.h"
#include "lc_runner.h"
#include "lc_abi.h"
#include "lc_util.h"
#include "lostcycles.h"

/* ---- accuracy ---------------------------------------------------------------- */

/* Shares (in %) of the categories of source src; returns the total.  The
 * exact trace knows the flags only, not the scheduler: a BUSY thread's time
 * in the run queue (RC, which the sampler's own ticks cause too) counts as
 * computation on both sides, so that the comparison is of the flags. */
static double shares(const struct lc_profile *prof, int src, double out[LC_NCAT])
{
	uint64_t cat[LC_NCAT];
	double total = (double)lc_profile_finish(prof, &prof->data[src].total, cat);

	cat[LC_CAT_PC] += cat[LC_CAT_RC];	/* the sum stays */
	cat[LC_CAT_RC] = 0;
	for (int c = 0; c < LC_NCAT; c++)
		out[c] = total > 0 ? 100.0 * (double)cat[c] / total : 0;
	return total;
}

int lc_calib_accuracy(const struct lc_profile *prof, struct lc_calib_acc *a, char *why,
		      size_t len)
{
	double s[LC_NCAT], t[LC_NCAT], fmax = 0;

	*a = (struct lc_calib_acc){ .err_cat = -1 };
	if (!prof->data[LC_SRC_SAMPLED].present || !prof->data[LC_SRC_TRACE].present)
		return lc_fail(why, len, -EINVAL, "the profile lacks its %s source",
			       prof->data[LC_SRC_TRACE].present ? "sampled" : "trace");
	if (shares(prof, LC_SRC_SAMPLED, s) <= 0 || shares(prof, LC_SRC_TRACE, t) <= 0)
		return lc_fail(why, len, -EINVAL, "the profile is empty");
	for (int c = 0; c < LC_NCAT; c++) {
		double d = fabs(s[c] - t[c]);

		if (prof->info.unavailable & (1u << c))
			continue;
		a->err_sum += d;
		if (a->err_cat < 0 || d > a->err_max) {
			a->err_max = d;
			a->err_cat = c;
		}
		if (s[c] > fmax && s[c] < 100)
			fmax = s[c];
	}
	a->ticks = prof->ended ? prof->end.ticks : 0;
	a->max_gap_ns = prof->ended ? prof->end.max_gap_ns : 0;
	a->wall_ns = prof->ended ? prof->end.end_ns : 0;
	if (prof->info.interval_ns)
		a->expected = a->wall_ns / prof->info.interval_ns;
	if (a->ticks)
		a->est = 200.0 * sqrt(fmax / 100 * (1 - fmax / 100) / (double)a->ticks);
	else
		a->est = NAN;
	return 0;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

double lc_calib_median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void lc_calib_recommend(const struct lc_calib_row *rows, size_t n, double base_spread,
			size_t base_runs, double budget, int allow_busy, struct lc_calib_rec *rec)
{
	size_t considered = 0, counted = 0, quiet = 0, busy = 0;

	*rec = (struct lc_calib_rec){ .index = -1, .why = LC_CALIB_NO_ROWS, .bound = INFINITY,
				      .noise = INFINITY };
	for (size_t i = 0; i < n; i++) {
		const struct lc_calib_row *w = &rows[i];
		double noise = fmax(w->spread, base_spread), bound = w->overhead + noise / 2;
		int shown;

		if (!isfinite(w->overhead))
			continue;
		if (w->busy_wait && !allow_busy) {
			busy++;
			rec->busy_skipped |= w->runs >= 2 && base_runs >= 2 && noise <= budget &&
					     bound <= budget;
			continue;
		}
		considered++;
		if (w->runs < 2 || base_runs < 2 || !isfinite(noise))
			continue;
		counted++;
		rec->noise = fmin(rec->noise, noise);
		if (noise > budget)
			continue;
		quiet++;
		shown = bound <= budget;
		if (!shown) {
			rec->bound = fmin(rec->bound, bound);
			continue;
		}
		rec->index = (int)i;
		rec->why = LC_CALIB_SHOWN;
		rec->bound = bound;
		return;
	}
	if (!considered)
		rec->why = busy ? LC_CALIB_ONLY_BUSY : LC_CALIB_NO_ROWS;
	else if (!counted)
		rec->why = LC_CALIB_FEW_RUNS;
	else if (!quiet)
		rec->why = LC_CALIB_NOISY;
	else
		rec->why = LC_CALIB_OVER;
}

/* ---- the built-in workload ----------------------------------------------------- */

int lc_calib_find_library(char *buf, size_t len)
{
	static const char *const rel[] = { "build/liblostcycles.so.1", "../lib/liblostcycles.so.1" };
	const char *env = getenv("LOSTCYCLES_LIBRARY");
	char exe[PATH_MAX];

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return access(buf, R_OK) ? -ENOENT : 0;
	}
	snprintf(exe, sizeof(exe), "%s", lc_self_exe());
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		snprintf(buf, len, "%s/%s", dirname(exe), rel[i]);
		if (!access(buf, R_OK))
			return 0;
		snprintf(exe, sizeof(exe), "%s", lc_self_exe());
	}
	snprintf(buf, len, "liblostcycles.so.1");
	return 0;	/* the loader's search path */
}

static uint64_t sink;

/* n iterations of a loop the compiler cannot remove (its result goes to a
 * global that the workload's threads share: relaxed atomics, since only
 * the loop's cost matters, not which thread's value stays). */
static void spin(uint64_t n)
{
	uint64_t x = __atomic_load_n(&sink, __ATOMIC_RELAXED);

	for (uint64_t i = 0; i < n; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	__atomic_store_n(&sink, x, __ATOMIC_RELAXED);
}

uint64_t lc_calib_loops_per_ms(void)
{
	uint64_t n = 100000, best = 0;

	for (int k = 0; k < 5; k++) {
		uint64_t t0 = lc_clock_ns(), dt;

		spin(n);
		dt = lc_clock_ns() - t0;
		if (dt < 2000000) {	/* too short to time: grow */
			n *= 4;
			k--;
			continue;
		}
		if (n * 1000000 / dt > best)
			best = n * 1000000 / dt;
	}
	return best ? best : 1;
}

/* The flag library's entry points, found with dlsym. */
struct flaglib {
	struct lc_slot *(*reg)(enum lc_op op, uint64_t arg);
	void (*parallel_begin)(void);
	void (*parallel_end)(void);
	void (*team)(uint32_t p);
	void *self;		/* dlsym of the TLS lc_self: per calling thread */
	void *handle;
};

#define ROUNDS 160
#define UNITS_LONG 8
#define UNITS_SHORT 3

struct wl {
	struct flaglib *f;
	uint64_t loops;
	int arrived;		/* barrier: atomic */
	int sense;		/* atomic */
};

/* LC_BUSY()/LC_IDLE() through the library: the macro's two paths. */
static void set_state(struct flaglib *f, uint32_t st)
{
	struct lc_slot **selfp = dlsym(f->handle, "lc_self");
	struct lc_slot *s = selfp ? *selfp : NULL;

	if (!s)
		s = f->reg(LC_OP_STATE, st);
	if (s)
		__atomic_store_n(&s->state, st, __ATOMIC_RELEASE);
}

/* Sense-reversing barrier for two threads; waiting is IDLE and spins. */
static void barrier(struct wl *w, int *my_sense)
{
	*my_sense = !*my_sense;
	if (__atomic_add_fetch(&w->arrived, 1, __ATOMIC_ACQ_REL) == 2) {
		__atomic_store_n(&w->arrived, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&w->sense, *my_sense, __ATOMIC_RELEASE);
		return;
	}
	set_state(w->f, LC_ST_IDLE);
	while (__atomic_load_n(&w->sense, __ATOMIC_ACQUIRE) != *my_sense)
		;
}

static void member(struct wl *w, int me)
{
	int sense = 0;

	for (int r = 0; r < ROUNDS; r++) {
		set_state(w->f, LC_ST_BUSY);
		spin(w->loops * (me ? UNITS_SHORT : UNITS_LONG) / 4);
		barrier(w, &sense);
	}
	set_state(w->f, LC_ST_IDLE);
}

static void *member1(void *arg)
{
	member(arg, 1);
	return NULL;
}

int lc_calib_workload(const char *lib, uint64_t loops_per_ms, char *why, size_t len)
{
	struct flaglib f = { 0 };
	struct wl w = { .f = &f, .loops = loops_per_ms };
	pthread_t t;
	int e;

	f.handle = dlopen(lib, RTLD_NOW | RTLD_GLOBAL);
	if (!f.handle)
		return lc_fail(why, len, -ENOENT, "cannot load the flag library: %s", dlerror());
	f.reg = (struct lc_slot *(*)(enum lc_op, uint64_t))dlsym(f.handle, "lc_thread_register");
	f.parallel_begin = (void (*)(void))dlsym(f.handle, "lc_parallel_begin");
	f.parallel_end = (void (*)(void))dlsym(f.handle, "lc_parallel_end");
	f.team = (void (*)(uint32_t))dlsym(f.handle, "lc_team");
	if (!f.reg || !f.parallel_begin || !f.parallel_end || !f.team)
		return lc_fail(why, len, -ENOENT, "%s is not the lostcycles flag library", lib);
	f.team(2);
	f.parallel_begin();
	e = pthread_create(&t, NULL, member1, &w);
	if (e)
		return lc_fail(why, len, -e, "pthread_create: %s", strerror(e));
	member(&w, 0);
	pthread_join(t, NULL);
	f.parallel_end();
	return 0;
}
