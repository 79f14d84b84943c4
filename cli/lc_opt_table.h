/*
 * lc_opt_table.h — a command's options as one table of rows (cli/lc_opt.h
 * parses argv against it): the row kinds, flags and LC_OPT_* row macros,
 * and the texts the table itself gives: --help and the --list-opts dump
 * that the help test and the shell completion read.  They are written to
 * the FILE the caller names, as lc_emit writes tables; nothing else here
 * prints.
 */
#ifndef LC_OPT_TABLE_H
#define LC_OPT_TABLE_H

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

/* Print the help text of usage and table to f (what --help prints). */
void lc_opt_help(FILE *f, const struct lc_opt *table, const char *const *usage);

/* Dump table to f, one line per option (and -h/--help): "--NAME" (or "-"
 * when it has none), "-C" (or "-"), the argument's name (or "-"), the kind
 * (flag, string, file, dir, profile (a profile file, report -f), number,
 * real, duration, enum:W1|W2 (also a CAT argument: the category keys),
 * callback) and "hidden" or "-", tab-separated.  What --list-opts prints
 * and the bash completion reads. */
void lc_opt_dump(FILE *f, const struct lc_opt *table);

/* The name of opt for messages: "--NAME", or "-C" for a short-only option. */
const char *lc_opt_name(const struct lc_opt *opt);

/* The number of rows of table (before its END row). */
int lc_opt_rows(const struct lc_opt *table);

/* Whether a row of table uses the short letter c. */
int lc_opt_uses_short(const struct lc_opt *table, int c);

#endif
