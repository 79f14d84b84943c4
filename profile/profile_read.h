/*
 * profile_read.h — what the files of the profile reader share (private:
 * not part of lc_profile.h).  profile_read.c is the driver: the header,
 * the blocks in order, the public functions.  Each profile_read_*.c holds
 * one section; the names they share carry the prefix lc_rd_.
 */
#ifndef LC_PROFILE_READ_H
#define LC_PROFILE_READ_H

#include "lc_profile.h"
#include "profile_format.h"

#include <stddef.h>
#include <stdint.h>

/* A cursor over one payload; why is set by the first read past its end or
 * the first invalid value, to the reason (see lc_rd_bad()). */
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

/* ---- profile_read_cur.c ---- */

/* Note the first reason the payload is invalid; returns 0 so that readers
 * can "return bad(...)" from a step that failed. */
int lc_rd_bad(struct cur *c, const char *why);

uint8_t lc_rd_get8(struct cur *c);

uint32_t lc_rd_get32(struct cur *c);

uint64_t lc_rd_get64(struct cur *c);

/* Up to nbits masked values into v[] (zero where the mask bit is clear,
 * and every one when the mask is refused). */
void lc_rd_getmasked(struct cur *c, uint64_t *v, int nbits, unsigned allowed);

void lc_rd_getacct(struct cur *c, struct lc_acct *a);

/* A count of items of at least min bytes each, capped by what remains. */
uint32_t lc_rd_getcount(struct cur *c, size_t min);

/* An unsigned LEB128 varint of at most LC_PF_VARINT_MAX bytes.  The
 * encoding of a value is unique: a varint that ends in a zero byte (other
 * than 0 itself), runs past 10 bytes or past 64 bits is corrupt. */
uint64_t lc_rd_getuv(struct cur *c);

/* A varint that must fit a u32. */
uint32_t lc_rd_getuv32(struct cur *c);

/* A varint count of items of at least min bytes each, capped by what
 * remains (checked before anything is allocated for them). */
uint32_t lc_rd_getvcount(struct cur *c, size_t min);

/* Up to nbits values after a varint mask, as varints, into v[] in the
 * fixed-width field order (the mask's bits follow lc_pf_vorder); all zero
 * when the mask is refused. */
void lc_rd_getvmasked(struct cur *c, uint64_t *v, int nbits, unsigned allowed);

void lc_rd_getvacct(struct cur *c, struct lc_acct *a);

/* The fields of layout l into record rec (profile_format.h); a string
 * field's old value is not freed.  oom as getstr's (NULL: ENOMEM is only
 * c->why). */
void lc_rd_get_fields(struct cur *c, void *rec, const struct lc_pf_layout *l, int *oom);

/* n rows of layout l into the array rows (size bytes a row) from row
 * *count on, counting each row read whole.  0 or -ENOMEM. */
int lc_rd_get_rows(struct cur *c, void *rows, size_t size, uint32_t n, uint32_t *count,
		   const struct lc_pf_layout *l);

/* A list of n tags into a new array *out (NULL for none). */
int lc_rd_get_tags(struct cur *c, uint32_t n, int64_t **out);

/* ---- profile_read_records.c ---- */

/* The reader of a block type (lc_rd_parse_*, the table of profile_read.c):
 * 0, -ENOMEM, or 0 with c->why set when the payload is invalid.  X(TYPE,
 * NAME): lc_rd_parse_NAME reads blocks of type TYPE; each is defined, with
 * what it reads, in the file of its section. */
#define LC_RD_PARSERS(X) \
	X(LC_PF_INFO, info) \
	X(LC_PF_PROCESS, process) \
	X(LC_PF_THREAD, thread) \
	X(LC_PF_WINDOW, window) \
	X(LC_PF_WASTED, wasted) \
	X(LC_PF_END, end) \
	X(LC_PF_RANK, rank) \
	X(LC_PF_MOVE, move) \
	X(LC_PF_EVENTS, events) \
	X(LC_PF_COUNTS, counts) \
	X(LC_PF_SYNC, sync) \
	X(LC_PF_VWINDOW, vwindow) \
	X(LC_PF_MACHINE, machine) \
	X(LC_PF_PLACES, places) \
	X(LC_PF_MODULE, module) \
	X(LC_PF_PLACE_NAMES, place_names)

