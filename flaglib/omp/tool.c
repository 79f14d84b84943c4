/*
 * tool.c — liblostcycles-omp: an OMPT tool that sets the predicate flags of
 * an OpenMP program built with clang -fopenmp (LLVM's libomp), without
 * changes to the program.  Loaded by the runtime through
 * OMP_TOOL_LIBRARIES, or linked into the program.
 *
 * The mapping (docs/openmp-pthreads.md):
 *   thread begin           initial thread BUSY, worker threads IDLE
 *   parallel region        work_exists +1 for its duration (nests), a
 *                          fragment tag from its codeptr_ra
 *   implicit task          BUSY
 *   implicit barrier wait  IDLE (a thread done with its share: LI)
 *   explicit barrier, taskwait, taskgroup, reduction waits, lock and
 *   critical acquisition   SYNC
 *   explicit task          BUSY while it runs (also inside a wait)
 *   worksharing construct  a fragment tag from its codeptr_ra
 *   outermost region       LC_TEAM(its team size), the largest one
 * Places (lc_auto.h): a thread's implicit task is in its region's place
 * (LC_PLACE_OMP_REGION, the region's tag), its part of a worksharing
 * construct in the construct's (LC_PLACE_OMP_WORK) until the construct's
 * implicit barrier ends (the wait there is the construct's load
 * imbalance; after a nowait construct, until the thread's next OpenMP
 * event), an explicit barrier or a lock, critical or ordered acquisition
 * in an LC_PLACE_SYNC place at its codeptr_ra.
 * Between regions the workers are back in their IDLE base state, or still
 * in the previous region's join barrier (libomp ends that wait only when
 * the next region starts): IDLE either way, so IP while no work exists.
 */
#include <link.h>
#include <omp-tools.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_abi.h"
#include "lc_auto.h"
#include "omp_layer.h"

#define WORK_NEST 8u		/* worksharing tags remembered per thread */

/* Explicit tasks' ompt_data_t values. */
#define TASK_NEW	1u	/* created, not yet started */
#define TASK_RUNNING	2u	/* started on some thread: BUSY pushed there */
#define TASK_DONE	3u	/* its BUSY was popped */

/* The calling thread's view of its OpenMP nesting; only it touches this. */
struct omp_thr {
	uint32_t level;		/* open implicit tasks (not the initial one) */
	uint32_t ntasks;	/* explicit tasks that pushed BUSY here */
	uint32_t nwork;		/* open worksharing constructs */
	int64_t work[WORK_NEST];/* their tags, innermost last */
	int closing;		/* a construct's place waits for its barrier */
};

static __thread struct omp_thr thr;

/* ---- threads and regions ---------------------------------------------------- */

/* Leave the place of a worksharing construct whose part ended. */
static void close_work(void)
{
	if (thr.closing) {
		thr.closing = 0;
		lc_auto_place_pop();
	}
}

/* A thread starts: the initial thread runs the program (BUSY), a worker
 * waits for work (IDLE). */
static void on_thread_begin(ompt_thread_t type, ompt_data_t *thread_data)
{
	(void)thread_data;
	lc_auto_set(type == ompt_thread_initial ? LC_ST_BUSY : LC_ST_IDLE);
}

/* A parallel region starts on its encountering thread: work exists, and
 * its tag opens. */
static void on_parallel_begin(ompt_data_t *encountering_task_data,
			      const ompt_frame_t *encountering_task_frame,
			      ompt_data_t *parallel_data, unsigned int requested_parallelism,
			      int flags, const void *codeptr_ra)
{
	int64_t tag = lc_omp_tag(codeptr_ra);

	(void)encountering_task_data;
	(void)encountering_task_frame;
	(void)requested_parallelism;
	(void)flags;
	parallel_data->value = (uint64_t)tag;
	lc_auto_parallel(1);
	if (tag)
		lc_fragment_begin(tag);
}

/* A parallel region ends on its encountering thread. */
static void on_parallel_end(ompt_data_t *parallel_data, ompt_data_t *encountering_task_data,
			    int flags, const void *codeptr_ra)
{
	(void)encountering_task_data;
	(void)flags;
	(void)codeptr_ra;
	if (parallel_data->value)
		lc_fragment_end((int64_t)parallel_data->value);
	lc_auto_parallel(-1);
}

/* An implicit task (a thread's part of a region) starts or ends: BUSY while
 * it runs.  The master of an outermost region declares the team. */
