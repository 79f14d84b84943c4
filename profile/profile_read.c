/*
 * profile_read.c — the profile reader.  The file is untrusted input: every
 * length, count and index is checked against what remains and what came
 * before, every block's CRC-32 is verified, and a file cut inside a block
 * loads up to the last complete block (docs/format.md).
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

/* Growable arrays of windows and wasted records per source. */
struct rstate {
	struct lc_profile *prof;
	size_t wcap[LC_NSRC];
	struct lc_prof_wasted *wasted;	/* wasted and move records */
	size_t nwasted, wastedcap;
	struct lc_prof_counts *counts;
	size_t ncounts, countscap;
	size_t pcap, tcap, rcap;
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

static void getacct(struct cur *c, struct lc_acct *a)
{
	uint64_t v[14];

	getmasked(c, v, 14, LC_PF_M_ACCT);
	memcpy(a->cat, v, sizeof(a->cat));
	a->li_qempty = v[LC_PF_M_QEMPTY];
	a->t_we = v[LC_PF_M_TWE];
	a->n_we = v[LC_PF_M_NWE];
	a->t_nwe = v[LC_PF_M_TNWE];
	a->n_nwe = v[LC_PF_M_NNWE];
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

static int parse_info(struct rstate *s, struct cur *c)
{
	struct lc_prof_info *in = &s->prof->info;
	int oom = 0, ncat;

	in->start_realtime_ns = get64(c);
	in->t0_ns = get64(c);
	in->interval_ns = get64(c);
	in->window_ns = get64(c);
	in->procs_option = get32(c);
	in->sampler_cpu = (int32_t)get32(c);
	in->sched_fifo = get32(c);
	in->unavailable = get32(c) & ((1u << LC_NCAT) - 1);
	ncat = get8(c);
	for (int i = 0; i < ncat && !c->why; i++) {
		char *r = getstr(c, &oom);

		if (i < LC_NCAT)
			in->reason[i] = r;
		else
			free(r);
	}
	in->hostname = getstr(c, &oom);
	in->command = getstr(c, &oom);
	in->session = getstr(c, &oom);
	s->have_info = 1;
	return oom ? -ENOMEM : 0;
}

static int parse_process(struct rstate *s, struct cur *c)
{
	struct lc_profile *pr = s->prof;
	struct lc_prof_process p = { 0 };
	int oom = 0;

	p.pid = (int32_t)get32(c);
	p.attach_ns = get64(c);
	p.comm = getstr(c, &oom);
	if (c->why ||
	    lc_grow((void **)&pr->processes, &s->pcap, (size_t)pr->nprocesses + 1, sizeof(p))) {
		free(p.comm);
		return oom || !c->why ? -ENOMEM : 0;
	}
	pr->processes[pr->nprocesses++] = p;
	return 0;
}

/* A rank block (minor 1): the job identity of a process. */
static int parse_rank(struct rstate *s, struct cur *c)
{
	struct lc_profile *pr = s->prof;
	struct lc_prof_rank r = { 0 };
	int oom = 0;

	r.pid = (int32_t)get32(c);
	r.rank = (int32_t)get32(c);
	r.size = get32(c);
	r.flags = get32(c);
	r.clock_offset_ns = (int64_t)get64(c);
	r.job_id = get64(c);
	r.host = getstr(c, &oom);
	if (!c->why && (r.rank < 0 || (uint32_t)r.rank >= r.size))
		bad(c, "rank outside the job's size");
	if (c->why ||
	    lc_grow((void **)&pr->ranks, &s->rcap, (size_t)pr->nranks + 1, sizeof(r))) {
		free(r.host);
		return oom || !c->why ? -ENOMEM : 0;
	}
	pr->ranks[pr->nranks++] = r;
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

	t.idx = get32(c);
	t.pid = (int32_t)get32(c);
	t.tid = (int32_t)get32(c);
	t.slot = get32(c);
	t.first_ns = get64(c);
	if (c->why)
		return 0;
	if (t.idx != pr->nthreads)
		return bad(c, "thread index out of order");
	if (lc_grow((void **)&pr->threads, &s->tcap, (size_t)pr->nthreads + 1, sizeof(t)))
		return -ENOMEM;
	pr->threads[pr->nthreads++] = t;
	return 0;
}

static void free_window(struct lc_prof_window *w)
{
	free(w->threads);
	free(w->tags);
}

/* The rows of a window; rows must name threads declared earlier. */
static int parse_rows(struct rstate *s, struct cur *c, struct lc_prof_window *w)
{
	w->nthreads = getcount(c, 6);
	if (w->nthreads && !c->why) {
		w->threads = calloc(w->nthreads, sizeof(*w->threads));
		if (!w->threads)
			return -ENOMEM;
	}
	for (uint32_t i = 0; i < w->nthreads && !c->why; i++) {
		struct lc_prof_trow *r = &w->threads[i];
		uint64_t v[10];

		r->thread = get32(c);
		if (!c->why && r->thread >= s->prof->nthreads)
			return bad(c, "row names an undeclared thread");
		getmasked(c, v, 10, LC_PF_M_TROW);
		memcpy(r->cat, v, sizeof(r->cat));
		r->li_qempty = v[LC_PF_M_QEMPTY];
	}
	w->ntags = getcount(c, 10);
	if (w->ntags && !c->why) {
		w->tags = calloc(w->ntags, sizeof(*w->tags));
		if (!w->tags)
			return -ENOMEM;
	}
	for (uint32_t i = 0; i < w->ntags && !c->why; i++) {
		w->tags[i].tag = (int64_t)get64(c);
		getacct(c, &w->tags[i].acct);
	}
	return 0;
}

static int parse_window(struct rstate *s, struct cur *c)
{
	struct lc_prof_window w = { 0 };
	struct lc_prof_data *d;
	int r;

	w.source = get8(c);
	w.index = get32(c);
	w.start_ns = get64(c);
	w.ticks = get32(c);
	w.max_n = get32(c);
	w.team = get32(c);
	getacct(c, &w.acct);
	r = parse_rows(s, c, &w);
	w.len_ns = s->prof->info.window_ns;
	w.nmerged = 1;
	if (r || c->why || w.source >= LC_NSRC)	/* unknown sources are skipped */
		goto out;
	d = &s->prof->data[w.source];
	if (d->nwindows && w.index <= d->windows[d->nwindows - 1].index) {
		bad(c, "window index out of order");
		goto out;
	}
	r = lc_grow((void **)&d->windows, &s->wcap[w.source], (size_t)d->nwindows + 1, sizeof(w));
	if (r)
		goto out;
	d->windows[d->nwindows++] = w;
	return 0;
out:
	free_window(&w);
	return r;
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

/* Keep a parsed wasted or move record (its tags are handed over). */
static int keep_move(struct rstate *s, struct lc_prof_wasted *x)
{
	if (lc_grow((void **)&s->wasted, &s->wastedcap, s->nwasted + 1, sizeof(*x))) {
		free(x->tags);
		return -ENOMEM;
	}
	s->wasted[s->nwasted++] = *x;
	return 0;
}

static int parse_wasted(struct rstate *s, struct cur *c)
{
	struct lc_prof_wasted x = { .from = LC_CAT_PC, .to = LC_CAT_WC };

	x.source = get8(c);
	x.window = get32(c);
	x.thread = get32(c);
	x.ns = get64(c);
	x.task = get64(c);
	x.ntags = getcount(c, 8);
	if (c->why)
		return 0;
	if (x.thread >= s->prof->nthreads)
		return bad(c, "wasted time of an undeclared thread");
	if (get_tags(c, x.ntags, &x.tags))
		return -ENOMEM;
	return keep_move(s, &x);
}

static int parse_move(struct rstate *s, struct cur *c)
{
	struct lc_prof_wasted x = { 0 };

	x.source = get8(c);
	x.window = get32(c);
	x.thread = get32(c);
	x.from = get8(c);
	x.to = get8(c);
	x.ns = get64(c);
	x.ntags = getcount(c, 8);
	if (c->why)
		return 0;
	if (x.thread >= s->prof->nthreads)
		return bad(c, "moved time of an undeclared thread");
	if (x.from >= LC_NCAT || x.to >= LC_NCAT)
		return bad(c, "move names an unknown category");
	if (get_tags(c, x.ntags, &x.tags))
		return -ENOMEM;
	return keep_move(s, &x);
}

/* Free the sync records of a profile. */
static void free_sync(struct lc_profile *pr)
{
	for (uint32_t i = 0; i < pr->nsync; i++)
		free(pr->sync[i].name);
	free(pr->sync);
	pr->sync = NULL;
	pr->nsync = 0;
}

/* A sync block replaces the records of its source read so far. */
static int parse_sync(struct rstate *s, struct cur *c)
{
	struct lc_profile *pr = s->prof;
	uint8_t src = get8(c);
	uint32_t n = getcount(c, 24), k = 0;
	struct lc_prof_sync *all;
	int oom = 0;

	if (c->why || src >= LC_NSRC)
		return 0;
	all = calloc((size_t)pr->nsync + n + 1, sizeof(*all));
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
	for (uint32_t i = 0; i < n && !c->why; i++) {
		struct lc_prof_sync *y = &pr->sync[pr->nsync];

		y->source = src;
		y->pid = (int32_t)get32(c);
		y->obj = get64(c);
		y->ns = get64(c);
		y->name = getstr(c, &oom);
		if (!c->why)
			pr->nsync++;
	}
	return oom ? -ENOMEM : 0;
}

static int parse_events(struct rstate *s, struct cur *c)
{
	struct lc_profile *pr = s->prof;
	uint32_t n = getcount(c, 8);
	int oom = 0;

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
	for (uint32_t i = 0; i < n && !c->why; i++) {
		pr->events[i].role = get32(c);
		pr->events[i].name = getstr(c, &oom);
		if (pr->events[i].role >= LC_EVR_NROLES)
			pr->events[i].role = LC_EVR_OTHER;
	}
	return oom ? -ENOMEM : 0;
}

static int parse_counts(struct rstate *s, struct cur *c)
{
	struct lc_prof_counts x = { 0 };

	x.source = get8(c);
	x.window = get32(c);
	x.thread = get32(c);
	x.ntags = getcount(c, 8);
	if (c->why)
		return 0;
	if (x.thread >= s->prof->nthreads)
		return bad(c, "counts of an undeclared thread");
	if (get_tags(c, x.ntags, &x.tags))
		return -ENOMEM;
	x.nev = get32(c);
	if (!c->why && (x.nev != s->prof->nevents || !s->prof->events)) {
		free(x.tags);
		return bad(c, "counts that do not match the events block");
	}
	for (uint32_t i = 0; i < x.nev; i++)
		x.v[i] = get64(c);
	if (c->why || lc_grow((void **)&s->counts, &s->countscap, s->ncounts + 1, sizeof(x))) {
		free(x.tags);
		return c->why ? 0 : -ENOMEM;
	}
	s->counts[s->ncounts++] = x;
	return 0;
}

/* The appended fields of an end block (format minor 2), when present. */
static void parse_end_ext(struct cur *c, struct lc_prof_end *e, int *oom)
{
	int n;

	if (c->why || c->off == c->n)
		return;
	e->sampler_cpu_ns = get64(c);
	e->max_gap_at_ns = get64(c);
	e->missed_ticks = get64(c);
	e->sched_source = get32(c);
	e->shared_cpu = (int32_t)get32(c);
	e->unavailable = get32(c) & ((1u << LC_NCAT) - 1);
	for (int k = 0; k < 2; k++) {
		char **dst = k ? e->method : e->reason_na;

		n = get8(c);
		for (int i = 0; i < n && !c->why; i++) {
			char *r = getstr(c, oom);

			if (i < LC_NCAT) {
				free(dst[i]);
				dst[i] = r;
			} else {
				free(r);
			}
		}
	}
	e->ncpus = get32(c);
	if (!c->why)
		e->ext = 1;
}

static int parse_end(struct rstate *s, struct cur *c)
{
	struct lc_prof_end *e = &s->prof->end;
	int oom = 0;

	free(e->reason);	/* a second end block replaces the first */
	e->end_ns = get64(c);
	e->procs = get32(c);
	e->procs_from = get32(c);
	e->exit_status = (int32_t)get32(c);
	e->ticks = get32(c);
	e->max_gap_ns = get64(c);
	e->wasted_lost = get64(c);
	e->bad_reads = get64(c);
	e->reason = getstr(c, &oom);
	parse_end_ext(c, e, &oom);
	if (!c->why)
		s->prof->ended = 1;
	return oom ? -ENOMEM : 0;
}

/* Parse one verified payload; 0, -ENOMEM, or 0 with c->why set. */
static int parse_block(struct rstate *s, uint16_t type, struct cur *c)
{
	if (!s->have_info && type != LC_PF_INFO)
		return bad(c, "the first block is not the info block");
	switch (type) {
	case LC_PF_INFO:
		if (s->have_info)
			return bad(c, "second info block");
		return parse_info(s, c);
	case LC_PF_PROCESS:
		return parse_process(s, c);
	case LC_PF_THREAD:
		return parse_thread(s, c);
	case LC_PF_WINDOW:
		return parse_window(s, c);
	case LC_PF_WASTED:
		return parse_wasted(s, c);
	case LC_PF_END:
		return parse_end(s, c);
	case LC_PF_RANK:
		return parse_rank(s, c);
	case LC_PF_MOVE:
		return parse_move(s, c);
	case LC_PF_EVENTS:
		return parse_events(s, c);
	case LC_PF_COUNTS:
		return parse_counts(s, c);
	case LC_PF_SYNC:
		return parse_sync(s, c);
	default:
		return 0;	/* a newer minor version's block: skip it */
	}
}

/* The window of d with the given index, or NULL. */
static struct lc_prof_window *find_window(struct lc_prof_data *d, uint32_t index)
{
	size_t lo = 0, hi = d->nwindows;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->windows[mid].index == index)
			return &d->windows[mid];
		if (d->windows[mid].index < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Move up to ns from category `from` to `to` in cat[]. */
static void move_cat(uint64_t cat[LC_NCAT], const struct lc_prof_wasted *x)
{
	uint64_t m = x->ns < cat[x->from] ? x->ns : cat[x->from];

	cat[x->from] -= m;
	cat[x->to] += m;
}

/* Apply one wasted or move record to its window, thread row and tag rows;
 * records naming a window the file does not hold (cut) are dropped. */
static void apply_wasted(struct lc_profile *pr, const struct lc_prof_wasted *x)
{
	struct lc_prof_window *w;

	if (x->source >= LC_NSRC)
		return;
	w = find_window(&pr->data[x->source], x->window);
	if (!w)
		return;
	move_cat(w->acct.cat, x);
	for (uint32_t i = 0; i < w->nthreads; i++)
		if (w->threads[i].thread == x->thread) {
			move_cat(w->threads[i].cat, x);
			break;
		}
	for (uint32_t k = 0; k < x->ntags; k++)
		for (uint32_t i = 0; i < w->ntags; i++)
			if (w->tags[i].tag == x->tags[k]) {
				move_cat(w->tags[i].acct.cat, x);
				break;
			}
}

/* Add one counts record to its source's totals per window, thread and tag
 * (the per-tag arrays exist once tag_totals has run). */
static void apply_counts(struct lc_profile *pr, const struct lc_prof_counts *x)
{
	struct lc_prof_data *d;
	struct lc_prof_window *w;
	uint32_t ne = pr->nevents;

	if (x->source >= LC_NSRC)
		return;
	d = &pr->data[x->source];
	w = find_window(d, x->window);
	if (!w || !d->ev_window)
		return;
	for (uint32_t e = 0; e < ne; e++) {
		d->ev_total[e] += x->v[e];
		d->ev_window[(size_t)(w - d->windows) * ne + e] += x->v[e];
		if (x->thread < d->nthreads)
			d->ev_thread[(size_t)x->thread * ne + e] += x->v[e];
	}
	for (uint32_t k = 0; k < x->ntags; k++)
		for (uint32_t i = 0; i < d->ntags; i++)
			if (d->tags[i].tag == x->tags[k]) {
				for (uint32_t e = 0; e < ne; e++)
					d->ev_tag[(size_t)i * ne + e] += x->v[e];
				break;
			}
}

/* The counter arrays of every present source, then the counts added. */
static int counter_totals(struct rstate *s)
{
	struct lc_profile *pr = s->prof;
	size_t ne = pr->nevents;

	if (!ne)
		return 0;
	for (int k = 0; k < LC_NSRC; k++) {
		struct lc_prof_data *d = &pr->data[k];

		if (!d->present)
			continue;
		d->ev_window = calloc((size_t)d->nwindows * ne, sizeof(uint64_t));
		d->ev_thread = calloc(((size_t)d->nthreads + 1) * ne, sizeof(uint64_t));
		d->ev_tag = calloc(((size_t)d->ntags + 1) * ne, sizeof(uint64_t));
		if (!d->ev_window || !d->ev_thread || !d->ev_tag)
			return -ENOMEM;
	}
	for (size_t i = 0; i < s->ncounts; i++)
		apply_counts(pr, &s->counts[i]);
	return 0;
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

static int cmp_tag(const void *a, const void *b)
{
	int64_t x = ((const struct lc_prof_tagrow *)a)->tag;
	int64_t y = ((const struct lc_prof_tagrow *)b)->tag;

	return (x > y) - (x < y);
}

/* Per-tag totals of d: all tag rows, sorted and merged. */
static int tag_totals(struct lc_prof_data *d)
{
	size_t n = 0, k = 0;

	for (uint32_t i = 0; i < d->nwindows; i++)
		n += d->windows[i].ntags;
	if (!n)
		return 0;
	d->tags = calloc(n, sizeof(*d->tags));
	if (!d->tags)
		return -ENOMEM;
	for (uint32_t i = 0; i < d->nwindows; i++)
		for (uint32_t j = 0; j < d->windows[i].ntags; j++)
			d->tags[k++] = d->windows[i].tags[j];
	qsort(d->tags, n, sizeof(*d->tags), cmp_tag);
	k = 0;
	for (size_t i = 1; i < n; i++) {
		if (d->tags[i].tag == d->tags[k].tag)
			lc_acct_add(&d->tags[k].acct, &d->tags[i].acct);
		else
			d->tags[++k] = d->tags[i];
	}
	d->ntags = (uint32_t)(k + 1);
	return 0;
}

/* Totals of one source: whole, per thread, per tag. */
static int totals(struct lc_profile *pr, struct lc_prof_data *d)
{
	d->present = d->nwindows > 0;
	if (!d->present)
		return 0;
	if (pr->nthreads) {
		d->threads = calloc(pr->nthreads, sizeof(*d->threads));
		if (!d->threads)
			return -ENOMEM;
		d->nthreads = pr->nthreads;
		for (uint32_t i = 0; i < pr->nthreads; i++)
			d->threads[i].thread = i;
	}
	for (uint32_t i = 0; i < d->nwindows; i++) {
		const struct lc_prof_window *w = &d->windows[i];

		lc_acct_add(&d->total, &w->acct);
		if (w->max_n > d->max_n)
			d->max_n = w->max_n;
		if (w->team > d->team)
			d->team = w->team;
		for (uint32_t j = 0; j < w->nthreads; j++) {
			struct lc_prof_trow *t = &d->threads[w->threads[j].thread];

			for (int c = 0; c < LC_NCAT; c++)
				t->cat[c] += w->threads[j].cat[c];
			t->li_qempty += w->threads[j].li_qempty;
		}
	}
	return tag_totals(d);
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

/* Read all of fd into a new buffer, checking the magic as soon as its 8
 * bytes are in (so /dev/zero or a large foreign file is refused after the
 * first read).  0, -EINVAL when the magic is wrong, or -errno. */
static int slurp(int fd, uint8_t **out, size_t *len)
{
	size_t n = 0, cap = 0;
	uint8_t *buf = NULL;
	struct stat st;

	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
		cap = (size_t)st.st_size + 1;
	for (;;) {
		ssize_t r;

		if (n == cap) {
			uint8_t *p = realloc(buf, cap ? cap * 2 : 65536);

			if (!p) {
				free(buf);
				return -ENOMEM;
			}
			buf = p;
			cap = cap ? cap * 2 : 65536;
		} else if (!buf) {
			buf = malloc(cap);
			if (!buf)
				return -ENOMEM;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = -errno;

			free(buf);
			return e;
		}
		if (r == 0)
			break;
		if (n < 8 && !magic_ok(buf, n + (size_t)r)) {
			free(buf);
			return -EINVAL;
		}
		n += (size_t)r;
	}
	*out = buf;
	*len = n;
	return 0;
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
					      "events", "counts", "sync" };

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "unknown";
}

/* Walk the blocks of b[0..n) from off.  Returns 0 or a negative error. */
static int read_blocks(struct rstate *s, const uint8_t *b, size_t n, size_t off,
		       char *err, size_t errlen)
{
	struct lc_profile *pr = s->prof;

	pr->cut_offset = off;
	while (off < n) {
		size_t rest = n - off;
		uint16_t type;
		uint32_t len;
		struct cur c;
		int r;

		if (rest < LC_PF_BLK_HDR + LC_PF_BLK_CRC)
			break;
		type = lc_pf_get16(b + off);
		len = lc_pf_get32(b + off + 4);
		if (len > LC_PF_BLK_MAX || len > rest - LC_PF_BLK_HDR - LC_PF_BLK_CRC)
			break;
		if (lc_pf_get32(b + off + LC_PF_BLK_HDR + len) !=
		    lc_crc32(0, b + off, LC_PF_BLK_HDR + len))
			break;
		c = (struct cur){ .p = b + off + LC_PF_BLK_HDR, .n = len };
		r = parse_block(s, type, &c);
		if (r == -ENOMEM)
			return lc_fail(err, errlen, r, "out of memory");
		if (c.why)
			return lc_fail(err, errlen, -EBADMSG, "corrupt %s block at byte %zu: %s",
				    block_name(type), off, c.why);
		off += LC_PF_BLK_HDR + len + LC_PF_BLK_CRC;
		pr->cut_offset = off;
	}
	if (!s->have_info)
		return lc_fail(err, errlen, -ENODATA, "no complete block");
	pr->cut = off < n || !pr->ended;
	return 0;
}

/* Apply wasted records, compute totals and p. */
static int settle(struct rstate *s)
{
	struct lc_profile *pr = s->prof;

	for (size_t i = 0; i < s->nwasted; i++)
		apply_wasted(pr, &s->wasted[i]);
	for (int k = 0; k < LC_NSRC; k++)
		if (totals(pr, &pr->data[k]))
			return -ENOMEM;
	if (counter_totals(s))
		return -ENOMEM;
	adopt_end(pr);
	choose_procs(pr);
	return 0;
}

/* Parse the profile in buf[0..n).  See lc_profile.h. */
int lc_profile_parse(const void *buf, size_t n, struct lc_profile **out, char *err,
		     size_t errlen)
{
	struct rstate s = { 0 };
	long hsize;
	int r;

	*out = NULL;
	s.prof = calloc(1, sizeof(*s.prof));
	if (!s.prof)
		return lc_fail(err, errlen, -ENOMEM, "out of memory");
	hsize = check_header(buf, n, err, errlen);
	if (hsize < 0) {
		r = (int)hsize;
		goto out;
	}
	s.prof->version = lc_pf_get16((const uint8_t *)buf + 8);
	r = read_blocks(&s, buf, n, (size_t)hsize, err, errlen);
	if (!r && settle(&s))
		r = lc_fail(err, errlen, -ENOMEM, "out of memory");
out:
	for (size_t i = 0; i < s.nwasted; i++)
		free(s.wasted[i].tags);
	free(s.wasted);
	for (size_t i = 0; i < s.ncounts; i++)
		free(s.counts[i].tags);
	free(s.counts);
	if (r) {
		lc_profile_free(s.prof);
		return r;
	}
	*out = s.prof;
	return 0;
}

int lc_profile_read(const char *path, struct lc_profile **out, char *err, size_t errlen)
{
	uint8_t *buf = NULL;
	size_t n = 0;
	int fd, r;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return lc_fail(err, errlen, -errno, "%s", strerror(errno));
	r = slurp(fd, &buf, &n);
	close(fd);
	if (r)
		return lc_fail(err, errlen, r, "%s", r == -EINVAL ? "not a lostcycles profile" :
			       strerror(-r));
	r = lc_profile_parse(buf, n, out, err, errlen);
	free(buf);
	return r;
}

int lc_profile_read_opts(const char *path, const struct lc_read_opts *o,
			 struct lc_profile **out, char *err, size_t errlen)
{
	(void)o;
	return lc_profile_read(path, out, err, errlen);
}

void lc_profile_free(struct lc_profile *prof)
{
	if (!prof)
		return;
	for (int c = 0; c < LC_NCAT; c++)
		free(prof->info.reason[c]);
	free(prof->info.hostname);
	free(prof->info.command);
	free(prof->info.session);
	for (uint32_t i = 0; i < prof->nprocesses; i++)
		free(prof->processes[i].comm);
	free(prof->processes);
	for (uint32_t i = 0; i < prof->nranks; i++)
		free(prof->ranks[i].host);
	free(prof->ranks);
	free(prof->threads);
	for (int s = 0; s < LC_NSRC; s++) {
		struct lc_prof_data *d = &prof->data[s];

		for (uint32_t i = 0; i < d->nwindows; i++)
			free_window(&d->windows[i]);
		free(d->windows);
		free(d->threads);
		free(d->tags);
		free(d->ev_window);
		free(d->ev_thread);
		free(d->ev_tag);
	}
	for (uint32_t i = 0; i < prof->nevents; i++)
		free(prof->events[i].name);
	free(prof->events);
	free_sync(prof);
	for (int c = 0; c < LC_NCAT; c++) {
		free(prof->end.reason_na[c]);
		free(prof->end.method[c]);
	}
	free(prof->end.reason);
	free(prof);
}
