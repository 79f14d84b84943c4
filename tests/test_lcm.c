/*
 * test_lcm.c — lost cycles modeling (postproc/lcm/lcm.c, lcm_extract.c): the
 * composition rules on small structures against hand-computed answers
 * (serial sum, load imbalance LI+ for unequal tasks, the p/T default and an
 * override, processors left unused, communication only across a parallel
 * least upper bound, pipeline fill, interval propagation), critical path
 * analysis over a hand-made synchronization trace, the refusals of
 * the structure reader (non-homogeneous node, cycle, unknown model, unknown
 * node, unknown variable), and --extract on an annotated C source.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "lc_test.h"
#include "lc_abi.h"
#include "lc_profile.h"
#include "lc_strace.h"
#include "lca_model.h"
#include "lcm.h"

/* Read text as a structure and bind it to names; fails the test on error. */
static struct lcm *load(const char *text, const char *const *names, int n)
{
	struct lcm *s = NULL;
	char msg[512] = "";
	int rc = lcm_read_text(text, "t.lcm", "", &s, msg, sizeof(msg));

	if (rc)
		fail_msg("read: %s", msg);
	rc = lcm_bind(s, names, n, msg, sizeof(msg));
	if (rc)
		fail_msg("bind: %s", msg);
	return s;
}

/* Compose at vals; fails the test on error. */
static struct lcm_result at(struct lcm *s, const double *vals)
{
	struct lcm_result r;
	char msg[512] = "";

	if (lcm_eval(s, vals, &r, NULL, msg, sizeof(msg)))
		fail_msg("eval: %s", msg);
	return r;
}

/* The reader's message for text, which must be refused with -EINVAL. */
static void refused(const char *text, const char *want)
{
	struct lcm *s = NULL;
	char msg[512] = "";
	int rc = lcm_read_text(text, "t.lcm", "", &s, msg, sizeof(msg));

	assert_int_equal(rc, -EINVAL);
	assert_null(s);
	if (!strstr(msg, want))
		fail_msg("wanted '%s' in: %s", want, msg);
}

static const char *const NP[] = { "n", "p" };

/* Structure text over n and p composed at vals. */
static struct lcm_result composed(const char *text, const double *vals)
{
	struct lcm *s = load(text, NP, 2);
	struct lcm_result r = at(s, vals);

	lcm_free(s);
	return r;
}

/* Two fragments in sequence: the categories add, T = sum C / p. */
static void test_serial_sum(void **state)
{
	struct lcm_result r = composed("serial main: a b\n"
				       "fragment a\n    model: rt(n,p) = 2*n\n    model: li(n,p) = p\n"
				       "fragment b\n    model: rt(n,p) = 3*n\n", (double[]){ 10, 4 });

	(void)state;
	assert_float_equal(r.c[LC_CAT_PC], 50, 1e-12);
	assert_float_equal(r.c[LC_CAT_LI], 4, 1e-12);
	assert_float_equal(r.c[LC_KEY_TT], 54, 1e-12);
	assert_float_equal(r.t, 54.0 / 4, 1e-12);
}

/* Two unequal tasks: each gets p/2; the faster one's processors wait for
 * the slower one: LI+ = p_t (T_max - T_t). */
static void test_parallel_li(void **state)
{
	struct lcm_result r = composed("parallel par: a b\n"
				       "fragment a\n    model: rt(n,p) = n\n"
				       "fragment b\n    model: rt(n,p) = 3*n\n", (double[]){ 8, 4 });

	(void)state;
	/* a: T = 8/2 = 4 s on 2 processors; b: T = 24/2 = 12 s on 2 */
	assert_float_equal(r.c[LC_CAT_PC], 32, 1e-12);
	assert_float_equal(r.c[LC_CAT_LI], 2 * (12 - 4), 1e-12);
	assert_float_equal(r.t, 12, 1e-12);
	assert_float_equal(r.c[LC_KEY_TT], 4 * 12, 1e-12);
}

/* An override wins over p/T and sees the parent's p and T; processors no
 * child uses are insufficient parallelism. */
