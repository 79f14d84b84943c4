/*
 * segment.c — liblostcycles set-up: read the environment, create and publish
 * the process's shared-memory segment (or go on in the one of the process's
 * image before exec, shmscan.c), give a forked child its own segment,
 * unlink the segment name at exit.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lc_internal.h"

struct lc_global lc_priv_g = {
	.trace_fd = -1,
	.plock = PTHREAD_MUTEX_INITIALIZER,
	.list_lock = PTHREAD_MUTEX_INITIALIZER,
	.write_lock = PTHREAD_MUTEX_INITIALIZER,
	.adopt_slot = LC_NO_SLOT,
};

static pthread_once_t lc_once = PTHREAD_ONCE_INIT;

/* Print a diagnostic on stderr when LC_DEBUG=1; otherwise nothing. */
void lc_priv_debug(const char *fmt, ...)
{
	va_list ap;

	if (!lc_priv_g.debug)
		return;
	va_start(ap, fmt);
	fputs("liblostcycles: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* Return 1 if s is a valid session name: 1..LC_SESSION_MAX-1 characters of
 * [A-Za-z0-9_.-]. */
static int session_valid(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++) {
		char c = s[n];

		if (n >= LC_SESSION_MAX - 1)
			return 0;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-'))
			return 0;
	}
	return n > 0;
}

/* The slot count from LOSTCYCLES_SLOTS: default when unset or invalid,
 * clamped to LC_SLOTS_MAX. */
static uint32_t parse_slots(void)
{
	const char *v = getenv(LC_ENV_SLOTS);
	unsigned long long n;
	char *end;

	if (!v || !*v)
		return LC_SLOTS_DEFAULT;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno || end == v || *end || n == 0 || v[0] == '-') {
		lc_priv_debug("%s=%s is not a slot count; using %u", LC_ENV_SLOTS, v,
			      LC_SLOTS_DEFAULT);
		return LC_SLOTS_DEFAULT;
	}
	if (n > LC_SLOTS_MAX) {
		lc_priv_debug("%s=%s clamped to %u", LC_ENV_SLOTS, v, LC_SLOTS_MAX);
		return LC_SLOTS_MAX;
	}
	return (uint32_t)n;
}

/* A fresh 64-bit nonce for a segment name. */
static uint64_t make_nonce(void)
{
	uint64_t n = 0;

	if (getrandom(&n, sizeof(n), GRND_NONBLOCK) != (ssize_t)sizeof(n))
		n = lc_clock_ns() * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid() << 32;
	return n;
}

/* Create the shared-memory object under a new nonce and map it.  Returns the
 * mapping (zero-filled) and sets *nonce and lc_priv_g.shm_name, or NULL with
 * errno set. */
static void *seg_map(uint64_t size, uint64_t *nonce)
{
	void *p;
	int fd = -1, tries;

	for (tries = 0; tries < 8 && fd < 0; tries++) {
		*nonce = make_nonce();
		snprintf(lc_priv_g.shm_name, sizeof(lc_priv_g.shm_name), "/%s%s.%d.%016llx",
			 LC_SHM_PREFIX, lc_priv_g.session, (int)getpid(),
			 (unsigned long long)*nonce);
		fd = shm_open(lc_priv_g.shm_name, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			return NULL;
	}
	if (fd < 0)
		return NULL;
	/* Size it at once and reserve every page (a sparse object on a full
	 * /dev/shm would raise SIGBUS at the first store into a page that
	 * cannot be backed, in the program and in the sampler): until then a
	 * reader sees an empty object (which it must treat as not ready, like
	 * magic == 0). */
	p = MAP_FAILED;
	if ((errno = posix_fallocate(fd, 0, (off_t)size)) == 0 && fchmod(fd, 0600) == 0)
		p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		int e = errno;

		close(fd);
		shm_unlink(lc_priv_g.shm_name);
		errno = e;
		return NULL;
	}
	close(fd);
	return p;
}

/* This process's start time, field 22 of /proc/self/stat (clock ticks after
 * boot), for the header's proc_start; 0 when it cannot be read.  Only
 * open, read and close: it runs in a fork child too. */
static uint64_t proc_start(void)
{
	char buf[1024];

	if (!lc_priv_read_stat("/proc/self/stat", buf, sizeof(buf)))
		return 0;
	return lc_stat_start_ticks(buf);
}

