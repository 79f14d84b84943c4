/*
 * lc_strace.h — the synchronization trace of a trace-mode recording, for
 * analysis: the fragment instances (each LC_FRAGMENT_BEGIN .. END of a tag,
 * with its times) and the threads' waits (each interval a thread spent in
 * the SYNC state), read from the trace files that "lostcycles record
 * --trace" leaves in LOSTCYCLES_TRACE_DIR.
 *
 * The trace-file layout is the ABI of docs/shm-abi.md ("Trace files"); it is
 * read here by its documented byte offsets, as the profile reader reads the
 * profile, so that analysis needs none of the sampler's or the target's
 * headers (tests/test_lcm.c checks the constants against lc_abi.h).  The
 * files are untrusted input: a bad magic, major version or record size is
 * refused, a file cut inside a record ends at its last whole record.
 */
#ifndef LC_STRACE_H
#define LC_STRACE_H

#include <stddef.h>
#include <stdint.h>

/* The layout constants of docs/shm-abi.md that the reader uses. */
#define LC_STRACE_MAGIC		0x314543415254434cull	/* "LCTRACE1" */
#define LC_STRACE_MAJOR		1u
#define LC_STRACE_HDR		64u	/* header bytes */
#define LC_STRACE_REC		24u	/* record bytes */
#define LC_STRACE_PREFIX	"lostcycles-trace."
#define LC_STRACE_OP_STATE	1u
#define LC_STRACE_OP_RELEASE	6u
#define LC_STRACE_OP_FRAG_BEGIN	10u
#define LC_STRACE_OP_FRAG_END	11u
#define LC_STRACE_ST_SYNC	3u	/* state word bits 0-7 */

/* One instance of a fragment: its tag open from begin to end (ns,
 * CLOCK_MONOTONIC); seq counts the instances of its tag from 1. */
struct lc_strace_inst {
	int64_t tag;
	uint64_t begin, end;
	uint32_t seq;
	int32_t pid;
};

/* One wait: a thread in the SYNC state from begin to end. */
struct lc_strace_wait {
	int32_t pid;
	uint32_t slot;
	uint64_t begin, end;
};

struct lc_strace {
	struct lc_strace_inst *inst;	/* sorted by begin, then end */
	size_t ninst;
	struct lc_strace_wait *wait;	/* sorted by end */
	size_t nwait;
	unsigned files;			/* trace files read */
};

/* Read the trace file at path, or every trace file of one session in the
 * folder at path, into t (zeroed first).  A tag still open at the end of
 * its file ends at the file's last record, as does a thread still waiting.
 * Returns 0, -errno with msg naming the file, -EINVAL with msg (not a trace
 * file, files of two sessions, no trace file in the folder), or -ENOMEM. */
int lc_strace_read(const char *path, struct lc_strace *t, char *msg, size_t len);

/* Free what lc_strace_read allocated; t may be zeroed. */
void lc_strace_free(struct lc_strace *t);

#endif
