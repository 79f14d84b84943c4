/*
 * cmd_compose.c — "lostcycles compose": lost cycles modeling (the thesis's
 * lcm, chapter 6).  Its options; the composition, its tables and its plot
 * are postproc/lcm/lcm_compose.c.
 */
#include "lc_cmd.h"
#include "lc_calib.h"
#include "lc_opt.h"
#include "lc_util.h"
#include "lca_grid.h"
#include "lcm_compose.h"

#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#define PROG "lostcycles compose"

static const char *const usage[] = {
	"lostcycles compose -s STRUCTURE (--at \"VAR=V ...\" | --grid \"VAR=LIST ...\") [options]",
	"lostcycles compose --extract SOURCE.c... [-o STRUCTURE] [--at ... | --grid ...]",
	"lostcycles compose -s STRUCTURE --at \"VAR=V ...\" --tune \"VAR=LIST ...\"",
	"",
	"Compose the lost cycles models of a program's fragments into a model of the",
	"whole program along its parallel structure (docs/structure.md), and predict",
	"T(E) = sum C(E)/p with a 90% prediction interval, like 'lostcycles predict'.",
	NULL,
};

/* --memory[=FILE]: the file, or "" for the default one. */
static int opt_memory(const struct lc_opt *opt, const char *arg)
{
	*(const char **)opt->field = arg ? arg : "";
	return 0;
}

/* A structure or sources to extract one from: -1 to go on, else 2 after
 * a message. */
static int need_input(const struct lc_compose_opts *o)
{
	if (o->extract && !o->nsrc) {
		warnx("--extract needs SOURCE files");
		return 2;
	}
	if (!o->extract && !o->structure) {
		warnx("-s STRUCTURE (or --extract SOURCE...) is required; see '" PROG " --help'");
		return 2;
	}
	return -1;
}

/* The SOURCE operands of --extract into o.  -1 to go on, or 2 after a
 * message. */
static int take_sources(struct lc_compose_opts *o, char **src, int n)
{
	if (n && !o->extract) {
		warnx("unexpected argument '%s'; see '" PROG " --help'", src[0]);
		return 2;
	}
	if (n > LC_COMPOSE_MAXSRC) {
		warnx("at most %d source files", LC_COMPOSE_MAXSRC);
		return 2;
	}
	for (o->nsrc = 0; o->nsrc < n; o->nsrc++)
		o->src[o->nsrc] = src[o->nsrc];
	return need_input(o);
}

