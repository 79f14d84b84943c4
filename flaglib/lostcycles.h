/*
 * lostcycles.h — predicate flags for lost cycles analysis.
 *
 * A program marks what each of its threads is doing (busy, idle, waiting for
 * synchronization, communicating) and what the process as a whole is doing
 * (parallel work exists, a solution was found, a code fragment is running).
 * A sampling thread of "lostcycles record" reads these flags from shared
 * memory and charges every tick of every processor to one overhead category.
 *
 * Per-thread macros are one release store into the calling thread's own
 * 64-byte slot, reached through a thread-local pointer; the first call in a
 * thread registers it.  They take no lock, make no system call and are safe
 * to call from any thread at any time, including before main() and from
 * threads the library did not create.  Process-wide macros are short library
 * calls with one atomic operation.
 *
 * When the environment variable LOSTCYCLES_SESSION is unset the program runs
 * normally, creates nothing, and the macros cost the same.  Compiled with
 * -DLC_DISABLE every macro is a typed no-op that evaluates its arguments once.
 *
 * See lostcycles(3) for the full description and docs/shm-abi.md for the
 * shared-memory layout.
 */
#ifndef LOSTCYCLES_H
#define LOSTCYCLES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header.  The Makefile reads these numbers: they are
 * the release version of the library and the tool. */
#define LC_VERSION_MAJOR 0
#define LC_VERSION_MINOR 1
#define LC_VERSION_PATCH 0
/* The three numbers packed into one, for comparisons: 0x00MMmmpp. */
#define LC_VERSION_NUMBER \
	((LC_VERSION_MAJOR << 16) | (LC_VERSION_MINOR << 8) | LC_VERSION_PATCH)

/* The major version of the shared-memory ABI between the library and the
 * sampler (lc_seg_hdr.abi_major, docs/shm-abi.md); it is also the SONAME
 * major: liblostcycles.so.LC_ABI_VERSION.  A sampler refuses the segments
 * of another major. */
#define LC_ABI_VERSION 1

#if defined(__GNUC__) || defined(__clang__)
#define LC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define LC_API __attribute__((visibility("default")))
#else
#define LC_UNLIKELY(x) (x)
#define LC_API
#endif

/* The version of the library the program runs with, "MAJOR.MINOR.PATCH";
 * compare with the header's LC_VERSION_* to detect a mismatch.  Never NULL;
 * available in every build, including -DLC_DISABLE. */
LC_API const char *lc_version(void);

/* For message-passing layers (liblostcycles-mpi) and programs that do their
 * own message passing; available in every build, no-ops without a session.
 *
 * lc_job: this process is rank `rank` of the job `job_id` (a number the
 * same in all its ranks and different for another job) of `size` processes
 * on host `host` (NULL: LOSTCYCLES_HOST, else the host name), its
 * CLOCK_MONOTONIC minus that of rank 0 is clock_offset_ns, and flags
 * (LC_JOB_*) say what the layer measures.  Call once, after the job is set
 * up; later calls change nothing.
 *
 * lc_comm_ideal: add ns of ideal transfer time (a model's time for the
 * calling thread's messages, without waiting for a partner) to the thread's
 * slot; the sampler moves that much of the thread's waiting time from
 * synchronization to communication loss.  Only after the thread's first
 * state macro. */
#define LC_JOB_LOGGP 1u		/* lc_comm_ideal is fed from LogGP parameters */
LC_API void lc_job(int32_t rank, uint32_t size, uint64_t job_id, int64_t clock_offset_ns,
		   uint32_t flags, const char *host);
LC_API void lc_comm_ideal(uint64_t ns);

/* Thread states: the low byte of lc_slot.state.  The higher bytes hold up to
 * three saved states, so that an END restores the state before its BEGIN. */
#define LC_ST_NONE 0u	/* never set: counted as idle */
#define LC_ST_IDLE 1u
#define LC_ST_BUSY 2u
#define LC_ST_SYNC 3u
#define LC_ST_COMM 4u

