/*
 * unslotted.c — the threads of a target that have no slot: counted, and
 * their CPU time taken from /proc as far as it can be seen (unslotted.h).
 */
#include "unslotted.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"
#include "lc_util.h"
#include "targets.h"

/* One thread without a slot: the largest run time seen. */
struct lc_unslot_thread {
	uint32_t tid;
	uint64_t ns;
};

/* The slots_full of t's header and the tids its slots hold (at most
 * nslots, into tids[], sorted), read under the guard.  Returns the number
 * of tids, or -1 when the mapping faulted. */
static int read_slots(const struct lc_target *t, uint32_t *refused, uint32_t *tids)
{
	struct lc_guard g;
	struct lc_seg_hdr *h = (struct lc_seg_hdr *)t->hdr;
	volatile int n = 0;

	if (__atomic_load_n(&t->fault, __ATOMIC_ACQUIRE) || sigsetjmp(g.env, 0))
		return -1;
	lc_guard_arm(&g, t->hdr, t->len);
	uint32_t hwm = __atomic_load_n(&h->slot_hwm, __ATOMIC_ACQUIRE);

	*refused = __atomic_load_n(&h->slots_full, __ATOMIC_RELAXED);
	for (uint32_t i = 0; i < hwm && i < t->nslots; i++) {
		uint32_t tid = __atomic_load_n(&lc_seg_slot(h, i)->tid, __ATOMIC_RELAXED);

		if (tid)
			tids[n++] = tid;
	}
	lc_guard_disarm();
	return n;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* A tid against a kept thread, for lc_lower_bound. */
static int cmp_kept(const void *key, const void *elem)
{
	uint32_t x = *(const uint32_t *)key, y = ((const struct lc_unslot_thread *)elem)->tid;

	return (x > y) - (x < y);
}

/* Position of tid in the kept threads of t, or where it goes. */
static uint32_t kept_pos(const struct lc_target *t, uint32_t tid)
{
	return (uint32_t)lc_lower_bound(t->unslot, t->unslot_n, sizeof(*t->unslot), &tid, cmp_kept);
}

/* Keep run time ns of thread tid (the largest seen; a smaller one is a new
 * thread of a reused tid: its predecessor's time stays counted). */
static int keep(struct lc_target *t, uint32_t tid, uint64_t ns)
{
	uint32_t i = kept_pos(t, tid);

	if (i < t->unslot_n && t->unslot[i].tid == tid) {
		if (ns < t->unslot[i].ns)
			t->unslot_done += t->unslot[i].ns;
		t->unslot[i].ns = ns;
		return 0;
	}
	if (t->unslot_n >= LC_UNSLOTTED_MAX)
		return 0;
	if (lc_grow((void **)&t->unslot, &t->unslot_cap, t->unslot_n + 1, sizeof(*t->unslot)))
		return -ENOMEM;
	memmove(&t->unslot[i + 1], &t->unslot[i], (t->unslot_n - i) * sizeof(*t->unslot));
	t->unslot[i] = (struct lc_unslot_thread){ tid, ns };
	t->unslot_n++;
	return 0;
}

/* The run time of thread tid of pid (schedstat's first field, ns), or -1. */
static int64_t run_ns(int32_t pid, uint32_t tid)
{
	char path[64], buf[96];
	unsigned long long ns;

	snprintf(path, sizeof(path), "/proc/%d/task/%" PRIu32 "/schedstat", (int)pid, tid);
	if (lc_read_text(path, buf, sizeof(buf)) || sscanf(buf, "%llu", &ns) != 1)
		return -1;
	return (int64_t)ns;
}

/* Keep the run time of every thread of t's process that is not in
 * tids[0, n) (sorted). */
static int walk_tasks(struct lc_target *t, const uint32_t *tids, int n)
{
	char path[40];
	struct dirent *de;
	DIR *d;
	int r = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)t->pid);
	if (!(d = opendir(path)))
		return 0;	/* gone */
	while (!r && (de = readdir(d))) {
		char *end;
		unsigned long v = strtoul(de->d_name, &end, 10);
		uint32_t tid = (uint32_t)v;
		int64_t ns;

		if (*end || end == de->d_name || !v || v > INT32_MAX ||
		    bsearch(&tid, tids, (size_t)n, sizeof(*tids), cmp_u32))
			continue;
		if ((ns = run_ns(t->pid, tid)) >= 0)
			r = keep(t, tid, (uint64_t)ns);
	}
	closedir(d);
	return r;
}

int lc_unslotted_look(struct lc_target *t, uint64_t now, int force)
{
	uint32_t refused = 0, *tids;
	int n, r;

	if (!force && now < t->unslot_next)
		return 0;
	t->unslot_next = now + LC_UNSLOTTED_EVERY_NS;
	if (!(tids = malloc((size_t)t->nslots * sizeof(*tids))))
		return -ENOMEM;
	n = read_slots(t, &refused, tids);
	if (n < 0 || !refused) {
		free(tids);
		return 0;
	}
	if (refused > t->unslot_refused)	/* a counter: it only grows */
		t->unslot_refused = refused;
	qsort(tids, (size_t)n, sizeof(*tids), cmp_u32);
	r = walk_tasks(t, tids, n);
	free(tids);
	return r;
}

void lc_unslotted_add(const struct lc_target *t, struct lc_unslotted *sum)
{
	uint64_t ns = t->unslot_done;

	for (uint32_t i = 0; i < t->unslot_n; i++)
		ns += t->unslot[i].ns;
	sum->refused = UINT32_MAX - sum->refused < t->unslot_refused ? UINT32_MAX :
		       sum->refused + t->unslot_refused;
	sum->seen += t->unslot_n;
	sum->cpu_ns += ns;
}

void lc_unslotted_free(struct lc_target *t)
{
	free(t->unslot);
	t->unslot = NULL;
	t->unslot_n = 0;
}
