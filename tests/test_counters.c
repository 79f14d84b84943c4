/*
 * test_counters.c — the counter module (sampler/counters.c): libpfm4
 * encoding and its errors, degradation without a PMU, the replay backend's
 * deltas (with multiplexing scale), the split into ML/CL/RC, the spreading
 * of reads over ticks, and the real perf_event path with a software event
 * against the thread's own CLOCK_THREAD_CPUTIME_ID.  Also the accumulator's
 * side: counts and moves spread over a thread's computation by window; and,
 * through the open seam (lc_ctr_open_hook), exclude_kernel decided by the
 * target's credentials and the reasons of refused opens.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lc_test.h"
#include "attr.h"
#include "counters.h"
#include "lostcycles.h"

#define MS 1000000ull

static char path[256];

/* Deltas seen by the poll callback. */
static struct {
	uint32_t n;
	uint32_t thread[64];
	uint64_t d[64][4];
} seen;

static void record_cb(void *arg, uint32_t thread, const uint64_t *delta)
{
	(void)arg;
	if (seen.n < 64) {
		seen.thread[seen.n] = thread;
		memcpy(seen.d[seen.n], delta, 4 * sizeof(uint64_t));
		seen.n++;
	}
}

static uint64_t now_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Unknown names and bad modifiers are errors naming the event. */
static void test_encoding_errors(void **state)
{
	struct lc_ctr_cfg cfg = { .events = "cycles:bogus" };
	struct lc_ctr *c = NULL;
	char msg[512];

	(void)state;
	assert_int_equal(lc_ctr_open(&cfg, &c, msg, sizeof(msg)), -EINVAL);
	assert_null(c);
	assert_non_null(strstr(msg, "event 'cycles:bogus'"));
	cfg.events = "no_such_event_anywhere";
	assert_int_equal(lc_ctr_open(&cfg, &c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "no_such_event_anywhere"));
	cfg.events = "cycles=bogusrole";
	assert_int_equal(lc_ctr_open(&cfg, &c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "unknown role"));
}

/* Hardware events encode everywhere; without a PMU they do not open, and
 * counting degrades to "unavailable" with the reason, not an error. */
static void test_no_pmu(void **state)
{
	struct lc_ctr_cfg cfg = { .events = "cycles,instructions" };
	struct lc_ctr *c = NULL;
	char msg[512];
	uint32_t n;

	(void)state;
	assert_int_equal(lc_ctr_open(&cfg, &c, msg, sizeof(msg)), 0);
	assert_non_null(c);
	if (!lc_ctr_unavailable(c)) {
		lc_ctr_close(c);
		skip();	/* this machine has a PMU: nothing to degrade */
	}
	assert_non_null(strstr(lc_ctr_unavailable(c), "do not open here"));
	lc_ctr_events(c, &n);
	assert_int_equal(n, 0);
	assert_null(lc_ctr_method(c, LC_CAT_ML));
	lc_ctr_close(c);
}

/* Roles: given, or guessed from the name; the methods name the events. */
static void test_roles_and_methods(void **state)
{
	struct lc_ctr_cfg cfg = { .events = "task-clock=cycles,context-switches=stall,"
					    "cpu-migrations=miss", .miss_latency_ns = 80 };
	struct lc_ctr *c = NULL;
	const struct lc_prof_event *ev;
	char msg[512];
	uint32_t n;

	(void)state;
	assert_int_equal(lc_ctr_open(&cfg, &c, msg, sizeof(msg)), 0);
	assert_null(lc_ctr_unavailable(c));
	ev = lc_ctr_events(c, &n);
	assert_int_equal(n, 3);
	assert_int_equal(ev[0].role, LC_EVR_CYCLES);
	assert_int_equal(ev[1].role, LC_EVR_STALL);
	assert_non_null(strstr(lc_ctr_method(c, LC_CAT_ML), "context-switches / task-clock"));
	assert_non_null(strstr(lc_ctr_method(c, LC_CAT_CL), "80.0 ns"));
	assert_null(lc_ctr_method(c, LC_CAT_RC));	/* no miss-stall event */
	lc_ctr_close(c);
	/* the CL method names where the latency came from */
	cfg.latency_from = "/x/memory (transfer_ns, lostcycles calibrate --memory)";
	assert_int_equal(lc_ctr_open(&cfg, &c, msg, sizeof(msg)), 0);
	assert_string_equal(lc_ctr_method(c, LC_CAT_CL), "misses x ideal latency 80.0 ns "
			    "(cpu-migrations); latency from /x/memory (transfer_ns, lostcycles "
			    "calibrate --memory)");
	lc_ctr_close(c);
	/* a miss event without a latency: misses not charged, and why */
	cfg.miss_latency_ns = 0;
	cfg.latency_from = "no --miss-latency, and no memory file /x/memory";
	assert_int_equal(lc_ctr_open(&cfg, &c, msg, sizeof(msg)), 0);
	assert_string_equal(lc_ctr_method(c, LC_CAT_CL), "the COMM flags only; misses "
			    "(cpu-migrations) not charged: no --miss-latency, and no memory file "
			    "/x/memory");
	assert_null(strstr(lc_ctr_method(c, LC_CAT_ML), "less what"));
	lc_ctr_close(c);
}

