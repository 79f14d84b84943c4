/*
 * lc_profile.h — categories, accounting records, and the profile file:
 * the writer used by the sampler and the reader used by report, fit and the
 * tests.  The file format is specified in docs/format.md.
 */
#ifndef LC_PROFILE_H
#define LC_PROFILE_H

#include <stddef.h>
#include <stdint.h>

/* ---- categories ---------------------------------------------------------- */

/* Overhead categories, in report order.  PC is pure computation, the thesis's
 * "remaining time" (rt).  LC_KEY_TT is not a category but the key of the
 * total (p x wall) in "report -l" lines and runs files: it has a row in the
 * category table so that every key a runs file may hold is named there. */
enum lc_cat {
	LC_CAT_LI,	/* load imbalance */
	LC_CAT_IP,	/* insufficient parallelism */
	LC_CAT_SL,	/* synchronization loss */
	LC_CAT_CL,	/* communication loss */
	LC_CAT_RC,	/* resource contention */
	LC_CAT_ML,	/* memory loss */
	LC_CAT_BL,	/* braking loss */
	LC_CAT_WC,	/* wasted computation */
	LC_CAT_PC,	/* pure computation (remaining time) */
#ifdef LC_TEST_EXTRA_CAT
	LC_CAT_XT,	/* only in the build of tests/test_cattable.c that
			 * proves every output walks the table */
#endif
	LC_NCAT,
	LC_KEY_TT = LC_NCAT,	/* total time: a key, not a category */
	LC_NKEY
};

/* What a category's time is measured from. */
enum lc_cat_source {
	LC_FROM_FLAGS = 0,	/* the predicate flags alone: always available */
	LC_FROM_SCHED = 1,	/* the scheduler's view of the thread */
	LC_FROM_COUNTERS = 2,	/* hardware stall or cache counters */
	LC_FROM_SUM = 3,	/* LC_KEY_TT: the sum of the others */
};

/* Static facts about a category: one const table in profile.c, the only
 * place that names categories.  report, fit, predict and the sampler all
 * read it. */
struct lc_cat_info {
	const char *key;	/* "li", ..., "rt" for PC: the -l and lca names */
	const char *name;	/* "Load Imbalance", ... as pp prints them */
	const char *desc;	/* "load imbalance", ...: lower case, for prose */
	enum lc_cat_source from;	/* what must be measured to have it */
	const char *unmeasured;	/* the reason when that source is absent */
	const char *colour;	/* "#rrggbb": its colour in every chart
				 * (report --plot and --html, predict --profile) */
	unsigned useful : 1;	/* POP: part of useful computation
				 * (U = rt + ml + wc + bl) */
	unsigned needed : 1;	/* predicting T(E) needs a model of it: rt and
				 * the overheads the flags always measure */
	unsigned computation : 1;	/* the program's own work, not a loss (rt):
				 * pp prints it after Total Time, lost time
				 * (lc_cat_lost) leaves it out, a -l line puts
				 * cpus= before it, fit searches negative
				 * exponents for it (work divided among p) */
};

/* The facts of category or key c (c < LC_NKEY), or NULL. */
const struct lc_cat_info *lc_cat_info(int c);

/* The lost time of cat[]: category c's when c >= 0, else every category's
 * but the computation ones (lc_cat_info's computation). */
uint64_t lc_cat_lost(const uint64_t cat[LC_NCAT], int c);

/* Category whose key is exactly key ("li".."rt"), or -1 (also for "tt"
 * and NULL). */
int lc_cat_by_key(const char *key);

/* Category or LC_KEY_TT named name: a key of the table, or "pc" for rt.
 * Returns -1 for anything else. */
int lc_key_lookup(const char *name);

/* Write the keys of the table into buf, space-separated, in order
 * ("li ip ... rt tt"), cut to len - 1 characters.  Returns buf. */
char *lc_key_list(char *buf, size_t len);

/*
 * Time charged over a set of ticks.  cat[] holds the time of live threads,
 * each thread's tick charged to one category.  Slots with no live thread are
 * not in cat[]: they are derived from t_* and n_* once the number of
 * processor slots p is known (see lc_acct_finish), because p may only be known
 * at the end of a run.  n is the number of live threads counted at a tick
 * (never more than p when p is known at that tick).  All times in ns.
 */
struct lc_acct {
	uint64_t cat[LC_NCAT];
	uint64_t li_qempty;	/* part of cat[LI] where the queue was empty */
	uint64_t t_we;		/* sum of dt over ticks where work existed */
	uint64_t n_we;		/* sum of n*dt over those ticks */
	uint64_t t_nwe;		/* sum of dt over ticks where no work existed */
	uint64_t n_nwe;		/* sum of n*dt over those ticks */
};

