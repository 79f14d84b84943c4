/*
 * cmd_export.c — "lostcycles export": a runs file in Extra-P's text or
 * JSON-lines input format (--extrap: the runs' table made by
 * postproc/lca/extrap.c, written by postproc/export/extrap_write.c), or a profile's
 * timeline as an OTF2 archive (--otf2, postproc/export/otf2.c).
 */
#include <err.h>
#include <stdio.h>
#include <string.h>

#include "extrap.h"
#include "extrap_write.h"
#include "lc_cmd.h"
#include "lc_opt.h"
#include "lca_runs.h"
#include "lc_util.h"
#include "otf2.h"

static const char *const usage[] = {
	"lostcycles export --extrap RUNS [--format text|jsonl] [-o FILE] [--force]",
	"lostcycles export --otf2 DIR [--source sampled|trace] [-f FILE | FILE]",
	"",
	"--extrap: write the runs of RUNS (a runs file of 'report -l' lines, or an",
	"Extra-P file) in Extra-P's input formats: one metric per lost cycles",
	"category (seconds summed over the processors), the variables every run",
	"gives a number as parameters, runs with the same values as repetitions,",
	"a region per region= note.  'fit -f' reads both formats back.",
	"",
	"--otf2: write the timeline of the profile FILE (default lostcycles.data)",
	"as the OTF2 archive DIR/traces.otf2 for Vampir, Scalasca's tools and",
	"otf2-print: a location per thread in a location group per process (per",
	"rank in a merged MPI job), a region per category, an enter and a leave",
	"event per run of a category, timestamps in ns.",
	NULL,
};

static const struct lc_opt_word formats[] = {
	{ "text", LC_FMT_TEXT }, { "jsonl", LC_FMT_JSONL }, { NULL, 0 },
};

static const struct lc_opt_word sources[] = {
	{ "sampled", LC_SRC_SAMPLED }, { "trace", LC_SRC_TRACE }, { NULL, 0 },
};

/* What to export, from where, to where. */
struct export_opts {
	const char *runs, *out;
	const char *otf2, *file;	/* --otf2 DIR, the profile */
	int format;		/* LC_FMT_TEXT or LC_FMT_JSONL, -1 not given */
	int source;		/* --source */
	int force;		/* --force */
};

/* Check the operands and the options that go together.  Returns -1 to go
 * on, else an exit status. */
static int check(struct export_opts *o, int n, char **rest)
{
	if (!o->runs && !o->otf2) {
		warnx("--extrap RUNS is required, or --otf2 DIR (see 'lostcycles export --help')");
		return 2;
	}
	if (o->runs && o->otf2) {
		warnx("--extrap and --otf2 are separate exports: give one");
		return 2;
	}
	if (n > (o->otf2 && !o->file)) {
		warnx("unexpected argument: %s (see 'lostcycles export --help')",
		      rest[n - 1]);
		return 2;
	}
	if (o->otf2) {
		if (o->out || o->format >= 0 || o->force) {
			warnx("--otf2 takes no -o, --format or --force");
			return 2;
		}
		o->file = o->file ? o->file : n ? rest[0] : "lostcycles.data";
	} else if (o->file || lc_opt_given("source", 0)) {
		warnx("-f and --source go with --otf2");
		return 2;
	}
	return -1;
}

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
		LC_OPT_FILENAME("otf2", 0, "DIR", "the profile's timeline as the OTF2 archive "
				"DIR/traces.otf2\n(DIR: new, or an empty directory of your own)",
				&o->otf2),
		LC_OPT_FILENAME("file", 'f', "FILE", "--otf2: the profile to read (default "
				"lostcycles.data)", &o->file),
		LC_OPT_ENUM("source", 0, "SRC", "--otf2: sampled (default) or trace (exact "
			    "event log)", &o->source, sources),
		LC_OPT_END(),
	};
	char **rest;
	int n = lc_opt_parse(argc, argv, opts, usage, &rest), r;

	if (n < 0)
		return LC_OPT_EXIT(n);
	r = check(o, n, rest);
	if (r >= 0)
		return r;
	if (o->runs && o->format < 0) {
		size_t len = o->out ? strlen(o->out) : 0;

		o->format = len > 6 && !strcmp(o->out + len - 6, ".jsonl") ? LC_FMT_JSONL : LC_FMT_TEXT;
	}
	return -1;
}

/* --otf2: read the profile, write the archive. */
static int export_otf2(const struct export_opts *o)
{
	struct lc_profile *pr = NULL;
	char msg[512];
	int rc;

	if (!lc_otf2_supported()) {
		lc_otf2_write(o->otf2, NULL, LC_SRC_SAMPLED, msg, sizeof(msg));
		warnx("--otf2: %s", msg);
		return 1;
	}
	if (lc_profile_read(o->file, &pr, msg, sizeof(msg))) {
		warnx("%s: %s", o->file, msg);
		return 1;
	}
	rc = lc_otf2_write(o->otf2, pr, (enum lc_source)o->source, msg, sizeof(msg));
	if (rc)
		warnx("%s: %s", o->file, msg);
	lc_profile_free(pr);
	return rc ? 1 : 0;
}

/* The Extra-P table of the runs file path into *t.  0, or 1 after a
 * message. */
static int extrap_table(const char *path, struct lc_xp_table **t)
{
	struct lc_runs *r = NULL;
	struct lc_runs_error e = { 0 };
	char msg[256];
	int rc = lc_runs_read(path, &r, &e);

	if (rc) {
		lc_runs_fail(path, rc, &e, msg, sizeof(msg));
		warnx("%s", msg);
		return 1;
	}
	rc = lc_extrap_from_runs(r, t, msg, sizeof(msg));
	if (rc)
		warnx("%s: %s", path, msg);
	lc_runs_free(r);
	return rc ? 1 : 0;
}

/* --extrap: read the runs, write them. */
static int export_extrap(const struct export_opts *o)
{
	struct lc_xp_table *t = NULL;
	FILE *out = stdout;
	char msg[256];
	int rc, dropped = 0;

	if (extrap_table(o->runs, &t))
		return 1;
	if (o->out && !(out = lc_out_open(o->out, o->force ? LC_OUT_FORCE : LC_OUT_KEEP, msg,
					  sizeof(msg)))) {
		warnx("%s", msg);
		lc_xp_free(t);
		return 1;
	}
	rc = lc_extrap_write(out, t, o->format == LC_FMT_JSONL, &dropped, msg, sizeof(msg));
	if (rc)
		warnx("%s: %s", o->runs, msg);
	else if (dropped)
		warnx("%d metric(s) lack values at some point and were left out of the text "
		      "format (--format jsonl keeps them)", dropped);
	if (out != stdout && fclose(out) && !rc) {
		warn("%s", o->out);
		rc = 1;
	}
	lc_xp_free(t);
	return rc ? 1 : 0;
}

int lc_cmd_export(int argc, char **argv)
{
	struct export_opts o = { .format = -1, .source = LC_SRC_SAMPLED };
	int rc = parse(&o, argc, argv);

	if (rc >= 0)
		return rc;
	return o.otf2 ? export_otf2(&o) : export_extrap(&o);
}
