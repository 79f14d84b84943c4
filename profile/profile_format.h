/*
 * profile_format.h — the constants of the profile file (docs/format.md) and
 * the little-endian and zigzag helpers shared by the writer
 * (profile/profile_write.c) and the reader (profile/profile_read.c).
 * Internal: not part of lc_profile.h.
 */
#ifndef LC_PROFILE_FORMAT_H
#define LC_PROFILE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#define LC_PF_MAGIC		0x3130464f5250434cULL	/* "LCPROF01" read as LE u64 */
#define LC_PF_MAJOR		1	/* incompatible changes bump this */
#define LC_PF_MINOR		5	/* fields appended or block types added bump this */
#define LC_PF_HDR_SIZE		24	/* magic, major, minor, size, flags, crc */
#define LC_PF_BLK_HDR		8	/* block header: type u16, flags u16, length u32 */
#define LC_PF_BLK_CRC		4	/* CRC-32 after each payload */
#define LC_PF_BLK_MAX		(1u << 30)	/* longest payload a reader accepts */

/* Block types. */
enum {
	LC_PF_INFO = 1,
	LC_PF_PROCESS = 2,
	LC_PF_THREAD = 3,
	LC_PF_WINDOW = 4,
	LC_PF_WASTED = 5,
	LC_PF_END = 6,
	LC_PF_RANK = 7,		/* minor 1 */
	LC_PF_MOVE = 8,		/* minor 2 */
	LC_PF_EVENTS = 9,	/* minor 2 */
	LC_PF_COUNTS = 10,	/* minor 2 */
	LC_PF_SYNC = 11,	/* minor 2 */
	LC_PF_VWINDOW = 12,	/* minor 3: a window in varints (written instead of 4) */
	LC_PF_MACHINE = 13,	/* minor 4: the machine's share of the program's CPUs */
	LC_PF_PLACES = 14,	/* minor 5: the place rows of one window */
	LC_PF_MODULE = 15,	/* minor 5: a module of place words */
	LC_PF_PLACE_NAMES = 16,	/* minor 5: the names of place words' "what" */
};

/* Longest unsigned LEB128 varint: 64 bits in 7-bit groups. */
#define LC_PF_VARINT_MAX	10

/* The fields of a varint window's masks (type 12): bit i stands for field
 * lc_pf_vorder[i] of the fixed-width order above for i < 10, and for field
 * i from 10 on.  The fields a thread row nearly always has come first, so
 * that a row's mask is one byte. */
static const uint8_t lc_pf_vorder[10] = { 8 /* PC */, 2 /* SL */, 0 /* LI */, 4 /* RC */,
					  3 /* CL */, 5 /* ML */, 7 /* WC */, 6 /* BL */,
					  1 /* IP */, 9 /* li_qempty */ };

/* Bits of an accounting mask: LC_NCAT categories, then these fields. */
#define LC_PF_M_QEMPTY	9
#define LC_PF_M_TWE	10
#define LC_PF_M_NWE	11
#define LC_PF_M_TNWE	12
#define LC_PF_M_NNWE	13
#define LC_PF_M_ACCT	((1u << 14) - 1)	/* every bit an lc_acct may use */
#define LC_PF_M_TROW	((1u << 10) - 1)	/* every bit a thread row may use */
#define LC_PF_M_PLACE	((1u << 9) - 1)	/* every bit a place row may use */

/* A field of a record in the file, as the writer writes it and the reader
 * reads it: its width there (1, 4 or 8 bytes, the width of the struct's
 * field, little-endian; LC_PF_VAR | 4 or 8: a varint into a u32 or u64
 * field), LC_PF_STR (a u32 length and the bytes; a char *
 * in the struct, NULL for length 0) or LC_PF_STRS (a u8 count and that many
 * strings; a char *[LC_NCAT] in the struct, strings past it skipped), and
 * its offset in the struct. */
#define LC_PF_STR	0
#define LC_PF_STRS	2
#define LC_PF_VAR	0x20	/* with a size 4 or 8: an unsigned varint */
#define LC_PF_SIZE	0x0f	/* the size bits of a width */
struct lc_pf_field {
	uint8_t width;
	uint16_t off;
};

/* The fields of a record, or of one part of it, in file order.  The
 * tables are in profile.c. */
struct lc_pf_layout {
	const struct lc_pf_field *f;
	uint32_t n;
};

extern const struct lc_pf_layout lc_pf_window4, lc_pf_vwindow, lc_pf_info, lc_pf_info_grow, lc_pf_process, lc_pf_thread,
	lc_pf_rank, lc_pf_machine, lc_pf_module, lc_pf_module_bias, lc_pf_wasted, lc_pf_move,
	lc_pf_counts, lc_pf_sync_row, lc_pf_event_row, lc_pf_place_name_row;

/* The end block: its fields, then the parts appended in later minors (2:
 * ext, 4: p's rules, 5: the interval rule, 5: descriptors, 5: limits),
 * each present in full or not at all. */
extern const struct lc_pf_layout lc_pf_end, lc_pf_end_ext, lc_pf_end_p, lc_pf_end_rule,
	lc_pf_end_fds, lc_pf_end_limits;

/* Zigzag: signed values of small magnitude as small unsigned ones
 * (0, -1, 1, -2, ... as 0, 1, 2, 3, ...). */
static inline uint64_t lc_pf_zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t lc_pf_unzigzag(uint64_t u)
{
	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32) of p[0..n) continuing from
 * crc (0 to start).  Defined in profile.c. */
uint32_t lc_crc32(uint32_t crc, const void *p, size_t n);

/* Little-endian stores and loads at p. */
static inline void lc_pf_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void lc_pf_put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline void lc_pf_put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint16_t lc_pf_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t lc_pf_get32(const uint8_t *p)
{
	uint32_t v = 0;

	for (int i = 3; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static inline uint64_t lc_pf_get64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

#endif /* LC_PROFILE_FORMAT_H */