/* Copy the process-wide predicates of a parent's segment (fork child). */
static void seg_inherit(struct lc_seg_hdr *h, const struct lc_seg_hdr *from)
{
	uint32_t i, n = __atomic_load_n(&from->ntags, __ATOMIC_RELAXED);

	h->work_exists = __atomic_load_n(&from->work_exists, __ATOMIC_RELAXED);
	h->solution_found = __atomic_load_n(&from->solution_found, __ATOMIC_RELAXED);
	h->team = __atomic_load_n(&from->team, __ATOMIC_RELAXED);
	if (n > LC_MAX_TAGS)
		n = LC_MAX_TAGS;
	for (i = 0; i < n; i++)
		h->tags[i] = from->tags[i];
	h->ntags = n;
}

/* Log the inherited process-wide predicates at the start of a child's trace,
 * so that a trace read alone gives the child's starting state. */
static void trace_inherited(const struct lc_seg_hdr *h, uint64_t t)
{
	uint32_t i, d;

	if (h->work_exists > 0)
		lc_priv_trace_log(t, LC_OP_PARALLEL, LC_NO_SLOT, (uint64_t)h->work_exists);
	if (h->solution_found)
		lc_priv_trace_log(t, LC_OP_SOLUTION, LC_NO_SLOT, 1);
	if (h->team)
		lc_priv_trace_log(t, LC_OP_TEAM, LC_NO_SLOT, h->team);
	for (i = 0; i < h->ntags; i++)
		for (d = 0; d < h->tags[i].depth; d++)
			lc_priv_trace_log(t, LC_OP_FRAGMENT_BEGIN, LC_NO_SLOT,
					  (uint64_t)h->tags[i].tag);
}

/*
 * Create, fill and publish a segment for the session in lc_priv_g (and the trace
 * file in trace mode).  from, if not NULL, is the parent's segment whose
 * process-wide predicates the new one starts with.  Returns 0 or -errno.
 */
static int seg_create(const struct lc_seg_hdr *from)
{
	uint64_t size = lc_seg_size_of(LC_SEG_PLACES | LC_SEG_STAMPS, lc_priv_g.nslots);
	struct lc_seg_hdr *h;
	uint64_t nonce;

	h = seg_map(size, &nonce);
	if (!h)
		return -errno;
	h->abi_major = LC_ABI_MAJOR;
	h->abi_minor = LC_ABI_MINOR;
	h->hdr_size = LC_HDR_SIZE;
	h->slot_size = sizeof(struct lc_slot);
	h->nslots = lc_priv_g.nslots;
	h->seg_size = size;
	h->flags = LC_SEG_PLACES | LC_SEG_STAMPS;	/* place cells (ABI 1.4) and
							 * stamps (1.5) after the slots */
	h->pid = (int32_t)getpid();
	h->start_ns = lc_clock_ns();
	h->nonce = nonce;
	h->proc_start = proc_start();
	if (prctl(PR_GET_NAME, h->comm) != 0)
		h->comm[0] = 0;
	h->comm[sizeof(h->comm) - 1] = 0;
	if (from)
		seg_inherit(h, from);
	if (lc_priv_g.trace) {
		int r = lc_priv_trace_open(nonce, h->start_ns);

		if (r < 0) {
			lc_priv_debug("trace file %s: %s; tracing off", lc_priv_g.trace_path,
				      strerror(-r));
			lc_priv_g.trace = 0;
		} else {
			h->flags |= LC_SEG_TRACE;
			if (from)
				trace_inherited(h, h->start_ns);
		}
	}
	lc_priv_g.seg_size = size;
	lc_priv_g.hdr = h;
	/* Publish: the sampler ignores the segment until magic is set. */
	__atomic_store_n(&h->magic, LC_SEG_MAGIC, __ATOMIC_RELEASE);
	lc_priv_debug("segment %s: %u slots%s", lc_priv_g.shm_name, lc_priv_g.nslots,
		      lc_priv_g.trace ? ", trace mode" : "");
	return 0;
}

/* Say on stderr, in one line, that this process runs unprofiled because
 * its segment could not be made (err: -errno), e.g. /dev/shm is full.  The
 * program goes on as it would without the tool.  One write(2), no stdio. */
static void warn_unprofiled(int err)
{
	char line[256];
	int n = snprintf(line, sizeof(line), "liblostcycles: pid %d: cannot make the shared-memory "
			 "segment %s (%s); running unprofiled\n", (int)getpid(),
			 lc_priv_g.shm_name, strerror(-err));

	if (n > 0 && write(2, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1) < 0)
		return;
}

/*
 * Read the environment and set up a session.  Returns 0 with a segment
 * mapped, -ENOENT when LOSTCYCLES_SESSION is unset, another -errno when the
 * session is invalid or the segment cannot be made (the program then runs
 * without profiling).
 */