static void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
			     ompt_data_t *task_data, unsigned int actual_parallelism,
			     unsigned int index, int flags)
{
	(void)parallel_data;
	(void)task_data;
	if (flags & ompt_task_initial)
		return;		/* the program itself: thread_begin covered it */
	if (endpoint == ompt_scope_begin) {
		if (index == 0 && thr.level == 0 && actual_parallelism > 0)
			lc_auto_team(actual_parallelism);
		thr.level++;
		lc_auto_enter(LC_ST_BUSY);
		close_work();
		lc_auto_place_push(parallel_data ? parallel_data->value : 0);
	} else if (thr.level > 0) {
		thr.level--;
		close_work();
		lc_auto_place_pop();
		lc_auto_leave();
	}
}

/* ---- waits ------------------------------------------------------------------- */

/* The state of a thread waiting in a synchronization region of kind k: an
 * implicit barrier is the end of a thread's share (IDLE), anything else is
 * synchronization (SYNC). */
static uint32_t wait_state(ompt_sync_region_t k)
{
	switch ((int)k) {
	case 2:		/* ompt_sync_region_barrier_implicit (OpenMP 5.0) */
	case ompt_sync_region_barrier_implicit_workshare:
	case ompt_sync_region_barrier_implicit_parallel:
	case ompt_sync_region_barrier_teams:
		return LC_ST_IDLE;
	default:
		return LC_ST_SYNC;
	}
}

/* A thread starts or stops waiting in a barrier, taskwait, taskgroup or
 * reduction. */
static void on_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
				ompt_data_t *parallel_data, ompt_data_t *task_data,
				const void *codeptr_ra)
{
	int barrier = kind == ompt_sync_region_barrier_explicit;

	(void)parallel_data;
	(void)task_data;
	if (endpoint == ompt_scope_begin) {
		if (wait_state(kind) != LC_ST_IDLE || kind == ompt_sync_region_barrier_implicit_parallel)
			close_work();
		if (barrier)
			lc_auto_place_push(lc_auto_site_word(LC_PLACE_SYNC, LC_WAIT_OMP_BARRIER,
							     codeptr_ra));
		lc_auto_enter(wait_state(kind));
		return;
	}
	lc_auto_leave();
	if (barrier)
		lc_auto_place_pop();
	close_work();
}

/* Kinds of mutex whose acquisition may wait, and always ends with an
 * "acquired" callback (test locks do not when they fail). */
static int mutex_waits(ompt_mutex_t kind)
{
	return kind == ompt_mutex_lock || kind == ompt_mutex_nest_lock ||
	       kind == ompt_mutex_critical || kind == ompt_mutex_ordered;
}

/* A thread starts acquiring a lock, critical section or ordered region. */
static void on_mutex_acquire(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
			     ompt_wait_id_t wait_id, const void *codeptr_ra)
{
	(void)hint;
	(void)impl;
	(void)wait_id;
	if (!mutex_waits(kind))
		return;
	close_work();
	lc_auto_place_push(lc_auto_site_word(LC_PLACE_SYNC, kind == ompt_mutex_critical ?
					     LC_WAIT_OMP_CRITICAL : LC_WAIT_MUTEX, codeptr_ra));
	lc_auto_enter(LC_ST_SYNC);
}

/* The thread holds it now. */
static void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id,
			      const void *codeptr_ra)
{
	(void)wait_id;
	(void)codeptr_ra;
	if (!mutex_waits(kind))
		return;
	lc_auto_leave();
	lc_auto_place_pop();
}

/* ---- explicit tasks ------------------------------------------------------------ */

/* An explicit task is created: remember that it has not started. */
static void on_task_create(ompt_data_t *encountering_task_data,
			   const ompt_frame_t *encountering_task_frame,
			   ompt_data_t *new_task_data, int flags, int has_dependences,
			   const void *codeptr_ra)
{
	(void)encountering_task_data;
	(void)encountering_task_frame;
	(void)has_dependences;
	(void)codeptr_ra;
	if (new_task_data)
		new_task_data->value = (flags & ompt_task_explicit) ? TASK_NEW : 0;
}

/* A task scheduling point: an explicit task that finished pops its BUSY, a
 * task that starts pushes one (even inside a wait: it is work).  A task
 * suspended and resumed on the same thread keeps its level (tied tasks nest
 * on their thread). */
static void on_task_schedule(ompt_data_t *prior_task_data, ompt_task_status_t status,
			     ompt_data_t *next_task_data)
{
	int ended = status == ompt_task_complete || status == ompt_task_cancel ||
		    status == ompt_task_detach;

	if (ended && prior_task_data && prior_task_data->value == TASK_RUNNING &&
	    thr.ntasks > 0) {
		prior_task_data->value = TASK_DONE;
		thr.ntasks--;
		lc_auto_leave();
	}
	if (next_task_data && next_task_data->value == TASK_NEW) {
		next_task_data->value = TASK_RUNNING;
		thr.ntasks++;
		lc_auto_enter(LC_ST_BUSY);
	}
}

