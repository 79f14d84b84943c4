/*
 * launch.c — starting and watching what a recording session profiles.
 * See lc_launch.h.
 */
#include "lc_launch.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lc_abi.h"
#include "lc_calib.h"
#include "lineage.h"
#include "lc_program.h"
#include "lc_util.h"
#include "mpi_job.h"
#include "tick.h"

#define NODE_GRACE_NS 300000000u	/* no rank alive this long: the node is done */
#define NODE_FIRST_NS 5000000000u	/* how long to wait for the first segment */

int lc_launch_trace(struct lc_launch *l, char *msg, size_t len)
{
	const char *env = getenv(LC_ENV_TRACE), *dir = getenv(LC_ENV_TRACE_DIR);
	const char *tmp = getenv("TMPDIR");

	if (env && !strcmp(env, "1"))
		l->trace = 1;
	if (!l->trace)
		return 0;
	if (dir && *dir) {
		snprintf(l->trace_dir, sizeof(l->trace_dir), "%s", dir);
		return 0;
	}
	snprintf(l->trace_dir, sizeof(l->trace_dir), "%s/lostcycles-trace.XXXXXX",
		 tmp ? tmp : "/tmp");
	if (!mkdtemp(l->trace_dir))
		return lc_fail(msg, len, -errno, "cannot create a trace directory: %s",
			       strerror(errno));
	l->own_trace_dir = 1;
	return 0;
}

int lc_launch_layer(const char *name, const char *env, char *out, size_t len, char *msg,
		    size_t mlen)
{
	char file[256];

	snprintf(file, sizeof(file), "%s.so.%u", name, (unsigned)LC_ABI_MAJOR);
	if (!lc_mpi_find(file, env, out, len, msg, mlen))
		return 0;
	snprintf(out, len, "%s", file);
	return -ENOENT;
}

int lc_launch_spare_cpus(struct lc_launch *l, int cpu, char *msg, size_t len)
{
	if (cpu < 0)
		cpu = lc_sampler_spare_cpu();
	if (sched_getaffinity(0, sizeof(l->cpus), &l->cpus))
		return lc_fail(msg, len, -errno, "cannot read the allowed CPUs: %s",
			       strerror(errno));
	if (cpu >= 0 && cpu < CPU_SETSIZE)
		CPU_CLR(cpu, &l->cpus);
	if (cpu < 0 || !CPU_COUNT(&l->cpus))
		return lc_fail(msg, len, -ENOSPC, "no CPU is left for the command besides the "
			       "sampler's (this process may use one CPU only)");
	l->pin = 1;
	return 0;
}

void lc_launch_begin(struct lc_launch *l)
{
	struct rlimit rl;

	sigemptyset(&l->waitset);
	sigaddset(&l->waitset, SIGINT);
	sigaddset(&l->waitset, SIGTERM);
	sigaddset(&l->waitset, SIGHUP);
	sigaddset(&l->waitset, SIGCHLD);
	sigprocmask(SIG_BLOCK, &l->waitset, &l->oldmask);
	if (getrlimit(RLIMIT_NOFILE, &l->nofile)) {
		l->nofile.rlim_cur = l->nofile.rlim_max = RLIM_INFINITY;	/* the child keeps its own */
		return;
	}
	rl = l->nofile;
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
}

/* The variables the command gets from l, made before the fork: the child
 * of a threaded process may not call setenv or malloc (another thread may
 * hold the allocator's lock at the fork). */
struct envadd {
	char *v[8];		/* NAME=VALUE, NULL-terminated */
	int n;
};

/* The value var has for the command so far: set in e, or inherited. */
static const char *env_now(const struct envadd *e, const char *var)
{
	size_t k = strlen(var);

	for (int i = e->n - 1; i >= 0; i--)
		if (!strncmp(e->v[i], var, k) && e->v[i][k] == '=')
			return e->v[i] + k + 1;
	return getenv(var);
}

/* Set var to val, or to val:OLD when prepend and it has a value OLD.
 * Returns 0 or -ENOMEM. */
