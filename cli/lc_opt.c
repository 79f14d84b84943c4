/*
 * lc_opt.c — option tables: parsing with getopt_long, the generated --help,
 * the --list-opts dump, and the option values several commands share.
 * See lc_opt.h.
 */
#include "lc_opt.h"
#include "lc_util.h"
#include "lca_grid.h"
#include "lca_predict.h"

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS_MAX 96			/* rows of one table, --help and --list-opts */
#define CODE_ROW 0x1000			/* getopt code of a row without short letter */
#define CODE_HELP 0x0f00
#define CODE_LIST 0x0f01

/* The parse in progress (getopt_long's state is global anyway), and the
 * options the latest one saw (by name: the table may be gone by then). */
static struct {
	struct {
		const char *name;
		int shortc;
	} seen[ROWS_MAX];
	int nseen;
	int argc;
	char **argv;
	char name[64];		/* the subcommand's, for messages */
	const struct lc_opt *table;	/* the table of the parse, nrows rows */
	int nrows;
} cur;

/* The subcommand's name for messages: argv[0] of the latest parse. */
static const char *cmd_name(void)
{
	return cur.name[0] ? cur.name : "?";
}

/* A usage error: one line, status LC_OPT_USAGE. */
static int usage_error(const char *fmt, const char *a, const char *b)
{
	char msg[512];

	snprintf(msg, sizeof(msg), fmt, a, b);
	warnx("%s (see 'lostcycles %s --help')", msg, cmd_name());
	return LC_OPT_USAGE;
}

int lc_opt_bad(const struct lc_opt *opt, const char *arg, const char *why)
{
	if (opt->hint)
		why = opt->hint;
	if (why)
		warnx("bad %s '%s' (%s)", lc_opt_name(opt), arg ? arg : "", why);
	else
		warnx("bad %s '%s'", lc_opt_name(opt), arg ? arg : "");
	return -1;
}

/* A number in [min, max] into a field of size bytes. */
static int set_number(const struct lc_opt *opt, const char *arg)
{
	char why[96];
	uint64_t v;

	if (!lc_parse_u64(arg, opt->min, opt->max, &v)) {
		if (opt->size == 1)
			*(uint8_t *)opt->field = (uint8_t)v;
		else if (opt->size == 2)
			*(uint16_t *)opt->field = (uint16_t)v;
		else if (opt->size == 4)
			*(uint32_t *)opt->field = (uint32_t)v;
		else
			*(uint64_t *)opt->field = v;
		return 0;
	}
	if (opt->max >= UINT32_MAX)
		snprintf(why, sizeof(why), "a whole number, %llu or more",
			 (unsigned long long)opt->min);
	else
		snprintf(why, sizeof(why), "a whole number, %llu to %llu",
			 (unsigned long long)opt->min, (unsigned long long)opt->max);
	return lc_opt_bad(opt, arg, why);
}

/* A finite real in [dmin, dmax] into a double. */
static int set_real(const struct lc_opt *opt, const char *arg)
{
	char *end, why[96];
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end != arg && !*end && !errno && isfinite(v) && v >= opt->dmin && v <= opt->dmax) {
		*(double *)opt->field = v;
		return 0;
	}
	snprintf(why, sizeof(why), "a number from %g to %g", opt->dmin, opt->dmax);
	return lc_opt_bad(opt, arg, why);
}

/* ns as the shortest exact "10s", "2ms", "100us" or "5ns". */
static void fmt_ns(uint64_t ns, char *buf, size_t len)
{
	static const struct { uint64_t div; const char *unit; } u[] = {
		{ 1000000000u, "s" }, { 1000000u, "ms" }, { 1000u, "us" }, { 1u, "ns" },
	};
	int i = 0;

	while (ns && ns % u[i].div)
		i++;
	snprintf(buf, len, "%llu%s", (unsigned long long)(ns / u[i].div), u[i].unit);
}

/* A duration in [min, max] ns into a uint64_t. */
static int set_duration(const struct lc_opt *opt, const char *arg)
{
	char lo[32], hi[32], why[96];
	uint64_t v;

	if (lc_parse_duration(arg, &v))
		return lc_opt_bad(opt, arg, "a time such as 100us, 2ms or 1.5s");
	if (v >= opt->min && v <= opt->max) {
		*(uint64_t *)opt->field = v;
		return 0;
	}
	fmt_ns(opt->min, lo, sizeof(lo));
	fmt_ns(opt->max, hi, sizeof(hi));
	if (opt->max == UINT64_MAX)
		snprintf(why, sizeof(why), "%s or more", lo);
	else
		snprintf(why, sizeof(why), "%s to %s", lo, hi);
	return lc_opt_bad(opt, arg, why);
}

