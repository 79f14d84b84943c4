/*
 * test_where.c — report --where on a synthetic profile written with the
 * real writer (odd nanoseconds, a wasted and a move correction, empty
 * processor slots, two places of one name): the rows and (elsewhere) add
 * up to the report's totals to the ns, (elsewhere) is exactly the rows
 * without a place plus the empty slots, the same numbers come out as text,
 * CSV and JSON, names are unique and found by -t, an ambiguous name is
 * refused with its candidates; the place-word layout and the MPI table
 * match the target side's.
 *
 * With arguments it writes a profile for tests/t_where_names.sh instead:
 *   test_where --write OUT MAIN[@BIAS] LIB SPEC...
 * MAIN and LIB ("-": none) get module rows with their build id, size and
 * mtime as they are now (MAIN@BIAS: with load bias BIAS, hex); each SPEC is
 * one place row of its own time:
 *   o:ADDR w:ADDR (OpenMP region, loop of MAIN)  l:ADDR (a region of LIB)
 *   m:IDX:ADDR (MPI function IDX, LC_MPI_FUNCS, called from MAIN)  s:WHAT:ADDR:OBJ (a wait)
 *   t:ADDR (an OpenMP fragment tag of MAIN open 1 ms)
 */
#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "lc_abi.h"
#include "lc_profile.h"
#include "prof_writer.h"
#include "lc_program.h"
#include "placename.h"
#include "where_print.h"

static char dir[] = "/tmp/lc_test_whereXXXXXX";
static char path[256];
static char err[256];

#define OMPW(a) ((uint64_t)LC_PLACE_OMP_WORK << 56 | (a))
#define OMPR(a) ((uint64_t)LC_PLACE_OMP_REGION << 56 | (a))
#define SYNC(what, a) ((uint64_t)LC_PLACE_SYNC << 56 | (uint64_t)(what) << 48 | (a))
#define MPI(what, a) ((uint64_t)LC_PLACE_MPI << 56 | (uint64_t)(what) << 48 | (a))

#define PA OMPW(0x1111)
#define PB OMPR(0x2222)
#define PS1 SYNC(1, LC_PLACE_NOADDR)
#define PS2 SYNC(2, LC_PLACE_NOADDR)
#define OBJ 0x601040u

static char name_lock[] = "lock_a";
static char name_mutex[] = "mutex";
static char name_wait[] = "the profile's wait";	/* its names block's, for what 2 */
static char cmd[] = "./no-such-program";
static char comm[] = "synthetic";

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/w.data", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	rmdir(dir);
	return 0;
}

static struct lc_prof_place prow(uint32_t win, uint32_t t, uint64_t place, int c1,
				 uint64_t v1, int c2, uint64_t v2)
{
	struct lc_prof_place p = { .source = LC_SRC_SAMPLED, .window = win, .thread = t,
				   .pid = 100, .place = place,
				   .obj = LC_PLACE_KIND(place) == LC_PLACE_SYNC ? OBJ : 0 };

	p.cat[c1] += v1;
	p.cat[c2] += v2;
	return p;
}

/* A window: its thread rows r[n] (their sum is its acct) over len ns of
 * p = 3 slots, work existing in it when we. */
static void window(struct lc_pwriter *w, uint32_t idx, uint32_t n, struct lc_prof_trow *r,
		   int we)
{
	struct lc_prof_window win = { .source = LC_SRC_SAMPLED, .index = idx,
				      .start_ns = idx * 10000000ull, .len_ns = 10000000,
				      .ticks = 100, .max_n = n, .nthreads = n, .threads = r };

	for (uint32_t i = 0; i < n; i++)
		for (int c = 0; c < LC_NCAT; c++)
			win.acct.cat[c] += r[i].cat[c];
	if (we) {
		win.acct.t_we = 10000000;
		win.acct.n_we = 10000000ull * n;
	} else {
		win.acct.t_nwe = 10000000;
		win.acct.n_nwe = 10000000ull * n;
	}
	assert_int_equal(lc_pwriter_window(w, &win), 0);
}