static int env_add(struct envadd *e, const char *var, const char *val, int prepend)
{
	const char *old = prepend ? env_now(e, var) : NULL;
	size_t k = strlen(var);
	char *s;

	if ((old && *old ? asprintf(&s, "%s=%s:%s", var, val, old) :
			   asprintf(&s, "%s=%s", var, val)) < 0)
		return -ENOMEM;
	for (int i = 0; i < e->n; i++)	/* a second value replaces the first */
		if (!strncmp(e->v[i], var, k) && e->v[i][k] == '=') {
			free(e->v[i]);
			e->v[i] = s;
			return 0;
		}
	if (e->n + 1 >= (int)(sizeof(e->v) / sizeof(e->v[0]))) {
		free(s);
		return -ENOMEM;
	}
	e->v[e->n++] = s;
	e->v[e->n] = NULL;
	return 0;
}

static void env_free(struct envadd *e)
{
	for (int i = 0; i < e->n; i++)
		free(e->v[i]);
}

/* l's session, trace mode, layers and slots as variables.  0 or -ENOMEM. */
static int env_build(const struct lc_launch *l, struct envadd *e)
{
	int r = 0;

	*e = (struct envadd){ 0 };
	if (l->session[0])
		r = env_add(e, LC_ENV_SESSION, l->session, 0);
	if (!r && l->trace && !(r = env_add(e, LC_ENV_TRACE, "1", 0)))
		r = env_add(e, LC_ENV_TRACE_DIR, l->trace_dir, 0);
	if (!r && l->omp_lib[0] &&	/* preloaded too: the main thread BUSY from the start */
	    !(r = env_add(e, "OMP_TOOL_LIBRARIES", l->omp_lib, 1)))
		r = env_add(e, "LD_PRELOAD", l->omp_lib, 1);
	if (!r && l->pthread_lib[0])
		r = env_add(e, "LD_PRELOAD", l->pthread_lib, 1);
	if (!r && l->slots) {
		char n[16];

		snprintf(n, sizeof(n), "%u", (unsigned)l->slots);
		r = env_add(e, LC_ENV_SLOTS, n, 0);
	}
	return r;
}

/* LOSTCYCLES_TEST_STALL_CHILD=1 (for the tests): the child stops before
 * its exec, as a deadlocked one would. */
static int test_stall;

/* In the child (lc_spawn's hook): the limit and CPUs of l, system calls
 * only.  0, or -errno when the pinning failed. */
static int child_prepare(void *arg)
{
	const struct lc_launch *l = arg;

	while (test_stall)	/* LOSTCYCLES_TEST_STALL_CHILD: stuck before the exec */
		pause();
	setrlimit(RLIMIT_NOFILE, &l->nofile);
	if (l->pin && sched_setaffinity(0, sizeof(l->cpus), &l->cpus))
		return -errno;
	return 0;
}

pid_t lc_launch_spawn(const struct lc_launch *l, char **argv, int *sig)
{
	const char *stall = getenv("LOSTCYCLES_TEST_STALL_CHILD");
	struct envadd env;
	struct lc_spawn_io io = { .sigmask = &l->oldmask, .prepare = child_prepare,
				  .arg = (void *)l, .stopset = &l->waitset, .stopsig = sig };
	pid_t pid;

	*sig = 0;
	test_stall = stall && !strcmp(stall, "1");
	if (env_build(l, &env)) {
		env_free(&env);
		return -ENOMEM;
	}
	io.env = env.v;
	pid = lc_spawn(argv, &io);
	env_free(&env);
	return pid;
}

/* Wait for the child until the monotonic time deadline (0: for ever) or
 * until SIGINT, SIGTERM or SIGHUP.  Returns the child's shell-style status,
 * or -1 with the signal in *sig, or -1 with *sig 0 at the deadline. */
static int wait_until(const struct lc_launch *l, pid_t child, uint64_t deadline, int *sig)
{
	struct timespec ts = { 0, 20000000 };
	siginfo_t si;
	int st;

	*sig = 0;
	for (;;) {
		int s = sigtimedwait(&l->waitset, &si, &ts);

		if (s == SIGINT || s == SIGTERM || s == SIGHUP) {
			*sig = s;
			return -1;
		}
		if ((st = lc_wait_status(child, WNOHANG, NULL)) >= 0)
			return st;
		if (deadline && lc_clock_ns() >= deadline)
			return -1;
	}
}

int lc_launch_wait_child(const struct lc_launch *l, pid_t child, uint64_t term_ns, int *sig)
{
	int st = wait_until(l, child, 0, sig), again;

	if (!*sig)
		return st;
	kill(child, *sig);
	st = wait_until(l, child, lc_clock_ns() + term_ns, &again);
	return st < 0 ? 128 + *sig : st;
}

