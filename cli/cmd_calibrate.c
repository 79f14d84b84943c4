/*
 * cmd_calibrate.c — "lostcycles calibrate": the sampling interval's
 * overhead against its accuracy (thesis Figure 4.2), and --memory, the ideal
 * memory latencies of this machine.  Runs are children: the command itself
 * (the time baseline) and "lostcycles record" (this executable) at each
 * interval; the profiles are read back with profile/'s reader.
 */
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lc_calib.h"
#include "lc_check.h"
#include "lc_cmd.h"
#include "lc_profile.h"
#include "lc_runner.h"
#include "lc_abi.h"
#include "lc_util.h"
#include "gp_quote.h"
#include "lca_plot.h"
#include "session.h"
#include "tick.h"

#define MAX_INTERVALS 32
#define DEFAULT_INTERVALS "10us,25us,50us,100us,250us,1ms"
#define DEFAULT_DRAM_BYTES (256ull << 20)

static const char calibrate_usage[] =
	"usage: lostcycles calibrate [-i LIST] [-r REPEATS] [--max-overhead PCT]\n"
	"                            [--allow-busy-wait] [-g FILE.png] [-k DIR] [-q]\n"
	"                            [-- CMD [ARGS...]]\n"
	"       lostcycles calibrate --memory [-C CPU,CPU] [-o FILE]\n"
	"Measure, for each sampling interval, the running-time increase of CMD under\n"
	"the sampler and the attribution error against the exact trace-mode profile\n"
	"of the same run; recommend the smallest interval shown within the overhead\n"
	"budget despite the run-to-run noise.\n"
	"Without CMD a built-in workload with known truth (31 % load imbalance) runs.\n\n"
	"  -i, --intervals=LIST    intervals to try (default " DEFAULT_INTERVALS ")\n"
	"  -r, --repeats=N         runs per interval and kind (default 3)\n"
	"      --max-overhead=PCT  overhead budget in % (default 1); an interval is\n"
	"                          recommended when its median overhead plus half its\n"
	"                          noise (the larger spread of its runs and of the\n"
	"                          baseline's) is within it, and that noise is too\n"
	"                          (else the default 100us, with the reason)\n"
	"      --allow-busy-wait   an interval below 30us (the sampler busy-waits,\n"
	"                          taking a whole CPU) may be recommended\n"
	"  -g, --graph=FILE.png    draw overhead and error against interval (gnuplot)\n"
	"  -k, --keep=DIR          keep the profiles in DIR\n"
	"  -q, --quiet             no progress on stderr\n"
	"      --memory            measure the cache-line transfer latency between two\n"
	"                          CPUs and the memory latency; write them to FILE\n"
	"  -C, --cpus=A,B          the two CPUs of --memory (default: the last two allowed)\n"
	"  -o, --output=FILE       --memory's file (default ~/.config/lostcycles/memory,\n"
	"                          which each calibration replaces)\n"
	"      --force             replace -o FILE or the -g graph when it exists\n"
	"  -h, --help              this text\n";

/* What the runs at one interval gave. */
struct point {
	uint64_t interval_ns;
	size_t n, nacc;			/* timing runs, accuracy runs */
	double wall[64], cpu[64];	/* timing runs: wall and the sampler thread's CPU, ns */
	double err_max[64], err_sum[64], est[64], ticks_pct[64];
	int err_cat[64];
	double max_gap;			/* ns, over all runs */
};

struct cal {
	char **cmd;			/* the command (NULL-terminated) */
	int builtin;
	int repeats;
	double budget;
	const char *graph, *keep;
	int quiet, tty, force;
	int allow_busy;			/* --allow-busy-wait */
	char dir[4096];
	size_t npts;
	struct point pts[MAX_INTERVALS];
	size_t nbase;
	double base_wall[64];
	size_t done, total;		/* runs */
	uint64_t t_start;
	char session[64];
};

static volatile sig_atomic_t interrupted;

/* A whole floating-point number: 0, or -1 when s is not one. */
static int parse_number(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return end == s || *end || errno ? -1 : 0;
}