/* Add b into a. */
void lc_acct_add(struct lc_acct *a, const struct lc_acct *b);

/* Wall time covered by a (t_we + t_nwe). */
uint64_t lc_acct_wall(const struct lc_acct *a);

/* The categories of a for p processor slots: cat[] plus the empty slots,
 * charged to LI while work existed and to IP otherwise.  The result sums to
 * p * lc_acct_wall(a) exactly when n <= p at every tick. */
void lc_acct_finish(const struct lc_acct *a, uint32_t p, uint64_t out[LC_NCAT]);

/* The sum of the categories cat[]. */
uint64_t lc_cat_sum(const uint64_t cat[LC_NCAT]);

/* Add the categories b[] into a[]. */
void lc_cat_add(uint64_t a[LC_NCAT], const uint64_t b[LC_NCAT]);

/* ---- what a profile holds ------------------------------------------------- */

/* Where numbers came from: the sampler, or the exact trace-mode event log. */
enum lc_source { LC_SRC_SAMPLED = 0, LC_SRC_TRACE = 1, LC_NSRC };

/* How p was chosen. */
enum lc_procs_from {
	LC_PROCS_OPTION = 1,	/* --procs */
	LC_PROCS_TEAM = 2,	/* LC_TEAM(p) of the program */
	LC_PROCS_THREADS = 3,	/* most threads alive at once (older profiles) */
	LC_PROCS_RUNNABLE = 4,	/* most threads runnable at once, capped by the
				 * CPUs their affinity allows */
};

/* The name of the rule that chose p ("--procs", "most runnable at once"). */
const char *lc_procs_from_name(uint32_t from);

/* p, the rule that chose it, and what the others give, for "p = ..." and
 * "processors: ...": "2 (most runnable at once, capped by affinity); 4
 * threads existed; affinity allows 2".  threads, runnable and cpus as in
 * lc_prof_end (cpus 0: not said).  Returns what snprintf returns. */
int lc_procs_text(char *buf, size_t len, uint32_t p, uint32_t from, uint32_t threads,
		  uint32_t runnable, uint32_t cpus);

#define LC_PROF_TEXT_MAX 4096	/* longest string in a profile */

/* Written once at the start of a profile. */
struct lc_prof_info {
	uint64_t start_realtime_ns;	/* CLOCK_REALTIME at t0 */
	uint64_t t0_ns;			/* CLOCK_MONOTONIC at t0 */
	uint64_t interval_ns;		/* nominal tick interval */
	uint64_t window_ns;		/* timeline window */
	uint32_t procs_option;		/* --procs, 0 = not given */
	int32_t sampler_cpu;		/* CPU the sampler is pinned to, -1 none */
	uint32_t sched_fifo;		/* 1 when the sampler ran SCHED_FIFO */
	uint32_t unavailable;		/* bit c set: category c not measured */
	char *reason[LC_NCAT];		/* why (NULL when available) */
	char *hostname;
	char *command;			/* the command line, space-separated */
	char *session;
	/* appended in format minor 3 (0 in older files) */
	uint32_t window_grow;		/* the window schedule's growth: 0 every
					 * window is window_ns long; B: see
					 * lc_window_span */
};

/* ---- the timeline's window schedule ------------------------------------------
 * Growth 0: window i covers [i * base, (i + 1) * base).  Growth B (even,
 * >= 2): windows 0..B-1 are base long; then level k = 1, 2, ... holds B/2
 * windows of base * 2^k starting at B * base * 2^(k-1), up to windows of
 * LC_WINDOW_MAX_NS.  The sampler's default (record without -w) is base
 * 10 ms and growth LC_WINDOW_GROW_DEFAULT: 41 s at 10 ms, and about 17 000
 * windows in an hour instead of 360 000. */
#define LC_WINDOW_GROW_DEFAULT 4096u
#define LC_WINDOW_MAX_NS 1000000000000ull	/* 1000 s */

/* Start and length of window i (*start = UINT64_MAX past the types). */
void lc_window_span(uint64_t base_ns, uint32_t grow, uint32_t i, uint64_t *start_ns,
		    uint64_t *len_ns);
/* The index of the window that holds time t (saturates at UINT32_MAX). */
uint32_t lc_window_at(uint64_t base_ns, uint32_t grow, uint64_t t_ns);

/* A process seen by the sampler. */
struct lc_prof_process {
	int32_t pid;
	uint64_t attach_ns;	/* monotonic, relative to t0 */
	char *comm;
};

/* A process's place in a message-passing job (format minor 1), as the
 * job layer recorded it in its segment (docs/mpi.md). */