static void test_override_and_unused(void **state)
{
	struct lcm_result r = composed("parallel par: a b\n"
				       "fragment a\n    model: rt(n,p) = 12 + 0*n\n    p = p/T - 1\n"
				       "fragment b\n    model: rt(n,p) = 6*p + 0*n\n", (double[]){ 1, 8 });

	(void)state;
	/* a: p = 8/2 - 1 = 3, T = 4 s; b: p = 4, rt = 24, T = 6 s */
	assert_float_equal(r.c[LC_CAT_PC], 36, 1e-12);
	assert_float_equal(r.c[LC_CAT_LI], 3 * (6 - 4), 1e-12);
	assert_float_equal(r.c[LC_CAT_IP], 1 * 6, 1e-12);	/* 8 - 3 - 4 processors idle */
	assert_float_equal(r.t, 6, 1e-12);
}

/* Data moves only when the least upper bound of writer and reader is a
 * parallel node: latency + bytes/bandwidth on each receiving processor. */
static void test_communication(void **state)
{
	const char *text =
		"serial main: par c\n"
		"parallel par: t1 t2\n"
		"serial t1: w r1\n"
		"serial t2: r2\n"
		"fragment w\n    model: rt(n,p) = n\n    output: x\n"
		"fragment r1\n    model: rt(n,p) = n\n    input: x\n"	/* serial LUB: no transfer */
		"fragment r2\n    model: rt(n,p) = n\n    input: x\n"	/* parallel LUB: transfer */
		"fragment c\n    model: rt(n,p) = n\n    output: x\n"	/* anti/output dependence, serial LUB */
		"size x = 100*n\n"
		"transfer latency=0.5 bandwidth=1000\n";
	struct lcm_result r = composed(text, (double[]){ 10, 2 });

	(void)state;
	/* r2 runs on p = 1 and receives 1000 bytes: 0.5 + 1 = 1.5 s */
	assert_float_equal(r.c[LC_CAT_CL], 1.5, 1e-12);
	/* the same with the writer in the other task: r1 now receives too */
	r = composed("parallel par: t1 t2\n"
		     "serial t1: r1\nserial t2: w\n"
		     "fragment w\n    model: rt(n,p) = n\n    output: x\n"
		     "fragment r1\n    model: rt(n,p) = n\n    input: x\n"
		     "size x = 100*n\ntransfer latency=0 bandwidth=1000\n", (double[]){ 10, 2 });
	/* r1 comes first: nothing written yet; w then writes x after r1 read it
	 * in the other task (an anti dependence): w receives x */
	assert_float_equal(r.c[LC_CAT_CL], 1.0, 1e-12);
}

/* A structure that names the one its fragments were measured in: the
 * communication its data traces find there is already in the models and is
 * taken off. */
static void test_measured_baseline(void **state)
{
	static const char base[] =
		"parallel par: w r\n"
		"fragment w\n    model: rt(n,p) = n\n    output: x\n"
		"fragment r\n    model: rt(n,p) = n\n    model: cl(n,p) = 3\n    input: x\n"
		"size x = 100*n\ntransfer latency=0 bandwidth=1000\n";
	char path[] = "/tmp/test_lcm_base.XXXXXX", text[1024];
	int fd = mkstemp(path);
	struct lcm_result r;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, base, sizeof(base) - 1), (int)(sizeof(base) - 1));
	close(fd);
	snprintf(text, sizeof(text), "serial main: w r\n"
		 "fragment w\n    model: rt(n,p) = n\n    output: x\n"
		 "fragment r\n    model: rt(n,p) = n\n    model: cl(n,p) = 3\n    input: x\n"
		 "measured %s\n", path);
	r = composed(text, (double[]){ 10, 2 });
	unlink(path);
	/* measured: r on 1 processor received 1000 bytes, 1 s; here it stays */
	assert_float_equal(r.c[LC_CAT_CL], 3 - 1, 1e-12);
}

/* Pipelines: the consumer waits for the producer's first of ITERS
 * iterations, and a faster consumer for every later one too (the critical
 * path), as synchronization loss, before load imbalance is computed. */