/* The split: ML = busy x stall/cycles; CL = misses x latency taken from it;
 * with a miss-stall event, RC = miss stall beyond the ideal. */
static void test_split(void **state)
{
	struct lc_ctr_cfg cfg = { .events = "task-clock=cycles,context-switches=stall,"
					    "cpu-migrations=miss,page-faults=miss-stall",
				  .miss_latency_ns = 100 };
	struct lc_ctr *c = NULL;
	uint64_t out[LC_NCAT];
	char msg[512];

	(void)state;
	assert_int_equal(lc_ctr_open(&cfg, &c, msg, sizeof(msg)), 0);
	/* 10 ms busy; cycles 1000, stalls 400 (4 ms), misses 10000 (1 ms
	 * ideal), miss stall 300 (3 ms actual): CL 1 ms, RC 2 ms, ML 1 ms */
	lc_ctr_split(c, (uint64_t[]){ 1000, 400, 10000, 300 }, 10 * MS, out);
	assert_int_equal(out[LC_CAT_CL], 1 * MS);
	assert_int_equal(out[LC_CAT_RC], 2 * MS);
	assert_int_equal(out[LC_CAT_ML], 1 * MS);
	assert_int_equal(out[LC_CAT_PC], 0);
	/* no cycles: nothing */
	lc_ctr_split(c, (uint64_t[]){ 0, 400, 10000, 300 }, 10 * MS, out);
	assert_int_equal(out[LC_CAT_ML] + out[LC_CAT_CL] + out[LC_CAT_RC], 0);
	/* stalls beyond the cycles are capped at the busy time */
	lc_ctr_split(c, (uint64_t[]){ 100, 500, 0, 0 }, 10 * MS, out);
	assert_int_equal(out[LC_CAT_ML], 10 * MS);
	lc_ctr_close(c);
	/* without a miss-stall event: CL from the stall time, no RC */
	cfg.events = "task-clock=cycles,context-switches=stall,cpu-migrations=miss";
	assert_int_equal(lc_ctr_open(&cfg, &c, msg, sizeof(msg)), 0);
	lc_ctr_split(c, (uint64_t[]){ 1000, 400, 10000 }, 10 * MS, out);
	assert_int_equal(out[LC_CAT_CL], 1 * MS);
	assert_int_equal(out[LC_CAT_ML], 3 * MS);
	assert_int_equal(out[LC_CAT_RC], 0);
	lc_ctr_close(c);
}

/* Replay: cumulative lines become deltas when due, scaled up by
 * enabled/running when the kernel multiplexed. */
static void test_replay(void **state)
{
	struct lc_ctr_cfg cfg = { .events = "task-clock=cycles,context-switches=stall" };
	struct lc_ctr *c = NULL;
	char msg[512];
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/lc-test-counters.%d.replay", (int)getpid());
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "# t_ns thread cycles stalls enabled running\n"
		   "1000000 0 1000 100 1000000 1000000\n"
		   "1000000 1 500 50 1000000 500000\n"
		   "2000000 0 3000 400 2000000 2000000\n");
	fclose(f);
	cfg.replay = path;
	assert_int_equal(lc_ctr_open(&cfg, &c, msg, sizeof(msg)), 0);
	memset(&seen, 0, sizeof(seen));
	lc_ctr_poll(c, 5000000, record_cb, NULL);	/* t0: nothing due yet */
	assert_int_equal(seen.n, 0);
	lc_ctr_poll(c, 6000000, record_cb, NULL);
	assert_int_equal(seen.n, 2);
	assert_int_equal(seen.d[0][0], 1000);
	assert_int_equal(seen.thread[1], 1);
	assert_int_equal(seen.d[1][0], 1000);	/* 500 counted in half the time */
	assert_int_equal(seen.d[1][1], 100);
	lc_ctr_poll(c, 7000000, record_cb, NULL);
	assert_int_equal(seen.n, 3);
	assert_int_equal(seen.d[2][0], 2000);
	assert_int_equal(seen.d[2][1], 300);
	lc_ctr_close(c);
	unlink(path);
}

