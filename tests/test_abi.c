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

#define OFF(type, field, off, size)                                      \
	do {                                                             \
		assert_int_equal(offsetof(struct type, field), (off));   \
		assert_int_equal(sizeof(((struct type *)0)->field), (size)); \
	} while (0)

static void test_slot(void **state)
{
	(void)state;
	assert_int_equal(sizeof(struct lc_slot), 64);
	OFF(lc_slot, state, 0, 4);
	OFF(lc_slot, flags, 4, 4);
	OFF(lc_slot, task, 8, 8);
	OFF(lc_slot, tid, 16, 4);
	OFF(lc_slot, gen, 20, 4);
	OFF(lc_slot, nwasted, 24, 4);
	OFF(lc_slot, xfer_ns, 28, 4);
	OFF(lc_slot, wasted, 32, 32);
	assert_int_equal(LC_WASTED_RING, 4);
	assert_int_equal(LC_SLOT_QUEUE_EMPTY, 1);
	assert_int_equal(LC_ST_NONE, 0);
	assert_int_equal(LC_ST_IDLE, 1);
	assert_int_equal(LC_ST_BUSY, 2);
	assert_int_equal(LC_ST_SYNC, 3);
	assert_int_equal(LC_ST_COMM, 4);
}

static void test_seg_hdr(void **state)
{
	(void)state;
	assert_int_equal(sizeof(struct lc_seg_hdr), 4096);
	OFF(lc_seg_hdr, magic, 0, 8);
	OFF(lc_seg_hdr, abi_major, 8, 2);
	OFF(lc_seg_hdr, abi_minor, 10, 2);
	OFF(lc_seg_hdr, hdr_size, 12, 4);
	OFF(lc_seg_hdr, slot_size, 16, 4);
	OFF(lc_seg_hdr, nslots, 20, 4);
	OFF(lc_seg_hdr, seg_size, 24, 8);
	OFF(lc_seg_hdr, pid, 32, 4);
	OFF(lc_seg_hdr, flags, 36, 4);
	OFF(lc_seg_hdr, start_ns, 40, 8);
	OFF(lc_seg_hdr, nonce, 48, 8);
	OFF(lc_seg_hdr, proc_start, 56, 8);
	OFF(lc_seg_hdr, work_exists, 64, 8);
	OFF(lc_seg_hdr, solution_found, 72, 4);
	OFF(lc_seg_hdr, team, 76, 4);
	OFF(lc_seg_hdr, comm, 80, 16);
	OFF(lc_seg_hdr, reserved1, 96, 32);
	OFF(lc_seg_hdr, slot_hwm, 128, 4);
	OFF(lc_seg_hdr, slots_full, 132, 4);
	OFF(lc_seg_hdr, places_deep, 136, 4);
	OFF(lc_seg_hdr, reserved2, 140, 52);
	OFF(lc_seg_hdr, tag_seq, 192, 4);
	OFF(lc_seg_hdr, ntags, 196, 4);
	OFF(lc_seg_hdr, tags_full, 200, 4);
	OFF(lc_seg_hdr, reserved3, 204, 52);
	OFF(lc_seg_hdr, tags, 256, 32 * 16);
	OFF(lc_seg_hdr, job_ready, 768, 4);
	OFF(lc_seg_hdr, rank, 772, 4);
	OFF(lc_seg_hdr, job_size, 776, 4);
	OFF(lc_seg_hdr, job_flags, 780, 4);
	OFF(lc_seg_hdr, clock_offset_ns, 784, 8);
	OFF(lc_seg_hdr, job_id, 792, 8);
	OFF(lc_seg_hdr, reserved12, 800, 32);
	OFF(lc_seg_hdr, host, 832, 64);
	OFF(lc_seg_hdr, sync_n, 896, 4);
	OFF(lc_seg_hdr, sync_full, 900, 4);
	OFF(lc_seg_hdr, reserved14, 904, 56);
	OFF(lc_seg_hdr, sync, 960, 48 * 64);
	OFF(lc_seg_hdr, reserved, 4032, 64);
	OFF(lc_sync_entry, obj, 0, 8);
	OFF(lc_sync_entry, seq, 8, 4);
	OFF(lc_sync_entry, name, 16, 48);
	assert_int_equal(LC_JOB_LOGGP, 1);
	assert_int_equal(sizeof(struct lc_tag_entry), 16);
	OFF(lc_tag_entry, tag, 0, 8);
	OFF(lc_tag_entry, depth, 8, 4);
	OFF(lc_tag_entry, reserved, 12, 4);
}

static void test_trace(void **state)
{
	(void)state;
	assert_int_equal(sizeof(struct lc_trace_hdr), 64);
	OFF(lc_trace_hdr, magic, 0, 8);
	OFF(lc_trace_hdr, abi_major, 8, 2);
	OFF(lc_trace_hdr, abi_minor, 10, 2);
	OFF(lc_trace_hdr, rec_size, 12, 4);
	OFF(lc_trace_hdr, pid, 16, 4);
	OFF(lc_trace_hdr, reserved0, 20, 4);
	OFF(lc_trace_hdr, nonce, 24, 8);
	OFF(lc_trace_hdr, start_ns, 32, 8);
	OFF(lc_trace_hdr, reserved, 40, 24);
	assert_int_equal(sizeof(struct lc_trace_rec), 24);
	OFF(lc_trace_rec, t_ns, 0, 8);
	OFF(lc_trace_rec, op, 8, 2);
	OFF(lc_trace_rec, reserved, 10, 2);
	OFF(lc_trace_rec, slot, 12, 4);
	OFF(lc_trace_rec, arg, 16, 8);
}

