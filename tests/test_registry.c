/*
 * test_registry.c — the target registry: discovery of a session's segments,
 * rejection of invalid ones (with a reason; another ABI major by name), detach when a process exits or execs, and
 * attach/detach churn while a reader walks the RCU list.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "lc_test.h"
#include "targets.h"

static char session[LC_SESSION_MAX];

/* A unique session name for this test process. */
static void new_session(void)
{
	snprintf(session, sizeof(session), "test%d-%llx", (int)getpid(),
		 (unsigned long long)lc_clock_ns());
}

/* The start time of process pid in clock ticks after boot (field 22 of
 * /proc/PID/stat). */
static uint64_t start_ticks(pid_t pid)
{
	char path[64];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%*d (%*[^)]) %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
				"%*u %*u %*d %*d %*d %*d %*d %*d %llu", &v), 1);
	fclose(f);
	return v;
}

/* Create a segment for pid with nonce as the library would; magic is written
 * only when publish is set.  corrupt selects a field to break (0 = none; 6:
 * another process start time; 7: an ABI 1.2 header made before the process
 * started; 8: stamps without place cells).  Returns the mapping. */
static struct lc_seg_hdr *make_segment(pid_t pid, uint64_t nonce, uint32_t nslots,
				       int publish, int corrupt)
{
	char name[256];
	size_t len = LC_HDR_SIZE + (size_t)nslots * sizeof(struct lc_slot);
	struct lc_seg_hdr *h;
	int fd;

	snprintf(name, sizeof(name), "/%s%s.%d.%016llx", LC_SHM_PREFIX, session, (int)pid,
		 (unsigned long long)nonce);
	fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)len), 0);
	h = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	assert_true(h != MAP_FAILED);
	close(fd);
	h->abi_major = LC_ABI_MAJOR;
	h->hdr_size = LC_HDR_SIZE;
	h->slot_size = sizeof(struct lc_slot);
	h->nslots = nslots;
	h->seg_size = len;
	h->pid = pid;
	h->nonce = nonce;
	h->start_ns = lc_clock_ns();
	h->abi_minor = LC_ABI_MINOR;
	h->proc_start = start_ticks(pid);
	if (corrupt == 6)
		h->proc_start += 1;
	if (corrupt == 7) {
		h->abi_minor = 2;
		h->proc_start = 0;
		h->start_ns = 1;
	}
	if (corrupt == 1)
		h->nslots = nslots + 1;		/* claims more slots than mapped */
	if (corrupt == 2)
		h->slot_size = 32;
	if (corrupt == 3)
		h->pid = pid + 1;
	if (corrupt == 5)
		h->abi_major = LC_ABI_MAJOR + 1;	/* a library of another ABI */
	if (corrupt == 8) {		/* stamps without place cells: no layout */
		h->flags = LC_SEG_STAMPS;
		h->seg_size = 0;
	}
	if (publish)
		__atomic_store_n(&h->magic, corrupt == 4 ? 0x1234 : LC_SEG_MAGIC, __ATOMIC_RELEASE);
	return h;
}

/* Wait up to 2 s until cond(r) holds; returns whether it did. */
static int wait_for(struct lc_registry *r, int (*cond)(struct lc_registry *, uint32_t),
		    uint32_t arg)
{
	for (int i = 0; i < 2000; i++) {
		if (cond(r, arg))
			return 1;
		usleep(1000);
	}
	return 0;
}

static int live_is(struct lc_registry *r, uint32_t n) { return lc_registry_live(r) == n; }
static int seen_is(struct lc_registry *r, uint32_t n) { return lc_registry_seen(r) == n; }
static int rejected_is(struct lc_registry *r, uint32_t n) { return lc_registry_rejected(r) == n; }

/* Remove every segment name of the current session; returns how many. */
static int cleanup_session(void)
{
	char prefix[128], name[512];
	struct dirent *e;
	DIR *d = opendir("/dev/shm");
	int n = 0;

	snprintf(prefix, sizeof(prefix), "%s%s.", LC_SHM_PREFIX, session);
	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, prefix, strlen(prefix)))
			continue;
		snprintf(name, sizeof(name), "/%s", e->d_name);
		n += !shm_unlink(name);
	}
	if (d)
		closedir(d);
	return n;
}

