/*
 * lc_launch.h — starting and watching what a recording session profiles
 * (record, attach, exec): the command's environment (session, trace mode,
 * the OpenMP and pthread layers), its CPUs and file limit, the signals the
 * main thread waits for, and the waits for the command or the targets to
 * end.  The session itself is sampler/session.c.  Nothing here prints:
 * refusals come back as -errno with a one-line reason.
 *
 * Used by the command layer's main thread only.
 */
#ifndef LC_LAUNCH_H
#define LC_LAUNCH_H

#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "session.h"
#include "targets.h"

struct lc_launch {
	char session[LC_SESSION_MAX];	/* LOSTCYCLES_SESSION of the command */
	int trace;			/* trace mode (LOSTCYCLES_TRACE=1 for the command) */
	char trace_dir[4096];		/* where its trace logs go */
	int own_trace_dir;		/* made here: the session removes it */
	char omp_lib[PATH_MAX];		/* "" or the OpenMP tool (OMP_TOOL_LIBRARIES) */
	char pthread_lib[PATH_MAX];	/* "" or the pthread layer (LD_PRELOAD) */
	uint32_t slots;			/* LOSTCYCLES_SLOTS of the command, 0: as inherited */
	int pin;			/* run the command on cpus only */
	cpu_set_t cpus;
	struct rlimit nofile;		/* the open-file limit as found, for the command */
	sigset_t waitset;		/* SIGINT, SIGTERM, SIGHUP, SIGCHLD: blocked, waited for */
	sigset_t oldmask;		/* the mask before, for the command */
};

/* Trace mode: on when l->trace is set or LOSTCYCLES_TRACE=1; the trace
 * directory is LOSTCYCLES_TRACE_DIR, else a new one under $TMPDIR (or /tmp).
 * Returns 0, or -errno with the reason in msg. */
int lc_launch_trace(struct lc_launch *l, char *msg, size_t len);

/* The library of layer name (e.g. "liblostcycles-omp") into out: $env when
 * set, else beside this program or installed (lc_mpi_find), as the file
 * NAME.so.ABI_MAJOR.  Returns 0, or -ENOENT with out the bare file name (for
 * the dynamic loader to search) and the reason to warn of in msg. */
int lc_launch_layer(const char *name, const char *env, char *out, size_t len, char *msg,
		    size_t mlen);

/* --spare-cpu: l->cpus = this process's CPUs without the sampler's (cpu, or
 * -1: the one lc_sampler_start takes), and l->pin.  Returns 0, or -errno
 * with the reason in msg (-ENOSPC: no CPU is left). */
int lc_launch_spare_cpus(struct lc_launch *l, int cpu, char *msg, size_t len);

/* Block the signals the main thread waits for (l->waitset, the old mask in
 * l->oldmask) and raise the soft limit of open files to the hard one (a
 * target costs the sampler a descriptor), keeping the old one for the
 * command. */
void lc_launch_begin(struct lc_launch *l);

/* Fork and exec argv (searched in PATH) with l's environment, mask, file
 * limit and CPUs.  The environment is built before the fork: the child
 * makes system calls only (no setenv, no malloc), as the child of a
 * threaded process must.  Until the exec, a signal of l->waitset kills the
 * child and returns -EINTR with the signal in *sig (else *sig is 0).
 * Returns the child's pid, or -errno of a failed fork or exec (the child,
 * if any, reaped).  LOSTCYCLES_TEST_STALL_CHILD=1 (for the tests) stops
 * the child before its exec, as a deadlocked one would. */
pid_t lc_launch_spawn(const struct lc_launch *l, char **argv, int *sig);

/* Wait for the child or a signal of l->waitset.  A signal is passed on to
 * the child, which then has term_ns to end (a second signal stops the
 * wait).  Returns the child's shell-style status (128 + the signal when it
 * has not ended) and sets *sig to the signal that ended the wait, or 0. */
int lc_launch_wait_child(const struct lc_launch *l, pid_t child, uint64_t term_ns, int *sig);

/* Attach: wait (started 0) until a target of reg appears, -ENOENT after
 * first_ns without one; or (started 1) until every target has left.
 * Returns 0, or the signal of l->waitset that arrived. */
int lc_launch_wait_targets(const struct lc_launch *l, struct lc_registry *reg, int started,
			   uint64_t first_ns);

/* record: make this process the subreaper of the command's processes, so
 * that a daemon or background child the command leaves becomes its child
 * (lc_launch_settle and lc_launch_wait_session reap them). */
void lc_launch_subreaper(void);

/* After the command ended: wait up to grace_ns while the registry still
 * counts a live target or an orphan of the command still runs (the
 * command's own process to be seen gone, a segment an orphan made as the
 * command ended to be found; no wait when there is neither).  Returns the
 * live targets then, and sets *sig to a signal of l->waitset that arrived
 * (0 none). */
uint32_t lc_launch_settle(const struct lc_launch *l, struct lc_registry *reg, uint64_t grace_ns,
			  int *sig);