/* Window 0: three threads in places A and S1/S2 (one name) and nowhere. */
static void window0(struct lc_pwriter *w)
{
	struct lc_prof_trow r[3] = {
		{ .thread = 0, .cat = { [LC_CAT_PC] = 7000001, [LC_CAT_LI] = 2999999 } },
		{ .thread = 1, .cat = { [LC_CAT_PC] = 4333333, [LC_CAT_SL] = 5666667 } },
		{ .thread = 2, .cat = { [LC_CAT_PC] = 9000007, [LC_CAT_SL] = 999993 } },
	};
	struct lc_prof_place pl[7] = {
		prow(0, 0, PA, LC_CAT_PC, 5000001, LC_CAT_LI, 2999999),
		prow(0, 0, 0, LC_CAT_PC, 2000000, LC_CAT_PC, 0),
		prow(0, 1, PA, LC_CAT_PC, 4333333, LC_CAT_PC, 0),
		prow(0, 1, PS1, LC_CAT_SL, 5666667, LC_CAT_PC, 0),
		prow(0, 2, PA, LC_CAT_PC, 8000000, LC_CAT_PC, 0),
		prow(0, 2, PS2, LC_CAT_SL, 999993, LC_CAT_PC, 0),
		prow(0, 2, 0, LC_CAT_PC, 1000007, LC_CAT_PC, 0),
	};

	window(w, 0, 3, r, 1);
	assert_int_equal(lc_pwriter_places(w, 7, pl), 0);
}

/* Window 1: one thread in region B; the two empty slots are IP. */
static void window1(struct lc_pwriter *w)
{
	struct lc_prof_trow r[1] = { { .thread = 0, .cat = { [LC_CAT_PC] = 10000000 } } };
	struct lc_prof_place pl[3] = {
		prow(1, 0, PB, LC_CAT_PC, 6000000, LC_CAT_PC, 0),
		prow(1, 0, 0, LC_CAT_PC, 4000000, LC_CAT_PC, 0),
		prow(1, UINT32_MAX, 0, LC_CAT_IP, 20000000, LC_CAT_PC, 0),
	};

	window(w, 1, 1, r, 0);
	assert_int_equal(lc_pwriter_places(w, 3, pl), 0);
}

static void write_sample(void)
{
	struct lc_prof_info in = { .interval_ns = 100000, .window_ns = 10000000, .command = cmd };
	struct lc_prof_process pc = { .pid = 100, .comm = comm };
	struct lc_prof_sync sy = { .source = LC_SRC_SAMPLED, .pid = 100, .obj = OBJ,
				   .ns = 6666660, .name = name_lock };
	struct lc_prof_wasted x = { .source = LC_SRC_SAMPLED, .window = 0, .thread = 1,
				    .ns = 1000003, .task = 5 };
	struct lc_prof_end e = { .end_ns = 20000000, .procs = 3, .procs_from = LC_PROCS_OPTION };
	struct lc_prof_place_name nm[2] = {
		{ .kind = LC_PLACE_SYNC, .what = 1, .name = name_mutex },
		{ .kind = LC_PLACE_SYNC, .what = 2, .name = name_wait },
	};
	struct lc_pwriter *w = lc_test_pwriter(path, &in, &pc, 3, 300);

	window0(w);
	window1(w);
	assert_int_equal(lc_pwriter_wasted(w, &x), 0);
	x = (struct lc_prof_wasted){ .source = LC_SRC_SAMPLED, .window = 0, .thread = 2,
				     .ns = 777777, .from = LC_CAT_PC, .to = LC_CAT_ML };
	assert_int_equal(lc_pwriter_move(w, &x), 0);
	assert_int_equal(lc_pwriter_sync(w, LC_SRC_SAMPLED, 1, &sy), 0);
	assert_int_equal(lc_pwriter_place_names(w, 2, nm), 0);
	assert_int_equal(lc_pwriter_end(w, &e), 0);
	assert_int_equal(lc_pwriter_close(w), 0);
}

static struct lc_profile *read_sample(void)
{
	struct lc_profile *pr = NULL;

	write_sample();
	assert_int_equal(lc_profile_read(path, &pr, err, sizeof(err)), 0);
	return pr;
}

/* The where view of category cat (-1: all) of pr's sampled source; built,
 * or the test fails with the reason. */