/* One thread's flags: exactly one 64-byte cache line (shared-memory ABI). */
struct lc_slot {
	uint32_t state;		/* LC_ST_* in bits 0-7, saved states above */
	uint32_t flags;		/* bit 0: the thread's work queue is empty */
	uint64_t task;		/* current task id, 0 = none */
	uint32_t tid;		/* owner's kernel thread id, 0 = free slot */
	uint32_t gen;		/* incremented each time the slot is claimed */
	uint32_t nwasted;	/* count of LC_TASK_WASTED calls so far */
	uint32_t xfer_ns;	/* ideal transfer time of the thread's messages so
				 * far, ns modulo 2^32 (lc_comm_ideal; ABI 1.1) */
	uint64_t wasted[4];	/* the last four wasted task ids, ring by nwasted */
};

#define LC_SLOT_QUEUE_EMPTY 1u
#define LC_SLOT_SYNC_SHIFT 8	/* flags bits 8-31: sync object index + 1 */
#define LC_SLOT_NO_SYNC 0xffu	/* flags bits 0-7: the largest word without an object */
#define LC_WASTED_RING 4u

#ifndef LC_DISABLE

/* The calling thread's slot; NULL until its first macro.  In trace mode it
 * stays NULL while the thread owns a slot, so every macro takes the logged
 * path; a thread without a slot (none free, or after its exit handler ran)
 * points at a private slot that nobody reads. */
extern LC_API __thread struct lc_slot *lc_self;

/* Operations of the slow path, also the event codes of trace files. */
enum lc_op {
	LC_OP_STATE = 1,	/* arg: new state word */
	LC_OP_QUEUE_EMPTY,	/* arg: 0 or 1 */
	LC_OP_TASK,		/* arg: task id, 0 = none */
	LC_OP_WASTED,		/* arg: task id */
	LC_OP_REGISTER,		/* arg: tid (trace files only) */
	LC_OP_RELEASE,		/* arg: tid (trace files only) */
	LC_OP_PARALLEL,		/* arg: new work_exists count */
	LC_OP_SOLUTION,		/* arg: 1 */
	LC_OP_TEAM,		/* arg: team size */
	LC_OP_FRAGMENT_BEGIN,	/* arg: tag */
	LC_OP_FRAGMENT_END,	/* arg: tag */
	LC_OP_PUSH,		/* arg: state to enter (slow path only) */
	LC_OP_POP,		/* arg: 0 (slow path only) */
};

/* Register the calling thread (first macro in a thread).  Returns the slot
 * to store into, or NULL when the library performed the operation itself
 * (trace mode).  Never fails: without a session, or with no free slot, the
 * slot is private to the thread and nobody reads it. */
LC_API struct lc_slot *lc_thread_register(enum lc_op op, uint64_t arg);

/* Process-wide operations; see LC_PARALLEL_BEGIN and friends below. */
LC_API void lc_parallel_begin(void);
LC_API void lc_parallel_end(void);
LC_API void lc_solution_found(void);
LC_API void lc_team(uint32_t p);
LC_API void lc_fragment_begin(int64_t tag);
LC_API void lc_fragment_end(int64_t tag);
/* The index + 1 of synchronization object obj in this process's table,
 * entering it when new; 0 without a session or when the table is full. */
LC_API uint32_t lc_sync_id(uint64_t obj);
/* Give synchronization object obj a name for "report --sync". */
LC_API void lc_sync_name(uint64_t obj, const char *name);

/* The helpers below expand the macros; lc_priv_* names are not part of the
 * API and may change (they avoid the double underscore that C++ reserves). */

/* Return the calling thread's slot, registering it on first use; NULL means
 * the operation (op, arg) has already been done by the library. */
static inline struct lc_slot *lc_priv_slot(enum lc_op op, uint64_t arg)
{
	struct lc_slot *s = lc_self;

	if (LC_UNLIKELY(!s))
		s = lc_thread_register(op, arg);
	return s;
}

