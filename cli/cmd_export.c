/*
 * cmd_export.c — "lostcycles export --extrap RUNS": a runs file in
 * Extra-P's text or JSON-lines input format (postproc/extrap.c).
 */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "extrap.h"
#include "lc_cmd.h"
#include "lca_runs.h"
#include "lc_util.h"

static const char usage[] =
	"usage: lostcycles export --extrap RUNS [--format text|jsonl] [-o FILE]\n"
	"Write the runs of RUNS (a runs file of 'report -l' lines, or an Extra-P\n"
	"file) in Extra-P's input formats: one metric per lost cycles category\n"
	"(seconds summed over the processors), the variables every run gives a\n"
	"number as parameters, runs with the same values as repetitions.  'fit -f'\n"
	"reads both formats back.\n\n"
	"  --extrap RUNS        the runs to export\n"
	"  --format FMT         text (Extra-P's text format; default) or jsonl\n"
	"                       (JSON lines); -o FILE ending in .jsonl picks jsonl\n"
	"  -o, --output FILE    write to FILE instead of standard output (an existing\n"
	"                       FILE is kept unless --force)\n"
	"      --force          replace an existing FILE\n"
	"  -h, --help           this text; see also lostcycles-export(1)\n";

static const struct option opts[] = {
	{ "extrap", required_argument, NULL, 'x' },
	{ "format", required_argument, NULL, 'F' },
	{ "output", required_argument, NULL, 'o' },
	{ "force", no_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* What to export, from where, to where. */
struct export_opts {
	const char *runs, *out;
	int jsonl;		/* -1 not given */
	int force;		/* --force */
};

/* A usage error: one line on stderr, status 2. */
static int usage_error(const char *what, const char *arg)
{
	warnx("%s%s (see 'lostcycles export --help')", what, arg ? arg : "");
	return 2;
}

/* Parse argv.  Returns -1 to go on, else an exit status. */
static int parse(struct export_opts *o, int argc, char **argv)
{
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'x':
			o->runs = optarg;
			break;
		case 'o':
			o->out = optarg;
			break;
		case 'f':
			o->force = 1;
			break;
		case 'F':
			if (strcmp(optarg, "text") && strcmp(optarg, "jsonl"))
				return usage_error("unknown format: ", optarg);
			o->jsonl = !strcmp(optarg, "jsonl");
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		case ':':
			return usage_error("option needs a value: ", argv[optind - 1]);
		default:
			return usage_error("unknown option: ", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument: ", argv[optind]);
	if (!o->runs)
		return usage_error("--extrap RUNS is required", NULL);
	if (o->jsonl < 0) {
		size_t n = o->out ? strlen(o->out) : 0;

		o->jsonl = n > 6 && !strcmp(o->out + n - 6, ".jsonl");
	}
	return -1;
}

int lc_cmd_export(int argc, char **argv)
{
	struct export_opts o = { .jsonl = -1 };
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
		if (e.line)
			warnx("%s:%d: %s", o.runs, e.line, e.msg);
		else
			warnx("%s: %s", o.runs, e.msg[0] ? e.msg : strerror(-rc));
		return 1;
	}
	if (o.out && !(out = lc_out_open(o.out, o.force ? LC_OUT_FORCE : LC_OUT_KEEP, msg,
					 sizeof(msg)))) {
		warnx("%s", msg);
		lc_runs_free(r);
		return 1;
	}
	rc = lc_extrap_write(out, r, o.jsonl, &dropped, msg, sizeof(msg));
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
