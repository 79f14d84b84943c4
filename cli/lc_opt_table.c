/*
 * lc_opt_table.c — what an option table says of itself: the name of an
 * option, --help and the --list-opts dump (lc_opt_table.h).
 */
#include "lc_opt_table.h"

#include <string.h>

#include "lc_profile.h"

#define HELP_COL_MAX 26			/* where help lines start, at most */

/* The words of --color (LC_OPT_COLOR). */
const struct lc_opt_word lc_opt_color_words[] = {
	{ "auto", LC_COLOR_AUTO }, { "always", LC_COLOR_ALWAYS }, { "never", LC_COLOR_NEVER },
	{ NULL, 0 },
};


/* The subcommand's name: the word after "lostcycles " in usage's first
 * line, into buf ("?" when there is none). */
static const char *cmd_name(const char *const *usage, char *buf, size_t len)
{
	const char *u = usage && usage[0] ? strstr(usage[0], "lostcycles ") : NULL;

	snprintf(buf, len, "%.*s", u ? (int)strcspn(u + 11, " ") : 1, u ? u + 11 : "?");
	return buf;
}

const char *lc_opt_name(const struct lc_opt *opt)
{
	static char buf[2][80];
	static int k;

	k ^= 1;
	if (opt->name)
		snprintf(buf[k], sizeof(buf[k]), "--%s", opt->name);
	else
		snprintf(buf[k], sizeof(buf[k]), "-%c", opt->shortc);
	return buf[k];
}

/* The number of rows of table (before its END row). */
int lc_opt_rows(const struct lc_opt *table)
{
	int n = 0;

	while (table[n].kind != LC_OPT_K_END)
		n++;
	return n;
}

/* Whether opt is left out of --help and the completion. */
static int hidden(const struct lc_opt *opt)
{
	return !opt->help || (opt->flags & LC_OPT_HIDDEN);
}

/* Whether the table uses letter c. */
int lc_opt_uses_short(const struct lc_opt *table, int c)
{
	for (int i = 0; table[i].kind != LC_OPT_K_END; i++)
		if (table[i].shortc == c)
			return 1;
	return 0;
}

/* The label of opt in --help: "-o, --output=FILE", "    --force", "-l [NOTE]". */
static void label(const struct lc_opt *opt, char *buf, size_t len)
{
	const char *a = opt->argname;
	int opt_arg = opt->flags & LC_OPT_OPTARG, peek = opt->flags & LC_OPT_PEEK;

	if (!opt->name) {
		snprintf(buf, len, "-%c%s%s%s%s", opt->shortc, a ? " " : "",
			 a && (opt_arg || peek) ? "[" : "", a ? a : "",
			 a && (opt_arg || peek) ? "]" : "");
		return;
	}
	snprintf(buf, len, "%s%c%s--%s%s%s%s", opt->shortc ? "-" : " ",
		 opt->shortc ? opt->shortc : ' ', opt->shortc ? ", " : "  ", opt->name,
		 a && opt_arg ? "[=" : a && peek ? " [" : a ? "=" : "", a ? a : "",
		 a && (opt_arg || peek) ? "]" : "");
}

/* One option of --help: the label, then the help line from column col
 * (its "\n"-separated parts each on a line of their own). */
static void help_row(FILE *f, const char *lab, const char *help, int col)
{
	if ((int)strlen(lab) + 4 > col)
		fprintf(f, "  %s\n%*s", lab, col, "");
	else
		fprintf(f, "  %-*s", col - 2, lab);
	for (const char *p = help; *p;) {
		const char *nl = strchr(p, '\n');
		int k = nl ? (int)(nl - p) : (int)strlen(p);

		fprintf(f, "%.*s\n", k, p);
		p += k + (nl != NULL);
		if (*p)
			fprintf(f, "%*s", col, "");
	}
}

