/*
 * cmd_report.c — "lostcycles report": the options, reading the profile, and
 * exit codes; the printing is postproc/report/report.c.
 */
#include "lc_cmd.h"
#include "lc_opt.h"
#include "lc_util.h"
#include "report.h"
#include "report_insight.h"
#include "report_sync.h"
#include "tagname.h"
#include "timeline.h"
#include "where_print.h"

#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const usage[] = {
	"lostcycles report [-f FILE] [-t TAG | --tags] [--per-thread] [--per-rank]",
	"                  [--timeline] [--counters] [--format text|csv|json]",
	"                  [-l [NOTE]] [--sync] [--source sampled|trace]",
	"                  [--max-windows N] [FILE]",
	"lostcycles report --where[=CAT] [--inclusive] [-t PLACE] [--format text|csv|json]",
	"                  [--source sampled|trace] [FILE]",
	"lostcycles report --advise [--rules FILE] [--model FILE [--at NAME=VALUE...]] [FILE]",
	"lostcycles report --pop [FILE | RUNS]",
	"lostcycles report --timeline --format perfetto [FILE]",
	"lostcycles report (--html OUT.html | --plot OUT.png) [--force] [FILE]",
	"",
	"Print the predicate profile in FILE (default lostcycles.data): the time",
	"lost to each overhead category, summed over the processors.",
	NULL,
};

/* A usage error: one line on stderr, status 2. */
static int usage_error(const char *fmt, const char *arg)
{
	char msg[512];

	snprintf(msg, sizeof(msg), fmt, arg);
	warnx("%s (see 'lostcycles report --help')", msg);
	return 2;
}