int lc_launch_wait_targets(const struct lc_launch *l, struct lc_registry *reg, int started,
			   uint64_t first_ns)
{
	struct timespec ts = { 0, 5000000 };
	uint64_t start = lc_clock_ns();
	siginfo_t si;

	for (;;) {
		int s = sigtimedwait(&l->waitset, &si, &ts);

		if (s == SIGINT || s == SIGTERM || s == SIGHUP)
			return s;
		if (!started && lc_registry_seen(reg))
			return 0;
		if (started && !lc_registry_live(reg))
			return 0;
		if (!lc_registry_seen(reg) && lc_clock_ns() - start > first_ns)
			return -ENOENT;
	}
}

void lc_launch_subreaper(void)
{
	prctl(PR_SET_CHILD_SUBREAPER, 1);
}

/* Reap the orphans of the command (this process is their subreaper); 1
 * while some are still running. */
static int orphans(void)
{
	pid_t p;

	while ((p = waitpid(-1, NULL, WNOHANG)) > 0)
		;
	return p == 0;
}

/* Wait up to ns (< 1 s) for a signal of l->waitset: the signal to stop
 * for, or 0. */
static int pause_ns(const struct lc_launch *l, long ns)
{
	siginfo_t si;
	int s = sigtimedwait(&l->waitset, &si, &(struct timespec){ 0, ns });

	return s == SIGINT || s == SIGTERM || s == SIGHUP ? s : 0;
}

uint32_t lc_launch_settle(const struct lc_launch *l, struct lc_registry *reg, uint64_t grace_ns,
			  int *sig)
{
	uint64_t until = lc_clock_ns() + grace_ns;

	*sig = 0;
	while ((orphans() || lc_registry_live(reg)) && lc_clock_ns() < until)
		if ((*sig = pause_ns(l, 1000000)))
			break;
	return lc_registry_live(reg);
}

int lc_launch_wait_session(const struct lc_launch *l, struct lc_registry *reg)
{
	int s;

	while (lc_registry_live(reg)) {
		orphans();
		if ((s = pause_ns(l, 5000000)))
			return s;
	}
	orphans();
	return 0;
}

char *lc_launch_join(int argc, char **argv)
{
	size_t len = 1;
	char *s;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	if (!s)
		return NULL;
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

int lc_launch_miss_latency(double *ns, char *from, size_t len, char *why, size_t wlen)
{
	char path[4096];
	struct lc_memlat m;
	int e;

	*ns = 0;
	if (lc_memlat_default_path(path, sizeof(path))) {
		snprintf(from, len, "no --miss-latency, and no memory file (neither "
			 "LOSTCYCLES_MEMORY_FILE nor HOME is set)");
		return 1;
	}
	e = lc_memlat_read(path, &m, why, wlen);
	if (e == -ENOENT) {
		snprintf(from, len, "no --miss-latency, and no memory file %s (run lostcycles "
			 "calibrate --memory)", path);
		return 1;
	}
	if (!e && !(m.transfer_ns > 0 && m.transfer_ns < 1e6))
		e = lc_fail(why, wlen, -EINVAL, "%s: transfer_ns %g is not a latency", path,
			    m.transfer_ns);
	if (e) {
		snprintf(from, len, "no --miss-latency, and %s", why);
		return e;
	}
	*ns = m.transfer_ns;
	snprintf(from, len, "%s (transfer_ns, lostcycles calibrate --memory)", path);
	return 0;
}

void lc_launch_node_host(char *buf, size_t len)
{
	const char *e = getenv(LC_ENV_HOST);

	if (!e || !*e)
		e = getenv("SLURMD_NODENAME");
	if (e && *e)
		snprintf(buf, len, "%s", e);
	else if (gethostname(buf, len - 1))
		snprintf(buf, len, "localhost");
	buf[len - 1] = 0;
	for (char *p = buf; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '.' || *p == '-'))
			*p = '_';
}

/* The decimal number that environment variable var starts with (Slurm's
 * job id, "1234.server" of PBS), or 0. */
static uint64_t env_number(const char *var)
{
	const char *v = getenv(var);
	unsigned long long n;

	if (!v || *v < '0' || *v > '9')
		return 0;
	errno = 0;
	n = strtoull(v, NULL, 10);
	return errno ? 0 : n;
}

