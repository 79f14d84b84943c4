/*
 * profile_read_records.c — the blocks the reader keeps as records: info,
 * process, rank, thread, machine span, module, names of place words,
 * sync, events and end (docs/format.md).
 */
#include "profile_read.h"
#include "profile_format.h"
#include "lc_util.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

int lc_rd_parse_info(struct rstate *s, struct cur *c)
{
	struct lc_prof_info *in = &s->prof->info;
	int oom = 0;

	lc_rd_get_fields(c, in, &lc_pf_info, &oom);
	in->unavailable &= (1u << LC_NCAT) - 1;
	/* minor 3: the window schedule's growth (absent before: fixed) */
	if (!c->why && c->n - c->off >= 4)
		lc_rd_get_fields(c, in, &lc_pf_info_grow, &oom);
	s->have_info = 1;
	return oom ? -ENOMEM : 0;
}

/* Append record rec (size bytes, just read) to the array *arr of *n rows
 * (capacity *cap) unless the block is invalid; a record not stored has its
 * string str freed.  0, or -ENOMEM (also when reading it ran out: oom). */
static int append_rec(struct cur *c, void *arr, uint32_t *n, size_t *cap, const void *rec,
		      size_t size, char *str, int oom)
{
	if (c->why || lc_grow(arr, cap, (size_t)*n + 1, size)) {
		free(str);
		return oom || !c->why ? -ENOMEM : 0;
	}
	memcpy(*(char **)arr + (size_t)(*n)++ * size, rec, size);
	return 0;
}

int lc_rd_parse_process(struct rstate *s, struct cur *c)
{
	struct lc_profile *pr = s->prof;
	struct lc_prof_process p = { 0 };
	int oom = 0;

	lc_rd_get_fields(c, &p, &lc_pf_process, &oom);
	return append_rec(c, &pr->processes, &pr->nprocesses, &s->pcap, &p, sizeof(p), p.comm, oom);
}

/* A rank block (minor 1): the job identity of a process. */
int lc_rd_parse_rank(struct rstate *s, struct cur *c)
{
	struct lc_profile *pr = s->prof;
	struct lc_prof_rank r = { 0 };
	int oom = 0;

	lc_rd_get_fields(c, &r, &lc_pf_rank, &oom);
	if (!c->why && (r.rank < 0 || (uint32_t)r.rank >= r.size))
		lc_rd_bad(c, "rank outside the job's size");
	return append_rec(c, &pr->ranks, &pr->nranks, &s->rcap, &r, sizeof(r), r.host, oom);
}

/* Whether the parts of machine span m fit its total, for 1 to 65536 CPUs. */
static int machine_ok(const struct lc_prof_machine *m)
{
	uint64_t parts = 0;
	const uint64_t v[4] = { m->program_ns, m->sampler_ns, m->other_ns, m->steal_ns };

	for (int i = 0; i < 4; i++) {
		if (v[i] > m->total_ns || parts > UINT64_MAX - v[i])
			return 0;
		parts += v[i];
	}
	return parts <= m->total_ns && m->ncpus > 0 && m->ncpus <= 1u << 16 &&
	       m->start_ns <= UINT64_MAX - m->len_ns;
}

/* A machine block (minor 4): one span of the machine's share, added to
 * the profile's unless it is partial or the sum of lengths or of totals
 * would pass 2^64 ns. */
int lc_rd_parse_machine(struct rstate *s, struct cur *c)
{
	struct lc_profile *pr = s->prof;
	struct lc_prof_machine m = { 0 }, *t = &pr->machine_total;

	lc_rd_get_fields(c, &m, &lc_pf_machine, NULL);
	if (!c->why && !machine_ok(&m))
		lc_rd_bad(c, "machine span: its parts exceed its total, or no CPU");
	if (append_rec(c, &pr->machine, &pr->nmachine, &s->mcap, &m, sizeof(m), NULL, 0))
		return -ENOMEM;
	/* the parts fit the total, so the parts' sums fit when the total's does */
	if (c->why || m.flags & LC_MACH_PARTIAL || t->total_ns > UINT64_MAX - m.total_ns ||
	    t->len_ns > UINT64_MAX - m.len_ns)
		return 0;
	if (m.ncpus > t->ncpus)
		t->ncpus = m.ncpus;
	t->len_ns += m.len_ns;
	t->total_ns += m.total_ns;
	t->program_ns += m.program_ns;
	t->sampler_ns += m.sampler_ns;
	t->other_ns += m.other_ns;
	t->steal_ns += m.steal_ns;
	return 0;
}

