/*
 * advise.c — evidence, fixes and their ranking (see advise.h).  The
 * detectors are code, the rules that use them are data.
 */
#include "advise.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "lc_emit.h"
#include "lc_util.h"
#include "lca_model.h"
#include "lca_predict.h"
#include "report.h"
#include "where.h"

enum detector { D_TREND, D_TAG, D_PHASES, D_LATE, D_RUNQ, D_LOAD, D_HELD, D_COUNTERS,
		D_SHARE, D_OTHERWISE, D_N };

/* Evidence that names a culprit (a thread index, a tag, a rank) must beat
 * chance at this significance (one-sided): a trend's Pearson r, a late
 * rank's count of windows (Bonferroni over the ranks). */
#define ALPHA 0.01

/* A late rank is named only when the others' waiting for it is at least
 * this share of the category (SL): else it explains little of the loss. */
#define LATE_MIN_SHARE 0.25

/* ... and when it computed at least this much more (a fraction) than the
 * median of the other ranks: else it was late for want of a CPU (the
 * scheduler, other programs), not for its work.  A sampler that shares the
 * program's CPUs may sit on one rank's CPU and slow it by about twice its
 * CPU time there (its ticks and the cache it evicts: 17-20 % for a
 * compute-bound thread beside a sampler at 100 us), so the excess must
 * pass that as well (late_min_excess). */
#define LATE_MIN_EXCESS 0.05

/* Under the machine's load a late rank is judged by its computation
 * alone, which must pass the others' median by this much (plus the
 * sampler's share, as above): computation measured apart from run-queue
 * time is the CPU time of the rank's own work, which others' load changes
 * by little (two ranks of a balanced job beside two CPU-bound processes on
 * 2 CPUs: 0.344 and 0.346 s), while the skew worth naming is a factor
 * (miniAMR --lb_opt 0: 2.4-2.8 x). */
#define LATE_LOAD_EXCESS 0.25

/* The advice's "where:" line names a place only when it holds at least
 * this share of the category: below it no place explains the category. */
#define WHERE_MIN_SHARE 0.05

struct ctx;
struct rule;

/* A detector: its name in the rules file and the function that looks for
 * its evidence (NULL for share and otherwise, which need none).  It
 * returns 1 with the evidence in ev, or 0; a detector that names culprits
 * and found none beyond chance returns 0 with why in ev ("no rank is
 * systematically late: ..."), which the advice prints without a fix.  The
 * table is defined after the functions. */
struct detector_def {
	const char *name;
	int (*find)(const struct ctx *x, const struct rule *ru, char *ev, size_t len);
};

static const struct detector_def detectors[D_N];

struct rule {
	char name[32];
	int cat;
	enum detector det;
	double min_pct;
	double param;
	char *fix;
};

struct lc_rules {
	int n, cap;
	struct rule *v;
};

int lc_rules_path(char *buf, size_t len)
{
	return lc_share_file("advice.txt", "LOSTCYCLES_ADVICE", buf, len);
}

int lc_rules_count(const struct lc_rules *r)
{
	return r ? r->n : 0;
}

static void free_rule(void *r)
{
	free(((struct rule *)r)->fix);
}

void lc_rules_free(struct lc_rules *r)
{
	LC_FREE_TABLE(r, v, n, free_rule);
}

/* The next whitespace-separated word of *s into buf; returns its length. */
static size_t word(const char **s, char *buf, size_t len)
{
	size_t n = 0;

	while (isspace((unsigned char)**s))
		(*s)++;
	while (**s && !isspace((unsigned char)**s) && **s != ':') {
		if (n + 1 < len)
			buf[n++] = **s;
		(*s)++;
	}
	buf[n] = 0;
	return n;
}

/* A number word; 0 or -EINVAL. */
static int number(const char *w, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(w, &end);
	return (!*w || *end || errno || !isfinite(*v)) ? -EINVAL : 0;
}

/* Parse one rule line s (line number ln) into x. */
static int parse_rule(const char *s, int ln, struct rule *x, char *msg, size_t len)
{
	char w[64];
	int d;

	memset(x, 0, sizeof(*x));
	word(&s, x->name, sizeof(x->name));
	word(&s, w, sizeof(w));
	x->cat = lc_cat_by_key(w);
	if (x->cat < 0 || x->cat == LC_CAT_PC)
		return lc_fail(msg, len, -EINVAL, "line %d: '%s' is not a lost cycles category", ln, w);
	word(&s, w, sizeof(w));
	for (d = 0; d < D_N && strcmp(detectors[d].name, w); d++)
		;
	if (d == D_N)
		return lc_fail(msg, len, -EINVAL, "line %d: unknown detector '%s'", ln, w);
	x->det = (enum detector)d;
	word(&s, w, sizeof(w));
	if (number(w, &x->min_pct))
		return lc_fail(msg, len, -EINVAL, "line %d: MIN%% '%s' is not a number", ln, w);
	word(&s, w, sizeof(w));
	if (number(w, &x->param))
		return lc_fail(msg, len, -EINVAL, "line %d: PARAM '%s' is not a number", ln, w);
	while (isspace((unsigned char)*s))
		s++;
	if (*s != ':')
		return lc_fail(msg, len, -EINVAL, "line %d: expected ': FIX' after PARAM", ln);
	s++;
	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return lc_fail(msg, len, -EINVAL, "line %d: the rule has no fix text", ln);
	x->fix = strdup(s);
	if (!x->fix)
		return lc_fail(msg, len, -ENOMEM, "out of memory");
	x->fix[strcspn(x->fix, "\r\n")] = 0;
	return 0;
}

