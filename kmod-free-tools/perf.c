/*
 * perf.c — see lc_perf.h.
 */
#include "lc_perf.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

int lc_perf_try(struct perf_event_attr *a, pid_t pid)
{
	long fd;

	a->size = sizeof(*a);
	a->disabled = 1;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, a, pid, -1, -1, 0UL);
	if (fd < 0)
		return -errno;
	close((int)fd);
	return 0;
}
