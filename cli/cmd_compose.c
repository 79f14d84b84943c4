/*
 * cmd_compose.c — "lostcycles compose": lost cycles modeling (the thesis's
 * lcm, chapter 6).  Reads a structure file (or extracts one from annotated
 * C sources), composes the fragment models and prints the program's
 * predicted categories and time per point, like "lostcycles predict";
 * compares two structures, compares with measured runs, tunes variables.
 */
#include "lc_profile.h"
#include "lc_cmd.h"
#include "lc_calib.h"
#include "lca_grid.h"
#include "lca_model.h"
#include "gp_quote.h"
#include "lca_plot.h"
#include "lca_predict.h"
#include "lca_runs.h"
#include "lcm.h"

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "lostcycles compose"
#define MAXSRC 32

/* The command line. */
struct opts {
	const char *structure, *at, *grid, *compare, *plot, *measured, *transfer, *tune, *output;
	const char *critical;		/* --critical-path TRACE */
	const char *memory;		/* --memory[=FILE]: "" for the default file */
	const char *src[MAXSRC];
	int nsrc, extract, explain, force;
	size_t max_points;	/* --max-points */
};

/* Everything a run holds; freed by ccmd_free. */
struct ccmd {
	struct opts o;
	struct lcm *a, *b;
	struct lc_model *bm;		/* --compare with a model file */
	char *text;			/* the extracted structure */
	struct lc_grid g, tg;
	const char *names[2 * LC_GRID_MAXAXES];
	double vals[2 * LC_GRID_MAXAXES];
	int nnames;
	struct lc_runs *runs;
	struct lc_strace trace;		/* --critical-path */
};

/* Print the usage text to f. */
static void usage(FILE *f)
{
	fprintf(f,
"usage: lostcycles compose -s STRUCTURE (--at \"VAR=V ...\" | --grid \"VAR=LIST ...\") [options]\n"
"       lostcycles compose --extract SOURCE.c... [-o STRUCTURE] [--at ... | --grid ...]\n"
"       lostcycles compose -s STRUCTURE --at \"VAR=V ...\" --tune \"VAR=LIST ...\"\n"
"\n"
"Compose the lost cycles models of a program's fragments into a model of the\n"
"whole program along its parallel structure (docs/structure.md), and predict\n"
"T(E) = sum C(E)/p with a 90%% prediction interval, like 'lostcycles predict'.\n"
"\n"
"  -s, --structure FILE   the structure file\n"
"  -a, --at \"n=1024 p=4\"   one point: per-category values and T(E)\n"
"  -G, --grid \"n=64,...,1024 p=1,2\"\n"
"                         every combination (LIST as in lostcycles predict)\n"
"  -e, --explain          each node's variables, time and categories, and what\n"
"                         each rule added\n"
"  -C, --compare FILE     a second structure, or a model file: which is faster\n"
"                         at each point\n"
"  -m, --measured RUNS    compare with measured runs (tt/p of the runs at each\n"
"                         grid point, 'lostcycles report -l' lines) and give\n"
"                         the relative error\n"
"  -P, --plot FILE.png    T over the first grid variable, one curve per value\n"
"                         of the second (with --compare and --measured too)\n"
"      --transfer \"latency=S bandwidth=B\"\n"
"                         the machine's transfer parameters (seconds, bytes/s)\n"
"                         for data traces; overrides the structure's line\n"
"      --memory[=FILE]    transfer parameters from 'lostcycles calibrate --memory'\n"
"                         (its default file without FILE): B bytes cost B/64\n"
"                         remote cache-line transfers\n"
"      --critical-path TRACE\n"
"                         synchronization by critical path analysis over a\n"
"                         recorded trace (a trace file of 'record --trace', or\n"
"                         the LOSTCYCLES_TRACE_DIR folder holding them), using\n"
"                         the fragments' 'tag:' lines, instead of the pipeline\n"
"                         rule of 'after:'\n"
"      --tune \"VAR=LIST ...\"\n"
"                         the values of tuning variables that minimise T at\n"
"                         --at, by coordinate search checked by brute force\n"
"  -x, --extract          build the structure from the SOURCE files' OpenMP\n"
"                         pragmas, LC_FRAGMENT tags and lcm: comments; a\n"
"                         name that is taken gets _2, _3, ... (with a note)\n"
"  -o, --output FILE      with --extract: write the structure to FILE\n"
"      --force            replace -o FILE and plot files that exist (else refused)\n"
"      --max-points N     refuse a grid (or --tune grid) of more than N points\n"
"                         (default 1000000)\n"
"  -h, --help             this text\n"
"\n"
"See lostcycles-compose(1).\n");
}

