/*
 * machine.h — the machine's share of the CPUs the program could use:
 * other processes, the sampler itself and the hypervisor (steal), per
 * measuring span, written to the profile as machine blocks
 * (docs/format.md, struct lc_prof_machine).
 *
 * Concurrency: the owner creates the object before the sampling thread
 * starts ticking (lc_sampler_go orders it) and frees it after
 * lc_sampler_stop; in between only the sampling thread calls
 * lc_machine_tick, which is the writer's owner then.
 */
#ifndef LC_MACHINE_H
#define LC_MACHINE_H

#include <stdint.h>

#include "lc_profile.h"
#include "targets.h"

struct lc_machine;

/* A share meter for the targets of reg, writing to w, with the profile's
 * origin t0 and window schedule (window_ns, grow), for a sampler pinned
 * to sampler_cpu (-1: not pinned).  NULL on ENOMEM. */
struct lc_machine *lc_machine_new(struct lc_pwriter *w, struct lc_registry *reg, uint64_t t0,
				  uint64_t window_ns, uint32_t grow, int sampler_cpu);

/* Called by the sampling thread at every tick (now: CLOCK_MONOTONIC): the
 * first call takes the baseline; later ones measure and write a span when
 * a window ended at least LC_MACHINE_EVERY_NS after the previous span, or
 * when last is set (the final tick).  The first spans are held until they
 * are long enough together for /proc/stat's clock ticks (machine.c); a run
 * that ends before is measured whole, one span from the first tick to the
 * last, flagged LC_MACH_PARTIAL | LC_MACH_COARSE (the share unknown) only
 * when even that is too short.  Returns 0 or the writer's -errno. */
int lc_machine_tick(struct lc_machine *m, uint64_t now, int last);

/* The most threads one of the program's processes (its registry's or the
 * recording's roots) had at a read (/proc/PID/stat), 0 before any: how a
 * program that set no flag shows that it created threads.  The owner,
 * after the sampling thread stopped. */
uint32_t lc_machine_max_threads(const struct lc_machine *m);

/* Free; accepts NULL. */
void lc_machine_free(struct lc_machine *m);

#endif /* LC_MACHINE_H */
