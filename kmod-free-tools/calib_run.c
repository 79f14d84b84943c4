/*
 * calib_run.c — one run of "lostcycles calibrate" (see lc_calib_run.h):
 * the child runs, their summary table, the recommendation, the graph, and
 * the --memory probe's output.
 */
#include "lc_calib_run.h"
#include "lc_emit.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lc_abi.h"
#include "lc_calib.h"
#include "lc_check.h"
#include "lc_profile.h"
#include "lc_runner.h"
#include "lc_util.h"
#include "lca_plot.h"
#include "session.h"
#include "tick.h"

#define DEFAULT_DRAM_BYTES (256ull << 20)

/* Tell the progress callback what runs now. */
static void progress(const struct lc_calib_run *c, const char *what)
{
	if (c->progress)
		c->progress(c->arg, c, what);
}

/* Append one interval; 0 or -EINVAL with the reason. */
static int add_interval(struct lc_calib_run *c, const char *tok, char *msg, size_t len)
{
	uint64_t ns;

	if (c->npts == LC_CALIB_MAX_INTERVALS || lc_parse_duration(tok, &ns) || ns < 1000 ||
	    ns > 1000000000u)
		return lc_fail(msg, len, -EINVAL, "bad interval '%s' (1us..1s, at most %d of them)",
			       tok, LC_CALIB_MAX_INTERVALS);
	if (c->npts && ns <= c->pts[c->npts - 1].interval_ns)
		return lc_fail(msg, len, -EINVAL, "intervals must ascend: '%s'", tok);
	c->pts[c->npts++].interval_ns = ns;
	return 0;
}

int lc_calib_intervals(struct lc_calib_run *c, const char *list, char *msg, size_t len)
{
	char *copy = strdup(list), *save = NULL, *tok;
	int rc = 0;

	if (!copy)
		return lc_fail(msg, len, -ENOMEM, "out of memory");
	c->npts = 0;
	for (tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save))
		rc = add_interval(c, tok, msg, len);
	free(copy);
	if (!rc && !c->npts)
		rc = lc_fail(msg, len, -EINVAL, "no interval given");
	return rc;
}

int lc_calib_builtin(struct lc_calib_run *c, char *msg, size_t len)
{
	char lib[4096];

	if (lc_calib_find_library(lib, sizeof(lib)))
		return lc_fail(msg, len, -ENOENT, "the flag library was not found "
			       "(set LOSTCYCLES_LIBRARY)");
	snprintf(c->builtin_arg, sizeof(c->builtin_arg), "--workload-child=%llu,%s",
		 (unsigned long long)lc_calib_loops_per_ms(), lib);
	c->builtin_cmd[0] = (char *)lc_self_exe();
	c->builtin_cmd[1] = "calibrate";
	c->builtin_cmd[2] = c->builtin_arg;
	c->builtin_cmd[3] = NULL;
	c->cmd = c->builtin_cmd;
	c->builtin = 1;
	return 0;
}

int lc_calib_open(struct lc_calib_run *c, char *msg, size_t len)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(c->session, sizeof(c->session), "lccal%d", (int)getpid());
	if (c->keep) {
		snprintf(c->dir, sizeof(c->dir), "%s", c->keep);
		return lc_safe_dir(c->dir, 0755, msg, len);
	}
	snprintf(c->dir, sizeof(c->dir), "%s/lostcycles-calibrate.XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(c->dir))
		return lc_fail(msg, len, -errno, "cannot create a directory for the profiles: %s",
			       strerror(errno));
	return 0;
}

/* Remove the files of dir (one level) and dir. */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			unlinkat(dirfd(d), de->d_name, 0);
	closedir(d);
	rmdir(dir);
}

void lc_calib_close(struct lc_calib_run *c)
{
	if (!c->keep && c->dir[0])
		remove_dir(c->dir);
}

/* The command line of "record" for one run. */
struct rec_argv {
	char ibuf[32], obuf[4200];
	char *argv[512];
};

/* Fill ra with "lostcycles record -q -i IV -o OUT --force [--trace] --
 * CMD..." and return its argv. */
