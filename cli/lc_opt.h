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

#include "lc_color.h"

/* What an option's argument is, and so how its field is set. */
enum lc_opt_kind {
	LC_OPT_K_END = 0,	/* ends the table */
	LC_OPT_K_FLAG,		/* no argument: *(int *)field = ival (1 for LC_OPT_FLAG) */
	LC_OPT_K_STRING,	/* *(const char **)field = the argument */
	LC_OPT_K_NUMBER,	/* a whole number in [min, max] into an unsigned field of
				 * size bytes (1, 2, 4 or 8: uint32_t, size_t, int, ...) */
	LC_OPT_K_REAL,		/* a finite real in [dmin, dmax] into a double */
	LC_OPT_K_DURATION,	/* a time with units (100us, 2ms, 1.5s; none: us) in
				 * [min, max] nanoseconds into a uint64_t */
	LC_OPT_K_ENUM,		/* one of the words of a word table: its value into an int */
	LC_OPT_K_CALLBACK,	/* cb(opt, arg) does the work (repeated options, pairs) */
};

/* Row flags. */
#define LC_OPT_HIDDEN 0x1u	/* (a help line NULL is the same) not in --help nor the
				 * completion (internal options); still in --list-opts,
				 * marked hidden */
#define LC_OPT_OPTARG 0x2u	/* the argument is optional (--name=ARG only); the
				 * callback or string gets NULL when it is absent */
#define LC_OPT_STOP   0x4u	/* on the END row: options end at the first operand */
#define LC_OPT_FILE   0x8u	/* the argument names a file (for the completion) */
#define LC_OPT_PEEK   0x10u	/* no argument of its own: the callback may take the
				 * next word (lc_opt_peek); shown as -C [ARG] */

/* One accepted word of an LC_OPT_K_ENUM option, and the value it sets. */
struct lc_opt_word {
	const char *word;
	int value;
};

struct lc_opt;

/* A callback: take arg (NULL for an option without argument, or an
 * optional one not given) into opt->field.  Returns 0, or -1 after a
 * one-line message (warnx, or lc_opt_bad). */
typedef int (*lc_opt_cb)(const struct lc_opt *opt, const char *arg);

/* One option. */
struct lc_opt {
	enum lc_opt_kind kind;
	const char *name;	/* long name without "--", or NULL (short only) */
	int shortc;		/* the short letter, or 0 */
	const char *argname;	/* the argument's name in --help (FILE, TIME), NULL:
				 * no argument */
	const char *help;	/* one help line; a "\n" continues it on the next line;
				 * NULL: hidden (an internal option) */
	void *field;		/* what it sets */
	size_t size;		/* sizeof *field, for NUMBER */
	uint64_t min, max;	/* NUMBER and DURATION bounds */
	double dmin, dmax;	/* REAL bounds (inclusive) */
	int ival;		/* FLAG: the value set */
	const struct lc_opt_word *words;	/* ENUM: ended by a NULL word */
	lc_opt_cb cb;		/* CALLBACK */
	const char *hint;	/* the parenthesis of the bad-value message (NULL:
				 * made from the kind and bounds) */
	unsigned flags;		/* LC_OPT_HIDDEN, _OPTARG, _FILE, _PEEK, _STOP */
};

/* P as a void pointer, checked to point to T (a warning otherwise); a
 * constant expression, so that tables may be static. */
#define LC_OPT_PTR(T, P) ((void *)(1 ? (P) : (T *)0))

/* Rows.  L is the long name ("output"), S the short letter or 0, A the
 * argument's name, H the help line, P a pointer to the field. */
#define LC_OPT_FLAG(L, S, H, P) \
	{ .kind = LC_OPT_K_FLAG, .name = (L), .shortc = (S), .help = (H), \
	  .field = LC_OPT_PTR(int, P), .ival = 1 }
/* A flag that sets *P to V (e.g. one of several modes into one int). */
#define LC_OPT_SET(L, S, H, P, V) \
	{ .kind = LC_OPT_K_FLAG, .name = (L), .shortc = (S), .help = (H), \
	  .field = LC_OPT_PTR(int, P), .ival = (V) }
#define LC_OPT_STRING(L, S, A, H, P) \
	{ .kind = LC_OPT_K_STRING, .name = (L), .shortc = (S), .argname = (A), .help = (H), \
	  .field = LC_OPT_PTR(const char *, P) }
/* A string that names a file (completed as a file name). */
#define LC_OPT_FILENAME(L, S, A, H, P) \
	{ .kind = LC_OPT_K_STRING, .name = (L), .shortc = (S), .argname = (A), .help = (H), \
	  .field = LC_OPT_PTR(const char *, P), .flags = LC_OPT_FILE }
