/*
 * lc_abi.h — the shared-memory segment and trace-file layouts: the ABI between
 * liblostcycles (in the profiled program) and the sampler.
 *
 * The sampler treats everything in a segment or trace file as untrusted: it
 * checks magic, version and sizes before use and bounds-checks every index
 * and count it reads.  Layout rules: fixed-width fields, natural alignment,
 * reserved bytes zeroed, new fields only in reserved space (bump the minor
 * version), incompatible change = new major version.  Documented in
 * docs/shm-abi.md; tests/test_abi.c freezes the offsets.
 */
#ifndef LC_ABI_H
#define LC_ABI_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lostcycles.h"

/* ---- names ----------------------------------------------------------------
 * Environment:
 *   LOSTCYCLES_SESSION    session name; unset = no profiling, nothing created
 *   LOSTCYCLES_TRACE      "1" = trace mode: every transition is also logged
 *   LOSTCYCLES_TRACE_DIR  directory of trace files (default: current directory)
 *   LOSTCYCLES_SLOTS      slots per segment (default LC_SLOTS_DEFAULT)
 *
 * A process of session S creates the POSIX shared-memory object
 *   /lostcycles.S.PID.NONCE      (shm_open, O_CREAT|O_EXCL, mode 0600)
 * where NONCE is 16 hex digits, different for each segment (an exec'd image
 * of the same pid makes a new one: the newest segment of a pid wins).
 * Trace mode writes TRACE_DIR/lostcycles-trace.S.PID.NONCE.
 * A session name is 1..LC_SESSION_MAX-1 characters of [A-Za-z0-9_.-].
 */
#define LC_ENV_SESSION   "LOSTCYCLES_SESSION"
#define LC_ENV_TRACE     "LOSTCYCLES_TRACE"
#define LC_ENV_TRACE_DIR "LOSTCYCLES_TRACE_DIR"
#define LC_ENV_SLOTS     "LOSTCYCLES_SLOTS"
#define LC_ENV_HOST      "LOSTCYCLES_HOST"	/* host name a job layer records */
#define LC_ENV_JOB_ID    "LOSTCYCLES_JOB_ID"	/* job id lc_job() records (decimal) */
#define LC_SHM_PREFIX    "lostcycles."
#define LC_TRACE_PREFIX  "lostcycles-trace."
#define LC_SESSION_MAX   64

#define LC_SLOTS_DEFAULT 256u
#define LC_SLOTS_MAX     65536u
#define LC_MAX_TAGS      32u	/* fragment tags active at once per process */

/* ---- the segment ------------------------------------------------------------
 * [ header: LC_HDR_SIZE bytes ][ slot 0 ][ slot 1 ] ... [ slot nslots-1 ]
 */
#define LC_SEG_MAGIC     0x31544d474553434cull	/* "LCSEGMT1" little-endian */
#define LC_ABI_MAJOR     LC_ABI_VERSION	/* lostcycles.h; also the SONAME major */
#define LC_ABI_MINOR     5u
#define LC_HDR_SIZE      4096u

/* Flags in lc_seg_hdr.flags. */
#define LC_SEG_TRACE     1u	/* the process runs in trace mode */
#define LC_SEG_TRACE_CUT 2u	/* its trace stopped early: the program took
				 * over the trace descriptor and the file could
				 * not be opened again (set, with release, after
				 * publication: the one flag that changes) */

#define LC_MAX_SYNC      48u	/* named synchronization objects per process */

/* A synchronization object (LC_SYNC_BEGIN_ON, LC_NAME; ABI 1.2): a slot's
 * flags carry its index + 1.  obj is written once, before the entry is
 * counted in sync_n (release); name is guarded by seq (odd while written). */
struct lc_sync_entry {
	uint64_t obj;		/* the program's integer or address */
	uint32_t seq;		/* even: name is stable */
	uint32_t reserved;
	char name[48];		/* NUL-terminated, "" = none */
};

/* One active fragment tag: depth > 0 while the tag is open. */
struct lc_tag_entry {
	int64_t tag;
	uint32_t depth;
	uint32_t reserved;
};

/*
 * The segment header.  Cache line 0 is written once at creation; line 1 holds
 * the process-wide predicates (written by the program's threads with atomics);
 * line 2 the slot high-water mark; the tag table is guarded by a sequence
 * counter: writers make tag_seq odd, change the table, make it even again;
 * a reader retries while it is odd or changed during the copy.
 */
