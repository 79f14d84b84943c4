/*
 * trace.c — trace mode: every transition is appended, with its time, to a
 * per-thread buffer; full buffers, exiting threads and process exit write
 * whole batches of records to one O_APPEND file.
 *
 * Locks: list_lock (the list of buffers) before a buffer's lock before
 * write_lock (one batch at a time, so that batches never interleave even
 * after a short write).  Trace mode is the reference, not the fast path.
 *
 * The descriptor is the program's to close: a program that closes every
 * descriptor from 3 up (daemons, closefrom(), sandboxes) and opens a file
 * of its own gets the trace's number.  So before every batch the
 * descriptor's identity (st_dev, st_ino) and size are checked against the
 * trace file's: its identity from its creation, its size what was written
 * to it (a file system may give the program's new file the inode number of
 * a trace file that was removed and closed).  One fstat per batch of up to
 * LC_TBUF_RECS records, about 0.3 us against the tens of microseconds of
 * the write); on a mismatch the library never writes or closes through
 * that number again: it opens the trace file anew by its path (appending,
 * not following a link) when it is still the same file, and otherwise
 * stops tracing and sets LC_SEG_TRACE_CUT in the segment, which the
 * sampler reports.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lc_internal.h"

/* The trace file's identity, from its creation (lc_priv_trace_open, under
 * the same rules as lc_priv_g.trace_fd). */
static dev_t trace_dev;
static ino_t trace_ino;
static off_t trace_size;	/* bytes written to it (under write_lock) */

/* Write n bytes of p to fd, retrying short writes and EINTR.  Returns 0 or
 * -errno. */
static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n > 0) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * Create the trace file TRACE_DIR/lostcycles-trace.S.PID.NONCE (exclusive,
 * mode 0600, O_APPEND) and write its header.  Returns 0 or -errno;
 * lc_priv_g.trace_path names the file either way.
 */
