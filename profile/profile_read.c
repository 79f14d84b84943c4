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
#include "lc_profile.h"
#include "profile_format.h"
#include "lc_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A cursor over one payload; why is set by the first read past its end or
 * the first invalid value, to the reason (see bad()). */
struct cur {
	const uint8_t *p;
	size_t n, off;
	const char *why;
};

/* Windows of a source kept whole after they are read, for the corrections
 * that follow them (the sampler writes those within a few windows). */
#define RING 64

/* A window with the capacity of its arrays, reused from window to window. */
struct slot {
	struct lc_prof_window w;
	size_t rcap, gcap;
};

/* The place rows of one recent window of a source, as corrected so far. */
struct pwin {
	uint32_t index;
	uint32_t n;
	size_t cap;
	struct lc_prof_place *rows;
};

/* What the reader keeps of one source besides its lc_prof_data. */
struct srcst {
	size_t wcap;		/* of data.windows */
	uint32_t *last;		/* the last file index each held window holds */
	size_t lastcap;
	int any;		/* a window was read: last_index is valid */
	uint32_t last_index;	/* the last file index read */
	uint64_t factor;	/* file windows a full held window holds */
	size_t tcap, gcap;	/* of data.threads, data.tags */
	size_t evwcap, evtcap, evgcap;	/* of the counter arrays, in rows */
	struct slot ring[RING];	/* lean: the latest windows, oldest at head */
	uint32_t nring, head;
	size_t plcap;		/* of data.places */
	int pany;		/* a place block was read: plast is valid */
	uint32_t plast;		/* its window */
	struct pwin pring[RING];	/* the latest place blocks, oldest at pphead */
	uint32_t npring, pphead;
};

struct rstate {
	struct lc_profile *prof;
	struct lc_read_opts o;
	int lean;		/* the options keep less than every row */
	struct srcst src[LC_NSRC];
	struct slot scratch;	/* the window being parsed */
	uint32_t *map;		/* thread -> its row's position + 1 (merging) */
	size_t mapcap;
	size_t pcap, tcap, rcap, mcap, modcap;
	uint64_t *psum;		/* [thread][category]: a place block's sums */
	size_t psumcap;
	struct pwin pext;	/* place rows being parsed */
	int have_info;
};

/* Note the first reason the payload is invalid; returns 0 so that readers
 * can "return bad(...)" from a step that failed. */
static int bad(struct cur *c, const char *why)
{
	if (!c->why)
		c->why = why;
	return 0;
}

/* Take n bytes; NULL (and c->why set) when fewer remain. */
static const uint8_t *take(struct cur *c, size_t n)
{
	const uint8_t *p;

	if (c->why || c->n - c->off < n) {
		bad(c, "block too short");
		return NULL;
	}
	p = c->p + c->off;
	c->off += n;
	return p;
}

static uint8_t get8(struct cur *c)
{
	const uint8_t *p = take(c, 1);

	return p ? *p : 0;
}

static uint16_t get16(struct cur *c)
{
	const uint8_t *p = take(c, 2);

	return p ? lc_pf_get16(p) : 0;
}

static uint32_t get32(struct cur *c)
{
	const uint8_t *p = take(c, 4);

	return p ? lc_pf_get32(p) : 0;
}

static uint64_t get64(struct cur *c)
{
	const uint8_t *p = take(c, 8);

	return p ? lc_pf_get64(p) : 0;
}

/* A length-prefixed string as a new NUL-terminated copy; NULL for length 0
 * or on error (c->why tells which; ENOMEM sets *oom). */
static char *getstr(struct cur *c, int *oom)
{
	uint32_t n = get32(c);
	const uint8_t *p;
	char *s;

	if (n > LC_PROF_TEXT_MAX) {
		bad(c, "string too long");
		return NULL;
	}
	p = take(c, n);
	if (!p || !n)
		return NULL;
	s = malloc((size_t)n + 1);
	if (!s) {
		if (oom)
			*oom = 1;
		bad(c, "out of memory");
		return NULL;
	}
	memcpy(s, p, n);
	s[n] = 0;
	return s;
}

/* Up to nbits masked values into v[] (zero where the mask bit is clear). */
static void getmasked(struct cur *c, uint64_t *v, int nbits, unsigned allowed)
{
	uint16_t mask = get16(c);

	if (mask & ~allowed) {
		bad(c, "unknown field in mask");
		return;
	}
	for (int i = 0; i < nbits; i++)
		v[i] = (mask & (1u << i)) ? get64(c) : 0;
}

/* An acct from its 14 fields in mask-bit order (either encoding's). */
static void acct_of(const uint64_t v[14], struct lc_acct *a)
{
	memcpy(a->cat, v, sizeof(a->cat));
	a->li_qempty = v[LC_PF_M_QEMPTY];
	a->t_we = v[LC_PF_M_TWE];
	a->n_we = v[LC_PF_M_NWE];
	a->t_nwe = v[LC_PF_M_TNWE];
	a->n_nwe = v[LC_PF_M_NNWE];
}

static void getacct(struct cur *c, struct lc_acct *a)
{
	uint64_t v[14];

	getmasked(c, v, 14, LC_PF_M_ACCT);
	acct_of(v, a);
}

/* A count of items of at least min bytes each, capped by what remains. */
static uint32_t getcount(struct cur *c, size_t min)
{
	uint32_t n = get32(c);

	if (!c->why && (c->n - c->off) / min < n) {
		bad(c, "count larger than the block");
		return 0;
	}
	return n;
}

/* An unsigned LEB128 varint of at most LC_PF_VARINT_MAX bytes.  The
 * encoding of a value is unique: a varint that ends in a zero byte (other
 * than 0 itself), runs past 10 bytes or past 64 bits is corrupt. */
static uint64_t getuv(struct cur *c)
{
	uint64_t v = 0;

	for (int i = 0; !c->why; i++) {
		uint8_t b;

		if (c->off == c->n)
			return bad(c, "block too short");
		b = c->p[c->off++];
		if (i == LC_PF_VARINT_MAX - 1 && b > 1)
			return bad(c, b & 0x80 ? "varint longer than 10 bytes" :
				   "varint past 64 bits");
		v |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80)) {
			if (!b && i)
				return bad(c, "overlong varint");
			return v;
		}
	}
	return 0;
}

/* A varint that must fit a u32. */
static uint32_t getuv32(struct cur *c)
{
	uint64_t v = getuv(c);

	if (v > UINT32_MAX)
		return bad(c, "varint too large");
	return (uint32_t)v;
}

/* A varint count of items of at least min bytes each, capped by what
 * remains (checked before anything is allocated for them). */
static uint32_t getvcount(struct cur *c, size_t min)
{
	uint32_t n = getuv32(c);

	if (!c->why && (c->n - c->off) / min < n)
		return bad(c, "count larger than the block");
	return n;
}

/* Up to nbits values after a varint mask, as varints, into v[] in the
 * fixed-width field order (the mask's bits follow lc_pf_vorder). */
static void getvmasked(struct cur *c, uint64_t *v, int nbits, unsigned allowed)
{
	uint64_t mask = getuv(c);

	if (mask & ~(uint64_t)allowed) {
		bad(c, "unknown field in mask");
		return;
	}
	for (int i = 0; i < nbits; i++)
		v[i < 10 ? lc_pf_vorder[i] : i] = (mask & (1u << i)) ? getuv(c) : 0;
}

static void getvacct(struct cur *c, struct lc_acct *a)
{
	uint64_t v[14];

	getvmasked(c, v, 14, LC_PF_M_ACCT);
	acct_of(v, a);
}