/* Add the rule on line ln of text s to r, unless s is blank or a comment. */
static int add_line(struct lc_rules *r, const char *s, int ln, char *msg, size_t len)
{
	size_t cap = (size_t)r->cap;
	int rc;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s || *s == '#')
		return 0;
	if (lc_grow((void **)&r->v, &cap, (size_t)r->n + 1, sizeof(*r->v)))
		return lc_fail(msg, len, -ENOMEM, "out of memory");
	r->cap = (int)cap;
	rc = parse_rule(s, ln, &r->v[r->n], msg, len);
	if (!rc)
		r->n++;
	return rc;
}

int lc_rules_load(const char *path, struct lc_rules **out, char *msg, size_t len)
{
	struct lc_rules *r = calloc(1, sizeof(*r));
	char line[2048];
	int ln = 0, rc = 0;
	FILE *f = NULL;

	*out = NULL;
	if (!r)
		return lc_fail(msg, len, -ENOMEM, "out of memory");
	f = fopen(path, "r");
	if (!f) {
		rc = lc_fail(msg, len, -errno, "cannot read %s: %s", path, strerror(errno));
		goto out;
	}
	while (!rc && fgets(line, sizeof(line), f))
		rc = add_line(r, line, ++ln, msg, len);
	if (!rc && !r->n)
		rc = lc_fail(msg, len, -EINVAL, "%s holds no rule", path);
out:
	if (f)
		fclose(f);
	if (rc)
		lc_rules_free(r);
	else
		*out = r;
	return rc;
}

/* ---- the evidence ---------------------------------------------------------- */

/* What the detectors read: one source of a profile, finished for p. */
struct ctx {
	const struct lc_profile *pr;
	const struct lc_prof_data *d;
	const struct lc_advise_opts *o;
	uint64_t cat[LC_NCAT];
	uint64_t total;
};

static double sec(uint64_t ns)
{
	return (double)ns / 1e9;
}

static int measured(const struct lc_profile *pr, int c)
{
	return !((pr->info.unavailable >> c) & 1);
}

/* The CPUs the program could use (the machine share's count, else the
 * end block's); 0 unknown. */
static uint32_t cpus_of(const struct lc_profile *pr)
{
	return pr->machine_total.ncpus ? pr->machine_total.ncpus : pr->end.ncpus;
}

/* Whether the threads waited in the run queue (c measured from run-queue
 * data) while p fit the CPUs: then something other than the program held
 * them (other processes, the sampler without a spare CPU). */
static int cpus_held(const struct ctx *x, int c)
{
	const struct lc_profile *pr = x->pr;
	uint32_t cpus = cpus_of(pr);

	return c == LC_CAT_RC && measured(pr, c) && pr->ended && pr->end.ext &&
	       lc_sched_source_name(pr->end.sched_source) && x->cat[c] && cpus &&
	       pr->procs <= cpus;
}

/* Whether the machine's share covers the run: a complete measuring span. */
static int share_measured(const struct lc_profile *pr)
{
	return pr->nmachine && pr->machine_total.total_ns;
}

/* The categories the machine's load distorts (lc_machine_distorts); and
 * when the run has no complete measuring span (a short run) but its
 * threads waited LC_MACHINE_LOAD_PCT of the time or more in the run queue
 * while p fit the CPUs, those of a loaded machine: someone else held the
 * CPUs, and the waits the program's categories show may be that. */
static uint32_t distorts(const struct ctx *x)
{
	if (share_measured(x->pr))
		return lc_machine_distorts(x->pr);
	if (cpus_held(x, LC_CAT_RC) &&
	    100.0 * (double)x->cat[LC_CAT_RC] >= LC_MACHINE_LOAD_PCT * (double)x->total)
		return 1u << LC_CAT_RC | 1u << LC_CAT_SL | 1u << LC_CAT_LI | 1u << LC_CAT_IP;
	return 0;
}

/* Pearson's r of y against 0, 1, ..., n-1; 0 when y is constant. */
static double trend_r(const double *y, uint32_t n)
{
	double mx = (n - 1) / 2.0, my = 0, sxy = 0, sxx = 0, syy = 0;

	for (uint32_t i = 0; i < n; i++)
		my += y[i] / n;
	for (uint32_t i = 0; i < n; i++) {
		sxy += (i - mx) * (y[i] - my);
		sxx += (i - mx) * (i - mx);
		syy += (y[i] - my) * (y[i] - my);
	}
	return sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : 0;
}

