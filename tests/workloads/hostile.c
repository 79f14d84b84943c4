/*
 * hostile — a program that does to its own segment (or to the sampler)
 * what a careless or hostile program may, for the tests of the sampler's
 * distrust of shared memory (docs/trust-segments.md).
 *
 *	hostile sigterm MS
 *		BUSY; on SIGTERM it takes MS milliseconds more to die of it
 *		(its segment name stays behind: no exit handler runs)
 *	hostile children N MS
 *		N children, each BUSY for MS milliseconds; before it exits each
 *		checks that its segment name is still in /dev/shm (the sampler
 *		must never unlink the name of a live process) and fails if not;
 *		exits 0 when every child passed
 *	hostile truncate MS
 *		a child BUSY for 3 x MS; the parent BUSY for MS, then it
 *		truncates its own segment to 0 bytes for MS (touching no slot
 *		meanwhile), gives it back its size, and waits for the child
 *	hostile fakeslots N MS
 *		BUSY for MS with N forged slots in its segment, BUSY too, whose
 *		tids are threads of other processes (init, a child of its own)
 *	hostile garbage MS
 *		BUSY, then for MS writes random bytes over its segment (all but
 *		the identity line), as fast as it can
 *	hostile wideslots N MS
 *		N children, each BUSY for MS with the high-water mark of its
 *		segment raised to all its slots, every other one free (run
 *		with LOSTCYCLES_SLOTS=65536: the sampler's work per tick must
 *		follow the threads, not the slots)
 *	hostile wastejump MS
 *		BUSY; its slot's count of LC_TASK_WASTED calls jumps by 3 x 2^30
 *		(more than the ring holds: "missed"), then its header's team
 *		says 2^32 - 1 at every tick, so that the sampler drops the
 *		segment as invalid; BUSY for MS in all
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lc_abi.h"

static volatile sig_atomic_t got_term;

static void on_term(int sig)
{
	(void)sig;
	got_term = 1;
}

/* Sleep ms milliseconds. */
static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* sigterm MS: wait for SIGTERM, then die of it MS milliseconds later. */
static int do_sigterm(long ms)
{
	signal(SIGTERM, on_term);
	LC_BUSY();
	while (!got_term)
		pause();
	sleep_ms(ms);
	signal(SIGTERM, SIG_DFL);
	raise(SIGTERM);
	return 1;
}

/* The path of this process's segment into path[len]; returns whether there
 * is one in /dev/shm. */
static int own_name(char *path, size_t len)
{
	const char *ses = getenv("LOSTCYCLES_SESSION");
	char prefix[128];
	struct dirent *e;
	DIR *d = opendir("/dev/shm");
	int found = 0;

	if (!ses || !d) {
		if (d)
			closedir(d);
		return 0;
	}
	snprintf(prefix, sizeof(prefix), "lostcycles.%s.%d.", ses, (int)getpid());
	while (!found && (e = readdir(d)))
		if (!strncmp(e->d_name, prefix, strlen(prefix))) {
			snprintf(path, len, "/dev/shm/%s", e->d_name);
			found = 1;
		}
	closedir(d);
	return found;
}

/* Whether this process's segment name is in /dev/shm. */
static int own_name_exists(void)
{
	char path[300];

	return own_name(path, sizeof(path));
}

/* Map this process's segment read-write into *len bytes; NULL if none. */
static unsigned char *own_segment(size_t *len)
{
	char path[300];
	struct stat st;
	void *m;
	int fd;

	if (!own_name(path, sizeof(path)) || (fd = open(path, O_RDWR)) < 0)
		return NULL;
	if (fstat(fd, &st)) {
		close(fd);
		return NULL;
	}
	*len = (size_t)st.st_size;
	m = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	return m == MAP_FAILED ? NULL : m;
}