/* A u8 count and that many strings into v[0..LC_NCAT) (replacing what v
 * held); strings past LC_NCAT are read and dropped. */
static void getstrs(struct cur *c, char **v, int *oom)
{
	int n = get8(c);

	for (int i = 0; i < n && !c->why; i++) {
		char *r = getstr(c, oom);

		if (i < LC_NCAT) {
			free(v[i]);
			v[i] = r;
		} else {
			free(r);
		}
	}
}

/* Store v into the unsigned field of size bytes (1, 4 or 8) at dst. */
static void store_uint(void *dst, uint8_t size, uint64_t v)
{
	if (size == 1)
		*(uint8_t *)dst = (uint8_t)v;
	else if (size == 4)
		*(uint32_t *)dst = (uint32_t)v;
	else
		*(uint64_t *)dst = v;
}

/* An unsigned field of width (profile_format.h: 1, 4 or 8 bytes, or a
 * varint into 4 or 8) into dst; 0 when the block ends before it. */
static void getuint(struct cur *c, void *dst, uint8_t width)
{
	uint8_t size = width & LC_PF_SIZE;
	uint64_t v = width & LC_PF_VAR ? (size == 4 ? getuv32(c) : getuv(c)) :
		     size == 1 ? get8(c) : size == 4 ? get32(c) : get64(c);

	store_uint(dst, size, v);
}

/* The fields of layout l into record rec (profile_format.h); a string
 * field's old value is not freed.  oom as getstr's (NULL: ENOMEM is only
 * c->why). */
static void get_fields(struct cur *c, void *rec, const struct lc_pf_layout *l, int *oom)
{
	for (uint32_t i = 0; i < l->n; i++) {
		char *dst = (char *)rec + l->f[i].off;

		if (l->f[i].width == LC_PF_STRS)
			getstrs(c, (char **)(void *)dst, oom);
		else if (l->f[i].width == LC_PF_STR)
			*(char **)(void *)dst = getstr(c, oom);
		else
			getuint(c, dst, l->f[i].width);
	}
}

/* n rows of layout l into the array rows (size bytes a row) from row
 * *count on, counting each row read whole.  0 or -ENOMEM. */
static int get_rows(struct cur *c, void *rows, size_t size, uint32_t n, uint32_t *count,
		    const struct lc_pf_layout *l)
{
	int oom = 0;

	for (uint32_t i = 0; i < n && !c->why; i++) {
		get_fields(c, (char *)rows + (size_t)*count * size, l, &oom);
		if (!c->why)
			++*count;
	}
	return oom ? -ENOMEM : 0;
}

static int parse_info(struct rstate *s, struct cur *c)
{
	struct lc_prof_info *in = &s->prof->info;
	int oom = 0;

	get_fields(c, in, &lc_pf_info, &oom);
	in->unavailable &= (1u << LC_NCAT) - 1;
	/* minor 3: the window schedule's growth (absent before: fixed) */
	if (!c->why && c->n - c->off >= 4)
		get_fields(c, in, &lc_pf_info_grow, &oom);
	s->have_info = 1;
	return oom ? -ENOMEM : 0;
}

/* Append record rec (size bytes, just read) to the array *arr of *n rows
 * (capacity *cap) unless the block is invalid; a record not stored has its
 * string str freed.  0, or -ENOMEM (also when reading it ran out: oom). */
static int append_rec(struct cur *c, void *arr, uint32_t *n, size_t *cap, const void *rec,
		      size_t size, char *str, int oom)
{
	if (c->why || lc_grow(arr, cap, (size_t)*n + 1, size)) {
		free(str);
		return oom || !c->why ? -ENOMEM : 0;
	}
	memcpy(*(char **)arr + (size_t)(*n)++ * size, rec, size);
	return 0;
}

static int parse_process(struct rstate *s, struct cur *c)
{
	struct lc_profile *pr = s->prof;
	struct lc_prof_process p = { 0 };
	int oom = 0;

	get_fields(c, &p, &lc_pf_process, &oom);
	return append_rec(c, &pr->processes, &pr->nprocesses, &s->pcap, &p, sizeof(p), p.comm, oom);
}

/* A rank block (minor 1): the job identity of a process. */
static int parse_rank(struct rstate *s, struct cur *c)
{
	struct lc_profile *pr = s->prof;
	struct lc_prof_rank r = { 0 };
	int oom = 0;

	get_fields(c, &r, &lc_pf_rank, &oom);
	if (!c->why && (r.rank < 0 || (uint32_t)r.rank >= r.size))
		bad(c, "rank outside the job's size");
	return append_rec(c, &pr->ranks, &pr->nranks, &s->rcap, &r, sizeof(r), r.host, oom);
}

/* Whether the parts of machine span m fit its total, for 1 to 65536 CPUs. */
static int machine_ok(const struct lc_prof_machine *m)
{
	uint64_t parts = 0;
	const uint64_t v[4] = { m->program_ns, m->sampler_ns, m->other_ns, m->steal_ns };

	for (int i = 0; i < 4; i++) {
		if (v[i] > m->total_ns || parts > UINT64_MAX - v[i])
			return 0;
		parts += v[i];
	}
	return parts <= m->total_ns && m->ncpus > 0 && m->ncpus <= 1u << 16 &&
	       m->start_ns <= UINT64_MAX - m->len_ns;
}

/* A machine block (minor 4): one span of the machine's share. */
static int parse_machine(struct rstate *s, struct cur *c)
{
	struct lc_profile *pr = s->prof;
	struct lc_prof_machine m = { 0 }, *t = &pr->machine_total;

	get_fields(c, &m, &lc_pf_machine, NULL);
	if (!c->why && !machine_ok(&m))
		bad(c, "machine span: its parts exceed its total, or no CPU");
	if (append_rec(c, &pr->machine, &pr->nmachine, &s->mcap, &m, sizeof(m), NULL, 0))
		return -ENOMEM;
	if (c->why || m.flags & LC_MACH_PARTIAL || t->total_ns > UINT64_MAX / 2 ||
	    t->len_ns > UINT64_MAX / 2 || m.total_ns > UINT64_MAX / 4)
		return 0;
	if (m.ncpus > t->ncpus)
		t->ncpus = m.ncpus;
	t->len_ns += m.len_ns;
	t->total_ns += m.total_ns;
	t->program_ns += m.program_ns;
	t->sampler_ns += m.sampler_ns;
	t->other_ns += m.other_ns;
	t->steal_ns += m.steal_ns;
	return 0;
}

const struct lc_prof_rank *lc_profile_rank_of(const struct lc_profile *prof, int32_t pid)
{
	for (uint32_t i = prof->nranks; i-- > 0;)
		if (prof->ranks[i].pid == pid)
			return &prof->ranks[i];
	return NULL;
}

static int parse_thread(struct rstate *s, struct cur *c)
{
	struct lc_profile *pr = s->prof;
	struct lc_prof_thread t;

	get_fields(c, &t, &lc_pf_thread, NULL);
	if (!c->why && t.idx != pr->nthreads)
		bad(c, "thread index out of order");
	return append_rec(c, &pr->threads, &pr->nthreads, &s->tcap, &t, sizeof(t), NULL, 0);
}

static void free_window(void *row)
{
	struct lc_prof_window *w = row;

	free(w->threads);
	free(w->tags);
	free(w->places);
}

/* Room for n rows and g tag rows in the window being parsed. */
static int scratch_room(struct slot *sl, uint32_t n, uint32_t g)
{
	if (lc_grow((void **)&sl->w.threads, &sl->rcap, n, sizeof(*sl->w.threads)) ||
	    lc_grow((void **)&sl->w.tags, &sl->gcap, g, sizeof(*sl->w.tags)))
		return -ENOMEM;
	return 0;
}

