/*
 * perfetto.c — Chrome trace event JSON of a profile's timeline (see
 * perfetto.h).
 */
#include "perfetto.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lc_emit.h"
#include "lc_util.h"
#include "timeline.h"

#define PID_TOOL 0		/* the process of counters and tags */
#define TID_TAG0 1000000	/* tag tracks: TID_TAG0 + the tag's index */
#define TID_PLACES (1 << 22)	/* a thread's place track: its tid + this
				 * (Linux tids stay below 2^22) */
#define PLACE_ARGS 5		/* places a place slice's args name */

/* An open slice of one track. */
struct run {
	int open;
	int cat;		/* a category, or -1 for a tag */
	uint64_t start, end;	/* ns after t0 */
};

/* The writer's state.  The slices of a track are written one after the
 * other: the last one's track, its end in ns and that end as a reader
 * parses it (ts + dur in doubles), where the next slice on the track that
 * starts there begins. */
struct pf {
	struct lc_doc d;	/* the document, written as it goes */
	int sliced;		/* a slice was written: the fields below hold */
	int64_t pid, tid;	/* the track of the last slice */
	uint64_t end_ns;
	double end_at;
};

/* ns as microseconds with three decimals (exact ns), into buf. */
static const char *us_text(char buf[32], uint64_t ns)
{
	snprintf(buf, 32, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
	return buf;
}

/* The double a JSON reader gets from us(ns): the decimal, correctly
 * rounded (as strtod, JavaScript's Number and Python's float do). */
static double us_parsed(uint64_t ns)
{
	char buf[32];

	return strtod(us_text(buf, ns), NULL);
}

/* The duration d for which a reader's t + d is exactly tn, the parsed end:
 * readers sum ts and dur in doubles, and a decimal duration (48206.233
 * after 201015.567) may sum to one unit in the last place past the next
 * slice's ts, which Chrome's trace parser then drops as overlapping.  tn - t
 * is exact when t >= tn / 2 (Sterbenz); else the nearest double that sums
 * to tn is searched for, one unit in the last place at a time.  When none
 * does (t + d steps over tn: t has a bit at half tn's last place and tn's
 * last bit is odd, so both ties round away), the largest d whose sum stays
 * below tn is taken, never an overlap that a parser would drop; the next
 * slice of the track then starts at t + d as parsed (slice_at), one unit
 * in the last place before tn, so that the two still meet exactly. */
static double meet(double t, double tn)
{
	double d = tn - t;

	for (int i = 0; i < 64 && t + d != tn; i++)
		d = nextafter(d, t + d < tn ? HUGE_VAL : 0);
	while (t + d > tn && d > 0)	/* no exact one: the largest below tn */
		d = nextafter(d, 0);
	return d;
}

/* The shortest decimal that parses to d, into buf. */
static const char *shortest(char buf[40], double d)
{
	for (int prec = 9; prec <= 17; prec++) {
		snprintf(buf, 40, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	return buf;
}

/* A time of ns that a reader parses to at, as member key: the exact
 * decimal when it does, else the shortest decimal of at (which differs
 * from the exact one by far less than 1 ns). */
static void us_at(struct lc_doc *d, const char *key, uint64_t ns, double at)
{
	char buf[40];

	lc_doc_raw(d, key, at == us_parsed(ns) ? us_text(buf, ns) : shortest(buf, at));
}

/* Start an event (one line of the trace's array): its fixed fields, the
 * rest and its close (lc_doc_end) left to the caller. */
static void ev_open(struct pf *f, const char *ph, int64_t pid, int64_t tid)
{
	lc_doc_obj(&f->d, NULL, LC_DOC_TIGHT);
	lc_doc_str(&f->d, "ph", ph);
	lc_doc_int(&f->d, "pid", pid);
	lc_doc_int(&f->d, "tid", tid);
}

/* A metadata event naming a process or thread. */
static void meta(struct pf *f, const char *what, int64_t pid, int64_t tid, const char *name)
{
	ev_open(f, "M", pid, tid);
	lc_doc_str(&f->d, "name", what);
	lc_doc_obj(&f->d, "args", LC_DOC_TIGHT);
	lc_doc_str(&f->d, "name", name);
	lc_doc_end(&f->d);
	lc_doc_end(&f->d);
}

/* A sample of counter track name at ts (ns), open at its args object
 * (counter_close ends both). */
static void counter_open(struct pf *f, const char *name, uint64_t ts)
{
	char buf[32];

	ev_open(f, "C", PID_TOOL, 0);
	lc_doc_str(&f->d, "name", name);
	lc_doc_raw(&f->d, "ts", us_text(buf, ts));
	lc_doc_obj(&f->d, "args", LC_DOC_TIGHT);
}

static void counter_close(struct pf *f)
{
	lc_doc_end(&f->d);
	lc_doc_end(&f->d);
}

/* Where a slice of track (pid, tid) from start begins as parsed: where
 * the track's last slice ended when it ends at start, else the parsed
 * exact decimal. */
static double slice_at(const struct pf *f, int64_t pid, int64_t tid, uint64_t start)
{
	if (f->sliced && pid == f->pid && tid == f->tid && start == f->end_ns)
		return f->end_at;
	return us_parsed(start);
}

/* The last slice was of track (pid, tid), ending at end ns, at as parsed. */
static void remember_end(struct pf *f, int64_t pid, int64_t tid, uint64_t end, double at)
{
	f->sliced = 1;
	f->pid = pid;
	f->tid = tid;
	f->end_ns = end;
	f->end_at = at;
}

/* The ts and dur of a slice of track (pid, tid) from start to end (ns
 * after t0), meeting the track's last slice and the next one as parsed;
 * remembers where it ends. */
static void slice_times(struct pf *f, int64_t pid, int64_t tid, uint64_t start, uint64_t end)
{
	double t = slice_at(f, pid, tid, start), d = meet(t, us_parsed(end));

	us_at(&f->d, "ts", start, t);
	us_at(&f->d, "dur", end - start, d);
	remember_end(f, pid, tid, end, t + d);
}

/* A complete slice, its close (lc_doc_end) left to the caller (for args). */
static void slice_open(struct pf *f, int64_t pid, int64_t tid, const char *name,
		       const char *cat, uint64_t start, uint64_t end)
{
	ev_open(f, "X", pid, tid);
	lc_doc_str(&f->d, "name", name);
	lc_doc_str(&f->d, "cat", cat);
	slice_times(f, pid, tid, start, end);
}

/* A complete slice. */
static void slice(struct pf *f, int64_t pid, int64_t tid, const char *name, const char *cat,
		  uint64_t start, uint64_t end)
{
	slice_open(f, pid, tid, name, cat, start, end);
	lc_doc_end(&f->d);
}


/* Name the processes and threads of the profile. */
static void names(struct pf *f, const struct lc_profile *pr)
{
	char buf[512];

	meta(f, "process_name", PID_TOOL, 0, "lostcycles: all processors");
	for (uint32_t i = 0; i < pr->nprocesses; i++) {
		const struct lc_prof_process *p = &pr->processes[i];
		const struct lc_prof_rank *rk = lc_profile_rank_of(pr, p->pid);

		if (rk)
			snprintf(buf, sizeof(buf), "rank %d on %s (%s %d)", rk->rank,
				 rk->host ? rk->host : "?", p->comm ? p->comm : "?", p->pid);
		else
			snprintf(buf, sizeof(buf), "%s %d on %s", p->comm ? p->comm : "process",
				 p->pid, pr->info.hostname ? pr->info.hostname : "?");
		meta(f, "process_name", p->pid, 0, buf);
	}
	for (uint32_t t = 0; t < pr->nthreads; t++) {
		snprintf(buf, sizeof(buf), "thread %u (tid %d)", t, pr->threads[t].tid);
		meta(f, "thread_name", pr->threads[t].pid, pr->threads[t].tid, buf);
	}
}

/* Name thread t's place track (its thread track's name and "places"). */
static void name_place_track(struct pf *f, const struct lc_profile *pr, uint32_t t)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "thread %u (tid %d) places", t, pr->threads[t].tid);
	meta(f, "thread_name", pr->threads[t].pid, (int64_t)pr->threads[t].tid + TID_PLACES, buf);
}


/* The track a thread's slices go to. */
struct track {
	struct pf *f;
	int64_t pid, tid;
};

/* lc_run_fn writing one run as a slice of its track. */
static int track_slice(void *arg, int cat, uint64_t start, uint64_t end)
{
	struct track *k = arg;

	slice(k->f, k->pid, k->tid, lc_cat_info(cat)->name, lc_cat_info(cat)->key, start, end);
	return 0;
}

/* A sample of the processors track at ts: the processors in each measured
 * category, cat[] over wall (cat NULL: all 0, the track's end). */
static void processors_sample(struct pf *f, const struct lc_profile *pr, uint64_t ts,
			      const uint64_t *cat, uint64_t wall)
{
	counter_open(f, "processors", ts);
	for (int c = 0; c < LC_NCAT; c++) {
		if ((pr->info.unavailable >> c) & 1)	/* na: omitted, not 0 */
			continue;
		if (cat)
			lc_doc_num(&f->d, lc_cat_info(c)->key, (double)cat[c] / (double)wall, 6);
		else
			lc_doc_int(&f->d, lc_cat_info(c)->key, 0);
	}
	counter_close(f);
}

/* The counter track: processors in each category, per window; a category
 * not measured (na, e.g. memory loss without counters) is left out. */
static void counters(struct pf *f, const struct lc_profile *pr, const struct lc_prof_data *d)
{
	uint64_t end = 0;

	for (uint32_t i = 0; i < d->nwindows; i++) {
		const struct lc_prof_window *w = &d->windows[i];
		uint64_t cat[LC_NCAT], wall = lc_acct_wall(&w->acct);

		if (!wall)
			continue;
		lc_profile_finish(pr, &w->acct, cat);
		processors_sample(f, pr, w->start_ns, cat, wall);
		end = w->start_ns + wall;
	}
	if (end)
		processors_sample(f, pr, end, NULL, 1);
}

/* The machine track's sample of span m. */
static void machine_sample(struct pf *f, const struct lc_prof_machine *m)
{
	double cpus = m->len_ns ? (double)m->total_ns / (double)m->len_ns : 0;

	counter_open(f, "machine (CPUs)", m->start_ns);
	lc_doc_num(&f->d, "other", cpus * lc_machine_pct(m, LC_SHARE_OTHER) / 100, 6);
	lc_doc_num(&f->d, "steal", cpus * lc_machine_pct(m, LC_SHARE_STEAL) / 100, 6);
	lc_doc_num(&f->d, "sampler", cpus * lc_machine_pct(m, LC_SHARE_SAMPLER) / 100, 6);
	counter_close(f);
}

/* The machine's counter track: the share of the program's CPUs (in CPUs)
 * that other processes, the hypervisor and the sampler took, per span. */
static void machine_track(struct pf *f, const struct lc_profile *pr)
{
	uint64_t end = 0;

	for (uint32_t i = 0; i < pr->nmachine; i++) {
		machine_sample(f, &pr->machine[i]);
		end = pr->machine[i].start_ns + pr->machine[i].len_ns;
	}
	if (!end)
		return;
	counter_open(f, "machine (CPUs)", end);
	lc_doc_int(&f->d, "other", 0);
	lc_doc_int(&f->d, "steal", 0);
	lc_doc_int(&f->d, "sampler", 0);
	counter_close(f);
}

/* ns of a tag in the window from start: the open run r grows when it ends
 * there, else it is written and a new one begins. */
static void tag_run(struct pf *f, struct run *r, uint64_t start, uint64_t ns, int64_t tid,
		    const char *label)
{
	if (!ns)
		return;
	if (r->open && r->end == start) {
		r->end += ns;
		return;
	}
	if (r->open)
		slice(f, PID_TOOL, tid, label, "tag", r->start, r->end);
	*r = (struct run){ .open = 1, .cat = -1, .start = start, .end = start + ns };
}

/* The track tid of tag: a slice labelled label while it was open, windows
 * in a row joined. */
static void tag_track(struct pf *f, const struct lc_prof_data *d, int64_t tag, int64_t tid,
		      const char *label)
{
	struct run r = { 0 };

	for (uint32_t i = 0; i < d->nwindows; i++)
		for (uint32_t j = 0; j < d->windows[i].ntags; j++)
			if (d->windows[i].tags[j].tag == tag)
				tag_run(f, &r, d->windows[i].start_ns,
					lc_acct_wall(&d->windows[i].tags[j].acct), tid, label);
	if (r.open)
		slice(f, PID_TOOL, tid, label, "tag", r.start, r.end);
}

/* One track per fragment tag: a slice while it was open. */
static void tag_tracks(struct pf *f, const struct lc_prof_data *d,
		       const char *(*tag_name)(const void *, int64_t), const void *tag_arg)
{
	char label[512];

	for (uint32_t k = 0; k < d->ntags; k++) {
		int64_t tag = d->tags[k].tag;
		const char *name = tag_name ? tag_name(tag_arg, tag) : NULL;

		snprintf(label, sizeof(label), "tag %" PRId64 "%s%s%s", tag, name ? " " : "",
			 name ? name : "", "");
		meta(f, "thread_name", PID_TOOL, TID_TAG0 + k, label);
		tag_track(f, d, tag, TID_TAG0 + k, label);
	}
}


/* ---- place tracks ---------------------------------------------------------- */

/* lc_place_fn writing a run as a slice of the track arg, its args the
 * seconds of the PLACE_ARGS places with the most time in it. */
static int place_slice(void *arg, const struct lc_places *pl, uint32_t place, uint64_t start,
		       uint64_t end)
{
	struct track *k = arg;
	struct lc_doc *d = &k->f->d;
	uint32_t top[PLACE_ARGS], n;
	uint64_t ns[PLACE_ARGS];
	char sec[48];

	slice_open(k->f, k->pid, k->tid, lc_places_name(pl, place), "place", start, end);
	lc_doc_obj(d, "args", LC_DOC_TIGHT);
	n = lc_places_top(pl, PLACE_ARGS, top, ns);
	for (uint32_t i = 0; i < n; i++) {	/* exact ns as seconds */
		snprintf(sec, sizeof(sec), "%" PRIu64 ".%09" PRIu64, ns[i] / 1000000000u,
			 ns[i] % 1000000000u);
		lc_doc_raw(d, lc_places_name(pl, top[i]), sec);
	}
	lc_doc_end(d);
	lc_doc_end(d);
	return 0;
}

/* Thread t's place track. */
static void place_track(struct pf *f, const struct lc_profile *pr, const struct lc_prof_data *d,
			struct lc_places *pl, uint32_t t)
{
	struct track k = { f, pr->threads[t].pid, (int64_t)pr->threads[t].tid + TID_PLACES };

	name_place_track(f, pr, t);
	lc_place_runs(pl, d, t, place_slice, &k);
}

/* The document's opening: what made it, then the array of events opened
 * (one event per line). */
static void head(struct pf *f, const struct lc_profile *pr, enum lc_source src)
{
	struct lc_doc *d = &f->d;

	lc_doc_obj(d, NULL, LC_DOC_TIGHT);
	lc_doc_str(d, "displayTimeUnit", "ns");
	lc_doc_obj(d, "otherData", LC_DOC_TIGHT);
	lc_doc_str(d, "tool", "lostcycles");
	lc_doc_str(d, "command", pr->info.command ? pr->info.command : "");
	lc_doc_uint(d, "p", pr->procs);
	lc_doc_str(d, "source", src == LC_SRC_TRACE ? "trace" : "sampled");
	lc_doc_end(d);
	lc_doc_arr(d, "traceEvents", LC_DOC_TIGHT | LC_DOC_LINES);
}

int lc_perfetto_write(FILE *out, const struct lc_profile *pr, enum lc_source src,
		      const char *(*tag_name)(const void *, int64_t), const void *tag_arg,
		      char *msg, size_t len)
{
	const struct lc_prof_data *d = &pr->data[src];
	struct pf f = { 0 };
	struct lc_places *pl;

	if (!d->present)
		return lc_fail(msg, len, 1, "the profile holds no %s data",
			       src == LC_SRC_TRACE ? "trace" : "sampled");
	if (lc_places_new(pr, src, &pl))
		return lc_fail(msg, len, 1, "out of memory");
	lc_doc_init(&f.d, out, 0);
	head(&f, pr, src);
	names(&f, pr);
	for (uint32_t t = 0; t < pr->nthreads; t++) {
		struct track k = { &f, pr->threads[t].pid, pr->threads[t].tid };

		lc_timeline_runs(d, t, track_slice, &k);
		if (pl)
			place_track(&f, pr, d, pl, t);
	}
	lc_places_free(pl);
	counters(&f, pr, d);
	machine_track(&f, pr);
	tag_tracks(&f, d, tag_name, tag_arg);
	lc_doc_end(&f.d);	/* the events */
	lc_doc_end(&f.d);	/* the document, and its newline */
	return 0;
}

