/*
 * lc_runner.h — run a child to completion for the experiment drivers
 * (calibrate, sweep): its wall time, CPU time and exit status, with a way to
 * stop it early.  Nothing here prints.
 */
#ifndef LC_RUNNER_H
#define LC_RUNNER_H

#include <stdint.h>
#include <sys/types.h>

struct lc_child_result {
	int status;		/* as a shell reports it: exit code, 128+signal */
	uint64_t wall_ns;	/* from fork to exit */
	uint64_t cpu_ns;	/* user + system of the child and what it waited for */
	uint64_t thread_ns;	/* lc_run_child_watch: the watched thread's run time */
};

/* Set by a signal handler (installed without SA_RESTART) to stop the child
 * in progress: when the handler interrupts the wait, the child gets SIGTERM
 * (record then writes what it has) and is waited for. */
extern volatile int lc_runner_stop;

/* Run argv[0] (searched in PATH) with argv, adding the NULL-terminated
 * "NAME=value" strings of env (may be NULL) to the environment and sending
 * its stdout to out_path (NULL: inherit; "/dev/null" to discard) and its
 * stderr to err_path (NULL: inherit).  Returns 0 with *res filled, or -errno
 * when it could not be started (-ENOENT: no such program). */
int lc_run_child(char *const argv[], char *const env[], const char *out_path,
		 const char *err_path, struct lc_child_result *res);

/* The same, and while the child runs, poll every 5 ms the run time
 * (/proc/PID/task/TID/schedstat) of its thread named thread (e.g. the
 * sampler's, LC_SAMPLER_THREAD_NAME) into res->thread_ns: its last value
 * before the child exits, which misses at most the last 5 ms.  The wall
 * time is then known to within 5 ms only. */
int lc_run_child_watch(char *const argv[], char *const env[], const char *out_path,
		       const char *err_path, const char *thread, struct lc_child_result *res);

/* The path of this executable, for running "lostcycles record" as a child
 * (/proc/self/exe resolved).  Returns a static string. */
const char *lc_self_exe(void);

#endif /* LC_RUNNER_H */