static void test_pipeline_fill(void **state)
{
	struct lcm_result r = composed("parallel par: a b\n"
				       "fragment a\n    model: rt(n,p) = 8*n\n"
				       "fragment b\n    model: rt(n,p) = 8*n\n    after: a / n\n", (double[]){ 4, 2 });

	(void)state;
	/* a: T = 32 s on 1 processor; b waits 32/4 = 8 s, ends at 40 */
	assert_float_equal(r.c[LC_CAT_SL], 8, 1e-12);
	assert_float_equal(r.c[LC_CAT_LI], 8, 1e-12);
	assert_float_equal(r.t, 40, 1e-12);
	/* a faster consumer (8 s against 32) waits at every iteration: it ends
	 * one of its own iterations after the producer, 32 + 8/4 = 34 s */
	r = composed("parallel par: a b\n"
		     "fragment a\n    model: rt(n,p) = 8*n\n"
		     "fragment b\n    model: rt(n,p) = 2*n\n    after: a / n\n", (double[]){ 4, 2 });
	assert_float_equal(r.c[LC_CAT_SL], 34 - 8, 1e-12);
	assert_float_equal(r.c[LC_CAT_LI], 34 - 32, 1e-12);
	assert_float_equal(r.t, 34, 1e-12);
}

/* Half widths: a fragment used twice adds up (one model), two fragments
 * add in quadrature; a parallel node carries its slowest task's. */
static void test_intervals(void **state)
{
	const char *model = "    model: rt(n,p) = 2*n\n    model: #: rt dof=10 s2=0 cov=1\n";
	char text[1024];
	struct lc_model *m;
	char msg[256];
	int line;
	double v, h1, vals[2] = { 5, 1 };
	struct lcm_result r;

	(void)state;
	assert_int_equal(lc_model_read_text("rt(n,p) = 2*n\n#: rt dof=10 s2=0 cov=1\n", &m, &line, msg,
					    sizeof(msg)), 0);
	lc_model_eval(lc_model_cat(m, "rt"), vals, &v, &h1);
	lc_model_free(m);
	assert_true(h1 > 0);
	snprintf(text, sizeof(text), "serial main: a a\nfragment a\n%s", model);
	r = composed(text, vals);
	assert_float_equal(r.half, 2 * h1, 1e-9);
	snprintf(text, sizeof(text), "serial main: a b\nfragment a\n%sfragment b\n%s", model, model);
	r = composed(text, vals);
	assert_float_equal(r.half, sqrt(2) * h1, 1e-9);
	snprintf(text, sizeof(text), "parallel main: a b\nfragment a\n%sfragment b\n"
		 "    model: rt(n,p) = n\n", model);
	r = composed(text, (double[]){ 5, 2 });	/* a is the slowest: T = 10 s, half h1 */
	assert_float_equal(r.t, 10, 1e-12);
	assert_float_equal(r.half, h1, 1e-9);
}

/* The reader's refusals name the node and the line. */
static void test_refusals(void **state)
{
	(void)state;
	refused("serial main: a code\nfragment a\n    model: rt(n,p) = n\nleaf code\n",
		"t.lcm:1: node 'main': children must be all nodes or all leaves");
	refused("serial main: x\nparallel x: y\nserial y: main\n",
		"cycle: main -> x -> y -> main");
	refused("serial main: a\nfragment a\n    model /nonexistent/a.model\n",
		"t.lcm:2: node 'a': model /nonexistent/a.model: No such file");
	refused("serial main: a zz\nfragment a\n    model: rt(n,p) = n\n", "node 'main': unknown node 'zz'");
	refused("serial main: a\nfragment a\n", "t.lcm:2: node 'a': a fragment needs a model");
	refused("serial main: a\nfragment a\n    model: qq(n) = n\n", "node 'a': model: line 1 of its model: unknown category 'qq'");
	refused("serial main: a\nfragment a\n    model: rt(n) = n\n    bogus line here\n",
		"t.lcm:4: node 'a': expected model");
}

