/*
 * cmd_exec.c — "lostcycles exec": one rank of an MPI job started by the
 * user's own launcher (mpiexec -n N lostcycles exec -- ./app, or srun).
 *
 * Every rank computes its node's session name from the launcher's local
 * parent process and the host name; the first rank of a node to take the
 * node-local lock becomes the node's sampler: it records the session into
 * PREFIX.<host>.data while it runs its own rank of the program as a child,
 * and leaves when its child and every other rank of its node have exited.
 * Every other rank only sets the environment (session, LD_PRELOAD of the
 * MPI layer, LogGP file) and execs the program.  "lostcycles merge" then
 * combines the node files.  See docs/mpi.md.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_abi.h"
#include "lc_cmd.h"
#include "lc_exec_node.h"
#include "lc_launch.h"
#include "lc_opt_session.h"
#include "lc_util.h"
#include "mpi_job.h"
#include "session.h"

static const char *const usage[] = {
	"mpiexec -n N lostcycles exec [-o PREFIX] [--force] [-i INTERVAL] [-w WINDOW]",
	"                             [--window-grow=N] [--jitter=PCT] [--loggp=FILE]",
	"                             [--] PROGRAM [ARGS...]",
	"",
	"Run one rank of an MPI job: PROGRAM with the MPI layer, and on the first",
	"rank of each node also that node's sampler, which writes PREFIX.<host>.data.",
	"Combine the node files with 'lostcycles merge PREFIX.*.data -o job.data'.",
	"The host name is $LOSTCYCLES_HOST if set, else Slurm's $SLURMD_NODENAME,",
	"else the machine's; the job id is Slurm's $SLURM_JOB_ID when there is one",
	"(srun lostcycles exec ..., or mpiexec inside salloc or sbatch), so that",
	"'lostcycles merge --job ID' finds the node files.",
	NULL,
};

/* exec's options: the node session's (s, as record's) and its own. */
struct exec_opts {
	struct lc_session_opts s;	/* -i -w --window-grow --jitter */
	const char *prefix;
	const char *loggp;
	int force;		/* --force */
};

/* Parse the options into o: the operands (PROGRAM [ARGS]) in *rest, and
 * their count, or LC_OPT_HELP / LC_OPT_USAGE after a message. */
static int parse_opts(int argc, char **argv, struct exec_opts *o, char ***rest)
{
	const struct lc_opt opts[] = {
		LC_OPT_STRING("output", 'o', "PREFIX", "node files PREFIX.<host>.data (default "
			      "lostcycles; a\nprevious default file is kept as FILE.old)",
			      &o->prefix),
		LC_OPT_FLAG("force", 0, "replace a node file that exists (else it is refused)",
			    &o->force),
		LC_OPT_ROWS_SESSION(&o->s),
		LC_OPT_FILENAME("loggp", 0, "FILE", "LogGP parameters (default: calibrate --mpi's "
				"file)", &o->loggp),
		LC_OPT_END_AT_OPERAND(),
	};
	int n;

	*o = (struct exec_opts){ .s = LC_SESSION_OPTS_DEFAULT, .prefix = "lostcycles" };
	n = lc_opt_parse(argc, argv, opts, usage, rest);
	if (n < 0)
		return n;
	return lc_opt_session_settle(&o->s) ? LC_OPT_USAGE : n;
}

/* The session options of exec's argv.  See lc_opt_session.h. */
int lc_opt_exec_session(int argc, char **argv, struct lc_session_opts *so)
{
	struct exec_opts o;
	char **rest;
	int n = parse_opts(argc, argv, &o, &rest);

	*so = o.s;
	return n;
}

/* The ideal miss latency of calibrate --memory's file, as record takes it,
 * into n (where it came from, or why there is none, into from). */
static void miss_latency(struct lc_exec_node *n, char *from, size_t len)
{
	char why[512];

	if (n->opts.no_counters || n->opts.miss_latency_ns > 0)
		return;
	if (lc_launch_miss_latency(&n->opts.miss_latency_ns, from, len, why, sizeof(why)) < 0)
		warnx("warning: %s: misses are not charged to communication loss", why);
	n->opts.miss_latency_from = *from ? from : NULL;
}

/* The node's sampler: record the session while the program runs as our
 * child, until the node's ranks are gone. */
static int lead(const struct exec_opts *o, const char *session, const char *host,
		const struct lc_mpi_setup *m, int argc, char **argv)
{
	struct lc_launch l = { 0 };
	struct lc_session_result res;
	struct lc_session *ses;
	char out[4096], msg[4400], from[4400] = "";
	struct lc_exec_node n = { .opts = o->s, .session = session, .host = host, .out = out,
				  .have_loggp = m->have_loggp };
	int st;

	snprintf(out, sizeof(out), "%s.%s.data", o->prefix, host);
	if (lc_out_prepare(out, o->force ? LC_OUT_FORCE : lc_opt_given("output", 'o') ?
			   LC_OUT_KEEP : LC_OUT_ROTATE, msg, sizeof(msg)))
		return lc_cmd_fail(msg);
	miss_latency(&n, from, sizeof(from));
	n.cmd = lc_launch_join(argc, argv);
	lc_launch_begin(&l);
	ses = lc_exec_node_start(&n, msg, sizeof(msg));
	st = ses ? lc_exec_node_run(&l, ses, argv, &res, msg, sizeof(msg)) : 1;
	if (*msg)
		warnx("%s", msg);
	if (ses) {
		lc_cmd_notes(res.notes);
		if (res.write_err)
			warnx("%s: write failed: %s", out, strerror(-res.write_err));
		lc_session_free(ses);
	}
	free((char *)n.cmd);
	return ses && res.write_err ? 1 : st;
}

int lc_cmd_exec(int argc, char **argv)
{
	struct exec_opts o;
	struct lc_mpi_setup m;
	char host[64], session[LC_SESSION_MAX], msg[4400], **prog;
	int n = parse_opts(argc, argv, &o, &prog), lead_rank;

	if (n < 0)
		return LC_OPT_EXIT(n);
	if (n == 0) {
		warnx("no program given (see 'lostcycles exec --help')");
		return 2;
	}
	lc_launch_node_host(host, sizeof(host));
	/* the launcher's process on this node is the parent of all its ranks */
	snprintf(session, sizeof(session), "lcx%d-%.40s", (int)getppid(), host);
	if (lc_mpi_setup(&m, o.loggp, msg, sizeof(msg)))
		return lc_cmd_fail(msg);
	setenv(LC_ENV_SESSION, session, 1);
	setenv(LC_ENV_HOST, host, 1);
	lc_exec_export_job_id();
	if (lc_launch_srun_without_pmi() && lc_launch_rank() == 0)
		warnx("srun started %u tasks without an MPI process manager: each MPI rank will "
		      "see a job of one (srun --mpi=pmi2 for MPICH, --mpi=pmix for Open MPI; "
		      "'srun --mpi=list' says what this Slurm has)", lc_launch_srun_without_pmi());
	lead_rank = lc_launch_node_lock(session, msg, sizeof(msg));
	if (lead_rank < 0) {
		/* the node could not be profiled: the rank does not run unprofiled */
		warnx("%s; %s not run", msg, prog[0]);
		return 1;
	}
	if (lead_rank) {
		/* once a job, where the launcher says which rank is first */
		if (m.warning[0] && lc_launch_rank() <= 0)
			warnx("%s", m.warning);
		return lead(&o, session, host, &m, n, prog);
	}
	execvp(prog[0], prog);
	warn("%s", prog[0]);
	return 127;
}
