/*
 * nametab.c — segment names met by discovery (see nametab.h): open
 * addressing with linear probing, at most half full.
 */
#include "nametab.h"

#include <stdlib.h>

/* The home index of (pid, nonce) in a table of cap entries. */
static uint32_t home(pid_t pid, uint64_t nonce, uint32_t cap)
{
	uint64_t h = (nonce ^ ((uint64_t)(uint32_t)pid << 32 | (uint32_t)pid)) *
		     0x9e3779b97f4a7c15ull;

	return (uint32_t)(h >> 32) & (cap - 1);
}

/* The slot of (pid, nonce) in e[cap]: its entry, or the empty one where it
 * would go. */
static struct lc_name *probe(struct lc_name *e, uint32_t cap, pid_t pid, uint64_t nonce)
{
	uint32_t i = home(pid, nonce, cap);

	while (e[i].pid && (e[i].pid != pid || e[i].nonce != nonce))
		i = (i + 1) & (cap - 1);
	return &e[i];
}

/* Double the table (64 entries at first).  Returns 0 or -1 on ENOMEM. */
static int grow(struct lc_nametab *t)
{
	uint32_t cap = t->cap ? 2 * t->cap : 64;
	struct lc_name *e = calloc(cap, sizeof(*e));

	if (!e)
		return -1;
	for (uint32_t i = 0; i < t->cap; i++)
		if (t->e[i].pid)
			*probe(e, cap, t->e[i].pid, t->e[i].nonce) = t->e[i];
	free(t->e);
	t->e = e;
	t->cap = cap;
	return 0;
}

struct lc_name *lc_nametab_get(struct lc_nametab *t, pid_t pid, uint64_t nonce)
{
	struct lc_name *x;

	if (t->cap && (x = probe(t->e, t->cap, pid, nonce))->pid)
		return x;
	if (2 * (t->n + 1) > t->cap && grow(t))
		return NULL;
	x = probe(t->e, t->cap, pid, nonce);
	*x = (struct lc_name){ .nonce = nonce, .pid = pid, .state = LC_NAME_NEW };
	t->n++;
	return x;
}

void lc_nametab_free(struct lc_nametab *t)
{
	if (!t)
		return;
	free(t->e);
	t->e = NULL;
	t->cap = t->n = 0;
}