/* The one release store of a macro: take the slot as s (lc_priv_slot(op,
 * arg)) and, unless the library did the operation, store value (which may
 * read s) into its field.  A macro of the private lc_priv_ names, for the
 * field and the value that reads the slot. */
#define lc_priv_store(op, arg, s, field, value) \
	do { \
		struct lc_slot *s = lc_priv_slot((op), (arg)); \
		if (s) \
			__atomic_store_n(&s->field, (value), __ATOMIC_RELEASE); \
	} while (0)

/* Set the state word to state, keeping no saved states. */
static inline void lc_priv_state(uint32_t state)
{
	lc_priv_store(LC_OP_STATE, state, s, state, state);
}

/* Enter state, saving the current state for lc_priv_pop(). */
static inline void lc_priv_push(uint32_t state)
{
	lc_priv_store(LC_OP_PUSH, state, s, state,
		      (__atomic_load_n(&s->state, __ATOMIC_RELAXED) << 8) | state);
}

/* Wait for synchronization object id (lc_sync_id): name it in the flags,
 * then enter SYNC; the state's release store publishes both. */
static inline void lc_priv_sync_on(uint32_t id)
{
	struct lc_slot *s = lc_priv_slot(LC_OP_PUSH, LC_ST_SYNC);

	if (!s)
		return;
	__atomic_store_n(&s->flags, (__atomic_load_n(&s->flags, __ATOMIC_RELAXED) & LC_SLOT_NO_SYNC) |
				    (id << LC_SLOT_SYNC_SHIFT), __ATOMIC_RELAXED);
	__atomic_store_n(&s->state, (__atomic_load_n(&s->state, __ATOMIC_RELAXED) << 8) | LC_ST_SYNC,
			 __ATOMIC_RELEASE);
}

/* Leave the current state, restoring the one saved by lc_priv_push(), and
 * forget the synchronization object of a LC_SYNC_BEGIN_ON.
 *
 * A BEGIN/END pair runs as fast as its chain through the state word allows
 * (load, shift, store; the next macro loads the word again): the loads cost
 * nothing beside that chain, but every extra micro-op does.  So the object
 * test compares the flags with the largest word that names no object, one
 * compare-and-branch, where "f >> 8" made gcc copy and shift the word and
 * branch on the shift. */
static inline void lc_priv_pop(void)
{
	struct lc_slot *s = lc_priv_slot(LC_OP_POP, 0);
	uint32_t f;

	if (!s)
		return;
	__atomic_store_n(&s->state, __atomic_load_n(&s->state, __ATOMIC_RELAXED) >> 8,
			 __ATOMIC_RELEASE);
	f = __atomic_load_n(&s->flags, __ATOMIC_RELAXED);
	if (LC_UNLIKELY(f > LC_SLOT_NO_SYNC))
		__atomic_store_n(&s->flags, f & LC_SLOT_NO_SYNC, __ATOMIC_RELEASE);
}

/* Set or clear the queue-empty flag (the other flag bits stay). */
static inline void lc_priv_queue_empty(int empty)
{
	uint32_t f = empty ? LC_SLOT_QUEUE_EMPTY : 0;

	lc_priv_store(LC_OP_QUEUE_EMPTY, f, s, flags,
		      (__atomic_load_n(&s->flags, __ATOMIC_RELAXED) & ~LC_SLOT_QUEUE_EMPTY) | f);
}

/* Set the current task id (0 = none). */
static inline void lc_priv_task(uint64_t id)
{
	lc_priv_store(LC_OP_TASK, id, s, task, id);
}

/* Declare task id wasted: record it in the ring, then publish the count. */
static inline void lc_priv_wasted(uint64_t id)
{
	struct lc_slot *s = lc_priv_slot(LC_OP_WASTED, id);
	uint32_t n;

	if (!s)
		return;
	n = __atomic_load_n(&s->nwasted, __ATOMIC_RELAXED);
	__atomic_store_n(&s->wasted[n % LC_WASTED_RING], id, __ATOMIC_RELAXED);
	__atomic_store_n(&s->nwasted, n + 1, __ATOMIC_RELEASE);
}

