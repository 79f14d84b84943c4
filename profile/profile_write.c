/*
 * profile_write.c — the profile writer: a file header, then one checksummed
 * block per call, each handed to the kernel with one write(2) so that a file
 * cut anywhere holds every block completed before the cut (docs/format.md).
 */
#include "lc_profile.h"
#include "profile_format.h"
#include "lc_util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A finished block waiting for the background writer. */
struct qblock {
	struct qblock *next;
	size_t len;
	uint8_t data[];
};

struct lc_pwriter {
	int fd;
	uint64_t window_ns;	/* the info's: a window's len_ns when it has none */
	int err;		/* first error, 0 = none (the owner's) */
	uint8_t *buf;		/* the block being built */
	size_t len, cap;
	/* Background writing (lc_pwriter_async): the owner appends finished
	 * blocks under lock; the writer thread takes them in order and
	 * writes each with one write(2).  async_err is the writer thread's
	 * first error, under lock; the owner adopts it at its next block. */
	int async;
	pthread_t th;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct qblock *head, **tailp;
	size_t queued;		/* bytes waiting, under lock */
	int stopping;		/* under lock: write what is queued and leave */
	int async_err;
};

/* The background writer: write each queued block, in order. */
static void *writer(void *arg)
{
	struct lc_pwriter *w = arg;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		struct qblock *b = w->head;
		int r;

		if (!b) {
			if (w->stopping)
				break;
			pthread_cond_wait(&w->cond, &w->lock);
			continue;
		}
		w->head = b->next;
		if (!w->head)
			w->tailp = &w->head;
		pthread_mutex_unlock(&w->lock);
		r = w->async_err ? 0 : lc_write_all(w->fd, b->data, b->len);
		pthread_mutex_lock(&w->lock);
		w->queued -= b->len;
		if (r && !w->async_err)
			w->async_err = r;
		free(b);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int lc_pwriter_async(struct lc_pwriter *w)
{
	int r;

	if (w->async)
		return 0;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	w->tailp = &w->head;
	r = lc_thread_start(&w->th, writer, w);
	if (r) {
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->cond);
		return r;
	}
	w->async = 1;
	return 0;
}

/* Hand buf[0..len) to the background writer; 0 or -errno (its first). */
static int enqueue(struct lc_pwriter *w, const uint8_t *buf, size_t len)
{
	struct qblock *b = malloc(sizeof(*b) + len);
	int r, wake;

	if (!b)
		return -ENOMEM;
	b->next = NULL;
	b->len = len;
	memcpy(b->data, buf, len);
	pthread_mutex_lock(&w->lock);
	/* The writer waits only with an empty queue, so only a block that
	 * makes the queue non-empty needs to wake it: a window's counts
	 * blocks (one per thread) then cost the sampler one wake-up, not one
	 * futex call each. */
	wake = !w->head;
	*w->tailp = b;
	w->tailp = &b->next;
	w->queued += len;
	r = w->async_err;
	if (wake)
		pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	return r;
}

size_t lc_pwriter_queued(struct lc_pwriter *w)
{
	size_t n;

	if (!w->async)
		return 0;
	pthread_mutex_lock(&w->lock);
	n = w->queued;
	pthread_mutex_unlock(&w->lock);
	return n;
}

/* Stop the background writer after it has written every queued block. */
static void async_stop(struct lc_pwriter *w)
{
	if (!w->async)
		return;
	lc_thread_stop(w->th, &w->lock, &w->cond, &w->stopping);
	if (w->async_err && !w->err)
		w->err = w->async_err;
	w->async = 0;
}

/* Make room for n more bytes; returns a pointer to them or NULL (w->err set). */
static uint8_t *room(struct lc_pwriter *w, size_t n)
{
	if (w->err)
		return NULL;
	if (lc_grow((void **)&w->buf, &w->cap, w->len + n, 1)) {
		w->err = -ENOMEM;
		return NULL;
	}
	w->len += n;
	return w->buf + w->len - n;
}