/* An override naming a variable that is neither given nor defined. */
static void test_unknown_variable(void **state)
{
	struct lcm *s = NULL;
	char msg[512];

	(void)state;
	assert_int_equal(lcm_read_text("serial main: a\nfragment a\n    model: rt(n,p) = n\n    p = q*2\n",
				       "t.lcm", "", &s, msg, sizeof(msg)), 0);
	assert_int_equal(lcm_bind(s, NP, 2, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "node 'a': p ="));
	assert_non_null(strstr(msg, "unknown variable 'q'"));
	lcm_free(s);
}

/* --extract: sections, section, parallel for and fragment tags with their
 * lcm: comments become the expected structure. */
static void test_extract(void **state)
{
	static const char src[] =
		"/* lcm: size a = 8*n */\n"
		"int main(void)\n{\n"
		"\t/* lcm: name: main\n\t   lcm: model: rt(n,p) = 1 */\n"
		"\tLC_FRAGMENT_BEGIN(7);\n\tsetup();\n\tLC_FRAGMENT_END(7);\n"
		"\t/* lcm: name: tasks */\n"
		"#pragma omp parallel sections\n\t{\n"
		"#pragma omp section\n\t\t{\n"
		"\t\t\t/* lcm: model: rt(n,p) = n\n\t\t\t * lcm: output: a */\n"
		"#pragma omp parallel for\n"
		"\t\t\tfor (i = 0; i < n; i++) { a[i] = \"{\"[0]; }\n"
		"\t\t}\n"
		"\t\t// lcm: p = 1\n"
		"#pragma omp section\n\t\t{\n"
		"\t\t\t/* lcm: name: reader\n\t\t\t   lcm: model: rt(n,p) = 2*n\n\t\t\t   lcm: input: a */\n"
		"\t\t\tLC_FRAGMENT_BEGIN(TAG_R);\n\t\t\tuse(a);\n\t\t\tLC_FRAGMENT_END(TAG_R);\n"
		"\t\t}\n\t}\n"
		"\t/* lcm: name: reader\n\t   lcm: model: rt(n,p) = 0 */\n"
		"\tLC_FRAGMENT_BEGIN(9);\n\tdone();\n\tLC_FRAGMENT_END(9);\n"
		"\treturn 0;\n}\n";
	char path[] = "/tmp/test_lcm.XXXXXX", msg[512], notes[1024] = "", want[256], *text = NULL;
	const char *paths[1] = { path };
	int fd = mkstemp(path);
	struct lcm *s;
	struct lcm_result r;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, src, sizeof(src) - 1), (int)(sizeof(src) - 1));
	close(fd);
	if (lcm_extract(paths, 1, &text, notes, sizeof(notes), msg, sizeof(msg)))
		fail_msg("extract: %s", msg);
	unlink(path);
	assert_non_null(strstr(text, "\nsize a = 8*n\n"));
	/* the fragment named main and the second reader are renamed, with a
	 * note naming their lines */
	assert_non_null(strstr(text, "\nserial main: main_2 tasks reader_2"));
	snprintf(want, sizeof(want), "%s:6: node 'main' renamed 'main_2': 'main' is the root node", path);
	if (!strstr(notes, want))
		fail_msg("wanted '%s' in the notes:\n%s", want, notes);
	snprintf(want, sizeof(want), "%s:32: node 'reader' renamed 'reader_2': %s:25 has that name", path, path);
	if (!strstr(notes, want))
		fail_msg("wanted '%s' in the notes:\n%s", want, notes);
	assert_non_null(strstr(text, "\nparallel tasks: section_12 section_20"));
	assert_non_null(strstr(text, "\nserial section_12: loop_16"));
	assert_non_null(strstr(text, "\nfragment loop_16"));
	assert_non_null(strstr(text, "\n    output: a\n"));
	assert_non_null(strstr(text, "\nserial section_20: reader"));
	assert_non_null(strstr(text, "\n    p = 1\n"));
	assert_non_null(strstr(text, "\nfragment reader"));
	/* and it composes: main_2 1 s on 4; loop on 2: n/2; reader on 1: 2n;
	 * reader_2 0 */
	assert_int_equal(lcm_read_text(text, "x", "", &s, msg, sizeof(msg)), 0);
	assert_int_equal(lcm_bind(s, NP, 2, msg, sizeof(msg)), 0);
	r = at(s, (double[]){ 4, 4 });
	assert_float_equal(r.t, 1.0 / 4 + 8, 1e-12);
	lcm_free(s);
	free(text);
}