/* One-sided p-value of |r| over n points against no correlation (Student's
 * t with n - 2 degrees of freedom); 0 for a perfect fit. */
static double trend_p(double r, uint32_t n)
{
	double a = fabs(r);

	if (n < 3)
		return 1;
	if (a >= 1)
		return 0;
	return gsl_cdf_tdist_Q(a * sqrt((n - 2) / (1 - a * a)), n - 2);
}

/* trend: per-thread totals of c against the thread index. */
static int ev_trend(const struct ctx *x, const struct rule *ru, char *ev, size_t len)
{
	const struct lc_prof_data *d = x->d;
	double y[4096], lo = INFINITY, hi = 0, r, pv;
	uint32_t n = 0, first = 0, last = 0;

	for (uint32_t t = 0; t < d->nthreads && n < 4096; t++) {
		uint64_t tot = 0;

		for (int c = 0; c < LC_NCAT; c++)
			tot += d->threads[t].cat[c];
		if (!tot)
			continue;	/* a thread of another source */
		if (!n)
			first = t;
		last = t;
		y[n] = sec(d->threads[t].cat[ru->cat]);
		lo = y[n] < lo ? y[n] : lo;
		hi = y[n] > hi ? y[n] : hi;
		n++;
	}
	if (n < 3 || hi <= 0 || (hi - lo) < 0.3 * hi)
		return 0;
	r = trend_r(y, n);
	pv = trend_p(r, n);
	if (fabs(r) < ru->param || pv > ALPHA) {
		snprintf(ev, len, "no thread index is systematically %s: r = %+.2f over %u "
			 "threads (p = %.2g, above %.2g)", r > 0 ? "behind" : "ahead", r, n, pv,
			 ALPHA);
		return 0;
	}
	snprintf(ev, len, "per-thread %s %s with the thread index (r = %+.2f over %u threads, "
		 "p = %.2g: thread %u %.3f s ... thread %u %.3f s)", lc_cat_info(ru->cat)->key,
		 r > 0 ? "rises" : "falls", r, n, pv, first, y[0], last, y[n - 1]);
	return 1;
}

/* The share of the run's time (p x wall) that tag was open: where a
 * category spread evenly over time would put that share of it. */
static double tag_time(const struct ctx *x, int64_t tag)
{
	for (uint32_t i = 0; i < x->d->ntags; i++)
		if (x->d->tags[i].tag == tag)
			return x->total ? fmin(1.0, (double)x->pr->procs *
					       (double)lc_acct_wall(&x->d->tags[i].acct) /
					       (double)x->total) : 0;
	return 0;
}

/* tag: the fragment tag holding most of c, beyond its share of the time. */
static int ev_tag(const struct ctx *x, const struct rule *ru, char *ev, size_t len)
{
	const struct lc_prof_data *d = x->d;
	uint64_t best = 0, tc[LC_NCAT];
	int64_t tag = 0;
	double share, open;
	const char *name;

	if (!x->cat[ru->cat])
		return 0;
	for (uint32_t i = 0; i < d->ntags; i++) {
		lc_profile_finish(x->pr, &d->tags[i].acct, tc);
		if (tc[ru->cat] > best)
			best = tc[ru->cat], tag = d->tags[i].tag;
	}
	if (!best)
		return 0;
	share = (double)best / (double)x->cat[ru->cat];
	open = tag_time(x, tag);
	name = x->o->tag_name ? x->o->tag_name(x->o->tag_arg, tag) : NULL;
	if (share < ru->param || share < open + (1 - open) / 2 || share - open < 0.2) {
		snprintf(ev, len, "no fragment stands out: tag %" PRId64 " holds %.0f %% of %s "
			 "while open %.0f %% of the time", tag, 100 * share,
			 lc_cat_info(ru->cat)->key, 100 * open);
		return 0;
	}
	snprintf(ev, len, "fragment tag %" PRId64 "%s%s%s holds %.0f %% of %s (%.3f s) while "
		 "open %.0f %% of the time", tag, name ? " (" : "", name ? name : "",
		 name ? ")" : "", 100 * share, lc_cat_info(ru->cat)->key, sec(best), 100 * open);
	return 1;
}

/* Append " A-B s" (", A-B s" unless first) for the span of windows [a, b] to ev at *off. */
static void add_span(const struct lc_prof_data *d, uint32_t a, uint32_t b, int first,
		     char *ev, size_t len, size_t *off)
{
	const struct lc_prof_window *wb = &d->windows[b];
	double t0 = sec(d->windows[a].start_ns);
	double t1 = sec(wb->start_ns + lc_acct_wall(&wb->acct));

	if (*off < len)
		*off += (size_t)snprintf(ev + *off, len - *off, "%s%.3f-%.3f s", first ? " " : ", ",
					 t0, t1);
}

/* Whether window w holds at least ru->param of its time in ru->cat; its
 * time in the category goes to *in. */