enum { O_TRANSFER = 256, O_TUNE, O_MEMORY, O_CRITICAL, O_FORCE, O_MAXPOINTS };

/* Parse the command line into o.  Returns 0, 1 after --help, -1 on error. */
static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "structure", required_argument, 0, 's' }, { "at", required_argument, 0, 'a' },
		{ "grid", required_argument, 0, 'G' }, { "explain", no_argument, 0, 'e' },
		{ "compare", required_argument, 0, 'C' }, { "measured", required_argument, 0, 'm' },
		{ "plot", required_argument, 0, 'P' }, { "transfer", required_argument, 0, O_TRANSFER },
		{ "tune", required_argument, 0, O_TUNE }, { "extract", no_argument, 0, 'x' },
		{ "memory", optional_argument, 0, O_MEMORY },
		{ "critical-path", required_argument, 0, O_CRITICAL },
		{ "output", required_argument, 0, 'o' }, { "help", no_argument, 0, 'h' },
		{ "force", no_argument, 0, O_FORCE }, { "max-points", required_argument, 0, O_MAXPOINTS },
		{ 0, 0, 0, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	o->max_points = LC_GRID_DEFAULT_MAX_POINTS;
	while ((c = getopt_long(argc, argv, "s:a:G:eC:m:P:xo:h", lo, NULL)) != -1) {
		switch (c) {
		case 's': o->structure = optarg; break;
		case 'a': o->at = optarg; break;
		case 'G': o->grid = optarg; break;
		case 'e': o->explain = 1; break;
		case 'C': o->compare = optarg; break;
		case 'm': o->measured = optarg; break;
		case 'P': o->plot = optarg; break;
		case 'x': o->extract = 1; break;
		case 'o': o->output = optarg; break;
		case O_TRANSFER: o->transfer = optarg; break;
		case O_TUNE: o->tune = optarg; break;
		case O_MEMORY: o->memory = optarg ? optarg : ""; break;
		case O_CRITICAL: o->critical = optarg; break;
		case O_FORCE: o->force = 1; break;
		case O_MAXPOINTS:
			if (lc_opt_max_points(optarg, &o->max_points))
				return -1;
			break;
		case 'h': usage(stdout); return 1;
		default:
			warnx("unknown option or missing value '%s'; see '" PROG " --help'", argv[optind - 1]);
			return -1;
		}
	}
	for (; optind < argc; optind++) {
		if (!o->extract) {
			warnx("unexpected argument '%s'; see '" PROG " --help'", argv[optind]);
			return -1;
		}
		if (o->nsrc == MAXSRC) {
			warnx("at most %d source files", MAXSRC);
			return -1;
		}
		o->src[o->nsrc++] = argv[optind];
	}
	if (o->extract && !o->nsrc) {
		warnx("--extract needs SOURCE files");
		return -1;
	}
	if (!o->extract && !o->structure) {
		warnx("-s STRUCTURE (or --extract SOURCE...) is required; see '" PROG " --help'");
		return -1;
	}
	return 0;
}

/* Read --compare: a structure file, or else a model file (a whole-program
 * model from fit --emit); the structure's error when it is neither. */
static int read_compare(struct ccmd *cmd)
{
	char msg[512], mmsg[256];
	int line;

	if (!lcm_read(cmd->o.compare, &cmd->b, msg, sizeof(msg)))
		return 0;
	if (!lc_model_read(cmd->o.compare, &cmd->bm, &line, mmsg, sizeof(mmsg)))
		return 0;
	warnx("--compare %s: neither a structure (%s) nor a model file (line %d: %s)", cmd->o.compare,
	      msg, line, mmsg);
	return -1;
}

