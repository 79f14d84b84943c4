/*
 * tick.c — the sampling thread (see tick.h).
 */
#include "tick.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "guard.h"
#include "interval.h"
#include "keeper.h"
#include "lc_util.h"
#include "place.h"
#include "slotsweep.h"
#include "tidy.h"
#include "waits.h"

/* How many slots, and how many threads' run-queue sources, a tick asks the
 * memory for ahead of the one it reads: each is a line that another CPU
 * wrote or that fell out of the caches since the last tick, and a tick
 * that waits for them one at a time spends its time in misses. */
#define SLOTS_AHEAD 4u
#define RUNQ_AHEAD 8u

/* A tick opens the run-queue source of at most one new thread per this
 * much of its interval (at least one): opening one costs ~20 us of system
 * calls, so 256 threads starting within a few milliseconds made ticks of
 * 100-300 us for 8 ms, 300 missed ticks at 25 us.  A thread waiting for its
 * source is charged no run-queue time meanwhile, as on its first tick. */
#define OPEN_PER_NS 25000u

/* The kernel's ids of a thread observed in this tick (beside its
 * observation, for its run-queue source). */
struct kid {
	pid_t pid, tid;
	uint64_t cut;		/* when it entered its state inside the tick's
				 * interval (lc_slot_change), 0: before */
};

/* The waits of one process's threads at a tick (proc_waits). */
struct proc_wait {
	uint64_t first, second;		/* the two earliest waits.at */
	uint32_t who;			/* the thread (index in threads[]) of first */
	uint32_t n;			/* its threads at this tick */
	int remote;			/* an MPI rank: its waits are for other processes */
};

/* A wasted-task declaration read during a tick, applied after charging it. */
struct wasted_id {
	uint32_t uid;
	uint64_t task;
};

/*
 * The sampler.  Two threads touch it: the owner (the caller of
 * lc_sampler_start, _go, _placement and _stop) and the sampling thread.
 */
struct lc_sampler {
	/* The owner's: cfg written in start before the thread exists and in
	 * go under lock before go is set, so the sampling thread reads it
	 * only after it has seen go under lock; thread is the owner's alone. */
	struct lc_sampler_cfg cfg;
	pthread_t thread;
	/* Written by the owner (release) in stop, read by the sampling thread
	 * (acquire) once per tick, and (relaxed) while it busy-waits. */
	int stop;
	/* The start handshake, under lock: started and go as named; the
	 * sampling thread sets start_err, cpu and fifo (in place()) before it
	 * sets started, so the owner reads them after it has seen started. */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int started;			/* set by the sampling thread */
	int go;				/* set by the owner: 1 tick, -1 leave */
	int start_err;
	int cpu, fifo;
	/* The sampling thread's alone; the owner reads last and st after
	 * pthread_join in stop. */
	uint64_t last;
	uint64_t at;		/* the instant a tick samples: when its timer
				 * was due (docs/shm-abi.md, "Stamps"); 0 =
				 * when it reads */
	struct lc_sampler_stats st;
	/* observation buffers, reused every tick (the sampling thread's);
	 * nprocs and nthreads count this tick's, the marks say where the
	 * target being read began (kept here, in memory, because a fault
	 * jumps back over the reads: guard.h) */
	struct lc_guard guard;
	uint32_t nprocs, nthreads, mark_threads, mark_wasted;
	uint32_t id_budget;		/* thread identities still to check this tick */
	int have_proc;			/* /proc/self/task exists */
	struct lc_obs_proc *procs;
	size_t procs_cap;
	struct lc_obs_thread *threads;
	size_t threads_cap;
	struct kid *kids;		/* beside threads[] */
	size_t kids_cap;
	struct wasted_id *wasted;
	uint32_t nwasted;
	size_t wasted_cap;
	/* the threads watched by the per-thread sources, to notice those
	 * that left; seen[thread] is the tick number + 1 at which thread
	 * was last read (0: not in live[]), indexed by profile thread so
	 * that marking one costs a store, not a search of live[] */
	uint32_t *live;
	uint32_t nlive;
	size_t live_cap;
	uint64_t *seen;
	size_t seen_cap;
	/* the waits of the threads, for the preempted waiters (runq_all):
	 * by profile thread, the tick number + 1 at which its current wait
	 * (SYNC or IDLE) began (0: not waiting), and at which it was last
	 * seen waiting */
	struct lc_waits waits;
	/* what the scheduler said of each thread observed in this tick
	 * (beside threads[]), and the CPUs the threads may run on (the
	 * union of their affinity masks, read when each is new) */
	struct lc_runq *rq;
	size_t rq_cap;
	uint64_t *rqall;		/* beside threads[]: all of rq's run-queue time */
	size_t rqall_cap;
	cpu_set_t aff;
	struct proc_wait *pw;		/* by process of this tick (proc_waits) */
	size_t pw_cap;
	uint64_t gen;			/* tick number */
	uint64_t ctr_opens;		/* counters this tick may still open */
	int ctr_waiting;		/* threads seen last tick wait for counters */
	int ctr_waiting_next;		/* ... and at this tick */
	/* A busy-waiting SCHED_FIFO sampler's share of the real-time budget
	 * (keeper.h) and the interval (interval.h): the sampling thread's */
	struct lc_keeper kp;
	struct lc_interval iv;
	uint32_t ncpus;
	/* LC_TICK_BREAKDOWN: the thread's CPU clock at the end of the last
	 * phase timed, and what reading it costs */
	uint64_t ph_t, ph_cost;
};

static const char *const phase_names[LC_NPHASES] = {
	[LC_PH_WAKE] = "wake-up", [LC_PH_SWEEP] = "flag sweep",
	[LC_PH_RUNQ] = "switch records", [LC_PH_CHARGE] = "attribution",
	[LC_PH_HANDOFF] = "window hand-off", [LC_PH_COUNTERS] = "counter reads",
	[LC_PH_MACHINE] = "machine share", [LC_PH_OTHER] = "other",
};

const char *lc_tick_phase_name(int ph)
{
	return ph >= 0 && ph < LC_NPHASES ? phase_names[ph] : "?";
}