static int setup(void)
{
	const char *s = getenv(LC_ENV_SESSION), *d = getenv("LC_DEBUG");
	const char *t = getenv(LC_ENV_TRACE);
	int r;

	lc_priv_g.debug = d && strcmp(d, "1") == 0;
	if (!s)
		return -ENOENT;
	if (!session_valid(s)) {
		lc_priv_debug("%s: invalid session name; not profiling", LC_ENV_SESSION);
		return -EINVAL;
	}
	strcpy(lc_priv_g.session, s);
	lc_priv_g.nslots = parse_slots();
	lc_priv_g.trace = t && strcmp(t, "1") == 0;
	/* an exec'd image goes on in its process's segment: one process, its
	 * main thread one thread of the profile */
	if (lc_priv_shm_scan(proc_start())) {
		if (prctl(PR_GET_NAME, lc_priv_g.hdr->comm) != 0)
			lc_priv_g.hdr->comm[0] = 0;
		lc_priv_g.hdr->comm[sizeof(lc_priv_g.hdr->comm) - 1] = 0;
		return 0;
	}
	r = seg_create(NULL);
	if (r < 0) {
		warn_unprofiled(r);
		lc_priv_g.trace = 0;
	}
	return r;
}

/* Undo seg_create() in this process: flush and close the trace, unlink the
 * name, unmap.  Only for the test hook (at exit the mapping stays). */
static void teardown(void)
{
	if (lc_priv_g.hdr) {
		lc_priv_trace_flush_all(1);
		lc_priv_trace_discard_all();
		lc_priv_trace_close();
		shm_unlink(lc_priv_g.shm_name);
		munmap(lc_priv_g.hdr, lc_priv_g.seg_size);
		lc_priv_g.hdr = NULL;
	}
	lc_priv_g.trace = 0;
	lc_priv_thread_forget();
	lc_priv_auto_forget();
	lc_priv_sync_forget();
}

/* fork: hold the library's locks across fork so the child gets them free. */
static void atfork_prepare(void)
{
	pthread_mutex_lock(&lc_priv_g.plock);
	pthread_mutex_lock(&lc_priv_g.list_lock);
	pthread_mutex_lock(&lc_priv_g.write_lock);
}

/* fork, parent side: release the locks taken by atfork_prepare(). */
static void atfork_parent(void)
{
	pthread_mutex_unlock(&lc_priv_g.write_lock);
	pthread_mutex_unlock(&lc_priv_g.list_lock);
	pthread_mutex_unlock(&lc_priv_g.plock);
}

/*
 * fork, child side: drop the inherited trace buffers and file, forget the
 * forking thread's registration, and replace the parent's segment by a new
 * one of the child's own that starts with the parent's process-wide
 * predicates.
 */
static void atfork_child(void)
{
	struct lc_seg_hdr *parent = lc_priv_g.hdr;
	int r;

	atfork_parent();
	lc_priv_trace_discard_all();
	lc_priv_trace_close();
	lc_priv_thread_forget();
	if (!parent)
		return;
	lc_priv_g.hdr = NULL;
	lc_priv_g.adopt_slot = LC_NO_SLOT;
	lc_priv_g.trace = (parent->flags & LC_SEG_TRACE) != 0;
	r = seg_create(parent);
	if (r < 0) {
		warn_unprofiled(r);
		lc_priv_g.trace = 0;
	}
	munmap(parent, parent->seg_size);
}

/* One-time initialisation, run by pthread_once. */
static void init_once(void)
{
	if (pthread_key_create(&lc_priv_g.key, lc_priv_thread_exit) != 0)
		return;
	pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
	setup();
}

/* Make sure the library is initialised (the constructor may not have run
 * yet when another library's constructor uses a macro). */
void lc_priv_init(void)
{
	pthread_once(&lc_once, init_once);
}

__attribute__((constructor)) static void lc_ctor(void)
{
	lc_priv_init();
}

/*
 * At process exit: flush every trace buffer and unlink the segment name.
 * The mapping stays (threads may still store into it; the sampler holds its
 * own).  A process that shares the parent's memory without having gone
 * through the fork handler (a raw clone) leaves the name alone.
 */
__attribute__((destructor)) static void lc_dtor(void)
{
	if (!lc_priv_g.hdr || lc_priv_g.hdr->pid != (int32_t)getpid())
		return;
	lc_priv_trace_flush_all(1);
	shm_unlink(lc_priv_g.shm_name);
}

int lc_priv_reinit_for_tests(void)
{
	lc_priv_init();
	teardown();
	return setup();
}

struct lc_seg_hdr *lc_priv_segment(void)
{
	lc_priv_init();
	return lc_priv_g.hdr;
}

const char *lc_priv_segment_name(void)
{
	return lc_priv_g.hdr ? lc_priv_g.shm_name : NULL;
}

const char *lc_priv_trace_file(void)
{
	return lc_priv_g.hdr && lc_priv_g.trace ? lc_priv_g.trace_path : NULL;
}