/* Read a structure file, reporting errors; NULL on failure. */
static struct lcm *read_structure(const char *path)
{
	struct lcm *s;
	char msg[512];

	if (lcm_read(path, &s, msg, sizeof(msg))) {
		warnx("%s", msg);
		return NULL;
	}
	return s;
}

/* --extract: the structure text, written to -o or stdout when nothing is
 * to be evaluated; then read it. */
static int do_extract(struct ccmd *cmd)
{
	char msg[512], notes[4096] = "", *copy;
	FILE *f;

	if (lcm_extract(cmd->o.src, cmd->o.nsrc, &cmd->text, notes, sizeof(notes), msg, sizeof(msg))) {
		warnx("%s", msg);
		return -1;
	}
	for (char *l = strtok(notes, "\n"); l; l = strtok(NULL, "\n"))
		warnx("note: %s", l);
	if (cmd->o.output || (!cmd->o.at && !cmd->o.grid)) {
		f = cmd->o.output ? lc_out_open(cmd->o.output, cmd->o.force ? LC_OUT_FORCE :
						LC_OUT_KEEP, msg, sizeof(msg)) : stdout;
		if (!f) {
			warnx("%s", msg);
			return -1;
		}
		if (fputs(cmd->text, f) < 0 || (f != stdout && fclose(f))) {
			warnx("%s: %s", cmd->o.output, strerror(errno));
			return -1;
		}
	}
	if (!cmd->o.at && !cmd->o.grid)
		return 0;
	copy = strdup(cmd->o.src[0]);
	if (!copy || lcm_read_text(cmd->text, cmd->o.src[0], dirname(copy), &cmd->a, msg, sizeof(msg))) {
		warnx("%s", copy ? msg : strerror(ENOMEM));
		free(copy);
		return -1;
	}
	free(copy);
	return 0;
}

/* --critical-path: read the trace and give it to structure a. */
static int read_trace(struct ccmd *cmd)
{
	char msg[512];

	if (lc_strace_read(cmd->o.critical, &cmd->trace, msg, sizeof(msg)) ||
	    lcm_set_trace(cmd->a, &cmd->trace, cmd->o.critical, msg, sizeof(msg))) {
		warnx("--critical-path %s", msg);
		return -1;
	}
	return 0;
}

/* Parse --transfer into *lat and *bw. */
static int parse_transfer(const char *s, double *lat, double *bw)
{
	const char *l = strstr(s, "latency="), *b = strstr(s, "bandwidth=");
	char *e1, *e2;

	if (!l || !b)
		goto bad;
	errno = 0;
	*lat = strtod(l + 8, &e1);
	*bw = strtod(b + 10, &e2);
	if (e1 != l + 8 && e2 != b + 10 && !errno && *lat >= 0 && *bw > 0)
		return 0;
bad:
	warnx("--transfer wants \"latency=SECONDS bandwidth=BYTES_PER_SECOND\", not '%s'", s);
	return -1;
}

/* --memory: latency 0 and one 64-byte cache line per transfer_ns of the
 * per-machine file. */
static int memory_transfer(const char *path, double *lat, double *bw)
{
	char def[4096], why[256] = "";
	struct lc_memlat m;
	int rc;

	if (!*path) {
		if ((rc = lc_memlat_default_path(def, sizeof(def)))) {
			warnx("--memory: no default memory file: %s", strerror(-rc));
			return -1;
		}
		path = def;
	}
	rc = lc_memlat_read(path, &m, why, sizeof(why));
	if (rc) {
		warnx("--memory %s: %s%s", path, rc == -EINVAL ? why : strerror(-rc),
		      rc == -ENOENT ? " (run 'lostcycles calibrate --memory')" : "");
		return -1;
	}
	*lat = 0;
	*bw = 64 / (m.transfer_ns * 1e-9);
	return 0;
}

