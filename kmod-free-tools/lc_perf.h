/*
 * lc_perf.h — open a perf event once to learn whether it works here.
 */
#ifndef LC_PERF_H
#define LC_PERF_H

#include <sys/types.h>

/* Declared only: users include <linux/perf_event.h> or libpfm4's
 * <perfmon/pfmlib_perf_event.h> (the same layout; they cannot both be
 * included in one file). */
struct perf_event_attr;

/* Open the event described by a (its size is filled in; user-space only,
 * disabled) on process pid (0 = this process), any CPU, and close it again.
 * Returns 0 when it opened, or -errno (-ENOENT: the kernel knows no such
 * event, typically no hardware PMU; -EACCES/-EPERM: not allowed). */
int lc_perf_try(struct perf_event_attr *a, pid_t pid);

#endif /* LC_PERF_H */