static int hot_window(const struct ctx *x, const struct lc_prof_window *w,
		      const struct rule *ru, uint64_t *in)
{
	uint64_t wc[LC_NCAT], tot = 0;

	lc_profile_finish(x->pr, &w->acct, wc);
	for (int c = 0; c < LC_NCAT; c++)
		tot += wc[c];
	*in = wc[ru->cat];
	return tot && (double)wc[ru->cat] >= ru->param * (double)tot;
}

/* phases: the windows where c is at least param of the window. */
static int ev_phases(const struct ctx *x, const struct rule *ru, char *ev, size_t len)
{
	const struct lc_prof_data *d = x->d;
	uint64_t held = 0, in;
	uint32_t nspan = 0, start = 0;
	size_t off;
	int open = 0;

	off = (size_t)snprintf(ev, len, "%s is %.0f %% or more of the time in",
			       lc_cat_info(ru->cat)->key, 100 * ru->param);
	for (uint32_t i = 0; i <= d->nwindows; i++) {
		int hot = i < d->nwindows && hot_window(x, &d->windows[i], ru, &in);

		if (hot)
			held += in;
		if (hot && !open)
			start = i, open = 1;
		if (!hot && open) {
			if (++nspan <= 4)
				add_span(d, start, i - 1, nspan == 1, ev, len, &off);
			open = 0;
		}
	}
	if (!nspan || !x->cat[ru->cat] || 2 * held < x->cat[ru->cat]) {
		ev[0] = 0;
		return 0;
	}
	if (nspan > 4 && off < len)
		off += (size_t)snprintf(ev + off, len - off, " and %u more spans", nspan - 4);
	if (off < len)
		snprintf(ev + off, len - off, " (holding %.0f %% of it)",
			 100.0 * (double)held / (double)x->cat[ru->cat]);
	return 1;
}

/* One-sided binomial p-value: P(X >= k) for X ~ Bin(n, q). */
static double binom_p(uint64_t k, uint64_t n, double q)
{
	return k ? gsl_cdf_binomial_Q((unsigned)(k - 1), q, (unsigned)n) : 1;
}

/* late-rank, on a quiet machine: one rank arrives last at group
 * synchronization more often than chance (1/P of the windows,
 * significance PARAM / P), the job does not oversubscribe its CPUs (nor do
 * its own ranks), the others' wait for it is a real share of c, and it
 * computed more than the others (else the scheduler made it late, not its
 * work).  On a loaded machine arrival order is not evidence (other
 * programs make ranks late too): the rank is judged by its computation,
 * which the load does not distort when run-queue time is measured apart,
 * and by the waits it causes (late_by_work). */
/* The excess computation a late rank needs: LATE_MIN_EXCESS, plus twice
 * the share of one CPU the sampler took when it shared the program's. */
static double late_min_excess(const struct lc_profile *pr)
{
	const struct lc_prof_machine *m = &pr->machine_total;
	double one = m->ncpus ? lc_machine_pct(m, LC_SHARE_SAMPLER) / 100 * m->ncpus : 0;

	return LATE_MIN_EXCESS + 2 * (one > 1 ? 1 : one);
}

/* Whether the job's p exceeds the CPUs it could use; then why no rank
 * can be named into ev. */
static int oversubscribed(const struct ctx *x, char *ev, size_t len)
{
	uint32_t cpus = x->pr->machine_total.ncpus ? x->pr->machine_total.ncpus : x->pr->end.ncpus;

	if (!cpus || x->pr->procs <= cpus)
		return 0;
	snprintf(ev, len, "no rank can be named as late from this run: its p = %u processors "
		 "share %u CPUs, so ranks wait for CPUs their siblings hold as well as for their "
		 "work", x->pr->procs, cpus);
	return 1;
}

/* late-rank under the machine's load: the rank that computed most, when
 * its computation passes the others' median by LATE_LOAD_EXCESS (and the
 * sampler's share) and the others' waits beyond its own are a real share
 * of c. */