/* The calling thread's CPU time (a system call: never per tick unless
 * the breakdown is asked for). */
static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Charge the thread's CPU time since the last phase to phase ph (only
 * with LC_TICK_BREAKDOWN). */
static void phase(struct lc_sampler *s, int ph)
{
	uint64_t t;

	if (__builtin_expect(!s->st.timed, 1))
		return;
	t = thread_cpu_ns();
	s->st.phase_ns[ph] += t - s->ph_t > s->ph_cost ? t - s->ph_t - s->ph_cost : 0;
	s->ph_t = t;
}

/* The breakdown's own cost: one reading of the thread's CPU clock (a
 * system call, ~0.4 us in a VM), taken from every phase it times. */
static void phase_calibrate(struct lc_sampler *s)
{
	uint64_t t0 = thread_cpu_ns(), t1;

	for (int i = 0; i < 63; i++)
		thread_cpu_ns();
	t1 = thread_cpu_ns();
	s->ph_cost = (t1 - t0) / 64;
}

/* (tick.h) With only one CPU allowed, none is spare: the sampler shares it. */
int lc_sampler_spare_cpu(void)
{
	cpu_set_t set;
	int last = -1;

	if (sched_getaffinity(0, sizeof(set), &set) || CPU_COUNT(&set) < 2)
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			last = c;
	return last;
}

/* Count a value of t's segment that no library writes (an index or count
 * out of range, an unknown state, a slot naming a thread that is not the
 * process's); past LC_TARGET_BAD_MAX of them t is dropped (the writer says
 * so once): its segment holds garbage, which must not cost every tick. */
static void bad_read(struct lc_sampler *s, struct lc_target *t)
{
	s->st.bad_reads++;
	if (++t->bad != LC_TARGET_BAD_MAX)
		return;
	/* a segment dropped as invalid vouches for no count it gave */
	lc_accum_wasted_forget(s->cfg.acc, t->wasted_lost);
	t->wasted_lost = 0;
	__atomic_store_n(&t->fault, LC_FAULT_DATA, __ATOMIC_RELEASE);
}

/* Whether tid is a thread of process pid, by /proc/PID/task/TID (always
 * when the sampler has no /proc). */
static int thread_of(const struct lc_sampler *s, pid_t pid, uint32_t tid)
{
	char path[64];

	if (!s->have_proc)
		return 1;
	snprintf(path, sizeof(path), "/proc/%d/task/%u", (int)pid, tid);
	return !access(path, F_OK);
}

/* Whether to count the thread (tid, gen) that slot sl of t names, new since
 * the cache c last saw it: its tid must be a thread of t's process.  Each
 * identity is checked once (c remembers a refusal), and at most
 * LC_ID_CHECKS_PER_TICK over all targets per tick: the others wait for the
 * next ticks, so a segment of random thread ids costs a tick little.  A
 * thread that left its slot meanwhile is not counted as bad. */
static int identity_ok(struct lc_sampler *s, struct lc_target *t, const struct lc_slot *sl,
		       struct lc_slot_cache *c)
{
	if (!s->id_budget)
		return 0;
	s->id_budget--;
	if (thread_of(s, t->pid, c->tid))
		return 1;
	c->refused = 1;
	if (__atomic_load_n(&sl->tid, __ATOMIC_ACQUIRE) == c->tid &&
	    __atomic_load_n(&sl->gen, __ATOMIC_ACQUIRE) == c->gen)
		bad_read(s, t);
	return 0;
}

/* Refresh t's copy of its open fragment tags if the program changed them
 * and the copy is consistent (sequence counter even and unchanged). */
