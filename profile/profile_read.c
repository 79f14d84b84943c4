/*
 * profile_read.c — the profile reader.  The file is untrusted input: every
 * length, count and index is checked against what remains and what came
 * before, every block's CRC-32 is verified, and a file cut inside a block
 * loads up to the last complete block (docs/format.md).
 *
 * The file is read block by block through one buffer that grows to the
 * largest block, and each block is applied as it arrives: windows are added
 * to the totals, corrections and counts to the windows and totals they
 * name.  What stays in memory is what the options ask to keep (every
 * window with its rows by default; see struct lc_read_opts), plus, when
 * they ask for less, a ring of the most recent windows of each source kept
 * whole so that a correction arriving after its window is clamped exactly
 * as it would be against the whole file.
 */
#include "profile_read.h"
#include "profile_format.h"
#include "lc_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The reader of each block type; a type without one (a newer minor
 * version's) is skipped. */
#define LC_RD_PARSER_ROW_(type, name) [type] = lc_rd_parse_##name,
static int (*const parsers[])(struct rstate *s, struct cur *c) = {
	LC_RD_PARSERS(LC_RD_PARSER_ROW_)
};
#undef LC_RD_PARSER_ROW_

/* Parse one verified payload; 0, -ENOMEM, or 0 with c->why set. */
static int parse_block(struct rstate *s, uint16_t type, struct cur *c)
{
	if (!s->have_info && type != LC_PF_INFO)
		return lc_rd_bad(c, "the first block is not the info block");
	if (type == LC_PF_INFO && s->have_info)
		return lc_rd_bad(c, "second info block");
	if (type >= sizeof(parsers) / sizeof(parsers[0]) || !parsers[type])
		return 0;
	return parsers[type](s, c);
}

/* An end block of minor 2 has the final say on what was measured. */
static void adopt_end(struct lc_profile *pr)
{
	if (!pr->ended || !pr->end.ext)
		return;
	pr->info.unavailable = pr->end.unavailable;
	for (int c = 0; c < LC_NCAT; c++) {
		free(pr->info.reason[c]);
		pr->info.reason[c] = pr->end.reason_na[c];
		pr->end.reason_na[c] = NULL;
		if (!(pr->info.unavailable & (1u << c))) {
			free(pr->info.reason[c]);
			pr->info.reason[c] = NULL;
		}
	}
}

/* p and where it came from: end, option, team, threads (at least 1). */
static void choose_procs(struct lc_profile *pr)
{
	uint32_t team = 0, max_n = 0;

	for (int s = 0; s < LC_NSRC; s++) {
		if (pr->data[s].team > team)
			team = pr->data[s].team;
		if (pr->data[s].max_n > max_n)
			max_n = pr->data[s].max_n;
	}
	if (pr->ended && pr->end.procs) {
		pr->procs = pr->end.procs;
		pr->procs_from = pr->end.procs_from;
	} else if (pr->info.procs_option) {
		pr->procs = pr->info.procs_option;
		pr->procs_from = LC_PROCS_OPTION;
	} else if (team) {
		pr->procs = team;
		pr->procs_from = LC_PROCS_TEAM;
	} else {
		pr->procs = max_n ? max_n : 1;
		pr->procs_from = LC_PROCS_THREADS;
	}
}

/* Whether the n bytes at b begin as a profile does (the magic, or as much
 * of it as n holds). */
static int magic_ok(const uint8_t *b, size_t n)
{
	uint8_t magic[8];

	lc_pf_put64(magic, LC_PF_MAGIC);
	return !memcmp(b, magic, n < 8 ? n : 8);
}

