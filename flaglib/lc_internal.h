/*
 * lc_internal.h — private declarations shared by the files of liblostcycles.
 * Nothing here is exported from the shared library (-fvisibility=hidden);
 * tests link the static archive and may use the test hooks at the end.
 * The prefix lc_priv_ marks these names as private (C and C++ reserve names
 * with a double underscore).
 */
#ifndef LC_INTERNAL_H
#define LC_INTERNAL_H

#include <pthread.h>
#include <stdint.h>
#include <limits.h>

#include "lc_abi.h"

#define LC_TBUF_RECS 4096u	/* trace records buffered per thread */
#define LC_NO_SLOT UINT32_MAX

/* One thread's trace buffer, on the global list while its thread lives. */
struct lc_tbuf {
	pthread_mutex_t lock;	/* guards n, rec[], slot, tid */
	struct lc_tbuf *next, *prev;
	uint32_t n;		/* records in rec[] */
	uint32_t slot;		/* the thread's slot, LC_NO_SLOT if none */
	uint32_t tid;
	uint32_t pad;
	struct lc_trace_rec rec[LC_TBUF_RECS];
};

/* What the calling thread has done about registration. */
enum lc_thr_state {
	LC_T_FRESH = 0,		/* nothing yet: the next macro registers */
	LC_T_SLOT,		/* owns a slot of the segment */
	LC_T_DUMMY,		/* no session or no free slot: private slot */
	LC_T_DONE,		/* thread exit ran: private slot from now on */
};

/* The calling thread's library state (thread-local). */
struct lc_thr {
	enum lc_thr_state state;
	uint32_t slot;		/* slot index when state == LC_T_SLOT */
	uint32_t tid;
	struct lc_slot *sp;	/* the slot macros store into */
	struct lc_tbuf *buf;	/* trace buffer, NULL until first record */
};

extern __thread struct lc_thr lc_priv_thr;

/*
 * Process state.  Written by setup() and seg_create() in segment.c: under
 * pthread_once, by the fork child handler in a single-threaded child, or by
 * the test hooks while no other thread uses the library; read freely
 * afterwards.
 */
struct lc_global {
	struct lc_seg_hdr *hdr;	/* the mapped segment, NULL = no session */
	uint64_t seg_size;
	uint32_t nslots;
	int trace;		/* trace mode: lc_self stays NULL */
	int trace_fd;		/* O_APPEND trace file, -1 if none */
	int debug;		/* LC_DEBUG=1 */
	char session[LC_SESSION_MAX];
	char shm_name[LC_SESSION_MAX + 64];	/* "/lostcycles.S.PID.NONCE" */
	char trace_path[PATH_MAX];
	pthread_mutex_t plock;	/* process-wide ops in trace mode, tag table */
	pthread_mutex_t list_lock;	/* the list of trace buffers */
	pthread_mutex_t write_lock;	/* one write() batch at a time */
	struct lc_tbuf *tbufs;	/* head of the list */
	pthread_key_t key;	/* thread-exit destructor */
	uint32_t adopt_slot;	/* after exec: the main thread's slot in the segment
				 * taken over from the previous image (atomic),
				 * LC_NO_SLOT when none */
};

extern struct lc_global lc_priv_g;

/* segment.c */
void lc_priv_init(void);
void lc_priv_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* shmscan.c: in setup, look through /dev/shm: remove the names of
 * processes that are gone, and take over this process's own segment of
 * its image before exec (not in trace mode), setting hdr, shm_name,
 * seg_size, nslots and adopt_slot.  start: this process's start time
 * (proc_start).  Returns 1 when a segment was taken over, else 0. */
int lc_priv_shm_scan(uint64_t start);
/* shmscan.c: read the stat file at path (/proc/PID/stat) into buf[size],
 * NUL-terminated; its length, or 0 when it cannot be read.  Only open, read
 * and close: a fork child may call it. */
size_t lc_priv_read_stat(const char *path, char *buf, size_t size);

/* process.c */
void lc_priv_parallel(int d);
void lc_priv_team_set(uint32_t p);

/* elfsym.c: 1 if a loaded object (the main program, a shared library)
 * refers to one of names[0..n) without defining it, else 0. */
int lc_priv_program_refers(const char *const *names, int n);

/* sync.c */
void lc_priv_sync_forget(void);

/* auto.c */
void lc_priv_auto_program_parallel(void);
void lc_priv_auto_program_team(void);
void lc_priv_auto_forget(void);

/* thread.c */
void lc_priv_thread_exit(void *arg);
void lc_priv_thread_forget(void);
/* Register the calling thread if it never was (no store into its slot). */
void lc_priv_thread_ensure(void);

/* place.c: the calling thread's place cell and stamp, those of slot of
 * segment h (h NULL: private ones) */
void lc_priv_place_bind(struct lc_seg_hdr *h, uint32_t slot);
void lc_priv_place_forget(void);
/* Before a layer changes the calling thread's state (kind LC_STAMP_STATE)
 * or place (LC_STAMP_PLACE): stamp what its slot showed until now
 * (lc_abi.h, "stamps"). */
#define LC_STAMP_STATE 1u
#define LC_STAMP_PLACE 2u
void lc_priv_stamp(uint32_t kind);

/* trace.c */
int lc_priv_trace_open(uint64_t nonce, uint64_t start_ns);
void lc_priv_trace_log(uint64_t t_ns, uint16_t op, uint32_t slot, uint64_t arg);
void lc_priv_trace_set_slot(uint32_t slot, uint32_t tid);
void lc_priv_trace_thread_exit(void);
void lc_priv_trace_flush_all(int at_exit);
void lc_priv_trace_discard_all(void);
void lc_priv_trace_close(void);

/*
 * Test hooks.  lc_priv_reinit_for_tests() tears the current session down exactly
 * as process exit does (flush the trace, unlink the segment name) and also
 * unmaps the segment and forgets the calling thread's registration, then
 * reads the environment again and sets up a new session.  Call it only while
 * no other thread uses the library.  Returns 0 when a session is active after
 * the call, -ENOENT when none is configured, another -errno on failure.
 */
int lc_priv_reinit_for_tests(void);
struct lc_seg_hdr *lc_priv_segment(void);
const char *lc_priv_segment_name(void);
const char *lc_priv_trace_file(void);

#endif /* LC_INTERNAL_H */