static void on_signal(int sig)
{
	interrupted = sig;
	lc_runner_stop = 1;
}

/* Parse "10us,25us,..." into c->pts; 0 or -1 after a message. */
static int parse_intervals(struct cal *c, const char *list)
{
	char *copy = strdup(list), *save = NULL, *tok;

	if (!copy)
		return -1;
	c->npts = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t ns;

		if (c->npts == MAX_INTERVALS || lc_parse_duration(tok, &ns) || ns < 1000 ||
		    ns > 1000000000u) {
			warnx("bad interval '%s' (1us..1s, at most %d of them)", tok, MAX_INTERVALS);
			free(copy);
			return -1;
		}
		if (c->npts && ns <= c->pts[c->npts - 1].interval_ns) {
			warnx("intervals must ascend: '%s'", tok);
			free(copy);
			return -1;
		}
		c->pts[c->npts++].interval_ns = ns;
	}
	free(copy);
	if (!c->npts) {
		warnx("no interval given");
		return -1;
	}
	return 0;
}

static void fmt_interval(uint64_t ns, char *buf, size_t len)
{
	if (ns % 1000000 == 0)
		snprintf(buf, len, "%llums", (unsigned long long)(ns / 1000000));
	else
		snprintf(buf, len, "%lluus", (unsigned long long)(ns / 1000));
}

/* Progress: a bar on a terminal, a line per run otherwise. */
static void progress(struct cal *c, const char *what)
{
	double el = (double)(lc_clock_ns() - c->t_start) / 1e9;
	double left = c->done ? el / (double)c->done * (double)(c->total - c->done) : NAN;

	if (c->quiet)
		return;
	if (c->tty) {
		int w = 30, k = (int)(w * c->done / (c->total ? c->total : 1));

		fprintf(stderr, "\r[%.*s%*s] %zu/%zu %-24s", k, "##############################",
			w - k, "", c->done, c->total, what);
		if (isfinite(left))
			fprintf(stderr, " %3.0f s left", left);
		if (c->done == c->total)
			fputc('\n', stderr);
	} else {
		fprintf(stderr, "lostcycles calibrate: run %zu/%zu: %s\n", c->done, c->total, what);
	}
}

/* The command line of "record" for one run into argv (static storage). */
static char **record_argv(struct cal *c, uint64_t interval, int trace, const char *out)
{
	static char ibuf[32], obuf[4200];
	static char *argv[512];
	int k = 0, i;

	snprintf(ibuf, sizeof(ibuf), "%lluns", (unsigned long long)interval);
	snprintf(obuf, sizeof(obuf), "%s", out);
	argv[k++] = (char *)lc_self_exe();
	argv[k++] = "record";
	argv[k++] = "-q";
	argv[k++] = "-i";
	argv[k++] = ibuf;
	argv[k++] = "-o";
	argv[k++] = obuf;
	argv[k++] = "--force";	/* the run's own file in the calibration folder */
	if (trace)
		argv[k++] = "--trace";
	argv[k++] = "--";
	for (i = 0; c->cmd[i] && k < 510; i++)
		argv[k++] = c->cmd[i];
	argv[k] = NULL;
	return argv;
}

/* One baseline run.  0, or -1 when the command cannot run. */
static int run_baseline(struct cal *c)
{
	char env[128];
	char *envv[] = { env, NULL };
	struct lc_child_result r;
	int e;

	snprintf(env, sizeof(env), "LOSTCYCLES_SESSION=%s", c->session);
	e = lc_run_child(c->cmd, envv, c->builtin ? NULL : "/dev/null", NULL, &r);
	if (e) {
		warnx("%s: %s", c->cmd[0], strerror(-e));
		return -1;
	}
	if (interrupted)
		return 0;
	if (r.status)
		warnx("warning: the baseline run exited with status %d", r.status);
	c->base_wall[c->nbase++] = (double)r.wall_ns;
	return 0;
}

/* One run under record at p's interval, with trace mode or not.  0, or -1
 * after a message when nothing can be learnt. */
