/*
 * fdroom.h — the sampler's one word on file descriptors running out.
 *
 * A process missing from a recording is worse than a thread without its
 * scheduler or counter source, so once the registry (targets.c) finds no
 * descriptor free to attach a segment, the tick loop's per-thread sources
 * (sched.c, counters.c) open no more for the rest of the recording, and the
 * registry gives up its pidfds (its targets are then watched by kill(pid,
 * 0)): what frees up goes to attaching processes.
 */
#ifndef LC_FDROOM_H
#define LC_FDROOM_H

/* Whether descriptors ran short in this recording.  Set by the registry's
 * scanning thread, cleared when a registry is opened; read by any thread
 * (relaxed: a late read only opens one more source). */
int lc_fds_short(void);

#endif /* LC_FDROOM_H */
