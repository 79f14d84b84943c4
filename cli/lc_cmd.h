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

int lc_cmd_record(int argc, char **argv);
int lc_cmd_attach(int argc, char **argv);
int lc_cmd_report(int argc, char **argv);
int lc_cmd_fit(int argc, char **argv);
int lc_cmd_predict(int argc, char **argv);
int lc_cmd_check(int argc, char **argv);
int lc_cmd_events(int argc, char **argv);
int lc_cmd_calibrate(int argc, char **argv);
int lc_cmd_sweep(int argc, char **argv);
int lc_cmd_exec(int argc, char **argv);
int lc_cmd_merge(int argc, char **argv);
/* "calibrate --mpi": the LogGP ping-pong (cmd_calibrate_mpi.c); lc_cmd_calibrate
 * hands its arguments over when --mpi is given. */
int lc_cmd_calibrate_mpi(int argc, char **argv);
int lc_cmd_compose(int argc, char **argv);
int lc_cmd_export(int argc, char **argv);

/* Run the tool again without the caller's LD_PRELOAD (preload.c), which
 * then stays in the environment for the commands it starts.  Call first
 * thing in main (argv: main's). */
void lc_preload_strip(char **argv);

/* --max-points N of predict and compose: a count of grid points, 1 or more,
 * into *out.  Returns 0, or -1 after a message. */
int lc_opt_max_points(const char *arg, size_t *out);

/* --window-grow N of record, attach and exec: 0 (fixed windows) or an even
 * count, 2 or more, of windows after which the window length doubles
 * (lc_window_span), into *out.  Returns 0, or -1 after a message. */
int lc_opt_window_grow(const char *arg, uint32_t *out);

#endif