/* Parse the grids and bind the structures to their variables. */
static int setup(struct ccmd *cmd)
{
	const char *spec = cmd->o.at ? cmd->o.at : cmd->o.grid;
	char msg[512];
	double lat, bw;

	if (!!cmd->o.at == !!cmd->o.grid) {
		warnx("give one of --at or --grid");
		return -1;
	}
	if (cmd->o.tune && !cmd->o.at) {
		warnx("--tune works at one point: give --at");
		return -1;
	}
	if (lc_grid_parse(spec, &cmd->g, msg, sizeof(msg)) ||
	    lc_grid_cap(&cmd->g, cmd->o.max_points, msg, sizeof(msg)) ||
	    (cmd->o.tune && (lc_grid_parse(cmd->o.tune, &cmd->tg, msg, sizeof(msg)) ||
			     lc_grid_cap(&cmd->tg, cmd->o.max_points, msg, sizeof(msg))))) {
		warnx("%s", msg);
		return -1;
	}
	for (int i = 0; i < cmd->g.naxes; i++)
		cmd->names[cmd->nnames++] = cmd->g.axis[i].name;
	for (int i = 0; i < cmd->tg.naxes; i++) {
		if (lc_grid_find(&cmd->g, cmd->tg.axis[i].name) >= 0) {
			warnx("'%s' is in both --at and --tune", cmd->tg.axis[i].name);
			return -1;
		}
		cmd->names[cmd->nnames++] = cmd->tg.axis[i].name;
	}
	if (lc_grid_find(&cmd->g, "p") < 0 && lc_grid_find(&cmd->tg, "p") < 0) {
		warnx("T(E) = sum C(E)/p needs p (the number of processors) in %s",
			cmd->o.at ? "--at" : "--grid");
		return -1;
	}
	if (cmd->o.transfer && cmd->o.memory) {
		warnx("give --transfer or --memory, not both");
		return -1;
	}
	if (cmd->o.transfer || cmd->o.memory) {
		if (cmd->o.transfer ? parse_transfer(cmd->o.transfer, &lat, &bw)
				    : memory_transfer(cmd->o.memory, &lat, &bw))
			return -1;
		lcm_set_transfer(cmd->a, lat, bw);
		if (cmd->b)
			lcm_set_transfer(cmd->b, lat, bw);
	}
	if (lcm_bind(cmd->a, cmd->names, cmd->nnames, msg, sizeof(msg)) ||
	    (cmd->b && lcm_bind(cmd->b, cmd->names, cmd->nnames, msg, sizeof(msg)))) {
		warnx("%s", msg);
		return -1;
	}
	return 0;
}

/* Set cmd->vals to point i of grid g, from slot off on. */
static void set_point(struct ccmd *cmd, const struct lc_grid *g, size_t i, int off)
{
	int idx[LC_GRID_MAXAXES];

	lc_grid_index(g, i, idx);
	for (int a = 0; a < g->naxes; a++)
		cmd->vals[off + a] = g->axis[a].v[idx[a]];
}

/* Compose structure s at the current point, reporting errors. */
static int eval(struct ccmd *cmd, struct lcm *s, struct lcm_result *r, FILE *explain)
{
	char msg[512];

	if (lcm_eval(s, cmd->vals, r, explain, msg, sizeof(msg))) {
		warnx("%s", msg);
		return -1;
	}
	return 0;
}

/* -1 when ta is less than tb, 1 when more, 0 when they are equal to a
 * rounding error. */
static int faster(double ta, double tb)
{
	if (fabs(ta - tb) <= 1e-9 * fmax(fabs(ta), fabs(tb)))
		return 0;
	return ta < tb ? -1 : 1;
}

/* T of the --compare structure or model file at the current point. */
static int eval_b(struct ccmd *cmd, struct lcm_result *rb)
{
	struct lc_env env = { cmd->names, cmd->vals, cmd->nnames };
	const char *missing = "?";

	if (cmd->b)
		return eval(cmd, cmd->b, rb, NULL);
	memset(rb, 0, sizeof(*rb));
	if (lc_predict_total(cmd->bm, &env, NULL, &rb->t, &rb->half, &missing)) {
		warnx("%s: the model uses '%s'; give it in --at or --grid", cmd->o.compare, missing);
		return -1;
	}
	return 0;
}

/* Print the point as "n=1024 p=4". */
static void print_point(const struct ccmd *cmd, FILE *f)
{
	for (int a = 0; a < cmd->nnames; a++)
		fprintf(f, "%s%s=%g", a ? " " : "", cmd->names[a], cmd->vals[a]);
}