static void read_tags(struct lc_sampler *s, struct lc_target *t)
{
	const struct lc_seg_hdr *h = t->hdr;
	uint32_t seq = __atomic_load_n(&h->tag_seq, __ATOMIC_ACQUIRE), seq2, n, k = 0;
	int64_t tags[LC_MAX_TAGS];

	if (seq == t->tag_seq || (seq & 1))
		return;
	n = __atomic_load_n(&h->ntags, __ATOMIC_RELAXED);
	if (n > LC_MAX_TAGS) {
		bad_read(s, t);
		n = LC_MAX_TAGS;
	}
	for (uint32_t i = 0; i < n; i++)
		if (__atomic_load_n(&h->tags[i].depth, __ATOMIC_RELAXED) > 0)
			tags[k++] = __atomic_load_n(&h->tags[i].tag, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	seq2 = __atomic_load_n(&h->tag_seq, __ATOMIC_RELAXED);
	if (seq2 != seq)
		return;		/* torn: try again next tick */
	memcpy(t->tags, tags, k * sizeof(int64_t));
	t->ntags = k;
	t->tag_seq = seq;
}

/* Queue the wasted declarations of slot i that this tick has not seen. */
static void read_wasted(struct lc_sampler *s, struct lc_target *t, const struct lc_slot *sl,
			struct lc_slot_cache *c)
{
	uint32_t n = __atomic_load_n(&sl->nwasted, __ATOMIC_ACQUIRE);
	uint32_t k = n - c->nwasted;

	if (!k)
		return;
	if (k > LC_WASTED_RING) {
		lc_accum_wasted_lost(s->cfg.acc, k - LC_WASTED_RING);
		t->wasted_lost += k - LC_WASTED_RING;
		c->nwasted = n - LC_WASTED_RING;
	}
	for (; c->nwasted != n; c->nwasted++) {
		if (lc_grow((void **)&s->wasted, &s->wasted_cap, s->nwasted + 1, sizeof(*s->wasted)))
			return;
		s->wasted[s->nwasted++] = (struct wasted_id){
			t->uid, __atomic_load_n(&sl->wasted[c->nwasted % LC_WASTED_RING],
						__ATOMIC_RELAXED) };
	}
}

/* The ideal transfer time (docs/mpi.md) the thread in slot sl may have
 * charged to CL over an interval of dt in state st: its credit grows by
 * what its job layer added since the last tick, and a waiting interval
 * takes up to dt of it.  A new thread starts from its slot's value. */
static uint64_t xfer_take(const struct lc_slot *sl, struct lc_slot_cache *c, int fresh,
			  uint32_t st, uint64_t dt)
{
	uint32_t x = __atomic_load_n(&sl->xfer_ns, __ATOMIC_ACQUIRE);
	uint64_t take;

	if (fresh)
		c->xfer_credit = 0;
	else
		c->xfer_credit += (uint32_t)(x - c->xfer_seen);
	c->xfer_seen = x;
	if (st != LC_ST_SYNC || !c->xfer_credit)
		return 0;
	take = c->xfer_credit < dt ? c->xfer_credit : dt;
	c->xfer_credit -= take;
	return take;
}

/* Mark thread (profile index) read at this tick, listing it in live[] if
 * it is not (a slot whose identity came back, a hostile segment's, is
 * fresh again but listed once). */
static void mark_live(struct lc_sampler *s, uint32_t thread)
{
	if (thread >= s->seen_cap &&
	    lc_grow((void **)&s->seen, &s->seen_cap, (size_t)thread + 1, sizeof(*s->seen)))
		return;
	if (!s->seen[thread]) {
		if (lc_grow((void **)&s->live, &s->live_cap, s->nlive + 1, sizeof(*s->live)))
			return;
		s->live[s->nlive++] = thread;
	}
	s->seen[thread] = s->gen + 1;
}

/* Thread (profile index; tid its kernel id) is live at this tick: remember
 * it, and start the per-thread counters on it when it is new. */
static void thread_seen(struct lc_sampler *s, uint32_t thread, int fresh, pid_t tid)
{
	if (fresh) {
		cpu_set_t set;
		int e = sched_getaffinity(tid, sizeof(set), &set);

		if (s->cpu >= 0 && !s->st.cpu_used && (e || CPU_ISSET(s->cpu, &set)))
			s->st.cpu_used = 1;
		if (!e)
			CPU_OR(&s->aff, &s->aff, &set);
	}
	/* Opening a thread's counters costs ~20 us (perf_event_open of each
	 * event), so a tick opens at most its budget of them (one per
	 * OPEN_PER_NS of the interval), as for the run-queue sources; the
	 * threads left over are opened at the next ticks, and their counts
	 * start then (ML and CL are ratios of what was counted). */
	if (s->cfg.ctr && (fresh || s->ctr_waiting) && lc_ctr_pending(s->cfg.ctr, thread)) {
		if (s->ctr_opens) {
			s->ctr_opens--;
			lc_ctr_attach(s->cfg.ctr, thread, tid);
		} else {
			s->ctr_waiting_next = 1;
		}
	}
	mark_live(s, thread);
}

/* How many per-thread sources (run-queue rings, counters) a tick may open:
 * one per OPEN_PER_NS of the interval, at least one. */
static uint64_t open_budget(const struct lc_sampler *s)
{
	return s->cfg.interval_ns / OPEN_PER_NS ? s->cfg.interval_ns / OPEN_PER_NS : 1;
}

/* Whether st is a waiting state (its thread spins or sleeps until an
 * event: a partner's arrival, a lock, a condition, the end of the work). */
static int waiting(uint32_t st)
{
	return st == LC_ST_SYNC || st == LC_ST_IDLE;
}

/* Note the waits of this tick's threads (s->waits; a wait's time is the
 * tick's number, from 1).  0, or
 * -ENOMEM (the waiters' rule is then off for this tick). */
static int note_waits(struct lc_sampler *s)
{
	for (uint32_t i = 0; i < s->nthreads; i++) {
		const struct lc_obs_thread *t = &s->threads[i];
		uint32_t key = t->state | (uint32_t)s->procs[t->proc].we << 8;

		if (lc_waits_note(&s->waits, t->thread, t->state, key, s->gen + 1))
			return -ENOMEM;
	}
	return 0;
}

/* Per process of this tick, the two earliest "last seen waiting" of its
 * threads (0: a thread not seen waiting yet) and which thread has the
 * first: the threads' waits as wait_over needs them, found once a tick. */
static int proc_waits(struct lc_sampler *s)
{
	if (s->nprocs > s->pw_cap &&
	    lc_grow((void **)&s->pw, &s->pw_cap, s->nprocs, sizeof(*s->pw)))
		return -ENOMEM;
	for (uint32_t p = 0; p < s->nprocs; p++)
		s->pw[p] = (struct proc_wait){ UINT64_MAX, UINT64_MAX, UINT32_MAX, 0,
					       s->procs[p].rank };
	for (uint32_t i = 0; i < s->nthreads; i++) {
		struct proc_wait *w = &s->pw[s->threads[i].proc];
		uint64_t at = s->waits.at[s->threads[i].thread];

		w->n++;
		if (at < w->first) {
			w->second = w->first;
			w->first = at;
			w->who = i;
		} else if (at < w->second) {
			w->second = at;
		}
	}
	return 0;
}

/* Whether the event that waiting thread i waits for has happened, as far
 * as the flags show: every other thread of its process has been seen
 * waiting since i began to wait (all arrived at the barrier, or nobody is
 * left working toward what i waits for).  A process of one thread, or an
 * MPI rank, waits for someone outside it: never. */
static int wait_over(const struct lc_sampler *s, uint32_t i)
{
	const struct proc_wait *w = &s->pw[s->threads[i].proc];
	uint64_t others = w->who == i ? w->second : w->first;

	return !w->remote && w->n > 1 && others >= s->waits.since[s->threads[i].thread];
}

/* Thread i's run-queue time that is resource contention: all of it while
 * BUSY; while it waits or communicates, the time after a wake-up (its wait
 * was over), and the time it was preempted when the event it waits for has
 * happened, or when it was idle as work began (a worker that the fork has
 * not reached: docs/openmp-pthreads.md, "Waiting for a CPU"). */
static uint64_t rc_of(const struct lc_sampler *s, uint32_t i, const struct lc_runq *q,
		      int waits_known)
{
	uint32_t st = s->threads[i].state;

	if (st == LC_ST_BUSY ||
	    (q->preempt_ns && waits_known && waiting(st) &&
	     (wait_over(s, i) || lc_waits_work_began(&s->waits, s->threads[i].thread))))
		return q->preempt_ns + q->woken_ns;
	return q->woken_ns;
}

/* Thread i's run-queue time that is resource contention, in the two parts
 * of an interval in which its state changed (note_change): before the
 * change as the state it left says (a waiter that left its wait then
 * waited for a CPU once its event had happened), after it by rc_of. */
static void split_rc(struct lc_sampler *s, uint32_t i, int waits_known)
{
	struct lc_runq *q = &s->rq[i], post = *q;
	struct lc_obs_thread *th = &s->threads[i];
	uint32_t prev = th->prev_state;

	if (!th->prev_ns) {
		th->runq_ns = rc_of(s, i, q, waits_known);
		return;
	}
	post.preempt_ns -= q->cut_preempt_ns < q->preempt_ns ? q->cut_preempt_ns : q->preempt_ns;
	post.woken_ns -= q->cut_woken_ns < q->woken_ns ? q->cut_woken_ns : q->woken_ns;
	th->runq_ns = rc_of(s, i, &post, waits_known);
	th->prev_runq_ns = q->cut_woken_ns;
	if (prev == LC_ST_BUSY || (waiting(prev) && !waiting(th->state)))
		th->prev_runq_ns += q->cut_preempt_ns;
}

/* The partners' rule over this tick's interval of dt (waits.h): each
 * waiter's time waiting for partners that wait for a CPU. */
static void partners(struct lc_sampler *s, uint64_t dt)
{
	struct lc_obs o = { .nprocs = s->nprocs, .procs = s->procs, .nthreads = s->nthreads,
			    .threads = s->threads };

	if (s->nthreads > s->rqall_cap &&
	    lc_grow((void **)&s->rqall, &s->rqall_cap, s->nthreads, sizeof(*s->rqall)))
		return;
	for (uint32_t i = 0; i < s->nthreads; i++) {	/* (after a change: after it) */
		const struct lc_runq *q = &s->rq[i];
		uint64_t all = q->preempt_ns + q->woken_ns, cut = q->cut_preempt_ns + q->cut_woken_ns;

		s->rqall[i] = s->threads[i].prev_ns && cut < all ? all - cut :
			      s->threads[i].prev_ns ? 0 : all;
	}
	lc_waits_partners(&s->waits, &o, s->threads, s->rqall, s->gen + 1, dt);
}

/* How many threads were runnable at once over an interval of dt (their
 * time over dt, rounded): a thread whose flag says it computes or
 * communicates for all of it (its blocking calls, I/O or a sleep, are its
 * work), any other for the time the scheduler saw it running or in a run
 * queue (a spinning waiter, a woken one). */
static uint32_t runnable_at_once(const struct lc_sampler *s, uint64_t dt)
{
	unsigned __int128 sum = 0;

	if (!dt)
		return 0;
	for (uint32_t i = 0; i < s->nthreads; i++) {
		const struct lc_runq *q = &s->rq[i];
		uint32_t st = s->threads[i].state;

		if (st == LC_ST_BUSY || st == LC_ST_COMM)
			sum += dt;
		else if (q->known)
			sum += q->run_ns + q->preempt_ns + q->woken_ns;
	}
	return (uint32_t)((sum + dt / 2) / dt);
}

/* Without a scheduler source: the threads whose flags say they compute or
 * communicate count as runnable. */
static uint32_t flagged_runnable(const struct lc_sampler *s)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < s->nthreads; i++)
		n += s->threads[i].state == LC_ST_BUSY || s->threads[i].state == LC_ST_COMM;
	return n;
}

