/*
 * predict.c — "lostcycles predict": evaluate a model file (from "lostcycles
 * fit --emit" or written by hand) at points or over a grid: per-category
 * lost cycles, T(E) = sum C(E)/p with a prediction interval, speedup,
 * efficiency and scaling factor; what-if scenarios; comparison with a second
 * model and its crossover points; plots, including the stacked-bar predicate
 * profile of a runs file.
 */
#include "lc_profile.h"
#include "lc_cmd.h"
#include "lca_grid.h"
#include "lca_model.h"
#include "lca_models.h"
#include "gp_quote.h"
#include "lca_plot.h"
#include "lca_ppchart.h"
#include "lca_predict.h"
#include "lca_runs.h"

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "lostcycles predict"
#define MAXCROSS 16

/* The command line. */
struct opts {
	const char *model, *at, *grid, *compare, *plot, *profile, *extract;
	const char *whatif[LC_WHATIF_MAX];
	int nwhatif, speedup, force;
	size_t max_points;	/* --max-points */
};

/* Everything a run holds; freed by pcmd_free. */
struct pcmd {
	struct opts o;
	struct lc_model *a, *b;
	struct lc_grid g;
	struct lc_whatif w[LC_WHATIF_MAX];
	const char *names[LC_GRID_MAXAXES];
	double vals[LC_GRID_MAXAXES];
	struct lc_env env;
	int pax;		/* the grid axis of p, or -1 */
	int has_t;		/* the model has every category T(E) needs, and p is given */
	char lacks[128];	/* the categories T(E) needs that the model lacks */
};

/* Print the usage text to f. */
static void usage(FILE *f)
{
	fprintf(f,
"usage: lostcycles predict -m MODEL (--at \"VAR=V ...\" | --grid \"VAR=LIST ...\") [options]\n"
"       lostcycles predict --profile RUNS --plot FILE.png [-x EXPR]\n"
"\n"
"Predict each category's C(E) from a model file written by 'lostcycles fit\n"
"--emit' (or by hand), and T(E) = sum over categories C(E)/p with a 90%%\n"
"prediction interval when the file has rt li ip sl cl rc (or tt alone) and p\n"
"is given.  Only the variables the models use are needed.\n"
"\n"
"  -m, --model FILE       the model file\n"
"  -a, --at \"n=1024 p=26\"  one point: each category's C(E), T(E), speedup\n"
"  -G, --grid \"n=64,128,...,1024 p=1..26\"\n"
"                         every combination: each C(E), and T(E) when it exists;\n"
"                         LIST items: numbers, A..B[:STEP], ...\n"
"  -w, --what-if SCENARIO e.g. \"li=0\", \"sl*=0.5\", \"li=0 sl*=0.5\", balanced,\n"
"                         nowait, nocomm, nocontention (repeatable)\n"
"  -C, --compare MODEL_B  where B beats the model, and the crossover points\n"
"                         along the first grid variable\n"
"  -P, --plot FILE.png    plot T (or speedup) over the first grid variable, one\n"
"                         curve per value of the second (FILE.gp, FILE.data too)\n"
"      --speedup          plot speedup instead of time\n"
"      --profile RUNS     with --plot: the stacked-bar predicate profile of the\n"
"                         runs in RUNS (seconds per category over p)\n"
"  -x, --extract EXPR     with --profile: only runs where EXPR holds\n"
"      --max-points N     refuse a grid of more than N points (default 1000000)\n"
"      --force            replace plot files that exist (else they are refused)\n"
"  -h, --help             this text\n"
"\n"
"See lostcycles-predict(1).\n");
}

enum { O_SPEEDUP = 256, O_PROFILE, O_FORCE, O_MAXPOINTS };