static int late_by_work(const struct ctx *x, const struct rule *ru, const struct lc_late *l,
			char *ev, size_t len)
{
	double load = lc_machine_pct(&x->pr->machine_total, LC_SHARE_LOAD);
	double need = LATE_LOAD_EXCESS + late_min_excess(x->pr) - LATE_MIN_EXCESS;
	double more = l->work.pc_others > 0 ? (double)l->work.pc / l->work.pc_others - 1 : 0;

	if ((distorts(x) >> LC_CAT_PC) & 1) {
		snprintf(ev, len, "no rank can be named as late from this run: the machine's load "
			 "(%.1f %% of the program's CPUs) makes ranks late as well as their work "
			 "does, and without run-queue data (record --sched) a rank's computation "
			 "counts its waits for a CPU too", load);
		return 0;
	}
	if (oversubscribed(x, ev, len))
		return 0;
	if (l->work.pc_others <= 0 || more < need) {
		snprintf(ev, len, "no rank is systematically late from its work: judged by "
			 "computation (the machine's load, %.1f %% of the program's CPUs, makes "
			 "arrival order no evidence), rank %d computed %.3f s, the others %.3f s "
			 "(median), within %.0f %%", load, l->work.rank, sec(l->work.pc),
			 l->work.pc_others / 1e9, 100 * need);
		return 0;
	}
	if ((double)l->work.caused < LATE_MIN_SHARE * (double)x->cat[ru->cat]) {
		snprintf(ev, len, "no rank is systematically late: rank %d computed %.3f s against "
			 "the others' %.3f s (median), but the others waited only %.3f s more than "
			 "it did, under %.0f %% of %s", l->work.rank, sec(l->work.pc),
			 l->work.pc_others / 1e9, sec(l->work.caused), 100 * LATE_MIN_SHARE,
			 lc_cat_info(ru->cat)->key);
		return 0;
	}
	snprintf(ev, len, "rank %d (%s) computed %.3f s, the others %.3f s (median: %+.0f %%, "
		 "beyond the %.0f %% the load and the sampler allow); the others waited %.3f s "
		 "more than it did (%.0f %% of %s); judged by computation and waits, not arrival "
		 "order, which the machine's load (%.1f %% of the program's CPUs) distorts (by "
		 "arrival it was last in %" PRIu64 " of %" PRIu64 " windows)", l->work.rank,
		 l->work.host ? l->work.host : "?", sec(l->work.pc), l->work.pc_others / 1e9,
		 100 * more, 100 * need, sec(l->work.caused),
		 100.0 * (double)l->work.caused / (double)x->cat[ru->cat],
		 lc_cat_info(ru->cat)->key, load, l->work.last, l->nwin);
	return 1;
}

/* late-rank on a quiet machine: by arrival order, then computation. */
static int late_by_arrival(const struct ctx *x, const struct rule *ru, const struct lc_late *l,
			   char *ev, size_t len)
{
	double q = 1.0 / l->nranks, alpha = (ru->param > 0 ? ru->param : ALPHA) / l->nranks;
	double pv = binom_p(l->last, l->nwin, q);

	if (pv > alpha) {
		snprintf(ev, len, "no rank is systematically late: rank %d arrived last in %" PRIu64
			 " of the %" PRIu64 " windows where ranks waited, as often as chance gives "
			 "with %u ranks (p = %.2g, above %.2g)", l->rank, l->last, l->nwin,
			 l->nranks, pv, alpha);
		return 0;
	}
	if (oversubscribed(x, ev, len))
		return 0;
	if ((double)l->caused < LATE_MIN_SHARE * (double)x->cat[ru->cat]) {
		snprintf(ev, len, "no rank is systematically late: rank %d arrived last in %" PRIu64
			 " of %" PRIu64 " windows, but the others' wait for it (%.3f s) is under "
			 "%.0f %% of %s", l->rank, l->last, l->nwin, sec(l->caused),
			 100 * LATE_MIN_SHARE, lc_cat_info(ru->cat)->key);
		return 0;
	}
	if ((double)l->pc < (1 + late_min_excess(x->pr)) * l->pc_others) {
		snprintf(ev, len, "no rank is systematically late from its work: rank %d arrived "
			 "last in %" PRIu64 " of %" PRIu64 " windows, but computed %.3f s against "
			 "the others' %.3f s (median), within %.0f %% (the sampler's share of a CPU "
			 "counted): it waited for a CPU, not for its work", l->rank, l->last,
			 l->nwin, sec(l->pc), l->pc_others / 1e9, 100 * late_min_excess(x->pr));
		return 0;
	}
	snprintf(ev, len, "rank %d (%s) arrived last in %" PRIu64 " of the %" PRIu64
		 " windows where ranks waited (chance: 1 in %u, p = %.2g); the others waited "
		 "%.3f s for it (%.0f %% of %s); it computed %.3f s, the others %.3f s (median); "
		 "judged by arrival order and computation", l->rank, l->host ? l->host : "?",
		 l->last, l->nwin, l->nranks, pv, sec(l->caused),
		 100.0 * (double)l->caused / (double)x->cat[ru->cat], lc_cat_info(ru->cat)->key,
		 sec(l->pc), l->pc_others / 1e9);
	return 1;
}

static int ev_late(const struct ctx *x, const struct rule *ru, char *ev, size_t len)
{
	struct lc_late l;

	if (lc_report_late(x->pr, x->o->source, &l) || l.nwin < 2 || l.nranks < 2 ||
	    l.nwin > UINT32_MAX)
		return 0;
	if ((distorts(x) >> ru->cat) & 1)
		return late_by_work(x, ru, &l, ev, len);
	return late_by_arrival(x, ru, &l, ev, len);
}