/* The scheduler's view over [last, now) of every thread observed in this
 * tick, read after all slots were: each thread's switch-record ring head is
 * prefetched RUNQ_AHEAD threads before it is read.  New threads' sources are
 * opened within the budget of OPEN_PER_NS.  Sets each thread's run-queue
 * time that is resource contention, and tells the accumulator how many
 * threads were runnable at once. */
static void runq_all(struct lc_sampler *s, uint64_t last, uint64_t now)
{
	struct lc_obs_thread *th = s->threads;
	uint32_t n = s->nthreads;
	uint64_t opens = open_budget(s);
	int waits_known;

	if (n > s->rq_cap && lc_grow((void **)&s->rq, &s->rq_cap, n, sizeof(*s->rq)))
		return;
	lc_sched_tick(s->cfg.sched);
	for (uint32_t i = 0; i < n && i < RUNQ_AHEAD; i++)
		lc_sched_prefetch(s->cfg.sched, th[i].thread);
	for (uint32_t i = 0; i < n; i++) {
		if (i + RUNQ_AHEAD < n)
			lc_sched_prefetch(s->cfg.sched, th[i + RUNQ_AHEAD].thread);
		s->rq[i] = (struct lc_runq){ .cut = s->kids[i].cut };
		if (!lc_sched_watching(s->cfg.sched, th[i].thread)) {
			if (!opens)
				continue;
			opens--;
		}
		lc_sched_read(s->cfg.sched, th[i].thread, s->kids[i].pid, s->kids[i].tid, last, now,
			      &s->rq[i]);
	}
	waits_known = !note_waits(s) && !proc_waits(s);
	for (uint32_t i = 0; i < n; i++)
		split_rc(s, i, waits_known);
	if (waits_known && s->waits.on)	/* (off: every partner_ns is 0) */
		partners(s, now - last);
	lc_accum_runnable(s->cfg.acc, runnable_at_once(s, now - last), (uint32_t)CPU_COUNT(&s->aff));
}

/* A counter read of thread: its deltas, and the parts of its pure
 * computation since its previous read that they explain. */
static void counted(void *arg, uint32_t thread, const uint64_t *delta)
{
	struct lc_sampler *s = arg;
	uint64_t move[LC_NCAT];

	lc_ctr_split(s->cfg.ctr, delta, lc_accum_busy_pending(s->cfg.acc, thread), move);
	lc_accum_counters(s->cfg.acc, thread, delta, move);
}

