/*
 * thread.c — lazy thread registration: claim a slot of the segment on a
 * thread's first macro, release it at thread exit; the trace-mode slow path
 * that performs and logs every per-thread operation.
 */
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "lc_internal.h"

LC_API __thread struct lc_slot *lc_self;
__thread struct lc_thr lc_priv_thr;

/* The private slot of a thread that has no slot in a segment: macros store
 * into it at the same cost, nobody reads it. */
static __thread struct lc_slot lc_dummy __attribute__((aligned(64)));

/* Raise the segment's slot high-water mark to at least v. */
static void hwm_raise(struct lc_seg_hdr *h, uint32_t v)
{
	uint32_t old = __atomic_load_n(&h->slot_hwm, __ATOMIC_RELAXED);

	while (old < v && !__atomic_compare_exchange_n(&h->slot_hwm, &old, v, 0,
						       __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		;
}

/* The (tid, gen) pair of a slot as one naturally aligned 64-bit word. */
typedef uint64_t __attribute__((may_alias)) lc_u64_alias;

struct lc_owner {
	uint32_t tid;
	uint32_t gen;
};

_Static_assert(offsetof(struct lc_slot, gen) == offsetof(struct lc_slot, tid) + 4 &&
	       offsetof(struct lc_slot, tid) % 8 == 0, "tid and gen form one 64-bit word");

/* Pack an owner into the 64-bit word it occupies in a slot. */
static uint64_t owner_word(uint32_t tid, uint32_t gen)
{
	struct lc_owner o = { tid, gen };
	uint64_t w;

	memcpy(&w, &o, sizeof(w));
	return w;
}

/*
 * Try to claim slot s for tid: one compare-and-swap of the (tid, gen) word
 * from (0, g) to (tid, g + 1), so that a reader that sees the new tid also
 * sees the new generation.  Returns 1 if the slot is now ours.
 */
static int slot_try(struct lc_slot *s, uint32_t tid)
{
	lc_u64_alias *w = (lc_u64_alias *)(void *)&s->tid;
	uint64_t old = __atomic_load_n(w, __ATOMIC_RELAXED);
	struct lc_owner o;

	memcpy(&o, &old, sizeof(o));
	if (o.tid != 0)
		return 0;
	return __atomic_compare_exchange_n(w, &old, owner_word(tid, o.gen + 1), 0,
					   __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

/*
 * Claim the first free slot for the calling thread and raise the high-water
 * mark.  Returns the slot index or LC_NO_SLOT (counted in slots_full).  A
 * free slot's state, flags and task are already 0 (slot_release).
 */
static uint32_t slot_claim(struct lc_seg_hdr *h, uint32_t tid)
{
	uint32_t i;

	for (i = 0; i < lc_priv_g.nslots; i++) {
		if (!slot_try(lc_seg_slot(h, i), tid))
			continue;
		hwm_raise(h, i + 1);
		return i;
	}
	__atomic_fetch_add(&h->slots_full, 1, __ATOMIC_RELAXED);
	return LC_NO_SLOT;
}

/* Release the calling thread's slot: clear its flags, then free it (tid = 0,
 * release).  gen and the wasted ring stay. */
static void slot_release(struct lc_thr *t)
{
	struct lc_slot *s = t->sp;
	uint64_t now = lc_priv_g.trace ? lc_clock_ns() : 0;

	__atomic_store_n(&s->state, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&s->flags, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&s->task, 0, __ATOMIC_RELAXED);
	lc_priv_place_bind(NULL, 0);	/* the slot's cell back to 0 first */
	__atomic_store_n(&s->tid, 0, __ATOMIC_RELEASE);
	if (lc_priv_g.trace) {
		lc_priv_trace_log(now, LC_OP_RELEASE, t->slot, t->tid);
		lc_priv_trace_set_slot(LC_NO_SLOT, 0);
	}
}

/* Point the calling thread at its private slot for good. */
static void use_dummy(struct lc_thr *t, enum lc_thr_state st)
{
	t->state = st;
	t->sp = &lc_dummy;
	t->slot = LC_NO_SLOT;
	lc_self = &lc_dummy;
	lc_priv_place_bind(NULL, 0);
}

/* After exec: the main thread's slot of the segment the process had
 * before, still claimed by its tid, if tid is that thread's.  Returns the
 * slot index (once) or LC_NO_SLOT. */
static uint32_t adopt_take(struct lc_seg_hdr *h, uint32_t tid)
{
	uint32_t i = __atomic_load_n(&lc_priv_g.adopt_slot, __ATOMIC_ACQUIRE);

	if (i == LC_NO_SLOT || i >= h->nslots ||
	    __atomic_load_n(&lc_seg_slot(h, i)->tid, __ATOMIC_RELAXED) != tid ||
	    !__atomic_compare_exchange_n(&lc_priv_g.adopt_slot, &i, LC_NO_SLOT, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return LC_NO_SLOT;
	return i;
}

/* First macro of a thread: claim a slot of the session's segment, or fall
 * back to the private slot (no session, no free slot). */
static void thread_register(struct lc_thr *t)
{
	struct lc_seg_hdr *h = lc_priv_g.hdr;
	uint64_t now = lc_priv_g.trace ? lc_clock_ns() : 0;
	uint32_t i;

	if (!h) {
		use_dummy(t, LC_T_DUMMY);
		return;
	}
	t->tid = (uint32_t)gettid();
	i = adopt_take(h, t->tid);
	if (i == LC_NO_SLOT)
		i = slot_claim(h, t->tid);
	if (i == LC_NO_SLOT) {
		lc_priv_debug("thread %u: no free slot of %u", t->tid, lc_priv_g.nslots);
		use_dummy(t, LC_T_DUMMY);
		return;
	}
	t->state = LC_T_SLOT;
	t->slot = i;
	t->sp = lc_seg_slot(h, i);
	lc_priv_place_bind(h, i);
	if (pthread_setspecific(lc_priv_g.key, t) != 0)
		lc_priv_debug("thread %u: slot %u will not be released at exit", t->tid, i);
	if (lc_priv_g.trace) {
		lc_priv_trace_set_slot(i, t->tid);
		lc_priv_trace_log(now, LC_OP_REGISTER, i, t->tid);
	} else {
		lc_self = t->sp;
	}
}

/*
 * Trace mode: perform op on the thread's slot with the same stores as the
 * inline code and log it.  The time is taken before the store, so a reader
 * that saw the new value read it after the record's time.
 */
static void trace_op(struct lc_thr *t, enum lc_op op, uint64_t arg)
{
	struct lc_slot *s = t->sp;
	uint64_t now = lc_clock_ns();
	uint32_t w = __atomic_load_n(&s->state, __ATOMIC_RELAXED), n;

	switch (op) {
	case LC_OP_STATE:
	case LC_OP_PUSH:
	case LC_OP_POP:
		w = op == LC_OP_STATE ? (uint32_t)arg :
		    op == LC_OP_PUSH ? (w << 8) | (uint32_t)arg : w >> 8;
		__atomic_store_n(&s->state, w, __ATOMIC_RELEASE);
		lc_priv_trace_log(now, LC_OP_STATE, t->slot, w);
		break;
	case LC_OP_QUEUE_EMPTY:
		__atomic_store_n(&s->flags, (uint32_t)arg, __ATOMIC_RELEASE);
		lc_priv_trace_log(now, op, t->slot, arg);
		break;
	case LC_OP_TASK:
		__atomic_store_n(&s->task, arg, __ATOMIC_RELEASE);
		lc_priv_trace_log(now, op, t->slot, arg);
		break;
	case LC_OP_WASTED:
		n = __atomic_load_n(&s->nwasted, __ATOMIC_RELAXED);
		__atomic_store_n(&s->wasted[n % LC_WASTED_RING], arg, __ATOMIC_RELAXED);
		__atomic_store_n(&s->nwasted, n + 1, __ATOMIC_RELEASE);
		lc_priv_trace_log(now, op, t->slot, arg);
		break;
	default:
		break;
	}
}

/*
 * The slow path of every per-thread macro.  Normal mode: register on first
 * use, set lc_self and return the slot for the caller to store into.  Trace
 * mode with a slot: lc_self stays NULL, the operation is done and logged
 * here, and NULL tells the caller so.
 */
LC_API struct lc_slot *lc_thread_register(enum lc_op op, uint64_t arg)
{
	struct lc_thr *t = &lc_priv_thr;

	lc_priv_init();
	if (t->state == LC_T_FRESH)
		thread_register(t);
	if (t->state != LC_T_SLOT || !lc_priv_g.trace) {
		lc_self = t->sp;
		return t->sp;
	}
	trace_op(t, op, arg);
	return NULL;
}

/*
 * pthread key destructor, run at thread exit: release the slot, flush and
 * free the trace buffer.  Later macros (other libraries' destructors) store
 * into the private slot.
 */
void lc_priv_thread_exit(void *arg)
{
	struct lc_thr *t = &lc_priv_thr;

	(void)arg;
	if (t->state == LC_T_SLOT)
		slot_release(t);
	lc_priv_trace_thread_exit();
	use_dummy(t, LC_T_DONE);
}

void lc_priv_thread_ensure(void)
{
	lc_priv_init();
	if (lc_priv_thr.state == LC_T_FRESH)
		thread_register(&lc_priv_thr);
}

/* Forget the calling thread's registration (fork child, test hook): the
 * next macro registers again. */
void lc_priv_thread_forget(void)
{
	lc_priv_place_forget();
	lc_self = NULL;
	memset(&lc_priv_thr, 0, sizeof(lc_priv_thr));
	memset(&lc_dummy, 0, sizeof(lc_dummy));
	pthread_setspecific(lc_priv_g.key, NULL);
}
