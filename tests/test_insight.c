/*
 * test_insight.c — "report --advise" and "report --pop" on hand-made
 * profiles: every rule of share/advice.txt fires on a profile made to
 * trigger it and stays silent on a control that lacks its evidence; the POP
 * metrics of known profiles and runs equal their hand-computed values.
 * Profiles are written with the real writer; the built ./lostcycles is run
 * on them from the top of the tree.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "lc_test.h"
#include "lc_profile.h"

#define NW 10			/* windows */
#define WNS 10000000ull		/* 10 ms each */
#define MS 1000000ull
#define MAXT 4
#define MAXTAG 2
#define MAXPL 2

/* A hand-made profile: p = nth threads, live in every window, each thread
 * one process when procs is set (ranks when ranks is set). */
struct spec {
	uint32_t nth;
	int procs, ranks, loggp;
	uint64_t th[NW][MAXT][LC_NCAT];	/* everything but PC; PC fills the window */
	int ntags;
	uint64_t tagwall[NW][MAXTAG];	/* how long each tag was open */
	uint64_t tagc[NW][MAXTAG][LC_NCAT];	/* likewise, over all p slots */
	uint32_t unavailable;
	uint32_t sched;
	int nevents;
	double load;		/* > 0: a machine block, other processes' % */
	int nplaces;		/* places (OpenMP loops at 0x1000, 0x1010, ...) */
	uint64_t pl[MAXPL][MAXT][LC_NCAT];	/* each thread's there, every window */
};

static char dir[] = "/tmp/lc_test_insightXXXXXX";
static char out[65536];
static char host[] = "h", cmd[] = "./x", sess[] = "s", comm[] = "x", endr[] = "command exited";
static char na[] = "not measured", evname[] = "cycles";

/* Fill the rest of each thread's window with PC, of each tag's with PC. */
static void fill_pc(struct spec *s)
{
	for (int w = 0; w < NW; w++) {
		for (uint32_t t = 0; t < s->nth; t++) {
			uint64_t sum = 0;

			for (int c = 0; c < LC_NCAT; c++)
				sum += c == LC_CAT_PC ? 0 : s->th[w][t][c];
			s->th[w][t][LC_CAT_PC] = WNS - sum;
		}
		for (int k = 0; k < s->ntags; k++) {
			uint64_t sum = 0;

			for (int c = 0; c < LC_NCAT; c++)
				sum += c == LC_CAT_PC ? 0 : s->tagc[w][k][c];
			s->tagc[w][k][LC_CAT_PC] = s->nth * s->tagwall[w][k] - sum;
		}
	}
}

/* The place rows of window w of s: each thread's share of each place. */
static void write_places(struct lc_pwriter *wr, const struct spec *s, int w)
{
	struct lc_prof_place pl[MAXPL * MAXT];
	uint32_t n = 0;

	for (int k = 0; k < s->nplaces; k++)
		for (uint32_t t = 0; t < s->nth; t++) {
			pl[n] = (struct lc_prof_place){ .window = (uint32_t)w, .thread = t,
							.pid = s->procs ? 100 + (int32_t)t : 100,
							.place = 0x57ull << 56 | (0x1000u + 16u * k) };
			memcpy(pl[n++].cat, s->pl[k][t], sizeof(pl[0].cat));
		}
	if (n)
		assert_int_equal(lc_pwriter_places(wr, n, pl), 0);
}

/* One window of s. */
static void write_window(struct lc_pwriter *wr, struct spec *s, int w)
{
	struct lc_prof_trow rows[MAXT];
	struct lc_prof_tagrow tags[MAXTAG];
	struct lc_prof_window win = { .source = LC_SRC_SAMPLED, .index = (uint32_t)w,
				      .start_ns = w * WNS, .ticks = 100, .max_n = s->nth,
				      .nthreads = s->nth, .threads = rows,
				      .ntags = (uint32_t)s->ntags, .tags = tags };

	win.acct.t_we = WNS;
	win.acct.n_we = s->nth * WNS;
	for (uint32_t t = 0; t < s->nth; t++) {
		rows[t] = (struct lc_prof_trow){ .thread = t };
		for (int c = 0; c < LC_NCAT; c++) {
			rows[t].cat[c] = s->th[w][t][c];
			win.acct.cat[c] += s->th[w][t][c];
		}
	}
	for (int k = 0; k < s->ntags; k++) {
		tags[k] = (struct lc_prof_tagrow){ .tag = 5 + k };
		memcpy(tags[k].acct.cat, s->tagc[w][k], sizeof(tags[k].acct.cat));
		tags[k].acct.t_we = s->tagwall[w][k];
		tags[k].acct.n_we = s->nth * s->tagwall[w][k];
	}
	assert_int_equal(lc_pwriter_window(wr, &win), 0);
	write_places(wr, s, w);
}