/* The calling thread does useful work. */
#define LC_BUSY()		lc_priv_state(LC_ST_BUSY)
/* The calling thread has nothing to do. */
#define LC_IDLE()		lc_priv_state(LC_ST_IDLE)
/* The calling thread waits for a lock, barrier, condition or message. */
#define LC_SYNC_BEGIN()		lc_priv_push(LC_ST_SYNC)
#define LC_SYNC_END()		lc_priv_pop()
/* The calling thread waits for synchronization object obj (an integer or an
 * address: the lock, barrier or condition), so that "report --sync" can
 * tell which object costs the most; end it with LC_SYNC_END(). */
#define LC_SYNC_BEGIN_ON(obj)	lc_priv_sync_on(lc_sync_id((uint64_t)(uintptr_t)(obj)))
/* Name synchronization object obj (e.g. LC_NAME(&qlock, "queue lock")). */
#define LC_NAME(obj, name)	lc_sync_name((uint64_t)(uintptr_t)(obj), (name))
/* The calling thread is inside a data transfer. */
#define LC_COMM_BEGIN()		lc_priv_push(LC_ST_COMM)
#define LC_COMM_END()		lc_priv_pop()
/* Parallel work exists (process-wide counter; pairs nest). */
#define LC_PARALLEL_BEGIN()	lc_parallel_begin()
#define LC_PARALLEL_END()	lc_parallel_end()
/* The program could now print its answer: later busy time is braking loss. */
#define LC_SOLUTION_FOUND()	lc_solution_found()
/* The calling thread works on task id (a nonzero 64-bit id). */
#define LC_TASK_BEGIN(id)	lc_priv_task((uint64_t)(id))
#define LC_TASK_END(id)		((void)(uint64_t)(id), lc_priv_task(0))
/* Task id contributed nothing: its busy time becomes wasted computation. */
#define LC_TASK_WASTED(id)	lc_priv_wasted((uint64_t)(id))
/* Code fragment tag starts or ends (process-wide; tags may nest and overlap). */
#define LC_FRAGMENT_BEGIN(tag)	lc_fragment_begin((int64_t)(tag))
#define LC_FRAGMENT_END(tag)	lc_fragment_end((int64_t)(tag))
/* The calling thread's work queue is (b != 0) or is not (b == 0) empty. */
#define LC_QUEUE_EMPTY(b)	lc_priv_queue_empty((b) != 0)
/* The program runs on a team of p processors. */
#define LC_TEAM(p)		lc_team((uint32_t)(p))

#else /* LC_DISABLE: typed no-ops that evaluate their arguments once */

#define LC_BUSY()		((void)0)
#define LC_IDLE()		((void)0)
#define LC_SYNC_BEGIN()		((void)0)
#define LC_SYNC_END()		((void)0)
#define LC_SYNC_BEGIN_ON(obj)	((void)(uintptr_t)(obj))
#define LC_NAME(obj, name)	((void)(uintptr_t)(obj), (void)(name))
#define LC_COMM_BEGIN()		((void)0)
#define LC_COMM_END()		((void)0)
#define LC_PARALLEL_BEGIN()	((void)0)
#define LC_PARALLEL_END()	((void)0)
#define LC_SOLUTION_FOUND()	((void)0)
#define LC_TASK_BEGIN(id)	((void)(uint64_t)(id))
#define LC_TASK_END(id)		((void)(uint64_t)(id))
#define LC_TASK_WASTED(id)	((void)(uint64_t)(id))
#define LC_FRAGMENT_BEGIN(tag)	((void)(int64_t)(tag))
#define LC_FRAGMENT_END(tag)	((void)(int64_t)(tag))
#define LC_QUEUE_EMPTY(b)	((void)((b) != 0))
#define LC_TEAM(p)		((void)(uint32_t)(p))

#endif /* LC_DISABLE */

#ifdef __cplusplus
}
#endif

#endif /* LOSTCYCLES_H */