const struct lc_prof_rank *lc_profile_rank_of(const struct lc_profile *prof, int32_t pid)
{
	for (uint32_t i = prof->nranks; i-- > 0;)
		if (prof->ranks[i].pid == pid)
			return &prof->ranks[i];
	return NULL;
}

int lc_rd_parse_thread(struct rstate *s, struct cur *c)
{
	struct lc_profile *pr = s->prof;
	struct lc_prof_thread t;

	lc_rd_get_fields(c, &t, &lc_pf_thread, NULL);
	if (!c->why && t.idx != pr->nthreads)
		lc_rd_bad(c, "thread index out of order");
	return append_rec(c, &pr->threads, &pr->nthreads, &s->tcap, &t, sizeof(t), NULL, 0);
}

/* Free what a module record holds. */
void lc_rd_free_module(void *row)
{
	struct lc_prof_module *m = row;

	free(m->path);
	free(m->build_id);
}

/* Free the names of place words of a profile. */
void lc_rd_free_place_names(struct lc_profile *pr)
{
	LC_FREE_FIELD(pr->place_names, pr->nplace_names, name);
	pr->place_names = NULL;
	pr->nplace_names = 0;
}

/* A names block (type 16) replaces the names read so far. */
int lc_rd_parse_place_names(struct rstate *s, struct cur *c)
{
	struct lc_profile *pr = s->prof;
	uint32_t n = lc_rd_getcount(c, 6);

	if (c->why)
		return 0;
	lc_rd_free_place_names(pr);
	pr->place_names = calloc(n ? n : 1, sizeof(*pr->place_names));
	if (!pr->place_names)
		return -ENOMEM;
	return lc_rd_get_rows(c, pr->place_names, sizeof(*pr->place_names), n, &pr->nplace_names,
			      &lc_pf_place_name_row);
}

const char *lc_profile_place_what(const struct lc_profile *prof, uint64_t w)
{
	uint8_t kind = (uint8_t)(w >> 56), what = (uint8_t)(w >> 48);

	for (uint32_t i = 0; i < prof->nplace_names; i++)
		if (prof->place_names[i].kind == kind && prof->place_names[i].what == what)
			return prof->place_names[i].name;
	return NULL;
}

/* A module block (type 15): a later one of the same pid and hash replaces
 * an earlier one. */
int lc_rd_parse_module(struct rstate *s, struct cur *c)
{
	struct lc_profile *pr = s->prof;
	struct lc_prof_module m = { 0 }, *slot = NULL;
	int oom = 0;

	lc_rd_get_fields(c, &m, &lc_pf_module, &oom);
	if (c->n - c->off >= 9) {	/* appended in minor 5: older files have none */
		lc_rd_get_fields(c, &m, &lc_pf_module_bias, NULL);
		m.based = m.based != 0;
	}
	if (!c->why && m.hash > 0xffffu)
		lc_rd_bad(c, "module hash out of range");
	for (uint32_t i = 0; i < pr->nmodules && !slot; i++)
		if (pr->modules[i].pid == m.pid && pr->modules[i].hash == m.hash)
			slot = &pr->modules[i];
	if (c->why || oom ||
	    (!slot && lc_grow((void **)&pr->modules, &s->modcap, (size_t)pr->nmodules + 1,
			      sizeof(m)))) {
		free(m.path);
		free(m.build_id);
		return oom || !c->why ? -ENOMEM : 0;
	}
	if (slot) {
		free(slot->path);
		free(slot->build_id);
	} else {
		slot = &pr->modules[pr->nmodules++];
	}
	*slot = m;
	return 0;
}