/* The processes, ranks and threads of s. */
static void write_threads(struct lc_pwriter *wr, const struct spec *s)
{
	for (uint32_t t = 0; t < s->nth; t++) {
		int32_t pid = s->procs ? 100 + (int32_t)t : 100;
		struct lc_prof_process p = { .pid = pid, .comm = comm };
		struct lc_prof_rank r = { .pid = pid, .rank = (int32_t)t, .size = s->nth,
					  .flags = s->loggp ? LC_PROF_RANK_LOGGP : 0, .job_id = 1,
					  .host = host };
		struct lc_prof_thread th = { .idx = t, .pid = pid, .tid = 1000 + (int32_t)t,
					     .slot = s->procs ? 0 : t };

		if (!t || s->procs)
			assert_int_equal(lc_pwriter_process(wr, &p), 0);
		if (s->ranks)
			assert_int_equal(lc_pwriter_rank(wr, &r), 0);
		assert_int_equal(lc_pwriter_thread(wr, &th), 0);
	}
}

/* Write s to dir/name; returns the path (a static buffer). */
static const char *write_spec(struct spec *s, const char *name)
{
	static char path[256];
	struct lc_prof_info in = { .interval_ns = 100000, .window_ns = WNS, .sampler_cpu = -1,
				   .unavailable = s->unavailable, .hostname = host,
				   .command = cmd, .session = sess };
	struct lc_prof_end e = { .end_ns = NW * WNS, .procs = s->nth, .procs_from = LC_PROCS_OPTION,
				 .exit_status = 0, .ticks = NW * 100, .reason = endr,
				 .sched_source = s->sched, .shared_cpu = -1, .ext = 1,
				 .unavailable = s->unavailable, .ncpus = 2 };
	struct lc_prof_event ev = { .name = evname, .role = LC_EVR_CYCLES };
	struct lc_pwriter *wr;
	int err = 0;

	for (int c = 0; c < LC_NCAT; c++)
		if ((s->unavailable >> c) & 1)
			in.reason[c] = e.reason_na[c] = na;
	fill_pc(s);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);	/* the writer creates its file anew */
	wr = lc_pwriter_open(path, &in, &err);
	assert_non_null(wr);
	write_threads(wr, s);
	if (s->nevents)
		assert_int_equal(lc_pwriter_events(wr, 1, &ev), 0);
	for (int w = 0; w < NW; w++)
		write_window(wr, s, w);
	if (s->load > 0) {
		struct lc_prof_machine m = { .len_ns = NW * WNS, .ncpus = 2,
					     .total_ns = 2 * NW * WNS };

		m.other_ns = (uint64_t)((double)m.total_ns * s->load / 100);
		m.program_ns = m.total_ns - m.other_ns;
		assert_int_equal(lc_pwriter_machine(wr, &m), 0);
	}
	assert_int_equal(lc_pwriter_end(wr, &e), 0);
	assert_int_equal(lc_pwriter_close(wr), 0);
	return path;
}

/* Run "./lostcycles ARGS" (a printf format and its arguments) with stdout
 * and stderr into out[]; the exit status. */
#define RUN(...)                                                                   \
	lc_test_shell(out, sizeof(out),                                            \
		      "2>&1 LOSTCYCLES_ADVICE=share/advice.txt ./lostcycles " __VA_ARGS__)

/* ---- the profiles of each rule -------------------------------------------- */

static struct spec base(uint32_t nth)
{
	struct spec s;