/* Stop the per-thread sources of the threads not seen at this tick. */
static void threads_left(struct lc_sampler *s)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < s->nlive; i++) {
		uint32_t th = s->live[i];

		if (s->seen[th] == s->gen + 1) {
			s->live[k++] = th;
			continue;
		}
		s->seen[th] = 0;
		if (s->cfg.sched)
			lc_sched_forget(s->cfg.sched, th);
		if (s->cfg.ctr)
			lc_ctr_detach(s->cfg.ctr, th, counted, s);
	}
	s->nlive = k;
	s->gen++;
}

/* The synchronization object of a thread in state st with slot flags f:
 * its index + 1 in t's table (0 none or invalid); tell the accumulator what
 * it is the first time, and its name once it has one. */
static uint32_t sync_object(struct lc_sampler *s, struct lc_target *t, uint32_t st, uint32_t f)
{
	const struct lc_seg_hdr *h = t->hdr;
	uint32_t id = f >> LC_SLOT_SYNC_SHIFT, n;
	const struct lc_sync_entry *e;
	char name[sizeof(e->name) + 1];
	uint32_t seq;
	uint64_t bit;

	if (st != LC_ST_SYNC || !id)
		return 0;
	n = __atomic_load_n(&h->sync_n, __ATOMIC_ACQUIRE);
	if (id > n || id > LC_MAX_SYNC) {
		bad_read(s, t);
		return 0;
	}
	bit = 1ull << (id - 1);
	if (t->sync_named & bit)
		return id;
	e = &h->sync[id - 1];
	seq = __atomic_load_n(&e->seq, __ATOMIC_ACQUIRE);
	name[0] = 0;
	if (!(seq & 1)) {
		for (size_t i = 0; i < sizeof(e->name); i++)
			name[i] = __atomic_load_n(&e->name[i], __ATOMIC_RELAXED);
		name[sizeof(e->name)] = 0;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&e->seq, __ATOMIC_RELAXED) != seq)
			name[0] = 0;	/* torn: try again next time */
	}
	if (!(t->sync_told & bit) || name[0]) {
		lc_accum_sync_name(s->cfg.acc, t->uid, t->pid, id,
				   __atomic_load_n(&e->obj, __ATOMIC_RELAXED), name);
		t->sync_told |= bit;
		if (name[0])
			t->sync_named |= bit;
	}
	return id;
}

/* The kernel's ids of observation k (slot i of t, thread tid).  When its
 * thread entered its state inside this tick's interval, the interval is
 * charged in two parts: before the change in the state it left, after it
 * in its state (observation k's prev_*;
 * kids[k].cut asks the run-queue source for the time before the change).
 * A tick that charged all of a late interval to the state seen at its end
 * credited a short region's worker, whose state changes at every fork and
 * barrier, with less computation than it did. */
static void note_change(struct lc_sampler *s, const struct lc_target *t, uint32_t i, uint32_t k,
			pid_t tid, uint64_t now)
{
	struct lc_obs_thread *th = &s->threads[k];
	uint64_t cut;
	uint32_t prev;

	s->kids[k] = (struct kid){ t->pid, tid, 0 };
	/* The two-part charge goes with the partners' rule (waits.h: off by
	 * default; on a quiet machine it moved a pthread program's lock waits
	 * out of SL, t_sync 0.42 s against the measured 0.48 s). */
	if (!s->waits.on || !s->last ||
	    !lc_slot_change(t, i, s->last, s->at, th->state, &cut, &prev) || cut >= now)
		return;
	s->kids[k].cut = cut;
	th->prev_state = prev > LC_ST_COMM ? LC_ST_IDLE : prev;
	th->prev_ns = cut - s->last;
}

/* The thread of slot i of target t, whose tid word read tid, in its slot
 * cache (its last declarations read when its thread left the slot; a new
 * thread's identity checked and its profile index given, *fresh set).
 * Returns 1 when the slot holds a thread to observe, else 0. */
static inline int slot_thread(struct lc_sampler *s, struct lc_target *t, uint32_t i,
			      uint32_t tid, uint64_t now, int *fresh)
{
	struct lc_seg_hdr *h = (struct lc_seg_hdr *)t->hdr;
	const struct lc_slot *sl = lc_seg_slot(h, i);
	struct lc_slot_cache *c = &t->cache[i];
	uint32_t gen;

	if (!tid) {
		if (c->thread >= 0)	/* the last declarations of its thread */
			read_wasted(s, t, sl, c);
		if (c->tid || c->thread >= 0)
			*c = (struct lc_slot_cache){ .thread = -1, .nwasted = c->nwasted };
		return 0;
	}
	gen = __atomic_load_n(&sl->gen, __ATOMIC_ACQUIRE);
	if (c->tid != tid || c->gen != gen)
		*c = (struct lc_slot_cache){ .tid = tid, .gen = gen, .thread = -1,
					     .nwasted = c->nwasted };
	if (c->refused)
		return 0;
	if (c->thread < 0) {
		if (!identity_ok(s, t, sl, c))
			return 0;
		c->thread = lc_threads_id(s->cfg.threads, t->pid, t->nonce, i, gen,
					  (int32_t)tid, now - s->cfg.t0);
		*fresh = 1;
		if (c->thread < 0)
			return 0;
	}
	read_wasted(s, t, sl, c);
	return 1;
}

/* Room for n thread observations (and their change records): 0 or
 * -ENOMEM. */
static inline int obs_room(struct lc_sampler *s, uint32_t n)
{
	if (n > s->threads_cap &&
	    lc_grow((void **)&s->threads, &s->threads_cap, n, sizeof(*s->threads)))
		return -ENOMEM;
	if (n > s->kids_cap && lc_grow((void **)&s->kids, &s->kids_cap, n, sizeof(*s->kids)))
		return -ENOMEM;
	return 0;
}

