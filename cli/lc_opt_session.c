/*
 * lc_opt_session.c — the session's options on the command line: -i,
 * --window-grow and the windows settled after parsing.  See
 * lc_opt_session.h.
 */
#include "lc_opt_session.h"
#include "lc_profile.h"
#include "lc_util.h"

#include <err.h>

#define INTERVAL_MIN_NS 1000u			/* -i: 1us */
#define INTERVAL_MAX_NS 10000000000ull		/* to 10s */

int lc_opt_interval(const struct lc_opt *opt, const char *arg)
{
	struct lc_session_opts *so = opt->field;
	struct lc_opt d = *opt;

	d.kind = LC_OPT_K_DURATION;
	d.field = &so->interval_ns;
	d.min = INTERVAL_MIN_NS;
	d.max = INTERVAL_MAX_NS;
	if (lc_opt_set(&d, arg))
		return -1;
	so->interval_max_ns = 0;	/* fixed: the adaptive rule is off */
	return 0;
}

int lc_opt_window_grow(const struct lc_opt *opt, const char *arg)
{
	uint64_t v;

	/* the schedule doubles the length every N/2 windows after the first
	 * N, so an odd N has no level boundary to double at */
	if (lc_parse_u64(arg, 0, UINT32_MAX - 1, &v) || v == 1 || v % 2)
		return lc_opt_bad(opt, arg, "0: fixed windows; else an even number of windows, "
				  "2 or more, after which the window doubles");
	*(uint32_t *)opt->field = (uint32_t)v;
	return 0;
}

int lc_opt_session_settle(struct lc_session_opts *so)
{
	int given = lc_opt_given("window", 'w');

	if (!given && so->window_ns < so->interval_ns)
		so->window_ns = so->interval_ns;	/* the default follows a long interval */
	/* -w asks for that resolution over the whole run; without it the
	 * windows grow, so that an hour's profile stays small */
	if (!lc_opt_given("window-grow", 0))
		so->window_grow = given ? 0 : LC_WINDOW_GROW_DEFAULT;
	if (so->window_ns >= so->interval_ns)
		return 0;
	warnx("the window (-w) must not be shorter than the interval (the interval must be "
	      "1us..10s)");
	return -1;
}

const struct lc_opt_word lc_opt_sched_words[] = {
	{ "switch", LC_SCHED_SWITCH }, { "auto", LC_SCHED_SWITCH },
	{ "schedstat", LC_SCHED_SCHEDSTAT }, { "none", LC_SCHED_NONE }, { NULL, 0 },
};