static char **record_argv(const struct lc_calib_run *c, struct rec_argv *ra, uint64_t interval,
			  int trace, const char *out)
{
	int k = 0;

	snprintf(ra->ibuf, sizeof(ra->ibuf), "%lluns", (unsigned long long)interval);
	snprintf(ra->obuf, sizeof(ra->obuf), "%s", out);
	ra->argv[k++] = (char *)lc_self_exe();
	ra->argv[k++] = "record";
	ra->argv[k++] = "-q";
	ra->argv[k++] = "-i";
	ra->argv[k++] = ra->ibuf;
	ra->argv[k++] = "-o";
	ra->argv[k++] = ra->obuf;
	ra->argv[k++] = "--force";	/* the run's own file in the calibration folder */
	if (trace)
		ra->argv[k++] = "--trace";
	ra->argv[k++] = "--";
	for (int i = 0; c->cmd[i] && k < 510; i++)
		ra->argv[k++] = c->cmd[i];
	ra->argv[k] = NULL;
	return ra->argv;
}

/* One baseline run.  0, or -errno when the command cannot run. */
static int run_baseline(struct lc_calib_run *c, char *msg, size_t len)
{
	char env[128];
	char *envv[] = { env, NULL };
	struct lc_child_result r;
	int e;

	snprintf(env, sizeof(env), "LOSTCYCLES_SESSION=%s", c->session);
	e = lc_run_child(c->cmd, envv, c->builtin ? NULL : "/dev/null", NULL, &r);
	if (e)
		return lc_fail(msg, len, e, "%s: %s", c->cmd[0], strerror(-e));
	if (lc_runner_stop)
		return 0;
	if (r.status)
		lc_note(c->note, c->arg, "warning: the baseline run exited with status %d", r.status);
	c->base_wall[c->nbase++] = (double)r.wall_ns;
	return 0;
}

/* Take the accuracy of a trace-mode profile into p. */
static void take_accuracy(const struct lc_calib_run *c, struct lc_calib_point *p,
			  const struct lc_profile *prof, const char *out)
{
	struct lc_calib_acc a;
	char why[512];
	size_t k;

	if (lc_calib_accuracy(prof, &a, why, sizeof(why))) {
		lc_note(c->note, c->arg, "%s: %s", out, why);
		return;
	}
	k = p->nacc++;
	p->err_max[k] = a.err_max;
	p->err_sum[k] = a.err_sum;
	p->err_cat[k] = a.err_cat;
	p->est[k] = a.est;
	p->ticks_pct[k] = a.expected ? 100.0 * (double)a.ticks / (double)a.expected : NAN;
}

/* Take the timing of a profile into p (thread_ns: the sampler's CPU). */
static void take_timing(struct lc_calib_point *p, const struct lc_profile *prof,
			uint64_t thread_ns)
{
	p->wall[p->n] = (double)prof->end.end_ns;
	p->cpu[p->n++] = (double)thread_ns;
	if ((double)prof->end.max_gap_ns > p->max_gap)
		p->max_gap = (double)prof->end.max_gap_ns;
}

/* Run record at p's interval into out; 1 when its profile is to be read,
 * 0 when the run is left out, -errno when record cannot run. */
static int run_record(struct lc_calib_run *c, struct lc_calib_point *p, int trace,
		      const char *out, struct lc_child_result *r, char *msg, size_t len)
{
	struct rec_argv ra;
	char iv[32];
	int e;

	lc_fmt_duration(p->interval_ns, 1, iv, sizeof(iv));
	e = lc_run_child_watch(record_argv(c, &ra, p->interval_ns, trace, out), NULL,
			       c->builtin ? NULL : "/dev/null", NULL,
			       trace ? NULL : LC_SAMPLER_THREAD_NAME, r);
	if (e)
		return lc_fail(msg, len, e, "cannot run record: %s", strerror(-e));
	if (lc_runner_stop)
		return 0;
	if (r->status)
		lc_note(c->note, c->arg, "warning: a %s run at %s exited with status %d; left out",
		     trace ? "accuracy" : "timing", iv, r->status);
	return r->status ? 0 : 1;
}

/* One run under record at p's interval, with trace mode or not. */
static int run_sampled(struct lc_calib_run *c, struct lc_calib_point *p, int trace, int round,
		       char *msg, size_t len)
{
	char out[4200], why[512], iv[32];
	struct lc_child_result r;
	struct lc_profile *prof = NULL;
	int e;

	lc_fmt_duration(p->interval_ns, 1, iv, sizeof(iv));
	snprintf(out, sizeof(out), "%s/%s-%s-%d.data", c->dir, trace ? "acc" : "time", iv, round);
	if ((e = run_record(c, p, trace, out, &r, msg, len)) <= 0)
		return e;
	if ((e = lc_profile_read(out, &prof, why, sizeof(why))))
		return lc_fail(msg, len, e, "%s: %s (record exited with %d)", out, why, r.status);
	if (prof->ended && trace)
		take_accuracy(c, p, prof, out);
	else if (prof->ended)
		take_timing(p, prof, r.thread_ns);
	lc_profile_free(prof);
	return 0;
}