struct lc_seg_hdr {
	/* line 0: identity, written once before the segment is published */
	uint64_t magic;		/* LC_SEG_MAGIC */
	uint16_t abi_major;	/* LC_ABI_MAJOR */
	uint16_t abi_minor;	/* LC_ABI_MINOR */
	uint32_t hdr_size;	/* LC_HDR_SIZE */
	uint32_t slot_size;	/* sizeof(struct lc_slot) = 64 */
	uint32_t nslots;	/* slots after the header */
	uint64_t seg_size;	/* hdr_size + nslots * slot_size */
	int32_t pid;		/* creating process */
	uint32_t flags;		/* LC_SEG_* */
	uint64_t start_ns;	/* CLOCK_MONOTONIC at creation */
	uint64_t nonce;		/* the NONCE of the segment's name */
	uint64_t proc_start;	/* ABI 1.3: the creating process's start time,
				 * field 22 of /proc/PID/stat (clock ticks after
				 * boot); 0 = unknown */
	/* line 1: process-wide predicates */
	int64_t work_exists;	/* > 0 between PARALLEL_BEGIN and _END (nests) */
	uint32_t solution_found;/* 1 once LC_SOLUTION_FOUND() ran */
	uint32_t team;		/* LC_TEAM(p), 0 = not declared */
	char comm[16];		/* process name, NUL-terminated (written once) */
	uint8_t reserved1[32];
	/* line 2: slot allocation */
	uint32_t slot_hwm;	/* slots [0, slot_hwm) have ever been claimed */
	uint32_t slots_full;	/* registrations refused for lack of a slot */
	uint32_t places_deep;	/* ABI 1.4: places entered deeper than
				 * LC_PLACE_DEPTH (the outer place kept) */
	uint8_t reserved2[52];
	/* line 3..: fragment tags */
	uint32_t tag_seq;	/* sequence counter, odd while being written */
	uint32_t ntags;		/* entries in use in tags[] */
	uint32_t tags_full;	/* FRAGMENT_BEGINs refused: table full */
	uint8_t reserved3[52];
	struct lc_tag_entry tags[LC_MAX_TAGS];
	/* line 12 (ABI 1.1): the job, written once by lc_job() after
	 * publication: the other fields first, then job_ready with release */
	uint32_t job_ready;	/* 1 once the fields below are valid */
	int32_t rank;		/* rank in the job */
	uint32_t job_size;	/* ranks in the job */
	uint32_t job_flags;	/* LC_JOB_* */
	int64_t clock_offset_ns;/* this CLOCK_MONOTONIC minus rank 0's */
	uint64_t job_id;	/* the same in every rank of one job */
	uint8_t reserved12[32];
	/* line 13 (ABI 1.1) */
	char host[64];		/* host name, NUL-terminated */
	/* line 14 (ABI 1.2): the synchronization objects */
	uint32_t sync_n;	/* entries of sync[] in use (release) */
	uint32_t sync_full;	/* objects refused: the table is full */
	uint8_t reserved14[56];
	struct lc_sync_entry sync[LC_MAX_SYNC];
	uint8_t reserved[LC_HDR_SIZE - 960 - LC_MAX_SYNC * 64];
};

_Static_assert(sizeof(struct lc_slot) == 64, "a slot is one cache line");
_Static_assert(sizeof(struct lc_seg_hdr) == LC_HDR_SIZE, "header size");
_Static_assert(offsetof(struct lc_seg_hdr, work_exists) == 64, "line 1");
_Static_assert(offsetof(struct lc_seg_hdr, slot_hwm) == 128, "line 2");
_Static_assert(offsetof(struct lc_seg_hdr, tag_seq) == 192, "line 3");
_Static_assert(offsetof(struct lc_seg_hdr, tags) == 256, "tag table");
_Static_assert(offsetof(struct lc_seg_hdr, job_ready) == 768, "line 12");
_Static_assert(offsetof(struct lc_seg_hdr, host) == 832, "line 13");
_Static_assert(offsetof(struct lc_seg_hdr, sync_n) == 896, "line 14");
_Static_assert(offsetof(struct lc_seg_hdr, sync) == 960, "sync table");
_Static_assert(sizeof(struct lc_sync_entry) == 64, "a sync entry is one cache line");