/* run-queue: c measured from the scheduler's run-queue data. */
static int ev_runq(const struct ctx *x, const struct rule *ru, char *ev, size_t len)
{
	const struct lc_profile *pr = x->pr;
	const char *src;
	uint32_t cpus;

	if (!measured(pr, ru->cat) || !pr->ended || !pr->end.ext)
		return 0;
	src = lc_sched_source_name(pr->end.sched_source);
	cpus = pr->machine_total.ncpus ? pr->machine_total.ncpus : pr->end.ncpus;
	if (!src || !x->cat[ru->cat] || !cpus)
		return 0;
	if (pr->procs <= cpus) {
		snprintf(ev, len, "%s is run-queue wait (from %s), but p = %u processors fit the "
			 "%u CPUs the program could use: the program did not oversubscribe them",
			 lc_cat_info(ru->cat)->key, src, pr->procs, cpus);
		return 0;
	}
	snprintf(ev, len, "%s is run-queue wait (from %s): p = %u processors for %u CPUs the "
		 "program could use", lc_cat_info(ru->cat)->key, src, pr->procs, cpus);
	return 1;
}

/* load: other processes and the hypervisor held the program's CPUs. */
static int ev_load(const struct ctx *x, const struct rule *ru, char *ev, size_t len)
{
	const struct lc_prof_machine *m = &x->pr->machine_total;
	double load = lc_machine_pct(m, LC_SHARE_LOAD);

	if (load < (ru->param > 0 ? ru->param : LC_MACHINE_LOAD_PCT))
		return 0;
	snprintf(ev, len, "other processes and the hypervisor held %.1f %% of the %u CPUs the "
		 "program could use (/proc/stat over %.3f s)", load, m->ncpus, sec(m->len_ns));
	return 1;
}

/* cpus-held: c is run-queue wait while p fit the CPUs, and the load
 * detector's figure is not there to say so (below its threshold, or no
 * complete measuring span). */
static int ev_held(const struct ctx *x, const struct rule *ru, char *ev, size_t len)
{
	const struct lc_prof_machine *m = &x->pr->machine_total;
	double load = lc_machine_pct(m, LC_SHARE_LOAD);
	char share[160];

	if (!cpus_held(x, ru->cat) || (share_measured(x->pr) && load >= LC_MACHINE_LOAD_PCT))
		return 0;
	if (share_measured(x->pr))
		snprintf(share, sizeof(share), "other processes and steal %.1f %%, the sampler "
			 "%.1f %% (/proc/stat over %.3f s)", load,
			 lc_machine_pct(m, LC_SHARE_SAMPLER), sec(m->len_ns));
	else
		snprintf(share, sizeof(share), "not measured: the run is shorter than a complete "
			 "measuring span");
	snprintf(ev, len, "%s is run-queue wait (from %s) while p = %u processors fit the %u "
		 "CPUs the program could use: something other than the program held them (the "
		 "machine's share: %s)", lc_cat_info(ru->cat)->key,
		 lc_sched_source_name(x->pr->end.sched_source), x->pr->procs, cpus_of(x->pr),
		 share);
	return 1;
}

/* counters: c measured from hardware counters. */
static int ev_counters(const struct ctx *x, const struct rule *ru, char *ev, size_t len)
{
	const struct lc_profile *pr = x->pr;
	const char *m = pr->ended && pr->end.ext ? pr->end.method[ru->cat] : NULL;

	if (!pr->nevents || !measured(pr, ru->cat) || !x->cat[ru->cat])
		return 0;
	snprintf(ev, len, "%s measured from %u counters%s%s", lc_cat_info(ru->cat)->key,
		 pr->nevents, m ? ": " : "", m ? m : "");
	return 1;
}

static const struct detector_def detectors[D_N] = {
	[D_TREND] = { "trend", ev_trend },
	[D_TAG] = { "tag", ev_tag },
	[D_PHASES] = { "phases", ev_phases },
	[D_LATE] = { "late-rank", ev_late },
	[D_RUNQ] = { "run-queue", ev_runq },
	[D_LOAD] = { "load", ev_load },
	[D_HELD] = { "cpus-held", ev_held },
	[D_COUNTERS] = { "counters", ev_counters },
	[D_SHARE] = { "share", NULL },
	[D_OTHERWISE] = { "otherwise", NULL },
};

/* Whether rule ru finds its evidence (into ev); fired[c] says whether an
 * earlier rule of category c did. */
static int evidence(const struct ctx *x, const struct rule *ru, const int *fired, char *ev,
		    size_t len)
{
	double share = 100.0 * (double)x->cat[ru->cat] / (double)x->total;

	ev[0] = 0;
	if (!measured(x->pr, ru->cat) || share < ru->min_pct || !x->cat[ru->cat])
		return 0;
	if (detectors[ru->det].find)
		return detectors[ru->det].find(x, ru, ev, len);
	if (ru->det == D_OTHERWISE && fired[ru->cat])
		return 0;
	if (ru->det == D_OTHERWISE && (distorts(x) >> ru->cat) & 1)
		return 0;	/* no evidence of its own: the load may be all of it */
	snprintf(ev, len, "%s is %.1f %% of the total time", lc_cat_info(ru->cat)->key, share);
	return 1;
}

/* ---- ranking ---------------------------------------------------------------- */