/* The fields of a window in the scratch slot, keeping its arrays. */
static struct lc_prof_window *scratch_reset(struct rstate *s)
{
	struct lc_prof_window *w = &s->scratch.w;
	struct lc_prof_trow *rows = w->threads;
	struct lc_prof_tagrow *tags = w->tags;

	*w = (struct lc_prof_window){ .threads = rows, .tags = tags, .nmerged = 1 };
	return w;
}

/* Room in the scratch window for n rows and g tag rows, unless the block
 * is already invalid (then the readers that follow read nothing). */
static int rows_room(struct rstate *s, struct cur *c, uint32_t n, uint32_t g)
{
	return c->why ? 0 : scratch_room(&s->scratch, n, g);
}

/* A thread row's masked values v (fixed-width order). */
static void trow_set(struct lc_prof_trow *r, const uint64_t v[10])
{
	memcpy(r->cat, v, sizeof(r->cat));
	r->li_qempty = v[LC_PF_M_QEMPTY];
}

/* The thread rows and tag rows of a window block (type 4); rows must name
 * threads declared earlier. */
static int parse_rows(struct rstate *s, struct cur *c, struct lc_prof_window *w)
{
	w->nthreads = getcount(c, 6);
	if (rows_room(s, c, w->nthreads, 0))
		return -ENOMEM;
	for (uint32_t i = 0; i < w->nthreads && !c->why; i++) {
		uint64_t v[10];

		w->threads[i].thread = get32(c);
		if (!c->why && w->threads[i].thread >= s->prof->nthreads)
			return bad(c, "row names an undeclared thread");
		getmasked(c, v, 10, LC_PF_M_TROW);
		trow_set(&w->threads[i], v);
	}
	w->ntags = getcount(c, 10);
	if (rows_room(s, c, 0, w->ntags))
		return -ENOMEM;
	for (uint32_t i = 0; i < w->ntags && !c->why; i++) {
		w->tags[i].tag = (int64_t)get64(c);
		getacct(c, &w->tags[i].acct);
	}
	return 0;
}

static int commit_window(struct rstate *s, struct cur *c, struct lc_prof_window *w);
static int get_place_rows(struct rstate *s, struct cur *c, uint8_t src, uint32_t x);
static int places_commit(struct rstate *s, struct cur *c, uint8_t src, uint32_t x);

/* A window block of format minor 0-2 (type 4, fixed-width fields). */
static int parse_window(struct rstate *s, struct cur *c)
{
	struct lc_prof_window *w = scratch_reset(s);
	int r;

	get_fields(c, w, &lc_pf_window4, NULL);
	getacct(c, &w->acct);
	r = parse_rows(s, c, w);
	w->len_ns = s->prof->info.window_ns;
	if (r || c->why)
		return r;
	return commit_window(s, c, w);
}

/* The thread rows of a varint window: each thread the difference from the
 * previous row's, within the declared threads. */
static int parse_vrows(struct rstate *s, struct cur *c, struct lc_prof_window *w)
{
	uint32_t prev = 0, nth = s->prof->nthreads;

	/* a row is at least a delta and a mask */
	w->nthreads = getvcount(c, 2);
	if (rows_room(s, c, w->nthreads, 0))
		return -ENOMEM;
	for (uint32_t i = 0; i < w->nthreads && !c->why; i++) {
		int64_t d = lc_pf_unzigzag(getuv(c));
		uint64_t v[10];

		if (!c->why && (d < -(int64_t)prev || d >= (int64_t)nth - (int64_t)prev))
			return bad(c, "row names an undeclared thread");
		w->threads[i].thread = prev = (uint32_t)((int64_t)prev + d);
		getvmasked(c, v, 10, LC_PF_M_TROW);
		trow_set(&w->threads[i], v);
	}
	return 0;
}

/* The tag rows of a varint window: a tag and a masked acct each. */
static int parse_vtags(struct rstate *s, struct cur *c, struct lc_prof_window *w)
{
	w->ntags = getvcount(c, 2);
	if (rows_room(s, c, 0, w->ntags))
		return -ENOMEM;
	for (uint32_t i = 0; i < w->ntags && !c->why; i++) {
		w->tags[i].tag = lc_pf_unzigzag(getuv(c));
		getvacct(c, &w->tags[i].acct);
	}
	return 0;
}

/* A varint window block (type 12, minor 3), with its place rows after the
 * tag rows from minor 5 on. */
static int parse_vwindow(struct rstate *s, struct cur *c)
{
	struct lc_prof_window *w = scratch_reset(s);
	uint32_t x;
	int ext, rc;
	uint8_t src;

	get_fields(c, w, &lc_pf_vwindow, NULL);
	getvacct(c, &w->acct);
	if (parse_vrows(s, c, w) || parse_vtags(s, c, w))
		return c->why ? 0 : -ENOMEM;
	ext = !c->why && c->off < c->n;
	if (ext && get_place_rows(s, c, w->source, w->index))
		return -ENOMEM;
	if (c->why)
		return 0;
	src = w->source;	/* w is the scratch slot: committing may swap it */
	x = w->index;
	rc = commit_window(s, c, w);
	return rc || !ext ? rc : places_commit(s, c, src, x);
}

/* ---- totals, kept as blocks arrive -------------------------------------- */

/* The per-thread totals of d cover every declared thread. */
static int fit_threads(struct rstate *s, struct lc_prof_data *d, struct srcst *ss)
{
	return lc_grow((void **)&d->threads, &ss->tcap, s->prof->nthreads, sizeof(*d->threads));
}

/* The counter arrays of d, once there are counters, cover its windows,
 * threads and tags (one spare row each, as readers have always had). */
static int fit_counters(struct rstate *s, struct lc_prof_data *d, struct srcst *ss)
{
	size_t row = (size_t)s->prof->nevents * sizeof(uint64_t);

	if (!row || !d->present)
		return 0;
	if (lc_grow((void **)&d->ev_window, &ss->evwcap, d->nwindows ? d->nwindows : 1, row) ||
	    lc_grow((void **)&d->ev_thread, &ss->evtcap, (size_t)s->prof->nthreads + 1, row) ||
	    lc_grow((void **)&d->ev_tag, &ss->evgcap, (size_t)d->ntags + 1, row))
		return -ENOMEM;
	return 0;
}