static void test_constants(void **state)
{
	(void)state;
	assert_memory_equal(&(uint64_t){LC_SEG_MAGIC}, "LCSEGMT1", 8);
	assert_memory_equal(&(uint64_t){LC_TRACE_MAGIC}, "LCTRACE1", 8);
	assert_int_equal(LC_ABI_MAJOR, 1);
	assert_int_equal(LC_ABI_VERSION, LC_ABI_MAJOR);
	assert_int_equal(LC_ABI_MINOR, 4);
	/* places (ABI 1.4): one 8-byte cell per slot after the slots */
	assert_int_equal(LC_SEG_PLACES, 4);
	assert_int_equal(LC_SEG_SIZE_PLACES(8), LC_HDR_SIZE + 8 * 72);
	assert_int_equal(LC_PLACE_DEPTH, 8);
	assert_int_equal(LC_PLACE_OMP_REGION, LC_TAG_KIND(LC_TAG_OMP));
	assert_int_equal(lc_place_omp(LC_PLACE_OMP_WORK, 0x1234, 0x1122334455ull),
			 0x5712341122334455ull);
	assert_int_equal(lc_place_site(LC_PLACE_MPI, 3, 0xabcd, 0x401000), 0x4d03abcd00401000ull);
	assert_int_equal(lc_place_site(LC_PLACE_SYNC, 1, 7, 1ull << 32) & 0xffffffffu,
			 LC_PLACE_NOADDR);
	assert_int_equal(LC_PLACE_SITE_MODULE(0x4d03abcd00401000ull), 0xabcd);
	assert_int_equal(LC_PLACE_SITE_VADDR(0x4d03abcd00401000ull), 0x401000);
	assert_int_equal(LC_PLACE_WHAT(0x4d03abcd00401000ull), 3);
	/* the "what" indices are frozen: profiles carry them */
	assert_int_equal(LC_WAIT_MUTEX, 1);
	assert_int_equal(LC_WAIT_USER, 8);
	assert_int_equal(LC_MPIF_SEND, 1);
	assert_int_equal(LC_MPIF_RECV, 5);
	assert_int_equal(LC_MPIF_ALLREDUCE, 24);
	assert_int_equal(LC_MPIF_WIN_FLUSH_ALL, 49);
	assert_string_equal(lc_place_what_name(LC_PLACE_MPI, LC_MPIF_ALLREDUCE), "MPI_Allreduce");
	assert_string_equal(lc_place_what_name(LC_PLACE_SYNC, LC_WAIT_BARRIER), "barrier");
	assert_null(lc_place_what_name(LC_PLACE_MPI, LC_MPIF_N));
	assert_null(lc_place_what_name(LC_PLACE_SYNC, 0));
	assert_null(lc_place_what_name(LC_PLACE_OMP_WORK, 1));
	assert_int_equal(LC_MAX_SYNC, 48);
	assert_int_equal(LC_SLOT_SYNC_SHIFT, 8);
	/* the macros test "flags > LC_SLOT_NO_SYNC" for an object: every bit
	 * below the object's index must be in it */
	assert_int_equal(LC_SLOT_NO_SYNC, (1u << LC_SLOT_SYNC_SHIFT) - 1);
	assert_int_equal(LC_SLOT_QUEUE_EMPTY & ~LC_SLOT_NO_SYNC, 0);
	assert_string_equal(LC_ENV_HOST, "LOSTCYCLES_HOST");
	assert_int_equal(LC_HDR_SIZE, 4096);
	assert_int_equal(LC_SEG_TRACE, 1);
	assert_int_equal(LC_MAX_TAGS, 32);
	assert_int_equal(LC_SESSION_MAX, 64);
	assert_int_equal(LC_SLOTS_DEFAULT, 256);
	assert_int_equal(LC_SLOTS_MAX, 65536);
	assert_string_equal(LC_SHM_PREFIX, "lostcycles.");
	assert_string_equal(LC_TRACE_PREFIX, "lostcycles-trace.");
	assert_int_equal(LC_OP_STATE, 1);
	assert_int_equal(LC_OP_QUEUE_EMPTY, 2);
	assert_int_equal(LC_OP_TASK, 3);
	assert_int_equal(LC_OP_WASTED, 4);
	assert_int_equal(LC_OP_REGISTER, 5);
	assert_int_equal(LC_OP_RELEASE, 6);
	assert_int_equal(LC_OP_PARALLEL, 7);
	assert_int_equal(LC_OP_SOLUTION, 8);
	assert_int_equal(LC_OP_TEAM, 9);
	assert_int_equal(LC_OP_FRAGMENT_BEGIN, 10);
	assert_int_equal(LC_OP_FRAGMENT_END, 11);
	assert_int_equal(LC_OP_PUSH, 12);
	assert_int_equal(LC_OP_POP, 13);
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
	     LC_T(test_version))