	memset(&s, 0, sizeof(s));
	s.nth = nth;
	s.unavailable = (1u << LC_CAT_RC) | (1u << LC_CAT_ML);
	return s;
}

/* Each thread t loses li(t) every window. */
static void set_all(struct spec *s, int cat, const uint64_t *per_thread)
{
	for (int w = 0; w < NW; w++)
		for (uint32_t t = 0; t < s->nth; t++)
			s->th[w][t][cat] = per_thread[t];
}

static struct spec li_rising(void)
{
	struct spec s = base(4);
	uint64_t li[4] = { 0, 1 * MS, 2 * MS, 3 * MS };

	set_all(&s, LC_CAT_LI, li);
	return s;
}

static struct spec li_flat(void)
{
	struct spec s = base(4);
	uint64_t li[4] = { 1500000, 1500000, 1500000, 1500000 };

	set_all(&s, LC_CAT_LI, li);
	return s;
}

/* Two tags, each open half of every window; tag 5 holds share (of 6 ms) of
 * the window's category cat, tag 6 the rest. */
static void two_tags(struct spec *s, int cat, uint64_t in5)
{
	s->ntags = 2;
	for (int w = 0; w < NW; w++) {
		s->tagwall[w][0] = s->tagwall[w][1] = 5 * MS;
		s->tagc[w][0][cat] = in5;
		s->tagc[w][1][cat] = 6 * MS - in5;
	}
}

/* Three threads whose LI rises with the index by chance: r = 0.87 over 3
 * points is not significant (p = 0.17). */
static struct spec li_chance(void)
{
	struct spec s = base(3);
	uint64_t li[3] = { 1 * MS, 3 * MS, 3 * MS };

	set_all(&s, LC_CAT_LI, li);
	return s;
}

static struct spec li_in_tag(void)
{
	struct spec s = li_flat();

	two_tags(&s, LC_CAT_LI, 6 * MS);
	return s;
}

static struct spec li_split_tags(void)
{
	struct spec s = li_flat();

	two_tags(&s, LC_CAT_LI, 3 * MS);
	return s;
}

/* Threads 1..3 have no work in the first and last window. */
static struct spec ip_serial(void)
{
	struct spec s = base(4);

	for (uint32_t t = 1; t < 4; t++)
		s.th[0][t][LC_CAT_IP] = s.th[NW - 1][t][LC_CAT_IP] = WNS;
	return s;
}

static struct spec ip_spread(void)
{
	struct spec s = base(4);
	uint64_t ip[4] = { 0, 2 * MS, 2 * MS, 2 * MS };

	set_all(&s, LC_CAT_IP, ip);
	return s;
}

/* Ranks, one thread each; in window w rank late(w) waits nothing and the
 * others wait 3 ms. */
static struct spec ranks(uint32_t n, int rotate)
{
	struct spec s = base(n);

	s.procs = s.ranks = 1;
	for (int w = 0; w < NW; w++)
		for (uint32_t t = 0; t < n; t++)
			s.th[w][t][LC_CAT_SL] = t == (rotate ? (uint32_t)w % n : n - 1) ? 0 : 3 * MS;
	return s;
}

static struct spec sl_late(void)
{
	return ranks(2, 0);
}

static struct spec sl_rotating(void)
{
	return ranks(3, 1);
}

/* A balanced 2-rank job: the ranks take turns arriving last. */
static struct spec sl_balanced2(void)
{
	return ranks(2, 1);
}

/* Rank 1 is last in 7 of 10 windows: p = 0.17 against 1/2, chance. */
static struct spec sl_chance2(void)
{
	struct spec s = ranks(2, 0);

	for (int w = 0; w < 3; w++) {
		s.th[w][0][LC_CAT_SL] = 0;
		s.th[w][1][LC_CAT_SL] = 3 * MS;
	}
	return s;
}

/* Rank 1 is always last, but it spent a third of its time in the run
 * queue and the other none: the machine made it late. */
static struct spec sl_late_runq(void)
{
	struct spec s = ranks(2, 0);