uint64_t lc_launch_job_id(void)
{
	static const char *const vars[] = { LC_ENV_JOB_ID, "SLURM_JOB_ID", "PBS_JOBID",
					     "LSB_JOBID" };
	uint64_t id = 0;

	for (size_t i = 0; !id && i < sizeof(vars) / sizeof(vars[0]); i++)
		id = env_number(vars[i]);
	return id;
}

int lc_launch_rank(void)
{
	static const char *const vars[] = { "PMI_RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID" };

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);

		if (v && *v >= '0' && *v <= '9')
			return (int)env_number(vars[i]) & 0x7fffffff;
	}
	return -1;
}

unsigned lc_launch_srun_without_pmi(void)
{
	static const char *const pmi[] = { "PMI_RANK", "PMI_FD", "PMIX_RANK",
					   "OMPI_COMM_WORLD_RANK" };
	uint64_t n = env_number("SLURM_STEP_NUM_TASKS");

	for (size_t i = 0; i < sizeof(pmi) / sizeof(pmi[0]); i++)
		if (getenv(pmi[i]))
			return 0;
	return n > 1 && n <= UINT32_MAX ? (unsigned)n : 0;
}

/* The user's private directory of node locks, $TMPDIR/lostcycles-UID (or
 * /tmp's) into dir: made 0700 when missing, and accepted only when it is a
 * directory (not a link), owned by this user and writable by no one else.
 * Returns 0, or -errno with the reason in msg. */
static int lock_dir(char *dir, size_t dlen, char *msg, size_t len)
{
	const char *tmp = getenv("TMPDIR");
	struct stat st;
	int e;

	snprintf(dir, dlen, "%s/lostcycles-%u", tmp && *tmp ? tmp : "/tmp",
		 (unsigned)geteuid());
	e = lc_safe_dir(dir, 0700, msg, len);
	if (e)
		return e;
	if (lstat(dir, &st))
		return lc_fail(msg, len, -errno, "%s: %s", dir, strerror(errno));
	if (st.st_uid != geteuid())
		return lc_fail(msg, len, -EPERM, "%s belongs to another user (uid %u): "
			       "refused", dir, (unsigned)st.st_uid);
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return lc_fail(msg, len, -EPERM, "%s is writable by %s: refused (chmod 700 "
			       "it)", dir, st.st_mode & S_IWOTH ? "everyone" : "its group");
	return 0;
}

/* The pid the lock's holder wrote into fd, waiting up to a second for a
 * holder that has just taken it; 0 when none is written. */
static pid_t lock_holder(int fd)
{
	char buf[24];

	for (int i = 0; i < 100; i++) {
		ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
		long v;

		buf[n > 0 ? n : 0] = 0;
		v = strtol(buf, NULL, 10);
		if (v > 0 && v <= INT32_MAX)
			return (pid_t)v;
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	}
	return 0;
}

/* Whether pid is another rank of this node: a child of our parent. */
static int sibling(pid_t pid)
{
	uint64_t start;
	pid_t pp;

	return pid != getpid() && !lc_proc_parent(pid, &pp, &start) && pp == getppid();
}

