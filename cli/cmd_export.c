/*
 * cmd_export.c — "lostcycles export --extrap RUNS": a runs file in
 * Extra-P's text or JSON-lines input format (postproc/extrap.c).
 */
#include <err.h>
#include <stdio.h>
#include <string.h>

#include "extrap.h"
#include "lc_cmd.h"
#include "lc_opt.h"
#include "lca_runs.h"
#include "lc_util.h"

static const char *const usage[] = {
	"lostcycles export --extrap RUNS [--format text|jsonl] [-o FILE] [--force]",
	"",
	"Write the runs of RUNS (a runs file of 'report -l' lines, or an Extra-P",
	"file) in Extra-P's input formats: one metric per lost cycles category",
	"(seconds summed over the processors), the variables every run gives a",
	"number as parameters, runs with the same values as repetitions.  'fit -f'",
	"reads both formats back.",
	NULL,
};

static const struct lc_opt_word formats[] = {
	{ "text", LC_FMT_TEXT }, { "jsonl", LC_FMT_JSONL }, { NULL, 0 },
};

/* What to export, from where, to where. */
struct export_opts {
	const char *runs, *out;
	int format;		/* LC_FMT_TEXT or LC_FMT_JSONL, -1 not given */
	int force;		/* --force */
};

/* Parse argv.  Returns -1 to go on, else an exit status. */
static int parse(struct export_opts *o, int argc, char **argv)
{
	const struct lc_opt opts[] = {
		LC_OPT_FILENAME("extrap", 0, "RUNS", "the runs to export", &o->runs),
		LC_OPT_ENUM("format", 0, "FMT", "text (Extra-P's text format; default) or jsonl\n"
			    "(JSON lines); -o FILE ending in .jsonl picks jsonl", &o->format,
			    formats),
		LC_OPT_FILENAME("output", 'o', "FILE", "write to FILE instead of standard output "
				"(an existing\nFILE is kept unless --force)", &o->out),
		LC_OPT_FLAG("force", 0, "replace an existing FILE", &o->force),
		LC_OPT_END(),
	};
	char **rest;
	int n = lc_opt_parse(argc, argv, opts, usage, &rest);

	if (n < 0)
		return LC_OPT_EXIT(n);
	if (n > 0) {
		warnx("unexpected argument: %s (see 'lostcycles export --help')", rest[0]);
		return 2;
	}
	if (!o->runs) {
		warnx("--extrap RUNS is required (see 'lostcycles export --help')");
		return 2;
	}
	if (o->format < 0) {
		size_t len = o->out ? strlen(o->out) : 0;

		o->format = len > 6 && !strcmp(o->out + len - 6, ".jsonl") ? LC_FMT_JSONL : LC_FMT_TEXT;
	}
	return -1;
}

int lc_cmd_export(int argc, char **argv)
{
	struct export_opts o = { .format = -1 };
	struct lc_runs *r = NULL;
	struct lc_runs_error e = { 0 };
	FILE *out = stdout;
	char msg[256];
	int rc, dropped = 0;

	rc = parse(&o, argc, argv);
	if (rc >= 0)
		return rc;
	rc = lc_runs_read(o.runs, &r, &e);
	if (rc) {
		lc_runs_fail(o.runs, rc, &e, msg, sizeof(msg));
		warnx("%s", msg);
		return 1;
	}
	if (o.out && !(out = lc_out_open(o.out, o.force ? LC_OUT_FORCE : LC_OUT_KEEP, msg,
					 sizeof(msg)))) {
		warnx("%s", msg);
		lc_runs_free(r);
		return 1;
	}
	rc = lc_extrap_write(out, r, o.format == LC_FMT_JSONL, &dropped, msg, sizeof(msg));
	if (rc)
		warnx("%s: %s", o.runs, msg);
	else if (dropped)
		warnx("%d metric(s) lack values at some point and were left out of the text "
		      "format (--format jsonl keeps them)", dropped);
	if (out != stdout && fclose(out) && !rc) {
		warn("%s", o.out);
		rc = 1;
	}
	lc_runs_free(r);
	return rc ? 1 : 0;
}