struct lc_prof_rank {
	int32_t pid;
	int32_t rank;		/* rank in the job */
	uint32_t size;		/* ranks in the job */
	uint32_t flags;		/* LC_PROF_RANK_* */
	int64_t clock_offset_ns;	/* the process's clock minus rank 0's */
	uint64_t job_id;	/* the same for all ranks of one job */
	char *host;
};

#define LC_PROF_RANK_LOGGP 1u	/* its waits were split by LogGP transfer times */

/* A thread seen by the sampler: identified by its index in the profile. */
struct lc_prof_thread {
	uint32_t idx;		/* 0, 1, 2... in order of appearance */
	int32_t pid;
	int32_t tid;
	uint32_t slot;
	uint64_t first_ns;	/* relative to t0 */
};

/* One thread's share of a window. */
struct lc_prof_trow {
	uint32_t thread;	/* lc_prof_thread.idx */
	uint64_t cat[LC_NCAT];
	uint64_t li_qempty;
};

/* One fragment tag's share of a window: all p slots while the tag was open
 * in some process. */
struct lc_prof_tagrow {
	int64_t tag;
	struct lc_acct acct;
};

/* One timeline window (the last one of a run may be shorter). */
struct lc_prof_window {
	uint8_t source;		/* enum lc_source */
	uint32_t index;		/* 0, 1, 2... per source */
	uint64_t start_ns;	/* relative to t0 */
	uint64_t len_ns;	/* nominal length: the window covers [start_ns,
				 * start_ns + len_ns); the writer takes it from
				 * here (0: the info's window_ns), the reader
				 * fills it in */
	uint32_t nmerged;	/* reader: windows of the file this one holds
				 * (1; more when lc_read_opts.max_windows
				 * merged neighbours) */
	uint32_t ticks;
	uint32_t max_n;		/* most live threads at one tick */
	uint32_t team;		/* largest LC_TEAM seen so far, 0 = none */
	struct lc_acct acct;	/* the whole window */
	uint32_t nthreads;
	struct lc_prof_trow *threads;
	uint32_t ntags;
	struct lc_prof_tagrow *tags;
	/* the window's place rows (format minor 5).  Reader: corrected, with
	 * their place 0 rows; kept only when every window is kept with its
	 * rows (lc_read_opts all zero), else 0 and NULL.  Writer: with
	 * places_ext set, lc_pwriter_window appends them to the window block
	 * (a thread's time they do not place is in place 0: leave those rows
	 * out), as a places block would. */
	uint32_t nplaces;
	struct lc_prof_place *places;
	uint8_t places_ext;
};

/* A correction written after the window it corrects: moves ns from category
 * `from` to category `to` in the given window, thread row and tag rows.
 * Busy time of a task later declared wasted is a wasted block (PC to WC,
 * with the task); the counter-derived categories are move blocks (PC to ML,
 * CL or RC, format minor 2), whose task is 0. */
struct lc_prof_wasted {
	uint8_t source;
	uint32_t window;
	uint32_t thread;
	uint64_t ns;
	uint64_t task;
	uint32_t ntags;
	int64_t *tags;
	uint8_t from, to;	/* enum lc_cat; 0, 0 read as PC, WC */
};

/* ---- hardware and software counters (format minor 2) ----------------------- */

#define LC_PROF_MAX_EVENTS 16	/* counters one profile may carry */

/* What a counter is used for in the attribution (docs/counters.md). */
enum lc_ev_role {
	LC_EVR_OTHER = 0,	/* shown by report --counters only */
	LC_EVR_CYCLES = 1,	/* cycles of the thread: ML's denominator */
	LC_EVR_STALL = 2,	/* stall cycles: ML's numerator */
	LC_EVR_MISS = 3,	/* misses: CL = misses x ideal latency, RC the excess */
	LC_EVR_INSTR = 4,	/* instructions: IPC in report --counters */
	LC_EVR_MISS_STALL = 5,	/* cycles stalled on those misses: the actual
				 * miss time, whose excess over the ideal is RC */
	LC_EVR_NROLES
};

/* The facts of a counter role: its key in "record -e NAME=KEY" and its
 * name in reports.  One const table in profile.c beside the categories'. */
struct lc_ev_role_info {
	const char *key;	/* "cycles", "stall", "miss", "instr", "miss-stall", "other" */
	const char *name;	/* "stall cycles", ...: as report --counters names it */
};

/* The facts of role r; LC_EVR_OTHER's for a role out of range. */
const struct lc_ev_role_info *lc_ev_role_info(uint32_t r);

/* The role whose key is key, or -1. */
int lc_ev_role_by_key(const char *key);