static int run_sampled(struct cal *c, struct point *p, int trace, int round)
{
	char out[4200], why[512], iv[32];
	struct lc_child_result r;
	struct lc_profile *prof = NULL;
	struct lc_calib_acc a;
	int e;

	fmt_interval(p->interval_ns, iv, sizeof(iv));
	snprintf(out, sizeof(out), "%s/%s-%s-%d.data", c->dir, trace ? "acc" : "time", iv, round);
	e = lc_run_child_watch(record_argv(c, p->interval_ns, trace, out), NULL,
			       c->builtin ? NULL : "/dev/null", NULL,
			       trace ? NULL : LC_SAMPLER_THREAD_NAME, &r);
	if (e) {
		warnx("cannot run record: %s", strerror(-e));
		return -1;
	}
	if (interrupted)
		return 0;
	if (r.status) {
		warnx("warning: a %s run at %s exited with status %d; left out", trace ?
		      "accuracy" : "timing", iv, r.status);
		return 0;
	}
	e = lc_profile_read(out, &prof, why, sizeof(why));
	if (e) {
		warnx("%s: %s (record exited with %d)", out, why, r.status);
		return -1;
	}
	if (!prof->ended) {
		lc_profile_free(prof);
		return 0;
	}
	if (trace) {
		if (lc_calib_accuracy(prof, &a, why, sizeof(why))) {
			warnx("%s: %s", out, why);
		} else {
			size_t k = p->nacc++;

			p->err_max[k] = a.err_max;
			p->err_sum[k] = a.err_sum;
			p->err_cat[k] = a.err_cat;
			p->est[k] = a.est;
			p->ticks_pct[k] = a.expected ? 100.0 * (double)a.ticks / (double)a.expected : NAN;
		}
	} else {
		p->wall[p->n] = (double)prof->end.end_ns;
		p->cpu[p->n++] = (double)r.thread_ns;
		if ((double)prof->end.max_gap_ns > p->max_gap)
			p->max_gap = (double)prof->end.max_gap_ns;
	}
	lc_profile_free(prof);
	return 0;
}

/* Every run, interleaved round by round. */
static int measure(struct cal *c)
{
	char what[64], iv[32];

	c->total = (size_t)c->repeats * (1 + 2 * c->npts);
	c->t_start = lc_clock_ns();
	for (int r = 0; r < c->repeats && !interrupted; r++) {
		progress(c, "baseline");
		if (run_baseline(c))
			return -1;
		c->done++;
		for (size_t i = 0; i < c->npts && !interrupted; i++) {
			fmt_interval(c->pts[i].interval_ns, iv, sizeof(iv));
			for (int trace = 0; trace < 2 && !interrupted; trace++) {
				snprintf(what, sizeof(what), "%s %s", iv, trace ? "accuracy" : "timing");
				progress(c, what);
				if (run_sampled(c, &c->pts[i], trace, r))
					return -1;
				c->done++;
			}
		}
	}
	progress(c, interrupted ? "interrupted" : "done");
	if (c->tty && !c->quiet && interrupted)
		fputc('\n', stderr);
	return 0;
}

/* Per-interval results. */
struct row {
	double overhead, spread, err_max, err_sum, est, ticks, gap_us, cpu;
	int cat;
};

static double med_copy(const double *v, size_t n)
{
	double t[64];

	memcpy(t, v, n * sizeof(*t));
	return lc_calib_median(t, n);
}