static struct lc_where *built(struct lc_profile *pr, int cat)
{
	struct lc_where *w = NULL;
	char msg[256];

	if (lc_where_build(pr, LC_SRC_SAMPLED, cat, &w, msg, sizeof(msg)))
		fail_msg("%s", msg);
	return w;
}

/* The rows add up to the totals; (elsewhere) is the rows without a place
 * plus the slots no thread row holds. */
static void test_exact(void **state)
{
	struct lc_profile *pr = read_sample();
	const struct lc_prof_data *d = &pr->data[LC_SRC_SAMPLED];
	struct lc_where *w = built(pr, -1);

	(void)state;
	assert_int_equal(w->n, 5);	/* A, B, lock_a, lock_a#2, elsewhere */
	assert_string_equal(w->rows[w->n - 1].name, "(elsewhere)");
	for (int c = 0; c < LC_NCAT; c++) {
		uint64_t sum = 0, nowhere = 0, threads = 0;

		for (uint32_t i = 0; i < w->n; i++)
			sum += w->rows[i].cat[c];
		assert_int_equal(sum, w->total[c]);
		for (uint32_t i = 0; i < d->nplaces; i++)
			if (!d->places[i].place && d->places[i].thread != UINT32_MAX)
				nowhere += d->places[i].cat[c];
		for (uint32_t i = 0; i < d->nthreads; i++)
			threads += d->threads[i].cat[c];
		assert_int_equal(w->rows[w->n - 1].cat[c], nowhere + w->total[c] - threads);
	}
	assert_int_equal(w->total[LC_CAT_WC], 1000003);
	assert_int_equal(w->total[LC_CAT_ML], 777777);
	assert_int_equal(w->total[LC_CAT_IP], 20000000);
	/* ranked by lost time: lock_a (SL 5.67 ms) before A (LI 3 ms + WC 1 ms) */
	assert_string_equal(w->rows[0].name, "lock_a");
	assert_int_equal(w->rows[0].cat[LC_CAT_SL], 5666667);
	assert_string_equal(w->rows[1].name, "0x1111");
	assert_int_equal(w->rows[1].cat[LC_CAT_WC], 1000003);
	assert_int_equal(w->rows[1].nthreads, 3);
	assert_int_equal(w->rows[1].slow_id, 302);	/* tid 302: the most PC there */
	lc_where_free(w);
	lc_profile_free(pr);
}

/* -t: every printed name finds its row; a shared prefix is ambiguous. */
static void test_find(void **state)
{
	struct lc_profile *pr = read_sample();
	struct lc_where *w = built(pr, LC_CAT_LI);
	char msg[512];

	(void)state;
	assert_string_equal(w->rows[0].name, "0x1111");	/* the only LI */
	for (uint32_t i = 0; i < w->n; i++)
		assert_ptr_equal(lc_where_find(w, w->rows[i].name, msg, sizeof(msg)), &w->rows[i]);
	assert_string_equal(lc_where_find(w, "lock_a#2", msg, sizeof(msg))->what,
			    "the profile's wait");	/* the names block wins */
	assert_string_equal(lc_where_find(w, "lock_a", msg, sizeof(msg))->what, "mutex");
	assert_null(lc_where_find(w, "nothing", msg, sizeof(msg)));
	assert_non_null(strstr(msg, "no place is named"));
	assert_int_equal(lc_where_names(pr, LC_SRC_SAMPLED, "lock_a#2", msg, sizeof(msg)), 1);
	lc_where_free(w);
	lc_profile_free(pr);
}

/* The whole output of lc_where_print as fmt. */
static char *printed(const struct lc_profile *pr, const struct lc_where *w, int fmt)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	assert_non_null(f);
	assert_int_equal(lc_where_print(f, pr, w, fmt), 0);
	fclose(f);
	return buf;
}

/* A decimal with 9 digits after the point as ns. */
static uint64_t ns_of(const char *s)
{
	uint64_t v = 0;

	for (; (*s >= '0' && *s <= '9') || *s == '.'; s++)
		if (*s != '.')
			v = v * 10 + (uint64_t)(*s - '0');
	return v;
}

