/*
 * lc_auto.h — what liblostcycles offers the automatic layers: the OpenMP
 * tool (liblostcycles-omp) and the pthread preload layer
 * (liblostcycles-pthread).  Programs use lostcycles.h, not this header.
 *
 * Precedence: explicit macros in the program win over the layers.
 *   - Thread state.  Every state word a layer stores carries LC_AUTO_MARK in
 *     its top byte (the sampler reads only the low byte).  No macro can
 *     produce a marked word, so before each store the library compares the
 *     thread's state word with the last word a layer stored there: when they
 *     differ, a macro ran, and from then on the layers leave that thread's
 *     state alone for the rest of the thread's life.
 *   - work_exists.  A program that calls LC_PARALLEL_BEGIN or _END
 *     anywhere (an undefined reference to lc_parallel_begin or _end in the
 *     main program or a shared library loaded with it) owns the counter
 *     from the start: lc_auto_parallel() does nothing.  Otherwise (e.g. a
 *     library loaded later), its first call withdraws what the layers had
 *     added, and later lc_auto_parallel() calls do nothing.
 *   - Team size.  Likewise for LC_TEAM (lc_team) and lc_auto_team().
 *   - Fragment tags: layers use tags of their own (LC_TAG_OMP in lc_abi.h),
 *     which coexist with the program's.
 *
 * Every function returns at once when no session is active.  The per-thread
 * functions act on the calling thread only and take no lock; the
 * process-wide ones take a mutex of the library, and so does the first call
 * of any of them with a session (it looks up the program's references,
 * reading the files of the loaded objects once).  None of them may be
 * called from a signal handler.
 */
#ifndef LC_AUTO_H
#define LC_AUTO_H

#include <stdint.h>

#include "lc_abi.h"
#include "lostcycles.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Top byte of every state word stored by a layer. */
#define LC_AUTO_MARK		0xa5000000u

/* Nesting depth of lc_auto_enter() the library remembers per thread;
 * deeper levels are counted, and restore the deepest remembered state. */
#define LC_AUTO_DEPTH		32u

/* Nonzero when a session is active (the layers may then do their work).
 * Call it once at load time: the first call looks up the program's
 * references to LC_PARALLEL_* and LC_TEAM. */
LC_API int lc_auto_active(void);

/* Set the calling thread's base state (LC_ST_*), dropping the layers'
 * saved states: the state of a thread when a layer first sees it. */
LC_API void lc_auto_set(uint32_t state);

/* Set the calling thread's base state (LC_ST_*) unless a layer has shown a
 * state for it already: the first word of a layer that does not know
 * whether another layer saw the thread first (MPI calls from an OpenMP
 * thread). */
LC_API void lc_auto_start(uint32_t state);

/* Enter state (LC_ST_*) for the calling thread, remembering the current
 * layer state for lc_auto_leave(). */
LC_API void lc_auto_enter(uint32_t state);

/* lc_auto_enter(state) waiting for synchronization object sync (an id of
 * lc_sync_id, 0 none), which the slot's flags then name. */
LC_API void lc_auto_enter_on(uint32_t state, uint32_t sync);

/* Return to the layer state before the matching lc_auto_enter(); does
 * nothing when nothing was entered. */
LC_API void lc_auto_leave(void);

/* Add d (+1 or -1) to work_exists on the layers' behalf; the layers'
 * share never goes below 0. */
LC_API void lc_auto_parallel(int d);

/* Declare a team of p threads on the layers' behalf (the OpenMP team):
 * the layers' team becomes the largest p declared so far, times the ranks
 * of lc_auto_ranks(). */
LC_API void lc_auto_team(uint32_t p);

/* The process is one of n ranks of a message-passing job that run on this
 * node (the MPI layer): once lc_auto_team declares a thread team t (a
 * hybrid MPI + OpenMP job), the processors of the job here are n x t, so
 * 2 ranks x 2 OpenMP threads on one node have p = 4.  Each rank declares
 * the same product in its segment; the sampler takes the largest team of
 * the node's processes.  Without a thread team nothing is declared. */
LC_API void lc_auto_ranks(uint32_t n);

/* 1 if a loaded object (the main program or a shared library) calls one
 * of names[0..n) without defining it, else 0: whether the process is the
 * program a layer is for (an MPI program calls MPI_Init), read once from
 * the objects' files.  A layer asks it at load time. */
LC_API int lc_auto_program_calls(const char *const *names, int n);

/* ---- places (ABI 1.4; docs/shm-abi.md "Places") ------------------------
 * Each thread has a stack of places (LC_PLACE_DEPTH deep); its innermost
 * word is in the thread's place cell, one relaxed store per push or pop.
 * A push past the depth keeps the outer place (counted in the header's
 * places_deep) and its pop restores nothing.  Pushes and pops of every
 * layer of a thread nest. */

/* Enter place word (lc_place_omp, lc_place_site of lc_abi.h). */
LC_API void lc_auto_place_push(uint64_t word);

/* Leave the innermost place; nothing when none was entered. */
LC_API void lc_auto_place_pop(void);

/* The module field (bits 40-55) and link-time address (bits 0-39) of code
 * address ra, as an OpenMP word without its kind (0 for NULL); a module the
 * loader does not know is LC_TAG_MODULE_UNKNOWN.  Cached per thread: the
 * dynamic loader is asked once per address (unless evicted). */
LC_API uint64_t lc_auto_code_site(const void *ra);

/* An MPI or sync place word (lc_place_site) of kind and what at the call
 * site whose return address is ra. */
LC_API uint64_t lc_auto_site_word(uint32_t kind, uint32_t what, const void *ra);

#ifdef __cplusplus
}
#endif

#endif /* LC_AUTO_H */