void lc_opt_help(FILE *f, const struct lc_opt *table, const char *const *usage)
{
	static const struct lc_opt help = LC_OPT_FLAG("help", 'h', "", NULL);
	char lab[128], more[160], name[64];
	int col = 0, i = 0;

	for (; usage && usage[i] && usage[i][0]; i++)
		fprintf(f, "%s%s\n", i ? "       " : "usage: ", usage[i]);
	for (; usage && usage[i]; i++)
		fprintf(f, "%s\n", usage[i]);
	for (int k = 0; table[k].kind != LC_OPT_K_END; k++) {
		label(&table[k], lab, sizeof(lab));
		if (!hidden(&table[k]) && (int)strlen(lab) + 4 > col)
			col = (int)strlen(lab) + 4;
	}
	col = col > HELP_COL_MAX ? HELP_COL_MAX : col < 18 ? 18 : col;
	fputc('\n', f);
	for (int k = 0; table[k].kind != LC_OPT_K_END; k++) {
		if (hidden(&table[k]))
			continue;
		label(&table[k], lab, sizeof(lab));
		help_row(f, lab, table[k].help, col);
	}
	label(&help, lab, sizeof(lab));
	if (lc_opt_uses_short(table, 'h'))
		snprintf(lab, sizeof(lab), "    --help");
	snprintf(more, sizeof(more), "this text; see also lostcycles-%s(1)", cmd_name(usage, name, sizeof(name)));
	help_row(f, lab, more, col);
}

/* The kind of opt as --list-opts names it. */
static void kind_name(const struct lc_opt *opt, char *buf, size_t len)
{
	static const char *const names[] = {
		[LC_OPT_K_FLAG] = "flag", [LC_OPT_K_STRING] = "string",
		[LC_OPT_K_NUMBER] = "number", [LC_OPT_K_REAL] = "real",
		[LC_OPT_K_DURATION] = "duration", [LC_OPT_K_ENUM] = "enum",
		[LC_OPT_K_CALLBACK] = "callback",
	};
	const char *arg = opt->argname ? opt->argname : "";
	size_t at;

	if (opt->name && !strcmp(opt->name, "file") && !strcmp(arg, "FILE")) {
		snprintf(buf, len, "profile");	/* report -f: a profile (*.data) */
		return;
	}
	if (!strcmp(arg, "DIR")) {
		snprintf(buf, len, "dir");
		return;
	}
	if (opt->kind == LC_OPT_K_STRING && (opt->flags & LC_OPT_FILE)) {
		snprintf(buf, len, "file");
		return;
	}
	if (!strcmp(arg, "CAT")) {	/* a category key */
		at = (size_t)snprintf(buf, len, "enum");
		for (int c = 0; c < LC_NCAT && at < len; c++)
			at += (size_t)snprintf(buf + at, len - at, "%c%s", c ? '|' : ':',
					       lc_cat_info(c)->key);
		return;
	}
	at = (size_t)snprintf(buf, len, "%s", names[opt->kind]);
	for (int i = 0; opt->kind == LC_OPT_K_ENUM && opt->words[i].word && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%c%s", i ? '|' : ':',
				       opt->words[i].word);
}

void lc_opt_dump(FILE *f, const struct lc_opt *table)
{
	char kind[256], sh[3];

	for (int i = 0; table[i].kind != LC_OPT_K_END; i++) {
		const struct lc_opt *o = &table[i];

		kind_name(o, kind, sizeof(kind));
		snprintf(sh, sizeof(sh), "-%c", o->shortc ? o->shortc : 0);
		fprintf(f, "%s%s\t%s\t%s%s%s\t%s\t%s\n", o->name ? "--" : "-",
			o->name ? o->name : "", sh, o->flags & (LC_OPT_PEEK | LC_OPT_OPTARG) ? "[" : "",
			o->argname ? o->argname : "-",
			o->flags & (LC_OPT_PEEK | LC_OPT_OPTARG) ? "]" : "", kind,
			hidden(o) ? "hidden" : "-");
	}
	fprintf(f, "--help\t%s\t-\tflag\t-\n", lc_opt_uses_short(table, 'h') ? "-" : "-h");
}