/* Read the slots of target t into the thread observations. */
static void read_slots(struct lc_sampler *s, struct lc_target *t, uint32_t proc,
		       uint32_t *nthreads, uint64_t now, uint64_t dt)
{
	struct lc_seg_hdr *h = (struct lc_seg_hdr *)t->hdr;
	uint32_t hwm = __atomic_load_n(&h->slot_hwm, __ATOMIC_ACQUIRE), i;
	struct lc_slotsweep_it it;

	if (hwm > t->nslots) {
		bad_read(s, t);
		hwm = t->nslots;
	}
	/* the slots of the threads found, and a window of the others */
	for (lc_slotsweep_begin(&it, t, hwm); lc_slotsweep_next(&it, &i);) {
		const struct lc_slot *sl = lc_seg_slot(h, i);
		struct lc_slot_cache *c = &t->cache[i];
		struct lc_slot_view v;
		uint32_t tid, st, sync;
		uint64_t place, obj;
		int fresh = 0;

		if (i + SLOTS_AHEAD < hwm)
			__builtin_prefetch(lc_seg_slot(h, i + SLOTS_AHEAD));
		tid = __atomic_load_n(&sl->tid, __ATOMIC_ACQUIRE);
		if (!slot_thread(s, t, i, tid, now, &fresh))
			continue;
		if (obs_room(s, *nthreads + 1))
			return;
		lc_slot_read(t, i, &v);
		lc_slot_before(t, i, s->at, &v);	/* the state when the tick was due */
		st = v.state & 0xff;
		if (st > LC_ST_COMM) {
			bad_read(s, t);
			st = LC_ST_IDLE;
		}
		sync = sync_object(s, t, st, v.flags);
		place = lc_place_of(t, v.place, st, sync, &obj);
		s->threads[(*nthreads)++] = (struct lc_obs_thread){
			.thread = (uint32_t)c->thread, .proc = proc, .state = st,
			.qempty = v.flags & LC_SLOT_QUEUE_EMPTY,
			.sync = sync, .place = place, .obj = obj,
			.task = __atomic_load_n(&sl->task, __ATOMIC_RELAXED),
			.xfer_ns = xfer_take(sl, c, fresh, st, dt),
		};
		note_change(s, t, i, *nthreads - 1, (pid_t)tid, now);
		thread_seen(s, (uint32_t)c->thread, fresh, (pid_t)tid);
	}
}

/* Declare a target's process to the profile the first time it is seen. */
static void announce(struct lc_sampler *s, struct lc_target *t, uint64_t now)
{
	struct lc_prof_process p = { .pid = t->pid, .attach_ns = now - s->cfg.t0,
				     .comm = t->comm };

	lc_pwriter_process(s->cfg.w, &p);
	t->announced = 1;
}

/* Write the rank block of a target once its job layer has filled in the
 * job fields of the header (docs/shm-abi.md, line 12). */
static void announce_job(struct lc_sampler *s, struct lc_target *t)
{
	const struct lc_seg_hdr *h = t->hdr;
	struct lc_prof_rank r;
	char host[sizeof(h->host) + 1];

	if (!__atomic_load_n(&h->job_ready, __ATOMIC_ACQUIRE))
		return;
	for (size_t i = 0; i < sizeof(h->host); i++)
		host[i] = __atomic_load_n(&h->host[i], __ATOMIC_RELAXED);
	host[sizeof(h->host)] = 0;
	r = (struct lc_prof_rank){
		.pid = t->pid, .rank = __atomic_load_n(&h->rank, __ATOMIC_RELAXED),
		.size = __atomic_load_n(&h->job_size, __ATOMIC_RELAXED),
		.flags = __atomic_load_n(&h->job_flags, __ATOMIC_RELAXED) & LC_JOB_LOGGP ?
			 LC_PROF_RANK_LOGGP : 0,
		.clock_offset_ns = __atomic_load_n(&h->clock_offset_ns, __ATOMIC_RELAXED),
		.job_id = __atomic_load_n(&h->job_id, __ATOMIC_RELAXED),
		.host = host,
	};
	t->job_announced = 1;
	if (r.rank < 0 || r.size == 0 || (uint32_t)r.rank >= r.size) {
		bad_read(s, t);
		return;
	}
	lc_pwriter_rank(s->cfg.w, &r);
}

/* Observe target t into procs[nprocs] and the thread observations. */
static void observe(struct lc_sampler *s, struct lc_target *t, uint64_t now, uint64_t dt)
{
	const struct lc_seg_hdr *h = t->hdr;
	uint32_t team;

	if (!t->announced)
		announce(s, t, now);
	if (!t->job_announced)
		announce_job(s, t);
	read_tags(s, t);
	team = __atomic_load_n(&h->team, __ATOMIC_RELAXED);
	if (team > LC_SLOTS_MAX) {
		bad_read(s, t);
		team = 0;
	}
	s->procs[s->nprocs] = (struct lc_obs_proc){
		.uid = t->uid, .pid = t->pid,
		.we = __atomic_load_n(&h->work_exists, __ATOMIC_ACQUIRE) > 0,
		.sf = __atomic_load_n(&h->solution_found, __ATOMIC_ACQUIRE) != 0,
		.team = team, .rank = t->job_announced, .ntags = t->ntags, .tags = t->tags,
	};
	read_slots(s, t, s->nprocs, &s->nthreads, now, dt);
	s->nprocs++;
}

/* The last LC_TASK_WASTED declarations in t's slots, its process having
 * exited (its time is no longer charged): also of a thread no tick met,
 * such as a main thread that declared a task wasted just before exit (a
 * declaration names a task of t's own, so a slot that was not checked can
 * only move t's own time). */
static void last_wasted(struct lc_sampler *s, struct lc_target *t)
{
	struct lc_seg_hdr *h = (struct lc_seg_hdr *)t->hdr;
	uint32_t hwm = __atomic_load_n(&h->slot_hwm, __ATOMIC_ACQUIRE);

	for (uint32_t i = 0; i < hwm && i < t->nslots; i++)
		if (!t->cache[i].refused && __atomic_load_n(&lc_seg_slot(h, i)->tid, __ATOMIC_ACQUIRE))
			read_wasted(s, t, lc_seg_slot(h, i), &t->cache[i]);
}