/* A segment is attached once published, not before. */
static void test_publication(void **state)
{
	struct lc_registry *r;
	struct lc_seg_hdr *h;
	int e;

	new_session();
	h = make_segment(getpid(), 1, 8, 0, 0);
	r = lc_registry_open(session, NULL, 0, &e);	/* scans once */
	assert_non_null(r);
	assert_int_equal(lc_registry_scan(r), 0);	/* and again, unpublished */
	assert_int_equal(lc_registry_tries(r), 2);	/* the name was tried, */
	assert_int_equal(lc_registry_seen(r), 0);	/* and not attached */
	assert_int_equal(lc_registry_rejected(r), 0);
	__atomic_store_n(&h->magic, LC_SEG_MAGIC, __ATOMIC_RELEASE);
	assert_int_equal(lc_registry_scan(r), 0);
	assert_int_equal(lc_registry_seen(r), 1);
	assert_int_equal(lc_registry_live(r), 1);
	lc_registry_stop(r);
	assert_int_equal(lc_registry_live(r), 0);
	lc_registry_free(r);
	munmap(h, LC_HDR_SIZE + 8 * sizeof(struct lc_slot));
	/* our own process is alive, so stop() left the name: remove it */
	char name[256];
	snprintf(name, sizeof(name), "/%s%s.%d.%016llx", LC_SHM_PREFIX, session, (int)getpid(), 1ull);
	assert_int_equal(shm_unlink(name), 0);
}

/* Invalid segments are rejected and never attached. */
static void test_rejects(void **state)
{
	static const int bad[] = { 1, 2, 3, 4, 8 };
	struct lc_rejection rej[5];
	struct lc_registry *r;
	uint32_t n;
	int e;

	new_session();
	for (int c = 0; c < 5; c++)
		make_segment(getpid(), (uint64_t)bad[c], 4, 1, bad[c]);
	r = lc_registry_start(session, NULL, 0, &e);
	assert_non_null(r);
	assert_true(wait_for(r, rejected_is, 5));
	assert_int_equal(lc_registry_seen(r), 0);
	lc_registry_stop(r);
	n = lc_registry_rejections(r, rej, 5);
	assert_int_equal(n, 5);
	assert_int_equal(lc_registry_rejections(r, rej, 2), 5);	/* copies 2, counts all */
	for (uint32_t i = 0; i < n; i++) {
		char head[32];

		snprintf(head, sizeof(head), "target %d", (int)getpid());
		assert_memory_equal(rej[i].reason, head, strlen(head));
		assert_non_null(strstr(rej[i].reason, ": skipped"));
	}
	lc_registry_free(r);
	for (int c = 0; c < 5; c++) {
		char name[256];
		snprintf(name, sizeof(name), "/%s%s.%d.%016llx", LC_SHM_PREFIX, session,
			 (int)getpid(), (unsigned long long)bad[c]);
		shm_unlink(name);
	}
}

/* A segment of another ABI major is refused, with a reason that names both
 * versions, and is not tried again. */
static void test_abi_mismatch(void **state)
{
	struct lc_rejection rej[4];
	struct lc_registry *r;
	char want[LC_REASON_MAX], name[256];
	uint32_t n;
	int e;

	new_session();
	make_segment(getpid(), 9, 4, 1, 5);
	r = lc_registry_open(session, NULL, 0, &e);	/* scans once */
	assert_non_null(r);
	assert_int_equal(lc_registry_rejected(r), 1);
	assert_int_equal(lc_registry_tries(r), 1);
	for (int i = 0; i < 3; i++)		/* rescans neither try nor reject it again */
		assert_int_equal(lc_registry_scan(r), 0);
	assert_int_equal(lc_registry_tries(r), 1);
	assert_int_equal(lc_registry_rejected(r), 1);
	assert_int_equal(lc_registry_seen(r), 0);
	assert_int_equal(lc_registry_rejections(r, rej, 1), 1);
	lc_registry_stop(r);
	n = lc_registry_rejections(r, rej, 4);
	assert_int_equal(n, 1);
	assert_int_equal(rej[0].pid, getpid());
	assert_int_equal(rej[0].nonce, 9);
	snprintf(want, sizeof(want), "target %d speaks segment ABI %u, this sampler %u: skipped",
		 (int)getpid(), (unsigned)LC_ABI_MAJOR + 1, (unsigned)LC_ABI_MAJOR);
	assert_string_equal(rej[0].reason, want);
	lc_registry_free(r);
	snprintf(name, sizeof(name), "/%s%s.%d.%016llx", LC_SHM_PREFIX, session, (int)getpid(), 9ull);
	assert_int_equal(shm_unlink(name), 0);
}