/* One counter of the profile (an events block lists them all, once). */
struct lc_prof_event {
	char *name;		/* as given to record -e, e.g. "cycles" */
	uint32_t role;		/* enum lc_ev_role */
};

/* Counts of the profile's events charged to one thread's running time in
 * one window under one set of open tags (a counts block, written after
 * the window: a counter read covers the ticks since the previous read). */
struct lc_prof_counts {
	uint8_t source;
	uint32_t window;
	uint32_t thread;
	uint32_t ntags;
	int64_t *tags;
	uint32_t nev;
	uint64_t v[LC_PROF_MAX_EVENTS];
};

/* Synchronization loss of one synchronization object of one process
 * (LC_SYNC_BEGIN_ON; a sync block, format minor 2, holds them all). */
struct lc_prof_sync {
	uint8_t source;
	int32_t pid;
	uint64_t obj;		/* the program's integer or address */
	uint64_t ns;		/* SL charged while threads waited for it */
	char *name;		/* LC_NAME's, or NULL */
};

/* ---- places (format minor 5; docs/where.md, docs/shm-abi.md "Places") -----
 * A place is where a thread was when a tick charged it: an OpenMP region or
 * worksharing construct, an MPI call at a call site, a synchronization wait
 * at a call site, or nowhere known (place word 0, "(elsewhere)").  The place
 * word is the one a layer stores in the thread's place cell (flaglib/lc_abi.h,
 * LC_PLACE_*; analysis names its "what" field with lc_profile_place_what).
 * Rows are exclusive: every ns a window charges to a thread row is charged
 * to exactly one of that thread's place rows of the window, so a thread's
 * place rows add up to its thread row, category by category (a thread's
 * time no row of its window's place block places is read as place 0;
 * corrections of wasted and move blocks are spread over the thread's place
 * rows of that window in proportion to each row's `from` time).  The
 * sampler writes place rows for the sampled source only (the trace source
 * has none: all elsewhere) and none for empty processor slots: a source's
 * total minus the sum of its thread rows is that time, elsewhere. */
struct lc_prof_place {
	uint8_t source;		/* enum lc_source */
	uint32_t window;	/* window index of that source */
	uint32_t thread;	/* lc_prof_thread.idx; UINT32_MAX: processor
				 * slots of process pid without a thread
				 * (the sampler writes none) */
	int32_t pid;		/* the thread's (its thread block's) */
	uint64_t place;		/* place word; 0 = elsewhere */
	uint64_t obj;		/* the synchronization object of an
				 * LC_PLACE_SYNC place, else 0 */
	uint64_t cat[LC_NCAT];
};

/* A module (executable or shared object) of a process, for naming the
 * addresses of its place words after the run: hash is the module field of
 * place words (0: the main program, else lc_tag_module_hash of path). */
struct lc_prof_module {
	int32_t pid;
	uint32_t hash;
	char *path;		/* real path when recorded */
	char *build_id;		/* hex of NT_GNU_BUILD_ID, or NULL */
	uint64_t size;		/* st_size when recorded */
	uint64_t mtime_ns;	/* st_mtime when recorded */
	uint8_t based;		/* bias is known (files before the field: 0) */
	uint64_t bias;		/* load bias: run-time address minus the ELF's
				 * link-time address (0 for a program that is
				 * not PIE) */
};

/* The name of the "what" field (bits 48-55) of place words of one kind:
 * an MPI function's name, a kind of wait (a names block, minor 5; the
 * sampler writes the table of the segment ABI it speaks). */
struct lc_prof_place_name {
	uint8_t kind;		/* LC_PLACE_MPI 0x4d, LC_PLACE_SYNC 0x53 */
	uint8_t what;
	char *name;
};

/* Where resource contention's run-queue time came from. */
enum lc_sched_source {
	LC_SCHED_NONE = 0,	/* not measured */
	LC_SCHED_SWITCH = 1,	/* perf context-switch records (exact intervals) */
	LC_SCHED_SCHEDSTAT = 2,	/* /proc/.../schedstat run delay (coarser) */
	LC_SCHED_REPLAY = 3,	/* a recorded trace (tests) */
};

/* The name of a run-queue source ("context-switch records", ...), NULL for
 * none or an unknown value. */
const char *lc_sched_source_name(uint32_t src);

/* The machine's share of the CPUs the program could use (its affinity
 * mask) over one measuring span (a machine block, format minor 4): the
 * sampler reads /proc/stat's per-CPU lines, the program's processes' CPU
 * time and its own at window ends, at most every LC_MACHINE_EVERY_NS.
 * All times are CPU time in ns, summed over the mask's CPUs;
 * program + sampler + other + steal <= total. */