/* Write the words of an enum as "a, b or c" into buf. */
static void list_words(const struct lc_opt_word *w, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (int i = 0; w[i].word && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i == 0 ? "" :
				       w[i + 1].word ? ", " : " or ", w[i].word);
}

/* The word of w nearest to arg, or NULL. */
static const char *nearest_word(const struct lc_opt_word *w, const char *arg)
{
	const char *cands[64];
	size_t n = 0;

	while (n < 64 && w[n].word) {
		cands[n] = w[n].word;
		n++;
	}
	return lc_opt_nearest(arg, cands, n);
}

/* One of the words into an int. */
static int set_enum(const struct lc_opt *opt, const char *arg)
{
	char words[256];

	for (int i = 0; opt->words[i].word; i++)
		if (!strcmp(arg, opt->words[i].word)) {
			*(int *)opt->field = opt->words[i].value;
			return 0;
		}
	list_words(opt->words, words, sizeof(words));
	warnx("bad %s '%s': unknown %s (%s)%s%s%s", lc_opt_name(opt), arg,
	      opt->argname && opt->name ? opt->name : "value", opt->hint ? opt->hint : words,
	      nearest_word(opt->words, arg) ? "; did you mean '" : "",
	      nearest_word(opt->words, arg) ? nearest_word(opt->words, arg) : "",
	      nearest_word(opt->words, arg) ? "'?" : "");
	return -1;
}

/* Set the field of opt from arg.  Returns 0 or -1 after a message. */
static int set_field(const struct lc_opt *opt, const char *arg)
{
	switch (opt->kind) {
	case LC_OPT_K_FLAG:
		*(int *)opt->field = opt->ival;
		return 0;
	case LC_OPT_K_STRING:
		*(const char **)opt->field = arg;
		return 0;
	case LC_OPT_K_NUMBER:
		return set_number(opt, arg);
	case LC_OPT_K_REAL:
		return set_real(opt, arg);
	case LC_OPT_K_DURATION:
		return set_duration(opt, arg);
	case LC_OPT_K_ENUM:
		if (!arg)	/* an optional word not given: ival */
			*(int *)opt->field = opt->ival;
		return arg ? set_enum(opt, arg) : 0;
	case LC_OPT_K_CALLBACK:
		return opt->cb(opt, arg);
	case LC_OPT_K_END:
		break;
	}
	return -1;
}

int lc_opt_set(const struct lc_opt *opt, const char *arg)
{
	return set_field(opt, arg);
}

/* getopt_long's has_arg of opt. */
static int has_arg(const struct lc_opt *opt)
{
	if (opt->flags & LC_OPT_OPTARG)
		return optional_argument;
	if (opt->flags & LC_OPT_PEEK)
		return no_argument;
	return opt->argname ? required_argument : no_argument;
}

/* Build getopt_long's long options and short string from table. */
static void build(const struct lc_opt *table, int n, struct option *lo, char *sh)
{
	int k = 0;

	*sh++ = '+';
	*sh++ = ':';
	for (int i = 0; i < n; i++) {
		const struct lc_opt *o = &table[i];
		int code = o->shortc ? o->shortc : CODE_ROW + i;

		if (o->name)
			lo[k++] = (struct option){ o->name, has_arg(o), NULL, code };
		if (!o->shortc)
			continue;
		*sh++ = (char)o->shortc;
		if (has_arg(o) != no_argument)
			*sh++ = ':';
		if (has_arg(o) == optional_argument)
			*sh++ = ':';
	}
	if (!lc_opt_uses_short(table, 'h'))
		*sh++ = 'h';
	*sh = 0;
	lo[k++] = (struct option){ "help", no_argument, NULL, CODE_HELP };
	lo[k++] = (struct option){ "list-opts", no_argument, NULL, CODE_LIST };
	lo[k] = (struct option){ NULL, 0, NULL, 0 };
}

