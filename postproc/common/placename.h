/*
 * placename.h — names for the place words of a profile (report --where,
 * docs/where.md): OpenMP constructs by "file.c:LINE" from the debug
 * information (libdw), else "function+0xOFF" from the ELF symbol table,
 * else the address; MPI calls by the function's name and call site; waits
 * by their object (LC_NAME's name, a static object's symbol, else its
 * address) and call site.  Names come from the files the profile's module
 * rows describe, and only when the file is still the one of the run (build
 * id, else size and mtime); what could not be named says why, once.
 */
#ifndef LC_PLACENAME_H
#define LC_PLACENAME_H

#include <stddef.h>
#include <stdint.h>

#include "lc_profile.h"

/* The layout of place words (flaglib/lc_abi.h, LC_PLACE_*, which analysis
 * does not include; tests/test_where.c checks these against it). */
#define LC_PLN_KIND(w)		((uint32_t)((uint64_t)(w) >> 56))
#define LC_PLN_OMP_REGION	0x4fu
#define LC_PLN_OMP_WORK		0x57u
#define LC_PLN_MPI		0x4du
#define LC_PLN_SYNC		0x53u
#define LC_PLN_OMP_MODULE(w)	((uint32_t)(((uint64_t)(w) >> 40) & 0xffffu))
#define LC_PLN_OMP_ADDR(w)	((uint64_t)(w) & 0xffffffffffull)
#define LC_PLN_WHAT(w)		((uint32_t)(((uint64_t)(w) >> 48) & 0xffu))
#define LC_PLN_CALL_MODULE(w)	((uint32_t)(((uint64_t)(w) >> 32) & 0xffffu))
#define LC_PLN_CALL_ADDR(w)	((uint64_t)(w) & 0xffffffffull)
#define LC_PLN_NOADDR		0xffffffffull

/* What a place's name is made of. */
struct lc_place_name {
	char name[512];		/* "loop.c:12", "MPI_Recv @ ring.c:40",
				 * "lock_a @ worker+0x3c", "0x4011c3" */
	char what[64];		/* "omp region", "omp loop", the MPI function
				 * ("MPI_Recv"), the kind of wait ("mutex") */
	char func[256];		/* the function holding the construct or call
				 * site ("" when unknown) */
};

struct lc_placenames;

/* The name of the "what" field of an MPI place word (its function,
 * "MPI_Recv") or a synchronization place word (the kind of wait,
 * "mutex") in this build's table; NULL for an unknown index or another
 * kind.  Names are the profile's names block's first. */
const char *lc_placename_what(uint32_t kind, uint32_t what);

/* Names for the places of profile pr (which must outlive the result), with
 * the program found from its command line for modules without a module
 * row.  NULL only when out of memory. */
struct lc_placenames *lc_placenames_new(const struct lc_profile *pr);

/* Name place word w of process pid (obj: its synchronization object).
 * Always fills out (an address or "(elsewhere)" when nothing better). */
void lc_placenames_get(struct lc_placenames *pn, int32_t pid, uint64_t w, uint64_t obj,
		       struct lc_place_name *out);

/* Why some names are addresses ("binary changed since the run: ...",
 * "... is stripped: ..."), one sentence per file, "; "-separated; "" when
 * nothing was left unnamed for a reason. */
const char *lc_placenames_note(const struct lc_placenames *pn);

/* Free pn; accepts NULL. */
void lc_placenames_free(struct lc_placenames *pn);

#endif /* LC_PLACENAME_H */