/* One category to advise on. */
struct item {
	int cat;
	double share;		/* of the total, % */
	double gain;		/* % of the run's time saved by halving it */
	int modelled;		/* gain comes from the model */
};

/* Gain of halving each category by the model at the profile's environment,
 * into it[].gain where the model has the category.  Returns 0, or 1 with
 * the reason in msg. */
static int model_gains(const struct ctx *x, struct item *it, int n, char *msg, size_t len)
{
	const struct lc_advise_opts *o = x->o;
	const char *names[LC_MODEL_MAXVARS + 1], *missing = NULL;
	double vals[LC_MODEL_MAXVARS + 1], t, t2, half;
	struct lc_env env = { names, vals, 0 };
	int k = 0;

	for (int i = 0; i < o->nat && k < LC_MODEL_MAXVARS; i++)
		names[k] = o->at_names[i], vals[k++] = o->at_vals[i];
	names[k] = "p", vals[k++] = x->pr->procs;	/* later names do not override */
	env.n = k;
	if (lc_predict_total(o->model, &env, NULL, &t, &half, &missing) || t <= 0)
		return lc_fail(msg, len, 1, "the model needs a value for '%s' (--at %s=VALUE)",
			       missing ? missing : "?", missing ? missing : "NAME");
	for (int i = 0; i < n; i++) {
		struct lc_whatif w;
		char s[32], m[128];

		if (!lc_model_cat(o->model, lc_cat_info(it[i].cat)->key))
			continue;
		snprintf(s, sizeof(s), "%s*=0.5", lc_cat_info(it[i].cat)->key);
		if (lc_whatif_parse(s, &w, m, sizeof(m)) ||
		    lc_predict_total(o->model, &env, &w, &t2, &half, &missing))
			continue;
		it[i].gain = 100.0 * (t - t2) / t;
		it[i].modelled = 1;
	}
	return 0;
}

static int by_gain(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->gain != y->gain)
		return x->gain < y->gain ? 1 : -1;
	return x->cat - y->cat;
}

/* Print the fixes of category c whose evidence was found. */
static void print_fixes(FILE *out, const struct ctx *x, const struct lc_rules *r, int c)
{
	int fired[LC_NCAT] = { 0 };
	char ev[1024];

	for (int i = 0; i < r->n; i++) {
		const struct rule *ru = &r->v[i];

		if (ru->cat != c)
			continue;
		if (!evidence(x, ru, fired, ev, sizeof(ev))) {
			if (ev[0])	/* a culprit rule that found none beyond chance */
				fprintf(out, "     evidence: %s\n", ev);
			continue;
		}
		fired[c] = 1;
		fprintf(out, "     evidence: %s\n     fix [%s]: %s\n", ev, ru->name, ru->fix);
	}
}

/* Whether some rule of category c finds its evidence, or a rule that
 * names culprits says why it names none (which the advice shows). */
static int any_rule(const struct ctx *x, const struct lc_rules *r, int c)
{
	int fired[LC_NCAT] = { 0 };
	char ev[1024];

	for (int i = 0; i < r->n; i++)
		if (r->v[i].cat == c && (evidence(x, &r->v[i], fired, ev, sizeof(ev)) || ev[0]))
			return 1;
	return 0;
}

/* The header: what the ranking rests on. */
static void print_head(FILE *out, const struct ctx *x, int modelled)
{
	const struct lc_advise_opts *o = x->o;

	fprintf(out, "** advice (rules: %s)\n", o->rules_name ? o->rules_name : "?");
	fprintf(out, "pure computation is %.1f %% of the total time %.6f s (p = %u x wall %.6f s)\n",
		100.0 * (double)x->cat[LC_CAT_PC] / (double)x->total, sec(x->total),
		x->pr->procs, x->pr->procs ? sec(x->total) / x->pr->procs : 0.0);
	if (o->model) {
		int given_p = 0;

		fprintf(out, "ranked by predicted gain: the run's time saved by halving the category, "
			"predicted by the model %s at", o->model_name ? o->model_name : "");
		for (int i = 0; i < o->nat; i++) {
			fprintf(out, " %s=%g", o->at_names[i], o->at_vals[i]);
			given_p |= !strcmp(o->at_names[i], "p");
		}
		if (!given_p)
			fprintf(out, " p=%u", x->pr->procs);
		fprintf(out, "%s\n", modelled ? "" : " (it models none of these categories: by share)");
	}
	else
		fprintf(out, "ranked by share (no model given; --model ranks by predicted gain): "
			"halving a category saves half its share of the run's time\n");
}

/* The "distorted:" line and the fix of the load item: the categories of
 * mask dis. */
static void print_distorted(FILE *out, uint32_t dis)
{
	int first = 1;

	fprintf(out, "     distorted:");
	for (int c = 0; c < LC_NCAT; c++)
		if ((dis >> c) & 1) {
			fprintf(out, "%s %s", first ? "" : ",", lc_cat_info(c)->key);
			first = 0;
		}
	fprintf(out, " (threads wait for CPUs the others hold, or for partners that are off "
		"theirs)\n     fix [load]: measure again on a quiet machine or on CPUs of the "
		"program's own before acting on the items below\n");
}

