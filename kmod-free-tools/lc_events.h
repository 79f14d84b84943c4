/*
 * lc_events.h — the hardware and software event names libpfm4 knows, and
 * whether each one opens here as a perf event.  Nothing here prints.
 */
#ifndef LC_EVENTS_H
#define LC_EVENTS_H

#include <stddef.h>
#include <stdint.h>

enum lc_event_kind { LC_EV_SOFTWARE, LC_EV_HARDWARE, LC_EV_OTHER };

struct lc_event_info {
	char name[128];		/* libpfm4's name, e.g. "CYCLES" */
	char pmu[48];		/* its PMU, e.g. "perf", "amd64_fam19h_zen4" */
	char desc[256];
	char equiv[128];	/* the event it is an alias of, "" none */
	int nattrs;		/* unit masks and modifiers */
	enum lc_event_kind kind;
	uint32_t type;		/* perf_event_attr.type and .config as encoded */
	uint64_t config;
	int encode_err;		/* libpfm4 error (PFM_ERR_*), 0 encoded */
	int open_err;		/* 0 opened here, -errno when it did not */
	int child_err;		/* the same on a child process (as record
				 * opens it on the program's threads) */
};

/* One unit mask or modifier of an event. */
struct lc_event_attr {
	char name[64];
	char desc[256];
	int is_default;
	int is_umask;		/* a unit mask (else a modifier such as u, k) */
};

/* Initialise libpfm4; 0 or -EIO with its reason in msg. */
int lc_events_init(char *msg, size_t len);

/* The events of the present PMU named pmu (NULL: the generic "perf" PMU,
 * "all": every present PMU), each encoded and opened once.  *out gets a
 * malloc'd array of *n.  0, -ENOENT (no such PMU present) or -ENOMEM. */
int lc_events_list(const char *pmu, struct lc_event_info **out, size_t *n);

/* Look up one event by name (optionally "pmu::name[:umask...]"), encode it
 * and open it once.  0 (ev->encode_err may still say the name needs a unit
 * mask), or -ENOENT when libpfm4 does not know the name. */
int lc_event_probe(const char *name, struct lc_event_info *ev);

/* The unit masks and modifiers of event name.  *out malloc'd, *n entries.
 * 0, -ENOENT or -ENOMEM. */
int lc_event_attrs(const char *name, struct lc_event_attr **out, size_t *n);

/* Start (stop) a child process that waits, so that every event probed
 * meanwhile is also opened on another process (child_err).  Without one,
 * child_err is open_err.  0 or -errno. */
int lc_events_child_start(void);
void lc_events_child_stop(void);

/* libpfm4's reason for an encode_err. */
const char *lc_event_encode_error(int encode_err);

/* "software", "hardware", "other". */
const char *lc_event_kind_name(enum lc_event_kind k);

#endif /* LC_EVENTS_H */