/* Parse the command line into o.  Returns 0, 1 after --help, -1 on error. */
static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "model", required_argument, 0, 'm' }, { "at", required_argument, 0, 'a' },
		{ "grid", required_argument, 0, 'G' }, { "what-if", required_argument, 0, 'w' },
		{ "compare", required_argument, 0, 'C' }, { "plot", required_argument, 0, 'P' },
		{ "speedup", no_argument, 0, O_SPEEDUP }, { "profile", required_argument, 0, O_PROFILE },
		{ "extract", required_argument, 0, 'x' }, { "help", no_argument, 0, 'h' },
		{ "force", no_argument, 0, O_FORCE }, { "max-points", required_argument, 0, O_MAXPOINTS },
		{ 0, 0, 0, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	o->max_points = LC_GRID_DEFAULT_MAX_POINTS;
	while ((c = getopt_long(argc, argv, "m:a:G:w:C:P:x:h", lo, NULL)) != -1) {
		switch (c) {
		case 'm': o->model = optarg; break;
		case 'a': o->at = optarg; break;
		case 'G': o->grid = optarg; break;
		case 'C': o->compare = optarg; break;
		case 'P': o->plot = optarg; break;
		case 'x': o->extract = optarg; break;
		case O_SPEEDUP: o->speedup = 1; break;
		case O_PROFILE: o->profile = optarg; break;
		case O_FORCE: o->force = 1; break;
		case O_MAXPOINTS:
			if (lc_opt_max_points(optarg, &o->max_points))
				return -1;
			break;
		case 'h': usage(stdout); return 1;
		case 'w':
			if (o->nwhatif == LC_WHATIF_MAX) {
				warnx("at most %d --what-if scenarios", LC_WHATIF_MAX);
				return -1;
			}
			o->whatif[o->nwhatif++] = optarg;
			break;
		default:
			warnx("unknown option or missing value '%s'; see '" PROG " --help'",
				argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc) {
		warnx("unexpected argument '%s'; see '" PROG " --help'", argv[optind]);
		return -1;
	}
	return 0;
}

/* Read a model file, reporting errors; NULL on failure. */
static struct lc_model *read_model(const char *path)
{
	struct lc_model *m;
	char msg[256];
	int line, rc = lc_model_read(path, &m, &line, msg, sizeof(msg));

	if (rc == -EINVAL)
		warnx("%s:%d: %s", path, line, msg);
	else if (rc)
		warnx("%s: %s", path, strerror(-rc));
	return rc ? NULL : m;
}

/* True when some model in cmd uses variable name. */
static int known_var(const struct pcmd *cmd, const char *name)
{
	return !strcmp(name, "p") || lc_model_var(cmd->a, name) >= 0 ||
	       (cmd->b && lc_model_var(cmd->b, name) >= 0);
}

/* The variables of model m as "n p" into buf. */
static void var_list(const struct lc_model *m, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int v = 0; v < m->nvars && used < len; v++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", v ? " " : "", m->vars[v]);
}

/* Parse --at/--grid into cmd->g and check the variables. */
static int setup_grid(struct pcmd *cmd)
{
	const char *spec = cmd->o.at ? cmd->o.at : cmd->o.grid;
	char msg[256], vars[256];

	if (!!cmd->o.at == !!cmd->o.grid) {
		warnx("give one of --at or --grid");
		return -1;
	}
	if (lc_grid_parse(spec, &cmd->g, msg, sizeof(msg)) ||
	    lc_grid_cap(&cmd->g, cmd->o.max_points, msg, sizeof(msg))) {
		warnx("%s '%s': %s", cmd->o.at ? "--at" : "--grid", spec, msg);
		return -1;
	}
	for (int i = 0; i < cmd->g.naxes; i++) {
		if (known_var(cmd, cmd->g.axis[i].name))
			continue;
		var_list(cmd->a, vars, sizeof(vars));
		warnx("unknown variable '%s' (the model uses: %s)",
			cmd->g.axis[i].name, vars);
		return -1;
	}
	cmd->pax = lc_grid_find(&cmd->g, "p");
	cmd->has_t = !lc_predict_needs(cmd->a, cmd->lacks, sizeof(cmd->lacks)) && cmd->pax >= 0;
	if (!cmd->has_t && (cmd->o.nwhatif || cmd->o.compare || cmd->o.plot)) {
		fprintf(stderr, PROG ": %s needs T(E) = sum C(E)/p, ", cmd->o.nwhatif ? "--what-if" :
			cmd->o.compare ? "--compare" : "--plot");
		if (cmd->lacks[0])
			fprintf(stderr, "but %s has no model for %s\n", cmd->o.model, cmd->lacks);
		else
			fprintf(stderr, "which needs p in %s\n", cmd->o.at ? "--at" : "--grid");
		return -1;
	}
	if (cmd->b && lc_predict_needs(cmd->b, vars, sizeof(vars))) {
		warnx("--compare needs T(E), but %s has no model for %s",
			cmd->o.compare, vars);
		return -1;
	}
	for (int i = 0; i < cmd->g.naxes; i++)
		cmd->names[i] = cmd->g.axis[i].name;
	cmd->env = (struct lc_env){ cmd->names, cmd->vals, cmd->g.naxes };
	return 0;
}

/* Parse the --what-if scenarios. */
static int setup_whatif(struct pcmd *cmd)
{
	char msg[256];

	for (int i = 0; i < cmd->o.nwhatif; i++)
		if (lc_whatif_parse(cmd->o.whatif[i], &cmd->w[i], msg, sizeof(msg))) {
			warnx("%s", msg);
			return -1;
		}
	return 0;
}

/* Set cmd->vals to grid point i. */
static void set_point(struct pcmd *cmd, size_t i)
{
	int idx[LC_GRID_MAXAXES];

	lc_grid_index(&cmd->g, i, idx);
	for (int a = 0; a < cmd->g.naxes; a++)
		cmd->vals[a] = cmd->g.axis[a].v[idx[a]];
}

/* T of model m at the current point, printing an error naming a missing
 * variable.  Returns 0 or -1. */
static int total(const struct pcmd *cmd, const struct lc_model *m, const struct lc_whatif *w,
		 double *t, double *half)
{
	const char *missing = "?";
	int rc = lc_predict_total(m, &cmd->env, w, t, half, &missing);

	if (rc == -EINVAL && !strcmp(missing, "p"))
		warnx("p must be positive");
	else if (rc)
		warnx("the model uses '%s'; give it in --at or --grid", missing);
	return rc ? -1 : 0;
}

/* T of m at the current point with p replaced by pv (for speedup and SF). */
static int total_at_p(struct pcmd *cmd, const struct lc_model *m, double pv, double *t)
{
	double save = cmd->vals[cmd->pax], h;
	int rc;

	cmd->vals[cmd->pax] = pv;
	rc = total(cmd, m, NULL, t, &h);
	cmd->vals[cmd->pax] = save;
	return rc;
}

/* Say which categories T(E) leaves out for want of a model. */
static void note_excluded(const struct pcmd *cmd)
{
	char ex[128];
	int n = lc_predict_excluded(cmd->a, ex, sizeof(ex));

	if (cmd->has_t && n)
		printf("note: T(E) excludes %s: %s has no model for %s (not measured in the runs, "
		       "e.g. without counters, or not fitted), so T counts %s as 0\n", ex,
		       cmd->o.model, n == 1 ? "it" : "them", n == 1 ? "it" : "them");
}

/* Say when p goes beyond the CPUs of any machine the runs were measured
 * on (the model file's "%cpus"): an extrapolation past anything measured. */
static void note_cpus(const struct pcmd *cmd, double pmax)
{
	if (cmd->a->cpus && pmax > cmd->a->cpus)
		printf("note: p up to %g exceeds the %u CPUs of the machine the runs were measured "
		       "on: the prediction extrapolates past anything measured\n", pmax, cmd->a->cpus);
}

/* Say why T(E) is not printed: categories missing, or no p. */
static void no_total(const struct pcmd *cmd)
{
	if (cmd->lacks[0])
		printf("T(E) not computed: %s has no model for %s (T = sum C(E)/p needs rt li ip sl "
		       "cl, or tt alone)\n", cmd->o.model, cmd->lacks);
	else
		printf("T(E) = sum C(E)/p not computed: give p\n");
}

/* Predict category cat at the current point, printing an error naming a
 * missing variable.  Returns 0 or -1. */
static int category(const struct pcmd *cmd, const char *cat, double *c, double *h)
{
	const char *missing = "?";

	if (!lc_predict_cat(cmd->a, cat, &cmd->env, c, h, &missing))
		return 0;
	warnx("the model of %s uses '%s'; give it in %s", cat, missing,
		cmd->o.at ? "--at" : "--grid");
	return -1;
}

/* Print the point as "n=1024 p=26". */
static void print_point(const struct pcmd *cmd)
{
	for (int a = 0; a < cmd->g.naxes; a++)
		printf("%s%s=%g", a ? " " : "", cmd->names[a], cmd->vals[a]);
}

/* --at: every category; T(E), speedup and efficiency when the model has
 * what T needs; what-ifs, comparison. */
static int predict_one(struct pcmd *cmd)
{
	double t, h, t1, c, ch, p = cmd->pax >= 0 ? cmd->vals[cmd->pax] : NAN;

	printf("lostcycles predict: %s at ", cmd->o.model);
	print_point(cmd);
	printf("\n%-4s %-34s %14s %12s", "cat", "", "C(E) seconds", "+/- (90%)");
	printf(cmd->pax >= 0 ? " %12s\n" : "\n", "C(E)/p");
	for (int i = 0; i < cmd->a->ncats; i++) {
		const char *cat = cmd->a->cats[i].cat;
		const struct lc_cat_info *info = lc_cat_info(lc_key_lookup(cat));

		if (category(cmd, cat, &c, &ch))
			return -1;
		printf("%-4s %-34s %14.6g %12.4g", cat, info ? info->desc : "", c, ch);
		if (cmd->pax >= 0)
			printf(" %12.6g", c / p);
		printf("\n");
	}
	if (cmd->pax >= 0)
		note_cpus(cmd, p);
	if (!cmd->has_t) {
		no_total(cmd);
		return 0;
	}
	if (total(cmd, cmd->a, NULL, &t, &h) || total_at_p(cmd, cmd->a, 1, &t1))
		return -1;
	printf("T(E) = sum C(E)/p = %.6g s  (90%% prediction interval %.6g .. %.6g)\n", t, t - h, t + h);
	printf("speedup over p=1: %.4g  efficiency: %.4g\n", t1 / t, t1 / t / p);
	note_excluded(cmd);
	for (int i = 0; i < cmd->o.nwhatif; i++) {
		double tw, hw;

		if (total(cmd, cmd->a, &cmd->w[i], &tw, &hw))
			return -1;
		printf("what-if %-20s T = %.6g s  gain %.4g s (%.1f%%)  speedup %.4g\n", cmd->w[i].text,
		       tw, t - tw, 100 * (t - tw) / t, t1 / tw);
	}
	if (cmd->b) {
		double tb, hb;

		if (total(cmd, cmd->b, NULL, &tb, &hb))
			return -1;
		printf("compare: T = %.6g s with %s, %.6g s with %s: %s is faster by %.1f%%\n", t,
		       cmd->o.model, tb, cmd->o.compare, tb < t ? cmd->o.compare : cmd->o.model,
		       100 * fabs(t - tb) / fmax(t, tb));
	}
	return 0;
}

/* Print the column headers of the grid table. */
static void grid_header(const struct pcmd *cmd)
{
	for (int a = 0; a < cmd->g.naxes; a++)
		printf("%s%10s", a ? " " : "", cmd->names[a]);
	for (int i = 0; i < cmd->a->ncats; i++)
		printf(" %12s", cmd->a->cats[i].cat);
	if (cmd->has_t)
		printf(" %12s %10s %9s %7s %7s", "T(E) s", "+/-", "speedup", "effic", "SF");
	for (int i = 0; i < cmd->o.nwhatif; i++)
		printf("  %12.12s %6s", cmd->w[i].text, "gain%");
	if (cmd->b)
		printf(" %12s %s", "T_B s", "faster");
	printf("\n");
}

/* The smallest (sign 1) or largest (sign -1) p of the grid. */
static double end_p(const struct pcmd *cmd, double sign)
{
	const struct lc_axis *ax = &cmd->g.axis[cmd->pax];
	double m = ax->v[0];

	for (int i = 1; i < ax->n; i++)
		m = sign * ax->v[i] < sign * m ? ax->v[i] : m;
	return m;
}

/* The smallest p of the grid (the base of the scaling factor). */
static double min_p(const struct pcmd *cmd)
{
	return end_p(cmd, 1);
}

/* Print T(E), its interval, speedup, efficiency and SF at the current
 * point, then the what-ifs and the comparison. */
static int grid_total(struct pcmd *cmd, double pmin)
{
	double t, h, t1, tmin, p = cmd->vals[cmd->pax];

	if (total(cmd, cmd->a, NULL, &t, &h) || total_at_p(cmd, cmd->a, 1, &t1) ||
	    total_at_p(cmd, cmd->a, pmin, &tmin))
		return -1;
	printf(" %12.6g %10.4g %9.4g %7.4f %7.4f", t, h, t1 / t, t1 / t / p, (tmin / t) / (p / pmin));
	for (int i = 0; i < cmd->o.nwhatif; i++) {
		double tw, hw;

		if (total(cmd, cmd->a, &cmd->w[i], &tw, &hw))
			return -1;
		printf("  %12.6g %6.1f", tw, 100 * (t - tw) / t);
	}
	if (cmd->b) {
		double tb, hb;

		if (total(cmd, cmd->b, NULL, &tb, &hb))
			return -1;
		printf(" %12.6g %s", tb, tb < t ? "B" : tb > t ? "A" : "equal");
	}
	return 0;
}

/* Print one row of the grid table at the current point: the variables,
 * each category's C(E), then T(E) and what follows when it exists. */
static int grid_row(struct pcmd *cmd, double pmin)
{
	for (int a = 0; a < cmd->g.naxes; a++)
		printf("%s%10g", a ? " " : "", cmd->vals[a]);
	for (int i = 0; i < cmd->a->ncats; i++) {
		double c, h;

		if (category(cmd, cmd->a->cats[i].cat, &c, &h))
			return -1;
		printf(" %12.6g", c);
	}
	if (cmd->has_t && grid_total(cmd, pmin))
		return -1;
	printf("\n");
	return 0;
}

/* Report crossovers along the first axis for every combination of the
 * other axes (first axis index fixed at 0 in the enumeration). */
static int crossovers(struct pcmd *cmd)
{
	const struct lc_axis *ax = &cmd->g.axis[0];
	size_t n = lc_grid_count(&cmd->g), stride = n / (size_t)ax->n;
	int total_found = 0;

	printf("crossovers along %s (A = %s, B = %s):\n", ax->name, cmd->o.model, cmd->o.compare);
	for (size_t i = 0; i < stride; i++) {
		double out[MAXCROSS];
		int below[MAXCROSS], k;
		const char *missing = "?";

		set_point(cmd, i);
		k = lc_predict_crossovers(cmd->a, cmd->b, &cmd->env, 0, ax->v, ax->n, out, below,
					  MAXCROSS, &missing);
		if (k < 0) {
			warnx("the models use '%s'; give it in --grid", missing);
			return -1;
		}
		for (int j = 0; j < k && j < MAXCROSS; j++) {
			printf("  %s = %.6g", ax->name, out[j]);
			for (int a = 1; a < cmd->g.naxes; a++)
				printf(" %s=%g", cmd->names[a], cmd->vals[a]);
			printf(": %s faster below, %s faster above\n", below[j] ? "B" : "A",
			       below[j] ? "A" : "B");
		}
		total_found += k;
	}
	if (!total_found)
		printf("  none in the grid\n");
	return 0;
}

/* --grid: the table, then the crossovers with --compare. */
static int predict_grid(struct pcmd *cmd)
{
	size_t n = lc_grid_count(&cmd->g);
	double pmin = cmd->has_t ? min_p(cmd) : NAN;

	printf("lostcycles predict: %s over %s", cmd->o.model, cmd->o.grid);
	if (cmd->b)
		printf(" (A), compared with %s (B)", cmd->o.compare);
	printf("\nC(E) in seconds per category");
	if (cmd->has_t)
		printf("; T(E) = sum C(E)/p; speedup and efficiency against p=1; "
		       "SF = (T(p=%g)/T)/(p/%g)\n", pmin, pmin);
	else
		printf("\n");
	grid_header(cmd);
	for (size_t i = 0; i < n; i++) {
		set_point(cmd, i);
		if (grid_row(cmd, pmin))
			return -1;
	}
	if (!cmd->has_t)
		no_total(cmd);
	note_excluded(cmd);
	if (cmd->pax >= 0)
		note_cpus(cmd, end_p(cmd, -1));
	return cmd->b && cmd->g.axis[0].n > 1 ? crossovers(cmd) : 0;
}

/* Strip a ".png" suffix: the base name for the .gp and .data files. */
static void plot_base(const char *png, char *buf, size_t len)
{
	size_t n = strlen(png);

	if (n > 4 && !strcmp(png + n - 4, ".png"))
		n -= 4;
	snprintf(buf, len, "%.*s", (int)n, png);
}

/* Write the plot data: one block per value of the second axis, rows of the
 * first axis value, T (or speedup) for A and B. */
static int plot_data(struct pcmd *cmd, const char *path, int *nblocks)
{
	const struct lc_axis *x = &cmd->g.axis[0];
	int nb = cmd->g.naxes > 1 ? cmd->g.axis[1].n : 1, rc = 0;
	FILE *f = lc_out_fopen(path);

	if (!f)
		return -errno;
	set_point(cmd, 0);
	for (int b = 0; b < nb && !rc; b++) {
		if (cmd->g.naxes > 1)
			cmd->vals[1] = cmd->g.axis[1].v[b];
		fprintf(f, "%s# %s=%g\n", b ? "\n\n" : "", cmd->g.naxes > 1 ? cmd->names[1] : "all",
			cmd->g.naxes > 1 ? cmd->vals[1] : 0.0);
		for (int i = 0; i < x->n && !rc; i++) {
			double t, h, t1 = 1, tb = NAN, hb;

			cmd->vals[0] = x->v[i];
			rc = total(cmd, cmd->a, NULL, &t, &h) ||
			     (cmd->o.speedup && total_at_p(cmd, cmd->a, 1, &t1)) ||
			     (cmd->b && total(cmd, cmd->b, NULL, &tb, &hb));
			if (cmd->b && cmd->o.speedup && !rc)
				tb = t1 / tb;
			fprintf(f, "%.10g %.10g %.10g %.10g\n", x->v[i], cmd->o.speedup ? t1 / t : t,
				h, tb);
		}
	}
	*nblocks = nb;
	return fclose(f) || rc ? -EIO : 0;
}

/* Write the plot script for the data file. */
static int plot_script(const struct pcmd *cmd, const char *path, const char *data, int nb)
{
	FILE *f = lc_out_fopen(path);

	if (!f)
		return -errno;
	/* names, titles and paths reach gnuplot only as quoted literals */
	fprintf(f, "# written by lostcycles predict\nset xlabel ");
	lc_gp_fputs(f, cmd->names[0]);
	fprintf(f, "\nset ylabel \"%s\"\nset title ",
		cmd->o.speedup ? "speedup" : "predicted T(E) (seconds)");
	lc_gp_fputs(f, cmd->o.model);
	fprintf(f, " noenhanced\nset key left top noenhanced\nplot");
	for (int b = 0; b < nb; b++) {
		char label[64] = "A";

		if (cmd->g.naxes > 1)
			snprintf(label, sizeof(label), "%s=%g", cmd->names[1], cmd->g.axis[1].v[b]);
		fprintf(f, "%s ", b ? ", \\\n    " : "");
		lc_gp_fputs(f, data);
		fprintf(f, " index %d using 1:2 with linespoints lw 2 title ", b);
		lc_gp_fprintf(f, "%s%s", cmd->b ? "A " : "", label);
		if (cmd->b) {
			fprintf(f, ", \\\n     ");
			lc_gp_fputs(f, data);
			fprintf(f, " index %d using 1:4 with linespoints dt 2 title ", b);
			lc_gp_fprintf(f, "B %s", label);
		}
	}
	fprintf(f, "\n");
	return fclose(f) ? -errno : 0;
}

/* Run gnuplot for the PNG and say what was written. */
static int plot_finish(const char *gp, const char *data, const char *png)
{
	int rc = lc_plot_png(gp, png);

	if (rc == -ENOENT) {
		printf("wrote %s and %s (gnuplot not installed: no PNG)\n", gp, data);
		return 0;
	}
	if (rc) {
		warnx("gnuplot failed on %s", gp);
		return -1;
	}
	printf("wrote %s (and %s, %s)\n", png, gp, data);
	return 0;
}

/* --plot with a model: T or speedup over the grid. */
static int plot_model(struct pcmd *cmd)
{
	char base[4096], gp[4200], data[4200], msg[4400];
	int nb = 0, rc;

	plot_base(cmd->o.plot, base, sizeof(base));
	snprintf(gp, sizeof(gp), "%s.gp", base);
	snprintf(data, sizeof(data), "%s.data", base);
	if (lc_plot_prepare(gp, data, cmd->o.plot, cmd->o.force ? LC_OUT_FORCE : LC_OUT_KEEP, msg,
			    sizeof(msg))) {
		warnx("--plot: %s", msg);
		return -1;
	}
	rc = plot_data(cmd, data, &nb);
	if (!rc)
		rc = plot_script(cmd, gp, data, nb);
	if (rc) {
		warnx("--plot %s: %s", cmd->o.plot, strerror(-rc));
		return -1;
	}
	return plot_finish(gp, data, cmd->o.plot);
}

/* --profile RUNS --plot PNG: the stacked-bar predicate profile chart. */
static int profile_chart(const struct opts *o)
{
	char why[512];

	if (!lc_ppchart_write(o->profile, o->extract, o->plot, o->force ? LC_OUT_FORCE : LC_OUT_KEEP,
			      stdout, why, sizeof(why)))
		return 0;
	warnx("%s", why);
	return 1;
}

/* Free everything cmd holds. */
static void pcmd_free(struct pcmd *cmd)
{
	lc_model_free(cmd->a);
	lc_model_free(cmd->b);
	lc_grid_free(&cmd->g);
}

/* "lostcycles predict".  See lc_cmd.h. */
int lc_cmd_predict(int argc, char **argv)
{
	struct pcmd cmd = { .pax = -1 };
	int r = parse_opts(argc, argv, &cmd.o), ok;

	if (r)
		return r > 0 ? 0 : 2;
	if (cmd.o.profile) {
		if (!cmd.o.plot) {
			warnx("--profile needs --plot FILE.png");
			return 2;
		}
		return profile_chart(&cmd.o);
	}
	if (!cmd.o.model) {
		warnx("-m MODEL is required; see '" PROG " --help'");
		return 2;
	}
	ok = (cmd.a = read_model(cmd.o.model)) &&
	     (!cmd.o.compare || (cmd.b = read_model(cmd.o.compare))) &&
	     !setup_grid(&cmd) && !setup_whatif(&cmd);
	if (ok && lc_grid_count(&cmd.g) == 1) {
		set_point(&cmd, 0);
		ok = !predict_one(&cmd);
	} else if (ok) {
		ok = !predict_grid(&cmd);
	}
	if (ok && cmd.o.plot)
		ok = !plot_model(&cmd);
	pcmd_free(&cmd);
	return ok ? 0 : 1;
}