/* Drop the sync records of source src, making room for n more. */
static int sync_drop(struct lc_profile *pr, uint8_t src, uint32_t n)
{
	struct lc_prof_sync *all = calloc((size_t)pr->nsync + n + 1, sizeof(*all));
	uint32_t k = 0;

	if (!all)
		return -ENOMEM;
	for (uint32_t i = 0; i < pr->nsync; i++) {
		if (pr->sync[i].source == src)
			free(pr->sync[i].name);
		else
			all[k++] = pr->sync[i];
	}
	free(pr->sync);
	pr->sync = all;
	pr->nsync = k;
	return 0;
}

/* A sync block replaces the records of its source read so far. */
int lc_rd_parse_sync(struct rstate *s, struct cur *c)
{
	struct lc_profile *pr = s->prof;
	uint8_t src = lc_rd_get8(c);
	uint32_t n = lc_rd_getcount(c, 24), k = pr->nsync;
	int r;

	if (c->why || src >= LC_NSRC)
		return 0;
	if (sync_drop(pr, src, n))
		return -ENOMEM;
	k = pr->nsync;
	r = lc_rd_get_rows(c, pr->sync, sizeof(*pr->sync), n, &pr->nsync, &lc_pf_sync_row);
	for (uint32_t i = k; i < pr->nsync; i++)
		pr->sync[i].source = src;
	return r;
}

int lc_rd_parse_events(struct rstate *s, struct cur *c)
{
	struct lc_profile *pr = s->prof;
	uint32_t n = lc_rd_getcount(c, 8), got = 0;

	if (c->why)
		return 0;
	if (pr->events)
		return lc_rd_bad(c, "second events block");
	if (n > LC_PROF_MAX_EVENTS)
		return lc_rd_bad(c, "too many events");
	pr->events = calloc(n ? n : 1, sizeof(*pr->events));
	if (!pr->events)
		return -ENOMEM;
	pr->nevents = n;
	if (lc_rd_get_rows(c, pr->events, sizeof(*pr->events), n, &got, &lc_pf_event_row))
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		if (pr->events[i].role >= LC_EVR_NROLES)
			pr->events[i].role = LC_EVR_OTHER;
	for (int k = 0; k < LC_NSRC && !c->why; k++)
		if (lc_rd_fit_counters(s, &pr->data[k], &s->src[k]))
			return -ENOMEM;
	return 0;
}

/* The parts of an end block appended in later minors, each read when the
 * block holds more, and marked as read (the int at flag) when whole. */
static const struct end_part {
	const struct lc_pf_layout *l;
	size_t flag;
} end_parts[] = {
	{ &lc_pf_end_ext, offsetof(struct lc_prof_end, ext) },			/* minor 2 */
	{ &lc_pf_end_p, offsetof(struct lc_prof_end, p_rules) },		/* minor 4 */
	{ &lc_pf_end_rule, offsetof(struct lc_prof_end, interval_rule) },	/* minor 5 */
	{ &lc_pf_end_fds, offsetof(struct lc_prof_end, fds) },			/* minor 5 */
	{ &lc_pf_end_limits, offsetof(struct lc_prof_end, limits) },		/* minor 5 */
};

/* The appended parts of an end block, as far as present. */
static void parse_end_ext(struct cur *c, struct lc_prof_end *e, int *oom)
{
	for (size_t i = 0; i < sizeof(end_parts) / sizeof(end_parts[0]); i++) {
		if (c->why || c->off == c->n)
			return;
		lc_rd_get_fields(c, e, end_parts[i].l, oom);
		e->unavailable &= (1u << LC_NCAT) - 1;
		if (!c->why)
			*(int *)(void *)((char *)e + end_parts[i].flag) = 1;
	}
}

int lc_rd_parse_end(struct rstate *s, struct cur *c)
{
	struct lc_prof_end *e = &s->prof->end;
	int oom = 0;

	free(e->reason);	/* a second end block replaces the first */
	lc_rd_get_fields(c, e, &lc_pf_end, &oom);
	parse_end_ext(c, e, &oom);
	if (!c->why)
		s->prof->ended = 1;
	return oom ? -ENOMEM : 0;
}