	s.unavailable = 1u << LC_CAT_ML;
	s.sched = LC_SCHED_SWITCH;
	for (int w = 0; w < NW; w++)
		s.th[w][1][LC_CAT_RC] = 3 * MS;
	return s;
}

static struct spec sl_in_tag(void)
{
	struct spec s = base(4);
	uint64_t sl[4] = { 1500000, 1500000, 1500000, 1500000 };

	set_all(&s, LC_CAT_SL, sl);
	two_tags(&s, LC_CAT_SL, 6 * MS);
	return s;
}

static struct spec with_cat(int cat, uint32_t unavailable, uint32_t sched, int nevents)
{
	struct spec s = base(4);
	uint64_t v[4] = { 2 * MS, 2 * MS, 2 * MS, 2 * MS };

	set_all(&s, cat, v);
	s.unavailable = unavailable;
	s.sched = sched;
	s.nevents = nevents;
	return s;
}

static struct spec cl_counters(void)
{
	return with_cat(LC_CAT_CL, 1u << LC_CAT_RC, LC_SCHED_NONE, 1);
}

static struct spec cl_plain(void)
{
	return with_cat(LC_CAT_CL, (1u << LC_CAT_RC) | (1u << LC_CAT_ML), LC_SCHED_NONE, 0);
}

static struct spec rc_runq(void)
{
	return with_cat(LC_CAT_RC, 1u << LC_CAT_ML, LC_SCHED_SWITCH, 0);
}

/* Run-queue wait of 2 threads on the 2 CPUs: not oversubscribed. */
static struct spec rc_fit(void)
{
	struct spec s = rc_runq();

	s.nth = 2;
	return s;
}

/* s on a machine whose others' load is load % of the CPUs. */
static struct spec with_load(struct spec s, double load)
{
	s.load = load;
	return s;
}

static struct spec rc_loaded(void)
{
	return with_load(rc_fit(), 40);
}

static struct spec rc_quiet(void)
{
	return with_load(rc_fit(), 5);
}

/* Rank 1 always last, on a machine whose load distorts sl. */
static struct spec sl_late_loaded(void)
{
	return with_load(sl_late(), 40);
}

/* s with run-queue data (RC measured from context-switch records). */
static struct spec with_runq(struct spec s)
{
	s.unavailable = 1u << LC_CAT_ML;
	s.sched = LC_SCHED_SWITCH;
	return s;
}

/* Under load 40 %, with run-queue data: rank 1 always waits least and
 * computes 10 ms a window against rank 0's 7 (+43 %): named by its work. */
static struct spec sl_work_loaded(void)
{
	return with_load(with_runq(sl_late()), 40);
}

/* ... the ranks take turns waiting and compute alike: none named. */
static struct spec sl_even_loaded(void)
{
	return with_load(with_runq(sl_balanced2()), 40);
}

/* ... rank 1 always arrives last, but for want of a CPU (3 ms a window in
 * the run queue): both compute 7 ms a window, none named. */
static struct spec sl_runq_loaded(void)
{
	return with_load(sl_late_runq(), 40);
}

/* Two threads, sl 3 ms a window each; thread 0 spends in of it at the
 * place 0x1000. */
static struct spec sl_at_place(uint64_t in)
{
	struct spec s = base(2);
	uint64_t sl[2] = { 3 * MS, 3 * MS };

	set_all(&s, LC_CAT_SL, sl);
	s.nplaces = 1;
	s.pl[0][0][LC_CAT_SL] = in;
	return s;
}

static struct spec sl_place_tiny(void)
{
	return sl_at_place(10000);	/* 0.17 % of sl */
}

static struct spec sl_place_big(void)
{
	return sl_at_place(2 * MS);	/* 33.3 % of sl */
}

/* A loop at 0x1000 under load 40 % with run-queue data: thread 1 computes
 * 4.5 ms a window there and waits 5.5 ms for a CPU; thread 0 computes 3 ms
 * and waits 3 ms for thread 1.  Thread 1 is the slowest (it computed
 * more); by lost time with the wait for a CPU (8.5 ms against 7.5 ms of
 * computation) thread 0, which waited least, would read as the late one. */
static struct spec loop_loaded(void)
{
	struct spec s = with_load(with_runq(base(2)), 40);