/* The options, into these (file-scope data, as perf's builtins have it). */
static struct lc_compose_opts opt = { .max_points = LC_GRID_DEFAULT_MAX_POINTS };
static const struct lc_opt opts[] = {
	LC_OPT_FILENAME("structure", 's', "FILE", "the structure file", &opt.structure),
	LC_OPT_STRING("at", 'a', "\"n=1024 p=4\"", "one point: per-category values and T(E)",
		      &opt.at),
	LC_OPT_STRING("grid", 'G', "\"n=64,...,1024 p=1,2\"", "every combination (LIST as in "
		      "lostcycles predict)", &opt.grid),
	LC_OPT_CALLBACK("what-if", 'w', "SCENARIO", "T with categories of the composed "
			"program changed,\nas in lostcycles predict: \"li=0\", \"sl*=0.5\", "
			"balanced,\nnowait, nocomm, nocontention (repeatable)", &opt.whatif,
			lc_opt_whatif),
	LC_OPT_FLAG("explain", 'e', "each node's variables, time and categories, and "
		    "what\neach rule added", &opt.explain),
	LC_OPT_FILENAME("compare", 'C', "FILE", "a second structure, or a model file: "
			"which is faster\nat each point", &opt.compare),
	LC_OPT_FILENAME("measured", 'm', "RUNS", "compare with measured runs (tt/p of the "
			"runs at each\ngrid point, 'lostcycles report -l' lines) and "
			"give\nthe relative error", &opt.measured),
	LC_OPT_FILENAME("plot", 'P', "FILE.png", "T over the first grid variable, one curve "
			"per value\nof the second (with --compare and --measured too)",
			&opt.plot),
	LC_OPT_STRING("transfer", 0, "\"latency=S bandwidth=B\"", "the machine's transfer "
		      "parameters (seconds, bytes/s)\nfor data traces; overrides the "
		      "structure's line", &opt.transfer),
	LC_OPT_CALLBACK_OPTARG("memory", 0, "FILE", "transfer parameters from 'lostcycles "
			       "calibrate --memory'\n(its default file without FILE): B "
			       "bytes cost B/64\nremote cache-line transfers", &opt.memory,
			       opt_memory),
	LC_OPT_FILENAME("critical-path", 0, "TRACE", "synchronization by critical path "
			"analysis over a\nrecorded trace (a trace file of 'record --trace', "
			"or\nthe LOSTCYCLES_TRACE_DIR folder holding them), using\nthe "
			"fragments' 'tag:' lines, instead of the pipeline\nrule of 'after:'",
			&opt.critical),
	LC_OPT_STRING("tune", 0, "\"VAR=LIST ...\"", "the values of tuning variables that "
		      "minimise T at\n--at, by coordinate search checked by brute force",
		      &opt.tune),
	LC_OPT_FLAG("extract", 'x', "build the structure from the SOURCE files' OpenMP\n"
		    "pragmas, LC_FRAGMENT tags and lcm: comments; a\nname that is taken "
		    "gets _2, _3, ... (with a note)", &opt.extract),
	LC_OPT_FILENAME("output", 'o', "FILE", "with --extract: write the structure to FILE",
			&opt.output),
	LC_OPT_FLAG("force", 0, "replace -o FILE and plot files that exist (else refused)",
		    &opt.force),
	LC_OPT_MAX_POINTS("refuse a grid (or --tune grid) of more than N points\n(default "
			  "1000000)", &opt.max_points),
	LC_OPT_END(),
};

/* Parse the command line into o.  -1 to go on, or the exit status (0
 * after --help, 2 after a usage message). */
static int parse_opts(int argc, char **argv, struct lc_compose_opts *o)
{
	char **src;
	int n;

	if ((n = lc_opt_parse(argc, argv, opts, usage, &src)) < 0)
		return LC_OPT_EXIT(n);
	return take_sources(o, src, n);
}

/* --memory: latency 0 and one 64-byte cache line per transfer_ns of the
 * per-machine file of "lostcycles calibrate --memory". */
static int memory_transfer(const char *path, double *lat, double *bw, char *msg, size_t len)
{
	char def[4096], why[256] = "";
	struct lc_memlat m;
	int rc;

	if (!*path) {
		if ((rc = lc_memlat_default_path(def, sizeof(def))))
			return lc_fail(msg, len, rc, "--memory: no default memory file: %s",
				       strerror(-rc));
		path = def;
	}
	rc = lc_memlat_read(path, &m, why, sizeof(why));
	if (rc)
		return lc_fail(msg, len, rc, "--memory %s: %s%s", path,
			       rc == -EINVAL ? why : strerror(-rc),
			       rc == -ENOENT ? " (run 'lostcycles calibrate --memory')" : "");
	*lat = 0;
	*bw = 64 / (m.transfer_ns * 1e-9);
	return 0;
}

/* A note of the extraction: one line on stderr. */
static void note(void *arg, const char *text)
{
	(void)arg;
	warnx("%s", text);
}

/* Load, print, plot.  0 or -1 after the reason. */
static int run(struct lc_compose *c)
{
	char msg[1024] = "";

	if (lc_compose_load(c, stdout, msg, sizeof(msg)) ||
	    (c->a && lc_compose_print(c, stdout, msg, sizeof(msg))) ||
	    (c->a && c->o.plot && lc_compose_plot(c, stdout, msg, sizeof(msg)))) {
		warnx("%s", msg);
		return -1;
	}
	return 0;
}

/* "lostcycles compose".  See lc_cmd.h. */
int lc_cmd_compose(int argc, char **argv)
{
	struct lc_compose c = { .note = note, .memory = memory_transfer };
	int r = parse_opts(argc, argv, &opt), rc;

	if (r >= 0)
		return r;
	c.o = opt;
	rc = run(&c);
	lc_compose_free(&c);
	return rc ? 1 : 0;
}
