/*
 * waits.c — the waits of threads for the waiters' rule (waits.h).
 */
#include "waits.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lc_abi.h"
#include "lc_util.h"
#include "tidy.h"

/* Room for thread th in every array of w; 0 or -ENOMEM. */
static int waits_room(struct lc_waits *w, uint32_t th)
{
	size_t c1 = w->cap, c2 = w->cap, c3 = w->cap;

	if (th < w->cap)
		return 0;
	if (lc_grow((void **)&w->since, &c1, (size_t)th + 1, sizeof(uint64_t)) ||
	    lc_grow((void **)&w->key, &c2, c1, sizeof(uint32_t)) ||
	    lc_grow((void **)&w->began, &c3, c1, 1) ||
	    lc_grow((void **)&w->at, &w->cap, c1, sizeof(uint64_t)))
		return -ENOMEM;
	return 0;
}

int lc_waits_note(struct lc_waits *w, uint32_t th, uint32_t st, uint32_t key, uint64_t t)
{
	if (waits_room(w, th))
		return -ENOMEM;
	if (st != LC_ST_SYNC && st != LC_ST_IDLE) {
		w->since[th] = 0;
		w->began[th] = 0;
		return 0;
	}
	if (!w->since[th] || w->key[th] != key) {
		/* idle before work began and idle since: work is there for it */
		w->began[th] = w->since[th] && st == LC_ST_IDLE && key == (w->key[th] | 1u << 8);
		w->since[th] = t;
	}
	w->key[th] = key;
	w->at[th] = t;
	return 0;
}

/* Room for thread th in the partners' arrays of w; 0 or -ENOMEM. */
static int partners_room(struct lc_waits *w, uint32_t th)
{
	size_t c1 = w->pcap, c2 = w->pcap, c3 = w->pcap, c4 = w->pcap;

	if (th < w->pcap)
		return 0;
	if (lc_grow((void **)&w->rq, &c1, (size_t)th + 1, sizeof(uint64_t)) ||
	    lc_grow((void **)&w->base, &c2, c1, sizeof(uint64_t)) ||
	    lc_grow((void **)&w->used, &c3, c1, sizeof(uint64_t)) ||
	    lc_grow((void **)&w->late, &c4, c1, sizeof(uint64_t)) ||
	    lc_grow((void **)&w->waited, &w->pcap, c1, 1))
		return -ENOMEM;
	return 0;
}

/* The threads a waiter waits for, as one process's (or the ranks') BUSY
 * threads: how many, the least of their run-queue times in the interval,
 * the largest of their run-queue times since they last left a wait. */
struct lc_awaited {
	uint32_t n;
	uint64_t least, most;
};

static void awaited_add(struct lc_awaited *a, uint64_t rq, uint64_t since)
{
	a->least = a->n && a->least < rq ? a->least : rq;
	a->most = a->n && a->most > since ? a->most : since;
	a->n++;
}

/* Advance every thread's run-queue time since its last wait, note the
 * start of each wait, and gather each process's BUSY threads into aw[]. */
static void partners_scan(struct lc_waits *w, const struct lc_obs *o, const uint64_t *rq,
			  uint64_t t, struct lc_awaited *aw)
{
	for (uint32_t i = 0; i < o->nthreads; i++) {
		const struct lc_obs_thread *x = &o->threads[i];
		uint32_t th = x->thread, st = x->state;

		if (st == LC_ST_SYNC || st == LC_ST_IDLE) {
			if (w->since[th] == t) {	/* a wait begins */
				w->base[th] = w->rq[th];
				w->used[th] = 0;
				w->late[th] = 0;
			}
			w->late[th] += x->runq_ns;
			w->waited[th] = 1;
			if (w->began[th])	/* a member not yet arrived at its work */
				awaited_add(&aw[x->proc], rq[i], w->late[th]);
			continue;
		}
		/* it left a wait (seen waiting before, or the stamps say it
		 * came from one inside the interval): a new phase, late by
		 * what it waited for a CPU once its event had happened (the
		 * waiters' rule: a worker queued after the fork) */
		if (x->prev_ns && (x->prev_state == LC_ST_SYNC || x->prev_state == LC_ST_IDLE)) {
			w->rq[th] = (w->waited[th] ? w->late[th] : 0) + x->prev_runq_ns;
		} else if (w->waited[th]) {
			w->rq[th] = w->late[th];
		}
		w->waited[th] = 0;
		w->rq[th] += rq[i];
		if (st == LC_ST_BUSY)
			awaited_add(&aw[x->proc], rq[i], w->rq[th]);
	}
}