/* ---- critical path over a synchronization trace ---------------------------- */

/* The trace layout the analysis reads by offsets is the ABI's. */
_Static_assert(LC_STRACE_MAGIC == LC_TRACE_MAGIC, "trace magic");
_Static_assert(LC_STRACE_HDR == sizeof(struct lc_trace_hdr), "trace header");
_Static_assert(LC_STRACE_REC == sizeof(struct lc_trace_rec), "trace record");
_Static_assert(LC_STRACE_OP_STATE == LC_OP_STATE && LC_STRACE_OP_RELEASE == LC_OP_RELEASE &&
	       LC_STRACE_OP_FRAG_BEGIN == LC_OP_FRAGMENT_BEGIN && LC_STRACE_OP_FRAG_END == LC_OP_FRAGMENT_END,
	       "trace ops");
_Static_assert(LC_STRACE_ST_SYNC == LC_ST_SYNC, "sync state");

/* Write a trace file of pid 77 into folder dir: recs in the order given. */
static void write_trace(const char *dir, const struct lc_trace_rec *recs, size_t n)
{
	char path[512];
	struct lc_trace_hdr h = { .magic = LC_TRACE_MAGIC, .abi_major = LC_ABI_MAJOR, .rec_size = sizeof(*recs),
				  .pid = 77, .nonce = 0xabc };
	FILE *f;

	snprintf(path, sizeof(path), "%s/lostcycles-trace.s1.77.0000000000000abc", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(&h, sizeof(h), 1, f), 1);
	assert_int_equal(fwrite(recs, sizeof(*recs), n, f), n);
	assert_int_equal(fclose(f), 0);
}

#define FB(t, tag) { (t), LC_OP_FRAGMENT_BEGIN, 0, UINT32_MAX, (tag) }
#define FE(t, tag) { (t), LC_OP_FRAGMENT_END, 0, UINT32_MAX, (tag) }
#define ST(t, slot, word) { (t), LC_OP_STATE, 0, (slot), (word) }

/* Producer task ta runs a three times (recorded 10, 10 and 20 ns), consumer
 * tb runs b three times (10 ns each).  tb's thread (slot 1) waits from 0 to
 * 11, while a#1 ends (at 10), and from 22 to 41, while a#3 ends (at 40);
 * ta's thread (slot 0) waits inside a#3 (25..30), which links nothing.  At
 * n = 4, p = 2: a takes 12 s (3, 3 and 6 s as recorded), b 4 s (4/3 each).
 * The longest path: a#1 a#2 a#3 end at 12; b#1 runs 3 .. 13/3 after a#1;
 * b#2 waits for a#3: 12 .. 40/3; b#3 ends at 44/3.  tb waits 3 + (12 -
 * 13/3) = 32/3 s (SL); LI = 44/3 - 12 = 8/3; T = 44/3 s, where the pipeline
 * rule of three equal iterations would say 40/3. */