/* The accumulator spreads a read over the windows of the thread's
 * computation and moves what the counters explain out of PC. */
static void test_accum_spread(void **state)
{
	struct lc_prof_info info = { .interval_ns = 100000, .window_ns = 10 * MS,
				     .sampler_cpu = -1, .hostname = "h", .command = "c",
				     .session = "s" };
	struct lc_prof_event ev[2] = { { "cycles", LC_EVR_CYCLES }, { "stalls", LC_EVR_STALL } };
	struct lc_obs_proc pr = { .uid = 1, .we = 1 };
	struct lc_obs_thread t = { .thread = 0, .state = LC_ST_BUSY };
	struct lc_obs o = { 1, &pr, 1, &t };
	struct lc_prof_end end = { .reason = "test" };
	struct lc_profile *prof = NULL;
	struct lc_pwriter *w;
	struct lc_accum *a;
	struct lc_threads *th;
	char err[256];
	int e = 0;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/lc-test-counters.%d.data", (int)getpid());
	unlink(path);	/* the writer creates a new file */
	w = lc_pwriter_open(path, &info, &e);
	assert_non_null(w);
	a = lc_accum_new(w, LC_SRC_SAMPLED, 10 * MS, 1);
	th = lc_threads_new(w);
	lc_threads_id(th, 1, 1, 0, 1, 10, 0);
	assert_int_equal(lc_accum_events(a, 2, ev), 0);
	/* 5 ms busy in window 0, 15 ms in window 1 */
	assert_int_equal(lc_accum_charge(a, 5 * MS, 20 * MS, &o), 0);
	assert_int_equal(lc_accum_busy_pending(a, 0), 20 * MS);
	/* the read: 2000 cycles, 500 stalls; 5 ms of the 20 go to ML */
	assert_int_equal(lc_accum_counters(a, 0, (uint64_t[]){ 2000, 500 },
					   (uint64_t[LC_NCAT]){ [LC_CAT_ML] = 5 * MS }), 0);
	assert_int_equal(lc_accum_busy_pending(a, 0), 0);
	assert_int_equal(lc_accum_flush(a), 0);
	end.procs = 1;
	assert_int_equal(lc_pwriter_end(w, &end), 0);
	assert_int_equal(lc_pwriter_close(w), 0);
	assert_int_equal(lc_profile_read(path, &prof, err, sizeof(err)), 0);
	assert_int_equal(prof->data[0].nwindows, 3);
	assert_int_equal(prof->data[0].windows[0].acct.cat[LC_CAT_ML], 5 * MS / 4);
	assert_int_equal(prof->data[0].windows[1].acct.cat[LC_CAT_ML], 5 * MS / 2);
	assert_int_equal(prof->data[0].threads[0].cat[LC_CAT_ML], 5 * MS);
	assert_int_equal(prof->data[0].threads[0].cat[LC_CAT_PC], 15 * MS);
	assert_int_equal(prof->data[0].ev_total[0], 2000);
	assert_int_equal(prof->data[0].ev_window[0 * 2 + 0], 500);
	assert_int_equal(prof->data[0].ev_window[1 * 2 + 1], 250);
	lc_profile_free(prof);
	lc_accum_free(a);
	lc_threads_free(th);
	unlink(path);
}

struct spinner {
	pid_t tid;
	volatile int go, stop;
	uint64_t cpu_ns;	/* CPU time of the 50 ms spin */
};

static void *spin(void *arg)
{
	struct spinner *s = arg;
	uint64_t c0, end;
	volatile uint64_t x = 0;

	__atomic_store_n(&s->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	while (!__atomic_load_n(&s->go, __ATOMIC_ACQUIRE))	/* sleep: the counter may be on */
		usleep(200);
	c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	end = now_ns(CLOCK_MONOTONIC) + 50 * MS;
	while (now_ns(CLOCK_MONOTONIC) < end)
		x++;
	__atomic_store_n(&s->cpu_ns, now_ns(CLOCK_THREAD_CPUTIME_ID) - c0, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE))
		usleep(200);
	return NULL;
}

/* The real path with a software event: a thread's task clock while it was
 * attached is at least 95 % of the CPU time of its ~50 ms spin, which lies
 * inside the attachment, and at most the wall time of the attachment.  (Not
 * within 5 % of the spin's CPU time: on a loaded virtual machine the task
 * clock, which counts on the perf clock, ran 8 % ahead of the thread's
 * CPU clock, from which the kernel leaves out time stolen by the host, and
 * the wake-ups around the spin add to it.)  Reads are spread over ticks
 * (8 threads, an interval of 4 ticks: at most 2 reads a tick). */