	s.nplaces = 1;
	for (int w = 0; w < NW; w++) {
		s.th[w][0][LC_CAT_SL] = 3 * MS;
		s.th[w][1][LC_CAT_RC] = 5500000;
	}
	s.pl[0][0][LC_CAT_PC] = 3 * MS;
	s.pl[0][0][LC_CAT_SL] = 3 * MS;
	s.pl[0][1][LC_CAT_PC] = 4500000;
	s.pl[0][1][LC_CAT_RC] = 5500000;
	return s;
}

static struct spec rc_counters(void)
{
	return with_cat(LC_CAT_RC, 0, LC_SCHED_NONE, 1);
}

static struct spec ml_counters(void)
{
	return with_cat(LC_CAT_ML, 1u << LC_CAT_RC, LC_SCHED_NONE, 1);
}

static struct spec ml_none(void)
{
	struct spec s = base(4);

	return s;	/* ML not measured */
}

static struct spec bl_some(void)
{
	return with_cat(LC_CAT_BL, (1u << LC_CAT_RC) | (1u << LC_CAT_ML), LC_SCHED_NONE, 0);
}

static struct spec wc_some(void)
{
	return with_cat(LC_CAT_WC, (1u << LC_CAT_RC) | (1u << LC_CAT_ML), LC_SCHED_NONE, 0);
}

/* A rule, the profile that triggers it and the control that does not. */
static const struct {
	const char *rule;
	struct spec (*trigger)(void);
	struct spec (*control)(void);
} cases[] = {
	{ "li-trend", li_rising, li_flat },
	{ "li-trend", li_rising, li_chance },
	{ "li-tag", li_in_tag, li_split_tags },
	{ "li-other", li_flat, li_rising },
	{ "ip-phases", ip_serial, ip_spread },
	{ "ip-other", ip_spread, ip_serial },
	{ "sl-late", sl_late, sl_rotating },
	{ "sl-late", sl_late, sl_balanced2 },
	{ "sl-late", sl_late, sl_chance2 },
	{ "sl-late", sl_late, sl_late_runq },
	{ "sl-late", sl_late, sl_late_loaded },
	{ "sl-tag", sl_in_tag, sl_rotating },
	{ "sl-other", sl_rotating, sl_in_tag },
	{ "cl-data", cl_counters, cl_plain },
	{ "cl-other", cl_plain, cl_counters },
	{ "rc-runq", rc_runq, rc_counters },
	{ "rc-runq", rc_runq, rc_fit },
	{ "rc-load", rc_loaded, rc_quiet },
	{ "rc-held", rc_fit, rc_runq },
	{ "rc-held", rc_quiet, rc_loaded },
	{ "sl-late", sl_work_loaded, sl_even_loaded },
	{ "sl-late", sl_work_loaded, sl_runq_loaded },
	{ "rc-other", rc_counters, rc_runq },
	{ "ml-data", ml_counters, ml_none },
	{ "bl-stop", bl_some, ml_none },
	{ "wc-spec", wc_some, ml_none },
};

/* Whether the advice in out[] holds rule's fix. */
static int fired(const char *rule)
{
	char want[64];

	snprintf(want, sizeof(want), "fix [%s]:", rule);
	return strstr(out, want) != NULL;
}

/* Write the profile s and run "lostcycles report OPTS -f" on it: it must
 * exit 0; what it printed is in out[]. */
static void report_of(const char *opts, struct spec s)
{
	assert_int_equal(RUN("report %s -f %s", opts, write_spec(&s, "e.data")), 0);
}

static void test_rules(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		report_of("--advise", cases[i].trigger());
		if (!fired(cases[i].rule))
			fail_msg("%s did not fire on its trigger:\n%s", cases[i].rule, out);
		report_of("--advise", cases[i].control());
		if (fired(cases[i].rule))
			fail_msg("%s fired on its control:\n%s", cases[i].rule, out);
	}
}

