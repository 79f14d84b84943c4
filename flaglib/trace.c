/*
 * trace.c — trace mode: every transition is appended, with its time, to a
 * per-thread buffer; full buffers, exiting threads and process exit write
 * whole batches of records to one O_APPEND file.
 *
 * Locks: list_lock (the list of buffers) before a buffer's lock before
 * write_lock (one batch at a time, so that batches never interleave even
 * after a short write).  Trace mode is the reference, not the fast path.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_internal.h"

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
	lc_priv_g.trace_fd = fd;
	return 0;
}

/* Write out the records of b (caller holds b->lock). */
static void flush_locked(struct lc_tbuf *b)
{
	int r = 0;

	if (b->n == 0)
		return;
	pthread_mutex_lock(&lc_priv_g.write_lock);
	if (lc_priv_g.trace_fd >= 0)
		r = write_all(lc_priv_g.trace_fd, b->rec, b->n * sizeof(b->rec[0]));
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
	struct lc_trace_rec *r;

	if (b->n == LC_TBUF_RECS)
		flush_locked(b);
	r = &b->rec[b->n++];
	r->t_ns = t_ns;
	r->op = op;
	r->reserved = 0;
	r->slot = slot;
	r->arg = arg;
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

	if (lc_priv_g.trace_fd < 0 || !(b = get_buf()))
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

	if (lc_priv_g.trace_fd < 0 || !(b = get_buf()))
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

	if (lc_priv_g.trace_fd < 0)
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

/* Close the trace file (fork child, test teardown). */
void lc_priv_trace_close(void)
{
	if (lc_priv_g.trace_fd >= 0)
		close(lc_priv_g.trace_fd);
	lc_priv_g.trace_fd = -1;
}