/* The measured wall time (mean tt/p of the matching runs) at the current
 * point, NaN when no run matches. */
static double measured(const struct ccmd *cmd, int *count)
{
	int tt = lc_runs_find_key(cmd->runs, "tt", 2), key[LC_GRID_MAXAXES];
	double sum = 0;

	*count = 0;
	for (int a = 0; a < cmd->g.naxes; a++)
		key[a] = lc_runs_find_key(cmd->runs, cmd->g.axis[a].name, strlen(cmd->g.axis[a].name));
	for (size_t r = 0; tt >= 0 && r < lc_runs_count(cmd->runs); r++) {
		double v, p = NAN, t;
		int ok = lc_runs_get(cmd->runs, r, tt, &t) == LC_CELL_VALUE;

		for (int a = 0; a < cmd->g.naxes && ok; a++) {
			ok = key[a] >= 0 && lc_runs_get(cmd->runs, r, key[a], &v) == LC_CELL_VALUE &&
			     fabs(v - cmd->vals[a]) <= 1e-9 * fmax(1, fabs(v));
			if (!strcmp(cmd->g.axis[a].name, "p"))
				p = v;
		}
		if (ok && p > 0) {
			sum += t / p;
			(*count)++;
		}
	}
	return *count ? sum / *count : NAN;
}

/* --at: the categories, T(E), comparison, measurement. */
static int compose_one(struct ccmd *cmd)
{
	struct lcm_result r, rb;
	double p;

	if (cmd->o.explain) {
		printf("composition of %s at ", cmd->o.structure ? cmd->o.structure : cmd->o.src[0]);
		print_point(cmd, stdout);
		printf(":\n");
	}
	if (eval(cmd, cmd->a, &r, cmd->o.explain ? stdout : NULL))
		return -1;
	p = r.p;
	printf("lostcycles compose: %s at ", cmd->o.structure ? cmd->o.structure : cmd->o.src[0]);
	print_point(cmd, stdout);
	printf("\n%-4s %-34s %14s %12s %12s\n", "cat", "", "C(E) seconds", "+/- (90%)", "C(E)/p");
	for (int k = 0; k < LC_NCAT; k++)
		if (r.c[k] != 0 || r.hc[k] != 0)
			printf("%-4s %-34s %14.6g %12.4g %12.6g\n", lc_cat_info(k)->key, lc_cat_info(k)->desc,
			       r.c[k], r.hc[k], r.c[k] / p);
	printf("T(E) = sum C(E)/p = %.6g s  (90%% prediction interval %.6g .. %.6g)\n", r.t, r.t - r.half,
	       r.t + r.half);
	if (cmd->o.compare) {
		const char *a = cmd->o.structure ? cmd->o.structure : cmd->o.src[0];

		if (eval_b(cmd, &rb))
			return -1;
		printf("compare: T = %.6g s with %s, %.6g s with %s: ", r.t, a, rb.t, cmd->o.compare);
		if (faster(r.t, rb.t))
			printf("%s is faster by %.1f%%\n", faster(r.t, rb.t) > 0 ? cmd->o.compare : a,
			       100 * fabs(r.t - rb.t) / fmax(r.t, rb.t));
		else
			printf("equal\n");
	}
	if (cmd->runs) {
		int n;
		double m = measured(cmd, &n);

		if (n)
			printf("measured: %.6g s (mean of %d run%s); prediction error %+.1f%%\n", m, n,
			       n == 1 ? "" : "s", 100 * (r.t - m) / m);
		else
			printf("measured: no run in %s at this point\n", cmd->o.measured);
	}
	return 0;
}