/* The runs of one round at interval i: timing, then accuracy. */
static int round_at(struct lc_calib_run *c, size_t i, int round, char *msg, size_t len)
{
	char what[64], iv[32];
	int rc;

	lc_fmt_duration(c->pts[i].interval_ns, 1, iv, sizeof(iv));
	for (int trace = 0; trace < 2 && !lc_runner_stop; trace++) {
		snprintf(what, sizeof(what), "%s %s", iv, trace ? "accuracy" : "timing");
		progress(c, what);
		if ((rc = run_sampled(c, &c->pts[i], trace, round, msg, len)))
			return rc;
		c->done++;
	}
	return 0;
}

int lc_calib_measure(struct lc_calib_run *c, char *msg, size_t len)
{
	int rc;

	c->total = (size_t)c->repeats * (1 + 2 * c->npts);
	c->t_start = lc_clock_ns();
	for (int r = 0; r < c->repeats && !lc_runner_stop; r++) {
		progress(c, "baseline");
		if ((rc = run_baseline(c, msg, len)))
			return rc;
		c->done++;
		for (size_t i = 0; i < c->npts && !lc_runner_stop; i++)
			if ((rc = round_at(c, i, r, msg, len)))
				return rc;
	}
	progress(c, lc_runner_stop ? "interrupted" : "done");
	return 0;
}

/* Per-interval results. */
struct row {
	double overhead, spread, err_max, err_sum, est, ticks, gap_us, cpu;
	int cat;
};

/* The median of v[0..n), v left as it is. */
static double med_copy(const double *v, size_t n)
{
	double t[LC_CALIB_MAX_REPEATS];

	memcpy(t, v, n * sizeof(*t));
	return lc_calib_median(t, n);
}

/* The range of v[0..n) in % of base. */
static double range_pct(const double *v, size_t n, double base)
{
	double lo = INFINITY, hi = -INFINITY;

	for (size_t k = 0; k < n; k++) {
		lo = fmin(lo, v[k]);
		hi = fmax(hi, v[k]);
	}
	return n ? 100 * (hi - lo) / base : NAN;
}

/* The category most often the largest error of p's accuracy runs, or
 * -1. */
static int worst_cat(const struct lc_calib_point *p)
{
	int votes[LC_NCAT] = { 0 }, best = 0;

	for (size_t k = 0; k < p->nacc; k++)
		if (p->err_cat[k] >= 0 && p->err_cat[k] < LC_NCAT)
			votes[p->err_cat[k]]++;
	for (int k = 1; k < LC_NCAT; k++)
		if (votes[k] > votes[best])
			best = k;
	return p->nacc ? best : -1;
}

/* The summary of one interval's runs. */
static void summarise(const struct lc_calib_run *c, const struct lc_calib_point *p,
		      struct row *w)
{
	double base = med_copy(c->base_wall, c->nbase), wall = med_copy(p->wall, p->n);

	*w = (struct row){
		.overhead = 100 * (wall / base - 1),
		.spread = range_pct(p->wall, p->n, base),
		.err_max = med_copy(p->err_max, p->nacc),
		.err_sum = med_copy(p->err_sum, p->nacc),
		.est = med_copy(p->est, p->nacc),
		.ticks = med_copy(p->ticks_pct, p->nacc),
		.gap_us = p->max_gap / 1000,
		.cpu = 100 * med_copy(p->cpu, p->n) / wall,
		.cat = worst_cat(p),
	};
}

/* The range of the baseline runs in % of their median. */
static double base_spread(const struct lc_calib_run *c)
{
	return c->nbase ? range_pct(c->base_wall, c->nbase, med_copy(c->base_wall, c->nbase))
			: NAN;
}

/* The rows of lc_calib_recommend; the largest spread into *worst, the
 * number of busy-wait rows returned. */
static size_t rec_rows(const struct lc_calib_run *c, const struct row *rows, size_t n,
		       struct lc_calib_row *in, double *worst)
{
	size_t nbusy = 0;