/* The column of CSV header line csv named key. */
static int csv_col(const char *csv, const char *key)
{
	int col = 0;
	size_t k = strlen(key);

	for (const char *s = csv; *s && *s != '\n'; col++) {
		if (!strncmp(s, key, k) && (s[k] == ',' || s[k] == '\n'))
			return col;
		s = strchr(s, ',');
		if (!s)
			break;
		s++;
	}
	return -1;
}

/* Field col of CSV line s (no quoted commas in these rows' numbers). */
static const char *csv_field(const char *s, int col)
{
	if (*s == '"')	/* a quoted first field */
		s = strchr(s + 1, '"') + 1;
	for (int i = 0; i < col && s; i++)
		s = strchr(s, ',') ? strchr(s, ',') + 1 : NULL;
	return s;
}

/* The number of text row line that ends at column end (aligned under its
 * header), or NAN. */
static double text_cell(const char *line, size_t len, size_t end)
{
	size_t b = end;

	if (end > len)
		return NAN;
	while (b > 0 && line[b - 1] != ' ')
		b--;
	return strtod(line + b, NULL);
}

/* The text table: each row's seconds are its CSV's to the printed 3
 * decimals, column by column (found under the header's keys), and the
 * (total) row is the totals. */
static void check_text(const char *text, const struct lc_where *w)
{
	const char *hdr = strchr(text, '\n') + 1, *line = strchr(hdr, '\n') + 1;
	uint32_t row = 0;

	for (; *line && strncmp(line, "**", 2); line = strchr(line, '\n') + 1, row++) {
		size_t len = (size_t)(strchr(line, '\n') - line);
		const uint64_t *cat = row < w->n ? w->rows[row].cat : w->total;

		for (int c = 0; c < LC_NCAT; c++) {
			char key[8];
			const char *k;

			snprintf(key, sizeof(key), " %s ", lc_cat_info(c)->key);
			k = strstr(hdr, key);
			assert_non_null(k);
			assert_true(fabs(text_cell(line, len, (size_t)(k - hdr) + strlen(key) - 1) -
					 (double)cat[c] / 1e9) < 0.0005 + 1e-9);
		}
	}
	assert_int_equal(row, w->n + 1);
}

/* CSV and JSON: each category's column adds up to the total, in ns. */
static void test_formats(void **state)
{
	struct lc_profile *pr = read_sample();
	struct lc_where *w = built(pr, -1);
	char *csv, *json, *text;
	struct json_object *arr;

	(void)state;
	csv = printed(pr, w, 1);
	json = printed(pr, w, 2);
	text = printed(pr, w, 0);
	arr = json_tokener_parse(json);
	assert_non_null(arr);
	assert_int_equal(json_object_array_length(arr), w->n);
	for (int c = 0; c < LC_NCAT; c++) {
		int col = csv_col(csv, lc_cat_info(c)->key);
		uint64_t sum = 0, jsum = 0;
		const char *line = strchr(csv, '\n') + 1;

		assert_true(col > 0);
		for (; *line; line = strchr(line, '\n') + 1)
			sum += ns_of(csv_field(line, col));
		for (size_t i = 0; i < json_object_array_length(arr); i++) {
			struct json_object *v;

			assert_true(json_object_object_get_ex(json_object_array_get_idx(arr, i),
							      lc_cat_info(c)->key, &v));
			jsum += (uint64_t)llround(json_object_get_double(v) * 1e9);
		}
		assert_int_equal(sum, w->total[c]);
		assert_int_equal(jsum, w->total[c]);
	}
	assert_non_null(strstr(text, "(total)"));
	check_text(text, w);
	assert_non_null(strstr(text, "lock_a#2"));
	json_object_put(arr);
	free(csv);
	free(json);
	free(text);
	lc_where_free(w);
	lc_profile_free(pr);
}

/* The sum of category column c of the HTML table id="where" in html, ns:
 * a cell shows ms, its title the ns ("<td title=\"0.123456789 s\">"). */
static uint64_t html_sum(const char *html, int c)
{
	const char *s = strstr(html, "<table id=\"where\">"), *end = strstr(s, "</table>");
	uint64_t sum = 0;

	for (s = strstr(s, "<tr><td>"); s && s < end; s = strstr(s + 1, "<tr><td>")) {
		const char *cell = s;

		for (int k = 0; k < 2 + c + 1; k++)
			cell = strstr(cell, "<td") + 3;
		cell = !strncmp(cell, " title=\"", 8) ? cell + 8 : strchr(cell, '>') + 1;
		sum += ns_of(cell);
	}
	return sum;
}

