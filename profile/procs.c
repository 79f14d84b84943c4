/*
 * procs.c — how p was chosen, in words (see lc_profile.h).
 */
#include <stdio.h>

#include "lc_profile.h"

/* The words for each LC_PROCS_* value. */
static const char *const procs_from[] = {
	[LC_PROCS_OPTION] = "--procs",
	[LC_PROCS_TEAM] = "LC_TEAM",
	[LC_PROCS_THREADS] = "most threads alive at once",
	[LC_PROCS_RUNNABLE] = "most runnable at once",
};

const char *lc_procs_from_name(uint32_t from)
{
	const char *s = from < sizeof(procs_from) / sizeof(procs_from[0]) ? procs_from[from] : NULL;

	return s ? s : "unknown";
}

int lc_procs_text(char *buf, size_t len, uint32_t p, uint32_t from, uint32_t threads,
		  uint32_t runnable, uint32_t cpus)
{
	int n = snprintf(buf, len, "%u (%s%s)", p, lc_procs_from_name(from),
			 from == LC_PROCS_RUNNABLE && cpus && runnable > cpus ?
			 ", capped by affinity" : "");

	if (n >= 0 && (size_t)n < len && from != LC_PROCS_RUNNABLE)
		n += snprintf(buf + n, len - (size_t)n, "; most runnable at once %u", runnable);
	if (n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "; %u thread%s existed", threads,
			      threads == 1 ? "" : "s");
	if (n >= 0 && (size_t)n < len && cpus)
		n += snprintf(buf + n, len - (size_t)n, "; affinity allows %u", cpus);
	return n;
}