/* The first item when the machine's load distorts the profile: how much
 * of the program's CPUs other processes and the hypervisor took, and which
 * categories carry it; for a run without a complete measuring span, the
 * run-queue wait that shows it (distorts).  Returns 1 when printed. */
static int print_load(FILE *out, const struct ctx *x)
{
	const struct lc_prof_machine *m = &x->pr->machine_total;
	uint32_t dis = distorts(x);

	if (!dis)
		return 0;
	if (!share_measured(x->pr)) {
		fprintf(out, " 1. the machine's load: not measured (the run is shorter than a "
			"complete measuring span), but the threads waited for a CPU %.1f %% of the "
			"total time while p = %u processors fit the %u CPUs the program could use\n"
			"     evidence: rc is run-queue wait (from %s): something other than the "
			"program held its CPUs\n", 100.0 * (double)x->cat[LC_CAT_RC] /
			(double)x->total, x->pr->procs, cpus_of(x->pr),
			lc_sched_source_name(x->pr->end.sched_source));
		print_distorted(out, dis);
		return 1;
	}
	fprintf(out, " 1. the machine's load: other processes took %.1f %% and the hypervisor "
		"(steal) %.1f %% of the %u CPUs the program could use (above %.0f %%)\n",
		lc_machine_pct(m, LC_SHARE_OTHER), lc_machine_pct(m, LC_SHARE_STEAL), m->ncpus,
		LC_MACHINE_LOAD_PCT);
	fprintf(out, "     evidence: /proc/stat over %.3f s of the run; the sampler took %.1f %% "
		"more\n", sec(m->len_ns), lc_machine_pct(m, LC_SHARE_SAMPLER));
	print_distorted(out, dis);
	return 1;
}

/* The place that holds the most of category c (report --where), with its
 * share of c, when the profile has places and it holds WHERE_MIN_SHARE of
 * c or more (else "no place holds ..."). */
static void print_where(FILE *out, const struct lc_where *w, int c)
{
	double share;
	const struct lc_where_row *top = lc_where_top(w, c, &share);

	if (!top)
		return;
	if (share < WHERE_MIN_SHARE) {
		fprintf(out, "     where: no place holds %.0f %% of it or more (report --where=%s)\n",
			100 * WHERE_MIN_SHARE, lc_cat_info(c)->key);
		return;
	}
	fprintf(out, "     where: ");
	lc_emit_text_str(out, top->name);
	fprintf(out, " (%s) holds %.1f %% of it (report --where=%s)\n",
		top->place >> 56 == 'M' ? "MPI" : top->what, 100.0 * share, lc_cat_info(c)->key);
}

int lc_advise_print(FILE *out, const struct lc_profile *pr, const struct lc_rules *r,
		    const struct lc_advise_opts *o, char *msg, size_t len)
{
	struct lc_where *w = NULL;
	char wmsg[256];

	struct ctx x = { .pr = pr, .d = &pr->data[o->source], .o = o };
	struct item it[LC_NCAT];
	int n = 0, modelled = 0, k = 0;

	if (!x.d->present)
		return lc_fail(msg, len, 1, "the profile holds no %s data",
			       o->source == LC_SRC_TRACE ? "trace" : "sampled");
	x.total = lc_profile_finish(pr, &x.d->total, x.cat);
	if (!x.total)
		return lc_fail(msg, len, 1, "the profile holds no time");
	for (int c = 0; c < LC_NCAT; c++) {
		if (c == LC_CAT_PC || !any_rule(&x, r, c))
			continue;
		it[n].cat = c;
		it[n].share = 100.0 * (double)x.cat[c] / (double)x.total;
		it[n].gain = it[n].share / 2;
		it[n++].modelled = 0;
	}
	if (o->model && model_gains(&x, it, n, msg, len))
		return 1;
	for (int i = 0; i < n; i++)
		modelled |= it[i].modelled;
	qsort(it, (size_t)n, sizeof(*it), by_gain);
	print_head(out, &x, modelled);
	k = print_load(out, &x);
	if (!n)
		fprintf(out, "no rule found its evidence: no lost cycles category stands out\n");
	if (n && lc_where_build(pr, o->source, -1, &w, wmsg, sizeof(wmsg)))
		w = NULL;
	for (int i = 0; i < n; i++) {
		const struct lc_cat_info *ci = lc_cat_info(it[i].cat);

		fprintf(out, "%2d. %s (%s): %.1f %% of the total; halving it saves %.1f %% of the "
			"run%s\n", ++k, ci->desc, ci->key, it[i].share, it[i].gain,
			o->model && !it[i].modelled ? " (measured: the model lacks it)" : "");
		print_where(out, w, it[i].cat);
		print_fixes(out, &x, r, it[i].cat);
	}
	lc_where_free(w);
	return 0;
}