static void test_software_event(void **state)
{
	struct lc_ctr_cfg cfg = { .events = "task-clock=cycles", .interval_ns = 4 * MS,
				  .tick_ns = MS, .exclude_kernel = 1 };
	struct lc_ctr *c = NULL;
	struct spinner sp = { 0 };
	pthread_t t;
	char msg[512];
	uint64_t total = 0, span;

	(void)state;
	assert_int_equal(lc_ctr_open(&cfg, &c, msg, sizeof(msg)), 0);
	if (lc_ctr_unavailable(c)) {
		fprintf(stderr, "software events do not open here: %s\n", lc_ctr_unavailable(c));
		lc_ctr_close(c);
		skip();
	}
	assert_int_equal(pthread_create(&t, NULL, spin, &sp), 0);
	while (!__atomic_load_n(&sp.tid, __ATOMIC_ACQUIRE))
		;
	span = now_ns(CLOCK_MONOTONIC);
	assert_int_equal(lc_ctr_attach(c, 0, sp.tid), 0);
	__atomic_store_n(&sp.go, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&sp.cpu_ns, __ATOMIC_ACQUIRE))
		;
	memset(&seen, 0, sizeof(seen));
	lc_ctr_detach(c, 0, record_cb, NULL);
	span = now_ns(CLOCK_MONOTONIC) - span;
	__atomic_store_n(&sp.stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	for (uint32_t i = 0; i < seen.n; i++)
		total += seen.d[i][0];
	fprintf(stderr, "task-clock %.3f ms, thread CPU time %.3f ms\n", total / 1e6,
		sp.cpu_ns / 1e6);
	fprintf(stderr, "attached for %.3f ms\n", span / 1e6);
	assert_true(total > sp.cpu_ns * 95 / 100 && total <= span);

	/* spreading: 8 threads (this one, counted 8 times), 4 ticks per interval */
	for (uint32_t i = 0; i < 8; i++)
		assert_int_equal(lc_ctr_attach(c, i, (pid_t)syscall(SYS_gettid)), 0);
	{
		uint64_t now = now_ns(CLOCK_MONOTONIC);
		uint32_t reads[8] = { 0 }, most = 0;

		lc_ctr_poll(c, now, record_cb, NULL);	/* schedules the first reads */
		for (int tick = 1; tick <= 16; tick++) {
			memset(&seen, 0, sizeof(seen));
			lc_ctr_poll(c, now + (uint64_t)tick * MS, record_cb, NULL);
			if (seen.n > most)
				most = seen.n;
			for (uint32_t k = 0; k < seen.n; k++)
				reads[seen.thread[k]]++;

		}
		assert_true(most <= 2);
		for (uint32_t i = 0; i < 8; i++)
			assert_true(reads[i] >= 3 && reads[i] <= 5);
	}
	lc_ctr_close(c);
}

/* ---- the open seam: credentials and refusals ---------------------------- */

static struct {
	int calls;
	int exclude_kernel[16];
	int err;		/* errno to fail with, 0: succeed */
} fake;

static long fake_open(struct perf_event_attr *a, pid_t tid, int cpu, int group_fd,
		      unsigned long flags)
{
	(void)tid, (void)cpu, (void)group_fd, (void)flags;
	if (fake.calls < 16)
		fake.exclude_kernel[fake.calls] = (int)a->exclude_kernel;
	fake.calls++;
	if (fake.err) {
		errno = fake.err;
		return -1;
	}
	return open("/dev/null", O_RDONLY | O_CLOEXEC);
}

/* A process of another user (nobody) that waits to be killed, or -1 when
 * this test is not root and cannot make one. */
static pid_t nobody(void)
{
	pid_t pid, parent = getpid();

	if (geteuid() != 0)
		return -1;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(1);
		prctl(PR_SET_PDEATHSIG, SIGKILL);	/* after setuid, which clears it */
		if (getppid() != parent)
			_exit(1);
		for (;;)
			pause();
	}
	for (int i = 0; i < 2000 && !lc_ctr_user_only(pid); i++)
		usleep(1000);	/* until its credentials are changed */
	return pid;
}

/* exclude_kernel is the target's: a non-root target thread counts user
 * space only, a root one the kernel too, whoever the sampler is; the
 * option forces user space only for all. */