	*worst = 0;
	for (size_t i = 0; i < n; i++) {
		in[i] = (struct lc_calib_row){ .interval_ns = c->pts[i].interval_ns,
					       .overhead = rows[i].overhead,
					       .spread = rows[i].spread, .runs = c->pts[i].n,
					       .busy_wait = c->pts[i].interval_ns < LC_TICK_SPIN_NS };
		nbusy += (size_t)in[i].busy_wait;
		if (isfinite(rows[i].spread) && rows[i].spread > *worst)
			*worst = rows[i].spread;
	}
	return nbusy;
}

/* The reason no interval was recommended, ending the line. */
static void why_none(const struct lc_calib_run *c, const struct lc_calib_rec *rec, size_t nbusy,
		     FILE *out)
{
	switch (rec->why) {
	case LC_CALIB_ONLY_BUSY:
		fprintf(out, "only busy-wait intervals were measured, and each takes a whole CPU "
			"(--allow-busy-wait)\n");
		break;
	case LC_CALIB_FEW_RUNS:
		fprintf(out, "one run per interval shows no spread to judge the noise by (-r 3 or "
			"more)\n");
		break;
	case LC_CALIB_NOISY:
		fprintf(out, "the timing runs vary by %.1f %% of the baseline or more at every "
			"interval%s, more than the budget (more repeats, -r, on a quieter "
			"machine)\n", rec->noise,
			nbusy && !c->allow_busy ? " (the busy-wait ones aside)" : "");
		break;
	case LC_CALIB_OVER:
		fprintf(out, "the least overhead bound (median + noise / 2) was %.2f %%\n",
			rec->bound);
		break;
	default:
		fprintf(out, "nothing was measured\n");
	}
}

/* The recommended interval's line. */
static void recommended(const struct lc_calib_run *c, const struct row *w,
			const struct lc_calib_row *in, const struct lc_calib_rec *rec, FILE *out)
{
	fprintf(out, "recommended: -i %.0fus (the smallest interval shown under the %g %% budget: "
		"overhead %.2f %% + noise %.2f %% / 2 = %.2f %%)%s",
		(double)in->interval_ns / 1000, c->budget, w->overhead,
		fmax(w->spread, base_spread(c)), rec->bound, in->busy_wait ? "" : "\n");
	if (in->busy_wait)
		fprintf(out, "; it busy-waits: the sampler takes a whole CPU (%.0f %% measured)\n",
			w->cpu);
}

/* The recommendation line (lc_calib_recommend), with its reason. */
static void recommend(const struct lc_calib_run *c, const struct row *rows, size_t n, FILE *out)
{
	struct lc_calib_row in[LC_CALIB_MAX_INTERVALS];
	struct lc_calib_rec rec;
	double bs = base_spread(c), worst;
	size_t nbusy = rec_rows(c, rows, n, in, &worst);

	if (!n)
		return;
	lc_calib_recommend(in, n, bs, c->nbase, c->budget, c->allow_busy, &rec);
	if (rec.why != LC_CALIB_NOISY && fmax(worst, bs) > c->budget)
		fprintf(out, "note: timing runs vary by up to %.1f %% of the baseline, more than the "
			"%g %% budget: those intervals' overheads are noise here\n",
			fmax(worst, bs), c->budget);
	if (rec.busy_skipped)
		fprintf(out, "note: a busy-wait interval (below %u us) was shown under the budget "
			"but is not recommended, as its sampler takes a whole CPU "
			"(--allow-busy-wait)\n", LC_TICK_SPIN_NS / 1000);
	if (rec.index >= 0) {
		recommended(c, &rows[rec.index], &in[rec.index], &rec, out);
		return;
	}
	fprintf(out, "recommended: -i %uus, the default: no interval could be shown under the %g "
		"%% budget on this machine right now: ", LC_SESSION_DEFAULT_INTERVAL_NS / 1000,
		c->budget);
	why_none(c, &rec, nbusy, out);
}

/* Write the graph's data file: interval, overhead, largest error, the
 * noise the recommendation allowed for (the spread, at least the
 * baseline's) and the bound it judged (overhead + noise / 2). */
static int graph_data(const struct lc_calib_run *c, const struct row *rows, size_t n,
		      const char *dat, char *msg, size_t len)
{
	FILE *f = lc_out_open(dat, LC_OUT_FORCE, msg, len);
	double bs = base_spread(c);

	if (!f)
		return -EIO;
	for (size_t i = 0; i < n; i++) {
		double noise = isnan(bs) ? rows[i].spread : fmax(rows[i].spread, bs);

		fprintf(f, "%g %g %g %g %g\n", (double)c->pts[i].interval_ns / 1000,
			rows[i].overhead, rows[i].err_max, noise, rows[i].overhead + noise / 2);
	}
	fclose(f);
	return 0;
}

