/*
 * cmd_report.c — "lostcycles report": the options, reading the profile, and
 * exit codes; the printing is postproc/report.c.
 */
#include "lc_cmd.h"
#include "lc_util.h"
#include "report.h"
#include "report_insight.h"
#include "report_sync.h"
#include "tagname.h"

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
	"usage: lostcycles report [-f FILE] [-t TAG | --tags] [--per-thread] [--per-rank]\n"
	"                         [--timeline] [--counters] [--format text|csv|json]\n"
	"                         [-l [NOTE]] [--sync] [--source sampled|trace]\n"
	"                         [--max-windows N] [FILE]\n"
	"\n"
	"Print the predicate profile in FILE (default lostcycles.data): the time\n"
	"lost to each overhead category, summed over the processors.\n"
	"\n"
	"  -f FILE            the profile to read\n"
	"  -t TAG             only the time while fragment TAG was open; TAG is a\n"
	"                     number, or FILE:LINE of an OpenMP construct (--omp)\n"
	"  --tags             list the fragment tags (with names: FILE:LINE) and exit\n"
	"  --sync             synchronization loss per synchronization object (locks,\n"
	"                     barriers, conditions: LC_SYNC_BEGIN_ON, --pthread), largest\n"
	"                     first, and exit\n"
	"  --per-thread       a table of threads x categories\n"
	"  --per-rank         MPI jobs: ranks x categories, and the late arrivers\n"
	"  --timeline         one row per timeline window\n"
	"  --counters         counter totals per event, thread and tag, IPC and\n"
	"                     misses per 1000 instructions (with -t: that tag's)\n"
	"  --format FMT       text (default), csv or json\n"
	"  -l [NOTE]          one pp -l line for a runs file; NOTE is var=value pairs\n"
	"                     (a key of the line itself, e.g. p=4, must agree)\n"
	"  --source SRC       sampled (default) or trace (exact event log)\n"
	"  --max-windows N    hold at most N timeline windows (default 8192), merging\n"
	"                     neighbours pairwise in longer profiles; 0 holds every\n"
	"                     window (memory then grows with the profile's length)\n"
	"  --advise           the dominant categories, their evidence and likely fixes\n"
	"                     (rules: share/advice.txt); --rules FILE other rules,\n"
	"                     --model FILE [--at NAME=VALUE...] rank by predicted gain\n"
	"  --pop              POP efficiency metrics (text or csv); with a runs file as\n"
	"                     FILE: parallel efficiency, computation scalability per run\n"
	"  --timeline --format perfetto\n"
	"                     the timeline as Chrome trace JSON for ui.perfetto.dev\n"
	"  --html OUT.html    one self-contained page: categories, a bar per thread,\n"
	"                     the timeline, the advice; with --model its curves\n"
	"  --plot OUT.png     the per-thread bars and the timeline as PNG (gnuplot;\n"
	"                     OUT.gp and its data files beside it)\n"
	"  --force            replace existing --html or --plot files (kept otherwise)\n"
	"  --help             this text; see also lostcycles-report(1)\n";

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

/* --advise, --pop, --format perfetto (report_insight.c). */
static struct lc_insight insight;

/* --max-windows: the most timeline windows held in memory. */
static uint32_t max_windows = LC_REPORT_MAX_WINDOWS;

/* The word after -l when it is not a note: the FILE, unless another is
 * given (then it was a bad note). */
static const char *after_l;