/* The threads waiter x waits for: its process's BUSY threads; a rank's,
 * the BUSY threads of the other ranks seen here. */
static struct lc_awaited awaited_of(const struct lc_obs *o, const struct lc_obs_thread *x,
				 const struct lc_awaited *aw)
{
	struct lc_awaited a = { 0 };

	if (!o->procs[x->proc].rank)
		return aw[x->proc];
	for (uint32_t p = 0; p < o->nprocs; p++) {
		if (p == x->proc || !o->procs[p].rank || !aw[p].n)
			continue;
		awaited_add(&a, aw[p].least, aw[p].most);
		a.n += aw[p].n - 1;
	}
	return a;
}

/* Whether the partners' rule is off for this interval: the program has
 * more threads at work (any state but IDLE: a
 * polling MPI wait holds a CPU too) than the machine has CPUs (w->ncpus,
 * 0: not known), or its computing threads fill them: then a partner
 * waiting for a CPU waits behind the program itself, and its waiter's wait stays
 * the program's (LI, SL), as the thesis counts it; the rule is for
 * partners that wait for the CPUs other processes hold. */
static int partners_off(const struct lc_waits *w, const struct lc_obs *o)
{
	uint32_t n = 0, b = 0;

	for (uint32_t i = 0; i < o->nthreads; i++) {
		n += o->threads[i].state != LC_ST_IDLE;
		b += o->threads[i].state == LC_ST_BUSY;
	}
	return w->ncpus && (n > w->ncpus || b >= w->ncpus);
}

int lc_waits_partners(struct lc_waits *w, const struct lc_obs *o, struct lc_obs_thread *th,
		      const uint64_t *rq, uint64_t t, uint64_t dt)
{
	struct lc_awaited *aw;

	if (!w->on) {		/* not asked for: no bookkeeping either */
		for (uint32_t i = 0; i < o->nthreads; i++)
			th[i].partner_ns = 0;
		return 0;
	}
	for (uint32_t i = 0; i < o->nthreads; i++) {
		th[i].partner_ns = 0;
		if (partners_room(w, o->threads[i].thread) || waits_room(w, o->threads[i].thread))
			return -ENOMEM;
	}
	if (o->nprocs > w->awcap &&
	    lc_grow((void **)&w->aw, &w->awcap, o->nprocs, sizeof(*w->aw)))
		return -ENOMEM;
	aw = w->aw;
	if (o->nprocs)		/* (no process seen yet: aw may be NULL) */
		memset(aw, 0, o->nprocs * sizeof(*aw));
	partners_scan(w, o, rq, t, aw);
	if (partners_off(w, o))
		return 0;
	for (uint32_t i = 0; i < o->nthreads; i++) {
		const struct lc_obs_thread *x = &o->threads[i];
		uint32_t k = x->thread;
		struct lc_awaited a;
		uint64_t held = x->runq_ns + x->prev_ns, own = held < dt ? dt - held : 0;
		uint64_t all, debt, ns;

		if ((x->state != LC_ST_SYNC && x->state != LC_ST_IDLE) || !o->procs[x->proc].we ||
		    w->began[k])
			continue;	/* (a worker not yet at its work waits for a CPU) */
		a = awaited_of(o, x, aw);
		if (!a.n)
			continue;
		all = a.least < own ? a.least : own;
		debt = a.most > w->base[k] + w->used[k] ? a.most - w->base[k] - w->used[k] : 0;
		ns = debt > all ? (debt < own ? debt : own) : all;
		th[i].partner_ns = ns;
		w->used[k] += ns;
	}
	return 0;
}

void lc_waits_free(struct lc_waits *w)
{
	LC_FREE_ALL(w->since, w->at, w->key, w->began, w->rq, w->base, w->used, w->late, w->waited,
		    w->aw);
}

int lc_waits_rule_asked(void)
{
	const char *e = getenv("LC_PARTNER_RULE");

	return e && e[0] == '1' && !e[1];
}