static void summarise(const struct cal *c, const struct point *p, struct row *w)
{
	double base = med_copy(c->base_wall, c->nbase);
	double lo = INFINITY, hi = -INFINITY, wall = med_copy(p->wall, p->n);
	int votes[LC_NCAT] = { 0 }, best = 0;

	for (size_t k = 0; k < p->n; k++) {
		lo = fmin(lo, p->wall[k]);
		hi = fmax(hi, p->wall[k]);
	}
	for (size_t k = 0; k < p->nacc; k++)
		if (p->err_cat[k] >= 0 && p->err_cat[k] < LC_NCAT)
			votes[p->err_cat[k]]++;
	for (int k = 1; k < LC_NCAT; k++)
		if (votes[k] > votes[best])
			best = k;
	*w = (struct row){
		.overhead = 100 * (wall / base - 1),
		.spread = p->n ? 100 * (hi - lo) / base : NAN,
		.err_max = med_copy(p->err_max, p->nacc),
		.err_sum = med_copy(p->err_sum, p->nacc),
		.est = med_copy(p->est, p->nacc),
		.ticks = med_copy(p->ticks_pct, p->nacc),
		.gap_us = p->max_gap / 1000,
		.cpu = 100 * med_copy(p->cpu, p->n) / wall,
		.cat = p->nacc ? best : -1,
	};
}

/* The range of the baseline runs in % of their median. */
static double base_spread(const struct cal *c)
{
	double lo = INFINITY, hi = -INFINITY;

	for (size_t k = 0; k < c->nbase; k++) {
		lo = fmin(lo, c->base_wall[k]);
		hi = fmax(hi, c->base_wall[k]);
	}
	return c->nbase ? 100 * (hi - lo) / med_copy(c->base_wall, c->nbase) : NAN;
}

/* The recommendation line (lc_calib_recommend), with its reason. */
static void recommend(const struct cal *c, const struct row *rows, size_t n)
{
	struct lc_calib_row in[MAX_INTERVALS];
	struct lc_calib_rec rec;
	double bs = base_spread(c), worst = 0;
	size_t nbusy = 0;

	for (size_t i = 0; i < n; i++) {
		in[i] = (struct lc_calib_row){ .interval_ns = c->pts[i].interval_ns,
					       .overhead = rows[i].overhead,
					       .spread = rows[i].spread, .runs = c->pts[i].n,
					       .busy_wait = c->pts[i].interval_ns < LC_TICK_SPIN_NS };
		nbusy += (size_t)in[i].busy_wait;
		if (isfinite(rows[i].spread) && rows[i].spread > worst)
			worst = rows[i].spread;
	}
	if (!n)
		return;
	lc_calib_recommend(in, n, bs, c->nbase, c->budget, c->allow_busy, &rec);
	if (rec.why != LC_CALIB_NOISY && fmax(worst, bs) > c->budget)
		printf("note: timing runs vary by up to %.1f %% of the baseline, more than the "
		       "%g %% budget: those intervals' overheads are noise here\n",
		       fmax(worst, bs), c->budget);
	if (rec.busy_skipped)
		printf("note: a busy-wait interval (below %u us) was shown under the budget but "
		       "is not recommended, as its sampler takes a whole CPU "
		       "(--allow-busy-wait)\n", LC_TICK_SPIN_NS / 1000);
	if (rec.index >= 0) {
		const struct row *w = &rows[rec.index];

		printf("recommended: -i %.0fus (the smallest interval shown under the %g %% budget: "
		       "overhead %.2f %% + noise %.2f %% / 2 = %.2f %%)%s",
		       (double)in[rec.index].interval_ns / 1000, c->budget, w->overhead,
		       fmax(w->spread, bs), rec.bound, in[rec.index].busy_wait ? "" : "\n");
		if (in[rec.index].busy_wait)
			printf("; it busy-waits: the sampler takes a whole CPU (%.0f %% measured)\n",
			       w->cpu);
		return;
	}
	printf("recommended: -i %uus, the default: no interval could be shown under the %g %% "
	       "budget on this machine right now: ", LC_SESSION_DEFAULT_INTERVAL_NS / 1000,
	       c->budget);
	switch (rec.why) {
	case LC_CALIB_ONLY_BUSY:
		printf("only busy-wait intervals were measured, and each takes a whole CPU "
		       "(--allow-busy-wait)\n");
		break;
	case LC_CALIB_FEW_RUNS:
		printf("one run per interval shows no spread to judge the noise by (-r 3 or "
		       "more)\n");
		break;
	case LC_CALIB_NOISY:
		printf("the timing runs vary by %.1f %% of the baseline or more at every "
		       "interval%s, more than the budget (more repeats, -r, on a quieter "
		       "machine)\n", rec.noise,
		       nbusy && !c->allow_busy ? " (the busy-wait ones aside)" : "");
		break;
	case LC_CALIB_OVER:
		printf("the least overhead bound (median + noise / 2) was %.2f %%\n", rec.bound);
		break;
	default:
		printf("nothing was measured\n");
	}
}

