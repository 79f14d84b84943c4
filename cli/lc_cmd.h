/*
 * lc_cmd.h — the subcommands of the lostcycles command.
 *
 * Each subcommand is a function taking the arguments after "lostcycles"
 * (argv[0] is the subcommand's name) and returning the process exit status.
 * A subcommand reports its own errors on stderr.
 */
#ifndef LC_CMD_H
#define LC_CMD_H

#include <stddef.h>
#include <stdint.h>

/* The subcommands, in the order "lostcycles --help" lists them: X(NAME,
 * SUMMARY) for each, run by int lc_cmd_NAME(int argc, char **argv). */
#define LC_COMMANDS(X) \
	X(record, "run a command and write its predicate profile") \
	X(attach, "profile running processes until they exit or ^C") \
	X(report, "print a profile (the thesis's pp)") \
	X(fit, "fit models to categories over runs (lca)") \
	X(predict, "predict run time and what-if scenarios") \
	X(check, "will profiling work here, and how well?") \
	X(events, "list hardware and software events, and which open here") \
	X(calibrate, "choose the sampling interval (--memory, --mpi: measure the machine)") \
	X(sweep, "run a command over a design of variables into a runs file") \
	X(exec, "one rank of an MPI job under the user's launcher") \
	X(merge, "combine the node files of a job into one profile") \
	X(compose, "compose fragment models along the program's structure (lcm)") \
	X(export, "write runs in Extra-P's input formats (--extrap), a timeline as OTF2 (--otf2)")

#define LC_CMD_DECLARE(name, summary) int lc_cmd_##name(int argc, char **argv);
LC_COMMANDS(LC_CMD_DECLARE)
#undef LC_CMD_DECLARE

/* Run the tool again without the caller's LD_PRELOAD (preload.c), which
 * then stays in the environment for the commands it starts.  Call first
 * thing in main (argv: main's). */
void lc_preload_strip(char **argv);

/* Print each line of notes (a session's or a merge's) as a warning. */
void lc_cmd_notes(const char *notes);

/* Print msg as the command's one-line message; returns 1 (failed). */
int lc_cmd_fail(const char *msg);

struct lc_opt;

/* Callback of --max-points N (predict, compose): a count of grid points,
 * 1 or more, into the size_t field.  Returns 0, or -1 after a message. */
int lc_opt_max_points(const struct lc_opt *opt, const char *arg);
/* The --max-points row of predict and compose, with its help line H. */
#define LC_OPT_MAX_POINTS(H, P) LC_OPT_CALLBACK("max-points", 0, "N", (H), (P), lc_opt_max_points)

/* Parse the options of a command that takes no operand: -1 to go on, or
 * the exit status (0 after --help, 2 after a usage message). */
int lc_opt_parse_only(int argc, char **argv, const struct lc_opt *opts,
		      const char *const *usage);

/* Callback of --window-grow N (record, attach, exec): 0 (fixed windows) or
 * an even count, 2 or more, of windows after which the window length
 * doubles (lc_window_span), into the uint32_t opt->field. */
int lc_opt_window_grow(const struct lc_opt *opt, const char *arg);

/* After lc_opt_parse of the rows of LC_OPT_ROWS_TIMING: the default window
 * follows a long interval, and grows (LC_WINDOW_GROW_DEFAULT) unless -w or
 * --window-grow was given.  Returns 0, or -1 after a message when the window
 * is shorter than the interval. */
int lc_opt_windows(uint64_t interval_ns, uint64_t *window_ns, uint32_t *grow);

/* After lc_opt_parse of the rows of LC_OPT_ROWS_TIMING: the adaptive
 * interval's top (lc_session_opts.interval_max_ns), 0 when -i fixed it. */
uint64_t lc_opt_interval_max(void);

/* The timing options of record, attach and exec: -i, -w, --window-grow into
 * the uint64_t *I, *W (ns) and uint32_t *G. */
#define LC_OPT_ROWS_TIMING(I, W, G) \
	LC_OPT_DURATION("interval", 'i', "TIME", "a fixed sampling interval (units ns us ms s;\n" \
			"default: adaptive, 100us until the error bars reach\n1 %, then " \
			"up to 1ms within 2 % of a CPU)", I, 1000, 10000000000ull), \
	LC_OPT_DURATION("window", 'w', "TIME", "timeline window: every window TIME long " \
			"(default:\n10ms, or the interval when that is longer, doubling\n" \
			"after 4096 windows, so that long runs stay small)", W, 1, UINT64_MAX), \
	LC_OPT_CALLBACK("window-grow", 0, "N", "after the first N windows (N even), the " \
			"window doubles\nevery N/2 windows; 0: fixed (default 4096 without " \
			"-w,\n0 with -w)", G, lc_opt_window_grow)

#endif