/* The recommended interval's mark: a line and its label (rec.index < 0:
 * none was shown under the budget, said in the title). */
static void graph_mark(FILE *f, const struct lc_calib_run *c, const struct row *rows, size_t n)
{
	struct lc_calib_row in[LC_CALIB_MAX_INTERVALS];
	struct lc_calib_rec rec;
	double worst, x;

	rec_rows(c, rows, n, in, &worst);
	lc_calib_recommend(in, n, base_spread(c), c->nbase, c->budget, c->allow_busy, &rec);
	if (rec.index < 0) {
		fprintf(f, "set label 'no interval shown under the budget: ");
		if (rec.why == LC_CALIB_NOISY)
			fprintf(f, "the noise (%.1f %% at least) exceeds it", rec.noise);
		else if (rec.why == LC_CALIB_OVER)
			fprintf(f, "the least bound was %.2f %%", rec.bound);
		else
			fprintf(f, "see the table");
		fprintf(f, "' at graph 0.02, graph 0.95\n");
		return;
	}
	x = (double)c->pts[rec.index].interval_ns / 1000;
	fprintf(f, "set arrow from %g, graph 0 to %g, graph 1 nohead lw 2 dt 3 lc rgb '#000000'\n"
		"set label 'recommended: -i %gus (bound %.2f %%)' at %g, graph 0.95 offset 1,0\n",
		x, x, x, rec.bound, x);
}

/* Write the graph's gnuplot script for the data file dat: the overhead
 * with bars of +- noise / 2, the bound the recommendation judged against
 * the budget, the budget, the largest error, the recommended interval. */
static int graph_script(const struct lc_calib_run *c, const struct row *rows, size_t n,
			const char *gp, const char *dat, char *msg, size_t len)
{
	FILE *f = lc_out_open(gp, LC_OUT_FORCE, msg, len);

	if (!f)
		return -EIO;
	fprintf(f, "set title 'Sampling interval: overhead against accuracy'\n"
		   "set logscale x\nset xlabel 'interval (us)'\nset ylabel '%% increase / %% error'\n"
		   "set grid\nset key below\nset offsets graph 0.05, graph 0.05, 0, 0\n");
	graph_mark(f, c, rows, n);
	fprintf(f, "plot ");
	lc_emit_gnuplot_str(f, dat);	/* the directory is the user's: a quoted string */
	fprintf(f, " using 1:2:($2-$4/2):($2+$4/2) with yerrorlines lw 2 title "
		"'running-time increase (%%), bars: +- noise / 2', \\\n     ");
	lc_emit_gnuplot_str(f, dat);
	fprintf(f, " using 1:5 with lines dt 2 lw 2 title 'bound judged: increase + noise / 2 "
		"(%%)', \\\n     %g with lines lc rgb '#000000' title 'budget (%g %%)', \\\n     ",
		c->budget, c->budget);
	lc_emit_gnuplot_str(f, dat);
	fprintf(f, " using 1:3 with linespoints title 'largest category error (%%)'\n");
	fclose(f);
	return 0;
}

/* -g: the data, the script and the PNG of overhead and error against
 * interval; what goes wrong is a note. */
static void write_graph(const struct lc_calib_run *c, const struct row *rows, size_t n)
{
	char gp[4200], dat[4200], msg[4400];
	int e;

	snprintf(dat, sizeof(dat), "%s/calibrate.dat", c->dir);
	snprintf(gp, sizeof(gp), "%s/calibrate.gp", c->dir);
	if (graph_data(c, rows, n, dat, msg, sizeof(msg)) ||
	    graph_script(c, rows, n, gp, dat, msg, sizeof(msg))) {
		lc_note(c->note, c->arg, "%s", msg);
		return;
	}
	e = lc_plot_png(gp, c->graph);
	if (e)
		lc_note(c->note, c->arg, "%s: %s", c->graph, e == -ENOENT ? "gnuplot is not installed" :
		     "gnuplot failed");
}

/* The two header lines of the table. */
static void table_header(FILE *out)
{
	fprintf(out, "%9s %9s %7s %8s %4s %8s %9s %6s %8s %8s\n", "interval", "overhead", "spread",
		"err max", "in", "err sum", "samp.est", "ticks", "max gap", "sampler");
	fprintf(out, "%9s %9s %7s %8s %4s %8s %9s %6s %8s %8s\n", "(us)", "(%)", "(%)", "(%)", "",
		"(%)", "(%)", "(%)", "(us)", "CPU (%)");
}

