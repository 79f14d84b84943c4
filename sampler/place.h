/*
 * place.h — where each thread was when a tick charged it (docs/shm-abi.md,
 * "Places"; the places and module blocks of docs/format.md).
 *
 * The tick loop reads a thread's place cell with its slot (lc_place_of);
 * the accumulator charges exactly what a tick charges to the thread's row
 * to the row of (thread, pid, place, obj) of the window (lc_placeacc_row),
 * hands a window's place rows to its window block (lc_placeacc_take), and
 * notes the modules of the place words it meets, which a thread of
 * module.c looks up off the tick path (the path, build id, size and mtime
 * of the object a module hash names); it writes them before the end block
 * with the names of the words' "what" fields (lc_placeacc_modules).  All
 * of it but the lookups is the sampling thread's.
 */
#ifndef LC_PLACE_H
#define LC_PLACE_H

#include <stdint.h>

#include "lc_profile.h"
#include "targets.h"

/* Distinct rows with a place other than 0 in one window: beyond it, a row's
 * time goes to its thread's place 0 and the row is counted as folded. */
#define LC_PLACE_ROWS_MAX 4096u

/* How long the end of a run waits for the modules still being looked up. */
#define LC_PLACE_MODULES_WAIT_NS 2000000000ull

/* What a tick reads of a thread's slot: its state word, flags and place
 * cell. */
struct lc_slot_view {
	uint32_t state, flags;
	uint64_t place;
};

/* Read slot i of target t (i < t->nslots) into *v: the state word with
 * acquire, then the flags and the place cell (0 when the segment has
 * none). */
void lc_slot_read(const struct lc_target *t, uint32_t i, struct lc_slot_view *v);

/* When the layers of slot i's thread changed its state or place after the
 * instant at (its stamp, docs/shm-abi.md "Stamps"), replace *v, read by
 * lc_slot_read, by what the slot showed before that change and return 1;
 * else (no stamps, an earlier change, a stamp being written) return 0. */
int lc_slot_before(const struct lc_target *t, uint32_t i, uint64_t at, struct lc_slot_view *v);

/* Whether slot i's thread, in state st at the instant at (as
 * lc_slot_before read it), entered that state after last by the one
 * change of state in (last, at]: then *cut is when and *prev the state it
 * left, and 1 is returned; else 0 (no stamps, no change of state in the
 * span, several: no one cut splits it truly, or more than the ring keeps,
 * or a stamp being written). */
int lc_slot_change(const struct lc_target *t, uint32_t i, uint64_t last, uint64_t at,
		   uint32_t st, uint64_t *cut, uint32_t *prev);

/* The place of a thread whose place cell holds w, in state st (LC_ST_*)
 * waiting for synchronization object sync (index + 1, checked by the
 * caller; 0 none); *obj gets the object's value (0 none).  A SYNC thread
 * that names an object but stands in no LC_PLACE_SYNC place is in the
 * LC_SYNC_BEGIN_ON place. */
uint64_t lc_place_of(const struct lc_target *t, uint64_t w, uint32_t st, uint32_t sync,
		     uint64_t *obj);

struct lc_placeacc;

/* A place accumulator, with the thread that looks up its modules; NULL on
 * ENOMEM. */
struct lc_placeacc *lc_placeacc_new(void);
void lc_placeacc_free(struct lc_placeacc *pa);

/* The categories of the current window's row of (thread, pid, place, obj),
 * made when new (the first time a (pid, module) appears, its module is
 * queued for lookup: module.h); NULL on ENOMEM. */
uint64_t *lc_placeacc_row(struct lc_placeacc *pa, uint32_t thread, int32_t pid, uint64_t place,
			  uint64_t obj);

/* The current window's rows as window `window` of source src, for its
 * window block (lc_prof_window.places), without the rows of place 0 and
 * object 0 (a reader adds them: a thread's time no row places), sorted by
 * place; *rows is valid until the next call.  Starts an empty window.
 * Returns how many rows, or -ENOMEM (the window's rows are lost). */
int lc_placeacc_take(struct lc_placeacc *pa, uint8_t src, uint32_t window,
		     struct lc_prof_place **rows);

/* Write the names block (the names of the "what" fields of the place
 * words met) and a module block for every module found (waiting up to
 * LC_PLACE_MODULES_WAIT_NS for the lookups under way).  0 or -errno. */
int lc_placeacc_modules(struct lc_placeacc *pa, struct lc_pwriter *w);

/* Rows folded into place 0 so far, for lack of room in their window. */
uint64_t lc_placeacc_folded(const struct lc_placeacc *pa);

#endif /* LC_PLACE_H */