/* fakeslots N MS: see the top of the file. */
static int do_fakeslots(int count, long ms)
{
	uint32_t n = (uint32_t)count;
	struct lc_seg_hdr *h;
	size_t len;
	pid_t child;

	LC_BUSY();
	child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	h = (struct lc_seg_hdr *)own_segment(&len);
	if (child < 0 || !h || LC_HDR_SIZE + (n + 1) * sizeof(struct lc_slot) > len) {
		fprintf(stderr, "hostile: no room for %u forged slots\n", n);
		return 1;
	}
	for (uint32_t i = 1; i <= n; i++) {
		struct lc_slot *sl = lc_seg_slot(h, i);

		sl->state = LC_ST_BUSY;
		sl->gen = 1;
		__atomic_store_n(&sl->tid, i % 2 ? (uint32_t)child : 1u, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&h->slot_hwm, n + 1, __ATOMIC_RELEASE);
	sleep_ms(ms);
	LC_IDLE();
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	return 0;
}

/* garbage MS: see the top of the file. */
static int do_garbage(long ms)
{
	struct timespec t0, t;
	uint64_t x = 0x9e3779b97f4a7c15ull, *w;
	size_t len;
	unsigned char *m;

	LC_BUSY();
	m = own_segment(&len);
	if (!m) {
		fprintf(stderr, "hostile: no segment of my own\n");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (w = (uint64_t *)(m + 64); (unsigned char *)(w + 1) <= m + len; w++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			*w = x;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
	return 0;
}

/* wastejump MS: see the top of the file. */
static int do_wastejump(long ms)
{
	struct lc_seg_hdr *h;
	struct lc_slot *sl = NULL;
	uint32_t tid = (uint32_t)syscall(SYS_gettid);
	size_t len;

	LC_BUSY();
	h = (struct lc_seg_hdr *)own_segment(&len);
	for (uint32_t i = 0; h && i < h->nslots && !sl; i++) {
		struct lc_slot *x = (struct lc_slot *)((unsigned char *)h + LC_HDR_SIZE) + i;

		if (x->tid == tid)
			sl = x;
	}
	if (!sl) {
		fprintf(stderr, "hostile: my slot is not in my segment\n");
		return 1;
	}
	sleep_ms(ms / 4);
	__atomic_store_n(&sl->nwasted, sl->nwasted + 3u * (1u << 30), __ATOMIC_RELEASE);
	sleep_ms(ms / 4);
	__atomic_store_n(&h->team, UINT32_MAX, __ATOMIC_RELEASE);
	sleep_ms(ms / 2);
	return 0;
}

/* truncate MS: see the top of the file. */
static int do_truncate(long ms)
{
	char path[300];
	struct stat st;
	int fd, ws;
	pid_t pid;

	LC_BUSY();
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		LC_BUSY();
		sleep_ms(3 * ms);
		LC_IDLE();
		_exit(0);
	}
	sleep_ms(ms);
	if (!own_name(path, sizeof(path)) || (fd = open(path, O_RDWR)) < 0 || fstat(fd, &st)) {
		fprintf(stderr, "hostile: no segment of my own\n");
		return 1;
	}
	if (ftruncate(fd, 0) || (sleep_ms(ms), ftruncate(fd, st.st_size))) {
		perror("hostile: ftruncate");
		return 1;
	}
	close(fd);
	LC_IDLE();
	waitpid(pid, &ws, 0);
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : 1;
}

/* Fork n children that each run child(ms) and exit with what it returns;
 * wait for all of them.  Returns how many failed (killed or non-zero), or
 * -1 when fork fails. */
static int fork_children(int n, long ms, int (*child)(long ms))
{
	int bad = 0, ws;

	for (int i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return -1;
		if (pid == 0)
			_exit(child(ms));
	}
	while (wait(&ws) > 0)
		bad += !WIFEXITED(ws) || WEXITSTATUS(ws);
	return bad;
}

/* A wideslots child: BUSY, then claims every slot of its segment. */
static int wide_child(long ms)
{
	struct lc_seg_hdr *h;
	size_t len;

	LC_BUSY();
	h = (struct lc_seg_hdr *)own_segment(&len);
	if (!h)
		return 3;
	__atomic_store_n(&h->slot_hwm, h->nslots, __ATOMIC_RELEASE);
	sleep_ms(ms);
	LC_IDLE();
	return 0;
}

/* wideslots N MS: see the top of the file. */
static int do_wideslots(int n, long ms)
{
	return fork_children(n, ms, wide_child) ? 1 : 0;
}

/* A children child: BUSY for ms, then its segment's name must still exist. */
static int named_child(long ms)
{
	LC_BUSY();
	sleep_ms(ms);
	LC_IDLE();
	return own_name_exists() ? 0 : 3;
}

/* children N MS: see the top of the file. */
static int do_children(int n, long ms)
{
	int bad = fork_children(n, ms, named_child);

	if (bad > 0)
		fprintf(stderr, "hostile: %d children lost their segment name while alive\n", bad);
	return bad ? 1 : 0;
}

/* The commands: name, and the function of its MS (one) or N MS (two). */
static const struct {
	const char *name;
	int (*one)(long ms);
	int (*two)(int n, long ms);
} cmds[] = {
	{ "fakeslots", NULL, do_fakeslots }, { "garbage", do_garbage, NULL },
	{ "truncate", do_truncate, NULL },   { "children", NULL, do_children },
	{ "sigterm", do_sigterm, NULL },     { "wastejump", do_wastejump, NULL },
	{ "wideslots", NULL, do_wideslots },
};

int main(int argc, char **argv)
{
	for (size_t i = 0; argc > 2 && i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(argv[1], cmds[i].name) || argc != (cmds[i].two ? 4 : 3))
			continue;
		return cmds[i].two ? cmds[i].two(atoi(argv[2]), atol(argv[3]))
				   : cmds[i].one(atol(argv[2]));
	}
	fprintf(stderr, "usage: hostile sigterm MS | children N MS | truncate MS | fakeslots N MS | "
			"garbage MS | wideslots N MS | wastejump MS\n");
	return 2;
}
