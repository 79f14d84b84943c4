/*
 * auto.c — the interface of the automatic layers (lc_auto.h): thread states
 * that step aside once the program sets a state itself, and the layers'
 * share of work_exists and of the team size, withdrawn once the program
 * declares its own.
 */
#include <string.h>

#include "lc_auto.h"
#include "lc_internal.h"

/* The layers' view of the calling thread.  Only the thread itself touches
 * it. */
struct lc_auto_thr {
	uint32_t word;		/* last word a layer stored, 0 = none yet */
	uint8_t off;		/* the program set a state: layers keep out */
	uint8_t cur;		/* the layers' current state (LC_ST_*) */
	uint16_t depth;		/* lc_auto_enter() levels open */
	uint8_t saved[LC_AUTO_DEPTH];	/* states to restore, by level */
};

static __thread struct lc_auto_thr lc_auto_thr;

/*
 * The layers' share of the process-wide predicates, guarded by auto_lock.
 * prog_parallel and prog_team are also read without the lock (relaxed) on
 * the program's paths, to take the lock only on its first call.
 */
static pthread_mutex_t auto_lock = PTHREAD_MUTEX_INITIALIZER;
static int64_t auto_work;	/* what the layers added to work_exists */
static uint32_t auto_team;	/* largest team the layers declared */
static uint32_t auto_ranks;	/* ranks of the process's job on this node, 0 = none */
static int prog_parallel;	/* the program used LC_PARALLEL_* */
static int prog_team;		/* the program used LC_TEAM */
static int refs_known;		/* refs_* are set (also read without the lock) */
static int refs_parallel;	/* the program calls LC_PARALLEL_* somewhere */
static int refs_team;		/* the program calls LC_TEAM somewhere */

/* Find out once whether the program calls LC_PARALLEL_* or LC_TEAM at all
 * (caller holds auto_lock): if so, those predicates are the program's from
 * its start, not only from its first call. */
static void find_refs(void)
{
	static const char *const parallel[] = { "lc_parallel_begin", "lc_parallel_end" };
	static const char *const team[] = { "lc_team" };

	if (refs_known)
		return;
	refs_parallel = lc_priv_program_refers(parallel, 2);
	refs_team = lc_priv_program_refers(team, 1);
	__atomic_store_n(&refs_known, 1, __ATOMIC_RELEASE);
	lc_priv_debug("the program calls LC_PARALLEL_*: %s, LC_TEAM: %s",
		      refs_parallel ? "yes" : "no", refs_team ? "yes" : "no");
}

/* See lc_auto.h.  The first call with a session also looks up the
 * program's references (find_refs), so that the layers do it at load time
 * rather than inside a pthread_create or a parallel region. */
LC_API int lc_auto_active(void)
{
	lc_priv_init();
	if (!lc_priv_g.hdr)
		return 0;
	if (!__atomic_load_n(&refs_known, __ATOMIC_ACQUIRE)) {
		pthread_mutex_lock(&auto_lock);
		find_refs();
		pthread_mutex_unlock(&auto_lock);
	}
	return 1;
}

/*
 * Return 1 when the layers may store into the calling thread's state word:
 * the thread has not registered yet, or its word is the last one a layer
 * stored.  Otherwise a macro changed it: remember that and return 0.
 */
static int owned(struct lc_auto_thr *a)
{
	uint32_t w;

	if (a->off)
		return 0;
	switch (lc_priv_thr.state) {
	case LC_T_FRESH:	/* never registered, or forgotten (fork child) */
		a->word = 0;
		return 1;
	case LC_T_DONE:		/* past its exit handler */
		return 0;
	default:
		break;
	}
	w = __atomic_load_n(&lc_priv_thr.sp->state, __ATOMIC_RELAXED);
	if (w == a->word || (a->word == 0 && w == 0))
		return 1;
	lc_priv_debug("thread %u: state set by the program; layers keep out", lc_priv_thr.tid);
	a->off = 1;
	return 0;
}

/* Show state st, waiting for synchronization object sync (0 none), in the
 * calling thread's slot if the layers own it: a change of state stamped
 * first (what the slot showed until now, lc_priv_stamp), then the object
 * into the flags, then the state word with release, which publishes them. */
static void put_on(struct lc_auto_thr *a, uint32_t st, uint32_t sync)
{
	uint32_t w = LC_AUTO_MARK | (st & 0xffu), f;
	struct lc_slot *s;

	a->cur = (uint8_t)st;
	if (!lc_auto_active() || !owned(a))
		return;
	if ((a->word & 0xffu) != st)	/* a change: its stamp first */
		lc_priv_stamp(LC_STAMP_STATE);
	s = lc_priv_slot(LC_OP_STATE, w);
	if (s) {
		f = __atomic_load_n(&s->flags, __ATOMIC_RELAXED);
		if (f >> LC_SLOT_SYNC_SHIFT != sync)
			__atomic_store_n(&s->flags, (f & ((1u << LC_SLOT_SYNC_SHIFT) - 1)) |
						    (sync << LC_SLOT_SYNC_SHIFT), __ATOMIC_RELAXED);
		__atomic_store_n(&s->state, w, __ATOMIC_RELEASE);
	}
	a->word = w;
}

/* Show state st in the calling thread's slot if the layers own it. */
static void put(struct lc_auto_thr *a, uint32_t st)
{
	put_on(a, st, 0);
}

