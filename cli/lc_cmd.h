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
	X(diff, "compare two profiles or sets of repeats; scaling per place") \
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

#endif