/* ---- worksharing constructs ------------------------------------------------------ */

/* A thread starts or ends its part of a loop, sections, single... : the
 * construct's tag is open while any thread is inside (tags are process-wide,
 * so the early threads' wait at the barrier counts while the last one
 * works). */
static void on_work(ompt_work_t wstype, ompt_scope_endpoint_t endpoint,
		    ompt_data_t *parallel_data, ompt_data_t *task_data, uint64_t count,
		    const void *codeptr_ra)
{
	int64_t tag;

	(void)wstype;
	(void)parallel_data;
	(void)task_data;
	(void)count;
	if (endpoint == ompt_scope_begin) {
		tag = lc_omp_tag(codeptr_ra);
		if (thr.nwork < WORK_NEST)
			thr.work[thr.nwork] = tag;
		thr.nwork++;
		if (tag)
			lc_fragment_begin(tag);
		close_work();
		lc_auto_place_push(LC_OMP_PLACE(tag, LC_PLACE_OMP_WORK));
		return;
	}
	if (thr.nwork == 0)
		return;
	thr.nwork--;
	if (thr.nwork < WORK_NEST && thr.work[thr.nwork])
		lc_fragment_end(thr.work[thr.nwork]);
	close_work();		/* an inner one's, never ended by a barrier */
	thr.closing = 1;	/* its place ends with its barrier's wait */
}

/* ---- registration ----------------------------------------------------------------- */

/* Register one callback; a callback the runtime refuses is simply absent. */
static void set_cb(ompt_set_callback_t set, ompt_callbacks_t which, ompt_callback_t cb)
{
	(void)set(which, cb);
}

/* The runtime starts the tool: register the callbacks.  Returns 1 (keep
 * the tool active). */
static int tool_initialize(ompt_function_lookup_t lookup, int initial_device_num,
			   ompt_data_t *tool_data)
{
	ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");

	(void)initial_device_num;
	(void)tool_data;
	if (!set)
		return 0;
	set_cb(set, ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin);
	set_cb(set, ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin);
	set_cb(set, ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end);
	set_cb(set, ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task);
	set_cb(set, ompt_callback_sync_region_wait, (ompt_callback_t)on_sync_region_wait);
	set_cb(set, ompt_callback_mutex_acquire, (ompt_callback_t)on_mutex_acquire);
	set_cb(set, ompt_callback_mutex_acquired, (ompt_callback_t)on_mutex_acquired);
	set_cb(set, ompt_callback_task_create, (ompt_callback_t)on_task_create);
	set_cb(set, ompt_callback_task_schedule, (ompt_callback_t)on_task_schedule);
	set_cb(set, ompt_callback_work, (ompt_callback_t)on_work);
	return 1;
}

/* The runtime shuts down: nothing to undo (the library releases slots at
 * thread exit). */
static void tool_finalize(ompt_data_t *tool_data)
{
	(void)tool_data;
}

/* ---- start-up ------------------------------------------------------------------ */

/* dl_iterate_phdr callback: stop (1) at LLVM's OpenMP runtime. */
static int is_libomp(struct dl_phdr_info *info, size_t size, void *unused)
{
	const char *base = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;

	(void)size;
	(void)unused;
	base = base ? base + 1 : info->dlpi_name;
	return base && (!strncmp(base, "libomp.so", 9) || !strncmp(base, "libomp5.so", 10) ||
			!strncmp(base, "libiomp5.so", 11));
}

/*
 * Load time.  record --omp preloads the tool, so this runs on the main
 * thread before main(), long before the runtime starts the tool at the
 * program's first OpenMP call: an OpenMP program's main thread is BUSY from
 * its start, and its serial set-up is computation of one processor (and
 * insufficient parallelism of the others), as the thread_begin callback
 * would say had the runtime started then.  Other processes of the command
 * (a shell, a launcher), which do not load libomp, are left alone.
 */
__attribute__((constructor)) static void omp_layer_init(void)
{
	if (!getenv(LC_ENV_SESSION) || gettid() != getpid() ||
	    !dl_iterate_phdr(is_libomp, NULL) || !lc_auto_active())
		return;
	lc_auto_set(LC_ST_BUSY);
}

/*
 * Entry point the OpenMP runtime looks up.  Without a lostcycles session
 * the tool declines (NULL), so the program runs with no callbacks at all.
 */
__attribute__((visibility("default")))
ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version,
					  const char *runtime_version)
{
	static ompt_start_tool_result_t result = {
		.initialize = tool_initialize,
		.finalize = tool_finalize,
	};

	(void)omp_version;
	(void)runtime_version;
	if (!getenv(LC_ENV_SESSION) || !lc_auto_active())
		return NULL;
	return &result;
}