/* --grid: one row per point; with --measured, the mean relative error. */
static int compose_grid(struct ccmd *cmd)
{
	size_t n = lc_grid_count(&cmd->g);
	double sumerr = 0, maxerr = 0;
	int nerr = 0, wrong = 0, ncmp = 0;

	printf("lostcycles compose: %s over %s", cmd->o.structure ? cmd->o.structure : cmd->o.src[0],
	       cmd->o.grid);
	if (cmd->o.compare)
		printf(" (A), compared with %s (B)", cmd->o.compare);
	printf("\n");
	for (int a = 0; a < cmd->g.naxes; a++)
		printf("%10s ", cmd->names[a]);
	printf("%12s %10s", "T(E) s", "+/-");
	if (cmd->o.compare)
		printf(" %12s %6s", "T_B s", "faster");
	if (cmd->runs)
		printf(" %12s %8s", "measured s", "error");
	printf("\n");
	for (size_t i = 0; i < n; i++) {
		struct lcm_result r, rb;

		set_point(cmd, &cmd->g, i, 0);
		if (eval(cmd, cmd->a, &r, cmd->o.explain ? stdout : NULL) ||
		    (cmd->o.compare && eval_b(cmd, &rb)))
			return -1;
		for (int a = 0; a < cmd->g.naxes; a++)
			printf("%10g ", cmd->vals[a]);
		printf("%12.6g %10.4g", r.t, r.half);
		if (cmd->o.compare)
			printf(" %12.6g %6s", rb.t, faster(r.t, rb.t) < 0 ? "A" : faster(r.t, rb.t) > 0 ? "B" : "equal");
		if (cmd->runs) {
			int cnt;
			double m = measured(cmd, &cnt), e = (r.t - m) / m;

			if (cnt) {
				printf(" %12.6g %+7.1f%%", m, 100 * e);
				sumerr += fabs(e);
				maxerr = fmax(maxerr, fabs(e));
				nerr++;
				if (r.t - r.half > m || r.t + r.half < m)
					wrong++;
			} else {
				printf(" %12s %8s", "-", "-");
			}
		}
		printf("\n");
		ncmp++;
	}
	if (cmd->runs && nerr)
		printf("mean relative error %.1f%%, largest %.1f%% over %d measured points; %d outside the "
		       "90%% prediction interval\n", 100 * sumerr / nerr, 100 * maxerr, nerr, wrong);
	return 0;
}

/* T of structure a at the current point with the tuning values of point i. */
static int tune_at(struct ccmd *cmd, size_t i, double *t, double *half)
{
	struct lcm_result r;

	set_point(cmd, &cmd->tg, i, cmd->g.naxes);
	if (eval(cmd, cmd->a, &r, NULL))
		return -1;
	*t = r.t;
	*half = r.half;
	return 0;
}

/* The flat index of the tuning point with indices idx. */
static size_t tune_flat(const struct lc_grid *g, const int *idx)
{
	size_t i = 0;

	for (int a = 0; a < g->naxes; a++)
		i = i * (size_t)g->axis[a].n + (size_t)idx[a];
	return i;
}

/* Coordinate search: scan one tuning axis at a time with the others fixed,
 * until no axis improves.  *evals counts the compositions. */
static int tune_search(struct ccmd *cmd, size_t *best, double *tbest, size_t *evals)
{
	int idx[LC_GRID_MAXAXES] = { 0 }, changed = 1;
	double h;

	*evals = 1;
	if (tune_at(cmd, 0, tbest, &h))
		return -1;
	*best = 0;
	while (changed) {
		changed = 0;
		for (int a = 0; a < cmd->tg.naxes; a++) {
			int keep = idx[a];

			for (int j = 0; j < cmd->tg.axis[a].n; j++) {
				double t;

				idx[a] = j;
				(*evals)++;
				if (tune_at(cmd, tune_flat(&cmd->tg, idx), &t, &h))
					return -1;
				if (t < *tbest) {
					*tbest = t;
					keep = j;
					changed = 1;
				}
			}
			idx[a] = keep;
			*best = tune_flat(&cmd->tg, idx);
		}
	}
	return 0;
}