/* A whole signed decimal tag. */
static int parse_tag(const char *s, int64_t *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

/* Set the format or source from v.  Returns 0, or 2. */
static int set_format(struct lc_report_opts *o, const char *v)
{
	if (!strcmp(v, "text"))
		o->fmt = LC_REPORT_TEXT;
	else if (!strcmp(v, "csv"))
		o->fmt = LC_REPORT_CSV;
	else if (!strcmp(v, "json"))
		o->fmt = LC_REPORT_JSON;
	else
		return usage_error("unknown format '%s' (text, csv or json)", v);
	o->format_set = 1;
	return 0;
}

static int set_source(struct lc_report_opts *o, const char *v)
{
	if (!strcmp(v, "sampled"))
		o->source = LC_SRC_SAMPLED;
	else if (!strcmp(v, "trace"))
		o->source = LC_SRC_TRACE;
	else
		return usage_error("unknown source '%s' (sampled or trace)", v);
	o->source_set = 1;
	return 0;
}

static const struct option long_opts[] = {
	{ "file", required_argument, NULL, 'f' },
	{ "tag", required_argument, NULL, 't' },
	{ "tags", no_argument, NULL, 'L' },
	{ "sync", no_argument, NULL, 'Y' },
	{ "per-thread", no_argument, NULL, 'P' },
	{ "per-rank", no_argument, NULL, 'R' },
	{ "timeline", no_argument, NULL, 'T' },
	{ "counters", no_argument, NULL, 'C' },
	{ "format", required_argument, NULL, 'F' },
	{ "source", required_argument, NULL, 'S' },
	{ "max-windows", required_argument, NULL, 'W' },
	{ "help", no_argument, NULL, 'h' },
	LC_INSIGHT_LONG_OPTS,
	{ NULL, 0, NULL, 0 },
};

/* -l takes an optional NOTE: the next argument when it is var=value pairs
 * rather than an option or the profile's name. */
static void take_note(struct lc_report_opts *o, int argc, char **argv)
{
	o->lline = 1;
	if (optind < argc && argv[optind][0] != '-' && strchr(argv[optind], '='))
		o->note = argv[optind++];
	else if (optind < argc && argv[optind][0] != '-')
		after_l = argv[optind];	/* a FILE, unless -f gives one too */
}

/* A second FILE (first was given before): a usage error that names a word
 * after -l that is neither a note nor, since there is another, the file. */
static int second_file(const char *first, const char *file)
{
	if (first == after_l || file == after_l)
		return usage_error("-l: note '%s' is not var=value pairs", after_l);
	return usage_error("more than one FILE (a second: '%s')", file);
}

/* Set option c (a getopt_long result) from optarg.  Returns -1 to go on, 0
 * after --help, or 2 after a usage error. */
static int set_opt(struct lc_report_opts *o, int c, int argc, char **argv)
{
	int r = lc_insight_opt(&insight, c, optarg);

	if (r != -2)
		return r;
	switch (c) {
	case 'f':
		if (o->file)
			return second_file(o->file, optarg);
		o->file = optarg;
		return -1;
	case 't':
		o->have_tag = 1;
		tag_text = NULL;
		if (!parse_tag(optarg, &o->tag))
			return -1;
		if (!strchr(optarg, ':'))
			return usage_error("bad tag '%s': not an integer or FILE:LINE", optarg);
		tag_text = optarg;
		return -1;
	case 'L':
		list_only = 1;
		return -1;
	case 'Y':
		sync_only = 1;
		return -1;
	case 'P':
		o->per_thread = 1;
		return -1;
	case 'T':
		o->timeline = 1;
		return -1;
	case 'R':
		o->per_rank = 1;
		return -1;
	case 'C':
		o->counters = 1;
		return -1;
	case 'F':
		return set_format(o, optarg) ? 2 : -1;
	case 'S':
		return set_source(o, optarg) ? 2 : -1;
	case 'W': {
		uint64_t v;

		if (lc_parse_u64(optarg, 0, UINT32_MAX, &v) || v == 1)
			return usage_error("bad --max-windows '%s' (0, or a whole number >= 2)",
					   optarg);
		max_windows = (uint32_t)v;
		return -1;
	}
	case 'l':
		take_note(o, argc, argv);
		return -1;
	case 'h':
		fputs(usage_text, stdout);
		return 0;
	case ':':
		return usage_error("option '%s' needs a value", argv[optind - 1]);
	}
	return usage_error("unknown option '%s'", argv[optind - 1]);
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
	if (o->per_rank && (o->have_tag || o->lline || o->fmt == LC_REPORT_JSON))
		return usage_error("%s", "--per-rank does not combine with -t, -l or --format json");
	if (!o->file)
		o->file = "lostcycles.data";
	return -1;
}

/* Parse argv into o: options and at most one FILE operand, in any order.
 * Returns -1 to go on, else an exit status. */
static int parse_args(struct lc_report_opts *o, int argc, char **argv)
{
	int only_files = 0, r;

	optind = 1;
	opterr = 0;
	while (optind < argc) {
		int c = only_files ? -1 : getopt_long(argc, argv, "+:f:t:lh", long_opts, NULL);

		if (c == -1) {
			if (optind >= argc)
				break;
			only_files |= !strcmp(argv[optind - 1], "--");
			if (o->file)
				return second_file(o->file, argv[optind]);
			o->file = argv[optind++];
			continue;
		}
		r = set_opt(o, c, argc, argv);
		if (r >= 0)
			return r;
	}
	r = check_opts(o);
	return r >= 0 ? r : lc_insight_check(&insight, o);
}

/* Names for the fragment tags of pr (of every source).  NULL when out of
 * memory. */
static struct lc_tagnames *tag_names(const struct lc_profile *pr)
{
	struct lc_tagnames *tn;
	uint32_t n = 0, k = 0;
	int64_t *tags;

	for (int s = 0; s < LC_NSRC; s++)
		n += pr->data[s].ntags;
	tags = calloc(n + 1, sizeof(*tags));
	if (!tags)
		return NULL;
	for (int s = 0; s < LC_NSRC; s++)
		for (uint32_t i = 0; i < pr->data[s].ntags; i++)
			tags[k++] = pr->data[s].tags[i].tag;
	tn = lc_tagnames_new(pr->info.command, tags, k);
	free(tags);
	return tn;
}

/* --tags: one line per fragment tag of the source o asks for, "TAG" or
 * "TAG NAME".  Returns 0, or 1 when out of memory. */
static int print_tags(const struct lc_profile *pr, const struct lc_report_opts *o)
{
	const struct lc_prof_data *d = &pr->data[o->source];
	struct lc_tagnames *tn = tag_names(pr);

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

/* With -t: name the profile's tags for the report, and turn a FILE:LINE
 * operand into its tag.  Returns -1 to go on, or 1 after a message. */
static int resolve_tag(const struct lc_profile *pr, struct lc_report_opts *o,
		       struct lc_tagnames **tn)
{
	if (!o->have_tag)
		return -1;
	*tn = tag_names(pr);
	o->tag_name = lc_tagnames_get;
	o->tag_arg = *tn;
	if (!tag_text || !lc_tagnames_find(*tn, tag_text, &o->tag))
		return -1;
	warnx("%s: no fragment tag is named '%s' (--tags lists them)", o->file, tag_text);
	return 1;
}

int lc_cmd_report(int argc, char **argv)
{
	struct lc_report_opts o = { .fmt = LC_REPORT_TEXT, .source = LC_SRC_SAMPLED };
	struct lc_profile *pr = NULL;
	struct lc_tagnames *tn = NULL;
	struct lc_read_opts ro = { 0 };
	char err[256], msg[1536];
	int r;

	r = parse_args(&o, argc, argv);
	if (r >= 0)
		return r;
	r = lc_insight_runs(&insight, &o);
	if (r >= 0)
		return r;
	/* The per-window thread rows are kept only for the views that use
	 * them (late arrivers, the per-thread timeline of perfetto): the
	 * others read a profile of any length in bounded memory. */
	ro.no_rows = !(o.per_rank || insight.perfetto || insight.advise || insight.html);
	ro.max_windows = max_windows;
	if (lc_profile_read_opts(o.file, &ro, &pr, err, sizeof(err))) {
		warnx("%s: %s", o.file, err);
		return 1;
	}
	if (!list_only && o.source == LC_SRC_SAMPLED && lc_report_stall(pr, msg, sizeof(msg)))
		warnx("warning: %s: %s", o.file, msg);
	if (lc_insight_wanted(&insight)) {
		tn = tag_names(pr);
		r = lc_insight_run(&insight, pr, &o, tn);
		lc_tagnames_free(tn);
		lc_profile_free(pr);
		return r;
	}
	if (sync_only) {
		r = lc_report_sync(stdout, pr, o.source, (int)o.fmt, msg, sizeof(msg));
		if (r)
			warnx("%s: %s", o.file, msg);
		lc_profile_free(pr);
		return r;
	}
	r = list_only ? print_tags(pr, &o) : resolve_tag(pr, &o, &tn);
	if (r < 0)
		r = lc_report_print(pr, &o, msg, sizeof(msg));
	else
		*msg = 0;
	if (*msg)
		warnx("%s: %s", o.file, msg);
	if (!r && o.per_rank && lc_report_ranks(pr, &o, msg, sizeof(msg))) {
		warnx("%s: %s", o.file, msg);
		r = 1;
	}
	lc_tagnames_free(tn);
	lc_profile_free(pr);
	return r;
}
