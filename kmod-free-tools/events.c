/*
 * events.c — event names from libpfm4, probed with perf_event_open (see
 * lc_events.h).
 */
#include "lc_events.h"

#include <errno.h>
#include <perfmon/pfmlib_perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lc_perf.h"
#include "lc_util.h"

int lc_events_init(char *msg, size_t len)
{
	int rc = pfm_initialize();

	if (rc != PFM_SUCCESS)
		return lc_fail(msg, len, -EIO, "libpfm4: %s", pfm_strerror(rc));
	return 0;
}

/* The waiting child of lc_events_child_start, 0 none. */
static pid_t child;

int lc_events_child_start(void)
{
	struct lc_spawn_io io = { .die_with_parent = 1 };
	pid_t p = lc_spawn(NULL, &io);

	if (p < 0)
		return p;
	child = p;
	return 0;
}

void lc_events_child_stop(void)
{
	lc_spawn_end(child);
	child = 0;
}

const char *lc_event_kind_name(enum lc_event_kind k)
{
	return k == LC_EV_SOFTWARE ? "software" : k == LC_EV_HARDWARE ? "hardware" : "other";
}

/* Encode ev->pmu::ev->name (or name as given) and open it once. */
static void encode_and_open(const char *name, struct lc_event_info *ev)
{
	struct perf_event_attr a = { 0 };
	pfm_perf_encode_arg_t arg = { .attr = &a, .size = sizeof(arg) };

	ev->encode_err = pfm_get_os_event_encoding(name, PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
	if (ev->encode_err != PFM_SUCCESS) {
		ev->open_err = -ENOENT;
		ev->child_err = -ENOENT;
		return;
	}
	ev->type = a.type;
	ev->config = a.config;
	ev->kind = a.type == PERF_TYPE_SOFTWARE ? LC_EV_SOFTWARE :
		   a.type == PERF_TYPE_HARDWARE || a.type == PERF_TYPE_HW_CACHE ||
		   a.type == PERF_TYPE_RAW || a.type >= PERF_TYPE_MAX ? LC_EV_HARDWARE : LC_EV_OTHER;
	ev->open_err = lc_perf_try(&a, 0);
	ev->child_err = child > 0 ? lc_perf_try(&a, child) : ev->open_err;
}

/* Fill ev from libpfm4's event idx (names and description only). */
static int fill(int idx, struct lc_event_info *ev)
{
	pfm_event_info_t ei = { .size = sizeof(ei) };
	pfm_pmu_info_t pi = { .size = sizeof(pi) };

	if (pfm_get_event_info(idx, PFM_OS_PERF_EVENT, &ei) != PFM_SUCCESS ||
	    pfm_get_pmu_info(ei.pmu, &pi) != PFM_SUCCESS)
		return -ENOENT;
	*ev = (struct lc_event_info){ .nattrs = ei.nattrs };
	ev->kind = pi.type == PFM_PMU_TYPE_CORE || pi.type == PFM_PMU_TYPE_UNCORE ? LC_EV_HARDWARE :
		   LC_EV_OTHER;
	snprintf(ev->name, sizeof(ev->name), "%s", ei.name);
	snprintf(ev->pmu, sizeof(ev->pmu), "%s", pi.name);
	snprintf(ev->desc, sizeof(ev->desc), "%s", ei.desc ? ei.desc : "");
	snprintf(ev->equiv, sizeof(ev->equiv), "%s", ei.equiv ? ei.equiv : "");
	return 0;
}

/* Whether PMU p is present and asked for by pmu ("all": every one but the
 * raw perf PMU); its information into *pi. */
static int pmu_wanted(const char *pmu, int p, pfm_pmu_info_t *pi)
{
	if (pfm_get_pmu_info((pfm_pmu_t)p, pi) != PFM_SUCCESS || !pi->is_present)
		return 0;
	return strcmp(pmu, "all") ? !strcmp(pmu, pi->name) : p != PFM_PMU_PERF_EVENT_RAW;
}

/* Append the events of PMU pi, each encoded and opened once, to (*v)[*cnt]
 * of *cap; 0 or -ENOMEM. */
static int add_events(const pfm_pmu_info_t *pi, struct lc_event_info **v, size_t *cap,
		      size_t *cnt)
{
	for (int i = pi->first_event; i != -1; i = pfm_get_event_next(i)) {
		struct lc_event_info *ev;
		char full[200];

		if (lc_grow((void **)v, cap, *cnt + 1, sizeof(**v)))
			return -ENOMEM;
		ev = &(*v)[*cnt];
		if (fill(i, ev))
			continue;
		snprintf(full, sizeof(full), "%s::%s", ev->pmu, ev->name);
		encode_and_open(full, ev);
		(*cnt)++;
	}
	return 0;
}

int lc_events_list(const char *pmu, struct lc_event_info **out, size_t *n)
{
	struct lc_event_info *v = NULL;
	size_t cap = 0, cnt = 0;
	int found = 0;

	*out = NULL;
	*n = 0;
	if (!pmu)
		pmu = "perf";
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		pfm_pmu_info_t pi = { .size = sizeof(pi) };

		if (!pmu_wanted(pmu, p, &pi))
			continue;
		found = 1;
		if (add_events(&pi, &v, &cap, &cnt)) {
			free(v);
			return -ENOMEM;
		}
	}
	if (!found) {
		free(v);
		return -ENOENT;
	}
	*out = v;
	*n = cnt;
	return 0;
}

int lc_event_probe(const char *name, struct lc_event_info *ev)
{
	int idx = pfm_find_event(name);

	*ev = (struct lc_event_info){ 0 };
	snprintf(ev->name, sizeof(ev->name), "%s", name);
	if (idx < 0 || fill(idx, ev)) {
		ev->encode_err = idx < 0 ? idx : PFM_ERR_NOTFOUND;
		ev->open_err = -ENOENT;
		ev->child_err = -ENOENT;
		ev->kind = LC_EV_OTHER;
		return -ENOENT;
	}
	encode_and_open(name, ev);
	return 0;
}

const char *lc_event_encode_error(int encode_err)
{
	return pfm_strerror(encode_err);
}

int lc_event_attrs(const char *name, struct lc_event_attr **out, size_t *n)
{
	pfm_event_info_t ei = { .size = sizeof(ei) };
	struct lc_event_attr *v;
	int idx = pfm_find_event(name);

	*out = NULL;
	*n = 0;
	if (idx < 0 || pfm_get_event_info(idx, PFM_OS_PERF_EVENT, &ei) != PFM_SUCCESS)
		return -ENOENT;
	v = calloc((size_t)ei.nattrs + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (int k = 0; k < ei.nattrs; k++) {
		pfm_event_attr_info_t ai = { .size = sizeof(ai) };

		if (pfm_get_event_attr_info(idx, k, PFM_OS_PERF_EVENT, &ai) != PFM_SUCCESS)
			continue;
		snprintf(v[*n].name, sizeof(v[*n].name), "%s", ai.name);
		snprintf(v[*n].desc, sizeof(v[*n].desc), "%s", ai.desc ? ai.desc : "");
		v[*n].is_default = ai.is_dfl;
		v[*n].is_umask = ai.type == PFM_ATTR_UMASK;
		(*n)++;
	}
	*out = v;
	return 0;
}
