/*
 * report.h — printing a profile: the pp-style summary with percentages and
 * sampling errors, a pp -l line for runs files, per-thread and timeline
 * tables, per fragment tag, counters, as text, CSV or JSON.  Everything goes
 * to stdout; nothing else is printed (reasons and warnings come back in a
 * buffer).
 */
#ifndef LC_REPORT_H
#define LC_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lc_profile.h"

enum lc_report_fmt { LC_REPORT_TEXT, LC_REPORT_CSV, LC_REPORT_JSON };

/* What to print. */
/* The most timeline windows report holds by default (--max-windows): the
 * file's windows are merged pairwise beyond it (lc_read_opts). */
#define LC_REPORT_MAX_WINDOWS 8192u

struct lc_report_opts {
	const char *file;	/* the profile's name, for the header */
	int have_tag;		/* only the time while fragment tag was open */
	int64_t tag;
	int per_thread;		/* a table of threads x categories */
	int per_rank;		/* ranks x categories and the late arrivers */
	int timeline;		/* one row per timeline window */
	int counters;		/* counter totals per event, thread and tag */
	int lline;		/* one pp -l line instead of everything else */
	int source_set;		/* source was asked for explicitly */
	int format_set;		/* fmt was asked for explicitly */
	const char *note;	/* var=value pairs for the -l line, or NULL */
	enum lc_report_fmt fmt;
	enum lc_source source;
	/* Names for fragment tags, or NULL: tag_name(tag_arg, tag) returns the
	 * name of tag (e.g. "loop.c:12") or NULL when it has none. */
	const char *(*tag_name)(const void *tag_arg, int64_t tag);
	const void *tag_arg;
};

/* Print the report of profile pr as o asks.  Returns 0, with a note about a
 * cut profile in msg ("" when none), or 1 with the reason in msg when the
 * profile has no data for what o asks or o->note gives a key of the -l line
 * another value than the profile's (nothing printed then). */
int lc_report_print(const struct lc_profile *pr, const struct lc_report_opts *o, char *msg,
		    size_t len);

/* The sampler's stall warning, for the command to print once on stderr:
 * returns 1 with "the sampler stalled for 29.6 s at 2.49 s; 2960 ticks (9.1
 * %) were missed: ..." in msg when the longest tick gap exceeds 10 tick
 * intervals or more than 1 % of the ticks were missed, else 0 with "".
 * For files before format minor 2 the missed ticks and the gap's start are
 * estimated from the windows' tick counts (and the message says so). */
int lc_report_stall(const struct lc_profile *pr, char *msg, size_t len);

/* The sampler's missed ticks as the text report counts and prices them:
 * the end block's count (or, for older or cut-short files, the estimate
 * from the windows' tick counts, with estimated set), the ticks taken, and
 * the interval the ticks kept on average (missed x interval x p is their
 * time). */
struct lc_report_missed {
	uint64_t missed, ticks, interval_ns;
	int estimated;
	int64_t gap_start;	/* the longest gap: ns after t0, -1 unknown */
	uint64_t gap_ns;	/* its length, 0 unknown */
};
void lc_report_missed(const struct lc_profile *pr, struct lc_report_missed *m);

/* The ticks sampled window i lacks, for marking where in the run ticks were
 * missed; 0 when m (from lc_report_missed) counts none or i is out of range.  A
 * window of a run with an end block that records its longest gap: the
 * gap's span in it over the mean interval (at least 1 where they overlap;
 * the other gaps' places are not recorded); of an older run (fixed
 * interval): the ticks its wall time holds at the interval beyond one; of
 * a cut-short run: a window without a tick, its wall time over the
 * interval of the last window before it that held some. */
uint64_t lc_report_window_missed(const struct lc_profile *pr, const struct lc_report_missed *m,
				 uint32_t i);

/* The per-rank views of a message-passing job (report_rank.c): printed
 * after the summary, text or CSV.  Returns 0, or 1 with the reason in msg
 * (the profile has no rank records). */
int lc_report_ranks(const struct lc_profile *pr, const struct lc_report_opts *o, char *msg,
		    size_t len);

/* A message-passing job's most persistent late arriver (report_rank.c): in
 * every window where ranks waited (SL), the rank that waited least arrived
 * last; this is the rank that did so most often. */
struct lc_late {
	int32_t rank;
	const char *host;	/* its rank record's host (the profile's), or NULL */
	uint64_t last;		/* windows in which it arrived last */
	uint64_t nwin;		/* windows in which ranks waited */
	uint64_t caused;	/* the others' waiting beyond its own there, ns */
	uint32_t nranks;	/* ranks with threads in the source */
	uint64_t pc;		/* its computation (PC), ns */
	double pc_others;	/* the other ranks' median PC, ns */
	/* The rank that computed most, judged by its work (what the
	 * machine's load does not distort when run-queue time is measured
	 * apart): its computation against the others' median, and the
	 * waits it caused, the others' SL beyond its own summed. */
	struct {
		int32_t rank;
		const char *host;
		uint64_t pc;
		double pc_others;	/* median, ns */
		uint64_t sl;		/* its own SL, ns */
		uint64_t caused;	/* sum over the others of (their SL - its SL), >= 0 */
		uint64_t last;		/* windows in which it arrived last */
	} work;
};

/* Fill *out from source src of pr.  Returns 0, -ENOENT when the profile has
 * no rank records or no window in which ranks waited, or -ENOMEM. */
int lc_report_late(const struct lc_profile *pr, enum lc_source src, struct lc_late *out);

/* The machine's share of the program's CPUs (report_machine.c): a header
 * line, and a note when its load distorts categories.  Returns 1 when it
 * printed, 0 when the profile holds no machine block (format < 1.4). */
int lc_report_machine_text(FILE *out, const struct lc_profile *pr);

/* The member "machine" of the report's document j: {...}, null without
 * machine blocks, with every span when spans is set. */
struct lc_doc;
void lc_report_machine_json(struct lc_doc *j, const struct lc_profile *pr, int spans);

/* " *" when the machine's load distorts category c of pr, else "". */
const char *lc_report_mark(const struct lc_profile *pr, int c);

/* What the recording could not keep apart (report_limits.c): threads
 * without a flag slot, fragment tags beyond the cap; a line each of the
 * text report on stdout, and the fields of the JSON report (each line
 * ending in a comma).  Nothing when the profile does not say. */
void lc_report_limits(const struct lc_profile *pr);
void lc_report_limits_json(struct lc_doc *j, const struct lc_profile *pr);

/* The bottleneck tests per place (bottleneck.c, PPW's): places holding
 * LC_BNECK_HOTSPOT of the total or more; an MPI call among them is flagged
 * when it took more than LC_BNECK_RATIO times its LogGP ideal (the
 * communication loss credited there), another place has no instances in a
 * profile: with trace (a trace file or folder of record --trace, or NULL)
 * each hotspot fragment tag is flagged when its shortest or longest
 * instance is LC_BNECK_SPREAD times off their mean.  A table on stdout as
 * o->fmt says, and in text the count flagged.  0, or -errno with the
 * reason in msg (no places and no trace, a trace that does not read). */
#define LC_BNECK_HOTSPOT 0.05
#define LC_BNECK_RATIO 2.0
#define LC_BNECK_SPREAD 2.0
int lc_report_bottlenecks(const struct lc_profile *pr, const struct lc_report_opts *o,
			  const char *trace, char *msg, size_t len);

#endif /* LC_REPORT_H */