/* Every rule of share/advice.txt has a case above. */
static void test_rules_covered(void **state)
{
	FILE *f = fopen("share/advice.txt", "r");
	char line[2048], name[64];
	int n = 0;

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		size_t i;

		if (line[0] == '#' || sscanf(line, "%63s", name) != 1)
			continue;
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
			if (!strcmp(cases[i].rule, name))
				break;
		if (i == sizeof(cases) / sizeof(cases[0]))
			fail_msg("rule %s has no trigger and control here", name);
		n++;
	}
	fclose(f);
	assert_true(n <= (int)(sizeof(cases) / sizeof(cases[0])));
}

/* Four ranks on the 2 CPUs: rank 3 always last. */
static struct spec ranks4(void)
{
	return ranks(4, 0);
}

/* A profile's report with opts, and what it must and must not say. */
struct advice {
	struct spec (*spec)(void);
	const char *opts;
	const char *const *has, *const *lacks;
};

static const struct advice advices[] = {
	/* the evidence names the tag, the spans, the late rank, the trend */
	{ ip_serial, "--advise", LC_STRS("0.000-0.010 s, 0.090-0.100 s (holding 100 % of it)"), NULL },
	{ sl_late, "--advise", LC_STRS("rank 1 (h) arrived last in 10 of the 10 windows"), NULL },
	/* without a model the items are ranked by share: li is 6 of 40 ms,
	 * 15 %, halving it saves 7.5 % */
	{ li_rising, "--advise", LC_STRS("per-thread li rises with the thread index (r = +1.00",
		"ranked by share",
		"load imbalance (li): 15.0 % of the total; halving it saves 7.5 % of the run"), NULL },
	/* a rule that names culprits says why it names none: ranks late by
	 * chance, from waiting for a CPU, on a loaded machine, or more ranks
	 * than CPUs; threads by chance */
	{ sl_balanced2, "--advise", LC_STRS("no rank is systematically late: rank "),
	  LC_STRS("give it less work") },
	{ sl_late_runq, "--advise", LC_STRS("no rank is systematically late from its work"), NULL },
	{ sl_late_loaded, "--advise", LC_STRS("no rank can be named as late from this run"),
	  LC_STRS("rank 1", "fix [sl-other]") },	/* the load may explain sl */
	{ ranks4, "--advise", LC_STRS("p = 4 processors share 2 CPUs"), LC_STRS("fix [sl-late]") },
	{ li_chance, "--advise", LC_STRS("no thread index is systematically"), NULL },
	/* the machine's load above 10 % is the first item, with its figure,
	 * and names the categories it distorts; the report's header says so
	 * and marks them, and the JSON; below 10 % neither mentions it */
	{ rc_loaded, "--advise", LC_STRS(" 1. the machine's load: other processes took 40.0 %",
		"distorted: li, ip, sl, rc", " 2. resource contention"), LC_STRS("fix [rc-runq]") },
	{ rc_loaded, "", LC_STRS("** the machine: other processes 40.0 %",
		"are distorted by that load", "Resource Contention"), NULL },
	{ rc_loaded, "--format json",
	  LC_STRS("\"loaded\": true, \"distorts\": [\"li\", \"ip\", \"sl\", \"rc\"]"), NULL },
	{ rc_quiet, "--advise", LC_STRS("fix [rc-held]", "something other than the program held"),
	  LC_STRS("the machine's load", "fix [load]", "fix [rc-other]", "number of threads") },
	/* a run with no complete measuring span whose 2 threads waited 20 %
	 * of the time in the run queue on 2 CPUs: someone else held them;
	 * the advice says so first and never blames the program's threads */
	{ rc_fit, "--advise", LC_STRS(" 1. the machine's load: not measured",
		"distorted: li, ip, sl, rc", "fix [rc-held]"),
	  LC_STRS("fix [rc-other]", "number of threads", "fix [rc-runq]") },
	/* under load a late rank is judged by its work, and says so */
	{ sl_work_loaded, "--advise", LC_STRS("rank 1 (h) computed 0.100 s, the others 0.070 s "
		"(median: +43 %", "the others waited 0.030 s more than it did (100 % of sl)",
		"judged by computation and waits, not arrival order", "fix [sl-late]"), NULL },
	{ sl_even_loaded, "--advise", LC_STRS("no rank is systematically late from its work: "
		"judged by computation"), LC_STRS("fix [sl-late]") },
	{ sl_late, "--advise", LC_STRS("judged by arrival order and computation"), NULL },
	/* "where:" names a place only when it holds 5 % of the category */
	{ sl_place_tiny, "--advise", LC_STRS("where: no place holds 5 % of it or more "
		"(report --where=sl)"), LC_STRS("holds 0.2 % of it") },
	{ sl_place_big, "--advise", LC_STRS("(omp loop) holds 33.3 % of it (report --where=sl)"),
	  LC_STRS("no place holds") },
	/* --where's slowest under load: by computation, a wait for a CPU left
	 * out, and the header says so */
	{ loop_loaded, "--where", LC_STRS(" tid 1001 ", "** slowest: under the machine's load "
		"(40.0 %"), LC_STRS("tid 1000 last") },
	{ rc_quiet, "", LC_STRS("** the machine: other processes 5.0 %"), LC_STRS(" *\n") },
};