/* Check the file header; returns its size, or a negative error. */
static long check_header(const uint8_t *b, size_t n, char *err, size_t errlen)
{
	uint32_t major, hsize;

	if (n == 0)
		return lc_fail(err, errlen, -ENODATA, "empty file");
	if (!magic_ok(b, n))
		return lc_fail(err, errlen, -EINVAL, "not a lostcycles profile");
	if (n < 16)
		return lc_fail(err, errlen, -ENODATA, "truncated header (%zu bytes)", n);
	major = lc_pf_get16(b + 8);
	hsize = lc_pf_get32(b + 12);
	if (major > LC_PF_MAJOR)
		return lc_fail(err, errlen, -ENOTSUP, "version %u is newer than this tool (%u)",
			    major, LC_PF_MAJOR);
	if (major < LC_PF_MAJOR)
		return lc_fail(err, errlen, -ENOTSUP, "unsupported version %u", major);
	if (hsize < LC_PF_HDR_SIZE || hsize > 4096)
		return lc_fail(err, errlen, -EBADMSG, "corrupt file header (size %u)", hsize);
	if (n < hsize)
		return lc_fail(err, errlen, -ENODATA, "truncated header (%zu bytes)", n);
	if (lc_pf_get32(b + hsize - 4) != lc_crc32(0, b, hsize - 4))
		return lc_fail(err, errlen, -EBADMSG, "corrupt file header (bad checksum)");
	return (long)hsize;
}

static const char *block_name(uint16_t type)
{
	static const char *const names[] = { "?", "info", "process", "thread",
					      "window", "wasted", "end", "rank", "move",
					      "events", "counts", "sync", "window", "machine",
					      "place", "module", "names" };

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "unknown";
}

/* The input: a file read block by block into buf, which grows to the
 * largest block and no further, or bytes in memory (lc_profile_parse). */
struct feed {
	int fd;			/* -1: the bytes are mem[0..len) */
	const uint8_t *mem;
	size_t len, pos;
	uint8_t *buf;
	size_t cap;
};

/* Read at most this much ahead of what has arrived, so that a block
 * length read from a damaged or cut file costs no more memory than the
 * bytes that are there. */
#define FEED_STEP ((size_t)1 << 20)

/* The next n bytes of the input at *p (valid until the next call): returns
 * how many there are (fewer only at the end of the input) or -errno. */