/* Position of tag in the sorted per-tag totals of d, or where it goes. */
static uint32_t tag_pos(const struct lc_prof_data *d, int64_t tag)
{
	uint32_t lo = 0, hi = d->ntags;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (d->tags[mid].tag < tag)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The per-tag total of tag, or NULL. */
static struct lc_prof_tagrow *tag_total(struct lc_prof_data *d, int64_t tag)
{
	uint32_t i = tag_pos(d, tag);

	return i < d->ntags && d->tags[i].tag == tag ? &d->tags[i] : NULL;
}

/* Add a tag row to the per-tag totals (sorted by tag), making room for a
 * new tag and its counter row. */
static int add_tag_total(struct rstate *s, struct lc_prof_data *d, struct srcst *ss,
			 const struct lc_prof_tagrow *g)
{
	uint32_t i = tag_pos(d, g->tag);
	size_t ne = s->prof->nevents;

	if (i < d->ntags && d->tags[i].tag == g->tag) {
		lc_acct_add(&d->tags[i].acct, &g->acct);
		return 0;
	}
	if (lc_grow((void **)&d->tags, &ss->gcap, (size_t)d->ntags + 1, sizeof(*d->tags)))
		return -ENOMEM;
	if (ne && lc_grow((void **)&d->ev_tag, &ss->evgcap, (size_t)d->ntags + 2,
			  ne * sizeof(uint64_t)))
		return -ENOMEM;
	memmove(&d->tags[i + 1], &d->tags[i], (d->ntags - i) * sizeof(*d->tags));
	d->tags[i] = *g;
	if (ne && d->ev_tag) {
		memmove(&d->ev_tag[(i + 1) * ne], &d->ev_tag[i * ne],
			(d->ntags - i) * ne * sizeof(uint64_t));
		memset(&d->ev_tag[i * ne], 0, ne * sizeof(uint64_t));
	}
	d->ntags++;
	return 0;
}

/* A window's part of the totals of its source: whole, per thread, per tag. */
static int add_totals(struct rstate *s, struct lc_prof_data *d, struct srcst *ss,
		      const struct lc_prof_window *w)
{
	d->present = 1;
	lc_acct_add(&d->total, &w->acct);
	if (w->max_n > d->max_n)
		d->max_n = w->max_n;
	if (w->team > d->team)
		d->team = w->team;
	if (w->nthreads && fit_threads(s, d, ss))
		return -ENOMEM;
	for (uint32_t j = 0; j < w->nthreads; j++) {
		struct lc_prof_trow *t = &d->threads[w->threads[j].thread];

		for (int c = 0; c < LC_NCAT; c++)
			t->cat[c] += w->threads[j].cat[c];
		t->li_qempty += w->threads[j].li_qempty;
	}
	for (uint32_t j = 0; j < w->ntags; j++)
		if (add_tag_total(s, d, ss, &w->tags[j]))
			return -ENOMEM;
	return 0;
}

/* ---- the windows held ---------------------------------------------------- */

/* Copy the rows (when keep_rows) and tag rows of src into the empty dst. */
static int copy_window(struct lc_prof_window *dst, const struct lc_prof_window *src,
		       int keep_rows)
{
	*dst = *src;
	dst->threads = NULL;
	dst->tags = NULL;
	dst->places = NULL;
	dst->nplaces = 0;
	if (!keep_rows)
		dst->nthreads = 0;
	if (dst->nthreads) {
		dst->threads = malloc(dst->nthreads * sizeof(*dst->threads));
		if (!dst->threads)
			return -ENOMEM;
		memcpy(dst->threads, src->threads, dst->nthreads * sizeof(*dst->threads));
	}
	if (dst->ntags) {
		dst->tags = malloc(dst->ntags * sizeof(*dst->tags));
		if (!dst->tags) {
			free(dst->threads);
			return -ENOMEM;
		}
		memcpy(dst->tags, src->tags, dst->ntags * sizeof(*dst->tags));
	}
	return 0;
}

/* The row of thread t in w (the first, as corrections have always found
 * it), or NULL. */
static struct lc_prof_trow *find_row(struct lc_prof_window *w, uint32_t t)
{
	for (uint32_t i = 0; i < w->nthreads; i++)
		if (w->threads[i].thread == t)
			return &w->threads[i];
	return NULL;
}

static struct lc_prof_tagrow *find_tagrow(struct lc_prof_window *w, int64_t tag)
{
	for (uint32_t i = 0; i < w->ntags; i++)
		if (w->tags[i].tag == tag)
			return &w->tags[i];
	return NULL;
}

/* Room for n more elements of size bytes in the array *p of have. */
static int room_more(void *p, uint32_t have, uint32_t n, size_t size)
{
	void *q;

	if (!n)
		return 0;
	q = realloc(*(void **)p, ((size_t)have + n) * size);
	if (!q)
		return -ENOMEM;
	*(void **)p = q;
	return 0;
}

/* src's tag rows into dst's, by tag. */
static int merge_tags(struct lc_prof_window *dst, const struct lc_prof_window *src)
{
	if (room_more(&dst->tags, dst->ntags, src->ntags, sizeof(*dst->tags)))
		return -ENOMEM;
	for (uint32_t i = 0; i < src->ntags; i++) {
		struct lc_prof_tagrow *g = find_tagrow(dst, src->tags[i].tag);

		if (g)
			lc_acct_add(&g->acct, &src->tags[i].acct);
		else
			dst->tags[dst->ntags++] = src->tags[i];
	}
	return 0;
}

/* Thread row r into dst's row of its thread (s->map: thread -> position
 * + 1), or as a new row. */
static void merge_row(struct rstate *s, struct lc_prof_window *dst, const struct lc_prof_trow *r)
{
	uint32_t k = s->map[r->thread];

	if (!k) {
		dst->threads[dst->nthreads] = *r;
		s->map[r->thread] = ++dst->nthreads;
		return;
	}
	lc_cat_add(dst->threads[k - 1].cat, r->cat);
	dst->threads[k - 1].li_qempty += r->li_qempty;
}

/* src's thread rows into dst's, by thread, through a map of thread ->
 * position + 1 left all zero again afterwards. */
static int merge_rows(struct rstate *s, struct lc_prof_window *dst,
		      const struct lc_prof_window *src)
{
	if (lc_grow((void **)&s->map, &s->mapcap, s->prof->nthreads, sizeof(*s->map)) ||
	    room_more(&dst->threads, dst->nthreads, src->nthreads, sizeof(*dst->threads)))
		return -ENOMEM;
	for (uint32_t i = dst->nthreads; i-- > 0;)
		s->map[dst->threads[i].thread] = i + 1;
	for (uint32_t i = 0; i < src->nthreads; i++)
		merge_row(s, dst, &src->threads[i]);
	for (uint32_t i = 0; i < dst->nthreads; i++)
		s->map[dst->threads[i].thread] = 0;
	return 0;
}

/* Merge the later window src into dst: sums, maxima, tag rows by tag and,
 * when dst has rows, rows by thread; dst keeps its start and index. */
static int merge_window(struct rstate *s, struct lc_prof_window *dst,
			const struct lc_prof_window *src, int keep_rows)
{
	lc_acct_add(&dst->acct, &src->acct);
	dst->ticks += src->ticks;
	dst->len_ns += src->len_ns;
	dst->nmerged += src->nmerged;
	dst->max_n = src->max_n > dst->max_n ? src->max_n : dst->max_n;
	dst->team = src->team > dst->team ? src->team : dst->team;
	if (merge_tags(dst, src))
		return -ENOMEM;
	return keep_rows && src->nthreads ? merge_rows(s, dst, src) : 0;
}

/* Merge the held windows of d pairwise (0 and 1, 2 and 3, ...), with
 * their counters: each now holds twice as many file windows. */
static int halve(struct rstate *s, struct lc_prof_data *d, struct srcst *ss)
{
	size_t ne = s->prof->nevents;
	uint32_t n = d->nwindows, k = 0;

	for (uint32_t i = 0; i < n; i += 2, k++) {
		struct lc_prof_window *w = &d->windows[i];
		uint32_t last = ss->last[i];

		if (i + 1 < n) {
			if (merge_window(s, w, &d->windows[i + 1], !s->o.no_rows))
				return -ENOMEM;
			free_window(&d->windows[i + 1]);
			d->windows[i + 1] = (struct lc_prof_window){ 0 };
			last = ss->last[i + 1];
		}
		if (k != i) {	/* move it down, leaving nothing to free twice */
			d->windows[k] = *w;
			*w = (struct lc_prof_window){ 0 };
		}
		ss->last[k] = last;
		if (ne && d->ev_window) {
			uint64_t *to = &d->ev_window[k * ne], *a = &d->ev_window[i * ne];

			for (size_t e = 0; e < ne; e++)
				to[e] = a[e] + (i + 1 < n ? a[ne + e] : 0);
		}
	}
	if (ne && d->ev_window)
		memset(&d->ev_window[k * ne], 0, (n - k) * ne * sizeof(uint64_t));
	d->nwindows = k;
	ss->factor *= 2;
	return 0;
}

/* Hold window w: as it is (every row: the default), or without its rows,
 * or merged into the last held window while that holds fewer than
 * `factor` file windows; when max_windows are held, they are merged
 * pairwise first so that they stay evenly spaced. */
static int hold(struct rstate *s, struct lc_prof_data *d, struct srcst *ss,
		const struct lc_prof_window *w)
{
	struct lc_prof_window *last = d->nwindows ? &d->windows[d->nwindows - 1] : NULL;

	if (s->lean && s->o.max_windows && last && last->nmerged >= ss->factor &&
	    d->nwindows >= s->o.max_windows) {
		if (halve(s, d, ss))
			return -ENOMEM;
		last = &d->windows[d->nwindows - 1];
	}
	if (s->lean && last && last->nmerged < ss->factor) {
		ss->last[d->nwindows - 1] = w->index;
		return merge_window(s, last, w, !s->o.no_rows);
	}
	if (lc_grow((void **)&d->windows, &ss->wcap, (size_t)d->nwindows + 1, sizeof(*w)) ||
	    lc_grow((void **)&ss->last, &ss->lastcap, (size_t)d->nwindows + 1, sizeof(*ss->last)))
		return -ENOMEM;
	if (copy_window(&d->windows[d->nwindows], w, !s->o.no_rows))
		return -ENOMEM;
	ss->last[d->nwindows++] = w->index;
	return fit_counters(s, d, ss);
}

/* Keep w whole in the ring of its source, in place of the oldest: the
 * scratch slot takes the evicted window's arrays for the next block. */
static void ring_push(struct rstate *s, struct srcst *ss)
{
	uint32_t i;
	struct slot t;

	if (ss->nring < RING) {
		i = (ss->head + ss->nring++) % RING;
	} else {
		i = ss->head;
		ss->head = (ss->head + 1) % RING;
	}
	t = ss->ring[i];
	ss->ring[i] = s->scratch;
	s->scratch = t;
}

/* A parsed window: checked against the previous one of its source, added
 * to the totals, held, and (lean) kept in the ring. */
static int commit_window(struct rstate *s, struct cur *c, struct lc_prof_window *w)
{
	struct lc_prof_data *d;
	struct srcst *ss;

	if (w->source >= LC_NSRC)	/* unknown sources are skipped */
		return 0;
	d = &s->prof->data[w->source];
	ss = &s->src[w->source];
	if (ss->any && w->index <= ss->last_index)
		return bad(c, "window index out of order");
	ss->any = 1;
	ss->last_index = w->index;
	if (add_totals(s, d, ss, w) || hold(s, d, ss, w))
		return -ENOMEM;
	if (s->lean)
		ring_push(s, ss);
	return 0;
}

/* ---- corrections and counts, applied as they arrive -------------------- */

/* The held window holding file window x of d, or NULL. */
static struct lc_prof_window *held_find(struct lc_prof_data *d, struct srcst *ss, uint32_t x)
{
	uint32_t lo = 0, hi = d->nwindows;

	/* the held windows' first file indices increase: find the last <= x */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (d->windows[mid].index <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || x > ss->last[lo - 1])
		return NULL;
	return &d->windows[lo - 1];
}

/* File window x as it was read, with the corrections so far: the held
 * window itself when every window is held whole, else its copy in the ring.
 * Returns 0 with *exact set (NULL: x is older than the ring), or -1 when
 * the file holds no window x (or none has been read yet). */
static int locate(struct rstate *s, uint8_t src, uint32_t x, struct lc_prof_window **held,
		  struct lc_prof_window **exact)
{
	struct lc_prof_data *d = &s->prof->data[src];
	struct srcst *ss = &s->src[src];

	*exact = NULL;
	*held = held_find(d, ss, x);
	if (!*held)
		return -1;
	if (!s->lean) {
		*exact = *held;
		return 0;
	}
	if (!ss->nring || x < ss->ring[ss->head].w.index)
		return 0;
	for (uint32_t k = ss->nring; k-- > 0;) {
		struct lc_prof_window *w = &ss->ring[(ss->head + k) % RING].w;

		if (w->index == x) {
			*exact = w;
			return 0;
		}
	}
	return -1;	/* a gap between windows */
}

/* Move up to want from category from to category to in cat[]; returns
 * what moved (never more than cat[from] held). */
static uint64_t shift(uint64_t cat[LC_NCAT], const struct lc_prof_wasted *x, uint64_t want)
{
	uint64_t m = want < cat[x->from] ? want : cat[x->from];

	cat[x->from] -= m;
	cat[x->to] += m;
	return m;
}

/* ---- place rows (minor 5) ------------------------------------------------ */

/* Order of place rows: thread, pid, place word, object. */
static int place_cmp(const struct lc_prof_place *a, const struct lc_prof_place *b)
{
	if (a->thread != b->thread)
		return a->thread < b->thread ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->place != b->place)
		return a->place < b->place ? -1 : 1;
	if (a->obj != b->obj)
		return a->obj < b->obj ? -1 : 1;
	return 0;
}