/* Observe target t under a guard (guard.h), or when its process has left
 * read its last declarations: when its program (or anyone) has shrunk its
 * segment, the read faults, this tick's observations of t are taken back,
 * and t is marked for the writer to drop, with one warning.  What was
 * measured before stays in the profile; the tick goes on with the other
 * targets. */
static void observe_guarded(struct lc_sampler *s, struct lc_target *t, uint64_t now,
			    uint64_t dt)
{
	s->mark_threads = s->nthreads;
	s->mark_wasted = s->nwasted;
	if (sigsetjmp(s->guard.env, 0)) {
		s->nthreads = s->mark_threads;
		s->nwasted = s->mark_wasted;
		__atomic_store_n(&t->fault, LC_FAULT_SIGBUS, __ATOMIC_RELEASE);
		return;
	}
	lc_guard_arm(&s->guard, t->hdr, t->len);
	if (__atomic_load_n(&t->leave_at, __ATOMIC_ACQUIRE))
		last_wasted(s, t);
	else
		observe(s, t, now, dt);
	lc_guard_disarm();
}

/* The phase of the attribution of [last, now): a window's hand-off when
 * the tick crosses a window's end. */
static int charge_phase(const struct lc_sampler *s, uint64_t now)
{
	uint64_t w = s->cfg.window_ns;

	if (!w || !s->st.timed)
		return LC_PH_CHARGE;
	return lc_window_at(w, s->cfg.window_grow, s->last - s->cfg.t0) !=
	       lc_window_at(w, s->cfg.window_grow, now - s->cfg.t0) ? LC_PH_HANDOFF : LC_PH_CHARGE;
}

/* The statistics of a tick of dt ending at now. */
static void tick_stats(struct lc_sampler *s, uint64_t now, uint64_t dt)
{
	uint32_t slots = s->nthreads < s->ncpus ? s->nthreads : s->ncpus;

	if (dt > s->st.max_gap_ns) {
		s->st.max_gap_ns = dt;
		s->st.max_gap_at = now;
	}
	if (dt >= 2 * s->iv.cur + lc_interval_jitter(&s->iv))
		s->st.missed_ticks += dt / s->iv.cur - 1;
	s->iv.obs += slots ? slots : 1;
}

/* One tick: observe every target now and charge [last, now) to what was seen. */
static void tick(struct lc_sampler *s)
{
	uint64_t now = lc_clock_ns(), dt = now - s->last;
	struct lc_obs obs;
	struct lc_target *t;

	phase(s, LC_PH_WAKE);
	s->nwasted = 0;
	s->id_budget = LC_ID_CHECKS_PER_TICK;
	s->ctr_opens = open_budget(s);
	s->ctr_waiting = s->ctr_waiting_next;
	s->ctr_waiting_next = 0;
	s->nprocs = 0;
	s->nthreads = 0;
	urcu_memb_read_lock();
	cds_list_for_each_entry_rcu(t, lc_registry_list(s->cfg.reg), node) {
		if (__atomic_load_n(&t->gone, __ATOMIC_ACQUIRE) ||
		    __atomic_load_n(&t->fault, __ATOMIC_RELAXED))
			continue;
		if (lc_grow((void **)&s->procs, &s->procs_cap, s->nprocs + 1, sizeof(*s->procs)))
			break;
		observe_guarded(s, t, now, dt);
	}
	obs = (struct lc_obs){ .nprocs = s->nprocs, .procs = s->procs, .nthreads = s->nthreads,
			      .threads = s->threads };
	phase(s, LC_PH_SWEEP);
	if (s->cfg.sched)
		runq_all(s, s->last, now);
	else
		lc_accum_runnable(s->cfg.acc, flagged_runnable(s), (uint32_t)CPU_COUNT(&s->aff));
	phase(s, LC_PH_RUNQ);
	lc_accum_charge(s->cfg.acc, s->last - s->cfg.t0, dt, &obs);
	urcu_memb_read_unlock();
	phase(s, charge_phase(s, now));
	threads_left(s);
	if (s->cfg.ctr)
		lc_ctr_poll(s->cfg.ctr, now, counted, s);
	phase(s, LC_PH_COUNTERS);
	for (uint32_t i = 0; i < s->nwasted; i++)
		lc_accum_wasted(s->cfg.acc, s->wasted[i].uid, s->wasted[i].task);
	tick_stats(s, now, dt);
	phase(s, LC_PH_OTHER);
	if (s->cfg.mach)	/* the last tick (stop set) closes the last span */
		lc_machine_tick(s->cfg.mach, now, __atomic_load_n(&s->stop, __ATOMIC_ACQUIRE));
	phase(s, LC_PH_MACHINE);
	s->st.ticks++;
	s->last = now;
	lc_registry_ticked(s->cfg.reg, now);
}

/* Pin the calling thread and raise its scheduling class as far as allowed. */
static void place(struct lc_sampler *s)
{
	struct sched_param sp = { .sched_priority = 1 };
	cpu_set_t set;

	s->cpu = s->cfg.cpu >= 0 ? s->cfg.cpu : lc_sampler_spare_cpu();
	if (s->cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(s->cpu, &set);
		if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
			s->start_err = s->cfg.cpu >= 0 ? -EINVAL : 0, s->cpu = -1;
	}
	s->fifo = !pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	prctl(PR_SET_NAME, LC_SAMPLER_THREAD_NAME, 0, 0, 0);
}

/* Grow the process's file table now to RESERVE_FDS entries (or the limit
 * of open files): the kernel grows it by doubling when an open needs a
 * higher descriptor, and in a process with several threads each growth
 * waits for an RCU grace period, 6-13 ms here, inside the tick that opened
 * the 256th (512th ...) per-thread source: 250-500 missed ticks at 25 us.
 * Tables never shrink, so a descriptor opened high and closed keeps it.
 * The registry calls it before its thread starts, while the process has
 * one thread and the growth waits for nothing (done here, once threads
 * ran, it cost record 13 ms of its start); here it is then a no-op. */