/* --tune: the search's minimum, checked against every point. */
static int tune(struct ccmd *cmd)
{
	size_t n = lc_grid_count(&cmd->tg), sbest, bbest = 0, evals;
	double ts, tb = INFINITY, t, h;

	set_point(cmd, &cmd->g, 0, 0);
	if (tune_search(cmd, &sbest, &ts, &evals))
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (tune_at(cmd, i, &t, &h))
			return -1;
		if (t < tb) {
			tb = t;
			bbest = i;
		}
	}
	printf("lostcycles compose: %s at %s, tuning %s\n", cmd->o.structure ? cmd->o.structure : cmd->o.src[0],
	       cmd->o.at, cmd->o.tune);
	if (tune_at(cmd, sbest, &t, &h))
		return -1;
	printf("search (%zu compositions): ", evals);
	print_point(cmd, stdout);
	printf(": T = %.6g s  (90%% prediction interval %.6g .. %.6g)\n", t, t - h, t + h);
	if (tune_at(cmd, bbest, &t, &h))
		return -1;
	printf("brute force (%zu points):  ", n);
	print_point(cmd, stdout);
	printf(": T = %.6g s  (90%% prediction interval %.6g .. %.6g)\n", t, t - h, t + h);
	printf("%s\n", ts <= tb ? "the search found the brute-force minimum"
				: "the search stopped in a local minimum: take the brute-force point");
	return 0;
}

/* The file name of path without its folders. */
static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Write the plot data: one block per value of the second axis, rows of
 * x, T, its half width, T of --compare, the measurement.  0 or -1 (printed,
 * except for errno failures, which the caller reports). */
static int plot_data(struct ccmd *cmd, const char *data, int nb)
{
	const struct lc_axis *x = &cmd->g.axis[0];
	FILE *f = lc_out_fopen(data);

	if (!f)
		return -1;
	set_point(cmd, &cmd->g, 0, 0);
	for (int b = 0; b < nb; b++) {
		if (cmd->g.naxes > 1)
			cmd->vals[1] = cmd->g.axis[1].v[b];
		fprintf(f, "%s# %s=%g\n", b ? "\n\n" : "", cmd->g.naxes > 1 ? cmd->names[1] : "all",
			cmd->g.naxes > 1 ? cmd->vals[1] : 0.0);
		for (int i = 0; i < x->n; i++) {
			struct lcm_result r, rb = { .t = NAN };
			int cnt = 0;
			double m = NAN;

			cmd->vals[0] = x->v[i];
			if (eval(cmd, cmd->a, &r, NULL) || (cmd->o.compare && eval_b(cmd, &rb))) {
				fclose(f);
				errno = 0;
				return -1;
			}
			if (cmd->runs)
				m = measured(cmd, &cnt);
			fprintf(f, "%.10g %.10g %.10g %.10g %.10g\n", x->v[i], r.t, r.half, rb.t, m);
		}
	}
	return fclose(f) ? -1 : 0;
}

/* Write the gnuplot script for the data file: the prediction with its
 * interval, the other structure's, the measurements. */
static int plot_script(const struct ccmd *cmd, const char *gp, const char *data, int nb)
{
	const char *a = cmd->o.structure ? cmd->o.structure : cmd->o.src[0];
	const char *na = base_name(a), *nbn = cmd->o.compare ? base_name(cmd->o.compare) : "";
	FILE *f = lc_out_fopen(gp);

	if (!f)
		return -1;
	/* names, titles and paths reach gnuplot only as quoted literals */
	fprintf(f, "# written by lostcycles compose\nset xlabel ");
	lc_gp_fputs(f, cmd->names[0]);
	fprintf(f, "\nset ylabel \"T (seconds)\"\nset logscale y\nset title ");
	lc_gp_fputs(f, a);
	fprintf(f, " noenhanced\nset key left top noenhanced\nplot");
	for (int b = 0; b < nb; b++) {
		char label[64] = "";

		if (cmd->g.naxes > 1)
			snprintf(label, sizeof(label), " %s=%g", cmd->names[1], cmd->g.axis[1].v[b]);
		fprintf(f, "%s ", b ? ", \\\n    " : "");
		lc_gp_fputs(f, data);
		fprintf(f, " index %d using 1:2:3 with yerrorlines lw 2 title ", b);
		lc_gp_fprintf(f, "%s predicted%s", na, label);
		if (cmd->o.compare) {
			fprintf(f, ", \\\n     ");
			lc_gp_fputs(f, data);
			fprintf(f, " index %d using 1:4 with linespoints dt 2 title ", b);
			lc_gp_fprintf(f, "%s predicted%s", nbn, label);
		}
		if (cmd->runs) {
			fprintf(f, ", \\\n     ");
			lc_gp_fputs(f, data);
			fprintf(f, " index %d using 1:5 with points pt 7 ps 1.5 title ", b);
			lc_gp_fprintf(f, "%s measured%s", na, label);
		}
	}
	fprintf(f, "\n");
	return fclose(f) ? -1 : 0;
}