/* The HTML report's table: the same numbers, ranked copy id="where". */
static void test_html(void **state)
{
	struct lc_profile *pr = read_sample();
	struct lc_where *w = built(pr, -1);
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	(void)state;
	assert_int_equal(lc_where_html(f, pr, w), 0);
	fclose(f);
	assert_null(strstr(buf, "<script"));
	for (int c = 0; c < LC_NCAT; c++)
		assert_int_equal(html_sum(buf, c), w->total[c]);
	assert_non_null(strstr(buf, "<table id=\"where-li\">"));
	free(buf);
	lc_where_free(w);
	lc_profile_free(pr);
}

/* The inclusive view: one row per function and per tag, overlapping. */
static void test_inclusive(void **state)
{
	struct lc_profile *pr = read_sample();
	struct lc_where *w = NULL;
	char msg[256];

	(void)state;
	assert_int_equal(lc_where_inclusive(pr, LC_SRC_SAMPLED, -1, NULL, NULL, &w, msg,
					    sizeof(msg)), 0);
	assert_int_equal(w->n, 1);	/* no names: one unknown function */
	assert_string_equal(w->rows[0].name, "(unknown function)()");
	assert_int_equal(w->rows[0].cat[LC_CAT_SL], 6666660);
	lc_where_free(w);
	lc_profile_free(pr);
}

/* The layout analysis reads is the target side's. */
static void test_layout(void **state)
{
	uint64_t ow = (uint64_t)LC_PLACE_OMP_WORK << 56 | (uint64_t)0x1234 << 40 | 0xabcdef;
	uint64_t mw = (uint64_t)LC_PLACE_MPI << 56 | (uint64_t)7 << 48 | (uint64_t)0x55 << 32 |
		      LC_PLACE_NOADDR;

	(void)state;
	assert_int_equal(LC_PLN_OMP_REGION, LC_PLACE_OMP_REGION);
	assert_int_equal(LC_PLN_OMP_WORK, LC_PLACE_OMP_WORK);
	assert_int_equal(LC_PLN_MPI, LC_PLACE_MPI);
	assert_int_equal(LC_PLN_SYNC, LC_PLACE_SYNC);
	assert_int_equal(LC_PLN_KIND(ow), LC_PLACE_KIND(ow));
	assert_int_equal(LC_PLN_OMP_MODULE(ow), 0x1234);
	assert_int_equal(LC_PLN_OMP_ADDR(ow), 0xabcdef);
	assert_int_equal(LC_PLN_WHAT(mw), LC_PLACE_WHAT(mw));
	assert_int_equal(LC_PLN_CALL_MODULE(mw), 0x55);
	assert_int_equal(LC_PLN_CALL_ADDR(mw), LC_PLACE_NOADDR);
	for (uint32_t k = 0; k < 256; k++)	/* the MPI and wait tables are the layers' */
		for (uint32_t what = 0; what < 256; what++) {
			const char *a = lc_placename_what(k, what), *b = lc_place_what_name(k, what);

			if (!a || !b)
				assert_true(!a && !b);
			else
				assert_string_equal(a, b);
		}
}

/* ---- the profile writer of t_where_names.sh ------------------------------ */

/* A module row for file f of hash h as the file is now; "FILE@HEX" records
 * load bias HEX. */
static int put_module(struct lc_pwriter *w, const char *f, uint32_t h)
{
	static char id[256], file[4096];
	struct stat st;
	struct lc_prof_module m = { .pid = 100, .hash = h, .path = file };
	char *at;

	snprintf(file, sizeof(file), "%s", f);
	if ((at = strchr(file, '@'))) {
		*at = 0;
		m.based = 1;
		m.bias = strtoull(at + 1, NULL, 16);
	}
	f = file;
	if (stat(f, &st))
		return -errno;
	m.build_id = lc_program_build_id(f, id, sizeof(id)) ? NULL : id;
	m.size = (uint64_t)st.st_size;
	m.mtime_ns = (uint64_t)st.st_mtim.tv_sec * 1000000000ull + (uint64_t)st.st_mtim.tv_nsec;
	return lc_pwriter_module(w, &m);
}