/* A whole number in [MIN, MAX] into any unsigned (or non-negative int) field. */
#define LC_OPT_NUMBER(L, S, A, H, P, MIN, MAX) \
	{ .kind = LC_OPT_K_NUMBER, .name = (L), .shortc = (S), .argname = (A), .help = (H), \
	  .field = (P), .size = sizeof(*(P)), .min = (MIN), .max = (MAX) }
#define LC_OPT_REAL(L, S, A, H, P, MIN, MAX) \
	{ .kind = LC_OPT_K_REAL, .name = (L), .shortc = (S), .argname = (A), .help = (H), \
	  .field = LC_OPT_PTR(double, P), .dmin = (MIN), .dmax = (MAX) }
/* A duration in [MIN, MAX] ns into a uint64_t. */
#define LC_OPT_DURATION(L, S, A, H, P, MIN, MAX) \
	{ .kind = LC_OPT_K_DURATION, .name = (L), .shortc = (S), .argname = (A), .help = (H), \
	  .field = LC_OPT_PTR(uint64_t, P), .min = (MIN), .max = (MAX) }
/* One of the words W (an lc_opt_word array ended by { NULL }) into an int. */
#define LC_OPT_ENUM(L, S, A, H, P, W) \
	{ .kind = LC_OPT_K_ENUM, .name = (L), .shortc = (S), .argname = (A), .help = (H), \
	  .field = LC_OPT_PTR(int, P), .words = (W) }
/* CB(opt, arg) with opt->field = P; A NULL for an option without argument. */
#define LC_OPT_CALLBACK(L, S, A, H, P, CB) \
	{ .kind = LC_OPT_K_CALLBACK, .name = (L), .shortc = (S), .argname = (A), .help = (H), \
	  .field = (P), .cb = (CB) }
/* A callback whose argument is optional (--NAME or --NAME=ARG). */
#define LC_OPT_CALLBACK_OPTARG(L, S, A, H, P, CB) \
	{ .kind = LC_OPT_K_CALLBACK, .name = (L), .shortc = (S), .argname = (A), .help = (H), \
	  .field = (P), .cb = (CB), .flags = LC_OPT_OPTARG }
/* A callback without argument that may take the next word as its own
 * (lc_opt_peek, lc_opt_take), shown as "-C [A]": report -l [NOTE]. */
#define LC_OPT_CALLBACK_PEEK(L, S, A, H, P, CB) \
	{ .kind = LC_OPT_K_CALLBACK, .name = (L), .shortc = (S), .argname = (A), .help = (H), \
	  .field = (P), .cb = (CB), .flags = LC_OPT_PEEK }
/* --color[=WHEN]: colour the category names and warnings (util/lc_color.h):
 * auto (the default: on a terminal, unless NO_COLOR is set), always or
 * never; --color alone is always (git's convention).  Sets lc_color_when. */
extern const struct lc_opt_word lc_opt_color_words[];
#define LC_OPT_COLOR() \
	{ .kind = LC_OPT_K_ENUM, .name = "color", .argname = "WHEN", \
	  .help = "colour category names and warnings: auto (on a terminal,\n" \
		  "unless NO_COLOR is set; the default), always or never", \
	  .field = &lc_color_when, .words = lc_opt_color_words, .ival = LC_COLOR_ALWAYS, \
	  .flags = LC_OPT_OPTARG }
/* The end of the table. */
#define LC_OPT_END() { .kind = LC_OPT_K_END }
#define LC_OPT_END_AT_OPERAND() { .kind = LC_OPT_K_END, .flags = LC_OPT_STOP }

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

/* Print the help text of usage and table to f (what --help prints). */
void lc_opt_help(FILE *f, const struct lc_opt *table, const char *const *usage);

/* Dump table to f, one line per option (and -h/--help): "--NAME" (or "-"
 * when it has none), "-C" (or "-"), the argument's name (or "-"), the kind
 * (flag, string, file, number, real, duration, enum:W1|W2, callback) and
 * "hidden" or "-", tab-separated.  What --list-opts prints. */
void lc_opt_dump(FILE *f, const struct lc_opt *table);

/* The name of opt for messages: "--NAME", or "-C" for a short-only option. */
const char *lc_opt_name(const struct lc_opt *opt);

/* Print "bad OPTION 'ARG' (why)" (why: opt->hint when set) as the usage
 * message of a callback.  Returns -1. */
int lc_opt_bad(const struct lc_opt *opt, const char *arg, const char *why);

/* Shared option values and callbacks. */

/* NAME=VALUE pairs of one point (--at "n=1024 p=26"), in the grammar of
 * predict's --at (postproc/lca_grid.h), the one parser of points. */
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

#endif