/* See lc_auto.h: a base state, no saved levels. */
LC_API void lc_auto_set(uint32_t state)
{
	struct lc_auto_thr *a = &lc_auto_thr;

	a->depth = 0;
	put(a, state);
}

/* See lc_auto.h: the base state of a thread no layer has shown yet. */
LC_API void lc_auto_start(uint32_t state)
{
	if (lc_auto_thr.cur == LC_ST_NONE && lc_auto_thr.depth == 0)
		lc_auto_set(state);
}

/* See lc_auto.h: remember the current layer state, show state. */
LC_API void lc_auto_enter(uint32_t state)
{
	struct lc_auto_thr *a = &lc_auto_thr;

	if (a->depth < LC_AUTO_DEPTH)
		a->saved[a->depth] = a->cur;
	if (a->depth < UINT16_MAX)
		a->depth++;
	put(a, state);
}

/* See lc_auto.h: enter, naming the synchronization object. */
LC_API void lc_auto_enter_on(uint32_t state, uint32_t sync)
{
	struct lc_auto_thr *a = &lc_auto_thr;

	if (a->depth < LC_AUTO_DEPTH)
		a->saved[a->depth] = a->cur;
	if (a->depth < UINT16_MAX)
		a->depth++;
	put_on(a, state, sync);
}

/* See lc_auto.h: show the state remembered by the last enter. */
LC_API void lc_auto_leave(void)
{
	struct lc_auto_thr *a = &lc_auto_thr;
	uint32_t i;

	if (a->depth == 0)
		return;
	a->depth--;
	i = a->depth < LC_AUTO_DEPTH ? a->depth : LC_AUTO_DEPTH - 1;
	put(a, a->saved[i]);
}

/* See lc_auto.h: the layers' share of work_exists, unless the program
 * calls LC_PARALLEL_* (found in its symbols), and until its first call. */
LC_API void lc_auto_parallel(int d)
{
	if (!lc_auto_active())
		return;
	pthread_mutex_lock(&auto_lock);
	if (!prog_parallel && !refs_parallel && (d > 0 || auto_work > 0)) {
		auto_work += d > 0 ? 1 : -1;
		lc_priv_parallel(d > 0 ? 1 : -1);
	}
	pthread_mutex_unlock(&auto_lock);
}

/* Store the layers' team: the largest thread team declared, times the
 * job's ranks on this node when a message-passing layer named them (a
 * rank without a thread team counts as one processor: the ranks on the
 * node are p, as docs/mpi.md says; an MPI_THREAD_MULTIPLE rank's extra
 * threads need --procs or LC_TEAM).  Caller holds auto_lock. */
static void team_store(void)
{
	uint32_t t = auto_team ? auto_team : 1, n = auto_ranks ? auto_ranks : 1;

	if (prog_team || refs_team || (!auto_team && !auto_ranks))
		return;
	lc_priv_team_set(t > LC_SLOTS_MAX / n ? LC_SLOTS_MAX : t * n);
}

/* See lc_auto.h: the largest team the layers saw, unless the program
 * calls LC_TEAM (found in its symbols), and until its first call. */
LC_API void lc_auto_team(uint32_t p)
{
	if (!lc_auto_active())
		return;
	pthread_mutex_lock(&auto_lock);
	if (p > auto_team) {
		auto_team = p;
		team_store();
	}
	pthread_mutex_unlock(&auto_lock);
}

/* See lc_auto.h: a hybrid job's processors on this node are its ranks
 * here times each rank's thread team. */
LC_API void lc_auto_ranks(uint32_t n)
{
	if (!lc_auto_active() || n == 0)
		return;
	pthread_mutex_lock(&auto_lock);
	auto_ranks = n;
	team_store();
	pthread_mutex_unlock(&auto_lock);
}

/* See lc_auto.h. */
LC_API int lc_auto_program_calls(const char *const *names, int n)
{
	return n > 0 && lc_priv_program_refers(names, n);
}

/* The program's first LC_PARALLEL_*: withdraw the layers' share of
 * work_exists, for good. */
void lc_priv_auto_program_parallel(void)
{
	if (__atomic_load_n(&prog_parallel, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&auto_lock);
	if (!prog_parallel) {
		__atomic_store_n(&prog_parallel, 1, __ATOMIC_RELAXED);
		for (; auto_work > 0; auto_work--)
			lc_priv_parallel(-1);
	}
	pthread_mutex_unlock(&auto_lock);
}

/* The program's first LC_TEAM: the layers declare no team from now on.
 * Called before the program's value is stored, so it is the last word. */
void lc_priv_auto_program_team(void)
{
	if (__atomic_load_n(&prog_team, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&auto_lock);
	__atomic_store_n(&prog_team, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&auto_lock);
}

/* Forget the layers' process-wide share and the calling thread's layer
 * state (test hook, with the session torn down). */
void lc_priv_auto_forget(void)
{
	pthread_mutex_lock(&auto_lock);
	auto_work = 0;
	auto_team = 0;
	auto_ranks = 0;
	prog_parallel = 0;
	prog_team = 0;
	__atomic_store_n(&refs_known, 0, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&auto_lock);
	memset(&lc_auto_thr, 0, sizeof(lc_auto_thr));
}