static ssize_t feed_take(struct feed *f, size_t n, const uint8_t **p)
{
	size_t got = 0;

	if (f->fd < 0) {
		got = f->len - f->pos < n ? f->len - f->pos : n;
		*p = f->mem + f->pos;
		f->pos += got;
		return (ssize_t)got;
	}
	while (got < n) {
		size_t want = n - got < FEED_STEP ? n - got : FEED_STEP;
		ssize_t r;

		if (lc_grow((void **)&f->buf, &f->cap, got + want, 1))
			return -ENOMEM;
		r = read(f->fd, f->buf + got, want);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	*p = f->buf;
	f->pos += got;
	return (ssize_t)got;
}

/* Read and check the file header into hb[4096]; returns its size or a
 * negative error with the reason. */
static long read_header(struct feed *f, uint8_t *hb, char *err, size_t errlen)
{
	const uint8_t *p;
	ssize_t r = feed_take(f, 16, &p);
	size_t n;
	uint32_t hsize;

	if (r < 0)
		return lc_fail(err, errlen, (int)r, "%s", strerror((int)-r));
	n = (size_t)r;
	memcpy(hb, p, n);
	hsize = n == 16 ? lc_pf_get32(hb + 12) : 0;
	if (n == 16 && magic_ok(hb, n) && hsize > 16 && hsize <= 4096) {
		r = feed_take(f, hsize - 16, &p);
		if (r < 0)
			return lc_fail(err, errlen, (int)r, "%s", strerror((int)-r));
		memcpy(hb + 16, p, (size_t)r);
		n += (size_t)r;
	}
	return check_header(hb, n, err, errlen);
}

/* The payload of the next block of f whose length and CRC check, its type
 * into *type.  1 when there is one, 0 when the file ends (*cut: inside a
 * block), or -errno from reading. */
static int next_block(struct feed *f, uint16_t *type, struct cur *c, int *cut)
{
	uint8_t hdr[LC_PF_BLK_HDR];
	const uint8_t *p;
	ssize_t got = feed_take(f, LC_PF_BLK_HDR, &p);
	uint32_t len;

	*cut = got != 0;	/* until the block proves complete */
	if (got < LC_PF_BLK_HDR)
		return got < 0 ? (int)got : 0;
	memcpy(hdr, p, sizeof(hdr));
	*type = lc_pf_get16(hdr);
	len = lc_pf_get32(hdr + 4);
	got = len > LC_PF_BLK_MAX ? 0 : feed_take(f, (size_t)len + LC_PF_BLK_CRC, &p);
	if (got < 0 || (size_t)got < (size_t)len + LC_PF_BLK_CRC)
		return got < 0 ? (int)got : 0;
	if (lc_pf_get32(p + len) != lc_crc32(lc_crc32(0, hdr, sizeof(hdr)), p, len))
		return 0;
	*cut = 0;
	*c = (struct cur){ .p = p, .n = len };
	return 1;
}

/* Walk the blocks from offset off.  Returns 0 or a negative error. */
static int read_blocks(struct rstate *s, struct feed *f, size_t off, char *err, size_t errlen)
{
	struct lc_profile *pr = s->prof;
	int cut = 0;

	pr->cut_offset = off;
	for (;;) {
		uint16_t type = 0;
		struct cur c;
		int r = next_block(f, &type, &c, &cut);

		if (r < 0)
			return lc_fail(err, errlen, r, "%s", strerror(-r));
		if (!r)
			break;
		r = parse_block(s, type, &c);
		if (r == -ENOMEM)
			return lc_fail(err, errlen, r, "out of memory");
		if (c.why)
			return lc_fail(err, errlen, -EBADMSG, "corrupt %s block at byte %zu: %s",
				    block_name(type), off, c.why);
		off += LC_PF_BLK_HDR + c.n + LC_PF_BLK_CRC;
		pr->cut_offset = off;
	}
	if (!s->have_info)
		return lc_fail(err, errlen, -ENODATA, "no complete block");
	pr->cut = cut || !pr->ended;
	return 0;
}

/* What is left once every block is in: per-thread totals of every
 * declared thread, the counter arrays, what was measured, and p. */
static int settle(struct rstate *s)
{
	struct lc_profile *pr = s->prof;

	for (int k = 0; k < LC_NSRC; k++) {
		struct lc_prof_data *d = &pr->data[k];

		if (!d->present)
			continue;
		if (lc_rd_fit_threads(s, d, &s->src[k]) || lc_rd_fit_counters(s, d, &s->src[k]))
			return -ENOMEM;
		d->nthreads = pr->nthreads;
		for (uint32_t i = 0; i < d->nthreads; i++)
			d->threads[i].thread = i;
	}
	adopt_end(pr);
	choose_procs(pr);
	return 0;
}

static void free_slot(struct slot *sl)
{
	free(sl->w.threads);
	free(sl->w.tags);
}

/* A reader's state for options o (NULL: the defaults), with a new empty
 * profile.  0 or -ENOMEM. */
static int rstate_init(struct rstate *s, const struct lc_read_opts *o)
{
	if (o) {
		s->o = *o;
		s->lean = o->no_rows || o->max_windows;
	}
	for (int k = 0; k < LC_NSRC; k++)
		s->src[k].factor = 1;
	s->prof = calloc(1, sizeof(*s->prof));
	return s->prof ? 0 : -ENOMEM;
}

/* Free what the reader kept besides the profile. */
static void rstate_free(struct rstate *s)
{
	free_slot(&s->scratch);
	for (int k = 0; k < LC_NSRC; k++) {
		for (uint32_t i = 0; i < RING; i++) {
			free_slot(&s->src[k].ring[i]);
			free(s->src[k].pring[i].rows);
		}
		free(s->src[k].last);
	}
	free(s->map);
	free(s->psum);
	free(s->pext.rows);
}

/* Read a profile from f with options o (NULL: keep everything). */
static int parse_feed(struct feed *f, const struct lc_read_opts *o, struct lc_profile **out,
		      char *err, size_t errlen)
{
	struct rstate s = { 0 };
	uint8_t hb[4096];
	long hsize;
	int r;

	*out = NULL;
	if (rstate_init(&s, o))
		return lc_fail(err, errlen, -ENOMEM, "out of memory");
	hsize = read_header(f, hb, err, errlen);
	r = hsize < 0 ? (int)hsize : 0;
	if (!r) {
		s.prof->version = lc_pf_get16(hb + 8);
		r = read_blocks(&s, f, (size_t)hsize, err, errlen);
	}
	if (!r && settle(&s))
		r = lc_fail(err, errlen, -ENOMEM, "out of memory");
	rstate_free(&s);
	if (r) {
		lc_profile_free(s.prof);
		return r;
	}
	*out = s.prof;
	return 0;
}

int lc_profile_parse_opts(const void *buf, size_t n, const struct lc_read_opts *o,
			  struct lc_profile **out, char *err, size_t errlen)
{
	struct feed f = { .fd = -1, .mem = buf, .len = n };

	return parse_feed(&f, o, out, err, errlen);
}

/* Parse the profile in buf[0..n).  See lc_profile.h. */
int lc_profile_parse(const void *buf, size_t n, struct lc_profile **out, char *err,
		     size_t errlen)
{
	return lc_profile_parse_opts(buf, n, NULL, out, err, errlen);
}

int lc_profile_read_opts(const char *path, const struct lc_read_opts *o,
			 struct lc_profile **out, char *err, size_t errlen)
{
	struct feed f = { 0 };
	int r;

	*out = NULL;
	f.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f.fd < 0)
		return lc_fail(err, errlen, -errno, "%s", strerror(errno));
	r = parse_feed(&f, o, out, err, errlen);
	close(f.fd);
	free(f.buf);
	return r;
}