int lc_priv_trace_open(uint64_t nonce, uint64_t start_ns)
{
	const char *dir = getenv(LC_ENV_TRACE_DIR);
	struct lc_trace_hdr th;
	int fd, n, r;

	if (!dir || !*dir)
		dir = ".";
	n = snprintf(lc_priv_g.trace_path, sizeof(lc_priv_g.trace_path), "%s/%s%s.%d.%016llx",
		     dir, LC_TRACE_PREFIX, lc_priv_g.session, (int)getpid(),
		     (unsigned long long)nonce);
	if (n < 0 || (size_t)n >= sizeof(lc_priv_g.trace_path))
		return -ENAMETOOLONG;
	fd = open(lc_priv_g.trace_path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	memset(&th, 0, sizeof(th));
	th.magic = LC_TRACE_MAGIC;
	th.abi_major = LC_ABI_MAJOR;
	th.abi_minor = LC_ABI_MINOR;
	th.rec_size = sizeof(struct lc_trace_rec);
	th.pid = (int32_t)getpid();
	th.nonce = nonce;
	th.start_ns = start_ns;
	r = write_all(fd, &th, sizeof(th));
	if (r < 0) {
		close(fd);
		unlink(lc_priv_g.trace_path);
		return r;
	}
	{
		struct stat st;

		if (fstat(fd, &st)) {
			r = -errno;
			close(fd);
			unlink(lc_priv_g.trace_path);
			return r;
		}
		trace_dev = st.st_dev;
		trace_ino = st.st_ino;
		trace_size = st.st_size;
	}
	lc_priv_g.trace_fd = fd;
	return 0;
}

/* Whether fd is open on the trace file: its identity, and (with size) the
 * size it has when only this process has written it. */
static int is_trace_file_of(int fd, int size)
{
	struct stat st;

	return fd >= 0 && !fstat(fd, &st) && st.st_dev == trace_dev && st.st_ino == trace_ino &&
	       (!size || st.st_size == trace_size);
}

static int is_trace_file(int fd)
{
	return is_trace_file_of(fd, 1);
}

/* Stop tracing: the descriptor is not the trace file's any more and the
 * file cannot be opened again.  The sampler sees the segment's flag. */
static void trace_cut(const char *why)
{
	__atomic_store_n(&lc_priv_g.trace_fd, -1, __ATOMIC_RELAXED);
	if (lc_priv_g.hdr)
		__atomic_fetch_or(&lc_priv_g.hdr->flags, LC_SEG_TRACE_CUT, __ATOMIC_RELEASE);
	lc_priv_debug("trace %s: the program took over its descriptor and the file %s: "
		      "tracing stopped", lc_priv_g.trace_path, why);
}

/* The trace file's descriptor, checked before a write (caller holds
 * write_lock): the one held when it is still the trace file's; else the
 * file opened anew, if it is the same file; else -1 (tracing stopped). */
static int trace_fd_checked(void)
{
	int fd = lc_priv_g.trace_fd;

	if (fd < 0 || is_trace_file(fd))
		return fd;
	/* never close fd: that number is the program's now */
	fd = open(lc_priv_g.trace_path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		trace_cut(strerror(errno));
		return -1;
	}
	if (!is_trace_file(fd)) {
		close(fd);
		trace_cut("is another file now");
		return -1;
	}
	lc_priv_debug("trace %s: the program took over its descriptor; the file is open "
		      "again as %d", lc_priv_g.trace_path, fd);
	__atomic_store_n(&lc_priv_g.trace_fd, fd, __ATOMIC_RELAXED);
	return fd;
}

/* Write out the records of b (caller holds b->lock). */
static void flush_locked(struct lc_tbuf *b)
{
	int r = 0, fd;

	if (b->n == 0)
		return;
	pthread_mutex_lock(&lc_priv_g.write_lock);
	fd = trace_fd_checked();
	if (fd >= 0) {
		struct stat st;

		r = write_all(fd, b->rec, b->n * sizeof(b->rec[0]));
		if (!r)
			trace_size += (off_t)(b->n * sizeof(b->rec[0]));
		else if (!fstat(fd, &st))	/* a part may have been written */
			trace_size = st.st_size;
	}
	pthread_mutex_unlock(&lc_priv_g.write_lock);
	if (r < 0)
		lc_priv_debug("trace %s: %s; %u records lost", lc_priv_g.trace_path,
			      strerror(-r), b->n);
	b->n = 0;
}

/* Append one record to b (caller holds b->lock), writing b out when full. */
static void append_locked(struct lc_tbuf *b, uint64_t t_ns, uint16_t op,
			  uint32_t slot, uint64_t arg)
{
	if (b->n == LC_TBUF_RECS)
		flush_locked(b);
	b->rec[b->n++] = (struct lc_trace_rec){ .t_ns = t_ns, .op = op, .slot = slot, .arg = arg };
}

/* The calling thread's buffer, created and put on the list on first use.
 * NULL when out of memory (the record is lost). */
static struct lc_tbuf *get_buf(void)
{
	struct lc_thr *t = &lc_priv_thr;
	struct lc_tbuf *b = t->buf;

	if (b)
		return b;
	b = calloc(1, sizeof(*b));
	if (!b) {
		lc_priv_debug("trace: out of memory; records lost");
		return NULL;
	}
	pthread_mutex_init(&b->lock, NULL);
	b->slot = LC_NO_SLOT;
	pthread_mutex_lock(&lc_priv_g.list_lock);
	b->next = lc_priv_g.tbufs;
	if (b->next)
		b->next->prev = b;
	lc_priv_g.tbufs = b;
	pthread_mutex_unlock(&lc_priv_g.list_lock);
	t->buf = b;
	pthread_setspecific(lc_priv_g.key, t);
	return b;
}

/* Log one record in the calling thread's buffer (trace mode only). */
void lc_priv_trace_log(uint64_t t_ns, uint16_t op, uint32_t slot, uint64_t arg)
{
	struct lc_tbuf *b;

	if (__atomic_load_n(&lc_priv_g.trace_fd, __ATOMIC_RELAXED) < 0 || !(b = get_buf()))
		return;
	pthread_mutex_lock(&b->lock);
	append_locked(b, t_ns, op, slot, arg);
	pthread_mutex_unlock(&b->lock);
}

/* Record which slot the calling thread owns (LC_NO_SLOT: none any more), for
 * the RELEASE records written at process exit. */
void lc_priv_trace_set_slot(uint32_t slot, uint32_t tid)
{
	struct lc_tbuf *b;

	if (__atomic_load_n(&lc_priv_g.trace_fd, __ATOMIC_RELAXED) < 0 || !(b = get_buf()))
		return;
	pthread_mutex_lock(&b->lock);
	b->slot = slot;
	b->tid = tid;
	pthread_mutex_unlock(&b->lock);
}

/* Thread exit: take the calling thread's buffer off the list, write it out
 * and free it. */
void lc_priv_trace_thread_exit(void)
{
	struct lc_tbuf *b = lc_priv_thr.buf;

	if (!b)
		return;
	pthread_mutex_lock(&lc_priv_g.list_lock);
	if (b->prev)
		b->prev->next = b->next;
	else
		lc_priv_g.tbufs = b->next;
	if (b->next)
		b->next->prev = b->prev;
	pthread_mutex_unlock(&lc_priv_g.list_lock);
	pthread_mutex_lock(&b->lock);
	flush_locked(b);
	pthread_mutex_unlock(&b->lock);
	pthread_mutex_destroy(&b->lock);
	free(b);
	lc_priv_thr.buf = NULL;
}

/*
 * Write out every thread's buffer.  At process exit (at_exit), first log a
 * RELEASE, stamped now, for each thread that still owns a slot, so that every
 * registered thread's record stream ends with a RELEASE.
 */
void lc_priv_trace_flush_all(int at_exit)
{
	uint64_t now = lc_clock_ns();
	struct lc_tbuf *b;

	if (__atomic_load_n(&lc_priv_g.trace_fd, __ATOMIC_RELAXED) < 0)
		return;
	pthread_mutex_lock(&lc_priv_g.list_lock);
	for (b = lc_priv_g.tbufs; b; b = b->next) {
		pthread_mutex_lock(&b->lock);
		if (at_exit && b->slot != LC_NO_SLOT) {
			append_locked(b, now, LC_OP_RELEASE, b->slot, b->tid);
			b->slot = LC_NO_SLOT;
		}
		flush_locked(b);
		pthread_mutex_unlock(&b->lock);
	}
	pthread_mutex_unlock(&lc_priv_g.list_lock);
}

/* Free every buffer without writing it (fork child: the parent writes them;
 * test teardown after lc_priv_trace_flush_all).  Single-threaded callers only. */
void lc_priv_trace_discard_all(void)
{
	struct lc_tbuf *b = lc_priv_g.tbufs, *next;

	for (; b; b = next) {
		next = b->next;
		free(b);
	}
	lc_priv_g.tbufs = NULL;
	lc_priv_thr.buf = NULL;
}

/* Close the trace file (fork child, test teardown); a descriptor that is
 * not the trace file's any more is the program's, and stays open.  (Its
 * size is not asked: a fork child's parent may be writing it.) */
void lc_priv_trace_close(void)
{
	if (is_trace_file_of(lc_priv_g.trace_fd, 0))
		close(lc_priv_g.trace_fd);
	lc_priv_g.trace_fd = -1;
}