static void test_advice(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(advices) / sizeof(advices[0]); i++) {
		report_of(advices[i].opts, advices[i].spec());
		if (advices[i].has)
			lc_test_has(out, advices[i].has);
		if (advices[i].lacks)
			lc_test_lacks(out, advices[i].lacks);
	}
}

/* A loaded run's report marks the distorted Resource Contention row. */
static void test_load_mark(void **state)
{
	(void)state;
	report_of("", rc_loaded());
	assert_non_null(strstr(strstr(out, "Resource Contention"), " *\n"));
}

/* Four threads, li and ip 15 % each, and a model by which at p = 4
 * T = (rt + li + ip) / p = (1 + 0.1 + 0.9) / 4: ip gains most; the advice
 * with that model and the options more. */
static void advise_model(const char *more)
{
	struct spec s = base(4);
	uint64_t li[4] = { 0, 1 * MS, 2 * MS, 3 * MS }, ip[4] = { 0, 2 * MS, 2 * MS, 2 * MS };
	char model[256];

	set_all(&s, LC_CAT_LI, li);
	set_all(&s, LC_CAT_IP, ip);
	lc_test_write(model, sizeof(model), dir, "m.model", "rt(p) = 1\nli(p) = 0.025*p\nip(p) = 0.225*p\n");
	assert_int_equal(RUN("report --advise --model %s %s -f %s", model, more,
			     write_spec(&s, "e.data")), 0);
}

/* With a model the ranking follows the predicted gain, not the share. */
static void test_model_rank(void **state)
{
	(void)state;
	advise_model("");
	assert_non_null(strstr(out, "ranked by predicted gain"));
	assert_non_null(strstr(out, " at p=4\n"));
	/* halving ip saves 0.45 / 2 = 22.5 % of T = 2, li 2.5 % */
	assert_non_null(strstr(out, " 1. insufficient parallelism (ip): 15.0 % of the total; "
				    "halving it saves 22.5 %"));
	assert_non_null(strstr(out, " 2. load imbalance (li): 15.0 % of the total; halving it "
				    "saves 2.5 %"));
}

/* ... at the point --at names; a missing rules file is refused. */
static void test_model_rank_at(void **state)
{
	(void)state;
	advise_model("--at p=8");
	/* at p = 8: halving ip saves 0.9 / 2 of T = 3 */
	assert_non_null(strstr(out, " at p=8\n"));
	assert_non_null(strstr(out, "halving it saves 30.0 %"));
	assert_int_equal(RUN("report --advise -f %s/e.data --rules /nonexistent", dir), 1);
}

/* The two-thread profile of test_pop: per 10 ms window thread 0 PC 8 + CL
 * 2 ms, thread 1 PC 4 + SL 6 ms. */
static struct spec pop_spec(void)
{
	struct spec s = base(2);
	uint64_t cl[2] = { 2 * MS, 0 }, sl[2] = { 0, 6 * MS };

	set_all(&s, LC_CAT_CL, cl);
	set_all(&s, LC_CAT_SL, sl);
	return s;
}