struct lc_prof_machine {
	uint64_t start_ns;	/* relative to t0 */
	uint64_t len_ns;	/* the span is [start_ns, start_ns + len_ns) */
	uint32_t ncpus;		/* CPUs in the program's affinity mask */
	uint32_t flags;		/* LC_MACH_* */
	uint64_t total_ns;	/* all time of those CPUs (busy, idle, steal) */
	uint64_t program_ns;	/* the program's processes */
	uint64_t sampler_ns;	/* the sampler's threads there */
	uint64_t other_ns;	/* busy, and neither the program nor the sampler */
	uint64_t steal_ns;	/* taken by the hypervisor */
};

/* A program process ended inside the span: its CPU time after the previous
 * span is unknown (counted in other_ns), so totals leave the span out. */
#define LC_MACH_PARTIAL 1u
/* The span was too short for /proc/stat's clock ticks to give the share
 * (set with LC_MACH_PARTIAL: unknown, left out of the totals). */
#define LC_MACH_COARSE 2u

/* Shortest measuring span of the machine's share. */
#define LC_MACHINE_EVERY_NS 100000000ull	/* 100 ms */

/* Other processes' and the hypervisor's share (other + steal) of the
 * program's CPUs above which report marks the categories it distorts and
 * advise says so first, in %. */
#define LC_MACHINE_LOAD_PCT 10.0

struct lc_profile;

/* What a machine share measures (lc_machine_pct). */
enum lc_share {
	LC_SHARE_OTHER,		/* other processes */
	LC_SHARE_SAMPLER,	/* the sampler itself */
	LC_SHARE_STEAL,		/* the hypervisor */
	LC_SHARE_LOAD,		/* other + steal: the load that is not ours */
	LC_SHARE_PROGRAM,	/* the program */
	LC_NSHARE
};

/* Percent of the CPU time of m's CPUs that went to what; -1 when m
 * measured nothing. */
double lc_machine_pct(const struct lc_prof_machine *m, enum lc_share what);

/* The categories (bit c: category c) that the machine's load distorts in
 * profile pr: none when pr holds no machine span or the load (other +
 * steal) is below LC_MACHINE_LOAD_PCT; else RC (the program's threads wait
 * for CPUs the others hold), SL and LI (threads wait for a partner that is
 * off its CPU), IP (a serial phase whose one thread is off its CPU leaves
 * the other slots idle longer), and PC when run-queue time was not
 * measured (a preempted BUSY thread then counts as computing). */
uint32_t lc_machine_distorts(const struct lc_profile *pr);

/* Written once when a profile ends normally or by signal. */
struct lc_prof_end {
	uint64_t end_ns;	/* relative to t0 */
	uint32_t procs;		/* p the sampler settled on */
	uint32_t procs_from;	/* enum lc_procs_from */
	int32_t exit_status;	/* of the command, as a shell reports it; -1 none */
	uint32_t ticks;
	uint64_t max_gap_ns;	/* longest real tick interval */
	uint64_t wasted_lost;	/* LC_TASK_WASTED calls the sampler missed */
	uint64_t bad_reads;	/* invalid values read from segments */
	char *reason;		/* "command exited", "interrupted", ... */
	/* appended in format minor 2 (ext = 1 when present) */
	int ext;
	uint64_t sampler_cpu_ns;	/* CPU time the sampler's threads used */
	uint64_t max_gap_at_ns;		/* when the longest tick gap ended (rel. t0) */
	uint64_t missed_ticks;		/* ticks that fell inside late gaps */
	uint32_t sched_source;		/* enum lc_sched_source */
	int32_t shared_cpu;		/* a CPU the sampler shared with the
					 * program, -1: it had one of its own */
	uint32_t unavailable;		/* the final say: replaces info's */
	char *reason_na[LC_NCAT];	/* why category c is unavailable */
	char *method[LC_NCAT];		/* how category c was measured, or NULL */
	uint32_t ncpus;			/* CPUs the machine had online */
	/* appended in format minor 4 for p's rules (p_rules = 1 when
	 * present): what each rule for p gave, whichever chose it */
	int p_rules;
	uint32_t max_threads;		/* most threads alive at once */
	uint32_t max_runnable;		/* most threads runnable at once */
	uint32_t affinity_cpus;		/* CPUs their affinity allowed, 0 unknown */
	/* appended in format minor 5 for the interval rule (interval_rule
	 * = 1 when present): how the sampler chose its interval and what
	 * it cost (docs/performance.md) */
	int interval_rule;
	uint32_t rule;			/* enum lc_interval_rule */
	uint64_t interval_min_ns;	/* the rule's range (both the interval */
	uint64_t interval_max_ns;	/* when fixed) */
	uint64_t mean_interval_ns;	/* achieved: the window over the ticks */
	uint32_t goal_ppm;		/* error goal, of the total time (adaptive) */
	uint32_t budget_ppm;		/* CPU budget, of one CPU (adaptive) */
	uint64_t goal_at_ns;		/* when the error goal was reached (rel. t0),
					 * 0 never */
	uint64_t thread_cpu_ns;		/* the sampling thread's own CPU time */
	/* appended in format minor 5 for descriptors (fds = 1 when present) */
	int fds;
	uint32_t untracked;		/* processes not tracked for want of file
					 * descriptors: missing from the profile */
	uint32_t fd_flags;		/* LC_END_FDS_SHORT */
	/* appended in format minor 5 for the limits (limits = 1 when
	 * present): what the recording could not keep apart */
	int limits;
	uint32_t unslotted;		/* threads the segments refused a slot
					 * (their slots_full, summed): not profiled */
	uint32_t unslotted_seen;	/* threads the sampler saw in /proc without
					 * a slot */
	uint64_t unslotted_cpu_ns;	/* their CPU time, as far as seen (at least) */
	uint32_t tags_cap;		/* distinct fragment tags kept apart
					 * (LC_TAGS_CAP), 0 not known */
	uint64_t tags_over;		/* ticks at which a tag beyond the cap was
					 * open: charged to LC_TAG_OTHER */
};