/* The place word (and object) of one SPEC; 0 when it is not one. */
static uint64_t spec_word(const char *s, const char *lib, uint64_t *obj)
{
	unsigned long long a = 0, b = 0, c = 0;

	*obj = 0;
	if (sscanf(s, "o:%llx", &a) == 1)
		return OMPR(a);
	if (sscanf(s, "w:%llx", &a) == 1)
		return OMPW(a);
	if (sscanf(s, "l:%llx", &a) == 1)
		return OMPR(a) | (uint64_t)lc_tag_module_hash(lib) << 40;
	if (sscanf(s, "m:%llu:%llx", &a, &b) == 2)
		return MPI(a, b);
	if (sscanf(s, "s:%llu:%llx:%llx", &a, &b, &c) == 3) {
		*obj = c;
		return SYNC(a, b);
	}
	return 0;
}

/* Write a profile of one window whose one thread spent 1 ms in each SPEC's
 * place (argv: OUT MAIN LIB SPEC...).  Returns the exit status. */
static int write_specs(int argc, char **argv)
{
	char prog[4096];
	struct lc_prof_info in = { .interval_ns = 100000, .window_ns = 10000000, .command = prog };
	struct lc_prof_process pc = { .pid = 100, .comm = comm };
	struct lc_prof_thread th = { .idx = 0, .pid = 100, .tid = 300 };
	struct lc_prof_place pl[256];
	struct lc_prof_trow r = { .thread = 0 };
	struct lc_prof_end e = { .procs = 1, .procs_from = LC_PROCS_OPTION };
	struct lc_prof_window win = { .index = 0, .len_ns = 10000000, .ticks = 10, .max_n = 1,
				      .nthreads = 1, .threads = &r };
	struct lc_prof_tagrow tg[16];
	struct lc_pwriter *w;
	int n = 0, rc = 0;
	unsigned long long a;

	snprintf(prog, sizeof(prog), "%.*s", (int)strcspn(argv[1], "@"), argv[1]);
	win.tags = tg;
	for (int i = 3; i < argc && n < 256; i++, n++) {
		if (sscanf(argv[i], "t:%llx", &a) == 1 && win.ntags < 16) {
			tg[win.ntags++] = (struct lc_prof_tagrow){
				.tag = (int64_t)(0x4full << 56 | a),
				.acct = { .cat = { [LC_CAT_SL] = 1000000 }, .t_we = 1000000,
					  .n_we = 1000000 } };
			n--;
			continue;
		}
		pl[n] = (struct lc_prof_place){ .thread = 0, .pid = 100,
						.cat = { [LC_CAT_SL] = 1000000 } };
		pl[n].place = spec_word(argv[i], argv[2], &pl[n].obj);
		r.cat[LC_CAT_SL] += 1000000;
	}
	win.acct.cat[LC_CAT_SL] = r.cat[LC_CAT_SL];
	win.acct.t_we = win.acct.n_we = r.cat[LC_CAT_SL];
	e.end_ns = win.acct.t_we;
	unlink(argv[0]);
	if (!(w = lc_pwriter_open(argv[0], &in, &rc)))
		return 1;
	rc |= lc_pwriter_process(w, &pc) | lc_pwriter_thread(w, &th) |
	      lc_pwriter_window(w, &win) | lc_pwriter_places(w, (uint32_t)n, pl);
	rc |= put_module(w, argv[1], 0);
	if (strcmp(argv[2], "-"))
		rc |= put_module(w, argv[2], lc_tag_module_hash(argv[2]));
	rc |= lc_pwriter_end(w, &e);
	rc |= lc_pwriter_close(w);
	return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact), cmocka_unit_test(test_find),
		cmocka_unit_test(test_formats), cmocka_unit_test(test_html),
		cmocka_unit_test(test_inclusive), cmocka_unit_test(test_layout),
	};

	if (argc > 4 && !strcmp(argv[1], "--write"))
		return write_specs(argc - 2, argv + 2);
	return cmocka_run_group_tests(tests, setup, teardown);
}