int lc_launch_node_lock(const char *name, char *msg, size_t len)
{
	char dir[4096], path[4400], pid[24];
	pid_t holder;
	int fd, e = lock_dir(dir, sizeof(dir), msg, len);

	if (e)
		return e;
	snprintf(path, sizeof(path), "%s/exec.%s.lock", dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return lc_fail(msg, len, -errno, "%s: %s%s", path, strerror(errno),
			       errno == ELOOP ? " (a symbolic link: refused)" : "");
	if (!flock(fd, LOCK_EX | LOCK_NB)) {
		snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
		if (ftruncate(fd, 0) == 0 && pwrite(fd, pid, strlen(pid), 0) > 0)
			return 1;	/* fd stays open: the lock lives as long as we do */
		e = -errno;
		close(fd);
		return lc_fail(msg, len, e, "%s: %s", path, strerror(-e));
	}
	e = errno == EWOULDBLOCK ? 0 : -errno;
	holder = e ? 0 : lock_holder(fd);
	close(fd);
	if (!e && sibling(holder))
		return 0;
	if (e)
		return lc_fail(msg, len, e, "%s: %s", path, strerror(-e));
	return lc_fail(msg, len, -EBUSY, "%s is held by %s, not by a rank of this job: "
		       "this node cannot be profiled", path, holder ? "another process" :
		       "a process that did not say which");
}

/* Whether the node's ranks are gone at now, our child having ended at
 * done: none was ever seen for NODE_FIRST_NS, or those seen have all been
 * gone for NODE_GRACE_NS (since *quiet, 0 while one lives). */
static int node_gone(struct lc_registry *reg, uint64_t now, uint64_t done, uint64_t *quiet)
{
	if (lc_registry_live(reg)) {
		*quiet = 0;
		return 0;
	}
	if (!lc_registry_seen(reg))
		return now - done > NODE_FIRST_NS;
	if (!*quiet)
		*quiet = now;
	return now - *quiet > NODE_GRACE_NS;
}

int lc_launch_wait_node(const struct lc_launch *l, pid_t child, struct lc_registry *reg,
			int *sig)
{
	struct timespec ts = { 0, 10000000 };
	uint64_t quiet = 0, done = 0;
	int status = -1;
	siginfo_t si;

	for (;;) {
		int s = sigtimedwait(&l->waitset, &si, &ts);
		uint64_t now = lc_clock_ns();

		if (s == SIGINT || s == SIGTERM || s == SIGHUP) {
			if (status < 0)
				kill(child, s);
			*sig = s;
		}
		if (status < 0 && (status = lc_wait_status(child, WNOHANG, NULL)) >= 0)
			done = now;
		else if (status < 0)
			status = -1;
		if (status >= 0 && (*sig || node_gone(reg, now, done, &quiet)))
			return status;
	}
}

int lc_launch_is_mpi_launcher(const char *prog)
{
	const char *b = prog ? strrchr(prog, '/') : NULL;

	b = b ? b + 1 : prog;
	return b && (!strncmp(b, "mpiexec", 7) || !strncmp(b, "mpirun", 6) ||
		     !strcmp(b, "srun") || !strcmp(b, "orterun") || !strcmp(b, "prun"));
}

int lc_launch_spare_hint(int cpu, const struct lc_session_result *res)
{
	cpu_set_t set;

	if (!res->procs || res->shared_cpu >= 0 || (cpu < 0 && lc_sampler_spare_cpu() < 0) ||
	    sched_getaffinity(0, sizeof(set), &set))
		return 0;
	return res->procs < (uint32_t)CPU_COUNT(&set) && res->sampler_cpu_ns * 20 > res->wall_ns;
}

int lc_launch_pids(int argc, char **argv, pid_t **pids, char *msg, size_t len)
{
	uint64_t v;

	*pids = calloc((size_t)argc, sizeof(**pids));
	if (!*pids)
		return lc_fail(msg, len, -ENOMEM, "out of memory");
	for (int i = 0; i < argc; i++) {
		if (lc_parse_u64(argv[i], 1, INT32_MAX, &v))
			return lc_fail(msg, len, -EINVAL, "'%s' is not a process id", argv[i]);
		if (kill((pid_t)v, 0) && errno == ESRCH)
			return lc_fail(msg, len, -ESRCH, "no process %s", argv[i]);
		if (kill((pid_t)v, 0) && errno == EPERM)
			return lc_fail(msg, len, -EPERM, "process %s: permission denied (it is another "
				       "user's; only its owner or root may attach to it)", argv[i]);
		(*pids)[i] = (pid_t)v;
	}
	return 0;
}

char *lc_launch_command_line(int omp, int argc, char **argv)
{
	char path[PATH_MAX], real[PATH_MAX], *first = argv[0], *s;

	if (omp && !lc_program_find(argv[0], path, sizeof(path)) && realpath(path, real))
		argv[0] = real;
	s = lc_launch_join(argc, argv);
	argv[0] = first;
	return s;
}

const char *lc_launch_layer_of(const char *program)
{
	char path[PATH_MAX];

	return lc_program_find(program, path, sizeof(path)) ? NULL : lc_program_layer(path);
}

int lc_launch_uses_libgomp(const char *program)
{
	char path[PATH_MAX];

	return !lc_program_find(program, path, sizeof(path)) &&
	       lc_program_needs(path, "libgomp.so") == 1;
}