/* The fragment tags a recording keeps apart: the first LC_TAGS_CAP
 * distinct tags of a run have rows of their own; the time of any later
 * one goes to the row of LC_TAG_OTHER ("other tags"), which a program's
 * own tag of that value (INT64_MIN) shares. */
#define LC_TAGS_CAP 1024u
#define LC_TAG_OTHER INT64_MIN

/* How the sampler chose its interval (lc_prof_end.rule). */
enum lc_interval_rule {
	LC_RULE_FIXED = 0,	/* -i TIME */
	LC_RULE_ADAPTIVE = 1,	/* fine until the error goal, then by the sampling
				 * thread's CPU budget (files of an earlier rule) */
	LC_RULE_ADAPTIVE_START = 2,	/* fine for LC_RULE_START_TICKS ticks or until
					 * the error goal, then by the whole record
					 * process's CPU budget */
};

/* The fine start of LC_RULE_ADAPTIVE_START, in ticks. */
#define LC_RULE_START_TICKS 64u

/* LC_RULE_ADAPTIVE_START once the error goal is reached: the budget is
 * divided by LC_RULE_GOAL_BUDGET_DIV and the top multiplied by
 * LC_RULE_GOAL_TOP_MUL (the error bars only shrink from there, and fewer
 * wake-ups slow the program less). */
#define LC_RULE_GOAL_BUDGET_DIV 2u
#define LC_RULE_GOAL_TOP_MUL 4u

/* fd_flags: descriptors ran out during the recording; threads seen after
 * that have no scheduler or counter source. */
#define LC_END_FDS_SHORT 1u

/* ---- the writer ------------------------------------------------------------
 * Every call writes one checksummed block with one write(2), so a file cut at
 * any point holds every block completed before the cut.  Functions return 0
 * or -errno (e.g. -ENOSPC); after an error later calls fail with the same
 * error.
 *
 * Ownership: not thread-safe; exactly one thread owns a writer at a time and
 * ownership moves only across a happens-before edge.  In a session
 * (sampler/session.c) the command's thread opens it and writes the info
 * block, hands it to the sampling thread with lc_sampler_go (the thread
 * start / go signal orders the writes), the sampling thread writes process,
 * thread, window and wasted blocks, and lc_sampler_stop (a join) hands it
 * back for the trace source, the end block and lc_pwriter_close.
 */
struct lc_pwriter;

/* Create path, which must not exist (lc_out_create: a name left there or
 * planted is refused, never followed or truncated; lc_out_prepare makes
 * room first), and write the header and info.  NULL on error with
 * *err = -errno (-EEXIST: the name exists). */
struct lc_pwriter *lc_pwriter_open(const char *path, const struct lc_prof_info *info,
				   int *err);
int lc_pwriter_process(struct lc_pwriter *w, const struct lc_prof_process *p);
int lc_pwriter_thread(struct lc_pwriter *w, const struct lc_prof_thread *t);
int lc_pwriter_window(struct lc_pwriter *w, const struct lc_prof_window *win);
int lc_pwriter_wasted(struct lc_pwriter *w, const struct lc_prof_wasted *x);
/* A move block (x->from to x->to; x->task ignored). */
int lc_pwriter_move(struct lc_pwriter *w, const struct lc_prof_wasted *x);
/* The sync block: the SL of every named synchronization object so far (a
 * later sync block of the same source replaces an earlier one). */