static void test_target_credentials(void **state)
{
	struct lc_ctr_cfg cfg = { .events = "task-clock=cycles" };
	struct lc_ctr *c = NULL;
	char msg[512];
	pid_t other;
	int root = geteuid() == 0;

	(void)state;
	assert_int_equal(lc_ctr_user_only(0), !root);
	assert_int_equal(lc_ctr_user_only((pid_t)syscall(SYS_gettid)), !root);
	assert_int_equal(lc_ctr_user_only(999999999), 1);	/* unknown: user space */
	memset(&fake, 0, sizeof(fake));
	lc_ctr_open_hook = fake_open;
	assert_int_equal(lc_ctr_open(&cfg, &c, msg, sizeof(msg)), 0);
	assert_null(lc_ctr_unavailable(c));
	assert_int_equal(fake.calls, 1);	/* the probe, on this thread */
	assert_int_equal(fake.exclude_kernel[0], !root);
	assert_int_equal(lc_ctr_attach(c, 0, (pid_t)syscall(SYS_gettid)), 0);
	assert_int_equal(fake.exclude_kernel[1], !root);
	other = nobody();
	if (other > 0) {
		int user = lc_ctr_user_only(other), rc = lc_ctr_attach(c, 1, other);

		kill(other, SIGKILL);
		waitpid(other, NULL, 0);
		assert_int_equal(user, 1);
		assert_int_equal(rc, 0);
		assert_int_equal(fake.calls, 3);
		assert_int_equal(fake.exclude_kernel[2], 1);	/* nobody: user space */
	} else {
		fprintf(stderr, "not root: the other-user target is left out\n");
	}
	lc_ctr_close(c);
	/* forced: user space only for a root target too */
	cfg.exclude_kernel = 1;
	memset(&fake, 0, sizeof(fake));
	assert_int_equal(lc_ctr_open(&cfg, &c, msg, sizeof(msg)), 0);
	assert_int_equal(lc_ctr_attach(c, 0, (pid_t)syscall(SYS_gettid)), 0);
	assert_int_equal(fake.calls, 2);
	assert_int_equal(fake.exclude_kernel[0] + fake.exclude_kernel[1], 2);
	lc_ctr_close(c);
	lc_ctr_open_hook = NULL;
}

/* The paranoid setting, as this machine has it, or -9. */
static int paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = -9;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -9;
		fclose(f);
	}
	return v;
}

/* A refused open (EACCES, EPERM: the paranoid setting or a missing
 * CAP_PERFMON; ENOENT: no PMU) leaves counting unavailable with the reason
 * and its fix; a refused thread is counted, not fatal. */
static void test_refusals(void **state)
{
	struct lc_ctr_cfg cfg = { .events = "task-clock=cycles,context-switches=stall" };
	static const int errs[] = { EACCES, EPERM, ENOENT };
	struct lc_ctr *c = NULL;
	char msg[512], want[128];
	int pv = paranoid();

	(void)state;
	lc_ctr_open_hook = fake_open;
	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		memset(&fake, 0, sizeof(fake));
		fake.err = errs[i];
		assert_int_equal(lc_ctr_open(&cfg, &c, msg, sizeof(msg)), 0);
		assert_non_null(lc_ctr_unavailable(c));
		assert_non_null(strstr(lc_ctr_unavailable(c), "counters (task-clock, ...) do not "
						      "open here: "));
		if (errs[i] == ENOENT) {
			assert_non_null(strstr(lc_ctr_unavailable(c), "no hardware PMU"));
		} else {
			assert_non_null(strstr(lc_ctr_unavailable(c), "not permitted: "));
			assert_non_null(strstr(lc_ctr_unavailable(c), "CAP_PERFMON"));
			if (pv != -9) {
				snprintf(want, sizeof(want), "perf_event_paranoid is %d; run "
					 "'sysctl kernel.perf_event_paranoid=1'", pv);
				assert_non_null(strstr(lc_ctr_unavailable(c), want));
			}
		}
		assert_null(lc_ctr_method(c, LC_CAT_ML));
		lc_ctr_close(c);
	}
	/* counting works here, but one thread is refused */
	memset(&fake, 0, sizeof(fake));
	assert_int_equal(lc_ctr_open(&cfg, &c, msg, sizeof(msg)), 0);
	fake.err = EACCES;
	assert_int_equal(lc_ctr_attach(c, 0, (pid_t)syscall(SYS_gettid)), -EACCES);
	assert_int_equal(lc_ctr_failures(c), 1);
	assert_null(lc_ctr_unavailable(c));
	lc_ctr_close(c);
	lc_ctr_open_hook = NULL;
}

LC_TEST_MAIN(NULL, NULL,
	     LC_T(test_encoding_errors), LC_T(test_no_pmu), LC_T(test_roles_and_methods),
	     LC_T(test_split), LC_T(test_replay), LC_T(test_accum_spread),
	     LC_T(test_software_event), LC_T(test_target_credentials), LC_T(test_refusals))