/* One row of the table; floor_ns is this machine's sleep floor. */
static void table_row(const struct lc_calib_point *p, const struct row *w, double floor_ns,
		      FILE *out)
{
	fprintf(out, "%9.0f %9.2f %7.2f %8.2f %4s %8.2f %9.2f %6.1f %8.0f %8.1f%s\n",
		(double)p->interval_ns / 1000, w->overhead, w->spread, w->err_max,
		w->cat >= 0 ? lc_cat_info((enum lc_cat)w->cat)->key : "-", w->err_sum, w->est,
		w->ticks, w->gap_us, w->cpu, p->interval_ns < LC_TICK_SPIN_NS ? "  b" :
		(double)p->interval_ns < floor_ns ? "  *" : "");
}

/* The legend of the marks of the n rows. */
static void table_marks(const struct lc_calib_run *c, size_t n, double floor_ns, FILE *out)
{
	if (n && c->pts[0].interval_ns < LC_TICK_SPIN_NS)
		fprintf(out, "b busy-wait ticks (intervals below %u us): the sampler spins, taking "
			"its whole CPU (see 'sampler CPU')\n", LC_TICK_SPIN_NS / 1000);
	for (size_t i = 0; i < n; i++)
		if (c->pts[i].interval_ns >= LC_TICK_SPIN_NS &&
		    (double)c->pts[i].interval_ns < floor_ns) {
			fprintf(out, "* below this machine's sleep floor (%.0f us): ticks come "
				"late\n", floor_ns / 1000);
			break;
		}
}

/* This machine's sleep floor: the mean interval of a 100 ms tick probe,
 * ns (NaN when it cannot be measured). */
static double sleep_floor(void)
{
	double floor_ns = NAN, max_ns;
	uint64_t ticks;

	if (lc_check_tick_probe(100000000u, -1, &floor_ns, &max_ns, &ticks))
		return NAN;
	return floor_ns;
}

void lc_calib_report(const struct lc_calib_run *c, FILE *out)
{
	struct row rows[LC_CALIB_MAX_INTERVALS];
	double floor_ns;
	size_t n = 0;

	if (!c->nbase) {
		fprintf(out, "nothing measured\n");
		return;
	}
	floor_ns = sleep_floor();
	for (size_t i = 0; i < c->npts && c->pts[i].n; i++, n++)
		summarise(c, &c->pts[i], &rows[i]);
	fprintf(out, "baseline: %.3f s (median of %zu runs, spread %.2f %%, no sampler)%s\n",
		med_copy(c->base_wall, c->nbase) / 1e9, c->nbase, base_spread(c),
		c->builtin ? "; built-in workload, truth: li 31.2 %, rt 68.8 %" : "");
	table_header(out);
	for (size_t i = 0; i < n; i++)
		table_row(&c->pts[i], &rows[i], floor_ns, out);
	table_marks(c, n, floor_ns, out);
	if (lc_runner_stop)
		fprintf(out, "interrupted: %zu of %zu runs done\n", c->done, c->total);
	recommend(c, rows, n, out);
	if (c->graph && n)
		write_graph(c, rows, n);
}

int lc_calib_two_cpus(int *a, int *b)
{
	cpu_set_t set;

	*a = *b = -1;
	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	for (int k = CPU_SETSIZE - 1; k >= 0 && *b < 0; k--)
		if (CPU_ISSET(k, &set)) {
			if (*a < 0)
				*a = k;
			else
				*b = k;
		}
	return *b < 0 ? -ENODEV : 0;
}

int lc_calib_memory(int a, int b, const char *path, FILE *out, char *msg, size_t len)
{
	struct lc_memlat m;
	int e = lc_memlat_measure(b, a, DEFAULT_DRAM_BYTES, &m);

	if (e)
		return lc_fail(msg, len, e, "cannot measure: %s", strerror(-e));
	fprintf(out, "cache-line transfer CPU %d <-> CPU %d: %.1f ns (best of %d round trips / 2)\n",
		m.cpu_a, m.cpu_b, m.transfer_ns, m.rounds);
	fprintf(out, "memory (dependent loads over %llu MiB): %.1f ns\n",
		(unsigned long long)(m.dram_bytes >> 20), m.dram_ns);
	e = lc_memlat_write(path, &m);
	if (e)
		return lc_fail(msg, len, e, "%s: %s", path, strerror(-e));
	fprintf(out, "written to %s\n", path);
	return 0;
}