/* The row of getopt code c, or -1. */
static int row_of(const struct lc_opt *table, int n, int c)
{
	if (c >= CODE_ROW && c < CODE_ROW + n)
		return c - CODE_ROW;
	for (int i = 0; i < n; i++)
		if (table[i].shortc == c)
			return i;
	return -1;
}

/* The edit distance of a and b (Levenshtein), b at most 63 letters. */
static size_t edits(const char *a, const char *b)
{
	size_t nb = strlen(b), row[64], diag, up;

	if (nb >= 64)
		return (size_t)-1;
	for (size_t j = 0; j <= nb; j++)
		row[j] = j;
	for (size_t i = 1; a[i - 1]; i++) {
		diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= nb; j++) {
			up = row[j];
			row[j] = a[i - 1] == b[j - 1] ? diag :
				 1 + (diag < up ? (diag < row[j - 1] ? diag : row[j - 1]) :
						  (up < row[j - 1] ? up : row[j - 1]));
			diag = up;
		}
	}
	return row[nb];
}

const char *lc_opt_nearest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	size_t dbest = (size_t)-1, lw = strlen(word);

	for (size_t i = 0; lw && i < n; i++) {
		size_t lc, d, most;

		if (!cands[i])
			continue;
		lc = strlen(cands[i]);
		d = !strncmp(cands[i], word, lw) ? 1 : edits(word, cands[i]);
		most = (lc > lw ? lc : lw) / 3;
		if (d <= (most < 3 ? most : 3) && d < dbest) {
			dbest = d;
			best = cands[i];
		}
	}
	return best;
}

/* "; did you mean '--NAME'?" for an unknown long option word ("--nmae" or
 * "--nmae=x") of the table being parsed, into buf ("" when none is near). */
static const char *did_you_mean(const char *word, char *buf, size_t len)
{
	const char *cands[ROWS_MAX + 2], *near;
	char name[64];
	size_t n = 0;

	*buf = 0;
	if (strncmp(word, "--", 2))
		return buf;
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(word + 2, "="), word + 2);
	for (int i = 0; i < cur.nrows && n < ROWS_MAX; i++)
		if (cur.table[i].help && cur.table[i].name)
			cands[n++] = cur.table[i].name;
	cands[n++] = "help";
	near = lc_opt_nearest(name, cands, n);
	if (near && strcmp(near, name))
		snprintf(buf, len, "; did you mean '--%s'?", near);
	return buf;
}

/* The message of getopt's '?' (unknown option, or a value given to a flag)
 * and ':' (a value missing). */
static int getopt_error(int c)
{
	const char *word = cur.argv[optind - 1];
	char letter[3] = { '-', (char)optopt, 0 }, hint[96];

	/* a short option in a group ("-qz") is not the whole word */
	if (optopt > 0 && optopt < 0x100 && strncmp(word, "--", 2))
		word = letter;
	if (c == ':')
		return usage_error("option '%s' needs a value%s", word, "");
	did_you_mean(word, hint, sizeof(hint));
	if (!strncmp(word, "--", 2) && strchr(word, '=') && !*hint)
		return usage_error("unknown option '%s', or it takes no value%s", word, "");
	return usage_error("unknown option '%s'%s", word, hint);
}

/* Take option code c.  Returns 0 to go on, else the parse's result. */
static int take(const struct lc_opt *table, int n, const char *const *usage, int c)
{
	int i;

	if (c == CODE_HELP || (c == 'h' && !lc_opt_uses_short(table, 'h'))) {
		lc_opt_help(stdout, table, usage);
		return LC_OPT_HELP;
	}
	if (c == CODE_LIST) {
		lc_opt_dump(stdout, table);
		return LC_OPT_HELP;
	}
	i = row_of(table, n, c);
	if (c == '?' || c == ':' || i < 0)
		return getopt_error(c);
	if (cur.nseen < ROWS_MAX) {
		cur.seen[cur.nseen].name = table[i].name;
		cur.seen[cur.nseen++].shortc = table[i].shortc;
	}
	return set_field(&table[i], optarg) ? LC_OPT_USAGE : 0;
}