int lc_pwriter_sync(struct lc_pwriter *w, uint8_t source, uint32_t n,
		    const struct lc_prof_sync *sy);
/* The events block: once, before any counts block. */
int lc_pwriter_events(struct lc_pwriter *w, uint32_t n, const struct lc_prof_event *ev);
int lc_pwriter_counts(struct lc_pwriter *w, const struct lc_prof_counts *c);
int lc_pwriter_end(struct lc_pwriter *w, const struct lc_prof_end *e);
int lc_pwriter_rank(struct lc_pwriter *w, const struct lc_prof_rank *r);
/* A machine block (format minor 4). */
int lc_pwriter_machine(struct lc_pwriter *w, const struct lc_prof_machine *m);
/* A place block (format minor 5): the place rows of one window of one
 * source (every row's source and window; -EINVAL for a row of another),
 * written right after that window's block.  A thread's time that no row
 * places is in place 0 (the reader adds that row), so a writer may leave
 * out the rows of place 0 and object 0.  lc_pwriter_places takes source
 * and window from pl[0] and writes nothing for n = 0. */
int lc_pwriter_places(struct lc_pwriter *w, uint32_t n, const struct lc_prof_place *pl);
int lc_pwriter_places_of(struct lc_pwriter *w, uint8_t source, uint32_t window, uint32_t n,
			 const struct lc_prof_place *pl);
/* A module block (format minor 5): modules of place words, written before
 * the end block (a later one of the same pid and hash replaces it). */
int lc_pwriter_module(struct lc_pwriter *w, const struct lc_prof_module *m);
/* A names block (format minor 5): the names of the "what" fields of place
 * words (a later one replaces an earlier one). */
int lc_pwriter_place_names(struct lc_pwriter *w, uint32_t n,
			   const struct lc_prof_place_name *names);
/* From now on, hand each finished block to a background thread that writes
 * it (still with one write(2) per block, in order), so that the owner never
 * waits for the disk: a write throttled by the kernel's dirty-page limits or
 * a slow device does not stop the sampler's ticks.  A write error shows at
 * the owner's next call and at close.  Returns 0 or -errno. */
int lc_pwriter_async(struct lc_pwriter *w);
/* Bytes handed to the background writer and not yet written. */
size_t lc_pwriter_queued(struct lc_pwriter *w);
/* Close the file (after the background writer, if any, has written every
 * block; fsync first).  Returns the first error of the writer's life, or 0.
 * Accepts NULL. */
int lc_pwriter_close(struct lc_pwriter *w);

/* ---- the reader ------------------------------------------------------------ */

/* One source's data, with wasted corrections applied. */
struct lc_prof_data {
	int present;			/* any window of this source */
	uint32_t nwindows;
	struct lc_prof_window *windows;	/* in index order */
	struct lc_acct total;		/* sum of the windows */
	uint32_t max_n, team;		/* over all windows */
	uint32_t nthreads;		/* per-thread totals, indexed by thread */
	struct lc_prof_trow *threads;
	uint32_t ntags;			/* per-tag totals, sorted by tag */
	struct lc_prof_tagrow *tags;
	/* counter totals (lc_profile.nevents values each), NULL without */
	uint64_t ev_total[LC_PROF_MAX_EVENTS];
	uint64_t *ev_window;		/* [window index in windows[]][event] */
	uint64_t *ev_thread;		/* [thread][event] */
	uint64_t *ev_tag;		/* [index in tags[]][event] */
	/* place rows (format minor 5), summed over windows: one row per
	 * (thread, pid, place, obj), corrections applied; sorted by thread,
	 * then place, then obj */
	uint32_t nplaces;
	struct lc_prof_place *places;	/* window = UINT32_MAX in totals */
};

struct lc_profile {
	uint32_t version;
	struct lc_prof_info info;
	uint32_t nprocesses;
	struct lc_prof_process *processes;
	uint32_t nthreads;
	struct lc_prof_thread *threads;
	uint32_t nranks;		/* rank blocks, in file order */
	struct lc_prof_rank *ranks;
	struct lc_prof_data data[LC_NSRC];
	uint32_t nevents;		/* counters recorded (events block) */
	struct lc_prof_event *events;
	uint32_t nmodules;		/* module blocks (minor 5) */
	struct lc_prof_module *modules;
	uint32_t nplace_names;		/* the last names block (minor 5) */
	struct lc_prof_place_name *place_names;
	uint32_t nsync;			/* synchronization objects (sync blocks) */
	struct lc_prof_sync *sync;
	uint32_t nmachine;		/* machine blocks (minor 4), in file order */
	struct lc_prof_machine *machine;
	struct lc_prof_machine machine_total;	/* their sum, spans without
						 * LC_MACH_PARTIAL only
						 * (len_ns: the spans' sum) */
	int ended;			/* an end block was read */
	struct lc_prof_end end;
	int cut;			/* the file ends inside a block or lacks the end */
	uint64_t cut_offset;		/* where the last complete block ended */
	uint32_t procs;			/* p: end.procs, else option, team, max_n */
	uint32_t procs_from;
};