static void test_critical_path(void **state)
{
	static const struct lc_trace_rec recs[] = {
		/* slot 1's batch first: the reader sorts by time */
		ST(0, 1, 0x0203), ST(11, 1, 0x02), ST(22, 1, 0x0203), ST(41, 1, 0x02),
		FB(0, 1), FE(10, 1), FB(10, 1), FE(20, 1), FB(20, 1),
		ST(25, 0, 0x0203), ST(30, 0, 0x02),
		FE(40, 1), FB(12, 2), FE(22, 2), FB(42, 2), FE(52, 2), FB(52, 2), FE(62, 2),
	};
	static const char text[] = "parallel par: ta tb\nserial ta: a\nserial tb: b\n    %s\n"
				   "fragment a\n    model: rt(n,p) = 3*n\n    tag: 1\n"
				   "fragment b\n    model: rt(n,p) = n\n    tag: 2\n";
	char dir[] = "/tmp/test_lcm_trace.XXXXXX", msg[512], buf[512], *out = NULL, st[256];
	struct lc_strace t;
	struct lcm *s;
	struct lcm_result r;
	size_t outlen = 0;
	FILE *ex;

	(void)state;
	assert_non_null(mkdtemp(dir));
	write_trace(dir, recs, sizeof(recs) / sizeof(recs[0]));
	if (lc_strace_read(dir, &t, msg, sizeof(msg)))
		fail_msg("read: %s", msg);
	assert_int_equal(t.files, 1);
	assert_int_equal(t.ninst, 6);
	assert_int_equal(t.nwait, 3);
	assert_int_equal(t.inst[2].tag, 2);	/* b#1 begins at 12, after a#2 */
	assert_int_equal(t.inst[2].seq, 1);
	assert_int_equal(t.inst[3].seq, 3);	/* a#3 at 20 */
	assert_int_equal(t.wait[2].begin, 22);
	assert_int_equal(t.wait[2].end, 41);
	snprintf(buf, sizeof(buf), text, "# no after:");
	s = load(buf, NP, 2);
	assert_int_equal(lcm_set_trace(s, &t, "tr", msg, sizeof(msg)), 0);
	ex = open_memstream(&out, &outlen);
	if (lcm_eval(s, (double[]){ 4, 2 }, &r, ex, msg, sizeof(msg)))
		fail_msg("eval: %s", msg);
	fclose(ex);
	assert_float_equal(r.t, 44.0 / 3, 1e-9);
	assert_float_equal(r.c[LC_CAT_SL], 32.0 / 3, 1e-9);
	assert_float_equal(r.c[LC_CAT_LI], 8.0 / 3, 1e-9);
	if (!strstr(out, "2 waits linking") || !strstr(out, "path: a#1 .. a#3 (ta, 0 .. 12 s) -> b#2 .. b#3 (tb, 12 .. 14.67 s)"))
		fail_msg("explanation:\n%s", out);
	free(out);
	lcm_free(s);
	/* the same structure with the pipeline rule, for contrast: three equal
	 * iterations, 12 + 4/3 = 40/3 */
	snprintf(buf, sizeof(buf), text, "after: ta / 3");
	s = load(buf, NP, 2);
	assert_float_equal(at(s, (double[]){ 4, 2 }).t, 40.0 / 3, 1e-9);
	/* and with the trace, the critical path replaces that rule */
	assert_int_equal(lcm_set_trace(s, &t, "tr", msg, sizeof(msg)), 0);
	assert_float_equal(at(s, (double[]){ 4, 2 }).t, 44.0 / 3, 1e-9);
	lcm_free(s);
	/* a trace without the structure's tags is refused */
	s = load("parallel par: a b\nfragment a\n    model: rt(n,p) = n\n    tag: 8\n"
		 "fragment b\n    model: rt(n,p) = n\n", NP, 2);
	assert_int_equal(lcm_set_trace(s, &t, "tr", msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "no fragment of t.lcm has a tag"));
	lcm_free(s);
	lc_strace_free(&t);
	snprintf(st, sizeof(st), "%s/lostcycles-trace.s1.77.0000000000000abc", dir);
	unlink(st);
	assert_int_equal(lc_strace_read(dir, &t, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "no trace file"));
	rmdir(dir);
}

LC_TEST_MAIN(NULL, NULL,
	     LC_T(test_serial_sum), LC_T(test_parallel_li), LC_T(test_override_and_unused),
	     LC_T(test_communication), LC_T(test_measured_baseline), LC_T(test_pipeline_fill),
	     LC_T(test_intervals), LC_T(test_refusals), LC_T(test_unknown_variable),
	     LC_T(test_extract), LC_T(test_critical_path))