int lc_opt_parse(int argc, char **argv, const struct lc_opt *table,
		 const char *const *usage, char ***rest)
{
	struct option lo[ROWS_MAX + 3];
	char sh[3 * ROWS_MAX + 4];
	int n = lc_opt_rows(table), w = 1, stop = table[n].flags & LC_OPT_STOP;

	if (n > ROWS_MAX)
		errx(70, "lc_opt_parse: more than %d options", ROWS_MAX);
	build(table, n, lo, sh);
	cur.nseen = 0;
	cur.table = table;
	cur.nrows = n;
	cur.argc = argc;
	cur.argv = argv;
	snprintf(cur.name, sizeof(cur.name), "%s", argc > 0 && argv[0] ? argv[0] : "");
	optind = 0;	/* a full reset of getopt_long (glibc) */
	opterr = 0;
	for (;;) {
		int before = optind ? optind : 1, c = getopt_long(argc, argv, sh, lo, NULL), r;

		if (c != -1) {
			r = take(table, n, usage, c);
			if (r)
				return r;
			continue;
		}
		if (optind >= argc || stop)
			break;
		if (optind - 1 >= before && !strcmp(argv[optind - 1], "--")) {
			while (optind < argc)	/* after "--": operands only */
				argv[w++] = argv[optind++];
			break;
		}
		argv[w++] = argv[optind++];	/* an operand; options may follow */
	}
	if (stop) {
		*rest = argv + optind;
		return argc - optind;
	}
	*rest = argv + 1;
	return w - 1;
}

int lc_opt_given(const char *name, int c)
{
	for (int i = 0; i < cur.nseen; i++) {
		const char *n = cur.seen[i].name;

		if ((name && n && !strcmp(name, n)) || (!name && c && cur.seen[i].shortc == c))
			return 1;
	}
	return 0;
}

const char *lc_opt_peek(void)
{
	return optind < cur.argc ? cur.argv[optind] : NULL;
}

void lc_opt_take(void)
{
	if (optind < cur.argc)
		optind++;
}

/* The values of g, one per axis, into at.  0, or -1 after a message. */
static int at_take(const struct lc_opt *opt, const char *arg, const struct lc_grid *g,
		   struct lc_opt_at *at)
{
	size_t used = 0;

	for (int i = 0; i < g->naxes; i++) {
		size_t k = strlen(g->axis[i].name) + 1;

		if (g->axis[i].n != 1)
			return lc_opt_bad(opt, arg, "one value a name: --at is one point");
		if (i == LC_OPT_AT_MAX || used + k > sizeof(at->buf))
			return lc_opt_bad(opt, arg, "too many names");
		at->names[i] = memcpy(at->buf + used, g->axis[i].name, k);
		at->vals[i] = g->axis[i].v[0];
		used += k;
		at->n = i + 1;
	}
	return 0;
}

/* --at: the point grammar of predict's --at and --grid (lca_grid.h), one
 * value a name. */
int lc_opt_at(const struct lc_opt *opt, const char *arg)
{
	struct lc_opt_at *at = opt->field;
	struct lc_grid g = { 0 };
	char msg[256];
	int rc;

	at->n = 0;
	at->text = arg;
	if (lc_grid_parse(arg, &g, msg, sizeof(msg)))
		rc = lc_opt_bad(opt, arg, msg);
	else
		rc = at_take(opt, arg, &g, at);
	lc_grid_free(&g);
	return rc;
}

/* --max-points.  See lc_opt.h. */
int lc_opt_max_points(const struct lc_opt *opt, const char *arg)
{
	uint64_t v;

	if (lc_parse_u64(arg, 1, SIZE_MAX, &v)) {
		warnx("bad --max-points '%s' (a count, 1 or more)", arg);
		return -1;
	}
	*(size_t *)opt->field = (size_t)v;
	return 0;
}

/* Options and no operand.  See lc_opt.h. */
int lc_opt_parse_only(int argc, char **argv, const struct lc_opt *opts,
		      const char *const *usage)
{
	char **rest;
	int n = lc_opt_parse(argc, argv, opts, usage, &rest);

	if (n < 0)
		return LC_OPT_EXIT(n);
	if (!n)
		return -1;
	warnx("unexpected argument '%s'; see 'lostcycles %s --help'", rest[0], argv[0]);
	return 2;
}

int lc_opt_whatif(const struct lc_opt *opt, const char *arg)
{
	struct lc_whatifs *w = opt->field;

	if (w->n == LC_WHATIF_MAX) {
		warnx("at most %d --what-if scenarios", LC_WHATIF_MAX);
		return -1;
	}
	w->v[w->n++] = arg;
	return 0;
}
