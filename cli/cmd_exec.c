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
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lc_abi.h"
#include "lc_cmd.h"
#include "lc_launch.h"
#include "lc_opt.h"
#include "lc_profile.h"
#include "lc_util.h"
#include "mpi_job.h"
#include "session.h"
#include "targets.h"


static const char *const usage[] = {
	"mpiexec -n N lostcycles exec [-o PREFIX] [--force] [-i INTERVAL] [-w WINDOW]",
	"                             [--window-grow=N] [--loggp=FILE] [--] PROGRAM [ARGS...]",
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

struct exec_opts {
	const char *prefix;
	const char *loggp;
	uint64_t interval_ns, window_ns;
	uint32_t window_grow;	/* lc_window_span's growth, 0 fixed */
	int force;		/* --force */
};

/* Parse the options; the index of PROGRAM, or -1 after --help, -2 on error. */
static int parse(int argc, char **argv, struct exec_opts *o)
{
	const struct lc_opt opts[] = {
		LC_OPT_STRING("output", 'o', "PREFIX", "node files PREFIX.<host>.data (default "
			      "lostcycles; a\nprevious default file is kept as FILE.old)",
			      &o->prefix),
		LC_OPT_FLAG("force", 0, "replace a node file that exists (else it is refused)",
			    &o->force),
		LC_OPT_ROWS_TIMING(&o->interval_ns, &o->window_ns, &o->window_grow),
		LC_OPT_FILENAME("loggp", 0, "FILE", "LogGP parameters (default: calibrate --mpi's "
				"file)", &o->loggp),
		LC_OPT_END_AT_OPERAND(),
	};
	char **rest;
	int n;

	*o = (struct exec_opts){ .prefix = "lostcycles", .interval_ns = LC_SESSION_DEFAULT_INTERVAL_NS,
				 .window_ns = LC_SESSION_DEFAULT_WINDOW_NS };
	n = lc_opt_parse(argc, argv, opts, usage, &rest);
	if (n < 0)
		return n;
	if (lc_opt_windows(o->interval_ns, &o->window_ns, &o->window_grow))
		return -2;
	if (n == 0) {
		warnx("no program given (see 'lostcycles exec --help')");
		return -2;
	}
	return argc - n;
}

/* Export the job's id that the batch system gave (Slurm's), for lc_job to
 * record in every rank. */
static void export_job_id(void)
{
	uint64_t id = lc_launch_job_id();
	char v[24];

	if (!id)
		return;
	snprintf(v, sizeof(v), "%llu", (unsigned long long)id);
	setenv(LC_ENV_JOB_ID, v, 1);
}

/* The node's session over reg (which it then owns), started.  NULL after
 * a message. */
static struct lc_session *node_session(const struct exec_opts *o, const char *session,
				       const char *host, const char *out, const char *cmd,
				       const struct lc_mpi_setup *m, struct lc_registry *reg)
{
	struct lc_session_opts so = {
		.interval_ns = o->interval_ns, .interval_max_ns = lc_opt_interval_max(),
		.window_ns = o->window_ns, .window_grow = o->window_grow, .cpu = -1,
		.out = out, .name = session, .command = cmd, .host = host,
		.unavailable = m->have_loggp ? 0 : 1u << LC_CAT_CL,
		.unavailable_why = LC_MPI_NO_LOGGP,
		.sched = LC_SCHED_SWITCH,	/* as record: resource contention */
	};
	struct lc_session *ses = lc_session_new(&so, reg);
	char msg[512];

	if (!ses) {
		lc_registry_stop(reg);
		lc_registry_free(reg);
		warnx("out of memory");
		return NULL;
	}
	if (lc_session_start(ses, msg, sizeof(msg))) {
		warnx("%s", msg);
		lc_session_free(ses);
		return NULL;
	}
	return ses;
}

/* Run the program as our child under the node's session until the node's
 * ranks are gone; the session's end.  Returns the exit status. */
static int run_node(struct lc_launch *l, struct lc_session *ses, const char *out, char **argv)
{
	struct lc_session_result res;
	int sig = 0, status;
	pid_t child = lc_launch_spawn(l, argv, &sig);

	if (child < 0 && !sig)
		warnx("%s: %s", argv[0], strerror((int)-child));
	status = sig ? 128 + sig : child < 0 ? 127 :
		 lc_launch_wait_node(l, child, lc_session_registry(ses), &sig);
	lc_session_finish(ses, status, sig ? "interrupted" : "node's ranks exited", &res);
	for (const char *p = res.notes; *p;) {
		const char *nl = strchr(p, '\n');
		int n = nl ? (int)(nl - p) : (int)strlen(p);

		warnx("%.*s", n, p);
		p += n + (nl != NULL);
	}
	if (res.write_err)
		warnx("%s: write failed: %s", out, strerror(-res.write_err));
	lc_session_free(ses);
	return res.write_err ? 1 : status;
}

/* The node's sampler: record the session while the program runs as our
 * child, until the node's ranks are gone. */
static int lead(const struct exec_opts *o, const char *session, const char *host,
		const struct lc_mpi_setup *m, int argc, char **argv)
{
	struct lc_launch l = { 0 };
	struct lc_registry *reg;
	struct lc_session *ses;
	char out[4096], msg[512], *cmd;
	int e;

	snprintf(out, sizeof(out), "%s.%s.data", o->prefix, host);
	if (lc_out_prepare(out, o->force ? LC_OUT_FORCE : lc_opt_given("output", 'o') ?
			   LC_OUT_KEEP : LC_OUT_ROTATE, msg, sizeof(msg))) {
		warnx("%s", msg);
		return 1;
	}
	cmd = lc_launch_join(argc, argv);
	lc_launch_begin(&l);
	/* the ranks are children of the launcher's process on this node */
	reg = lc_registry_start_lineage(session, &e);
	if (reg && (e = lc_registry_set_roots(reg, &(pid_t){ getppid() }, 1))) {
		lc_registry_stop(reg);
		lc_registry_free(reg);
		reg = NULL;
	}
	if (!reg)
		warnx("cannot start discovery: %s", strerror(-e));
	ses = reg ? node_session(o, session, host, out, cmd, m, reg) : NULL;
	e = ses ? run_node(&l, ses, out, argv) : 1;
	free(cmd);
	return e;
}

int lc_cmd_exec(int argc, char **argv)
{
	struct exec_opts o;
	struct lc_mpi_setup m;
	char host[64], session[LC_SESSION_MAX], msg[512];
	int first = parse(argc, argv, &o);

	if (first < 0)
		return first == -1 ? 0 : 2;
	lc_launch_node_host(host, sizeof(host));
	/* the launcher's process on this node is the parent of all its ranks */
	snprintf(session, sizeof(session), "lcx%d-%.40s", (int)getppid(), host);
	if (lc_mpi_setup(&m, o.loggp, msg, sizeof(msg))) {
		warnx("%s", msg);
		return 1;
	}
	setenv(LC_ENV_SESSION, session, 1);
	setenv(LC_ENV_HOST, host, 1);
	export_job_id();
	if (lc_launch_srun_without_pmi() && lc_launch_rank() == 0)
		warnx("srun started %u tasks without an MPI process manager: each MPI rank will "
		      "see a job of one (srun --mpi=pmi2 for MPICH, --mpi=pmix for Open MPI; "
		      "'srun --mpi=list' says what this Slurm has)", lc_launch_srun_without_pmi());
	if (lc_launch_node_lock(session)) {
		/* once a job, where the launcher says which rank is first */
		if (m.warning[0] && lc_launch_rank() <= 0)
			warnx("%s", m.warning);
		return lead(&o, session, host, &m, argc - first, argv + first);
	}
	execvp(argv[first], argv + first);
	warn("%s", argv[first]);
	return 127;
}