/* POP of a known profile (pop_spec): LB 60/80, CommE 80/100, PE 60/100 ... */
static void test_pop(void **state)
{
	(void)state;
	report_of("--pop --format csv", pop_spec());
	assert_non_null(strstr(out, "\n0.100000000,0.060000000,0.080000000,0.750000,0.800000,"
				    "na,na,0.600000\n"));
}

/* ... with LogGP-split waits TE (100 - 20) / 100 and SerE CommE / TE. */
static void test_pop_loggp(void **state)
{
	struct spec s = pop_spec();

	(void)state;
	s.procs = s.ranks = s.loggp = 1;
	report_of("--pop --format csv", s);
	assert_non_null(strstr(out, "0.750000,0.800000,1.000000,0.800000,0.600000\n"));
	report_of("--pop", s);
	assert_non_null(strstr(out, "parallel efficiency             60.0%"));
}

/* pop_spec under load 40 % with run-queue data: thread 0 (the busiest,
 * U 60 ms) computes 6 ms a window, waits 2 ms for a CPU and 2 ms in CL;
 * thread 1 computes 4 and waits 6 in SL.  T' = T - RC of thread 0 = 80 ms:
 * LB 50/60, CommE 60/80, PE 50/80 (counting the load: 60/100, 50/100). */
static struct spec pop_loaded(void)
{
	struct spec s = with_load(with_runq(pop_spec()), 40);
	uint64_t rc[2] = { 2 * MS, 0 };

	set_all(&s, LC_CAT_RC, rc);
	return s;
}

/* POP on a busy machine leaves the load out: the report's load line and
 * marks, T less the busiest processor's waits for a CPU; without run-queue
 * data it says it cannot. */
static void test_pop_load(void **state)
{
	struct spec s = with_load(pop_spec(), 40);

	(void)state;
	report_of("--pop --format csv", pop_loaded());
	assert_non_null(strstr(out, ",machine_load_pct,own_time\n0.100000000,0.050000000,"
				    "0.060000000,0.833333,0.750000,na,na,0.625000,40.00,"
				    "0.080000000\n"));
	report_of("--pop", pop_loaded());
	lc_test_has(out, LC_STRS("** the machine: other processes 40.0 %",
		"the categories marked * are distorted by that load",
		"T = the program's own time 0.080000 s",
		"parallel efficiency             62.5%", "rc) *\n",
		"communication efficiency      75.0%"));
	lc_test_lacks(out, LC_STRS("count the machine's load"));
	report_of("--pop", s);
	lc_test_has(out, LC_STRS("** note: these metrics count the machine's load",
		"record --sched", "T = wall 0.100000 s"));
	report_of("--pop --format csv", s);
	assert_non_null(strstr(out, ",0.600000,40.00,na\n"));
}

/* POP across runs: PE = U / tt, CompScal = U(p = 1) / U. */
static void test_pop_runs(void **state)
{
	char runs[256];

	(void)state;
	lc_test_write(runs, sizeof(runs), dir, "r.runs",
		"p=1 tt=1.0 rt=1.0\np=2 tt=1.2 rt=1.1 li=0.1\np=4 tt=2.0 rt=1.25 sl=0.75 ml=na\n");
	assert_int_equal(RUN("report --pop --format csv -f %s", runs), 0);
	assert_non_null(strstr(out, "1,1,1,1,1.000000,1.000000,1.000000\n"));
	assert_non_null(strstr(out, "2,2,1.1,1.2,0.916667,0.909091,0.833333\n"));
	assert_non_null(strstr(out, "3,4,1.25,2,0.625000,0.800000,0.500000\n"));
}

static int setup(void **state)
{
	(void)state;
	return access("./lostcycles", X_OK) || !mkdtemp(dir) ? -1 : 0;
}

static int teardown(void **state)
{
	char c[512];

	(void)state;
	snprintf(c, sizeof(c), "rm -rf '%s'", dir);
	return system(c);
}

LC_TEST_MAIN(setup, teardown,
	     LC_T(test_rules), LC_T(test_rules_covered), LC_T(test_advice), LC_T(test_load_mark),
	     LC_T(test_model_rank),
	     LC_T(test_model_rank_at), LC_T(test_pop), LC_T(test_pop_loggp), LC_T(test_pop_load), LC_T(test_pop_runs))
