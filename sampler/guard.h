/*
 * guard.h — reading a mapping that its owner may shrink.
 *
 * A segment is a shared file that its program (or anyone who can open it)
 * may ftruncate at any time; a load from a page past the new end raises
 * SIGBUS, which would kill the sampler.  Checking the file's size before
 * every read costs a system call per target per tick and still leaves a
 * window, so the reads are guarded instead: the reading thread arms a guard
 * over the mapping, and a SIGBUS inside it jumps back to the sigsetjmp of
 * the guard, where the reader drops the target.  A SIGBUS anywhere else is
 * not ours: the handler puts back the disposition it found and returns, so
 * the access faults again and the process dies (or the previous handler
 * runs) as it would have without the guard.
 *
 * Cost: a sigsetjmp without the signal mask (no system call) and two stores
 * of a thread-local pointer per guarded read.
 *
 * Use, in one function that does not return before disarming:
 *	struct lc_guard g;
 *	if (sigsetjmp(g.env, 0)) { ...the mapping shrank: drop it...; }
 *	lc_guard_arm(&g, map, len);
 *	...loads from map...
 *	lc_guard_disarm();
 * Locals changed between sigsetjmp and the loads are indeterminate after
 * the jump: keep what the drop needs in memory that outlives the jump.
 */
#ifndef LC_GUARD_H
#define LC_GUARD_H

#include <setjmp.h>
#include <stddef.h>

struct lc_guard {
	sigjmp_buf env;
	const char *lo;		/* the guarded mapping */
	size_t len;
};

/* Install the SIGBUS handler (once per process; any thread).  Returns 0 or
 * -errno. */
int lc_guard_init(void);

/* Guard the calling thread's loads from [map, map + len) with g until
 * lc_guard_disarm.  A thread arms one guard at a time. */
void lc_guard_arm(struct lc_guard *g, const void *map, size_t len);
void lc_guard_disarm(void);

#endif /* LC_GUARD_H */