/* The slot i of a mapped segment (caller checks i < nslots). */
static inline struct lc_slot *lc_seg_slot(struct lc_seg_hdr *h, uint32_t i)
{
	return (struct lc_slot *)((char *)h + LC_HDR_SIZE) + i;
}

/* ---- time ------------------------------------------------------------------
 * CLOCK_MONOTONIC in nanoseconds: the one clock of every time stamp in a
 * segment, a trace file and the sampler (start_ns, t_ns, tick times), so
 * that the library and the sampler compare like with like.  Returns 0 if the
 * clock cannot be read (it always can on Linux).  Needs clock_gettime from
 * <time.h>: compile with _GNU_SOURCE or _POSIX_C_SOURCE >= 199309L.
 */
static inline uint64_t lc_clock_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- process start time ------------------------------------------------------
 * The start time of a process in clock ticks after boot: field 22 of the
 * text of /proc/PID/stat in buf (NUL-terminated), as the library stores it
 * in lc_seg_hdr.proc_start and the sampler compares it.  The name in
 * parentheses (field 2) may hold spaces and parentheses: fields are counted
 * from its last ')'.  Returns 0 when buf has no field 22.
 */
static inline uint64_t lc_stat_start_ticks(const char *buf)
{
	const char *p = strrchr(buf, ')');

	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	return p ? strtoull(p + 1, NULL, 10) : 0;
}

/* ---- fragment tags of the automatic layers ---------------------------------
 * The OpenMP tool (liblostcycles-omp) opens fragment tags of its own for
 * parallel regions and worksharing constructs, made from their codeptr_ra,
 * so that a report can name the source line:
 *   bits 56-63  0x4f ('O'): a tag of the OpenMP tool (LC_TAG_OMP)
 *   bits 40-55  module: 0 = the main program, 0xffff = unknown, else
 *               lc_tag_module_hash() of the module's real path
 *   bits 0-39   the return address as a link-time virtual address of that
 *               module (address minus the module's load bias); the
 *               construct's source line is that of address - 1.
 * Such tags are positive and far above any small tag a program chooses.
 */
#define LC_TAG_OMP		((int64_t)0x4f << 56)
#define LC_TAG_KIND(t)		((uint64_t)(t) >> 56)
#define LC_TAG_MODULE(t)	((uint32_t)(((uint64_t)(t) >> 40) & 0xffffu))
#define LC_TAG_VADDR(t)		((uint64_t)(t) & (uint64_t)0xffffffffffu)
#define LC_TAG_MODULE_MAIN	0u
#define LC_TAG_MODULE_UNKNOWN	0xffffu

/* The module field of a tag for a module whose real path is path: an FNV-1a
 * hash folded into 1..0xfffe. */
static inline uint32_t lc_tag_module_hash(const char *path)
{
	uint32_t h = 2166136261u;

	for (; *path; path++)
		h = (h ^ (unsigned char)*path) * 16777619u;
	return (h ^ (h >> 16)) % 0xfffeu + 1u;
}

/* ---- places (ABI 1.4; docs/where.md) ------------------------------------------
 * A segment with LC_SEG_PLACES in its flags has, after its last slot, one
 * 64-bit place cell per slot (uint64_t place[nslots]; seg_size counts them).
 * A thread's layers store the innermost place the thread is in with one
 * relaxed store (0 when it is in none); the sampler reads it with the slot.
 * The place word:
 *   bits 56-63  kind: LC_PLACE_OMP_REGION, LC_PLACE_OMP_WORK, LC_PLACE_MPI,
 *               LC_PLACE_SYNC; 0 = no place
 *   OpenMP:     bits 40-55 module, bits 0-39 link-time address of the
 *               construct's codeptr_ra (as the tags above)
 *   MPI, sync:  bits 48-55 what (MPI function index in the MPI layer's
 *               table, or enum lc_place_wait), bits 32-47 module, bits 0-31
 *               link-time address of the call site's return address
 *               (LC_PLACE_NOADDR when unknown or above 4 GiB)
 */