#define RESERVE_FDS 4096

void lc_sampler_reserve_fds(void)
{
	struct rlimit rl;
	int want = RESERVE_FDS, fd, hi;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < (rlim_t)want)
		want = (int)rl.rlim_cur;
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	hi = fcntl(fd, F_DUPFD_CLOEXEC, want - 1);
	if (hi >= 0)
		close(hi);
	close(fd);
}

/* A sleep looks at the stop flag at least this often, so that a long
 * interval (-i 10s) does not keep the session waiting for its last tick. */
#define SLEEP_CHUNK_NS 100000000u

/* Sleep until the absolute monotonic time t or until asked to stop. */
static void sleep_until(const struct lc_sampler *s, uint64_t t)
{
	for (;;) {
		uint64_t now = lc_clock_ns(), u = t - now > SLEEP_CHUNK_NS ? now + SLEEP_CHUNK_NS : t;
		struct timespec ts = { (time_t)(u / 1000000000u), (long)(u % 1000000000u) };

		if (now >= t || __atomic_load_n(&s->stop, __ATOMIC_RELAXED))
			return;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		if (u == t)
			return;
	}
}

/* Spin until the monotonic time t or until asked to stop.  A SCHED_FIFO
 * spinner (not one in the SCHED_OTHER phase of keeper(), whose yield
 * would hand the CPU to any other thread for a time slice) yields on
 * every turn: the sampler of another session pinned to
 * the same spare CPU at the same priority (two recordings at once on a
 * machine with one spare CPU) would otherwise not run until the kernel's
 * real-time throttling stopped this one, up to a second later, and would
 * miss short programs whole.  Without such a thread the yield returns at
 * once; threads of other classes do not get the CPU through it. */
static void spin_until(const struct lc_sampler *s, uint64_t t)
{
	while (lc_clock_ns() < t && !__atomic_load_n(&s->stop, __ATOMIC_RELAXED))
		if (lc_keeper_fifo_now(&s->kp))
			sched_yield();
}

/* The sampling thread. */
static void *run(void *arg)
{
	struct lc_sampler *s = arg;
	uint64_t next;

	place(s);
	lc_sampler_reserve_fds();
	s->have_proc = !access("/proc/self/task", F_OK);
	urcu_memb_register_thread();
	pthread_mutex_lock(&s->lock);
	s->started = 1;
	pthread_cond_broadcast(&s->cond);
	while (!s->go && !s->start_err)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
	if (s->start_err || s->go < 0)
		goto out;
	s->last = s->cfg.t0;
	lc_interval_init(&s->iv, &s->cfg);
	s->ncpus = (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
	s->waits.ncpus = s->ncpus;
	s->waits.on = lc_waits_rule_asked();
	s->st.timed = getenv("LC_TICK_BREAKDOWN") && *getenv("LC_TICK_BREAKDOWN") == '1';
	if (s->st.timed)
		phase_calibrate(s);
	s->ph_t = thread_cpu_ns();
	next = s->cfg.t0 + lc_interval_next(&s->iv);
	s->st.busy_wait = !s->cfg.sleep_only && s->cfg.interval_ns < LC_TICK_SPIN_NS;
	s->kp.rt_now = s->fifo;
	if (s->st.busy_wait && s->fifo)
		lc_keeper_start(&s->kp);
	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) {
		uint64_t now;

		if (s->st.busy_wait)
			spin_until(s, next);
		else
			sleep_until(s, next);
		s->at = next;
		tick(s);
		now = s->last;
		lc_interval_adapt(&s->iv, s->st.ticks, now);
		next += lc_interval_next(&s->iv);
		if (next <= now)	/* late: skip the missed ticks, charge real time */
			next = now + lc_interval_next(&s->iv);
	}
	lc_keeper_stop(&s->kp);
	s->at = 0;
	tick(s);
	/* the last reads: every thread's counts up to the last tick */
	for (uint32_t i = 0; s->cfg.ctr && i < s->nlive; i++)
		lc_ctr_detach(s->cfg.ctr, s->live[i], counted, s);
	s->st.last_interval_ns = s->iv.cur;
	s->st.goal_at = s->iv.goal_at;
	s->st.thread_cpu_ns = thread_cpu_ns();
out:
	urcu_memb_unregister_thread();
	return NULL;
}

struct lc_sampler *lc_sampler_start(const struct lc_sampler_cfg *cfg, int *err)
{
	struct lc_sampler *s = calloc(1, sizeof(*s));
	int rc;

	if (!s) {
		*err = -ENOMEM;
		return NULL;
	}
	s->cfg = *cfg;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	rc = lc_thread_start(&s->thread, run, s);
	if (rc) {
		free(s);
		*err = rc;
		return NULL;
	}
	pthread_mutex_lock(&s->lock);
	while (!s->started)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
	if (s->start_err) {
		*err = s->start_err;
		pthread_join(s->thread, NULL);
		free(s);
		return NULL;
	}
	return s;
}

void lc_sampler_go(struct lc_sampler *s, const struct lc_sampler_cfg *cfg)
{
	pthread_mutex_lock(&s->lock);
	s->cfg = *cfg;
	s->go = 1;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

void lc_sampler_placement(const struct lc_sampler *s, int *cpu, int *fifo)
{
	*cpu = s->cpu;
	*fifo = s->fifo;
}

void lc_sampler_stop(struct lc_sampler *s, struct lc_sampler_stats *st)
{
	pthread_mutex_lock(&s->lock);
	if (!s->go)
		s->go = -1;	/* never started: leave without ticking */
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	__atomic_store_n(&s->stop, 1, __ATOMIC_RELEASE);
	pthread_join(s->thread, NULL);
	s->st.t_end = s->last;
	s->st.cpu = s->cpu;
	s->st.fifo = s->fifo;
	*st = s->st;
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	lc_waits_free(&s->waits);
	LC_FREE_ALL(s->procs, s->threads, s->kids, s->wasted, s->live, s->seen, s->pw, s->rq,
		    s->rqall, s);
}