static void write_graph(const struct cal *c, const struct row *rows, size_t n)
{
	char gp[4200], dat[4200], msg[4400];
	FILE *f;
	int e;

	snprintf(dat, sizeof(dat), "%s/calibrate.dat", c->dir);
	snprintf(gp, sizeof(gp), "%s/calibrate.gp", c->dir);
	f = lc_out_open(dat, LC_OUT_FORCE, msg, sizeof(msg));
	if (!f) {
		warnx("%s", msg);
		return;
	}
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%g %g %g\n", (double)c->pts[i].interval_ns / 1000, rows[i].overhead,
			rows[i].err_max);
	fclose(f);
	f = lc_out_open(gp, LC_OUT_FORCE, msg, sizeof(msg));
	if (!f) {
		warnx("%s", msg);
		return;
	}
	fprintf(f, "set title 'Sampling interval: overhead against accuracy'\n"
		   "set logscale x\nset xlabel 'interval (us)'\nset ylabel '%% increase / %% error'\n"
		   "set grid\nset key top center\n"
		   "plot ");
	lc_gp_fputs(f, dat);	/* the directory is the user's: a quoted literal */
	fprintf(f, " using 1:2 with linespoints title 'running-time increase (%%)', \\\n     ");
	lc_gp_fputs(f, dat);
	fprintf(f, " using 1:3 with linespoints title 'largest category error (%%)'\n");
	fclose(f);
	e = lc_plot_png(gp, c->graph);
	if (e)
		warnx("%s: %s", c->graph, e == -ENOENT ? "gnuplot is not installed" :
			"gnuplot failed");
}