#define LC_SEG_PLACES		4u
#define LC_PLACE_OMP_REGION	0x4fu	/* 'O', the same kind as LC_TAG_OMP */
#define LC_PLACE_OMP_WORK	0x57u	/* 'W' */
#define LC_PLACE_MPI		0x4du	/* 'M' */
#define LC_PLACE_SYNC		0x53u	/* 'S' */
#define LC_PLACE_KIND(w)	((uint32_t)((uint64_t)(w) >> 56))
#define LC_PLACE_WHAT(w)	((uint32_t)(((uint64_t)(w) >> 48) & 0xffu))
#define LC_PLACE_NOADDR		0xffffffffu
#define LC_PLACE_DEPTH		8u	/* places a thread's stack holds */
/* MPI and sync words: module (bits 32-47) and address (bits 0-31). */
#define LC_PLACE_SITE_MODULE(w)	((uint32_t)(((uint64_t)(w) >> 32) & 0xffffu))
#define LC_PLACE_SITE_VADDR(w)	((uint32_t)(uint64_t)(w))

/* The place cells of a mapped segment with LC_SEG_PLACES (the caller checks
 * the flag and that seg_size counts them). */
static inline uint64_t *lc_seg_places(struct lc_seg_hdr *h)
{
	return (uint64_t *)(void *)((char *)h + LC_HDR_SIZE + (size_t)h->nslots * sizeof(struct lc_slot));
}


/* ---- stamps (ABI 1.5; docs/shm-abi.md "Stamps") ------------------------------
 * A segment with LC_SEG_STAMPS (only together with LC_SEG_PLACES) has, after
 * its place cells, one stamp per slot (struct lc_stamp stamp[nslots];
 * seg_size counts them): the thread's last LC_STAMP_DEPTH changes of state
 * or place made by its layers, each with what the slot showed before it.
 * The sampler charges a tick by the thread's state at the instant its
 * timer fired, not at the later instant it ran: its own wake-up may have
 * preempted a thread and made another wait in between.
 *
 * A change is a group of stores less than LC_STAMP_GROUP_NS after its
 * first, with at most one change of state and one of place (a wait's place
 * and its state are one change).  The writer of change n (counted from 0)
 * stores head = n + 1 (release), then in entry n % LC_STAMP_DEPTH t_ns = 0,
 * state, flags and place (what the slot showed before the change), then
 * t_ns = the time of the group's last store (release).  A reader takes an
 * entry only when it reads the same non-zero t_ns before and after its
 * fields, and the entries only when head did not move meanwhile.
 */
#define LC_SEG_STAMPS		8u
#define LC_STAMP_GROUP_NS	2000u
#define LC_STAMP_DEPTH		4u

struct lc_stamp_entry {
	uint64_t t_ns;		/* CLOCK_MONOTONIC of the change; 0 = being
				 * written */
	uint64_t place;		/* the place cell before it */
	uint32_t state;		/* the slot's state word before it */
	uint32_t flags;		/* the slot's flags before it */
};

struct lc_stamp {
	uint64_t head;		/* changes stamped; 0 = none */
	uint64_t reserved[3];
	struct lc_stamp_entry e[LC_STAMP_DEPTH];
};

_Static_assert(sizeof(struct lc_stamp) == 128, "a stamp is two cache lines");

/* Where the stamps of a segment of n slots begin: after its place cells,
 * at the next multiple of 64 bytes. */
static inline uint64_t lc_seg_stamps_at(uint32_t n)
{
	return ((uint64_t)LC_HDR_SIZE + (uint64_t)n * (sizeof(struct lc_slot) + 8u) + 63u) &
	       ~(uint64_t)63u;
}

/* The size of a segment of n slots whose flags are flags, 0 when flags
 * name a layout no version has (stamps without places). */
static inline uint64_t lc_seg_size_of(uint32_t flags, uint32_t n)
{
	if (flags & LC_SEG_STAMPS)
		return flags & LC_SEG_PLACES ?
		       lc_seg_stamps_at(n) + (uint64_t)n * sizeof(struct lc_stamp) : 0;
	return (uint64_t)LC_HDR_SIZE +
	       (uint64_t)n * (sizeof(struct lc_slot) + (flags & LC_SEG_PLACES ? 8u : 0u));
}

/* The stamps of a mapped segment with LC_SEG_STAMPS (the caller checks the
 * flags and that seg_size counts them). */
static inline struct lc_stamp *lc_seg_stamps(struct lc_seg_hdr *h)
{
	return (struct lc_stamp *)(void *)((char *)h + lc_seg_stamps_at(h->nslots));
}

/* An OpenMP place word: kind, module field, link-time address. */
static inline uint64_t lc_place_omp(uint32_t kind, uint32_t module, uint64_t vaddr)
{
	return (uint64_t)kind << 56 | (uint64_t)(module & 0xffffu) << 40 |
	       (vaddr & 0xffffffffffull);
}