/* NOTE must be whitespace-separated var=value pairs. */
static int valid_note(const char *s)
{
	int pairs = 0;

	while (*s) {
		size_t name = 0, val = 0;

		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		if (!(*s == '_' || (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')))
			return 0;
		while (s[name] == '_' || s[name] == '.' || (s[name] >= '0' && s[name] <= '9') ||
		       (s[name] >= 'A' && s[name] <= 'Z') || (s[name] >= 'a' && s[name] <= 'z'))
			name++;
		if (s[name] != '=')
			return 0;
		s += name + 1;
		while (s[val] && s[val] != ' ' && s[val] != '\t' && s[val] != '=')
			val++;
		if (!val || s[val] == '=')
			return 0;
		s += val;
		pairs++;
	}
	return pairs > 0;
}

/* The -t operand when it names a tag (FILE:LINE) instead of giving its
 * number: resolved once the profile is read. */
static const char *tag_text;

/* --tags: list the tags instead of a report. */
static int list_only;

/* --sync: list the synchronization objects instead of a report. */
static int sync_only;

/* --bottlenecks[=TRACE] (postproc/report/bottleneck.c). */
static int bneck_on;
static const char *bneck_trace;

static int opt_bottlenecks(const struct lc_opt *opt, const char *arg)
{
	(void)opt;
	bneck_on = 1;
	bneck_trace = arg;
	return 0;
}

/* --where[=CAT], --inclusive (postproc/common/where.c). */
static int where_on, inclusive;
static int where_cat = -1;

/* --advise, --pop, --format perfetto (report_insight.c). */
static struct lc_insight insight;

/* --at NAME=VALUE...: insight's points, parsed here. */
static struct lc_opt_at at;

/* --max-windows: the most timeline windows held in memory. */
static uint32_t max_windows = LC_REPORT_MAX_WINDOWS;

/* The word after -l when it is not a note: the FILE, unless another is
 * given (then it was a bad note). */
static const char *after_l;

/* -f FILE, or the FILE operand. */
static const char *file_opt;

#define FMT_UNSET (-1)
static const struct lc_opt_word formats[] = {
	{ "text", LC_FMT_TEXT }, { "csv", LC_FMT_CSV }, { "json", LC_FMT_JSON },
	{ "perfetto", LC_FMT_PERFETTO }, { NULL, 0 },
};

static const struct lc_opt_word sources[] = {
	{ "sampled", LC_SRC_SAMPLED }, { "trace", LC_SRC_TRACE }, { NULL, 0 },
};

/* -t TAG: a whole signed decimal tag, or FILE:LINE resolved later. */
static int opt_tag(const struct lc_opt *opt, const char *arg)
{
	struct lc_report_opts *o = opt->field;
	char *end;
	long long v;

	o->have_tag = 1;
	tag_text = NULL;
	errno = 0;
	v = strtoll(arg, &end, 10);
	if (!errno && end != arg && !*end) {
		o->tag = v;
		return 0;
	}
	if (!*arg)
		return lc_opt_bad(opt, arg, "not a tag number, FILE:LINE or place name");
	tag_text = arg;
	return 0;
}

/* --where[=CAT]: the places; CAT a category key ranks by it. */
static int opt_where(const struct lc_opt *opt, const char *arg)
{
	char keys[128] = "a category key:";

	where_on = 1;
	where_cat = -1;
	if (!arg)
		return 0;
	where_cat = lc_cat_by_key(arg);
	for (int c = 0; where_cat < 0 && c < LC_NCAT; c++)
		snprintf(keys + strlen(keys), sizeof(keys) - strlen(keys), " %s",
			 lc_cat_info(c)->key);
	return where_cat < 0 ? lc_opt_bad(opt, arg, keys) : 0;
}

/* -l [NOTE]: the next word is the note when it is var=value pairs rather
 * than an option or the profile's name. */
static int opt_lline(const struct lc_opt *opt, const char *arg)
{
	struct lc_report_opts *o = opt->field;
	const char *next = lc_opt_peek();

	o->lline = 1;
	if (next && next[0] != '-' && strchr(next, '=')) {
		o->note = next;
		lc_opt_take();
	} else if (next && next[0] != '-') {
		after_l = next;	/* a FILE, unless -f gives one too */
	}
	return 0;
}

/* -f FILE: only one. */
static int opt_file(const struct lc_opt *opt, const char *arg)
{
	if (file_opt) {
		warnx("more than one FILE (a second: '%s') (see 'lostcycles report --help')", arg);
		return -1;
	}
	file_opt = arg;
	return 0;
}

/* --max-windows N: 0 (all) or 2 or more. */
static int opt_max_windows(const struct lc_opt *opt, const char *arg)
{
	uint64_t v;

	if (lc_parse_u64(arg, 0, UINT32_MAX, &v) || v == 1)
		return lc_opt_bad(opt, arg, "0, or a whole number >= 2");
	max_windows = (uint32_t)v;
	return 0;
}

/* Check the options against each other.  Returns -1 to go on, else 2. */
static int check_opts(struct lc_report_opts *o)
{
	if (o->note && !valid_note(o->note))
		return usage_error("-l: note '%s' is not var=value pairs", o->note);
	if (o->lline && (o->per_thread || o->timeline || o->counters || o->format_set))
		return usage_error("%s", "-l prints one line: it does not combine with "
				   "--per-thread, --timeline, --counters or --format");
	if (o->have_tag && o->per_thread)
		return usage_error("%s", "--per-thread does not combine with -t");
	if (list_only && (o->have_tag || o->lline || o->per_thread || o->per_rank || o->timeline ||
			  o->counters || o->format_set))
		return usage_error("%s", "--tags lists the tags: it takes no other option but "
				   "-f and --source");
	if (sync_only && (list_only || o->have_tag || o->lline || o->per_thread || o->per_rank ||
			  o->timeline || o->counters))
		return usage_error("%s", "--sync lists the synchronization objects: it takes no "
				   "other option but -f, --format and --source");
	if (bneck_on && (where_on || list_only || sync_only || o->lline || o->per_thread ||
			 o->per_rank || o->timeline || o->counters || o->have_tag ||
			 lc_insight_wanted(&insight)))
		return usage_error("%s", "--bottlenecks is a table of its own: it takes no other "
				   "option but -f, --format and --source");
	if (inclusive && !where_on)
		return usage_error("%s", "--inclusive is a view of --where");
	if (where_on && o->per_rank)
		return usage_error("%s", "--where has no --per-rank: -t PLACE (an MPI function "
				   "or call site) shows that place per rank and thread");
	if (where_on && (list_only || sync_only || o->lline || o->per_thread || o->per_rank ||
			 o->timeline || o->counters))
		return usage_error("%s", "--where prints the places: it takes no other option but "
				   "-f, -t, --inclusive, --format and --source");
	if (where_on && lc_insight_wanted(&insight))
		return usage_error("%s", "--where is a table of its own: it does not combine with "
				   "--advise, --pop, --html, --plot or --format perfetto");
	if (where_on && o->have_tag && !tag_text)
		return usage_error("%s", "-t with --where takes a place's name");
	if (where_on && inclusive && o->have_tag)
		return usage_error("%s", "-t PLACE shows one place's threads: it does not combine "
				   "with --inclusive");
	if (o->per_rank && (o->have_tag || o->lline || o->fmt == LC_REPORT_JSON))
		return usage_error("%s", "--per-rank does not combine with -t, -l or --format json");
	return -1;
}

/* The FILE: -f or the one operand; a word after -l that was neither a note
 * nor (there being another) the file is named as a bad note.  Returns -1
 * to go on, else 2. */
static int pick_file(struct lc_report_opts *o, int n, char **rest)
{
	const char *second = n > 1 ? rest[1] : n && file_opt ? rest[0] : NULL;

	if (second) {
		if (after_l && (after_l == second || after_l == rest[0]))
			return usage_error("-l: note '%s' is not var=value pairs", after_l);
		return usage_error("more than one FILE (a second: '%s')", second);
	}
	o->file = file_opt ? file_opt : n ? rest[0] : "lostcycles.data";
	return -1;
}

/* Turn the parsed --format, --source and --at into o and insight. */
static void apply(struct lc_report_opts *o, int fmt)
{
	if (fmt == LC_FMT_PERFETTO) {
		insight.perfetto = 1;
	} else if (fmt != FMT_UNSET) {
		o->fmt = (enum lc_report_fmt)fmt;
		o->format_set = 1;
	}
	o->source_set = lc_opt_given("source", 0);
	insight.nat = at.n;
	for (int i = 0; i < at.n; i++) {
		insight.at_names[i] = at.names[i];
		insight.at_vals[i] = at.vals[i];
	}
}

/* The options, into these. */
static struct lc_report_opts ropt = { .fmt = LC_REPORT_TEXT, .source = LC_SRC_SAMPLED };
static int fmt_opt = FMT_UNSET, source_opt = LC_SRC_SAMPLED;

static const struct lc_opt opts[] = {
	LC_OPT_CALLBACK("file", 'f', "FILE", "the profile to read", NULL, opt_file),
	LC_OPT_CALLBACK("tag", 't', "TAG", "only the time while fragment TAG was open; "
			"TAG is a\nnumber, FILE:LINE of an OpenMP construct (--omp), or a\nplace "
			"as --where names it: that place's threads", &ropt,
			opt_tag),
	LC_OPT_FLAG("tags", 0, "list the fragment tags (with names: FILE:LINE) and exit",
		    &list_only),
	LC_OPT_FLAG("sync", 0, "synchronization loss per synchronization object (locks,\n"
		    "barriers, conditions: LC_SYNC_BEGIN_ON, --pthread), largest\nfirst, "
		    "and exit", &sync_only),
	LC_OPT_CALLBACK_OPTARG("where", 0, "CAT", "the places (OpenMP constructs, MPI calls, "
			       "waits) ranked by\nlost time, or by category CAT (e.g. li); "
			       "exclusive rows\nand (elsewhere) add up to the totals "
			       "(docs/where.md)", NULL, opt_where),
	LC_OPT_CALLBACK_OPTARG("bottlenecks", 0, "TRACE", "the bottleneck tests per place: "
			       "hotspots (5 % of the total),\nan MPI call against its LogGP "
			       "ideal, a fragment's instances\nagainst their mean (with TRACE, "
			       "of record --trace)", NULL, opt_bottlenecks),
	LC_OPT_FLAG("inclusive", 0, "--where: one row per function holding places, per MPI\n"
		    "function and per fragment tag (rows overlap)", &inclusive),
	LC_OPT_FLAG("per-thread", 0, "a table of threads x categories", &ropt.per_thread),
	LC_OPT_FLAG("per-rank", 0, "MPI jobs: ranks x categories, and the late arrivers",
		    &ropt.per_rank),
	LC_OPT_FLAG("timeline", 0, "one row per timeline window", &ropt.timeline),
	LC_OPT_FLAG("counters", 0, "counter totals per event, thread and tag, IPC and\n"
		    "misses per 1000 instructions (with -t: that tag's)", &ropt.counters),
	LC_OPT_ENUM("format", 0, "FMT", "text (default), csv or json; perfetto: with "
		    "--timeline,\nthe timeline as Chrome trace JSON for ui.perfetto.dev",
		    &fmt_opt, formats),
	LC_OPT_CALLBACK_PEEK(NULL, 'l', "NOTE", "one pp -l line for a runs file; NOTE is "
			     "var=value pairs\n(a key of the line itself, e.g. p=4, must "
			     "agree)", &ropt, opt_lline),
	LC_OPT_ENUM("source", 0, "SRC", "sampled (default) or trace (exact event log)",
		    &source_opt, sources),
	LC_OPT_CALLBACK("max-windows", 0, "N", "hold at most N timeline windows (default "
			"8192), merging\nneighbours pairwise in longer profiles; 0 holds "
			"every\nwindow (memory then grows with the profile's length)", NULL,
			opt_max_windows),
	LC_OPT_FLAG("advise", 0, "the dominant categories, their evidence and likely fixes\n"
		    "(rules: share/advice.txt)", &insight.advise),
	LC_OPT_FILENAME("rules", 0, "FILE", "--advise with the rules of FILE", &insight.rules),
	LC_OPT_FILENAME("model", 0, "FILE", "--advise, --html: rank by the gain a model "
			"(fit --emit)\npredicts", &insight.model),
	LC_OPT_CALLBACK("at", 0, "N=V...", "--model: the point to predict at",
			&at, lc_opt_at),
	LC_OPT_FLAG("pop", 0, "POP efficiency metrics (text or csv); with a runs file as\n"
		    "FILE: parallel efficiency, computation scalability per run", &insight.pop),
	LC_OPT_FILENAME("html", 0, "OUT.html", "one self-contained page: categories, a bar "
			"per thread,\nthe timeline, the advice; with --model its curves",
			&insight.html),
	LC_OPT_FILENAME("plot", 0, "OUT.png", "the per-thread bars and the timeline as PNG "
			"(gnuplot;\nOUT.gp and its data files beside it)", &insight.plot),
	LC_OPT_FLAG("force", 0, "replace existing --html or --plot files (kept otherwise)",
		    &insight.force),
	LC_OPT_COLOR(),
	LC_OPT_END(),
};

/* Parse argv into o: options and at most one FILE operand, in any order.
 * Returns -1 to go on, else an exit status. */
static int parse_args(struct lc_report_opts *o, int argc, char **argv)
{
	char **rest;
	int n, r;

	n = lc_opt_parse(argc, argv, opts, usage, &rest);
	if (n < 0)
		return LC_OPT_EXIT(n);
	*o = ropt;
	o->source = (enum lc_source)source_opt;
	apply(o, fmt_opt);
	r = pick_file(o, n, rest);
	if (r < 0)
		r = check_opts(o);
	return r >= 0 ? r : lc_insight_check(&insight, o);
}

/* --tags: one line per fragment tag of the source o asks for, "TAG" or
 * "TAG NAME".  Returns 0, or 1 when out of memory. */
static int print_tags(const struct lc_profile *pr, const struct lc_report_opts *o)
{
	const struct lc_prof_data *d = &pr->data[o->source];
	struct lc_tagnames *tn = lc_tagnames_of_profile(pr);

	if (!tn) {
		warnx("out of memory");
		return 1;
	}
	for (uint32_t i = 0; i < d->ntags; i++) {
		const char *name = lc_tagnames_get(tn, d->tags[i].tag);

		printf("%" PRId64 "%s%s\n", d->tags[i].tag, name ? " " : "", name ? name : "");
	}
	lc_tagnames_free(tn);
	return 0;
}

/* -t "tag NAME" (a tag's row of --where --inclusive): that tag.  Returns 1
 * when it is one (o->tag set, tag_text cleared), else 0. */
static int tag_row(const struct lc_tagnames *tn, struct lc_report_opts *o)
{
	if (lc_tagnames_row(tn, tag_text, &o->tag))
		return 0;
	tag_text = NULL;
	return 1;
}

/* --where -t "tag ...": a tag's row of the inclusive table, that tag's
 * report (*tn set for it): 1, else 0 (a place's name). */
static int where_tag(const struct lc_profile *pr, struct lc_report_opts *o,
		     struct lc_tagnames **tn)
{
	if (strncmp(tag_text, "tag ", 4))
		return 0;
	*tn = lc_tagnames_of_profile(pr);
	o->tag_name = lc_tagnames_get;
	o->tag_arg = *tn;
	if (tag_row(*tn, o))
		return 1;
	lc_tagnames_free(*tn);
	*tn = NULL;
	return 0;
}

/* With -t: name the profile's tags for the report, and turn a FILE:LINE
 * operand into its tag; a name that is no tag's but a place's turns the
 * report into --where -t PLACE.  Returns -1 to go on, or 1 after a
 * message. */
static int resolve_tag(const struct lc_profile *pr, struct lc_report_opts *o,
		       struct lc_tagnames **tn)
{
	char msg[1024];
	int r;

	if (!o->have_tag)
		return -1;
	if (!*tn)
		*tn = lc_tagnames_of_profile(pr);
	o->tag_name = lc_tagnames_get;
	o->tag_arg = *tn;
	r = tag_text ? lc_tag_resolve(pr, o->source, *tn, tag_text, &o->tag, msg, sizeof(msg)) :
		       LC_TAGREF_TAG;
	if (r == LC_TAGREF_ROW)
		tag_text = NULL;
	where_on |= r == LC_TAGREF_PLACE;
	if (r < 0)
		warnx("%s: %s", o->file, msg);
	return r < 0 ? 1 : -1;
}

/* --where: the places, or with -t one place's threads.  Returns the exit
 * status. */
static int print_where(const struct lc_profile *pr, const struct lc_report_opts *o,
		       struct lc_tagnames *tn)
{
	struct lc_where_req rq = { .src = o->source, .fmt = (int)o->fmt, .rank_cat = where_cat,
				   .inclusive = inclusive, .place = tag_text,
				   .tag_name = lc_tagnames_get, .tag_arg = tn };
	char msg[1536];

	if (lc_where_report(stdout, pr, &rq, msg, sizeof(msg))) {
		warnx("%s: %s", o->file, msg);
		return 1;
	}
	return 0;
}

/* The Perfetto export's place tracks need each window's place rows, which
 * a profile read in bounded memory drops: when a thread of *pr was in a
 * place and no window was merged (no more than --max-windows), read it again whole.
 * 0, or 1 with the reason in err. */
static int read_places(const char *file, enum lc_source src, struct lc_profile **pr, char *err,
		       size_t len)
{
	struct lc_profile *whole = NULL;
	int need = max_windows ? lc_timeline_needs_places(*pr, src) : 0;

	if (need < 0)
		warnx("%s: no place tracks: the profile has more than %u windows "
		      "(--max-windows 0 keeps each window's places)", file, max_windows);
	if (need <= 0)
		return 0;
	if (lc_profile_read_opts(file, NULL, &whole, err, len))
		return 1;
	lc_profile_free(*pr);
	*pr = whole;
	return 0;
}

/* Read the profile of o->file with the rows the views of o need, and warn
 * of a stalled sampler.  Returns 0, or 1 after a message. */
static int load(const struct lc_report_opts *o, struct lc_profile **pr)
{
	struct lc_read_opts ro = { 0 };
	char err[256], msg[1536];

	/* The per-window thread rows are kept only for the views that use
	 * them (late arrivers, the per-thread timeline of perfetto): the
	 * others read a profile of any length in bounded memory. */
	ro.no_rows = !(o->per_rank || insight.perfetto || insight.advise || insight.html);
	ro.max_windows = max_windows;
	if (lc_profile_read_opts(o->file, &ro, pr, err, sizeof(err)) ||
	    (insight.perfetto && read_places(o->file, o->source, pr, err, sizeof(err)))) {
		warnx("%s: %s", o->file, err);
		return 1;
	}
	if (!list_only && o->source == LC_SRC_SAMPLED && lc_report_stall(*pr, msg, sizeof(msg)))
		warnx("%swarning%s: %s: %s", lc_color(stderr, LC_COLOR_WARNING),
		      lc_color(stderr, NULL), o->file, msg);
	return 0;
}

/* The tables of the plain report (or of -t, --tags, --per-rank).  Returns
 * the exit status. */
static int tables(const struct lc_profile *pr, struct lc_report_opts *o, struct lc_tagnames **tn)
{
	char msg[1536];
	int r = list_only ? print_tags(pr, o) : resolve_tag(pr, o, tn);

	if (r < 0 && where_on)
		r = print_where(pr, o, *tn);
	else if (r < 0)
		r = lc_report_print(pr, o, msg, sizeof(msg));
	else
		*msg = 0;
	if (*msg)
		warnx("%s: %s", o->file, msg);
	if (!r && o->per_rank && lc_report_ranks(pr, o, msg, sizeof(msg))) {
		warnx("%s: %s", o->file, msg);
		r = 1;
	}
	return r;
}

/* The bottleneck table.  Returns the exit status. */
static int bottlenecks(const struct lc_profile *pr, struct lc_report_opts *o,
		       struct lc_tagnames **tn)
{
	char msg[1536];

	*tn = lc_tagnames_of_profile(pr);
	o->tag_name = lc_tagnames_get;
	o->tag_arg = *tn;
	if (!lc_report_bottlenecks(pr, o, bneck_trace, msg, sizeof(msg)))
		return 0;
	warnx("%s: %s", o->file, msg);
	return 1;
}

/* The view the options ask for.  Returns the exit status. */
static int view(const struct lc_profile *pr, struct lc_report_opts *o, struct lc_tagnames **tn)
{
	char msg[1536];
	int r;

	if (where_on && tag_text && where_tag(pr, o, tn))
		where_on = 0;	/* -t 'tag ...': that tag's report, as without --where */
	if (where_on) {
		*tn = lc_tagnames_of_profile(pr);
		return print_where(pr, o, *tn);
	}
	if (bneck_on)
		return bottlenecks(pr, o, tn);
	if (lc_insight_wanted(&insight)) {
		*tn = lc_tagnames_of_profile(pr);
		return lc_insight_run(&insight, pr, o, *tn);
	}
	if (sync_only) {
		r = lc_report_sync(stdout, pr, o->source, (int)o->fmt, msg, sizeof(msg));
		if (r)
			warnx("%s: %s", o->file, msg);
		return r;
	}
	return tables(pr, o, tn);
}

int lc_cmd_report(int argc, char **argv)
{
	struct lc_report_opts o = { .fmt = LC_REPORT_TEXT, .source = LC_SRC_SAMPLED };
	struct lc_profile *pr = NULL;
	struct lc_tagnames *tn = NULL;
	int r;

	r = parse_args(&o, argc, argv);
	if (r >= 0)
		return r;
	r = lc_insight_runs(&insight, &o);
	if (r >= 0)
		return r;
	r = load(&o, &pr) ? 1 : view(pr, &o, &tn);
	lc_tagnames_free(tn);
	lc_profile_free(pr);
	return r;
}
