/*
 * lc_sweep_run.h — one run of "lostcycles sweep": the record command of a
 * point of the design (placeholders filled, p as record's --procs), its
 * files beside the runs file, running it and its "report -l" as children,
 * and the runs line (or a "# failed" comment) to append.  Nothing here
 * prints.
 */
#ifndef LC_SWEEP_RUN_H
#define LC_SWEEP_RUN_H

#include <stddef.h>

#include "lc_sweep.h"

#define LC_SWEEP_RECORD_OPTS 32		/* words of --record-opts */
#define LC_SWEEP_CMD_MAX 480		/* words of the command */

/* What every run of a sweep shares. */
struct lc_sweep_spec {
	const struct lc_sweep_var *vars;
	int nvars;
	int pvar;			/* index of "p", -1 none (lc_sweep_check) */
	char *ropts[LC_SWEEP_RECORD_OPTS];	/* more options for record */
	int nropts;
	char *const *cmd;		/* the command, with {NAME} placeholders */
	int ncmd;
	const char *profdir;		/* RUNS.profiles */
};

/* One run: a point and a repeat. */
struct lc_sweep_run {
	char name[512];			/* "n256-p2-rep1", the files' stem */
	char note[1024];		/* "n=256 rep=1" for report -l (p is its own) */
	char label[1024];		/* every variable and rep=, for progress */
	char prof[4800], out[4800], err[4800], line[4800];	/* its files */
	char *argv[LC_SWEEP_RECORD_OPTS + LC_SWEEP_CMD_MAX + 16];	/* the record command */
	int first;			/* where the command starts in argv */
};

/* --record-opts: split text (modified) on blanks into sp->ropts, refusing
 * what sweep sets itself (-o, -p, --).  0, or -EINVAL with the reason. */
int lc_sweep_record_opts(struct lc_sweep_spec *sp, char *text, char *why, size_t len);

/* Whether name is one the runs file uses itself (rep, a category, tt, wall). */
int lc_sweep_reserved(const char *name);

/* Before running anything: find p (sp->pvar) and check its values are
 * processor counts, and that every placeholder of the command names a
 * variable.  0, or -EINVAL / -ENOMEM with the reason. */
int lc_sweep_check(struct lc_sweep_spec *sp, char *why, size_t len);

/* Fill r for the point row (value indices) and repeat rep.  0, or -errno
 * with the reason (then nothing to free). */
int lc_sweep_run_prepare(struct lc_sweep_run *r, const struct lc_sweep_spec *sp,
			 const size_t *row, int rep, char *why, size_t len);

/* Run r: record, then report -l of the profile; the runs line with wall=,
 * or a "# failed" comment naming the status, into line[len].  Returns 0
 * (a line), 1 (a failure comment), 2 when lc_runner_stop was set during the
 * run (nothing to append), or -errno when record could not be started. */
int lc_sweep_run_exec(struct lc_sweep_run *r, char *line, size_t len);

/* Release what lc_sweep_run_prepare allocated. */
void lc_sweep_run_free(struct lc_sweep_run *r);

#endif /* LC_SWEEP_RUN_H */