/* An MPI or sync place word: kind, what, module field and call site (an
 * address that does not fit 32 bits is LC_PLACE_NOADDR). */
static inline uint64_t lc_place_site(uint32_t kind, uint32_t what, uint32_t module,
				     uint64_t vaddr)
{
	if (vaddr > 0xfffffffeull)
		vaddr = LC_PLACE_NOADDR;
	return (uint64_t)kind << 56 | (uint64_t)(what & 0xffu) << 48 |
	       (uint64_t)(module & 0xffffu) << 32 | vaddr;
}

/* What a thread of an LC_PLACE_SYNC place waits for (its "what" field). */
#define LC_PLACE_WAITS(X)                                               \
	X(LC_WAIT_MUTEX, "mutex")                                       \
	X(LC_WAIT_RWLOCK, "rwlock")                                     \
	X(LC_WAIT_COND, "condition")                                    \
	X(LC_WAIT_BARRIER, "barrier")                                   \
	X(LC_WAIT_JOIN, "join")                                         \
	X(LC_WAIT_SEM, "semaphore")                                     \
	X(LC_WAIT_SPIN, "spinlock")                                     \
	X(LC_WAIT_USER, "LC_SYNC_BEGIN_ON")                              \
	X(LC_WAIT_OMP_CRITICAL, "omp critical")                         \
	X(LC_WAIT_OMP_BARRIER, "omp barrier")

#define LC_PLACE_ENUM_(e, name) e,
enum lc_place_wait { LC_WAIT_NONE = 0, LC_PLACE_WAITS(LC_PLACE_ENUM_) LC_WAIT_N };

/* The MPI functions of an LC_PLACE_MPI place, by their index (its "what"
 * field): the functions liblostcycles-mpi wraps that can wait.  Append
 * only: profiles carry the index (and the sampler writes these names into
 * the profile's names block). */
#define LC_MPI_FUNCS(X)                                                 \
	X(LC_MPIF_SEND, "MPI_Send")                                     \
	X(LC_MPIF_SSEND, "MPI_Ssend")                                   \
	X(LC_MPIF_RSEND, "MPI_Rsend")                                   \
	X(LC_MPIF_BSEND, "MPI_Bsend")                                   \
	X(LC_MPIF_RECV, "MPI_Recv")                                     \
	X(LC_MPIF_SENDRECV, "MPI_Sendrecv")                             \
	X(LC_MPIF_SENDRECV_REPLACE, "MPI_Sendrecv_replace")             \
	X(LC_MPIF_PROBE, "MPI_Probe")                                   \
	X(LC_MPIF_MPROBE, "MPI_Mprobe")                                 \
	X(LC_MPIF_MRECV, "MPI_Mrecv")                                   \
	X(LC_MPIF_WAIT, "MPI_Wait")                                     \
	X(LC_MPIF_WAITALL, "MPI_Waitall")                               \
	X(LC_MPIF_WAITANY, "MPI_Waitany")                               \
	X(LC_MPIF_WAITSOME, "MPI_Waitsome")                             \
	X(LC_MPIF_TEST, "MPI_Test")                                     \
	X(LC_MPIF_TESTALL, "MPI_Testall")                               \
	X(LC_MPIF_TESTANY, "MPI_Testany")                               \
	X(LC_MPIF_TESTSOME, "MPI_Testsome")                             \
	X(LC_MPIF_IPROBE, "MPI_Iprobe")                                 \
	X(LC_MPIF_IMPROBE, "MPI_Improbe")                               \
	X(LC_MPIF_BARRIER, "MPI_Barrier")                               \
	X(LC_MPIF_BCAST, "MPI_Bcast")                                   \
	X(LC_MPIF_REDUCE, "MPI_Reduce")                                 \
	X(LC_MPIF_ALLREDUCE, "MPI_Allreduce")                           \
	X(LC_MPIF_SCAN, "MPI_Scan")                                     \
	X(LC_MPIF_EXSCAN, "MPI_Exscan")                                 \
	X(LC_MPIF_GATHER, "MPI_Gather")                                 \
	X(LC_MPIF_GATHERV, "MPI_Gatherv")                               \
	X(LC_MPIF_SCATTER, "MPI_Scatter")                               \
	X(LC_MPIF_SCATTERV, "MPI_Scatterv")                             \
	X(LC_MPIF_ALLGATHER, "MPI_Allgather")                           \
	X(LC_MPIF_ALLGATHERV, "MPI_Allgatherv")                         \
	X(LC_MPIF_ALLTOALL, "MPI_Alltoall")                             \
	X(LC_MPIF_ALLTOALLV, "MPI_Alltoallv")                           \
	X(LC_MPIF_ALLTOALLW, "MPI_Alltoallw")                           \
	X(LC_MPIF_REDUCE_SCATTER, "MPI_Reduce_scatter")                 \
	X(LC_MPIF_REDUCE_SCATTER_BLOCK, "MPI_Reduce_scatter_block")     \
	X(LC_MPIF_COMM_SPLIT, "MPI_Comm_split")                         \
	X(LC_MPIF_COMM_DUP, "MPI_Comm_dup")                             \
	X(LC_MPIF_WIN_FENCE, "MPI_Win_fence")                           \
	X(LC_MPIF_WIN_WAIT, "MPI_Win_wait")                             \
	X(LC_MPIF_WIN_START, "MPI_Win_start")                           \
	X(LC_MPIF_WIN_COMPLETE, "MPI_Win_complete")                     \
	X(LC_MPIF_WIN_LOCK, "MPI_Win_lock")                             \
	X(LC_MPIF_WIN_UNLOCK, "MPI_Win_unlock")                         \
	X(LC_MPIF_WIN_LOCK_ALL, "MPI_Win_lock_all")                     \
	X(LC_MPIF_WIN_UNLOCK_ALL, "MPI_Win_unlock_all")                 \
	X(LC_MPIF_WIN_FLUSH, "MPI_Win_flush")                           \
	X(LC_MPIF_WIN_FLUSH_ALL, "MPI_Win_flush_all")