/* Position of the key of r in the sorted totals of d, or where it goes. */
static uint32_t place_pos(const struct lc_prof_data *d, const struct lc_prof_place *r)
{
	uint32_t lo = 0, hi = d->nplaces;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (place_cmp(&d->places[mid], r) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The total row of the key of r, or NULL. */
static struct lc_prof_place *place_total(struct lc_prof_data *d, const struct lc_prof_place *r)
{
	uint32_t i = place_pos(d, r);

	return i < d->nplaces && !place_cmp(&d->places[i], r) ? &d->places[i] : NULL;
}

/* Add place row r to the totals of d (window UINT32_MAX). */
static int add_place_total(struct lc_prof_data *d, struct srcst *ss, const struct lc_prof_place *r)
{
	uint32_t i = place_pos(d, r);

	if (i < d->nplaces && !place_cmp(&d->places[i], r)) {
		lc_cat_add(d->places[i].cat, r->cat);
		return 0;
	}
	if (lc_grow((void **)&d->places, &ss->plcap, (size_t)d->nplaces + 1, sizeof(*r)))
		return -ENOMEM;
	memmove(&d->places[i + 1], &d->places[i], (d->nplaces - i) * sizeof(*r));
	d->places[i] = *r;
	d->places[i].window = UINT32_MAX;
	d->nplaces++;
	return 0;
}

/* The ring entry for the next place block of ss (the oldest when full). */
static struct pwin *pring_next(struct srcst *ss)
{
	uint32_t i;

	if (ss->npring < RING) {
		i = (ss->pphead + ss->npring++) % RING;
	} else {
		i = ss->pphead;
		ss->pphead = (ss->pphead + 1) % RING;
	}
	return &ss->pring[i];
}

/* The kept place rows of window x of ss, or NULL. */
static struct pwin *pring_find(struct srcst *ss, uint32_t x)
{
	for (uint32_t k = 0; k < ss->npring; k++) {
		struct pwin *p = &ss->pring[(ss->pphead + k) % RING];

		if (p->index == x)
			return p;
	}
	return NULL;
}

/* One place row after row prev: thread + 1 (0: no thread), pid, place and
 * obj as differences from prev's, categories. */
static void get_place_row(struct rstate *s, struct cur *c, struct lc_prof_place *r,
			  const struct lc_prof_place *prev)
{
	uint64_t t = getuv(c), v[10];
	int64_t pid = lc_pf_unzigzag(getuv(c));

	r->place = prev->place + (uint64_t)lc_pf_unzigzag(getuv(c));
	r->obj = prev->obj + (uint64_t)lc_pf_unzigzag(getuv(c));
	getvmasked(c, v, LC_NCAT, LC_PF_M_PLACE);
	memcpy(r->cat, v, sizeof(r->cat));
	if (c->why)
		return;
	if (t > s->prof->nthreads)
		bad(c, "place row names an undeclared thread");
	else if (pid < INT32_MIN || pid > INT32_MAX)
		bad(c, "place row's pid out of range");
	r->thread = t ? (uint32_t)(t - 1) : UINT32_MAX;
	/* a thread's row is of its thread's process, whatever it says */
	r->pid = t ? s->prof->threads[t - 1].pid : (int32_t)pid;
}

/* Add to pw the rows the block implies: for each thread row of window w,
 * place 0 holds what the block's rows of that thread leave of it. */
static int imply_rest(struct rstate *s, struct pwin *pw, const struct lc_prof_window *w)
{
	uint32_t n = pw->n;

	if (lc_grow((void **)&s->psum, &s->psumcap, (size_t)s->prof->nthreads * LC_NCAT,
		    sizeof(*s->psum)) ||
	    lc_grow((void **)&pw->rows, &pw->cap, (size_t)n + w->nthreads + 1, sizeof(*pw->rows)))
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		for (int c = 0; c < LC_NCAT && pw->rows[i].thread != UINT32_MAX; c++)
			s->psum[(size_t)pw->rows[i].thread * LC_NCAT + c] += pw->rows[i].cat[c];
	for (uint32_t j = 0; j < w->nthreads; j++) {
		const struct lc_prof_trow *t = &w->threads[j];
		uint64_t *sum = &s->psum[(size_t)t->thread * LC_NCAT];
		struct lc_prof_place *r = &pw->rows[pw->n];
		uint64_t any = 0;

		*r = (struct lc_prof_place){ .source = w->source, .window = pw->index,
					     .thread = t->thread,
					     .pid = s->prof->threads[t->thread].pid };
		for (int c = 0; c < LC_NCAT; c++) {
			r->cat[c] = t->cat[c] > sum[c] ? t->cat[c] - sum[c] : 0;
			sum[c] = t->cat[c] > sum[c] ? t->cat[c] : sum[c];	/* once per thread */
			any |= r->cat[c];
		}
		pw->n += any != 0;
	}
	for (uint32_t i = 0; i < pw->n; i++)	/* leave psum zero */
		if (pw->rows[i].thread != UINT32_MAX)
			memset(&s->psum[(size_t)pw->rows[i].thread * LC_NCAT], 0,
			       LC_NCAT * sizeof(*s->psum));
	return 0;
}

/* n place rows of window x of source src into s->pext (c->why on error). */
static int get_place_rows(struct rstate *s, struct cur *c, uint8_t src, uint32_t x)
{
	uint32_t n = getvcount(c, 5);
	struct pwin *pw = &s->pext;

	pw->n = 0;
	if (c->why || lc_grow((void **)&pw->rows, &pw->cap, n ? n : 1, sizeof(*pw->rows)))
		return c->why ? 0 : -ENOMEM;
	for (uint32_t i = 0; i < n && !c->why; i++) {
		struct lc_prof_place *r = &pw->rows[i];
		const struct lc_prof_place none = { 0 };

		*r = (struct lc_prof_place){ .source = src, .window = x };
		get_place_row(s, c, r, i ? &pw->rows[i - 1] : &none);
		if (!c->why)
			pw->n++;
	}
	return 0;
}

/* The rows in s->pext of window x of source src, the window read just
 * before, once: with the rows they imply (place 0: a thread's time they do
 * not place), into the ring, the totals and (every window kept) the
 * window. */
static int places_commit(struct rstate *s, struct cur *c, uint8_t src, uint32_t x)
{
	struct lc_prof_window *h, *e;
	struct lc_prof_data *d;
	struct srcst *ss;
	struct pwin *pw, t;

	if (c->why || src >= LC_NSRC)
		return 0;
	ss = &s->src[src];
	d = &s->prof->data[src];
	if (!ss->any || x != ss->last_index || locate(s, src, x, &h, &e) || !e)
		return bad(c, "place rows not of the window read just before");
	if (ss->pany && x <= ss->plast)
		return bad(c, "second place block of a window");
	pw = pring_next(ss);
	t = *pw;	/* the parsed rows go in, the ring entry's arrays out */
	*pw = s->pext;
	s->pext = t;
	pw->index = x;
	if (imply_rest(s, pw, e)) {
		pw->n = 0;
		return -ENOMEM;
	}
	ss->pany = 1;
	ss->plast = x;
	for (uint32_t i = 0; i < pw->n; i++)
		if (add_place_total(d, ss, &pw->rows[i]))
			return -ENOMEM;
	e->places_ext = 1;
	if (s->lean || !pw->n)
		return 0;
	/* every window held whole: it keeps its place rows */
	e->places = malloc(pw->n * sizeof(*e->places));
	if (!e->places)
		return -ENOMEM;
	memcpy(e->places, pw->rows, pw->n * sizeof(*e->places));
	e->nplaces = pw->n;
	return 0;
}

/* A place block (type 14): source, window, rows. */
static int parse_places(struct rstate *s, struct cur *c)
{
	uint8_t src = get8(c);
	uint32_t x = getuv32(c);

	if (c->why || get_place_rows(s, c, src, x))
		return c->why ? 0 : -ENOMEM;
	return places_commit(s, c, src, x);
}

/* Move a from x->from to x->to in place row r and (tot not NULL) in the
 * total row of its key in tot, each clamped at what `from` holds. */
static void place_shift(struct lc_prof_place *r, struct lc_prof_data *tot,
			const struct lc_prof_wasted *x, uint64_t a)
{
	struct lc_prof_place *t = tot ? place_total(tot, r) : NULL;

	shift(r->cat, x, a);
	if (t)
		shift(t->cat, x, a);
}

/* Move m (at most what they hold) from x->from to x->to over the rows of
 * thread x->thread among rows[0..n), each in proportion to its `from` time;
 * the ns that integer division leaves go to the first rows that still hold
 * `from` time.  tot: the totals to change alike, or NULL. */
static void spread(struct lc_prof_place *rows, uint32_t n, const struct lc_prof_wasted *x,
		   uint64_t m, struct lc_prof_data *tot)
{
	uint64_t f = 0, left;

	for (uint32_t i = 0; i < n; i++)
		if (rows[i].thread == x->thread && f <= UINT64_MAX - rows[i].cat[x->from])
			f += rows[i].cat[x->from];
	left = m < f ? m : f;
	m = left;
	for (int pass = 0; pass < 2 && left; pass++) {
		for (uint32_t i = 0; i < n && left; i++) {
			uint64_t have = rows[i].cat[x->from], a;

			if (rows[i].thread != x->thread || !have)
				continue;
			a = pass ? left : (uint64_t)((unsigned __int128)m * have / f);
			a = a < left ? a : left;
			a = a < have ? a : have;
			place_shift(&rows[i], tot, x, a);
			left -= a;
		}
	}
}

/* A correction of m ns that moved in the thread's row of window x->window:
 * the same m over that thread's place rows of that window (the window's
 * own when every window is kept, else from the ring of place blocks) and
 * their totals, or, for a window older than the ring, over the thread's
 * total place rows in proportion to their whole time. */
static void place_move(struct rstate *s, const struct lc_prof_wasted *x, uint64_t m)
{
	struct lc_prof_data *d = &s->prof->data[x->source];
	struct pwin *pw = pring_find(&s->src[x->source], x->window);
	struct lc_prof_place key = { .thread = x->thread };
	struct lc_prof_window *h, *e;
	uint32_t i, j;

	if (!s->lean && !locate(s, x->source, x->window, &h, &e) && e && e->nplaces) {
		spread(e->places, e->nplaces, x, m, d);	/* the window keeps its rows */
		return;
	}
	if (pw) {
		spread(pw->rows, pw->n, x, m, d);
		return;
	}
	key.pid = INT32_MIN;
	i = place_pos(d, &key);
	for (j = i; j < d->nplaces && d->places[j].thread == x->thread; j++)
		;
	spread(&d->places[i], j - i, x, m, NULL);
}

/* Free what a module record holds. */
static void free_module(void *row)
{
	struct lc_prof_module *m = row;

	free(m->path);
	free(m->build_id);
}

/* Free the names of place words of a profile. */
static void free_place_names(struct lc_profile *pr)
{
	LC_FREE_FIELD(pr->place_names, pr->nplace_names, name);
	pr->place_names = NULL;
	pr->nplace_names = 0;
}

/* A names block (type 16) replaces the names read so far. */
static int parse_place_names(struct rstate *s, struct cur *c)
{
	struct lc_profile *pr = s->prof;
	uint32_t n = getcount(c, 6);

	if (c->why)
		return 0;
	free_place_names(pr);
	pr->place_names = calloc(n ? n : 1, sizeof(*pr->place_names));
	if (!pr->place_names)
		return -ENOMEM;
	return get_rows(c, pr->place_names, sizeof(*pr->place_names), n, &pr->nplace_names,
			&lc_pf_place_name_row);
}

const char *lc_profile_place_what(const struct lc_profile *prof, uint64_t w)
{
	uint8_t kind = (uint8_t)(w >> 56), what = (uint8_t)(w >> 48);

	for (uint32_t i = 0; i < prof->nplace_names; i++)
		if (prof->place_names[i].kind == kind && prof->place_names[i].what == what)
			return prof->place_names[i].name;
	return NULL;
}

/* A module block (type 15): a later one of the same pid and hash replaces
 * an earlier one. */
static int parse_module(struct rstate *s, struct cur *c)
{
	struct lc_profile *pr = s->prof;
	struct lc_prof_module m = { 0 }, *slot = NULL;
	int oom = 0;

	get_fields(c, &m, &lc_pf_module, &oom);
	if (c->n - c->off >= 9) {	/* appended in minor 5: older files have none */
		get_fields(c, &m, &lc_pf_module_bias, NULL);
		m.based = m.based != 0;
	}
	if (!c->why && m.hash > 0xffffu)
		bad(c, "module hash out of range");
	for (uint32_t i = 0; i < pr->nmodules && !slot; i++)
		if (pr->modules[i].pid == m.pid && pr->modules[i].hash == m.hash)
			slot = &pr->modules[i];
	if (c->why || oom ||
	    (!slot && lc_grow((void **)&pr->modules, &s->modcap, (size_t)pr->nmodules + 1,
			      sizeof(m)))) {
		free(m.path);
		free(m.build_id);
		return oom || !c->why ? -ENOMEM : 0;
	}
	if (slot) {
		free(slot->path);
		free(slot->build_id);
	} else {
		slot = &pr->modules[pr->nmodules++];
	}
	*slot = m;
	return 0;
}

/* Apply one wasted or move record to its window, thread row and tag rows
 * and to the totals.  Each part moves what the exact window's part holds,
 * at most x->ns; a window older than the ring is clamped against its held
 * window (which may hold its neighbours) and the thread's total.  Records
 * naming a window the file does not hold (cut, or not yet read) are
 * dropped. */
static int apply_move(struct rstate *s, const struct lc_prof_wasted *x)
{
	struct lc_prof_window *h, *e;
	struct lc_prof_data *d;
	struct lc_prof_trow *r;
	uint64_t m;

	if (x->source >= LC_NSRC || locate(s, x->source, x->window, &h, &e))
		return 0;
	d = &s->prof->data[x->source];
	if (fit_threads(s, d, &s->src[x->source]))
		return -ENOMEM;
	m = shift(e ? e->acct.cat : h->acct.cat, x, x->ns);
	if (e && e != h)
		shift(h->acct.cat, x, m);
	shift(d->total.cat, x, m);
	if (e) {
		r = find_row(e, x->thread);
		m = r ? shift(r->cat, x, x->ns) : 0;
	} else {
		m = shift(d->threads[x->thread].cat, x, x->ns);
	}
	if (m && e != h && (r = find_row(h, x->thread)))
		shift(r->cat, x, m);
	if (m && e)
		m = shift(d->threads[x->thread].cat, x, m);
	if (m)
		place_move(s, x, m);
	for (uint32_t k = 0; k < x->ntags; k++) {
		struct lc_prof_tagrow *g = find_tagrow(e ? e : h, x->tags[k]), *gt;

		if (!g)
			continue;
		m = shift(g->acct.cat, x, x->ns);
		if (e && e != h && (g = find_tagrow(h, x->tags[k])))
			shift(g->acct.cat, x, m);
		if ((gt = tag_total(d, x->tags[k])))
			shift(gt->acct.cat, x, m);
	}
	return 0;
}

/* Add one counts record to its source's totals per window, thread and tag
 * (the tags seen so far). */
static int apply_counts(struct rstate *s, const struct lc_prof_counts *x)
{
	struct lc_prof_window *h, *e;
	struct lc_prof_data *d;
	size_t ne = s->prof->nevents, hi;

	if (!ne || x->source >= LC_NSRC || locate(s, x->source, x->window, &h, &e))
		return 0;
	d = &s->prof->data[x->source];
	if (fit_counters(s, d, &s->src[x->source]))
		return -ENOMEM;
	hi = (size_t)(h - d->windows);
	for (size_t v = 0; v < ne; v++) {
		d->ev_total[v] += x->v[v];
		d->ev_window[hi * ne + v] += x->v[v];
		d->ev_thread[(size_t)x->thread * ne + v] += x->v[v];
	}
	for (uint32_t k = 0; k < x->ntags; k++) {
		struct lc_prof_tagrow *g = tag_total(d, x->tags[k]);

		if (g)
			for (size_t v = 0; v < ne; v++)
				d->ev_tag[(size_t)(g - d->tags) * ne + v] += x->v[v];
	}
	return 0;
}

/* A list of n tags into a new array *out (NULL for none). */
static int get_tags(struct cur *c, uint32_t n, int64_t **out)
{
	*out = NULL;
	if (!n || c->why)
		return 0;
	*out = calloc(n, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		(*out)[i] = (int64_t)get64(c);
	return 0;
}

/* The tags of a record that names thread (read before them): a count and
 * the tags into *ntags and a new *tags.  A thread not declared makes the
 * block invalid with the reason why.  0 (c->why set if invalid) or
 * -ENOMEM. */
static int get_thread_tags(struct rstate *s, struct cur *c, uint32_t thread, uint32_t *ntags,
			   int64_t **tags, const char *why)
{
	*ntags = getcount(c, 8);
	if (c->why)
		return 0;
	if (thread >= s->prof->nthreads)
		return bad(c, why);
	return get_tags(c, *ntags, tags);
}

/* Apply a parsed wasted or move record, then free its tags. */
static int apply_free(struct rstate *s, struct cur *c, struct lc_prof_wasted *x)
{
	int r = c->why ? 0 : apply_move(s, x);

	free(x->tags);
	return r;
}

static int parse_wasted(struct rstate *s, struct cur *c)
{
	struct lc_prof_wasted x = { .from = LC_CAT_PC, .to = LC_CAT_WC };

	get_fields(c, &x, &lc_pf_wasted, NULL);
	if (get_thread_tags(s, c, x.thread, &x.ntags, &x.tags,
			    "wasted time of an undeclared thread"))
		return -ENOMEM;
	return apply_free(s, c, &x);
}

static int parse_move(struct rstate *s, struct cur *c)
{
	struct lc_prof_wasted x = { 0 };

	get_fields(c, &x, &lc_pf_move, NULL);
	if (get_thread_tags(s, c, x.thread, &x.ntags, &x.tags, "moved time of an undeclared thread"))
		return -ENOMEM;
	if (!c->why && (x.from >= LC_NCAT || x.to >= LC_NCAT))
		bad(c, "move names an unknown category");
	return apply_free(s, c, &x);
}

/* Drop the sync records of source src, making room for n more. */
static int sync_drop(struct lc_profile *pr, uint8_t src, uint32_t n)
{
	struct lc_prof_sync *all = calloc((size_t)pr->nsync + n + 1, sizeof(*all));
	uint32_t k = 0;

	if (!all)
		return -ENOMEM;
	for (uint32_t i = 0; i < pr->nsync; i++) {
		if (pr->sync[i].source == src)
			free(pr->sync[i].name);
		else
			all[k++] = pr->sync[i];
	}
	free(pr->sync);
	pr->sync = all;
	pr->nsync = k;
	return 0;
}

/* A sync block replaces the records of its source read so far. */
static int parse_sync(struct rstate *s, struct cur *c)
{
	struct lc_profile *pr = s->prof;
	uint8_t src = get8(c);
	uint32_t n = getcount(c, 24), k = pr->nsync;
	int r;

	if (c->why || src >= LC_NSRC)
		return 0;
	if (sync_drop(pr, src, n))
		return -ENOMEM;
	k = pr->nsync;
	r = get_rows(c, pr->sync, sizeof(*pr->sync), n, &pr->nsync, &lc_pf_sync_row);
	for (uint32_t i = k; i < pr->nsync; i++)
		pr->sync[i].source = src;
	return r;
}

static int parse_events(struct rstate *s, struct cur *c)
{
	struct lc_profile *pr = s->prof;
	uint32_t n = getcount(c, 8), got = 0;

	if (c->why)
		return 0;
	if (pr->events)
		return bad(c, "second events block");
	if (n > LC_PROF_MAX_EVENTS)
		return bad(c, "too many events");
	pr->events = calloc(n ? n : 1, sizeof(*pr->events));
	if (!pr->events)
		return -ENOMEM;
	pr->nevents = n;
	if (get_rows(c, pr->events, sizeof(*pr->events), n, &got, &lc_pf_event_row))
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		if (pr->events[i].role >= LC_EVR_NROLES)
			pr->events[i].role = LC_EVR_OTHER;
	for (int k = 0; k < LC_NSRC && !c->why; k++)
		if (fit_counters(s, &pr->data[k], &s->src[k]))
			return -ENOMEM;
	return 0;
}

static int parse_counts(struct rstate *s, struct cur *c)
{
	struct lc_prof_counts x = { 0 };
	int r;

	get_fields(c, &x, &lc_pf_counts, NULL);
	if (get_thread_tags(s, c, x.thread, &x.ntags, &x.tags, "counts of an undeclared thread"))
		return -ENOMEM;
	x.nev = get32(c);
	if (!c->why && (x.nev != s->prof->nevents || !s->prof->events))
		bad(c, "counts that do not match the events block");
	for (uint32_t i = 0; i < x.nev && !c->why; i++)
		x.v[i] = get64(c);
	r = c->why ? 0 : apply_counts(s, &x);
	free(x.tags);
	return r;
}

/* The parts of an end block appended in later minors, each read when the
 * block holds more, and marked as read (the int at flag) when whole. */
static const struct end_part {
	const struct lc_pf_layout *l;
	size_t flag;
} end_parts[] = {
	{ &lc_pf_end_ext, offsetof(struct lc_prof_end, ext) },			/* minor 2 */
	{ &lc_pf_end_p, offsetof(struct lc_prof_end, p_rules) },		/* minor 4 */
	{ &lc_pf_end_rule, offsetof(struct lc_prof_end, interval_rule) },	/* minor 5 */
	{ &lc_pf_end_fds, offsetof(struct lc_prof_end, fds) },			/* minor 5 */
	{ &lc_pf_end_limits, offsetof(struct lc_prof_end, limits) },		/* minor 5 */
};

/* The appended parts of an end block, as far as present. */
static void parse_end_ext(struct cur *c, struct lc_prof_end *e, int *oom)
{
	for (size_t i = 0; i < sizeof(end_parts) / sizeof(end_parts[0]); i++) {
		if (c->why || c->off == c->n)
			return;
		get_fields(c, e, end_parts[i].l, oom);
		e->unavailable &= (1u << LC_NCAT) - 1;
		if (!c->why)
			*(int *)(void *)((char *)e + end_parts[i].flag) = 1;
	}
}

static int parse_end(struct rstate *s, struct cur *c)
{
	struct lc_prof_end *e = &s->prof->end;
	int oom = 0;

	free(e->reason);	/* a second end block replaces the first */
	get_fields(c, e, &lc_pf_end, &oom);
	parse_end_ext(c, e, &oom);
	if (!c->why)
		s->prof->ended = 1;
	return oom ? -ENOMEM : 0;
}

/* The reader of each block type; a type without one (a newer minor
 * version's) is skipped. */
static int (*const parsers[])(struct rstate *s, struct cur *c) = {
	[LC_PF_INFO] = parse_info,		[LC_PF_PROCESS] = parse_process,
	[LC_PF_THREAD] = parse_thread,		[LC_PF_WINDOW] = parse_window,
	[LC_PF_WASTED] = parse_wasted,		[LC_PF_END] = parse_end,
	[LC_PF_RANK] = parse_rank,		[LC_PF_MOVE] = parse_move,
	[LC_PF_EVENTS] = parse_events,		[LC_PF_COUNTS] = parse_counts,
	[LC_PF_SYNC] = parse_sync,		[LC_PF_VWINDOW] = parse_vwindow,
	[LC_PF_MACHINE] = parse_machine,	[LC_PF_PLACES] = parse_places,
	[LC_PF_MODULE] = parse_module,		[LC_PF_PLACE_NAMES] = parse_place_names,
};

/* Parse one verified payload; 0, -ENOMEM, or 0 with c->why set. */
static int parse_block(struct rstate *s, uint16_t type, struct cur *c)
{
	if (!s->have_info && type != LC_PF_INFO)
		return bad(c, "the first block is not the info block");
	if (type == LC_PF_INFO && s->have_info)
		return bad(c, "second info block");
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

/* Walk the blocks from offset off.  Returns 0 or a negative error. */
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
		if (fit_threads(s, d, &s->src[k]) || fit_counters(s, d, &s->src[k]))
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

/* Read a profile from f with options o (NULL: keep everything). */
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
	lc_free_rows(d->windows, d->nwindows, sizeof(*d->windows), free_window);
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
	lc_free_rows(prof->modules, prof->nmodules, sizeof(*prof->modules), free_module);
	free_place_names(prof);
	LC_FREE_FIELD(prof->events, prof->nevents, name);
	LC_FREE_FIELD(prof->sync, prof->nsync, name);
	free(prof->machine);
	free_end(&prof->end);
	free(prof);
}