static void put8(struct lc_pwriter *w, uint8_t v)
{
	uint8_t *p = room(w, 1);

	if (p)
		*p = v;
}

static void put32(struct lc_pwriter *w, uint32_t v)
{
	uint8_t *p = room(w, 4);

	if (p)
		lc_pf_put32(p, v);
}

static void put64(struct lc_pwriter *w, uint64_t v)
{
	uint8_t *p = room(w, 8);

	if (p)
		lc_pf_put64(p, v);
}

/* An unsigned LEB128 varint: 7 bits a byte, low first, the top bit set on
 * every byte but the last. */
static void putuv(struct lc_pwriter *w, uint64_t v)
{
	uint8_t *p, tmp[LC_PF_VARINT_MAX];
	size_t n = 0;

	do {
		tmp[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	p = room(w, n);
	if (p)
		memcpy(p, tmp, n);
}

/* A signed value as a zigzag varint. */
static void putsv(struct lc_pwriter *w, int64_t v)
{
	putuv(w, lc_pf_zigzag(v));
}

/* A string: u32 length and the bytes, no NUL; NULL is length 0.  Longer
 * strings are cut to LC_PROF_TEXT_MAX bytes. */
static void putstr(struct lc_pwriter *w, const char *s)
{
	size_t n = s ? strnlen(s, LC_PROF_TEXT_MAX) : 0;
	uint8_t *p;

	put32(w, (uint32_t)n);
	p = room(w, n);
	if (p && n)
		memcpy(p, s, n);
}

/* Strings v[0..LC_NCAT): a u8 count and the strings. */
static void putstrs(struct lc_pwriter *w, char *const *v)
{
	put8(w, LC_NCAT);
	for (int c = 0; c < LC_NCAT; c++)
		putstr(w, v[c]);
}

/* An unsigned field of width (profile_format.h: 1, 4 or 8 bytes,
 * little-endian, or a varint from 4 or 8) at src. */
static void put_uint(struct lc_pwriter *w, const void *src, uint8_t width)
{
	uint8_t size = width & LC_PF_SIZE, *p;
	uint64_t v = size == 1 ? *(const uint8_t *)src :
		     size == 4 ? *(const uint32_t *)src : *(const uint64_t *)src;

	p = width & LC_PF_VAR ? NULL : room(w, size);
	if (width & LC_PF_VAR)
		putuv(w, v);
	for (uint8_t i = 0; p && i < size; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* One field of a record at src, as the layout gives it. */
static void put_field(struct lc_pwriter *w, const void *src, uint8_t width)
{
	if (width == LC_PF_STRS)
		putstrs(w, src);
	else if (width == LC_PF_STR)
		putstr(w, *(char *const *)src);
	else
		put_uint(w, src, width);
}

/* The fields of record rec in the order of layout l. */
static void put_fields(struct lc_pwriter *w, const void *rec, const struct lc_pf_layout *l)
{
	for (uint32_t i = 0; i < l->n; i++)
		put_field(w, (const char *)rec + l->f[i].off, l->f[i].width);
}

/* A count and n tags. */
static void put_tags(struct lc_pwriter *w, uint32_t n, const int64_t *tags)
{
	put32(w, n);
	for (uint32_t i = 0; i < n; i++)
		put64(w, (uint64_t)tags[i]);
}

/* The nonzero values among v[0..nbits) (fixed-width field order) as a
 * varint mask and varints, in the order of lc_pf_vorder. */
static void putvmasked(struct lc_pwriter *w, const uint64_t *v, int nbits)
{
	uint64_t mask = 0;

	for (int i = 0; i < nbits; i++)
		if (v[i < 10 ? lc_pf_vorder[i] : i])
			mask |= 1u << i;
	putuv(w, mask);
	for (int i = 0; i < nbits; i++)
		if (mask & (1u << i))
			putuv(w, v[i < 10 ? lc_pf_vorder[i] : i]);
}

static void putvacct(struct lc_pwriter *w, const struct lc_acct *a)
{
	uint64_t v[14];

	memcpy(v, a->cat, sizeof(a->cat));
	v[LC_PF_M_QEMPTY] = a->li_qempty;
	v[LC_PF_M_TWE] = a->t_we;
	v[LC_PF_M_NWE] = a->n_we;
	v[LC_PF_M_TNWE] = a->t_nwe;
	v[LC_PF_M_NNWE] = a->n_nwe;
	putvmasked(w, v, 14);
}

/* A thread row of a varint window: its thread as the difference from the
 * previous row's (rows go out in the sampler's order, not sorted), then
 * the masked values. */
static void putvtrow(struct lc_pwriter *w, const struct lc_prof_trow *r, uint32_t prev)
{
	uint64_t v[10];

	memcpy(v, r->cat, sizeof(r->cat));
	v[LC_PF_M_QEMPTY] = r->li_qempty;
	putsv(w, (int64_t)r->thread - (int64_t)prev);
	putvmasked(w, v, 10);
}

/* Start a block of the given type after what the buffer holds: its header. */
static void begin_here(struct lc_pwriter *w, uint16_t type)
{
	uint8_t *p = room(w, LC_PF_BLK_HDR);

	if (p) {
		lc_pf_put16(p, type);
		lc_pf_put16(p + 2, 0);
	}
}

/* Begin a block of type type as the first thing in the buffer. */
static void begin(struct lc_pwriter *w, uint16_t type)
{
	w->len = 0;
	begin_here(w, type);
}

/* Finish the block begun at offset start: fill in its length, append the
 * CRC, and write everything built since offset 0.  Returns 0 or the error. */
static int finish(struct lc_pwriter *w, size_t start)
{
	size_t plen;
	uint8_t *p;
	uint32_t crc;
	int r;

	if (w->err)
		return w->err;
	plen = w->len - start - LC_PF_BLK_HDR;
	if (plen > LC_PF_BLK_MAX) {
		w->err = -EFBIG;
		return w->err;
	}
	lc_pf_put32(w->buf + start + 4, (uint32_t)plen);
	crc = lc_crc32(0, w->buf + start, w->len - start);
	p = room(w, LC_PF_BLK_CRC);
	if (!p)
		return w->err;
	lc_pf_put32(p, crc);
	r = w->async ? enqueue(w, w->buf, w->len) : lc_write_all(w->fd, w->buf, w->len);
	if (r)
		w->err = r;
	w->len = 0;
	return r;
}

/* A block of type type holding record rec of layout l. */
static int put_record(struct lc_pwriter *w, uint16_t type, const void *rec,
		      const struct lc_pf_layout *l)
{
	begin(w, type);
	put_fields(w, rec, l);
	return finish(w, 0);
}

int lc_pwriter_rank(struct lc_pwriter *w, const struct lc_prof_rank *r)
{
	return put_record(w, LC_PF_RANK, r, &lc_pf_rank);
}

int lc_pwriter_machine(struct lc_pwriter *w, const struct lc_prof_machine *m)
{
	return put_record(w, LC_PF_MACHINE, m, &lc_pf_machine);
}

/* The info payload. */
static void put_info(struct lc_pwriter *w, const struct lc_prof_info *in)
{
	put_fields(w, in, &lc_pf_info);
	put_fields(w, in, &lc_pf_info_grow);
}

/* The file header (docs/format.md) at the start of the buffer. */
static void put_file_header(struct lc_pwriter *w)
{
	uint8_t *h = room(w, LC_PF_HDR_SIZE);

	if (!h)
		return;
	lc_pf_put64(h, LC_PF_MAGIC);
	lc_pf_put16(h + 8, LC_PF_MAJOR);
	lc_pf_put16(h + 10, LC_PF_MINOR);
	lc_pf_put32(h + 12, LC_PF_HDR_SIZE);
	lc_pf_put32(h + 16, 0);
	lc_pf_put32(h + 20, lc_crc32(0, h, LC_PF_HDR_SIZE - 4));
}

/* Close and free a writer that was not opened whole (NULL is fine). */
static void writer_free(struct lc_pwriter *w)
{
	if (w && w->fd >= 0)
		close(w->fd);
	if (w)
		free(w->buf);
	free(w);
}

/* Create path, write the file header and the info block with one write. */
struct lc_pwriter *lc_pwriter_open(const char *path, const struct lc_prof_info *info,
				   int *err)
{
	struct lc_pwriter *w = calloc(1, sizeof(*w));
	int r = -ENOMEM;

	if (!w)
		goto fail;
	w->window_ns = info->window_ns;
	w->fd = lc_out_create(path, 0644);
	if (w->fd < 0) {
		r = w->fd;
		goto fail;
	}
	put_file_header(w);
	begin_here(w, LC_PF_INFO);
	put_info(w, info);
	r = finish(w, LC_PF_HDR_SIZE);
	if (r)
		goto fail;
	return w;
fail:
	if (err)
		*err = r;
	writer_free(w);
	return NULL;
}

int lc_pwriter_process(struct lc_pwriter *w, const struct lc_prof_process *p)
{
	return put_record(w, LC_PF_PROCESS, p, &lc_pf_process);
}

int lc_pwriter_thread(struct lc_pwriter *w, const struct lc_prof_thread *t)
{
	return put_record(w, LC_PF_THREAD, t, &lc_pf_thread);
}

static void put_place_rows(struct lc_pwriter *w, uint32_t n, const struct lc_prof_place *pl);

/* A window goes out as a varint window (type 12): most of a row's values
 * are small, and a window of 256 rows is most of a profile. */
int lc_pwriter_window(struct lc_pwriter *w, const struct lc_prof_window *win)
{
	struct lc_prof_window x = *win;
	uint32_t prev = 0;

	if (!x.len_ns)
		x.len_ns = w->window_ns;
	begin(w, LC_PF_VWINDOW);
	put_fields(w, &x, &lc_pf_vwindow);
	putvacct(w, &win->acct);
	putuv(w, win->nthreads);
	for (uint32_t i = 0; i < win->nthreads; i++) {
		putvtrow(w, &win->threads[i], prev);
		prev = win->threads[i].thread;
	}
	putuv(w, win->ntags);
	for (uint32_t i = 0; i < win->ntags; i++) {
		putsv(w, win->tags[i].tag);
		putvacct(w, &win->tags[i].acct);
	}
	if (win->places_ext)	/* minor 5: its place rows */
		put_place_rows(w, win->nplaces, win->places);
	return finish(w, 0);
}

int lc_pwriter_wasted(struct lc_pwriter *w, const struct lc_prof_wasted *x)
{
	begin(w, LC_PF_WASTED);
	put_fields(w, x, &lc_pf_wasted);
	put_tags(w, x->ntags, x->tags);
	return finish(w, 0);
}

int lc_pwriter_move(struct lc_pwriter *w, const struct lc_prof_wasted *x)
{
	begin(w, LC_PF_MOVE);
	put_fields(w, x, &lc_pf_move);
	put_tags(w, x->ntags, x->tags);
	return finish(w, 0);
}

/* n place rows in varints: thread + 1 (0: processor slots without a
 * thread), pid (only then: a thread's is its thread's), place word and
 * object as differences from the previous row's (rows of one place in a
 * row cost a byte each), and the categories as a vacct's bits 0-8. */
static void put_place_rows(struct lc_pwriter *w, uint32_t n, const struct lc_prof_place *pl)
{
	uint64_t place = 0, obj = 0;

	putuv(w, n);
	for (uint32_t i = 0; i < n; i++) {
		putuv(w, pl[i].thread == UINT32_MAX ? 0 : (uint64_t)pl[i].thread + 1);
		putsv(w, pl[i].thread == UINT32_MAX ? pl[i].pid : 0);
		putsv(w, (int64_t)(pl[i].place - place));
		putsv(w, (int64_t)(pl[i].obj - obj));
		putvmasked(w, pl[i].cat, LC_NCAT);
		place = pl[i].place;
		obj = pl[i].obj;
	}
}

int lc_pwriter_places_of(struct lc_pwriter *w, uint8_t source, uint32_t window, uint32_t n,
			 const struct lc_prof_place *pl)
{
	for (uint32_t i = 0; i < n; i++)
		if (pl[i].source != source || pl[i].window != window)
			return -EINVAL;
	begin(w, LC_PF_PLACES);
	put8(w, source);
	putuv(w, window);
	put_place_rows(w, n, pl);
	return finish(w, 0);
}

int lc_pwriter_places(struct lc_pwriter *w, uint32_t n, const struct lc_prof_place *pl)
{
	return n ? lc_pwriter_places_of(w, pl[0].source, pl[0].window, n, pl) : 0;
}

int lc_pwriter_module(struct lc_pwriter *w, const struct lc_prof_module *m)
{
	struct lc_prof_module x = *m;

	if (!x.based)
		x.bias = 0;
	begin(w, LC_PF_MODULE);
	put_fields(w, &x, &lc_pf_module);
	put_fields(w, &x, &lc_pf_module_bias);
	return finish(w, 0);
}

int lc_pwriter_place_names(struct lc_pwriter *w, uint32_t n,
			   const struct lc_prof_place_name *names)
{
	begin(w, LC_PF_PLACE_NAMES);
	put32(w, n);
	for (uint32_t i = 0; i < n; i++)
		put_fields(w, &names[i], &lc_pf_place_name_row);
	return finish(w, 0);
}

int lc_pwriter_sync(struct lc_pwriter *w, uint8_t source, uint32_t n,
		    const struct lc_prof_sync *sy)
{
	begin(w, LC_PF_SYNC);
	put8(w, source);
	put32(w, n);
	for (uint32_t i = 0; i < n; i++)
		put_fields(w, &sy[i], &lc_pf_sync_row);
	return finish(w, 0);
}

int lc_pwriter_events(struct lc_pwriter *w, uint32_t n, const struct lc_prof_event *ev)
{
	begin(w, LC_PF_EVENTS);
	put32(w, n);
	for (uint32_t i = 0; i < n; i++)
		put_fields(w, &ev[i], &lc_pf_event_row);
	return finish(w, 0);
}

int lc_pwriter_counts(struct lc_pwriter *w, const struct lc_prof_counts *c)
{
	begin(w, LC_PF_COUNTS);
	put_fields(w, c, &lc_pf_counts);
	put_tags(w, c->ntags, c->tags);
	put32(w, c->nev);
	for (uint32_t i = 0; i < c->nev; i++)
		put64(w, c->v[i]);
	return finish(w, 0);
}

/* The end block with every part of every minor. */
int lc_pwriter_end(struct lc_pwriter *w, const struct lc_prof_end *e)
{
	static const struct lc_pf_layout *const parts[] = { &lc_pf_end, &lc_pf_end_ext,
							    &lc_pf_end_p, &lc_pf_end_rule,
							    &lc_pf_end_fds, &lc_pf_end_limits };
	struct lc_prof_end x = *e;

	x.unavailable &= (1u << LC_NCAT) - 1;
	begin(w, LC_PF_END);
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		put_fields(w, &x, parts[i]);
	return finish(w, 0);
}

/* fsync (devices and pipes that cannot sync are not an error), close, and
 * return the first error of the writer's life. */
int lc_pwriter_close(struct lc_pwriter *w)
{
	int r;

	if (!w)
		return 0;
	async_stop(w);
	r = w->err;
	if (fsync(w->fd) < 0 && errno != EINVAL && errno != EROFS && !r)
		r = -errno;
	if (close(w->fd) < 0 && errno != EINTR && !r)
		r = -errno;
	free(w->buf);
	free(w);
	return r;
}