/* The /dev/shm path of the segment name of (pid, nonce) in this session. */
static void shm_path(char *buf, size_t len, pid_t pid, uint64_t nonce)
{
	snprintf(buf, len, "/dev/shm/%s%s.%d.%016llx", LC_SHM_PREFIX, session, (int)pid,
		 (unsigned long long)nonce);
}

/* A FIFO and a symbolic link planted under names of the session (anyone
 * may create files in /dev/shm) are refused with a reason; the FIFO must
 * not block discovery (an open for reading waits for a writer).  The
 * registry runs in a child that an alarm kills if it hangs. */
static void test_planted_fifo(void **state)
{
	char fifo[256], link[256];
	pid_t pid;
	int ws;

	new_session();
	shm_path(fifo, sizeof(fifo), getpid(), 0xf1f0);
	shm_path(link, sizeof(link), getpid(), 0x5717);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(symlink("/etc/passwd", link), 0);
	urcu_memb_call_rcu_before_fork();	/* the child gets a call_rcu thread */
	pid = fork();
	assert_true(pid >= 0);
	if (pid)
		urcu_memb_call_rcu_after_fork_parent();
	if (pid == 0) {
		struct lc_rejection rej[2];
		struct lc_registry *r;
		int e;

		urcu_memb_call_rcu_after_fork_child();
		alarm(60);
		r = lc_registry_start(session, NULL, 0, &e);
		if (!r)
			_exit(2);
		lc_registry_stop(r);
		if (lc_registry_rejections(r, rej, 2) != 2 || lc_registry_seen(r))
			_exit(3);
		for (int i = 0; i < 2; i++)
			if (!strstr(rej[i].reason, "not a regular file") &&
			    !strstr(rej[i].reason, "symbolic link"))
				_exit(4);
		lc_registry_free(r);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &ws, 0), pid);
	unlink(fifo);
	unlink(link);
	assert_false(WIFSIGNALED(ws));		/* SIGALRM: discovery hung */
	assert_int_equal(WEXITSTATUS(ws), 0);
}

struct flipper {
	struct lc_seg_hdr *h;
	int stop;
	uint64_t flips;
};

/* Flip the header's nslots and slot_hwm between the truth and the maximum
 * until told to stop, as a hostile program may. */
