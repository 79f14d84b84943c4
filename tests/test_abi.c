/*
 * test_abi.c — freezes the shared-memory and trace-file ABI (lc_abi.h): the
 * size and offset of every field, the magic numbers and the constants the
 * sampler relies on.  A failure here means the ABI changed: bump
 * LC_ABI_VERSION in lostcycles.h, which is also the SONAME major (or use
 * reserved space and bump LC_ABI_MINOR), and update docs/shm-abi.md.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <setjmp.h>
#include <cmocka.h>

#include "lc_test.h"
#include "lc_abi.h"

/* A field of a structure: where it is and how wide, and where the frozen
 * ABI has it. */
struct field {
	const char *name;
	size_t off, size, want_off, want_size;
};

#define F(type, field, o, s)                                                            \
	{ #type "." #field, offsetof(struct type, field), sizeof(((struct type *)0)->field), \
	  (o), (s) }

/* A constant and its frozen value. */
struct konst {
	const char *name;
	long long got, want;
};

#define K(c, w) { #c, (long long)(c), (long long)(w) }

#include "abi_tables.h"

#define N(t) (sizeof(t) / sizeof((t)[0]))

/* Each of the n fields at f is where the ABI froze it. */
static void check_fields(const struct field *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (f[i].off != f[i].want_off || f[i].size != f[i].want_size)
			fail_msg("%s: offset %zu, size %zu; frozen at %zu, %zu", f[i].name, f[i].off,
				 f[i].size, f[i].want_off, f[i].want_size);
}

/* Each of the n constants at k has its frozen value. */
static void check_consts(const struct konst *k, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (k[i].got != k[i].want)
			fail_msg("%s is %lld, frozen at %lld", k[i].name, k[i].got, k[i].want);
}

static void test_slot(void **state)
{
	(void)state;
	assert_int_equal(sizeof(struct lc_slot), 64);
	check_fields(slot_fields, N(slot_fields));
}

static void test_seg_hdr(void **state)
{
	(void)state;
	assert_int_equal(sizeof(struct lc_seg_hdr), 4096);
	assert_int_equal(sizeof(struct lc_tag_entry), 16);
	check_fields(seg_fields, N(seg_fields));
}

static void test_trace(void **state)
{
	(void)state;
	assert_int_equal(sizeof(struct lc_trace_hdr), 64);
	assert_int_equal(sizeof(struct lc_trace_rec), 24);
	check_fields(trace_fields, N(trace_fields));
}

/* The magic numbers and the constants; the macros test "flags >
 * LC_SLOT_NO_SYNC" for an object: every bit below the object's index must
 * be in it. */
static void test_constants(void **state)
{
	(void)state;
	assert_memory_equal(&(uint64_t){LC_SEG_MAGIC}, "LCSEGMT1", 8);
	assert_memory_equal(&(uint64_t){LC_TRACE_MAGIC}, "LCTRACE1", 8);
	check_consts(abi_constants, N(abi_constants));
	assert_int_equal(LC_SLOT_QUEUE_EMPTY & ~LC_SLOT_NO_SYNC, 0);
	assert_string_equal(LC_ENV_HOST, "LOSTCYCLES_HOST");
	assert_string_equal(LC_SHM_PREFIX, "lostcycles.");
	assert_string_equal(LC_TRACE_PREFIX, "lostcycles-trace.");
}

/* Places (ABI 1.4): one 8-byte cell per slot after the slots; the cells'
 * encodings. */
static void test_place_cells(void **state)
{
	(void)state;
	assert_int_equal(lc_seg_size_of(LC_SEG_PLACES, 8), LC_HDR_SIZE + 8 * 72);
	assert_int_equal(lc_seg_size_of(0, 8), LC_HDR_SIZE + 8 * 64);
	/* stamps (ABI 1.5): 128 bytes a slot, from the next 64-byte boundary
	 * after the place cells; never without place cells */
	assert_int_equal(lc_seg_stamps_at(8), LC_HDR_SIZE + 8 * 72);
	assert_int_equal(lc_seg_stamps_at(7), LC_HDR_SIZE + 7 * 72 + 8);
	assert_int_equal(lc_seg_size_of(LC_SEG_PLACES | LC_SEG_STAMPS, 7),
			 LC_HDR_SIZE + 7 * 72 + 8 + 7 * 128);
	assert_int_equal(lc_seg_size_of(LC_SEG_STAMPS, 8), 0);
	assert_int_equal(LC_PLACE_OMP_REGION, LC_TAG_KIND(LC_TAG_OMP));
	assert_int_equal(lc_place_omp(LC_PLACE_OMP_WORK, 0x1234, 0x1122334455ull),
			 0x5712341122334455ull);
	assert_int_equal(lc_place_site(LC_PLACE_MPI, 3, 0xabcd, 0x401000), 0x4d03abcd00401000ull);
	assert_int_equal(lc_place_site(LC_PLACE_SYNC, 1, 7, 1ull << 32) & 0xffffffffu,
			 LC_PLACE_NOADDR);
}

/* A site cell's fields, and the names of the frozen "what" indices
 * (profiles carry them). */
static void test_place_fields(void **state)
{
	(void)state;
	assert_int_equal(LC_PLACE_SITE_MODULE(0x4d03abcd00401000ull), 0xabcd);
	assert_int_equal(LC_PLACE_SITE_VADDR(0x4d03abcd00401000ull), 0x401000);
	assert_int_equal(LC_PLACE_WHAT(0x4d03abcd00401000ull), 3);
	assert_string_equal(lc_place_what_name(LC_PLACE_MPI, LC_MPIF_ALLREDUCE), "MPI_Allreduce");
	assert_string_equal(lc_place_what_name(LC_PLACE_SYNC, LC_WAIT_BARRIER), "barrier");
	assert_null(lc_place_what_name(LC_PLACE_MPI, LC_MPIF_N));
	assert_null(lc_place_what_name(LC_PLACE_SYNC, 0));
	assert_null(lc_place_what_name(LC_PLACE_OMP_WORK, 1));
}

/* The library reports the version of the header it was built with; the
 * packed number orders versions.  (tests/t_version.sh checks the SONAME
 * major against LC_ABI_VERSION.) */
static void test_version(void **state)
{
	char want[32];

	(void)state;
	snprintf(want, sizeof(want), "%d.%d.%d", LC_VERSION_MAJOR, LC_VERSION_MINOR,
		 LC_VERSION_PATCH);
	assert_string_equal(lc_version(), want);
	assert_int_equal(LC_VERSION_NUMBER,
			 LC_VERSION_MAJOR * 65536 + LC_VERSION_MINOR * 256 + LC_VERSION_PATCH);
	assert_true(LC_VERSION_MINOR < 256 && LC_VERSION_PATCH < 256);
}

LC_TEST_MAIN(NULL, NULL,
	     LC_T(test_slot), LC_T(test_seg_hdr), LC_T(test_trace), LC_T(test_constants),
	     LC_T(test_place_cells), LC_T(test_place_fields), LC_T(test_version))
