/*
 * process.c — process-wide predicates: the work_exists counter, the
 * solution-found flag, the team size and the fragment tag table.  Without a
 * session they return at once.  In trace mode each one is done and logged
 * under plock, so the counts in the trace follow the order of the records.
 * Also lc_version().
 */
#include "lc_internal.h"

/* Add d (+1 or -1) to work_exists, never going below 0.  Returns the new
 * count, or -1 if nothing changed. */
static int64_t work_add(struct lc_seg_hdr *h, int d)
{
	int64_t old = __atomic_load_n(&h->work_exists, __ATOMIC_RELAXED);

	do {
		if (d < 0 && old <= 0)
			return -1;
	} while (!__atomic_compare_exchange_n(&h->work_exists, &old, old + d, 0,
					      __ATOMIC_RELEASE, __ATOMIC_RELAXED));
	return old + d;
}

/* Take plock; returns the time to log a change under it with in trace
 * mode (0 otherwise). */
static uint64_t plock_take(void)
{
	pthread_mutex_lock(&lc_priv_g.plock);
	return lc_priv_g.trace ? lc_clock_ns() : 0;
}

/* Log op with arg at now in trace mode if the change was done, then
 * release plock. */
static void plock_drop(uint64_t now, int done, uint16_t op, uint64_t arg)
{
	if (done && lc_priv_g.trace)
		lc_priv_trace_log(now, op, LC_NO_SLOT, arg);
	pthread_mutex_unlock(&lc_priv_g.plock);
}

/* Add d to work_exists (LC_PARALLEL_BEGIN / _END, and the automatic
 * layers through lc_auto_parallel). */
void lc_priv_parallel(int d)
{
	struct lc_seg_hdr *h = lc_priv_segment();
	uint64_t now;
	int64_t n;

	if (!h || !lc_priv_g.trace) {
		if (h)
			work_add(h, d);
		return;
	}
	now = plock_take();
	n = work_add(h, d);
	plock_drop(now, n >= 0, LC_OP_PARALLEL, (uint64_t)n);
}

LC_API void lc_parallel_begin(void)
{
	lc_priv_auto_program_parallel();
	lc_priv_parallel(1);
}

LC_API void lc_parallel_end(void)
{
	lc_priv_auto_program_parallel();
	lc_priv_parallel(-1);
}

/* Store v into *field (release) and log op with arg v in trace mode. */
static void set_u32(uint32_t *field, uint16_t op, uint32_t v)
{
	uint64_t now;

	if (!lc_priv_g.trace) {
		__atomic_store_n(field, v, __ATOMIC_RELEASE);
		return;
	}
	now = plock_take();
	__atomic_store_n(field, v, __ATOMIC_RELEASE);
	plock_drop(now, 1, op, v);
}

LC_API void lc_solution_found(void)
{
	lc_priv_init();
	if (lc_priv_g.hdr)
		set_u32(&lc_priv_g.hdr->solution_found, LC_OP_SOLUTION, 1);
}

/* Store the team size p (LC_TEAM, and the layers through lc_auto_team). */
void lc_priv_team_set(uint32_t p)
{
	lc_priv_init();
	if (lc_priv_g.hdr)
		set_u32(&lc_priv_g.hdr->team, LC_OP_TEAM, p);
}

LC_API void lc_team(uint32_t p)
{
	lc_priv_auto_program_team();
	lc_priv_team_set(p);
}

/* Seqlock writer, step 1: make tag_seq odd before changing the table.
 * Returns the (even) value it had. */
static uint32_t seq_begin(struct lc_seg_hdr *h)
{
	uint32_t s = __atomic_load_n(&h->tag_seq, __ATOMIC_RELAXED);

	__atomic_store_n(&h->tag_seq, s + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	return s;
}

/* Seqlock writer, step 2: make tag_seq even again, publishing the change. */
static void seq_end(struct lc_seg_hdr *h, uint32_t s)
{
	__atomic_store_n(&h->tag_seq, s + 2, __ATOMIC_RELEASE);
}

/* The index of tag in the table, or -1 (caller holds plock). */
static int tag_find(const struct lc_seg_hdr *h, int64_t tag)
{
	uint32_t i;

	for (i = 0; i < h->ntags; i++)
		if (h->tags[i].tag == tag)
			return (int)i;
	return -1;
}

/* Open tag (one level deeper if already open).  Returns 0, or -1 when the
 * table is full (counted in tags_full).  Caller holds plock. */
static int tag_open(struct lc_seg_hdr *h, int64_t tag)
{
	int i = tag_find(h, tag);
	uint32_t s, n = h->ntags;

	if (i < 0 && n >= LC_MAX_TAGS) {
		__atomic_fetch_add(&h->tags_full, 1, __ATOMIC_RELAXED);
		return -1;
	}
	s = seq_begin(h);
	if (i >= 0) {
		__atomic_store_n(&h->tags[i].depth, h->tags[i].depth + 1, __ATOMIC_RELAXED);
	} else {
		__atomic_store_n(&h->tags[n].tag, tag, __ATOMIC_RELAXED);
		__atomic_store_n(&h->tags[n].depth, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&h->ntags, n + 1, __ATOMIC_RELAXED);
	}
	seq_end(h, s);
	return 0;
}

/* Close one level of tag; the last level removes its entry (the last entry
 * moves into its place).  Returns 0, or -1 when tag is not open.  Caller
 * holds plock. */
static int tag_close(struct lc_seg_hdr *h, int64_t tag)
{
	int i = tag_find(h, tag);
	uint32_t s, last;

	if (i < 0)
		return -1;
	s = seq_begin(h);
	if (h->tags[i].depth > 1) {
		__atomic_store_n(&h->tags[i].depth, h->tags[i].depth - 1, __ATOMIC_RELAXED);
	} else {
		last = h->ntags - 1;
		__atomic_store_n(&h->tags[i].tag, h->tags[last].tag, __ATOMIC_RELAXED);
		__atomic_store_n(&h->tags[i].depth, h->tags[last].depth, __ATOMIC_RELAXED);
		__atomic_store_n(&h->tags[last].tag, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&h->tags[last].depth, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&h->ntags, last, __ATOMIC_RELAXED);
	}
	seq_end(h, s);
	return 0;
}

/* LC_FRAGMENT_BEGIN / _END: change the table under plock, log in trace
 * mode what was accepted. */
static void fragment(int64_t tag, int open)
{
	struct lc_seg_hdr *h = lc_priv_segment();
	uint64_t now;
	int r;

	if (!h)
		return;
	now = plock_take();
	r = open ? tag_open(h, tag) : tag_close(h, tag);
	plock_drop(now, r == 0, open ? LC_OP_FRAGMENT_BEGIN : LC_OP_FRAGMENT_END, (uint64_t)tag);
}

LC_API void lc_fragment_begin(int64_t tag)
{
	fragment(tag, 1);
}

LC_API void lc_fragment_end(int64_t tag)
{
	fragment(tag, 0);
}

#define LC_STR_(x) #x
#define LC_STR(x) LC_STR_(x)

/* The library's version, from the header it was built with. */
LC_API const char *lc_version(void)
{
	return LC_STR(LC_VERSION_MAJOR) "." LC_STR(LC_VERSION_MINOR) "." LC_STR(LC_VERSION_PATCH);
}