/* Read a profile.  Returns 0, or -errno with a one-line reason in
 * err[errlen] (e.g. "not a lostcycles profile", "version 7 is newer than this
 * tool (1)", "no complete block").  A file cut after its first blocks is not
 * an error: it loads with cut = 1.  Free with lc_profile_free. */
int lc_profile_read(const char *path, struct lc_profile **out, char *err, size_t errlen);

/* How much of a profile the reader keeps in memory.  The defaults (all 0)
 * keep everything: every window with its thread rows. */
struct lc_read_opts {
	int no_rows;		/* fold each window's thread rows into the
				 * per-thread totals and drop them (windows
				 * then have nthreads 0, threads NULL): memory
				 * no longer grows with threads x windows */
	uint32_t max_windows;	/* 0: keep every window; else at most this
				 * many, merging neighbours pairwise (nmerged)
				 * when there would be more */
};

/* The name of the "what" field of place word w from the profile's names
 * block ("MPI_Recv", "mutex"), or NULL when it has none for it. */
const char *lc_profile_place_what(const struct lc_profile *prof, uint64_t w);

/* lc_profile_read with options; o NULL means all defaults.  The file is
 * read block by block, never whole. */
int lc_profile_read_opts(const char *path, const struct lc_read_opts *o,
			 struct lc_profile **out, char *err, size_t errlen);

/* lc_profile_read on the n bytes at buf (the whole file), which stay the
 * caller's.  The reader of lc_profile_read, for tests and fuzzing. */
int lc_profile_parse(const void *buf, size_t n, struct lc_profile **out, char *err,
		     size_t errlen);

/* lc_profile_parse with options (o NULL: all defaults), for tests and
 * fuzzing of what lc_profile_read_opts keeps. */
int lc_profile_parse_opts(const void *buf, size_t n, const struct lc_read_opts *o,
			  struct lc_profile **out, char *err, size_t errlen);

/* The rank record of process pid, or NULL (the last one wins). */
const struct lc_prof_rank *lc_profile_rank_of(const struct lc_profile *prof, int32_t pid);

/* Free a profile; accepts NULL. */
void lc_profile_free(struct lc_profile *prof);

/* The categories of a whole source (or of one tag's row) for the profile's
 * p; returns their sum. */
uint64_t lc_profile_finish(const struct lc_profile *prof, const struct lc_acct *a,
			   uint64_t out[LC_NCAT]);

/* ---- what the sampler cost (cost.c, docs/performance.md) ---------------- */

/* The interval rule of end e in words into buf, e.g. "adaptive 100us..1ms
 * (100us until the error goal 1 % at 0.125 s, then within 2 % of a CPU),
 * mean 806us"; "" when e has no interval rule (files before minor 5). */
const char *lc_cost_rule_text(const struct lc_prof_end *e, char *buf, size_t len);

/* The estimated slowdown of the program that a sampler of sampler_cpu_ns
 * over wall_ns caused, as fractions *lo..*hi: 0..0 when it had a CPU of its
 * own (shared_cpu < 0), else from its share s of one CPU: s spread over the
 * ncpus processors the program used, s/n / (1 - s/n) (threads that do not
 * wait for each other), up to s / (1 - s) (a team whose threads wait for
 * the one it preempted).  0, or -ERANGE when the share is beyond what the
 * model describes (more than LC_COST_MODEL_SHARE of the CPU: a sampler that
 * busy-waited on the program's CPU, whose slowdown cannot be estimated;
 * *lo..*hi are then the model's figures at the capped share). */
#define LC_COST_MODEL_SHARE 0.5

/* The estimate of lc_cost_slowdown in words into buf: "~0 (the sampler had
 * a CPU of its own)", "1.6..3.3 % (its 3.2 % of one CPU, CPU 1, taken from
 * the program's 2)", or "cannot be estimated (...)". */
const char *lc_cost_slowdown_text(uint64_t sampler_cpu_ns, uint64_t wall_ns, uint32_t ncpus,
				  int shared_cpu, char *buf, size_t len);
int lc_cost_slowdown(uint64_t sampler_cpu_ns, uint64_t wall_ns, uint32_t ncpus, int shared_cpu,
		      double *lo, double *hi);

#endif /* LC_PROFILE_H */