static void *flip(void *arg)
{
	struct flipper *f = arg;

	while (!__atomic_load_n(&f->stop, __ATOMIC_ACQUIRE)) {
		uint64_t t = lc_clock_ns();

		/* each value stays about a microsecond, as long as the gap
		 * between a check and a second read */
		__atomic_store_n(&f->h->nslots, (t / 1000) & 1 ? LC_SLOTS_MAX : 4,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&f->h->slot_hwm, LC_SLOTS_MAX, __ATOMIC_RELAXED);
		__atomic_store_n(&f->flips, f->flips + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* The header is validated as one snapshot and only the snapshot is used: a
 * target attached while its program flips nslots holds the slot count that
 * was checked against the file, never more than the mapping holds. */
static void test_nslots_flip(void **state)
{
	struct lc_registry *r;
	struct lc_target *t;
	struct flipper f;
	pthread_t th;
	int e, attached = 0;

	urcu_memb_register_thread();
	/* 40 rounds, and more (up to 400) until one attached: on a busy
	 * machine every snapshot of a round may catch a flip and be refused */
	for (int round = 0; round < 400 && (round < 40 || !attached); round++) {
		new_session();
		f = (struct flipper){ .h = make_segment(getpid(), 0x71 + (uint64_t)round, 4, 1, 0) };
		assert_int_equal(pthread_create(&th, NULL, flip, &f), 0);
		while (__atomic_load_n(&f.flips, __ATOMIC_ACQUIRE) < 10000)
			;
		r = lc_registry_start(session, NULL, 0, &e);
		assert_non_null(r);
		while (!lc_registry_seen(r) && !lc_registry_rejected(r))
			usleep(1000);
		urcu_memb_read_lock();
		cds_list_for_each_entry_rcu(t, lc_registry_list(r), node) {
			assert_int_equal(t->nslots, 4);
			assert_true(LC_HDR_SIZE + (size_t)t->nslots * sizeof(struct lc_slot) <= t->len);
			attached++;
		}
		urcu_memb_read_unlock();
		__atomic_store_n(&f.stop, 1, __ATOMIC_RELEASE);
		pthread_join(th, NULL);
		lc_registry_stop(r);
		lc_registry_free(r);
		munmap(f.h, LC_HDR_SIZE + 4 * sizeof(struct lc_slot));
		cleanup_session();
	}
	urcu_memb_unregister_thread();
	assert_true(attached > 0);
}

/* Wait until the registry has rejected one segment and return its reason
 * (static storage); fails the test when it attached one instead. */
static const char *one_rejection(struct lc_registry *r)
{
	static struct lc_rejection rej;

	assert_true(wait_for(r, rejected_is, 1));
	assert_int_equal(lc_registry_seen(r), 0);
	assert_int_equal(lc_registry_rejections(r, &rej, 1), 1);
	return rej.reason;
}

/* A segment owned by another user than its process's is refused: as root,
 * one of uid 65534 for this (root's) process; as another user, one of ours
 * for init, which is not ours. */
static void test_forged_owner(void **state)
{
	struct lc_registry *r;
	pid_t pid = geteuid() == 0 ? getpid() : 1;
	char path[256];
	int e;

	new_session();
	make_segment(pid, 0xf0, 4, 1, 0);
	shm_path(path, sizeof(path), pid, 0xf0);
	if (geteuid() == 0)
		assert_int_equal(chown(path, 65534, 65534), 0);
	else if (kill(1, 0) == 0 || errno != EPERM)
		skip();		/* init is ours here: nothing to forge */
	r = lc_registry_start(session, NULL, 0, &e);
	assert_non_null(r);
	assert_non_null(strstr(one_rejection(r), "the process's uid"));
	lc_registry_stop(r);
	lc_registry_free(r);
	assert_int_equal(unlink(path), 0);
}

/* A segment whose header names another start time than its pid's process
 * (a reused pid, or a forgery) is refused; so is an ABI 1.2 header, which
 * has no process start time, made before the process started. */
static void test_pid_reuse(void **state)
{
	for (int c = 6; c <= 7; c++) {
		struct lc_registry *r;
		char path[256];
		int e;

		new_session();
		make_segment(getpid(), 0xa0, 4, 1, c);
		r = lc_registry_start(session, NULL, 0, &e);
		assert_non_null(r);
		assert_non_null(strstr(one_rejection(r), "reused pid"));
		lc_registry_stop(r);
		lc_registry_free(r);
		shm_path(path, sizeof(path), getpid(), 0xa0);
		assert_int_equal(unlink(path), 0);
	}
}

/* Segments that stay unpublished while their process lives (2000 such
 * names kept a core busy) are tried less and less often, each on its own:
 * at most about log2(1 s / 50 us) + the seconds waited tries per name, not
 * one per scan. */
static void test_unpublished_backoff(void **state)
{
	const int n = 200;
	struct lc_registry *r;
	uint64_t t0, tries;
	double secs;
	int e;

	new_session();
	for (int i = 0; i < n; i++)
		munmap(make_segment(getpid(), 0x1000 + (uint64_t)i, 1, 0, 0),
		       LC_HDR_SIZE + sizeof(struct lc_slot));
	t0 = lc_clock_ns();
	r = lc_registry_start(session, NULL, 0, &e);
	assert_non_null(r);
	usleep(1000000);
	tries = lc_registry_tries(r);
	secs = (double)(lc_clock_ns() - t0) / 1e9;
	lc_registry_stop(r);
	lc_registry_free(r);
	assert_int_equal(cleanup_session(), n);
	fprintf(stderr, "# %d unpublished names, %.2f s: %llu tries\n", n, secs,
		(unsigned long long)tries);
	assert_true(tries <= (uint64_t)n * (16 + (uint64_t)secs + 1));
}

/* The limit of open files that leaves exactly k descriptor numbers free
 * (a new descriptor takes the lowest free number below the limit). */
static rlim_t limit_leaving(int k)
{
	rlim_t lim = 0;

	for (int fd = 0; k > 0 || fcntl(fd, F_GETFD) != -1; fd++, lim++)
		if (fcntl(fd, F_GETFD) == -1)
			k--;
	return lim;
}

static int untracked_is(struct lc_registry *r, uint32_t n) { return lc_registry_untracked(r) == n; }

/* Out of descriptors, a live process's segment cannot be opened: it is
 * counted as untracked, its name is left alone, and it is attached once
 * descriptors are free again. */
static void test_out_of_fds(void **state)
{
	struct rlimit old, rl;
	struct lc_registry *r;
	char path[256];
	int e;

	new_session();
	munmap(make_segment(getpid(), 0xef, 4, 1, 0), LC_HDR_SIZE + 4 * sizeof(struct lc_slot));
	shm_path(path, sizeof(path), getpid(), 0xef);
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	rl = old;
	rl.rlim_cur = limit_leaving(2);	/* inotify and the scan's directory */
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &rl), 0);
	r = lc_registry_start(session, NULL, 0, &e);
	assert_non_null(r);
	assert_int_equal(lc_registry_untracked(r), 1);
	assert_int_equal(lc_registry_seen(r), 0);
	assert_int_equal(access(path, F_OK), 0);	/* not taken for stale */
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	assert_true(wait_for(r, seen_is, 1));
	assert_true(wait_for(r, untracked_is, 0));
	lc_registry_stop(r);
	lc_registry_free(r);
	assert_int_equal(unlink(path), 0);
}

/* A child that creates a segment, waits for a byte on fd, then exits. */
static pid_t child_with_segment(uint64_t nonce, int *wake)
{
	int p[2];
	pid_t pid;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char c;

		close(p[1]);
		make_segment(getpid(), nonce, 4, 1, 0);
		if (read(p[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[0]);
	*wake = p[1];
	return pid;
}

/* Let the child behind fd exit (later children share the pipe, so closing
 * it is not enough). */
static void release(int fd)
{
	assert_int_equal(write(fd, "x", 1), 1);
	close(fd);
}

/* Exited processes are detached, their names unlinked, their departure kept. */
static void test_exit_detaches(void **state)
{
	struct lc_registry *r;
	const struct lc_departure *d;
	int e, wake[3];
	pid_t pid[3];
	uint32_t n;

	new_session();
	r = lc_registry_start(session, NULL, 0, &e);
	assert_non_null(r);
	for (int i = 0; i < 3; i++)
		pid[i] = child_with_segment(7, &wake[i]);
	assert_true(wait_for(r, live_is, 3));
	release(wake[1]);
	waitpid(pid[1], NULL, 0);
	assert_true(wait_for(r, live_is, 2));
	d = lc_registry_departures(r, &n);
	assert_int_equal(n, 1);
	assert_int_equal(d[0].pid, pid[1]);
	release(wake[0]);
	release(wake[2]);
	waitpid(pid[0], NULL, 0);
	waitpid(pid[2], NULL, 0);
	assert_true(wait_for(r, live_is, 0));
	lc_registry_stop(r);
	lc_registry_free(r);
	for (int i = 0; i < 3; i++) {
		char name[256];
		snprintf(name, sizeof(name), "/%s%s.%d.%016llx", LC_SHM_PREFIX, session,
			 (int)pid[i], 7ull);
		assert_int_equal(shm_unlink(name), -1);	/* already removed */
		assert_int_equal(errno, ENOENT);
	}
}

/* A newer image of the same pid (exec) replaces the older one. */
static void test_exec_replaces(void **state)
{
	struct lc_registry *r;
	struct lc_target *t;
	int e;

	new_session();
	make_segment(getpid(), 1, 4, 1, 0);
	r = lc_registry_start(session, NULL, 0, &e);
	assert_non_null(r);
	assert_true(wait_for(r, seen_is, 1));
	usleep(1000);
	make_segment(getpid(), 2, 4, 1, 0);
	assert_true(wait_for(r, seen_is, 2));
	assert_int_equal(lc_registry_live(r), 1);
	urcu_memb_register_thread();
	urcu_memb_read_lock();
	cds_list_for_each_entry_rcu(t, lc_registry_list(r), node)
		assert_int_equal(t->nonce, 2);
	urcu_memb_read_unlock();
	urcu_memb_unregister_thread();
	lc_registry_stop(r);
	lc_registry_free(r);
	char name[256];
	snprintf(name, sizeof(name), "/%s%s.%d.%016llx", LC_SHM_PREFIX, session, (int)getpid(), 2ull);
	shm_unlink(name);
}

struct reader {
	struct lc_registry *r;
	int stop;
	uint64_t walks, max_seen;
};

/* An RCU reader that walks the list and touches every target's slots. */
static void *reader(void *arg)
{
	struct reader *rd = arg;
	struct lc_target *t;

	urcu_memb_register_thread();
	while (!__atomic_load_n(&rd->stop, __ATOMIC_ACQUIRE)) {
		uint64_t n = 0;

		urcu_memb_read_lock();
		cds_list_for_each_entry_rcu(t, lc_registry_list(rd->r), node) {
			for (uint32_t i = 0; i < t->nslots; i++)
				n += __atomic_load_n(&lc_seg_slot((struct lc_seg_hdr *)t->hdr, i)->tid,
						     __ATOMIC_RELAXED);
			n++;
		}
		urcu_memb_read_unlock();
		if (n > rd->max_seen)
			rd->max_seen = n;
		rd->walks++;
	}
	urcu_memb_unregister_thread();
	return NULL;
}

/* Many short-lived processes come and go while a reader walks the list. */
static void test_churn(void **state)
{
	struct reader rd = { 0 };
	pthread_t th;
	int e, wake;
	const int rounds = 60;
	pid_t pid;

	new_session();
	rd.r = lc_registry_start(session, NULL, 0, &e);
	assert_non_null(rd.r);
	assert_int_equal(pthread_create(&th, NULL, reader, &rd), 0);
	for (int i = 0; i < rounds; i++) {
		pid = child_with_segment((uint64_t)i + 1, &wake);
		if (i % 3)
			usleep(2000);	/* some are seen, some may be gone before */
		release(wake);
		waitpid(pid, NULL, 0);
	}
	assert_true(wait_for(rd.r, live_is, 0));
	__atomic_store_n(&rd.stop, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	assert_true(rd.walks > 0);
	assert_true(lc_registry_seen(rd.r) > 0);
	assert_true(lc_registry_seen(rd.r) <= rounds);
	lc_registry_stop(rd.r);
	lc_registry_free(rd.r);
	/* stop() swept the names of processes that died unseen */
	assert_int_equal(cleanup_session(), 0);
}

/* Stopping a registry whose discovery thread waits in its poll (100 ms
 * timeout when nothing is due) wakes it at once: record's end does not
 * wait the timeout out (it took 90-120 ms of record -- /bin/true).  The
 * median of 5 stops is under 50 ms even on a loaded machine. */
static void test_stop_wakes(void **state)
{
	uint64_t took[5];

	(void)state;
	for (int i = 0; i < 5; i++) {
		struct lc_registry *r;
		uint64_t t0;
		int e;

		new_session();
		r = lc_registry_start(session, NULL, 0, &e);
		assert_non_null(r);
		usleep(20000);	/* the thread is in its poll by now */
		t0 = lc_clock_ns();
		lc_registry_stop(r);
		took[i] = lc_clock_ns() - t0;
		lc_registry_free(r);
	}
	for (int i = 1; i < 5; i++)	/* sorted: the median is took[2] */
		for (int j = i; j > 0 && took[j - 1] > took[j]; j--) {
			uint64_t t = took[j];

			took[j] = took[j - 1];
			took[j - 1] = t;
		}
	print_message("# lc_registry_stop: median %.2f ms\n", (double)took[2] / 1e6);
	assert_true(took[2] < 50000000u);
}

LC_TEST_MAIN(NULL, NULL,
	     LC_T(test_publication), LC_T(test_rejects), LC_T(test_abi_mismatch),
	     LC_T(test_planted_fifo), LC_T(test_nslots_flip), LC_T(test_forged_owner),
	     LC_T(test_pid_reuse), LC_T(test_unpublished_backoff), LC_T(test_out_of_fds),
	     LC_T(test_exit_detaches), LC_T(test_exec_replaces), LC_T(test_churn),
	     LC_T(test_stop_wakes))
