/*
 * lc_opt_session.h — the session's options on the command line.  record,
 * attach and exec each embed one struct lc_session_opts (sampler/
 * session.h) in their options, start it from LC_SESSION_OPTS_DEFAULT, and
 * point their rows at its fields: the rows all three share are
 * LC_OPT_ROWS_SESSION, so that the same options give their samplers the
 * same settings.  Whether the interval is fixed or adaptive is data of the
 * struct (-i sets interval_ns and fixes it: interval_max_ns 0).
 *
 * The command layer's main thread only, as lc_opt_parse.
 */
#ifndef LC_OPT_SESSION_H
#define LC_OPT_SESSION_H

#include <stdint.h>

#include "lc_opt.h"
#include "session.h"

/* Callback of -i TIME: a fixed interval, 1us to 10s, into the struct
 * lc_session_opts opt->field (interval_ns, and interval_max_ns 0: the
 * adaptive rule off).  Returns 0, or -1 after a message. */
int lc_opt_interval(const struct lc_opt *opt, const char *arg);

/* Callback of --window-grow N: 0 (fixed windows) or an even count, 2 or
 * more, of windows after which the window length doubles (lc_window_span),
 * into the uint32_t opt->field. */
int lc_opt_window_grow(const struct lc_opt *opt, const char *arg);

/* The words of --sched (enum lc_sched_source). */
extern const struct lc_opt_word lc_opt_sched_words[];

/* The rows of the session's sources of run-queue time and counters (of
 * the struct lc_session_opts S): --sched, -e, --counter-interval,
 * --miss-latency, --counter-replay, --no-counters. */
#define LC_OPT_ROWS_SOURCES(S) \
	LC_OPT_ENUM("sched", 0, "SOURCE", "run-queue data for resource contention: switch " \
		    "(context-\nswitch records, else schedstat; the default), schedstat,\n" \
		    "or none (RC is na)", &(S)->sched, lc_opt_sched_words), \
	LC_OPT_STRING("events", 'e', "EV,...", "counters, libpfm4 names with modifiers, " \
		      "each optionally\n=cycles|stall|miss|miss-stall|instr|other (default: " \
		      "the\nset for this CPU in events.txt; see lostcycles events)", &(S)->events), \
	LC_OPT_DURATION("counter-interval", 0, "TIME", "read each thread's counters this " \
			"often (10ms)", &(S)->counter_interval_ns, 100000, UINT64_MAX), \
	LC_OPT_REAL("miss-latency", 0, "NS", "ideal latency of one miss: CL = misses x NS " \
		    "(default:\ntransfer_ns of the file of 'lostcycles calibrate --memory')", \
		    &(S)->miss_latency_ns, 1e-9, 999999.999), \
	LC_OPT_FILENAME("counter-replay", 0, "FILE", "take the counts from FILE instead of " \
			"the kernel (tests)", &(S)->counter_replay), \
	LC_OPT_FLAG("no-counters", 0, "no counters (memory loss is na)", &(S)->no_counters)

/* After lc_opt_parse of a table with LC_OPT_ROWS_SESSION(so): the default
 * window follows a long interval, and grows (LC_WINDOW_GROW_DEFAULT)
 * unless -w or --window-grow was given.  Returns 0, or -1 after a message
 * when the window is shorter than the interval. */
int lc_opt_session_settle(struct lc_session_opts *so);

/* The session options that record (attach 1: attach) and exec give their
 * samplers for the options of argv (argv[0] the command's name), before
 * what the run itself sets up (the session's name, trace directory, the
 * miss latency of calibrate's file ...): *so, and the operands' count,
 * or LC_OPT_HELP / LC_OPT_USAGE (message printed).  For the test that
 * the three agree. */
int lc_opt_record_session(int attach, int argc, char **argv, struct lc_session_opts *so);
int lc_opt_exec_session(int argc, char **argv, struct lc_session_opts *so);

/* The rows of record, attach and exec: -i, -w, --window-grow, --jitter
 * into the struct lc_session_opts *S. */
#define LC_OPT_ROWS_SESSION(S) \
	LC_OPT_CALLBACK("interval", 'i', "TIME", "a fixed sampling interval (units ns us ms s;\n" \
			"default: adaptive, 100us until the error bars reach\n1 %, then " \
			"up to 1ms within 2 % of a CPU)", LC_OPT_PTR(struct lc_session_opts, S), \
			lc_opt_interval), \
	LC_OPT_DURATION("window", 'w', "TIME", "timeline window: every window TIME long " \
			"(default:\n10ms, or the interval when that is longer, doubling\n" \
			"after 4096 windows, so that long runs stay small)", &(S)->window_ns, 1, \
			UINT64_MAX), \
	LC_OPT_CALLBACK("window-grow", 0, "N", "after the first N windows (N even), the " \
			"window doubles\nevery N/2 windows; 0: fixed (default 4096 without " \
			"-w,\n0 with -w)", &(S)->window_grow, lc_opt_window_grow), \
	LC_OPT_NUMBER("jitter", 0, "PCT", "make each interval PCT % longer or shorter at " \
		      "random\n(default 50; 0: a fixed grid)", &(S)->jitter_pct, 0, 50)

#endif