enum lc_mpi_func { LC_MPIF_NONE = 0, LC_MPI_FUNCS(LC_PLACE_ENUM_) LC_MPIF_N };

/* The name of the "what" field of a place word of kind LC_PLACE_MPI or
 * LC_PLACE_SYNC (from the tables LC_PLACE_WAITS and LC_MPI_FUNCS), NULL for an
 * unknown index or another kind. */
static inline const char *lc_place_what_name(uint32_t kind, uint32_t what)
{
#define LC_PLACE_NAME_(e, name) [e] = name,
	static const char *const waits[] = { LC_PLACE_WAITS(LC_PLACE_NAME_) };
	static const char *const mpi[] = { LC_MPI_FUNCS(LC_PLACE_NAME_) };
#undef LC_PLACE_NAME_

	if (kind == LC_PLACE_SYNC && what < sizeof(waits) / sizeof(waits[0]))
		return waits[what];
	if (kind == LC_PLACE_MPI && what < sizeof(mpi) / sizeof(mpi[0]))
		return mpi[what];
	return NULL;
}

/* ---- trace files -------------------------------------------------------------
 * [ lc_trace_hdr ][ lc_trace_rec ]...   Records are appended in batches by
 * each thread, so they are ordered per thread, not globally: readers sort by
 * time.  A file cut inside a record ends at the last whole record.
 */
#define LC_TRACE_MAGIC   0x314543415254434cull	/* "LCTRACE1" little-endian */

struct lc_trace_hdr {
	uint64_t magic;		/* LC_TRACE_MAGIC */
	uint16_t abi_major;
	uint16_t abi_minor;
	uint32_t rec_size;	/* sizeof(struct lc_trace_rec) */
	int32_t pid;
	uint32_t reserved0;
	uint64_t nonce;		/* the segment's nonce */
	uint64_t start_ns;	/* CLOCK_MONOTONIC at creation */
	uint8_t reserved[24];
};

struct lc_trace_rec {
	uint64_t t_ns;		/* CLOCK_MONOTONIC of the transition */
	uint16_t op;		/* enum lc_op: STATE, QUEUE_EMPTY, TASK, WASTED,
				 * REGISTER, RELEASE, PARALLEL, SOLUTION, TEAM,
				 * FRAGMENT_BEGIN, FRAGMENT_END */
	uint16_t reserved;
	uint32_t slot;		/* slot index; UINT32_MAX for process-wide ops */
	uint64_t arg;		/* see enum lc_op; STATE carries the new word */
};

_Static_assert(sizeof(struct lc_trace_hdr) == 64, "trace header size");
_Static_assert(sizeof(struct lc_trace_rec) == 24, "trace record size");

#endif /* LC_ABI_H */
