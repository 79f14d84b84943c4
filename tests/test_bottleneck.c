/*
 * test_bottleneck.c — report --bottlenecks on a synthetic profile written
 * with the real writer: an MPI call that took 6x its LogGP ideal (the CL
 * credited there) is flagged by the baseline test, one at 1.5x is not, a
 * hotspot place without a baseline says its deviation test needs a trace,
 * and a place under the hotspot share has no row.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "lc_test.h"

#include "lc_abi.h"
#include "lc_profile.h"
#include "prof_writer.h"
#include "report.h"

#define MPI(what, a) ((uint64_t)LC_PLACE_MPI << 56 | (uint64_t)(what) << 48 | (a))
#define SLOW MPI(1, 0x1000)
#define FINE MPI(2, 0x2000)
#define LOOP ((uint64_t)LC_PLACE_OMP_WORK << 56 | 0x3000)
#define SMALL ((uint64_t)LC_PLACE_OMP_WORK << 56 | 0x4000)
#define MS 1000000ull

static char dir[] = "/tmp/lc_test_bneckXXXXXX";
static char cmd[] = "./no-such-program";
static char comm[] = "synthetic";
static char recv_name[] = "MPI_Recv", send_name[] = "MPI_Send";

static struct lc_prof_place pl(uint64_t place, uint64_t pc, uint64_t cl, uint64_t sl)
{
	return (struct lc_prof_place){ .source = LC_SRC_SAMPLED, .pid = 100, .place = place,
				       .cat = { [LC_CAT_PC] = pc, [LC_CAT_CL] = cl,
						[LC_CAT_SL] = sl } };
}

/* One thread over 1 s: SLOW 100 ms CL + 500 ms SL, FINE 100 ms CL + 50 ms
 * SL, LOOP 200 ms, SMALL 10 ms, elsewhere 40 ms. */
static struct lc_profile *make(void)
{
	struct lc_prof_info in = { .interval_ns = 100000, .window_ns = 1000 * MS, .command = cmd };
	struct lc_prof_process pc = { .pid = 100, .comm = comm };
	struct lc_prof_end e = { .end_ns = 1000 * MS, .procs = 1, .procs_from = LC_PROCS_OPTION };
	struct lc_prof_place p[5] = { pl(SLOW, 0, 100 * MS, 500 * MS), pl(FINE, 0, 100 * MS, 50 * MS),
				      pl(LOOP, 200 * MS, 0, 0), pl(SMALL, 10 * MS, 0, 0),
				      pl(0, 40 * MS, 0, 0) };
	struct lc_prof_trow r = { .thread = 0, .cat = { [LC_CAT_PC] = 250 * MS,
							[LC_CAT_CL] = 200 * MS,
							[LC_CAT_SL] = 550 * MS } };
	struct lc_prof_window w = { .source = LC_SRC_SAMPLED, .len_ns = 1000 * MS, .ticks = 10000,
				    .max_n = 1, .nthreads = 1, .threads = &r,
				    .acct = { .t_we = 1000 * MS, .n_we = 1000 * MS } };
	struct lc_prof_place_name nm[2] = { { .kind = LC_PLACE_MPI, .what = 1, .name = recv_name },
					    { .kind = LC_PLACE_MPI, .what = 2, .name = send_name } };
	char path[300];
	struct lc_pwriter *pw;

	memcpy(w.acct.cat, r.cat, sizeof(r.cat));
	snprintf(path, sizeof(path), "%s/b.data", dir);
	pw = lc_test_pwriter(path, &in, &pc, 1, 300);
	assert_int_equal(lc_pwriter_window(pw, &w), 0);
	assert_int_equal(lc_pwriter_places(pw, 5, p), 0);
	assert_int_equal(lc_pwriter_place_names(pw, 2, nm), 0);
	assert_int_equal(lc_pwriter_end(pw, &e), 0);
	assert_int_equal(lc_pwriter_close(pw), 0);
	return lc_test_read_back(path);
}

/* The CSV table of pr's bottlenecks, as a string to free. */
static char *table(const struct lc_profile *pr)
{
	struct lc_report_opts o = { .fmt = LC_REPORT_CSV, .source = LC_SRC_SAMPLED };
	char path[300], msg[512], *buf = calloc(1, 8192);
	int fd, keep = dup(1);
	FILE *f;

	snprintf(path, sizeof(path), "%s/out.csv", dir);
	fflush(stdout);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0 && keep >= 0 && buf);
	dup2(fd, 1);
	close(fd);
	if (lc_report_bottlenecks(pr, &o, NULL, msg, sizeof(msg)))
		fail_msg("%s", msg);
	fflush(stdout);
	dup2(keep, 1);
	close(keep);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_true(fread(buf, 1, 8191, f) > 0);
	fclose(f);
	unlink(path);
	return buf;
}

/* The line of t holding s, copied into line. */
static int line_of(const char *t, const char *s, char *line, size_t len)
{
	const char *p = strstr(t, s), *b, *e;

	if (!p)
		return 0;
	for (b = p; b > t && b[-1] != '\n'; b--)
		;
	e = strchr(p, '\n');
	snprintf(line, len, "%.*s", (int)((e ? e : p + strlen(p)) - b), b);
	return 1;
}

static void test_baseline(void **state)
{
	struct lc_profile *pr = make();
	char *t = table(pr), line[512];
	int rows = 0;

	(void)state;
	assert_true(line_of(t, "MPI_Recv", line, sizeof(line)));
	assert_non_null(strstr(line, ",baseline,6.0000,yes,"));
	assert_true(line_of(t, "MPI_Send", line, sizeof(line)));
	assert_non_null(strstr(line, ",baseline,1.5000,no,"));
	assert_true(line_of(t, "omp", line, sizeof(line)));
	assert_non_null(strstr(line, "needs instances"));
	assert_non_null(strstr(line, ",no,"));
	for (const char *p = t; (p = strchr(p, '\n')); p++)
		rows++;
	assert_int_equal(rows, 4);	/* header, two calls, the loop; not SMALL */
	free(t);
	lc_profile_free(pr);
}

LC_TEST_MAIN_IN_DIR(dir, LC_T(test_baseline))
