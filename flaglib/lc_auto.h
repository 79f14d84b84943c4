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
 *   - work_exists.  The first LC_PARALLEL_BEGIN or LC_PARALLEL_END of the
 *     program withdraws what the layers had added to the counter, and later
 *     lc_auto_parallel() calls do nothing.
 *   - Team size.  After the program's first LC_TEAM, lc_auto_team() does
 *     nothing.
 *   - Fragment tags: layers use tags of their own (LC_AUTO_TAG_*), which
 *     coexist with the program's.
 *
 * Every function returns at once when no session is active.  The per-thread
 * functions act on the calling thread only and take no lock; the
 * process-wide ones take a mutex of the library.  None of them may be called
 * from a signal handler.
 */
#ifndef LC_AUTO_H
#define LC_AUTO_H

#include <stdint.h>

#include "lostcycles.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Top byte of every state word stored by a layer. */
#define LC_AUTO_MARK		0xa5000000u

/* Nesting depth of lc_auto_enter() the library remembers per thread;
 * deeper levels are counted, and restore the deepest remembered state. */
#define LC_AUTO_DEPTH		32u

/*
 * Fragment tags made by the OpenMP tool from a construct's codeptr_ra:
 *   bits 56-63  LC_AUTO_TAG_OMP >> 56 (0x4f, 'O'): a tag of the OpenMP tool
 *   bits 40-55  module: 0 = the main program, 0xffff = unknown, else a
 *               hash of the module's real path (lc_auto_module_hash)
 *   bits 0-39   the return address as a link-time virtual address of that
 *               module (address minus the module's load bias); the
 *               construct's source line is that of address - 1.
 */
#define LC_AUTO_TAG_OMP		((int64_t)0x4f << 56)
#define LC_AUTO_TAG_KIND(t)	((uint64_t)(t) >> 56)
#define LC_AUTO_TAG_MODULE(t)	((uint32_t)(((uint64_t)(t) >> 40) & 0xffffu))
#define LC_AUTO_TAG_VADDR(t)	((uint64_t)(t) & 0xffffffffffull)

#define LC_AUTO_MODULE_MAIN	0u
#define LC_AUTO_MODULE_UNKNOWN	0xffffu

/* The module field of a tag for a module whose real path is path: an FNV-1a
 * hash folded into 1..0xfffe. */
static inline uint32_t lc_auto_module_hash(const char *path)
{
	uint32_t h = 2166136261u;

	for (; *path; path++)
		h = (h ^ (unsigned char)*path) * 16777619u;
	return (h ^ (h >> 16)) % 0xfffeu + 1u;
}

/* Nonzero when a session is active (the layers may then do their work). */
LC_API int lc_auto_active(void);

/* Set the calling thread's base state (LC_ST_*), dropping the layers'
 * saved states: the state of a thread when a layer first sees it. */
LC_API void lc_auto_set(uint32_t state);

/* Enter state (LC_ST_*) for the calling thread, remembering the current
 * layer state for lc_auto_leave(). */
LC_API void lc_auto_enter(uint32_t state);

/* Return to the layer state before the matching lc_auto_enter(); does
 * nothing when nothing was entered. */
LC_API void lc_auto_leave(void);

/* Add d (+1 or -1) to work_exists on the layers' behalf; the layers'
 * share never goes below 0. */
LC_API void lc_auto_parallel(int d);

/* Declare a team of p processors on the layers' behalf: the team becomes
 * the largest p declared so far. */
LC_API void lc_auto_team(uint32_t p);

#ifdef __cplusplus
}
#endif

#endif /* LC_AUTO_H */