/* Wait until every target of reg has left, reaping orphans.  Returns 0,
 * or the signal of l->waitset that arrived. */
int lc_launch_wait_session(const struct lc_launch *l, struct lc_registry *reg);

/* argv joined by spaces (NULL when out of memory), for the profile. */
char *lc_launch_join(int argc, char **argv);

/* The command line for the profile: argv joined; with omp the program's
 * word becomes its absolute path, so that report can find its debug
 * information from any directory to name the OpenMP tool's tags.  NULL
 * when out of memory. */
char *lc_launch_command_line(int omp, int argc, char **argv);

/* The layer that would profile program (as the command names it), from
 * the runtime it links: "omp", "gomp", "mpi" (lc_program_layer), or NULL. */
const char *lc_launch_layer_of(const char *program);

/* Whether program (as the command names it) can be read and needs GCC's
 * libgomp, which has no OMPT interface for --omp. */
int lc_launch_uses_libgomp(const char *program);

/* The ideal latency of one miss from the per-machine file of "calibrate
 * --memory" (transfer_ns), into *ns, and where it came from into from[len].
 * Returns 0 (*ns > 0), 1 when there is no file (*ns 0, from says why), or
 * -errno when the file is bad (the reason to warn of in why[wlen]). */
int lc_launch_miss_latency(double *ns, char *from, size_t len, char *why, size_t wlen);

/* exec: the node's host name, $LOSTCYCLES_HOST, else Slurm's name of the
 * node ($SLURMD_NODENAME), else the machine's, reduced to [A-Za-z0-9_.-]
 * (it goes into file and session names). */
void lc_launch_node_host(char *buf, size_t len);

/* exec: the job's id as the batch system gives it ($LOSTCYCLES_JOB_ID,
 * else $SLURM_JOB_ID, else the number that $PBS_JOBID or $LSB_JOBID starts
 * with), the same in every rank; 0 when there is none (the MPI layer then
 * makes one at MPI_Init). */
uint64_t lc_launch_job_id(void);

/* exec: this process's rank in the job as its launcher says ($PMI_RANK of
 * MPICH's Hydra and PMI launchers, $OMPI_COMM_WORLD_RANK of Open MPI's,
 * $SLURM_PROCID of srun; in that order, since mpiexec inside salloc runs
 * its ranks under a Slurm step of its own), or -1 when none does. */
int lc_launch_rank(void);

/* exec: the tasks of the Slurm step this process belongs to when srun
 * started more than one without an MPI process-management interface (no
 * PMI_RANK, PMI_FD, PMIX_RANK or OMPI_COMM_WORLD_RANK: srun without
 * --mpi=pmi2 or --mpi=pmix), whose MPI ranks would each see a job of one;
 * else 0. */
unsigned lc_launch_srun_without_pmi(void);

/* exec: take the node lock of session name, the file exec.NAME.lock in
 * the user's private directory $TMPDIR/lostcycles-UID (or /tmp's: made
 * 0700, refused when it is a link, another user's, or writable by others;
 * the lock file is never opened through a link).  Returns 1 when this rank
 * is the node's sampler (the lock is held until the process exits, and
 * the file holds its pid), 0 when another rank of this node (a child of
 * our parent) holds it, or -errno with the reason in msg: the directory
 * or file refused, or (-EBUSY) the lock held by a process that is no rank
 * of this job, so that the node's profile could not be written. */
int lc_launch_node_lock(const char *name, char *msg, size_t len);

/* exec: wait for the child (passing SIGINT, SIGTERM, SIGHUP on), then until
 * no process of reg has been alive for 0.3 s (or none appeared within 5 s
 * of the child's end).  Returns the child's shell-style status; *sig is the
 * signal that ended the wait, or 0. */
int lc_launch_wait_node(const struct lc_launch *l, pid_t child, struct lc_registry *reg,
			int *sig);

/* Whether prog (a path) names an MPI or cluster launcher (mpiexec, mpirun,
 * srun, orterun, prun). */
int lc_launch_is_mpi_launcher(const char *prog);

/* Whether to suggest --spare-cpu after a record that started its command
 * without it: the sampler had a CPU of its own to be pinned to (cpu, or -1:
 * a spare one), the program never had as many threads as this process has
 * CPUs, and the sampler's process used more than 5 % of a CPU (a thread the
 * kernel placed beside the sampler lost about that much, plus a cache
 * refill per tick: 17-20 % of a compute-bound thread at 100us on the
 * machine of docs/performance.md). */
int lc_launch_spare_hint(int cpu, const struct lc_session_result *res);

/* attach: the process ids of argv[0..argc) into *pids (malloc'd, also on
 * failure).  Returns 0, or -EINVAL (not a process id), -ESRCH (no such
 * process), -EPERM (another user's) or -ENOMEM, with the reason in msg. */
int lc_launch_pids(int argc, char **argv, pid_t **pids, char *msg, size_t len);

#endif /* LC_LAUNCH_H */