/* --plot: the data, the script, and the PNG when gnuplot is there. */
static int plot(struct ccmd *cmd)
{
	char base[4096], gp[4200], data[4200], msg[4400];
	int nb = cmd->g.naxes > 1 ? cmd->g.axis[1].n : 1, rc;
	size_t blen = strlen(cmd->o.plot);

	if (blen > 4 && !strcmp(cmd->o.plot + blen - 4, ".png"))
		blen -= 4;
	snprintf(base, sizeof(base), "%.*s", (int)blen, cmd->o.plot);
	snprintf(gp, sizeof(gp), "%s.gp", base);
	snprintf(data, sizeof(data), "%s.data", base);
	if (lc_plot_prepare(gp, data, cmd->o.plot, cmd->o.force ? LC_OUT_FORCE : LC_OUT_KEEP, msg,
			    sizeof(msg))) {
		warnx("--plot: %s", msg);
		return -1;
	}
	if (plot_data(cmd, data, nb) || plot_script(cmd, gp, data, nb)) {
		if (errno)
			warnx("--plot %s: %s", cmd->o.plot, strerror(errno));
		return -1;
	}
	rc = lc_plot_png(gp, cmd->o.plot);
	if (rc == -ENOENT)
		printf("wrote %s and %s (gnuplot not installed: no PNG)\n", gp, data);
	else if (rc)
		warnx("gnuplot failed on %s", gp);
	else
		printf("wrote %s (and %s, %s)\n", cmd->o.plot, gp, data);
	return rc && rc != -ENOENT ? -1 : 0;
}

/* Read the --measured runs. */
static int read_runs(struct ccmd *cmd)
{
	struct lc_runs_error e = { 0 };
	int rc = lc_runs_read(cmd->o.measured, &cmd->runs, &e);

	if (rc == -EINVAL)
		warnx("%s:%d: %s", cmd->o.measured, e.line, e.msg);
	else if (rc)
		warnx("%s: %s", cmd->o.measured, strerror(-rc));
	return rc ? -1 : 0;
}

/* Free everything cmd holds. */
static void ccmd_free(struct ccmd *cmd)
{
	lcm_free(cmd->a);
	lcm_free(cmd->b);
	lc_model_free(cmd->bm);
	free(cmd->text);
	lc_grid_free(&cmd->g);
	lc_grid_free(&cmd->tg);
	lc_runs_free(cmd->runs);
	lc_strace_free(&cmd->trace);
}

/* Run what the options ask for. */
static int run(struct ccmd *cmd)
{
	if (cmd->o.extract) {
		if (do_extract(cmd))
			return -1;
		if (!cmd->a)
			return 0;
	} else if (!(cmd->a = read_structure(cmd->o.structure))) {
		return -1;
	}
	if ((cmd->o.critical && read_trace(cmd)) || (cmd->o.compare && read_compare(cmd)) ||
	    (cmd->o.measured && read_runs(cmd)) || setup(cmd))
		return -1;
	if (cmd->o.tune)
		return tune(cmd);
	if (lc_grid_count(&cmd->g) == 1) {
		set_point(cmd, &cmd->g, 0, 0);
		if (compose_one(cmd))
			return -1;
	} else if (compose_grid(cmd)) {
		return -1;
	}
	return cmd->o.plot ? plot(cmd) : 0;
}

/* "lostcycles compose".  See lc_cmd.h. */
int lc_cmd_compose(int argc, char **argv)
{
	struct ccmd cmd = { .a = NULL };
	int r = parse_opts(argc, argv, &cmd.o), rc;

	if (r)
		return r > 0 ? 0 : 2;
	rc = run(&cmd);
	ccmd_free(&cmd);
	return rc ? 1 : 0;
}
