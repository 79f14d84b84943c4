/*
 * wake.h — wake-ups of threads from the scheduler's tracepoints: the
 * sched:sched_wakeup event opened through perf_event_open
 * (PERF_TYPE_TRACEPOINT) on every CPU, one ring buffer per CPU, read by the
 * sampling thread without interrupting anyone.  A thread's wake-up ends its
 * wait (for a lock, a condition, a barrier, a message, I/O): from then until
 * it is switched in it waits for a processor (lc_sched.h).
 *
 * The tracepoint's id and the offset of its pid field are read from tracefs;
 * when tracefs is not mounted, lc_wake_open mounts it at /sys/kernel/tracing
 * (root only) for as long as it reads them and unmounts it again.
 *
 * Threads: all on one thread (the session's for open and close, the
 * sampling thread's for drain).  Nothing here prints.
 */
#ifndef LC_WAKE_H
#define LC_WAKE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

struct lc_wake;

/* Open the wake-up tracepoint on every CPU.  NULL with a one-line reason in
 * why[len] when it cannot be (tracefs cannot be mounted, the event does not
 * exist, perf_event_open refuses: not root and perf_event_paranoid > -1). */
struct lc_wake *lc_wake_open(char *why, size_t len);

/* Called once per wake-up: the woken thread's kernel id and the time
 * (CLOCK_MONOTONIC ns) it became runnable. */
typedef void (*lc_wake_fn)(void *arg, pid_t tid, uint64_t t);

/* Read every wake-up logged since the previous call, in each CPU's order. */
void lc_wake_drain(struct lc_wake *w, lc_wake_fn fn, void *arg);

/* Wake-ups the kernel dropped because a ring was full. */
uint64_t lc_wake_lost(const struct lc_wake *w);

/* Close the events (NULL is accepted). */
void lc_wake_close(struct lc_wake *w);

struct perf_event_attr;

/* Fill *a for an event of type and config whose samples carry sample_type
 * and are stamped with CLOCK_MONOTONIC (the clock of the sampler's ticks);
 * the rest is zero. */
void lc_perf_mono_attr(struct perf_event_attr *a, uint32_t type, uint64_t config,
		       uint64_t sample_type);

/* perf_event_open(a, tid, cpu) without a group, close-on-exec: fd or -errno. */
int lc_perf_open(struct perf_event_attr *a, pid_t tid, int cpu);

/* Copy n bytes at offset off of a perf ring's data area of size bytes
 * (wrapping at its end).  Inline: the sampling thread calls it per record. */
static inline void lc_ring_copy(const uint8_t *data, uint64_t size, uint64_t off, void *dst,
				size_t n)
{
	uint64_t o = off % size;
	size_t first = (size_t)(size - o) < n ? (size_t)(size - o) : n;

	memcpy(dst, data + o, first);
	memcpy((uint8_t *)dst + first, data, n - first);
}

#endif /* LC_WAKE_H */
