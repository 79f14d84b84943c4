/*
 * nametab.h — the segment names discovery has met, by (pid, nonce): which
 * it is done with (attached, refused, or stale), and when to try again one
 * that was not ready.  A hash table, so that a /dev/shm full of planted
 * names costs each scan a lookup per name, not a search.  One thread uses
 * a table (the registry's scanning thread, under the registry lock).
 */
#ifndef LC_NAMETAB_H
#define LC_NAMETAB_H

#include <stdint.h>
#include <sys/types.h>

enum lc_name_state {
	LC_NAME_NEW,		/* never tried */
	LC_NAME_WAIT,		/* not ready: try again at next_ns */
	LC_NAME_DONE,		/* attached, refused or stale: never again */
};

struct lc_name {
	uint64_t nonce;
	int32_t pid;		/* 0: an empty entry */
	uint32_t tries;		/* failed tries so far */
	uint64_t next_ns;	/* CLOCK_MONOTONIC of the next try (WAIT) */
	int state;		/* enum lc_name_state */
};

struct lc_nametab {
	struct lc_name *e;
	uint32_t cap;		/* a power of two, 0 before the first entry */
	uint32_t n;
};

/* The entry of (pid, nonce), made (NEW) when there is none.  NULL on
 * ENOMEM.  The pointer holds until the next call. */
struct lc_name *lc_nametab_get(struct lc_nametab *t, pid_t pid, uint64_t nonce);

/* Release the entries (the table itself is the caller's); accepts NULL. */
void lc_nametab_free(struct lc_nametab *t);

#endif /* LC_NAMETAB_H */