int lc_profile_read(const char *path, struct lc_profile **out, char *err, size_t errlen)
{
	return lc_profile_read_opts(path, NULL, out, err, errlen);
}

/* Free what the info block of a profile holds. */
static void free_info(struct lc_prof_info *info)
{
	for (int c = 0; c < LC_NCAT; c++)
		free(info->reason[c]);
	free(info->hostname);
	free(info->command);
	free(info->session);
}

/* Free the arrays of one source's data. */
static void free_data(struct lc_prof_data *d)
{
	lc_free_rows(d->windows, d->nwindows, sizeof(*d->windows), lc_rd_free_window);
	free(d->threads);
	free(d->tags);
	free(d->ev_window);
	free(d->ev_thread);
	free(d->ev_tag);
	free(d->places);
}

/* Free the strings of the end record. */
static void free_end(struct lc_prof_end *e)
{
	for (int c = 0; c < LC_NCAT; c++) {
		free(e->reason_na[c]);
		free(e->method[c]);
	}
	free(e->reason);
}

void lc_profile_free(struct lc_profile *prof)
{
	if (!prof)
		return;
	free_info(&prof->info);
	LC_FREE_FIELD(prof->processes, prof->nprocesses, comm);
	LC_FREE_FIELD(prof->ranks, prof->nranks, host);
	free(prof->threads);
	for (int s = 0; s < LC_NSRC; s++)
		free_data(&prof->data[s]);
	lc_free_rows(prof->modules, prof->nmodules, sizeof(*prof->modules), lc_rd_free_module);
	lc_rd_free_place_names(prof);
	LC_FREE_FIELD(prof->events, prof->nevents, name);
	LC_FREE_FIELD(prof->sync, prof->nsync, name);
	free(prof->machine);
	free_end(&prof->end);
	free(prof);
}
