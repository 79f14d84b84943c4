/*
 * lc_opt.h — the options of a subcommand as one table (the idea of perf's
 * parse-options.h).  Each row names a long option, its short letter, the
 * kind of argument it takes, the argument's name and one help line, and the
 * variable it sets (or a callback).  lc_opt_parse() does all the getopt_long
 * work from the table, parses numbers and durations with full checks, prints
 * a one-line "lostcycles SUB: ..." message on bad input, and generates
 * --help; "lostcycles SUB --list-opts" dumps the table for the help test
 * (tests/t_help.sh) and the shell completion ("lostcycles --completion bash"),
 * so that neither can drift from the options.
 *
 * A table is an array of rows built with the LC_OPT_* macros below and
 * ended by LC_OPT_END() (operands and options in any order; "--" ends the
 * options) or LC_OPT_END_AT_OPERAND() (the options end at the first operand,
 * for commands that take a command line: record, sweep, exec).  -h/--help
 * and --list-opts are added by lc_opt_parse; a table does not list them.
 *
 *	static int force;
 *	static const char *out = "job.data";
 *	static const char *const usage[] = {
 *		"lostcycles merge [-o FILE] [--force] NODEFILE...",
 *		"",
 *		"Combine the node files of one MPI job into one job profile.",
 *		NULL,
 *	};
 *	const struct lc_opt opts[] = {
 *		LC_OPT_STRING("output", 'o', "FILE", "the job profile", &out),
 *		LC_OPT_FLAG("force", 0, "replace FILE when it exists", &force),
 *		LC_OPT_END(),
 *	};
 *	char **rest;
 *	int n = lc_opt_parse(argc, argv, opts, usage, &rest);
 *
 *	if (n < 0)
 *		return LC_OPT_EXIT(n);	// 0 after --help, 2 after a usage error
 *	// rest[0 .. n-1] are the operands
 *
 * Not thread-safe (getopt_long is not): the command layer's main thread only.
 */
#ifndef LC_OPT_H
#define LC_OPT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>


#include "lc_opt_table.h"

/* lc_opt_parse's results besides an operand count. */
#define LC_OPT_HELP  (-1)	/* --help or --list-opts printed: exit 0 */
#define LC_OPT_USAGE (-2)	/* a usage error, message printed: exit 2 */
#define LC_OPT_EXIT(n) ((n) == LC_OPT_HELP ? 0 : 2)

/*
 * Parse argv (argv[0] is the subcommand's name, as lc_cmd_NAME gets it)
 * against table.  usage holds the synopsis lines ("lostcycles NAME ..."),
 * then optionally an empty string and lines of description, ended by NULL:
 * --help prints them and the table's options with their help lines.
 * Sets the fields of the options given; fields of options not given keep
 * their values (the defaults).  On success returns the number of operands
 * and points *rest at them (the operands are gathered at the start of
 * argv[1..], in order; with LC_OPT_END_AT_OPERAND, *rest is the command line
 * after the options).  Returns LC_OPT_HELP after --help (on stdout) or
 * --list-opts, LC_OPT_USAGE after a one-line message on stderr.
 */
int lc_opt_parse(int argc, char **argv, const struct lc_opt *table,
		 const char *const *usage, char ***rest);

/* Whether the option of long name (or, name NULL, short letter c) was
 * given in the latest lc_opt_parse. */
int lc_opt_given(const char *name, int c);

/* Inside a callback: the word after the option's own (NULL at the end),
 * and taking it as the option's (lc_opt_take), for an option whose value
 * may be the next word or not (report -l [NOTE]). */
const char *lc_opt_peek(void);
void lc_opt_take(void);

/* Print "bad OPTION 'ARG' (why)" (why: opt->hint when set) as the usage
 * message of a callback.  Returns -1. */
int lc_opt_bad(const struct lc_opt *opt, const char *arg, const char *why);

/* The word of cands[0..n) nearest to word (by edit distance, at most a
 * third of the longer word's letters and at most 3 edits; a word that
 * starts the candidate counts as near), for a "did you mean" line; NULL
 * when none is near.  NULL candidates are skipped. */
const char *lc_opt_nearest(const char *word, const char *const *cands, size_t n);

/* Shared option values and callbacks. */

/* NAME=VALUE pairs of one point (--at "n=1024 p=26"), in the grammar of
 * predict's --at (postproc/lca/lca_grid.h), the one parser of points. */
#define LC_OPT_AT_MAX 16
struct lc_opt_at {
	int n;
	const char *names[LC_OPT_AT_MAX];
	double vals[LC_OPT_AT_MAX];
	const char *text;	/* the argument as given */
	char buf[512];
};
/* Callback of --at: field is a struct lc_opt_at (a second --at replaces it). */
int lc_opt_at(const struct lc_opt *opt, const char *arg);

/* The values of the words of every --format (an LC_OPT_ENUM whose word
 * table lists the formats the command writes). */
enum { LC_FMT_TEXT, LC_FMT_CSV, LC_FMT_JSON, LC_FMT_JSONL, LC_FMT_FORMULA, LC_FMT_PERFETTO };

/* Set opt's field from arg as lc_opt_parse does for opt's kind (for a
 * callback that sets a field of a plain kind and then more).  Returns 0 or
 * -1 after a message. */
int lc_opt_set(const struct lc_opt *opt, const char *arg);

/* Callback of --max-points N (predict, compose): a count of grid points,
 * 1 or more, into the size_t field.  Returns 0, or -1 after a message. */
int lc_opt_max_points(const struct lc_opt *opt, const char *arg);
/* The --max-points row of predict and compose, with its help line H. */
#define LC_OPT_MAX_POINTS(H, P) LC_OPT_CALLBACK("max-points", 0, "N", (H), (P), lc_opt_max_points)

/* Parse the options of a command that takes no operand: -1 to go on, or
 * the exit status (0 after --help, 2 after a usage message). */
int lc_opt_parse_only(int argc, char **argv, const struct lc_opt *opts,
		      const char *const *usage);

/* Callback of --what-if SCENARIO (repeatable): the next of the struct
 * lc_whatifs opt->field; -1 after a message beyond LC_WHATIF_MAX. */
int lc_opt_whatif(const struct lc_opt *opt, const char *arg);

#endif