static void report(struct cal *c)
{
	struct row rows[MAX_INTERVALS];
	double floor_ns = NAN, max_ns;
	uint64_t ticks;
	size_t n = 0;

	if (!c->nbase) {
		printf("nothing measured\n");
		return;
	}
	if (lc_check_tick_probe(100000000u, -1, &floor_ns, &max_ns, &ticks))
		floor_ns = NAN;
	for (size_t i = 0; i < c->npts && c->pts[i].n; i++, n++)
		summarise(c, &c->pts[i], &rows[i]);
	printf("baseline: %.3f s (median of %zu runs, spread %.2f %%, no sampler)%s\n",
	       med_copy(c->base_wall, c->nbase) / 1e9, c->nbase, base_spread(c),
	       c->builtin ? "; built-in workload, truth: li 31.2 %, rt 68.8 %" : "");
	printf("%9s %9s %7s %8s %4s %8s %9s %6s %8s %8s\n", "interval", "overhead", "spread",
	       "err max", "in", "err sum", "samp.est", "ticks", "max gap", "sampler");
	printf("%9s %9s %7s %8s %4s %8s %9s %6s %8s %8s\n", "(us)", "(%)", "(%)", "(%)", "",
	       "(%)", "(%)", "(%)", "(us)", "CPU (%)");
	for (size_t i = 0; i < n; i++) {
		const struct row *w = &rows[i];

		printf("%9.0f %9.2f %7.2f %8.2f %4s %8.2f %9.2f %6.1f %8.0f %8.1f%s\n",
		       (double)c->pts[i].interval_ns / 1000, w->overhead, w->spread, w->err_max,
		       w->cat >= 0 ? lc_cat_info((enum lc_cat)w->cat)->key : "-", w->err_sum, w->est,
		       w->ticks, w->gap_us, w->cpu,
		       c->pts[i].interval_ns < LC_TICK_SPIN_NS ? "  b" :
		       (double)c->pts[i].interval_ns < floor_ns ? "  *" : "");
	}
	if (n && c->pts[0].interval_ns < LC_TICK_SPIN_NS)
		printf("b busy-wait ticks (intervals below %u us): the sampler spins, taking "
		       "its whole CPU (see 'sampler CPU')\n", LC_TICK_SPIN_NS / 1000);
	for (size_t i = 0; i < n; i++)
		if (c->pts[i].interval_ns >= LC_TICK_SPIN_NS &&
		    (double)c->pts[i].interval_ns < floor_ns) {
			printf("* below this machine's sleep floor (%.0f us): ticks come late\n",
			       floor_ns / 1000);
			break;
		}
	if (interrupted)
		printf("interrupted: %zu of %zu runs done\n", c->done, c->total);
	recommend(c, rows, n);
	if (c->graph && n)
		write_graph(c, rows, n);
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

/* --memory. */
static int memory(const char *cpus, const char *out, int force)
{
	char path[4096], msg[4400];
	struct lc_memlat m;
	cpu_set_t set;
	int a = -1, b = -1, e;

	if (cpus) {
		if (sscanf(cpus, "%d,%d", &a, &b) != 2 || a < 0 || b < 0 || a == b) {
			warnx("-C wants two different CPUs: A,B");
			return 2;
		}
	} else if (!sched_getaffinity(0, sizeof(set), &set)) {
		for (int k = CPU_SETSIZE - 1; k >= 0 && b < 0; k--)
			if (CPU_ISSET(k, &set)) {
				if (a < 0)
					a = k;
				else
					b = k;
			}
	}
	if (a < 0 || b < 0) {
		warnx("--memory needs two CPUs");
		return 1;
	}
	if (out && !force && lc_out_prepare(out, LC_OUT_KEEP, msg, sizeof(msg))) {
		warnx("%s", msg);
		return 1;
	}
	if (out)
		snprintf(path, sizeof(path), "%s", out);
	else if (lc_memlat_default_path(path, sizeof(path))) {
		warnx("no HOME: give the file with -o");
		return 2;
	}
	e = lc_memlat_measure(b, a, DEFAULT_DRAM_BYTES, &m);
	if (e) {
		warnx("cannot measure: %s", strerror(-e));
		return 1;
	}
	printf("cache-line transfer CPU %d <-> CPU %d: %.1f ns (best of %d round trips / 2)\n",
	       m.cpu_a, m.cpu_b, m.transfer_ns, m.rounds);
	printf("memory (dependent loads over %llu MiB): %.1f ns\n",
	       (unsigned long long)(m.dram_bytes >> 20), m.dram_ns);
	e = lc_memlat_write(path, &m);
	if (e) {
		warnx("%s: %s", path, strerror(-e));
		return 1;
	}
	printf("written to %s\n", path);
	return 0;
}

/* The hidden child mode: run the built-in workload ("LOOPS,LIBRARY"). */
static int workload_child(const char *arg)
{
	char why[512], *end;
	unsigned long long loops = strtoull(arg, &end, 10);

	if (*end != ',' || !loops) {
		warnx("bad workload argument");
		return 2;
	}
	if (lc_calib_workload(end + 1, loops, why, sizeof(why))) {
		warnx("%s", why);
		return 1;
	}
	return 0;
}

int lc_cmd_calibrate(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "intervals", required_argument, NULL, 'i' },
		{ "repeats", required_argument, NULL, 'r' },
		{ "max-overhead", required_argument, NULL, 'M' },
		{ "graph", required_argument, NULL, 'g' },
		{ "keep", required_argument, NULL, 'k' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "memory", no_argument, NULL, 'm' },
		{ "cpus", required_argument, NULL, 'C' },
		{ "output", required_argument, NULL, 'o' },
		{ "allow-busy-wait", no_argument, NULL, 'B' },
		{ "force", no_argument, NULL, 'F' },
		{ "workload-child", required_argument, NULL, 'W' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct cal c;
	const char *intervals = DEFAULT_INTERVALS, *cpus = NULL, *out = NULL;
	char loops_arg[4300], lib[4096];
	char *builtin_cmd[5];
	struct sigaction sa = { .sa_handler = on_signal };
	int ch, mem = 0, rc = 0;
	uint64_t v;

	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--mpi"))	/* the LogGP ping-pong: its own options */
			return lc_cmd_calibrate_mpi(argc, argv);
	c = (struct cal){ .repeats = 3, .budget = 1.0 };
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+i:r:g:k:qC:o:h", opts, NULL)) != -1) {
		switch (ch) {
		case 'i':
			intervals = optarg;
			break;
		case 'r':
			if (lc_parse_u64(optarg, 1, 64, &v)) {
				warnx("bad repeat count '%s' (1..64)", optarg);
				return 2;
			}
			c.repeats = (int)v;
			break;
		case 'M':
			if (parse_number(optarg, &c.budget) || c.budget < 0) {
				warnx("bad overhead budget '%s' (a percentage)", optarg);
				return 2;
			}
			break;
		case 'g':
			c.graph = optarg;
			break;
		case 'F':
			c.force = 1;
			break;
		case 'k':
			c.keep = optarg;
			break;
		case 'q':
			c.quiet = 1;
			break;
		case 'm':
			mem = 1;
			break;
		case 'C':
			cpus = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'B':
			c.allow_busy = 1;
			break;
		case 'W':
			return workload_child(optarg);
		case 'h':
			fputs(calibrate_usage, stdout);
			return 0;
		default:
			warnx("unknown or incomplete option '%s'", argv[optind - 1]);
			fputs(calibrate_usage, stderr);
			return 2;
		}
	}
	if (mem) {
		if (optind < argc) {
			warnx("--memory takes no command");
			return 2;
		}
		return memory(cpus, out, c.force);
	}
	if (cpus || out) {
		warnx("-C and -o go with --memory");
		return 2;
	}
	if (parse_intervals(&c, intervals))
		return 2;
	if (c.graph && lc_out_prepare(c.graph, c.force ? LC_OUT_FORCE : LC_OUT_KEEP, loops_arg,
				      sizeof(loops_arg))) {
		warnx("%s", loops_arg);
		return 1;
	}
	if (optind < argc) {
		c.cmd = argv + optind;
	} else {
		if (lc_calib_find_library(lib, sizeof(lib))) {
			warnx("the flag library was not found (set LOSTCYCLES_LIBRARY)");
			return 1;
		}
		snprintf(loops_arg, sizeof(loops_arg), "--workload-child=%llu,%s",
			 (unsigned long long)lc_calib_loops_per_ms(), lib);
		builtin_cmd[0] = (char *)lc_self_exe();
		builtin_cmd[1] = "calibrate";
		builtin_cmd[2] = loops_arg;
		builtin_cmd[3] = NULL;
		c.cmd = builtin_cmd;
		c.builtin = 1;
	}
	if (c.keep) {
		snprintf(c.dir, sizeof(c.dir), "%s", c.keep);
		if (mkdir(c.dir, 0755) && errno != EEXIST) {
			warnx("%s: %s", c.dir, strerror(errno));
			return 1;
		}
	} else {
		snprintf(c.dir, sizeof(c.dir), "%s/lostcycles-calibrate.XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if (!mkdtemp(c.dir)) {
			warnx("cannot create a directory for the profiles: %s", strerror(errno));
			return 1;
		}
	}
	snprintf(c.session, sizeof(c.session), "lccal%d", (int)getpid());
	c.tty = isatty(2);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (!c.quiet)
		fprintf(stderr, "lostcycles calibrate: %s, %d repeat%s of %zu intervals\n",
			c.builtin ? "built-in workload" : c.cmd[0], c.repeats,
			c.repeats == 1 ? "" : "s", c.npts);
	if (measure(&c))
		rc = 1;
	report(&c);
	if (!c.keep)
		remove_dir(c.dir);
	return rc ? 1 : interrupted ? 128 + interrupted : 0;
}