#define LC_RD_PARSER_DECL_(type, name) int lc_rd_parse_##name(struct rstate *s, struct cur *c);
LC_RD_PARSERS(LC_RD_PARSER_DECL_)
#undef LC_RD_PARSER_DECL_

/* Free what a module record holds. */
void lc_rd_free_module(void *row);

/* Free the names of place words of a profile. */
void lc_rd_free_place_names(struct lc_profile *pr);

/* ---- profile_read_window.c ---- */

void lc_rd_free_window(void *row);

/* The per-thread totals of d cover every declared thread. */
int lc_rd_fit_threads(struct rstate *s, struct lc_prof_data *d, struct srcst *ss);

/* The counter arrays of d, once there are counters, cover its windows,
 * threads and tags (one spare row each, as readers have always had). */
int lc_rd_fit_counters(struct rstate *s, struct lc_prof_data *d, struct srcst *ss);

/* The per-tag total of tag, or NULL. */
struct lc_prof_tagrow *lc_rd_tag_total(struct lc_prof_data *d, int64_t tag);

/* A window's part of the totals of its source: whole, per thread, per tag. */
int lc_rd_add_totals(struct rstate *s, struct lc_prof_data *d, struct srcst *ss,
		     const struct lc_prof_window *w);

/* ---- profile_read_held.c ---- */

/* The row of thread t in w (the first, as corrections have always found
 * it), or NULL. */
struct lc_prof_trow *lc_rd_find_row(struct lc_prof_window *w, uint32_t t);

struct lc_prof_tagrow *lc_rd_find_tagrow(struct lc_prof_window *w, int64_t tag);

/* Hold window w: as it is (every row: the default), or without its rows,
 * or merged into the last held window while that holds fewer than
 * `factor` file windows; when max_windows are held, they are merged
 * pairwise first so that they stay evenly spaced. */
int lc_rd_hold(struct rstate *s, struct lc_prof_data *d, struct srcst *ss,
	       const struct lc_prof_window *w);

/* A parsed window: checked against the previous one of its source, added
 * to the totals, held, and (lean) kept in the ring. */
int lc_rd_commit_window(struct rstate *s, struct cur *c, struct lc_prof_window *w);

/* ---- profile_read_fix.c ---- */

/* File window x as it was read, with the corrections so far: the held
 * window itself when every window is held whole, else its copy in the ring.
 * Returns 0 with *exact set (NULL: x is older than the ring), or -1 when
 * the file holds no window x (or none has been read yet). */
int lc_rd_locate(struct rstate *s, uint8_t src, uint32_t x, struct lc_prof_window **held,
		 struct lc_prof_window **exact);

/* Move up to want from category from to category to in cat[]; returns
 * what moved (never more than cat[from] held). */
uint64_t lc_rd_shift(uint64_t cat[LC_NCAT], const struct lc_prof_wasted *x, uint64_t want);

/* ---- profile_read_places.c ---- */

/* n place rows of window x of source src into s->pext (c->why on error). */
int lc_rd_get_place_rows(struct rstate *s, struct cur *c, uint8_t src, uint32_t x);

/* The rows in s->pext of window x of source src, the window read just
 * before, once: with the rows they imply (place 0: a thread's time they do
 * not place), into the ring, the totals and (every window kept) the
 * window. */
int lc_rd_places_commit(struct rstate *s, struct cur *c, uint8_t src, uint32_t x);

/* A correction of m ns that moved in the thread's row of window x->window:
 * the same m over that thread's place rows of that window (the window's
 * own when every window is kept, else from the ring of place blocks) and
 * their totals, or, for a window older than the ring, over the thread's
 * total place rows in proportion to their whole time. */
void lc_rd_place_move(struct rstate *s, const struct lc_prof_wasted *x, uint64_t m);

#endif
